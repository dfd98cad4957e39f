"""First use, memory per tool and sync tools under asyncio, typed_toolsets beside pydantic.

Three measurements (each checked before it is timed; figures to one decimal):

- **First use**, in fresh interpreters (modules loaded from bytecode, as after ``pip install``):
  the first ``to_tools()`` plus the first ``dynamic_call`` of a one-tool toolset, after its class
  is defined; beside it pydantic's equivalent for the same function: ``TypeAdapter`` of its
  arguments (a ``TypedDict``, strict, extra keys forbidden), ``json_schema()`` (what a model is
  shown) and the first ``validate_json`` + call. The import and the definition are shown too.
  Runs alternate between the two; the figure is the median, with the spread (min to max).
- **Memory per tool**: tracemalloc over 200 toolset classes of 5 tools each (varied signatures
  drawn from a pool of common parameters), after ``to_tools()`` and a first call of every tool,
  minus the same classes without the library (the functions themselves); pydantic: the same
  1,000 functions, each with its ``TypeAdapter``, schema and first call, minus the functions.
  In a fresh interpreter each, after a warm-up that loads what any first call loads.
- **Async**: ``await proxy.adynamic_call(text)`` of a sync tool declared ``inline=True`` (runs on
  the loop), of the same tool by default (a worker thread), of an ``async def`` tool, and
  pydantic's ``validate_json`` + direct call inside the coroutine. Batches interleaved; the
  figure is the median of the batch means, in microseconds per call.

Goals (the script exits 1 when one is missed): first use <= 40 ms (median); memory per tool
<= 8 KiB, with parameter names reused across tools and with every tool's names its own.

Usage::

    pip install -e . -r benchmarks/requirements.txt
    python benchmarks/first_use.py            # about a minute
    python benchmarks/first_use.py --quick    # fewer runs and batches
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from typing import Any, Final

from goals import status

FIRST_USE_GOAL_MS: Final = 40.0
MEMORY_GOAL_KIB: Final = 8.0

# ----------------------------------------------------------------------------------- first use

_OURS: Final = """
import json, time
t0 = time.perf_counter()
from typed_toolsets import Toolset, tool
t1 = time.perf_counter()

class Stats(Toolset):
    @tool
    def word_count(self, *, text: str, limit: int = 10) -> int:
        return min(len(text.split()), limit)

t2 = time.perf_counter()
tools = Stats.to_tools()
value = tools[0].dynamic_call('{"text": "one two"}')
t3 = time.perf_counter()
assert value == 2, value
print(json.dumps({"import": t1 - t0, "define": t2 - t1, "first use": t3 - t2}))
"""

_PYDANTIC: Final = """
import json, time
t0 = time.perf_counter()
import pydantic
from typing_extensions import NotRequired, TypedDict
t1 = time.perf_counter()

def word_count(*, text: str, limit: int = 10) -> int:
    return min(len(text.split()), limit)

class WordCountArgs(TypedDict):
    __pydantic_config__ = pydantic.ConfigDict(strict=True, extra="forbid")
    text: str
    limit: NotRequired[int]

t2 = time.perf_counter()
adapter = pydantic.TypeAdapter(WordCountArgs)
schema = adapter.json_schema()
value = word_count(**adapter.validate_json('{"text": "one two"}'))
t3 = time.perf_counter()
assert value == 2, value
print(json.dumps({"import": t1 - t0, "define": t2 - t1, "first use": t3 - t2}))
"""


def _fresh_env(cache: str) -> dict[str, str]:
    """An environment whose interpreters load bytecode from *cache* (written by a first run)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = cache
    return env


def _run_json(code: str, env: dict[str, str]) -> dict[str, float]:
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    result: dict[str, float] = json.loads(done.stdout)
    return result


