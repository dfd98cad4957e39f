"""The fast path for JSON text and dicts: it accepts exactly what the exact path accepts, with
the same result, or leaves the call to it; and it does take the common valid calls. When it
refuses the values, going straight to the validator gives the exact path's own outcome.

The generated differential test is tests/test_differential.py; here are the named cases.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Callable
from datetime import datetime
from typing import Annotated, Any

import attrs
import pytest
from annotated_types import Ge
from hypothesis import given
from hypothesis import strategies as st

from tests.strategies.annotations import json_values, repeated_key_objects
from typed_toolsets import Limits, Toolset, register_type, tool
from typed_toolsets.call.exact import Failed
from typed_toolsets.call.proxy import ToolProxy
from typed_toolsets.types import fastpath as _fastpath
from typed_toolsets.types import handover as _handover
from typed_toolsets.types.typespec import exact_numbers


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


def markers(arguments: object, handover: object) -> str:
    """An exact path that only says why the fast path handed the call over.

    Not parsed: nothing known (False), or orjson's error, for text it found invalid.
    """
    return MISS if handover is False or isinstance(handover, ValueError) else REFUSED


def fast_of(
    proxy: ToolProxy, exact: Callable[[object, Any], object] = markers
) -> Callable[[object], object]:
    """The proxy's fast path, handing over to *exact* (`markers`) instead of the exact path."""
    exact_path = proxy._pipeline.exact
    limits = exact_path.limits
    return exact_path.arguments.fast_path(limits.max_argument_bytes, limits.max_depth, exact)


def recording(proxy: ToolProxy) -> tuple[Callable[[object], object], list[object]]:
    """The proxy's fast path, and the list of what it hands over (it is appended there)."""
    seen: list[object] = []
    return fast_of(proxy, lambda _arguments, handover: seen.append(handover)), seen


def exact(proxy: ToolProxy, arguments: str, *, handover: bool = False) -> object:
    """The exact path's keyword arguments, or its `ToolError`."""
    checked = proxy._pipeline.exact(arguments, handover)
    return checked.error if type(checked) is Failed else checked


def both(arguments: str) -> tuple[object, object]:
    proxy = take()
    return fast_of(proxy)(arguments), exact(proxy, arguments)


