"""A runnable tour: declare two small toolsets, export them, show a schema, make calls.

Run it with ``typed-toolsets demo`` (the README's first command).
"""

from __future__ import annotations

import enum
import json
import sys
from typing import TextIO

from typed_toolsets._toolset import Toolset
from typed_toolsets.definition.declarations import tool

__all__ = ["main"]


class Priority(enum.Enum):
    """How urgent a task is."""

    LOW = "low"
    HIGH = "high"


class TextStatsToolset(Toolset):
    """Counts words and lines."""

    toolset_name = "stats"
    exports = (
        tool("word_count", description="Count whitespace-separated words"),
        tool("line_count", description="Count lines"),
    )

    def word_count(self, *, text: str) -> int:
        return len(text.split())

    def line_count(self, *, text: str) -> int:
        return len(text.splitlines())


class TaskToolset(Toolset):
    """Assigns priorities to tasks."""

    toolset_name = "task"

    @tool(description="Assign a task priority")
    def assign(self, *, task_id: str, priority: Priority, note: str | None = None) -> str:
        """Assign a priority.

        Args:
            task_id: The task to change.
            priority: Its new priority.
            note: Why, if worth saying.
        """
        return f"{task_id}: {priority.value}" + (f": {note}" if note else "")


def main(out: TextIO | None = None) -> None:
    """Print the tools, one schema, and the results of a few model-style calls."""
    stream: TextIO = sys.stdout if out is None else out
    tools = {t.name: t for t in [*TextStatsToolset.to_tools(), *TaskToolset.to_tools()]}
    stream.write("tools: " + ", ".join(tools) + "\n")
    stream.write(json.dumps(tools["task_assign"].schema, indent=2) + "\n")
    calls: list[tuple[str, dict[str, object] | str]] = [
        ("stats_word_count", {"text": "one two\nthree"}),
        ("stats_line_count", '{"text": "one two\\nthree"}'),
        ("task_assign", {"task_id": "T-1", "priority": "high"}),
        ("task_assign", {"priority": "urgent", "extra": 1}),
        ("stats_word_count", "[not json"),
    ]
    for name, arguments in calls:
        result = tools[name].dynamic_call(arguments)
        stream.write(f"{name}({json.dumps(arguments)}) -> {result!r}\n")


if __name__ == "__main__":
    main()
