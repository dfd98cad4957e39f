"""Strategies that build annotations together with strategies for their values.

Each draw is a `Case`: an annotation the library supports, a strategy of Python values of that
type, the JSON types its values take (to build unions that are unambiguous), and whether
structured values compare equal to the originals (true unless an ambiguous union is involved).
Cases nest: lists, tuples, sets, mappings, optionals, unions, ``Annotated`` constraints and
generated attrs classes, dataclasses and TypedDicts, with and without defaults; recursive classes
come from a fixed set.
"""

from __future__ import annotations

import dataclasses
import enum
import itertools
import json
import keyword
import typing
import uuid
from datetime import timedelta, timezone
from typing import Annotated, Any, Literal

import attrs
import typing_extensions
from annotated_types import Ge, Gt, Le, Lt, MaxLen, MinLen, MultipleOf
from hypothesis import strategies as st

__all__ = [
    "RECURSIVE_CASES",
    "SCALAR_CASES",
    "Case",
    "cases",
    "fresh",
    "identifiers",
    "json_values",
    "text",
    "union",
]


@attrs.frozen
class Case:
    """An annotation with a strategy for its values.

    Attributes:
        annotation: The type.
        values: Python values of that type.
        json_types: The JSON types its values unstructure to.
        exact: Whether structuring the unstructured value gives back an equal value (false for
            ambiguous unions and types whose distinct values can share a JSON form).
        hashable: Whether values can be set members.
    """

    annotation: object
    values: st.SearchStrategy[Any]
    json_types: frozenset[str]
    exact: bool = True
    hashable: bool = False


#: Strings without lone surrogates (which cannot be JSON text).
text = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=20)
_keys = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=8)

# RFC 3339 offsets are whole minutes below 24 hours.
_offsets = st.integers(-23 * 60 - 59, 23 * 60 + 59).map(
    lambda minutes: timezone(timedelta(minutes=minutes))
)


class Color(enum.Enum):
    """A primary colour."""

    RED = "red"
    GREEN = "green"
    BLUE = "blue"


class Level(enum.IntEnum):
    LOW = 1
    HIGH = 10


class Mixed(enum.Enum):
    ONE = 1
    HALF = 0.5
    NAME = "name"
    YES = True  # an alias of ONE: Python says True == 1


def _scalar(annotation: object, values: st.SearchStrategy[Any], *json_types: str) -> Case:
    return Case(annotation, values, frozenset(json_types), hashable=True)


SCALAR_CASES: tuple[Case, ...] = (
    _scalar(str, text, "string"),
    _scalar(int, st.integers(), "integer"),
    _scalar(float, st.floats(allow_nan=False, allow_infinity=False), "number"),
    _scalar(bool, st.booleans(), "boolean"),
    _scalar(
        int | float, st.integers() | st.floats(allow_nan=False, allow_infinity=False), "number"
    ),
    _scalar(type(None), st.none(), "null"),
    _scalar(__import__("datetime").datetime, st.datetimes(timezones=_offsets), "string"),
    _scalar(__import__("datetime").date, st.dates(), "string"),
    _scalar(__import__("datetime").time, st.times(timezones=_offsets), "string"),
    _scalar(uuid.UUID, st.uuids(), "string"),
    _scalar(Color, st.sampled_from(Color), "string"),
    _scalar(Level, st.sampled_from(Level), "integer"),
    _scalar(Mixed, st.sampled_from(Mixed), "integer", "number", "string"),
    _scalar(Literal["a", "b", "c"], st.sampled_from(["a", "b", "c"]), "string"),
    _scalar(Literal[7], st.just(7), "integer"),
    _scalar(
        Literal[True, "yes", 3], st.sampled_from([True, "yes", 3]), "boolean", "string", "integer"
    ),
    _scalar(Annotated[int, Ge(-5), Lt(50)], st.integers(-5, 49), "integer"),
    _scalar(Annotated[float, Gt(0.5), Le(2.5)], st.floats(0.5, 2.5, exclude_min=True), "number"),
    _scalar(Annotated[int, MultipleOf(3)], st.integers().map(lambda i: i * 3), "integer"),
    _scalar(
        Annotated[str, MinLen(1), MaxLen(4)],
        st.text(min_size=1, max_size=4, alphabet="abc"),
        "string",
    ),
    _scalar(Annotated[str, "described"], text, "string"),
)


# ------------------------------------------------------------------------- generated structs

_names = (f"Gen{i}" for i in itertools.count())
#: Field and parameter names: identifiers that are not keywords.
identifiers = st.from_regex(r"[a-z][a-z0-9_]{0,6}", fullmatch=True).filter(
    lambda name: not keyword.iskeyword(name) and not keyword.issoftkeyword(name)
)
_identifiers = identifiers


