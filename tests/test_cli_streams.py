"""The command line's standard streams, run as a subprocess: missing ones, what targets print.

A command's stdout carries its output alone; its exit status holds whatever stream is missing.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

TEXT = "typed_toolsets.text:TextProcessingToolset"
COMMAND = [sys.executable, "-m", "typed_toolsets"]


def _without(descriptor: int) -> list[str]:
    """The argument vector prefix of a command started with *descriptor* closed (``>&-``)."""
    closer = f"import os, sys; os.close({descriptor}); os.execv(sys.executable, sys.argv[1:])"
    return [sys.executable, "-c", closer, *COMMAND]


def _run(
    argv: list[str], *, cwd: Path | None = None, stdin: bytes | None = None
) -> tuple[int, str, str]:
    done = subprocess.run(argv, input=stdin, capture_output=True, cwd=cwd, timeout=120, check=False)
    return done.returncode, done.stdout.decode(errors="replace"), done.stderr.decode()


@pytest.mark.slow
@pytest.mark.parametrize(
    "args",
    [["call", TEXT, "text_wc", '{"text": "a"}'], ["list", TEXT], ["schema", TEXT], ["demo"]],
    ids=lambda args: args[0],
)
def test_without_stdout_the_output_cannot_be_written_one_line_status_1(args: list[str]) -> None:
    status, _, err = _run([*_without(1), *args])
    assert (status, err) == (
        1,
        f"typed-toolsets {args[0]}: error: cannot write the output: stdout is closed\n",
    )


@pytest.mark.slow
@pytest.mark.parametrize("args", [["--help"], ["--version"], ["list", "--help"]])
def test_without_stdout_help_and_version_are_one_line_status_1(args: list[str]) -> None:
    # They were written to stderr, status 0.
    status, _, err = _run([*_without(1), *args])
    assert (status, err) == (
        1,
        "typed-toolsets: error: cannot write the output: stdout is closed\n",
    )


@pytest.mark.slow
@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["list", "no_such_module_here"], 2),
        (["call", TEXT, "text_nope"], 2),
        (["call", TEXT, "text_wc", "[]"], 1),
        (["call", TEXT, "text_wc", '{"text": "a"}'], 0),
    ],
    ids=["unimportable", "unknown-tool", "failed-call", "success"],
)
def test_without_stderr_the_exit_status_still_tells(args: list[str], expected: int) -> None:
    status, _, _ = _run([*_without(2), *args])
    assert status == expected


NOISY = """\
import os
import json
import subprocess
import sys

from typed_toolsets import Toolset, tool

print("importing noisy")
os.write(1, b"written to descriptor 1\\n")


class Noisy(Toolset):
    def __init__(self) -> None:
        print("building Noisy")

    @tool
    def pairs(self) -> dict[str, int]:
        print("a debugging line")
        subprocess.run([sys.executable, "-c", "print('a child process')"], check=True)
        return {"a": 1}
"""


@pytest.fixture
def noisy(tmp_path: Path) -> Path:
    (tmp_path / "noisy.py").write_text(NOISY, encoding="utf-8")
    return tmp_path


@pytest.mark.slow
@pytest.mark.parametrize("form", ["json-schema", "mcp"])
def test_what_a_target_prints_on_import_stays_out_of_the_schema_json(
    noisy: Path, form: str
) -> None:
    status, out, err = _run([*COMMAND, "schema", "noisy", "--format", form], cwd=noisy)
    assert status == 0
    assert [tool["name"] for tool in json.loads(out)] == ["noisy_pairs"]
    assert "importing noisy" in err
    assert "written to descriptor 1" in err


@pytest.mark.slow
def test_what_a_tool_prints_stays_out_of_the_call_s_json_result(noisy: Path) -> None:
    status, out, err = _run([*COMMAND, "call", "noisy:Noisy", "noisy_pairs"], cwd=noisy)
    assert (status, json.loads(out)) == (0, {"a": 1})
    for line in ("importing noisy", "building Noisy", "a debugging line", "a child process"):
        assert line in err


@pytest.mark.slow
@pytest.mark.parametrize("args", [["list", "noisy"], ["check", "noisy"]], ids=lambda a: a[0])
def test_list_and_check_print_only_their_own_lines(noisy: Path, args: list[str]) -> None:
    status, out, err = _run([*COMMAND, *args], cwd=noisy)
    assert status == 0
    assert "importing noisy" not in out
    assert "importing noisy" in err


SMALL = """\
from typed_toolsets import Limits, Toolset, tool


class Small(Toolset):
    limits = Limits(max_argument_bytes=100)

    @tool
    def echo(self, *, s: str) -> str:
        return s
