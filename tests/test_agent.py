"""`typed_toolsets.agent.ReAct`: finishing, observations, malformed steps, bounds, approvals."""

from __future__ import annotations

import asyncio
import builtins
import enum
import gc
import json
import pickle
import sys
import threading
import time
import warnings
from collections.abc import Mapping
from typing import Any

import attrs
import pytest

from typed_toolsets import (
    ExportError,
    Limits,
    StrictArguments,
    Toolset,
    TypedToolsetsError,
    tool,
)
from typed_toolsets.agent import (
    AgentError,
    AgentResult,
    DeadlineExceededError,
    MaxIterationsError,
    ReAct,
    ScriptedModel,
    Step,
    Transcript,
    Turn,
)
from typed_toolsets.agent.steps import STEP_FORMAT
from typed_toolsets.call import execution as call_execution


class Color(enum.Enum):
    RED = "red"
    BLUE = "blue"


@attrs.frozen
class Paint:
    color: Color
    coats: int = 1


@attrs.define
class Workshop(Toolset):
    """A toolset that records what ran, so tests can tell which methods were called."""

    toolset_name = "shop"
    ran: list[str] = attrs.Factory(list)

    @tool
    def add(self, *, a: int, b: int) -> int:
        """Add two integers."""
        self.ran.append("add")
        return a + b

    @tool
    def echo(self, *, text: str) -> str:
        """Return the text."""
        self.ran.append("echo")
        return text

    @tool
    def mix(self, *, color: Color, coats: int = 1) -> Paint:
        """Mix a paint."""
        self.ran.append("mix")
        return Paint(color, coats)

    @tool
    def divide(self, *, a: int, b: int) -> float:
        """Divide a by b."""
        self.ran.append("divide")
        return a / b

    @tool(requires_approval=True)
    def delete(self, *, path: str) -> str:
        """Delete a file."""
        self.ran.append(f"delete {path}")
        return f"deleted {path}"

    @tool
    def nap(self, *, seconds: float) -> str:
        """Sleep (a sync tool)."""
        time.sleep(seconds)
        self.ran.append("nap")
        return "rested"

    @tool
    async def wait(self, *, seconds: float) -> str:
        """Sleep (an async tool)."""
        await asyncio.sleep(seconds)
        self.ran.append("wait")
        return "waited"


def _shop() -> tuple[Workshop, dict[str, Any]]:
    shop = Workshop()
    return shop, {t.name: t for t in shop.to_tools()}


def _agent(
    steps: list[Any], *names: str, max_iterations: int = 10, **options: Any
) -> tuple[ReAct, Workshop]:
    shop, tools = _shop()
    chosen = [tools[n] for n in names] if names else list(tools.values())
    return ReAct(ScriptedModel(steps), chosen, max_iterations=max_iterations, **options), shop


FINISH = {"thought": "Done.", "action": "finish", "final_answer": "the answer"}


def _done(transcript: Transcript) -> dict[str, Any]:
    return FINISH


def _call(action: str, **arguments: Any) -> dict[str, Any]:
    return {"thought": f"call {action}", "action": action, "action_input": arguments}


def _run(agent: ReAct, runner: str, task: str = "Go.") -> AgentResult:
    """Run *agent* with `ReAct.run` or `ReAct.arun`."""
    return agent.run(task) if runner == "run" else asyncio.run(agent.arun(task))


class Recorder:
    """A model that replays steps and keeps every transcript it was shown."""

    def __init__(self, steps: list[Any]) -> None:
        self.script = ScriptedModel(steps)
        self.seen: list[Transcript] = []

    def __call__(self, transcript: Transcript) -> Any:
        self.seen.append(transcript)
        return self.script(transcript)


# ------------------------------------------------------------------------------ finishing


def test_a_run_calls_tools_then_finishes() -> None:
    agent, shop = _agent([_call("shop_add", a=2, b=3), FINISH])
    result = agent.run("What is 2 + 3?")
    assert isinstance(result, AgentResult)
    assert result.final_answer == "the answer"
    assert result.iterations == 2 == len(result.steps)
    first, last = result.steps
    assert (first.thought, first.action, dict(first.arguments)) == (
        "call shop_add",
        "shop_add",
        {"a": 2, "b": 3},
    )
    assert first.observation == "5"  # an int is shown as JSON text
    assert first.ok
    assert first.result is not None
    assert first.result.value == 5
    assert first.duration >= 0
    assert (last.action, last.observation, last.thought) == ("finish", None, "Done.")
    assert shop.ran == ["add"]


def test_finishing_at_once_calls_no_tool() -> None:
    agent, shop = _agent([{"action": "FINISH", "final_answer": 42}])
    result = agent.run("Answer.")
    assert result.final_answer == 42  # any JSON value; "finish" in any case
    assert result.steps == (Step("", "finish", {}, None, result.steps[0].duration),)
    assert shop.ran == []


def test_structured_values_are_observed_as_json_and_kept_as_values() -> None:
    agent, _ = _agent([_call("shop_mix", color="blue", coats=2), FINISH])
    (step, _finish) = agent.run("Mix blue paint.").steps
    assert json.loads(step.observation or "") == {"color": "blue", "coats": 2}
    assert step.result is not None
    assert step.result.value == Paint(Color.BLUE, 2)


def test_the_model_sees_every_step_and_observation() -> None:
    model = Recorder([_call("shop_echo", text="hi"), _call("shop_add", a=1, b=1), FINISH])
    shop, tools = _shop()
    ReAct(model, [tools["shop_echo"], tools["shop_add"]], max_iterations=5).run("Go.")
    assert [len(t.turns) for t in model.seen] == [0, 1, 2]
    last = model.seen[-1]
    assert last.task == "Go."
    assert [t.name for t in last.tools] == ["shop_echo", "shop_add"]
    assert [turn.observation for turn in last.turns] == ["hi", "2"]
    assert last.turns[0].reply == _call("shop_echo", text="hi")
    assert shop.ran == ["echo", "add"]


def test_the_same_agent_runs_again_with_the_same_result() -> None:
    agent, shop = _agent([_call("shop_add", a=1, b=2), FINISH])
    first, second = agent.run("Add."), agent.run("Add.")
    assert [s.observation for s in first.steps] == [s.observation for s in second.steps]
    assert shop.ran == ["add", "add"]


# ------------------------------------------------------------------- errors as observations


def test_a_tool_error_is_an_observation_and_the_model_corrects_itself() -> None:
    model = Recorder([_call("shop_add", a="2", b=3), _call("shop_add", a=2, b=3), FINISH])
    shop, tools = _shop()
    result = ReAct(model, [tools["shop_add"]], max_iterations=5).run("Add.")
    failed, fixed, _ = result.steps
    assert failed.observation == (
        "Error: Invalid arguments for tool 'shop_add': a: '2' is not of type 'integer'; "
        "2 is wanted, without quotes"
    )
    assert not failed.ok
    assert failed.result is not None
    assert failed.result.error is not None
    assert failed.result.error.kind == "arguments"
    assert fixed.observation == "5"
    assert fixed.ok
    assert model.seen[1].turns[0].observation == failed.observation
    assert shop.ran == ["add"]  # the bad call never reached the method


def test_an_exception_in_the_tool_is_an_observation() -> None:
    agent, _ = _agent([_call("shop_divide", a=1, b=0), FINISH])
    step = agent.run("Divide.").steps[0]
    assert step.observation == (
        "Error: Tool 'shop_divide' failed: ZeroDivisionError: division by zero"
    )
    assert not step.ok


class _NoRepr:
    def __repr__(self) -> str:
        msg = "no text for this"
        raise RuntimeError(msg)


class Opaque(Toolset):
    @tool
    def thing(self) -> object:
        return _NoRepr()


@pytest.mark.parametrize("runner", ["run", "arun"])
def test_a_return_value_whose_repr_fails_is_observed_not_raised(runner: str) -> None:
    # Writing the observation raised the __repr__'s error out of run()/arun(), losing the steps.
    model = ScriptedModel([{"action": "opaque_thing"}, FINISH])
    result = _run(ReAct(model, Opaque.to_tools(), max_iterations=3), runner)
    assert result.steps[0].observation == '"<_NoRepr>"'
    assert result.steps[0].ok
    assert result.final_answer == "the answer"


