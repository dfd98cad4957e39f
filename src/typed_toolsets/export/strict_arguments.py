"""The call side of strict mode: ``null`` for a defaulted property mapped back to its default.

A strict schema (`ToolProxy.strict_parameters`) makes every property required, so a model says
"use the default" by sending ``null`` for a property that has one. `strict_arguments` turns such
arguments back into what the canonical schema expects, at every level of nesting, before the
ordinary call path (limits, validation, structuring) sees them:

- ``null`` for an optional property whose canonical schema does not admit ``null`` becomes that
  property's JSON default, exactly as if the model had sent it; when the schema shows no default
  (a field with a default factory, a ``NotRequired`` TypedDict key), the key is left out, so the
  class's own default applies;
- ``null`` where the canonical schema admits it (``T | None = None``) is kept: it is the default;
- inside a union, the first variant (in declared order) that accepts the mapped value is taken,
  as the call path itself does.

This is a seam: the per-method arguments model of the call layer will take it over (mapping
``null`` while it structures), and `dispatch` will then pass strict arguments straight through.
"""

from __future__ import annotations

import copy
import typing
import weakref
from collections.abc import Callable, Mapping
from typing import Any, Final

from typed_toolsets.call.jsonin import load_arguments
from typed_toolsets.call.proxy import Arguments, ToolProxy
from typed_toolsets.call.strict import admits_null, def_name
from typed_toolsets.types.typespec import Schema

__all__ = ["strict_arguments"]


class _Changes:
    """Counts the nulls mapped during one rewrite (none: the original arguments are kept)."""

    __slots__ = ("count",)

    def __init__(self) -> None:
        self.count = 0


_Rewrite = Callable[[Any, _Changes], Any]
_OMIT: Final = object()


class _Compiler:
    """Compiles a canonical arguments schema into a rewrite of strict arguments (None: identity)."""

    def __init__(self, root: Mapping[str, Any]) -> None:
        self.defs = typing.cast("Mapping[str, Any]", root.get("$defs") or {})
        self.compiled: dict[str, _Rewrite | None] = {}

    def compile(self, schema: Mapping[str, Any]) -> _Rewrite | None:
        ref = schema.get("$ref")
        if isinstance(ref, str):
            return self.reference(def_name(ref))
        parts: list[_Rewrite] = []
        for make in (self.object_part, self.items_part, self.union_part):
            part = make(schema)
            if part is not None:
                parts.append(part)
        if not parts:
            return None
        if len(parts) == 1:
            return parts[0]

        def chain(value: Any, changes: _Changes) -> Any:
            for part in parts:
                value = part(value, changes)
            return value

        return chain

    def reference(self, name: str) -> _Rewrite | None:
        target = self.defs.get(name)
        if not isinstance(target, Mapping):
            return None
        if name not in self.compiled:
            self.compiled[name] = None  # a recursive reference resolves when it is called
            self.compiled[name] = self.compile(typing.cast("Mapping[str, Any]", target))
        compiled = self.compiled

        def follow(value: Any, changes: _Changes) -> Any:
            rewrite = compiled[name]
            return value if rewrite is None else rewrite(value, changes)

        return follow

    def object_part(self, schema: Mapping[str, Any]) -> _Rewrite | None:
        properties = schema.get("properties")
        entries: dict[str, tuple[_Rewrite | None, object]] = {}
        if isinstance(properties, Mapping):
            required = set(typing.cast("list[str]", schema.get("required") or []))
            for key, prop in typing.cast("Mapping[str, Mapping[str, Any]]", properties).items():
                child = self.compile(prop)
                action: object = None
                if key not in required and not admits_null(prop, self.defs):
                    action = prop.get("default", _OMIT)
                if child is not None or action is not None:
                    entries[key] = (child, action)
        extra = schema.get("additionalProperties")
        values = (
            self.compile(typing.cast("Mapping[str, Any]", extra))
            if isinstance(extra, Mapping)
            else None
        )
        if not entries and values is None:
            return None

        def rewrite(value: Any, changes: _Changes) -> Any:
            if type(value) is not dict:
                return value
            result: dict[str, Any] = {}
            for key, item in typing.cast("dict[str, Any]", value).items():
                entry = entries.get(key)
                if entry is None:
                    result[key] = item if values is None else values(item, changes)
                    continue
                child, action = entry
                if item is None and action is not None:
                    changes.count += 1
                    if action is not _OMIT:
                        result[key] = copy.deepcopy(action)
                elif child is not None:
                    result[key] = child(item, changes)
                else:
                    result[key] = item
            return result

        return rewrite

    def items_part(self, schema: Mapping[str, Any]) -> _Rewrite | None:
        items = schema.get("items")
        each = (
            self.compile(typing.cast("Mapping[str, Any]", items))
            if isinstance(items, Mapping)
            else None
        )
        prefix = schema.get("prefixItems")
        positions = (
            [self.compile(p) for p in typing.cast("list[Mapping[str, Any]]", prefix)]
            if isinstance(prefix, list)
            else []
        )
        if each is None and all(p is None for p in positions):
            return None

        def rewrite(value: Any, changes: _Changes) -> Any:
            if type(value) is not list:
                return value
            result: list[Any] = []
            for index, item in enumerate(typing.cast("list[object]", value)):
                part = positions[index] if index < len(positions) else each
                result.append(item if part is None else part(item, changes))
            return result

        return rewrite

    def union_part(self, schema: Mapping[str, Any]) -> _Rewrite | None:
        branches = schema.get("anyOf")
        if not isinstance(branches, list):
            return None
        variants = typing.cast("list[Mapping[str, Any]]", branches)
        parts = [self.compile(v) for v in variants]
        if all(p is None for p in parts):
            return None
        validators: dict[int, Any] = {}  # jsonschema validators, built on first use
        defs = self.defs

        def accepts(index: int, value: object) -> bool:
            validator: Any = validators.get(index)
            if validator is None:
                from typed_toolsets.types.validator import make_validator

                variant = dict(variants[index])
                if defs:
                    variant["$defs"] = defs
                validator = make_validator(variant)
                validators[index] = validator
            return bool(validator.is_valid(value))

        def rewrite(value: Any, changes: _Changes) -> Any:
            if type(value) not in (dict, list):
                return value  # a scalar holds no property to map
            for index, part in enumerate(parts):
                trial = _Changes()
                candidate = value if part is None else part(value, trial)
                if accepts(index, candidate):
                    changes.count += trial.count
                    return candidate
            return value  # no variant accepts it: validation explains why

        return rewrite


