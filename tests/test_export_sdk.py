"""Every dialect checked against the providers' own SDK types: nothing refused, nothing lost.

Each exported dict is built into the SDK's request/param/model type and written back; the result
must equal what we exported (a key the SDK does not know would be dropped or refused). The strict
variants must also be fixed points of each SDK's own strict-schema transform: the SDK would send
them unchanged. The tool-call answers of `respond` and `mcp_call` are checked the same way, from
the SDKs' own tool-call objects.
"""

from __future__ import annotations

import copy
import dataclasses
import datetime
import enum
import inspect
import json
import uuid
from typing import Annotated, Any, Literal, NamedTuple, NewType

import attrs
import pytest
from annotated_types import Ge, Gt, Le, MaxLen, MinLen, MultipleOf
from pydantic import BaseModel, TypeAdapter
from typing_extensions import NotRequired, TypedDict

from tests.strategies.toolsets import make_echo_toolset
from typed_toolsets import ExportError, ToolAnnotations, ToolProxy, Toolset, register_type, tool
from typed_toolsets.export import (
    anthropic,
    gemini,
    mcp,
    mcp_call,
    openai_chat,
    openai_responses,
    respond,
)
from typed_toolsets.github import GitHubCLIToolset
from typed_toolsets.text import TextProcessingToolset

openai_types = pytest.importorskip("openai.types")
anthropic_types = pytest.importorskip("anthropic.types")
genai_types = pytest.importorskip("google.genai.types")
mcp_types = pytest.importorskip("mcp.types")

from anthropic.lib._parse._transform import transform_schema  # noqa: E402
from anthropic.types import ToolParam, ToolResultBlockParam, ToolUseBlock  # noqa: E402
from openai.lib._pydantic import _ensure_strict_json_schema  # noqa: E402
from openai.types.chat import (  # noqa: E402
    ChatCompletionFunctionTool,
    ChatCompletionFunctionToolParam,
    ChatCompletionMessageFunctionToolCall,
    ChatCompletionToolMessageParam,
)
from openai.types.responses import (  # noqa: E402
    FunctionTool,
    FunctionToolParam,
    ResponseFunctionToolCall,
)
from openai.types.responses.response_input_param import FunctionCallOutput  # noqa: E402


class Level(enum.IntEnum):
    LOW = 1
    HIGH = 2


class Code(enum.Enum):
    OK = "ok"
    NOT_FOUND = 404


@attrs.frozen
class Address:
    """Where to deliver."""

    street: Annotated[str, MinLen(1), MaxLen(80)]
    number: Annotated[int, Ge(1)] = 1
    notes: list[str] = attrs.Factory(list)


class Contact(TypedDict):
    email: str
    phone: NotRequired[str]


class Span(NamedTuple):
    start: datetime.date
    end: datetime.date | None = None


@dataclasses.dataclass
class Folder:
    name: str
    children: list[Folder] = dataclasses.field(default_factory=list)


class Deliveries(Toolset):
    """A rich toolset: every kind of type, flat (every dialect takes it)."""

    tool_annotations = ToolAnnotations(read_only_hint=False, destructive_hint=False)

    @tool(annotations=ToolAnnotations(title="Schedule a delivery", idempotent_hint=True))
    def schedule(
        self,
        *,
        address: Address,
        contact: Contact | None = None,
        span: Span = Span(datetime.date(2024, 1, 1)),  # noqa: B008 - immutable
        level: Level = Level.LOW,
        mode: Literal["air", "sea"] = "sea",
        single: Literal["only"] = "only",
        ids: frozenset[uuid.UUID] = frozenset(),
        pair: tuple[int, str] = (0, ""),
        weights: Annotated[list[Annotated[float, Ge(0), Le(100)]], MaxLen(3)] = [],  # noqa: B006
        when: datetime.datetime | None = None,
        either: int | str = 0,
    ) -> Address:
        """Schedule a delivery.

        Args:
            address: Where.
            contact: Who to call.
        """
        return address

    @tool
    def cancel(self, *, ticket: str) -> bool:
        return bool(ticket)