class Stray(Toolset):
    """Tools that let out a cancellation of their own while the run goes on."""

    @tool
    async def awaited(self) -> str:
        async def job() -> str:
            await asyncio.sleep(10)
            return "never"  # pragma: no cover

        task = asyncio.create_task(job())
        asyncio.get_running_loop().call_soon(task.cancel)  # something else cancels it
        return await task

    @tool
    def raised(self) -> str:
        raise asyncio.CancelledError


_STRAY_VERSIONS = pytest.mark.skipif(
    sys.version_info < (3, 11), reason="Python 3.10 cannot tell it from the run's cancellation"
)


@pytest.mark.parametrize("runner", ["run", "arun"])
@pytest.mark.parametrize("deadline", [None, 10.0])
@pytest.mark.parametrize(
    "action", ["stray_raised", pytest.param("stray_awaited", marks=_STRAY_VERSIONS)]
)
def test_a_tool_s_own_cancellation_is_an_observation(
    runner: str, deadline: float | None, action: str
) -> None:
    # It ended the run with CancelledError, the steps lost, though nothing cancelled the run.
    if runner == "arun" and action == "stray_raised" and sys.version_info < (3, 11):
        pytest.skip("Python 3.10 cannot tell it from the run's cancellation")
    model = ScriptedModel([{"action": action}, FINISH])
    agent = ReAct(model, Stray.to_tools(), max_iterations=3, deadline=deadline)
    result = _run(agent, runner)
    assert result.steps[0].observation == f"Error: Tool {action!r} failed: CancelledError"
    assert not result.steps[0].ok
    assert result.final_answer == "the answer"


@pytest.mark.parametrize(
    ("reply", "problem"),
    [
        # A text's "native" key is the model's own, ignored as any other (it read the step as a
        # native adapter's tool call: "Unknown tool null", "Unknown tool 7").
        ('{"thought": "hm", "native": true}', '"action" is missing (a tool name, or "finish")'),
        ({"action": 7, "native": None}, '"action" must be a string (a tool name, or "finish")'),
        ({"action": "finish", "native": 1}, '"finish" needs a "final_answer"'),
    ],
)
def test_a_native_key_the_model_sends_changes_nothing(reply: Any, problem: str) -> None:
    agent, _ = _agent([reply, FINISH])
    observation = agent.run("Go.").steps[0].observation
    assert observation.startswith(f"Error: Malformed step: {problem}")
    assert observation.endswith(STEP_FORMAT)


@pytest.mark.parametrize(
    ("answer", "problem"),
    [
        (float("nan"), '"final_answer" has no JSON form: NaN is not valid JSON'),
        ({"a": [1, float("inf")]}, '"final_answer.a[1]" has no JSON form: Infinity is not'),
        ({1, 2}, '"final_answer" has no JSON form: {1, 2} (a set) is not a JSON value'),
    ],
)
def test_a_final_answer_with_no_json_form_is_a_malformed_step(answer: object, problem: str) -> None:
    # A mapping's answer was returned as it was: result.to_dict() was no JSON-ready dict.
    agent, _ = _agent([{"action": "finish", "final_answer": answer}, FINISH])
    result = agent.run("Go.")
    assert result.steps[0].observation.startswith(f"Error: Malformed step: {problem}")
    assert result.final_answer == "the answer"
    json.dumps(result.to_dict(), allow_nan=False)


def test_a_final_answer_is_read_as_json_values() -> None:
    # A tuple is a JSON array, as in arguments; the answer is a copy, not the model's object.
    sent = {"rows": (1, 2), "note": None}
    result = _agent([{"action": "finish", "final_answer": sent}])[0].run("Go.")
    assert result.final_answer == {"rows": [1, 2], "note": None}
    assert json.loads(json.dumps(result.to_dict()))["final_answer"] == result.final_answer


@pytest.mark.parametrize("runner", ["run", "arun"])
def test_a_slow_approval_is_named_as_the_part_that_overran(runner: str) -> None:
    # run() named the tool, which never ran ("tool 'shop_delete'"); arun the approval.
    def approve(name: str, arguments: Mapping[str, Any]) -> bool:
        time.sleep(0.3)
        return True

    shop, tools = _shop()
    agent = ReAct(
        ScriptedModel([_call("shop_delete", path="/")]),
        [tools["shop_delete"]],
        max_iterations=2,
        approve=approve,
        deadline=0.1,
    )
    with pytest.raises(DeadlineExceededError) as caught:
        _run(agent, runner)
    assert caught.value.waiting_for == "the approval of 'shop_delete'"
    assert shop.ran == []


class Scale(Toolset):
    limits = Limits(max_argument_bytes=20)

    @tool
    def by(self, *, x: float) -> float:
        return x


@pytest.mark.parametrize("sent", ['{"x": 1e15}', b'{"x": 1e15}'])
def test_arguments_sent_as_text_are_measured_as_written(sent: str | bytes) -> None:
    # The tool got the parsed dict, where 1e15 is written 1000000000000000.0: 11 bytes were
    # refused as "more than 20 bytes", and the model told to send less data.
    model = ScriptedModel([{"action": "scale_by", "action_input": sent}, FINISH])
    result = ReAct(model, Scale.to_tools(), max_iterations=3).run("Go.")
    assert result.steps[0].ok
    assert result.steps[0].observation == "1000000000000000.0"
    assert result.steps[0].arguments == {"x": 1e15}


class Stopping(Toolset):
    @tool
    def grouped(self) -> str:
        group = getattr(builtins, "BaseExceptionGroup", None)
        if group is None:  # Python 3.10
            raise KeyboardInterrupt
        raise group("stop", [asyncio.CancelledError(), KeyboardInterrupt()])


@pytest.mark.parametrize("runner", ["run", "arun"])
def test_ctrl_c_grouped_with_a_cancellation_still_propagates(runner: str) -> None:
    # Taken for the tool's own cancellation, the group became an observation and the run went
    # on; Ctrl-C (and an exit) must stop it, grouped or not.
    model = ScriptedModel([{"action": "stopping_grouped"}, FINISH])
    with pytest.raises(BaseException) as caught:
        _run(ReAct(model, Stopping.to_tools(), max_iterations=3), runner)
    assert call_execution.holds(caught.value, KeyboardInterrupt)


def _slow_check(_instance: object, _attribute: object, _value: object) -> None:
    time.sleep(0.3)


@attrs.frozen
class Slowly:
    path: str = attrs.field(validator=_slow_check)


class Guarded(Toolset):
    @tool(requires_approval=True)
    def remove(self, *, target: Slowly) -> str:
        return target.path  # pragma: no cover - the deadline comes first


@pytest.mark.parametrize("runner", ["run", "arun"])
def test_a_slow_check_of_the_arguments_is_named_as_the_part_that_overran(runner: str) -> None:
    # The arguments are read (a class's own validator runs) before a person is asked: in run
    # that is noticed as it returns, and named as arun names it.
    asked: list[str] = []

    def approve(name: str, arguments: Mapping[str, Any]) -> bool:
        asked.append(name)  # pragma: no cover - never asked
        return True  # pragma: no cover

    model = ScriptedModel([{"action": "guarded_remove", "action_input": {"target": {"path": "/"}}}])
    agent = ReAct(model, Guarded.to_tools(), max_iterations=2, approve=approve, deadline=0.1)
    with pytest.raises(DeadlineExceededError) as caught:
        _run(agent, runner)
    assert caught.value.waiting_for == "the check of the arguments of 'guarded_remove'"
    assert asked == []


def test_an_unknown_action_lists_the_tools_and_calls_nothing() -> None:
    # The toolset has shop_delete, but the agent was not given it.
    agent, shop = _agent([_call("shop_delete", path="/etc"), FINISH], "shop_add", "shop_echo")
    step = agent.run("Delete.").steps[0]
    assert step.observation == (
        "Error: Unknown tool 'shop_delete'; available tools: shop_add, shop_echo "
        '(or "finish" with a "final_answer")'
    )
    assert (step.action, step.ok, step.result) == ("shop_delete", False, None)
    assert shop.ran == []


def test_an_unknown_action_of_any_length_is_shown_cut() -> None:
    # The name is the model's: echoed whole, a megabyte of it was a megabyte of observation.
    agent, shop = _agent([_call("shop_" + "x" * 100_000), FINISH], "shop_add")
    step = agent.run("Delete.").steps[0]
    assert step.observation == (
        f"Error: Unknown tool 'shop_{'x' * 50}...'; available tools: shop_add "
        '(or "finish" with a "final_answer")'
    )
    assert step.action == "shop_" + "x" * 100_000
    assert shop.ran == []


