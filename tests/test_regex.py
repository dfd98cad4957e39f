"""text_filter_lines' engine: RE2, seed line semantics, linear time (RE-1, RE-2)."""

from __future__ import annotations

import random
import re
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from typed_toolsets.builtins import regex as _regex
from typed_toolsets.builtins import text_ops as _text_ops
from typed_toolsets.builtins.exceptions import InvalidPatternError
from typed_toolsets.text import TextProcessingToolset

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
    r"a\W",
    r"a[^b]",
    r"\s$",
    r"b\s",
    r"\n^",
    r"\n\n",
    "(?i)É",
    r"\Aa",
    r"b\z",
    r"\\A",
    r"[^x]$\s",
    r"\^$\n",
]
#: Lines with braces, for the repetitions without a lower bound.
BRACES = "a{,3}\nxy\nxaay\nxaaay\nab\nb\naab\na{,}\n"
line_text = st.text(alphabet=st.sampled_from(list("abAB x\n\r\té")), max_size=40)


def _reference(text: str, pattern: str, invert: bool) -> str:
    """The seed's rule, slowly: ``text.lines.select { |line| line.match?(/pattern/i) }``.

    Each line keeps its newline. Python's ``re`` stands in for Ruby's Onigmo: for these patterns
    they agree (``$`` matches before a final newline and at the end, ``^`` only at the start of a
    one-line string, ``\\z`` is Python's ``\\Z``).
    """
    flags = re.IGNORECASE | (re.ASCII if pattern.isascii() else 0)
    regex = re.compile(pattern.replace("\\z", "\\Z"), flags)
    lines = _text_ops.ruby_lines(text)
    return "".join(line for line in lines if (regex.search(line) is not None) != invert)


@settings(max_examples=1000)
@given(line_text, st.sampled_from(PATTERNS), st.booleans())
def test_filter_lines_keeps_the_lines_the_seed_keeps(text: str, pattern: str, invert: bool) -> None:
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


@pytest.mark.parametrize(
    ("text", "pattern", "kept", "dropped"),
    [
        ("disk error\nall good\n", r"error\W", "disk error\n", "all good\n"),
        ("disk error\nall good\n", r"error\s", "disk error\n", "all good\n"),
        ("ab\ncd", r"\n", "ab\n", "cd"),
        ("ab\nab", r"a[^b]|b[^c]", "ab\n", "ab"),
        ("ab\n\ncd\n", r"\s$", "ab\n\ncd\n", ""),
        ("ab\n\ncd\n", r"\n\n", "", "ab\n\ncd\n"),
        ("ab\n\ncd\n", r"\n^", "", "ab\n\ncd\n"),
        # A "^" in a class or escaped is no anchor: "$" then the newline is found as in a$\n.
        ("ab\nab \n", r"[^ ]$\s", "ab\n", "ab \n"),
        ("^x\nx\n", r"[\^]x$\n", "^x\n", "x\n"),
        ("^x\nx\n", r"\^x$\n", "^x\n", "x\n"),
    ],
)
def test_each_line_is_matched_with_its_newline_as_the_seed_does(
    text: str, pattern: str, kept: str, dropped: str
) -> None:
    assert _regex.filter_lines(text, pattern, invert=False) == kept
    assert _regex.filter_lines(text, pattern, invert=True) == dropped


def test_a_flag_turned_off_inside_the_pattern_stays_within_a_line() -> None:
    # Each line is RE2's whole text, so (?-m)'s "start of text" is the start of each line.
    assert _regex.filter_lines("abc\ndef\n", "(?-m)^d", invert=False) == "def\n"
    assert _regex.filter_lines("abc\ndef\n", "(?-m)^d", invert=True) == "abc\n"
    assert _regex.filter_lines("abc\ndef\n", "(?i-m:^D)", invert=False) == "def\n"


@pytest.mark.parametrize(
    ("pattern", "plain"),
    [
        ("(?-m)^a$", "^a$"),
        ("(?i-m:a$)", "a$"),
        ("(?-m)a$\\n", "a$\\n"),
        ("(?-mi)A$", "(?-i)A$"),
        ("(?s-m)^a.", "(?s)^a."),
    ],
)
def test_multi_line_mode_turned_off_changes_nothing_on_a_line(pattern: str, plain: str) -> None:
    # RE2's single-line $ is \z: it would keep the last "a" (no newline) and drop the others.
    text = "a\nxa\nA\nab\na"
    kept = _regex.filter_lines(text, plain, invert=False)
    assert kept
    assert _regex.filter_lines(text, pattern, invert=False) == kept
    assert _regex.filter_lines(text, pattern, invert=True) == _regex.filter_lines(
        text, plain, invert=True
    )


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


