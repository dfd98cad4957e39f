"""Invalid JSON arguments: the parser's message, then what to change in JSON's terms."""

from __future__ import annotations

import pytest

from tests.strategies.toolsets import make_echo_toolset
from typed_toolsets import ToolProxy

PREFIX = "Error: Invalid JSON arguments for tool "
BARE_WORD = (
    'JSON writes text in double quotes ("like this"); its only words are true, false and null'
)


def proxy() -> ToolProxy:
    cls = make_echo_toolset([("query", str, "x"), ("tags", list[str], [])], toolset_name="find")
    return cls.to_tools()[0]


def test_a_number_too_long_to_quote_gets_the_hint_without_it() -> None:
    # Its start was looked for character by character back to the first digit: a megabyte
    # of digits cost seven times the parse (the hint now looks back a few dozen characters).
    text = '{"query": 1.' + "1" * 100_000 + "n}"
    assert (
        proxy()
        .dynamic_call(text)
        .endswith(
            '; JSON writes text in double quotes ("like this"), and a number in decimal digits alone'
        )
    )
    assert (
        proxy()
        .dynamic_call('{"query": ' + "0." + "1" * 100_000 + ".}")
        .endswith(
            "; a JSON number has digits after its point (write 1.0 or 1, not 1.)"  # the example
        )
    )