MALFORMED = [
    pytest.param("not json", "the reply is not valid JSON (Expecting value", id="bad-json"),
    pytest.param(
        '{"action": "finish", "action": "x"}',
        "the key 'action' appears more than once in an object",
        id="dup-key",
    ),
    pytest.param('{"action": NaN}', "NaN is not valid JSON", id="nan"),
    pytest.param(
        b'{"action": "shop_add", "thought": "\xff", "action_input": {"a": 1, "b": 2}}',
        "the reply is not valid UTF-8 (invalid start byte at byte 35)",
        id="not-utf8",
    ),
    pytest.param("[1, 2]", "the reply must be a JSON object, not array", id="array"),
    pytest.param({"thought": "hm"}, '"action" is missing', id="no-action"),
    pytest.param({"action": 3}, '"action" must be a string', id="action-number"),
    pytest.param(
        {"action": "shop_add", "thought": ["x"], "action_input": {"a": 1, "b": 2}},
        '"thought" must be a string, not array',
        id="thought-array",
    ),
    pytest.param(
        {"action": "shop_add", "action_input": [1, 2]},
        '"action_input" must be a JSON object of the tool\'s arguments, not array',
        id="input-array",
    ),
    pytest.param(
        {"action": "shop_add", "tool_input": 7},
        '"tool_input" must be a JSON object of the tool\'s arguments, not integer',
        id="tool-input-number",
    ),
    pytest.param(
        {"action": "shop_add", "action_input": {}, "tool_input": {}},
        'give the arguments as "action_input" or "tool_input", not both',
        id="both-inputs",
    ),
    pytest.param({"action": "finish"}, '"finish" needs a "final_answer"', id="finish-no-answer"),
    pytest.param(
        {"action": "finish", "final_answer": None}, '"finish" needs', id="finish-null-answer"
    ),
]


@pytest.mark.parametrize(
    "reply",
    [
        {"action": True, "action_input": "oops"},
        {"action": {"name": "shop_add"}, "action_input": [1]},
        {"action_input": "{"},
    ],
)
def test_arguments_without_a_tool_name_are_not_read_as_a_tool_s(reply: Any) -> None:
    # They were read for a tool named 'None' ("Invalid JSON arguments for tool 'None'").
    model = Recorder([reply, FINISH])
    _, tools = _shop()
    observation = ReAct(model, list(tools.values()), max_iterations=3).run("Add.").steps[0]
    assert observation.observation is not None
    problem = observation.observation.split(". Reply with one JSON object")[0]
    assert "'None'" not in problem
    assert problem.startswith('Error: Malformed step: "action" ')
    assert '"action_input"' not in problem  # only the name is at fault


@pytest.mark.parametrize(("reply", "problem"), MALFORMED)
def test_a_malformed_step_is_an_observation_saying_what_to_fix(reply: Any, problem: str) -> None:
    model = Recorder([reply, FINISH])
    shop, tools = _shop()
    result = ReAct(model, [tools["shop_add"]], max_iterations=3).run("Add.")
    step = result.steps[0]
    assert step.observation is not None
    assert step.observation.startswith("Error: Malformed step: ")
    assert problem in step.observation
    assert step.observation.endswith(
        'Reply with one JSON object: {"thought": "<your reasoning>", "action": "<a tool name>", '
        '"action_input": {<its arguments>}}, or {"thought": "<your reasoning>", "action": '
        '"finish", "final_answer": "<your answer>"}'
    )
    assert not step.ok
    assert step.result is None
    assert model.seen[1].turns[0].observation == step.observation
    assert result.final_answer == "the answer"
    assert shop.ran == []


class ChatCompletion:
    """Stands for a provider's response object, returned where its text belongs."""


@pytest.mark.parametrize(
    "reply", [ChatCompletion(), (FINISH, "usage"), {FINISH["action"]}, object()]
)
def test_a_model_returning_no_json_value_is_a_type_error(reply: object) -> None:
    """It was a malformed step each turn, the model told a Python class name ("the reply must be
    a JSON object, not ChatCompletion") that it could not correct, asked again and again (a
    request each time) up to MaxIterationsError."""
    asked: list[Transcript] = []

    def model(transcript: Transcript) -> Any:
        asked.append(transcript)
        return reply

    _, tools = _shop()
    agent = ReAct(model, [tools["shop_add"]], max_iterations=3)
    kind = type(reply).__name__
    article = "an" if kind[0] in "aeiouAEIOU" else "a"
    said = f"the model returned {article} {kind}; it must return the step as JSON text"
    with pytest.raises(TypeError, match=said):
        agent.run("Add.")
    assert len(asked) == 1
    with pytest.raises(TypeError, match=said):
        asyncio.run(agent.arun("Add."))
    assert len(asked) == 2


@pytest.mark.parametrize(
    ("reply", "problem"),
    [
        pytest.param(
            '{"action": "finish", "final_answer": 1e400}',
            "the number 1e400 is too large for a float; send a number between -1.8e308 and 1.8e308",
            id="float-overflow",
        ),
        pytest.param(
            '{"action": "shop_add", "action_input": {"a": ' + "1" * 5000 + ', "b": 1}}',
            "an integer literal has 5,000 digits; at most 4,300 are allowed",
            id="long-int",
        ),
        pytest.param(
            "```json\n" + json.dumps(FINISH) + "\n```\nThat is my answer.",
            "the text is wrapped in a Markdown code fence (```): send the JSON object alone",
            id="fence-then-prose",
        ),
        pytest.param(
            json.dumps(_call("shop_add", a=1, b=2)) + "\n" + json.dumps(FINISH),
            "more text follows the JSON object: send the object alone",
            id="two-objects",
        ),
        pytest.param(
            "\ufeff" + json.dumps(FINISH),
            "the text starts with a byte order mark (U+FEFF); send the JSON without it",
            id="bom",
        ),
    ],
)
def test_a_reply_is_read_as_strictly_as_arguments_and_told_what_to_change(
    reply: str, problem: str
) -> None:
    # 1e400 used to be read as inf (a final answer of Infinity, or arguments refused for an
    # 'inf' the model never wrote), and 5,000 digits were refused with advice to call
    # sys.set_int_max_str_digits(); the slips had the parser's words alone.
    agent, shop = _agent([reply, FINISH], "shop_add")
    result = agent.run("Add.")
    step = result.steps[0]
    observation = step.observation or ""
    assert observation.startswith("Error: Malformed step: the reply is not valid JSON (")
    assert observation.endswith(f"{problem}). Reply with one JSON object: {STEP_FORMAT}")
    assert (step.ok, result.iterations, shop.ran) == (False, 2, [])


def test_an_empty_reply_is_said_to_be_empty_and_the_transcript_stays_sendable() -> None:
    # Anthropic refuses a message without text ("text content blocks must contain non-whitespace
    # text"): one empty reply used to make every later request of the run fail.
    model = Recorder(["", b"", " \n", FINISH])
    _, tools = _shop()
    result = ReAct(model, list(tools.values()), max_iterations=5).run("Go.")
    assert [s.observation for s in result.steps[:3]] == [
        f"Error: Malformed step: the reply is empty. Reply with one JSON object: {STEP_FORMAT}"
    ] * 3
    messages = model.seen[-1].messages()
    assert all(m["content"].strip() for m in messages)
    assert [m["content"] for m in messages if m["role"] == "assistant"] == ['""', '""', '" \\n"']


def test_a_lone_surrogate_in_a_reply_or_the_task_is_not_echoed_to_the_model() -> None:
    # A reply decoded from JSON holding "\ud800" (or a task given so) was echoed as it was:
    # with no UTF-8 form, it made every later request of the run fail to encode.
    thought = {"thought": "x\udfff", "action": "nothing"}
    model = Recorder(["I think \ud800 so", thought, FINISH])
    _, tools = _shop()
    ReAct(model, list(tools.values()), max_iterations=5).run("Go \ud83d.")
    messages = model.seen[-1].messages()
    for message in messages:
        message["content"].encode("utf-8")  # raises for a lone surrogate
    assert messages[1]["content"] == "Task: Go \ufffd."
    replies = [m["content"] for m in messages if m["role"] == "assistant"]
    assert replies == ["I think \ufffd so", '{"thought": "x\ufffd", "action": "nothing"}']


def test_every_problem_of_a_step_is_reported_at_once() -> None:
    agent, _ = _agent([{"thought": 1, "action": None}, FINISH])
    observation = agent.run("Go.").steps[0].observation or ""
    assert '"thought" must be a string, not integer; "action" is missing' in observation


