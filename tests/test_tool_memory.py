"""What each tool keeps: generated code shared between tools, and built only where it is used.

Memory itself is measured by ``benchmarks/first_use.py``; these tests pin the mechanisms.
"""

from __future__ import annotations

import builtins
import dis
import enum
import gc
import linecache
import subprocess
import sys
import textwrap
import traceback
import tracemalloc
import uuid
from datetime import datetime
from typing import Any

import attrs
import pytest

from typed_toolsets import Toolset, tool
from typed_toolsets.definition.classes import class_info
from typed_toolsets.types.arguments import ArgumentsVariant
from typed_toolsets.types.compiled import compile_function
from typed_toolsets.types.fastpath import orjson_available

needs_orjson = pytest.mark.skipif(not orjson_available(), reason="the fast path needs orjson")


def _variant(cls: type[Toolset]) -> ArgumentsVariant:
    info = class_info(cls)
    assert info is not None
    method = info.exports[0].method
    assert method is not None
    return method.arguments.standard


def _twins() -> tuple[type[Toolset], type[Toolset]]:
    class First(Toolset):
        @tool
        def find(self, *, query: str, limit: int = 10) -> str:
            return f"first {query} {limit}"

    class Second(Toolset):
        @tool
        def find(self, *, query: str, limit: int = 10) -> str:
            return f"second {query} {limit}"

    return First, Second


def _fast_code(cls: type[Toolset]) -> Any:
    proxy = cls.to_tools()[0]
    return proxy._pipeline.fast.__code__


def test_tools_with_the_same_parameters_share_their_generated_code() -> None:
    first, second = _twins()
    assert _fast_code(first) is _fast_code(second)
    # Each keeps its own method and namespace.
    assert first.to_tools()[0].dynamic_call('{"query": "q"}') == "first q 10"
    assert second.to_tools()[0].dynamic_call('{"query": "q", "limit": 2}') == "second q 2"


@needs_orjson
def test_tools_with_parameters_of_the_same_types_share_code_whatever_their_names() -> None:
    class First(Toolset):
        @tool
        def find(self, *, query: str, limit: int = 10) -> str:
            return f"first {query} {limit}"

    class Second(Toolset):
        @tool
        def look(self, *, text: str, count: int = 10) -> str:
            return f"second {text} {count}"

    assert _fast_code(First) is _fast_code(Second)
    first, second = First.to_tools()[0], Second.to_tools()[0]
    assert first.dynamic_call('{"query": "q", "limit": 2}') == "first q 2"
    assert second.dynamic_call('{"text": "t"}') == "second t 10"
    # Each reads its own keys: the other's are unknown.
    assert "query: unexpected argument" in second.dynamic_call('{"query": "q"}')
    # Called in turn, both stay on the fast path, each with its own keys.
    assert [first.dynamic_call({"query": "a"}), second.dynamic_call({"text": "b"})] == [
        "first a 10",
        "second b 10",
    ]


class _Colour(enum.Enum):
    RED = "red"


@attrs.frozen
class _Point:
    x: int
    y: int


@needs_orjson
def test_the_fast_paths_globals_are_shared_and_every_name_it_reads_is_defined() -> None:
    # A name missing from the fast path would raise inside its own try and send every call to
    # the exact path, silently: so every global it reads must be one it shares, or a builtin.
    class Every(Toolset):
        @tool
        def every(
            self,
            *,
            text: str,
            count: int,
            ratio: float | None = None,
            tags: list[str],
            colour: _Colour = _Colour.RED,
            when: datetime,
            ident: uuid.UUID | None = None,
            point: _Point,
            labels: dict[str, str] | None = None,
        ) -> str:
            return f"{text} {count} {colour.value} {when.year} {point.x}"

    class Other(Toolset):
        @tool
        def other(self, *, name: str) -> str:
            return name

    every, other = Every.to_tools()[0], Other.to_tools()[0]
    for proxy in (every, other):
        fast = proxy._pipeline.fast
        assert fast.__globals__ is every._pipeline.fast.__globals__
        read = {
            instruction.argval
            for instruction in dis.get_instructions(fast)
            if instruction.opname == "LOAD_GLOBAL"
        }
        assert read <= fast.__globals__.keys() | vars(builtins).keys()
    arguments = (
        '{"text": "a", "count": 2, "tags": ["x"], "when": "2024-05-01T10:00:00Z",'
        ' "point": {"x": 1, "y": 2}, "ident": "12345678-1234-5678-1234-567812345678"}'
    )
    assert every.dynamic_call(arguments) == "a 2 red 2024 1"


def test_shared_code_runs_in_each_callers_namespace() -> None:
    source = "def generated(v, scale=scale):\n    return v * scale + offset\n"
    double = compile_function(source, "test double", {"scale": 2, "offset": 1})
    triple = compile_function(source, "test triple", {"scale": 3, "offset": 0})
    assert double.__code__ is triple.__code__
    assert (double(5), triple(5)) == (11, 15)
    # The source stays readable in tracebacks, under the first name compiled.
    filename = double.__code__.co_filename
    assert filename.startswith("<typed_toolsets generated test double #")
    assert linecache.getline(filename, 2) == "    return v * scale + offset\n"
    try:
        triple(None)
    except TypeError as exc:
        frames = traceback.extract_tb(exc.__traceback__)
        assert frames[-1].line == "return v * scale + offset"


