"""`typed_toolsets.testing`'s strategies: `values`, `arguments` and `invalid_arguments`."""

from __future__ import annotations

import dataclasses
import datetime
import inspect
import json
import math
import re
import uuid
from fractions import Fraction
from typing import Annotated, Any, Literal, NamedTuple, Optional

import attrs
import pytest
import typing_extensions
from annotated_types import Ge, Gt, Le, Lt, MaxLen, MinLen, MultipleOf
from hypothesis import Phase, find, given, note, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from tests.strategies.annotations import Case, Color, cases
from tests.strategies.annotations import Level as Size
from tests.strategies.toolsets import echo_tool, make_echo_toolset
from typed_toolsets import ToolProxy, Toolset, register_type, tool
from typed_toolsets.export import dispatch
from typed_toolsets.github import GitHubCLIToolset
from typed_toolsets.testing import (
    NearMiss,
    NoStrategyError,
    _seams,
    arguments,
    check_toolset,
    invalid_arguments,
    values,
)
from typed_toolsets.testing._same import same
from typed_toolsets.text import TextProcessingToolset
from typed_toolsets.types.catalog import registry
from typed_toolsets.types.converter import converter
from typed_toolsets.types.validator import make_validator

BUILTIN_TOOLS = [*TextProcessingToolset.to_tools(), *GitHubCLIToolset.to_tools()]


def round_trips(annotation: object, value: object) -> bool:
    """value -> unstructure -> JSON text -> validates -> structure -> the same value."""
    spec = registry.spec(annotation)
    schema = registry.document(spec.schema, spec.refs)
    text = json.dumps(converter.unstructure(value, unstructure_as=annotation))
    parsed = json.loads(text)
    assert make_validator(schema).is_valid(parsed), (text, schema)
    return same(converter.structure(parsed, annotation), value)


# ----------------------------------------------------------------------------------- values


@given(cases(), st.data())
def test_values_of_every_supported_annotation_round_trip(case: Case, data: st.DataObject) -> None:
    note(repr(case.annotation))
    value = data.draw(values(case.annotation), label="value")
    assert registry.spec(case.annotation).instance_check(value)
    if case.exact:
        assert round_trips(case.annotation, value)


@attrs.define
class Owner:
    name: str
    age: Annotated[int, Ge(0), Lt(150)]
    tags: list[str] = attrs.Factory(list)
    nickname: str | None = None


@dataclasses.dataclass(frozen=True)
class Point:
    x: float
    y: float = 0.0


class Movie(typing_extensions.TypedDict):
    title: str
    year: typing_extensions.NotRequired[int]


class Pair(NamedTuple):
    left: int
    right: str = "r"


@attrs.frozen
class Tree:
    label: str
    children: tuple[Tree, ...] = ()


@attrs.frozen
class Positive:
    amount: int = attrs.field(validator=attrs.validators.gt(0))


def depth(tree: Tree) -> int:
    return 1 + max((depth(child) for child in tree.children), default=0)


