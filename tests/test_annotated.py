"""Bounds of ``Annotated`` types hold for what the method gets, not only for the JSON value.

A whole number past 2**53 read as a float is the nearest float, and a set's items that are equal
once read count once: each bound is checked again on what was read (`BoundLost`).
"""

from __future__ import annotations

import inspect
import json
import re
from fractions import Fraction
from typing import Annotated, Any, Literal

import jsonschema
import pytest
from annotated_types import Ge, Gt, Le, Len, Lt, MaxLen, MinLen, MultipleOf
from hypothesis import given
from hypothesis import strategies as st

from tests.strategies.toolsets import make_echo_toolset
from typed_toolsets import ToolProxy, ToolsetDefinitionError, register_type

#: The first whole number a float cannot hold: 2**53 + 1 is read as 2.0**53.
EDGE = 2**53


def echo(annotation: object) -> ToolProxy:
    cls = make_echo_toolset([("value", annotation, inspect.Parameter.empty)])
    return cls.to_tools()[0]


def both_forms(value: object) -> list[object]:
    """The arguments ``{"value": value}`` as a mapping and as JSON text."""
    return [{"value": value}, json.dumps({"value": value})]


def test_a_number_past_2_53_read_below_its_bound_is_refused_with_why() -> None:
    proxy = echo(Annotated[float, Gt(EDGE)])
    for arguments in both_forms(EDGE + 1):
        result = proxy.invoke(arguments)
        assert result.error is not None
        assert result.error.kind == "arguments"
        (problem,) = result.error.details
        assert problem.path == "$.value"
        assert problem.message == (
            "9007199254740993 is 9007199254740992.0 as a float (a float holds whole numbers "
            "exactly only up to 2**53 = 9007199254740992), and 9007199254740992.0 must be "
            "greater than 9007199254740992; send a number that stays within the bounds as a float"
        )
    # The float above it is taken, as is a number the float holds exactly.
    assert proxy.invoke({"value": EDGE + 2}).value == {"value": float(EDGE + 2)}


def test_a_float_past_2_53_read_as_an_int_that_is_no_multiple_is_refused_with_why() -> None:
    # 1e23 is a multiple of 10 as written, and the method got int(1e23), which is not.
    proxy = echo(Annotated[int, MultipleOf(10)])
    for arguments in both_forms(1e23):
        result = proxy.invoke(arguments)
        assert result.error is not None
        (problem,) = result.error.details
        assert problem.path == "$.value"
        assert problem.message == (
            "1e+23 is read as the whole number 99999999999999991611392 (a float holds whole "
            "numbers exactly only up to 2**53 = 9007199254740992), and 99999999999999991611392 "
            "is not a multiple of 10; write all its digits, as an integer"
        )
    for arguments in [*both_forms(10**23), *both_forms(1e22), *both_forms(1.2e20)]:
        value = proxy.invoke(arguments).value
        assert value is not None
        assert value["value"] % 10 == 0
    # A float parameter gets the float, whose JSON form is the multiple the model wrote.
    assert echo(Annotated[float, MultipleOf(10)]).invoke({"value": 1e23}).value == {"value": 1e23}


@pytest.mark.parametrize(
    ("annotation", "inside", "outside"),
    [
        (Annotated[int, Lt(2**1100)], 2**1100 - 1, 2**1100),
        (Annotated[float, Ge(-(2**1100))], 1, None),
    ],
)
def test_a_bound_past_the_float_range_is_a_bound(
    annotation: object, inside: int, outside: int | None
) -> None:
    # It raised OverflowError when the class was created (math.isfinite of the int).
    proxy = echo(annotation)
    for arguments in both_forms(inside):
        assert proxy.invoke(arguments).ok
    if outside is not None:
        for arguments in both_forms(outside):
            result = proxy.invoke(arguments)
            assert result.error is not None
            assert result.error.details[0].message.endswith(f"must be less than {2**1100}")


