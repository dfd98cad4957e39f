"""Strategies: Python values of an annotation, and argument mappings a tool's schema admits.

One walk over the registry's description of an annotation (`_seams.describe`) builds either kind:
``values`` gives the Python values a method receives (what must survive the trip through JSON),
``arguments`` gives JSON straight from the schema's point of view, in every spelling the schema
admits (``1.0`` for an integer, ``Z`` for a UTC offset), so that a class or hook stricter than its
schema is caught.
"""

from __future__ import annotations

import functools
import math
import typing
import uuid
from collections.abc import Callable
from datetime import date, datetime, time, timedelta, timezone
from typing import Any, Final, TypeVar, overload

from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument, ResolutionFailed

from typed_toolsets._public import public_in
from typed_toolsets.call.proxy import ToolProxy

from . import _seams
from ._numbers import NOTHING, Constraints, floats_within, integers_within, limits
from ._schemavalues import SAFE_INTEGER, schema_values

__all__ = ["NoStrategyError", "arguments", "values"]

_T = TypeVar("_T")

#: How many times one class may nest inside itself in a generated value.
_RECURSION_LIMIT: Final = 3
#: A collection without ``maxItems`` gets at most this many items more than its minimum, which
#: keeps nested and recursive values small enough to shrink.
_EXTRA_ITEMS: Final = 4


@public_in("typed_toolsets.testing")
class NoStrategyError(ResolutionFailed):
    """No strategy is known for an annotation (a `ResolutionFailed`, hence a `TypeError`).

    Raised for a type registered with ``register_type`` without ``strategy=`` (or with one that
    is no strategy, fails to give one, or draws values of another type), and for an annotation
    that has no JSON Schema mapping at all. The message names the type.
    """


# ------------------------------------------------------------------------------------- leaves

#: Marks the key of an item that could not be read (`_read_key`), apart from every value.
_UNREAD: Final = object()

#: RFC 3339 offsets are whole minutes, less than a day; UTC is the most common of them.
_offsets = st.just(timezone.utc) | st.integers(-(23 * 60 + 59), 23 * 60 + 59).map(
    lambda minutes: timezone(timedelta(minutes=minutes))
)
_FORMAT_VALUES: Final[dict[type, st.SearchStrategy[Any]]] = {
    datetime: st.datetimes(timezones=_offsets),
    date: st.dates(),
    time: st.times(timezones=_offsets),
    uuid.UUID: st.uuids(),
}


def _text(min_size: int = 0, max_size: int | None = None) -> st.SearchStrategy[str]:
    # Lone surrogates have no UTF-8 form, so they cannot be JSON text. The `.map(str)` changes no
    # value: with Hypothesis 6.170, shrinking `one_of(text(), <str enum members>)` (a
    # `str | StrEnum` union) fails with FlakyStrategyDefinition unless text() is wrapped.
    strings = st.text(st.characters(codec="utf-8"), min_size=min_size, max_size=max_size)
    return strings.map(str)


def _spellings(text: str, kind: type) -> st.SearchStrategy[str]:
    """*text* (a format's canonical JSON form) or another spelling its format admits."""
    found = [text]
    if kind is uuid.UUID:
        found.append(text.upper())
    else:
        if text.endswith("+00:00"):
            found += [text[:-6] + "Z", text[:-6] + "z"]
        if "T" in text:
            found.append(text.replace("T", "t"))
    return st.sampled_from(found)


def _sizes(
    constraints: Constraints, low: str, high: str, extra: int = _EXTRA_ITEMS
) -> tuple[int, int] | None:
    """The size bounds for a string, array or object (None when none can be met).

    Without a maximum, at most *extra* more than the minimum.
    """
    minimum = max([0, *(math.ceil(v) for v in limits(constraints, low))])
    maxima = [math.floor(v) for v in limits(constraints, high)]
    maximum = min(maxima) if maxima else minimum + extra
    return None if minimum > maximum else (minimum, maximum)


