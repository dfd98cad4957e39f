"""Properties of strict mode and dispatch, over generated toolsets (issue 11).

1. Every instance of a tool's strict schema (nulls included) is accepted by
   ``dispatch(..., strict=True)`` and reaches the method exactly as the non-strict call with the
   defaulted parameters left out and the fields' defaults filled in would: the method gets its
   own defaults (the echo tool returns only the keywords it was given, so a default filled in
   would show). The expected call is computed from the Python types (their fields' defaults),
   not from the schemas the code under test reads.
2. Everything the non-strict schema accepts is accepted by ``dispatch``, strict or not.
3. A tool either has a strict schema or its refusal names its own parameters; every dialect
   exports it or refuses it with an `ExportError`, never anything else.
"""

from __future__ import annotations

import dataclasses
import inspect
import itertools
import json
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs
import typing_extensions
from hypothesis import assume, given, note, reject, settings
from hypothesis import strategies as st

from tests.strategies.annotations import SCALAR_CASES, identifiers
from tests.strategies.toolsets import make_echo_toolset, toolsets
from tests.test_properties import fast_verdict, schema_instances
from typed_toolsets import ExportError, ToolProxy, ToolResult, Toolset
from typed_toolsets.export import (
    anthropic,
    dispatch,
    gemini,
    mcp,
    openai_chat,
    openai_responses,
)
from typed_toolsets.types.catalog import registry
from typed_toolsets.types.validator import make_validator

# ------------------------------------------------------------------ the oracle, from types

_NO_JSON = object()


class Inexpressible(Exception):
    """A strict instance whose reading no standard call can send: a union's earlier variant
    would take the standard form of the value the strict form gives to a later one."""


@attrs.frozen
class _Field:
    annotation: object
    optional: bool  # the model may leave it out: it has a default (or is a NotRequired key)
    default: object = _NO_JSON  # its JSON form (none for a factory or a NotRequired key)


def _json_default(annotation: object, default: object) -> object:
    try:
        return registry.spec(annotation).unstructure(default)
    except Exception:
        return _NO_JSON


def _field(annotation: object, default: object, *, factory: bool = False) -> _Field:
    if default is _NO_JSON:
        return _Field(annotation, optional=factory)
    return _Field(annotation, optional=True, default=_json_default(annotation, default))


def _struct_fields(cls: type) -> dict[str, _Field] | None:
    """The JSON keys of a struct class and what the model may leave out (None: not a struct)."""
    if attrs.has(cls):
        hints = typing.get_type_hints(cls, include_extras=True)
        found: dict[str, _Field] = {}
        for field in attrs.fields(cls):
            annotation = hints.get(field.name, field.type)
            default = field.default
            factory = isinstance(default, attrs.Factory)  # type: ignore[arg-type]
            plain = _NO_JSON if default is attrs.NOTHING or factory else default
            found[field.alias or field.name] = _field(annotation, plain, factory=factory)
        return found
    if dataclasses.is_dataclass(cls):
        hints = typing.get_type_hints(cls, include_extras=True)
        return {
            field.name: _field(
                hints.get(field.name, field.type),
                _NO_JSON if field.default is dataclasses.MISSING else field.default,
                factory=field.default_factory is not dataclasses.MISSING,
            )
            for field in dataclasses.fields(cls)
        }
    if typing_extensions.is_typeddict(cls):
        hints = typing_extensions.get_type_hints(cls)
        optional = getattr(cls, "__optional_keys__", frozenset())
        return {name: _Field(hint, optional=name in optional) for name, hint in hints.items()}
    if issubclass(cls, tuple) and hasattr(cls, "_fields"):
        hints = typing.get_type_hints(cls, include_extras=True)
        defaults: dict[str, object] = getattr(cls, "_field_defaults", {})
        return {name: _field(hints[name], defaults.get(name, _NO_JSON)) for name in cls._fields}
    return None


