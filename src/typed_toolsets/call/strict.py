"""The strict variant of a tool's arguments schema (OpenAI and Anthropic ``strict: true``).

Strict mode constrains the model's output to the schema, but only for a subset of JSON Schema:
every property must be listed in ``required`` and every object must have
``additionalProperties: false``. The variant built here is lossless:

- a property with a default becomes nullable (``anyOf: [..., {"type": "null"}]``), its
  ``default`` is removed and its description says what ``null`` means; the call path maps
  ``null`` back to the default, so the model can still "leave it out";
- a ``$ref`` never has sibling keywords (strict dialects ignore them): it is inlined once instead;
- what cannot be made lossless is refused with an `ExportError` naming the tool and the parameter,
  never narrowed: an object with free-form keys (``dict[str, T]``), whose strict form would admit
  only ``{}``, and an optional property that admits ``null`` but defaults to something else
  (``null`` would have to mean both).

Keywords that a provider's strict mode does not support are still here; the export dialects move
them into descriptions (our own validation, against the canonical schema, still enforces them).
"""

from __future__ import annotations

import json
import typing
from collections.abc import Mapping
from typing import Any, Final

from typed_toolsets.definition.errors import ExportError
from typed_toolsets.types.typespec import Schema, json_copy

__all__ = ["admits_null", "def_name", "null_sentence", "strict_parameters"]

#: Longest default shown in the "null means the default" sentence; longer ones are not shown.
_MAX_SHOWN_DEFAULT: Final = 120
_DEFS_PREFIX: Final = "#/$defs/"


def def_name(ref: str) -> str:
    """The ``$defs`` entry a local ``$ref`` points to (``#/$defs/Node`` gives ``Node``)."""
    return ref.removeprefix(_DEFS_PREFIX)


def admits_null(schema: Mapping[str, Any], defs: Mapping[str, Any]) -> bool:
    """Whether ``null`` may be valid against *schema* (True when the schema does not say).

    Every keyword this understands must admit null for the answer to be True; a schema it cannot
    judge (``{}``, ``not``, a user's own keywords) counts as admitting it, which errs towards
    refusing a strict export rather than changing what ``null`` means.
    """
    return _admits_null(schema, defs, set())


def _admits_null(schema: Mapping[str, Any], defs: Mapping[str, Any], seen: set[str]) -> bool:
    ref = schema.get("$ref")
    if isinstance(ref, str):
        name = def_name(ref)
        target = defs.get(name)
        if name in seen or not isinstance(target, Mapping):
            return False  # a cycle: a recursive class is an object, never null
        if not _admits_null(typing.cast("Mapping[str, Any]", target), defs, {*seen, name}):
            return False
    declared = schema.get("type")
    if isinstance(declared, str) and declared != "null":
        return False
    if isinstance(declared, list) and "null" not in declared:
        return False
    if "const" in schema and schema["const"] is not None:
        return False
    enum = schema.get("enum")
    if isinstance(enum, list) and None not in enum:
        return False
    for keyword in ("anyOf", "oneOf"):
        branches = schema.get(keyword)
        if isinstance(branches, list) and not any(
            isinstance(b, Mapping) and _admits_null(typing.cast("Mapping[str, Any]", b), defs, seen)
            for b in typing.cast("list[object]", branches)
        ):
            return False
    branches = schema.get("allOf")
    return not isinstance(branches, list) or all(
        isinstance(b, Mapping) and _admits_null(typing.cast("Mapping[str, Any]", b), defs, seen)
        for b in typing.cast("list[object]", branches)
    )


def null_sentence(schema: Mapping[str, Any]) -> str:
    """What ``null`` means for an optional property whose canonical schema is *schema*."""
    if "default" not in schema:
        return "null means it is not given."
    shown = json.dumps(schema["default"], ensure_ascii=False)
    if len(shown) > _MAX_SHOWN_DEFAULT:
        return "null means the default."
    return f"null means the default ({shown})."


def _with_sentence(description: object, sentence: str) -> str:
    if isinstance(description, str) and description.strip():
        text = description.rstrip()
        separator = " " if text.endswith((".", "!", "?", ":")) else ". "
        return text + separator + sentence
    return sentence