@pytest.mark.parametrize("bound", [Le(10**4300), Ge(-(10**5000)), MultipleOf(10**4300)])
def test_a_bound_no_json_text_writes_is_a_definition_error(bound: Any) -> None:
    # It raised ValueError (the interpreter's digit limit) when the class was created.
    with pytest.raises(ToolsetDefinitionError, match="needs an int of at most 4,300 digits"):
        echo(Annotated[int, bound])


@pytest.mark.parametrize(
    ("annotation", "words"),
    [
        (Annotated[str, MinLen(5), MaxLen(2)], "MinLen(5) and MaxLen(2) leave no length"),
        (Annotated[list[int], MinLen(3), MaxLen(1)], "MinLen(3) and MaxLen(1) leave no length"),
        (Annotated[dict[str, int], MinLen(2), MaxLen(0)], "MinLen(2) and MaxLen(0) leave no"),
        (Annotated[int, Ge(3), Le(1)], "Ge(3) and Le(1) leave no number"),
        (Annotated[float, Gt(2), Lt(2)], "Gt(2) and Lt(2) leave no number"),
        (Annotated[float, Ge(2.5), Lt(2.5)], "Ge(2.5) and Lt(2.5) leave no number"),
        (Annotated[int, Ge(2), Ge(5), Le(4)], "Ge(5) and Le(4)"),  # the stricter of a repeat
        (Annotated[str | list[str], MinLen(3), MaxLen(1)], "MinLen(3) and MaxLen(1)"),
        (Annotated[int | float, Gt(1), Le(1)], "Gt(1) and Le(1) leave no number"),
        # Numbers between the bounds, but no integer (was accepted: a tool nobody could call).
        (Annotated[int, Gt(0), Lt(1)], "Gt(0) and Lt(1) leave no integer"),
        (Annotated[int, Ge(0.5), Le(0.9)], "Ge(0.5) and Le(0.9) leave no integer"),
        (Annotated[int, Gt(2.5), Lt(3)], "Gt(2.5) and Lt(3) leave no integer"),
        (Annotated[int, MultipleOf(5), Ge(1), Le(4)], "Ge(1) and Le(4) leave no multiple of 5"),
        (Annotated[float, MultipleOf(5), Ge(-4), Lt(0)], "leave no multiple of 5"),
        (Annotated[tuple[int, int], MinLen(3)], "MinLen(3) leaves no length for tuple[int, int]"),
        (Annotated[tuple[int, int], MaxLen(1)], "MaxLen(1) leaves no length for tuple[int, int]"),
        # More different items than the item type has values: check_toolset failed on them
        # with Hypothesis's own InvalidArgument.
        (Annotated[set[bool], MinLen(3)], "MinLen(3) asks for 3 different items, but set[bool] "),
        (Annotated[set[Literal["a", "b"]], MinLen(3)], "has 2 possible items"),
        (Annotated[frozenset[bool | None], MinLen(4)], "has 3 possible items"),
        # A float step: multiples as JSON writes them (0.3 is one of 0.1), none between.
        (Annotated[float, MultipleOf(0.5), Gt(0), Lt(0.5)], "leave no multiple of 0.5"),
        (Annotated[float, MultipleOf(0.25), Ge(0.3), Le(0.4)], "leave no multiple of 0.25"),
        (Annotated[float, MultipleOf(0.1), Gt(0.3), Lt(0.4)], "leave no multiple of 0.1"),
        (Annotated[int | float, MultipleOf(0.25), Ge(0.3), Le(0.4)], "no multiple of 0.25"),
        # Multiples of 0.3 between them (0.9), but no integer one.
        (Annotated[int, MultipleOf(0.3), Ge(0.9), Le(1.1)], "no integer multiple of 0.3"),
        # A divisor past 2**53 is exact as an int, and read as JSON writes it as a float.
        (Annotated[int, MultipleOf(2**53 + 1), Ge(1), Le(5)], "no multiple of 9007199254740993"),
        (Annotated[float, MultipleOf(1e23), Ge(1), Le(5)], "no multiple of 1e+23"),
        # Every variant of a union emptied (was accepted: its schema refused every value).
        (
            Annotated[tuple[int, int] | tuple[str, str], MinLen(3)],
            (
                "the constraints leave no value in any variant of tuple[int, int] | "
                "tuple[str, str]: MinLen(3) leaves no length for tuple[int, int], whose length "
                "is fixed; MinLen(3) leaves no length for tuple[str, str]"
            ),
        ),
        (Annotated[tuple[int, int] | set[bool], MinLen(3)], "is fixed; MinLen(3) asks for 3"),
    ],
)
def test_bounds_no_value_meets_are_a_definition_error(annotation: Any, words: str) -> None:
    # The schema is valid JSON Schema, but it refuses every value: a tool nobody could call.
    with pytest.raises(ToolsetDefinitionError, match=rf"{re.escape(words)}.*every value"):
        echo(annotation)