@pytest.mark.parametrize(
    ("text", "hint"),
    [
        (
            '```json\n{"query": "x"}\n```',
            "the text is wrapped in a Markdown code fence (```): send the JSON object alone",
        ),
        ('{"query": "x"} and more', "more text follows the JSON object: send the object alone"),
        (
            '{"query": "x"}\n{"query": "y"}',
            "more text follows the JSON object: send the object alone",
        ),
        ('{"query": "x",}', "JSON allows no comma before a closing } or ]: remove it"),
        ('{"tags": ["a",  \n ]}', "JSON allows no comma before a closing } or ]: remove it"),
        ("{'query': 'x'}", 'JSON writes strings and keys in double quotes ("), not single quotes'),
        ('{"query": "x", "tags": None}', "JSON writes true, false and null in lower case"),
        (
            '{"query": "line\none"}',
            "a line break inside a string must be written as \\n (escape it)",
        ),
        ('{"query": "a\tb"}', "a tab inside a string must be written as \\t (escape it)"),
        (
            '{"query": "a\rb"}',
            "a carriage return inside a string must be written as \\r (escape it)",
        ),
        (
            '{"query": "a\x01b"}',
            "the control character U+0001 inside a string must be written as \\u0001 (escape it)",
        ),
        (
            '{"\x00": 1}',
            "the control character U+0000 inside a string must be written as \\u0000 (escape it)",
        ),
        (
            '{"query": "C:\\temp\\x"}',
            (
                'a backslash inside a string must be written as \\\\ (only \\", \\\\, \\/, '
                "\\b, \\f, \\n, \\r, \\t and \\uXXXX are escapes)"
            ),
        ),
        (
            '{"query": "x',
            'a string has no closing quote (") before the text ends: send the text whole',
        ),
        ('{"query": "x"', "the text ends before the JSON object does: send it whole"),
        ('{"query": "x", "tags": ["a"', "the text ends before the JSON object does: send it whole"),
        # Numbers as other languages write them, quoted with their JSON writing.
        ('{"tags": [1, 02]}', "a JSON number has no leading zero (write 2, not 02)"),
        ('{"query": -007}', "a JSON number has no leading zero (write -7, not -007)"),
        ('{"query": 0x1F}', "JSON has no hexadecimal numbers (write 31, not 0x1F)"),
        ('{"query": 0xZ}', "JSON has no hexadecimal numbers (write 16, not 0x10)"),
        ('{"query": +2.5}', "a JSON number has no plus sign (write 2.5, not +2.5)"),
        ('{"query": -.25}', "a JSON number starts with a digit (write -0.25, not -.25)"),
        ('{"query": 3.}', "a JSON number has digits after its point (write 3.0 or 3, not 3.)"),
        # The number as written, with its fraction and exponent (was "write 1, not 01" for 01.5,
        # "a comma goes between ..." for 0b101, and 1.0 for every number ending in a point).
        ('{"query": 01.5}', "a JSON number has no leading zero (write 1.5, not 01.5)"),
        ('{"query": -00.5e3}', "a JSON number has no leading zero (write -0.5e3, not -00.5e3)"),
        (
            '{"query": 1.e5}',
            "a JSON number has digits after its point (write 1.0e5 or 1e5, not 1.e5)",
        ),
        ('{"query": .5e3}', "a JSON number starts with a digit (write 0.5e3, not .5e3)"),
        ('{"query": 1e+}', "an exponent has digits after its e (1e5, 1e+5, 1e-5)"),
        ('{"query": 0b101}', "a JSON number has no prefix, suffix or _ (write 5, not 0b101)"),
        ('{"query": 1_000}', "a JSON number has no prefix, suffix or _ (write 1000, not 1_000)"),
        ('{"query": 10n}', "a JSON number has no prefix, suffix or _ (write 10, not 10n)"),
        ('{"query": 2.5f}', "a JSON number has no prefix, suffix or _ (write 2.5, not 2.5f)"),
        (
            '{"query": 0b2}',
            'JSON writes text in double quotes ("like this"), and a number in decimal digits alone',
        ),
        # Text without its quotes, as likely as a number of another language.
        (
            '{"query": 2nd floor}',
            'JSON writes text in double quotes ("like this"), and a number in decimal digits alone',
        ),
        # Part of a number quoted when the rest is no JSON (was the canned example, "07").
        ('{"query": 01.}', "a JSON number has no leading zero (write 1, not 01)"),
        # More than a number after the sign, no number quoted (was "write 5, not +5").
        (
            '{"query": +5e}',
            "a JSON number has no plus sign, and is written in decimal digits alone",
        ),
        (
            '{"query": +0x}',
            "a JSON number has no plus sign, and is written in decimal digits alone",
        ),
        (
            '{"query": +1_000.5}',
            "a JSON number has no plus sign, and is written in decimal digits alone",
        ),
        ('{"query": +00}', "a JSON number has no plus sign (write 0, not +00)"),
        # A plus sign before a number of another language: both named (was "write 0, not +0").
        (
            '{"query": +0x1F}',
            "a JSON number has no plus sign, prefix, suffix or _ (write 31, not +0x1F)",
        ),
        (
            '{"query": +1_000}',
            "a JSON number has no plus sign, prefix, suffix or _ (write 1000, not +1_000)",
        ),
        ('{"query": +007.5}', "a JSON number has no plus sign (write 7.5, not +007.5)"),
        ('{"query": +0}', "a JSON number has no plus sign (write 0, not +0)"),
        # An exponent with digits and a second e: not "an exponent has digits after its e".
        (
            '{"query": 1e5e5}',
            'JSON writes text in double quotes ("like this"), and a number in decimal digits alone',
        ),
        ('{"query": undefined}', "JSON has no undefined: send null, or leave the key out"),
        # Cut inside a literal, a number or a \u escape: the parser stops inside the token.
        ('{"query": "x", "tags": tr', "the text ends before the JSON object does: send it whole"),
        ('{"query": nul', "the text ends before the JSON object does: send it whole"),
        ('{"tags": [-', "the text ends before the JSON object does: send it whole"),
        ('{"tags": [1.', "the text ends before the JSON object does: send it whole"),
        ('{"tags": [1e+', "the text ends before the JSON object does: send it whole"),
        ('{"query": "\\u12', "the text ends before the JSON object does: send it whole"),
        # JSON's own syntax, as other notations write it.
        ('{query: "x"}', 'JSON writes keys in double quotes ("name": ...)'),
        ('{"query": "x" // why\n}', "JSON has no comments: remove them"),
        ('/* why */ {"query": "x"}', "JSON has no comments: remove them"),
        (
            '{"query": fast}',
            BARE_WORD,
        ),
        (
            '{"a": tru}',
            BARE_WORD,
        ),
        ('{"query": NULL}', "JSON writes true, false and null in lower case"),
        ('{"query": True}', "JSON writes true, false and null in lower case"),
        ('{"query": none}', "JSON writes null, not none"),
        (
            '{"query": 1 2}',
            "a comma (,) goes between the members of an object and the items of an array",
        ),
        (
            '{"query": "x" "tags": []}',
            "a comma (,) goes between the members of an object and the items of an array",
        ),
        ('{"query" "x"}', 'a colon (:) goes between a key and its value ("name": value)'),
        # JSON's own words where another token is wanted: the slip is not their case.
        ("{true: 1}", 'JSON writes keys in double quotes ("name": ...)'),
        ('{"query" true}', 'a colon (:) goes between a key and its value ("name": value)'),
        (
            '{"tags": [1 true]}',
            "a comma (,) goes between the members of an object and the items of an array",
        ),
        ('{"query": "x",, "tags": []}', "two commas in a row: remove one"),
        ('{, "query": "x"}', "no comma goes right after {: remove it"),
        ('{"a": "\\u12zz"}', "a \\u escape has four hexadecimal digits (\\u00e9)"),
        # A word processor's quotes (a model copying prose): named as sent.
        (
            '{\u201cquery\u201d: "x"}',
            'JSON writes strings and keys in plain double quotes ("), not \u201c',
        ),
        (
            '{"query": \u2018x\u2019}',
            'JSON writes strings and keys in plain double quotes ("), not \u2018',
        ),
        # Spaces alone: nothing was cut short, and nothing was sent.
        ("   ", "the text holds no JSON value: send a JSON object ({} for no arguments)"),
        ("\n\t", "the text holds no JSON value: send a JSON object ({} for no arguments)"),
    ],
)
def test_the_usual_slips_say_what_to_change(text: str, hint: str) -> None:
    for form in (text, text.encode()):
        message = proxy().dynamic_call(form)
        assert message.startswith(f"{PREFIX}'find_echo': ")
        # The parser's own words, where it stopped, then the hint.
        assert message.endswith(f" (char {message.split('(char ')[1].split(')')[0]}); {hint}")


@pytest.mark.parametrize(
    "text",
    [
        '{"a": -}',
        '{"a": 1.5.3}',
        '{"a": .}',
    ],
)
def test_other_invalid_json_keeps_the_parser_s_words_alone(text: str) -> None:
    message = proxy().dynamic_call(text)
    assert message.startswith(PREFIX)
    assert message.endswith(")")  # the position, and nothing after it
    assert "; " not in message.split("(char ")[1]


def test_a_hint_looks_only_near_where_the_parser_stopped() -> None:
    # Single quotes far from the error are no part of it.
    text = '{"query": "it\'s", "tags": ["a",]}'
    assert (
        proxy()
        .dynamic_call(text)
        .endswith("JSON allows no comma before a closing } or ]: remove it")
    )
    # A long run of spaces between the comma and the bracket is looked past.
    spaced = '{"tags": ["a",' + " " * 10_000 + "]}"
    assert proxy().dynamic_call(spaced).endswith("remove it")