def _admits_none(annotation: object) -> bool:
    return "null" in registry.spec(annotation).json_types


def _object(fields: Mapping[str, _Field], value: object, *, fill: bool) -> object:
    """A strict object as the standard form sends it: each null that stands for a default left
    out, or, with *fill*, replaced by the default's JSON form when it has one (which keeps the
    key, so a union still tells its variants apart as the strict form does)."""
    if not isinstance(value, dict):
        return value
    result: dict[str, object] = {}
    for key, item in value.items():
        field = fields.get(key)
        if field is None:
            result[key] = item
        elif item is None and field.optional and not _admits_none(field.annotation):
            if fill and field.default is not _NO_JSON:
                result[key] = field.default
        else:
            result[key] = standard(field.annotation, item)
    return result


def standard(annotation: object, value: object) -> object:
    """*value*, an instance of *annotation*'s strict schema, as the non-strict call sends it.

    Raises:
        Inexpressible: No standard value reaches the variant of a union the strict form reads.
    """
    if typing.get_origin(annotation) is typing.Annotated:
        annotation = typing.get_args(annotation)[0]
    if value is None:
        return None
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin in (typing.Union, types.UnionType):
        for index, variant in enumerate(args):
            candidate = standard(variant, value)
            if fast_verdict(variant, candidate):
                if any(fast_verdict(earlier, candidate) for earlier in args[:index]):
                    raise Inexpressible
                return candidate
        return value
    if isinstance(annotation, type) and origin is None:
        fields = _struct_fields(annotation)
        return value if fields is None else _object(fields, value, fill=True)
    if not isinstance(value, list):
        if isinstance(value, dict) and origin in (dict, Mapping) and len(args) == 2:
            return {k: standard(args[1], v) for k, v in value.items()}
        return value
    if origin is tuple and args and args[-1] is not Ellipsis:
        return [standard(a, v) for a, v in zip(args, value, strict=False)] + value[len(args) :]
    if origin in (list, tuple, set, frozenset, Sequence) and args:
        return [standard(args[0], v) for v in value]
    return value


def expected_arguments(cls: type[Toolset], strict_instance: dict[str, Any]) -> dict[str, Any]:
    """The non-strict arguments a strict instance stands for, from the method's signature.

    A parameter's null leaves it out (the echo tool shows the keywords it was given); a field's
    is its default's JSON form, which the class turns into an equal value of the same type.
    """
    parameters = inspect.signature(cls.echo).parameters  # type: ignore[attr-defined]
    fields = {
        name: _Field(p.annotation, optional=p.default is not inspect.Parameter.empty)
        for name, p in parameters.items()
        if name != "self"
    }
    found = _object(fields, strict_instance, fill=False)
    assert isinstance(found, dict)
    return found