@pytest.mark.parametrize(
    ("annotation", "holds"),
    [
        (Annotated[int, Ge(3), Lt(10)], lambda v: type(v) is int and 3 <= v < 10),
        (Annotated[float, Gt(0.5), Le(2.5)], lambda v: type(v) is float and 0.5 < v <= 2.5),
        (Annotated[int, MultipleOf(7)], lambda v: v % 7 == 0),
        (
            Annotated[float, MultipleOf(0.25), Ge(0)],
            lambda v: v >= 0 and Fraction(repr(v)) % Fraction("0.25") == 0,
        ),
        # Multiples as JSON writes them: 0.3, not 3 * 0.1 = 0.30000000000000004.
        (
            Annotated[float, MultipleOf(0.1)],
            lambda v: Fraction(repr(v)) % Fraction("0.1") == 0,
        ),
        # Near the ends of the float range, where a float holds fewer digits than a multiple.
        (
            Annotated[float, MultipleOf(1.7), Ge(1e300)],
            lambda v: v >= 1e300 and Fraction(repr(v)) % Fraction("1.7") == 0,
        ),
        # A step whose written form is above its binary value: the widest multiple was
        # reckoned from the binary one, and k times the written step passed the float range.
        (Annotated[float, MultipleOf(5e-324)], math.isfinite),
        # An integral float step as JSON writes it: 1e23 is 10**23, not int(1e23).
        (Annotated[int, Gt(0), MultipleOf(1e23)], lambda v: v > 0 and v % 10**23 == 0),
        # A bound over a small step is past the float range: it was divided as floats (inf).
        (
            Annotated[float, MultipleOf(1e-10), Ge(1e300)],
            lambda v: v >= 1e300 and Fraction(repr(v)) % Fraction("1e-10") == 0,
        ),
        (
            Annotated[float, MultipleOf(0.3), Le(-1e200)],
            lambda v: v <= -1e200 and Fraction(repr(v)) % Fraction("0.3") == 0,
        ),
        (Annotated[str, MinLen(2), MaxLen(4)], lambda v: 2 <= len(v) <= 4),
        (Annotated[list[int], MinLen(1), MaxLen(2)], lambda v: 1 <= len(v) <= 2),
        (Annotated[dict[str, int], MaxLen(1)], lambda v: len(v) <= 1),
        (Annotated[int | None, Ge(0)], lambda v: v is None or v >= 0),
        (Annotated[Size, Ge(5)], lambda v: v is Size.HIGH),
        (Owner, lambda v: isinstance(v, Owner) and 0 <= v.age < 150),
        (Positive, lambda v: v.amount > 0),
        (
            datetime.datetime,
            lambda v: (offset := v.utcoffset()) is not None and offset.seconds % 60 == 0,
        ),
        (datetime.time, lambda v: v.utcoffset() is not None),
        (Literal["a", 2], lambda v: v in ("a", 2)),
        (Color | None, lambda v: v is None or isinstance(v, Color)),
        (frozenset[Size], lambda v: isinstance(v, frozenset)),
        (tuple[int, str], lambda v: isinstance(v, tuple) and len(v) == 2),
        (Tree, lambda v: depth(v) <= 3),
        # Variants a length leaves no value drawn: only what is left (was a filter refusing
        # every tuple drawn, and check_toolset's health check failed).
        (Annotated[tuple[int, int] | tuple[str, str] | None, MinLen(3)], lambda v: v is None),
        (Annotated[tuple[int, int] | list[int], MaxLen(1)], lambda v: type(v) is list),
        # More different items than the item type has: Hypothesis's InvalidArgument.
        (Annotated[set[Literal["a", "b"]] | None, MinLen(3)], lambda v: v is None),
    ],
)
def test_values_respect_their_type(annotation: object, holds: Any) -> None:
    @given(values(annotation))
    def check(value: object) -> None:
        assert holds(value), value
        assert round_trips(annotation, value)

    check()


def test_optional_fields_and_keys_are_sometimes_left_out() -> None:
    first(values(Owner), lambda o: o.nickname is None and o.tags == [])
    first(values(Owner), lambda o: o.nickname is not None and len(o.tags) > 1)
    first(values(Movie), lambda m: "year" not in m)
    first(values(Movie), lambda m: "year" in m)
    first(values(Pair), lambda p: p.right != "r")


def test_nested_collections_hold_fewer_items_at_each_level() -> None:
    # Each level allowed 4 items whatever its depth: ten nested lists took about 40 s to check.
    def sizes(value: Any, depth: int = 0, found: dict[int, int] | None = None) -> dict[int, int]:
        found = {} if found is None else found
        if isinstance(value, list):
            found[depth] = max(found.get(depth, 0), len(value))
            for item in value:
                sizes(item, depth + 1, found)
        return found

    @given(values(list[list[list[list[int]]]]))
    def check(value: list[Any]) -> None:
        widest = sizes(value)
        assert all(size <= (4, 2, 1, 1)[depth] for depth, size in widest.items())

    check()
    deep = first(values(list[list[list[int]]]), lambda v: sizes(v) == {0: 4, 1: 2, 2: 1})
    assert len(deep) == 4
    # A bound the schema sets is kept at any depth.
    assert first(values(list[list[Annotated[list[int], MinLen(3)]]]), lambda v: v and v[0])


