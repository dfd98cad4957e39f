"""Turning a caller's arguments into a JSON object: limits first, then strict parsing.

Covers requirements JSON-1 to JSON-7 and the hostile JSON documents of security.md section 5/8.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import math
import subprocess
import sys
import textwrap
import time
import tracemalloc
from collections.abc import Iterator, Mapping
from datetime import datetime
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.strategies.annotations import json_values, text
from typed_toolsets import Limits, Toolset, tool
from typed_toolsets.call import jsonbounds, jsonin
from typed_toolsets.call.jsonin import Link, path_of


class InputToolset(Toolset):
    toolset_name = "input"

    @tool
    def take(
        self,
        *,
        start: int = 0,
        pattern: str = "",
        items: list[int | str | list[int] | dict[str, int]] | None = None,
    ) -> int:
        return start


class ShallowToolset(Toolset):
    toolset_name = "shallow"
    limits = Limits(max_argument_bytes=2_000, max_depth=4)

    @tool
    def take(
        self, *, data: list[list[int]] | None = None, number: int = 0, big: float = 0.0
    ) -> str:
        return "ok"


_LIMITED: dict[tuple[int, int], Any] = {}


def _limited(max_bytes: int, max_depth: int) -> Any:
    """A tool taking any JSON values, under these limits (built once per pair)."""
    found = _LIMITED.get((max_bytes, max_depth))
    if found is None:

        class Limited(Toolset):
            limits = Limits(max_argument_bytes=max_bytes, max_depth=max_depth)

            @tool
            def take(self, *, x: list[int] | None = None) -> str:
                return "ok"

        found = _LIMITED[max_bytes, max_depth] = Limited.to_tools()[0]
    return found


def take() -> Any:
    return InputToolset.to_tools()[0]


def shallow() -> Any:
    return ShallowToolset.to_tools()[0]


class TestNoArguments:
    @pytest.mark.parametrize("empty", [None, "", b"", {}])
    def test_empty_means_no_arguments(self, empty: object) -> None:
        assert take().dynamic_call(empty) == 0

    @pytest.mark.parametrize("empty", [None, "", b"", bytearray(), "{}", b"{}", {}])
    def test_no_arguments_are_measured_as_the_text_of_an_empty_object(self, empty: object) -> None:
        # Under a limit of 1 byte, None and empty text (which mean {}) were accepted while {},
        # as text or as a mapping, was refused as 2 bytes: each form of one value is now its
        # text's size, 2 bytes, refused alike and accepted alike.
        with pytest.raises(jsonin.LimitExceeded, match=r"^2 bytes, over the limit of 1 byte "):
            jsonin.load_arguments(empty, Limits(max_argument_bytes=1))
        assert jsonin.load_arguments(empty, Limits(max_argument_bytes=2)) == {}

        class Tiny(Toolset):
            limits = Limits(max_argument_bytes=1)

            @tool
            def ping(self) -> str:
                return "pong"

        ping = Tiny.to_tools()[0]
        expected = (
            "Error: Arguments for tool 'tiny_ping' are 2 bytes, over the limit of 1 byte "
            "(Limits.max_argument_bytes); send less data"
        )
        assert ping.dynamic_call(empty) == expected
        assert asyncio.run(ping.adynamic_call(empty)) == expected

    @pytest.mark.parametrize("blank", [" ", "\n\t", b"  "])
    def test_whitespace_only_is_invalid_json(self, blank: object) -> None:
        result = take().invoke(blank)
        assert result.error is not None
        assert result.error.kind == "arguments"
        assert result.error.message.startswith("Invalid JSON arguments for tool 'input_take': ")


class TestNotAnObject:
    @pytest.mark.parametrize(
        ("text", "kind"),
        [
            ("[1]", "array"),
            ('"x"', "string"),
            ("3", "number"),
            ("true", "boolean"),
            ("null", "null"),
        ],
    )
    def test_json_roots_other_than_objects(self, text: str, kind: str) -> None:
        assert take().dynamic_call(text) == (
            f"Error: Arguments for tool 'input_take' must be a JSON object, not {kind}"
        )

    def test_arguments_encoded_twice_are_said_to_be(self) -> None:
        # A provider's arguments text sent as a JSON string: "not string" alone left the model
        # to guess (a parameter holding its object's text is told so already).
        assert take().dynamic_call('"{\\"start\\": 5}"') == (
            "Error: Arguments for tool 'input_take' must be a JSON object, not string; the object "
            "itself is wanted, not a string holding its JSON"
        )

    @pytest.mark.parametrize(
        ("value", "kind"),
        [(3, "number"), (2.5, "number"), (True, "boolean"), ([1], "array"), ((1, 2), "array")],
    )
    def test_python_values_with_a_json_form_are_named_by_it(self, value: object, kind: str) -> None:
        assert take().dynamic_call(value) == (
            f"Error: Arguments for tool 'input_take' must be a JSON object, not {kind}"
        )

    @pytest.mark.parametrize("value", [object(), {1, 2}])
    def test_python_values_without_a_json_form_are_named_by_their_type(self, value: object) -> None:
        assert take().dynamic_call(value) == (
            # "not object" read as if a JSON object were refused for not being one.
            "Error: Arguments for tool 'input_take' must be a JSON object (a mapping or JSON "
            f"text), not a value of the Python type {type(value).__name__!r}"
        )


class TestStrictParsing:
    @pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity", "1e400", "-1e400"])
    def test_json_3_non_finite_numbers(self, literal: str) -> None:
        result = take().invoke(f'{{"start": {literal}}}')
        assert result.error is not None
        assert result.error.kind == "arguments"
        assert result.error.message.startswith("Invalid JSON arguments for tool 'input_take': ")

    @pytest.mark.parametrize("sent", ['\ufeff{"start": 1}', b'\xef\xbb\xbf{"start": 1}'])
    def test_a_byte_order_mark_is_refused_with_what_to_do(self, sent: str | bytes) -> None:
        assert take().dynamic_call(sent) == (
            "Error: Invalid JSON arguments for tool 'input_take': the text starts with a byte "
            "order mark (U+FEFF); send the JSON without it"
        )

    def test_json_4_integer_digit_limit(self) -> None:
        assert take().dynamic_call('{"start": ' + "7" * 4300 + "}") == int("7" * 4300)
        for digits in (4301, 100_000):
            message = take().dynamic_call('{"start": ' + "7" * digits + "}")
            assert message.startswith("Error: Invalid JSON arguments for tool 'input_take': ")
            assert f"{digits:,} digits" in message
            assert "4,300" in message

    def test_json_4_does_not_depend_on_the_interpreter_limit(self) -> None:
        script = textwrap.dedent(
            """
            import sys
            sys.set_int_max_str_digits(640)
            from typed_toolsets import Toolset, tool
            class T(Toolset):
                @tool
                def take(self, *, n: int) -> int:
                    return n % 1000
            print(T.to_tools()[0].dynamic_call('{"n": ' + "1" * 4000 + '}'))
            sys.set_int_max_str_digits(0)
            print(T.to_tools()[0].dynamic_call('{"n": ' + "1" * 5000 + '}')[:40])
            """
        )
        out = subprocess.run(
            [sys.executable, "-c", script], capture_output=True, text=True, check=True
        ).stdout.splitlines()
        assert out == ["111", "Error: Invalid JSON arguments for tool '"]

    def test_json_5_duplicate_keys(self) -> None:
        message = take().dynamic_call('{"pattern": "a", "pattern": "/etc/passwd"}')
        assert message == (
            "Error: Invalid JSON arguments for tool 'input_take': the key 'pattern' appears more "
            "than once in an object; send each key once"
        )
        nested = take().dynamic_call('{"items": [{"a": 1, "a": 1}]}')
        assert "the key 'a' appears more than once" in nested

    def test_json_5_a_nested_duplicate_key_is_named_with_its_object_s_path(self) -> None:
        # The parser gives no position: the message named the key but not where it was.
        prefix = "Error: Invalid JSON arguments for tool 'input_take': "
        for sent, key, where in [
            ('{"items": [{"a": 1}, {"b": 1, "c": {}, "b": 2}]}', "the key 'b'", "items[1]"),
            ('{"items": [{"a": {"x y": {"k": 1, "k": 1}}}]}', "the key 'k'", "items[0].a['x y']"),
        ]:
            assert take().dynamic_call(sent) == (
                f"{prefix}{key} appears more than once in an object at {where}; send each key once"
            )

    def test_json_5_a_long_duplicate_key_and_its_object_s_path_are_shown_cut(self) -> None:
        # Both are the model's: echoed whole, a key of 100,000 characters made a message of them.
        prefix = "Error: Invalid JSON arguments for tool 'input_take': "
        key = "k" * 100_000
        cut = f"'{'k' * 55}...'"
        assert take().dynamic_call(f'{{"{key}": 1, "{key}": 2}}') == (
            f"{prefix}the key {cut} appears more than once in an object; send each key once"
        )
        where = f"items[0].{key}"
        assert take().dynamic_call(f'{{"items": [{{"{key}": {{"a": 1, "a": 2}}}}]}}') == (
            f"{prefix}the key 'a' appears more than once in an object at "
            f"{where[:150]}...{where[-47:]}; send each key once"
        )

    @pytest.mark.parametrize("escape", ["\\ud800", "\\udcff", "\\ud83d", "x\\ude00"])
    def test_json_6_lone_surrogate_escapes(self, escape: str) -> None:
        message = take().dynamic_call('{"pattern": "' + escape + '"}')
        assert message.startswith("Error: Invalid JSON arguments for tool 'input_take': ")
        assert "lone surrogate" in message

    def test_json_6_a_lone_surrogate_is_shown_in_json_escapes_at_its_path(self) -> None:
        # It was "the string 'a\x85b\ud800' contains a lone surrogate (U+D800)": Python's
        # escapes, no path in the text form, and nothing said about what to send.
        reason = (
            "the string 'a\\u0085b\\ud800'{at} contains a lone surrogate (U+D800), half of a "
            "character, which UTF-8 cannot hold; send whole characters or leave it out"
        )
        assert take().dynamic_call('{"items": ["x", "a\\u0085b\\ud800"]}') == (
            "Error: Invalid JSON arguments for tool 'input_take': "
            + reason.format(at=" at items[1]")
        )
        assert take().dynamic_call({"items": ["x", "a\x85b\ud800"]}) == (
            "Error: Invalid arguments for tool 'input_take': items[1]: " + reason.format(at="")
        )

    def test_json_6_a_raw_lone_surrogate_in_text_is_shown_at_its_path(self) -> None:
        half = (
            ", half of a character, which UTF-8 cannot hold; send whole characters or leave it out"
        )
        # Half a character as a character (a Python caller's text, or an SDK's that read JSON
        # escaping one): it was "the text contains a lone surrogate at character 31".
        prefix = "Error: Invalid JSON arguments for tool 'input_take': "
        assert take().dynamic_call('{"items": ["x", "a\x85b\ud800"]}') == (
            f"{prefix}the string 'a\\u0085b\\ud800' at items[1] contains a lone surrogate "
            "(U+D800), half of a character, which UTF-8 cannot hold; send whole characters or "
            "leave it out"
        )
        # Outside any string, in a text that is not JSON besides, or in a member a repeated key
        # hides (json keeps the last): told by its position (it named "the string ''").
        assert take().dynamic_call('{"items": ["\ud800"], "items": []}') == (
            f"{prefix}the text contains a lone surrogate at character 12{half}"
        )
        assert take().dynamic_call('{"items": []}\ud800') == (
            f"{prefix}the text contains a lone surrogate at character 13{half}"
        )
        assert take().dynamic_call("[" * 5000 + "\ud800") == (
            f"{prefix}the text contains a lone surrogate at character 5000{half}"
        )

    def test_json_6_surrogate_pairs_are_fine(self) -> None:
        result = InputToolset.to_tools()[0]
        assert result.invoke('{"pattern": "\\ud83d\\ude00"}').ok

    @pytest.mark.parametrize("arguments", ['{"pattern": "\ud800"}', {"pattern": "\udcff"}])
    def test_json_6_raw_surrogates(self, arguments: object) -> None:
        result = take().invoke(arguments)
        assert result.error is not None
        assert result.error.kind == "arguments"
        assert "lone surrogate" in result.error.message

    def test_invalid_utf8_bytes(self) -> None:
        message = take().dynamic_call(b'{"pattern": "\xff"}')
        assert message.startswith("Error: Invalid JSON arguments for tool 'input_take': ")
        assert "not valid UTF-8" in message

    def test_json_7_extra_keys_and_strict_booleans(self) -> None:
        assert take().dynamic_call('{"pattern": "x", "shell": true}') == (
            "Error: Invalid arguments for tool 'input_take': shell: unexpected argument; expected "
            "only: start, pattern, items"
        )
        assert take().dynamic_call('{"start": true}') == (
            "Error: Invalid arguments for tool 'input_take': start: true is not of type 'integer'"
        )

    def test_parser_message_is_passed_on(self) -> None:
        assert take().dynamic_call('{"start": }') == (
            "Error: Invalid JSON arguments for tool 'input_take': Expecting value: line 1 column 11 "
            "(char 10)"
        )


# Number literals where the two number readings part ways (the parser's own C one and the strict
# hooks): non-finite, past the digit limits, big exponents, and plain ones.
_literals = st.sampled_from(
    ["1e400", "-1e400", "1" * 400, "9" * 5000, "1e-400", "0e999", "1E+100", "2.5e+99", "1.5"]
) | st.integers(-(2**80), 2**80).map(str)


@st.composite
def _invalid_texts(draw: st.DrawFn) -> str:
    """JSON-like text with such literals, bent at one place (cut short, a character in or out)."""
    # Strings as written with and without escapes: orjson's position counts characters.
    strings = text.map(json.dumps) | text.map(lambda s: json.dumps(s, ensure_ascii=False))
    items = draw(st.lists(_literals | strings, min_size=1, max_size=6))
    keys = [json.dumps(f"k{i}") for i in range(len(items))]
    written = "{" + ", ".join(f"{k}: [{v}]" for k, v in zip(keys, items, strict=True)) + "}"
    where = draw(st.integers(0, len(written)))
    bend = draw(st.sampled_from(["cut", "insert", "delete", "none"]))
    if bend == "cut":
        return written[:where]
    if bend == "insert":
        return written[:where] + draw(st.sampled_from(list(',:]}[{"x\\ 1e'))) + written[where:]
    if bend == "delete":
        return written[:where] + written[where + 1 :]
    return written


def _strictly(text: str, stopped: int = 0) -> object:
    try:
        return jsonin.parse_strict(text, stopped)
    except jsonin.InvalidJSON as exc:
        return f"invalid: {exc}"


class TestWhereOrjsonStopped:
    """Told where orjson stopped reading a text, strict parsing gives the same answer."""

    @given(_invalid_texts())
    def test_the_same_value_or_message(self, written: str) -> None:
        orjson = pytest.importorskip("orjson")
        try:
            orjson.loads(written)
        except orjson.JSONDecodeError as exc:
            stopped = exc.pos
        else:
            return  # orjson read it: never handed over with where it stopped
        assert _strictly(written, stopped) == _strictly(written)

    @pytest.mark.parametrize(
        "written",
        [
            '{"a": [1e400], "b": [1, 2',  # the number orjson refused comes first
            '{"a": [1, 2,], "b": 1e400}',  # orjson stops before the parser does, then a number
            '{"a": "x", "b": ' + "1" * 5000 + ", ",  # past the interpreter's digit limit
            '{"a": [1.5e+99, 2] "b"',
            '{"a": "\\ud800", "b": 1e400}',  # orjson refuses the surrogate, then a number
            # orjson stops inside a number whose start the parser reads as an infinite float.
            '{"a": [' + "1" * 400 + ".5e]",
            '{"a": ' + "1" * 400 + ".5e+",
        ],
    )
    def test_numbers_past_where_orjson_stopped(self, written: str) -> None:
        orjson = pytest.importorskip("orjson")
        with pytest.raises(orjson.JSONDecodeError) as stop:
            orjson.loads(written)
        assert _strictly(written, stop.value.pos) == _strictly(written)
        assert _strictly(written).startswith("invalid: ")  # type: ignore[union-attr]


class TestSizeLimit:
    def test_json_1_oversized_text_is_refused_before_parsing(
        self, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        calls: list[str] = []
        monkeypatch.setattr(jsonin, "parse_strict", lambda text: calls.append(text))
        payload = '{"pattern": "' + "a" * (2 * 1024 * 1024) + '"}'
        result = take().invoke(payload)
        assert calls == []
        assert result.error is not None
        assert result.error.kind == "limit"
        assert result.error.message == (
            "Arguments for tool 'input_take' are 2,097,167 bytes, over the limit of "
            "1,000,000 bytes (Limits.max_argument_bytes); send less data"
        )

    def test_a_text_longer_than_the_limit_is_not_measured_further(
        self, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        # More characters than the limit allows bytes: over it, whatever they encode to.
        parsed: list[str] = []
        monkeypatch.setattr(jsonin, "parse_strict", lambda text: parsed.append(text))
        payload = '{"pattern": "' + "é" * (1024 * 1024) + '"}'
        message = take().dynamic_call(payload)
        assert parsed == []
        assert message == (
            "Error: Arguments for tool 'input_take' are more than 1,000,000 bytes, over the limit "
            "of 1,000,000 bytes (Limits.max_argument_bytes); send less data"
        )

    def test_size_counts_utf8_bytes(self) -> None:
        text = '{"big": 1, "number": 0, "data": [[1]]}'
        assert shallow().dynamic_call(text) == "ok"
        wide = '{"data": [[1]], "number": 0} ' + " " * 300 + '"' + "é" * 1000 + '"'
        assert len(wide) < 2000 < len(wide.encode())
        message = shallow().dynamic_call(wide)
        assert message == (
            f"Error: Arguments for tool 'shallow_take' are {len(wide.encode()):,} bytes, over the "
            "limit of 2,000 bytes (Limits.max_argument_bytes); send less data"
        )

    def test_bytes_input_is_measured_as_is(self) -> None:
        message = shallow().dynamic_call(b"[" + b" " * 3000 + b"]")
        assert message == (
            "Error: Arguments for tool 'shallow_take' are 3,002 bytes, over the limit of 2,000 "
            "bytes (Limits.max_argument_bytes); send less data"
        )

    def test_mapping_is_measured_by_its_compact_json(self) -> None:
        assert shallow().dynamic_call({"data": [[1] * 300]}) == "ok"
        # A little over the limit: measured whole, as text is (it was "more than 2,000 bytes").
        arguments = {"data": [[1] * 1200]}
        size = len(json.dumps(arguments, separators=(",", ":")))
        assert shallow().dynamic_call(arguments) == (
            f"Error: Arguments for tool 'shallow_take' are {size:,} bytes, over the limit of "
            "2,000 bytes (Limits.max_argument_bytes); send less data"
        )
        # Past twice the limit, the walk stops: "more than" is all it knows.
        message = shallow().dynamic_call({"data": [[1] * 2100]})
        assert message.startswith(
            "Error: Arguments for tool 'shallow_take' are more than 2,000 bytes"
        )


class TestMappingSize:
    """A mapping's size is that of its compact JSON text, counted while walking it."""

    @pytest.mark.parametrize(
        "arguments",
        [
            {"a": [[], []]},
            {"a": {}, "b": [{}], "c": [[[]]]},
            {"é": 'ü\n"\\\u0001\u007f\u2028', "n": [-0.0, 1e16, 1e-07, 2.5e-05, -12, 10**30]},
            {"s": "x" * 50, "t": (1, (2, 3)), "u": None, "v": True, "w": False},
        ],
    )
    def test_the_size_is_exactly_that_of_the_compact_text(self, arguments: dict[str, Any]) -> None:
        size = len(json.dumps(arguments, ensure_ascii=False, separators=(",", ":")).encode())
        jsonin.load_arguments(arguments, Limits(max_argument_bytes=size))
        with pytest.raises(jsonin.LimitExceeded, match=f"^{size:,} bytes, over the limit"):
            jsonin.load_arguments(arguments, Limits(max_argument_bytes=size - 1))

    @pytest.mark.parametrize(
        ("arguments", "measured"),
        [
            ({"a": 1}, "more than 1 byte"),
            ({"a": {"b": [1, 2]}}, "more than 1 byte"),
            ({}, "2 bytes"),
        ],
    )
    def test_under_a_limit_below_the_braces_a_mapping_is_measured_truly(
        self, arguments: dict[str, Any], measured: str
    ) -> None:
        # Every mapping was said to be "2 bytes" (its braces), whatever it held.
        with pytest.raises(jsonin.LimitExceeded, match=f"^{measured}, over the limit of 1 byte "):
            jsonin.load_arguments(arguments, Limits(max_argument_bytes=1))

    @given(st.dictionaries(text, json_values, max_size=4))
    def test_generated_mappings_are_measured_as_their_text(self, arguments: dict[str, Any]) -> None:
        size = len(json.dumps(arguments, ensure_ascii=False, separators=(",", ":")).encode())
        assert jsonin.load_arguments(arguments, Limits(max_argument_bytes=size)) == arguments
        with pytest.raises(jsonin.LimitExceeded):
            jsonin.load_arguments(arguments, Limits(max_argument_bytes=size - 1))

    def test_an_endless_mapping_is_refused_at_twice_the_limit(self) -> None:
        class Endless(Mapping[str, int]):
            reads = 0

            def __getitem__(self, key: str) -> int:
                self.reads += 1
                return 1

            def __iter__(self) -> Iterator[str]:
                return (f"k{i}" for i in itertools.count())

            def __len__(self) -> int:
                raise AssertionError("the walk never asks for the length")

        endless = Endless()
        with pytest.raises(jsonin.LimitExceeded, match="more than 1,000 bytes"):
            jsonin.load_arguments({"items": endless}, Limits(max_argument_bytes=1_000))
        assert endless.reads <= 2 * 1_000 // 6  # each member is at least `"kN":1,`

    def test_from_async_code_a_long_mapping_is_walked_no_further(self) -> None:
        # Whether to read it off the event loop was asked by walking all its keys, on the loop
        # (an endless one held it for ever): a million here, so that the old walk ends.
        class Long(Mapping[str, int]):
            walked = 0

            def __getitem__(self, key: str) -> int:
                return 1

            def __iter__(self) -> Iterator[str]:
                for i in range(1_000_000):
                    self.walked += 1
                    yield f"k{i}"

            def __len__(self) -> int:
                return 1  # says anything

        long = Long()
        answer = asyncio.run(shallow().adynamic_call({"data": [], "extra": long}))
        assert answer.startswith("Error: Arguments for tool 'shallow_take' are more than 2,000 ")
        assert long.walked < 10_000

    def test_a_huge_list_is_refused_at_the_limit_without_copying_it(self) -> None:
        huge = {"items": [0] * 2_000_000}
        tracemalloc.start()
        started = time.perf_counter()
        try:
            with pytest.raises(jsonin.LimitExceeded, match="more than 1,000 bytes"):
                jsonin.load_arguments(huge, Limits(max_argument_bytes=1_000))
            elapsed = time.perf_counter() - started
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        # Copying the list first took seconds and hundreds of MiB; the walk stops after ~500 items.
        assert elapsed < 0.5
        assert peak < 1_000_000

    def test_through_a_tool_a_huge_list_is_a_limit_error(self) -> None:
        result = shallow().invoke({"data": [[1] * 5_000_000]})
        assert result.error is not None
        assert result.error.kind == "limit"
        assert result.error.message == (
            "Arguments for tool 'shallow_take' are more than 2,000 bytes, over the limit of "
            "2,000 bytes (Limits.max_argument_bytes); send less data"
        )

    @pytest.mark.parametrize(
        "arguments",
        [
            {"data": [[1] * 2_000_000]},
            {"data": [[1]] * 2_000_000},
            {"data": ((1,),) * 2_000_000},
            {"data": [[1] * 600, [2] * 600, [3] * 600, [4] * 600]},
        ],
    )
    def test_huge_dicts_are_limit_errors_on_every_path(self, arguments: object) -> None:
        proxy = shallow()
        proxy.invoke({"data": []})  # first use: the hooks and the fast path are built
        started = time.perf_counter()
        result = proxy.invoke(arguments)
        elapsed = time.perf_counter() - started
        assert result.error is not None
        assert result.error.kind == "limit"
        # The fast path writes a dict with orjson (C, about 2 bytes per item) before comparing
        # its size; the exact path stops at the limit. Copying the list first took seconds.
        assert elapsed < 1.0