@st.composite
def _fields(draw: st.DrawFn, children: st.SearchStrategy[Case]) -> list[tuple[str, Case, bool]]:
    """Field names, their cases, and whether each gets a default."""
    count = draw(st.integers(0, 4))
    names = draw(st.lists(_identifiers, min_size=count, max_size=count, unique=True))
    fields: list[tuple[str, Case, bool]] = []
    for name in names:
        fields.append((name, draw(children), draw(st.booleans())))
    return fields


def _ordered(fields: list[tuple[str, Case, bool]]) -> list[tuple[str, Case, bool]]:
    # Fields with defaults go last (dataclasses and attrs require it).
    return [f for f in fields if not f[2]] + [f for f in fields if f[2]]


@st.composite
def _attrs_case(draw: st.DrawFn, children: st.SearchStrategy[Case]) -> Case:
    fields = _ordered(draw(_fields(children)))
    defaults: dict[str, object] = {}
    attributes: dict[str, Any] = {}
    for name, case, defaulted in fields:
        if defaulted:
            defaults[name] = draw(case.values)
            attributes[name] = attrs.field(type=case.annotation, default=defaults[name])
        else:
            attributes[name] = attrs.field(type=case.annotation)
    frozen = draw(st.booleans())
    cls = attrs.make_class(next(_names), attributes, frozen=frozen, kw_only=draw(st.booleans()))
    values = st.fixed_dictionaries({name: case.values for name, case, _ in fields}).map(
        lambda kw: cls(**kw)
    )
    return Case(cls, values, frozenset({"object"}), exact=all(c.exact for _, c, _ in fields))


@st.composite
def _dataclass_case(draw: st.DrawFn, children: st.SearchStrategy[Case]) -> Case:
    fields = _ordered(draw(_fields(children)))
    spec: list[tuple[str, object, Any]] = []
    for name, case, defaulted in fields:
        if defaulted:
            default = draw(case.values)
            if type(default).__hash__ is None:  # dataclasses refuse unhashable defaults
                spec.append(
                    (name, case.annotation, dataclasses.field(default_factory=lambda d=default: d))
                )
            else:
                spec.append((name, case.annotation, dataclasses.field(default=default)))
        else:
            spec.append((name, case.annotation, dataclasses.field()))
    cls = dataclasses.make_dataclass(next(_names), spec, frozen=draw(st.booleans()))
    values = st.fixed_dictionaries({name: case.values for name, case, _ in fields}).map(
        lambda kw: cls(**kw)
    )
    return Case(cls, values, frozenset({"object"}), exact=all(c.exact for _, c, _ in fields))


@st.composite
def _typeddict_case(draw: st.DrawFn, children: st.SearchStrategy[Case]) -> Case:
    fields = draw(_fields(children))
    annotations: dict[str, object] = {}
    required: dict[str, st.SearchStrategy[Any]] = {}
    optional: dict[str, st.SearchStrategy[Any]] = {}
    for name, case, not_required in fields:
        if not_required:
            annotations[name] = fresh(typing_extensions.NotRequired, case.annotation)
            optional[name] = case.values
        else:
            annotations[name] = case.annotation
            required[name] = case.values
    cls = typing_extensions.TypedDict(next(_names), annotations)  # type: ignore[operator]
    values = st.fixed_dictionaries(required, optional=optional)
    return Case(cls, values, frozenset({"object"}), exact=all(c.exact for _, c, _ in fields))


# --------------------------------------------------------------------------------- containers


def fresh(form: Any, args: object) -> Any:
    """``form[args]`` (a typing form: ``Union``, ``typing.Sequence``, ``NotRequired``), built anew.

    typing (3.10 to 3.13) caches ``form[args]`` by equality, and unions are equal in any order:
    once ``Optional[Union[A, B]]`` is built, ``Optional[Union[B, A]]`` *is* that object, variants
    A, B. The order of the variants decides what `typed_toolsets.testing.arguments` draws, so a
    cached order would make an example's data depend on the examples before it (Hypothesis then
    reports FlakyStrategyDefinition when it replays one).
    """
    getitem = type(form).__getitem__
    build = getattr(getitem, "__wrapped__", getitem)  # the function under typing's cache
    return build(form, args)


def union(*args: object) -> Any:
    """``Union[*args]`` in exactly this order (see `fresh`)."""
    return fresh(typing.Union, args)


