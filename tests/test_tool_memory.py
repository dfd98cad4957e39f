"""What each tool keeps: generated code shared between tools, and built only where it is used.

Memory itself is measured by ``benchmarks/first_use.py``; these tests pin the mechanisms.
"""

from __future__ import annotations

import linecache
import traceback
from typing import Any

from typed_toolsets import Toolset, tool
from typed_toolsets.definition.classes import class_info
from typed_toolsets.types.arguments import ArgumentsVariant
from typed_toolsets.types.gen import compile_function


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
