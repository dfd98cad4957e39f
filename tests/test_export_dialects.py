"""The export dialects: each provider's shape, keyword moves, refusals, and golden files for the
built-in toolsets (``UPDATE_GOLDEN=1 pytest tests/test_export_dialects.py`` rewrites them)."""

from __future__ import annotations

import dataclasses
import datetime
import enum
import json
import os
import typing
from pathlib import Path
from typing import Annotated, Any, Final, Literal

import attrs
import pytest
from annotated_types import Gt, MaxLen, MinLen, MultipleOf

from tests.strategies.toolsets import echo_tool
from typed_toolsets import ExportError, ToolAnnotations, ToolProxy, Toolset, register_type, tool
from typed_toolsets.export import (
    anthropic,
    dispatch,
    gemini,
    mcp,
    mcp_call,
    openai_chat,
    openai_responses,
)
from typed_toolsets.github import GitHubCLIToolset
from typed_toolsets.text import TextProcessingToolset

GOLDEN = Path(__file__).resolve().parent / "golden"


class Size(enum.IntEnum):
    SMALL = 1
    LARGE = 2


@attrs.frozen
class Item:
    """A line of an order."""

    sku: Annotated[str, MinLen(3)]
    quantity: Annotated[int, Gt(0)] = 1


@dataclasses.dataclass
class Category:
    name: str
    parent: Category | None = None


class Orders(Toolset):
    tool_annotations = ToolAnnotations(open_world_hint=False)

    @tool(annotations=ToolAnnotations(title="Place an order", destructive_hint=False))
    def place(
        self,
        *,
        items: Annotated[list[Item], MaxLen(5)],
        size: Size = Size.SMALL,
        mode: Literal["fast"] = "fast",
        tags: frozenset[str] = frozenset(),
        pair: tuple[int, str] = (1, "a"),
        when: datetime.date | None = None,
        ratio: float = 0.5,
    ) -> Item:
        """Place an order.

        Args:
            items: What to order.
        """
        return items[0]

    @tool
    def count(self) -> int:
        return 3

    @tool
    def file(self, *, category: Category) -> str:
        return category.name

    @tool
    def label(self, *, extra: dict[str, int] | None = None) -> list[str]:
        return sorted(extra or {})


def _by_name(entries: list[dict[str, Any]], key: str = "name") -> dict[str, dict[str, Any]]:
    return {e[key]: e for e in entries}


def _tools(*names: str) -> list[ToolProxy]:
    tools = Orders.to_tools()
    return [t for t in tools if t.method_name in names] if names else tools


# --------------------------------------------------------------------------------- shapes


def test_openai_chat_wraps_each_definition_with_its_strict_flag() -> None:
    (entry,) = openai_chat(_tools("count"))
    assert entry == {
        "type": "function",
        "function": {
            "name": "orders_count",
            "description": "Count operation",
            "parameters": {
                "type": "object",
                "properties": {},
                "required": [],
                "additionalProperties": False,
            },
            "strict": False,
        },
    }
    (strict,) = openai_chat(_tools("count"), strict=True)
    assert strict["function"]["strict"] is True


def test_openai_responses_is_flat() -> None:
    (entry,) = openai_responses(_tools("count"))
    assert list(entry) == ["type", "name", "description", "parameters", "strict"]
    assert entry["type"] == "function"
    assert entry["strict"] is False


def test_anthropic_uses_input_schema_and_says_strict_only_when_strict() -> None:
    (entry,) = anthropic(_tools("count"))
    assert list(entry) == ["name", "description", "input_schema"]
    (strict,) = anthropic(_tools("count"), strict=True)
    assert strict["strict"] is True


def test_non_strict_dialects_carry_the_canonical_schema_unchanged() -> None:
    for proxy in _tools():
        canonical = proxy.parameters
        assert anthropic([proxy])[0]["input_schema"] == canonical
        assert mcp([proxy])[0]["inputSchema"] == canonical
        # OpenAI's only change: the tuple gets the items OpenAI requires (see below).
        if "pair" in canonical["properties"]:
            canonical["properties"]["pair"]["items"] = {
                "anyOf": [{"type": "integer"}, {"type": "string"}]
            }
        assert openai_chat([proxy])[0]["function"]["parameters"] == canonical
        assert openai_responses([proxy])[0]["parameters"] == canonical


