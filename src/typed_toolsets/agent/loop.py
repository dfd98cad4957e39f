"""`ReAct`: the bounded loop in which a model calls tools until it gives a final answer.

The loop itself is written once, as a generator that yields what it needs next (the model's
step, an approval, a tool call) and receives the answer; `ReAct.run` and `ReAct.arun` only
fulfil those requests, the one synchronously, the other on the running event loop. So both
forms follow the same rules, step for step.
"""

from __future__ import annotations

import asyncio
import copy
import math
import time
import typing
from collections.abc import Awaitable, Callable, Generator, Iterable, Mapping
from typing import Any, TypeAlias

import attrs

from typed_toolsets import (
    Arguments,
    ExportError,
    StrictArguments,
    ToolError,
    ToolProxy,
    ToolResult,
    Toolset,
)
from typed_toolsets._public import public_in
from typed_toolsets.call.execution import execution_error, holds, stray_cancellation
from typed_toolsets.export.dialects import unique_tools
from typed_toolsets.export.values import result_text

from .errors import DeadlineExceededError, MaxIterationsError
from .prompt import Transcript, Turn, system_prompt
from .steps import FINISH, AgentResult, Reply, Step, failure_text, is_finish, read_reply
from .waiting import TIMED_OUT, SyncRunner, call_async, running_loop, settle

__all__ = ["Approve", "Model", "ModelReply", "ReAct"]

#: What a model returns for one step: JSON text, or a mapping (see `typed_toolsets.agent`).
ModelReply: TypeAlias = Mapping[str, Any] | str | bytes
#: The model: takes the transcript, returns the next step (or an awaitable of it).
Model: TypeAlias = Callable[[Transcript], ModelReply | Awaitable[ModelReply]]
#: The approval callback: ``approve(tool_name, arguments)`` returns (or awaits to) a bool.
Approve: TypeAlias = Callable[[str, Mapping[str, Any]], bool | Awaitable[bool]]


# ------------------------------------------------------------------------- the requests


@attrs.frozen
class _AskModel:
    transcript: Transcript
    timeout: float | None


@attrs.frozen
class _AskApproval:
    tool: str
    arguments: dict[str, Any]
    timeout: float | None


@attrs.frozen
class _CheckArguments:
    proxy: ToolProxy
    arguments: Arguments
    timeout: float | None


@attrs.frozen
class _RunTool:
    proxy: ToolProxy
    arguments: Arguments
    timeout: float | None


_Request: TypeAlias = "_AskModel | _CheckArguments | _AskApproval | _RunTool"
_Core: TypeAlias = "Generator[_Request, object, AgentResult]"


@attrs.frozen
class _Outcome:
    """What an action gave: its observation; whether the tool ran, and the deadline stopped it."""

    observation: str
    ok: bool
    result: ToolResult | None = None
    stopped: bool = False
    ran: bool = False


class _Clock:
    """The run's deadline, on the monotonic clock."""

    def __init__(self, deadline: float | None) -> None:
        self.deadline = deadline
        self._end = None if deadline is None else time.monotonic() + deadline

    def remaining(self) -> float | None:
        """Seconds left (possibly negative), or None without a deadline."""
        return None if self._end is None else self._end - time.monotonic()

    def expired(self) -> bool:
        left = self.remaining()
        return left is not None and left <= 0

    def passed(self, steps: list[Step], waiting_for: str) -> DeadlineExceededError:
        """The error for a deadline that passed (only asked when there is a deadline)."""
        return DeadlineExceededError(steps, typing.cast("float", self.deadline), waiting_for)


# --------------------------------------------------------------------------------- ReAct


def _positive_int(name: str, value: object, *, optional: bool) -> int | None:
    if value is None and optional:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        msg = f"{name} must be an int, got {type(value).__name__}"
        raise TypeError(msg)
    if value < 1:
        msg = f"{name} must be at least 1, got {value}"
        raise ValueError(msg)
    return value