def test_arguments_as_json_text_are_read_and_bad_json_text_is_explained() -> None:
    agent, _ = _agent(
        [
            {"action": "shop_add", "action_input": '{"a": 1, "b": 2}'},
            {"action": "shop_add", "action_input": '{"a": 1,'},
            {"action": "shop_add", "action_input": "[1]"},
            {"action": "shop_echo", "action_input": ""},
            FINISH,
        ],
        "shop_add",
        "shop_echo",
    )
    ok, bad, array, empty, _ = agent.run("Add.").steps
    assert (ok.observation, dict(ok.arguments)) == ("3", {"a": 1, "b": 2})
    # In the tool's own words, as a call with these arguments gives them.
    assert bad.observation == (
        "Error: Invalid JSON arguments for tool 'shop_add': Expecting property name enclosed in "
        "double quotes: line 1 column 9 (char 8); the text ends before the JSON object does: "
        "send it whole"
    )
    assert (
        array.observation == "Error: Arguments for tool 'shop_add' must be a JSON object, not array"
    )
    # No arguments at all is {}: the tool itself says what is missing.
    assert empty.observation == (
        "Error: Invalid arguments for tool 'shop_echo': text: missing required argument"
    )


def test_arguments_are_read_within_the_tools_limits_without_recursion() -> None:
    deep = "[" * 100_000 + "]" * 100_000
    nested: Any = []
    for _ in range(10_000):
        nested = [nested]
    replies = iter(
        [
            {"action": "shop_echo", "action_input": '{"text": ' + deep + "}"},
            '{"action": "shop_echo", "action_input": {"text": ' + deep + "}}",
            {"action": "shop_echo", "action_input": {"text": nested}},
            {"action": "shop_echo", "action_input": "   "},
            {"action": "shop_echo", "action_input": '{"text": 1e400}'},
            FINISH,
        ]
    )
    shop, tools = _shop()
    # A model of its own: ScriptedModel copies its script, which Python cannot do this deep.
    agent = ReAct(lambda transcript: next(replies), [tools["shop_echo"]], max_iterations=9)
    text, reply, mapping, blank, huge, _ = agent.run("Echo.").steps
    too_deep = "Error: Arguments for tool 'shop_echo' are nested "
    assert text.observation == too_deep + (
        "100001 levels deep, over the limit of 32 (Limits.max_depth); send a flatter structure"
    )
    assert reply.observation is not None
    assert reply.observation.startswith(
        "Error: Malformed step: the reply is nested too deeply to read; send a flatter one."
    )
    assert mapping.observation is not None
    assert mapping.observation.startswith(too_deep)
    assert [s.result.error.kind for s in (text, mapping) if s.result and s.result.error] == [
        "limit",
        "limit",
    ]
    # Whitespace is not JSON (only empty text means no arguments), nor is a number past a float.
    assert blank.observation == (
        "Error: Invalid JSON arguments for tool 'shop_echo': Expecting value: line 1 column 4 "
        "(char 3); the text holds no JSON value: send a JSON object ({} for no arguments)"
    )
    assert huge.observation == (
        "Error: Invalid JSON arguments for tool 'shop_echo': the number 1e400 is too large for a "
        "float; send a number between -1.8e308 and 1.8e308"
    )
    assert [s.arguments for s in (text, reply, mapping, blank, huge)] == [{}] * 5
    assert shop.ran == []


def test_tool_input_is_a_synonym_and_replies_may_be_text_bytes_or_fenced() -> None:
    agent, shop = _agent(
        [
            {"thought": "t", "action": "shop_echo", "tool_input": {"text": "one"}},
            json.dumps(_call("shop_echo", text="two")),
            json.dumps(_call("shop_echo", text="three")).encode(),
            "```json\n" + json.dumps(_call("shop_echo", text="four")) + "\n```",
            FINISH,
        ],
        "shop_echo",
    )
    steps = agent.run("Echo.").steps
    assert [s.observation for s in steps[:4]] == ["one", "two", "three", "four"]
    assert shop.ran == ["echo"] * 4


# --------------------------------------------------------------------------------- bounds


def test_running_out_of_iterations_raises_with_the_steps() -> None:
    agent, shop = _agent([_call("shop_add", a=1, b=1)] * 5, max_iterations=3)
    with pytest.raises(MaxIterationsError) as caught:
        agent.run("Loop.")
    error = caught.value
    assert isinstance(error, AgentError)
    assert isinstance(error, TypedToolsetsError)
    assert error.max_iterations == 3 == error.iterations == len(error.steps)
    assert [s.observation for s in error.steps] == ["2", "2", "2"]
    assert str(error) == (
        "The agent took max_iterations=3 steps without a final answer (tools called: "
        "shop_add); raise max_iterations, or give the model a task it can finish in fewer steps"
    )
    assert shop.ran == ["add"] * 3
    again = pickle.loads(pickle.dumps(error))  # noqa: S301 - our own object
    assert (type(again), str(again), again.steps) == (MaxIterationsError, str(error), error.steps)


def test_running_out_names_only_the_tools_that_ran() -> None:
    # Refused arguments never reach the method: the tool was said to be called.
    agent, shop = _agent(
        [{"action": "shop_add", "action_input": "{not json"}, _call("shop_echo", text="a")],
        max_iterations=2,
    )
    with pytest.raises(MaxIterationsError, match=r"\(tools called: shop_echo\)"):
        agent.run("Loop.")
    assert shop.ran == ["echo"]
    agent, _ = _agent([{"action": "shop_add", "action_input": "{not json"}], max_iterations=1)
    with pytest.raises(MaxIterationsError, match=r"\(tools called: none\)"):
        agent.run("Loop.")


def test_a_finish_on_the_last_allowed_step_counts() -> None:
    agent, _ = _agent([_call("shop_add", a=1, b=1), FINISH], max_iterations=2)
    assert agent.run("Go.").iterations == 2


def test_the_deadline_stops_the_run_after_a_slow_sync_tool() -> None:
    agent, shop = _agent(
        [_call("shop_nap", seconds=0.3), _call("shop_add", a=1, b=1), FINISH], deadline=0.1
    )
    with pytest.raises(DeadlineExceededError) as caught:
        agent.run("Nap.")
    error = caught.value
    assert isinstance(error, TimeoutError)
    assert isinstance(error, AgentError)
    assert [s.observation for s in error.steps] == ["rested"]  # a sync tool cannot be stopped
    assert error.deadline == 0.1
    # Noticed as the tool returns, and said to be the tool's: it was "the model", where the
    # time did not go.
    assert error.waiting_for == "tool 'shop_nap'"
    assert str(error).startswith(
        "The agent's deadline of 0.1 s passed after 1 step, at tool 'shop_nap'; "
    )
    assert shop.ran == ["nap"]
    again = pickle.loads(pickle.dumps(error))  # noqa: S301 - our own object
    assert (again.deadline, again.waiting_for, again.steps) == (0.1, "tool 'shop_nap'", error.steps)


def test_a_deadline_that_passed_in_the_last_step_is_not_reported_as_the_bound() -> None:
    # With the slow tool call in the last allowed step the run raised MaxIterationsError,
    # advising to raise max_iterations, which would only have met the deadline one step later.
    agent, _ = _agent([_call("shop_nap", seconds=0.3), FINISH], max_iterations=1, deadline=0.1)
    with pytest.raises(DeadlineExceededError) as caught:
        agent.run("Nap.")
    assert [s.observation for s in caught.value.steps] == ["rested"]
    assert caught.value.waiting_for == "tool 'shop_nap'"


def test_the_deadline_is_checked_before_a_tool_runs() -> None:
    shop, tools = _shop()

    def slow_model(transcript: Transcript) -> dict[str, Any]:
        time.sleep(0.2)
        return _call("shop_add", a=1, b=1)

    agent = ReAct(slow_model, [tools["shop_add"]], max_iterations=3, deadline=0.05)
    with pytest.raises(DeadlineExceededError) as caught:
        agent.run("Go.")
    # The model overran, as arun says (this named the tool, which never ran).
    assert caught.value.waiting_for == "the model"
    assert caught.value.steps == ()
    assert shop.ran == []


