"""The fast path for JSON text: it accepts exactly what the exact path accepts, with the same
result, or leaves the call to it; and it does take the common valid calls. When it refuses the
values, going straight to the validator gives the exact path's own outcome.
"""

from __future__ import annotations

import enum
import json
import re
from collections.abc import Callable
from typing import Any

import attrs
import pytest
from hypothesis import given, note
from hypothesis import strategies as st

from tests.strategies.annotations import json_values, text
from tests.strategies.toolsets import toolsets
from typed_toolsets import Limits, ToolError, Toolset, tool
from typed_toolsets.call.jsonin import parse_strict
from typed_toolsets.call.pipeline import Refused
from typed_toolsets.call.proxy import ToolProxy
from typed_toolsets.types import fastpath as _fastpath
from typed_toolsets.types.converter import converter
from typed_toolsets.types.validator import make_validator


class Level(enum.IntEnum):
    LOW = 1
    HUGE = 2**70


@attrs.frozen
class Item:
    name: str
    tags: dict[str, int] = attrs.Factory(dict)


@attrs.frozen
class Tree:
    label: str
    kids: list[Tree] = attrs.Factory(list)


class FastToolset(Toolset):
    toolset_name = "fast"
    limits = Limits(max_depth=6)

    @tool
    def take(
        self,
        *,
        count: int = 0,
        ratio: float = 0.0,
        number: int | float = 0,
        level: Level = Level.LOW,
        items: list[Item] | None = None,
        note: str = "",
        tree: Tree | None = None,
    ) -> dict[str, Any]:
        return {
            "count": count,
            "ratio": ratio,
            "number": number,
            "level": level,
            "items": items,
            "note": note,
            "tree": tree,
        }


def take() -> Any:
    return FastToolset.to_tools()[0]


MISS = "miss"
REFUSED = "refused"


def markers(arguments: object, refused: bool) -> str:
    """An exact path that only says why the fast path handed the call over."""
    return REFUSED if refused else MISS


def fast_of(proxy: ToolProxy) -> Callable[[object], object]:
    """The proxy's fast path, handing over to `markers` instead of the exact path."""
    exact_path = proxy._pipeline.exact
    limits = exact_path.limits
    return exact_path.arguments.fast_path(limits.max_argument_bytes, limits.max_depth, markers)


def exact(proxy: ToolProxy, arguments: str, *, refused: bool = False) -> object:
    """The exact path's keyword arguments, or its `ToolError`."""
    try:
        return proxy._pipeline.exact(arguments, refused)
    except Refused as refusal:
        return refusal.error


def both(arguments: str) -> tuple[object, object]:
    proxy = take()
    return fast_of(proxy)(arguments), exact(proxy, arguments)


@pytest.fixture
def no_orjson(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_fastpath, "_loads", None)


class TestTakesTheCommonCase:
    @pytest.mark.parametrize(
        "arguments",
        [
            '{"count": 3}',
            b'{"ratio": 2, "number": 2.5, "level": 1}',
            '{"items": [{"name": "a", "tags": {"x": 1}}, {"name": "b"}], "note": "caf\\u00e9 \\u00e9"}',
            '{"tree": {"label": "r", "kids": [{"label": "a"}]}}',
            # Colons inside strings, keys included: written back, the parse has as many.
            '{"note": "see https://example.com/a?b=c:d at 12:30", "count": 1}',
            b'{"items": [{"name": "Note: a", "tags": {"k:1": 1, "::": 2}}]}',
        ],
    )
    def test_valid_text_is_taken_with_the_exact_result(self, arguments: str | bytes) -> None:
        fast, exact_result = both(arguments)  # type: ignore[arg-type]
        assert type(fast) is dict
        assert fast == exact_result

    @pytest.mark.parametrize(
        "arguments",
        [
            {},
            {"count": 3, "note": "a: b"},
            {"ratio": 2, "number": 2.5, "level": 1, "items": [{"name": "a", "tags": {"x": 1}}]},
            {"tree": {"label": "r", "kids": [{"label": "a"}]}},
        ],
    )
    def test_a_plain_dict_is_taken_with_the_exact_result(self, arguments: dict[str, Any]) -> None:
        fast, exact_result = both(arguments)  # type: ignore[arg-type]
        assert type(fast) is dict
        assert fast == exact_result