class _RaisingLength(str):
    def __len__(self) -> int:
        raise RuntimeError("no length")


class _LyingLength(bytes):
    def __len__(self) -> int:
        return 10**9


class _RaisingBytes(bytes):
    def __len__(self) -> int:
        raise RuntimeError("no length")


@pytest.mark.parametrize(
    "sent",
    [_RaisingLength('{"start": 5}'), _LyingLength(b'{"start": 5}'), _RaisingBytes(b'{"start": 5}')],
    ids=["str raising", "bytes lying", "bytes raising"],
)
def test_a_text_subclass_is_read_by_its_value_whatever_its_len_says(sent: object) -> None:
    # adynamic_call asked the subclass's own __len__ whether to read off the loop (an
    # "execution" error), and bytes were measured by it ("could not be processed").
    assert take().dynamic_call(sent) == 5
    assert asyncio.run(take().adynamic_call(sent)) == 5


class _Unreadable:
    @property  # type: ignore[misc]
    def __class__(self) -> type:  # pyright: ignore[reportIncompatibleMethodOverride]
        raise RuntimeError("boom")


def test_arguments_that_cannot_be_looked_at_are_the_same_refusal_sync_and_async() -> None:
    # ainvoke asked whether to read them off the loop, which raised: an "execution" error
    # ("Tool ... failed: RuntimeError: boom") for a method that never ran.
    sync = take().invoke(_Unreadable())  # type: ignore[arg-type]
    assert sync.error is not None
    assert sync.error.kind == "arguments"
    assert asyncio.run(take().ainvoke(_Unreadable())) == sync  # type: ignore[arg-type]


