"""`dispatch`, `respond` and `mcp_call`: a model's tool calls run and answered in each shape."""

from __future__ import annotations

import asyncio
import dataclasses
import datetime
import enum
import json
import subprocess
import sys
import types
import uuid
from typing import Any, NamedTuple

import attrs
import pytest

from typed_toolsets import ExportError, Toolset, register_type, tool
from typed_toolsets.export import (
    adispatch,
    amcp_call,
    arespond,
    dispatch,
    mcp_call,
    respond,
)


class Mood(enum.Enum):
    HAPPY = "happy"
    SAD = "sad"


@attrs.frozen
class Reading:
    mood: Mood
    at: datetime.date
    tags: frozenset[str] = frozenset()


class Diary(Toolset):
    @tool
    def read(self, *, day: datetime.date, loud: bool = False) -> Reading:
        return Reading(Mood.SAD if loud else Mood.HAPPY, day, frozenset({"x"}))

    @tool
    def echo(self, *, text: str, times: int = 1) -> str:
        return text * times

    @tool
    def count(self, *, items: list[int]) -> int:
        return len(items)

    @tool
    def fail(self) -> str:
        msg = "disk full"
        raise OSError(msg)

    @tool
    async def later(self, *, n: int = 2) -> list[int]:
        await asyncio.sleep(0)
        return list(range(n))

    @tool
    def nothing(self) -> None:
        return None


TOOLS = Diary.to_tools()


# ------------------------------------------------------------------------------- dispatch


def test_dispatch_runs_the_named_tool() -> None:
    assert dispatch(TOOLS, "diary_echo", {"text": "ab", "times": 2}) == "abab"
    assert dispatch(TOOLS, "diary_count", '{"items": [1, 2, 3]}') == 3
    assert dispatch(TOOLS, "diary_read", {"day": "2024-05-01"}) == Reading(
        Mood.HAPPY, datetime.date(2024, 5, 1), frozenset({"x"})
    )


def test_dispatch_answers_an_unknown_name_with_the_available_names() -> None:
    assert dispatch(TOOLS, "diary_write", {}) == (
        "Error: Unknown tool 'diary_write'; available tools: diary_read, diary_echo, "
        "diary_count, diary_fail, diary_later, diary_nothing"
    )
    assert dispatch([], "x") == "Error: Unknown tool 'x'; available tools: none"


def test_dispatch_gives_errors_as_dynamic_call_does() -> None:
    assert dispatch(TOOLS, "diary_count", {"items": "no"}) == TOOLS[2].dynamic_call({"items": "no"})
    assert dispatch(TOOLS, "diary_fail") == "Error: Tool 'diary_fail' failed: OSError: disk full"


def test_dispatch_refuses_two_tools_with_one_name() -> None:
    with pytest.raises(ExportError, match="Two tools are exported as 'diary_echo'"):
        dispatch([*TOOLS, *Diary.to_tools()], "diary_echo", {"text": "a"})


def test_dispatch_runs_async_tools_too() -> None:
    assert dispatch(TOOLS, "diary_later", {"n": 3}) == [0, 1, 2]
    assert asyncio.run(adispatch(TOOLS, "diary_later", {"n": None}, strict=True)) == [0, 1]
    assert asyncio.run(adispatch(TOOLS, "diary_echo", {"text": "z"})) == "z"
    assert asyncio.run(adispatch(TOOLS, "nope")).startswith("Error: Unknown tool 'nope'")


# -------------------------------------------------------------------------------- respond

CHAT_CALL = {
    "id": "call_1",
    "type": "function",
    "function": {"name": "diary_read", "arguments": '{"day": "2024-05-01", "loud": true}'},
}
RESPONSES_CALL = {
    "type": "function_call",
    "id": "fc_1",
    "call_id": "call_2",
    "name": "diary_echo",
    "arguments": '{"text": "hi"}',
}
ANTHROPIC_CALL = {
    "type": "tool_use",
    "id": "toolu_1",
    "name": "diary_count",
    "input": {"items": [1, 2]},
}


def test_respond_to_an_openai_chat_tool_call() -> None:
    reply = respond(TOOLS, CHAT_CALL)
    assert reply == {
        "role": "tool",
        "tool_call_id": "call_1",
        "content": '{"mood": "sad", "at": "2024-05-01", "tags": ["x"]}',
    }


def test_respond_to_a_responses_function_call_item() -> None:
    assert respond(TOOLS, RESPONSES_CALL) == {
        "type": "function_call_output",
        "call_id": "call_2",
        "output": "hi",
    }


def test_respond_to_an_anthropic_tool_use_block() -> None:
    assert respond(TOOLS, ANTHROPIC_CALL) == {
        "type": "tool_result",
        "tool_use_id": "toolu_1",
        "content": "2",
        "is_error": False,
    }


