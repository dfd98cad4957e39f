"""Definition problems: their codes and how one is written.

Standard library only: the mypy plugin imports this module on every run.
"""

from __future__ import annotations

from typing import Final

__all__ = ["PROBLEM_CODES", "problem"]

#: Error codes, shared by the runtime messages and the mypy plugin (``toolset-<code>``).
PROBLEM_CODES: Final = frozenset(
    {
        "unknown-method",
        "not-a-method",
        "duplicate-name",
        "invalid-name",
        "signature",
        "param-type",
        "init",
        "ambiguous-union",
    }
)


def problem(class_name: str, method_name: str | None, code: str, cause: str) -> str:
    """Format one definition problem: the class, the method, the cause and its code."""
    where = class_name if method_name is None else f"{class_name}.{method_name}"
    return f"{where}: {cause} [toolset-{code}]"