@pytest.fixture
def no_orjson(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_fastpath, "orjson_loads", None)


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
            # Duplicates whose colons the argument's own strings do not account for.
            '{"note": "a: b", "note": "c: d"}',
            '{"note": "a: b", "items": [{"name": "x: y", "name": "z"}]}',
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

    @pytest.mark.parametrize("kind", [str, bytes])
    def test_an_escaped_colon_that_balances_a_dropped_member_is_seen(self, kind: type) -> None:
        # The dropped member's colon and the escaped one cancel out: the counts agree, and only
        # the escape, looked for past a backslash, shows the text is not what orjson read.
        text = '{"note": "x", "note": "a\\u003a"}'
        arguments = text if kind is str else text.encode()
        fast, _ = both(arguments)  # type: ignore[arg-type]
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
        assert exact(proxy, arguments, handover=True) == exact(proxy, arguments)

    def test_results_agree_with_the_exact_path(self) -> None:
        proxy = take()
        assert proxy.dynamic_call('{"count": 1, "count": 2}') == (
            "Error: Invalid JSON arguments for tool 'fast_take': the key 'count' appears more "
            "than once in an object; send each key once"
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


class Word(str):
    pass


class FlatToolset(Toolset):
    """Only strings, integers, booleans and nulls: a dict of them is copied, not read back."""

    @tool
    def put(
        self, *, text: str, count: int = 0, flag: bool = False, note: str | None = None
    ) -> None:
        pass


class TestFlatDicts:
    @pytest.mark.parametrize(
        "arguments",
        [
            {},
            {"text": "a: b", "count": 2**64 - 1, "flag": True, "note": None},
            {"text": "x"},
        ],
    )
    def test_a_plain_flat_dict_is_taken_as_a_copy(self, arguments: dict[str, Any]) -> None:
        proxy = FlatToolset.to_tools()[0]
        fast = fast_of(proxy)(arguments)
        if arguments:
            assert type(fast) is dict
            assert fast == exact(proxy, arguments)  # type: ignore[arg-type]
            assert fast is not arguments
        else:
            assert fast == REFUSED  # `text` is required: handed over with the copy as reading

    @pytest.mark.parametrize(
        "arguments",
        [
            {"text": Word("a")},  # orjson refuses a subclass of str
            {"text": "a", "count": 2**64},  # and an integer past 64 bits
            {"text": "\ud800"},  # and a lone surrogate
            {"text": "a", 1: 2},  # and a key that is no str
            {Word("text"): "a"},  # or a subclass of str
            {"text": "a", "count": float("nan")},  # a float is read back: NaN became null
            {"text": "a", "count": (1,)},  # so is a tuple: it became a list
        ],
    )
    def test_anything_else_is_left_to_the_exact_path(self, arguments: dict[Any, Any]) -> None:
        proxy = FlatToolset.to_tools()[0]
        assert fast_of(proxy)(arguments) == MISS

    def test_values_that_do_not_structure_agree_with_the_exact_path(self) -> None:
        proxy = FlatToolset.to_tools()[0]
        arguments = {"text": "a", "count": True}
        assert fast_of(proxy)(arguments) == REFUSED
        assert exact(proxy, arguments, handover=True) == exact(proxy, arguments)  # type: ignore[arg-type]


def _long(note: str, *, dense: str = "", at_end: bool = False) -> str:
    """Arguments whose text is past the length from which colons are found with ``find``."""
    filler = (dense or "lorem ipsum ") * (6000 // len(dense or "lorem ipsum "))
    body = filler + note if at_end else note + filler
    return json.dumps({"note": body})[:-1] + ', "count": 1}'


class TestLongTexts:
    """Long texts: the colon and escape checks use ``find``; the same verdicts."""

    @pytest.mark.parametrize("dense", ["", "3", ":", "3:", "a\\u0030 "])
    @pytest.mark.parametrize("at_end", [False, True])
    def test_a_duplicate_or_an_escaped_colon_is_seen(self, dense: str, at_end: bool) -> None:
        plain = _long("a: b", dense=dense, at_end=at_end)
        assert len(plain) > _handover.LONG
        fast, exact_result = both(plain)
        assert type(fast) is dict
        assert fast == exact_result
        # A duplicate key in a long text.
        assert both(plain[:-1] + ', "count": 2}')[0] == MISS
        # An escaped colon (lower or upper case), anywhere, beside a dropped member.
        for escape in ("\\u003a", "\\u003A"):
            escaped = _long("a: b @", dense=dense, at_end=at_end).replace("@", escape)
            assert both(escaped)[0] == MISS
            assert both(escaped[:-1] + ', "count": 2}')[0] == MISS

    @pytest.mark.parametrize("length", [0, 5, 4095, 4096, 4097, 20_000, 100_000])
    @pytest.mark.parametrize("every", [1, 3, 31, 1000])
    def test_counts_and_escapes_match_the_plain_scans(self, length: int, every: int) -> None:
        text = "".join(":" if i % every == 0 else "x" for i in range(length))
        assert _handover.count_char(text, ":") == text.count(":")
        assert _handover.count_char(text.encode(), b":") == text.count(":")
        threes = "".join("3" if i % every == 0 else "x" for i in range(length))
        for position in (4, length // 2, length - 6):
            if position < 4 or position + 6 > length:
                continue
            escaped = threes[:position] + "\\u003a" + threes[position + 6 :]
            assert _handover.escaped_colon(escaped, _handover.MARKS, _handover.ESCAPES)
            assert _handover.escaped_colon("\\n" + escaped, _handover.MARKS, _handover.ESCAPES)
            upper = "\\n" + escaped.replace("\\u003a", "\\u003A")
            assert _handover.escaped_colon(upper, _handover.MARKS, _handover.ESCAPES)
            assert _handover.escaped_colon(
                escaped.encode(), _handover.BYTE_MARKS, _handover.BYTE_ESCAPES
            )
        assert not _handover.escaped_colon(threes, _handover.MARKS, _handover.ESCAPES)
        assert not _handover.escaped_colon("\\" + threes, _handover.MARKS, _handover.ESCAPES)


class NumbersToolset(Toolset):
    toolset_name = "numbers"

    @tool
    def first(self, *, x: Annotated[int, Ge(0)] | float) -> object:
        return x

    @tool
    def lists(self, *, x: list[int] | list[float]) -> object:
        return x

    @tool
    def maps(self, *, x: dict[str, int] | dict[str, float]) -> object:
        return x


class TestNumbersBeyond64Bits:
    """orjson reads an integer literal beyond 64 bits as a float: the exact path reads it."""

    @pytest.mark.parametrize(
        ("method", "literal", "expected"),
        [
            ("first", "18446744073709551617", 18446744073709551617),
            ("first", "1e21", 10**21),  # an integral number: the int variant comes first
            ("first", "-18446744073709551617", -18446744073709551617.0),  # not >= 0
            ("first", "2.5", 2.5),
            ("lists", "[1, 18446744073709551617]", [1, 18446744073709551617]),
            ("lists", "[1, 1e21]", [1, 10**21]),
            ("lists", "[1, 2.5]", [1.0, 2.5]),
            ("maps", '{"k": 18446744073709551617}', {"k": 18446744073709551617}),
            ("maps", '{"k": 1e21, "l": 2.5}', {"k": 1e21, "l": 2.5}),
        ],
    )
    def test_the_first_matching_variant_wins_on_every_input_form(
        self, method: str, literal: str, expected: object
    ) -> None:
        proxy = {t.method_name: t for t in NumbersToolset.to_tools()}[method]
        text = f'{{"x": {literal}}}'
        forms = [text, text.encode(), {"x": json.loads(literal)}]
        for form in forms:
            value = proxy.dynamic_call(form)
            assert value == expected

    @pytest.mark.parametrize(
        ("literal", "expected"),
        [
            ("9007199254740993.0", 9007199254740992),  # 2**53 + 1: no float holds it
            ("1e30", 1000000000000000019884624838656),
            ("-1.8446744073709551617e19", -18446744073709551616.0),  # not >= 0: the float
        ],
    )
    def test_a_fraction_or_exponent_is_read_through_a_float_on_every_input_form(
        self, literal: str, expected: float
    ) -> None:
        # What an SDK hands over as a dict already holds the float: reading the text's literal
        # exactly would give one call two answers. Integers past 2**53 go as digits (README).
        proxy = {t.method_name: t for t in NumbersToolset.to_tools()}["first"]
        text = f'{{"x": {literal}}}'
        for form in [text, text.encode(), {"x": json.loads(literal)}]:
            value = proxy.dynamic_call(form)
            assert type(value) is type(expected)
            assert value == expected
            assert repr(value) == repr(expected), form

    def test_a_call_made_while_structuring_leaves_the_outer_mode_as_it_was(self) -> None:
        inner_values.clear()
        outer = OuterToolset.to_tools()[0]
        value = outer.dynamic_call('{"checked": {"label": "a"}, "n": 18446744073709551617}')
        assert value == 18446744073709551617
        assert inner_values[:3] == [1, 18446744073709551617, 18446744073709551617]
        assert exact_numbers() is True


class EchoToolset(Toolset):
    @tool
    def echo(self, *, n: int) -> int:
        return n


inner_values: list[object] = []


def _call_inside(instance: object, attribute: object, value: object) -> None:
    # A model-facing call from inside structuring: its fast and exact paths, then back.
    inner = EchoToolset.to_tools()[0]
    inner_values.append(inner.dynamic_call('{"n": 1}'))
    inner_values.append(inner.dynamic_call({"n": 18446744073709551617}))
    inner_values.append(inner.dynamic_call('{"n": 18446744073709551617}'))


@attrs.frozen
class Checked:
    label: str = attrs.field(validator=_call_inside)


class OuterToolset(Toolset):
    # `checked` comes first: `n` is structured after the inner calls.
    @tool
    def take(self, *, checked: Checked, n: int) -> int:
        return n


class TestATextCutShort:
    """A text that does not end in "}" is no JSON object: a long one skips orjson's error."""

    @staticmethod
    def handover_of(arguments: str) -> object:
        fast, seen = recording(take())
        fast(arguments)
        (handover,) = seen
        return handover

    LONG = json.dumps({"note": "Note: " + "word " * 80, "count": 3})

    @pytest.mark.parametrize("text", ['{"a": 1', '{\n  "a": 1', '{"a":\n 1,\n "b": 2  ', "\n"])
    def test_its_error_is_the_parser_s_own(self, text: str) -> None:
        # Built without counting the line breaks of a text that has none.
        found = _handover.CutShort("Expecting ',' delimiter", text, len(text))
        parser = json.JSONDecodeError("Expecting ',' delimiter", text, len(text))
        assert str(found) == str(parser)
        assert (found.msg, found.doc, found.pos) == (parser.msg, parser.doc, parser.pos)
        assert (found.lineno, found.colno) == (parser.lineno, parser.colno)

    @pytest.mark.parametrize(
        ("cut", "found"),
        [
            (LONG[:-1], True),  # the closing brace missing: the parser's error is found
            (LONG[:-1] + " \n", True),  # and then whitespace
            (json.dumps(json.loads(LONG), indent=2)[:-2], True),  # lines: counted when written
            (LONG[:300], False),  # inside the string
            (LONG[: LONG.index('"count"') + 3], False),  # inside a key
            (LONG[:-3] + "  ", False),  # inside the number, then spaces
            (json.dumps(["x" * 300]), False),  # a whole array: valid JSON, no object
        ],
    )
    def test_a_long_text_goes_to_the_exact_path_unread(self, cut: str, found: bool) -> None:
        assert len(cut) > _fastpath._CUT_SHORT
        handover = self.handover_of(cut)  # not orjson's error on the text: it was not read
        assert type(handover) is _handover.CutShort if found else handover is False
        proxy = take()
        checked = exact(proxy, cut)  # the exact path reading the text itself
        assert type(checked) is not dict
        assert proxy.dynamic_call(cut) == f"Error: {checked.message}"  # type: ignore[attr-defined]

    @pytest.mark.parametrize(
        ("members", "found"),
        [
            ('"a": [1, 2.5], "b": {"c": null}, "d": 3', True),  # read as the parser reads it
            ('"a": {"b": 1, "b": 2}, "c": 3', False),  # a repeated key inside: refused there
            # A repeated key of the outer object (refused only once it closes) may hide an object
            # whose own repeated key the parser refuses: orjson kept the plain value after it.
            ('"": {"a": "", "a": null}, "": "", "z": 0', False),
            ('"a": 1, "a": 2', False),  # so a repeated key leaves the text to the parser
            # An escaped colon: orjson's reading is left to the parser (it could hide a dropped
            # member); jiter refuses any repeated key, so its reading is the parser's.
            ('"a": {"b": "x\\u003a"}, "c": 3', "jiter"),
            ('"a": ' + "[" * 40 + "1" + "]" * 40 + ', "b": 3', False),  # deeper than the limit
            # A number orjson reads as a float; jiter and the parser read it exactly.
            ('"a": 1' + "0" * 400, "jiter"),
            ('"a": 1.5e999', False),  # a number no float holds
            ('"a": -1' + "0" * 400 + ".5", False),  # nor this one
            ('"a": "\\ud800"', False),  # an escaped lone surrogate
            ('"a": 1,', False),  # a comma, then the end
            ("", False),  # no member: "{" expects a key
        ],
    )
    @pytest.mark.parametrize("reader", ["jiter", "orjson"])
    def test_the_parser_s_error_is_found_only_when_it_is_the_one(
        self, members: str, found: bool | str, reader: str, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        if reader == "orjson":
            monkeypatch.setattr(_handover, "_found_unique", [None])  # as without jiter
        cut = "{" + " " * 300 + members
        handover = self.handover_of(cut)
        proxy = take()
        checked = exact(proxy, cut)
        assert type(checked) is not dict
        assert proxy.dynamic_call(cut) == f"Error: {checked.message}"  # type: ignore[attr-defined]
        assert (type(handover) is _handover.CutShort) == (found is True or found == reader)

    @given(
        st.lists(
            st.tuples(st.text(max_size=6), json_values.map(json.dumps) | repeated_key_objects),
            max_size=5,
        ),
        st.sampled_from(["", " ", "\n", " \t\r\n "]),
        st.booleans(),
    )
    def test_any_object_cut_before_its_brace_gets_the_exact_path_s_words(
        self, members: list[tuple[str, str]], space: str, ascii_only: bool
    ) -> None:
        # Keys may repeat; the last value is plain (a text ending in "}" is read by orjson).
        body = f",{space}".join(
            f"{json.dumps(k, ensure_ascii=ascii_only)}{space}:{space}{v}"
            for k, v in [*members, ("z", "0")]
        )
        cut = "{" + " " * 300 + body + space
        proxy = take()
        checked = exact(proxy, cut)
        assert type(checked) is not dict
        assert proxy.dynamic_call(cut) == f"Error: {checked.message}"  # type: ignore[attr-defined]

    def test_the_parser_words_where_it_stopped(self) -> None:
        proxy = take()
        assert proxy.dynamic_call(self.LONG[:-1]) == (
            "Error: Invalid JSON arguments for tool 'fast_take': Expecting ',' delimiter: "
            f"line 1 column {len(self.LONG)} (char {len(self.LONG) - 1}); the text ends before "
            "the JSON object does: send it whole"
        )
        assert proxy.dynamic_call(self.LONG[:300]) == (
            "Error: Invalid JSON arguments for tool 'fast_take': Unterminated string starting "
            'at: line 1 column 10 (char 9); a string has no closing quote (") before the text '
            "ends: send the text whole"
        )

    @pytest.mark.parametrize("tail", ["\n", " \r\n\t "])
    def test_a_long_object_then_whitespace_is_still_taken(self, tail: str) -> None:
        text = self.LONG + tail
        fast, exact_result = both(text)
        assert type(fast) is dict
        assert fast == exact_result == json.loads(self.LONG)

    def test_with_a_small_size_limit_both_checks_apply(self) -> None:
        class SmallToolset(Toolset):
            limits = Limits(max_argument_bytes=600)  # a quarter of it is under 256 characters

            @tool
            def echo(self, *, note: str) -> str:
                return note

        (echo,) = SmallToolset.to_tools()
        fast, seen = recording(echo)
        fast(json.dumps({"note": "x" * 300})[:-1])  # over 256 characters: not read as it is
        fast(json.dumps({"note": "x" * 200})[:-1])  # over a quarter of the limit: read
        assert type(seen[0]) is _handover.CutShort
        assert isinstance(seen[1], ValueError)
        assert type(seen[1]) is not _handover.CutShort  # orjson's own error
        wide = json.dumps({"note": "€" * 200}, ensure_ascii=False)  # 212 characters, 612 bytes
        fast(wide)
        assert seen[2] is False
        assert echo.dynamic_call(wide).startswith(
            "Error: Arguments for tool 'small_echo' are 612 bytes, over the limit of 600 bytes"
        )
        assert echo.dynamic_call(json.dumps({"note": "x" * 300})) == "x" * 300

    def test_a_short_text_cut_short_hands_over_orjsons_error(self) -> None:
        cut = '{"count": 3'
        handover = self.handover_of(cut)
        assert isinstance(handover, ValueError)
        assert handover.pos == len(cut)  # type: ignore[attr-defined]


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
        # A registered type's schema may name a list of types.
        ({"type": "object", "properties": {"u": {"type": ["string", "integer"]}}}, True),
        ({"type": "object", "properties": {"u": {"type": ["string", "null"]}}}, False),
    ],
)
def test_number_guard_is_needed_only_where_numbers_can_appear(
    schema: dict[str, Any], expected: bool
) -> None:
    assert _fastpath._has_numbers(schema) is expected


# ----------------------------------------------------------------------- what is handed over


#: A string long enough that a text holding it is looked at value by value.
_PAD = "." * 300


@pytest.mark.parametrize(
    ("text", "same"),
    [
        ('{"note": 5, "count": "x"}', True),
        ('{"note": "a: b", "count": "x"}', True),  # a colon in a string: no member dropped
        ('{"note": 1, "note": 2}', False),  # orjson dropped a member
        ('{"note": "a\\u003a", "note": 2}', False),  # an escaped colon hides the count
        ('{"count": 18446744073709551617}', False),  # read by orjson as a float
        ('{"count": -9223372036854775809}', False),
        ('{"count": [18446744073709551617]}', False),  # as many colons as members, a long literal
        ('{"note": {"a": 1, "a": 2}}', False),  # a member dropped below the top level
        ('{"note": {}, "count": [1, 2]}', True),  # as many colons as members: none dropped
        # 19 digits but no float in orjson's writing (no "e+"): no integer became a float.
        ('{"note": "1234567890123456789"}', True),
        ('{"note": 1e300}', True),  # a float written with "e+": no literal of 19 digits
        # A "+" alone (code, prose) is not an exponent: 19 digits that orjson read as an int.
        ('{"note": "a + b", "count": 1234567890123456789}', True),
        ('{"note": ["see+"], "count": 1234567890123456789}', False),  # "e+": looked into
        ('{"note": "a + b", "count": 123456789012345678901}', False),  # a float: e+20
        ('{"note": "a: b + c", "count": -9223372036854775809}', False),  # e+18
        ('{"tree": [[[[[[[[1]]]]]]]]}', False),  # deeper than the limit: the exact path says so
        # Shorter than a long literal: the small refusal's shortcut, or not.
        ('{"n": 5}', True),
        ('{"n":1,"n":2}', False),
        ('{"\\u003a":1}', False),
        ('{"a":[[[[[[]]]]]]}', False),  # 18 characters, 7 deep
        # Strings and integers only (a long text): the strings' colons account for the text's.
        (f'{{"note": "a: b", "count": "x: y: z", "n": 12345678901234567890, "p": "{_PAD}"}}', True),
        (f'{{"note": "a:b", "note": "c", "p": "{_PAD}"}}', False),  # dropped: a colon left over
        # Flat as read, but a repeated key dropped a value nested deeper than the limit.
        (f'{{"note": {"[" * 8}1{"]" * 8}, "note": "c", "p": "{_PAD}"}}', False),
        (f'{{"a:b": "x", "count": 1, "p": "{_PAD}"}}', True),  # a key's colon: orjson's writing
        (f'{{"note": "{"x: " * 200}", "tree": [[[[[[[[1]]]]]]]]}}', False),  # long and too deep
        (f'{{"note": "{"x: " * 200}", "tree": [[[[[1]]]]]}}', True),
    ],
)
@pytest.mark.parametrize("kind", [str, bytes])
def test_strict_reading_hands_over_what_strict_parsing_gives(
    text: str, same: bool, kind: type
) -> None:
    raw: str | bytes = text if kind is str else text.encode()
    read = _handover.strict_reading(kind, raw, _loads(text), 6)
    if same:
        assert read == json.loads(text)
    else:
        assert read is True


def test_strict_reading_measures_the_depth_of_a_text_just_long_enough_to_be_too_deep() -> None:
    # Nesting 4 deep takes 8 brackets: with a limit of 3, the shortest such text is measured.
    for text in ('{"a":[[[]]]}', '{"":[[{}]]}'):
        assert _handover.strict_reading(str, text, _loads(text), 3) is True
        assert _handover.strict_reading(str, text, _loads(text), 4) == json.loads(text)


def test_a_small_text_s_shortcut_reads_it_as_the_checks_it_skips() -> None:
    # A text too short for a long literal, with as many colons as members, is taken at once
    # when it is too short to nest too deep; with a lower limit the checks measure it.
    for text in ('{"n": 5}', '{"n":[]}', '{"":{}}'):
        for limit in (2, 3, 6):  # 2 * limit below and above the text's length
            read = _handover.strict_reading(str, text, _loads(text), limit)
            assert read == json.loads(text)


def test_strict_reading_of_a_dict_is_its_copy_unless_too_deep() -> None:
    value = {"note": 5}
    assert _handover.strict_reading(dict, json.dumps(value).encode(), value, 6) is value
    deep: dict[str, object] = {"tree": [[[[[[[1]]]]]]]}
    assert _handover.strict_reading(dict, json.dumps(deep).encode(), deep, 6) is True


def _loads(text: str) -> dict[str, object]:
    import orjson

    loaded: dict[str, object] = orjson.loads(text)
    return loaded


def test_refused_text_is_explained_from_the_fast_reading() -> None:
    # The refusal is the exact path's, and strict parsing is skipped (it would name the key).
    text = '{"count": "x", "note": 5}'
    handed: list[object] = []
    path = take()._pipeline.exact
    fast = path.arguments.fast_path(
        path.limits.max_argument_bytes, 6, lambda _, h: handed.append(h)
    )
    fast(text)
    assert handed == [json.loads(text)]
    alone = path(text)
    handed_over = path(text, json.loads(text))
    assert type(alone) is Failed
    assert type(handed_over) is Failed
    assert handed_over.error == alone.error


@pytest.mark.parametrize(
    "text",
    [
        '{"count": "x", "note": "n"}',  # refused by a check written in the fast path itself
        '{"count": 1, "note": "n", "extra": 2}',  # refused by the member count
        '{"count": 1, "note": 5}',  # refused inside the structuring
    ],
)
def test_a_refusal_is_handed_over_once_and_returned_as_it_is(text: str) -> None:
    handed: list[object] = []
    verdict = object()

    def refuse(_: object, handover: object) -> object:
        handed.append(handover)
        return verdict

    path = take()._pipeline.exact
    fast = path.arguments.fast_path(path.limits.max_argument_bytes, 6, refuse)
    assert fast(text) is verdict
    assert handed == [json.loads(text)]


def _depth(value: object) -> int:
    if isinstance(value, dict):
        return 1 + max(map(_depth, value.values()), default=0)  # pyright: ignore[reportUnknownArgumentType]
    if isinstance(value, list):
        return 1 + max(map(_depth, value), default=0)  # pyright: ignore[reportUnknownArgumentType]
    return 0


_json_values = st.recursive(
    st.none() | st.integers() | st.text(max_size=3),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=2), inner),
    max_leaves=12,
)