class _Float64(float):
    """A float subclass whose repr is not JSON's, as NumPy's float64 (``np.float64(0.2)``)."""

    def __repr__(self) -> str:
        return f"np.float64({float.__repr__(self)})"


def test_bounds_of_a_float_subclass_are_read_as_the_numbers_they_are() -> None:
    # Read by their repr, they crashed class creation with "Invalid literal for Fraction".
    proxy = echo(Annotated[float, Ge(_Float64(0.2)), Le(_Float64(0.4)), MultipleOf(_Float64(0.1))])
    assert proxy.invoke({"value": 0.3}).ok
    assert proxy.parameters["properties"]["value"]["minimum"] == 0.2
    assert type(proxy.parameters["properties"]["value"]["minimum"]) is float
    with pytest.raises(ToolsetDefinitionError, match=r"Ge\(0\.3\) and Le\(0\.4\) leave no mult"):
        echo(Annotated[float, Ge(_Float64(0.3)), Le(_Float64(0.4)), MultipleOf(_Float64(0.25))])


@pytest.mark.parametrize(
    ("annotation", "accepted"),
    [
        (Annotated[str, MinLen(2), MaxLen(2)], "ab"),
        (Annotated[float, Ge(2), Le(2)], 2),
        (Annotated[str | None, MinLen(3), MaxLen(1)], None),  # null is left
        (Annotated[int | None, Gt(3), Lt(1)], None),
        (Annotated[str | int, MinLen(3), MaxLen(1)], 7),  # the bounds do not apply to ints
        (Annotated[int, Ge(0.5), Le(1.5)], 1),  # one integer between them
        (Annotated[int, Gt(-1), Lt(1)], 0),
        (Annotated[int | float, Gt(0), Lt(1)], 0.5),  # no integer, but numbers
        (Annotated[int | None, Gt(0), Lt(1)], None),
        (Annotated[int, MultipleOf(5), Ge(1), Le(5)], 5),
        (Annotated[float, MultipleOf(0.5), Ge(0.1), Le(0.6)], 0.5),
        (Annotated[float, MultipleOf(0.1), Ge(0.3), Le(0.3)], 0.3),  # 0.3 / 0.1 in binary: 2.99..
        (Annotated[int, MultipleOf(0.5), Ge(0.9), Le(1.1)], 1),
        # A union keeps the variants the constraints leave values in, and null.
        (Annotated[tuple[int, int] | tuple[str, str] | None, MinLen(3)], None),
        (Annotated[tuple[int, int] | list[int], MinLen(3)], [1, 2, 3]),
        (Annotated[tuple[int, int] | int, MinLen(3)], 4),  # MinLen does not apply to ints
        (Annotated[list[bool], MinLen(3)], [True, True, True]),  # repeats are allowed
        # Read as JSON writes it, 1e23 is a multiple of 5 (its binary value is not an integer's
        # nearest): no definition error past 2**53.
        (Annotated[float, MultipleOf(5), Ge(1e23), Le(1e23)], 1e23),
    ],
)
def test_bounds_that_leave_a_value_are_kept(annotation: Any, accepted: object) -> None:
    proxy = echo(annotation)
    for arguments in both_forms(accepted):
        result = proxy.invoke(arguments)
        assert result.ok, result.error
        assert result.value == {"value": accepted}


