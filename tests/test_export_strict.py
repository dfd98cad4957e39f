"""The strict variant: its schema (`ToolProxy.strict_parameters`), its refusals, and ``null``
mapped back to defaults by `strict_arguments` / ``dispatch(..., strict=True)``."""

from __future__ import annotations

import dataclasses
import enum
import json
from typing import Annotated, Any, Literal, NamedTuple

import attrs
import pytest
from annotated_types import Ge, MaxLen
from jsonschema import Draft202012Validator
from typing_extensions import NotRequired, TypedDict

from typed_toolsets import ExportError, Limits, Toolset, tool
from typed_toolsets.export import dispatch, strict_arguments


class Color(enum.Enum):
    RED = "red"
    GREEN = "green"


@attrs.define
class Owner:
    """Who owns it."""

    name: str
    age: int = 3
    tags: list[str] = attrs.Factory(list)


@attrs.frozen
class Cat:
    kind: Literal["cat"]
    lives: int = 9


@attrs.frozen
class Dog:
    kind: Literal["dog"]
    good: bool = True


@dataclasses.dataclass
class Node:
    value: int
    children: list[Node] = dataclasses.field(default_factory=list)
    label: str = "node"


class Extra(TypedDict):
    a: int
    b: NotRequired[str]


class Point(NamedTuple):
    x: int
    y: int = 0


@attrs.define
class Labelled:
    labels: dict[str, int]


class Keys(TypedDict):
    maybe: NotRequired[int | None]


class Shop(Toolset):
    @tool
    def order(
        self,
        *,
        item: Annotated[str, MaxLen(20)],
        count: Annotated[int, Ge(1)] = 1,
        color: Color = Color.RED,
        owner: Owner | None = None,
        pet: Cat | Dog | None = None,
        extra: Extra | None = None,
        at: Point = Point(1),  # noqa: B008 - an immutable NamedTuple
        note: str | None = None,
    ) -> dict[str, Any]:
        """Place an order.

        Args:
            item: What to order.
            count: How many.
        """
        return {
            "item": item,
            "count": count,
            "color": color,
            "owner": owner,
            "pet": pet,
            "extra": extra,
            "at": at,
            "note": note,
        }

    @tool
    def plant(self, *, tree: Node, depth: int = 2) -> Node:
        return tree


def _tool(name: str) -> Any:
    return next(t for t in Shop.to_tools() if t.method_name == name)


# --------------------------------------------------------------------------------- schema


def test_every_property_is_required_and_every_object_closed() -> None:
    strict = _tool("order").strict_parameters
    Draft202012Validator.check_schema(strict)

    def objects(node: object) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = []
        if isinstance(node, dict):
            if node.get("type") == "object":
                found.append(node)
            for value in node.values():
                found.extend(objects(value))
        elif isinstance(node, list):
            for value in node:
                found.extend(objects(value))
        return found

    for obj in objects(strict):
        assert obj["additionalProperties"] is False
        assert obj["required"] == list(obj["properties"])
    assert "default" not in json.dumps(strict).replace("the default", "")


def test_a_defaulted_parameter_becomes_nullable_and_says_what_null_means() -> None:
    properties = _tool("order").strict_parameters["properties"]
    assert properties["item"] == {
        "type": "string",
        "maxLength": 20,
        "description": "What to order.",
    }
    assert properties["count"] == {
        "anyOf": [{"type": "integer", "minimum": 1}, {"type": "null"}],
        "description": "How many. null means the default (1).",
    }
    assert properties["color"] == {
        "anyOf": [{"type": "string", "enum": ["red", "green"]}, {"type": "null"}],
        "description": 'null means the default ("red").',
    }
    # None is the default: null already means it, nothing to add.
    assert properties["note"] == {"anyOf": [{"type": "string"}, {"type": "null"}]}


def test_nested_fields_follow_the_same_rule() -> None:
    owner = _tool("order").strict_parameters["properties"]["owner"]["anyOf"][0]
    assert owner["description"] == "Who owns it."
    assert owner["required"] == ["name", "age", "tags"]
    assert owner["properties"]["age"]["description"] == "null means the default (3)."
    # A factory default has no JSON form: null leaves the field out, so the factory runs.
    assert owner["properties"]["tags"]["description"] == "null means it is not given."
    extra = _tool("order").strict_parameters["properties"]["extra"]["anyOf"][0]
    assert extra["properties"]["b"] == {
        "anyOf": [{"type": "string"}, {"type": "null"}],
        "description": "null means it is not given.",
    }


