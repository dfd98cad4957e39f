"""Refused arguments' message (`typed_toolsets.call.refusal`): one problem or many, paths kept."""

from __future__ import annotations

import inspect
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.strategies.toolsets import echo_tool, make_echo_toolset
from typed_toolsets.call import paths, refusal
from typed_toolsets.call.refusal import ArgumentsRefusal, message_prefix


def test_one_problem_and_several_are_worded_alike() -> None:
    one = ArgumentsRefusal("t", [(("a",), "r1")], more=False)
    several = ArgumentsRefusal("t", [(("a",), "r1"), (("b", 0, "odd key"), "r2")], more=True)
    assert one.message == "Invalid arguments for tool 't': a: r1"
    assert several.message == (
        "Invalid arguments for tool 't': a: r1; b[0]['odd key']: r2; (more problems not shown)"
    )
    assert message_prefix("t") + "a: r1" == one.message
    assert [p.path for p in several.error().details] == ["$.a", "$.b[0]['odd key']"]


def test_a_path_written_once_is_written_the_same_again() -> None:
    tool = echo_tool(dict[str, int])
    first = tool.dynamic_call({"value": {"k": "x"}})
    assert first == tool.dynamic_call({"value": {"k": "x"}})
    expected = (
        f"Error: Invalid arguments for tool {tool.name!r}: value.k: 'x' is not of type 'integer'"
    )
    assert first == expected


def test_paths_kept_for_reuse_are_few_and_short() -> None:
    # Keys come from the model: however many distinct ones it sends, and however long, what is
    # kept for the next message stays bounded.
    tool = echo_tool(dict[str, int])
    for i in range(refusal._WRITTEN_PATHS + 50):  # pyright: ignore[reportPrivateUsage]
        tool.dynamic_call(json.dumps({"value": {f"key{i}": "x"}}))
    long_key = "k" * 1000
    message = tool.dynamic_call({"value": {long_key: "x"}})
    written_path = f"value.{long_key}"  # shown with its middle left out: the message stays short
    head, tail = paths._SHOWN_HEAD, paths._SHOWN_TAIL  # pyright: ignore[reportPrivateUsage]
    assert f": {written_path[:head]}...{written_path[-tail:]}: 'x'" in message
    written = refusal._written  # pyright: ignore[reportPrivateUsage]
    assert len(written) <= refusal._WRITTEN_PATHS  # pyright: ignore[reportPrivateUsage]
    assert all(len(text) <= refusal._WRITTEN_CHARS for text in written.values())  # pyright: ignore[reportPrivateUsage]
    assert ("value", long_key) not in written


def test_arguments_sent_inside_a_key_are_said_to_be_so() -> None:
    params = [("query", str, inspect.Parameter.empty), ("limit", int, 10)]
    proxy = make_echo_toolset(params).to_tools()[0]
    hint = "it holds the arguments themselves: send them at the top level, not inside"
    for wrapped, key in [
        ({"arguments": {"query": "x"}}, "arguments"),
        ({"name": proxy.name, "input": {"query": "x", "limit": 2}}, "input"),
    ]:
        for form in (wrapped, json.dumps(wrapped)):
            result = proxy.invoke(form)
            assert result.error is not None
            reasons = {d.path: d.message for d in result.error.details}
            assert reasons["$.query"] == "missing required argument"
            assert reasons[f"$.{key}"].endswith(f"; {hint} {key!r}")
            assert sum(hint in m for m in reasons.values()) == 1
    # Not when the object holds other names, nor beside the arguments themselves.
    for other in ({"input": {"q": 1}}, {"arguments": {"query": "x"}, "query": "y"}, {"a": {}}):
        assert hint not in proxy.dynamic_call(other)


