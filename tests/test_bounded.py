"""Caches keyed by users' types hold a bounded number of them (`typed_toolsets.types.bounded`).

A program that defines toolsets with types of their own and drops them kept every type, and
the code generated for its tools, for good: about 20 KiB a toolset, without end.
"""

from __future__ import annotations

import enum
import gc
import inspect
import linecache
import sys
import threading
import weakref
from typing import Any

import attrs
import pytest

from typed_toolsets import Toolset, tool
from typed_toolsets.types import bounded, compiled

BOUND = 64
TOOLSETS = 300


def _define_use_and_drop(number: int) -> weakref.ref[type]:
    """A toolset with types of its own and a parameter named after *number*, used and dropped."""

    @attrs.define
    class Item:
        name: str

    class Color(enum.Enum):
        RED = "red"

    def run(self: Any, **arguments: Any) -> int:
        return len(arguments)

    parameter = f"item_{number}"
    run.__annotations__ = {parameter: Item, "color": Color, "return": int}
    namespace: dict[str, Any] = {"run": tool(_keyword_only(run, parameter))}
    toolset = type(Toolset)(f"Dropped{number}", (Toolset,), namespace)
    (proxy,) = toolset.to_tools()
    assert proxy.dynamic_call({parameter: {"name": "x"}, "color": "red"}) == 2
    # A refusal: its checker's code names the parameter, so each tool has code of its own.
    assert proxy.dynamic_call({parameter: {"name": 1}, "color": "red"}).startswith("Error:")
    return weakref.ref(Item)


def _keyword_only(function: Any, parameter: str) -> Any:
    keyword = inspect.Parameter.KEYWORD_ONLY
    parameters = [
        inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD),
        inspect.Parameter(parameter, keyword, annotation=function.__annotations__[parameter]),
        inspect.Parameter("color", keyword, annotation=function.__annotations__["color"]),
    ]
    function.__signature__ = inspect.Signature(parameters, return_annotation=int)
    return function


def test_the_types_and_code_of_dropped_toolsets_are_let_go(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bounded, "CACHED_ENTRIES", BOUND)
    codes, lines = len(compiled._codes), len(linecache.cache)
    items = [_define_use_and_drop(number) for number in range(TOOLSETS)]
    # Freed in turns (weak references' callbacks run between them): after mypy's in-process
    # runs (its high thresholds), one collection left every toolset of this test alive.
    for _ in range(5):
        if not gc.collect():
            break
    alive = sum(item() is not None for item in items)
    # Each cache keeps at most BOUND entries (a type, or a hook or code for it).
    assert alive <= 2 * BOUND
    assert items[0]() is None
    assert len(compiled._codes) <= codes + BOUND
    assert len(linecache.cache) <= lines + 4 * BOUND


def test_caches_are_dropped_from_by_one_thread_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # Two threads over the bound dropped the same oldest entries of the generated code's cache:
    # KeyError, or "dictionary changed size during iteration", out of a class definition.
    monkeypatch.setattr(bounded, "CACHED_ENTRIES", 8)
    failures: list[BaseException] = []

    def define(first: int) -> None:
        for number in range(first, first + 60):
            try:
                _define_use_and_drop(number)
            except BaseException as exc:  # every failure is the test's finding
                failures.append(exc)

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=define, args=(1000 * k,)) for k in range(1, 9)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(120)
    finally:
        sys.setswitchinterval(interval)
    assert failures == []
