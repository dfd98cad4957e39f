"""`check_toolset`: it passes on good toolsets and names the tool, parameter and shrunk example
of every kind of broken round trip."""

from __future__ import annotations

import asyncio
import dataclasses
import datetime
import decimal
import enum
import inspect
import threading
import uuid
from collections.abc import Sequence
from typing import Annotated, Any, Literal, NamedTuple

import attrs
import pytest
import typing_extensions
from annotated_types import Ge, Le, MaxLen, MinLen
from hypothesis import given, note, settings
from hypothesis import strategies as st
from hypothesis.errors import FailedHealthCheck, InvalidArgument

from tests.strategies.annotations import Color
from tests.strategies.toolsets import make_echo_toolset, toolsets
from typed_toolsets import Limits, Toolset, register_type, tool
from typed_toolsets.github import GitHubCLIToolset
from typed_toolsets.testing import (
    NoStrategyError,
    ToolsetCheckError,
    _seams,
    arguments,
    check_toolset,
    invalid_arguments,
)
from typed_toolsets.testing._check import _drawn, _ToolCheck
from typed_toolsets.testing._same import same
from typed_toolsets.text import TextProcessingToolset

# ------------------------------------------------------------------------------ good toolsets


@attrs.define
class Address:
    street: str
    number: Annotated[int, Ge(1)] = 1


@attrs.frozen
class Person:
    name: str
    born: datetime.date
    address: Address | None = None
    tags: frozenset[str] = frozenset()


@dataclasses.dataclass
class Window:
    start: datetime.datetime
    end: datetime.datetime | None = None


class Query(typing_extensions.TypedDict):
    text: str
    limit: typing_extensions.NotRequired[Annotated[int, Ge(1), Le(100)]]


@attrs.frozen
class Node:
    value: int
    children: list[Node] = attrs.Factory(list)


@attrs.frozen
class Cents:
    """An amount in cents, registered with a strategy."""

    cents: int


register_type(
    Cents,
    schema={"type": "string", "pattern": "^-?[0-9]+[.][0-9]{2}$"},
    structure=lambda text: Cents(int(text.replace(".", ""))),
    unstructure=lambda c: (
        f"{'-' if c.cents < 0 else ''}{abs(c.cents) // 100}.{abs(c.cents) % 100:02d}"
    ),
    strategy=st.integers(-(10**6), 10**6).map(Cents),
)


class GoodToolset(Toolset):
    """Every kind of type the library supports, in one toolset."""

    toolset_name = "good"

    @tool
    def people(
        self, *, person: Person, friends: tuple[Person, ...] = (), color: Color | None = None
    ) -> str:
        return person.name

    @tool
    def search(
        self, *, query: Query, window: Window | None = None, mode: Literal["fast", "exact"] = "fast"
    ) -> int:
        return 0

    @tool
    def numbers(
        self,
        *,
        count: int,
        ratio: float = 0.5,
        amount: int | float = 0,
        price: Cents | None = None,
        ids: set[uuid.UUID] = set(),  # noqa: B006 - never mutated
        pair: tuple[int, str] = (0, ""),
        scores: dict[str, float] | None = None,
    ) -> int:
        return count

    @tool
    async def tree(self, *, root: Node, labels: Annotated[tuple[str, ...], MaxLen(3)] = ()) -> int:
        return root.value


def test_passes_on_a_toolset_using_every_kind_of_type() -> None:
    check_toolset(GoodToolset, max_examples=40)


def test_passes_on_an_instance() -> None:
    @attrs.define
    class Configured(Toolset):
        prefix: str

        @tool
        def greet(self, *, name: str) -> str:
            return self.prefix + name

    check_toolset(Configured(prefix="hi "), max_examples=20)


def test_passes_on_tools_with_small_limits() -> None:
    class Small(Toolset):
        limits = Limits(max_argument_bytes=64, max_depth=3)

        @tool
        def note(self, *, text: str, tags: list[list[str]] = ()) -> str:  # type: ignore[assignment]  # a tuple default on purpose
            return text

    check_toolset(Small, max_examples=40)


@pytest.mark.parametrize("toolset", [TextProcessingToolset, GitHubCLIToolset])
def test_passes_on_the_builtin_toolsets(toolset: type[Toolset]) -> None:
    check_toolset(toolset, max_examples=25)


_SEQUENCE = iter(range(10**9))


@dataclasses.dataclass
class Ticket:
    title: str
    id: uuid.UUID = dataclasses.field(default_factory=uuid.uuid4)


@attrs.define
class Stamped:
    name: str
    at: datetime.datetime = attrs.Factory(lambda: datetime.datetime.now(datetime.timezone.utc))
    seq: int = attrs.Factory(lambda: next(_SEQUENCE))
    tickets: list[Ticket] = attrs.Factory(list)


