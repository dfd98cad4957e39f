"""The values of an ``enum.Flag``: its members' and every combination of them.

A Flag's members combine (``Perm.READ | Perm.WRITE`` is a ``Perm`` of value 3), so its JSON
enum lists every value the type takes, for the run time and the plugin alike.

Standard library only: the mypy plugin imports this module on every run.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

__all__ = ["MAX_FLAG_VALUES", "flag_values"]

#: The most values a Flag's JSON enum lists (ten independent members give 1,024).
MAX_FLAG_VALUES: Final = 1024


def flag_values(values: Sequence[int]) -> list[int] | None:
    """Every value of a Flag whose members have *values* (in declaration order), or None.

    The members' values come first, each once, in declaration order; then the other
    combinations of them in ascending order, 0 (no member) among them. None when there are more
    than `MAX_FLAG_VALUES`: no JSON enum should list them all.
    """
    combined = {0}
    for value in values:
        combined |= {value | other for other in combined}
        if len(combined) > MAX_FLAG_VALUES:
            return None
    declared = list(dict.fromkeys(values))
    return declared + sorted(combined.difference(declared))