class TestLeavesToTheExactPath:
    @pytest.mark.parametrize(
        "arguments",
        [
            '{"count": 1, "count": 2}',  # duplicate keys: orjson keeps the last silently
            '{"items": [{"name": "a", "name": "b"}]}',
            '{"note": "a\\u003a b: c"}',  # an escaped colon: the counts cannot see it
            '{"note": "a: b", "count": 1, "count": 2}',  # a duplicate beside a colon in a string
            '\ufeff{"count": 1}',  # a byte order mark is no JSON
            # Beyond 64 bits orjson gives a float, which may be an integer literal: only the
            # exact path can read it.
            '{"count": 123456789012345678901234567890}',
            '{"number": 123456789012345678901234567890}',
            '{"level": 1180591620717411303425}',
            '{"count": NaN}',
            '{"note": "\\ud800"}',
            '{"tree": {"label": "a", "kids": [{"label": "b", "kids": [{"label": "c", "kids": [{"label": "d"}]}]}]}}',
            "[]",
            "",
        ],
    )
    def test_the_fast_path_declines(self, arguments: str) -> None:
        fast, _ = both(arguments)
        assert fast == MISS

    @pytest.mark.parametrize(
        "arguments",
        [
            '{"count": "3"}',  # parsed, but not an integer
            '{"items": [{"name": "a", "tags": {"x": 1.5}}]}',
        ],
    )
    def test_the_fast_path_refuses_values_that_do_not_structure(self, arguments: str) -> None:
        proxy = take()
        assert fast_of(proxy)(arguments) == REFUSED
        # Straight to the validator: the same outcome as structuring the strict parse first.
        assert exact(proxy, arguments, refused=True) == exact(proxy, arguments)

    def test_results_agree_with_the_exact_path(self) -> None:
        proxy = take()
        assert proxy.dynamic_call('{"count": 1, "count": 2}') == (
            "Error: Invalid JSON arguments for tool 'fast_take': the key 'count' appears more "
            "than once in an object"
        )
        assert proxy.dynamic_call('{"note": "a: b"}')["note"] == "a: b"
        big = 123456789012345678901234567890
        assert proxy.dynamic_call(f'{{"count": {big}}}')["count"] == big
        number = proxy.dynamic_call(f'{{"number": {big}}}')["number"]
        assert number == big
        assert type(number) is int
        assert proxy.dynamic_call('{"number": 1e30}')["number"] == 1e30
        assert proxy.dynamic_call('{"level": 1180591620717411303424}')["level"] is Level.HUGE
        assert proxy.dynamic_call('{"level": 1180591620717411303425}').startswith("Error: ")
        deep = '{"tree": {"label": "a", "kids": [{"label": "b", "kids": [{"label": "c", "kids": [{"label": "d"}]}]}]}}'
        assert "over the limit of 6" in proxy.dynamic_call(deep)


class TestWithoutOrjson:
    def test_every_call_takes_the_exact_path(self, no_orjson: None) -> None:
        class LateToolset(Toolset):
            @tool
            def echo(self, *, n: int, note: str = "") -> list[object]:
                return [n, note]

        (echo,) = LateToolset.to_tools()
        assert fast_of(echo)('{"n": 2}') == MISS
        assert echo.dynamic_call('{"n": 2, "note": "a: b"}') == [2, "a: b"]
        assert echo.dynamic_call('{"n": 2, "n": 3}').startswith("Error: Invalid JSON arguments")


def _arguments_texts(valid: dict[str, object]) -> st.SearchStrategy[str]:
    body = json.dumps(valid)

    def with_duplicate(key: str) -> str:
        return (
            body[:-1]
            + (", " if valid else "")
            + json.dumps(key)
            + ": "
            + json.dumps(valid.get(key))
            + "}"
        )

    keys = sorted(valid)
    variants: list[st.SearchStrategy[str]] = [st.just(body), json_values.map(json.dumps)]
    if keys:
        variants.append(st.sampled_from(keys).map(with_duplicate))
    variants.append(
        text.map(lambda t: body[:-1] + (", " if valid else "") + json.dumps("k:" + t) + ": 1}")
    )
    variants.append(st.integers(2**63, 2**200).map(lambda n: body.replace(": 1", f": {n}", 1)))
    return st.one_of(*variants)


@given(toolsets(), st.data())
def test_fast_path_accepts_only_what_the_exact_path_accepts(
    generated: Any, data: st.DataObject
) -> None:
    cls, params = generated
    proxy = cls.to_tools()[0]
    fast = fast_of(proxy)
    valid = {
        name: converter.unstructure(data.draw(case.values), unstructure_as=case.annotation)
        for name, case, defaulted in params
        if not defaulted or data.draw(st.booleans())
    }
    arguments = data.draw(_arguments_texts(valid), label="arguments")
    note(arguments)
    taken = fast(arguments)
    exact_result = exact(proxy, arguments)
    if type(taken) is dict:
        assert not isinstance(exact_result, ToolError), exact_result
        assert taken == exact_result
        assert make_validator(proxy.parameters).is_valid(parse_strict(arguments))
    else:
        assert taken in (MISS, REFUSED)
    if taken == REFUSED:
        assert exact(proxy, arguments, refused=True) == exact_result
    plain = arguments == json.dumps(valid)
    no_colons = ":" not in json.dumps(list(valid.values())) + "".join(valid)
    small_ints = re.search(r"[0-9]{19}", arguments) is None  # beyond 64 bits orjson gives floats
    if plain and no_colons and small_ints and not isinstance(exact_result, ToolError):
        # Plain valid arguments with no colon in any string: the fast path must take them (the
        # exact path may still refuse a value that validates but cannot be built).
        assert type(taken) is dict


@pytest.mark.parametrize(
    ("schema", "expected"),
    [
        ({"type": "object", "properties": {"t": {"type": "string"}}}, False),
        (
            {
                "type": "object",
                "properties": {"t": {"anyOf": [{"type": "string"}, {"type": "null"}]}},
            },
            False,
        ),
        ({"type": "object", "properties": {"t": {"type": "string", "enum": ["a", "b"]}}}, False),
        ({"type": "object", "properties": {"n": {"type": "integer"}}}, True),
        ({"type": "object", "properties": {"n": {"enum": ["a", 1]}}}, True),
        ({"type": "object", "properties": {"n": {"const": 2.5}}}, True),
        (
            {"type": "object", "properties": {"n": {"type": "array", "items": {"type": "number"}}}},
            True,
        ),
        (
            {
                "type": "object",
                "properties": {"o": {"$ref": "#/$defs/X"}},
                "$defs": {"X": {"type": "object", "properties": {"n": {"type": "integer"}}}},
            },
            True,
        ),
        ({"type": "object", "properties": {"u": {"pattern": "x"}}}, True),
    ],
)
def test_number_guard_is_needed_only_where_numbers_can_appear(
    schema: dict[str, Any], expected: bool
) -> None:
    assert _fastpath._has_numbers(schema) is expected
