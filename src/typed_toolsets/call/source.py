"""The source of the checker's generated functions (`typed_toolsets.call.nodes`), line by line.

A `Source` names the values the generated code refers to, and writes the expressions a parent
uses for its children: a leaf's checks inline, a reason written in place, a child's problems.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from typed_toolsets.types.items import inexact
from typed_toolsets.types.typespec import MISSING

from .jsonvalues import path_of
from .keywords import Scalar
from .shown import SHORT_INTS, short
from .validation import suffix_of

if TYPE_CHECKING:
    from .nodes import Node

__all__ = ["Source", "listed_reasons"]

#: The integers whose reasons generated code looks up rather than writes: 0 to 99, the numbers
#: a model most often sends in place of a string (an id, a member's position).
_LISTED_INTS: Final = 100
#: Reasons are listed for tails up to this long, and for this many tails: shared by every
#: checker, their memory is bounded whatever the schemas (14 KB a tail at most, 0.9 MB in all).
_LISTED_TAIL_CHARS: Final = 80
_LISTED_TAILS: Final = 64
_listed: Final[dict[str, tuple[str, ...]]] = {}


def listed_reasons(tail: str) -> tuple[str, ...] | None:
    """The reasons ``short(i) + tail`` of the integers 0 to 99, by index; None past the bounds.

    Written once per tail (a tail is a schema's words, the same in every tool refusing a string's
    type), so a refused small integer costs a lookup, not the writing of its reason.
    """
    found = _listed.get(tail)
    # ASCII only: a character each byte, so the bound on memory holds (an emoji takes four).
    # Two threads may both pass the count at once: a tail or two more, no harm.
    if (
        found is None
        and len(tail) <= _LISTED_TAIL_CHARS
        and tail.isascii()
        and len(_listed) < _LISTED_TAILS
    ):
        # Two threads may both write one: either table is right, and the second is kept.
        found = _listed[tail] = tuple([f"{i}{tail}" for i in range(_LISTED_INTS)])
    return found


class Source:
    """The source of generated functions, and the values it refers to by name."""

    def __init__(self) -> None:
        self.namespace: dict[str, Any] = {
            "M": MISSING,
            "P": path_of,
            "inexact": inexact,
            "S": short,
        }
        self._names: dict[int, str] = {}

    def name(self, value: object) -> str:
        """The name *value* has in the generated code."""
        found = self._names.get(id(value))
        if found is None:
            found = self._names[id(value)] = f"k{len(self._names)}"
            self.namespace[found] = value
        return found

    def reason(self, reason: Callable[[Any], str], var: str) -> str:
        """An expression over *var*: *reason* for it (written inline when it is a suffix).

        An integer `short` shows whole is written by the expression itself, without the call:
        a refused array of 20 integers costs 1.1 us less (56 ns an item, measured). The reason
        of a small one (`listed_reasons`) is looked up: 1,200 instructions less each again.
        """
        tail = suffix_of(reason)
        if tail is None:
            return f"{self.name(reason)}({var})"
        listed = listed_reasons(tail)
        tail = self.name(tail)
        low, high = SHORT_INTS
        whole = f"type({var}) is int and {low} < {var} < {high}"  # bool is not int here
        written = f"(f'{{{var}}}{{{tail}}}' if {whole} else S({var}) + {tail})"
        if listed is None:
            return written
        small = f"type({var}) is int and -1 < {var} < {len(listed)}"
        return f"({self.name(listed)}[{var}] if {small} else {written})"

    def inline(self, scalars: list[Scalar], var: str) -> str:
        """An expression over *var*: whether it passes every one of *scalars*."""
        parts = [
            c.expression.format(v=var)
            if c.expression is not None
            else f"{self.name(c.test)}({var})"
            for c in scalars
            if c.test is not None
        ]
        return " and ".join(parts) if parts else "True"

    def child_valid(self, node: Node, var: str) -> str:
        """An expression over *var*: whether it matches *node* (inline for a leaf)."""
        if node.leaf:
            return self.inline(node.scalars, var)
        return f"{self.name(node)}.valid({var}, memo)"

    def child_errors(self, node: Node, var: str, link: str, path: str | None = None) -> list[str]:
        """Lines yielding the problems of *var* (at *link*) against *node*.

        *path* is an expression of the child's path, when the parent has a cheaper one than
        the link's (a constant at the top, its own path plus a key): a problem the parent
        yields for the child (its one reason, or its guard's) is built from it.
        """
        if path is None:
            path = f"P({link})"
        if node.reason is not None:
            problem = f"yield {path}, {self.reason(node.reason, var)}"
            return [f"if not ({self.child_valid(node, var)}):", f"    {problem}"]
        errors = [f"yield from {self.name(node)}.errors({var}, {link}, memo)"]
        guard = node.guard
        if guard is not None:
            # An array of plain items is checked here: no generator of its own, one level
            # fewer for each of its problems to come through (a refused array of 20 items: 0.6 us).
            body = errors if node.items is None else node.items.inlined_lines(self, var, path)
            errors = [
                f"if not ({self.inline([guard], var)}):",
                f"    yield {path}, {self.reason(guard.reason, var)}",
                "else:",
                *(f"    {line}" for line in body),
            ]
        if node.leaf or node.quick or node.small:
            # Asked first (a valid value costs no guard): the guard only words a refusal.
            return [f"if not ({self.child_valid(node, var)}):", *(f"    {e}" for e in errors)]
        return errors
