"""The examples of the seed page ("Toolsets"), translated to Python, as tests."""

from __future__ import annotations

import enum
import json

import attrs

from typed_toolsets import ToolProxy, Toolset, tool


class TextStatsToolset(Toolset):
    toolset_name = "stats"
    exports = (
        tool("word_count", description="Count whitespace-separated words"),
        tool("line_count", description="Count lines"),
    )

    def word_count(self, *, text: str) -> int:
        return len(text.split())

    def line_count(self, *, text: str) -> int:
        return len(text.splitlines())


class DatabaseToolset(Toolset):
    exports = (tool("query"),)

    def query(self) -> str:
        return "ok"


class NamedDatabaseToolset(Toolset):
    toolset_name = "db"
    exports = (tool("query"),)

    def query(self) -> str:
        return "ok"


@attrs.define
class CatalogToolset(Toolset):
    base_url: str = "https://example.invalid"

    exports = (
        tool(
            "search",
            tool_name="catalog_lookup",
            description="Look up an item in the product catalog",
        ),
    )

    def search(self, *, query: str, limit: int = 10) -> list[str]:
        return [f"{self.base_url}/{query}"][:limit]


class Priority(enum.Enum):
    LOW = "low"
    HIGH = "high"


class TaskToolset(Toolset):
    toolset_name = "task"
    exports = (tool("assign", description="Assign a task priority"),)

    def assign(self, *, task_id: str, priority: Priority, note: str | None = None) -> str:
        return f"{task_id}: {priority.value}" + (f": {note}" if note else "")


def by_name(tools: list[ToolProxy]) -> dict[str, ToolProxy]:
    return {t.name: t for t in tools}


class TestDefineAndExport:
    def test_direct_method_call_still_works(self) -> None:
        """A toolset is an ordinary class: its methods can be called directly."""
        assert TextStatsToolset().word_count(text="one two") == 2

    def test_exported_names_follow_declaration_order(self) -> None:
        assert [t.name for t in TextStatsToolset.to_tools()] == [
            "stats_word_count",
            "stats_line_count",
        ]

    def test_to_tools_shares_one_instance_per_call(self) -> None:
        first = TextStatsToolset.to_tools()
        second = TextStatsToolset.to_tools()
        assert first[0].toolset is first[1].toolset
        assert first[0].toolset is not second[0].toolset
        assert first is not second

    def test_rspec_example(self) -> None:
        """The seed's testing example: names and the dynamic call."""
        tools = TextStatsToolset.to_tools()
        assert [t.name for t in tools] == ["stats_word_count", "stats_line_count"]
        assert tools[0].dynamic_call({"text": "one two"}) == 2

    def test_dynamic_call_accepts_json_text(self) -> None:
        assert TextStatsToolset.to_tools()[0].dynamic_call('{"text": "one two"}') == 2

    def test_direct_proxy_call(self) -> None:
        assert TextStatsToolset.to_tools()[1].call(text="a\nb\nc") == 3


class TestNames:
    def test_default_toolset_name_drops_the_suffix(self) -> None:
        assert DatabaseToolset.toolset_name == "database"
        assert [t.name for t in DatabaseToolset.to_tools()] == ["database_query"]

    def test_explicit_toolset_name(self) -> None:
        assert [t.name for t in NamedDatabaseToolset.to_tools()] == ["db_query"]

    def test_tool_name_override_is_used_as_is(self) -> None:
        (lookup,) = CatalogToolset.to_tools()
        assert lookup.name == "catalog_lookup"
        assert lookup.method_name == "search"
        assert lookup.description == "Look up an item in the product catalog"
        assert lookup.dynamic_call({"query": "lamp"}) == ["https://example.invalid/lamp"]

    def test_default_description(self) -> None:
        assert DatabaseToolset.to_tools()[0].description == "Query operation"


class TestTaskToolset:
    def test_schema_inspection(self) -> None:
        assign = by_name(TaskToolset.to_tools())["task_assign"]
        assert assign.schema == {
            "name": "task_assign",
            "description": "Assign a task priority",
            "parameters": {
                "type": "object",
                "properties": {
                    "task_id": {"type": "string"},
                    "priority": {"type": "string", "enum": ["low", "high"]},
                    "note": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None},
                },
                "required": ["task_id", "priority"],
                "additionalProperties": False,
            },
        }
        assert list(assign.schema) == ["name", "description", "parameters"]
        json.dumps(assign.schema)  # JSON-ready

    def test_enum_arrives_as_member_and_nullable_note_is_omittable(self) -> None:
        assign = by_name(TaskToolset.to_tools())["task_assign"]
        assert assign.dynamic_call({"task_id": "T-1", "priority": "high"}) == "T-1: high"
        assert (
            assign.dynamic_call({"task_id": "T-1", "priority": "low", "note": None}) == "T-1: low"
        )
        assert assign.dynamic_call({"task_id": "T-1", "priority": "low", "note": "soon"}) == (
            "T-1: low: soon"
        )

    def test_bad_arguments_get_every_problem(self) -> None:
        assign = by_name(TaskToolset.to_tools())["task_assign"]
        assert assign.dynamic_call({"priority": "urgent"}) == (
            "Error: Invalid arguments for tool 'task_assign': priority: 'urgent' is not one of "
            "['low', 'high']; task_id: missing required argument"
        )

    def test_llm_usage_action(self) -> None:
        """The seed's LLM example: the model picks the exported name and sends action_input."""
        step = {"action": "stats_word_count", "action_input": {"text": "one two\nthree"}}
        tools = by_name(TextStatsToolset.to_tools())
        assert tools[step["action"]].dynamic_call(step["action_input"]) == 3