def _lists(item: st.SearchStrategy[Any], low: int, high: int) -> st.SearchStrategy[Any]:
    return st.lists(item, min_size=low, max_size=high)


def _tuples(item: st.SearchStrategy[Any], low: int, high: int) -> st.SearchStrategy[Any]:
    return st.lists(item, min_size=low, max_size=high).map(tuple)


def _unique_lists(
    item: st.SearchStrategy[Any], low: int, high: int, structure: Callable[[Any], Any]
) -> st.SearchStrategy[Any]:
    # Unique as uniqueItems counts them, and as values once read (a set of them would otherwise
    # come out smaller): two spellings of one moment ("...+00:00", "...Z"), or one moment at two
    # offsets, are one datetime.
    keys = (_seams.json_key, functools.partial(_read_key, structure))
    return st.lists(item, min_size=low, max_size=high, unique_by=keys)


def _read_key(structure: Callable[[Any], Any], item: object) -> object:
    """*item* as read (hashable, as a set's items are), or its JSON key if it cannot be."""
    try:
        value = structure(item)
        hash(value)
    except Exception:  # noqa: BLE001 - the tool says what is wrong with it, not the draw
        return (_UNREAD, _seams.json_key(item))
    return value


def _sets(item: st.SearchStrategy[Any], low: int, high: int) -> st.SearchStrategy[Any]:
    return st.sets(item, min_size=low, max_size=high)


def _frozensets(item: st.SearchStrategy[Any], low: int, high: int) -> st.SearchStrategy[Any]:
    return st.frozensets(item, min_size=low, max_size=high)


def _dicts(item: st.SearchStrategy[Any], low: int, high: int) -> st.SearchStrategy[Any]:
    return st.dictionaries(_text(), item, min_size=low, max_size=high)


_REFUSED: Final = object()


def _build(make: Callable[..., object], kwargs: dict[str, Any]) -> object:
    # A class may refuse values its fields' types admit (an attrs validator, __post_init__):
    # those draws are dropped, so values() yields only what the class itself accepts.
    try:
        return make(**kwargs)
    except Exception:  # noqa: BLE001 - any refusal by the class
        return _REFUSED


def _is_built(value: object) -> bool:
    return value is not _REFUSED


def _drawn_of(tp: type, value: object) -> object:
    """*value*, drawn from the strategy registered for *tp*, when it is one of *tp*'s values."""
    if not isinstance(value, tp):
        msg = (
            f"the strategy registered for {tp.__qualname__} drew {value!r} (of type "
            f"{type(value).__qualname__}), not a {tp.__qualname__} value; give register_type() "
            f"a strategy of {tp.__qualname__} values"
        )
        raise NoStrategyError(msg)
    return value


def _unstructure_drawn(name: str, unstructure: Callable[[Any], Any], value: object) -> object:
    """What the hook *unstructure* writes of *value*, its tuples written as JSON arrays (lists).

    The call path takes the hook's own output in a mapping (it copies a tuple as an array);
    the arguments drawn are what a model sends, so the schema judges them as JSON. Nothing else
    changes: keys that are not strings, NaN and the like are for the checks to find.
    """
    try:
        written = unstructure(value)
    except Exception as exc:
        msg = (
            f"the unstructure hook registered for {name} raised {type(exc).__name__}: {exc} on "
            f"{value!r}, a value drawn from its registered strategy"
        )
        raise ValueError(msg) from exc
    return _arrays_as_lists(written)


def _arrays_as_lists(value: object) -> object:
    """*value* with each tuple in it (in lists and dict values too) a list."""
    kind = type(value)
    if kind is tuple or kind is list:
        return [_arrays_as_lists(item) for item in typing.cast("list[object]", value)]
    if kind is dict:
        mapping = typing.cast("dict[object, object]", value)
        return {key: _arrays_as_lists(item) for key, item in mapping.items()}
    return value