def test_respond_reads_sdk_objects_by_attribute() -> None:
    call = types.SimpleNamespace(
        id="call_9",
        type="function",
        function=types.SimpleNamespace(name="diary_echo", arguments='{"text": "o"}'),
    )
    assert respond(TOOLS, call) == {"role": "tool", "tool_call_id": "call_9", "content": "o"}


def test_errors_come_back_as_the_envelope_with_the_error_flag() -> None:
    reply = respond(TOOLS, ANTHROPIC_CALL | {"input": {"items": ["a"]}})
    assert reply["is_error"] is True
    assert json.loads(reply["content"]) == {
        "error": {
            "kind": "arguments",
            "tool": "diary_count",
            "message": "Invalid arguments for tool 'diary_count': items[0]: 'a' is not of type "
            "'integer'",
            "details": [{"path": "$.items[0]", "message": "'a' is not of type 'integer'"}],
        }
    }
    chat = respond(TOOLS, CHAT_CALL | {"function": {"name": "diary_fail", "arguments": ""}})
    assert json.loads(chat["content"])["error"]["kind"] == "execution"
    assert "is_error" not in chat


def test_an_unknown_tool_is_an_error_result_not_an_exception() -> None:
    reply = respond(TOOLS, RESPONSES_CALL | {"name": "diary_nope"})
    error = json.loads(reply["output"])["error"]
    assert error["tool"] == "diary_nope"
    assert error["kind"] == "arguments"  # the model must change its call
    answer = mcp_call(TOOLS, "diary_nope")
    assert answer["isError"] is True
    assert json.loads(answer["content"][0]["text"])["error"]["kind"] == "arguments"
    assert error["message"].startswith("Unknown tool 'diary_nope'; available tools: diary_read")
    reply = respond(TOOLS, ANTHROPIC_CALL | {"name": None})
    assert reply["is_error"] is True
    # A call without a name is told so in JSON's words, not Python's (`None`).
    error = json.loads(reply["content"])["error"]
    assert (error["tool"], error["message"].split(";")[0]) == ("null", "Unknown tool null")
    assert dispatch(TOOLS, 7).startswith("Error: Unknown tool 7; available tools: diary_read")  # type: ignore[arg-type]
    # A long made-up name went back whole in the envelope's "tool" (100 KB into the conversation).
    reply = respond(TOOLS, RESPONSES_CALL | {"name": "n" * 100_000})
    error = json.loads(reply["output"])["error"]
    assert error["tool"] == "n" * 77 + "..."
    assert len(reply["output"]) < 400
    answer = mcp_call(TOOLS, "n" * 100_000)
    assert json.loads(answer["content"][0]["text"])["error"]["tool"] == "n" * 77 + "..."


def test_respond_in_strict_mode_maps_null_to_the_default() -> None:
    call = ANTHROPIC_CALL | {"name": "diary_echo", "input": {"text": "x", "times": None}}
    assert respond(TOOLS, call, strict=True)["content"] == "x"
    assert respond(TOOLS, call)["is_error"] is True


def test_values_become_json_text_and_strings_stay_text() -> None:
    def content(name: str, arguments: dict[str, Any]) -> str:
        call = RESPONSES_CALL | {"name": name, "arguments": json.dumps(arguments)}
        return str(respond(TOOLS, call)["output"])

    assert content("diary_echo", {"text": '"quoted"'}) == '"quoted"'
    assert content("diary_count", {"items": []}) == "0"
    assert content("diary_later", {}) == "[0, 1]"
    assert content("diary_nothing", {}) == "null"


def test_respond_refuses_what_is_no_tool_call() -> None:
    with pytest.raises(TypeError, match="respond\\(\\) takes an OpenAI Chat tool call") as caught:
        respond(TOOLS, {"type": "text", "text": "hello"})
    assert str(caught.value).endswith("; got dict with type 'text'")
    with pytest.raises(TypeError) as caught:
        respond(TOOLS, 5)
    assert str(caught.value).endswith("as a mapping or the SDK's object; got int")  # no "type None"
    with pytest.raises(TypeError, match="no id to answer to; answer it with dispatch"):
        respond(TOOLS, {"type": "tool_use", "name": "diary_echo", "input": {}})
    with pytest.raises(TypeError, match=r"^the tool call's id must be a string, not 7; "):
        respond(TOOLS, ANTHROPIC_CALL | {"id": 7})


def test_arespond_awaits_async_tools() -> None:
    call = RESPONSES_CALL | {"name": "diary_later", "arguments": '{"n": 1}'}
    assert asyncio.run(arespond(TOOLS, call)) == {
        "type": "function_call_output",
        "call_id": "call_2",
        "output": "[0]",
    }
    unknown = asyncio.run(arespond(TOOLS, ANTHROPIC_CALL | {"name": "x"}))
    assert unknown["is_error"] is True


# ------------------------------------------------------------------------------------ MCP