def same(a: object, b: object) -> bool:
    """Equal, with the same types all the way down (1 and 1.0 differ)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        assert isinstance(b, dict)
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        assert isinstance(b, (list, tuple))
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return a == b


def _overflow(result: ToolResult) -> bool:
    # A JSON number beyond the float range sent for a float is valid JSON Schema but not a
    # float: the call path reports it as an argument error (documented, and tested elsewhere).
    return result.error is not None and "OverflowError" in result.error.message


# ------------------------------------------------------------------------------ properties


def _check_strict_instance(cls: type[Toolset], data: st.DataObject, as_text: bool) -> None:
    proxy: ToolProxy = cls.to_tools()[0]
    try:
        strict = proxy.strict_parameters
    except ExportError:
        reject()
    note(json.dumps(strict))
    instance = data.draw(schema_instances(strict), label="strict instance")
    assume(make_validator(strict).is_valid(instance))
    assert isinstance(instance, dict)
    try:
        expected_args = expected_arguments(cls, instance)
    except Inexpressible:
        # Tested on its own: test_export_strict's
        # test_null_reaches_the_union_variant_the_strict_schema_gives_it.
        reject()
    note(f"expected arguments: {expected_args!r}")
    expected = proxy.invoke(expected_args)
    if not expected.ok and _overflow(expected):
        reject()
    assert expected.ok, expected.error
    sent = json.dumps(instance) if as_text else instance
    got = dispatch([proxy], proxy.name, sent, strict=True)
    assert same(got, expected.value), (got, expected.value)


@given(toolsets(), st.data(), st.booleans())
def test_strict_instances_reach_the_method_as_the_standard_call(
    generated: Any, data: st.DataObject, as_text: bool
) -> None:
    cls, _ = generated
    _check_strict_instance(cls, data, as_text)


_struct_names = (f"Variant{i}" for i in itertools.count())


@st.composite
def _struct_unions(draw: st.DrawFn) -> type[Toolset]:
    """A toolset whose one parameter is a union of attrs classes with defaulted fields: the
    case where a null decides which variant the value is."""
    variants: list[type] = []
    for _ in range(draw(st.integers(2, 3))):
        fields = draw(
            st.lists(
                st.tuples(identifiers, st.sampled_from(SCALAR_CASES), st.booleans()),
                max_size=3,
                unique_by=lambda f: f[0],
            )
        )
        fields.sort(key=lambda f: f[2])  # required fields first
        attributes = {
            name: attrs.field(type=case.annotation, default=draw(case.values))
            if defaulted
            else attrs.field(type=case.annotation)
            for name, case, defaulted in fields
        }
        variants.append(attrs.make_class(next(_struct_names), attributes, frozen=True))
    annotation = typing.Union[tuple(variants)]  # noqa: UP007 - built at run time
    return make_echo_toolset([("value", annotation, inspect.Parameter.empty)])


@given(_struct_unions(), st.data(), st.booleans())
def test_a_null_inside_a_union_chooses_the_variant_as_the_standard_call(
    cls: type[Toolset], data: st.DataObject, as_text: bool
) -> None:
    _check_strict_instance(cls, data, as_text)


# Half the profile's examples: the core property tests already cover canonical instances; this
# one adds dispatch (and the strict seam on instances without nulls to map).
@settings(max_examples=max(1, settings.default.max_examples // 2))
@given(toolsets(), st.data())
def test_everything_the_canonical_schema_accepts_is_accepted(
    generated: Any, data: st.DataObject
) -> None:
    cls, _ = generated
    proxy: ToolProxy = cls.to_tools()[0]
    schema = proxy.parameters
    instance = data.draw(schema_instances(schema), label="instance")
    assume(make_validator(schema).is_valid(instance))
    result = proxy.invoke(instance)
    if _overflow(result):
        reject()
    assert result.ok, result.error
    plain = dispatch([proxy], proxy.name, instance)
    assert same(plain, result.value)
    strict = dispatch([proxy], proxy.name, json.dumps(instance), strict=True)
    assert isinstance(strict, dict), strict


@given(toolsets())
def test_each_dialect_exports_or_refuses_naming_the_parameter(generated: Any) -> None:
    cls, described = generated
    tools = cls.to_tools()
    names = [name for name, _, _ in described]
    for export in (
        openai_chat,
        openai_responses,
        anthropic,
        gemini,
        mcp,
        lambda t: openai_chat(t, strict=True),
        lambda t: anthropic(t, strict=True),
    ):
        entries, problems = _exported(export, tools)
        if entries is not None:
            assert json.loads(json.dumps(entries)) == entries
            continue
        assert problems
        for problem in problems:
            assert "'" + tools[0].name + "'" in problem
            assert any(f"parameter {name!r}" in problem for name in names), problem


def _exported(
    export: Callable[[list[ToolProxy]], list[dict[str, Any]]], tools: list[ToolProxy]
) -> tuple[list[dict[str, Any]] | None, tuple[str, ...]]:
    try:
        return export(tools), ()
    except ExportError as exc:
        return None, exc.problems
