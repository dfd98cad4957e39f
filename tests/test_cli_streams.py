"""The command line's standard streams, run as a subprocess: missing ones, what targets print.

A command's stdout carries its output alone; its exit status holds whatever stream is missing.
"""

from __future__ import annotations

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