@given(
    st.dictionaries(st.text(max_size=2), _json_values) | st.lists(_json_values), st.integers(0, 6)
)
def test_too_deep_measures_nesting_level_by_level(value: object, limit: int) -> None:
    assert _handover.too_deep(value, limit) == (_depth(value) > limit)


class Big:
    """A registered type holding whatever integer its JSON value is."""

    def __init__(self, value: object) -> None:
        self.value = value


register_type(Big, schema={"type": "integer"}, structure=Big, unstructure=lambda b: b.value)


class BigToolset(Toolset):
    @tool
    def keep(self, *, big: Big) -> object:
        return big.value


def test_a_registered_type_reads_a_long_integer_as_written_on_every_form() -> None:
    # orjson reads the literal as a float; the fast path's number mode hands the call over, and
    # the registered structure gets the integer from the exact path.
    proxy = BigToolset.to_tools()[0]
    for form in ['{"big": 18446744073709551617}', b'{"big": 18446744073709551617}']:
        value = proxy.dynamic_call(form)
        assert type(value) is int
        assert value == 18446744073709551617
    assert proxy.dynamic_call({"big": 18446744073709551617}) == 18446744073709551617
    assert exact_numbers() is True  # outside every path: exact


class ColonToolset(Toolset):
    toolset_name = "colons"

    @tool
    def stamp(
        self,
        *,
        stamps: list[datetime] | None = None,
        words: list[list[str]] = [],  # noqa: B006 - a JSON default, copied per call
        note: str = "",
    ) -> dict[str, Any]:
        return {"stamps": stamps, "words": words, "note": note}