def test_mcp_results_carry_structured_content_and_is_error() -> None:
    assert mcp_call(TOOLS, "diary_echo", {"text": "a"}) == {
        "content": [{"type": "text", "text": "a"}],
        "isError": False,
    }
    assert mcp_call(TOOLS, "diary_count", {"items": [5]}) == {
        "content": [{"type": "text", "text": "1"}],
        "structuredContent": {"result": 1},
        "isError": False,
    }
    read = mcp_call(TOOLS, "diary_read", {"day": "2024-01-02"})
    assert read["structuredContent"] == {"mood": "happy", "at": "2024-01-02", "tags": ["x"]}
    failed = mcp_call(TOOLS, "diary_count", {})
    assert failed["isError"] is True
    assert "structuredContent" not in failed
    assert json.loads(failed["content"][0]["text"])["error"]["details"] == [
        {"path": "$.items", "message": "missing required argument"}
    ]
    assert mcp_call(TOOLS, "missing")["isError"] is True


def test_amcp_call_awaits() -> None:
    assert asyncio.run(amcp_call(TOOLS, "diary_later", {"n": 2}))["structuredContent"] == {
        "result": [0, 1]
    }
    assert asyncio.run(amcp_call(TOOLS, "nope"))["isError"] is True


def test_a_value_that_does_not_match_its_annotation_still_becomes_json() -> None:
    class Loose(Toolset):
        @tool
        def f(self) -> int:
            return {"not": "an int"}  # type: ignore[return-value]

        @tool
        def g(self) -> object:
            return Mood.SAD

        @tool
        def h(self) -> float:
            return float("nan")

    tools = Loose.to_tools()
    assert respond(tools, CHAT_CALL | {"function": {"name": "loose_f"}})["content"] == (
        '{"not": "an int"}'
    )
    assert respond(tools, CHAT_CALL | {"function": {"name": "loose_g"}})["content"] == '"sad"'
    assert respond(tools, CHAT_CALL | {"function": {"name": "loose_h"}})["content"] == '"nan"'


class Feeling(str, enum.Enum):
    HAPPY = "happy"


def test_a_str_subclass_from_a_str_tool_is_plain_text() -> None:
    # "a `str` as it is": a str enum member returned by a `-> str` tool is its text; by a
    # `-> Feeling` tool it is the JSON value its annotation says.
    class Moods(Toolset):
        @tool
        def text(self) -> str:
            return Feeling.HAPPY  # a str

        @tool
        def member(self) -> Feeling:
            return Feeling.HAPPY

    tools = Moods.to_tools()
    call = CHAT_CALL | {"function": {"name": "moods_text", "arguments": "{}"}}
    assert respond(tools, call)["content"] == "happy"
    assert mcp_call(tools, "moods_text")["content"] == [{"type": "text", "text": "happy"}]
    call = CHAT_CALL | {"function": {"name": "moods_member", "arguments": "{}"}}
    assert respond(tools, call)["content"] == '"happy"'


class Measure(float):
    """A float subclass, as numpy's float64 is."""


class Ratio(float, enum.Enum):
    HALF = 0.5


@attrs.define
class Mean:
    mean: float


def test_a_float_subclass_from_a_float_tool_is_a_plain_number() -> None:
    # It was refused over MCP ("a Measure is not a JSON value") while an int subclass passed.
    class Stats(Toolset):
        @tool
        def one(self) -> float:
            return Measure(2.5)

        @tool
        def nested(self) -> Mean:
            return Mean(Measure(0.25))

        @tool
        def items(self) -> list[float]:
            return [Measure(1.0), Ratio.HALF]

    tools = Stats.to_tools()
    for name, text, content in [
        ("stats_one", "2.5", {"result": 2.5}),
        ("stats_nested", '{"mean": 0.25}', {"mean": 0.25}),
        ("stats_items", "[1.0, 0.5]", {"result": [1.0, 0.5]}),
    ]:
        answer = mcp_call(tools, name)
        assert answer["isError"] is False
        assert answer["structuredContent"] == content
        assert answer["content"] == [{"type": "text", "text": text}]
    found = mcp_call(tools, "stats_items")["structuredContent"]["result"]
    assert [type(item) for item in found] == [float, float]


