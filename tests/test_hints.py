"""Annotations are evaluated as `typing.get_type_hints` evaluates them, without typing's cache."""

from __future__ import annotations

import dataclasses
import enum
import sys
import typing
from datetime import date
from typing import Annotated, Any, Literal, NamedTuple, Optional, Union

import attrs
import pytest
import typing_extensions
from annotated_types import Ge

from tests.strategies.toolsets import echo_tool
from tests.test_types import Cat, Dog
from typed_toolsets import Toolset, tool
from typed_toolsets.types.hints import class_hints, evaluate


@attrs.frozen
class Node:
    label: str
    next: Optional["Node"] = None  # noqa: UP037, UP045 - a forward reference inside a form


class Movie(typing_extensions.TypedDict):
    title: str
    sequel: typing_extensions.NotRequired["Movie"]  # noqa: UP037


def test_a_forward_reference_inside_a_form_keeps_its_union_order() -> None:
    # typing.get_type_hints rebuilds Optional[...] through typing's cache, which holds an equal
    # union (Cat first) built before: the declared order would be lost.
    _ = Optional[list[Cat | Dog]]  # noqa: UP045
    written = Optional[list["Dog | Cat"]]  # noqa: UP045
    if sys.version_info >= (3, 11):  # 3.10's leaves the text in list[...] unevaluated
        hinted = typing.get_type_hints(_holder(written))["x"]
        assert typing.get_args(typing.get_args(typing.get_args(hinted)[0])[0]) == (Cat, Dog)
    found = evaluate(written, globals(), {})
    (inner,) = typing.get_args(typing.get_args(found)[0])
    assert typing.get_args(inner) == (Dog, Cat)


def test_tools_and_fields_keep_the_order_of_a_quoted_union() -> None:
    _ = Optional[list[Cat | Dog]]  # noqa: UP045

    class Kennel(Toolset):
        @tool
        def pick(self, *, pets: Optional[list["Dog | Cat"]]) -> str:  # noqa: UP037, UP045
            return repr(pets)

    @attrs.frozen
    class Home:
        pets: Optional[list["Dog | Cat"]]  # noqa: UP037, UP045

    (proxy,) = Kennel.to_tools()
    assert proxy.dynamic_call({"pets": [{"name": "Rex"}]}) == "[Dog(name='Rex')]"
    assert echo_tool(Home).dynamic_call({"value": {"pets": [{"name": "Rex"}]}}) == {
        "value": Home([Dog("Rex")])
    }


@attrs.define
class Event:
    """Slotted: the class holds a member named ``date`` (the field's slot)."""

    date: date


@dataclasses.dataclass
class Filter:
    date: date | None = None  # the class holds the default None under the type's name


class Row(NamedTuple):
    date: date


def test_a_field_named_like_its_type_is_read_as_the_type() -> None:
    # The module's names (then the builtins) come before the class's own attributes.
    sent = "2024-02-29"
    assert echo_tool(Event).dynamic_call({"value": {"date": sent}}) == {
        "value": Event(date(2024, 2, 29))
    }
    assert echo_tool(Filter).dynamic_call({"value": {"date": sent}}) == {
        "value": Filter(date(2024, 2, 29))
    }
    assert echo_tool(Row).dynamic_call({"value": {"date": sent}}) == {
        "value": Row(date(2024, 2, 29))
    }


def test_a_method_named_like_a_builtin_does_not_hide_it() -> None:
    class Lists(Toolset):
        class Color(enum.Enum):
            RED = "red"

        @tool
        def list(self) -> str:
            return ""

        @tool
        def pick(self, *, items: list[str], color: Color) -> str:
            return repr((items, color))

    pick = Lists.to_tools()[1]
    assert pick.dynamic_call({"items": ["a"], "color": "red"}) == repr((["a"], Lists.Color.RED))


def _holder(annotation: object) -> type:
    return type("Holder", (), {"__annotations__": {"x": annotation}, "__module__": __name__})


#: Python 3.10's get_type_hints leaves a text in ``list[...]`` (a builtin generic) unevaluated;
#: the library evaluates it on every Python, as 3.11 does (`test_texts_in_builtin_generics`).
_NEEDS_311 = pytest.mark.skipif(sys.version_info < (3, 11), reason="3.10 leaves the text as is")


@pytest.mark.parametrize(
    "annotation",
    [
        "int",
        "list[Node]",
        "Optional[Node]",
        "Annotated[int, Ge(0), 'text']",
        "Literal['a', 'b']",
        pytest.param("dict[str, 'Node']", marks=_NEEDS_311),
        "tuple[int, ...]",
        pytest.param("tuple['Node', Dog]", marks=_NEEDS_311),
        "None",
        pytest.param(list["Node"], marks=_NEEDS_311),
        Optional["Node"],
        Union["Node", int],
        Annotated["Node", "described"],
        typing.Sequence["Node"],
        Literal["Node"],  # a value, not a reference
        pytest.param(dict[str, list["Node"]], marks=_NEEDS_311),
        int | None,
    ],
)
def test_evaluation_is_get_type_hints(annotation: object) -> None:
    expected = typing.get_type_hints(_holder(annotation), include_extras=True)["x"]
    found = evaluate(annotation, globals(), {})
    assert found == expected
    assert repr(found) == repr(expected)


def test_texts_in_builtin_generics_are_evaluated() -> None:
    found = evaluate(dict[str, list["Node"]], globals(), {})
    assert found == dict[str, list[Node]]
    assert evaluate("tuple['Node', Dog]", globals(), {}) == tuple[Node, Dog]


def test_class_hints_are_get_type_hints() -> None:
    for cls in (Node, Movie, Cat):
        assert class_hints(cls, {}) == typing_extensions.get_type_hints(cls, include_extras=True)
    assert class_hints(Node, {}, only={"next"}) == {"next": Optional[Node]}  # noqa: UP045


def test_an_annotation_already_evaluated_is_returned_as_it_is() -> None:
    annotation = Annotated[list[Cat | Dog], Ge(0)]
    assert evaluate(annotation, globals(), {}) is annotation


def test_an_undefined_name_is_a_name_error() -> None:
    with pytest.raises(NameError, match="Nowhere"):
        evaluate(list["Nowhere"], globals(), {})  # type: ignore[name-defined]  # noqa: F821


def test_local_names_are_used() -> None:
    local: dict[str, Any] = {"Here": Cat}
    assert evaluate("list[Here]", globals(), local) == list[Cat]