class FactoriesToolset(Toolset):
    @tool
    def open(self, *, ticket: Ticket, stamped: Stamped | None = None) -> str:
        return ticket.title


def test_passes_on_fields_whose_factories_make_a_new_value_each_time() -> None:
    # A field left out (or null in the strict variant) is made anew by each structuring: the
    # mapping's and the JSON text's values differed, and a correct toolset failed.
    check_toolset(FactoriesToolset, max_examples=60, call=True)
    # A factory field that was sent is still compared.
    left = Stamped("a", datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc), 1)
    right = Stamped("a", datetime.datetime(2026, 1, 2, tzinfo=datetime.timezone.utc), 2)
    assert same(left, right, sent={"name": "a"})
    assert not same(left, right, sent={"name": "a", "seq": 1})
    assert not same(left, right)


@given(toolsets(), st.data())
def test_the_checks_hold_on_generated_toolsets(generated: Any, data: st.DataObject) -> None:
    """The three properties, on generated toolsets, drawn here (check_toolset runs Hypothesis
    itself, and Hypothesis does not nest)."""
    cls, params = generated
    proxy = cls.to_tools()[0]
    check = _ToolCheck(cls.__name__, proxy, call=False)
    note(repr(proxy.parameters))
    if all(case.exact for _, case, _ in params):  # ambiguous unions fail the round trip
        check.round_trip(data.draw(_drawn(proxy.name, check.params), label="values"))
    check.accepted(data.draw(arguments(proxy), label="arguments"))
    check.refused(data.draw(invalid_arguments(proxy), label="near miss"))


# ---------------------------------------------------------------------------- broken toolsets


def failure(toolset: type[Toolset], **options: Any) -> ToolsetCheckError:
    with pytest.raises(ToolsetCheckError) as caught:
        check_toolset(toolset, max_examples=options.pop("max_examples", 100), **options)
    return caught.value


class StrColor(str, enum.Enum):
    RED = "red"
    BLUE = "blue"


class AmbiguousToolset(Toolset):
    @tool
    def paint(self, *, wall: int, color: str | StrColor = "red") -> str:
        return f"{wall}: {color}"


def test_an_ambiguous_union_is_caught() -> None:
    error = failure(AmbiguousToolset)
    assert (error.toolset, error.tool, error.parameter) == (
        "AmbiguousToolset",
        "ambiguous_paint",
        "color",
    )
    message = str(error)
    assert message.startswith("AmbiguousToolset: tool 'ambiguous_paint', parameter 'color': ")
    assert (
        """<StrColor.RED: 'red'> (StrColor) went to JSON as "red" and came back as 'red' (str)"""
        in message
    )
    assert "the union str | StrColor is ambiguous" in message
    # Shrunk: the first member, and the other argument at its simplest.
    assert error.example == {"wall": 0, "color": StrColor.RED}


class UuidOrTextToolset(Toolset):
    @tool
    def tag(self, *, ref: uuid.UUID | str) -> str:
        return str(ref)


class ColorOrTextToolset(Toolset):
    @tool
    def tag(self, *, label: StrColor | str) -> str:
        return str(label)


class DayOrTextToolset(Toolset):
    @tool
    def tag(self, *, on: datetime.date | str) -> str:
        return str(on)


@pytest.mark.parametrize(
    ("toolset", "parameter", "union"),
    [
        (UuidOrTextToolset, "ref", "UUID | str"),
        (ColorOrTextToolset, "label", "StrColor | str"),
        (DayOrTextToolset, "on", "date | str"),
    ],
)
def test_an_ambiguous_union_whose_later_variant_is_wider_is_caught(
    toolset: type[Toolset], parameter: str, union: str
) -> None:
    # A str that looks like a UUID, a date or an enum member's value comes back as the earlier
    # variant; random text almost never does, so such toolsets passed.
    error = failure(toolset)
    assert error.parameter == parameter
    assert f"the union {union} is ambiguous" in str(error)
    assert "came back as" in str(error)


@attrs.frozen
class Page:
    size: Annotated[int, Ge(1)] = 0  # the default breaks its own Ge


@dataclasses.dataclass
class Search:
    text: str
    limit: Annotated[int, Le(10)] = 50


@attrs.frozen
class Book:
    pages: list[Page] = attrs.Factory(list)


class PagedToolset(Toolset):
    @tool
    def list_items(self, *, page: Page) -> int:
        return page.size


class SearchToolset(Toolset):
    @tool
    def run(self, *, search: Search) -> int:
        return search.limit


class BookToolset(Toolset):
    @tool
    def read(self, *, book: Book) -> int:
        return len(book.pages)


