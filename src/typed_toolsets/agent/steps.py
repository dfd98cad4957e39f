"""What a run records (`Step`, `AgentResult`) and how the model's reply is read.

The model answers each turn with one step, as JSON text or a mapping::

    {"thought": "...", "action": "<tool name>", "action_input": {...}}
    {"thought": "...", "action": "finish", "final_answer": ...}

In a mapping, ``action_input`` may also be `typed_toolsets.StrictArguments`: arguments written
for the tool's strict schema (a native adapter's with ``strict=True``), called so.

`read_reply` turns that into a `Reply`, or into the ``"Error: ..."`` observation that tells the
model what to fix: a reply that is not JSON, not an object, without an ``action``, or with a
field of the wrong type is a malformed step, never an exception.
"""

from __future__ import annotations

import re
import typing
from collections.abc import Mapping
from typing import Any, Final

import attrs

from typed_toolsets import Limits, StrictArguments, ToolError, ToolProxy, ToolResult
from typed_toolsets._public import public_in
from typed_toolsets.call.jsonbounds import LimitExceeded, NotJSONValue, depth_over
from typed_toolsets.call.jsonin import MAX_NESTING, InvalidJSON, parse_strict
from typed_toolsets.call.jsonvalues import copy_mapping
from typed_toolsets.call.paths import dotted_path
from typed_toolsets.call.result import short_repr
from typed_toolsets.call.shown import short
from typed_toolsets.call.validation import with_article
from typed_toolsets.export.calls import read_arguments
from typed_toolsets.rules.sendable import valid_text
from typed_toolsets.types.typespec import json_type_of

__all__ = [
    "FINISH",
    "STEP_FORMAT",
    "AgentResult",
    "Reply",
    "Step",
    "failure_text",
    "is_finish",
    "parse_json",
    "read_reply",
]

#: The action that ends the run (matched case-insensitively; no tool may be named so).
FINISH: Final = "finish"

#: The shape of a step, as the prompt and the malformed-step observations show it.
STEP_FORMAT: Final = (
    '{"thought": "<your reasoning>", "action": "<a tool name>", "action_input": {<its arguments>}}'
    ', or {"thought": "<your reasoning>", "action": "finish", "final_answer": "<your answer>"}'
)

#: The limits for reading the arguments of an unknown action (recorded in its step only).
_UNKNOWN_TOOL_LIMITS: Final = Limits()
#: The deepest reply read: a step object around arguments nested as deep as any tool reads.
_DEEPEST: Final = MAX_NESTING + 1

#: What a model may return: JSON text, a mapping, or a parsed JSON value (a malformed step).
_SENT: Final = (str, bytes, bytearray, Mapping, list, int, float, type(None))

# A reply wrapped in one Markdown code fence, as models often send JSON.
_FENCED: Final = re.compile(r"\A```[A-Za-z0-9_-]*[ \t]*\r?\n(.*)\r?\n```\Z", re.S)


@public_in("typed_toolsets.agent")
@attrs.frozen
class Step:
    """One step of a run: what the model chose, and what it observed.

    Attributes:
        thought: The model's reasoning (``""`` when it gave none).
        action: The tool it called, ``"finish"``, or None when the step could not be read.
        arguments: The arguments it sent (``{}`` for ``finish`` and unreadable steps).
        observation: What the call gave, in full, as the model reads it: the tool's value as
            text (a ``str`` as it is, anything else as JSON), or an ``"Error: ..."`` text for a
            failed call, a refusal, an unknown action or a malformed step. None for ``finish``.
            The model may have been shown a truncated copy (``max_observation_chars``).
        duration: Seconds the step took: the model's reply, the approval and the tool call.
        ok: False when the observation is an error (the tool failed, the call was refused, the
            action was unknown or the step malformed).
        result: The tool's `ToolResult` (its Python value, or its structured `ToolError`) when
            the tool was called or refused the arguments; None otherwise.
    """

    # What the model sent and the tool gave may be megabytes: a repr shows them cut short.
    thought: str = attrs.field(repr=short_repr)
    action: str | None = attrs.field(repr=short_repr)
    arguments: Mapping[str, Any] = attrs.field(repr=short_repr)
    observation: str | None = attrs.field(repr=short_repr)
    duration: float
    ok: bool = True
    result: ToolResult | None = attrs.field(default=None, repr=False)

    def to_dict(self) -> dict[str, Any]:
        """The step as a JSON-ready dict (without ``result``, whose value may not be JSON)."""
        return {
            "thought": self.thought,
            "action": self.action,
            "arguments": dict(self.arguments),
            "observation": self.observation,
            "duration": self.duration,
            "ok": self.ok,
        }