class Folders(Toolset):
    """A recursive type (OpenAI strict and MCP take it; Gemini and Anthropic strict refuse)."""

    @tool
    def make(self, *, root: Folder, meta: dict[str, int] | None = None) -> list[Folder]:
        return [root]

    @tool
    def home(self) -> Folder:
        """A recursive class result: an object outputSchema, not wrapped."""
        return Folder("home", [Folder("docs")])


class Shapes(Toolset):
    """Shapes some dialect cannot take as the canonical schema writes them."""

    @tool
    def view(self, *, span: tuple[int, int], nothing: tuple[()], empty: tuple[()] = ()) -> int:
        return span[0]

    @tool
    def notes(
        self,
        *,
        even: Annotated[int, MultipleOf(2)] | None,
        positive: Annotated[float, Gt(0)] | None = None,
        level: Level | None = None,
    ) -> int:
        """Keywords Gemini lacks, on optional parameters with descriptions.

        Args:
            even: An even count.
            positive: A positive number.
            level: How high.
        """
        return 0

    @tool
    def codes(
        self,
        *,
        code: Code,
        mode: Literal["auto", 0],
        opt: Literal["a", None],
        nothing: Literal[None] = None,
    ) -> int:
        """Literals whose values are not all strings (Gemini enumerates strings only)."""
        return 0


class Access(enum.IntFlag):
    READ = 1
    WRITE = 2


class Switch(enum.Enum):
    ON = True
    OFF = False


UserId = NewType("UserId", int)


@attrs.frozen
class Cat:
    kind: Literal["cat"]
    lives: Annotated[int, Ge(0), Le(9)] = 9


@attrs.frozen
class Dog:
    kind: Literal["dog"]
    bark: str = "woof"


class Point(NamedTuple):
    x: float
    y: float = 0.0


class Cents:
    """A registered type with an object schema of its own (an optional key included)."""

    def __init__(self, cents: int) -> None:
        self.cents = cents


register_type(
    Cents,
    schema={
        "type": "object",
        "properties": {
            "cents": {"type": "integer", "minimum": 0},
            "currency": {"type": "string", "enum": ["EUR", "USD"]},
        },
        "required": ["cents"],
        "additionalProperties": False,
    },
    structure=lambda value: Cents(value["cents"]),
    unstructure=lambda value: {"cents": value.cents},
)


class Unusual(Toolset):
    """Signatures no other toolset here has; every dialect, strict too, takes them."""

    @tool
    def adopt(
        self,
        *,
        pet: Cat | Dog,
        others: list[Cat | Dog] = [],  # noqa: B006 - never mutated
        access: Access = Access.READ,
        switch: Switch = Switch.ON,
        owner: UserId = UserId(0),
        route: list[Point] = [],  # noqa: B006 - never mutated
        fee: Cents = Cents(0),  # noqa: B008 - never mutated
        huge: Annotated[int, Ge(0), Le(2**64)] = 2**63,
        mixed: Literal["a", 1, True, None] = None,
    ) -> Cat | Dog:
        return pet


FLAT: list[ToolProxy] = [
    *Deliveries.to_tools(),
    *TextProcessingToolset.to_tools(),
    *GitHubCLIToolset.to_tools(),
    *Shapes.to_tools(),
    *Unusual.to_tools(),
]
STRICT_OK: list[ToolProxy] = [
    *Deliveries.to_tools(),
    *TextProcessingToolset.to_tools(),
    *Shapes.to_tools(),
    *Unusual.to_tools(),
]
ALL: list[ToolProxy] = [*FLAT, *Folders.to_tools()]
# github_api_request takes a dict[str, str], which Gemini's schema cannot say (it is refused).
GEMINI_OK: list[ToolProxy] = [t for t in FLAT if t.name != "github_api_request"]


def _no_extra(model: BaseModel) -> None:
    """Fail when the SDK model kept keys it does not know (models that allow extras)."""
    assert not model.model_extra, model.model_extra
    for value in model.__dict__.values():
        if isinstance(value, BaseModel):
            _no_extra(value)


# --------------------------------------------------------------------------------- OpenAI