def first_use(runs: int, *, pydantic: bool) -> dict[str, dict[str, list[float]]]:
    """Milliseconds per phase, one sample per fresh interpreter, the contenders alternating."""
    codes = {"typed_toolsets": _OURS}
    if pydantic:
        codes["pydantic"] = _PYDANTIC
    samples: dict[str, dict[str, list[float]]] = {name: {} for name in codes}
    with tempfile.TemporaryDirectory() as cache:
        env = _fresh_env(cache)
        for code in codes.values():
            _run_json(code, env)  # writes the bytecode cache
        for _ in range(runs):
            for name, code in codes.items():
                for phase, seconds in _run_json(code, env).items():
                    samples[name].setdefault(phase, []).append(seconds * 1000)
    return samples


# -------------------------------------------------------------------------------------- memory

#: (name, annotation, default or None): what tool parameters commonly look like.
_PARAMETERS: Final = (
    ("query", "str", None),
    ("limit", "int", "10"),
    ("tags", "list[str]", None),
    ("verbose", "bool", "False"),
    ("ratio", "float | None", "None"),
    ("path", "str", None),
    ("count", "int", None),
    ("labels", "dict[str, str]", None),
    ("owner", "str | None", "None"),
    ("offset", "int", "0"),
    ("text", "str", None),
    ("strict", "bool", "True"),
)
_ARGUMENTS: Final = {
    "str": '"ab"',
    "int": "3",
    "list[str]": '["a", "b"]',
    "dict[str, str]": '{"a": "b"}',
}


#: Give every tool parameter names of its own (set in the measuring interpreter).
unique_names = False


def _signature(index: int) -> list[tuple[str, str, str | None]]:
    """The parameters of tool *index*: one to four, drawn so that shapes vary across tools.

    From the pool, 1,000 tools have 12 distinct signatures, as real tools reuse ``query``,
    ``limit`` or ``path``; with `unique_names`, every tool's names are its own (the worst case
    for anything shared between tools).
    """
    count = 1 + index % 4
    start = (index * 7) % len(_PARAMETERS)
    drawn = [_PARAMETERS[(start + k) % len(_PARAMETERS)] for k in range(count)]
    if unique_names:
        return [(f"{name}_{index}", kind, default) for name, kind, default in drawn]
    return drawn


def _call_text(signature: list[tuple[str, str, str | None]]) -> str:
    """JSON arguments giving each required parameter a value."""
    members = [f'"{name}": {_ARGUMENTS[kind]}' for name, kind, default in signature if not default]
    return "{" + ", ".join(members) + "}"


def _params(signature: list[tuple[str, str, str | None]]) -> str:
    return ", ".join(
        f"{name}: {kind}" + (f" = {default}" if default else "")
        for name, kind, default in signature
    )


def _classes_source(classes: int, *, toolset: bool) -> str:
    lines: list[str] = []
    for c in range(classes):
        lines.append(f"class C{c}{'(Toolset)' if toolset else ''}:")
        for m in range(5):
            signature = _signature(c * 5 + m)
            if toolset:
                lines.append("    @tool")
            lines.append(f"    def m{m}(self, *, {_params(signature)}) -> int:")
            lines.append(f"        return {m}")
    return "\n".join(lines) + "\n"


def _functions_source(classes: int) -> str:
    lines: list[str] = []
    for index in range(classes * 5):
        signature = _signature(index)
        lines.append(f"def f{index}(*, {_params(signature)}) -> int:")
        lines.append("    return 1")
    return "\n".join(lines) + "\n"


def _typeddicts_source(classes: int) -> str:
    lines = ["import pydantic", "from typing_extensions import NotRequired, TypedDict"]
    for index in range(classes * 5):
        lines.append(f"class A{index}(TypedDict):")
        lines.append('    __pydantic_config__ = pydantic.ConfigDict(strict=True, extra="forbid")')
        for name, kind, default in _signature(index):
            lines.append(f"    {name}: {f'NotRequired[{kind}]' if default else kind}")
    return "\n".join(lines) + "\n"