def test_recursive_classes_nest_but_stay_bounded() -> None:
    deep = first(values(Tree), lambda t: depth(t) == 3)
    assert depth(deep) == 3


@attrs.frozen
class Opaque:
    """A user type taught to the library with register_type."""

    code: str


class Unstrategied:
    def __init__(self, text: str) -> None:
        self.text = text


register_type(
    Opaque,
    schema={"type": "string", "pattern": "^[a-z]{3}$"},
    structure=Opaque,
    unstructure=lambda value: value.code,
    # A function, so that the module registering the type need not import Hypothesis.
    strategy=lambda: st.text(alphabet="abcxyz", min_size=3, max_size=3).map(Opaque),
)
register_type(
    Unstrategied,
    schema={"type": "string"},
    structure=Unstrategied,
    unstructure=lambda value: value.text,
)


def test_registered_types_use_their_strategy() -> None:
    @given(values(list[Opaque]))
    def check(value: list[Opaque]) -> None:
        assert all(isinstance(item, Opaque) for item in value)
        assert round_trips(list[Opaque], value)

    check()


@pytest.mark.parametrize("annotation", [Unstrategied, list[Unstrategied], Unstrategied | None])
def test_a_registered_type_without_strategy_is_named(annotation: object) -> None:
    with pytest.raises(NoStrategyError, match=r"no strategy for Unstrategied.*strategy="):
        values(annotation)


def test_no_strategy_is_a_type_error_and_a_hypothesis_resolution_failure() -> None:
    from hypothesis.errors import InvalidArgument

    with pytest.raises(TypeError):
        values(Unstrategied)
    with pytest.raises(InvalidArgument):
        values(Unstrategied)


@pytest.mark.parametrize(
    ("annotation", "reason"),
    [(object, "object has no JSON Schema"), (dict[int, str], "JSON object keys are strings")],
)
def test_unsupported_annotations_say_why(annotation: object, reason: str) -> None:
    with pytest.raises(NoStrategyError, match=re.escape(reason)):
        values(annotation)


def test_register_type_refuses_what_is_not_a_strategy() -> None:
    class Thing:
        pass

    with pytest.raises(TypeError, match="`strategy` must be a Hypothesis strategy"):
        register_type(Thing, schema={}, structure=str, unstructure=str, strategy=3)  # type: ignore[arg-type]  # wrong on purpose


def test_register_type_is_also_a_name_of_the_testing_module() -> None:
    # SPEC section 7 lists it with the testing helpers: a suite may import it from there.
    import typed_toolsets
    import typed_toolsets.testing as testing
    from typed_toolsets.testing import register_type as from_testing

    assert from_testing is typed_toolsets.register_type is register_type
    assert "register_type" in testing.__all__
    assert testing.__all__ == sorted(testing.__all__)


# -------------------------------------------------------------------------------- arguments


@pytest.mark.parametrize("proxy", BUILTIN_TOOLS, ids=lambda p: p.name)
def test_arguments_of_every_builtin_tool_validate_against_its_schema(proxy: ToolProxy) -> None:
    validator = Draft202012Validator(proxy.parameters, format_checker=None)
    exact = make_validator(proxy.parameters)

    @given(arguments(proxy))
    def check(mapping: dict[str, Any]) -> None:
        assert validator.is_valid(mapping), list(validator.iter_errors(mapping))
        assert exact.is_valid(mapping)
        json.dumps(mapping)  # JSON-ready
        structured = _seams.exact_path(proxy, json.dumps(mapping))
        assert isinstance(structured, dict), structured

    check()


class Everything(Toolset):
    @tool
    def act(
        self,
        *,
        owner: Owner,
        count: int = 3,
        ratio: Annotated[float, Ge(0), Le(1)] = 0.5,
        when: datetime.datetime | None = None,
        ids: set[uuid.UUID] = frozenset(),
        color: Color = Color.RED,
        size: Size | None = None,
        movie: Movie | None = None,
        pair: Pair | None = None,
        tree: Tree | None = None,
        codes: Annotated[tuple[Opaque, ...], MaxLen(3)] = (),
        fixed: tuple[int, str] = (1, "a"),
        point: Optional[Point] = None,  # noqa: UP045 - the typing spelling on purpose
        scores: dict[str, int] | None = None,
    ) -> str:
        return "done"


