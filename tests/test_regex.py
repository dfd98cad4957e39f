"""text_filter_lines' engine: RE2, seed line semantics, linear time (RE-1, RE-2)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
import re2
from hypothesis import given, settings
from hypothesis import strategies as st

from typed_toolsets.builtins import regex as _regex
from typed_toolsets.builtins import text_ops as _text_ops
from typed_toolsets.builtins.exceptions import InvalidPatternError

ROOT = Path(__file__).resolve().parent.parent

PATTERNS = [
    "a",
    "A",
    "^a",
    "a$",
    "^$",
    "^",
    "$",
    "x*",
    r"\s",
    r"a\sb",
    "[^x]",
    "a|^b",
    r"\bab\b",
    "b.a",
    r"\n",
    "(?i)É",
    r"\Aa",
    r"b\z",
    r"\\A",
]
line_text = st.text(alphabet=st.sampled_from(list("abAB x\n\r\té")), max_size=40)


def _reference(text: str, pattern: str, invert: bool) -> str:
    """One search per line on the line without its newline: the seed's semantics, slowly."""
    options = re2.Options()
    options.case_sensitive = False
    options.log_errors = False
    regex = re2.compile(pattern, options)
    kept = []
    for line in _text_ops.ruby_lines(text):
        content = line[:-1] if line.endswith("\n") else line
        if (regex.search(content) is not None) != invert:
            kept.append(line)
    return "".join(kept)


@settings(max_examples=1000)
@given(line_text, st.sampled_from(PATTERNS), st.booleans())
def test_whole_text_search_equals_line_by_line(text: str, pattern: str, invert: bool) -> None:
    assert _regex.filter_lines(text, pattern, invert=invert) == _reference(text, pattern, invert)


def test_seed_example_is_case_insensitive_and_keeps_endings() -> None:
    assert _regex.filter_lines("Foo\nbar\nFOO", "foo", invert=False) == "Foo\nFOO"
    assert _regex.filter_lines("Foo\nbar\nFOO", "foo", invert=True) == "bar\n"


def test_anchors_are_line_anchors() -> None:
    text = "ab\nba\n\nab"
    assert _regex.filter_lines(text, "^a", invert=False) == "ab\nab"
    assert _regex.filter_lines(text, "a$", invert=False) == "ba\n"
    assert _regex.filter_lines(text, "^$", invert=False) == "\n"
    assert _regex.filter_lines(text, "^$", invert=True) == "ab\nba\nab"
    assert _regex.filter_lines(text, r"\Ab", invert=False) == "ba\n"


def test_unicode_case_folding_and_lone_surrogates() -> None:
    assert _regex.filter_lines("ÉTÉ\nhiver", "été", invert=False) == "ÉTÉ\n"
    assert _regex.filter_lines("a\ud800b\nc", "a", invert=False) == "a\ud800b\n"


@pytest.mark.parametrize(
    ("pattern", "construct"),
    [
        (r"(a)\1", r"\1"),
        ("foo(?=bar)", "(?="),
        ("(?<=a)b", "(?<"),
        ("a{1001}", "{1001}"),
        ("(?>a)", "(?>"),
        ("a++", "++"),
        ("[unclosed", "missing ]"),
    ],
)
def test_RE_1_unsupported_syntax_is_a_clear_error(
    pattern: str, construct: str, capfd: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(InvalidPatternError) as info:
        _regex.filter_lines("abc", pattern, invert=False)
    message = str(info.value)
    assert construct in message
    assert "RE2" in message
    captured = capfd.readouterr()
    assert (captured.out, captured.err) == ("", "")


def test_RE_1_wrapping_cannot_validate_an_invalid_pattern() -> None:
    # Inside "(?m:...)" this would balance; on its own it is invalid and must stay so.
    with pytest.raises(InvalidPatternError):
        _regex.filter_lines("a\nb", "a)|(b", invert=False)


@pytest.mark.parametrize(
    ("pattern", "text"),
    [
        ("(a+)+$", "a" * 1_000_000 + "!"),
        ("(.*,){11}P", "," * 100_000),
        (r"\s+$", " " * 1_000_000 + "x"),
        ("(a|aa)+$", "a" * 1_000_000 + "!"),
    ],
)
def test_RE_2_catastrophic_patterns_run_in_linear_time(pattern: str, text: str) -> None:
    started = time.perf_counter()
    assert _regex.filter_lines(text, pattern, invert=False) == ""
    # RE-2 asks for < 50 ms; the bound here leaves room for a loaded CI machine, and is still
    # many orders of magnitude below what a backtracking engine needs for these inputs.
    assert time.perf_counter() - started < 0.5


def test_re2_stub_is_mirrored_for_pyright() -> None:
    assert (ROOT / "stubs" / "re2.pyi").read_text() == (ROOT / "typings" / "re2.pyi").read_text()