_rewrites: weakref.WeakKeyDictionary[ToolProxy, _Rewrite | None] = weakref.WeakKeyDictionary()


def _rewrite_for(proxy: ToolProxy) -> _Rewrite | None:
    try:
        return _rewrites[proxy]
    except KeyError:
        pass
    parameters: Schema = proxy.parameters
    rewrite = _Compiler(parameters).compile(parameters)
    _rewrites[proxy] = rewrite
    return rewrite


def strict_arguments(proxy: ToolProxy, arguments: Arguments) -> Arguments:
    """Given a proxy and arguments shaped by its strict schema, return the arguments to call with.

    ``null`` sent for a property that has a default (at any depth) is replaced by that default
    (see the module docstring); everything else is left as it is. Arguments that contain no such
    ``null``, or that cannot be read at all (too large, not JSON, not an object), are returned
    unchanged, so the ordinary call path reports on them and keeps its fast path.

    Args:
        proxy: The tool being called.
        arguments: What the model sent: a mapping, JSON text, or None / ``""``.

    Returns:
        Arguments for ``proxy.invoke`` / ``proxy.dynamic_call``.
    """
    if isinstance(arguments, str):
        if "null" not in arguments:
            return arguments
    elif isinstance(arguments, (bytes, bytearray, memoryview)):
        if b"null" not in bytes(arguments):
            return arguments
    elif not isinstance(arguments, Mapping):
        return arguments
    rewrite = _rewrite_for(proxy)
    if rewrite is None:
        return arguments
    try:
        loaded = load_arguments(arguments, proxy.limits)
    except Exception:  # noqa: BLE001 - the call path reports unreadable arguments itself
        return arguments
    changes = _Changes()
    mapped = rewrite(loaded, changes)
    return typing.cast("dict[str, object]", mapped) if changes.count else arguments
