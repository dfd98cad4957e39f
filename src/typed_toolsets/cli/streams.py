"""A command's stdout is its output, its stdin its input: importing a target touches neither.

Importing a target runs it, and a tool may ``print``: their text would otherwise be mixed into
the table of ``list``, the JSON of ``schema`` and ``call``, the findings of ``check`` and the
protocol of ``serve`` over stdio; it goes to stderr. A module that reads stdin as it loads
would take the arguments of ``call -`` or the first request of ``serve``'s client: it reads
nothing.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
from collections.abc import Generator
from typing import TextIO

__all__ = ["occupy_closed_descriptors", "stdin_from_null", "stdout_to_stderr"]


@contextlib.contextmanager
def stdout_to_stderr() -> Generator[None, None, None]:
    """Send what is written to stdout meanwhile to stderr (to nothing when there is none).

    Both Python's ``sys.stdout`` (``print``) and file descriptor 1 (C code, child processes)
    are redirected. Python code gets a stream of its own: one closing ``sys.stdout`` closes
    neither the command's stdout nor its stderr.
    """
    _flush(sys.stdout)
    try:
        saved: int | None = os.dup(1)
    except OSError:  # no stdout at all: nothing to protect
        saved = None
    try:
        if saved is not None:
            _point_stdout_at_stderr()
        with _own_stream() as stream, contextlib.redirect_stdout(stream):
            yield
    finally:
        if saved is not None:
            os.dup2(saved, 1)
            os.close(saved)


@contextlib.contextmanager
def stdin_from_null() -> Generator[None, None, None]:
    """Give what reads stdin meanwhile the null device: it reads nothing, and waits for nothing.

    Both Python's ``sys.stdin`` (``input()``) and file descriptor 0 (C code, child processes)
    are redirected; what the command's stdin holds stays there for the command.
    """
    try:
        saved: int | None = os.dup(0)
    except OSError:  # no stdin at all: nothing to protect
        saved = None
    stdin = sys.stdin
    try:
        null = os.open(os.devnull, os.O_RDONLY)
        try:
            if saved is not None:
                os.dup2(null, 0)
        finally:
            os.close(null)
        with open(os.devnull, encoding="utf-8") as stream:
            sys.stdin = stream
            yield
    finally:
        sys.stdin = stdin
        if saved is not None:
            os.dup2(saved, 0)
            os.close(saved)


def occupy_closed_descriptors() -> None:
    """Point the standard descriptors the process started without at the null device.

    Started with ``<&-``, ``>&-`` or ``2>&-``, a file opened later takes the lowest free
    descriptor and becomes the missing stream: `stdout_to_stderr`'s copy of stdout took
    descriptor 2, so what the targets and tools printed reached stdout; a child process would
    read from or write to whatever file a tool opened. Python's ``sys.stdin``, ``sys.stdout``
    and ``sys.stderr`` stay None: the commands still see which stream is missing.
    """
    for descriptor in (0, 1, 2):
        try:
            os.fstat(descriptor)
        except OSError:
            null = os.open(os.devnull, os.O_RDWR)
            if null != descriptor:
                os.dup2(null, descriptor)
                os.close(null)


def _point_stdout_at_stderr() -> None:
    try:
        os.dup2(2, 1)
    except OSError:  # no stderr either: what is written goes nowhere
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.close(null)


@contextlib.contextmanager
def _own_stream() -> Generator[TextIO | None, None, None]:
    """A text stream on a copy of stderr's descriptor, closed at the end (None without one)."""
    try:
        descriptor = os.dup(2)
    except OSError:
        yield None  # print() writes nothing while sys.stdout is None
        return
    encoding = getattr(sys.stderr, "encoding", None) or "utf-8"
    stream = _Lenient(
        io.BufferedWriter(io.FileIO(descriptor, "w")),
        encoding=encoding,
        errors="backslashreplace",
        line_buffering=True,
    )
    try:
        yield stream
    finally:
        with contextlib.suppress(OSError, ValueError):
            stream.close()


class _Lenient(io.TextIOWrapper):
    """A text stream written to as best effort: what cannot be written is dropped.

    On a write error (a full disk, a reader gone) its descriptor is pointed at the null device.
    What targets and tools print goes to stderr, which the command writes to as best effort
    too: a target printing as it is imported must not fail to import because stderr is
    ``/dev/full``, nor a tool fail because it printed. (The checks wrap the C stream's own
    methods: a Ctrl-C between two lines of Python in its lowest layer could leave written
    bytes in its buffer, to be written again.)
    """

    def write(self, text: str, /) -> int:
        try:
            return super().write(text)
        except OSError:
            self._drop()
            return len(text)

    def flush(self) -> None:
        try:
            super().flush()
        except OSError:
            self._drop()

    def _drop(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, self.fileno())
            os.close(null)


def _flush(stream: TextIO | None) -> None:
    if stream is not None:
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