def test_an_mcp_result_its_output_schema_refuses_is_the_tools_failure() -> None:
    # MCP has structuredContent conform to the outputSchema the tool advertised: NaN (no JSON
    # number), a string for an int and a naive datetime (no RFC 3339 form) are the tool's error.
    class Loose(Toolset):
        @tool
        def mean(self, *, xs: list[float]) -> float:
            return sum(xs) / len(xs) if xs else float("nan")

        @tool
        def count(self) -> int:
            return "5"  # type: ignore[return-value]

        @tool
        def when(self) -> datetime.datetime:
            return datetime.datetime(2020, 1, 1)  # naive on purpose

        @tool
        def days(self) -> list[datetime.datetime]:
            # The first is aware (it has a JSON form): the naive second one is the problem.
            utc = datetime.timezone.utc
            return [datetime.datetime(2020, 1, 1, tzinfo=utc), datetime.datetime(2020, 1, 2)]

    tools = Loose.to_tools()
    naive = (
        "a datetime has no JSON form: a naive datetime has no UTC offset and cannot be sent as "
        "RFC 3339; attach a tzinfo"
    )
    fine = mcp_call(tools, "loose_mean", {"xs": [1, 2]})
    assert fine == {
        "content": [{"type": "text", "text": "1.5"}],
        "structuredContent": {"result": 1.5},
        "isError": False,
    }
    for name, arguments, problem in [
        ("loose_mean", {"xs": []}, "$.result: NaN is not valid JSON (numbers must be finite)"),
        ("loose_count", {}, "$.result: '5' is not of type 'integer'; 5 is wanted, without quotes"),
        ("loose_when", {}, f"$.result: {naive}"),
        ("loose_days", {}, f"$.result[1]: {naive}"),
    ]:
        answer = mcp_call(tools, name, arguments)
        assert answer["isError"] is True
        assert "structuredContent" not in answer
        error = json.loads(answer["content"][0]["text"])["error"]
        assert error["kind"] == "execution"
        assert error["message"] == (
            f"Tool {name!r} returned a value its return annotation does not admit: {problem}"
        )


def test_none_from_a_tool_with_an_object_output_schema_is_its_failure_over_mcp() -> None:
    # The result carried no structuredContent and no error flag: a client that checks the
    # outputSchema (the MCP SDK's) raised "has an output schema but did not return structured
    # content" instead of reading the answer.
    class Absent(Toolset):
        @tool
        def totals(self) -> dict[str, int]:
            return None  # type: ignore[return-value]  # a wrong value, on purpose

        @tool
        def reading(self) -> Reading:
            return None  # type: ignore[return-value]

    tools = Absent.to_tools()
    for name in ("absent_totals", "absent_reading"):
        answer = mcp_call(tools, name)
        assert answer["isError"] is True
        assert "structuredContent" not in answer
        assert json.loads(answer["content"][0]["text"])["error"]["message"] == (
            f"Tool {name!r} returned a value its return annotation does not admit: $: null is "
            "not of type 'object'"
        )


# ----------------------------------------------------------------------------- imports


UNDECODABLE = b"abc\xff".decode("utf-8", "surrogateescape")  # "abc\udcff", as os.listdir gives


class Undecodable(Toolset):
    """Tools whose text holds a lone surrogate, as undecodable file names do."""

    @tool
    def name(self) -> str:
        return UNDECODABLE

    @tool
    def names(self) -> list[str]:
        return [UNDECODABLE, "\ud83d\ude00"]  # a pair of surrogates is one character

    @tool
    def refuse(self) -> str:
        raise ValueError("no file " + UNDECODABLE)


def test_every_text_a_result_carries_is_valid_unicode() -> None:
    tools = Undecodable.to_tools()
    chat = [
        respond(tools, {"id": "c", "function": {"name": name, "arguments": "{}"}})["content"]
        for name in ("undecodable_name", "undecodable_names", "undecodable_refuse")
    ]
    mcp = [mcp_call(tools, name) for name in ("undecodable_names", "undecodable_refuse")]
    assert chat[0] == "abc\ufffd"
    assert json.loads(chat[1]) == ["abc\ufffd", "\U0001f600"]
    assert "no file abc\ufffd" in json.loads(chat[2])["error"]["message"]
    assert mcp[0]["structuredContent"] == {"result": ["abc\ufffd", "\U0001f600"]}
    for text in [*chat, *(json.dumps(r, ensure_ascii=False) for r in mcp)]:
        text.encode("utf-8")  # no lone surrogate left anywhere
    # Only where it is written for a model: the Python caller gets the method's value unchanged.
    assert tools[0].dynamic_call({}) == UNDECODABLE
    assert tools[0].invoke({}).value == UNDECODABLE


class Listing(Toolset):
    """Undecodable file names that differ in the byte U+FFFD would replace."""

    @tool
    def sizes(self) -> dict[str, int]:
        names = [b"a\xff", b"a\xfe", b"b\xff"]
        sizes = {name.decode("utf-8", "surrogateescape"): size for size, name in enumerate(names)}
        return {**sizes, "plain": 9}

    @tool
    def spelled(self) -> dict[str, int]:
        return {"a" + chr(0xDCFF): 1, "a" + chr(0xDCFE): 2, "a\\udcff": 3}

    @tool
    def apart(self) -> dict[str, dict[str, int]]:
        # Replaced, these do not meet: U+FFFD as everywhere else.
        return {"x": {UNDECODABLE: 1}, "y": {"pair\ud83d\ude00": 2}}