@dataclasses.dataclass
class Branch:
    bounds: tuple[int, int]
    children: list[Branch] = dataclasses.field(default_factory=list)


class Tuples(Toolset):
    @tool
    def view(
        self,
        *,
        span: tuple[int, int],
        nothing: tuple[()],
        pairs: list[tuple[str, Size]] = [],  # noqa: B006 - never mutated
        empty: tuple[()] = (),
    ) -> int:
        return span[0]

    @tool
    def grow(self, *, root: Branch) -> int:
        return len(root.children)


def _arrays_without_items(schema: object, path: str = "$") -> list[str]:
    found: list[str] = []
    if isinstance(schema, dict):
        node = typing.cast("dict[str, object]", schema)
        if node.get("type") in ("array", "ARRAY") and "items" not in node:
            found.append(path)
        for key, value in node.items():
            found += _arrays_without_items(value, f"{path}.{key}")
    elif isinstance(schema, list):
        for index, value in enumerate(typing.cast("list[object]", schema)):
            found += _arrays_without_items(value, f"{path}[{index}]")
    return found


def test_openai_and_gemini_arrays_all_have_items() -> None:
    # OpenAI refuses an array schema without items, strict or not ("array schema missing
    # items"); so does Gemini.
    tools = Tuples.to_tools()
    for strict in (False, True):
        assert _arrays_without_items(openai_chat(tools, strict=strict)) == []
        assert _arrays_without_items(openai_responses(tools, strict=strict)) == []
    assert _arrays_without_items(anthropic(tools[:1], strict=True)) == []
    assert _arrays_without_items(gemini(tools[:1])) == []


def test_the_items_openai_gets_admit_exactly_what_the_canonical_schema_admits() -> None:
    from jsonschema import Draft202012Validator

    tools = Tuples.to_tools()
    instances: list[dict[str, object]] = [
        {"span": [1, 2], "nothing": []},
        {"span": [1, 2], "nothing": [], "pairs": [["a", 1]], "empty": []},
        {"span": [1, 2, 3], "nothing": []},
        {"span": [1], "nothing": []},
        {"span": ["a", 2], "nothing": []},
        {"span": [1, 2], "nothing": [None]},
        {"span": [1, 2], "nothing": [1]},
        {"span": [1, 2], "nothing": [], "pairs": [["a", 1, 2]]},
        {"span": [1, 2], "nothing": [], "empty": [None]},
    ]
    canonical = Draft202012Validator(tools[0].parameters)
    for entry in (openai_chat(tools)[0]["function"], openai_responses(tools)[0]):
        exported = Draft202012Validator(entry["parameters"])
        for instance in instances:
            admitted = canonical.is_valid(instance)
            assert exported.is_valid(instance) == admitted, instance
            # The call path agrees with both, in both forms.
            for strict in (False, True):
                result = dispatch(tools, "tuples_view", instance, strict=strict)
                assert (result == 1) == admitted, (instance, result)
    assert tools[0].parameters["properties"]["span"] == {  # the canonical schema is unchanged
        "type": "array",
        "prefixItems": [{"type": "integer"}, {"type": "integer"}],
        "minItems": 2,
        "maxItems": 2,
    }
    (entry,) = openai_chat(tools[:1])
    properties = entry["function"]["parameters"]["properties"]
    assert properties["span"]["items"] == {"type": "integer"}
    assert properties["pairs"]["items"]["items"] == {
        "anyOf": [{"type": "string"}, {"type": "integer", "enum": [1, 2]}]
    }
    # tuple[()] admits no item whatever items says: a typed schema every dialect takes.
    assert properties["nothing"] == {"type": "array", "maxItems": 0, "items": {"type": "null"}}
    (strict,) = openai_chat(tools[:1], strict=True)
    assert strict["function"]["parameters"]["properties"]["nothing"] == properties["nothing"]


class _Sheet:
    """A registered type whose schema holds arrays under every kind of subschema keyword."""


_ANY_ARRAY: Final = {"type": "array"}
register_type(
    _Sheet,
    schema={
        "type": "object",
        "patternProperties": {"^x": _ANY_ARRAY},
        "dependentSchemas": {"a": {"properties": {"b": _ANY_ARRAY}}},
        "propertyNames": {"not": _ANY_ARRAY},
        "if": _ANY_ARRAY,
        "then": _ANY_ARRAY,
        "else": {"properties": {"c": {"type": "array", "contains": _ANY_ARRAY}}},
        "unevaluatedProperties": _ANY_ARRAY,
    },
    structure=lambda value: _Sheet(),
    unstructure=lambda sheet: {},
)