EVERYTHING = Everything.to_tools()[0]


def test_arguments_validate_and_are_accepted_for_every_kind_of_type() -> None:
    validator = make_validator(EVERYTHING.parameters)

    @given(arguments(EVERYTHING))
    def check(mapping: dict[str, Any]) -> None:
        assert validator.is_valid(mapping), list(validator.iter_errors(mapping))
        result = EVERYTHING.invoke(json.dumps(mapping))
        assert result.ok, result.error

    check()


@pytest.mark.parametrize(
    ("annotation", "default", "spelled"),
    [
        (int, 3, lambda a: "value" not in a),  # a defaulted argument left out
        (int, inspect.Parameter.empty, lambda a: type(a["value"]) is float),  # 3.0 for 3
        (float, inspect.Parameter.empty, lambda a: type(a["value"]) is int),  # 2 for 2.0
        (datetime.datetime, inspect.Parameter.empty, lambda a: a["value"].endswith(("Z", "z"))),
        (datetime.datetime, inspect.Parameter.empty, lambda a: "t" in a["value"]),
        (uuid.UUID, inspect.Parameter.empty, lambda a: a["value"] != a["value"].lower()),
    ],
)
def test_arguments_use_every_spelling_the_schema_admits(
    annotation: object, default: object, spelled: Any
) -> None:
    proxy = make_echo_toolset([("value", annotation, default)]).to_tools()[0]
    mapping = first(arguments(proxy), spelled)
    assert proxy.invoke(mapping).ok


def test_arguments_refuse_types_without_a_strategy() -> None:
    proxy = echo_tool(list[Unstrategied])
    with pytest.raises(NoStrategyError, match=rf"tool '{proxy.name}', parameter 'value'"):
        arguments(proxy)


@pytest.mark.parametrize("strategy", [arguments, invalid_arguments])
def test_a_toolset_given_for_a_tool_says_what_to_pass(strategy: Any) -> None:
    # Passing the toolset itself (the argument check_toolset takes) raised AttributeError:
    # '_export', naming nothing the caller wrote.
    name = strategy.__name__
    with pytest.raises(TypeError) as caught:
        strategy(TextProcessingToolset)
    assert str(caught.value) == (
        f"{name}() needs one tool, a ToolProxy from to_tools() (got the Toolset class "
        "TextProcessingToolset); pass one of its tools (TextProcessingToolset.to_tools()[0]), "
        "or check every tool with check_toolset(TextProcessingToolset)"
    )
    with pytest.raises(TypeError, match=r"\(got the Toolset instance TextProcessingToolset\)"):
        strategy(TextProcessingToolset())
    with pytest.raises(
        TypeError, match=r"needs one tool, a ToolProxy from to_tools\(\) \(got 'x'\)$"
    ):
        strategy("x")


def test_strict_arguments_fill_every_key_with_null_for_defaults() -> None:
    strict = _seams.strict_parameters(EVERYTHING_STRICT)
    validator = make_validator(strict)
    names = set(EVERYTHING_STRICT.parameters["properties"])

    @given(arguments(EVERYTHING_STRICT, strict=True))
    def check(mapping: dict[str, Any]) -> None:
        assert set(mapping) == names
        assert validator.is_valid(mapping), list(validator.iter_errors(mapping))

    check()
    first(arguments(EVERYTHING_STRICT, strict=True), lambda a: a["count"] is None)
    first(arguments(EVERYTHING_STRICT, strict=True), lambda a: a["owner"]["tags"] is None)


def test_strict_arguments_are_accepted_once_mapped_back() -> None:
    @given(arguments(EVERYTHING_STRICT, strict=True))
    def check(mapping: dict[str, Any]) -> None:
        result = dispatch([EVERYTHING_STRICT], EVERYTHING_STRICT.name, mapping, strict=True)
        assert result == "done", result

    check()


class Spot:
    """A registered object type whose ``y`` may be left out (it is then 0)."""

    def __init__(self, x: int, y: int = 0) -> None:
        self.x, self.y = x, y

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Spot) and (other.x, other.y) == (self.x, self.y)

    def __hash__(self) -> int:
        return hash((self.x, self.y))


