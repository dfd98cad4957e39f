"""The plugin checks each struct of a parameter's type once, however many paths reach it.

A cycle of attrs classes, each naming the next twice (``nxt: R1 | None``, ``kids: list[R1]``),
has 2**n paths around it: the plugin checked the classes once per path (54 s of mypy for 20
classes, for ever for 40), where the run time takes a moment. Run as a subprocess with a
generous bound: the test is about ending at all, not about speed.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

SIZE = 40
CONFIG = "[mypy]\nstrict = True\nplugins = typed_toolsets.mypy\n"


def _cycle(size: int, last_field: str) -> str:
    """*size* classes in a cycle, the last with *last_field* too, and a tool taking the first."""
    classes = "".join(
        f"@attrs.define\nclass R{i}:\n    x: int\n"
        f"    nxt: R{(i + 1) % size} | None = None\n"
        f"    kids: list[R{(i + 1) % size}] = attrs.Factory(list)\n"
        + (f"    {last_field}\n" if i == size - 1 else "")
        + "\n\n"
        for i in range(size)
    )
    return (
        "from __future__ import annotations\n\nimport attrs\n\n"
        "from typed_toolsets import Toolset, tool\n\n\n"
        f"{classes}"
        "class Graph(Toolset):\n"
        "    @tool\n"
        "    def walk(self, *, start: R0) -> str:\n"
        "        return ''\n"
    )


def _mypy(directory: Path, source: str) -> list[str]:
    (directory / "mypy.ini").write_text(CONFIG)
    (directory / "graph.py").write_text(source)
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-incremental", "--config-file", "mypy.ini", "graph.py"],
        cwd=directory,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    return [line for line in done.stdout.splitlines() if ": error:" in line]


def test_a_cycle_of_structs_is_checked_in_time(tmp_path: Path) -> None:
    assert _mypy(tmp_path, _cycle(SIZE, "label: str = ''")) == []


def test_a_problem_inside_the_cycle_is_still_found(tmp_path: Path) -> None:
    (error,) = _mypy(tmp_path, _cycle(SIZE, "blob: bytes = b''"))
    assert "Graph.walk: parameter 'start' has type R0, which has no JSON Schema" in error
    assert f"field R{SIZE - 1}.blob: bytes cannot be sent as JSON" in error