def _crossed(
    source: object, target: object, fallback: st.SearchStrategy[Any], value: object
) -> st.SearchStrategy[Any]:
    """*value* (of *source*) as a value of *target* with the same JSON form, if there is one.

    Else *fallback* (*target*'s own strategy): no draw is thrown away.
    """
    try:
        sent = _seams.unstructurer(source)(value)
        made = _seams.structurer(target)(sent)
        same_json = _seams.json_key(_seams.unstructurer(target)(made)) == _seams.json_key(sent)
    except Exception:  # noqa: BLE001 - no such value: the target's own are drawn instead
        return fallback
    form = _seams.describe(target)
    if not same_json or (form.kind == "annotated" and _seams.violates(form.constraints, sent)):
        return fallback
    return st.just(made)


def _satisfies(
    constraints: Constraints, to_json: Callable[[Any], Any] | None, value: object
) -> bool:
    if to_json is not None:
        try:
            value = to_json(value)
        except Exception:  # noqa: BLE001 - the round trip check reports values without JSON
            return True
    return not _seams.violates(constraints, value)


# -------------------------------------------------------------------------------------- the walk


class _Walk:
    """Builds the strategy of an annotation: Python values, or (``json=True``) valid JSON.

    Args:
        json: Build JSON instances of the schema instead of Python values.
        strict: With ``json``: the strict variant's instances (every property present, ``null``
            standing for a default).
    """

    def __init__(self, *, json: bool, strict: bool = False) -> None:
        self.json = json
        self.strict = strict
        self._nesting: list[type] = []
        #: How many collections enclose the one being built: each level allows fewer items
        #: (4, 2, then 1 more than the minimum), so nested lists stay small enough to check.
        self._collections = 0

    def of(self, annotation: object, constraints: Constraints = ()) -> st.SearchStrategy[Any]:
        """The strategy of *annotation*, using *constraints* (at its position) as hints.

        Raises:
            NoStrategyError: No strategy is known for it (or a type nested in it).
        """
        try:
            form = _seams.describe(annotation)
        except _seams.UnsupportedAnnotation as exc:
            msg = f"no strategy for {_seams.label(annotation)}: {exc}"
            raise NoStrategyError(msg) from None
        build: Callable[[_seams.Form, Constraints], st.SearchStrategy[Any]] = getattr(
            self, f"_{form.kind}"
        )
        return build(form, constraints)

    # scalars -----------------------------------------------------------------------------

    def _str(self, _form: _seams.Form, constraints: Constraints) -> st.SearchStrategy[Any]:
        sizes = _sizes(constraints, "minLength", "maxLength")
        if sizes is None:
            return NOTHING
        # Strings are leaves: without maxLength they keep Hypothesis's own sizes.
        bounded = bool(limits(constraints, "maxLength"))
        return _text(sizes[0], sizes[1] if bounded else None)

    def _bool(self, _form: _seams.Form, _constraints: Constraints) -> st.SearchStrategy[Any]:
        return st.booleans()

    def _null(self, _form: _seams.Form, _constraints: Constraints) -> st.SearchStrategy[Any]:
        return st.none()

    def _int(self, _form: _seams.Form, constraints: Constraints) -> st.SearchStrategy[Any]:
        integers = integers_within(constraints)
        if not self.json:
            return integers
        # The schema's "integer" admits integral floats too: 3.0 must be accepted as 3.
        as_floats = integers_within(constraints, -SAFE_INTEGER, SAFE_INTEGER).map(float)
        return integers | as_floats

    def _float(self, _form: _seams.Form, constraints: Constraints) -> st.SearchStrategy[Any]:
        floats = floats_within(constraints)
        if not self.json:
            return floats
        # JSON integers are numbers; beyond 2**53 they need not fit a float (a documented error).
        return floats | integers_within(constraints, -SAFE_INTEGER, SAFE_INTEGER)

    def _number(self, _form: _seams.Form, constraints: Constraints) -> st.SearchStrategy[Any]:
        return integers_within(constraints) | floats_within(constraints)

    def _format(self, form: _seams.Form, _constraints: Constraints) -> st.SearchStrategy[Any]:
        kind = typing.cast(type, form.python_type)
        found = _FORMAT_VALUES.get(kind)
        if found is None:
            msg = f"no strategy for the format type {kind.__qualname__} in typed_toolsets.testing"
            raise NoStrategyError(msg)
        if not self.json:
            return found
        unstructure = _seams.unstructurer(form.annotation)
        return found.map(unstructure).flatmap(lambda text: _spellings(text, kind))

    def _constants(self, form: _seams.Form, _constraints: Constraints) -> st.SearchStrategy[Any]:
        return st.sampled_from(form.json_constants if self.json else form.constants)

    def _registered(self, form: _seams.Form, _constraints: Constraints) -> st.SearchStrategy[Any]:
        tp = typing.cast(type, form.python_type)
        name = tp.__qualname__
        source = _seams.registered_strategy(tp)
        if source is None:
            msg = (
                f"no strategy for {name}: it was registered with register_type() without one; "
                f"pass strategy=<a Hypothesis strategy of {name} values> to register_type"
            )
            raise NoStrategyError(msg)
        try:
            strategy = source() if callable(source) else source
        except Exception as exc:
            msg = (
                f"the function registered with register_type() to give {name}'s strategy raised "
                f"{type(exc).__name__}: {exc}"
            )
            raise NoStrategyError(msg) from exc
        if not isinstance(strategy, st.SearchStrategy):
            msg = f"the strategy registered for {name} is {strategy!r}, not a Hypothesis strategy"
            raise NoStrategyError(msg)
        try:
            empty = strategy.is_empty
        except InvalidArgument as exc:  # st.sampled_from([]) says so only now
            msg = f"the strategy registered for {name} cannot draw values: {exc}"
            raise NoStrategyError(msg) from exc
        if empty:
            msg = (
                f"the strategy registered for {name} is {strategy!r}, which draws no value; "
                f"give one that draws {name} values"
            )
            raise NoStrategyError(msg)
        found: st.SearchStrategy[Any] = strategy.map(  # pyright: ignore[reportUnknownMemberType]
            functools.partial(_drawn_of, tp)
        )
        if not self.json:
            return found
        unstructure = _seams.unstructurer(form.annotation)
        drawn = found.map(functools.partial(_unstructure_drawn, name, unstructure))
        # What a model may send besides what the hook writes: the structure hook takes it too.
        admitted = schema_values(_seams.registered_schema(form.annotation))
        if admitted is not None:
            drawn = st.one_of(drawn, admitted)
        # Strict: every property present, as at every other level (null for one left out).
        return drawn.map(_seams.strict_json(form.annotation)) if self.strict else drawn

    # combinations --------------------------------------------------------------------------

    def _annotated(self, form: _seams.Form, constraints: Constraints) -> st.SearchStrategy[Any]:
        inner = self.of(form.args[0], (*constraints, *form.constraints))
        if not form.constraints:
            return inner
        # The bounds above are hints; this is the verdict, exactly as jsonschema gives it.
        to_json = None if self.json else _seams.unstructurer(form.annotation)
        return inner.filter(functools.partial(_satisfies, form.constraints, to_json))

    def _union(self, form: _seams.Form, constraints: Constraints) -> st.SearchStrategy[Any]:
        # Constraints reach every variant; each applies those of its own JSON type, as in JSON
        # Schema.
        variants = [self.of(arg, constraints) for arg in form.args]
        if self.json or _seams.ambiguity(form.annotation) is None:
            return st.one_of(variants)
        # An ambiguous union (`UUID | str`): a later variant's values are also drawn from an
        # earlier one's JSON forms, where the later type takes them (a UUID's text as a str).
        # The union reads such a value back as the earlier variant, which the round trip shows
        # with the example; random text alone almost never looks like a UUID.
        crossed = [
            variants[i].flatmap(
                functools.partial(_crossed, form.args[i], form.args[j], variants[j])
            )
            for j in range(1, len(variants))
            for i in range(j)
        ]
        return st.one_of(*variants, *crossed)

    def _sized(
        self,
        form: _seams.Form,
        constraints: Constraints,
        keywords: tuple[str, str],
        empty: type,
        build: Callable[[st.SearchStrategy[Any], int, int], st.SearchStrategy[Any]],
    ) -> st.SearchStrategy[Any]:
        """A collection of *form*'s items (or values), sized by the two *keywords*."""
        sizes = _sizes(constraints, *keywords, max(1, _EXTRA_ITEMS >> self._collections))
        if sizes is None:
            return NOTHING
        self._collections += 1
        try:
            item = self.of(form.args[-1])
        finally:
            self._collections -= 1
        if item.is_empty:
            # No item can be drawn (a recursion cut off here): only the empty collection.
            return NOTHING if sizes[0] else st.builds(empty)
        return build(item, *sizes)

    def _list(self, form: _seams.Form, constraints: Constraints) -> st.SearchStrategy[Any]:
        return self._sized(form, constraints, ("minItems", "maxItems"), list, _lists)

    def _tuple(self, form: _seams.Form, constraints: Constraints) -> st.SearchStrategy[Any]:
        if self.json:
            return self._list(form, constraints)
        return self._sized(form, constraints, ("minItems", "maxItems"), tuple, _tuples)

    def _set(self, form: _seams.Form, constraints: Constraints) -> st.SearchStrategy[Any]:
        sizes = _sizes(constraints, "minItems", "maxItems")
        few = _seams.distinct_items(form.args[-1])
        if sizes is not None and few is not None and sizes[0] > few:
            return NOTHING  # more different items than the item type has (see `_fixed`)
        if self.json:
            # Unique as JSON Schema's uniqueItems counts (1 and 1.0 alike, true and 1 not).
            structure = _seams.structurer(form.args[-1])
            build = functools.partial(_unique_lists, structure=structure)
            return self._sized(form, constraints, ("minItems", "maxItems"), list, build)
        if form.kind == "frozenset":
            return self._sized(form, constraints, ("minItems", "maxItems"), frozenset, _frozensets)
        return self._sized(form, constraints, ("minItems", "maxItems"), set, _sets)

    _frozenset = _set

    def _fixed(self, form: _seams.Form, constraints: Constraints) -> st.SearchStrategy[Any]:
        sizes = _sizes(constraints, "minItems", "maxItems", len(form.args))
        if sizes is None or not sizes[0] <= len(form.args) <= sizes[1]:
            # A length its constraints leave it no value of: a variant of a union, beside one
            # that has values (a whole parameter so constrained is a definition error).
            return NOTHING
        items = st.tuples(*(self.of(arg) for arg in form.args))
        return items.map(list) if self.json else items

    def _mapping(self, form: _seams.Form, constraints: Constraints) -> st.SearchStrategy[Any]:
        return self._sized(form, constraints, ("minProperties", "maxProperties"), dict, _dicts)

    def _object(self, form: _seams.Form, _constraints: Constraints) -> st.SearchStrategy[Any]:
        cls = typing.cast(type, form.python_type)
        if self._nesting.count(cls) >= _RECURSION_LIMIT:
            # Deep enough: optional and nullable references end here, and a class that always
            # contains itself has no finite value at all.
            return NOTHING
        self._nesting.append(cls)
        try:
            each = {field.name: self.of(field.annotation) for field in form.fields}
        finally:
            self._nesting.pop()
        required = {f.name: each[f.name] for f in form.fields if f.required}
        optional = {
            f.name: each[f.name]
            for f in form.fields
            if not f.required and not each[f.name].is_empty
        }
        if self.json and self.strict:
            nullable = {name: st.none() | strategy for name, strategy in optional.items()}
            empty = {
                f.name: st.none() for f in form.fields if not f.required and f.name not in optional
            }
            return st.fixed_dictionaries({**required, **nullable, **empty})
        mappings = st.fixed_dictionaries(required, optional=optional)
        if self.json or form.make is None:
            return mappings
        return mappings.map(functools.partial(_build, form.make)).filter(_is_built)