class TestDepthLimit:
    def test_json_2_depth_over_the_limit(self) -> None:
        # The arguments object is level 1: {"data": [[1]]} is 3 deep, [[[1]]] inside it 4.
        assert shallow().dynamic_call('{"data": [[1]]}') == "ok"
        at_limit = shallow().dynamic_call('{"data": [[[1]]]}')
        assert at_limit.startswith("Error: Invalid arguments for tool 'shallow_take': data[0][0]: ")
        assert shallow().dynamic_call('{"data": [[[[1]]]]}') == (
            "Error: Arguments for tool 'shallow_take' are nested 5 levels deep, over the limit of "
            "4 (Limits.max_depth); send a flatter structure"
        )

    def test_brackets_inside_strings_do_not_count(self) -> None:
        text = json.dumps({"data": [[1]], "number": 1})[:-1] + ', "big": 1.5}'
        assert shallow().dynamic_call(text) == "ok"
        tricky = '{"data": [[1]], "x": "[[[[[[\\"[[[["}'
        assert "unexpected argument" in shallow().dynamic_call(tricky)

    def test_json_2_default_limit_and_extreme_depth_in_a_subprocess(self) -> None:
        """Depth 65 and 100,000: a clean error, never a RecursionError or a crash."""
        script = textwrap.dedent(
            """
            import sys
            sys.setrecursionlimit(10**6)  # a host that raised it must still be safe
            from typed_toolsets import Limits, Toolset, tool
            class T(Toolset):
                limits = Limits(max_depth=64)
                @tool
                def take(self, *, x: list[int] | None = None) -> str:
                    return "ok"
            t = T.to_tools()[0]
            deep = lambda n: '{"x": ' + "[" * (n - 1) + "]" * (n - 1) + "}"
            print(t.dynamic_call(deep(64)))
            print(t.dynamic_call(deep(65)))
            print(t.dynamic_call(deep(100_000)))
            nested = []
            for _ in range(100_000):
                nested = [nested]
            print(t.dynamic_call({"x": nested}))
            """
        )
        done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        lines = done.stdout.splitlines()
        assert (
            lines[0]
            == "Error: Invalid arguments for tool 't_take': x: [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[...] is not valid here; expected an array or null"
            or lines[0].startswith("Error: Invalid arguments")
            or lines[0] == "ok"
        )
        assert lines[1] == (
            "Error: Arguments for tool 't_take' are nested 65 levels deep, over the limit of 64 "
            "(Limits.max_depth); send a flatter structure"
        )
        assert lines[2].startswith("Error: Arguments for tool 't_take' are nested 100000 levels")
        assert lines[3] == (
            "Error: Arguments for tool 't_take' are nested more than 64 levels deep, over the limit "
            "of 64 (Limits.max_depth); send a flatter structure"
        )

    def test_depth_beyond_one_level_is_said_in_good_english(self) -> None:
        message = _limited(100, 1).dynamic_call({"x": [1]})
        assert "nested more than 1 level deep, over the limit of 1" in message

    def test_text_depth_scanner(self) -> None:
        assert jsonin.text_depth('{"a": [1, {"b": [2]}]}') == 4
        assert jsonin.text_depth('{"a": "[[[[", "b": "\\\\"}') == 1
        assert jsonin.text_depth('["\\"[", [[]]]') == 3

    @pytest.mark.parametrize(
        ("text", "one"),
        [
            ('{"a": [1, {"b": "}"}]}', True),
            ("[[], {}]", True),
            ('{"a": 1}{"id": 7}', False),  # balanced, but two values
            ('{"a": ]{"id": 7}', False),
            ('{"a": [1}', False),
            ("", False),
        ],
    )
    def test_one_value_is_opened_first_and_closed_last(self, text: str, one: bool) -> None:
        assert jsonbounds.one_value(text) is one