def test_openai_gives_arrays_items_under_every_subschema_keyword() -> None:
    # A registered schema may use any of JSON Schema's keywords: an array under
    # patternProperties, dependentSchemas, if/then/else, contains or propertyNames went out
    # without the items OpenAI requires.
    proxy = echo_tool(_Sheet)
    assert _arrays_without_items(proxy.parameters) != []  # the canonical schema is unchanged
    (entry,) = openai_chat([proxy])
    assert _arrays_without_items(entry) == []
    sheet = entry["function"]["parameters"]["properties"]["value"]
    assert sheet["patternProperties"]["^x"] == {"type": "array", "items": {}}


class _Row:
    """A registered array type whose items past the prefix unevaluatedItems refuses."""


register_type(
    _Row,
    schema={"type": "array", "prefixItems": [{"type": "integer"}], "unevaluatedItems": False},
    structure=lambda value: _Row(),
    unstructure=lambda row: [1],
)


@pytest.mark.parametrize("nested", [False, True], ids=["top", "in-a-mapping"])
def test_the_items_openai_gets_keep_what_unevaluated_items_refuses(nested: bool) -> None:
    # `items: {}` was added beside `unevaluatedItems: false`: every item then counted as
    # evaluated, and [1, "junk", 3] matched the exported schema, not the canonical one.
    from jsonschema import Draft202012Validator

    proxy = echo_tool(dict[str, _Row] if nested else _Row)
    (entry,) = openai_chat([proxy])
    exported = entry["function"]["parameters"]
    sent = {"value": {"x": [1, "junk", 3]} if nested else [1, "junk", 3]}
    assert not Draft202012Validator(proxy.parameters).is_valid(sent)
    assert not Draft202012Validator(exported).is_valid(sent)
    assert _arrays_without_items(exported) == []


def test_openai_gives_arrays_items_inside_recursive_definitions_too() -> None:
    (entry,) = openai_chat(Tuples.to_tools()[1:])
    parameters = entry["function"]["parameters"]
    assert parameters["$defs"]["Branch"]["properties"]["bounds"]["items"] == {"type": "integer"}
    assert Tuples.to_tools()[1].parameters["$defs"]["Branch"]["properties"]["bounds"] == {
        "type": "array",
        "prefixItems": [{"type": "integer"}, {"type": "integer"}],
        "minItems": 2,
        "maxItems": 2,
    }


# ---------------------------------------------------------------------------------- strict


def test_openai_strict_moves_only_what_openai_lacks() -> None:
    (entry,) = openai_chat(_tools("place"), strict=True)
    properties = entry["function"]["parameters"]["properties"]
    # Required, so not nullable: bounds OpenAI supports stay, minLength moves.
    assert properties["items"] == {
        "type": "array",
        "items": {
            "type": "object",
            "description": "A line of an order.",
            "properties": {
                "sku": {"type": "string", "description": 'JSON Schema: {"minLength": 3}'},
                "quantity": {
                    "anyOf": [{"type": "integer", "exclusiveMinimum": 0}, {"type": "null"}],
                    "description": "null means the default (1).",
                },
            },
            "required": ["sku", "quantity"],
            "additionalProperties": False,
        },
        "maxItems": 5,
        "description": "What to order.",
    }
    assert properties["tags"]["anyOf"][0] == {
        "type": "array",
        "items": {"type": "string"},
        "description": 'JSON Schema: {"uniqueItems": true}',
    }
    # A fixed tuple keeps its length; its order moves into the description.
    pair = properties["pair"]["anyOf"][0]
    assert pair["items"] == {"anyOf": [{"type": "integer"}, {"type": "string"}]}
    assert (pair["minItems"], pair["maxItems"]) == (2, 2)
    assert json.loads(pair["description"].removeprefix("JSON Schema: ")) == {
        "prefixItems": [{"type": "integer"}, {"type": "string"}]
    }
    assert properties["when"]["anyOf"][0] == {"type": "string", "format": "date"}