def test_unions_gain_one_null_variant() -> None:
    class Mixed(Toolset):
        @tool
        def f(self, *, v: int | str = 0) -> str:
            return repr(v)

    (proxy,) = Mixed.to_tools()
    assert proxy.strict_parameters["properties"]["v"] == {
        "anyOf": [{"type": "integer"}, {"type": "string"}, {"type": "null"}],
        "description": "null means the default (0).",
    }


def test_recursive_types_keep_their_defs_made_strict() -> None:
    strict = _tool("plant").strict_parameters
    assert strict["properties"]["tree"] == {"$ref": "#/$defs/Node"}
    node = strict["$defs"]["Node"]
    assert node["required"] == ["value", "children", "label"]
    assert node["properties"]["children"]["anyOf"][0] == {
        "type": "array",
        "items": {"$ref": "#/$defs/Node"},
    }


def test_a_ref_with_a_description_is_inlined_once() -> None:
    class Garden(Toolset):
        @tool
        def plant(self, *, tree: Annotated[Node, "The tree to plant."]) -> int:
            return tree.value

    (proxy,) = Garden.to_tools()
    assert proxy.parameters["properties"]["tree"] == {
        "$ref": "#/$defs/Node",
        "description": "The tree to plant.",
    }
    tree = proxy.strict_parameters["properties"]["tree"]
    assert "$ref" not in tree
    assert tree["description"] == "The tree to plant."
    assert tree["properties"]["children"]["anyOf"][0]["items"] == {"$ref": "#/$defs/Node"}


def test_strict_parameters_is_a_fresh_copy() -> None:
    proxy = _tool("order")
    proxy.strict_parameters["properties"].clear()
    assert proxy.strict_parameters["properties"]


# ------------------------------------------------------------------------------- refusals


def test_a_free_form_object_is_refused_naming_tool_and_parameter() -> None:
    class Meta(Toolset):
        @tool
        def tag(self, *, labels: dict[str, str], owner: Owner) -> int:
            return len(labels)

    (proxy,) = Meta.to_tools()
    with pytest.raises(ExportError) as caught:
        _ = proxy.strict_parameters
    assert caught.value.problems == (
        (
            "Tool 'meta_tag' has no lossless strict schema: parameter 'labels' is an object with "
            "free-form keys (such as dict[str, T]); strict mode needs additionalProperties: false, "
            "which would admit only {}; use a list of key/value objects or an attrs class, or "
            "export it with strict=False"
        ),
    )
    assert isinstance(caught.value, ValueError)


def test_a_nested_free_form_object_is_refused_at_its_path() -> None:
    class Meta(Toolset):
        @tool
        def tag(self, *, items: list[Labelled]) -> int:
            return len(items)

    (proxy,) = Meta.to_tools()
    with pytest.raises(ExportError, match=r"parameter 'items' at \$\.items\[\*\]\.labels is"):
        _ = proxy.strict_parameters


def test_null_that_would_mean_two_things_is_refused() -> None:
    class Limits_(Toolset):
        toolset_name = "lim"

        @tool
        def page(self, *, size: int | None = 10, extra: Extra | None = None) -> int:
            return size or 0

    class Maybe(Toolset):
        @tool
        def f(self, *, keys: Keys) -> int:
            return 0

    with pytest.raises(ExportError) as caught:
        _ = Limits_.to_tools()[0].strict_parameters
    assert caught.value.problems == (
        (
            "Tool 'lim_page' has no lossless strict schema: parameter 'size' admits null but "
            "defaults to 10; in strict mode null would have to mean both; make the default None, or "
            "take None out of its type, or export it with strict=False"
        ),
    )
    with pytest.raises(ExportError, match=r"'keys' at \$\.keys\.maybe admits null but may also"):
        _ = Maybe.to_tools()[0].strict_parameters


def test_every_problem_is_listed() -> None:
    class Many(Toolset):
        @tool
        def f(self, *, a: dict[str, int], b: int | None = 1, c: dict[str, str]) -> int:
            return 0

    with pytest.raises(ExportError) as caught:
        _ = Many.to_tools()[0].strict_parameters
    assert [p.split(": ")[1].split(" ")[1] for p in caught.value.problems] == ["'a'", "'b'", "'c'"]
    assert str(caught.value).count("\n") == 2


# ---------------------------------------------------------------------------- null mapping


def _received(arguments: Any) -> dict[str, Any]:
    result = dispatch(Shop.to_tools(), "shop_order", arguments, strict=True)
    assert isinstance(result, dict), result
    return result


def test_null_means_the_default_at_the_top_level() -> None:
    got = _received(
        {"item": "pen", "count": None, "color": None, "owner": None, "pet": None}
        | {"extra": None, "at": None, "note": None}
    )
    assert got == {
        "item": "pen",
        "count": 1,
        "color": Color.RED,
        "owner": None,
        "pet": None,
        "extra": None,
        "at": Point(1, 0),
        "note": None,
    }