@pytest.mark.parametrize("strict", [False, True])
def test_openai_chat_entries_are_sdk_tools(strict: bool) -> None:
    entries = openai_chat(STRICT_OK if strict else ALL, strict=strict)
    params = TypeAdapter(ChatCompletionFunctionToolParam)
    for entry in entries:
        model = ChatCompletionFunctionTool.model_validate(entry)
        _no_extra(model)
        assert model.model_dump(mode="json", exclude_unset=True) == entry
        assert params.validate_python(entry) == entry


@pytest.mark.parametrize("strict", [False, True])
def test_openai_responses_entries_are_sdk_tools(strict: bool) -> None:
    entries = openai_responses(STRICT_OK if strict else ALL, strict=strict)
    params = TypeAdapter(FunctionToolParam)
    for entry in entries:
        model = FunctionTool.model_validate(entry)
        _no_extra(model)
        assert model.model_dump(mode="json", exclude_unset=True, by_alias=True) == entry
        assert params.validate_python(entry) == entry


def test_openai_strict_schemas_are_what_the_sdk_would_send() -> None:
    for entry in openai_chat(STRICT_OK, strict=True):
        parameters = entry["function"]["parameters"]
        again = copy.deepcopy(parameters)
        assert _ensure_strict_json_schema(again, path=(), root=again) == parameters


def test_openai_strict_keeps_recursive_types_as_the_sdk_does() -> None:
    class Tree(Toolset):
        @tool
        def plant(self, *, root: Folder) -> int:
            return 1

    (entry,) = openai_chat(Tree.to_tools(), strict=True)
    parameters = entry["function"]["parameters"]
    again = copy.deepcopy(parameters)
    assert _ensure_strict_json_schema(again, path=(), root=again) == parameters
    assert "$defs" in parameters


# ------------------------------------------------------------------------------ Anthropic


@pytest.mark.parametrize("strict", [False, True])
def test_anthropic_entries_are_sdk_tool_params(strict: bool) -> None:
    entries = anthropic(STRICT_OK if strict else ALL, strict=strict)
    params = TypeAdapter(ToolParam)
    for entry in entries:
        assert params.validate_python(entry) == entry
        if strict:
            # The SDK's own strict transform leaves our strict schema as it is.
            assert transform_schema(entry["input_schema"]) == entry["input_schema"]


# --------------------------------------------------------------------------------- Gemini


def _sdk_form(schema: object) -> object:
    """Our Gemini schema as the SDK writes it back (type names upper-cased)."""
    if isinstance(schema, dict):
        return {
            k: (v.upper() if k == "type" and isinstance(v, str) else _sdk_form(v))
            for k, v in schema.items()
        }
    if isinstance(schema, list):
        return [_sdk_form(v) for v in schema]
    return schema


def _refused_by_gemini(schema: Any, path: str = "$") -> list[str]:
    """What the Gemini API refuses in an SDK `Schema` that the SDK model itself lets through."""
    found: list[str] = []
    if schema.type is None and not schema.any_of:
        found.append(f"{path}: neither a type nor anyOf")
    if schema.type == genai_types.Type.OBJECT and not schema.properties:
        found.append(f"{path}: an object without properties")
    if schema.type == genai_types.Type.ARRAY and schema.items is None:
        found.append(f"{path}: an array without items")
    for name, child in (schema.properties or {}).items():
        found += _refused_by_gemini(child, f"{path}.{name}")
    if schema.items is not None:
        found += _refused_by_gemini(schema.items, f"{path}[*]")
    for index, branch in enumerate(schema.any_of or []):
        found += _refused_by_gemini(branch, f"{path}.anyOf[{index}]")
    return found


def test_gemini_entries_are_sdk_function_declarations() -> None:
    for entry in gemini(GEMINI_OK):
        # Every model of google-genai forbids unknown keys: a keyword Gemini lacks would fail.
        declaration = genai_types.FunctionDeclaration.model_validate(entry)
        written = declaration.model_dump(mode="json", by_alias=True, exclude_none=True)
        assert written == _sdk_form(entry)
        assert "$ref" not in json.dumps(entry)
        assert "$defs" not in json.dumps(entry)
        if declaration.parameters is not None:
            assert _refused_by_gemini(declaration.parameters) == [], entry["name"]


