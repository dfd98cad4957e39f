"""TextProcessingToolset: the seed's eight tools, formats and recorded outputs, hardened.

Requirement IDs (security.md section 7) tested here: ARGV-6, RE-3, RE-4, DL-2, OUT-1, OUT-3,
OUT-4, TXT-1, ENV-1 (grep/rg); the attack corpus is in test_builtins_security.py.
"""

from __future__ import annotations

import contextvars
import json
import math
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.fixtures.wheel import install_wheel
from typed_toolsets import Limits, ToolProxy
from typed_toolsets.builtins.outputs import cap_answer
from typed_toolsets.definition.limits import set_call_deadline
from typed_toolsets.text import (
    InputTooLargeError,
    InvalidArgumentError,
    InvalidPatternError,
    ProgramNotFoundError,
    ProgramTimeoutError,
    TextProcessingToolset,
)

ROOT = Path(__file__).resolve().parents[1]
RECORDINGS = next(
    (
        path
        for path in (
            ROOT.parent / "shared" / "recordings" / "dsprb-toolsets.json",
            ROOT / "shared" / "recordings" / "dsprb-toolsets.json",
        )
        if path.exists()
    ),
    None,
)
HAVE_RG = shutil.which("rg") is not None


def _grep_warns() -> bool:
    """Whether this grep warns of a pattern starting with a repetition (GNU grep 3.8 and later)."""
    grep = shutil.which("grep")
    if grep is None:
        return False
    done = subprocess.run(
        [grep, "-E", "--", "+a"], input=b"", capture_output=True, check=False, timeout=30
    )
    return b"warning" in done.stderr


GREP_WARNS = _grep_warns()
needs_rg = pytest.mark.skipif(not HAVE_RG, reason="ripgrep is not installed (CI installs it)")

LOG = (
    "2024-01-01 10:00:01 INFO: Application started\n"
    "2024-01-01 10:00:05 ERROR: Connection failed\n"
    "2024-01-01 10:00:10 WARN: Retrying connection\n"
    "2024-01-01 10:00:15 INFO: Connected successfully\n"
    "2024-01-01 10:00:20 ERROR: Database timeout\n"
)


def _tools(**config: Any) -> dict[str, ToolProxy]:
    return {proxy.name: proxy for proxy in TextProcessingToolset(**config).to_tools()}


def _write_program(directory: Path, name: str, body: str) -> Path:
    path = directory / name
    path.write_text(f"#!{sys.executable}\n{body}")
    path.chmod(0o755)
    return path


# ---------------------------------------------------------------------------------- exports


def test_exports_match_the_seed() -> None:
    tools = TextProcessingToolset.to_tools()
    assert [(t.name, t.method_name, t.description) for t in tools] == [
        ("text_grep", "grep", "Search for patterns in text using grep"),
        ("text_wc", "word_count", "Count lines, words, and characters in text"),
        ("text_rg", "ripgrep", "Fast text search using ripgrep"),
        ("text_extract_lines", "extract_lines", "Extract specific line ranges from text"),
        ("text_filter_lines", "filter_lines", "Filter lines matching or not matching a pattern"),
        ("text_unique_lines", "unique_lines", "Get unique lines from text"),
        ("text_sort_lines", "sort_lines", "Sort lines in text"),
        ("text_summarize_text", "summarize_text", "Generate statistical summary of text content"),
    ]
    params = {t.name: t.parameters for t in tools}
    signature = {
        name: [
            (key, prop.get("type"), prop.get("default", "-"))
            for key, prop in p["properties"].items()
        ]
        for name, p in params.items()
    }
    assert signature == {
        "text_grep": [
            ("text", "string", "-"),
            ("pattern", "string", "-"),
            ("ignore_case", "boolean", True),
            ("count_only", "boolean", False),
        ],
        "text_wc": [
            ("text", "string", "-"),
            ("lines_only", "boolean", False),
            ("words_only", "boolean", False),
            ("chars_only", "boolean", False),
        ],
        "text_rg": [("text", "string", "-"), ("pattern", "string", "-"), ("context", "integer", 0)],
        "text_extract_lines": [
            ("text", "string", "-"),
            ("start_line", "integer", "-"),
            ("end_line", None, None),
        ],
        "text_filter_lines": [
            ("text", "string", "-"),
            ("pattern", "string", "-"),
            ("invert", "boolean", False),
        ],
        "text_unique_lines": [("text", "string", "-"), ("preserve_order", "boolean", True)],
        "text_sort_lines": [
            ("text", "string", "-"),
            ("reverse", "boolean", False),
            ("numeric", "boolean", False),
        ],
        "text_summarize_text": [("text", "string", "-")],
    }
    assert params["text_extract_lines"]["properties"]["end_line"]["anyOf"][1] == {"type": "null"}
    assert {name: p["required"] for name, p in params.items()} == {
        "text_grep": ["text", "pattern"],
        "text_wc": ["text"],
        "text_rg": ["text", "pattern"],
        "text_extract_lines": ["text", "start_line"],
        "text_filter_lines": ["text", "pattern"],
        "text_unique_lines": ["text"],
        "text_sort_lines": ["text"],
        "text_summarize_text": ["text"],
    }


