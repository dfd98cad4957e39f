"""Literal values (``enum``, ``const``) a dialect that lists scalars only cannot say.

Only a registered type's schema has them (a ``Literal`` or an ``Enum`` is made of scalars).
Anthropic's strict mode takes an ``enum`` or ``const`` of strings, numbers, booleans and null
only, and an ``enum`` with at least one value (its SDK's own transform refuses the rest). Gemini
lists strings and types the other values; an object or array value would need its properties
or items named.
"""

from __future__ import annotations

import json
import typing
from collections.abc import Mapping
from typing import Any

from typed_toolsets.call.shown import short_text

__all__ = ["unsayable_literal"]


def unsayable_literal(schema: Mapping[str, Any]) -> str | None:
    """What *schema* lists that is not a string, number, boolean or null, or None.

    Returns:
        A phrase after "has", as ``the value {"a": 1} in its enum``; an ``enum`` without values
        (no value valid) is one too.
    """
    listed: list[tuple[str, object]] = []
    if "const" in schema:
        listed.append(("const", schema["const"]))
    enum: object = schema.get("enum")
    if isinstance(enum, list):
        values = typing.cast("list[object]", enum)
        if not values:
            return "an enum with no values (no value is valid)"
        listed += [("enum", value) for value in values]
    for key, value in listed:
        if isinstance(value, (dict, list)):
            shown = short_text(json.dumps(value, ensure_ascii=False))
            return f"the value {shown} in its {key}"
    return None
