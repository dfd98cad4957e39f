"""jsonschema validation (Draft 2020-12) and the messages built from its errors.

The validator checks exactly the schema the model sees, with the library's own format checks
(`typed_toolsets.rules.formats`). Messages are ``<path>: <reason>``, written for a model to
correct its call: which argument, what was wrong, and what to send instead. This module imports
jsonschema, which the core loads only when arguments fail the fast path.
"""

from __future__ import annotations

import itertools
import typing
from collections.abc import Iterable, Iterator, Sequence, Sized
from typing import TYPE_CHECKING, Any, Final

from jsonschema import Draft202012Validator

from typed_toolsets.rules.formats import BY_FORMAT
from typed_toolsets.types.typespec import Path

if TYPE_CHECKING:
    from jsonschema.exceptions import ValidationError

__all__ = ["MAX_PROBLEMS", "Problem", "dotted_path", "json_path", "problems", "short"]

#: At most this many problems are reported for one call.
MAX_PROBLEMS: Final = 20

_TYPE_PHRASES: Final = {
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "a boolean",
    "null": "null",
    "array": "an array",
    "object": "an object",
}

#: How a keyword's failure is said when the schema's value is all it needs: ``shown`` is the
#: instance (shortened), ``value`` the keyword's value, ``size`` the instance's length (arrays).
_REASONS: Final = {
    "minimum": "{shown} is less than the minimum of {value}",
    "exclusiveMinimum": "{shown} must be greater than {value}",
    "maximum": "{shown} is greater than the maximum of {value}",
    "exclusiveMaximum": "{shown} must be less than {value}",
    "multipleOf": "{shown} is not a multiple of {value}",
    "minLength": "{shown} is shorter than {value} characters",
    "maxLength": "{shown} is longer than {value} characters",
    "minItems": "has {size} items, fewer than the minimum of {value}",
    "maxItems": "has {size} items, more than the maximum of {value}",
    "uniqueItems": "has duplicate items; every item must be different",
    "minProperties": "has fewer than {value} entries",
    "maxProperties": "has more than {value} entries",
}

Problem = tuple[Path, str]


def json_path(path: Iterable[str | int]) -> str:
    """Write a path as a JSON path: ``$.owner.age``, ``$.tags[3]``, ``$['odd key']``."""
    parts = ["$"]
    for item in path:
        if isinstance(item, int):
            parts.append(f"[{item}]")
        elif item.isidentifier():
            parts.append(f".{item}")
        else:
            parts.append(f"[{item!r}]")
    return "".join(parts)


def dotted_path(path: Iterable[str | int]) -> str:
    """Write a path for a message: ``owner.age``, ``tags[3]``; the root itself is ``$``."""
    text = json_path(path)
    if text == "$":
        return "$"
    return text[2:] if text.startswith("$.") else text[1:]


def short(value: object, limit: int = 60) -> str:
    """A ``repr`` of *value*, cut to *limit* characters."""
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001 - e.g. an int over the interpreter's digit limit
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else f"{text[: limit - 4]}...{text[-1]}"


def _as_dict(value: object) -> dict[str, Any]:
    """*value* if it is a dict (a JSON object or schema), else an empty one."""
    return typing.cast("dict[str, Any]", value) if isinstance(value, dict) else {}


def _expectation(given: object) -> str:
    """Describe in a few words what a (sub)schema accepts."""
    schema = _as_dict(given)
    if not schema:
        return "a valid value"
    if "const" in schema:
        return short(schema["const"])
    if "enum" in schema:
        return f"one of {short(schema['enum'], 120)}"
    if "$ref" in schema:
        return f"a {str(schema['$ref']).rsplit('/', 1)[-1]} object"
    declared = schema.get("type")
    if isinstance(declared, str):
        phrase = _TYPE_PHRASES.get(declared, declared)
        fmt = schema.get("format")
        if isinstance(fmt, str) and fmt in BY_FORMAT:
            return BY_FORMAT[fmt].hint
        return phrase
    options: list[object] = schema.get("anyOf", [])
    if options:
        return _join([_expectation(s) for s in options])
    return "a valid value"


