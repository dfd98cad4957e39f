"""How much the mypy plugin adds to a mypy run, cold and warm (the limit is 10 % for each).

Generates a module of 100 toolsets with 2 tools each (one declared in ``exports``, one with
``@tool``; parameters of assorted types), then type checks it with and without
``plugins = typed_toolsets.mypy``, alternating the two so that drift in the machine's speed hits
both alike: *cold*, with an empty cache, and *warm*, with the cache of a previous run and
nothing changed (what CI and editors mostly do; mypy then runs no hook, so this measures
loading the plugin). Each run is measured as the CPU time mypy's process used (user + system),
which other load on the machine barely disturbs, and as wall-clock time, for reference. Prints
every run, the medians and their ratio; exits with status 1 when a CPU-time median of the
plugin is more than the limit above the other.

Then, because a shared machine makes whole-run timings noisy, it runs mypy once more in this
process with every plugin hook wrapped in a timer, and prints the time spent inside the plugin
as a share of the run: the overhead measured directly.

    python benchmarks/mypy_plugin.py [--runs 9] [--toolsets 100] [--limit 0.10]

Not a test: timings depend on the machine. Run it after changing the plugin.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")

HEADER = """\
from __future__ import annotations

import enum
from typing import Literal

import attrs

from typed_toolsets import Toolset, tool


class Color(str, enum.Enum):
    RED = "red"
    BLUE = "blue"


@attrs.define
class Filter:
    field: str
    value: int | None = None
"""

TOOLSET = """

@attrs.define
class Generated{n}Toolset(Toolset):
    base_url: str = "https://example.invalid/{n}"
    exports = (tool("search", description="Search {n}"),)

    def search(
        self, *, query: str, limit: int = 10, filters: list[Filter] | None = None
    ) -> list[str]:
        return [query] * limit

    @tool(tool_name="generated_{n}_paint")
    def paint(self, *, color: Color, mode: Literal["fast", "slow"] = "fast") -> str:
        return color.value + mode