@pytest.mark.parametrize("runner", ["run", "arun"])
def test_a_final_answer_that_arrives_after_the_deadline_is_not_returned(runner: str) -> None:
    # Past the deadline the run raises (SPEC 10): run() returned the late answer of a sync
    # model (which it cannot interrupt), while arun() raised for the same model.
    def slow_model(transcript: Transcript) -> dict[str, Any]:
        time.sleep(0.2)
        return FINISH

    with pytest.raises(DeadlineExceededError) as caught:
        _run(ReAct(slow_model, [], max_iterations=1, deadline=0.05), runner)
    assert caught.value.waiting_for == "the model"
    assert caught.value.steps == ()


@pytest.mark.parametrize("runner", ["run", "arun"])
def test_the_deadline_stops_an_async_tool(runner: str) -> None:
    agent, shop = _agent([_call("shop_wait", seconds=30), FINISH], deadline=0.2)
    started = time.monotonic()
    with pytest.raises(DeadlineExceededError) as caught:
        _run(agent, runner)
    assert time.monotonic() - started < 5
    (step,) = caught.value.steps
    assert step.observation == (
        "Error: Tool 'shop_wait' was stopped: the run's deadline of 0.2 s passed during the call."
    )
    assert not step.ok
    assert caught.value.waiting_for == "tool 'shop_wait'"
    assert shop.ran == []


def test_the_deadline_stops_waiting_for_a_sync_tool_in_arun() -> None:
    agent, _ = _agent([_call("shop_nap", seconds=1.5), FINISH], deadline=0.1)
    before = call_execution.abandoned.count

    async def main() -> float:
        started = time.monotonic()
        with pytest.raises(DeadlineExceededError):
            await agent.arun("Nap.")
        return time.monotonic() - started

    started = time.monotonic()
    assert asyncio.run(main()) < 0.9
    # asyncio.run itself does not wait for the tool (it ran in a worker of the loop's default
    # executor, which asyncio.run joins on shutdown): it runs in a thread of its own, counted
    # until it ends.
    assert time.monotonic() - started < 1.2
    assert call_execution.abandoned.count == before + 1
    for _ in range(300):
        if call_execution.abandoned.count == before:
            break
        time.sleep(0.01)
    assert call_execution.abandoned.count == before


@attrs.define
class Held(Toolset):
    """A sync tool with a timeout of its own, held until the test lets it go."""

    release: threading.Event = attrs.field(factory=threading.Event)

    @tool(limits=Limits(timeout=30))
    def hold(self) -> str:
        self.release.wait(30)
        return "released"


@pytest.mark.parametrize("runner", ["run", "arun"])
def test_the_deadline_stops_waiting_for_a_sync_tool_with_a_timeout(runner: str) -> None:
    # Such a tool runs in a thread of its own: run() waited for it to end (up to its own
    # timeout) however early the run's deadline passed.
    held = Held()
    model = ScriptedModel([_call("held_hold"), FINISH])
    agent = ReAct(model, held.to_tools(), max_iterations=3, deadline=0.2)
    started = time.monotonic()
    try:
        with pytest.raises(DeadlineExceededError) as caught:
            _run(agent, runner)
        assert time.monotonic() - started < 5
    finally:
        held.release.set()
    (step,) = caught.value.steps
    assert step.observation == (
        "Error: Tool 'held_hold' was stopped: the run's deadline of 0.2 s passed during the call."
    )
    assert caught.value.waiting_for == "tool 'held_hold'"


class Stubborn(Toolset):
    """An async tool that goes on for a while after it is cancelled, and says when it ends."""

    ended = threading.Event()

    @tool(limits=Limits(timeout=0.1))
    async def hold(self) -> str:
        try:
            await asyncio.sleep(30)
        except asyncio.CancelledError:
            await asyncio.sleep(0.8)  # past the call's grace: it is left running
        Stubborn.ended.set()
        return "done"


def test_run_lets_a_task_left_running_end_instead_of_destroying_it(
    caplog: pytest.LogCaptureFixture,
) -> None:
    # run()'s private loop was closed under the task the tool's timeout left running: it was
    # destroyed ("Task was destroyed but it is pending!") and stayed counted as abandoned
    # forever, one of the 32 slots after which every call with a timeout is refused.
    Stubborn.ended.clear()
    before = call_execution.abandoned.count
    model = ScriptedModel([_call("stubborn_hold"), FINISH])
    result = ReAct(model, Stubborn.to_tools(), max_iterations=3).run("Hold.")
    assert str(result.steps[0].observation).endswith(
        "did not stop within 0.5 s, and is left running"
    )
    assert Stubborn.ended.wait(5)  # it ran to its end
    # Its slot is given back when it ends (other tests' calls left running may end meanwhile,
    # so the count is compared with what it was, not taken as exact).
    end = time.monotonic() + 5
    while call_execution.abandoned.count > before and time.monotonic() < end:
        time.sleep(0.02)
    gc.collect()
    assert call_execution.abandoned.count <= before
    assert "Task was destroyed" not in caplog.text


class Deaf(Toolset):
    """An async tool, without a timeout of its own, that goes on after it is cancelled."""

    @tool
    async def hold(self) -> str:
        try:
            await asyncio.sleep(30)
        except asyncio.CancelledError:
            await asyncio.sleep(1.5)
        return "done"


@pytest.mark.parametrize("runner", ["run", "arun"])
def test_the_deadline_holds_for_an_async_tool_that_ignores_its_cancellation(runner: str) -> None:
    # The run waited for such a tool to end however long it went on (forever, for one that
    # waits on an event nobody sets), then took its value as a success and blamed the model.
    model = ScriptedModel([_call("deaf_hold"), FINISH])
    agent = ReAct(model, Deaf.to_tools(), max_iterations=3, deadline=0.2)
    started = time.monotonic()
    with pytest.raises(DeadlineExceededError) as caught:
        _run(agent, runner)
    assert time.monotonic() - started < 1.2  # the deadline, then at most the grace of 0.5 s
    assert caught.value.waiting_for == "tool 'deaf_hold'"
    (step,) = caught.value.steps
    assert not step.ok


def test_cancelling_arun_cancels_the_tool_it_waits_for() -> None:
    stopped = threading.Event()

    class Patient(Toolset):
        @tool
        async def wait(self) -> str:
            try:
                await asyncio.sleep(30)
            except asyncio.CancelledError:
                stopped.set()
                raise
            return "done"  # pragma: no cover

    async def main(agent: ReAct) -> None:
        running = asyncio.ensure_future(agent.arun("Wait."))
        await asyncio.sleep(0.1)
        running.cancel()
        with pytest.raises(asyncio.CancelledError):
            await running
        await asyncio.sleep(0.05)

    for deadline in (None, 10.0):
        stopped.clear()
        agent = ReAct(
            ScriptedModel([_call("patient_wait")]),
            Patient.to_tools(),
            max_iterations=2,
            deadline=deadline,
        )
        asyncio.run(main(agent))
        assert stopped.is_set()


@pytest.mark.parametrize("runner", ["run", "arun"])
def test_the_deadline_stops_an_async_model(runner: str) -> None:
    _, tools = _shop()

    async def hanging(transcript: Transcript) -> dict[str, Any]:
        await asyncio.sleep(30)
        raise AssertionError  # pragma: no cover

    agent = ReAct(hanging, [tools["shop_add"]], max_iterations=3, deadline=0.1)
    started = time.monotonic()
    with pytest.raises(DeadlineExceededError) as caught:
        _run(agent, runner)
    assert time.monotonic() - started < 5
    assert (caught.value.steps, caught.value.waiting_for) == ((), "the model")


def test_the_deadline_holds_for_a_hung_sync_model_in_arun() -> None:
    # A sync model ran in a worker of the loop's default executor: at the deadline arun raised,
    # but asyncio.run then waited for that worker (for ever, for a model that never returns),
    # and each hung model held one of the executor's few workers. It runs in a thread of its
    # own now, left behind at the deadline and counted until it returns.
    release = threading.Event()

    def hung(transcript: Transcript) -> str:
        release.wait(10)
        return json.dumps(FINISH)

    agent = ReAct(hung, [], max_iterations=2, deadline=0.2)
    before = call_execution.abandoned.count
    started = time.monotonic()
    try:
        with pytest.raises(DeadlineExceededError) as caught:
            asyncio.run(agent.arun("Go."))
        assert time.monotonic() - started < 2  # the deadline and the grace, not the model
        assert caught.value.waiting_for == "the model"
        assert call_execution.abandoned.count == before + 1
    finally:
        release.set()
    for _ in range(200):  # counted until it returns
        if call_execution.abandoned.count == before:
            break
        time.sleep(0.01)
    assert call_execution.abandoned.count == before


