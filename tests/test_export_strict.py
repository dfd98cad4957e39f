"""The strict variant: its schema (`ToolProxy.strict_parameters`), its refusals, and the strict
form of the arguments (`StrictArguments`, ``dispatch(..., strict=True)``), where ``null`` for a
defaulted property stands for the default."""

from __future__ import annotations

import dataclasses
import enum
import inspect
import json
from typing import Annotated, Any, Literal, NamedTuple

import attrs
import pytest
from annotated_types import Ge, MaxLen
from jsonschema import Draft202012Validator
from typing_extensions import NotRequired, TypedDict

from tests.strategies.toolsets import make_echo_toolset
from typed_toolsets import ExportError, Limits, StrictArguments, ToolError, Toolset, tool
from typed_toolsets.export import dispatch, strict_arguments
from typed_toolsets.testing import _seams


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
    with pytest.raises(ExportError) as caught:
        _ = Maybe.to_tools()[0].strict_parameters
    # A key has no default to make None: it can be made required.
    assert caught.value.problems == (
        (
            "Tool 'maybe_f' has no lossless strict schema: parameter 'keys' at $.keys.maybe admits "
            "null but may also be left out; in strict mode null would have to mean both; make it "
            "required (Required[...] for a TypedDict key), or take None out of its type, or "
            "export it with strict=False"
        ),
    )


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


def test_strict_arguments_marks_them_for_the_strict_form() -> None:
    proxy = _tool("order")
    text = '{"item": "pen", "count": null}'
    marked = strict_arguments(proxy, text)
    assert marked == StrictArguments(text)
    assert strict_arguments(proxy, marked) is marked
    for form in (text, text.encode(), json.loads(text)):
        result = proxy.invoke(strict_arguments(proxy, form))
        assert result.ok, result.error
        assert result.value["count"] == 1
    # No arguments at all: every required parameter is missing, as in the standard form.
    for empty in (None, ""):
        refused = proxy.invoke(StrictArguments(empty))
        assert refused.error is not None
        assert refused.error.message.startswith(
            "Invalid arguments for tool 'shop_order': item: missing required argument"
        )


def test_unreadable_arguments_are_explained_as_in_the_standard_form() -> None:
    tools = Shop.to_tools()
    for bad, message in (
        ('{"count": null', "Invalid JSON arguments for tool 'shop_order'"),
        ("[null]", "Arguments for tool 'shop_order' must be a JSON object, not array"),
        ('{"item": NaN, "count": null}', "Invalid JSON arguments for tool 'shop_order'"),
        (42, "Arguments for tool 'shop_order' must be a JSON object"),
    ):
        assert dispatch(tools, "shop_order", bad, strict=True).startswith("Error: " + message)


def test_refusals_say_that_null_is_an_answer() -> None:
    tools = Shop.to_tools()
    assert dispatch(tools, "shop_order", {"item": "pen", "count": "x"}, strict=True) == (
        "Error: Invalid arguments for tool 'shop_order': count: 'x' is not valid here; expected "
        "an integer or null"
    )
    nested = dispatch(
        tools, "shop_order", {"item": "pen", "owner": {"name": "a", "age": "old"}}, strict=True
    )
    assert nested.endswith("owner.age: 'old' is not valid here; expected an integer or null")
    # null for a parameter without a default is still no answer.
    assert dispatch(tools, "shop_order", {"item": None}, strict=True).startswith(
        "Error: Invalid arguments for tool 'shop_order': item:"
    )


def test_limits_are_checked_before_anything_is_read() -> None:
    class Tiny(Toolset):
        limits = Limits(max_argument_bytes=40, max_depth=2)

        @tool
        def f(self, *, n: int = 1, xs: list[list[int]] | None = None) -> int:
            return n

    (proxy,) = Tiny.to_tools()
    big = json.dumps({"n": None, "pad": "x" * 100})
    result = proxy.invoke(StrictArguments(big))
    assert result.error is not None
    assert result.error.kind == "limit"
    assert result.error.message.startswith("Arguments for tool 'tiny_f' are")
    deep = proxy.invoke(StrictArguments({"n": None, "xs": [[1]]}))
    assert deep.error is not None
    assert deep.error.kind == "limit"
    assert dispatch([proxy], "tiny_f", '{"n": null}', strict=True) == 1