def test_null_means_the_default_inside_structs() -> None:
    got = _received(
        json.dumps(
            {
                "item": "pen",
                "count": 2,
                "color": "green",
                "owner": {"name": "ana", "age": None, "tags": None},
                "pet": None,
                "extra": {"a": 1, "b": None},
                "at": {"x": 5, "y": None},
                "note": "n",
            }
        )
    )
    assert got["owner"] == Owner("ana", 3, [])
    assert got["extra"] == {"a": 1}
    assert got["at"] == Point(5, 0)
    assert (got["count"], got["color"], got["note"]) == (2, Color.GREEN, "n")


def test_null_inside_a_union_picks_the_variant_that_accepts_it() -> None:
    base = {"item": "pen", "count": None, "color": None, "owner": None, "extra": None}
    base |= {"at": None, "note": None}
    assert _received(base | {"pet": {"kind": "dog", "good": None}})["pet"] == Dog("dog")
    assert _received(base | {"pet": {"kind": "cat", "lives": None}})["pet"] == Cat("cat")


def test_null_inside_recursive_types() -> None:
    tree = {
        "value": 1,
        "children": [{"value": 2, "children": None, "label": None}],
        "label": None,
    }
    got = dispatch(Shop.to_tools(), "shop_plant", {"tree": tree, "depth": None}, strict=True)
    assert got == Node(1, [Node(2, [], "node")], "node")


def test_the_non_strict_call_refuses_what_strict_mode_maps() -> None:
    result = dispatch(Shop.to_tools(), "shop_order", {"item": "pen", "count": None})
    assert result.startswith("Error: Invalid arguments for tool 'shop_order': count:")


def test_arguments_without_a_null_to_map_are_passed_through_unchanged() -> None:
    proxy = _tool("order")
    text = '{"item": "pen"}'
    assert strict_arguments(proxy, text) is text
    assert strict_arguments(proxy, text.encode()) == text.encode()
    with_null = '{"item": "pen", "note": null}'  # null is the default: nothing to change
    assert strict_arguments(proxy, with_null) is with_null
    mapping = {"item": "pen", "owner": {"name": "x"}}
    assert strict_arguments(proxy, mapping) is mapping
    assert strict_arguments(proxy, None) is None
    assert strict_arguments(proxy, "") == ""


def test_unreadable_arguments_are_left_for_the_call_path_to_explain() -> None:
    proxy = _tool("order")
    for bad in ('{"item": null', "[null]", '{"item": NaN, "count": null}', 42):
        assert strict_arguments(proxy, bad) is bad  # type: ignore[arg-type]
    assert dispatch(Shop.to_tools(), "shop_order", '{"count": null', strict=True).startswith(
        "Error: Invalid JSON arguments for tool 'shop_order'"
    )


def test_limits_are_checked_before_anything_is_mapped() -> None:
    class Tiny(Toolset):
        limits = Limits(max_argument_bytes=40)

        @tool
        def f(self, *, n: int = 1) -> int:
            return n

    big = json.dumps({"n": None, "pad": "x" * 100})
    (proxy,) = Tiny.to_tools()
    assert strict_arguments(proxy, big) is big
    assert dispatch([proxy], "tiny_f", big, strict=True).startswith(
        "Error: Arguments for tool 'tiny_f' are"
    )


def test_mapped_values_are_fresh_copies_of_the_defaults() -> None:
    class Lists(Toolset):
        @tool
        def f(self, *, xs: list[int] = [1, 2]) -> list[int]:  # noqa: B006 - it is never mutated
            xs.append(3)
            return xs

    (proxy,) = Lists.to_tools()
    assert dispatch([proxy], "lists_f", {"xs": None}, strict=True) == [1, 2, 3]
    assert dispatch([proxy], "lists_f", {"xs": None}, strict=True) == [1, 2, 3]


def test_a_defaulted_recursive_parameter_keeps_its_reference() -> None:
    class Garden(Toolset):
        @tool
        def grow(self, *, tree: Node = Node(0)) -> Node:  # noqa: B008 - never mutated
            return tree

    (proxy,) = Garden.to_tools()
    assert proxy.strict_parameters["properties"]["tree"] == {
        "anyOf": [{"$ref": "#/$defs/Node"}, {"type": "null"}],
        "description": 'null means the default ({"value": 0, "children": [], "label": "node"}).',
    }
    assert dispatch([proxy], "garden_grow", {"tree": None}, strict=True) == Node(0)