def _nullable(strict: Schema, sentence: str) -> Schema:
    """*strict* or null, with the meaning of null added to its description."""
    inner = dict(strict)
    description = inner.pop("description", None)
    branches: list[Any] = (
        [*inner["anyOf"], {"type": "null"}]
        if set(inner) == {"anyOf"}
        else [inner, {"type": "null"}]
    )
    return {"anyOf": branches, "description": _with_sentence(description, sentence)}


class _Builder:
    """One strict transformation: the variant of a canonical schema and the problems found."""

    def __init__(self, tool: str, defs: Mapping[str, Any]) -> None:
        self.tool = tool
        self.defs = defs
        self.new_defs: dict[str, Schema] = {}
        self.problems: list[str] = []

    def refuse(self, path: tuple[str | int, ...], cause: str, fix: str) -> None:
        where = f"parameter {path[0]!r}" if path else "the arguments object"
        at = f" at {_path_text(path)}" if len(path) > 1 else ""
        self.problems.append(
            f"Tool {self.tool!r} has no lossless strict schema: {where}{at} {cause}; {fix}"
        )

    def ensure_def(self, name: str, path: tuple[str | int, ...]) -> None:
        if name in self.new_defs or name not in self.defs:
            return
        self.new_defs[name] = {}  # in progress: a self-reference stops here
        self.new_defs[name] = self.node(self.defs[name], path)

    def node(self, schema: Mapping[str, Any], path: tuple[str | int, ...]) -> Schema:
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
            elif key in ("properties", "required", "additionalProperties"):
                continue  # rebuilt below, in this order, for objects
            else:
                result[key] = json_copy(value)
        if _is_object(schema):
            self.object_keys(schema, path, result)
        return result

    def object_keys(
        self, schema: Mapping[str, Any], path: tuple[str | int, ...], result: Schema
    ) -> None:
        properties = typing.cast("Mapping[str, Any]", schema.get("properties") or {})
        extra = schema.get("additionalProperties", True)
        if extra is not False:
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
            if key not in required:
                child = self.optional(prop, child, (*path, key))
            new_properties[key] = child
        result["properties"] = new_properties
        result["required"] = list(new_properties)
        result["additionalProperties"] = False

    def optional(
        self, canonical: Mapping[str, Any], strict: Schema, path: tuple[str | int, ...]
    ) -> Schema:
        """The strict form of a property the model may leave out."""
        if not admits_null(canonical, self.defs):
            return _nullable(strict, null_sentence(canonical))
        if "default" in canonical and canonical["default"] is None:
            return strict  # null is the default: nothing to map
        if "default" in canonical:
            shown = json.dumps(canonical["default"], ensure_ascii=False)
            cause = f"admits null but defaults to {shown}"
        else:
            cause = "admits null but may also be left out"
        self.refuse(
            path,
            cause,
            "in strict mode null would have to mean both; make the default None, or take None "
            "out of its type, or export it with strict=False",
        )
        return strict


def _is_object(schema: Mapping[str, Any]) -> bool:
    declared = schema.get("type")
    return declared == "object" or "properties" in schema or "additionalProperties" in schema


def _path_text(path: tuple[str | int, ...]) -> str:
    from .validation import json_path  # imports jsonschema: only for a refusal's message

    text = "$"
    for segment in path:
        text += "[*]" if segment == "*" else json_path([segment])[1:]
    return text


def strict_parameters(tool: str, parameters: Mapping[str, Any]) -> Schema:
    """Build the strict variant of the arguments schema *parameters* of the tool *tool*.

    Returns:
        A new JSON-ready schema: every property required, ``additionalProperties: false`` on every
        object, defaulted properties nullable with the meaning of null in their description.

    Raises:
        ExportError: Some parameter has no lossless strict form; every problem is listed.
    """
    defs = typing.cast("Mapping[str, Any]", parameters.get("$defs") or {})
    builder = _Builder(tool, defs)
    result = builder.node(parameters, ())
    if builder.new_defs:
        result["$defs"] = {
            name: builder.new_defs[name] for name in defs if name in builder.new_defs
        }
    if builder.problems:
        raise ExportError(builder.problems)
    return result