# ------------------------------------------------------------------------------------ public


@overload
def values(annotation: type[_T]) -> st.SearchStrategy[_T]: ...
@overload
def values(annotation: object) -> st.SearchStrategy[Any]: ...
def values(annotation: object) -> st.SearchStrategy[Any]:
    """A strategy of Python values of *annotation*, as a tool's method would receive them.

    Every annotation the library supports has one: scalars, enums and ``Literal``, attrs classes
    and dataclasses (fields with defaults sometimes omitted), ``TypedDict`` (``NotRequired`` keys
    sometimes absent), ``NamedTuple``, lists, tuples, sets and ``dict[str, T]``, unions, aware
    datetimes (whole-minute offsets, as RFC 3339 writes them), dates, times and UUIDs, and
    ``Annotated`` constraints (``Ge``, ``MaxLen``, ...). Recursive classes nest at most a few
    levels deep. A type added with ``register_type`` uses the ``strategy=`` given there.

    Values are what survives the trip through JSON: finite floats, strings without lone
    surrogates; a class whose constructor refuses a draw (an attrs validator) is drawn again.

    Raises:
        NoStrategyError: *annotation* (or a type inside it) was registered without a strategy,
            or has no JSON Schema mapping; the message names it.
    """
    return _Walk(json=False).of(annotation)


