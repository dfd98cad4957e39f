"""A class body's statements as the plugin reads them, and which bind a declaring attribute how.

The statements of the blocks of compound statements are read too (their declarations are
unknown until the class is created), and assignments to ``exports``, ``toolset_name`` and
``limits`` that are not ``name = value`` are found, to be reported rather than skipped.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Final, TypeGuard

from mypy.nodes import (
    AssignmentStmt,
    Block,
    ForStmt,
    IfStmt,
    ListExpr,
    MatchStmt,
    NameExpr,
    OperatorAssignmentStmt,
    StarExpr,
    Statement,
    TryStmt,
    TupleExpr,
    WhileStmt,
    WithStmt,
)

__all__ = ["DECLARING", "assigns", "class_statements", "unread_bindings"]

#: The class attributes whose values declare the class's tools.
DECLARING: Final = ("exports", "toolset_name", "limits")


def assigns(stmt: Statement, name: str) -> TypeGuard[AssignmentStmt]:
    """Whether *stmt* is ``name = value`` (or ``name: T = value``, or ``name = other = value``)."""
    return isinstance(stmt, AssignmentStmt) and any(
        isinstance(target, NameExpr) and target.name == name for target in stmt.lvalues
    )


def unread_bindings(stmt: Statement) -> list[tuple[str, str]]:
    """Each declaring attribute *stmt* binds in a way the plugin does not read, and how.

    ``exports, other = ...`` (a tuple target) and ``toolset_name += ...`` (an augmented
    assignment; ``exports += ...`` is read where the class body set ``exports`` before).
    """
    if isinstance(stmt, OperatorAssignmentStmt):
        target = stmt.lvalue
        if isinstance(target, NameExpr) and target.name in DECLARING:
            return [(target.name, f"`{target.name} {stmt.op}= ...`")]
        return []
    if not isinstance(stmt, AssignmentStmt):
        return []
    found: list[tuple[str, str]] = []
    targets = [t for t in stmt.lvalues if isinstance(t, (TupleExpr, ListExpr))]
    while targets:
        target = targets.pop()
        for item in target.items:
            item = item.expr if isinstance(item, StarExpr) else item
            if isinstance(item, (TupleExpr, ListExpr)):
                targets.append(item)
            elif isinstance(item, NameExpr) and item.name in DECLARING:
                found.append((item.name, "a tuple target"))
    return found


def class_statements(body: list[Statement]) -> Iterator[tuple[Statement, str | None]]:
    """The statements of a class body, with the statement each one is nested in (None at the top).

    The blocks of ``if``, ``try``, ``with``, ``for``, ``while`` and ``match`` statements are
    walked (not functions or classes), except those mypy does not analyse either (the other
    branch of a ``sys.version_info`` or ``TYPE_CHECKING`` test).
    """
    for stmt in body:
        yield stmt, None
        for block, where in _nested_blocks(stmt):
            for inner in _block_statements(block):
                yield inner, where


def _block_statements(block: Block) -> Iterator[Statement]:
    if block.is_unreachable:
        return
    for stmt in block.body:
        yield stmt
        for inner, _ in _nested_blocks(stmt):
            yield from _block_statements(inner)


def _nested_blocks(stmt: Statement) -> list[tuple[Block, str]]:
    """The blocks of a compound statement, each with how messages name the statement."""
    blocks: Sequence[Block | None]
    if isinstance(stmt, IfStmt):
        where, blocks = "an `if` statement", [*stmt.body, stmt.else_body]
    elif isinstance(stmt, TryStmt):
        where = "a `try` statement"
        blocks = [stmt.body, *stmt.handlers, stmt.else_body, stmt.finally_body]
    elif isinstance(stmt, WithStmt):
        where, blocks = "a `with` statement", [stmt.body]
    elif isinstance(stmt, ForStmt):
        where, blocks = "a `for` loop", [stmt.body, stmt.else_body]
    elif isinstance(stmt, WhileStmt):
        where, blocks = "a `while` loop", [stmt.body, stmt.else_body]
    elif isinstance(stmt, MatchStmt):
        where, blocks = "a `match` statement", stmt.bodies
    else:
        return []
    return [(block, where) for block in blocks if block is not None]