def test_import_typed_toolsets_does_not_load_text() -> None:
    code = (
        "import sys, typed_toolsets; typed_toolsets.Toolset; typed_toolsets.tool; "
        "assert 'typed_toolsets.text' not in sys.modules, 'text loaded'; "
        "assert 're2' not in sys.modules, 're2 loaded'; print('ok')"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.stdout.strip() == "ok", done.stderr


# -------------------------------------------------------------------- recorded seed calls


ARTEFACTS = {("text_grep", "ERROR|WARN"), ("text_grep", "\\d+")}


def test_recorded_calls_match() -> None:
    if RECORDINGS is None:
        pytest.skip("shared/recordings/dsprb-toolsets.json is not beside the repository")
    cases = [c for c in json.loads(RECORDINGS.read_text())["cases"] if c["toolset"] == "text"]
    assert len(cases) == 14
    tools = _tools()
    checked = 0
    for case in cases:
        if (case["tool"], case["input"].get("pattern")) in ARTEFACTS:
            continue
        assert tools[case["tool"]].dynamic_call(case["input"]) == case["output"], case["cassette"]
        checked += 1
    assert checked == 12


def test_recorded_basic_regex_artefacts_are_fixed_by_extended_grep() -> None:
    """The seed's BRE grep found nothing for ``ERROR|WARN``; ``grep -E`` finds the lines."""
    grep = _tools()["text_grep"]
    assert grep.dynamic_call({"text": LOG, "pattern": "ERROR|WARN"}) == (
        "2024-01-01 10:00:05 ERROR: Connection failed\n"
        "2024-01-01 10:00:10 WARN: Retrying connection\n"
        "2024-01-01 10:00:20 ERROR: Database timeout\n"
    )
    assert grep.dynamic_call({"text": LOG, "pattern": "[0-9]+ ERROR", "count_only": True}) == (
        "Found 2 matches for pattern '[0-9]+ ERROR'"
    )
    # \d is not a digit class in grep (it would match a literal "d"): refused, with [0-9].
    assert grep.dynamic_call({"text": "abc 123\nd\n", "pattern": "\\d"}) == (
        "Error: Tool 'text_grep' failed: InvalidPatternError: `pattern` has \\d, which grep's "
        "POSIX extended regular expressions lack: grep would read it as the letter d; write "
        "[0-9] for a digit, or use text_rg"
    )


@pytest.mark.parametrize(
    ("pattern", "advice"),
    [
        ("\\d+", "as the letter d; write [0-9] for a digit, or use text_rg"),
        ("name\\tage", "as the letter t; write the tab character itself, or [[:blank:]] for"),
        ("foo\\r$", "as the letter r; write the carriage return itself"),
        ("\\p{L}+", "as the letter p; write a class such as [[:alpha:]], or use text_rg"),
        ("\\x41", "as the letter x; use text_rg, which takes Perl-style escapes"),
        ("[\\d\\s]+", "\\d inside [...], where grep reads a backslash as itself: it would match"),
        ("[^]\\w]", "\\w inside [...]"),
        # GNU grep's anchors: don\'t matched nothing (\' is the end of the line to grep).
        ("don\\'t", "has \\', which grep reads as the end of the line, not as the character '"),
        ("\\`name", "grep reads as the start of the line, not as the character `; write `"),
        ("\\<b\\>", "has \\<, which grep reads as the start of a word, not as the character <"),
        ("a\\>", "the end of a word, not as the character >; write > itself for the character"),
    ],
)
def test_grep_refuses_an_escaped_letter_it_would_read_as_the_letter(
    pattern: str, advice: str
) -> None:
    # They matched lines holding the letter (\t: a "t"), or none: a wrong answer, unannounced.
    answer = _tools()["text_grep"].dynamic_call({"text": "name\tage\nbob\tt\n", "pattern": pattern})
    assert answer.startswith("Error: Tool 'text_grep' failed: InvalidPatternError: `pattern` has ")
    assert advice in answer


@pytest.mark.parametrize(
    "pattern",
    [
        "\\w+\\s\\b",
        "\\bword\\B",
        "a\\.b\\|c",
        "[[:digit:]]+",
        "[^\\]]",
        "[]a]",
        "x\\{2\\}",
        # Two backslashes in a class are a backslash, as the writer meant ([\\a-z]: it was
        # refused as "\a inside [...]").
        "C:[\\\\a-z]+",
        "[^\\\\n]+$",
    ],
)
def test_grep_takes_the_escapes_it_has(pattern: str) -> None:
    answer = _tools()["text_grep"].dynamic_call({"text": "a word\n", "pattern": pattern})
    assert not answer.startswith("Error:"), answer


@pytest.mark.parametrize(
    ("pattern", "warning"),
    [
        ("(?i)foo", "? at start of expression"),
        ("+", "+ at start of expression"),
        ("(?P<x>foo)", "? at start of expression"),
        ("*foo", "* at start of expression"),
    ],
)
@pytest.mark.skipif(not GREP_WARNS, reason="this grep prints no warnings (GNU grep before 3.8)")
def test_a_pattern_grep_warns_about_is_refused_with_its_warning(pattern: str, warning: str) -> None:
    # grep warned on stderr and answered: no match at all for (?i)foo, every line for +.
    answer = _tools()["text_grep"].dynamic_call(
        {"text": "foo\nFOO bar\npath\n", "pattern": pattern}
    )
    assert answer == (
        f"Error: Tool 'text_grep' failed: InvalidPatternError: grep rejected the pattern "
        f"{pattern!r}: grep: warning: {warning} (grep takes POSIX extended regular "
        "expressions: use [0-9] for digits, or text_rg for Perl-style classes)"
    )


@pytest.mark.skipif(not GREP_WARNS, reason="this grep prints no warnings (GNU grep before 3.8)")
def test_a_warned_pattern_is_refused_when_grep_is_stopped_at_the_output_cap() -> None:
    # A grep killed at the cap (exit -9) was not looked at for warnings: "+" then returned
    # every line of a long text, while a short one was refused.
    grep = _tools(max_output_bytes=1000)["text_grep"]
    for lines in (10, 100_000):
        answer = grep.dynamic_call({"text": "x\n" * lines, "pattern": "+"})
        assert answer.startswith(
            "Error: Tool 'text_grep' failed: InvalidPatternError: grep rejected the pattern '+': "
            "grep: warning: + at start of expression"
        ), (lines, answer[:80])


@pytest.mark.parametrize("pattern", ["[", "a[", "(a)["])
def test_a_bracket_left_open_at_the_end_gets_the_advice_on_brackets(pattern: str) -> None:
    # GNU grep says only "Invalid regular expression" there; the advice was about digits.
    answer = _tools()["text_grep"].dynamic_call({"text": "a\n", "pattern": pattern})
    assert answer == (
        f"Error: Tool 'text_grep' failed: InvalidPatternError: grep rejected the pattern "
        f"'{pattern}': grep: Invalid regular expression (every ( needs its ) and every [ its ]; "
        "to match one literally, put a backslash before it)"
    )


# ------------------------------------------------------------------------------------ grep


def test_grep_formats() -> None:
    grep = _tools()["text_grep"]
    assert grep.dynamic_call({"text": LOG, "pattern": "error"}) == (
        "2024-01-01 10:00:05 ERROR: Connection failed\n"
        "2024-01-01 10:00:20 ERROR: Database timeout\n"
    )
    assert grep.dynamic_call({"text": LOG, "pattern": "error", "ignore_case": False}) == (
        "No matches found for pattern 'error'"
    )
    assert grep.dynamic_call({"text": LOG, "pattern": "zzz", "count_only": True}) == (
        "Found 0 matches for pattern 'zzz'"
    )
    assert grep.dynamic_call({"text": "", "pattern": "a"}) == "No matches found for pattern 'a'"
    assert grep.dynamic_call({"text": "last line", "pattern": "last"}) == "last line\n"


def test_grep_treats_dash_patterns_and_quotes_as_patterns() -> None:
    grep = _tools()["text_grep"]
    text = "-v\nx'; touch /tmp/p; echo '\nplain\n"
    assert grep.dynamic_call({"text": text, "pattern": "-v"}) == "-v\n"
    assert grep.dynamic_call({"text": text, "pattern": "x'; touch"}) == "x'; touch /tmp/p; echo '\n"


def test_grep_invalid_pattern_is_a_distinct_error() -> None:
    grep = _tools()["text_grep"]
    message = grep.dynamic_call({"text": "a(b", "pattern": "a(b"})
    assert message.startswith("Error: Tool 'text_grep' failed: InvalidPatternError: ")
    assert "grep rejected the pattern 'a(b'" in message
    assert "Unmatched ( or \\(" in message
    assert "No matches found" not in message
    with pytest.raises(InvalidPatternError):
        TextProcessingToolset().grep(text="x", pattern="[z")


def test_grep_text_with_nul_is_searched_as_text() -> None:
    assert _tools()["text_grep"].dynamic_call({"text": "a\x00b\nc\n", "pattern": "a"}) == (
        "a\\x00b\n"
    )


# -------------------------------------------------------------------------------------- rg


@needs_rg
def test_rg_formats_context_and_case() -> None:
    rg = _tools()["text_rg"]
    text = "one\ntwo 2\nthree\nfour\nfive 5\nsix\nseven\neight\nnine 9\n"
    assert rg.dynamic_call({"text": text, "pattern": "\\d"}) == "two 2\nfive 5\nnine 9\n"
    assert (
        rg.dynamic_call({"text": text, "pattern": "NINE"}) == "No matches found for pattern 'NINE'"
    )
    assert rg.dynamic_call({"text": text, "pattern": "^(two|nine)", "context": 1}) == (
        "one\ntwo 2\nthree\n--\neight\nnine 9\n"
    )
    assert rg.dynamic_call({"text": text, "pattern": "five", "context": 0}) == "five 5\n"


@needs_rg
def test_rg_keeps_a_leading_byte_order_mark_as_grep_does() -> None:
    # rg's BOM sniffing dropped U+FEFF from the line it printed, and let ^abc match after it.
    tools = _tools()
    text = "\ufeffabc\nx\n"
    assert tools["text_rg"].dynamic_call({"text": text, "pattern": "b"}) == "\ufeffabc\n"
    assert tools["text_grep"].dynamic_call({"text": text, "pattern": "b"}) == "\ufeffabc\n"
    assert tools["text_rg"].dynamic_call({"text": text, "pattern": "^abc"}) == (
        "No matches found for pattern '^abc'"
    )


@needs_rg
def test_rg_invalid_pattern_is_a_distinct_error() -> None:
    message = _tools()["text_rg"].dynamic_call({"text": "a", "pattern": "("})
    assert message.startswith("Error: Tool 'text_rg' failed: InvalidPatternError: ripgrep rejected")
    assert "unclosed group" in message
    message = _tools()["text_rg"].dynamic_call({"text": "a", "pattern": "a\nb"})
    assert "InvalidPatternError" in message


@needs_rg
@pytest.mark.parametrize(
    ("pattern", "quoted", "carets"),
    [
        # rg's caret stood under the x of the escaped ESC, not under the [ it marks.
        ("\x1b[31m(", "    \\x1b[31m(", "        ^"),
        ("\x1b\x07a{2,1}", "    \\x1b\\x07a{2,1}", "             ^^^^^"),
        ("a{2,1}", "    a{2,1}", "     ^^^^^"),
    ],
)
def test_rg_s_carets_stay_under_what_they_mark_when_the_pattern_is_escaped(
    pattern: str, quoted: str, carets: str
) -> None:
    with pytest.raises(InvalidPatternError) as info:
        TextProcessingToolset().ripgrep(text="a\n", pattern=pattern)
    lines = str(info.value).split("\n")
    at = lines.index(quoted)
    assert lines[at + 1] == carets
    assert quoted.index("[" if "[" in quoted else "{") == carets.index("^")


@needs_rg
@pytest.mark.parametrize(
    ("pattern", "advice"),
    [
        ("foo(?=bar)", "has no look-around"),
        ("(?<=a)b", "has no look-around"),
        (r"(a)\1", "has no backreferences"),
        (r"a\nb", "no match can contain a newline"),
    ],
)
def test_rg_errors_give_advice_text_rg_can_follow(pattern: str, advice: str) -> None:
    # rg itself suggests --pcre2 or --multiline, flags the tool cannot pass.
    with pytest.raises(InvalidPatternError) as info:
        TextProcessingToolset().ripgrep(text="foobar\n", pattern=pattern)
    message = str(info.value)
    assert message.startswith(f"ripgrep rejected the pattern '{pattern}': ")
    assert advice in message
    assert "Consider enabling" not in message
    assert "--pcre2" not in message
    assert "--multiline" not in message


def test_a_newline_in_an_rg_pattern_is_refused_before_rg_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # no rg: the check comes first
    with pytest.raises(InvalidPatternError, match="contains a newline; ripgrep matches one line"):
        TextProcessingToolset().ripgrep(text="a\nb\n", pattern="a\nb")


# ------------------------------------------------------------------- missing programs etc.


@pytest.mark.parametrize(("tool", "program"), [("text_grep", "grep"), ("text_rg", "rg")])
def test_missing_program_is_a_distinct_error(
    tool: str, program: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    message = _tools()[tool].dynamic_call({"text": "a", "pattern": "a"})
    assert message.startswith(f"Error: Tool '{tool}' failed: ProgramNotFoundError: ")
    assert f"the '{program}' program was not found on PATH" in message
    with pytest.raises(ProgramNotFoundError):
        getattr(TextProcessingToolset(), _tools()[tool].method_name)(text="a", pattern="a")


def test_program_is_looked_up_on_path_at_each_call(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tools = _tools()
    assert tools["text_grep"].dynamic_call({"text": "a", "pattern": "a"}) == "a\n"
    _write_program(tmp_path, "grep", "print('from the fake grep')")
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    assert tools["text_grep"].dynamic_call({"text": "a", "pattern": "a"}) == "from the fake grep\n"


@pytest.mark.parametrize("program", ["grep", "rg"])
def test_ENV_1_search_programs_get_only_path_and_locale(
    program: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _write_program(
        tmp_path, program, "import os, sys; print(sorted(os.environ)); print(sys.argv[1:])"
    )
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("RIPGREP_CONFIG_PATH", "/tmp/evil-rg-config")
    monkeypatch.setenv("GH_TOKEN", "ghp_SENTINEL_SECRET")
    monkeypatch.setenv("GREP_OPTIONS", "-v")
    toolset = TextProcessingToolset()
    output = (
        toolset.grep(text="x", pattern="x")
        if program == "grep"
        else toolset.ripgrep(text="x", pattern="x")
    )
    names, argv = output.splitlines()
    assert names == str(sorted(["PATH", "LC_ALL"]))
    assert "SENTINEL" not in output
    expected = (
        ["-E", "--color=never", "--binary-files=text", "-i", "-e", "x", "--", "-"]
        if program == "grep"
        else [
            "--no-config",
            "--color=never",
            "--no-line-number",
            "--no-filename",
            "--text",
            "--encoding=none",
            "-e",
            "x",
            "--",
            "-",
        ]
    )
    assert argv == str(expected)


# -------------------------------------------------------------------- deadlines and caps


@pytest.mark.slow
@pytest.mark.usefixtures("no_leaks")
def test_DL_2_RE_4_grep_backreference_blowup_hits_the_deadline() -> None:
    toolset = TextProcessingToolset(timeout=2.0)
    started = time.monotonic()
    with pytest.raises(ProgramTimeoutError, match="grep did not finish within 2 seconds"):
        toolset.grep(text="a" * 4000 + "b\n", pattern="^(a|aa)+\\1$")
    assert time.monotonic() - started < 2.5


@pytest.mark.usefixtures("no_leaks")
def test_a_pattern_that_needs_gigabytes_is_refused_at_the_memory_cap() -> None:
    # GNU grep compiles a{1,32767} into gigabytes within seconds (8 GB before a 10 s deadline).
    # A cap below the default (1 GiB) keeps the test light on a small CI machine.
    assert TextProcessingToolset().max_memory_bytes == 1 << 30
    toolset = TextProcessingToolset(timeout=5.0, max_memory_bytes=256 << 20)
    started = time.monotonic()
    with pytest.raises(InvalidPatternError) as info:
        toolset.grep(text="aaaa\n", pattern="a{1,32767}")
    assert time.monotonic() - started < 4.0
    assert str(info.value) == (
        "grep ran out of memory on the pattern 'a{1,32767}' (a search may use 256 MiB); use "
        "smaller repetition counts (a{1,50} rather than a{1,32767}) or a simpler pattern, or "
        "search less text"
    )


@needs_rg
@pytest.mark.usefixtures("no_leaks")
def test_rg_out_of_memory_is_the_same_error_not_a_crash() -> None:
    # rg aborts (SIGABRT) when an allocation fails; it is the pattern's fault, said plainly.
    tools = _tools(max_memory_bytes=64 << 20)
    message = tools["text_rg"].dynamic_call({"text": "aaaa\n", "pattern": "(a{1,1000}){1,1000}"})
    assert message.startswith(
        "Error: Tool 'text_rg' failed: InvalidPatternError: ripgrep ran out of memory on the "
        "pattern '(a{1,1000}){1,1000}' (a search may use 64 MiB); "
    )
    assert tools["text_rg"].dynamic_call({"text": "aaaa\n", "pattern": "a"}) == "aaaa\n"


@pytest.mark.usefixtures("no_leaks")
def test_timeout_is_a_distinct_error_on_the_model_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _write_program(tmp_path, "rg", "import time; time.sleep(30)")
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    started = time.monotonic()
    message = _tools(timeout=0.3)["text_rg"].dynamic_call({"text": "a", "pattern": "a"})
    assert message.startswith(
        "Error: Tool 'text_rg' failed: ProgramTimeoutError: rg did not finish"
    )
    assert time.monotonic() - started < 1.5


def test_a_call_deadline_kills_the_program_not_only_stops_waiting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SPEC section 5: at a Limits.timeout, a built-in's process group is killed."""
    pid_file = tmp_path / "rg.pid"
    body = f"import os, time; open({str(pid_file)!r}, 'w').write(str(os.getpid())); time.sleep(30)"
    _write_program(tmp_path, "rg", body)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")

    class Bounded(TextProcessingToolset):
        limits = Limits(timeout=0.5)

    rg = {t.name: t for t in Bounded(timeout=8.0).to_tools()}["text_rg"]
    result = rg.invoke({"text": "a", "pattern": "a"})
    assert result.error is not None
    assert result.error.kind == "timeout"
    pid = int(pid_file.read_text())
    gone_by = time.monotonic() + 2.0  # the toolset's own 8 s deadline is far later
    while Path(f"/proc/{pid}").exists() and time.monotonic() < gone_by:
        time.sleep(0.02)
    assert not Path(f"/proc/{pid}").exists(), "rg still runs after the call's deadline"


def test_a_timeout_of_one_second_is_said_in_the_singular(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _write_program(tmp_path, "rg", "import time; time.sleep(30)")
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    with pytest.raises(ProgramTimeoutError, match="rg did not finish within 1 second and"):
        TextProcessingToolset(timeout=1).ripgrep(text="a", pattern="a")


def test_a_program_is_not_started_once_the_call_deadline_has_passed() -> None:
    # What an abandoned call's thread meets when it goes on to start a program after its caller
    # has given up. (In a copy of the context: the deadline must not outlive this test.)
    def late_grep() -> str:
        set_call_deadline(time.monotonic() - 1.0)
        return TextProcessingToolset().grep(text="a", pattern="a")

    with pytest.raises(ProgramTimeoutError, match="grep was not started: the call's deadline"):
        contextvars.copy_context().run(late_grep)


@pytest.mark.parametrize("pattern", ["a", "^a\\s", "\\Aa"])
def test_filter_lines_stops_at_the_toolset_s_timeout(pattern: str) -> None:
    # A search per kept line costs microseconds: a million lines ran for 9 to 21 s, unbounded
    # (and on in an abandoned thread after its call's Limits.timeout).
    toolset = TextProcessingToolset(timeout=0.2)
    started = time.monotonic()
    with pytest.raises(ProgramTimeoutError) as raised:
        toolset.filter_lines(text="a\n" * 1_000_000, pattern=pattern)
    assert time.monotonic() - started < 5
    assert str(raised.value) == (
        "filter_lines did not finish within 0.2 seconds and was stopped (the lines matched so "
        "far are not returned); search less text or use a simpler pattern"
    )


def test_filter_lines_stops_at_the_call_s_deadline() -> None:
    def in_a_timed_call() -> str:
        set_call_deadline(time.monotonic() + 0.2)
        return TextProcessingToolset().filter_lines(text="a\n" * 1_000_000, pattern="a")

    started = time.monotonic()
    with pytest.raises(ProgramTimeoutError, match=r"within the call's Limits\.timeout and was"):
        contextvars.copy_context().run(in_a_timed_call)
    assert time.monotonic() - started < 5


@pytest.mark.usefixtures("no_leaks")
@pytest.mark.parametrize(
    ("method", "arguments"),
    [
        ("grep", {"pattern": "^"}),
        ("ripgrep", {"pattern": "^"}),
        ("extract_lines", {"start_line": 1, "end_line": 0}),
        ("filter_lines", {"pattern": "^"}),
        ("unique_lines", {}),
        ("sort_lines", {}),
    ],
)
def test_OUT_1_the_cap_applies_to_what_is_returned_after_escaping(
    method: str, arguments: dict[str, Any]
) -> None:
    # 9,000 bytes of text, under the cap; escaped, each NUL becomes the four characters \x00.
    text = "".join(f"{i:04d}" + "\x00" * 5 + "\n" for i in range(900))
    toolset = TextProcessingToolset(max_output_bytes=10_000)
    output = getattr(toolset, method)(text=text, **arguments)
    assert len(output.encode()) <= 10_000
    body, note = output.rsplit("\n", 1)
    assert note.startswith("[truncated: the output exceeded 10,000 bytes; ")
    assert all(line.endswith("\\x00" * 5) for line in body.split("\n"))


@pytest.mark.usefixtures("no_leaks")
@pytest.mark.parametrize(
    ("tool", "arguments"),
    [
        # The most frequent words are printed whole: one word can be the whole text.
        ("text_summarize_text", {"text": "w" * 5_000}),
        # The seed's answers quote the pattern (up to 4 KB, and up to 16 KB once escaped).
        ("text_grep", {"text": "a\n", "pattern": "\x1b" * 1_000}),
        ("text_grep", {"text": "a\n", "pattern": "\x1b" * 1_000, "count_only": True}),
        ("text_rg", {"text": "a\n", "pattern": "z" * 4_000}),
    ],
)
def test_OUT_1_every_answer_is_within_the_cap(tool: str, arguments: dict[str, Any]) -> None:
    output = _tools(max_output_bytes=1_000)[tool].dynamic_call(arguments)
    assert len(output.encode()) <= 1_000
    assert output.endswith("]")
    assert "[truncated: the output exceeded 1,000 bytes; " in output


def test_OUT_1_a_first_line_longer_than_the_cap_is_cut_inside_it_at_a_character() -> None:
    # 55 bytes less the note and its newline leave 49: 24 two-byte characters and half of one.
    assert cap_answer("é" * 100, max_bytes=55, note="[cut]") == "é" * 24 + "\n[cut]"
    assert cap_answer("short\n", max_bytes=60, note="[cut]") == "short\n"
    assert cap_answer("short\n", max_bytes=60, note="[cut]", cut=True) == "short\n[cut]"


@pytest.mark.parametrize("prefix", range(4))
def test_OUT_1_a_first_line_cut_inside_it_is_not_cut_inside_an_escape(prefix: int) -> None:
    # 200 bytes less the note and its newline: the cut falls at each of an escape's 4 places.
    toolset = TextProcessingToolset(max_output_bytes=200)
    output = toolset.filter_lines(text="a" * prefix + "\x1b" * 100 + "\n", pattern="^")
    body, note = output.rsplit("\n", 1)
    assert note.startswith("[truncated: ")
    assert re.fullmatch(r"a*(\\x1b)+", body), body[-8:]
    assert len(output.encode()) <= 200


@pytest.mark.usefixtures("no_leaks")
@pytest.mark.parametrize("cap", [1, 20, 80, 81])
def test_OUT_1_a_cap_smaller_than_the_note_still_bounds_the_answer(cap: int) -> None:
    note = "[truncated: the output exceeded {:,} bytes; refine the pattern or search less text]"
    output = TextProcessingToolset(max_output_bytes=cap).grep(text="a" * 200, pattern="a")
    assert output == note.format(cap)[:cap]


@pytest.mark.usefixtures("no_leaks")
def test_OUT_1_OUT_3_output_cap_keeps_whole_lines_and_says_so() -> None:
    text = "".join(f"match line {i:06d}\n" for i in range(20_000))
    output = TextProcessingToolset(max_output_bytes=10_000).grep(text=text, pattern="match")
    body, note = output.rsplit("\n", 1)
    assert (
        note
        == "[truncated: the output exceeded 10,000 bytes; refine the pattern or search less text]"
    )
    assert len(body.encode()) <= 10_000
    assert all(line.startswith("match line ") and len(line) == 17 for line in body.split("\n"))


def test_OUT_4_control_characters_in_output_are_escaped() -> None:
    text = "\x1b]0;pwned\x07\x1b[31mRED\nplain\r\nbare\rreturn\n"
    output = _tools()["text_grep"].dynamic_call({"text": text, "pattern": "RED|plain|bare"})
    assert "\x1b" not in output
    assert "\x07" not in output
    assert output == "\\x1b]0;pwned\\x07\\x1b[31mRED\nplain\r\nbare\\x0dreturn\n"


#: Each line carries control characters: OSC and CSI escapes, BEL, a C1 CSI, DEL and a bare CR.
HOSTILE = "plain\n\x1b]0;pwned\x07\x1b[31mred\x1b[0m\n\x9b2J bell\x07\r\nlone\rcr\x7f\n"
HOSTILE_ESCAPED_TAIL = (
    "\\x1b]0;pwned\\x07\\x1b[31mred\\x1b[0m\n\\x9b2J bell\\x07\r\nlone\\x0dcr\\x7f\n"
)


def _raw_controls(text: str) -> list[str]:
    """Control characters other than tab, newline and a CRLF's carriage return."""
    return [
        c
        for c in text.replace("\r\n", "\n")
        if (ord(c) < 0x20 and c not in "\t\n") or 0x7F <= ord(c) < 0xA0
    ]


@needs_rg
def test_every_text_tool_escapes_control_characters() -> None:
    tools = _tools()
    calls: dict[str, dict[str, object]] = {
        "text_grep": {"text": HOSTILE, "pattern": "."},
        "text_wc": {"text": HOSTILE},
        "text_rg": {"text": HOSTILE, "pattern": "."},
        "text_extract_lines": {"text": HOSTILE, "start_line": 1, "end_line": 0},
        "text_filter_lines": {"text": HOSTILE, "pattern": "."},
        "text_unique_lines": {"text": HOSTILE},
        "text_sort_lines": {"text": HOSTILE},
        "text_summarize_text": {"text": HOSTILE},
    }
    assert set(calls) == set(tools)
    for name, arguments in calls.items():
        output = tools[name].dynamic_call(arguments)
        assert not output.startswith("Error"), (name, output)
        assert _raw_controls(output) == [], (name, output)


#: A line a reader sees as "amount: 100 amount: 1000" while it holds another order.
REORDERED = "amount: 100 \u202e0001 :tnuoma\u202c \u2067x\u2069\n"


@needs_rg
def test_bidirectional_overrides_are_escaped_in_every_answer() -> None:
    # They came back raw ("Trojan Source"): the text shown was not the text there.
    tools = _tools()
    escaped = "amount: 100 \\u202e0001 :tnuoma\\u202c \\u2067x\\u2069\n"
    for name in ("text_grep", "text_rg", "text_filter_lines"):
        assert tools[name].dynamic_call({"text": REORDERED, "pattern": "amount"}) == escaped
    for name in ("text_sort_lines", "text_unique_lines"):
        assert tools[name].dynamic_call({"text": REORDERED}) == escaped
    assert tools["text_grep"].dynamic_call({"text": "x\n", "pattern": "\u202eabc"}) == (
        "No matches found for pattern '\\u202eabc'"
    )
    # Right-to-left letters, and the marks of their direction, are text: kept as they are.
    hebrew = "\u05e9\u05dc\u05d5\u05dd \u200f!\n"
    assert tools["text_sort_lines"].dynamic_call({"text": hebrew}) == hebrew


@needs_rg
def test_program_and_pure_python_outputs_are_escaped_the_same_way() -> None:
    tools = _tools()
    lines = {
        "text_grep": tools["text_grep"].dynamic_call({"text": HOSTILE, "pattern": "red|bell|lone"}),
        "text_rg": tools["text_rg"].dynamic_call({"text": HOSTILE, "pattern": "red|bell|lone"}),
        "text_filter_lines": tools["text_filter_lines"].dynamic_call(
            {"text": HOSTILE, "pattern": "red|bell|lone"}
        ),
        "text_extract_lines": tools["text_extract_lines"].dynamic_call(
            {"text": HOSTILE, "start_line": 2, "end_line": 4}
        ),
        "text_filter_lines inverted": tools["text_filter_lines"].dynamic_call(
            {"text": HOSTILE, "pattern": "^plain$", "invert": True}
        ),
    }
    assert lines == dict.fromkeys(lines, HOSTILE_ESCAPED_TAIL)
    # sort and unique chomp each line (dropping its CR LF) and end every line with a newline;
    # lines are sorted by their raw text (code points), then escaped.
    assert tools["text_unique_lines"].dynamic_call({"text": HOSTILE}) == (
        "plain\n" + HOSTILE_ESCAPED_TAIL.replace("\r\n", "\n")
    )
    assert tools["text_sort_lines"].dynamic_call({"text": HOSTILE, "reverse": True}) == (
        "\\x9b2J bell\\x07\nplain\nlone\\x0dcr\\x7f\n\\x1b]0;pwned\\x07\\x1b[31mred\\x1b[0m\n"
    )


@needs_rg
@pytest.mark.parametrize("tool", ["text_grep", "text_rg"])
def test_the_pattern_echoed_in_an_answer_is_escaped(tool: str) -> None:
    proxy = _tools()[tool]
    pattern = "\x1b]0;pwned\x07zzz"
    assert proxy.dynamic_call({"text": "a\n", "pattern": pattern}) == (
        "No matches found for pattern '\\x1b]0;pwned\\x07zzz'"
    )
    if tool == "text_grep":
        counted = proxy.dynamic_call({"text": "a\n", "pattern": pattern, "count_only": True})
        assert counted == "Found 0 matches for pattern '\\x1b]0;pwned\\x07zzz'"


def test_errors_quoting_a_pattern_are_escaped() -> None:
    tools = _tools()
    for name in ("text_grep", "text_filter_lines"):
        message = tools[name].dynamic_call({"text": "a", "pattern": "(\x1b]0;x\x07"})
        assert message.startswith(f"Error: Tool '{name}' failed: InvalidPatternError: ")
        assert _raw_controls(message) == [], message
        assert "\\x1b]0;x\\x07" in message


@pytest.mark.parametrize("tool", ["text_grep", "text_rg"])
def test_RE_3_oversized_text_is_refused_before_running(tool: str) -> None:
    if tool == "text_rg" and not HAVE_RG:
        pytest.skip("ripgrep is not installed")
    toolset = TextProcessingToolset(max_text_bytes=1000)
    proxy = {p.name: p for p in toolset.to_tools()}[tool]
    message = proxy.dynamic_call({"text": "é" * 501, "pattern": "a"})
    assert message.endswith(
        "InputTooLargeError: `text` is 1,002 bytes (UTF-8); the limit is 1,000 bytes; send a "
        "smaller part of the text"
    )


def test_RE_3_default_cap_is_8_mb_on_every_tool() -> None:
    toolset = TextProcessingToolset()
    text = "a" * (11 * 1024 * 1024)
    calls = [
        lambda: toolset.grep(text=text, pattern="a"),
        lambda: toolset.ripgrep(text=text, pattern="a"),
        lambda: toolset.word_count(text=text),
        lambda: toolset.extract_lines(text=text, start_line=1),
        lambda: toolset.filter_lines(text=text, pattern="a"),
        lambda: toolset.unique_lines(text=text),
        lambda: toolset.sort_lines(text=text),
        lambda: toolset.summarize_text(text=text),
    ]
    for call in calls:
        started = time.perf_counter()
        with pytest.raises(InputTooLargeError, match="more than 8,000,000 bytes"):
            call()
        assert time.perf_counter() - started < 0.1
    fits = "a" * 8_000_000
    assert toolset.word_count(text=fits, chars_only=True) == "Characters: 8000000"


def test_RE_3_line_cap_for_tools_holding_every_line() -> None:
    toolset = TextProcessingToolset(max_lines=3)
    assert toolset.sort_lines(text="c\nb\na\n") == "a\nb\nc\n"
    with pytest.raises(InputTooLargeError, match="`text` has 4 lines; the limit is 3 lines"):
        toolset.unique_lines(text="a\nb\nc\nd")
    assert toolset.word_count(text="a\nb\nc\nd\n", lines_only=True) == "Lines: 4"


@pytest.mark.parametrize(
    ("pattern", "fragment"),
    [
        ("", "`pattern` is empty"),
        ("a\x00b", "NUL"),
        ("\ud800", "lone surrogate"),
        ("a" * 131072, "4,096 bytes"),
        ("é" * 2049, "4,098 bytes"),
        ("zzz\n", "contains a newline"),
    ],
)
def test_ARGV_6_bad_patterns_are_structured_errors(pattern: str, fragment: str) -> None:
    toolset = TextProcessingToolset()
    with pytest.raises(InvalidArgumentError, match=fragment):
        toolset.grep(text="zzz\nall\n", pattern=pattern)
    result = {p.name: p for p in toolset.to_tools()}["text_grep"].invoke(
        {"text": "zzz\nall\n", "pattern": pattern}
    )
    assert not result.ok
    assert result.error is not None
    assert result.error.kind in ("arguments", "execution")


def test_newline_is_fine_in_filter_patterns() -> None:
    # As in the seed, each line is matched with its newline, so "a\n" matches too.
    assert TextProcessingToolset().filter_lines(text="a\nb\nc\n", pattern="a\n|b") == "a\nb\n"


# ---------------------------------------------------------------------- pure Python tools


def test_wc_extract_unique_sort_through_the_model_path() -> None:
    tools = _tools()
    assert tools["text_wc"].dynamic_call({"text": "one two\nthree"}) == (
        "Lines: 2, Words: 3, Characters: 13"
    )
    assert tools["text_wc"].dynamic_call({"text": "a b", "chars_only": True}) == "Characters: 3"
    assert tools["text_extract_lines"].dynamic_call({"text": "a\nb\nc", "start_line": 2}) == "b\n"
    assert (
        tools["text_extract_lines"].dynamic_call(
            {"text": "a\nb\nc", "start_line": 1, "end_line": 0}
        )
        == "a\nb\nc"
    )
    assert (
        tools["text_extract_lines"].dynamic_call(
            {"text": "a\nb\nc", "start_line": 2, "end_line": None}
        )
        == "b\n"
    )
    assert tools["text_unique_lines"].dynamic_call(
        {"text": "b\na\nb", "preserve_order": False}
    ) == ("a\nb\n")
    assert tools["text_sort_lines"].dynamic_call({"text": "10\n9\nx", "numeric": True}) == (
        "x\n9\n10\n"
    )


def test_filter_lines_errors_and_linear_time() -> None:
    tools = _tools()
    message = tools["text_filter_lines"].dynamic_call({"text": "aa", "pattern": "(a)\\1"})
    assert message.startswith("Error: Tool 'text_filter_lines' failed: InvalidPatternError: RE2")
    started = time.perf_counter()
    assert (
        tools["text_filter_lines"].dynamic_call({"text": "a" * 500_000 + "!", "pattern": "(a+)+$"})
        == ""
    )
    assert time.perf_counter() - started < 0.5


TXT_NUMBERS: list[tuple[object, bool]] = [
    (0, True),
    (-1, True),
    (2**63, False),
    (10**30, False),
    (True, False),
    ("7", False),
    (7.0, True),
    (7.5, False),
    (math.nan, False),
    (math.inf, False),
]


@pytest.mark.parametrize(("number", "accepted"), TXT_NUMBERS)
def test_TXT_1_line_numbers_are_strict_bounded_ints(number: object, accepted: bool) -> None:
    """TXT-1's numbers corpus, on the model path (the schema's job; see the next test for the
    direct path). 0 and -1 keep the seed's meaning (line 1 / the last lines)."""
    proxy = _tools()["text_extract_lines"]
    for arguments in (
        {"text": "a\nb\nc", "start_line": number},
        {"text": "a\nb\nc", "start_line": 1, "end_line": number},
    ):
        result = proxy.invoke(arguments)
        assert result.ok is accepted, (arguments, result)
        if not accepted:
            assert result.error is not None
            assert result.error.kind == "arguments"
            assert "start_line" in result.error.message or "end_line" in result.error.message


def test_direct_path_line_numbers_need_no_bounds_to_be_safe() -> None:
    # The direct path trusts its caller's types (docs: "Which checks run where"). Line numbers
    # stay in Python and cost nothing however large, so the schema's bounds are not re-checked.
    toolset = TextProcessingToolset()
    started = time.perf_counter()
    for huge, from_start, through_end in (
        (2**63, "", "a\nb\nc"),
        (10**30, "", "a\nb\nc"),
        (-(10**30), "a\n", ""),
    ):
        assert toolset.extract_lines(text="a\nb\nc", start_line=huge) == from_start
        assert toolset.extract_lines(text="a\nb\nc", start_line=1, end_line=huge) == through_end
    assert time.perf_counter() - started < 0.1


def test_TXT_1_json_numbers_on_the_model_path() -> None:
    proxy = _tools()["text_extract_lines"]
    for document in (
        '{"text":"a","start_line":NaN}',
        '{"text":"a","start_line":1e400}',
        '{"text":"a","start_line":Infinity}',
    ):
        result = proxy.invoke(document)
        assert not result.ok
    assert proxy.dynamic_call('{"text":"a\\nb","start_line":2.0}') == "b"


def test_direct_call_keeps_the_checks_that_guard_the_process() -> None:
    # The rule (docs: "Which checks run where"): values that reach grep's or rg's argument
    # vector or stdin, and every size, are checked on the direct path too.
    toolset = TextProcessingToolset(max_text_bytes=10)
    with pytest.raises(InvalidArgumentError, match="`context` must be between 0 and 100"):
        toolset.ripgrep(text="a", pattern="a", context=101)
    with pytest.raises(InvalidArgumentError, match="`context` must be an integer"):
        toolset.ripgrep(text="a", pattern="a", context="1 --pre=sh")  # type: ignore[arg-type]
    with pytest.raises(InvalidPatternError, match="newline"):
        toolset.grep(text="a", pattern="a\n")
    with pytest.raises(InvalidPatternError, match="must be a string"):
        toolset.filter_lines(text="a", pattern=b"a")  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="lone surrogate"):
        toolset.grep(text="\ud800", pattern="a")
    for tool in (toolset.sort_lines, toolset.word_count, toolset.summarize_text):
        with pytest.raises(InputTooLargeError, match="the limit is 10 bytes"):
            tool(text="x" * 11)


@pytest.mark.parametrize(
    ("name", "arguments", "path"),
    [
        ("text_grep", {"text": "a", "pattern": "a", "ignore_case": "yes"}, "ignore_case"),
        ("text_wc", {"text": 1}, "text"),
        ("text_sort_lines", {"text": "a", "numeric": 1}, "numeric"),
        ("text_unique_lines", {"text": "a", "preserve_order": None}, "preserve_order"),
        ("text_rg", {"text": "a", "pattern": "a", "context": 101}, "context"),
        ("text_extract_lines", {"text": "a", "start_line": True}, "start_line"),
    ],
)
def test_types_are_the_schemas_job_on_the_model_path(
    name: str, arguments: dict[str, object], path: str
) -> None:
    result = _tools()[name].invoke(arguments)
    assert result.error is not None
    assert result.error.kind == "arguments"
    assert [problem.path for problem in result.error.details] == [f"$.{path}"]


def test_toolset_settings_are_validated() -> None:
    with pytest.raises(ValueError, match="timeout"):
        TextProcessingToolset(timeout=0)
    with pytest.raises(ValueError, match="max_output_bytes"):
        TextProcessingToolset(max_output_bytes=-1)
    with pytest.raises(ValueError, match="max_text_bytes"):
        TextProcessingToolset(max_text_bytes=True)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="max_memory_bytes"):
        TextProcessingToolset(max_memory_bytes=0)


# ------------------------------------------------------------------------- installed wheel


@pytest.mark.slow
def test_works_from_an_installed_wheel_in_a_fresh_process(tmp_path: Path) -> None:
    site = install_wheel(tmp_path)
    code = (
        "from typed_toolsets.text import TextProcessingToolset\n"
        "import typed_toolsets, sys\n"
        f"assert typed_toolsets.__file__.startswith({str(site)!r}), typed_toolsets.__file__\n"
        "tools = {t.name: t for t in TextProcessingToolset.to_tools()}\n"
        "print(tools['text_wc'].dynamic_call({'text': 'one two\\nthree'}))\n"
        "print(tools['text_filter_lines'].dynamic_call({'text': 'Foo\\nbar', 'pattern': 'foo'}))\n"
        "print(tools['text_grep'].dynamic_call({'text': 'x\\ny', 'pattern': 'y'}), end='')\n"
        "from typed_toolsets.github import GitHubCLIToolset\n"
        "print(len(GitHubCLIToolset.to_tools()))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(site)}
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "Lines: 2, Words: 3, Characters: 13\nFoo\n\ny\n7\n"


def test_program_that_cannot_start_or_crashes_is_a_distinct_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "grep").write_text("#!/nonexistent/interpreter\n")
    (tmp_path / "grep").chmod(0o755)
    _write_program(tmp_path, "rg", "import sys; sys.stderr.write('rg: crashed\\n'); sys.exit(3)")
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    tools = _tools()
    message = tools["text_grep"].dynamic_call({"text": "a", "pattern": "a"})
    assert message.startswith("Error: Tool 'text_grep' failed: ProgramFailedError: the 'grep'")
    assert "could not be started: No such file or directory" in message
    message = tools["text_rg"].dynamic_call({"text": "a", "pattern": "a"})
    assert message == (
        "Error: Tool 'text_rg' failed: ProgramFailedError: "
        "rg failed with exit status 3: rg: crashed"
    )


def test_a_crash_dump_is_reported_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    dump = (
        "thread 'main' panicked at 'index out of bounds', src/main.rs:1:1\n"
        "stack backtrace:\n" + "   0: rust_begin_unwind\n" * 200
    )
    _write_program(tmp_path, "rg", f"import sys; sys.stderr.write({dump!r}); sys.exit(101)")
    _write_program(tmp_path, "grep", "import os, signal; os.kill(os.getpid(), signal.SIGTERM)")
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    tools = _tools()
    assert tools["text_rg"].dynamic_call({"text": "a", "pattern": "a"}) == (
        "Error: Tool 'text_rg' failed: ProgramFailedError: rg failed with exit status 101: "
        "thread 'main' panicked at 'index out of bounds', src/main.rs:1:1"
    )
    assert tools["text_grep"].dynamic_call({"text": "a", "pattern": "a"}) == (
        "Error: Tool 'text_grep' failed: ProgramFailedError: grep was killed by SIGTERM"
    )


@needs_rg
@pytest.mark.parametrize(
    ("pattern", "advice"),
    [
        ("(?<year>[0-9]{4})", "rg names a group (?P<name>...), not (?<name>...)"),
        ("a{,2}b", "rg needs the lower bound of a repetition: write {0,n}, not {,n}"),
        ("a\\Z", "rg has no \\Z: write $ (each line is matched on its own) or \\z"),
        ("\\Qa.b\\E", "rg has no \\Q...\\E quoting: put a backslash before each special"),
    ],
)
def test_rg_s_general_words_get_advice_from_the_pattern(pattern: str, advice: str) -> None:
    # rg said only "unrecognized flag" or "unrecognized escape sequence" for what other engines
    # (filter_lines' RE2 among them) take.
    answer = _tools()["text_rg"].dynamic_call({"text": "x\n", "pattern": pattern})
    if not answer.startswith("Error:"):
        pytest.skip("this rg takes the pattern")  # rg 14 takes (?<name>...)
    assert f"\n{advice}" in answer, answer


@needs_rg
def test_rg_s_advice_reads_the_pattern_s_escapes() -> None:
    # In C:\\Zone the Z follows an escaped backslash: it is no \Z, and rg refuses the \y.
    answer = _tools()["text_rg"].dynamic_call({"text": "x\n", "pattern": "C:\\\\Zone\\y"})
    assert answer.startswith("Error:")
    assert "rg has no \\Z" not in answer


@pytest.mark.parametrize(
    ("pattern", "advice"),
    [
        (
            "(a",
            "every ( needs its ) and every [ its ]; to match one literally, put a backslash before it",
        ),
        (
            "[a",
            "every ( needs its ) and every [ its ]; to match one literally, put a backslash before it",
        ),
        ("a\\", "end the pattern without a lone \\; write \\\\ to match a backslash"),
        ("[b-a]", "a range in [...] runs from a lower character to a higher one ([a-z])"),
        ("\\1", "refer only to a group the pattern has, as in (ab)\\1"),
    ],
)
def test_grep_s_syntax_errors_get_advice_about_their_syntax(pattern: str, advice: str) -> None:
    # They were told "use [0-9] for digits, or text_rg for Perl-style classes".
    answer = _tools()["text_grep"].dynamic_call({"text": "x\n", "pattern": pattern})
    assert answer.startswith("Error: Tool 'text_grep' failed: InvalidPatternError: grep rejected")
    assert answer.endswith(f"({advice})")


@pytest.mark.parametrize("pattern", ["a{99999}", "a{5,2}"])
def test_grep_s_errors_about_counts_get_advice_about_counts(pattern: str) -> None:
    # They were told "use [0-9] for digits, or text_rg for Perl-style classes".
    answer = _tools()["text_grep"].dynamic_call({"text": "x\n", "pattern": pattern})
    assert answer.startswith("Error: Tool 'text_grep' failed: InvalidPatternError: grep rejected")
    assert answer.endswith(
        "(use a smaller repetition count (a{1,50} rather than a{1,32767}), with its lower bound "
        "not above its upper one)"
    )