def test_keys_one_once_their_lone_surrogates_are_replaced_stay_apart() -> None:
    # They became one key: twice in the text (which a strict reader refuses), and one member
    # lost from structuredContent.
    tools = Listing.to_tools()
    sizes = {"a\\udcff": 0, "a\\udcfe": 1, "b\\udcff": 2, "plain": 9}
    answer = mcp_call(tools, "listing_sizes")
    assert answer["structuredContent"] == sizes
    assert json.loads(answer["content"][0]["text"]) == sizes
    text = respond(tools, {"id": "c", "function": {"name": "listing_sizes", "arguments": "{}"}})
    assert text["content"] == json.dumps(sizes)
    # A key also spelled as the escaped text: numbered, not lost.
    spelled = mcp_call(tools, "listing_spelled")["structuredContent"]
    assert spelled == {"a\\udcff (2)": 1, "a\\udcfe": 2, "a\\udcff": 3}
    apart = {"x": {"abc\ufffd": 1}, "y": {"pair\U0001f600": 2}}
    assert mcp_call(tools, "listing_apart")["structuredContent"] == apart


class Badge:
    """A registered type whose unstructure leaves a UUID (a part of no JSON type) in its form."""


register_type(
    Badge,
    schema={"type": "object"},
    structure=lambda _: Badge(),
    unstructure=lambda _: {"id": uuid.UUID(int=1), "owner": UNDECODABLE},
)


def test_mcp_structured_content_is_plain_json_whatever_a_hook_left_in_it() -> None:
    # The UUID went into structuredContent as the Python object, and with a lone surrogate in
    # the text the result's JSON round trip raised TypeError out of mcp_call.
    class Badges(Toolset):
        @tool
        def badge(self) -> Badge:
            return Badge()

        @tool
        def badges(self) -> list[Badge]:
            return [Badge()]

    tools = Badges.to_tools()
    form = {"id": "00000000-0000-0000-0000-000000000001", "owner": "abc\ufffd"}
    badge = mcp_call(tools, "badges_badge")
    badges = mcp_call(tools, "badges_badges")
    assert badge == {
        "content": [{"type": "text", "text": json.dumps(form, ensure_ascii=False)}],
        "structuredContent": form,
        "isError": False,
    }
    assert badges["isError"] is False
    assert badges["structuredContent"] == {"result": [form]}


def test_the_export_module_imports_no_sdk_and_the_core_never_imports_it() -> None:
    script = """
import json, sys
import typed_toolsets
from typed_toolsets import Toolset, tool

class T(Toolset):
    @tool
    def f(self, *, n: int = 1) -> int:
        return n

(proxy,) = T.to_tools()
proxy.strict_parameters
core = "typed_toolsets.export" in sys.modules
from typed_toolsets import export
export.openai_chat([proxy], strict=True), export.anthropic([proxy]), export.gemini([proxy])
export.mcp([proxy]), export.respond([proxy], {"type": "tool_use", "id": "1", "name": "t_f",
    "input": {"n": None}}, strict=True)
loaded = [m for m in ("openai", "anthropic", "google.genai", "mcp", "jsonschema") if m in sys.modules]
print(json.dumps({"core": core, "loaded": loaded}))
"""
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=120
    )
    assert json.loads(done.stdout) == {"core": False, "loaded": []}


def test_an_integer_with_no_json_text_is_answered_not_raised() -> None:
    # An integer of more than 4,300 digits has no JSON text (json.dumps refuses it under
    # Python's digit limit); respond and mcp_call answer anyway, as with NaN: the text writes it
    # as a string saying so, and MCP has no structured content of it (the tool's failure).
    class Big(Toolset):
        @tool
        def power(self, *, base: int, exp: int) -> int:
            return int(base**exp)

    tools = Big.to_tools()
    call = CHAT_CALL | {"function": {"name": "big_power", "arguments": '{"base": 10, "exp": 5000}'}}
    assert respond(tools, call)["content"] == '"<an integer of about 5001 digits>"'
    answer = mcp_call(tools, "big_power", {"base": 10, "exp": 5000})
    assert answer["isError"] is True
    assert "structuredContent" not in answer
    assert json.loads(answer["content"][0]["text"])["error"]["message"] == (
        "Tool 'big_power' returned a value its return annotation does not admit: $.result: an "
        "integer of more than 4,300 digits is not a JSON number"
    )
    assert (
        respond(
            tools, call | {"function": {"name": "big_power", "arguments": '{"base": 10, "exp": 3}'}}
        )["content"]
        == "1000"
    )