class TestCountsTheColonsOfStringsInArrays:
    """The colons of strings in arrays (date-times, nested lists of strings) are counted from
    the parsed strings, so the value is not written back to count them; a dropped duplicate
    still leaves more colons in the text than the parse holds."""

    @pytest.fixture
    def no_writing(self, monkeypatch: pytest.MonkeyPatch) -> None:
        def refuse(*_: object) -> bytes:
            raise AssertionError("written back")

        monkeypatch.setitem(_fastpath._SHARED, "dumps", refuse)

    @pytest.mark.parametrize(
        "arguments",
        [
            '{"stamps": ["2024-01-01T12:30:00Z", "2024-01-01T12:30:00.123+02:00"]}',
            '{"stamps": ["2024-01-01T12:30:00+02:00", "2024-01-02T12:30:00+05:30"]}',
            '{"stamps": ["2024-01-01T12:30:00Z", "2024-01-02T12:30:00Z"], "note": "a: b"}',
            '{"words": [["a:b", "c"], [], ["::", "d: e"]], "note": "f: g"}',
            '{"stamps": null, "words": [["a:b"]]}',
        ],
    )
    @pytest.mark.usefixtures("no_writing")
    def test_taken_without_writing_the_value_back(self, arguments: str) -> None:
        proxy = ColonToolset.to_tools()[0]
        fast = fast_of(proxy)(arguments)
        assert type(fast) is dict
        assert fast == exact(proxy, arguments)

    @pytest.mark.parametrize(
        "arguments",
        [
            '{"stamps": ["2024-01-01T12:30:00Z"], "note": "x", "note": "y"}',
            '{"stamps": ["2024-01-01T12:30:00Z", "2024-01-02T12:30:00Z"], "note": "x", "note": "y"}',
            '{"stamps": ["2024-01-01T12:30:00+02:00"], "stamps": ["2024-01-01T12:30:00Z"]}',
            '{"stamps": ["12:30"], "stamps": ["2024-01-01T12:30:00Z"]}',
            '{"words": [["a:b"]], "words": [["c:d"]]}',
            '{"words": [["a:b"]], "note": "c: d", "note": "e"}',
            '{"words": [["a\\u003a b:"]], "note": "x", "note": "y"}',
        ],
    )
    def test_a_duplicate_beside_them_goes_to_the_exact_path(self, arguments: str) -> None:
        proxy = ColonToolset.to_tools()[0]
        assert fast_of(proxy)(arguments) == MISS
        assert "appears more than once" in proxy.dynamic_call(arguments)