@pytest.mark.parametrize(
    ("toolset", "parameter", "default"),
    [
        (PagedToolset, "page", "Page.size (0)"),
        (SearchToolset, "search", "Search.limit (50)"),
        (BookToolset, "book", "Page.size (0)"),  # $.book.pages[0].size
    ],
)
def test_a_field_default_that_breaks_its_own_constraint_is_named(
    toolset: type[Toolset], parameter: str, default: str
) -> None:
    # It said "the schema is stricter than the converter", which points elsewhere.
    error = failure(toolset)
    assert error.parameter == parameter
    assert error.problem.endswith(
        f"it is the default of {default}, which breaks its own constraint: change the default "
        "or the constraint"
    )


@attrs.frozen
class Contact:
    name: str


@attrs.frozen
class Employee:
    name: str
    team: str | None = None


class PeopleToolset(Toolset):
    @tool
    def add(self, *, who: Contact | Employee) -> str:
        return type(who).__name__


def test_an_ambiguous_union_no_value_drawn_shows_is_still_caught() -> None:
    # The converter writes Employee's defaulted team, so its JSON never reads as a Contact and
    # the round trip passed; a model that leaves team out is read as a Contact, as `check` says.
    assert PeopleToolset.to_tools()[0].invoke({"who": {"name": "Ann"}}).value == "Contact"
    error = failure(PeopleToolset)
    assert (error.tool, error.parameter, error.example) == (
        "people_add",
        "who",
        "Contact | Employee",
    )
    assert error.problem.startswith(
        "the union Contact | Employee is ambiguous: a JSON value of Employee also matches "
        "Contact, which comes first and wins (as typed-toolsets check reports): no value drawn "
        "here came back changed"
    )
    assert error.problem.endswith(
        "give each variant a member that tells it apart (a required field of its own, or a "
        "Literal tag)"
    )


@attrs.frozen
class Point:
    x: int
    y: int


# The hook writes a tuple: JSON's array, which the call path takes in a mapping too.
register_type(
    Point,
    schema={
        "type": "array",
        "prefixItems": [{"type": "integer"}] * 2,
        "minItems": 2,
        "maxItems": 2,
    },
    structure=lambda pair: Point(*pair),
    unstructure=lambda point: (point.x, point.y),
    strategy=st.builds(Point, st.integers(), st.integers()),
)


class GeoToolset(Toolset):
    @tool
    def move(self, *, to: Point) -> str:
        return f"{to.x},{to.y}"


def test_arguments_from_a_hook_writing_a_tuple_are_json_and_pass() -> None:
    # check_toolset failed: "[0, 0] is not of type 'array'" (the tuple, judged as it stood).
    assert GeoToolset.to_tools()[0].dynamic_call({"to": (1, 2)}) == "1,2"
    check_toolset(GeoToolset, max_examples=30)

    @given(arguments(GeoToolset.to_tools()[0]))
    @settings(max_examples=20)
    def json_ready(drawn: dict[str, Any]) -> None:
        assert type(drawn["to"]) is list

    json_ready()


@attrs.frozen
class Keyed:
    value: int


# The hook writes an int key: JSON's keys are strings, and the call path says so.
register_type(
    Keyed,
    schema={"type": "object"},
    structure=lambda mapping: Keyed(int(next(iter(mapping)))),
    unstructure=lambda keyed: {keyed.value: keyed.value},
    strategy=st.builds(Keyed, st.integers(0, 9)),
)


class KeyedToolset(Toolset):
    @tool
    def take(self, *, it: Keyed) -> int:
        return it.value


def test_a_hook_writing_a_key_that_is_no_string_still_fails() -> None:
    # Writing the arguments as JSON and reading them back (to make a tuple an array) turned the
    # int key into "0", and the hook's bug passed.
    error = failure(KeyedToolset)
    assert error.parameter == "it"
    assert "is not a string" in error.problem


class LosslessOverlapsToolset(Toolset):
    @tool
    def pick(
        self,
        *,
        mode: Literal["auto"] | str,
        size: Literal[1] | int = 1,
        flag: Literal[True] | bool = True,
    ) -> str:
        return f"{mode}{size}{flag}"


def test_a_union_that_gives_the_same_value_either_way_passes() -> None:
    # `check` warns of these (a JSON value matches both); the value is the same whichever
    # variant reads it, so nothing is misread: the struct-only check must not fail them.
    check_toolset(LosslessOverlapsToolset, max_examples=30)


@attrs.frozen
class Reading:
    value: int | None


# A registered type that takes null too, beside None in a union: null always gives None.
register_type(
    Reading,
    schema={"type": ["integer", "null"]},
    structure=Reading,
    unstructure=lambda reading: reading.value,
    strategy=st.builds(Reading, st.none()),
)


class NullableReadingToolset(Toolset):
    @tool
    def log(self, *, reading: Reading | None) -> str:
        return "logged"