_OWN_LIST = [1, 2]


def test_null_gives_the_method_its_own_default_object() -> None:
    class Lists(Toolset):
        @tool
        def f(self, *, xs: list[int] = _OWN_LIST, ratio: float = 1) -> tuple[list[int], float]:
            return xs, ratio

    (proxy,) = Lists.to_tools()
    for sent in ({"xs": None, "ratio": None}, '{"xs": null, "ratio": null}'):
        xs, ratio = dispatch([proxy], "lists_f", sent, strict=True)
        assert xs is _OWN_LIST  # the method's own default, not a copy of its JSON form
        assert ratio == 1
        assert type(ratio) is int  # the default as written, not 1.0 from its JSON form
    # The same as the standard call that leaves them out.
    assert proxy.invoke({}).value == (_OWN_LIST, 1)


_DEFAULT_OWNER = Owner("default owner")


@attrs.frozen
class Settings:
    ratio: float = 1
    owner: Owner = _DEFAULT_OWNER
    when: tuple[int, int] = (0, 0)


def test_null_gives_a_class_its_own_field_defaults_at_every_depth() -> None:
    class Configured(Toolset):
        @tool
        def f(self, *, settings: list[Settings]) -> list[Settings]:
            return settings

    (proxy,) = Configured.to_tools()
    sent = {"settings": [{"ratio": None, "owner": None, "when": None}, {"owner": {"name": "o"}}]}
    first, second = dispatch([proxy], "configured_f", sent, strict=True)
    assert type(first.ratio) is int
    assert first.owner is _DEFAULT_OWNER
    assert first.when is attrs.fields(Settings).when.default
    assert second.owner == Owner("o", 3, [])


def test_none_stays_none_where_the_type_admits_it() -> None:
    cls = make_echo_toolset(
        [
            ("note", str | None, None),
            ("count", int, 1),
            ("size", int | None, 10),  # no lossless strict schema, but dispatch still reads it
            ("labels", dict[str, int], inspect.Parameter.empty),
        ]
    )
    (proxy,) = cls.to_tools()
    sent = {"note": None, "count": None, "size": None, "labels": {"a": 1}}
    assert proxy.invoke(StrictArguments(sent)).value == {
        "note": None,
        "size": None,
        "labels": {"a": 1},
    }
    # The standard form reads the same nulls for the same parameters, and refuses the other.
    refused = proxy.invoke(sent).error
    assert refused is not None
    assert [d.path for d in refused.details] == ["$.count"]


def test_the_strict_form_also_reads_keys_left_out() -> None:
    assert _received({"item": "pen"}) == _tool("order").invoke({"item": "pen"}).value
    assert _received({"item": "pen", "owner": {"name": "x"}})["owner"] == Owner("x", 3, [])


STRICT_TEXTS = [
    (
        '{"item": "pen", "count": null, "color": null, "owner": null, "pet": null, "extra": null,'
        ' "at": null, "note": null}'
    ),
    (
        '{"item": "pen", "count": 2, "color": "green", "owner": {"name": "a", "age": null,'
        ' "tags": null}, "pet": {"kind": "dog", "good": null}, "extra": {"a": 1, "b": null},'
        ' "at": {"x": 1, "y": null}, "note": "n"}'
    ),
    '{"item": "pen", "pet": {"kind": "cat", "lives": null}, "at": {"x": 1, "y": 2}}',
]


@pytest.mark.parametrize("text", STRICT_TEXTS)
def test_the_fast_path_reads_strict_text_as_the_exact_path_does(text: str) -> None:
    proxy = _tool("order")
    fast = _seams.fast_path(proxy, text, strict=True)
    exact = _seams.exact_path(proxy, text, strict=True)
    assert fast is not None  # one pass: the fast path vouches for it
    assert fast == exact
    assert fast == _seams.exact_path(proxy, json.loads(text), strict=True)
    # The standard form refuses the nulls the strict form reads as defaults.
    if "null" in text.replace('"note": null', "").replace('"owner": null', ""):
        assert _seams.fast_path(proxy, text) is None