"""

_OVER = (
    "Error: Arguments for tool 'small_echo' are more than 100 bytes, over the limit of 100 bytes "
    "(Limits.max_argument_bytes); send less data\n"
)


@pytest.mark.slow
def test_an_endless_stdin_is_refused_as_over_the_limit(tmp_path: Path) -> None:
    (tmp_path / "small.py").write_text(SMALL, encoding="utf-8")
    endless = "import sys\nwhile True:\n    sys.stdout.buffer.write(b'x' * 65536)\n"
    with subprocess.Popen(
        [sys.executable, "-c", endless], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
    ) as producer:
        try:
            done = subprocess.run(
                [*COMMAND, "call", "small:Small", "small_echo", "-"],
                stdin=producer.stdout,
                capture_output=True,
                cwd=tmp_path,
                timeout=30,
                check=False,
            )
        finally:
            producer.kill()
    assert (done.returncode, done.stdout, done.stderr.decode()) == (1, b"", _OVER)


READS_STDIN = """\
import os
import sys

from typed_toolsets import Toolset, tool

READ = (sys.stdin.read(), os.read(0, 100))  # input() as a module may call it, and C code


class Greedy(Toolset):
    @tool
    def echo(self, *, text: str) -> str:
        return f"{text} / read on import: {READ!r}"
"""


@pytest.mark.slow
def test_a_target_reading_stdin_on_import_reads_nothing(tmp_path: Path) -> None:
    # It took the arguments of `call -` (and the first request of `serve`'s client).
    (tmp_path / "greedy.py").write_text(READS_STDIN, encoding="utf-8")
    argv = [*COMMAND, "call", "greedy:Greedy", "greedy_echo", "-"]
    assert _run(argv, cwd=tmp_path, stdin=b'{"text": "kept"}\n') == (
        0,
        "kept / read on import: ('', b'')\n",
        "",
    )


@pytest.mark.slow
def test_check_of_a_target_reading_stdin_does_not_wait_for_it(tmp_path: Path) -> None:
    # Its import waited for stdin to end: with a terminal or an open pipe, for ever.
    (tmp_path / "greedy.py").write_text(READS_STDIN, encoding="utf-8")
    with subprocess.Popen(
        [*COMMAND, "check", "greedy.py"],
        stdin=subprocess.PIPE,  # held open, never written
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=tmp_path,
    ) as checking:
        try:
            status = checking.wait(timeout=60)
        finally:
            checking.kill()
            assert checking.stdin is not None
            checking.stdin.close()
        assert checking.stdout is not None
        assert (status, checking.stdout.read()) == (0, b"Success: no problems found in 1 toolset\n")


@pytest.mark.slow
@pytest.mark.parametrize(
    ("given", "expected"),
    [
        (b'{"s": "' + b"a" * 91 + b'"}\r\n', (0, "a" * 91 + "\n", "")),  # 100 bytes and CRLF
        (b'{"s": "' + b"a" * 200 + b'"}\n', (1, "", _OVER)),  # measured no further
    ],
    ids=["at-the-limit", "past-it"],
)
def test_stdin_is_read_up_to_the_limit_and_a_line_ending(
    tmp_path: Path, given: bytes, expected: tuple[int, str, str]
) -> None:
    (tmp_path / "small.py").write_text(SMALL, encoding="utf-8")
    argv = [*COMMAND, "call", "small:Small", "small_echo", "-"]
    assert _run(argv, cwd=tmp_path, stdin=given) == expected


@pytest.mark.slow
@pytest.mark.parametrize(
    ("typed", "meant"),
    [("wc", " (did you mean 'text_wc'?)"), ("text_wcc", " (did you mean 'text_wc'?)")],
    ids=["method-name", "misspelt"],
)
def test_an_unknown_tool_name_says_which_was_meant(typed: str, meant: str) -> None:
    status, out, err = _run([*COMMAND, "call", TEXT, typed, "{}"])
    assert (status, out) == (2, "")
    assert err.startswith(f"typed-toolsets call: error: {TEXT} has no tool {typed!r}{meant}; ")


@pytest.mark.slow
def test_serve_tools_says_which_were_meant() -> None:
    status, _, err = _run([*COMMAND, "serve", TEXT, "--tools", "wc,grep,nope"], stdin=b"")
    assert status == 2
    assert err.startswith(
        "typed-toolsets serve: error: --tools: no tool 'wc', 'grep', 'nope' in the targets "
        "(did you mean 'text_wc' or 'text_grep'?); available tools: "
    )


def _stderr_that_fails(kind: str) -> int:
    """A descriptor for the command's stderr on which every write fails: a pipe whose reader
    went away (EPIPE) or a full disk (ENOSPC)."""
    if kind == "full":
        return os.open("/dev/full", os.O_WRONLY)
    reader, writer = os.pipe()
    os.close(reader)
    return writer


#: The kinds of `_stderr_that_fails`.
FAILING_STDERRS: list[Any] = [
    "closed-pipe",
    pytest.param(
        "full", marks=pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
    ),
]


def _with_failing_stderr(
    kind: str, args: list[str], cwd: Path | None = None
) -> subprocess.CompletedProcess[bytes]:
    """The command run with a stderr on which every write fails (`_stderr_that_fails`)."""
    descriptor = _stderr_that_fails(kind)
    try:
        return subprocess.run(
            [*COMMAND, *args],
            stdout=subprocess.PIPE,
            stderr=descriptor,
            cwd=cwd,
            timeout=120,
            check=False,
        )
    finally:
        os.close(descriptor)


@pytest.mark.slow
@pytest.mark.parametrize("kind", FAILING_STDERRS)
@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["list", "no_such_module_here"], 2),
        (["call", TEXT, "text_nope"], 2),
        (["call"], 2),
        (["call", TEXT, "text_wc", "[]"], 1),
        (["check", "no_such_module_here"], 2),
        (["call", TEXT, "text_wc", '{"text": "a"}'], 0),
    ],
    ids=["unimportable", "unknown-tool", "argparse", "failed-call", "check", "success"],
)
def test_a_stderr_that_cannot_be_written_keeps_the_status(
    kind: str, args: list[str], expected: int
) -> None:
    # The error line is lost, the status is not: a broken stderr once made a failed call 0
    # (read as the reader of stdout going away) and a usage error 1 (an output write error).
    done = _with_failing_stderr(kind, args)
    assert done.returncode == expected
    assert done.stdout == (b"Lines: 1, Words: 1, Characters: 1\n" if expected == 0 else b"")


PRINTING = """\
from typed_toolsets import Toolset, tool