def test_gemini_refuses_what_its_schema_cannot_say_instead_of_sending_it() -> None:
    with pytest.raises(ExportError) as caught:
        gemini(FLAT)
    assert len(caught.value.problems) == 1
    assert caught.value.problems[0].startswith(
        "Tool 'github_api_request' cannot be exported to Gemini: parameter 'fields' is an object "
        "with free-form keys"
    )


def test_gemini_tool_lists_build() -> None:
    tool_list = genai_types.Tool(function_declarations=gemini(GEMINI_OK))
    assert [d.name for d in tool_list.function_declarations or []] == [t.name for t in GEMINI_OK]


# ------------------------------------------------------------------------------------ MCP


def test_mcp_entries_are_sdk_tools() -> None:
    entries = mcp(ALL)
    for entry in entries:
        model = mcp_types.Tool.model_validate(entry)
        assert model.model_dump(mode="json", by_alias=True, exclude_none=True) == entry
    schedule = mcp_types.Tool.model_validate(entries[0])
    assert schedule.annotations == mcp_types.ToolAnnotations(
        title="Schedule a delivery",
        read_only_hint=False,
        destructive_hint=False,
        idempotent_hint=True,
    )
    assert schedule.output_schema is not None
    assert schedule.output_schema["type"] == "object"


def test_mcp_call_results_are_sdk_results() -> None:
    address = {"street": "Main", "number": 2, "notes": []}
    results = [
        mcp_call(FLAT, "deliveries_schedule", {"address": address}),
        mcp_call(FLAT, "deliveries_cancel", {"ticket": "t"}),
        mcp_call(FLAT, "text_wc", {"text": "a b"}),
        mcp_call(FLAT, "deliveries_schedule", {"address": {}}),
        mcp_call(FLAT, "nope", {}),
    ]
    for result in results:
        model = mcp_types.CallToolResult.model_validate(result)
        assert model.model_dump(mode="json", by_alias=True, exclude_unset=True) == result
    assert results[0]["structuredContent"] == address
    assert results[1]["structuredContent"] == {"result": True}
    assert [r["isError"] for r in results] == [False, False, False, True, True]


def test_a_recursive_class_result_is_an_sdk_object_schema_and_result() -> None:
    from jsonschema import Draft202012Validator

    entry = next(e for e in mcp(ALL) if e["name"] == "folders_home")
    tool_model = mcp_types.Tool.model_validate(entry)
    assert tool_model.output_schema is not None
    assert tool_model.output_schema["type"] == "object"
    assert "result" not in tool_model.output_schema["properties"]
    result = mcp_call(ALL, "folders_home")
    model = mcp_types.CallToolResult.model_validate(result)
    assert model.structured_content == {
        "name": "home",
        "children": [{"name": "docs", "children": []}],
    }
    Draft202012Validator(tool_model.output_schema).validate(model.structured_content)


# -------------------------------------------------------------------- tool calls, answered


def test_respond_takes_the_openai_chat_sdk_object() -> None:
    call = ChatCompletionMessageFunctionToolCall.model_validate(
        {
            "id": "call_abc",
            "type": "function",
            "function": {"name": "text_wc", "arguments": '{"text": "one two\\nthree"}'},
        }
    )
    reply = respond(FLAT, call)
    assert TypeAdapter(ChatCompletionToolMessageParam).validate_python(reply) == reply
    assert reply == {
        "role": "tool",
        "tool_call_id": "call_abc",
        "content": "Lines: 2, Words: 3, Characters: 13",
    }


def test_respond_takes_the_responses_sdk_object() -> None:
    call = ResponseFunctionToolCall.model_validate(
        {
            "type": "function_call",
            "id": "fc_1",
            "call_id": "call_1",
            "name": "deliveries_schedule",
            "arguments": json.dumps({"address": {"street": "Elm", "number": None}}),
            "status": "completed",
        }
    )
    reply = respond(FLAT, call, strict=True)
    assert TypeAdapter(FunctionCallOutput).validate_python(reply) == reply
    assert json.loads(reply["output"]) == {"street": "Elm", "number": 1, "notes": []}
    failed = respond(FLAT, call)  # not strict: null is not a number
    assert json.loads(failed["output"])["error"]["details"][0]["path"] == "$.address.number"