def test_a_union_with_none_and_a_type_taking_null_says_null_gives_none() -> None:
    # The explanation said Reading "comes first and wins"; the call gave None.
    message = str(failure(NullableReadingToolset))
    assert "came back as None (NoneType)" in message
    assert (
        "the union Reading | None is ambiguous: a JSON null matches both Reading and None, "
        "and always gives None"
    ) in message


@attrs.frozen
class Celsius:
    degrees: float


# The schema says a string; the hooks write and read a number.
register_type(
    Celsius,
    schema={"type": "string"},
    structure=lambda value: Celsius(float(value)),
    unstructure=lambda value: value.degrees,
    strategy=st.floats(-100, 100).map(Celsius),
)


class MismatchedToolset(Toolset):
    @tool
    def heat(self, *, to: Celsius) -> str:
        return "ok"


def test_a_registered_type_whose_schema_and_hooks_disagree_is_caught() -> None:
    error = failure(MismatchedToolset)
    assert error.parameter == "to"
    assert "its JSON form 0.0 does not validate against the tool's schema" in str(error)
    assert "($.to: 0.0 is not of type 'string')" in str(error)
    assert error.example == {"to": Celsius(0.0)}


@attrs.frozen
class Price:
    cents: int


def _price(text: str) -> Price:
    whole, fraction = text.split(".")  # a whole number ("12"), which the schema admits, fails
    return Price(int(whole) * 100 + int(fraction.ljust(2, "0")))


# The hooks agree with each other, and the strategy is as wide as can be: only what a model may
# send besides what the unstructure hook writes shows that the structure hook is stricter.
register_type(
    Price,
    schema={"type": "string", "pattern": r"^[0-9]+(\.[0-9]{1,2})?$"},
    structure=_price,
    unstructure=lambda price: f"{price.cents // 100}.{price.cents % 100:02d}",
    strategy=st.integers(min_value=0).map(Price),
)


class PriceToolset(Toolset):
    @tool
    def pay(self, *, amount: Price) -> str:
        return "paid"


def test_a_structure_hook_stricter_than_its_schema_is_caught() -> None:
    # Only the JSON the strategy's values unstructure to was sent: the check passed, yet a
    # model's "12" was refused ("not enough values to unpack").
    error = failure(PriceToolset)
    assert error.parameter == "amount"
    assert "arguments its schema admits were refused" in str(error)
    assert "ValueError: not enough values to unpack" in str(error)


@attrs.frozen
class Quantity:
    count: int


def _quantity(value: object) -> Quantity:
    if type(value) is not int:  # a model's 3.0, which "integer" admits, fails
        msg = f"expected an int, got {value!r}"
        raise TypeError(msg)
    return Quantity(value)


@attrs.frozen
class Size:
    number: int


def _size(value: object) -> Size:
    if type(value) is not int:  # 1.0 equals the member 1 for the schema's enum
        msg = f"expected an int, got {value!r}"
        raise TypeError(msg)
    return Size(value)


register_type(
    Quantity,
    schema={"type": "integer", "minimum": 0},
    structure=_quantity,
    unstructure=lambda quantity: quantity.count,
    strategy=st.integers(min_value=0).map(Quantity),
)
register_type(
    Size,
    schema={"enum": [1, 2]},
    structure=_size,
    unstructure=lambda size: size.number,
    strategy=st.sampled_from([1, 2]).map(Size),
)


class QuantityToolset(Toolset):
    @tool
    def buy(self, *, quantity: Quantity) -> str:
        return "bought"


class SizeToolset(Toolset):
    @tool
    def fit(self, *, size: Size) -> str:
        return "fits"


@pytest.mark.parametrize(
    ("toolset", "parameter"), [(QuantityToolset, "quantity"), (SizeToolset, "size")]
)
def test_a_hook_refusing_an_integral_float_its_schema_admits_is_caught(
    toolset: type[Toolset], parameter: str
) -> None:
    # Drawn from the schema, an integer (or an enum member 1) was only ever an int: a model's
    # 3.0, which the call path hands to the hook as it is, was never tried.
    error = failure(toolset)
    assert error.parameter == parameter
    assert "arguments its schema admits were refused" in str(error)
    assert "TypeError: expected an int, got " in str(error)
    assert isinstance(error.example[parameter], float)


@attrs.frozen
class Code:
    text: str


# The validator (the schema's pattern) is stricter than what the converter writes.
register_type(
    Code,
    schema={"type": "string", "pattern": "^[A-Z]{3}$"},
    structure=Code,
    unstructure=lambda code: code.text,
    strategy=st.text(alphabet="ABC", min_size=1, max_size=4).map(Code),
)