def test_a_timeout_of_the_model_s_own_is_not_the_deadline() -> None:
    async def flaky(transcript: Transcript) -> dict[str, Any]:
        raise asyncio.TimeoutError

    agent = ReAct(flaky, [], max_iterations=2, deadline=10)
    with pytest.raises(asyncio.TimeoutError) as caught:
        asyncio.run(agent.arun("Go."))
    assert not isinstance(caught.value, DeadlineExceededError)


def test_the_deadline_is_told_by_its_own_timer_not_by_reading_the_clock_again() -> None:
    # An event loop may run a timer up to its clock's resolution early (15.6 ms with the
    # monotonic clock of Windows before Python 3.13) when something else wakes it. The run's
    # deadline timer that fired so was mistaken for a TimeoutError of the model's own and
    # escaped as a bare TimeoutError, without the steps.
    async def hanging(transcript: Transcript) -> dict[str, Any]:
        await asyncio.sleep(30)
        raise AssertionError  # pragma: no cover

    async def busy() -> None:
        while True:
            await asyncio.sleep(0.005)

    async def main() -> None:
        asyncio.get_running_loop()._clock_resolution = 0.2  # type: ignore[attr-defined]
        waking = asyncio.ensure_future(busy())
        try:
            agent = ReAct(hanging, [], max_iterations=2, deadline=0.5)
            with pytest.raises(DeadlineExceededError) as caught:
                await agent.arun("Go.")
            assert caught.value.waiting_for == "the model"
        finally:
            waking.cancel()

    asyncio.run(main())


def test_a_long_observation_is_cut_for_the_model_and_kept_whole_in_the_step() -> None:
    text = "x" * 50
    model = Recorder([_call("shop_echo", text=text), _call("shop_echo", text="short"), FINISH])
    _, tools = _shop()
    agent = ReAct(model, [tools["shop_echo"]], max_iterations=5, max_observation_chars=20)
    result = agent.run("Echo.")
    assert result.steps[0].observation == text
    shown = model.seen[-1].turns
    assert shown[0].observation == (
        "x" * 20 + "\n[Observation truncated: showing the first 20 of 50 characters.]"
    )
    assert shown[0].step.observation == text
    assert shown[1].observation == "short"
    assert model.seen[-1].messages()[3]["content"].startswith("Observation: " + "x" * 20 + "\n[")


def test_the_reprs_of_a_run_show_large_values_cut_short() -> None:
    # A step of a 10 MB observation, or a run of thousands of steps, filled a log line with it.
    huge = "x" * 1_000_000
    step = Step(huge, "shop_echo", {"text": huge}, huge, 0.5)
    assert len(repr(step)) < 1_000
    assert repr(step).startswith("Step(thought='xxx")
    small = Step("Add.", "shop_add", {"a": 1, "b": 2}, "3", 0.5)
    assert repr(small) == (
        "Step(thought='Add.', action='shop_add', arguments={'a': 1, 'b': 2},"
        " observation='3', duration=0.5, ok=True)"
    )
    result = AgentResult(huge, (step,) * 10_000, 10_000)
    assert len(repr(result)) < 20_000
    turn = Turn(huge, huge, step)
    transcript = Transcript(huge, (), (turn,) * 10_000, huge)
    assert len(repr(turn)) < 2_000
    assert len(repr(transcript)) < 20_000


# ---------------------------------------------------------------------------- async models


def test_an_async_model_runs_in_arun_and_in_run() -> None:
    shop, tools = _shop()
    script = ScriptedModel([_call("shop_add", a=2, b=2), FINISH])

    async def model(transcript: Transcript) -> Mapping[str, Any] | str | bytes:
        await asyncio.sleep(0)
        return script(transcript)

    agent = ReAct(model, [tools["shop_add"]], max_iterations=3)
    assert asyncio.run(agent.arun("Add.")).steps[0].observation == "4"
    assert agent.run("Add.").steps[0].observation == "4"
    assert shop.ran == ["add", "add"]


def test_an_object_with_an_async_call_is_an_async_model() -> None:
    class Model:
        async def __call__(self, transcript: Transcript) -> dict[str, Any]:
            return FINISH

    result = asyncio.run(ReAct(Model(), [], max_iterations=1).arun("Go."))
    assert result.final_answer == "the answer"


def test_a_sync_model_in_arun_runs_off_the_event_loop() -> None:
    threads: list[bool] = []

    def model(transcript: Transcript) -> dict[str, Any]:
        try:
            asyncio.get_running_loop()
            threads.append(False)
        except RuntimeError:
            threads.append(True)
        return FINISH

    asyncio.run(ReAct(model, [], max_iterations=1).arun("Go."))
    assert threads == [True]


def test_async_and_sync_tools_run_in_both_forms() -> None:
    for runner in ("run", "arun"):
        agent, shop = _agent(
            [_call("shop_wait", seconds=0), _call("shop_nap", seconds=0), FINISH],
            "shop_wait",
            "shop_nap",
        )
        result = _run(agent, runner)
        assert [s.observation for s in result.steps[:2]] == ["waited", "rested"]
        assert shop.ran == ["wait", "nap"]


def test_run_inside_an_event_loop_refuses_an_awaitable_and_points_to_arun() -> None:
    async def model(transcript: Transcript) -> dict[str, Any]:
        return FINISH  # pragma: no cover - never awaited

    agent = ReAct(model, [], max_iterations=1)

    async def main() -> None:
        agent.run("Go.")

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the coroutine is closed, not left un-awaited
        with pytest.raises(RuntimeError, match=r"use `await agent\.arun\(task\)`"):
            asyncio.run(main())


def test_run_inside_an_event_loop_refuses_an_async_tool_and_points_to_arun() -> None:
    agent, shop = _agent([_call("shop_wait", seconds=0), FINISH], "shop_wait")

    async def main() -> None:
        agent.run("Wait.")

    with pytest.raises(RuntimeError, match=r"tool 'shop_wait' is async, .* `await agent\.arun"):
        asyncio.run(main())
    assert shop.ran == []


def test_a_sync_agent_runs_inside_an_event_loop() -> None:
    agent, _ = _agent([_call("shop_add", a=1, b=1), FINISH], "shop_add")

    async def main() -> AgentResult:
        return agent.run("Add.")

    assert asyncio.run(main()).steps[0].observation == "2"


# ------------------------------------------------------------------------------ approvals


def test_an_approved_call_runs_and_the_callback_sees_name_and_arguments() -> None:
    asked: list[tuple[str, dict[str, Any]]] = []

    def approve(name: str, arguments: Mapping[str, Any]) -> bool:
        asked.append((name, dict(arguments)))
        return True

    agent, shop = _agent([_call("shop_delete", path="/tmp/x"), FINISH], approve=approve)
    step = agent.run("Delete.").steps[0]
    assert (step.observation, step.ok) == ("deleted /tmp/x", True)
    assert asked == [("shop_delete", {"path": "/tmp/x"})]
    assert shop.ran == ["delete /tmp/x"]


def test_a_refused_call_is_an_observation_and_the_tool_does_not_run() -> None:
    agent, shop = _agent(
        [_call("shop_delete", path="/"), FINISH], approve=lambda name, arguments: False
    )
    step = agent.run("Delete.").steps[0]
    assert step.observation == (
        "Error: The call of tool 'shop_delete' was not approved. Choose another action, or finish."
    )
    assert (step.ok, step.result) == (False, None)
    assert shop.ran == []


def test_without_a_callback_a_tool_that_needs_approval_is_refused() -> None:
    agent, shop = _agent([_call("shop_delete", path="/"), _call("shop_add", a=1, b=1), FINISH])
    delete, add, _ = agent.run("Delete.").steps
    assert delete.observation == (
        "Error: Tool 'shop_delete' runs only when approved, and nobody can approve it in this "
        "run: the call was not made. Choose another action, or finish."
    )
    assert add.observation == "2"  # tools without the mark need no approval
    assert shop.ran == ["add"]


@pytest.mark.parametrize("runner", ["run", "arun"])
def test_an_async_callback_decides(runner: str) -> None:
    async def approve(name: str, arguments: Mapping[str, Any]) -> bool:
        await asyncio.sleep(0)
        return arguments["path"].startswith("/tmp/")

    agent, shop = _agent(
        [_call("shop_delete", path="/tmp/a"), _call("shop_delete", path="/etc"), FINISH],
        approve=approve,
    )
    result = agent.run("Go.") if runner == "run" else asyncio.run(agent.arun("Go."))
    assert [s.ok for s in result.steps] == [True, False, True]
    assert shop.ran == ["delete /tmp/a"]