def test_respond_takes_the_anthropic_sdk_block() -> None:
    block = ToolUseBlock(
        id="toolu_1", name="deliveries_cancel", input={"ticket": ""}, type="tool_use"
    )
    reply = respond(FLAT, block)
    assert TypeAdapter(ToolResultBlockParam).validate_python(reply) == reply
    assert reply == {
        "type": "tool_result",
        "tool_use_id": "toolu_1",
        "content": "false",
        "is_error": False,
    }
    bad = respond(FLAT, ToolUseBlock(id="toolu_2", name="x", input={}, type="tool_use"))
    assert TypeAdapter(ToolResultBlockParam).validate_python(bad) == bad
    assert bad["is_error"] is True


def test_the_strict_schema_admits_what_dispatch_accepts() -> None:
    """A strict instance, checked by the SDK-shaped strict schema, runs as the canonical call."""
    from jsonschema import Draft202012Validator

    (entry,) = openai_chat(Deliveries.to_tools()[:1], strict=True)
    strict_instance: dict[str, Any] = {
        "address": {"street": "Oak", "number": None, "notes": None},
        "contact": {"email": "a@b", "phone": None},
        "span": {"start": "2024-02-03", "end": None},
        "level": None,
        "mode": "air",
        "single": None,
        "ids": None,
        "pair": [1, "x"],
        "weights": None,
        "when": None,
        "either": None,
    }
    Draft202012Validator(entry["function"]["parameters"]).validate(strict_instance)
    call = {
        "type": "function_call",
        "call_id": "c",
        "name": "deliveries_schedule",
        "arguments": json.dumps(strict_instance),
    }
    assert json.loads(respond(FLAT, call, strict=True)["output"]) == {
        "street": "Oak",
        "number": 1,
        "notes": [],
    }


class _Free:
    """A registered type per schema below (structured as given)."""


#: Registered schemas with a part that has no type: strict dialects and Gemini need one.
UNTYPED_SCHEMAS: dict[str, Any] = {
    "one_of": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
    "anything": {},
    "any_items": {"type": "array"},
    "boolean_items": {"type": "array", "prefixItems": [{"type": "integer"}], "items": False},
    "boolean_property": {
        "type": "object",
        "properties": {"a": True},
        "required": ["a"],
        "additionalProperties": False,
    },
}


def _registered_tool(name: str, schema: dict[str, Any]) -> ToolProxy:
    """The tool of one required parameter ``value`` of a type registered with *schema*."""
    free = type(name, (_Free,), {})
    register_type(free, schema=schema, structure=free, unstructure=lambda v: v)
    return make_echo_toolset([("value", free, inspect.Parameter.empty)]).to_tools()[0]


def _untyped_tool(key: str) -> ToolProxy:
    return _registered_tool(f"Free_{key}", UNTYPED_SCHEMAS[key])


@pytest.mark.parametrize("key", sorted(UNTYPED_SCHEMAS))
def test_a_strict_schema_without_a_type_is_refused_not_sent(key: str) -> None:
    proxy = _untyped_tool(key)
    for export in (openai_chat, anthropic):
        # Was exported as it was ({"description": "JSON Schema: {\"oneOf\": ...}"}, {},
        # "items": {} or false), which the SDK's own strict transform refuses: "Schema must
        # have a 'type', 'anyOf', 'oneOf', or 'allOf' field".
        with pytest.raises(ExportError, match=r"parameter 'value'.* needs a type"):
            export([proxy], strict=True)
    # Without strict mode the schema goes out as it is (a boolean subschema crashed it).
    parameters = openai_chat([proxy])[0]["function"]["parameters"]
    assert parameters["properties"]["value"] == {
        **UNTYPED_SCHEMAS[key],
        **({"items": {}} if key == "any_items" else {}),
    }