def test_the_fast_path_hands_over_what_it_cannot_vouch_for() -> None:
    proxy = _tool("order")
    duplicate = '{"item": "pen", "count": null, "count": 2}'
    assert _seams.fast_path(proxy, duplicate, strict=True) is None
    refused = _seams.exact_path(proxy, duplicate, strict=True)
    assert isinstance(refused, ToolError)
    assert refused.message.endswith(
        "the key 'count' appears more than once in an object; send each key once"
    )
    wrong = '{"item": "pen", "owner": {"name": "a", "age": "x"}}'
    assert _seams.fast_path(proxy, wrong, strict=True) is None


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


@attrs.frozen
class Exact:
    x: int


@attrs.frozen
class Loose:
    x: int = 0


def test_null_reaches_the_union_variant_the_strict_schema_gives_it() -> None:
    # {"x": null} is valid only against Loose's strict schema; its standard form with the default
    # filled in ({"x": 0}) would be taken by Exact, so the strict form must not rewrite first.
    class Either(Toolset):
        @tool
        def f(self, *, v: Exact | Loose) -> Exact | Loose:
            return v

    (proxy,) = Either.to_tools()
    assert not Draft202012Validator(
        proxy.strict_parameters["properties"]["v"]["anyOf"][0]
    ).is_valid({"x": None})
    text = '{"v": {"x": null}}'
    assert _seams.fast_path(proxy, text, strict=True) == {"v": Loose(0)}
    assert _seams.exact_path(proxy, json.loads(text), strict=True) == {"v": Loose(0)}
    assert dispatch([proxy], "either_f", text, strict=True) == Loose(0)
    assert dispatch([proxy], "either_f", {"v": {"x": 0}}, strict=True) == Exact(0)


@attrs.frozen
class Named:
    name: str = "anon"


@attrs.frozen
class Numbered:
    name: int | None


@attrs.frozen
class Badge:
    holder: list[Named | Numbered]


def test_a_union_only_the_strict_form_makes_ambiguous_is_refused() -> None:
    # The standard form tells the variants apart ({} or a string is Named, an integer or null is
    # Numbered); in strict mode {"name": null} is Named's default and Numbered(None) alike, and
    # the first variant took it: Numbered(None) could not be sent at all.
    class Either(Toolset):
        @tool
        def f(self, *, v: Named | Numbered) -> Named | Numbered:
            return v

        @tool
        def g(self, *, badge: Badge | None = None) -> Badge | None:
            return badge

    f, g = Either.to_tools()
    assert f.invoke({"v": {"name": None}}).value == Numbered(None)
    assert f.invoke({"v": {}}).value == Named()
    with pytest.raises(ExportError) as caught:
        _ = f.strict_parameters
    assert caught.value.problems == (
        (
            "Tool 'either_f' has no lossless strict schema: parameter 'v' has the union Named | "
            "Numbered, whose variants Named and Numbered both match one value in strict mode "
            "(null standing for a default), which the first would always take; tell them apart "
            "by a required field (a Literal tag), or export it with strict=False"
        ),
    )
    with pytest.raises(ExportError, match=r"^Tool 'either_g' .* parameter 'badge' has the union"):
        _ = g.strict_parameters
    # A union the standard form tells apart in strict mode too is exported (tags differ).
    assert _tool("order").strict_parameters["properties"]["pet"]["anyOf"][0]["properties"]


class NamedTuplePoint(NamedTuple):
    name: str = "anon"


class NamedTupleCount(NamedTuple):
    count: int


def test_a_namedtuple_is_seen_by_the_strict_union_analysis() -> None:
    # Left out of the analysis (as check and the mypy plugin leave it), NamedTuplePoint | Numbered
    # was exported: {"name": null} gave Numbered(None) in the standard form and the NamedTuple's
    # default in the strict one.
    class Either(Toolset):
        @tool
        def f(self, *, v: NamedTuplePoint | Numbered) -> str:
            return repr(v)

        @tool
        def g(self, *, v: NamedTupleCount | Numbered | int) -> str:
            return repr(v)

    f, g = Either.to_tools()
    assert f.invoke({"v": {"name": None}}).value == "Numbered(name=None)"
    with pytest.raises(ExportError, match=r"has the union NamedTuplePoint \| Numbered, whose"):
        _ = f.strict_parameters
    # Told apart by their required fields, in both forms: exported.
    assert g.strict_parameters["properties"]["v"]["anyOf"][0]["required"] == ["count"]