def test_anthropic_strict_moves_bounds_and_drops_type_next_to_literals() -> None:
    (entry,) = anthropic(_tools("place"), strict=True)
    properties = entry["input_schema"]["properties"]
    item = properties["items"]["items"]
    assert item["properties"]["quantity"]["anyOf"][0] == {
        "type": "integer",
        "description": 'JSON Schema: {"exclusiveMinimum": 0}',
    }
    assert properties["items"]["description"] == 'What to order.\n\nJSON Schema: {"maxItems": 5}'
    assert properties["size"]["anyOf"][0] == {"enum": [1, 2]}
    assert properties["mode"]["anyOf"][0] == {"const": "fast"}


def test_anthropic_strict_refuses_recursive_types() -> None:
    with pytest.raises(ExportError) as caught:
        anthropic(_tools("file"), strict=True)
    assert caught.value.problems == (
        (
            "Tool 'orders_file' cannot be exported in Anthropic strict mode: parameter 'category' "
            "has the recursive type Category, and Anthropic's strict mode does not support "
            "recursive schemas; export it with strict=False, or use a type that does not refer to "
            "itself"
        ),
    )
    (openai,) = openai_chat(_tools("file"), strict=True)
    assert "$defs" in openai["function"]["parameters"]


def test_strict_exports_list_every_refusal_of_every_tool() -> None:
    with pytest.raises(ExportError) as caught:
        openai_chat([*_tools("label"), *GitHubCLIToolset.to_tools()], strict=True)
    assert len(caught.value.problems) == 2
    assert "'orders_label'" in caught.value.problems[0]
    assert "'extra'" in caught.value.problems[0]
    assert "'github_api_request'" in caught.value.problems[1]
    assert "'fields'" in caught.value.problems[1]


# --------------------------------------------------------------------------------- Gemini


def test_gemini_inlines_moves_and_marks_nullable() -> None:
    (entry,) = gemini(_tools("place"))
    parameters = entry["parameters"]
    assert list(parameters) == ["type", "properties", "required"]
    properties = parameters["properties"]
    assert properties["items"]["items"] == {
        "type": "object",
        "properties": {
            "sku": {"type": "string", "minLength": 3},
            "quantity": {
                "type": "integer",
                "default": 1,
                "description": 'JSON Schema: {"exclusiveMinimum": 0}',
            },
        },
        "required": ["sku"],
        "description": "A line of an order.",
    }
    assert properties["size"] == {
        "type": "integer",
        "default": 1,
        "description": 'JSON Schema: {"enum": [1, 2]}',
    }
    assert properties["mode"] == {"enum": ["fast"], "type": "string", "default": "fast"}
    assert properties["when"] == {
        "type": "string",
        "nullable": True,
        "description": 'JSON Schema: {"format": "date"}',
    }
    assert properties["ratio"] == {"type": "number", "default": 0.5}
    assert properties["pair"]["items"] == {"anyOf": [{"type": "integer"}, {"type": "string"}]}


@attrs.frozen
class Flags:
    """No fields (yet)."""


@attrs.frozen
class Labelled:
    name: str
    labels: dict[str, str]


def test_gemini_refuses_an_object_it_cannot_write_naming_tool_parameter_and_place() -> None:
    # Gemini refuses an object without properties ("properties: should be non-empty for OBJECT
    # type") at any depth; its schema cannot say "any key" (no additionalProperties).
    class Bags(Toolset):
        @tool
        def tag(self, *, labels: dict[str, str], items: list[Labelled], flags: Flags) -> int:
            return len(labels)

        @tool
        def maybe(self, *, flags: Flags | None = None) -> int:
            return 0

    free_form = (
        "is an object with free-form keys (such as dict[str, T]), and Gemini's schema cannot say "
        "so: it needs an object's properties named, and refuses an object without any; use a "
        "list of key/value objects or an attrs class, or export the tool to another provider"
    )
    no_fields = (
        "is an object with no fields, which Gemini refuses (an object needs at least one "
        "property); give the class a field, or take the parameter out (it can only be {})"
    )
    with pytest.raises(ExportError) as caught:
        gemini(Bags.to_tools())
    assert caught.value.problems == (
        f"Tool 'bags_tag' cannot be exported to Gemini: parameter 'labels' {free_form}",
        (
            "Tool 'bags_tag' cannot be exported to Gemini: parameter 'items' at "
            f"$.items[*].labels {free_form}"
        ),
        f"Tool 'bags_tag' cannot be exported to Gemini: parameter 'flags' {no_fields}",
        f"Tool 'bags_maybe' cannot be exported to Gemini: parameter 'flags' {no_fields}",
    )
    with pytest.raises(ExportError, match="parameter 'extra' is an object with free-form keys"):
        gemini(_tools("label"))  # dict[str, int] | None