@pytest.mark.parametrize("key", sorted(UNTYPED_SCHEMAS))
def test_gemini_refuses_a_schema_without_a_type(key: str) -> None:
    proxy = _untyped_tool(key)
    # Was sent as {"description": "JSON Schema: ..."}, {}, "items": {} or false, or crashed
    # (AttributeError) on a boolean subschema; Gemini needs a type (or anyOf) on every schema.
    with pytest.raises(ExportError, match=r"to Gemini: parameter 'value'.* needs a type"):
        gemini([proxy])


@pytest.mark.parametrize("export", [openai_chat, anthropic])
def test_unusual_signatures_run_from_what_their_strict_schema_admits(export: Any) -> None:
    from jsonschema import Draft202012Validator

    (entry,) = export(Unusual.to_tools(), strict=True)
    schema = entry["function"]["parameters"] if export is openai_chat else entry["input_schema"]
    instance: dict[str, Any] = {
        "pet": {"kind": "dog", "bark": None},
        "others": [{"kind": "cat", "lives": None}],
        "access": None,
        "switch": False,
        "owner": None,
        "route": [{"x": 1.5, "y": None}],
        "fee": {"cents": 5, "currency": None},
        "huge": None,
        "mixed": None,
    }
    Draft202012Validator(schema).validate(instance)
    block = ToolUseBlock(id="toolu_1", name="unusual_adopt", input=instance, type="tool_use")
    reply = respond(FLAT, block, strict=True)
    assert TypeAdapter(ToolResultBlockParam).validate_python(reply) == reply
    assert reply["is_error"] is False
    assert json.loads(reply["content"]) == {"kind": "dog", "bark": "woof"}


#: Registered schemas with a type list, JSON Schema's own spelling of a union of types.
TYPE_LISTS: dict[str, Any] = {
    "scalars": {"type": ["string", "number"], "description": "A code"},
    "nullable_object": {
        "type": ["object", "null"],
        "properties": {"a": {"type": "integer"}},
        "required": ["a"],
        "additionalProperties": False,
    },
    "array_or_string": {"type": ["array", "string"], "items": {"type": "integer"}},
    "one": {"type": ["boolean"]},
    "object_or_string": {
        "type": ["object", "string"],
        "properties": {"a": {"type": "integer"}},
        "required": ["a"],
        "additionalProperties": False,
    },
}
#: Values of every JSON type, to compare what two schemas admit.
SAMPLES: list[object] = [
    None,
    True,
    0,
    2.5,
    "",
    "ab",
    [],
    [1, 2],
    ["x"],
    {},
    {"a": 1},
    {"a": "x"},
    {"b": 1},
]


def _type_lists(schema: object) -> list[object]:
    """The ``type`` lists anywhere in *schema*."""
    if isinstance(schema, dict):
        found = [schema["type"]] if isinstance(schema.get("type"), list) else []
        return found + [t for v in schema.values() for t in _type_lists(v)]
    if isinstance(schema, list):
        return [t for v in schema for t in _type_lists(v)]
    return []


@pytest.mark.parametrize("key", sorted(TYPE_LISTS))
def test_a_type_list_goes_to_anthropic_strict_as_one_schema_per_type(key: str) -> None:
    from jsonschema import Draft202012Validator

    proxy = _registered_tool(f"Listed_{key}", TYPE_LISTS[key])
    (entry,) = anthropic([proxy], strict=True)
    schema = entry["input_schema"]
    # Was sent with the list, on which the SDK's own strict transform fails (AssertionError:
    # "Expected code to be unreachable, but got: ['string', 'number']").
    assert transform_schema(schema) == schema
    assert _type_lists(schema) == []
    # Written differently, it admits exactly what the tool's strict schema admits.
    sent, told = Draft202012Validator(proxy.strict_parameters), Draft202012Validator(schema)
    for value in SAMPLES:
        assert told.is_valid({"value": value}) == sent.is_valid({"value": value}), value