print("importing noisy")


class Noisy(Toolset):
    def __init__(self) -> None:
        print("building Noisy")

    @tool
    def pairs(self) -> dict[str, int]:
        print("a debugging line")
        return {"a": 1}
"""


@pytest.mark.slow
@pytest.mark.parametrize("kind", FAILING_STDERRS)
@pytest.mark.parametrize("args", [["call", "noisy:Noisy", "noisy_pairs"], ["check", "noisy"]])
def test_a_target_or_tool_printing_to_a_stderr_that_fails_still_works(
    tmp_path: Path, kind: str, args: list[str]
) -> None:
    # What they printed went to stderr, and print() raised there: the import failed (status
    # 2, "cannot import"), or the tool did (status 1). (Writing to descriptor 1 itself, as a
    # child process does, fails as it would in any program whose stdout failed.)
    (tmp_path / "noisy.py").write_text(PRINTING, encoding="utf-8")
    done = _with_failing_stderr(kind, args, tmp_path)
    assert done.returncode == 0
    if args[0] == "call":
        assert json.loads(done.stdout) == {"a": 1}
    else:
        assert done.stdout.startswith(b"Success")


@pytest.mark.slow
def test_without_stderr_what_targets_and_tools_print_stays_off_stdout(noisy: Path) -> None:
    # Started with `2>&-`, the next descriptor opened took number 2: the copy of stdout made
    # while a target loads, so everything the target and the tool printed reached stdout.
    status, out, _ = _run([*_without(2), "call", "noisy:Noisy", "noisy_pairs"], cwd=noisy)
    assert (status, json.loads(out)) == (0, {"a": 1})
    status, out, _ = _run([*_without(2), "schema", "noisy"], cwd=noisy)
    assert status == 0
    assert [tool["name"] for tool in json.loads(out)] == ["noisy_pairs"]


@pytest.mark.slow
def test_without_stderr_a_usage_error_prints_nothing_on_stdout() -> None:
    # argparse prints the usage on stdout when sys.stderr is None.
    assert _run([*_without(2), "call"]) == (2, "", "")


CLOSES_STDERR = """\
import sys

from typed_toolsets import Toolset, tool


class Closer(Toolset):
    @tool
    def fail(self) -> str:
        sys.stderr.close()
        raise RuntimeError("after closing stderr")
"""


@pytest.mark.slow
def test_a_tool_that_closes_stderr_fails_with_status_1_and_no_crash_dump(tmp_path: Path) -> None:
    # Writing the error to the closed sys.stderr raised ValueError out of the command, and
    # Python, with no stderr for the traceback, dumped "lost sys.stderr" at exit.
    (tmp_path / "closer.py").write_text(CLOSES_STDERR, encoding="utf-8")
    assert _run([*COMMAND, "call", "closer:Closer", "closer_fail"], cwd=tmp_path) == (1, "", "")


SLEEPY = """\
import asyncio
import sys
import time

from typed_toolsets import Limits, Toolset, tool