@public_in("typed_toolsets.agent")
@attrs.frozen
class AgentResult:
    """The outcome of `ReAct.run`: the final answer and every step that led to it.

    Attributes:
        final_answer: What the model gave as ``final_answer`` (any JSON value; usually text).
        steps: Every step, in order; the last is the ``finish`` step.
        iterations: How many steps the model took (``len(steps)``).
    """

    # A run may take thousands of steps: a repr shows the first few, each cut short.
    final_answer: object = attrs.field(repr=short_repr)
    steps: tuple[Step, ...] = attrs.field(repr=short_repr)
    iterations: int

    def to_dict(self) -> dict[str, Any]:
        """The result as a JSON-ready dict: ``final_answer``, ``iterations`` and ``steps``."""
        return {
            "final_answer": self.final_answer,
            "iterations": self.iterations,
            "steps": [step.to_dict() for step in self.steps],
        }


@attrs.frozen
class Reply:
    """A model's step, read.

    Attributes:
        thought: The reasoning (``""`` when none was given).
        action: The action as sent (a tool name or ``finish``); None when missing or not text.
        arguments: The tool's arguments as a JSON object.
        final_answer: The final answer (only for ``finish``).
        problem: Why the step cannot be carried out, as the observation the model reads
            (``"Error: ..."``), or None.
        strict: The arguments came as `typed_toolsets.StrictArguments` (written for the strict
            schema: ``null`` for a defaulted property means its default); the tool is called so.
        refused: The tool's error about arguments it cannot read (not JSON, not an object, over
            its limits), which ``problem`` says; None otherwise.
        arguments_text: The arguments as the JSON text the model sent them in (None when they
            came as a mapping): the tool is called with it, so they are measured as written (a
            float's ``1e15`` is 4 bytes, not the 18 of ``1000000000000000.0``).
    """

    thought: str
    action: str | None
    arguments: dict[str, Any]
    final_answer: object = None
    problem: str | None = None
    strict: bool = False
    refused: ToolError | None = None
    arguments_text: str | bytes | None = None

    @property
    def finishes(self) -> bool:
        """Whether this is a well-formed ``finish`` step."""
        return self.problem is None and is_finish(self.action)


def failure_text(error: ToolError) -> str:
    """The observation of a call that failed with *error*: its ``"Error: ..."`` text.

    As valid Unicode (`typed_toolsets.export.values.valid_text`): an exception's message may hold
    lone surrogates (a file name decoded with ``surrogateescape``), which no request body can
    carry.
    """
    return valid_text(str(ToolResult.failure(error).dynamic()))


def is_finish(action: str | None) -> bool:
    """Whether *action* names the finish action (in any case)."""
    return action is not None and action.lower() == FINISH


def parse_json(text: str | bytes | bytearray) -> object:
    """Parse JSON text as strictly as a tool's call does, with its words on what to change.

    No ``NaN``/``Infinity``, number that overflows a float, integer literal of more than 4,300
    digits (whatever the interpreter's setting), duplicate key or lone surrogate; a Markdown
    code fence, text after the object and the like are named (`typed_toolsets.call.jsonhints`).

    Raises:
        ValueError: The text is not strict JSON (the message says where, why, and what to send).
        RecursionError: It nests deeper than any tool reads its arguments (`MAX_NESTING`, plus
            the step around them), which the parser would not get through.
    """
    if not isinstance(text, str):
        text = bytes(text).decode("utf-8")
    # Bounded as the call path bounds arguments before parsing (cheap count first).
    if depth_over(text, _DEEPEST) is not None:
        msg = f"nested deeper than {_DEEPEST} levels"
        raise RecursionError(msg)
    try:
        return parse_strict(text)
    except InvalidJSON as exc:
        raise ValueError(str(exc)) from None


def _sent(reply: object) -> bool:
    """Whether *reply* is a value a model sends (told apart without narrowing *reply*)."""
    return isinstance(reply, _SENT)


