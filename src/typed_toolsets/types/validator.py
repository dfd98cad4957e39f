"""The jsonschema validator (Draft 2020-12) of a schema, with the library's own format checks.

Importing this module imports jsonschema, so the type layer loads it lazily: only to explain
arguments the fast path refuses, and to check a user-registered type's values.
"""

from __future__ import annotations

import functools
import json
import re
import threading
import typing
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Final

from jsonschema import (
    Draft202012Validator,
    FormatChecker,
    ValidationError,
    validators,
)

from typed_toolsets.rules.formats import FORMAT_TYPES

from .annotated import not_multiple
from .bounded import keep_recent
from .strict import open_schema_nulls
from .typespec import Schema

__all__ = ["format_checker", "make_validator", "strict_reading"]


def _format_check(parse: Any) -> Any:
    def check(instance: object) -> bool:
        if isinstance(instance, str):
            parse(instance)
        return True

    return check


def format_checker() -> FormatChecker:
    """A format checker enforcing exactly the library's formats (the rows of `FORMAT_TYPES`)."""
    checker = FormatChecker(formats=())
    for row in FORMAT_TYPES:
        checker.checks(row.format_name, raises=ValueError)(_format_check(row.parse))
    return checker


def _multiple_of(
    validator: Draft202012Validator, divisor: Any, instance: Any, _schema: Any
) -> Iterator[ValidationError]:
    """The ``multipleOf`` of jsonschema, deciding where its own raises (`not_multiple`)."""
    if validator.is_type(instance, "number") and not_multiple(instance, divisor):
        yield ValidationError(f"{instance!r} is not a multiple of {divisor}")


#: jsonschema's own ``additionalProperties``.
_JSONSCHEMA_ADDITIONAL: Final = typing.cast(
    "Callable[..., Iterator[ValidationError]]",
    Draft202012Validator.VALIDATORS["additionalProperties"],
)


def _additional_properties(
    validator: Draft202012Validator, extra: Any, instance: Any, schema: Any
) -> Iterator[ValidationError]:
    """The ``additionalProperties`` keyword, checking an object's members in the object's order.

    jsonschema's own goes through a set of the keys, whose order changes with the hash seed of
    each process: the problems of a refusal came in another order on every run.
    """
    if validator.is_type(extra, "object") and validator.is_type(instance, "object"):
        declared = schema.get("properties", {})
        patterns = "|".join(schema.get("patternProperties", {}))
        for key in instance:
            if key not in declared and not (patterns and re.search(patterns, key)):
                yield from validator.descend(instance[key], extra, path=key)  # pyright: ignore[reportUnknownMemberType]
        return
    # False (and true): one error naming the keys, sorted; no order to keep.
    yield from _JSONSCHEMA_ADDITIONAL(validator, extra, instance, schema)


#: Draft 2020-12 with a ``multipleOf`` that gives a verdict on an integer past the float range
#: over a float divisor, where jsonschema's own lets an ``OverflowError`` escape, and an
#: ``additionalProperties`` whose problems keep the object's order.
_extend = typing.cast("Callable[..., type[Draft202012Validator]]", validators.extend)  # untyped
_Validator: Final = _extend(
    Draft202012Validator,
    {"multipleOf": _multiple_of, "additionalProperties": _additional_properties},
)


def make_validator(schema: Schema) -> Draft202012Validator:
    """Build a Draft 2020-12 validator for *schema* with the library's format checks."""
    return _Validator(schema, format_checker=format_checker())


def metaschema_problem(schema: Schema) -> str | None:
    """Why *schema* is not a Draft 2020-12 schema, as its metaschema says; None when it is one.

    The first error, as ``check_schema`` finds it, from a validator of the metaschema built
    once (``check_schema`` builds one per schema). Checking costs about 0.6 ms (the metaschema
    is mostly references): the verdicts on the last schemas checked are kept by their text, as
    many types are registered with one schema.
    """
    key = json.dumps(schema, sort_keys=True)
    if key in _verdicts:
        return _verdicts[key]
    found: str | None = None
    for error in _metaschema().iter_errors(schema):  # pyright: ignore[reportUnknownMemberType]
        where = "".join(f"/{part}" for part in error.path) or "the top level"
        found = f"it is not a Draft 2020-12 JSON Schema: at {where}, {error.message}"
        break
    with _verdicts_lock:  # schemas' texts come from users: kept within the caches' bound
        _verdicts[key] = found
        keep_recent(_verdicts)
    return found


#: The metaschema's verdicts on schemas, by their text (`metaschema_problem`).
_verdicts: dict[str, str | None] = {}
_verdicts_lock: Final = threading.Lock()


@functools.cache
def _metaschema() -> Draft202012Validator:
    """The validator ``Draft202012Validator.check_schema`` checks a schema with, built once."""
    meta = Draft202012Validator.META_SCHEMA
    found: Any = validators.validator_for(meta, default=Draft202012Validator)
    return typing.cast("Draft202012Validator", found(meta, format_checker=found.FORMAT_CHECKER))


def _valid(schema: Mapping[str, Any], value: Any) -> bool:
    validator: Any = make_validator(dict(schema))
    return bool(validator.is_valid(value))


def strict_reading(
    schema: Schema, structure: Callable[[Any], Any]
) -> tuple[Schema, Callable[[Any], Any]]:
    """The strict form of a registered type's *schema* and *structure* (`open_schema_nulls`).

    ``null`` for a property the schema makes optional (and whose schema does not admit null) is
    that property left out, as the strict export tells the model; the schema admits it.
    """
    opened = open_schema_nulls(schema, _valid)
    if opened is None:
        return schema, structure
    strict_schema, drop = opened
    return strict_schema, lambda value: structure(drop(value))