class TestMappings:
    def test_mapping_values_are_copied(self) -> None:
        class KeepToolset(Toolset):
            @tool
            def keep(self, *, items: list[int]) -> list[int]:
                return items

        items = [1, 2]
        result = KeepToolset.to_tools()[0].dynamic_call({"items": items})
        assert result == [1, 2]
        assert result is not items

    def test_tuples_are_arrays(self) -> None:
        assert take().dynamic_call({"items": (1, "a")}) == 0

    def test_number_subclasses_give_their_own_value(self) -> None:
        # JSON writers write such a number's own value, whatever its __int__ or __float__ say.
        class Count(int):
            def __int__(self) -> int:
                return 99

        class Ratio(float):
            def __float__(self) -> float:
                return 99.0

        class NumbersToolset(Toolset):
            @tool
            def keep(self, *, count: int, ratio: float, counts: list[int]) -> object:
                return count, ratio, counts

        proxy = NumbersToolset.to_tools()[0]
        arguments = {"count": Count(5), "ratio": Ratio(2.5), "counts": [Count(7)]}
        expected = json.loads(json.dumps(arguments))
        assert proxy.dynamic_call(arguments) == (5, 2.5, [7]) == tuple(expected.values())

    @pytest.mark.parametrize(
        ("arguments", "path", "fragment"),
        [
            ({1: "x"}, "$", "the key 1 is not a string"),
            ({"items": [{2: 1}]}, "items[0]", "the key 2 is not a string"),
            ({"items": [datetime(2020, 1, 1)]}, "items[0]", "(a datetime) is not a JSON value"),
            ({"items": [{1, 2}]}, "items[0]", "(a set) is not a JSON value"),
            ({"items": [b"x"]}, "items[0]", "(a bytes) is not a JSON value"),
            # An address says nothing (it showed "<object object at 0x7f...>"): the type alone.
            ({"items": [object()]}, "items[0]", "items[0]: a Python object is not a JSON value"),
            ({None: 1}, "$", "the key null is not a string"),  # JSON's word (it showed None)
            ({"items": [float("nan")]}, "items[0]", ": NaN is not valid JSON"),
            ({"items": [float("-inf")]}, "items[0]", ": -Infinity is not valid JSON"),
            ({"items": [float("inf")]}, "items[0]", ": Infinity is not valid JSON"),
            ({"items": [10**5000]}, "items[0]", "more than 4,300 digits"),
        ],
    )
    def test_non_json_values_are_named_by_path(
        self, arguments: dict[Any, Any], path: str, fragment: str
    ) -> None:
        result = take().invoke(arguments)
        assert result.error is not None
        assert result.error.kind == "arguments"
        assert result.error.message.startswith(f"Invalid arguments for tool 'input_take': {path}: ")
        assert fragment in result.error.message
        assert result.error.details[0].path == ("$" if path == "$" else f"$.{path}")