def _extend(children: st.SearchStrategy[Case]) -> st.SearchStrategy[Case]:
    hashable = children.filter(lambda c: c.hashable)

    def union_of(pair: tuple[Case, Case]) -> Case:
        first, second = pair
        disjoint = not (first.json_types & second.json_types)
        numbers = {"integer", "number"}
        if first.json_types & numbers and second.json_types & numbers:
            disjoint = False
        annotation = union(first.annotation, second.annotation)
        return Case(
            annotation,
            first.values | second.values,
            first.json_types | second.json_types,
            exact=disjoint and first.exact and second.exact,
        )

    return st.one_of(
        children.map(
            lambda c: Case(
                list[c.annotation], st.lists(c.values, max_size=4), frozenset({"array"}), c.exact
            )
        ),  # type: ignore[name-defined]
        children.map(
            lambda c: Case(
                fresh(typing.Sequence, c.annotation),
                st.lists(c.values, max_size=4),
                frozenset({"array"}),
                c.exact,
            )  # type: ignore[name-defined]
        ),
        children.map(
            lambda c: Case(
                tuple[c.annotation, ...],
                st.lists(c.values, max_size=4).map(tuple),
                frozenset({"array"}),
                c.exact,
                c.hashable,
            )  # type: ignore[name-defined]
        ),
        st.tuples(children, children).map(
            lambda p: Case(
                tuple[p[0].annotation, p[1].annotation],  # type: ignore[name-defined]
                st.tuples(p[0].values, p[1].values),
                frozenset({"array"}),
                p[0].exact and p[1].exact,
                p[0].hashable and p[1].hashable,
            )
        ),
        hashable.map(
            lambda c: Case(
                set[c.annotation], st.sets(c.values, max_size=4), frozenset({"array"}), c.exact
            )
        ),  # type: ignore[name-defined]
        hashable.map(
            lambda c: Case(
                frozenset[c.annotation],
                st.frozensets(c.values, max_size=4),
                frozenset({"array"}),
                c.exact,
            )  # type: ignore[name-defined]
        ),
        children.map(
            lambda c: Case(
                dict[str, c.annotation],
                st.dictionaries(_keys, c.values, max_size=3),
                frozenset({"object"}),
                c.exact,
            )  # type: ignore[name-defined]
        ),
        children.filter(lambda c: "null" not in c.json_types).map(
            lambda c: Case(
                union(c.annotation, type(None)),
                st.none() | c.values,
                c.json_types | {"null"},
                c.exact,
                c.hashable,
            )  # type: ignore[name-defined]
        ),
        st.tuples(children, children).map(union_of),
        _attrs_case(children),
        _dataclass_case(children),
        _typeddict_case(children),
    )


# -------------------------------------------------------------------------- recursive classes


@attrs.frozen
class Tree:
    """A tree of labelled nodes."""

    label: str
    children: tuple[Tree, ...] = ()


@dataclasses.dataclass(frozen=True)
class Chain:
    value: int
    next: Chain | None = None


@attrs.frozen
class Ping:
    pong: Pong | None = None


@attrs.frozen
class Pong:
    ping: Ping | None = None
    count: int = 0


_trees: st.SearchStrategy[Tree] = st.recursive(
    st.builds(Tree, label=text),
    lambda kids: st.builds(Tree, label=text, children=st.lists(kids, max_size=3).map(tuple)),
    max_leaves=6,
)
_chains: st.SearchStrategy[Chain] = st.recursive(
    st.builds(Chain, value=st.integers()),
    lambda rest: st.builds(Chain, value=st.integers(), next=rest),
    max_leaves=5,
)
_pings: st.SearchStrategy[Ping] = st.recursive(
    st.just(Ping()),
    lambda rest: st.builds(Ping, pong=st.builds(Pong, ping=rest | st.none(), count=st.integers())),
    max_leaves=5,
)

RECURSIVE_CASES: tuple[Case, ...] = (
    Case(Tree, _trees, frozenset({"object"})),
    Case(Chain, _chains, frozenset({"object"})),
    Case(Ping, _pings, frozenset({"object"})),
)


def cases(max_leaves: int = 6) -> st.SearchStrategy[Case]:
    """Any supported annotation, nested up to a few levels, with a strategy of its values."""
    base = st.sampled_from(SCALAR_CASES) | st.sampled_from(RECURSIVE_CASES)
    return st.recursive(base, _extend, max_leaves=max_leaves)


#: Arbitrary JSON values (as the parser produces them).
json_values: st.SearchStrategy[object] = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | text,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_keys, inner, max_size=4),
    max_leaves=10,
)

#: The text of a JSON object whose keys may repeat (which strict parsing refuses once it closes).
repeated_key_objects: st.SearchStrategy[str] = st.lists(
    st.tuples(st.sampled_from("ab"), json_values), max_size=3
).map(lambda pairs: "{" + ", ".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in pairs) + "}")
