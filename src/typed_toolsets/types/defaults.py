"""A default value's JSON form, as a schema's ``"default"`` shows it, checked against its type.

A method's parameters and a struct's fields share it (`typed_toolsets.definition.methods`,
`.structs.object_schema`).
"""

from __future__ import annotations

import json
import typing
from collections.abc import Callable
from typing import Any

from .typespec import MAX_INT_DIGITS, NoJSONFormError, Reject, Schema, TypeSpec, has_long_int

__all__ = ["NonFiniteDefaultError", "json_default"]


class NonFiniteDefaultError(ValueError):
    """A default whose JSON form the type admits holds NaN or an infinity, which JSON cannot write.

    Such a default is kept out of the schema (the method gets it when the argument is left out),
    as a float's ``math.inf`` is.
    """

    def __init__(self) -> None:
        super().__init__("its JSON form holds NaN or an infinity, which JSON cannot write")


def json_default(default: object, spec: TypeSpec) -> object:
    """Return the JSON form of *default*, checked against *spec*.

    Raises:
        ValueError: The default has no JSON form the schema admits; the message says why.
    """
    try:
        value = spec.unstructure(default)
    except NoJSONFormError as exc:  # the type's own words
        raise ValueError(str(exc)) from None
    except Exception as exc:  # noqa: BLE001 - any failure means "no JSON form"
        msg = f"{type(exc).__name__}: {exc}"
        raise ValueError(msg) from None
    try:
        spec.structure(value)
    except Reject:
        raise ValueError(_schema_refusal(spec.schema, value)) from None
    except Exception as exc:  # noqa: BLE001 - any failure means "no JSON form"
        msg = f"{type(exc).__name__}: {exc}"
        raise ValueError(msg) from None
    if has_long_int(value):
        msg = f"its JSON form holds an integer of more than {MAX_INT_DIGITS:,} digits"
        raise ValueError(msg)
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError) as exc:
        # A registered type's unstructure hook handed back what JSON cannot write (an object of
        # its own, a list holding itself): no schema can carry it as a default.
        msg = f"its JSON form is not JSON ({exc}); unstructure must return JSON values"
        raise ValueError(msg) from None
    try:
        # Written above with NaN allowed, so only a number that is not finite fails here (a
        # registered type's hook may write Decimal("NaN") as a float).
        json.dumps(value, allow_nan=False)
    except ValueError:
        raise NonFiniteDefaultError from None
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        # Every export would carry it, and no JSON text (nor the call path) takes it.
        code = ord(exc.object[exc.start])
        msg = f"its JSON form holds a lone surrogate (U+{code:04X}), which no JSON text can carry"
        raise ValueError(msg) from None
    return value


def _schema_refusal(schema: Schema, value: object) -> str:
    """Why *schema* refuses *value* (a default's JSON form), in the validator's words.

    Said for a definition problem only: jsonschema is imported here, not on a call.
    """
    fallback = "its JSON form does not match the annotation's schema"
    try:
        from jsonschema import exceptions

        from .validator import make_validator

        # types-jsonschema leaves part of these signatures unknown.
        best_match = typing.cast("Callable[[object], Any]", exceptions.best_match)
        validator: Any = make_validator(schema)
        error = best_match(validator.iter_errors(value))
    except Exception:  # noqa: BLE001 - a schema it cannot read alone (a $ref): said generally
        return fallback
    return fallback if error is None else str(error.message)