"""

CONFIG = """\
[mypy]
strict = True
{plugins}
"""


def generate(directory: Path, toolsets: int) -> Path:
    module = directory / "generated_toolsets.py"
    module.write_text(HEADER + "".join(TOOLSET.format(n=n) for n in range(toolsets)))
    (directory / "with_plugin.ini").write_text(
        CONFIG.format(plugins="plugins = typed_toolsets.mypy")
    )
    (directory / "without_plugin.ini").write_text(CONFIG.format(plugins=""))
    return module


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_mypy(directory: Path, config: str, module: Path, *, warm: bool) -> tuple[float, float]:
    """One mypy run: (CPU seconds, wall-clock seconds).

    Cold runs start from an empty cache (typeshed included); warm runs reuse the cache the
    previous run of the same variant left, with nothing changed.
    """
    cache = directory / f"cache-{Path(config).stem}"
    if not warm:
        shutil.rmtree(cache, ignore_errors=True)
    cpu = _children_cpu()
    start = time.perf_counter()
    # Modules load from bytecode, as after `pip install`: an editable checkout run under
    # PYTHONDONTWRITEBYTECODE would compile the plugin from source on every run.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(directory / "pycache")
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", config, "--cache-dir", str(cache), module],
        cwd=directory,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    elapsed = time.perf_counter() - start
    cpu = _children_cpu() - cpu
    if result.returncode != 0:
        sys.exit(f"mypy failed with {config}:\n{result.stdout}{result.stderr}")
    return cpu, elapsed


def measure(directory: Path, module: Path, runs: int, *, warm: bool) -> float:
    """Time *runs* runs of each variant; print them and the medians; the CPU-time ratio."""
    print(f"{'warm' if warm else 'cold'} cache:")
    # One untimed run of each warms the OS file cache and the interpreter's .pyc files (and,
    # for warm runs, fills mypy's cache).
    run_mypy(directory, "with_plugin.ini", module, warm=False)
    run_mypy(directory, "without_plugin.ini", module, warm=False)
    cpu: dict[str, list[float]] = {"without": [], "with": []}
    wall: dict[str, list[float]] = {"without": [], "with": []}
    for index in range(runs):
        order = ("without", "with") if index % 2 == 0 else ("with", "without")
        for variant in order:
            cpu_seconds, wall_seconds = run_mypy(
                directory, f"{variant}_plugin.ini", module, warm=warm
            )
            cpu[variant].append(cpu_seconds)
            wall[variant].append(wall_seconds)
            print(
                f"  run {index + 1}: {variant:>7} plugin  cpu {cpu_seconds:.3f} s  "
                f"wall {wall_seconds:.3f} s"
            )
    for name, table in (("wall-clock", wall), ("CPU", cpu)):
        without, with_plugin = statistics.median(table["without"]), statistics.median(table["with"])
        print(
            f"  median {name:>10}: without {without:.3f} s, with {with_plugin:.3f} s, "
            f"ratio {with_plugin / without:.3f}"
        )
    return statistics.median(cpu["with"]) / statistics.median(cpu["without"])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9, help="runs of each variant (default 9)")
    parser.add_argument("--toolsets", type=int, default=100, help="toolsets in the module")
    parser.add_argument("--limit", type=float, default=0.10, help="allowed overhead (0.10)")
    args = parser.parse_args()
    ratios: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as temporary:
        directory = Path(temporary)
        module = generate(directory, args.toolsets)
        lines = len(module.read_text().splitlines())
        print(f"{args.toolsets} toolsets, {2 * args.toolsets} tools, {lines} lines")
        for mode in ("cold", "warm"):
            ratios[mode] = measure(directory, module, args.runs, warm=mode == "warm")
    with tempfile.TemporaryDirectory() as temporary:
        directory = Path(temporary)
        module = generate(directory, args.toolsets)
        inside, total = hook_time(directory, module)
    share = inside / total * 100
    print(
        f"inside the plugin's hooks: {inside * 1000:.1f} ms of a {total:.3f} s cold run "
        f"({share:.1f} %)"
    )
    limit = f"limit +{args.limit * 100:.0f} %"
    for mode, ratio in ratios.items():
        verdict = "OK" if ratio <= 1 + args.limit else "TOO SLOW"
        print(
            f"plugin overhead, {mode} (CPU medians): {(ratio - 1) * 100:+.1f} % ({limit}): {verdict}"
        )
    return 0 if all(ratio <= 1 + args.limit for ratio in ratios.values()) else 1


def hook_time(directory: Path, module: Path) -> tuple[float, float]:
    """Seconds spent in the plugin's hooks during one cold in-process run, and the run's."""
    from mypy import api

    import typed_toolsets.mypy as plugin

    spent = [0.0]

    def timed(function: Callable[..., object]) -> Callable[..., object]:
        def wrapper(*args: object, **kwargs: object) -> object:
            start = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                spent[0] += time.perf_counter() - start

        return wrapper

    cls = plugin.TypedToolsetsPlugin
    for name in (
        "get_base_class_hook",
        "get_customize_class_mro_hook",
        "get_method_hook",
        "get_additional_indirect_deps",
        "report_config_data",
    ):
        setattr(cls, name, timed(getattr(cls, name)))
    # The hooks the lookups return are module functions: time them where they are looked up.
    for name in (
        "_record_class",
        "_record_mixin",
        "_check_class_hook",
        "_check_to_tools_access",
    ):
        setattr(plugin, name, timed(getattr(plugin, name)))
    config = str(directory / "with_plugin.ini")
    start = time.perf_counter()
    api.run(["--config-file", config, "--cache-dir", str(directory / "cache"), str(module)])
    return spent[0], time.perf_counter() - start


if __name__ == "__main__":
    raise SystemExit(main())