def test_a_value_nested_too_deeply_for_json_text_is_answered_not_raised() -> None:
    # json.dumps recurses: a returned value nested thousands of levels deep (a long linked
    # chain of a recursive class) raised RecursionError out of respond and mcp_call.
    class Deep(Toolset):
        @tool
        def nest(self, *, n: int) -> list[Any]:
            value: list[Any] = []
            for _ in range(n):
                value = [value]
            return value

    tools = Deep.to_tools()
    # Deeper than json.dumps goes on any Python: from 3.12 its C recursion has a fixed bound
    # (about 10,000 levels), before that the interpreter's recursion limit, set here to its
    # default: mypy's API, run in process by other tests, raises it to 16,384, which is deeper
    # than Python 3.10's C stack lets cattrs recurse.
    n = 50_000
    deep = {"type": "tool_use", "id": "t", "name": "deep_nest", "input": {"n": n}}
    too_deep = '"<a value nested too deeply to write as JSON text>"'
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(1000)
    try:
        answered = respond(tools, deep)
        text = mcp_call(tools, "deep_nest", {"n": n})["content"][0]["text"]
    finally:
        sys.setrecursionlimit(limit)
    assert answered == {
        "type": "tool_result",
        "tool_use_id": "t",
        "content": too_deep,
        "is_error": False,
    }
    assert text == too_deep
    assert respond(tools, deep | {"input": {"n": 2}})["content"] == "[[[]]]"


def test_values_beside_one_without_json_form_still_get_theirs() -> None:
    # When a returned value as a whole has no JSON form (here the naive datetime), the text
    # writes that part as a string; its neighbours keep their own JSON forms (a set is an
    # array, an enum its value), not Python's reprs ("{1, 2}", "<Mood.SAD: 'sad'>").
    class Mixed(Toolset):
        @tool
        def report(self) -> dict[str, Any]:
            return {
                "at": datetime.datetime(2024, 1, 1),  # naive on purpose
                "mood": Mood.SAD,
                "tags": {1},
                "frozen": frozenset({"x"}),
            }

    call = CHAT_CALL | {"function": {"name": "mixed_report", "arguments": "{}"}}
    written = json.loads(respond(Mixed.to_tools(), call)["content"])
    assert isinstance(written.pop("at"), str)
    assert written == {"mood": "sad", "tags": [1], "frozen": ["x"]}


@attrs.frozen
class Meeting:
    title: str
    at: datetime.datetime
    mood: Mood
    # A field with an alias: written under its JSON name.
    _room: int = attrs.field(alias="room")


class Slot(NamedTuple):
    start: datetime.datetime
    minutes: int


class Planner(Toolset):
    @tool
    def next_meeting(self) -> Meeting:
        return Meeting("standup", datetime.datetime(2024, 1, 1, 9), Mood.HAPPY, room=4)  # naive

    @tool
    def slots(self) -> list[Slot]:
        utc = datetime.timezone.utc
        return [
            Slot(datetime.datetime(2024, 1, 1, tzinfo=utc), 30),
            Slot(datetime.datetime(2024, 1, 2), 15),
        ]


def test_a_struct_without_json_form_is_written_field_by_field() -> None:
    # A struct holding a naive datetime was written as one Python repr string, its title and
    # mood included ("Meeting(title='standup', at=datetime.datetime(...), ...)"); its fields keep
    # their JSON names and forms, and only the part with none is a string.
    tools = Planner.to_tools()
    call = CHAT_CALL | {"function": {"name": "planner_next_meeting", "arguments": "{}"}}
    written = json.loads(respond(tools, call)["content"])
    assert isinstance(written.pop("at"), str)
    assert written == {"title": "standup", "mood": "happy", "room": 4}
    call = CHAT_CALL | {"function": {"name": "planner_slots", "arguments": "{}"}}
    first, second = json.loads(respond(tools, call)["content"])
    assert first == {"start": "2024-01-01T00:00:00+00:00", "minutes": 30}
    assert isinstance(second.pop("start"), str)
    assert second == {"minutes": 15}


def test_an_mcp_result_names_the_struct_field_without_json_form() -> None:
    naive = (
        "a datetime has no JSON form: a naive datetime has no UTC offset and cannot be sent as "
        "RFC 3339; attach a tzinfo"
    )
    tools = Planner.to_tools()
    for name, problem in [
        ("planner_next_meeting", f"$.at: {naive}"),  # an object is the result itself
        ("planner_slots", f"$.result[1].start: {naive}"),
    ]:
        answer = mcp_call(tools, name)
        assert answer["isError"] is True
        error = json.loads(answer["content"][0]["text"])["error"]
        assert error["message"] == (
            f"Tool {name!r} returned a value its return annotation does not admit: {problem}"
        )


@attrs.frozen
class Counted:
    n: int


class Miscounted(Toolset):
    @tool
    def count(self) -> Counted:
        return Counted("5")  # type: ignore[arg-type]  # a wrong field type, on purpose


def test_a_struct_whose_fields_all_have_json_forms_keeps_its_own_reason() -> None:
    answer = mcp_call(Miscounted.to_tools(), "miscounted_count")
    error = json.loads(answer["content"][0]["text"])["error"]
    assert error["message"].endswith(
        "does not admit: $: a Counted has no JSON form: '5' is not an int"
    )


class _NoRepr:
    def __repr__(self) -> str:
        msg = "no text for this"
        raise RuntimeError(msg)


class _NotTextRepr:
    def __repr__(self) -> str:
        return 42  # type: ignore[return-value]  # a broken __repr__, on purpose