@pytest.mark.parametrize(
    ("pattern", "kept"),
    [
        # Up to n, as Ruby and Python's re read it (RE2 alone matched the braces as characters).
        (r"xa{,2}y", "xy\nxaay\n"),
        (r"^a{,1}b{,12}$", "ab\nb\n"),
        # As characters: in a class or escaped.
        (r"a[{,3}]", "a{,3}\na{,}\n"),
        (r"a\{,3}", "a{,3}\n"),
    ],
)
def test_a_repetition_without_its_lower_bound_means_from_zero(pattern: str, kept: str) -> None:
    assert _regex.filter_lines(BRACES, pattern, invert=False) == kept
    # The seed's engine reads these patterns as Python's re does.
    assert kept == _reference(BRACES, pattern, invert=False)


#: Lines with each kind of blank between a and b: space, tab, vertical tab, form feed, none.
SPACES = "a b\na\tb\na\x0bb\na\x0cb\nab\nacb\n"


@pytest.mark.parametrize(
    ("pattern", "kept"),
    [
        # Ruby's \s matches a vertical tab (RE2's alone did not): so does the seed's filter.
        (r"a\sb", "a b\na\tb\na\x0bb\na\x0cb\n"),
        (r"a[\s,]b", "a b\na\tb\na\x0bb\na\x0cb\n"),
        # A hyphen after \s in a class is itself: [\s\v-z] made it the range \v to z ("acb").
        (r"a[\s-z]b", "a b\na\tb\na\x0bb\na\x0cb\n"),
        (r"a\Sb", "acb\n"),
        (r"a[^\s]b", "acb\n"),
        # Escaped or quoted, it stays two characters.
        (r"a[\\s]b", ""),
        (r"\Qa\sb\E", ""),
    ],
)
def test_a_space_class_matches_a_vertical_tab_as_ruby_s_does(pattern: str, kept: str) -> None:
    assert _regex.filter_lines(SPACES, pattern, invert=False) == kept


@pytest.mark.parametrize("pattern", [r"\Qa{,3}\E", r"a{,}"])
def test_braces_quoted_or_without_a_bound_stay_characters(pattern: str) -> None:
    # RE2's own reading (Python's re has no \Q, and reads {,} as *).
    assert _regex.filter_lines(BRACES, pattern, invert=False) == pattern.strip("\\QE") + "\n"


def test_a_repetition_of_nothing_is_still_refused_quoting_the_pattern_sent() -> None:
    with pytest.raises(InvalidPatternError) as info:
        _regex.filter_lines("x", "{,3}", invert=False)
    assert str(info.value).startswith("RE2 cannot use the pattern '{,3}': ")


@pytest.mark.parametrize(
    ("pattern", "reason"),
    [
        # RE2 quoted its reading of a translated escape, which the model never wrote.
        ("(\\h", "missing )"),
        ("(\\s", "missing )"),
        # Its own quote of what the model wrote stays.
        ("\\d+(", "missing ): \\d+("),
        ("a[", "missing ]: ["),
    ],
)
def test_re2_s_reason_quotes_only_what_the_model_wrote(pattern: str, reason: str) -> None:
    with pytest.raises(InvalidPatternError) as info:
        _regex.filter_lines("x", pattern, invert=False)
    assert str(info.value).startswith(f"RE2 cannot use the pattern '{pattern}': {reason}; ")


def test_RE_1_wrapping_cannot_validate_an_invalid_pattern() -> None:
    # Inside "(?m:...)" this would balance; on its own it is invalid and must stay so.
    with pytest.raises(InvalidPatternError):
        _regex.filter_lines("a\nb", "a)|(b", invert=False)


def test_an_unterminated_quote_is_re2_syntax_and_is_not_refused() -> None:
    # RE2's \Q quotes to the end of the pattern: the tool's own multi-line form of the pattern
    # must not put a ")" after it (that refused the pattern and quoted "(?m:\Qa))" back).
    tool = {t.name: t for t in TextProcessingToolset.to_tools()}["text_filter_lines"]
    assert tool.dynamic_call({"text": "a)\nb(\nA)", "pattern": "\\Qa)"}) == "a)\nA)"
    assert tool.dynamic_call({"text": "x.y\nxzy\n", "pattern": "\\Qx.y"}) == "x.y\n"
    assert tool.dynamic_call({"text": "a)\nb", "pattern": "\\Qa)", "invert": True}) == "b"


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


