"""The pure text operations reproduce the seed's Ruby semantics (research/dsprb.md section 5)."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from typed_toolsets.builtins import text_ops as ops

# Text built from the characters where Ruby and Python disagree most.
tricky_text = st.text(
    alphabet=st.sampled_from(list("ab \t\n\r\v\f\x1c\x85\u2028é_-.1")), max_size=60
)


@pytest.mark.parametrize(
    ("text", "lines"),
    [
        ("", []),
        ("a", ["a"]),
        ("a\n", ["a\n"]),
        ("a\nb", ["a\n", "b"]),
        ("a\r\nb\rc", ["a\r\n", "b\rc"]),
        ("\n\n", ["\n", "\n"]),
        ("a\u2028b\x85c\x1cd\ve\ff", ["a\u2028b\x85c\x1cd\ve\ff"]),
    ],
)
def test_ruby_lines_split_after_newline_only(text: str, lines: list[str]) -> None:
    assert ops.ruby_lines(text) == lines
    assert ops.count_lines(text) == len(lines)


@given(tricky_text)
def test_ruby_lines_round_trip(text: str) -> None:
    lines = ops.ruby_lines(text)
    assert "".join(lines) == text
    assert all(line.count("\n") == (1 if line.endswith("\n") else 0) for line in lines)
    assert ops.count_lines(text) == len(lines)


@pytest.mark.parametrize(
    ("line", "chomped"),
    [("a\n", "a"), ("a\r\n", "a"), ("a\r", "a"), ("a\n\n", "a\n"), ("a", "a"), ("", "")],
)
def test_chomp(line: str, chomped: str) -> None:
    assert ops.chomp(line) == chomped


def test_word_count_seed_examples() -> None:
    assert ops.word_count(
        "one two\nthree", lines_only=False, words_only=False, chars_only=False
    ) == ("Lines: 2, Words: 3, Characters: 13")
    assert ops.word_count("", lines_only=False, words_only=True, chars_only=False) == "Words: 0"
    assert ops.word_count("a\n", lines_only=True, words_only=False, chars_only=False) == "Lines: 1"
    assert ops.word_count("a\nb", lines_only=True, words_only=True, chars_only=True) == "Lines: 2"
    assert ops.word_count("a b", lines_only=False, words_only=True, chars_only=True) == "Words: 2"
    assert ops.word_count("héllo", lines_only=False, words_only=False, chars_only=True) == (
        "Characters: 5"
    )


def test_words_split_on_ascii_whitespace_only() -> None:
    # U+00A0 and U+2003 are Unicode spaces, not Ruby \s: they stay inside words.
    text = "a\u00a0b c\u2003d\te\vf\fg\rh"
    assert ops.word_count(text, lines_only=False, words_only=True, chars_only=False) == "Words: 6"


SEED = "a\nb\nc"


@pytest.mark.parametrize(
    ("start", "end", "expected"),
    [
        (2, None, "b\n"),
        (2, 3, "b\nc"),
        (0, None, "a\n"),
        (-5, None, "a\n"),
        (4, None, ""),
        (3, None, "c"),
        (1, 0, "a\nb\nc"),
        (1, -1, "a\nb\n"),
        (1, -3, ""),
        (2, 1, ""),
        (1, 99, "a\nb\nc"),
        (4, 5, ""),
        (5, 9, ""),
        (1, -10_000_000, ""),
    ],
)
def test_extract_lines_ruby_slicing(start: int, end: int | None, expected: str) -> None:
    assert ops.extract_lines(SEED, start, end) == expected


def test_extract_lines_empty_text() -> None:
    assert ops.extract_lines("", 1, None) == ""
    assert ops.extract_lines("", 1, 0) == ""


def _ruby_range_slice(items: list[str], start: int, end: int) -> list[str] | None:
    """Ruby's Array#[](start..end) for start >= 0, written from its documented rules."""
    if start > len(items):
        return None
    if end < 0:
        end += len(items)
    if end < 0:
        return []
    return items[start : min(end, len(items) - 1) + 1]


@given(
    tricky_text,
    st.integers(min_value=-20, max_value=20),
    st.none() | st.integers(min_value=-20, max_value=20),
)
def test_extract_lines_matches_ruby_rules(text: str, start: int, end: int | None) -> None:
    lines = ops.ruby_lines(text)
    begin = max(start - 1, 0)
    if end is None:
        expected = "" if begin > len(lines) else "".join(lines[begin : begin + 1])
    else:
        sliced = _ruby_range_slice(lines, begin, min(end - 1, len(lines) - 1))
        expected = "".join(sliced) if sliced is not None else ""
    assert ops.extract_lines(text, start, end) == expected


