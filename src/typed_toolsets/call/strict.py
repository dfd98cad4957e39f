"""Strict mode on the call side (OpenAI and Anthropic ``strict: true``): the schema, and the calls.

Strict mode constrains the model's output to the schema, but only for a subset of JSON Schema:
every property must be listed in ``required`` and every object must have
``additionalProperties: false``. The schema `strict_parameters` writes from a tool's standard
schema is lossless:

- a property with a default becomes nullable (``anyOf: [..., {"type": "null"}]``), its
  ``default`` is removed and its description says what ``null`` means
  (`typed_toolsets.types.strict`, whose rules the call path reads ``null`` by), so the model can
  still "leave it out";
- a ``$ref`` never has sibling keywords (strict dialects ignore them): it is inlined once instead;
- what cannot be made lossless is refused with an `ExportError` naming the tool and the parameter,
  never narrowed: an object with free-form keys (``dict[str, T]``), whose strict form would admit
  only ``{}``, an optional property that admits ``null`` but defaults to something else
  (``null`` would have to mean both), and a union whose variants share a value only in the
  strict form (`typed_toolsets.rules.shapes.find_strict_ambiguity`: the first would take it),
  and, in a registered type's schema, a branch that only lists ``required`` keys or an optional
  property inside ``allOf`` / ``oneOf`` (every key is sent in strict mode: neither can be said).

Keywords that a provider's strict mode does not support are still here; the export dialects move
them into descriptions (our own validation, against the canonical schema, still enforces them).

Arguments a model wrote for that schema are called as `StrictArguments`: the tool's exact path
hands them to the strict form of its arguments model (`typed_toolsets.types.arguments`), which
reads ``null`` for a defaulted property as that property left out, in the same single pass as
any call.
"""

from __future__ import annotations

import json
import typing
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeAlias

import attrs

from typed_toolsets._public import public
from typed_toolsets.definition.errors import ExportError
from typed_toolsets.rules.shapes import find_strict_ambiguity
from typed_toolsets.types.describe import shape_of
from typed_toolsets.types.strict import admits_null, def_name, null_sentence, nullable
from typed_toolsets.types.typespec import Schema, json_copy

from .result import short_repr

if TYPE_CHECKING:
    from typed_toolsets.types.arguments import ArgumentsVariant

__all__ = ["JSONArguments", "StrictArguments", "schema_path", "strict_parameters"]

#: Arguments as a model sends them: a mapping, a JSON text, or None / empty for no arguments.
JSONArguments: TypeAlias = Mapping[str, object] | str | bytes | None


@public
@attrs.frozen
class StrictArguments:
    """Arguments a model wrote for a tool's strict schema (``proxy.strict_parameters``).

    Pass them to any model-facing call (``proxy.invoke(StrictArguments(arguments))``, also
    ``dynamic_call`` and the async forms): ``null`` for a parameter or field with a default whose
    type does not admit null stands for that default, at every depth, and the method (or class)
    gets its own default, as if the key were left out. Everything the standard schema admits is
    read as usual. `typed_toolsets.export.dispatch` and ``respond`` with ``strict=True`` wrap
    what the model sent in this.

    Attributes:
        arguments: What the model sent: a mapping, JSON text, or None / ``""``.
    """

    arguments: JSONArguments = attrs.field(repr=short_repr)