register_type(
    Spot,
    schema={
        "type": "object",
        "properties": {"x": {"type": "integer"}, "y": {"type": "integer"}},
        "required": ["x"],
        "additionalProperties": False,
    },
    structure=lambda value: Spot(value["x"], value.get("y", 0)),
    # `y` is left out when it is 0, so the strict form must write null for it.
    unstructure=lambda point: {"x": point.x} | ({"y": point.y} if point.y else {}),
    strategy=lambda: st.builds(Spot, st.integers(), st.integers(-1, 1)),
)


def test_strict_arguments_fill_the_optional_properties_of_registered_types() -> None:
    proxy = make_echo_toolset([("point", list[Spot], inspect.Parameter.empty)]).to_tools()[0]
    validator = make_validator(_seams.strict_parameters(proxy))

    @given(arguments(proxy, strict=True))
    def check(mapping: dict[str, Any]) -> None:
        assert validator.is_valid(mapping), list(validator.iter_errors(mapping))
        assert dispatch([proxy], proxy.name, mapping, strict=True) == {
            "point": [Spot(p["x"], p["y"] or 0) for p in mapping["point"]]
        }

    check()
    first(arguments(proxy, strict=True), lambda a: any(p["y"] is None for p in a["point"]))


class StrictFriendly(Toolset):
    @tool
    def act(
        self, *, owner: Owner, count: int = 3, color: Color | None = None, tree: Tree | None = None
    ) -> str:
        return "done"


EVERYTHING_STRICT = StrictFriendly.to_tools()[0]


@pytest.mark.parametrize(
    ("annotation", "default", "message"),
    [
        (dict[str, int], {}, "parameter 'value' is an object with free-form keys"),
        (int | None, 3, "parameter 'value' admits null but defaults to 3"),
    ],
)
def test_strict_arguments_refuse_what_has_no_lossless_strict_form(
    annotation: object, default: object, message: str
) -> None:
    proxy = make_echo_toolset([("value", annotation, default)]).to_tools()[0]
    with pytest.raises(ValueError, match=message):
        arguments(proxy, strict=True)


# ------------------------------------------------------------------------ invalid_arguments


def assert_refused_at(proxy: ToolProxy, near: NearMiss) -> None:
    mapping, path = near
    assert not make_validator(proxy.parameters).is_valid(mapping)
    result = proxy.invoke(mapping)
    assert result.error is not None, near
    assert result.error.kind == "arguments"
    assert path in [d.path for d in result.error.details], (near, result.error.message)
    assert _seams.fast_path(proxy, json.dumps(mapping)) is None


@pytest.mark.parametrize("proxy", [*BUILTIN_TOOLS, EVERYTHING], ids=lambda p: p.name)
def test_near_misses_are_refused_at_their_path(proxy: ToolProxy) -> None:
    @given(invalid_arguments(proxy))
    def check(near: NearMiss) -> None:
        assert_refused_at(proxy, near)

    check()