class StrictSchemaToolset(Toolset):
    @tool
    def lookup(self, *, code: Code) -> str:
        return code.text


def test_a_validator_stricter_than_the_converter_is_caught() -> None:
    error = failure(StrictSchemaToolset)
    assert error.parameter == "code"
    assert "does not validate against the tool's schema" in str(error)
    assert "the schema is stricter than the converter" in str(error)
    assert error.example == {"code": Code("A")}


@attrs.frozen
class Order:
    quantity: int = attrs.field(validator=attrs.validators.ge(1))


class StrictClassToolset(Toolset):
    @tool
    def place(self, *, order: Order) -> str:
        return "placed"


def test_a_class_validator_stricter_than_the_schema_is_caught() -> None:
    error = failure(StrictClassToolset)
    # Hypothesis's explain phase listed lines of the library's call path "always and only run
    # by failing test cases", which read as a bug of the library's own.
    assert not any("failing test cases" in note for note in getattr(error, "__notes__", []))
    assert str(error).count("the class or hook is stricter than the schema: tighten") == 1
    assert error.parameter == "order"
    assert "arguments its schema admits were refused" in str(error)
    assert "must be >= 1: 0" in str(error)
    assert error.example == {"order": {"quantity": 0}}


@attrs.frozen
class Shade:
    # Refuses nearly every string: values() cannot draw it, the schema's arguments say why.
    name: str = attrs.field(validator=attrs.validators.in_(["umber"]))


class PickyToolset(Toolset):
    @tool
    def paint(self, *, shade: Shade) -> str:
        return shade.name


def test_a_class_that_refuses_nearly_everything_is_explained() -> None:
    error = failure(PickyToolset)
    assert error.parameter == "shade"
    assert "arguments its schema admits were refused" in str(error)
    assert error.example == {"shade": {"name": ""}}


@attrs.frozen
class Limited:
    # A default that breaks the field's own constraint: what the class holds cannot be sent.
    level: Annotated[int, Ge(1)] = 0


class BadDefaultToolset(Toolset):
    @tool
    def run(self, *, limited: Limited) -> str:
        return "ran"


def test_a_default_its_schema_refuses_is_caught() -> None:
    error = failure(BadDefaultToolset)
    assert error.parameter == "limited"
    assert "($.limited.level: 0 is less than the minimum of 1)" in str(error)
    assert error.example == {"limited": Limited()}


@attrs.frozen
class Spot:
    x: float
    # An int default for a float and a tuple for a Sequence, as PEP 484 and attrs users write
    # them: the method receives 0 when the field is left out and 0.0 when a model sends 0.
    y: float = 0
    tags: Sequence[str] = ()


@dataclasses.dataclass(frozen=True)
class Zoom:
    factor: float = 1


class Extent(NamedTuple):
    width: float
    height: float = 1


class DefaultsToolset(Toolset):
    @tool
    def place(self, *, spot: Spot, zoom: Zoom | None = None, extents: list[Extent] = []) -> str:  # noqa: B006
        return "placed"


def test_a_field_left_at_an_idiomatic_default_is_not_a_loss() -> None:
    # The round trip compared Spot(y=0) with Spot(y=0.0) by type and reported "the converter
    # loses information" for a correct toolset; a default is compared by its JSON form.
    check_toolset(DefaultsToolset, max_examples=100)


@attrs.frozen
class Shelf:
    # The same defaults made by factories: each is a new object, equal to the factory's next one.
    tags: Sequence[str] = attrs.Factory(tuple)
    weights: Sequence[float] = attrs.field(factory=lambda: (0, 1))


@dataclasses.dataclass(frozen=True)
class Crate:
    labels: Sequence[str] = dataclasses.field(default_factory=tuple)


class FactoryDefaultsToolset(Toolset):
    @tool
    def stock(self, *, shelf: Shelf, crate: Crate) -> str:
        return "stocked"


def test_a_field_left_at_a_factory_default_is_not_a_loss() -> None:
    # Compared by identity with a default, a factory's new tuple was never "at its default", and
    # its JSON array came back as a list: "the converter loses information" for a correct toolset.
    check_toolset(FactoryDefaultsToolset, max_examples=100)


@attrs.frozen
class Relabeled:
    offset: float
    # A factory's value that the converter changes: what the class holds is not the default.
    label: str = attrs.field(factory=lambda: "a", converter=lambda s: s + "!")


class RelabeledToolset(Toolset):
    @tool
    def shift(self, *, relabeled: Relabeled) -> str:
        return "shifted"


def test_a_converter_that_changes_a_factory_default_is_still_caught() -> None:
    error = failure(RelabeledToolset)
    assert error.parameter == "relabeled"
    assert "the converter loses information" in str(error)