def arguments(proxy: ToolProxy, *, strict: bool = False) -> st.SearchStrategy[dict[str, Any]]:
    """A strategy of argument mappings for *proxy* that its exported schema admits.

    The mappings are JSON-ready (dicts, lists, strings, numbers, booleans, None) and fit the
    tool's `Limits`. They come from the schema's point of view, in every spelling it admits:
    ``3.0`` for an integer, ``Z`` or ``+00:00`` for UTC, an upper-case UUID. Arguments with a
    default are sometimes omitted.

    Args:
        proxy: The tool.
        strict: Generate for the strict variant of the schema (OpenAI ``strict: true``): every
            key present at every level, ``null`` sometimes standing for a default.

    Raises:
        NoStrategyError: A parameter's type has no strategy; the message names the tool, the
            parameter and the type.
        ValueError: ``strict=True`` and the tool has no lossless strict variant.
        TypeError: *proxy* is not a tool (a toolset's class, say: its tools are ``to_tools()``).
    """
    proxy = _seams.tool_proxy(proxy, "arguments")
    if strict:
        _seams.strict_parameters(proxy)
    walk = _Walk(json=True, strict=strict)
    each: dict[str, st.SearchStrategy[Any]] = {}
    params = tool_parameters(proxy)
    for param in params:
        try:
            each[param.name] = walk.of(param.annotation)
        except NoStrategyError as exc:
            msg = f"tool {proxy.name!r}, parameter {param.name!r}: {exc}"
            raise NoStrategyError(msg) from None
    required = {p.name: each[p.name] for p in params if p.required}
    optional = {p.name: each[p.name] for p in params if not p.required}
    mappings: st.SearchStrategy[dict[str, Any]]
    if strict:
        nullable = {name: st.none() | strategy for name, strategy in optional.items()}
        mappings = st.fixed_dictionaries({**required, **nullable})
    else:
        mappings = st.fixed_dictionaries(required, optional=optional)
    return mappings.filter(functools.partial(_seams.within_limits, proxy))


def tool_parameters(proxy: ToolProxy) -> tuple[_seams.Parameter, ...]:
    """*proxy*'s parameters, once it is known that the registry describes their types as the tool.

    Raises:
        NoStrategyError: A parameter's type (or a type inside it) was registered with
            `register_type` after the toolset's class was created: the tool reads the form in
            force then, which values drawn from the registry would not have.
    """
    changed = _seams.registered_since(proxy)
    if changed is not None:
        msg = (
            f"tool {proxy.name!r}, parameter {changed.name!r}: {_seams.label(changed.annotation)}"
            " has another JSON Schema now than when the toolset's class was created"
            " (register_type was called for it, or for a type inside it, after the class"
            " statement), and the tool keeps the form it was made with; call register_type"
            " before the class is defined"
        )
        raise NoStrategyError(msg)
    return _seams.parameters(proxy)