class _NoStr:
    def __str__(self) -> str:
        msg = "no str"
        raise RuntimeError(msg)


class Unwritable(Toolset):
    toolset_name = "odd"

    @tool
    def opaque(self) -> object:
        return _NoRepr()

    @tool
    def nested(self) -> dict[str, object]:
        return {"inner": [_NotTextRepr()]}

    @tool
    def keyed(self) -> Any:
        return {_NoStr(): 1}


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("odd_opaque", '"<_NoRepr>"'),
        ("odd_nested", '{"inner": ["<_NotTextRepr>"]}'),
        ("odd_keyed", '"<a dict value that cannot be written as text>"'),
    ],
)
def test_a_value_whose_repr_fails_is_still_written_not_raised(name: str, text: str) -> None:
    # The lenient writing of values with no JSON form used repr(), which raised out of respond,
    # mcp_call, the agent loop and `typed-toolsets call` when a __repr__ (or a key's __str__)
    # failed: such a part is its type's name instead.
    tools = Unwritable.to_tools()
    call = {"type": "tool_use", "id": "t", "name": name, "input": {}}
    assert respond(tools, call) == {
        "type": "tool_result",
        "tool_use_id": "t",
        "content": text,
        "is_error": False,
    }
    assert mcp_call(tools, name, {})["content"][0]["text"] == text


class Blank(Toolset):
    @tool
    def say(self, *, text: str) -> str:
        return text


@pytest.mark.parametrize("text", ["", " ", "\n", " \t\r\n", "\u3000"])
def test_an_anthropic_tool_result_is_never_empty_nor_only_whitespace(text: str) -> None:
    # The Messages API refuses a tool_result whose content is "" and any text block that is
    # empty or only whitespace; the conversation carrying such an answer could not go on. A
    # tool returning such a str was answered with it as it is.
    tools = Blank.to_tools()
    call = {"type": "tool_use", "id": "t", "name": "blank_say", "input": {"text": text}}
    reply = respond(tools, call)
    assert reply["content"] == json.dumps(text, ensure_ascii=False)
    assert json.loads(reply["content"]) == text  # exactly what the tool returned, as JSON
    assert reply["content"].strip()
    assert asyncio.run(arespond(tools, call)) == reply
    # The other providers and MCP take the text as it is.
    chat = {"id": "c", "function": {"name": "blank_say", "arguments": {"text": text}}}
    assert respond(tools, chat)["content"] == text
    assert mcp_call(tools, "blank_say", {"text": text})["content"][0]["text"] == text
    # Any other text goes to Anthropic as it is.
    assert respond(tools, call | {"input": {"text": f"{text}x"}})["content"] == f"{text}x"


def test_a_value_that_contains_itself_is_answered_not_looped_over() -> None:
    # mcp_call looked for the part of a structured result without a JSON form forever (and
    # without bound in memory) when the value contained itself: the MCP server hung on it.
    script = """
import json
from typing import Any
from typed_toolsets import Toolset, tool
from typed_toolsets.export import mcp_call, respond

class Loops(Toolset):
    @tool
    def listed(self) -> list[int]:
        items: list[Any] = [1]
        items.append(items)
        return items

    @tool
    def keyed(self) -> dict[str, list[int]]:
        found: dict[str, Any] = {"a": [1], "b": [2]}
        found["b"].append(found)
        return found

    @tool
    def shared(self) -> list[list[int]]:
        part = [1, 2]
        return [part, part, part]

tools = Loops.to_tools()
answers = {
    name: [mcp_call(tools, name), respond(tools, {"id": "c", "function": {"name": name}})]
    for name in ("loops_listed", "loops_keyed", "loops_shared")
}
print(json.dumps(answers))
"""
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=120
    )
    answers = json.loads(done.stdout)
    circular = '"<a circular reference: this value contains itself>"'
    listed_mcp, listed = answers["loops_listed"]
    assert listed_mcp["isError"] is True
    assert json.loads(listed_mcp["content"][0]["text"])["error"]["message"] == (
        "Tool 'loops_listed' returned a value its return annotation does not admit: "
        "$.result[1]: the value contains itself (a circular reference), which no JSON text can "
        "hold"
    )
    assert listed["content"] == f"[1, {circular}]"
    keyed_mcp, keyed = answers["loops_keyed"]
    assert "$.b[1]: the value contains itself" in keyed_mcp["content"][0]["text"]
    assert keyed["content"] == f'{{"a": [1], "b": [2, {circular}]}}'
    # A part met twice without containing itself is no cycle: it is written each time.
    shared_mcp, shared = answers["loops_shared"]
    assert shared_mcp["structuredContent"] == {"result": [[1, 2], [1, 2], [1, 2]]}
    assert shared["content"] == "[[1, 2], [1, 2], [1, 2]]"


@attrs.define
class Link:
    name: str
    next: Link | None = None