@attrs.frozen
class Shifted:
    offset: float
    # Not a default: the converter really changes an explicit value.
    label: str = attrs.field(default="a", converter=lambda s: s + "!")


class ShiftedToolset(Toolset):
    @tool
    def shift(self, *, shifted: Shifted) -> str:
        return "shifted"


def test_a_converter_that_changes_a_default_is_still_caught() -> None:
    error = failure(ShiftedToolset)
    assert error.parameter == "shifted"
    assert "the converter loses information" in str(error)


@attrs.frozen
class Amount:
    """A decimal amount."""

    value: decimal.Decimal


# A converter that loses information: amounts are written with two decimal places.
register_type(
    Amount,
    schema={"type": "string"},
    structure=lambda text: Amount(decimal.Decimal(text)),
    unstructure=lambda amount: f"{amount.value:.2f}",
    strategy=st.decimals(places=3, min_value=0, max_value=10).map(Amount),
)


class LossyToolset(Toolset):
    @tool
    def pay(self, *, amount: Amount) -> str:
        return repr(amount)


def test_a_converter_that_loses_information_is_caught() -> None:
    error = failure(LossyToolset)
    assert error.parameter == "amount"
    message = str(error)
    assert (
        """Amount(value=Decimal('0.001')) (Amount) went to JSON as "0.00" and came back as """
        """Amount(value=Decimal('0.00'))""" in message
    )
    assert "the converter loses information" in message
    assert error.example == {"amount": Amount(decimal.Decimal("0.001"))}