# A program's cost per byte grows with its size: these bound it (finding: a 19-character pattern
# over 8 MB ran for 101 s). Worst cases measured at the MAX_WORK edge with the line matching of
# this module (google-re2 1.1, shared 2-core machine): a[ab]{19}c over 8 MB of random "ab",
# 0.9 s; a[ab]{194}c over 1 MB, 0.9 s; \pL{446}z (about the largest program RE2 compiles
# under its memory cap) over 200 bytes of letters, 0.3 s, mostly compiling.
def test_RE_2_a_program_too_large_for_the_text_is_refused_with_advice() -> None:
    with pytest.raises(InvalidPatternError) as info:
        _regex.filter_lines("a" * 990_000, r"\pL{1000}\pL{1000}z", invert=False)
    message = str(info.value)
    assert r"'\pL{1000}\pL{1000}z'" in message  # quoted as sent, like "No matches found"
    assert "program too large" in message
    assert "smaller repetition count" in message
    with pytest.raises(InvalidPatternError, match="program too large to run over this text"):
        _regex.filter_lines("a" * 1_000_000, r"\pL+z", invert=False)
    # The same pattern over a small text is cheap, and runs.
    assert _regex.filter_lines("é\nz\n", r"\pL+z", invert=False) == ""


def test_RE_2_re2s_own_size_failure_gets_size_advice_not_syntax_advice() -> None:
    with pytest.raises(InvalidPatternError) as info:
        _regex.filter_lines("abc", r"\pL{1000}\pL{1000}z", invert=False)
    message = str(info.value)
    assert "pattern too large" in message
    assert "smaller repetition count" in message
    assert "backreferences" not in message


@pytest.mark.parametrize(
    ("pattern", "advice"),
    [
        ("[", "fix the pattern's syntax"),
        ("a)", "fix the pattern's syntax"),
        ("*a", "fix the pattern's syntax"),
        ("[z-a]", "fix the pattern's syntax"),
        ("a{1,5000}", "RE2 repeats at most 1,000 times"),
        ("a{2,1}", "RE2 repeats at most 1,000 times"),
        # Every count under 1,000: the limit is on their product, which the advice now says.
        ("(a{10}){101}", "the counts of repetitions inside one another multiply"),
        ("((a{10}){10}){11}", "the counts of repetitions inside one another multiply"),
        # These were told to rewrite the pattern without lookaround (or, for \Z, to write a
        # class): a flag RE2 does not know, a group left open, a stacked repetition, an anchor.
        ("x{2}{3}", "a repetition of a repetition is grouped first ((x{2}){3}"),
        ("a++", "RE2 has no possessive quantifiers (a++, a*+)"),
        ("(?z)a", "RE2's (?...) forms are (?:...), (?P<name>...) and the flags i, m, s and U"),
        ("(?i", "each closed by )"),
        ("a\\Z", "RE2 has no \\Z: write $ (each line is matched on its own) or \\z"),
    ],
)
def test_a_syntax_error_gets_syntax_advice_not_advice_on_constructs_it_lacks(
    pattern: str, advice: str
) -> None:
    # "missing ]" used to come with "rewrite the pattern without backreferences, lookaround...".
    with pytest.raises(InvalidPatternError) as info:
        TextProcessingToolset().filter_lines(text="abc\n", pattern=pattern)
    message = str(info.value)
    assert message.startswith(f"RE2 cannot use the pattern '{pattern}': ")
    assert advice in message
    assert "backreferences" not in message


@pytest.mark.parametrize("pattern", [r"\X+", r"a\y"])
def test_an_escape_re2_has_not_gets_advice_on_escapes(pattern: str) -> None:
    # It was told to rewrite the pattern without backreferences and lookaround.
    with pytest.raises(InvalidPatternError) as info:
        TextProcessingToolset().filter_lines(text="abc\n", pattern=pattern)
    message = str(info.value)
    assert message.endswith(
        "RE2 has no such escape: write the characters it stands for (a class such as "
        "[0-9a-fA-F], or the character itself), and put a backslash only before punctuation"
    )
    assert "backreferences" not in message


