"""The supported annotation table, by fully qualified name, and the JSON kinds of its scalars.

Standard library only: the mypy plugin imports this module on every run.
"""

from __future__ import annotations

from typing import Final

from .formats import BY_FULLNAME, FORMAT_TYPES

__all__ = [
    "FORMAT_NAMES",
    "MAPPING_ORIGINS",
    "NUMBER_KINDS",
    "NUMERIC_NAMES",
    "SCALAR_NAMES",
    "SEQUENCE_ORIGINS",
    "SET_ORIGINS",
    "scalar_kinds",
]

# The runtime type registry matches
# classes and generic origins against these; the mypy plugin matches mypy's fullnames (which use
# the ``typing`` spelling for the abstract collections). The scalars include the format types of
# `typed_toolsets.rules.formats`.
SCALAR_NAMES: Final = frozenset(
    {
        "builtins.str",
        "builtins.int",
        "builtins.float",
        "builtins.bool",
        *(row.fullname for row in FORMAT_TYPES),
    }
)
NUMERIC_NAMES: Final = frozenset({"numbers.Real"})
SEQUENCE_ORIGINS: Final = frozenset(
    {
        "builtins.list",
        "collections.abc.Sequence",
        "collections.abc.MutableSequence",
        "typing.Sequence",
        "typing.MutableSequence",
        "typing.List",
    }
)
SET_ORIGINS: Final = frozenset(
    {
        "builtins.set",
        "builtins.frozenset",
        "collections.abc.Set",
        "collections.abc.MutableSet",
        "typing.AbstractSet",
        "typing.MutableSet",
        "typing.Set",
        "typing.FrozenSet",
    }
)
MAPPING_ORIGINS: Final = frozenset(
    {
        "builtins.dict",
        "collections.abc.Mapping",
        "collections.abc.MutableMapping",
        "typing.Mapping",
        "typing.MutableMapping",
        "typing.Dict",
    }
)

#: The JSON Schema formats of the scalar table, by class fullname (see `rules.formats`).
FORMAT_NAMES: Final = {row.fullname: row.format_name for row in FORMAT_TYPES}

#: The JSON kinds a number (float, ``numbers.Real``, ``int | float``) admits.
NUMBER_KINDS: Final = frozenset({"integer", "number"})


def scalar_kinds(fullname: str) -> frozenset[str] | None:
    """The JSON value kinds a scalar of the type table admits, by class fullname.

    Kinds are ``null``, ``boolean``, ``integer`` (including integral floats such as ``2.0``),
    ``number`` (other numbers), ``string``, ``array`` and ``object``. Returns None for a name
    that is not a scalar.
    """
    if fullname == "builtins.str":
        return frozenset({"string"})
    row = BY_FULLNAME.get(fullname)
    if row is not None:
        return frozenset({row.json_kind})
    if fullname == "builtins.bool":
        return frozenset({"boolean"})
    if fullname == "builtins.int":
        return frozenset({"integer"})
    if fullname == "builtins.float" or fullname in NUMERIC_NAMES:
        return NUMBER_KINDS
    if fullname == "builtins.NoneType":
        return frozenset({"null"})
    return None
