"""The jsonschema validator (Draft 2020-12) of a schema, with the library's own format checks.

Importing this module imports jsonschema, so the type layer loads it lazily: only to explain
arguments the fast path refuses, and to check a user-registered type's values.
"""

from __future__ import annotations

from typing import Any

from jsonschema import Draft202012Validator, FormatChecker

from typed_toolsets.rules.formats import FORMAT_TYPES

from .typespec import Schema

__all__ = ["format_checker", "make_validator"]


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


def make_validator(schema: Schema) -> Draft202012Validator:
    """Build a Draft 2020-12 validator for *schema* with the library's format checks."""
    return Draft202012Validator(schema, format_checker=format_checker())