def test_gemini_keeps_the_notes_of_an_optional_parameter_with_a_description() -> None:
    class Notes(Toolset):
        @tool
        def f(
            self,
            *,
            even: Annotated[int, MultipleOf(2)] | None,
            positive: Annotated[float, Gt(0)] | None = None,
            size: Size | None = None,
        ) -> int:
            """F.

            Args:
                even: An even count.
                positive: A positive number.
                size: How big.
            """
            return 0

    (entry,) = gemini(Notes.to_tools())
    assert entry["parameters"]["properties"] == {
        "even": {
            "type": "integer",
            "description": 'An even count.\n\nJSON Schema: {"multipleOf": 2}',
            "nullable": True,
        },
        "positive": {
            "type": "number",
            "description": 'A positive number.\n\nJSON Schema: {"exclusiveMinimum": 0}',
            "nullable": True,
        },
        "size": {
            "type": "integer",
            "description": 'How big.\n\nJSON Schema: {"enum": [1, 2]}',
            "nullable": True,
        },
    }


@dataclasses.dataclass
class Depth:
    depth: int = 3


def test_gemini_writes_an_optional_struct_as_closed_as_the_call_reads_it() -> None:
    # It noted 'JSON Schema: {"additionalProperties": true}' on the optional one (the outer
    # anyOf said nothing), while the call refuses any key the class does not declare.
    class Optional_(Toolset):
        @tool
        def f(self, *, a: Depth, b: Depth | None = None) -> int:
            return 0

    (entry,) = gemini(Optional_.to_tools())
    properties = entry["parameters"]["properties"]
    assert "description" not in properties["a"]
    assert "description" not in properties["b"]
    assert properties["b"]["nullable"] is True
    refused = Optional_.to_tools()[0].invoke({"a": {}, "b": {"depth": 1, "extra": 2}}).error
    assert refused is not None
    assert refused.details[0].path == "$.b.extra"


class Code(enum.Enum):
    OK = "ok"
    NOT_FOUND = 404


def _untyped(schema: dict[str, Any], path: str = "$") -> list[str]:
    """The Gemini schemas under *schema* with neither a type nor anyOf (Gemini refuses them)."""
    found = [] if "type" in schema or "anyOf" in schema else [path]
    for name, child in schema.get("properties", {}).items():
        found += _untyped(child, f"{path}.{name}")
    if "items" in schema:
        found += _untyped(schema["items"], f"{path}[*]")
    for index, branch in enumerate(schema.get("anyOf", [])):
        found += _untyped(branch, f"{path}.anyOf[{index}]")
    return found


def test_gemini_gives_every_literal_a_type() -> None:
    class Codes(Toolset):
        @tool
        def f(
            self,
            *,
            code: Code,
            mode: Literal["auto", 0],
            opt: Literal["a", None],
            ratio: Literal[1, 2.5] | None = None,
            flags: list[Literal[True, "yes"]] = [],  # noqa: B006 - never mutated
            nothing: Literal[None] = None,
        ) -> int:
            return 0

    (entry,) = gemini(Codes.to_tools())
    assert _untyped(entry["parameters"]) == []
    properties = entry["parameters"]["properties"]
    # Gemini enumerates strings only: the other values are noted, each type its own variant.
    assert properties["code"] == {
        "anyOf": [
            {"type": "string", "enum": ["ok"]},
            {"type": "integer", "description": 'JSON Schema: {"enum": [404]}'},
        ]
    }
    assert properties["mode"] == {
        "anyOf": [
            {"type": "string", "enum": ["auto"]},
            {"type": "integer", "description": 'JSON Schema: {"enum": [0]}'},
        ]
    }
    assert properties["opt"] == {"type": "string", "enum": ["a"], "nullable": True}
    assert properties["ratio"] == {
        "type": "number",
        "description": 'JSON Schema: {"enum": [1, 2.5]}',
        "nullable": True,
    }
    assert properties["flags"]["items"] == {
        "anyOf": [
            {"type": "boolean", "description": 'JSON Schema: {"enum": [true]}'},
            {"type": "string", "enum": ["yes"]},
        ]
    }
    assert properties["nothing"] == {"type": "null"}


def test_gemini_leaves_out_parameters_of_a_tool_without_any() -> None:
    assert gemini(_tools("count")) == [{"name": "orders_count", "description": "Count operation"}]