def _deadline(value: object) -> float | None:
    if value is None:
        return None
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        msg = f"deadline must be a number of seconds, got {type(value).__name__}"
        raise TypeError(msg)
    try:
        seconds = float(value)
    except OverflowError:  # an int past the floats (whose repr may not even be writable)
        msg = "deadline must be a positive, finite number of seconds, got an int too large"
        raise ValueError(msg) from None
    if not (seconds > 0 and math.isfinite(seconds)):
        msg = f"deadline must be a positive, finite number of seconds, got {value!r}"
        raise ValueError(msg)
    return seconds


def _tool_map(tools: Iterable[ToolProxy]) -> dict[str, ToolProxy]:
    if isinstance(tools, Toolset) or (isinstance(tools, type) and issubclass(tools, Toolset)):
        msg = (
            "ReAct takes the tools' proxies, not a toolset: pass tools=MyToolset.to_tools() "
            "(or only the proxies the agent needs)"
        )
        raise TypeError(msg)
    if isinstance(typing.cast(object, tools), (ToolProxy, str, bytes)):
        msg = f"tools must be a list of ToolProxy objects, got one {type(tools).__name__}"
        raise TypeError(msg)
    found = unique_tools(tools)
    clashes = [name for name in found if is_finish(name)]
    if clashes:
        raise ExportError(
            f"A tool is exported as {name!r}, which the agent reserves for its final answer; "
            "rename it with tool(..., tool_name=...)"
            for name in clashes
        )
    return found