def _unfence(text: str) -> str:
    text = text.strip()
    fenced = _FENCED.match(text)
    return fenced.group(1) if fenced else text


#: What a function-calling model (a native adapter's step) is told to send instead.
NATIVE_FORMAT: Final = (
    'call one of the tools with its arguments, or call "finish" with '
    '{"final_answer": "<your answer>"}'
)


def _malformed(problems: list[str], *, native: bool = False) -> str:
    said = "; ".join(problems)
    if native:
        return f"Error: Malformed step: {said}. Instead, {NATIVE_FORMAT}"
    return f"Error: Malformed step: {said}. Reply with one JSON object: {STEP_FORMAT}"


def read_reply(reply: object, tools: Mapping[str, ToolProxy]) -> Reply:
    """Read the model's step.

    Args:
        reply: What the model returned: JSON text (``str`` or ``bytes``, optionally in one
            Markdown code fence) or a mapping.
        tools: The tools on offer, by exported name (to tell an unknown action).

    Returns:
        The step; its ``problem`` is the observation for a malformed step or an unknown action.

    Raises:
        TypeError: *reply* is no value a model sends (such as the provider's response object
            instead of its text): the model callable's bug, which the model cannot fix.
    """
    if not _sent(reply):
        # Not a malformed step: told to the model as one, it read a Python class name ("not
        # ChatCompletion") and the run asked again and again, to max_iterations.
        msg = (
            f"the model returned {with_article(type(reply).__name__)}; it must return the step as "
            "JSON text or a mapping (the text of the provider's reply, not its response object)"
        )
        raise TypeError(msg)
    data: object = reply
    if isinstance(reply, (str, bytes, bytearray)):
        try:
            # Strictly: a replaced byte would reach the tool as U+FFFD, where the tool's own
            # call refuses bytes that are not UTF-8.
            text = reply if isinstance(reply, str) else reply.decode("utf-8")
        except UnicodeDecodeError as exc:
            problem = f"the reply is not valid UTF-8 ({exc.reason} at byte {exc.start})"
            return Reply("", None, {}, problem=_malformed([problem]))
        if not text.strip():
            # Said as such: the parser's words ("the text ends before the JSON object does")
            # would read as a reply cut short.
            problem = "the reply is empty"
            return Reply("", None, {}, problem=_malformed([problem]))
        try:
            data = parse_json(_unfence(text))
        except ValueError as exc:
            return Reply("", None, {}, problem=_malformed([f"the reply is not valid JSON ({exc})"]))
        except RecursionError:
            # Too deep for the parser, and far deeper than any tool reads its arguments.
            problem = _malformed(["the reply is nested too deeply to read; send a flatter one"])
            return Reply("", None, {}, problem=problem)
    if not isinstance(data, Mapping):
        problem = _malformed([f"the reply must be a JSON object, not {json_type_of(data)}"])
        return Reply("", None, {}, problem=problem)
    step = typing.cast("Mapping[str, Any]", data)
    problems: list[str] = []

    thought = step.get("thought")
    if thought is None:
        thought = ""
    elif not isinstance(thought, str):
        problems.append(f'"thought" must be a string, not {json_type_of(thought)}')
        thought = ""

    # A native adapter's step (a tool call it read) is answered in tool calls' terms: a mapping
    # whose "native" is the adapter's record of the provider's reply, never a text's key.
    native = data is reply and _adapter_record(step.get("native"))
    action = step.get("action")
    sent_name: object = action
    if native and not isinstance(action, str):
        # A tool call without a name (null, or no text: a compatible server's): answered as
        # the export's dispatch answers it, an unknown tool `null` and the tools on offer.
        action = None
    elif action is None:
        problems.append('"action" is missing (a tool name, or "finish")')
    elif not isinstance(action, str):
        problems.append(
            f'"action" must be a string (a tool name, or "finish"), not {json_type_of(action)}'
        )
        action = None

    arguments, argument_problem, unreadable = _arguments(step, action, tools, native=native)
    final_answer = step.get("final_answer")
    if is_finish(action) and final_answer is None:
        problems.append('"finish" needs a "final_answer"')
    elif is_finish(action) and data is reply:
        # A mapping's answer may hold what no JSON text can (NaN, a set): read as JSON values,
        # as arguments are, so that the result's to_dict() is JSON-ready.
        final_answer, answer_problem = _answer_read(final_answer)
        if answer_problem is not None:
            problems.append(answer_problem)

    if problems:
        if argument_problem is not None:
            problems.append(argument_problem)
        return Reply(thought, action, arguments, problem=_malformed(problems, native=native))
    if (action is not None or native) and not is_finish(action) and action not in tools:
        available = ", ".join(tools) if tools else "none"
        # The name cut as a call's messages cut a value: a model may send any length of it.
        problem = (
            f"Error: Unknown tool {short(sent_name)}; available tools: {available} "
            f'(or "finish" with a "final_answer")'
        )
        return Reply(thought, action, arguments, problem=problem)
    if unreadable is not None:
        # Arguments the tool cannot read (not JSON, not an object, over its limits): said as
        # the tool says it, which is all a function-calling model knows.
        problem = failure_text(unreadable)
        return Reply(thought, action, arguments, problem=problem, refused=unreadable)
    if argument_problem is not None:
        problem = _malformed([argument_problem], native=native)
        return Reply(thought, action, arguments, problem=problem)
    sent: object = step.get(_arguments_key(step))
    strict = isinstance(sent, StrictArguments)
    written: str | bytes | None = None
    if isinstance(sent, (str, bytes, bytearray)):
        written = sent if isinstance(sent, str) else bytes(sent)
    return Reply(
        thought, action, arguments, final_answer=final_answer, strict=strict, arguments_text=written
    )