def _join(phrases: Sequence[str]) -> str:
    unique = list(dict.fromkeys(phrases))
    if len(unique) == 1:
        return unique[0]
    return ", ".join(unique[:-1]) + " or " + unique[-1]


def _reason(error: ValidationError) -> str:
    keyword = error.validator
    value: Any = typing.cast(Any, error.validator_value)
    instance = error.instance
    shown = short(instance)
    if keyword == "type":
        expected = [value] if isinstance(value, str) else list(value)
        return f"{shown} is not of type {_join([repr(t) for t in expected])}"
    if keyword == "enum":
        return f"{shown} is not one of {short(value, 200)}"
    if keyword == "const":
        return f"{shown} is not {short(value)}, the only accepted value"
    if keyword == "format":
        row = BY_FORMAT.get(value)
        return f"{shown} is not {row.hint if row is not None else f'a valid {value}'}"
    template = _REASONS.get(str(keyword))
    if template is not None:
        size = len(typing.cast("Sized", instance)) if isinstance(instance, list) else 0
        return template.format(shown=shown, value=value, size=size)
    return error.message if len(error.message) <= 200 else short(error.message, 200)


def _property_names(schema: object) -> list[str]:
    return list(_as_dict(_as_dict(schema).get("properties")))


def _expand(error: ValidationError, root: bool) -> Iterator[Problem]:
    """The problems one jsonschema error stands for."""
    path: Path = tuple(error.absolute_path)
    keyword = error.validator
    at_root = root and not path
    if keyword == "required":
        instance = _as_dict(error.instance)
        noun = "argument" if at_root else "field"
        names: list[str] = typing.cast(Any, error.validator_value)
        for name in names:
            if name not in instance:
                yield (*path, name), f"missing required {noun}"
        return
    if keyword == "additionalProperties" and error.validator_value is False:
        allowed = _property_names(error.schema)
        instance = _as_dict(error.instance)
        noun = "argument" if at_root else "field"
        expected = ", ".join(allowed) if allowed else "nothing"
        for name in instance:
            if name not in allowed:
                yield (*path, name), f"unexpected {noun}; expected only: {expected}"
        return
    if keyword in ("anyOf", "oneOf"):
        yield from _union_problems(error, root)
        return
    yield path, _reason(error)


def _union_problems(error: ValidationError, root: bool) -> Iterator[Problem]:
    path: Path = tuple(error.absolute_path)
    branches: dict[int, list[ValidationError]] = {}
    for sub in error.context or ():
        branches.setdefault(int(sub.relative_schema_path[0]), []).append(sub)
    # A branch "got somewhere" when the value had its shape: its errors are not about the value's
    # type, enum or constant at this very path.
    shallow = {"type", "enum", "const", "format"}
    progressed = [
        errors
        for _, errors in sorted(branches.items())
        if not any(tuple(e.absolute_path) == path and e.validator in shallow for e in errors)
    ]
    if progressed:
        for sub in progressed[0]:
            yield from _expand(sub, root)
        return
    options: list[Any] = typing.cast(Any, error.validator_value)
    expected = _join([_expectation(option) for option in options])
    yield path, f"{short(error.instance)} is not valid here; expected {expected}"


def problems(validator: Draft202012Validator, instance: object) -> tuple[list[Problem], bool]:
    """Validate *instance*; return up to `MAX_PROBLEMS` problems and whether more were found.

    Problems come in jsonschema's order (the schema's keyword order, then the instance's), with
    duplicates removed, so the same input always gives the same message.
    """
    found: list[Problem] = []
    seen: set[Problem] = set()
    more = False
    # types-jsonschema leaves part of iter_errors' signature unknown.
    errors: Iterator[ValidationError] = validator.iter_errors(typing.cast(Any, instance))  # pyright: ignore[reportUnknownMemberType]
    stream = itertools.chain.from_iterable(_expand(error, root=True) for error in errors)
    for problem in stream:
        if problem in seen:
            continue
        if len(found) == MAX_PROBLEMS:
            more = True
            break
        seen.add(problem)
        found.append(problem)
    return found, more