@public_in("typed_toolsets.agent")
class ReAct:
    """A bounded ReAct agent: the model picks a tool, sees what it gave, and so on to an answer.

    Each iteration asks the model for one step (see `typed_toolsets.agent` for its format),
    then carries it out and shows the model the observation. Everything the model gets wrong
    comes back to it as an observation starting with ``"Error: "``: a tool's error, an unknown
    action (listing the tools), a malformed step (saying what to fix), a refused approval. Only
    the tools given here can ever be called.

    Args:
        model: Takes the `Transcript`, returns the next step: JSON text or a mapping, or an
            awaitable of one (an ``async def`` model, or an async client's call).
        tools: The proxies the model may call (``Toolset.to_tools()``; pass only those it
            needs). Two tools with one name, or a tool named ``finish``, are an `ExportError`.
        max_iterations: At most this many steps (model replies); there is no default, the
            bound is always explicit. Running out raises `MaxIterationsError`.
        approve: ``approve(tool_name, arguments) -> bool`` (sync or async), asked before each
            call of a tool declared ``requires_approval=True``; the tool runs only on True. A
            False is an observation for the model; without a callback such tools are refused.
        deadline: Seconds for the whole run; when it passes, the run raises
            `DeadlineExceededError` with the steps so far. Awaited work (async models, async
            tools, sync tools in `arun`) is stopped at the deadline; a sync model or tool
            called from `run` cannot be interrupted, so the deadline is checked when it returns.
        max_observation_chars: Show the model at most this many characters of an observation,
            with a note saying how much was cut; the step keeps the whole observation.

    Raises:
        TypeError: An argument has the wrong type (e.g. a toolset instead of its proxies).
        ValueError: ``max_iterations`` or ``max_observation_chars`` below 1, a deadline that is
            not positive.
        ExportError: Two tools share a name, or a tool is named ``finish``.
    """

    __slots__ = (
        "_approve",
        "_deadline",
        "_max_iterations",
        "_max_observation_chars",
        "_model",
        "_prompt",
        "_tools",
    )

    def __init__(
        self,
        model: Model,
        tools: Iterable[ToolProxy],
        *,
        max_iterations: int,
        approve: Approve | None = None,
        deadline: float | None = None,
        max_observation_chars: int | None = None,
    ) -> None:
        if not callable(typing.cast(object, model)):  # callers without a type checker
            msg = f"model must be callable (it takes the transcript), got {type(model).__name__}"
            raise TypeError(msg)
        if approve is not None and not callable(typing.cast(object, approve)):
            msg = f"approve must be callable or None, got {type(approve).__name__}"
            raise TypeError(msg)
        self._model = model
        self._tools = _tool_map(tools)
        self._max_iterations = typing.cast(
            "int", _positive_int("max_iterations", max_iterations, optional=False)
        )
        self._approve = approve
        self._deadline = _deadline(deadline)
        self._max_observation_chars = _positive_int(
            "max_observation_chars", max_observation_chars, optional=True
        )
        self._prompt = system_prompt(self._tools.values())

    @property
    def model(self) -> Model:
        """The model callable."""
        return self._model

    @property
    def tools(self) -> tuple[ToolProxy, ...]:
        """The tools on offer, in order."""
        return tuple(self._tools.values())

    @property
    def max_iterations(self) -> int:
        """The most steps a run may take."""
        return self._max_iterations

    @property
    def approve(self) -> Approve | None:
        """The approval callback, if any."""
        return self._approve

    @property
    def deadline(self) -> float | None:
        """Seconds allowed for a whole run, if bounded."""
        return self._deadline

    @property
    def max_observation_chars(self) -> int | None:
        """How much of an observation the model is shown, if capped."""
        return self._max_observation_chars

    @property
    def system_prompt(self) -> str:
        """The instructions a text model is given (`Transcript.system_prompt`)."""
        return self._prompt

    def __repr__(self) -> str:
        return (
            f"ReAct(model={self._model!r}, tools={list(self._tools)!r}, "
            f"max_iterations={self._max_iterations!r}, deadline={self._deadline!r}, "
            f"max_observation_chars={self._max_observation_chars!r})"
        )

    # --------------------------------------------------------------------------- drivers

    def run(self, task: str) -> AgentResult:
        """Run the loop to a final answer.

        Sync models, callbacks and tools are called directly. An awaitable from the model or
        the callback, and an async tool, are run on one private event loop for the whole run
        (inside a running event loop, use `arun`).

        Raises:
            MaxIterationsError: No final answer within ``max_iterations`` steps.
            DeadlineExceededError: The deadline passed first.
            TypeError: The task is no str; the model returned a response object, not a step;
                approve() returned a non-bool.
            ValueError: The task is empty (or blank).
        """
        clock = _Clock(self._deadline)
        core = self._core(_task(task), clock)
        runner = SyncRunner()
        try:
            answer: object = None
            while True:
                try:
                    request = core.send(answer)
                except StopIteration as done:
                    return typing.cast("AgentResult", done.value)
                # Outside the `try`: a StopIteration the model or a callback raises is theirs
                # (propagated unchanged), not the end of the loop (a run returning None).
                answer = self._answer(request, runner)
        finally:
            core.close()
            runner.close()

    async def arun(self, task: str) -> AgentResult:
        """The async form of `run`: awaits async models, callbacks and tools on the running loop.

        A sync model or callback runs in a thread of its own (left behind at the deadline,
        counted until it returns), and a sync tool as `ToolProxy.ainvoke` runs it, so the event
        loop is never blocked; the deadline stops waiting for any of them.
        """
        clock = _Clock(self._deadline)
        core = self._core(_task(task), clock)
        try:
            answer: object = None
            while True:
                try:
                    request = core.send(answer)
                except StopIteration as done:
                    return typing.cast("AgentResult", done.value)
                answer = await self._aanswer(request)
        finally:
            core.close()

    def _answer(self, request: _Request, runner: SyncRunner) -> object:
        if isinstance(request, _AskModel):
            return runner.settle(self._model(request.transcript), request.timeout, "the model")
        if isinstance(request, _CheckArguments):
            return request.proxy.check(request.arguments)
        if isinstance(request, _AskApproval):
            approve = typing.cast("Approve", self._approve)
            verdict = approve(request.tool, request.arguments)
            return runner.settle(verdict, request.timeout, "the approval callback")
        try:
            return self._run_tool(request, runner)
        except BaseException as exc:
            if not _own_cancellation(exc):
                raise
            return _failed(request.proxy, exc)

    def _run_tool(self, request: _RunTool, runner: SyncRunner) -> object:
        proxy = request.proxy
        if proxy.is_async:
            if running_loop():
                # Not the tool's failure: the run cannot wait here, which the caller must fix.
                msg = (
                    f"tool {proxy.name!r} is async, but run() was called from a running event "
                    "loop, where it cannot wait for it; use `await agent.arun(task)`"
                )
                raise RuntimeError(msg)
            # On the run's own loop, so the deadline can cancel it.
            return runner.settle(proxy.ainvoke(request.arguments), request.timeout, "the tool")
        if request.timeout is not None and proxy.limits.timeout is not None and not running_loop():
            # A sync tool with a timeout runs in a thread of its own anyway: waited for on the
            # run's loop, it is left to run on at the run's deadline (counted, as at its timeout).
            return runner.settle(proxy.ainvoke(request.arguments), request.timeout, "the tool")
        return proxy.invoke(request.arguments)

    async def _aanswer(self, request: _Request) -> object:
        if isinstance(request, _AskModel):
            asked = call_async(self._model, request.transcript)
            return await settle(asked, request.timeout)
        if isinstance(request, _CheckArguments):
            # Off the event loop: arguments up to the size limit may take a while to read.
            checked = asyncio.to_thread(request.proxy.check, request.arguments)
            return await settle(checked, request.timeout)
        if isinstance(request, _AskApproval):
            approve = typing.cast("Approve", self._approve)
            asked = call_async(approve, request.tool, request.arguments)
            return await settle(asked, request.timeout)
        proxy = request.proxy
        try:
            if request.timeout is not None and not (proxy.is_async or proxy.inline):
                # A thread of its own, not the loop's executor: one still running at the deadline
                # holds no worker there, and asyncio.run does not wait for it (counted until done).
                called = call_async(proxy.invoke, request.arguments)
                return await settle(called, request.timeout)
            return await settle(proxy.ainvoke(request.arguments), request.timeout)
        except BaseException as exc:
            if not _own_cancellation(exc):
                raise
            return _failed(proxy, exc)

    # ----------------------------------------------------------------------------- the loop

    def _core(self, task: str, clock: _Clock) -> _Core:
        steps: list[Step] = []
        turns: list[Turn] = []
        tools = tuple(self._tools.values())
        for _ in range(self._max_iterations):
            if clock.expired():
                raise clock.passed(steps, "the model")
            started = time.perf_counter()
            transcript = Transcript(task, tools, tuple(turns), self._prompt)
            reply = yield _AskModel(transcript, clock.remaining())
            if reply is TIMED_OUT or clock.expired():
                # A sync model in `run` is noticed only when it returns: a step past the deadline
                # (a final answer, a tool call) is not one `arun` would have waited for (SPEC 10).
                raise clock.passed(steps, "the model")
            read = read_reply(reply, self._tools)
            if read.finishes:
                steps.append(Step(read.thought, FINISH, {}, None, time.perf_counter() - started))
                return AgentResult(read.final_answer, tuple(steps), len(steps))
            outcome = yield from self._act(read, clock, steps)
            step = Step(
                read.thought,
                read.action,
                read.arguments,
                outcome.observation,
                time.perf_counter() - started,
                ok=outcome.ok,
                result=outcome.result,
            )
            steps.append(step)
            if outcome.stopped or (outcome.ran and clock.expired()):
                # A sync tool in `run` cannot be stopped: the deadline that passed while it ran
                # is noticed as it returns, and was the tool's, not the next model turn's.
                raise clock.passed(steps, f"tool {read.action!r}")
            turns.append(Turn(reply, self._shown(outcome.observation), step))
        if clock.expired():
            # The deadline passed in the last step (a sync part cannot be stopped): it came
            # first, and more iterations would only have met it a step later.
            raise clock.passed(steps, "the model")
        raise MaxIterationsError(steps, self._max_iterations)

    def _act(
        self, read: Reply, clock: _Clock, steps: list[Step]
    ) -> Generator[_Request, object, _Outcome]:
        """Carry out a tool step (or explain why not): the outcome the model observes."""
        if read.problem is not None or read.action is None:
            failed = None if read.refused is None else ToolResult.failure(read.refused)
            return _Outcome(read.problem or "Error: Malformed step", ok=False, result=failed)
        proxy = self._tools[read.action]
        arguments: Arguments = (
            StrictArguments(read.arguments)
            if read.strict
            else read.arguments
            if read.arguments_text is None
            else read.arguments_text
        )
        if proxy.requires_approval:
            if self._approve is None:
                return _Outcome(
                    f"Error: Tool {proxy.name!r} runs only when approved, and nobody can approve "
                    "it in this run: the call was not made. Choose another action, or finish.",
                    ok=False,
                )
            # Only a call the tool would accept is put to the callback: what it approves are the
            # arguments that run (read, de-duplicated, valid, within the limits).
            refused = yield _CheckArguments(proxy, arguments, clock.remaining())
            if refused is TIMED_OUT or clock.expired():
                # Read in `run` on the caller's thread, noticed late as a sync model is; nobody
                # is asked about a call that cannot run.
                raise clock.passed(steps, f"the check of the arguments of {proxy.name!r}")
            if refused is not None:
                error = typing.cast("ToolError", refused)
                return _Outcome(failure_text(error), ok=False, result=ToolResult.failure(error))
            asked = copy.deepcopy(read.arguments)  # what the callback sees cannot change the call
            verdict = yield _AskApproval(proxy.name, asked, clock.remaining())
            if verdict is TIMED_OUT or clock.expired():
                # A sync callback in `run`, noticed as it returns: it, not the tool, overran.
                raise clock.passed(steps, f"the approval of {proxy.name!r}")
            if not isinstance(verdict, bool):
                msg = (
                    f"approve({proxy.name!r}, ...) must return True or False, got "
                    f"{type(verdict).__name__}"
                )
                raise TypeError(msg)
            if not verdict:
                return _Outcome(
                    f"Error: The call of tool {proxy.name!r} was not approved. Choose another "
                    "action, or finish.",
                    ok=False,
                )
        if clock.expired():
            raise clock.passed(steps, f"tool {proxy.name!r}")
        result = yield _RunTool(proxy, arguments, clock.remaining())
        if result is TIMED_OUT:
            return _Outcome(
                f"Error: Tool {proxy.name!r} was stopped: the run's deadline of "
                f"{clock.deadline:g} s passed during the call.",
                ok=False,
                stopped=True,
            )
        done = typing.cast("ToolResult", result)
        text = result_text(proxy, done.value) if done.error is None else failure_text(done.error)
        return _Outcome(text, ok=done.ok, result=done, ran=True)

    def _shown(self, observation: str) -> str:
        """The observation as the model sees it: cut at the cap, with a note saying so."""
        cap = self._max_observation_chars
        if cap is None or len(observation) <= cap:
            return observation
        return (
            f"{observation[:cap]}\n[Observation truncated: showing the first {cap} of "
            f"{len(observation)} characters.]"
        )


def _own_cancellation(exc: BaseException) -> bool:
    """Whether *exc*, out of a tool call, is a cancellation of the tool's own (see `_failed`).

    Ctrl-C and an exit go on, grouped with one or not: the run stops, as `invoke` lets them.
    """
    return stray_cancellation(exc) and not holds(exc, (KeyboardInterrupt, SystemExit))


def _failed(proxy: ToolProxy, exc: BaseException) -> ToolResult[Any]:
    """The step's result when the tool let out a cancellation of its own.

    The call path lets every ``CancelledError`` through; one the run is not cancelled by (the
    tool awaited a task something else cancelled) is the tool's failure, an observation as any
    other (`typed_toolsets.call.execution.stray_cancellation`).
    """
    return ToolResult.failure(execution_error(proxy.name, exc))


def _task(task: object) -> str:
    if not isinstance(task, str):
        msg = f"the task must be a str, got {type(task).__name__}"
        raise TypeError(msg)
    if not task.strip():
        # Nothing for the model to do, and a request Anthropic's API refuses (empty content).
        msg = "the task is empty: give the text of what the agent is to do"
        raise ValueError(msg)
    return task
