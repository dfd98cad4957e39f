"""Where the plugin's messages point: start and end columns, so editors underline the whole
expression (``--show-error-end``), and the note that names an inherited declaration's class.
"""

from __future__ import annotations

import os
from pathlib import Path

from mypy import api

CONFIG = Path(__file__).parent / "mypy.ini"

SOURCE = """\
from typed_toolsets import Toolset, tool


class Base(Toolset):
    exports = (tool("find"),)

    def find(self, *, query: str) -> str:
        return query


class Tasks(Base):
    toolset_name = "my tasks"
    exports = (
        tool("asign"),
    )

    def run(self, *, data: bytes, count: int) -> None: ...


class Other(Toolset):
    exports = (tool("run"),)

    def run(self, *, data: bytes, count: int) -> None: ...


Other.to_tools()
"""


def _spans(tmp_path: Path) -> list[tuple[str, str, str]]:
    path = tmp_path / "spans.py"
    path.write_text(SOURCE, encoding="utf-8")
    stdout, stderr, _ = api.run(
        [
            "--config-file",
            str(CONFIG),
            "--no-incremental",
            "--cache-dir",
            os.devnull,
            "--show-error-end",
            "--show-column-numbers",
            "--no-error-summary",
            str(path),
        ]
    )
    assert stderr == ""
    found: list[tuple[str, str, str]] = []
    for line in stdout.splitlines():
        place, severity, message = line.split(": ", 2)
        found.append((place.split(":", 1)[1], severity, message.split(":", 1)[0]))
    return found


def test_each_message_spans_what_it_is_about(tmp_path: Path) -> None:
    assert _spans(tmp_path) == [
        # `class Tasks`, not its whole body: the class inherits the declaration.
        (
            "11:1:11:11",
            "note",
            "Tasks inherits the declaration of 'find' from Base (line 5 of spans)",
        ),
        # The line that makes the inherited name invalid: this class's toolset_name.
        ("12:5:12:29", "error", "Tasks.find"),
        # The whole `tool("asign")` call.
        ("14:9:14:21", "error", "Tasks.asign"),
        # The parameter, annotation included.
        ("23:22:23:32", "error", "Other.run"),
    ]
