"""Issue 17, findings 1 and 2, and issue 15's rejected arguments: refusing costs linear time.

Each scenario is the one the review measured (seconds to minutes, and gigabytes, before), with
time and memory bounds measured here; `tests.robustness.measure` says why they are generous.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
import types
from collections.abc import Iterator, Mapping
from typing import Any

import attrs
import pytest

from tests.robustness.measure import assert_bounded, peak_mib, timed
from typed_toolsets import Limits, ToolProxy, Toolset, export, tool
from typed_toolsets.call.checker import Checker
from typed_toolsets.call.offload import OFFLOAD_CHARS, OFFLOAD_VALUES
from typed_toolsets.call.validation import MAX_PROBLEMS

MB = 1_000_000


@attrs.define
class Person:
    name: str
    age: int
    email: str | None = None


class Hostile(Toolset):
    toolset_name = "hostile"
    limits = Limits(max_argument_bytes=2 * MB)

    @tool
    def unique(self, *, x: set[int]) -> int:
        return len(x)

    @tool
    def union(self, *, x: list[int] | list[float] | dict[str, int] | None) -> int:
        return 0

    @tool
    def rows(self, *, x: list[list[int] | list[str] | None]) -> int:
        return len(x)

    @tool
    def plain(self, *, x: list[int]) -> int:
        return len(x)

    @tool
    async def later(self, *, x: set[int]) -> int:
        return len(x)

    @tool
    async def people(self, *, x: list[Person]) -> int:
        return len(x)


def tools() -> dict[str, ToolProxy]:
    return {t.method_name: t for t in Hostile.to_tools()}


def array(item: str, size: int, tail: str = "") -> str:
    """``{"x": [item, item, ..., tail]}`` of about *size* bytes."""
    count = max(1, (size - 10) // (len(item) + 2))
    items = [item] * count + ([tail] if tail else [])
    return '{"x": [' + ", ".join(items) + "]}"


def distinct_then_string(size: int) -> str:
    numbers: list[object] = []
    length = 10
    while length < size:
        numbers.append(len(numbers))
        length += len(str(len(numbers))) + 2
    return json.dumps({"x": [*numbers, "a"]})


def refused(proxy: ToolProxy, text: str) -> Any:
    result = proxy.invoke(text)
    assert result.error is not None, "expected a refusal"
    assert result.error.kind == "arguments", result.error.message
    return result.error


# ------------------------------------------------------------------------------------ finding 1


def test_unique_items_with_one_string_is_refused_in_linear_time() -> None:
    unique = tools()["unique"]
    # The review: 1,000 ints took 0.8 s, 2,000 took 3 s, 39 KB 50 s (pairwise comparison).
    error = refused(unique, distinct_then_string(39_000))
    assert error.details[-1].path.startswith("$.x[")
    assert_bounded(lambda: unique.invoke(distinct_then_string(MB)), 1)


def test_refusal_time_grows_linearly() -> None:
    unique = tools()["unique"]
    small, large = distinct_then_string(100_000), distinct_then_string(400_000)
    small_seconds, _ = timed(lambda: unique.invoke(small))
    large_seconds, _ = timed(lambda: unique.invoke(large))
    # Four times the input: four times the time (quadratic would be sixteen).
    assert large_seconds < 10 * small_seconds, (small_seconds, large_seconds)


def longest_gap(proxy: ToolProxy, text: str) -> tuple[float, Any]:
    """The longest the event loop went without running a ticker while *proxy* refused *text*."""

    async def main() -> tuple[float, Any]:
        gaps: list[float] = []
        stop = asyncio.Event()

        async def ticker() -> None:
            last = time.perf_counter()
            while not stop.is_set():
                await asyncio.sleep(0.005)
                now = time.perf_counter()
                gaps.append(now - last)
                last = now

        ticking = asyncio.create_task(ticker())
        await asyncio.sleep(0.02)
        result = await proxy.ainvoke(text)
        stop.set()
        await ticking
        return max(gaps), result

    return asyncio.run(main())


def test_refusing_on_an_event_loop_leaves_the_loop_free() -> None:
    """Large arguments are read in a worker thread: other tasks keep running meanwhile."""
    longest, result = longest_gap(tools()["later"], distinct_then_string(MB))
    assert result.error is not None
    assert result.error.kind == "arguments"
    # The goal is 50 ms at a time; generous for a busy machine, far below the refusal's cost.
    assert longest < 0.25, f"the event loop was held for {longest:.3f} s"


def test_refusing_just_below_the_offload_size_holds_the_loop_briefly() -> None:
    """Read on the loop: the most expensive refusal measured (every item short of its fields)."""
    text = array("{}", OFFLOAD_CHARS - 100)
    assert len(text) < OFFLOAD_CHARS
    longest, result = longest_gap(tools()["people"], text)
    assert result.error is not None
    assert result.error.kind == "arguments"
    # About 12 ms measured on 2 cores; the goal is 50 ms, and a busy machine gets 5 times that.
    assert longest < 0.25, f"the event loop was held for {longest:.3f} s"


class ReadWhere(Mapping[str, int]):
    """A mapping that records the threads it is read in."""

    def __init__(self, items: dict[str, int]) -> None:
        self.items_ = items
        self.threads: set[str] = set()

    def __getitem__(self, key: str) -> int:
        self.threads.add(threading.current_thread().name)
        return self.items_[key]

    def __iter__(self) -> Iterator[str]:
        self.threads.add(threading.current_thread().name)
        return iter(self.items_)

    def __len__(self) -> int:
        return len(self.items_)


class Counted(Toolset):
    toolset_name = "counted"

    @tool
    async def count(self, *, x: list[int], m: dict[str, int]) -> int:
        return len(x) + len(m)


@pytest.mark.parametrize("values", [OFFLOAD_VALUES - 1, OFFLOAD_VALUES, OFFLOAD_VALUES + 1])
def test_a_mapping_of_the_offload_size_is_read_in_a_worker_thread(values: int) -> None:
    """From async code, a mapping of `OFFLOAD_VALUES` values or more (at any depth) is read off
    the loop: 4,096 values were read on it."""
    (count,) = Counted.to_tools()
    spy = ReadWhere({"a": 1})
    # Values: "x" and "m" at the top, the items of x, and the one of m.
    arguments = {"x": list(range(values - 3)), "m": spy}
    loop_thread = threading.current_thread().name

    async def main() -> Any:
        return await count.ainvoke(arguments)

    assert asyncio.run(main()).value == values - 2
    off_the_loop = spy.threads - {loop_thread}
    assert bool(off_the_loop) is (values >= OFFLOAD_VALUES), spy.threads


_BUILT_IN: set[str] = set()


@attrs.frozen
class Cell:
    """Records the threads it is built in."""

    v: int = attrs.field(validator=lambda *_: _BUILT_IN.add(threading.current_thread().name))


class Cells(Toolset):
    toolset_name = "cells"

    @tool
    async def count(self, *, cells: list[Cell]) -> int:
        return len(cells)


@pytest.mark.parametrize("form", [str, bytes, bytearray, memoryview])
@pytest.mark.parametrize("cells", [1_000, OFFLOAD_VALUES - 1, OFFLOAD_VALUES])
def test_a_short_text_opening_many_objects_is_read_in_a_worker_thread(
    cells: int, form: type
) -> None:
    """A text under `OFFLOAD_CHARS` opening `OFFLOAD_VALUES` arrays and objects (the outer
    object and array count too) is read off the loop: 129 KB of a set of nested tuples held it
    116 ms, at two microseconds each."""
    (count,) = Cells.to_tools()
    text = json.dumps({"cells": [{"v": 1}] * (cells - 2)}, separators=(",", ":"))
    assert len(text) < OFFLOAD_CHARS
    arguments = form(text.encode()) if form is not str else text
    _BUILT_IN.clear()

    async def main() -> Any:
        return await count.ainvoke(arguments)

    assert asyncio.run(main()).value == cells - 2
    loop_thread = threading.current_thread().name
    assert _BUILT_IN
    off_the_loop = _BUILT_IN - {loop_thread}
    assert bool(off_the_loop) is (cells >= OFFLOAD_VALUES), _BUILT_IN


class Stamped(Toolset):
    toolset_name = "stamped"

    @tool
    async def stamp(self, *, at: dict[str, str], tags: list[str]) -> int:
        return len(at) + len(tags)


@pytest.mark.parametrize("where", ["in a mapping", "in a list", "as a key"])
@pytest.mark.parametrize("chars", [OFFLOAD_CHARS - 1, OFFLOAD_CHARS])
def test_a_mapping_of_the_offload_size_in_strings_is_read_in_a_worker_thread(
    chars: int, where: str
) -> None:
    """A mapping of few values is read off the loop when its strings make the offload size: one
    long string was read on it (a 40 MB one, under a raised byte limit, held it 0.5 s)."""
    (stamp,) = Stamped.to_tools()
    spy = ReadWhere({})
    # Every key counts too: "at", "tags" and "s", and "k" in the mapping.
    others = len("at") + len("tags") + len("s") + (len("k") if where == "in a mapping" else 0)
    text = "x" * (chars - others)
    inner = {"k": text} if where == "in a mapping" else {text: ""} if where == "as a key" else {}
    arguments = {"at": inner, "tags": [text] if where == "in a list" else [], "s": spy}
    loop_thread = threading.current_thread().name

    async def main() -> Any:
        return await stamp.ainvoke(arguments)

    result = asyncio.run(main())
    assert result.error is not None  # "s" is unexpected: the spy is read to say so
    off_the_loop = spy.threads - {loop_thread}
    assert bool(off_the_loop) is (chars >= OFFLOAD_CHARS), (chars, spy.threads)


@pytest.mark.parametrize("values", [OFFLOAD_VALUES - 1, OFFLOAD_VALUES])
def test_strict_arguments_of_the_offload_size_are_read_in_a_worker_thread(values: int) -> None:
    """What a model wrote for the strict schema (``adispatch(..., strict=True)`` reads it as
    `StrictArguments`) is read off the loop as the same arguments unmarked: they were read on it
    (a megabyte refused in 0.4 s held the loop that long)."""
    (count,) = Counted.to_tools()
    spy = ReadWhere({"a": 1})
    arguments = {"x": list(range(values - 3)), "m": spy}
    loop_thread = threading.current_thread().name

    async def main() -> Any:
        return await export.adispatch([count], count.name, arguments, strict=True)

    assert asyncio.run(main()) == values - 2
    off_the_loop = spy.threads - {loop_thread}
    assert bool(off_the_loop) is (values >= OFFLOAD_VALUES), spy.threads


# ------------------------------------------------------------------------------------ finding 2


@pytest.mark.parametrize(
    ("name", "item"),
    [
        ("union", '"a"'),  # every branch of the union fails on every item
        ("rows", '["a", 1]'),  # a union per row: 80,000 rows and more
        ("plain", '"a"'),  # the reference: no union at all
    ],
)
def test_wrong_items_stop_at_the_cap(name: str, item: str) -> None:
    proxy = tools()[name]
    text = array(item, 960_000)
    error = refused(proxy, text)
    assert len(error.details) == MAX_PROBLEMS == 20  # the README's "20th problem"
    assert error.message.endswith("; (more problems not shown)")
    assert_bounded(lambda: proxy.invoke(text), 1)


def test_the_checker_reads_one_problem_past_the_cap() -> None:
    """Finding the problems of 20,000 wrong items costs what finding those of 30 does."""
    checker = Checker(tools()["rows"].parameters)
    few = {"x": [["a", 1]] * 30}
    many = {"x": [["a", 1]] * 20_000}
    few_seconds, (found, more) = timed(lambda: checker.problems(few))
    many_seconds, _ = timed(lambda: checker.problems(many))
    assert len(found) == MAX_PROBLEMS
    assert more
    assert many_seconds < 20 * few_seconds + 0.005, (few_seconds, many_seconds)


@pytest.mark.parametrize("name", ["rows", "unique"])
def test_refusing_costs_a_few_times_accepting(name: str) -> None:
    """A wrong last item: the call is read in full, then refused; compared with accepting."""
    proxy = tools()[name]
    good = array("[1, 2]" if name == "rows" else "1", 500_000)
    if name == "unique":
        good = distinct_then_string(500_000).replace(', "a"]', "]")
    bad = good[:-2] + (', ["a", 1]]}' if name == "rows" else ', "a"]}')
    assert proxy.invoke(good).ok
    accept, _ = timed(lambda: proxy.invoke(good))
    refuse, _ = timed(lambda: proxy.invoke(bad))
    # The goal is 3x (the fast path's attempt, then the check of its reading); generous here.
    assert refuse < 8 * accept + 0.02, (accept, refuse)


@pytest.mark.parametrize("kind", [bytearray, memoryview])
def test_an_oversized_buffer_is_refused_without_a_copy(kind: type[bytearray | memoryview]) -> None:
    # bytes(buffer) came before the size check: refusing 64 MB took a 64 MB copy (bytes and str
    # were refused for nothing).
    proxy = tools()["unique"]
    buffer = kind(bytearray(64 * MB)) if kind is memoryview else bytearray(64 * MB)
    result = proxy.invoke(buffer)
    assert result.error is not None
    assert result.error.message == (
        "Arguments for tool 'hostile_unique' are 64,000,000 bytes, over the limit of 2,000,000 "
        "bytes (Limits.max_argument_bytes); send less data"
    )
    assert peak_mib(lambda: proxy.invoke(buffer)) < 1
    assert peak_mib(lambda: asyncio.run(proxy.ainvoke(buffer))) < 5


@pytest.mark.parametrize("character", ["x", "é", "\ud800"])
@pytest.mark.parametrize("where", ["value", "key"])
def test_a_mapping_holding_a_huge_string_is_refused_by_its_length(
    character: str, where: str
) -> None:
    # The walk quoted (and for non-ASCII, encoded) the whole string before comparing its size:
    # refusing a string of 400 million characters took about a second and twice its memory.
    proxy = tools()["unique"]
    huge = character * (64 * MB)
    arguments = types.MappingProxyType({"x": huge} if where == "value" else {huge: 1})
    result = proxy.invoke(arguments)
    assert result.error is not None
    assert result.error.message == (
        "Arguments for tool 'hostile_unique' are more than 2,000,000 bytes, over the limit of "
        "2,000,000 bytes (Limits.max_argument_bytes); send less data"
    )
    assert peak_mib(lambda: proxy.invoke(arguments)) < 1