def test_gemini_refuses_a_recursive_type_naming_tool_and_parameter() -> None:
    with pytest.raises(ExportError) as caught:
        gemini(_tools("file"))
    assert caught.value.problems == (
        (
            "Tool 'orders_file' cannot be exported to Gemini: parameter 'category' has the "
            "recursive type Category, and Gemini accepts no $ref, so a type that refers to itself "
            "cannot be written out; use a type that does not refer to itself, or another provider"
        ),
    )


# ------------------------------------------------------------------------------------ MCP


def test_mcp_carries_output_schema_and_annotations() -> None:
    entries = _by_name(mcp(_tools()))
    place = entries["orders_place"]
    assert place["annotations"] == {
        "title": "Place an order",
        "destructiveHint": False,
        "openWorldHint": False,
    }
    assert place["outputSchema"]["type"] == "object"
    assert place["outputSchema"]["properties"]["sku"] == {"type": "string", "minLength": 3}
    # Non-object results are wrapped, as the MCP SDK does; str results are plain text.
    assert entries["orders_count"]["outputSchema"] == {
        "type": "object",
        "properties": {"result": {"type": "integer"}},
        "required": ["result"],
        "additionalProperties": False,
    }
    assert "outputSchema" not in entries["orders_file"]
    assert entries["orders_label"]["outputSchema"]["properties"]["result"] == {
        "type": "array",
        "items": {"type": "string"},
    }
    assert entries["orders_count"]["annotations"] == {"openWorldHint": False}


def test_mcp_wraps_a_recursive_result_with_its_defs_at_the_root() -> None:
    class Tree(Toolset):
        @tool
        def root(self) -> Category | None:
            return None

    (entry,) = mcp(Tree.to_tools())
    schema = entry["outputSchema"]
    assert schema["properties"]["result"] == {
        "anyOf": [{"$ref": "#/$defs/Category"}, {"type": "null"}]
    }
    assert list(schema["$defs"]) == ["Category"]


def test_mcp_writes_a_recursive_class_result_as_the_object_it_is() -> None:
    from jsonschema import Draft202012Validator

    class Tree(Toolset):
        @tool
        def root(self) -> Category:
            return Category("a", Category("b"))

        @tool
        def broken(self) -> Category:
            return {"name": "a", "parent": {"name": 1}}  # type: ignore[return-value] - its bug

    tools = Tree.to_tools()
    (entry, _) = mcp(tools)
    category = {
        "type": "object",
        "properties": {
            "name": {"type": "string"},
            "parent": {"anyOf": [{"$ref": "#/$defs/Category"}, {"type": "null"}], "default": None},
        },
        "required": ["name"],
        "additionalProperties": False,
    }
    # The root $ref resolved: an object schema, as it is; the $defs stay for the inner $ref.
    assert tools[0].output_schema == {"$ref": "#/$defs/Category", "$defs": {"Category": category}}
    assert entry["outputSchema"] == {**category, "$defs": {"Category": category}}
    result = mcp_call(tools, "tree_root")
    value = {"name": "a", "parent": {"name": "b", "parent": None}}
    assert result["structuredContent"] == value
    Draft202012Validator(entry["outputSchema"]).validate(result["structuredContent"])
    # The output check reads the same schema, inner references included.
    failed = mcp_call(tools, "tree_broken")
    assert failed["isError"] is True
    assert "structuredContent" not in failed
    assert "$.parent.name" in failed["content"][0]["text"]


# ------------------------------------------------------------------------------ the list


def test_two_tools_with_one_name_are_refused_naming_both() -> None:
    class Other(Toolset):
        toolset_name = "orders"

        @tool
        def count(self) -> int:
            return 4

    for export in (openai_chat, openai_responses, anthropic, gemini, mcp):
        with pytest.raises(ExportError) as caught:
            export([*_tools("count"), *Other.to_tools()])
        assert caught.value.problems == (
            (
                "Two tools are exported as 'orders_count': Orders.count and "
                "Other.count; a model "
                "could not tell them apart. Rename one with tool(..., tool_name=...) or a different "
                "toolset_name, or leave one out"
            ),
        )


class Named(Toolset):
    """Parameter names Python takes (PEP 3131) and Anthropic and Gemini refuse."""

    @tool
    def odd(self, *, café: str, fine: int = 0) -> str:
        return café

    @tool
    def long(
        self,
        *,
        nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn: int = 0,
    ) -> int:
        return 0