def test_each_keyword_of_a_type_list_goes_to_its_own_type() -> None:
    schema = {
        "type": ["string", "integer", "null"],
        "minLength": 2,
        "minimum": 0,
        "format": "date",
        "title": "Code",
    }
    proxy = _registered_tool("Listed_bounds", schema)
    (entry,) = anthropic([proxy], strict=True)
    # Anthropic's strict mode lacks both bounds: each is noted on the type it bounds. The
    # format is a string's, and nothing is said of null.
    assert entry["input_schema"]["properties"]["value"] == {
        "title": "Code",
        "anyOf": [
            {"type": "string", "format": "date", "description": 'JSON Schema: {"minLength": 2}'},
            {"type": "integer", "description": 'JSON Schema: {"minimum": 0, "format": "date"}'},
            {"type": "null"},
        ],
    }
    # OpenAI's strict mode takes the list, and the format beside the string in it.
    (chat,) = openai_chat([proxy], strict=True)
    assert chat["function"]["parameters"]["properties"]["value"]["format"] == "date"


@pytest.mark.parametrize("key", sorted(TYPE_LISTS))
def test_a_type_list_goes_to_gemini_as_one_schema_per_type(key: str) -> None:
    proxy = _registered_tool(f"Gemini_{key}", TYPE_LISTS[key])
    (entry,) = gemini([proxy])
    declaration = genai_types.FunctionDeclaration.model_validate(entry)
    assert declaration.parameters is not None
    # Was {"anyOf": [{"type": "array"}, {"type": "string"}], "items": ...}: an array branch
    # without items (and an object branch without properties), which Gemini refuses.
    assert _refused_by_gemini(declaration.parameters) == []
    assert _type_lists(entry) == []


#: Registered schemas listing a value neither dialect can say: an object, an array, or none.
UNSAYABLE_LITERALS: dict[str, tuple[dict[str, Any], str]] = {
    "object_const": ({"const": {"a": 1}}, 'the value {"a": 1} in its const'),
    "array_in_enum": ({"enum": ["a", [1, 2]]}, "the value [1, 2] in its enum"),
    "empty_enum": ({"type": "string", "enum": []}, "an enum with no values"),
}


@pytest.mark.parametrize("key", sorted(UNSAYABLE_LITERALS))
def test_a_literal_anthropic_strict_cannot_list_is_refused_not_sent(key: str) -> None:
    schema, has = UNSAYABLE_LITERALS[key]
    proxy = _registered_tool(f"Literal_{key}", schema)
    # Was sent as {"const": {"a": 1}}, {"enum": ["a", [1, 2]]} or {"enum": []}, which the SDK's
    # own strict transform refuses ("Schema must have a 'type', 'anyOf', 'oneOf', or 'allOf'
    # field, or a 'const' or non-empty 'enum' of strings, numbers, booleans, or null").
    with pytest.raises(ExportError) as caught:
        anthropic([proxy], strict=True)
    (problem,) = caught.value.problems
    assert problem.startswith(
        f"Tool '{proxy.name}' cannot be exported in Anthropic strict mode: parameter 'value' "
        f"has {has}"
    )
    assert problem.endswith("or export it with strict=False")
    assert anthropic([proxy])[0]["input_schema"]["properties"]["value"] == schema


@pytest.mark.parametrize("key", sorted(UNSAYABLE_LITERALS))
def test_a_literal_gemini_cannot_list_is_refused_not_sent(key: str) -> None:
    schema, has = UNSAYABLE_LITERALS[key]
    proxy = _registered_tool(f"Gemini_literal_{key}", schema)
    # Was sent as an object without properties or an array without items, which Gemini refuses,
    # or refused as "free-form keys (such as dict[str, T])" or "a schema with no type".
    with pytest.raises(ExportError) as caught:
        gemini([proxy])
    (problem,) = caught.value.problems
    assert problem.startswith(
        f"Tool '{proxy.name}' cannot be exported to Gemini: parameter 'value' has {has}"
    )


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "integer", "format": "date"},
        {"type": "string", "format": "date", "enum": ["2024-01-01", "2024-12-31"]},
    ],
)
def test_a_format_off_a_string_is_noted_as_the_anthropic_sdk_does(schema: dict[str, Any]) -> None:
    proxy = _registered_tool(f"Formatted_{schema['type']}_{len(schema)}", schema)
    (entry,) = anthropic([proxy], strict=True)
    parameters = entry["input_schema"]
    # Was sent with the format beside an integer, or beside an enum without its type, where
    # the SDK's own strict transform moves it into the description.
    assert transform_schema(parameters) == parameters
    value = parameters["properties"]["value"]
    assert "format" not in value
    assert value["description"] == 'JSON Schema: {"format": "date"}'