@dataclasses.dataclass
class DataLink:
    name: str
    next: DataLink | None = None


def test_a_struct_that_contains_itself_is_named_a_cycle_as_a_dict_is() -> None:
    # An attrs class or dataclass holding itself was said to be nested too deeply (its hook
    # recursed until the stack ran out), where a dict holding itself is named as a cycle.
    class Rings(Toolset):
        @tool
        def attrs_ring(self) -> list[Link]:
            first = Link("a", Link("b"))
            assert first.next is not None
            first.next.next = first
            return [first]

        @tool
        def dataclass_ring(self) -> list[DataLink]:
            first = DataLink("a", DataLink("b"))
            assert first.next is not None
            first.next.next = first
            return [first]

        @tool
        def chain(self) -> Link:
            first = Link("0")
            for index in range(1, 5_000):
                first = Link(str(index), first)
            return first

    tools = Rings.to_tools()
    circular = '"<a circular reference: this value contains itself>"'
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(1000)  # as by default (mypy's API, run by other tests, raises it)
    try:
        answers = {name: mcp_call(tools, name) for name in ("rings_attrs_ring", "rings_chain")}
        answers["rings_dataclass_ring"] = mcp_call(tools, "rings_dataclass_ring")
        texts = {
            name: respond(tools, {"id": "c", "function": {"name": name}})["content"]
            for name in answers
        }
    finally:
        sys.setrecursionlimit(limit)
    # A long chain holds no cycle: it is still said to be nested too deeply.
    assert "nested too deeply" in answers["rings_chain"]["content"][0]["text"]
    assert texts["rings_chain"] == '"<a value nested too deeply to write as JSON text>"'
    for name in ("rings_attrs_ring", "rings_dataclass_ring"):
        answer = answers[name]
        assert answer["isError"] is True
        assert json.loads(answer["content"][0]["text"])["error"]["message"] == (
            f"Tool {name!r} returned a value its return annotation does not admit: "
            "$.result[0].next.next: the value contains itself (a circular reference), which no "
            "JSON text can hold"
        )
        text = texts[name]
        assert text == f'[{{"name": "a", "next": {{"name": "b", "next": {circular}}}}}]'


class Cents:
    """A type of this test's own, registered twice."""

    def __init__(self, amount: int) -> None:
        self.amount = amount


def test_a_result_is_written_by_the_registration_its_tool_was_built_with() -> None:
    # The hook of a return type was looked up at a tool's first answer and kept: one tool that
    # had answered kept the old registration, one that had not took the new one, and neither
    # answered as its own output schema and arguments (both fixed when it was built) said.
    register_type(
        Cents, schema={"type": "integer"}, structure=Cents, unstructure=lambda c: c.amount
    )

    class Till(Toolset):
        toolset_name = "till"

        @tool(description="Echo")
        def early(self, *, c: Cents) -> Cents:
            return c

        @tool(description="Echo")
        def late(self, *, c: Cents) -> Cents:
            return c

    tools = Till.to_tools()
    assert mcp_call(tools, "till_early", {"c": 5})["structuredContent"] == {"result": 5}
    register_type(
        Cents,
        schema={"type": "string"},
        structure=lambda text: Cents(int(text)),
        unstructure=lambda c: str(c.amount),
    )
    for name in ("till_early", "till_late"):
        answer = mcp_call(tools, name, {"c": 5})
        assert answer["isError"] is False, answer
        assert answer["structuredContent"] == {"result": 5}
        assert answer["content"][0]["text"] == "5"
    assert mcp_call(Till.to_tools(), "till_late", {"c": 6})["structuredContent"] == {"result": 6}


class Thirds(int):
    """A count of tenths in thirds, registered with a schema that jsonschema checks (its ``not``)."""


register_type(
    Thirds,
    schema={"type": "integer", "multipleOf": 0.3, "not": {"const": 5}},
    structure=Thirds,
    unstructure=int,
)


class Purse(Toolset):
    @tool
    def total(self, *, digits: int, odd: bool = False) -> Thirds:
        return Thirds(3 * 10**digits + odd)


def test_a_result_past_the_float_range_over_a_float_multiple_is_judged_not_raised() -> None:
    # mcp_call raised OverflowError (jsonschema's multipleOf dividing it by a float); now it is
    # judged exactly, as 10**307 is, whose quotient alone overflows.
    tools = Purse.to_tools()
    assert mcp_call(tools, "purse_total", {"digits": 2})["structuredContent"] == {"result": 300}
    for digits in (307, 399):
        assert mcp_call(tools, "purse_total", {"digits": digits})["isError"] is False
        answer = mcp_call(tools, "purse_total", {"digits": digits, "odd": True})
        assert answer["isError"] is True
        error = json.loads(answer["content"][0]["text"])["error"]
        assert error["message"] == (
            "Tool 'purse_total' returned a value its return annotation does not admit: "
            f"$.result: 3{'0' * 55}...1 is not a multiple of 0.3"
        )