class TestCorpus:
    @pytest.mark.parametrize(
        "document",
        [
            "[" * 65 + "]" * 65,
            "[" * 100_000 + "]" * 100_000,
            "1" * 4301,
            "NaN",
            "Infinity",
            "-Infinity",
            "1e400",
            '{"a":1,"a":2}',
            '"\\ud800"',
            '"\\udcff"',
            '{"pattern":"x","shell":true}',
            '{"start":true}',
        ],
    )
    def test_security_corpus_documents_are_refused(self, document: str) -> None:
        result = take().invoke(document)
        assert not result.ok
        assert result.error is not None
        assert result.error.kind in ("arguments", "limit")
        assert take().dynamic_call(document).startswith("Error: ")


@pytest.mark.parametrize(
    ("link", "path"),
    [
        (None, ()),
        ((None, "text"), ("text",)),
        (((None, "tags"), 3), ("tags", 3)),
        ((((None, "team"), 0), "age"), ("team", 0, "age")),
    ],
)
def test_a_link_is_written_out_from_the_top(link: Link, path: tuple[str | int, ...]) -> None:
    assert path_of(link) == path


# ---------------------------------------------------------------- a dict found over the limit


_wide_values: st.SearchStrategy[object] = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**64 - 1)
    # Floats Python and orjson write apart (1e+16 and 1e16), and NaN, which orjson writes null.
    | st.floats(allow_infinity=True)
    | st.sampled_from([1e16, 1e-7, 1.5e300, 0.1, -0.0, math.nan, math.inf])
    | text,
    lambda inner: (
        st.lists(inner, max_size=5)
        | st.tuples(inner, inner)
        | st.dictionaries(text, inner, max_size=4)
    ),
    max_leaves=25,
)