def test_a_type_beside_any_of_goes_to_anthropic_strict_in_each_branch() -> None:
    from jsonschema import Draft202012Validator

    schema = {"type": "integer", "minimum": 0, "anyOf": [{"multipleOf": 2}, {"maximum": 9}]}
    proxy = _registered_tool("Beside_any_of", schema)
    (entry,) = anthropic([proxy], strict=True)
    parameters = entry["input_schema"]
    # Was refused: "a schema with no type {"multipleOf": 2}, ...; give the registered type's
    # schema a type" (it has one, beside the anyOf).
    assert transform_schema(parameters) == parameters
    assert parameters["properties"]["value"] == {
        "anyOf": [
            {"type": "integer", "description": 'JSON Schema: {"minimum": 0, "multipleOf": 2}'},
            {"type": "integer", "description": 'JSON Schema: {"minimum": 0, "maximum": 9}'},
        ]
    }
    # Apart from the bounds moved into descriptions, it admits what the strict schema admits.
    told = Draft202012Validator(parameters)
    for value in (0, 3, 12, "3", None, 1.5):
        assert told.is_valid({"value": value}) == isinstance(value, int), value
    typed = {
        "type": "string",
        "anyOf": [{"type": "string", "format": f} for f in ("email", "uuid")],
    }
    (entry,) = anthropic([_registered_tool("Beside_typed", typed)], strict=True)
    # Was sent as it was, where the SDK's own strict transform drops the type beside anyOf.
    assert transform_schema(entry["input_schema"]) == entry["input_schema"]
    assert entry["input_schema"]["properties"]["value"] == {"anyOf": typed["anyOf"]}


def test_a_type_beside_any_of_a_branch_cannot_say_is_refused_for_anthropic_strict() -> None:
    proxy = _registered_tool(
        "Beside_other", {"type": "integer", "anyOf": [{"type": "string"}, {"maximum": 9}]}
    )
    with pytest.raises(ExportError) as caught:
        anthropic([proxy], strict=True)
    assert caught.value.problems == (
        (
            f"Tool '{proxy.name}' cannot be exported in Anthropic strict mode: parameter 'value' "
            'has the type "integer" beside an anyOf, and Anthropic\'s strict mode drops a type '
            "beside anyOf, and a branch cannot say it (true or false, another type, or a keyword "
            "of that type stated otherwise); give each branch of the registered anyOf its type, "
            "or export it with strict=False"
        ),
    )


def test_a_one_of_or_all_of_without_a_type_is_named_with_what_to_write_instead() -> None:
    one_of = _untyped_tool("one_of")
    all_of = _registered_tool("All_of", {"allOf": [{"type": "integer"}, {"minimum": 0}]})
    # Was "has a schema with no type {"oneOf": ...}; give the registered type's schema a
    # type", which says nothing of the oneOf (or allOf) the dialect could not read.
    shown = '{"oneOf": [{"type": "string"}, {"type": "integer"}]}'
    for export, provider in ((openai_chat, "OpenAI"), (anthropic, "Anthropic")):
        with pytest.raises(ExportError) as caught:
            export([one_of], strict=True)
        assert caught.value.problems == (
            (
                f"Tool '{one_of.name}' cannot be exported in {provider} strict mode: parameter "
                f"'value' has a oneOf and no type {shown}, and {provider}'s strict mode needs a type "
                "(or anyOf) on every schema; write the registered schema's oneOf as anyOf, or "
                "export it with strict=False"
            ),
        )
    with pytest.raises(ExportError) as caught:
        gemini([one_of])
    assert caught.value.problems == (
        (
            f"Tool '{one_of.name}' cannot be exported to Gemini: parameter 'value' has a oneOf and "
            f"no type {shown}, and Gemini needs a type (or anyOf) on every schema; write the "
            "registered schema's oneOf as anyOf, or export the tool to another provider"
        ),
    )
    with pytest.raises(ExportError, match="merge the registered schema's allOf into one schema"):
        openai_chat([all_of], strict=True)