def test_the_exact_paths_function_is_built_only_when_that_path_structures() -> None:
    first, _ = _twins()
    variant = _variant(first)
    proxy = first.to_tools()[0]
    assert proxy.dynamic_call('{"query": "q"}') == "first q 10"  # the fast path
    assert not variant._structure.built
    assert variant.structure({"query": "q"}) == {"query": "q"}  # what the exact path calls
    assert variant._structure.built


def test_shared_code_keeps_its_source_for_tracebacks_after_linecache_is_cleared() -> None:
    source = "def generated(v):\n    return 1 // v\n"
    first = compile_function(source, "test cleared", {})
    linecache.clearcache()
    second = compile_function(source, "test cleared again", {})
    assert second.__code__ is first.__code__
    assert linecache.getline(second.__code__.co_filename, 2) == "    return 1 // v\n"


def _tools_with_names_of_their_own(classes: int, prefix: str) -> tuple[str, list[str]]:
    """*classes* toolsets of 5 tools, every tool with parameter names of its own.

    The names end with *prefix* and the tool's number: another prefix gives other names.

    Returns:
        The source of the classes, and the JSON arguments of one accepted call of each tool.
    """
    pool = (("query", "str", ""), ("limit", "int", " = 10"), ("tags", "list[str]", ""))
    pool += (("ratio", "float | None", " = None"), ("verbose", "bool", " = False"))
    given = {"str": '"ab"', "list[str]": '["a"]'}
    lines: list[str] = []
    calls: list[str] = []
    for c in range(classes):
        lines.append(f"class C{c}(Toolset):")
        for m in range(5):
            index = c * 5 + m
            drawn = [pool[(index + k) % len(pool)] for k in range(1 + index % 3)]
            named = [(f"{name}_{prefix}{index}", kind, d) for name, kind, d in drawn]
            params = ", ".join(f"{name}: {kind}{d}" for name, kind, d in named)
            lines += [
                "    @tool",
                f"    def m{m}(self, *, {params}) -> int:",
                f"        return {m}",
            ]
            members = [f'"{name}": {given[kind]}' for name, kind, d in named if not d]
            calls.append("{" + ", ".join(members) + "}")
    return "\n".join(lines) + "\n", calls


def _kept_per_tool(classes: int, prefix: str) -> float:
    """Bytes each tool of `_tools_with_names_of_their_own` keeps, after `to_tools()` and a call."""
    source, calls = _tools_with_names_of_their_own(classes, prefix)
    compiled = compile(source, f"<tools {prefix}>", "exec")
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        namespace: dict[str, Any] = {"Toolset": Toolset, "tool": tool}
        exec(compiled, namespace)  # noqa: S102 - the source above
        kept = []
        for c in range(classes):
            for m, proxy in enumerate(namespace[f"C{c}"].to_tools()):
                assert proxy.dynamic_call(calls[c * 5 + m]) == m
                kept.append(proxy)
        gc.collect()
        return (tracemalloc.get_traced_memory()[0] - before) / len(kept)
    finally:
        tracemalloc.stop()


@needs_orjson
def test_tools_with_names_of_their_own_stay_within_their_memory() -> None:
    # What a tool keeps, class included, when its parameter names are its own: measured here
    # at about 6.3 KiB, and 13 KiB when each such tool compiled code and kept source lines of
    # its own (benchmarks/first_use.py measures it without the class). The first tools pay for
    # what any tool of their types builds once (their shapes' code, the types' specs).
    _kept_per_tool(3, "first")
    assert _kept_per_tool(40, "measured") < 10 * 1024


def test_toolsets_with_limits_of_their_own_let_their_code_go() -> None:
    # Each max_argument_bytes writes a fast path of its own; the number mode's registry held
    # every such code for good (and so its source in linecache): a host setting the limit per
    # session kept about 7.6 KiB per value it ever used. Measured in a process of its own: the
    # tools other tests keep alive (or drop meanwhile) would blur the count.
    script = textwrap.dedent(
        """
        import gc, linecache
        from typed_toolsets import Limits, Toolset, tool
        from typed_toolsets.types import bounded, typespec

        bounded.CACHED_ENTRIES = 40

        def one(size):
            class Sized(Toolset):
                @tool(limits=Limits(max_argument_bytes=size))
                def add(self, *, a: int, b: int) -> int:
                    return a + b

            assert Sized.to_tools()[0].dynamic_call('{"a": 1, "b": 2}') == 3

        for size in range(10_000, 10_300):
            one(size)
        gc.collect()
        fast_paths = sum("fast path of arguments of" in name for name in linecache.cache)
        print(len(typespec._modes), fast_paths)
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    modes, fast_paths = map(int, done.stdout.split())
    assert modes < 100  # the registry the leak was in
    assert fast_paths < 100