@given(
    st.dictionaries(text, _wide_values, min_size=1, max_size=5),
    st.integers(1, 120),
    st.integers(1, 6),
)
def test_a_dict_over_the_limit_is_refused_as_the_walk_refuses_it(
    arguments: dict[str, Any], max_bytes: int, max_depth: int
) -> None:
    # The fast path hands such a dict over with orjson's writing of it; the exact path refuses
    # it from that when it can (no walk in Python): the same refusal, or the same finding first
    # (a NaN, a depth) when it cannot.
    import orjson

    from typed_toolsets.call.exact import read_arguments
    from typed_toolsets.types.handover import Oversized

    try:
        written = orjson.dumps(arguments)
    except TypeError:  # an integer or a depth orjson refuses: the fast path hands it over plain
        return
    limits = Limits(max_argument_bytes=max_bytes, max_depth=max_depth)
    walked = read_arguments("t", limits, arguments)
    handed = read_arguments("t", limits, arguments, Oversized(written))
    if isinstance(walked, dict):
        assert handed == walked
    else:
        assert not isinstance(handed, dict)
        assert handed.message == walked.message


def test_a_dict_far_over_the_limit_is_refused_without_the_walk(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    (take,) = InputToolset.to_tools()
    arguments = {"items": [[1, 2]] * 400_000}  # 2.4 MB as JSON
    walked = take.dynamic_call(arguments)
    assert walked == (
        "Error: Arguments for tool 'input_take' are more than 1,000,000 bytes, over the limit of "
        "1,000,000 bytes (Limits.max_argument_bytes); send less data"
    )

    def no_walk(arguments: object, limits: Limits) -> dict[str, object]:
        raise AssertionError("walked")

    monkeypatch.setattr(jsonin, "copy_mapping", no_walk)
    assert take.dynamic_call(arguments) == walked
    just_over = {"items": [7] * 499_996}  # 3 bytes over the limit
    assert take.dynamic_call(just_over) == (
        "Error: Arguments for tool 'input_take' are 1,000,003 bytes, over the limit of "
        "1,000,000 bytes (Limits.max_argument_bytes); send less data"
    )


@given(st.dictionaries(text, _wide_values, min_size=1, max_size=5))
def test_python_s_writing_is_longer_than_orjson_s_by_its_exponents_at_most(
    arguments: dict[str, Any],
) -> None:
    # The fast path's bound on a dict's size as the limit measures it (`exponents`).
    import orjson

    from typed_toolsets.types.handover import exponents

    try:
        written = orjson.dumps(arguments)
        python = json.dumps(arguments, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError):  # what one of them refuses: the walk says why
        return
    # (orjson writes some small floats longer: 0.00001 where Python writes 1e-05.)
    assert len(python.encode()) <= len(written) + exponents(written)


def test_a_dict_near_the_limit_full_of_words_with_an_e_is_not_walked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Every "e" was counted as a float's exponent: a dict of 980 KB with a long key or many
    # strings holding one went value by value through the walk (0.4 s), refused or not.
    import orjson

    (take,) = InputToolset.to_tools()

    def no_walk(arguments: object, limits: Limits) -> dict[str, object]:
        raise AssertionError("walked")

    monkeypatch.setattr(jsonin, "copy_mapping", no_walk)
    refused = {"items": [0] * 480_000, "e" * 20_000: 1}
    assert take.dynamic_call(refused).startswith(
        f"Error: Invalid arguments for tool 'input_take': {'e' * 55}"
    )
    assert take.dynamic_call({"items": ["free"] * 120_000}) == 0  # 961 KB
    # Floats orjson writes a byte shorter than the limit measures them (1e-7, 1e-07): still
    # measured as the limit says, and refused over it.
    floats = {"items": [1e-7] * 180_000}
    assert len(orjson.dumps(floats)) < 1_000_000 < len(json.dumps(floats, separators=(",", ":")))
    assert take.dynamic_call(floats) == (
        "Error: Arguments for tool 'input_take' are 1,080,011 bytes, over the limit of "
        "1,000,000 bytes (Limits.max_argument_bytes); send less data"
    )