NEAR_MISS_KINDS = [
    # (the parameter, where the near miss is, what it looks like)
    (("x", int), "$.x", lambda m: "x" not in m),  # a required argument missing
    (("owner", Owner), "$.owner.age", lambda m: "age" not in m["owner"]),  # a field missing
    (("x", int), "$.unexpected", lambda m: "unexpected" in m),  # an unknown argument
    (("owner", Owner), "$.owner.unexpected", lambda m: "unexpected" in m["owner"]),
    (("x", int), "$.x", lambda m: isinstance(m.get("x"), str)),  # a wrong JSON type
    (("x", int), "$.x", lambda m: m.get("x") == 0.5),  # not an integer
    (("owner", Owner), "$.owner.age", lambda m: m["owner"].get("age") == -1),  # a bound
    (("ratio", Annotated[float, Ge(0), Le(1)]), "$.ratio", lambda m: m.get("ratio") == 2),
    (("n", Annotated[int, MultipleOf(3)]), "$.n", lambda m: m.get("n") == 1),
    (("s", Annotated[str, MinLen(2)]), "$.s", lambda m: m.get("s") == "x"),
    (("color", Color), "$.color", lambda m: m.get("color") == "none of these"),  # an enum
    (("size", Size), "$.size", lambda m: m.get("size") == 11),
    (("when", datetime.datetime), "$.when", lambda m: m.get("when") == "2024-02-30T12:00:00Z"),
    (("ids", set[uuid.UUID]), "$.ids", lambda m: len(m["ids"]) > len(set(m["ids"]))),
    (("fixed", tuple[int, str]), "$.fixed", lambda m: len(m["fixed"]) == 3),
    (("fixed", tuple[int, str]), "$.fixed", lambda m: len(m["fixed"]) == 1),
    (("codes", Annotated[tuple[Opaque, ...], MaxLen(3)]), "$.codes", lambda m: len(m["codes"]) > 3),
    (("codes", list[Opaque]), "$.codes[0]", lambda m: not isinstance(m["codes"][0], str)),
    (
        ("scores", dict[str, int]),
        r"\$\.scores(\.\w+|\[.*\])",
        lambda m: None in m["scores"].values(),
    ),
    (
        ("tree", Tree),
        r"\$\.tree\.children\[\d+\]\.label",
        lambda m: True,  # a wrong type or a missing label, inside a recursive class
    ),
    (
        ("movie", Movie | None),
        "$.movie.year",
        lambda m: m["movie"] and m["movie"].get("year") == "not this",
    ),
    (("point", Optional[Point]), "$.point.x", lambda m: "x" not in (m.get("point") or {"x": 0})),  # noqa: UP045 - typing's spelling
]


def first(strategy: st.SearchStrategy[Any], condition: Any) -> Any:
    """The first example found that meets *condition* (not shrunk: only its existence matters)."""
    quick = settings(phases=[Phase.generate], max_examples=2000, database=None, deadline=None)
    return find(strategy, condition, settings=quick)


@pytest.mark.parametrize(("parameter", "path", "looks_like"), NEAR_MISS_KINDS)
def test_every_kind_of_near_miss_is_made(parameter: Any, path: str, looks_like: Any) -> None:
    name, annotation = parameter
    proxy = make_echo_toolset([(name, annotation, inspect.Parameter.empty)]).to_tools()[0]
    pattern = re.compile(path if path.startswith("\\") else re.escape(path))

    def wanted(near: NearMiss) -> bool:
        try:
            return pattern.fullmatch(near.path) is not None and bool(looks_like(near.arguments))
        except (KeyError, IndexError, TypeError, AttributeError):
            return False  # another kind of near miss, of another shape

    assert_refused_at(proxy, first(invalid_arguments(proxy), wanted))


def test_invalid_arguments_of_a_tool_without_parameters() -> None:
    class Bare(Toolset):
        @tool
        def ping(self) -> str:
            return "pong"

    proxy = Bare.to_tools()[0]
    near = find(invalid_arguments(proxy), lambda n: True)
    assert near == NearMiss({"unexpected": None}, "$.unexpected")
    assert_refused_at(proxy, near)


def test_near_miss_unpacks_as_a_pair() -> None:
    arguments_, path = NearMiss({"a": 1}, "$.a")
    assert (arguments_, path) == ({"a": 1}, "$.a")
    assert inspect.isclass(NearMiss)


def test_a_set_s_items_are_different_once_read_not_only_as_json_text() -> None:
    # Two spellings of one moment ("...+00:00", "...Z"), or one moment at two offsets, are two
    # JSON strings but one datetime: arguments() drew sets the tool then found too small.
    from hypothesis.errors import NoSuchExample, Unsatisfiable

    from typed_toolsets.testing import _strategies
    from typed_toolsets.types.converter import structure_hook

    spellings = ["2000-01-01T00:00:00+00:00", "2000-01-01T00:00:00Z", "2000-01-01T01:00:00+01:00"]
    moments = st.one_of([st.just(text) for text in spellings])
    drawn = _strategies._unique_lists(moments, 1, 3, structure_hook(datetime.datetime))  # pyright: ignore[reportPrivateUsage]
    quick = settings(database=None, max_examples=300)
    with pytest.raises((NoSuchExample, Unsatisfiable)):
        find(drawn, lambda value: len(value) > 1, settings=quick)
    assert find(drawn, lambda value: True, settings=quick) == [spellings[0]]
    # Unique as text alone (what they were), the three are all drawn together.
    as_text = _strategies._unique_lists(moments, 1, 3, str)  # pyright: ignore[reportPrivateUsage]
    assert len(find(as_text, lambda value: len(value) > 2, settings=quick)) == 3


