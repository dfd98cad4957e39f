"""Near misses: valid arguments with one thing broken, and the JSON path the error must name.

Each near miss starts from a mapping `arguments` generated and changes one place: a value of a
JSON type the schema does not admit there, a required key removed, an unknown key added, or a
constraint broken (a bound, a length, an enum member, a string format, a tuple's length, a set's
uniqueness). The place is chosen so that the tool's error must point at it: inside a union with
more than one variant a problem could be explained by any of them, so only the union's own value
is replaced there.
"""

from __future__ import annotations

import math
import typing
import uuid
from collections.abc import Sequence
from datetime import date, datetime, time
from typing import Any, Final, NamedTuple, Protocol

from hypothesis import strategies as st

from typed_toolsets._public import public_in
from typed_toolsets.call.proxy import ToolProxy

from . import _seams
from ._numbers import Constraints
from ._strategies import arguments, tool_parameters

__all__ = ["NearMiss", "invalid_arguments"]


@public_in("typed_toolsets.testing")
class NearMiss(NamedTuple):
    """Arguments a tool must refuse, and the JSON path its error must name.

    Attributes:
        arguments: The argument mapping (JSON-ready).
        path: Where the problem is, written as the tool's errors write it (``$.owner.age``,
            ``$.tags[3]``): one of the ``ArgumentProblem.path`` values of the error.
    """

    arguments: dict[str, Any]
    path: str


