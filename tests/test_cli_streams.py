"""The command line's standard streams, run as a subprocess: missing ones, what targets print.

A command's stdout carries its output alone; its exit status holds whatever stream is missing.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

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