def test_null_for_a_parameter_with_a_default_is_told_to_be_left_out() -> None:
    # Models send null for what they do not mean to set; "null is not of type 'integer'" did
    # not say that leaving it out gives the default.
    params = [
        ("query", str, inspect.Parameter.empty),
        ("limit", int, 10),
        ("note", str | None, None),
    ]
    proxy = make_echo_toolset(params).to_tools()[0]
    for form in ({"query": None, "limit": None, "note": None}, '{"query": null, "limit": null}'):
        result = proxy.invoke(form)
        assert result.error is not None
        assert {d.path: d.message for d in result.error.details} == {
            # No default: nothing to leave out for.
            "$.query": "null is not of type 'string'",
            "$.limit": (
                "null is not of type 'integer'; leave the argument out to use its default (10)"
            ),
        }
    assert proxy.invoke({"query": "x", "note": None}).ok  # null is the default's type there


def test_arguments_sent_as_json_text_inside_a_key_are_said_to_be_so() -> None:
    # What a provider hands over as a tool call's "arguments" is JSON text: sent inside the key.
    params = [("query", str, inspect.Parameter.empty), ("limit", int, 10)]
    proxy = make_echo_toolset(params).to_tools()[0]
    hint = (
        "it holds the arguments themselves, as JSON text: send them as an object at the top "
        "level, not inside 'arguments'"
    )
    wrapped = {"arguments": json.dumps({"query": "x", "limit": 2})}
    for form in (wrapped, json.dumps(wrapped)):
        result = proxy.invoke(form)
        assert result.error is not None
        reasons = {d.path: d.message for d in result.error.details}
        assert reasons["$.query"] == "missing required argument"
        assert reasons["$.arguments"].endswith(f"; {hint}")
    # Not for text holding other names, no object, or no JSON at all; nor past the length
    # hints read (a refusal costs about what reading the call did).
    too_long = json.dumps({"query": "x" * 10_000})
    for text in ['{"q": 1}', "[1]", '  {"query": ', "query: x", "", '"{}"', too_long]:
        message = proxy.dynamic_call({"arguments": text})
        assert "arguments themselves" not in message


def test_a_long_key_holding_the_arguments_is_shown_cut_in_the_hint() -> None:
    # The key is the model's: the path before the reason was cut, the hint echoed it whole.
    proxy = make_echo_toolset([("query", str, inspect.Parameter.empty)]).to_tools()[0]
    key = "k" * 100_000
    message = proxy.dynamic_call({key: {"query": "x"}})
    assert message.endswith(f"send them at the top level, not inside '{'k' * 55}...'")
    assert len(message) < 600


_KEY_CHARACTERS = ["a", "Z", "_", "1", " ", "'", '"', "\\", "\x00", "\x7f", "é", "\U0001f600", "-"]


@given(
    st.lists(
        st.one_of(
            st.integers(0, 99),
            st.text(st.sampled_from(_KEY_CHARACTERS), min_size=0, max_size=30),
            # Keys around and past the length written whole (`_LONG_KEY`, 800).
            st.builds(
                lambda part, count, end: part * count + end,
                st.text(st.sampled_from(_KEY_CHARACTERS), min_size=1, max_size=4),
                st.integers(150, 1200),
                st.text(st.sampled_from(_KEY_CHARACTERS), max_size=3),
            ),
            st.integers(790, 2000).map(lambda n: "k" * n),
        ),
        min_size=1,
        max_size=4,
    )
)
def test_a_path_with_a_long_key_is_shown_as_if_written_whole(path: list[str | int]) -> None:
    assert paths.shown_dotted_path(path) == paths.shown_path(paths.dotted_path(path))


def test_a_long_unknown_key_is_not_escaped_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    # A long key of quotes and backslashes was quoted and escaped whole (700 KB: 60 ms, a hundred
    # accepted calls of that size) before all but its two ends were left out of the message.
    tool = echo_tool(int)
    key = "'\"\\-" * 100_000  # 600 KB as JSON
    escaped = paths.json_escaped

    def bounded(written: str) -> str:
        assert len(written) < 10_000, "a long key escaped whole"
        return escaped(written)

    monkeypatch.setattr(paths, "json_escaped", bounded)
    message = tool.dynamic_call(json.dumps({"value": 1, key: 2}))
    shown = paths.shown_path(f"[{escaped(repr(key))}]")
    assert message == (
        f"Error: Invalid arguments for tool {tool.name!r}: {shown}: unexpected argument; "
        "expected only: value"
    )