def _arguments_key(step: Mapping[str, Any]) -> str:
    return "tool_input" if "tool_input" in step else "action_input"


def _answer_read(answer: object) -> tuple[object, str | None]:
    """*answer* copied into plain JSON values, or why it has no JSON form (and None)."""
    try:
        copied = copy_mapping({_FINAL_ANSWER: answer}, _ANSWER_LIMITS)
    except NotJSONValue as exc:
        return None, f'"{dotted_path(exc.path)}" has no JSON form: {exc}'
    except LimitExceeded as exc:
        return None, f'"{_FINAL_ANSWER}": {exc}'
    return copied[_FINAL_ANSWER], None


_FINAL_ANSWER: Final = "final_answer"
#: A final answer is no tool's arguments: its size is not bounded, its nesting is as JSON's.
_ANSWER_LIMITS: Final = Limits(max_argument_bytes=2**62, max_depth=MAX_NESTING)


def _adapter_record(value: object) -> bool:
    """Whether *value*, a step's ``"native"``, is what a native adapter puts there."""
    return isinstance(value, Mapping) and isinstance(
        typing.cast("Mapping[str, Any]", value).get("provider"), str
    )


def _arguments(
    step: Mapping[str, Any],
    action: str | None,
    tools: Mapping[str, ToolProxy],
    *,
    native: bool,
) -> tuple[dict[str, Any], str | None, ToolError | None]:
    """The tool arguments of a step (``action_input``, or its synonym ``tool_input``).

    An object, or JSON text of one (native function calling sends arguments as text), is read
    as the tool reads it: a fresh copy, within its limits, measured without recursion.

    Returns:
        The arguments, the problem with the step's shape (None when fine) and the tool's error
        about arguments it cannot read (None otherwise).
    """
    if "action_input" in step and "tool_input" in step:
        return {}, 'give the arguments as "action_input" or "tool_input", not both', None
    key = _arguments_key(step)
    value = step.get(key)
    if isinstance(value, StrictArguments):  # a native adapter's, in strict mode
        value = value.arguments
    if value is None or action is None or is_finish(action):
        # Without a tool's name there is no tool to read them as: the step's problem is its name.
        return {}, None, None
    if not isinstance(value, (str, bytes, bytearray, Mapping)) and not native:
        # A native call's arguments are said about as the tool says them (read_arguments).
        return (
            {},
            f'"{key}" must be a JSON object of the tool\'s arguments, not {json_type_of(value)}',
            None,
        )
    sent = typing.cast("object", value)
    proxy = tools.get(action)
    if proxy is None:
        read = read_arguments(action, _UNKNOWN_TOOL_LIMITS, sent)
    else:
        read = read_arguments(proxy.name, proxy.limits, sent)
    if not isinstance(read, dict):
        return {}, f'"{key}": {read.message}', read
    return read, None, None