def test_arguments_written_for_the_strict_schema_are_called_so() -> None:
    def strict(color: str, text: bool = False) -> dict[str, Any]:
        arguments = {"color": color, "coats": None}
        sent = StrictArguments(json.dumps(arguments) if text else arguments)
        return {"thought": "mix", "action": "shop_mix", "action_input": sent}

    standard = _call("shop_mix", color="red", coats=None)
    agent, _ = _agent([strict("red"), strict("blue", text=True), standard, FINISH])
    first, second, third, _ = agent.run("Mix.").steps
    assert first.result is not None
    assert first.result.value == Paint(Color.RED)
    assert second.result is not None
    assert second.result.value == Paint(Color.BLUE)
    # Recorded as the model sent them; null is the default only in the strict form.
    assert first.arguments == {"color": "red", "coats": None}
    assert second.arguments == {"color": "blue", "coats": None}
    assert (third.ok, third.arguments) == (False, {"color": "red", "coats": None})


def test_the_callback_cannot_change_the_arguments_of_the_call() -> None:
    def approve(name: str, arguments: Mapping[str, Any]) -> bool:
        arguments["path"] = "/"  # type: ignore[index]  # a callback that misbehaves
        return True

    agent, shop = _agent([_call("shop_delete", path="/tmp/a"), FINISH], approve=approve)
    agent.run("Go.")
    assert shop.ran == ["delete /tmp/a"]


@pytest.mark.parametrize("runner", ["run", "arun"])
def test_only_calls_the_tool_would_accept_are_put_to_the_callback(runner: str) -> None:
    asked: list[dict[str, Any]] = []

    def approve(name: str, arguments: Mapping[str, Any]) -> bool:
        asked.append(dict(arguments))
        return True

    agent, shop = _agent(
        [
            _call("shop_delete", path=7),
            _call("shop_delete", path="/tmp/a", force=True),
            _call("shop_delete", path="x" * 1_000_001),  # past Limits.max_argument_bytes
            _call("shop_delete", path="/tmp/b"),
            FINISH,
        ],
        approve=approve,
    )
    wrong, extra, large, fine, _ = _run(agent, runner).steps
    assert wrong.observation == (
        "Error: Invalid arguments for tool 'shop_delete': path: 7 is not of type 'string'"
    )
    assert extra.observation == (
        "Error: Invalid arguments for tool 'shop_delete': force: unexpected argument; "
        "expected only: path"
    )
    kinds = [s.result.error.kind for s in (wrong, extra, large) if s.result and s.result.error]
    assert kinds == ["arguments", "arguments", "limit"]
    assert [wrong.ok, extra.ok, large.ok] == [False, False, False]
    assert (fine.observation, fine.ok) == ("deleted /tmp/b", True)
    assert asked == [{"path": "/tmp/b"}]
    assert shop.ran == ["delete /tmp/b"]


def test_the_deadline_stops_waiting_for_an_approval() -> None:
    async def undecided(name: str, arguments: Mapping[str, Any]) -> bool:
        await asyncio.sleep(30)
        raise AssertionError  # pragma: no cover

    agent, shop = _agent(
        [_call("shop_add", a=1, b=1), _call("shop_delete", path="/"), FINISH],
        approve=undecided,
        deadline=0.3,
    )
    with pytest.raises(DeadlineExceededError) as caught:
        asyncio.run(agent.arun("Go."))
    assert caught.value.waiting_for == "the approval of 'shop_delete'"
    assert [s.action for s in caught.value.steps] == ["shop_add"]
    assert shop.ran == ["add"]


def test_an_awaitable_asked_for_after_the_deadline_is_closed_not_left_unawaited() -> None:
    # run() calls a sync model directly: one that returns after the deadline leaves no time
    # for the async callback, which is then not started, and closed.
    def slow_model(transcript: Transcript) -> dict[str, Any]:
        time.sleep(0.15)
        return _call("shop_delete", path="/")

    async def approve(name: str, arguments: Mapping[str, Any]) -> bool:
        return True  # pragma: no cover - not started

    shop, tools = _shop()
    agent = ReAct(
        slow_model, [tools["shop_delete"]], max_iterations=2, approve=approve, deadline=0.1
    )
    with pytest.raises(DeadlineExceededError) as caught:
        agent.run("Go.")
    assert caught.value.waiting_for == "the model"
    assert shop.ran == []
    gc.collect()  # an un-awaited coroutine warns when it is collected


@pytest.mark.parametrize("runner", ["run", "arun"])
def test_nobody_is_asked_to_approve_a_call_after_the_deadline(runner: str) -> None:
    # A sync model that returns after the deadline: a person must not be asked about a call
    # that will not run (run() used to call a sync callback, then raise at the tool).
    def slow_model(transcript: Transcript) -> dict[str, Any]:
        time.sleep(0.15)
        return _call("shop_delete", path="/")

    asked: list[str] = []

    def approve(name: str, arguments: Mapping[str, Any]) -> bool:
        asked.append(name)
        return True

    shop, tools = _shop()
    agent = ReAct(
        slow_model, [tools["shop_delete"]], max_iterations=2, approve=approve, deadline=0.1
    )
    with pytest.raises(DeadlineExceededError) as caught:
        _run(agent, runner)
    # (arun stops waiting for the sync model itself, in its worker thread; run notices it as
    # the model returns, and names it as arun does.)
    assert caught.value.waiting_for == "the model"
    assert (asked, shop.ran) == ([], [])


def test_a_callback_that_returns_no_bool_is_a_programming_error() -> None:
    agent, shop = _agent(
        [_call("shop_delete", path="/tmp/a"), FINISH],
        approve=lambda name, arguments: "yes",  # type: ignore[arg-type,return-value]
    )
    with pytest.raises(TypeError, match=r"approve\('shop_delete', \.\.\.\) must return True"):
        agent.run("Go.")
    assert shop.ran == []


def test_approval_declared_on_the_toolset_applies_to_its_tools() -> None:
    class Guarded(Toolset):
        requires_approval = True

        @tool
        def ping(self) -> str:
            return "pong"

    asked: list[str] = []

    def approve(name: str, arguments: Mapping[str, Any]) -> bool:
        asked.append(name)
        return True

    agent = ReAct(
        ScriptedModel([_call("guarded_ping"), FINISH]),
        Guarded.to_tools(),
        max_iterations=3,
        approve=approve,
    )
    assert agent.run("Ping.").steps[0].observation == "pong"
    assert asked == ["guarded_ping"]


def test_the_prompt_marks_tools_that_need_approval() -> None:
    _, tools = _shop()
    agent = ReAct(_done, [tools["shop_delete"], tools["shop_add"]], max_iterations=1)
    assert "- shop_delete: Delete a file. (runs only when approved)\n" in agent.system_prompt
    assert "- shop_add: Add two integers.\n" in agent.system_prompt


# ------------------------------------------------------------------------ the prompt format


def test_the_transcript_as_chat_messages() -> None:
    model = Recorder([_call("shop_add", a=1, b=2), "oops", FINISH])
    _, tools = _shop()
    agent = ReAct(model, [tools["shop_add"]], max_iterations=5)
    agent.run("Add one and two.")
    transcript = model.seen[-1]
    messages = transcript.messages()
    assert [m["role"] for m in messages] == [
        "system",
        "user",
        "assistant",
        "user",
        "assistant",
        "user",
    ]
    assert messages[0]["content"] == transcript.system_prompt == agent.system_prompt
    assert messages[1]["content"] == "Task: Add one and two."
    assert json.loads(messages[2]["content"]) == _call("shop_add", a=1, b=2)
    assert messages[3]["content"] == "Observation: 3"
    assert messages[4]["content"] == "oops"  # a text reply as the model sent it
    assert messages[5]["content"].startswith("Observation: Error: Malformed step: ")
    assert transcript.messages(system=False) == messages[1:]


