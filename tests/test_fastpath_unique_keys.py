"""Long texts of arguments that admit no number: read by jiter, which refuses repeated keys.

Such a text is structured without counting its colons: a repeated key (however escaped, at any
depth) makes jiter refuse it, and the text goes the way of the others. What jiter reads that the
strict parser refuses (an infinite float, a lone surrogate) never reaches a method: no parameter
takes a number, and a refusal is handed over with orjson's reading of the text, not jiter's.
Everywhere, the pipeline gives the exact path's own outcome.
"""

from __future__ import annotations

import json
import math
from typing import Any, Literal

import attrs
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from tests.test_fastpath import MISS, REFUSED, exact, fast_of, markers, recording
from typed_toolsets import ToolError, Toolset, tool
from typed_toolsets.call.exact import Failed
from typed_toolsets.call.proxy import ToolProxy
from typed_toolsets.types import fastpath as _fastpath
from typed_toolsets.types import handover as _handover
from typed_toolsets.types import typespec as _typespec


@attrs.frozen
class Page:
    title: str
    note: str | None = None


class WordsToolset(Toolset):
    toolset_name = "words"

    @tool
    def write(
        self,
        *,
        path: str,
        content: str,
        mode: Literal["w", "a"] = "w",
        page: Page | None = None,
    ) -> list[object]:
        return [path, content, mode, page]

    @tool
    def wait(self, *, content: str, seconds: float = 1.0) -> list[object]:
        return [content, seconds]

    @tool
    def tag(self, *, content: str, tags: list[str]) -> list[object]:
        return [content, tags]


def proxies() -> dict[str, ToolProxy]:
    return {proxy.method_name: proxy for proxy in WordsToolset.to_tools()}


#: Prose and code with colons, long enough to be read by jiter.
CONTENT = "Note: def f(x):\n    return {'a': x}\n" * 20


def write_text(**extra: object) -> str:
    arguments: dict[str, object] = {
        "path": "src/a.py",
        "content": CONTENT,
        "page": {"title": "Plan: v2", "note": "a:b"},
        **extra,
    }
    text = json.dumps(arguments)
    assert len(text) > _handover.UNIQUE_KEYS_FROM
    return text


def outcome(proxy: ToolProxy, arguments: object) -> object:
    """What the pipeline gives: the keyword arguments, or the error."""
    checked = proxy._pipeline.fast(arguments)
    return checked.error if type(checked) is Failed else checked


def agrees(proxy: ToolProxy, arguments: str) -> object:
    found = outcome(proxy, arguments)
    assert found == exact(proxy, arguments)
    return found


