# pyright: strict
"""Base toolsets, imported by `toolsets` from another module."""

from __future__ import annotations

from typing import ClassVar

import attrs

from typed_toolsets import AnnotationsLike, Limits, ToolAnnotations, Toolset, tool


class TaskToolset(Toolset):
    """Tasks, with one export declared by name and one by decorator."""

    toolset_name = "task"
    exports = (tool("assign", description="Assign a task"),)

    def assign(self, *, task_id: str, assignee: str | None = None) -> str:
        return f"{task_id}:{assignee}"

    @tool
    def close(self, *, task_id: str) -> bool:
        return bool(task_id)

    def search(self, *, query: str, limit: int = 10) -> list[str]:
        return [query] * limit


@attrs.define
class ConfiguredToolset(TaskToolset):
    """State in attrs fields, every one with a default."""

    base_url: str = "https://example.invalid"
    retries: int = 3


class AnnotatedOptionsToolset(Toolset):
    """Class options annotated with the types `Toolset` gives them (pyright's overrides)."""

    toolset_name: ClassVar[str] = "annotated"
    limits: ClassVar[Limits] = Limits(timeout=5.0)
    tool_annotations: ClassVar[AnnotationsLike | None] = ToolAnnotations(read_only_hint=True)
    requires_approval: ClassVar[bool] = False

    @tool
    def read(self, *, path: str) -> str:
        return path