class Token:
    """A registered type without __eq__: two equal tokens are two different objects."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.text!r})"


register_type(
    Token,
    schema={"type": "string"},
    structure=Token,
    unstructure=lambda token: token.text,
    strategy=st.builds(Token, st.text(max_size=5)),
)


class TokenToolset(Toolset):
    @tool
    def login(self, *, token: Token, others: list[Token]) -> None:
        pass


def test_a_type_without_eq_is_compared_by_its_json_form() -> None:
    # `==` would be identity: every round trip and every pair of call paths would "differ".
    check_toolset(TokenToolset, max_examples=30)
    assert same(Token("a"), Token("a"))
    assert same([Token("a")], [Token("a")])
    assert not same(Token("a"), Token("b"))


class Tag(Token):
    """Without __eq__, and read back stripped: the converter loses the surrounding spaces."""


register_type(
    Tag,
    schema={"type": "string"},
    structure=lambda text: Tag(text.strip()),
    unstructure=lambda tag: tag.text,
    strategy=st.builds(Tag, st.text(max_size=3)),
)


class TagToolset(Toolset):
    @tool
    def label(self, *, tag: Tag) -> None:
        pass


def test_a_lossy_converter_of_a_type_without_eq_is_caught() -> None:
    error = failure(TagToolset)
    assert error.parameter == "tag"
    example: dict[str, Any] = error.example  # type: ignore[assignment]
    tag: Tag = example["tag"]
    assert tag.text != tag.text.strip()
    assert (
        "the converter loses information (Tag defines no __eq__, so its values are compared by "
        f"their JSON forms: {_seams.json_text(tag.text)} went, "
        f"{_seams.json_text(tag.text.strip())} came back)" in str(error)
    )


class DeepToolset(Toolset):
    # Every grid but [] is nested deeper than the limits allow: too few values can be checked.
    limits = Limits(max_depth=2)

    @tool
    def fill(self, *, grid: list[list[int]]) -> None:
        pass


def test_limits_that_filter_out_most_values_are_named() -> None:
    with pytest.raises(FailedHealthCheck) as caught:
        check_toolset(DeepToolset, max_examples=50)
    message = str(caught.value)
    assert message.startswith(
        "DeepToolset: tool 'deep_fill': Hypothesis could not generate enough values of its "
        "parameters to check it; the likely cause is its Limits (max_depth=2): "
    )
    assert "(FailedHealthCheck: It looks like this test is filtering out a lot of inputs" in message
    # Hypothesis's own error is kept, as the cause.
    assert isinstance(caught.value.__cause__, FailedHealthCheck)


class BulkyToolset(Toolset):
    # Its smallest value is 40 strings of 500 characters: Hypothesis's large_base_example.
    @tool
    def load(self, *, rows: Annotated[list[Annotated[str, MinLen(500)]], MinLen(40)]) -> None:
        pass


def test_values_too_large_to_generate_are_named_as_such() -> None:
    # Every failed health check was put down to "a class or constraint that refuses most
    # generated values", though nothing here refuses anything.
    with pytest.raises(FailedHealthCheck) as caught:
        check_toolset(BulkyToolset, max_examples=5)
    message = str(caught.value)
    assert message.startswith(
        "BulkyToolset: tool 'bulky_load': Hypothesis could not generate values of its parameters "
        "small enough to check it (its HealthCheck.large_base_example); the likely cause is a "
        "MinLen asking for long strings or collections, or collections nested deep: lower it, "
        "or suppress HealthCheck.large_base_example in your Hypothesis profile and pass a small "
        "max_examples (each example is large: the four checks of a tool with 100 of them may "
        "take minutes)\n"
    )
    assert "refuses" not in message
    assert isinstance(caught.value.__cause__, FailedHealthCheck)


def test_a_failed_health_check_prints_no_advice_the_user_cannot_follow(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Unless derandomized, Hypothesis printed "You can reproduce this failure by adding
    # @seed(...) to this test": the test it means is check_toolset's own.
    profile = settings.get_current_profile_name()
    settings.register_profile("random_seed", settings.get_profile(profile), derandomize=False)
    settings.load_profile("random_seed")
    try:
        with pytest.raises(FailedHealthCheck):
            check_toolset(BulkyToolset, max_examples=5)
    finally:
        settings.load_profile(profile)
    assert "@seed(" not in capsys.readouterr().out


def test_a_check_inside_given_says_to_call_it_from_a_plain_test() -> None:
    @settings(max_examples=1, database=None)
    @given(st.just(0))
    def outer(_: int) -> None:
        check_toolset(Recorder, max_examples=5)

    with pytest.raises(FailedHealthCheck) as caught:
        outer()
    message = str(caught.value)
    assert message.startswith(
        "Recorder: tool 'recorder_write': check_toolset() was called inside a @given test; it "
        "runs Hypothesis itself, so call it from a plain test function\n"
    )
    assert "refuses" not in message


class HugeToolset(Toolset):
    @tool
    def read(self, *, text: Annotated[str, MinLen(100_000)]) -> int:
        return len(text)


def test_a_parameter_hypothesis_cannot_generate_is_named() -> None:
    # A constraint past what Hypothesis draws raised its bare error, naming neither the
    # toolset nor the tool.
    with pytest.raises(InvalidArgument) as caught:
        check_toolset(HugeToolset, max_examples=5)
    message = str(caught.value)
    assert message.startswith(
        "HugeToolset: tool 'huge_read': Hypothesis cannot generate values of its parameters: text("
    )
    assert "min_size=100000" in message
    assert isinstance(caught.value.__cause__, InvalidArgument)


def test_a_disagreement_between_the_call_paths_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    exact_fast_path = _seams.fast_path

    def off_by_one(proxy: Any, text: str) -> dict[str, object] | None:
        found = exact_fast_path(proxy, text)
        return None if found is None else {**found, "count": int(str(found["count"])) + 1}

    monkeypatch.setattr(_seams, "fast_path", off_by_one)

    class Counter(Toolset):
        @tool
        def add(self, *, count: int) -> int:
            return count

    error = failure(Counter, max_examples=20)
    assert error.parameter == "count"
    assert "the fast path structured it as 1 (int), the exact path as 0 (int)" in str(error)


def test_a_near_miss_that_is_accepted_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_seams, "exact_path", lambda proxy, arguments, strict=False: {})

    class Anything(Toolset):
        @tool
        def take(self) -> int:
            return 0

    error = failure(Anything, max_examples=20)
    assert "the exact path accepted arguments that are wrong at $.unexpected" in str(error)
    assert error.example == {"unexpected": None}


def test_the_strict_variant_is_checked_when_the_tool_has_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    class Counter(Toolset):
        @tool
        def add(self, *, count: int = 3) -> int:
            return count

    check_toolset(Counter, max_examples=20)
    # Read the standard way, null for the default would be refused.
    standard = _seams.exact_path
    monkeypatch.setattr(
        _seams, "exact_path", lambda proxy, arguments, strict=False: standard(proxy, arguments)
    )
    error = failure(Counter, max_examples=20)
    assert error.parameter == "count"
    assert "arguments its strict schema admits were refused" in str(error)
    assert error.example == {"count": None}


def test_the_strict_fast_and_exact_paths_must_agree(monkeypatch: pytest.MonkeyPatch) -> None:
    class Counter(Toolset):
        @tool
        def add(self, *, count: int = 3) -> int:
            return count

    fast = _seams.fast_path

    def wrong_when_strict(proxy: Any, text: str, *, strict: bool = False) -> Any:
        found = fast(proxy, text, strict=strict)
        return {"count": -1} if strict and found is not None else found

    monkeypatch.setattr(_seams, "fast_path", wrong_when_strict)
    error = failure(Counter, max_examples=20)
    assert error.parameter == "count"
    assert "the strict fast path structured it as -1 (int), the strict exact path as" in str(error)


# ---------------------------------------------------------------------------- calling or not


@attrs.define
class Recorder(Toolset):
    calls: list[str] = attrs.Factory(list)

    @tool
    def write(self, *, line: str, times: int = 1) -> str:
        self.calls.append(line)
        if times < 0:
            msg = "negative"
            raise ValueError(msg)
        return line


def test_methods_are_never_called_unless_asked() -> None:
    recorder = Recorder()
    check_toolset(recorder, max_examples=20)
    assert recorder.calls == []


def test_call_runs_the_tools_and_tolerates_their_own_errors() -> None:
    recorder = Recorder()
    check_toolset(recorder, max_examples=20, call=True)
    assert recorder.calls


def test_call_tolerates_tools_that_time_out() -> None:
    # Each call that times out keeps its thread; past 32 of them, calls are refused with a
    # "limit" error about no argument, which call=True reported as refused valid arguments.
    release = threading.Event()

    class Stalled(Toolset):
        limits = Limits(timeout=0.01)

        @tool
        def fetch(self, *, url: str) -> str:
            release.wait(10)
            return url

    try:
        check_toolset(Stalled, max_examples=50, call=True)
    finally:
        release.set()


def test_a_type_without_strategy_names_the_tool_and_parameter() -> None:
    class Bare:
        pass

    register_type(
        Bare, schema={"type": "null"}, structure=lambda _: Bare(), unstructure=lambda _: None
    )
    cls = make_echo_toolset([("thing", Bare, inspect.Parameter.empty)], toolset_name="bare")
    with pytest.raises(
        NoStrategyError, match=r"tool 'bare_echo', parameter 'thing': no strategy for .*Bare"
    ):
        check_toolset(cls)


class _Wrongly:
    def __init__(self, value: int) -> None:
        self.value = value


def _failing_strategy() -> st.SearchStrategy[_Wrongly]:
    raise RuntimeError("strategy factory failed")


@pytest.mark.parametrize(
    ("strategy", "said"),
    [
        # It drew ints: "unstructuring 0 raised AttributeError: 'int' object has no attribute".
        (lambda: st.integers(), r"drew \d+ \(of type int\), not a _Wrongly value; give "),
        # The function failing escaped bare (RuntimeError: strategy factory failed).
        (_failing_strategy, r"give _Wrongly's strategy raised RuntimeError: strategy factory"),
    ],
    ids=["wrong type", "factory raises"],
)
def test_a_wrong_registered_strategy_is_said_so_naming_the_tool_and_parameter(
    strategy: Any, said: str
) -> None:
    register_type(
        _Wrongly,
        schema={"type": "integer"},
        structure=_Wrongly,
        unstructure=lambda wrongly: wrongly.value,
        strategy=strategy,
    )
    cls = make_echo_toolset([("thing", _Wrongly, inspect.Parameter.empty)], toolset_name="wrong")
    with pytest.raises(NoStrategyError, match=r"tool 'wrong_echo', parameter 'thing': .*" + said):
        check_toolset(cls, max_examples=20)


def test_only_toolsets_are_checked() -> None:
    with pytest.raises(TypeError, match="needs a Toolset class or instance"):
        check_toolset(int)  # type: ignore[arg-type]  # wrong on purpose


# ---------------------------------------------------------------------------------- equality


@pytest.mark.parametrize(
    ("left", "right", "expected"),
    [
        (1, True, False),
        ("red", StrColor.RED, False),
        ([1, 2], (1, 2), False),
        ({1, 2}, {2, 1}, True),
        ({"a": [1.0]}, {"a": [1]}, False),
        (
            datetime.datetime(2024, 1, 1, 12, tzinfo=datetime.timezone.utc),
            datetime.datetime(
                2024, 1, 1, 13, tzinfo=datetime.timezone(datetime.timedelta(hours=1))
            ),
            False,
        ),
        (Address("x", 2), Address("x", 2), True),
        (Address("x", 2), Address("x", number=True), False),
        (Window(datetime.datetime(2024, 1, 1)), Window(datetime.datetime(2024, 1, 1)), True),
    ],
)
def test_same_compares_types_all_the_way_down(left: object, right: object, expected: bool) -> None:
    assert same(left, right) is expected


def test_call_runs_async_tools_from_inside_a_running_event_loop() -> None:
    # From an async test (pytest-asyncio), invoke() on an async tool answers with an
    # "execution" error telling the caller to use ainvoke, which call=True does not count as a
    # failure: the methods were never run and the check passed all the same.
    ran: list[int] = []

    class Pinger(Toolset):
        @tool
        async def ping(self, *, times: Annotated[int, Ge(0)]) -> int:
            ran.append(times)
            if times == 3:
                msg = "three"
                raise LookupError(msg)
            return times

    async def in_a_loop() -> None:
        check_toolset(Pinger, max_examples=10, call=True)

    asyncio.run(in_a_loop())
    assert ran
