"""The toolsets the server tests serve: every kind of result, failure and timing a server meets.

Served in subprocesses as ``tests/server/sample.py:SampleToolset``; ``other_tools`` holds a
second toolset whose ``sample_add`` clashes with the first.
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
from pathlib import Path

import attrs

from typed_toolsets import Limits, ToolAnnotations, Toolset, tool


@attrs.frozen
class Point:
    """A point in the plane."""

    x: float
    y: float


@attrs.frozen
class Link:
    """One link of a chain (a recursive result)."""

    value: int
    next: Link | None = None


class SampleToolset(Toolset):
    """Tools for the server tests."""

    toolset_name = "sample"
    tool_annotations = ToolAnnotations(read_only_hint=True)

    @tool
    def add(self, *, a: int, b: int) -> int:
        """Add two integers."""
        return a + b

    @tool
    def point(self, *, x: float, y: float) -> Point:
        """Make a point."""
        return Point(x, y)

    @tool
    def chain(self, *, length: int) -> Link | None:
        """A chain of *length* links."""
        found: Link | None = None
        for value in range(length):
            found = Link(value, found)
        return found

    @tool
    def echo(self, *, text: str) -> str:
        """Return the text."""
        return text

    @tool
    def fail(self, *, message: str) -> str:
        """Raise ValueError(message)."""
        raise ValueError(message)

    @tool
    async def taskgroup(self, *, message: str) -> str:
        """Fail in a TaskGroup's child once the block's body has ended (its most common use)."""

        async def child() -> None:
            await asyncio.sleep(0)
            raise ValueError(message)

        if sys.version_info >= (3, 11):
            async with asyncio.TaskGroup() as group:
                group.create_task(child())
        return message

    @tool(limits=Limits(timeout=0.5))
    def deadline(self, *, seconds: float) -> float:
        """Sleep in a thread, with a 0.5 s deadline."""
        time.sleep(seconds)
        return seconds

    @tool
    def sleep(self, *, seconds: float) -> float:
        """Sleep in a worker thread, with no deadline."""
        time.sleep(seconds)
        return seconds

    @tool
    async def asleep(
        self, *, seconds: float, marker: str | None = None, swallow: bool = False
    ) -> float:
        """Sleep on the event loop; *marker* says 'started', then 'cancelled' if cancelled.

        With *swallow*, a cancellation is turned into a RuntimeError.
        """
        if marker is not None:
            Path(marker).write_text("started")
        try:
            await asyncio.sleep(seconds)
        except asyncio.CancelledError:
            if marker is not None:
                Path(marker).write_text("cancelled")
            if swallow:
                raise RuntimeError("stopped") from None
            raise
        return seconds

    @tool
    async def child(self, *, tag: str, seconds: float) -> int:
        """Run a child process (its command line holds *tag*) and wait for it; kill it if cancelled."""
        code = "import sys, time; time.sleep(float(sys.argv[1]))"
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-c", code, str(seconds), tag
        )
        try:
            return await process.wait()
        finally:
            if process.returncode is None:
                process.kill()
                await process.wait()

    @tool
    def touch(self, *, path: str) -> str:
        """Create a file (to see whether a call reached the tool)."""
        Path(path).touch()
        return path

    @tool
    def pid(self) -> int:
        """The server process id."""
        return os.getpid()


class OtherToolset(Toolset):
    """A second toolset: one tool of its own, one whose name clashes with SampleToolset's."""

    toolset_name = "other"

    @tool
    def hello(self) -> str:
        """Say hello."""
        return "hello"

    @tool(tool_name="sample_add")
    def plus(self, *, a: int, b: int) -> int:
        """Add, under another toolset's name."""
        return a + b


class StubbornToolset(Toolset):
    """A tool that ignores its cancellation: a stop must not wait for it forever."""

    toolset_name = "stubborn"

    @tool
    async def ignore(self, *, marker: str) -> str:
        """Write 'started' to *marker*, then 'cancelled' at its first cancellation; swallow all."""
        Path(marker).write_text("started")
        told = False
        while True:
            try:
                await asyncio.sleep(0.05)
            except asyncio.CancelledError:  # a retry loop catching too much, as in real tools
                if not told:  # written once: the process may end in the middle of a write
                    Path(marker).write_text("cancelled")
                    told = True