#: Numbers of two decimals from -3 to 3, as JSON writes them.
_HUNDREDTHS = st.integers(-300, 300).map(lambda n: n / 100)


@given(
    st.sampled_from([int, float]),
    st.tuples(st.sampled_from([Ge, Gt]), _HUNDREDTHS),
    st.tuples(st.sampled_from([Le, Lt]), _HUNDREDTHS),
    st.none() | st.integers(1, 300).map(lambda n: n / 100 if n % 100 else n // 100),
)
def test_a_definition_error_for_bounds_exactly_when_no_value_passes(
    kind: type, low: tuple[Any, float], high: tuple[Any, float], step: float | None
) -> None:
    # Every multiple of a step of two decimals has two decimals: trying each such number
    # between -3 and 3 finds a value the tool accepts, if there is one.
    constraints = [low[0](low[1]), high[0](high[1])]
    if step is not None:
        constraints.append(MultipleOf(step))
    annotation: Any = Annotated[(kind, *constraints)]  # type: ignore[valid-type]
    candidates = range(-3, 4) if kind is int else [n / 100 for n in range(-300, 301)]
    proxy: ToolProxy | None = None
    error = ""
    try:
        proxy = echo(annotation)
    except ToolsetDefinitionError as exc:
        error = str(exc)
    if proxy is not None:
        assert [x for x in candidates if proxy.invoke({"value": x}).ok], "no value passes"
        return
    assert "so every value would be refused" in error
    # The bounds alone, and the step read as JSON writes numbers: no value passes either.
    schema = {"type": "integer" if kind is int else "number", **_keyword(*low), **_keyword(*high)}
    validator = jsonschema.Draft202012Validator(schema)
    assert not [x for x in candidates if validator.is_valid(x) and _is_multiple(x, step)]


def _keyword(kind: Any, limit: float) -> dict[str, float]:
    names = {Ge: "minimum", Gt: "exclusiveMinimum", Le: "maximum", Lt: "exclusiveMaximum"}
    return {names[kind]: limit}


def _is_multiple(value: float, step: float | None) -> bool:
    # jsonschema divides in binary floats (0.3 is no multiple of 0.1 there): read exactly.
    return step is None or (Fraction(repr(value)) / Fraction(repr(step))).denominator == 1


_BOUNDS = [Gt(EDGE), Ge(EDGE + 1), Lt(EDGE + 2), Le(EDGE - 1), Gt(-EDGE - 2), MultipleOf(3)]


@given(
    st.integers(EDGE - 8, EDGE + 8) | st.integers(-EDGE - 8, -EDGE + 8), st.sampled_from(_BOUNDS)
)
def test_the_method_never_gets_a_float_outside_its_bounds(number: int, bound: Any) -> None:
    proxy = echo(Annotated[float, bound])
    outcomes = [proxy.invoke(arguments) for arguments in both_forms(number)]
    assert outcomes[0] == outcomes[1]
    result = outcomes[0]
    read = float(number)
    holds = {
        Gt: lambda n, b: n > b.gt,
        Ge: lambda n, b: n >= b.ge,
        Lt: lambda n, b: n < b.lt,
        Le: lambda n, b: n <= b.le,
        MultipleOf: lambda n, b: n % b.multiple_of == 0,
    }[type(bound)]
    # Taken exactly when the number sent and the float read are both within the bound.
    within = holds(number, bound) and holds(read, bound)
    if result.ok:
        assert result.value == {"value": read}
        assert within
    else:
        assert result.error is not None
        assert result.error.kind == "arguments"
        assert not within


def test_a_union_goes_on_to_the_variant_that_holds_the_number() -> None:
    proxy = echo(Annotated[float, Gt(EDGE)] | int)
    for arguments in both_forms(EDGE + 1):
        value = proxy.invoke(arguments).value
        assert value == {"value": EDGE + 1}
        assert type(value["value"]) is int


def test_a_nullable_bound_says_why_too() -> None:
    # Distributed: Annotated[float, Gt] | None, the reason kept through the union.
    proxy = echo(Annotated[float | None, Gt(EDGE)])
    message = proxy.dynamic_call({"value": EDGE + 1})
    assert "is 9007199254740992.0 as a float" in message
    assert proxy.invoke({"value": None}).value == {"value": None}


def test_items_in_a_list_are_checked_one_by_one() -> None:
    proxy = echo(list[Annotated[float, Gt(EDGE)]])
    for arguments in both_forms([EDGE + 2, EDGE + 1]):
        result = proxy.invoke(arguments)
        assert result.error is not None
        assert [p.path for p in result.error.details] == ["$.value[1]"]


@pytest.mark.parametrize(
    ("annotation", "items"),
    [
        (Annotated[set[float], MinLen(2)], [EDGE, EDGE + 1]),
        (Annotated[frozenset[tuple[float, int]], MinLen(2)], [[EDGE, 1], [EDGE + 1, 1]]),
    ],
)
def test_a_set_whose_items_are_one_once_read_keeps_its_minimum(
    annotation: object, items: list[object]
) -> None:
    proxy = echo(annotation)
    for arguments in both_forms(items):
        result = proxy.invoke(arguments)
        assert result.error is not None
        (problem,) = result.error.details
        assert problem.path == "$.value"
        assert "holds 1 different item once read" in problem.message
        assert problem.message.endswith(
            "so the set has 1 item, fewer than the minimum of 2; send items that stay different"
        )


def test_a_set_without_a_minimum_gets_the_items_that_stay_different() -> None:
    # Float semantics, as any JSON reader gives them: documented in the README.
    assert echo(set[float]).invoke({"value": [EDGE, EDGE + 1, 1]}).value == {
        "value": {1.0, float(EDGE)}
    }
    # A maximum cannot be broken by fewer items.
    assert echo(Annotated[set[float], MaxLen(2)]).invoke({"value": [EDGE, EDGE + 1]}).ok


@pytest.mark.parametrize("constraint", [Len(1, 3), MinLen(1), MaxLen(5)])
def test_a_length_constraint_never_loosens_a_fixed_tuple(constraint: Any) -> None:
    # The constraint's minItems and maxItems replaced the tuple's own: one or three items passed
    # the schema, and the call failed with "they could not be processed (ValueError: zip()
    # argument 2 is shorter than argument 1)".
    proxy = echo(Annotated[tuple[int, int], constraint])
    schema = proxy.parameters["properties"]["value"]
    assert (schema["minItems"], schema["maxItems"]) == (2, 2)
    for sent in ([1], [1, 2, 3]):
        result = proxy.invoke({"value": sent})
        assert result.error is not None
        assert [detail.path for detail in result.error.details] == ["$.value"]
        assert "could not be processed" not in result.error.message
    assert proxy.invoke({"value": [1, 2]}).ok


def test_a_set_may_ask_for_as_many_different_items_as_its_type_has() -> None:
    proxy = echo(Annotated[set[bool], MinLen(2)])
    assert proxy.invoke({"value": [True, False]}).value == {"value": {True, False}}


class _Percent:
    """A registered number type with bounds of its own."""

    def __init__(self, value: float) -> None:
        self.value = value


register_type(
    _Percent,
    schema={"type": "number", "minimum": 0, "maximum": 100},
    structure=_Percent,
    unstructure=lambda percent: percent.value,
)


def test_constraints_that_leave_a_registered_type_no_value_are_a_definition_error() -> None:
    # Its own maximum stays (a constraint tightens, never loosens): Ge(200) left nothing.
    with pytest.raises(ToolsetDefinitionError, match=r"Ge\(200\) and Le\(100\) leave no number"):
        echo(Annotated[_Percent, Ge(200)])
    proxy = echo(Annotated[_Percent, Ge(50)])
    assert proxy.parameters["properties"]["value"]["minimum"] == 50
    assert proxy.parameters["properties"]["value"]["maximum"] == 100