class _Property(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def annotation(self) -> object: ...
    @property
    def required(self) -> bool: ...


Path = tuple["str | int", ...]

# One value of each JSON type, to put where that type is not admitted.
_OF_EACH_TYPE: Final[tuple[tuple[str, object], ...]] = (
    ("null", None),
    ("boolean", True),
    ("string", "not this"),
    ("number", 0.5),
    ("integer", 7),
    ("array", []),
    ("object", {}),
)
# Strings of the right shape that their format refuses (other format types get one of the wrong
# shape).
_BAD_FORMATS: Final[dict[type, str]] = {
    datetime: "2024-02-30T12:00:00Z",
    date: "2024-02-30",
    time: "24:00:00Z",
    uuid.UUID: "123e4567-e89b-12d3-a456-42661417400g",
}
# Larger lengths are not worth building to break a maximum.
_LONGEST: Final = 10_000


def _wrong_values(json_types: frozenset[str]) -> list[object]:
    admitted = set(json_types)
    if "number" in admitted:
        admitted.add("integer")
    return [value for kind, value in _OF_EACH_TYPE if kind not in admitted]


def _replaced(node: Any, path: Path, value: object, *, drop: bool = False) -> Any:
    """A copy of *node* with the value at *path* replaced by *value* (or its key removed)."""
    head, rest = path[0], path[1:]
    copy: Any = dict(typing.cast("dict[str, Any]", node)) if isinstance(node, dict) else list(node)
    if rest:
        copy[head] = _replaced(node[head], rest, value, drop=drop)
    elif drop:
        del copy[head]
    else:
        copy[head] = value
    return copy


def _unused_key(taken: set[str]) -> str:
    name = "unexpected"
    while name in taken:
        name += "_"
    return name


def _non_member(constants: tuple[object, ...], json_types: frozenset[str]) -> object:
    """A JSON value of an admitted type that is none of *constants* (or None when there is none)."""
    if "string" in json_types:
        text = "none of these"
        while text in constants:
            text += "!"
        return text
    numbers = [c for c in constants if isinstance(c, (int, float)) and not isinstance(c, bool)]
    if numbers:
        return math.floor(max(numbers)) + 1
    booleans = {c for c in constants if isinstance(c, bool)}
    missing = {True, False} - booleans
    return next(iter(missing)) if missing and "boolean" in json_types else None


def _breaks(constraints: Constraints, value: object) -> list[object]:
    """Values that break one of *constraints* each, derived from the valid *value*."""
    found: list[object] = []
    for keyword, limit in constraints:
        candidates: list[object] = []
        if keyword == "minimum":
            candidates = [math.floor(limit) - 1]
        elif keyword == "exclusiveMinimum":
            candidates = [math.floor(limit)]
        elif keyword == "maximum":
            candidates = [math.ceil(limit) + 1]
        elif keyword == "exclusiveMaximum":
            candidates = [math.ceil(limit)]
        elif keyword == "multipleOf":
            candidates = [1, 2, 3, 5, 7, 0.5, 0.3]
        elif keyword == "minLength" and limit > 0:
            candidates = ["x" * (int(limit) - 1)]
        elif keyword == "maxLength" and limit < _LONGEST:
            candidates = ["x" * (int(limit) + 1)]
        elif isinstance(value, list):
            items = typing.cast("list[object]", value)
            if keyword == "minItems" and limit > 0:
                candidates = [items[: int(limit) - 1]]
            elif keyword == "maxItems" and items and limit < _LONGEST:
                candidates = [items + [items[0]] * (int(limit) + 1 - len(items))]
        elif isinstance(value, dict):
            entries = list(typing.cast("dict[str, object]", value).items())
            if keyword == "minProperties" and limit > 0:
                candidates = [dict(entries[: int(limit) - 1])]
            elif keyword == "maxProperties" and entries and limit < _LONGEST:
                grown = dict(entries)
                while len(grown) <= limit:
                    grown[_unused_key(set(grown))] = entries[0][1]
                candidates = [grown]
        broken = next((c for c in candidates if _seams.violates(((keyword, limit),), c)), None)
        if broken is not None:
            found.append(broken)
    return found


class _Finder:
    """Collects the places of one valid argument mapping where a near miss can be made."""

    def __init__(self, root: dict[str, Any]) -> None:
        self.root = root
        self.sites: list[st.SearchStrategy[NearMiss]] = []

    def put(self, path: Path, replacements: Sequence[object]) -> None:
        if replacements:
            where = _seams.json_path(path)
            self.sites.append(
                st.sampled_from(replacements).map(
                    lambda value: NearMiss(_replaced(self.root, path, value), where)
                )
            )

    def drop(self, path: Path) -> None:
        missing = NearMiss(_replaced(self.root, path, None, drop=True), _seams.json_path(path))
        self.sites.append(st.just(missing))

    def closed_object(self, fields: Sequence[_Property], value: dict[str, Any], path: Path) -> None:
        for field in fields:
            if field.name in value:
                if field.required:
                    self.drop((*path, field.name))
                self.place(field.annotation, value[field.name], (*path, field.name))
        self.put((*path, _unused_key({f.name for f in fields} | set(value))), [None])

    def place(self, annotation: object, value: Any, path: Path, *, outermost: bool = True) -> None:
        form = _seams.describe(annotation)
        if outermost:
            self.put(path, _wrong_values(form.json_types))
        kind = form.kind
        if kind == "annotated":
            self.put(path, _breaks(form.constraints, value))
            self.place(form.args[0], value, path, outermost=False)
        elif kind == "union":
            variants = [a for a in form.args if a is not None and a is not type(None)]
            if len(variants) == 1 and value is not None:
                self.place(variants[0], value, path, outermost=False)
        elif kind == "constants":
            other = _non_member(form.json_constants, form.json_types)
            if other is not None:
                self.put(path, [other])
        elif kind == "format":
            self.put(path, [_BAD_FORMATS.get(typing.cast(type, form.python_type), "not valid")])
        elif kind in ("list", "tuple", "set", "frozenset"):
            for index, item in enumerate(value):
                self.place(form.args[0], item, (*path, index))
            if kind in ("set", "frozenset") and value:
                self.put(path, [[*value, value[0]]])
        elif kind == "fixed":
            for index, (item_type, item) in enumerate(zip(form.args, value, strict=True)):
                self.place(item_type, item, (*path, index))
            self.put(
                path, [[*value, value[0] if value else None], *([value[:-1]] if value else [])]
            )
        elif kind == "mapping":
            for key, item in value.items():
                self.place(form.args[0], item, (*path, key))
        elif kind == "object":
            self.closed_object(form.fields, value, path)


def invalid_arguments(proxy: ToolProxy) -> st.SearchStrategy[NearMiss]:
    """A strategy of near misses for *proxy*: arguments its schema must refuse, and where.

    Each `NearMiss` is a valid mapping from `arguments` with one place broken: a value of a JSON
    type not admitted there, a required argument or field removed, an unknown key added, or a
    constraint broken (a bound, a length, an enum member, a date that does not exist, a tuple's
    length, a duplicate in a set). ``path`` is the JSON path the error must name: for
    ``r = proxy.invoke(near.arguments)``, ``r.error.kind == "arguments"`` and ``near.path`` is
    one of ``[d.path for d in r.error.details]``.

    Raises:
        NoStrategyError: A parameter's type has no strategy (see `arguments`).
        TypeError: *proxy* is not a tool (a toolset's class, say: its tools are ``to_tools()``).
    """
    proxy = _seams.tool_proxy(proxy, "invalid_arguments")
    params = tool_parameters(proxy)

    def near_misses(valid: dict[str, Any]) -> st.SearchStrategy[NearMiss]:
        finder = _Finder(valid)
        finder.closed_object(params, valid, ())
        return st.one_of(finder.sites)

    def fits(near: NearMiss) -> bool:
        return _seams.within_limits(proxy, near.arguments)

    return arguments(proxy).flatmap(near_misses).filter(fits)