_MEMORY: Final = """
import gc, json, sys, tracemalloc
sys.path.insert(0, {here!r})
import first_use as bench

bench.unique_names = {unique!r}
CLASSES = {classes}
calls = [bench._call_text(bench._signature(i)) for i in range(CLASSES * 5)]

def measure(source, after):
    namespace = dict(BASE)
    code = compile(source, "<generated>", "exec")
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    exec(code, namespace)
    kept = after(namespace)
    gc.collect()
    used = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    return used, kept

if {ours!r}:
    from typed_toolsets import Toolset, tool
    BASE = {{"Toolset": Toolset, "tool": tool}}
    warm = {{}}
    exec(bench._classes_source(1, toolset=True), {{**BASE, "__name__": "warm"}}, warm)
    for proxy in warm["C0"].to_tools():
        proxy.dynamic_call(calls[0] if proxy.method_name == "m0" else "{{}}")

    def bind(namespace):
        kept = []
        for c in range(CLASSES):
            tools = namespace[f"C{{c}}"].to_tools()
            for m, proxy in enumerate(tools):
                value = proxy.dynamic_call(calls[c * 5 + m])
                assert value == m, value
            kept.append(tools)
        return kept

    plain, _ = measure(bench._classes_source(CLASSES, toolset=False), lambda ns: None)
    used, kept = measure(bench._classes_source(CLASSES, toolset=True), bind)
else:
    import pydantic
    BASE = {{}}

    def adapt(namespace, count=CLASSES * 5):
        kept = []
        for index in range(count):
            function = namespace[f"f{{index}}"]
            if {pydantic_mode!r} == "validate_call":
                checked = pydantic.validate_call(function)
                assert checked(**json.loads(calls[index])) == 1
                kept.append(checked)
                continue
            adapter = pydantic.TypeAdapter(namespace[f"A{{index}}"])
            adapter.json_schema()
            assert function(**adapter.validate_json(calls[index])) == 1
            kept.append((adapter, function))
        return kept

    warm = {{}}  # what any first adapter loads
    exec(bench._functions_source(1) + bench._typeddicts_source(1), warm)
    adapt(warm, 1)
    functions = bench._functions_source(CLASSES)
    plain, _ = measure(functions, lambda ns: None)
    if {pydantic_mode!r} == "TypeAdapter":
        functions += bench._typeddicts_source(CLASSES)
    used, kept = measure(functions, adapt)
print(json.dumps({{"per tool": (used - plain) / (CLASSES * 5)}}))
"""


def memory_per_tool(
    classes: int, *, ours: bool, unique: bool = False, pydantic_mode: str = "TypeAdapter"
) -> float:
    """Bytes each tool keeps, measured in a fresh interpreter.

    Args:
        classes: How many classes of 5 tools (or 5 times as many functions).
        ours: typed_toolsets, else pydantic.
        unique: Give every tool its own parameter names (see `unique_names`).
        pydantic_mode: ``"TypeAdapter"`` (with the JSON Schema a model is shown) or
            ``"validate_call"`` (validation only, no schema).
    """
    here = os.path.dirname(os.path.abspath(__file__))
    code = _MEMORY.format(
        here=here, classes=classes, ours=ours, unique=unique, pydantic_mode=pydantic_mode
    )
    with tempfile.TemporaryDirectory() as cache:
        return _run_json(code, _fresh_env(cache))["per tool"]


# --------------------------------------------------------------------------------------- async

AsyncCall = Callable[[str], Awaitable[Any]]


def _async_contenders(pydantic: bool) -> dict[str, AsyncCall]:
    from typed_toolsets import Toolset, tool

    def count(text: str) -> int:
        return len(text.split())

    class Words(Toolset):
        @tool(inline=True)
        def inline(self, *, text: str) -> int:
            return count(text)

        @tool
        def threaded(self, *, text: str) -> int:
            return count(text)

        @tool
        async def coroutine(self, *, text: str) -> int:
            return count(text)

    tools = {proxy.method_name: proxy for proxy in Words.to_tools()}
    contenders: dict[str, AsyncCall] = {
        "sync tool, inline=True": tools["inline"].adynamic_call,
        "sync tool, worker thread (default)": tools["threaded"].adynamic_call,
        "async def tool": tools["coroutine"].adynamic_call,
    }
    if pydantic:
        import pydantic as pd
        from typing_extensions import TypedDict

        class WordsArgs(TypedDict):
            __pydantic_config__ = pd.ConfigDict(strict=True, extra="forbid")  # type: ignore[misc]  # pydantic reads it
            text: str

        adapter = pd.TypeAdapter(WordsArgs)

        async def direct(text: str) -> int:
            return count(**adapter.validate_json(text))

        contenders["pydantic validate_json + direct call"] = direct
    return contenders