#: Lines of hexadecimal digits, of other characters, and with an escape character (ESC).
HEX = "deadBEEF\n0x1F\nxyz\n12\n\x1b[31m\n"


@pytest.mark.parametrize(
    ("pattern", "kept"),
    [
        # Ruby's \h is a hexadecimal digit: RE2 has no \h (the advice said to write [ \t]).
        (r"^\h+$", "deadBEEF\n12\n"),
        (r"^[\h]+$", "deadBEEF\n12\n"),
        (r"^[\hx]+$", "deadBEEF\n0x1F\n12\n"),
        (r"^\H", "xyz\n\x1b[31m\n"),
        # \e is the escape character (RE2 refused it).
        (r"\e\[", "\x1b[31m\n"),
        (r"[\e]\[", "\x1b[31m\n"),
        # Escaped or quoted, they stay characters.
        (r"\\h", ""),
        (r"\Q\h\E", ""),
    ],
)
def test_ruby_s_hex_digit_and_escape_escapes_mean_what_they_mean_in_ruby(
    pattern: str, kept: str
) -> None:
    assert _regex.filter_lines(HEX, pattern, invert=False) == kept
    assert _regex.filter_lines(HEX, pattern, invert=True) == "".join(
        line for line in _text_ops.ruby_lines(HEX) if line not in _text_ops.ruby_lines(kept)
    )


def test_a_non_hex_digit_escape_inside_a_class_is_refused_with_how_to_write_it() -> None:
    with pytest.raises(InvalidPatternError) as info:
        _regex.filter_lines("abc\n", r"[\H_]", invert=False)
    assert str(info.value).endswith(
        "RE2 has no \\H (Ruby's character that is no hexadecimal digit) inside [...]: write "
        "[^0-9a-fA-F] outside the brackets, or list the characters the class should hold"
    )


@pytest.mark.parametrize(
    ("pattern", "kept"),
    [
        # Ruby's (?m) lets . match the newline each line is matched with (RE2's (?s)).
        ("(?m)a.", "a\nab\n"),
        ("(?m:a.)", "a\nab\n"),
        ("(?im)A.", "a\nab\n"),
        ("a.", "ab\n"),
        ("(?-m)a.", "ab\n"),
        ("(?m)a.(?-m)", "a\nab\n"),
        # RE2's own (?s) is kept; a group naming s decides alone.
        ("(?s)a.", "a\nab\n"),
        ("(?s-m)a.", "a\nab\n"),
        ("(?m-s)a.", "ab\n"),
        # Anchors stay line anchors in either mode.
        ("(?m)^a$", "a\n"),
        ("(?m)^b", "b\n"),
    ],
)
def test_ruby_s_multi_line_flag_lets_a_dot_match_the_newline(pattern: str, kept: str) -> None:
    assert _regex.filter_lines("a\nab\nb\n", pattern, invert=False) == kept


def test_a_nul_in_filter_lines_pattern_is_not_said_to_be_a_program_argument() -> None:
    with pytest.raises(InvalidPatternError) as info:
        TextProcessingToolset().filter_lines(text="a\x00b\n", pattern="\x00")
    assert str(info.value) == (
        "`pattern` contains a NUL character (\\x00), which this tool cannot search for; leave "
        "it out"
    )


@pytest.mark.parametrize(
    "pattern",
    [r"(a)\1", "(?=a)", "(?<=a)b", "(?<!a)b", "(?>a)", "(?P<n>a)(?P=n)", "(?R)", "(?1)", "(?|a)"],
)
def test_a_construct_re2_lacks_gets_advice_naming_the_constructs(pattern: str) -> None:
    with pytest.raises(InvalidPatternError, match="without backreferences, lookahead/lookbehind"):
        TextProcessingToolset().filter_lines(text="abc\n", pattern=pattern)


def test_RE_2_the_worst_accepted_pattern_over_a_large_text_stays_well_inside_a_deadline() -> None:
    text = "".join(random.Random(0).choice("ab") for _ in range(1_000_000))
    for count in range(1000, 0, -1):  # the longest a[ab]{count}c accepted over this text
        pattern = f"a[ab]{{{count}}}c"
        started = time.perf_counter()
        try:
            assert _regex.filter_lines(text, pattern, invert=False) == ""
        except InvalidPatternError:
            continue
        break
    assert 50 < count < 1000
    assert time.perf_counter() - started < 8  # about 1 s measured; grep's default deadline is 10