def test_a_parameter_name_anthropic_or_gemini_refuses_is_refused_naming_it() -> None:
    # Anthropic refuses the whole request ("Property keys should match pattern
    # '^[a-zA-Z0-9_.-]{1,64}$'") over one such name, and Gemini documents the same bounds: the
    # tool was exported with it, breaking every request that offered it.
    tools = Named.to_tools()
    for export, provider in ((anthropic, "Anthropic"), (gemini, "Gemini")):
        with pytest.raises(ExportError) as caught:
            export(tools)
        problems = caught.value.problems
        assert len(problems) == 2
        assert problems[0].startswith(
            f"Tool 'named_odd' cannot be exported to {provider}: the name of parameter 'café' "
            f"is not one {provider} accepts ("
        )
        assert problems[0].endswith(
            f"), and {provider} refuses the whole request over it; rename the parameter"
        )
        long_name = f"Tool 'named_long' cannot be exported to {provider}: the name of parameter"
        assert problems[1].startswith(long_name)
    with pytest.raises(ExportError) as caught:
        anthropic(tools, strict=True)
    assert len(caught.value.problems) == 2
    # OpenAI and MCP set no such rule.
    for export in (openai_chat, openai_responses, mcp):
        assert len(export(tools)) == 2


def test_the_same_proxy_twice_is_listed_once() -> None:
    tools = _tools("count")
    assert len(openai_chat(tools + tools)) == 1


def test_two_instances_of_one_toolset_are_refused() -> None:
    with pytest.raises(ExportError, match=r"\(two instances of one toolset\)"):
        mcp(_tools("count") + _tools("count"))


def test_two_classes_of_one_name_are_named_apart() -> None:
    # SPEC 8: a name clash is "an error naming both"; two modules' Orders (served together, as
    # `serve a:Orders b:Orders` does) are told apart by module, not called one toolset.
    other = type("Orders", (Orders,), {"__module__": "elsewhere", "__qualname__": "Orders"})
    with pytest.raises(ExportError) as caught:
        mcp(_tools("count") + [t for t in other.to_tools() if t.method_name == "count"])
    message = str(caught.value)
    assert f"{__name__}.Orders.count and elsewhere.Orders.count;" in message
    assert "two instances" not in message


def test_only_proxies_are_accepted() -> None:
    with pytest.raises(TypeError, match=r"expected the ToolProxy objects .*got type"):
        openai_chat([Orders])  # type: ignore[list-item]
    # No list at all: said as such, not Python's "'NoneType' object is not iterable".
    with pytest.raises(
        TypeError, match=r"^expected the ToolProxy objects .* \(a list\), got NoneType$"
    ):
        openai_chat(None)  # type: ignore[arg-type]


# ------------------------------------------------------------------------------- golden

_DIALECTS: dict[str, Any] = {
    "openai": openai_chat,
    "openai-strict": lambda tools: openai_chat(tools, strict=True),
    "openai-responses": openai_responses,
    "anthropic": anthropic,
    "anthropic-strict": lambda tools: anthropic(tools, strict=True),
    "gemini": gemini,
    "mcp": mcp,
}
_BUILTINS: dict[str, type[Toolset]] = {"text": TextProcessingToolset, "github": GitHubCLIToolset}


@pytest.mark.parametrize("dialect", sorted(_DIALECTS))
@pytest.mark.parametrize("toolset", sorted(_BUILTINS))
def test_golden_files_of_the_built_in_toolsets(toolset: str, dialect: str) -> None:
    path = GOLDEN / f"{toolset}.{dialect}.json"
    tools = _BUILTINS[toolset].to_tools()
    try:
        produced: object = _DIALECTS[dialect](tools)
    except ExportError as exc:
        produced = {"refused": list(exc.problems)}
    text = json.dumps(produced, indent=2, ensure_ascii=False) + "\n"
    if os.environ.get("UPDATE_GOLDEN"):
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.read_text(encoding="utf-8") == text, f"{path.name} changed"


def test_the_error_pickles_with_its_problems() -> None:
    import pickle

    with pytest.raises(ExportError) as caught:
        gemini(_tools("file"))
    copy = pickle.loads(pickle.dumps(caught.value))  # noqa: S301 - our own object
    assert copy.problems == caught.value.problems
    assert str(copy) == str(caught.value)