def async_per_call_us(batches: int, calls: int, *, pydantic: bool) -> dict[str, float]:
    """Median of interleaved batch means, in microseconds per call."""
    contenders = _async_contenders(pydantic)
    text = '{"text": "one two three"}'

    async def main() -> dict[str, list[float]]:
        for call in contenders.values():
            assert await call(text) == 3
        means: dict[str, list[float]] = {name: [] for name in contenders}
        for _ in range(batches):
            for name, call in contenders.items():
                start = time.perf_counter()
                for _ in range(calls):
                    await call(text)
                means[name].append((time.perf_counter() - start) / calls * 1e6)
        return means

    return {name: statistics.median(values) for name, values in asyncio.run(main()).items()}


# ---------------------------------------------------------------------------------------- main


def _has_pydantic() -> bool:
    try:
        import pydantic  # noqa: F401  # pyright: ignore[reportUnusedImport]
    except ImportError:
        return False
    return True


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer runs and batches")
    options = parser.parse_args()
    pydantic = _has_pydantic()
    missed: list[str] = []

    runs = 7 if options.quick else 21
    print(f"first use, ms (median of {runs} fresh interpreters; min-max)")
    first = first_use(runs, pydantic=pydantic)
    phases = ("import", "define", "first use")
    print(f"{'':<16}" + "".join(f"{phase:>22}" for phase in phases))
    for name, samples in first.items():
        cells = [
            f"{statistics.median(samples[p]):7.1f} ({min(samples[p]):.1f}-{max(samples[p]):.1f})"
            for p in phases
        ]
        print(f"{name:<16}" + "".join(f"{cell:>22}" for cell in cells))
    ours_first = statistics.median(first["typed_toolsets"]["first use"])
    if ours_first > FIRST_USE_GOAL_MS:
        missed.append(f"first use {ours_first:.1f} ms > {FIRST_USE_GOAL_MS} ms")

    classes = 40 if options.quick else 200
    print(f"\nmemory per tool, KiB ({classes} classes of 5 tools, after to_tools() and a call)")
    print(f"{'':<38}{'names reused':>14}{'names unique':>14}")
    ours_memory = memory_per_tool(classes, ours=True) / 1024
    ours_unique = memory_per_tool(classes, ours=True, unique=True) / 1024
    print(f"{'typed_toolsets':<38}{ours_memory:14.1f}{ours_unique:14.1f}")
    if pydantic:
        for mode, label in (
            ("TypeAdapter", "pydantic TypeAdapter + json_schema()"),
            ("validate_call", "pydantic validate_call (no schema)"),
        ):
            theirs = [
                memory_per_tool(classes, ours=False, unique=u, pydantic_mode=mode) / 1024
                for u in (False, True)
            ]
            print(f"{label:<38}{theirs[0]:14.1f}{theirs[1]:14.1f}")
    for case, kib in (("", ours_memory), (", names unique", ours_unique)):
        if kib > MEMORY_GOAL_KIB:
            missed.append(f"memory per tool{case} {kib:.1f} KiB > {MEMORY_GOAL_KIB} KiB")

    batches, calls = (5, 500) if options.quick else (15, 2000)
    print(f"\nasync, us per call (median of {batches} interleaved batches of {calls})")
    for name, us in async_per_call_us(batches, calls, pydantic=pydantic).items():
        print(f"  {name:<40}{us:8.1f}")

    return status(missed)


if __name__ == "__main__":
    sys.exit(main())