def test_unique_lines() -> None:
    assert ops.unique_lines("b\na\nb\r\n\na", preserve_order=True) == "b\na\n\n"
    assert ops.unique_lines("b\na\nb\r\n\na", preserve_order=False) == "\na\nb\n"
    assert ops.unique_lines("", preserve_order=True) == ""


def test_sort_lines() -> None:
    assert ops.sort_lines("10\n9\nx", reverse=False, numeric=True) == "x\n9\n10\n"
    assert ops.sort_lines("10\n9\nx", reverse=True, numeric=True) == "10\n9\nx\n"
    assert ops.sort_lines("b\nB\na\né", reverse=False, numeric=False) == "B\na\nb\né\n"
    assert ops.sort_lines("", reverse=False, numeric=False) == ""


def test_numeric_sort_is_stable_before_reversal() -> None:
    assert ops.sort_lines("x\n1\ny\n0", reverse=False, numeric=True) == "x\ny\n0\n1\n"
    assert ops.sort_lines("x\n1\ny\n0", reverse=True, numeric=True) == "1\n0\ny\nx\n"


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("12abc", 12.0),
        ("  -3.5e2x", -350.0),
        ("1_000", 1000.0),
        ("1__0", 1.0),
        ("_1", 0.0),
        ("1_", 1.0),
        (".5", 0.5),
        ("5.", 5.0),
        ("1.e5", 1.0),
        ("1e", 1.0),
        ("+7", 7.0),
        ("0x1A", 0.0),
        ("Infinity", 0.0),
        ("NaN", 0.0),
        ("abc", 0.0),
        ("", 0.0),
        ("1e400", float("inf")),
        ("\t\v 42", 42.0),
    ],
)
def test_ruby_to_f(text: str, value: float) -> None:
    assert ops.ruby_to_f(text) == value


@pytest.mark.parametrize(
    ("value", "rounded"),
    [(4.125, 4.13), (2.675, 2.68), (1.005, 1.01), (37.857142857142854, 37.86), (13.0, 13.0)],
)
def test_ruby_round2_rounds_half_up_on_the_printed_value(value: float, rounded: float) -> None:
    assert ops.ruby_round2(value) == rounded


@settings(max_examples=2000)
@given(st.integers(min_value=0, max_value=10**7), st.integers(min_value=1, max_value=10**5))
def test_ruby_round2_agrees_with_decimal_half_up(total: int, count: int) -> None:
    value = total / count
    expected = float(Decimal(repr(value)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))
    assert ops.ruby_round2(value) == expected


RECORDED_TEXT = (
    "Hello world, this is a test.\nThis is line number two.\nHere's another line with some "
    "numbers: 123, 456, 789.\nThe quick brown fox jumps over the lazy dog.\nThis line contains "
    'the word "error" for testing.\nFinal line with more test data.\nHello world appears again '
    "here."
)


def test_summarize_recorded_output() -> None:
    assert ops.summarize(RECORDED_TEXT) == (
        "Text Summary:\n  Lines: 7\n  Words: 48\n  Characters: 265\n  Average line length: "
        "37.86\n  Average word length: 4.54\n  Most frequent words:\n    line: 4\n    this: 3\n"
        "    the: 3\n    hello: 2\n    world: 2"
    )


def test_summarize_empty_text_prints_integer_zero_averages() -> None:
    assert ops.summarize("") == (
        "Text Summary:\n  Lines: 0\n  Words: 0\n  Characters: 0\n  Average line length: 0\n"
        "  Average word length: 0"
    )


def test_summarize_words_are_ascii_word_characters_after_lowercasing() -> None:
    summary = ops.summarize("Café café CAFÉ don't dont ab ab ab ab")
    # "café" -> "caf" (é is not ASCII \w); "don't" -> "dont"; "ab" is under three characters.
    assert summary.endswith("  Most frequent words:\n    caf: 3\n    dont: 2")
    assert "Average line length: 37.0" in summary


def test_summarize_omits_the_word_block_when_no_word_qualifies() -> None:
    summary = ops.summarize("a bb a")
    assert "Most frequent words" not in summary
    assert summary.endswith("Average word length: 1.33")


def test_summarize_keeps_first_appearance_order_for_ties() -> None:
    summary = ops.summarize("zeta alpha zeta alpha beta gamma delta omega")
    assert summary.endswith("    zeta: 2\n    alpha: 2\n    beta: 1\n    gamma: 1\n    delta: 1")