class _Builder:
    """One strict transformation: the variant of a canonical schema and the problems found."""

    def __init__(
        self, tool: str, defs: Mapping[str, Any], annotations: Mapping[str, object]
    ) -> None:
        self.tool = tool
        self.defs = defs
        self.annotations = annotations  # each parameter's type, by its JSON name
        self.new_defs: dict[str, Schema] = {}
        self.problems: list[str] = []
        self.combined = 0  # how many allOf / oneOf the node being built is inside

    def refuse(self, path: tuple[str | int, ...], cause: str, fix: str) -> None:
        where = f"parameter {path[0]!r}" if path else "the arguments object"
        at = f" at {schema_path(path)}" if len(path) > 1 else ""
        self.problems.append(
            f"Tool {self.tool!r} has no lossless strict schema: {where}{at} {cause}; {fix}"
        )

    def ensure_def(self, name: str, path: tuple[str | int, ...]) -> None:
        if name in self.new_defs or name not in self.defs:
            return
        self.new_defs[name] = {}  # in progress: a self-reference stops here
        self.new_defs[name] = self.node(self.defs[name], path)

    def node(self, schema: Mapping[str, Any], path: tuple[str | int, ...]) -> Schema:
        # A registered type's schema is read by the call path through
        # `typed_toolsets.types.strict.open_schema_nulls`, which walks the same keywords.
        if not isinstance(typing.cast(object, schema), Mapping):
            return typing.cast("Schema", schema)  # a boolean schema (a registered one): as it is
        ref = schema.get("$ref")
        if isinstance(ref, str):
            name = def_name(ref)
            siblings = {k: v for k, v in schema.items() if k not in ("$ref", "default")}
            self.ensure_def(name, path)
            target = self.defs.get(name)
            if not siblings or not isinstance(target, Mapping):
                return {"$ref": ref}
            # Strict dialects ignore keywords next to a $ref: inline the definition once (its own
            # references stay references) so that the description survives.
            return self.node({**typing.cast("Mapping[str, Any]", target), **siblings}, path)
        result: Schema = {}
        for key, value in schema.items():
            if key in ("default", "$defs"):
                continue
            if key == "items" and isinstance(value, Mapping):
                result[key] = self.node(typing.cast("Mapping[str, Any]", value), (*path, "*"))
            elif key == "prefixItems" and isinstance(value, list):
                items = typing.cast("list[Mapping[str, Any]]", value)
                result[key] = [self.node(item, (*path, i)) for i, item in enumerate(items)]
            elif key == "anyOf" and isinstance(value, list):
                branches = typing.cast("list[Mapping[str, Any]]", value)
                result[key] = [self.node(branch, path) for branch in branches]
            elif key in ("allOf", "oneOf") and isinstance(value, list):
                # A registered schema's: its objects must be strict too (a provider refuses
                # them otherwise), but the call path reads null for a default only under the
                # keywords above, so an optional property in them is refused (`optional`).
                branches = typing.cast("list[Mapping[str, Any]]", value)
                self.combined += 1
                result[key] = [self.node(branch, path) for branch in branches]
                self.combined -= 1
            elif key in ("properties", "required", "additionalProperties"):
                continue  # rebuilt below, in this order, for objects
            else:
                result[key] = json_copy(value)
        if _is_object(schema):
            self.object_keys(schema, path, result)
        elif schema.get("required"):
            # A registered schema's branch naming keys only (anyOf: [{"required": ["email"]},
            # ...]): every key is sent in strict mode, so it would say nothing there.
            shown = json.dumps(schema["required"], ensure_ascii=False)
            self.refuse(
                path,
                f"has a schema that only requires the properties {shown} (no properties of its "
                "own, as in a branch of a registered type's anyOf)",
                "in strict mode every property is sent (null standing for one not given), so "
                "it would require nothing; give the registered schema one complete object "
                "schema per case (its properties, required and additionalProperties: false), "
                "or export it with strict=False",
            )
        return result

    def object_keys(
        self, schema: Mapping[str, Any], path: tuple[str | int, ...], result: Schema
    ) -> None:
        properties = typing.cast("Mapping[str, Any]", schema.get("properties") or {})
        extra = schema.get("additionalProperties", True)
        # patternProperties admits keys beyond the named ones too: closed, those would be lost.
        if extra is not False or schema.get("patternProperties"):
            self.refuse(
                path,
                "is an object with free-form keys (such as dict[str, T])",
                "strict mode needs additionalProperties: false, which would admit only {}; use "
                "a list of key/value objects or an attrs class, or export it with strict=False",
            )
        required = set(typing.cast("list[str]", schema.get("required") or []))
        new_properties: Schema = {}
        for key, prop in properties.items():
            child = self.node(prop, (*path, key))
            if not path and key in self.annotations:
                self.unions(key)
            if key not in required:
                child = self.optional(prop, child, (*path, key))
            new_properties[key] = child
        result["properties"] = new_properties
        result["required"] = list(new_properties)
        result["additionalProperties"] = False

    def unions(self, parameter: str) -> None:
        """Refuse a union in *parameter*'s type that only its strict form makes ambiguous."""
        found = find_strict_ambiguity(shape_of(self.annotations[parameter], strict=True))
        if found is not None:
            self.refuse(
                (parameter,),
                f"has the union {found.union}, whose variants {found.first} and {found.second} "
                "both match one value in strict mode (null standing for a default), which the "
                "first would always take",
                "tell them apart by a required field (a Literal tag), or export it with "
                "strict=False",
            )

    def optional(
        self, canonical: Mapping[str, Any], strict: Schema, path: tuple[str | int, ...]
    ) -> Schema:
        """The strict form of a property the model may leave out."""
        if self.combined:
            self.refuse(
                path,
                "is an optional property inside an allOf or oneOf (of a registered type's "
                "schema), where strict mode, which sends every property, cannot say it was left "
                "out",
                "require it there, or write the cases as anyOf, or export it with strict=False",
            )
            return strict
        if not admits_null(canonical, self.defs):
            return nullable(strict, null_sentence(canonical))
        # A boolean schema (``true``, a registered one's) has no default.
        given = isinstance(typing.cast(object, canonical), Mapping) and "default" in canonical
        if given and canonical["default"] is None:
            return strict  # null is the default: nothing to map
        if given:
            shown = json.dumps(canonical["default"], ensure_ascii=False)
            cause = f"admits null but defaults to {shown}"
            fix = "make the default None"
        else:
            # No default to make None: a TypedDict's NotRequired key, a registered type's
            # optional property.
            cause = "admits null but may also be left out"
            fix = "make it required (Required[...] for a TypedDict key)"
        self.refuse(
            path,
            cause,
            f"in strict mode null would have to mean both; {fix}, or take None out of its "
            "type, or export it with strict=False",
        )
        return strict


def _is_object(schema: Mapping[str, Any]) -> bool:
    declared = schema.get("type")
    return declared == "object" or "properties" in schema or "additionalProperties" in schema


def schema_path(path: tuple[str | int, ...]) -> str:
    """A place in an arguments schema as a JSON path: ``$.items[*].labels`` (``*``: any item)."""
    from .paths import json_path

    text = "$"
    for segment in path:
        text += "[*]" if segment == "*" else json_path([segment])[1:]
    return text


def strict_parameters(tool: str, arguments: ArgumentsVariant) -> Schema:
    """Build the strict variant of the arguments schema of the tool *tool*.

    Args:
        tool: The tool's exported name, for messages.
        arguments: Its arguments (standard form): their schema, and their types.

    Returns:
        A new JSON-ready schema: every property required, ``additionalProperties: false`` on every
        object, defaulted properties nullable with the meaning of null in their description.

    Raises:
        ExportError: Some parameter has no lossless strict form; every problem is listed.
    """
    parameters = arguments.schema
    defs = typing.cast("Mapping[str, Any]", parameters.get("$defs") or {})
    builder = _Builder(tool, defs, {p.name: p.annotation for p in arguments.properties})
    result = builder.node(parameters, ())
    if builder.new_defs:
        result["$defs"] = {
            name: builder.new_defs[name] for name in defs if name in builder.new_defs
        }
    if builder.problems:
        raise ExportError(builder.problems)
    return result
