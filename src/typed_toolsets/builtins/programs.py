"""Finding and running the external programs behind the built-in tools (grep, rg, gh).

A program is looked up with `shutil.which` on the calling process's ``PATH`` at every call (so
installing it, or changing ``PATH``, takes effect without a restart) and run by absolute path
through `run_bounded`, with an environment built from an allow-list by the caller. The failures
a caller cannot act on in the seed's way become distinct `BuiltinToolError` subclasses.
"""

from __future__ import annotations

import os
import shutil
import signal
import time
from collections.abc import Mapping, Sequence
from typing import Final

import attrs

from typed_toolsets.definition.limits import call_deadline

from .exceptions import ProgramFailedError, ProgramNotFoundError, ProgramTimeoutError
from .outputs import decode_output
from .process import ProcessResult, StartError, run_bounded

__all__ = [
    "TimeBudget",
    "caller_path",
    "failure_line",
    "find_program",
    "first_line",
    "run_program",
    "search_environment",
]

_SEARCH_LOCALE: Final = "C.UTF-8"
#: How a program is stopped at its deadline.
_KILLED: Final = "its whole process group was killed"
#: Longest part of a failed program's message that `failure_line` quotes.
_MAX_QUOTED: Final = 300


def caller_path() -> str:
    """The ``PATH`` of the calling process (the default search path when it has none)."""
    return os.environ.get("PATH", os.defpath)


def search_environment() -> dict[str, str]:
    """The whole child environment of grep and rg: ``PATH`` and a UTF-8 C locale.

    Nothing else is inherited, so variables such as ``RIPGREP_CONFIG_PATH`` (whose config file
    could add ``--pre=COMMAND``) or secrets in the caller's environment never reach them.
    """
    return {"PATH": caller_path(), "LC_ALL": _SEARCH_LOCALE}


def find_program(name: str, *, install_hint: str) -> str:
    """Return the absolute path of *name* on the caller's ``PATH``.

    Raises:
        ProgramNotFoundError: It is not there.
    """
    found = shutil.which(name, path=caller_path())
    if found is None:
        msg = f"the {name!r} program was not found on PATH; {install_hint}"
        raise ProgramNotFoundError(msg)
    return os.path.abspath(found)


def run_program(
    name: str,
    arguments: Sequence[str],
    *,
    env: Mapping[str, str],
    input_bytes: bytes | None,
    timeout: float,
    max_output_bytes: int,
    install_hint: str,
    timeout_hint: str,
    max_memory_bytes: int | None = None,
) -> ProcessResult:
    """Find *name* and run it with *arguments*, bounded; raise on a deadline or a start failure.

    Args:
        name: The program to look up on ``PATH``.
        arguments: Its arguments (``argv[1:]``), built by the library.
        env: The child's whole environment.
        input_bytes: Bytes for its stdin, or None for ``/dev/null``.
        timeout: Seconds before its process group is killed; sooner at the `call_deadline` of
            a model-facing call with a `Limits.timeout`.
        max_output_bytes: Budget for stdout and stderr together.
        install_hint: Appended to the not-found message (how to install it).
        timeout_hint: Appended to the timeout message (what to change).
        max_memory_bytes: Cap on its address space (see `run_bounded`), or None.

    Returns:
        The result, ended by the program's exit or by the output budget.

    Raises:
        ProgramNotFoundError: The program is not on ``PATH`` (or vanished before it started).
        ProgramFailedError: It could not be started for another reason.
        ProgramTimeoutError: It did not finish within *timeout* (or by the call's deadline);
            its group was killed. Or the call's deadline had passed: it was not started.
    """
    path = find_program(name, install_hint=install_hint)
    budget = TimeBudget.start(name, timeout)
    left = budget.deadline - time.monotonic()
    try:
        result = run_bounded(
            [name, *arguments],
            executable=path,
            env=env,
            input_bytes=input_bytes,
            timeout=left,
            max_output_bytes=max_output_bytes,
            max_memory_bytes=max_memory_bytes,
        )
    except StartError as exc:
        if isinstance(exc.__cause__, FileNotFoundError) and not os.path.exists(path):
            # Removed since the lookup. (ENOENT for a file that exists: a missing interpreter.)
            msg = f"the {name!r} program was not found on PATH; {install_hint}"
            raise ProgramNotFoundError(msg) from None
        msg = f"the {name!r} program ({path}) could not be started: {exc.strerror or exc}"
        raise ProgramFailedError(msg) from None
    if result.ended_by == "deadline":
        raise budget.spent(_KILLED, timeout_hint)
    return result


@attrs.frozen
class TimeBudget:
    """How long a piece of work may run: the tool's *timeout*, or less by the call's deadline.

    Attributes:
        name: What runs, for the messages (``grep``, ``filter_lines``).
        timeout: The tool's own bound, in seconds.
        deadline: When the work must stop (`time.monotonic`).
        by_call: Whether the deadline is that of a call with a `Limits.timeout`.
    """

    name: str
    timeout: float
    deadline: float
    by_call: bool

    @classmethod
    def start(cls, name: str, timeout: float) -> TimeBudget:
        """The budget of work starting now.

        Raises:
            ProgramTimeoutError: The call's deadline has passed already: nothing may start.
        """
        now = time.monotonic()
        call = call_deadline()
        if call is not None and call < now + timeout:
            if call <= now:
                msg = f"{name} was not started: the call's deadline (Limits.timeout) has passed"
                raise ProgramTimeoutError(msg)
            return cls(name, timeout, call, by_call=True)
        return cls(name, timeout, now + timeout, by_call=False)

    def spent(self, how: str, hint: str) -> ProgramTimeoutError:
        """The error of work stopped (*how*: what stopping it took) at the deadline."""
        unit = "second" if self.timeout == 1 else "seconds"
        within = "the call's Limits.timeout" if self.by_call else f"{self.timeout:g} {unit}"
        msg = f"{self.name} did not finish within {within} and was stopped ({how}); {hint}"
        return ProgramTimeoutError(msg)


def failure_line(name: str, result: ProcessResult, quoted: str | None = None) -> str:
    """One line saying how *name* failed: its exit status (or signal) and its first line of output.

    Only the first non-blank line is quoted (escaped, at most 300 characters): a crashing program
    prints a dump of its internals (a Go goroutine dump, a Rust backtrace) that tells a model
    nothing and may be long. *quoted*, when given, is the line of it to quote instead (the one
    naming the crash).
    """
    if result.returncode < 0:
        try:
            signal_name = signal.Signals(-result.returncode).name
        except ValueError:
            signal_name = f"signal {-result.returncode}"
        how = f"was killed by {signal_name}"
    else:
        how = f"failed with exit status {result.returncode}"
    first = first_line(decode_output(result.stderr or result.stdout) if quoted is None else quoted)
    return f"{name} {how}: {first}" if first else f"{name} {how}"


def first_line(printed: str) -> str:
    """The first non-blank line of *printed* (escaped), as a failure quotes it: cut when long."""
    first = next((line.strip() for line in printed.split("\n") if line.strip()), "")
    if len(first) > _MAX_QUOTED:
        first = first[: _MAX_QUOTED - 3] + "..."
    return first