class Sleepy(Toolset):
    @tool
    def plain(self) -> str:
        print("started", flush=True)
        time.sleep(60)
        return "late"

    @tool(limits=Limits(timeout=60))
    def deadline(self) -> str:
        print("started", flush=True)
        time.sleep(60)
        return "late"

    @tool
    async def coroutine(self) -> str:
        print("started", flush=True)
        await asyncio.sleep(60)
        return "late"
"""


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT by process id is POSIX")
@pytest.mark.parametrize("tool", ["plain", "deadline", "coroutine"])
def test_sigint_during_a_call_is_one_line_and_status_130(tmp_path: Path, tool: str) -> None:
    (tmp_path / "sleepy.py").write_text(SLEEPY, encoding="utf-8")
    with subprocess.Popen(
        [*COMMAND, "call", "sleepy:Sleepy", f"sleepy_{tool}"],
        cwd=tmp_path,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    ) as process:
        try:
            assert process.stderr is not None
            assert process.stderr.readline() == b"started\n"  # what the tool prints: stderr
            process.send_signal(signal.SIGINT)
            out, err = process.communicate(timeout=20)
        finally:
            process.kill()
    assert (process.returncode, out, err) == (130, b"", b"typed-toolsets call: interrupted\n")


@pytest.mark.slow
@pytest.mark.parametrize(
    ("descriptor", "expected"),
    [
        (0, (2, "typed-toolsets serve: error: cannot serve over stdio: stdin is closed\n")),
        (1, (1, "typed-toolsets serve: error: cannot write the output: stdout is closed\n")),
    ],
    ids=["stdin", "stdout"],
)
def test_serve_over_stdio_without_stdin_or_stdout_is_one_line(
    descriptor: int, expected: tuple[int, str]
) -> None:
    # The SDK's stdio transport failed on the missing stream with an AttributeError traceback.
    pytest.importorskip("mcp")
    status, out, err = _run([*_without(descriptor), "serve", TEXT])
    assert ((status, err), out) == (expected, "")


@pytest.mark.slow
@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize(
    "args", [["--help"], ["--version"], ["check", "--help"]], ids=["help", "version", "check"]
)
def test_help_that_stdout_cannot_take_is_one_line_and_status_1(args: list[str]) -> None:
    """``--help > /dev/full`` wrote nothing and ended with status 0: argparse's messages were
    all written as stderr's are (what cannot be written dropped). Now as any command's output:
    one line on stderr, status 1; a reader that went away is still status 0, silently."""
    full = os.open("/dev/full", os.O_WRONLY)
    try:
        done = subprocess.run(
            [*COMMAND, *args],
            stdout=full,
            stderr=subprocess.PIPE,
            timeout=120,
            check=False,
        )
    finally:
        os.close(full)
    assert (done.returncode, done.stderr.decode()) == (
        1,
        "typed-toolsets: error: cannot write the output: [Errno 28] No space left on device\n",
    )
    reader, writer = os.pipe()
    os.close(reader)
    try:
        done = subprocess.run(
            [*COMMAND, *args], stdout=writer, stderr=subprocess.PIPE, timeout=120, check=False
        )
    finally:
        os.close(writer)
    assert (done.returncode, done.stderr) == (0, b"")


_BROKEN_TARGET = """\
from typed_toolsets import Toolset, tool


class Broken(Toolset):
    exports = (tool("nope"),)
"""


@pytest.mark.slow
@pytest.mark.parametrize(
    ("source", "expected"),
    [
        (_BROKEN_TARGET, 1),
        (
            _BROKEN_TARGET.replace('"nope"', '"run"')
            + "\n    def run(self) -> int:\n        return 1\n",
            0,
        ),
    ],
    ids=["problems", "clean"],
)
def test_check_keeps_its_verdict_when_the_reader_of_its_findings_goes_away(
    tmp_path: Path, source: str, expected: int
) -> None:
    # `check pkg | head` exited 0 once head had gone, problems or not: CI with pipefail passed.
    (tmp_path / "target.py").write_text(source)
    reader, writer = os.pipe()
    os.close(reader)
    try:
        done = subprocess.run(
            [*COMMAND, "check", "target.py"],
            stdout=writer,
            stderr=subprocess.PIPE,
            cwd=tmp_path,
            timeout=120,
            check=False,
        )
    finally:
        os.close(writer)
    assert (done.returncode, done.stderr) == (expected, b"")


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="bytes in argv are POSIX")
def test_an_argument_s_bytes_that_are_not_utf_8_are_shown_as_bytes() -> None:
    # They were Python's surrogate escapes: "cannot import 'mod\udcff'".
    done = subprocess.run(
        [*COMMAND, "list", os.fsdecode(b"mod\xff")], capture_output=True, timeout=120, check=False
    )
    assert done.returncode == 2
    assert done.stderr.startswith(b"typed-toolsets list: error: cannot import 'mod\\xff':")
    assert b"udc" not in done.stderr