@attrs.frozen
class Cents:
    """Registered with register_type by the test below, after a toolset using it is made."""

    amount: int


def test_a_type_registered_after_the_class_is_named_with_the_order_to_fix() -> None:
    # The tool keeps the form in force when its class was made (a JSON object here); drawn
    # from the registry's later form (a string), every example was refused by the tool, and
    # check_toolset blamed the schema for being stricter than the converter.
    class Till(Toolset):
        @tool
        def pay(self, *, price: Cents, extra: list[Cents] | None = None) -> int:
            return price.amount

    register_type(
        Cents,
        schema={"type": "string", "pattern": r"^[0-9]+$"},
        structure=lambda text: Cents(int(text)),
        unstructure=lambda value: str(value.amount),
        strategy=st.builds(Cents, st.integers(0, 99)),
    )
    proxy = Till.to_tools()[0]
    expected = (
        r"^tool 'till_pay', parameter 'price': Cents has another JSON Schema now than when the "
        r"toolset's class was created \(register_type was called for it, or for a type inside "
        r"it, after the class statement\), and the tool keeps the form it was made with; call "
        r"register_type before the class is defined$"
    )
    for strategy in (arguments, invalid_arguments):
        with pytest.raises(NoStrategyError, match=expected):
            strategy(proxy)
    with pytest.raises(NoStrategyError, match=expected[1:]):
        check_toolset(Till, max_examples=5)

    class Later(Toolset):  # made after the registration: the forms agree
        @tool
        def pay(self, *, price: Cents, extra: list[Cents] | None = None) -> int:
            return price.amount

    later = Later.to_tools()[0]
    assert later.parameters["properties"]["price"]["type"] == "string"
    mapping = first(arguments(later), lambda _: True)
    assert later.invoke(mapping).ok


@attrs.frozen
class Sku:
    """Registered by the test below with an empty strategy, which is refused."""

    code: str


def test_an_empty_strategy_is_refused_naming_the_type_and_registers_nothing() -> None:
    # Hypothesis's refusal came after the type's rule was stored: the type was registered by
    # halves (its schema in force, its strategy refused), and the message named no type.
    from hypothesis.errors import InvalidArgument

    from typed_toolsets.types.usertypes import user_strategies

    with pytest.raises(
        InvalidArgument,
        match=r"^the strategy given to register_type\(\) for Sku: Cannot sample from a "
        r"length-zero sequence",
    ):
        register_type(
            Sku,
            schema={"type": "string"},
            structure=Sku,
            unstructure=lambda sku: sku.code,
            strategy=st.sampled_from([]),
        )
    assert user_strategies.get(Sku) is None

    class Shop(Toolset):
        @tool
        def find(self, *, sku: Sku) -> str:
            return sku.code

    # Not the registered string: the attrs class's own object schema.
    assert Shop.to_tools()[0].parameters["properties"]["sku"]["type"] == "object"


@attrs.frozen
class LazySku:
    code: str


#: Filled by a test that wants the strategy below to draw something.
_SKU_CODES: list[str] = []

register_type(
    LazySku,
    schema={"type": "string"},
    structure=LazySku,
    unstructure=lambda sku: sku.code,
    strategy=lambda: st.sampled_from([LazySku(code) for code in _SKU_CODES]),
)


def test_a_function_giving_an_empty_strategy_is_named_with_its_parameter() -> None:
    # It got past register_type; check_toolset then said only "Hypothesis cannot generate
    # values of its parameters: Cannot sample from a length-zero sequence".
    class LazyShop(Toolset):
        @tool
        def find(self, *, sku: LazySku, qty: int = 1) -> str:
            return sku.code

    with pytest.raises(
        NoStrategyError,
        match=r"^tool 'lazyshop_find', parameter 'sku': the strategy registered for LazySku "
        r"cannot draw values: Cannot sample from a length-zero sequence",
    ):
        check_toolset(LazyShop, max_examples=5)