class TestTaken:
    @pytest.mark.parametrize("form", [str, bytes])
    def test_colons_and_escaped_colons_in_strings_are_taken(self, form: type) -> None:
        write = proxies()["write"]
        # An escaped colon sends a text read by orjson to the exact path (it could hide a
        # dropped member); jiter refuses any repeated key, so this one is taken.
        text = write_text().replace("Note:", "Note\\u003a", 1)
        taken = fast_of(write)(text if form is str else text.encode())
        assert type(taken) is dict
        assert taken == exact(write, text)
        assert taken["content"].startswith("Note: def")
        assert taken["page"].note == "a:b"

    def test_a_short_text_is_read_by_orjson(self) -> None:
        write = proxies()["write"]
        text = '{"path": "a: b", "content": "b\\u003a"}'
        assert len(text) < _handover.UNIQUE_KEYS_FROM
        assert fast_of(write)(text) == MISS  # the escaped colon, as before

    def test_without_jiter_long_texts_are_read_by_orjson(
        self, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        monkeypatch.setattr(_fastpath, "unique_keys_reader", lambda: None)
        write = proxies()["write"]
        text = write_text().replace("Note:", "Note\\u003a", 1)
        # A fast path of its own (they are kept by what they hand over to), built without jiter.
        assert (
            fast_of(write, lambda arguments, handover: markers(arguments, handover))(text) == MISS
        )


class TestRepeatedKeys:
    @pytest.mark.parametrize(
        "repeat",
        [
            ', "path": "b.py"}',  # at the top
            ', "\\u0070ath": "b.py"}',  # the same key, escaped
            ', "content": "x"}',
        ],
    )
    def test_at_the_top(self, repeat: str) -> None:
        write = proxies()["write"]
        text = write_text()[:-1] + repeat
        assert fast_of(write)(text) == MISS
        error = agrees(write, text)
        assert isinstance(error, ToolError)
        assert "appears more than once" in error.message

    @pytest.mark.parametrize("key", ['"title"', '"t\\u0069tle"', '"note"'])
    def test_inside_a_struct(self, key: str) -> None:
        write = proxies()["write"]
        text = write_text().replace('"title": "Plan: v2"', f'"title": "Plan: v2", {key}: "x"')
        assert text != write_text()
        assert fast_of(write)(text) == MISS
        assert isinstance(agrees(write, text), ToolError)


class TestWhatOnlyJiterReads:
    @pytest.mark.parametrize("literal", ["1e400", "-1e400", "1" + "0" * 400 + ".5"])
    def test_an_infinite_float_is_no_value_of_a_text_without_numbers(self, literal: str) -> None:
        write = proxies()["write"]
        text = write_text().replace('"src/a.py"', literal)
        error = agrees(write, text)
        assert isinstance(error, ToolError)
        # A refusal of the text itself, not of a number where a string was wanted.
        assert "Invalid JSON" in error.message

    def test_a_refusal_is_handed_over_with_orjsons_reading(self) -> None:
        write = proxies()["write"]
        text = write_text(mode="append")
        fast, seen = recording(write)
        fast(text)
        assert seen == [json.loads(text)]
        assert markers_of(write, text) == REFUSED
        assert isinstance(agrees(write, text), ToolError)

    @pytest.mark.parametrize("escape", ["\\ud800", "\\udc00x", "\\ud800\\u0041"])
    def test_a_lone_surrogate(self, escape: str) -> None:
        write = proxies()["write"]
        text = write_text().replace("Plan: v2", f"Plan {escape}")
        agrees(write, text)

    def test_numbers_keep_the_colon_count(self) -> None:
        # A float parameter: jiter would read 1e400 as infinity, so such texts are read by
        # orjson, which refuses it where it stands.
        wait = proxies()["wait"]
        text = json.dumps({"content": CONTENT, "seconds": 2.5}).replace("2.5", "1e400")
        error = agrees(wait, text)
        assert isinstance(error, ToolError)
        assert "Invalid JSON" in error.message
        escaped = json.dumps({"content": CONTENT}).replace("Note:", "Note\\u003a", 1)
        assert fast_of(wait)(escaped) == MISS

    def test_arrays_keep_the_colon_count(self) -> None:
        # orjson builds an array's many short strings faster than jiter does.
        tag = proxies()["tag"]
        text = json.dumps({"content": CONTENT, "tags": ["a", "b:c"]})
        assert type(fast_of(tag)(text)) is dict
        assert fast_of(tag)(text.replace("Note:", "Note\\u003a", 1)) == MISS


def markers_of(proxy: ToolProxy, text: str) -> Any:
    return fast_of(proxy)(text)


def test_strict_reading_of_jiters_reading_looks_only_at_its_numbers_and_depth() -> None:
    text = write_text(mode="append")
    value = json.loads(text)
    # No member dropped (jiter refuses repeated keys): the reading is handed over as it is.
    assert _handover.strict_reading(_handover.UNIQUE_KEYS, text, value, 32) is value
    assert _handover.strict_reading(_handover.UNIQUE_KEYS, text, value, 1) is True  # too deep
    for odd in (math.inf, -math.inf, _typespec.LONG_INT, -_typespec.LONG_INT):
        bent = {**value, "page": {"note": [odd]}}
        assert _handover.strict_reading(_handover.UNIQUE_KEYS, text, bent, 32) is True
    edge = {**value, "page": {"note": [1.5e308, _typespec.LONG_INT - 1, -_typespec.LONG_INT + 1]}}
    assert _handover.strict_reading(_handover.UNIQUE_KEYS, text, edge, 32) is edge


def _reads_alike_reference(value: object, level: int, max_depth: int) -> bool:
    """The plain recursive statement of `reads_alike`, for values shallow enough to recurse."""
    if type(value) is float:
        return math.isfinite(value)
    if type(value) is int:
        return -_typespec.LONG_INT < value < _typespec.LONG_INT
    if type(value) in (dict, list):
        if level > max_depth:
            return False
        members = value.values() if isinstance(value, dict) else value
        return all(_reads_alike_reference(item, level + 1, max_depth) for item in members)
    return True


_ODD_NUMBERS = (math.inf, -math.inf, _typespec.LONG_INT, -_typespec.LONG_INT, 1.5e308, -(2**70))
# Drawn by index: hypothesis cannot show an integer of 4,301 digits.
_odd_numbers = st.integers(0, len(_ODD_NUMBERS) - 1).map(_ODD_NUMBERS.__getitem__)
_jiter_values = st.recursive(
    st.none() | st.booleans() | st.text(max_size=3) | st.integers() | st.floats() | _odd_numbers,
    lambda inner: st.lists(inner, max_size=24) | st.dictionaries(st.text(max_size=3), inner),
    max_leaves=60,
)


@given(
    value=st.dictionaries(st.text(max_size=3), _jiter_values, max_size=24),
    max_depth=st.integers(0, 6),
)
@example(value={"a": [1, {"b": -_typespec.LONG_INT}]}, max_depth=3)
@example(value={"a": [1, {"b": _typespec.LONG_INT - 1}]}, max_depth=3)
@example(value={"a": [1, {"b": []}]}, max_depth=3)
@example(value={"a": [1, {"b": [math.nan]}]}, max_depth=4)
@example(value={str(i): [i, -math.inf] for i in range(20)}, max_depth=2)
def test_reads_alike_is_its_plain_statement_for_few_members_and_many(
    value: dict[str, object], max_depth: int
) -> None:
    # Up to 16 members in all, they are looked at one by one; more, level by level.
    assert _handover.reads_alike(value, max_depth) is _reads_alike_reference(value, 1, max_depth)