def test_the_system_prompt_presents_each_tool_with_its_schema() -> None:
    _, tools = _shop()
    prompt = ReAct(_done, [tools["shop_add"], tools["shop_mix"]], max_iterations=1)
    lines = prompt.system_prompt.splitlines()
    assert lines[0] == "You complete a task by calling tools, one step at a time."
    start = lines.index("Tools (name: description, then the JSON Schema of its parameters):")
    assert lines[start + 1] == "- shop_add: Add two integers."
    assert (
        json.loads(lines[start + 2].removeprefix("  parameters: ")) == tools["shop_add"].parameters
    )
    assert lines[start + 3] == "- shop_mix: Mix a paint."
    assert (
        json.loads(lines[start + 4].removeprefix("  parameters: ")) == tools["shop_mix"].parameters
    )
    assert '"action": "finish", "final_answer"' in prompt.system_prompt


def test_a_text_model_adapter_is_a_few_lines() -> None:
    """What docs/agent.md shows: a chat API behind ``transcript.messages()``."""
    replies = iter(
        [
            '{"thought": "Add.", "action": "shop_add", "action_input": {"a": 20, "b": 22}}',
            '{"thought": "Got it.", "action": "finish", "final_answer": "42"}',
        ]
    )
    sent: list[list[dict[str, Any]]] = []

    def chat(messages: list[dict[str, Any]]) -> str:  # stands in for an LLM API call
        sent.append(messages)
        return next(replies)

    def model(transcript: Transcript) -> str:
        return chat(transcript.messages())

    _, tools = _shop()
    result = ReAct(model, [tools["shop_add"]], max_iterations=4).run("20 + 22?")
    assert result.final_answer == "42"
    assert sent[1][-1] == {"role": "user", "content": "Observation: 42"}


# ------------------------------------------------------------------------- ScriptedModel


def test_scripted_model_replays_by_position_and_is_reusable() -> None:
    script = ScriptedModel([_call("shop_add", a=1, b=1), FINISH])
    assert len(script) == 2
    _, tools = _shop()
    agent = ReAct(script, [tools["shop_add"]], max_iterations=5)
    assert agent.run("a").final_answer == agent.run("b").final_answer == "the answer"


def test_scripted_model_runs_out_loudly() -> None:
    agent, _ = _agent([_call("shop_add", a=1, b=1)])
    with pytest.raises(
        RuntimeError, match="ScriptedModel has 1 steps, and the run asked for step 2"
    ):
        agent.run("Go.")


def test_scripted_model_takes_only_what_a_model_returns() -> None:
    with pytest.raises(TypeError, match="step 1 must be a mapping or JSON text"):
        ScriptedModel([FINISH, 3])  # type: ignore[list-item]


@pytest.mark.parametrize(
    ("steps", "kind"),
    [(json.dumps(FINISH), "str"), (json.dumps(FINISH).encode(), "bytes"), (FINISH, "dict")],
)
def test_scripted_model_refuses_one_step_in_place_of_a_list(steps: object, kind: str) -> None:
    # Iterated, a text was one step per character, a mapping one per key.
    with pytest.raises(TypeError) as raised:
        ScriptedModel(steps)  # type: ignore[arg-type]
    assert str(raised.value) == (
        f"steps must be a list of steps, got one {kind}: pass [step] for a script of one step"
    )


def test_scripted_steps_are_copies() -> None:
    step = _call("shop_echo", text="a")
    script = ScriptedModel([step, FINISH])
    step["action_input"]["text"] = "changed"
    _, tools = _shop()
    assert (
        ReAct(script, [tools["shop_echo"]], max_iterations=3).run("x").steps[0].observation == "a"
    )


# -------------------------------------------------------------------------- construction


def test_max_iterations_is_required_and_checked() -> None:
    with pytest.raises(TypeError, match="max_iterations"):
        ReAct(_done, [])  # type: ignore[call-arg]
    with pytest.raises(ValueError, match="max_iterations must be at least 1, got 0"):
        ReAct(_done, [], max_iterations=0)
    with pytest.raises(TypeError, match="max_iterations must be an int, got bool"):
        ReAct(_done, [], max_iterations=True)


@pytest.mark.parametrize(
    ("options", "error", "message"),
    [
        ({"deadline": 0}, ValueError, "deadline must be a positive, finite number"),
        ({"deadline": float("inf")}, ValueError, "deadline must be a positive, finite number"),
        ({"deadline": "5"}, TypeError, "deadline must be a number of seconds, got str"),
        (
            {"deadline": 10**400},
            ValueError,
            "deadline must be a positive, finite number of seconds, got an int too large",
        ),
        ({"deadline": -(10**5000)}, ValueError, "deadline must be a positive, finite number"),
        ({"max_observation_chars": 0}, ValueError, "max_observation_chars must be at least 1"),
        ({"max_observation_chars": 2.5}, TypeError, "max_observation_chars must be an int"),
        ({"approve": "yes"}, TypeError, "approve must be callable or None, got str"),
    ],
)
def test_options_are_checked(options: dict[str, Any], error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        ReAct(_done, [], max_iterations=1, **options)


def test_the_tools_must_be_proxies_with_distinct_names() -> None:
    shop, tools = _shop()
    with pytest.raises(TypeError, match=r"pass tools=MyToolset\.to_tools\(\)"):
        ReAct(_done, shop, max_iterations=1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"pass tools=MyToolset\.to_tools\(\)"):
        ReAct(_done, Workshop, max_iterations=1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="got one ToolProxy"):
        ReAct(_done, tools["shop_add"], max_iterations=1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="model must be callable"):
        ReAct("gpt", [], max_iterations=1)  # type: ignore[arg-type]
    with pytest.raises(ExportError, match="Two tools are exported as 'shop_add'"):
        ReAct(_done, [tools["shop_add"], Workshop().to_tools()[0]], max_iterations=1)
    # The same proxy twice is one tool.
    agent = ReAct(_done, [tools["shop_add"], tools["shop_add"]], max_iterations=1)
    assert [t.name for t in agent.tools] == ["shop_add"]


def test_a_tool_named_finish_is_refused() -> None:
    class Odd(Toolset):
        @tool(tool_name="Finish")
        def done(self) -> str:
            return ""

    with pytest.raises(ExportError, match="A tool is exported as 'Finish', which the agent"):
        ReAct(_done, Odd.to_tools(), max_iterations=1)


def test_the_task_must_be_text() -> None:
    agent = ReAct(_done, [], max_iterations=1)
    with pytest.raises(TypeError, match="the task must be a str, got int"):
        agent.run(3)  # type: ignore[arg-type]


@pytest.mark.parametrize("task", ["", "  \n"])
def test_the_task_must_say_something(task: str) -> None:
    # It was sent as it is: Anthropic's API refuses a message with empty content.
    agent = ReAct(_done, [], max_iterations=1)
    with pytest.raises(ValueError, match="the task is empty: give the text of what the agent"):
        agent.run(task)
    with pytest.raises(ValueError, match="the task is empty"):
        asyncio.run(agent.arun(task))


def test_model_exceptions_propagate() -> None:
    def broken(transcript: Transcript) -> dict[str, Any]:
        raise ConnectionError("the API is down")

    with pytest.raises(ConnectionError, match="the API is down"):
        ReAct(broken, [], max_iterations=1).run("Go.")


def test_a_stop_iteration_from_the_model_or_approve_is_raised_not_a_result_of_none() -> None:
    # A model replaying an iterator that runs out (next(replies)) made run() return None.
    replies = iter([_call("shop_echo", text="hi")])
    with pytest.raises(StopIteration):
        ReAct(lambda transcript: next(replies), list(_shop()[1].values()), max_iterations=5).run(
            "Go."
        )

    def approve(name: str, arguments: Mapping[str, Any]) -> bool:
        raise StopIteration

    agent, shop = _agent([_call("shop_delete", path="/tmp/x"), FINISH], approve=approve)
    with pytest.raises(StopIteration):
        agent.run("Delete.")
    assert shop.ran == []
    # A coroutine cannot raise StopIteration: arun's is Python's RuntimeError, caused by it.
    replies = iter([_call("shop_echo", text="hi")])
    agent = ReAct(lambda transcript: next(replies), list(_shop()[1].values()), max_iterations=5)
    with pytest.raises(RuntimeError, match="raised StopIteration") as info:
        asyncio.run(agent.arun("Go."))
    assert isinstance(info.value.__cause__, StopIteration)


def test_the_agent_module_does_not_import_an_sdk() -> None:
    import subprocess
    import sys

    code = (
        "import sys, typed_toolsets.agent\n"
        "print(sorted(m for m in ('openai', 'anthropic', 'google.genai', 'mcp') "
        "if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
