"""``tool(..., inline=True)``: read during semantic analysis, checked with the class.

An inline tool is a sync method that the async call forms run on the event loop's thread. The
run time refuses it on an ``async def`` and when its limits set a timeout
(`typed_toolsets.definition.classes`); the plugin reads what decides that: the ``inline=``
literal, the tool's own ``limits=Limits(...)`` and the class's ``limits = Limits(...)`` along
the MRO. What is not a literal is reported as unchecked where it matters, never skipped.

Recorded in the declaration's metadata: ``inline`` (True), and for an inline declaration with
``limits=``, ``limits_set`` and ``timeout`` (its repr, or None). In the class's: ``limits_set``,
``limits_at`` and ``limits_timeout``, or ``limits_expression`` when it cannot be read; the same
for a class that is not a Toolset (a mixin), in its mixin metadata.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from mypy.nodes import (
    ARG_POS,
    ARG_STAR,
    ARG_STAR2,
    AssignmentStmt,
    CallExpr,
    Expression,
    FloatExpr,
    FuncDef,
    IntExpr,
    NameExpr,
    RefExpr,
    SymbolNode,
    TypeInfo,
    Var,
)

from typed_toolsets.rules.problems import Problem, problem

from .fullnames import LIMITS, TOOLSET
from .metadata import mixin_metadata

__all__ = ["UNREADABLE", "inline_problem", "read_inline", "record_limits", "timeout_of"]


class _Unreadable:
    """Marks a value that is not a literal."""


#: What the readers return for a value that is not a literal.
UNREADABLE: Final = _Unreadable()

#: ``skip(kind, node, **values)``: record something that cannot be checked statically.
Skip = Callable[..., None]
#: ``describe(expr)``: a short text for an expression in messages.
Describe = Callable[[Expression], str]
#: ``resolve(ref)``: what a name mypy has not bound yet refers to, or None. A mixin's body is
#: read before mypy analyses it (`declarations.record_mixin`); a Toolset's, after.
Resolve = Callable[[RefExpr], SymbolNode | None]


def _unbound(_ref: RefExpr) -> SymbolNode | None:
    return None


def _target(ref: RefExpr, resolve: Resolve) -> tuple[str, SymbolNode | None]:
    """The fullname and node *ref* refers to, from *resolve* when mypy has not bound it yet."""
    if ref.fullname:
        return ref.fullname, ref.node
    node = resolve(ref)
    return (node.fullname, node) if node is not None else ("", None)


def _literal_bool(expr: Expression) -> bool | _Unreadable:
    if isinstance(expr, NameExpr) and expr.fullname in ("builtins.True", "builtins.False"):
        return expr.fullname == "builtins.True"
    if isinstance(expr, RefExpr) and isinstance(expr.node, Var):
        value = expr.node.final_value
        if isinstance(value, bool):
            return value
    return UNREADABLE


def _literal_number(expr: Expression, resolve: Resolve) -> str | _Unreadable | None:
    """``repr`` of an int or float literal (or ``Final`` constant); None for ``None``."""
    if isinstance(expr, (IntExpr, FloatExpr)):
        return repr(expr.value)
    if isinstance(expr, RefExpr):
        fullname, node = _target(expr, resolve)
        if fullname == "builtins.None":
            return None
        value = node.final_value if isinstance(node, Var) else None
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return repr(value)
    return UNREADABLE


def timeout_of(expr: Expression, resolve: Resolve = _unbound) -> str | _Unreadable | None:
    """The ``timeout`` a literal ``Limits(...)`` call sets, as the run time's repr (None: none).

    `UNREADABLE` for anything else (a name, ``attrs.evolve(...)``, a computed timeout).
    *resolve* looks up the names mypy has not bound yet.
    """
    if not (isinstance(expr, CallExpr) and isinstance(expr.callee, RefExpr)):
        return UNREADABLE
    if _target(expr.callee, resolve)[0] != LIMITS:
        return UNREADABLE
    arguments = zip(expr.arg_names, expr.args, expr.arg_kinds, strict=True)
    for index, (name, arg, kind) in enumerate(arguments):
        if kind in (ARG_STAR, ARG_STAR2):
            return UNREADABLE
        # `timeout` is the third field of `Limits`.
        if name == "timeout" or (name is None and kind == ARG_POS and index == 2):
            return _literal_number(arg, resolve)
    return None


def read_inline(decl: dict[str, object], call: CallExpr, skip: Skip, describe: Describe) -> None:
    """Record ``inline=True`` of *call* in *decl*, and the timeout of the tool's ``limits=``."""
    options = dict(zip(call.arg_names, call.args, strict=True))
    inline_expr = options.get("inline")
    if inline_expr is None:
        return
    method = str(decl["method"])
    inline = _literal_bool(inline_expr)
    if isinstance(inline, _Unreadable):
        skip("unchecked-inline", inline_expr, method=method, expression=describe(inline_expr))
        return
    limits_expr = options.get("limits")
    if not inline:
        return
    if limits_expr is not None:
        timeout = timeout_of(limits_expr)
        if isinstance(timeout, _Unreadable):
            skip("unchecked-inline", limits_expr, method=method, expression=describe(limits_expr))
            return  # nothing more can be said of it
        decl["limits_set"] = True
        decl["timeout"] = timeout
    decl["inline"] = True


def record_limits(
    stmt: AssignmentStmt,
    data: dict[str, object],
    describe: Describe,
    at: dict[str, int],
    resolve: Resolve = _unbound,
) -> None:
    """Record a class's ``limits = ...`` (*at* is where it is written).

    *resolve* looks up the names mypy has not bound yet (in a mixin's body).
    """
    data["limits_set"] = True
    data["limits_at"] = at
    data.pop("limits_expression", None)  # a later assignment replaces an earlier one
    data.pop("limits_timeout", None)
    timeout = timeout_of(stmt.rvalue, resolve)
    if isinstance(timeout, _Unreadable):
        data["limits_expression"] = describe(stmt.rvalue)
    else:
        data["limits_timeout"] = timeout


def _class_timeout(
    info: TypeInfo, metadata: Callable[[TypeInfo], dict[str, object] | None]
) -> str | tuple[TypeInfo, str] | None:
    """The timeout of *info*'s own ``limits``, or ``(class, expression)`` when unreadable."""
    for klass in info.mro:
        if klass.fullname == TOOLSET:
            return None
        data = metadata(klass)
        if data is None and "limits" in klass.names:
            data = mixin_metadata(klass)  # a mixin that is not a Toolset sets it
            if data is None or not data.get("limits_set"):
                return klass, f"{klass.name}.limits"  # not read (the standard library's)
        if data is not None and data.get("limits_set"):
            expression = data.get("limits_expression")
            if isinstance(expression, str):
                return klass, expression
            timeout = data.get("limits_timeout")
            return timeout if isinstance(timeout, str) else None
    return None


def inline_problem(
    toolset: str,
    info: TypeInfo,
    method: str,
    *,
    declared: tuple[bool, str | None],
    function: FuncDef | None,
    metadata: Callable[[TypeInfo], dict[str, object] | None],
) -> Problem | None:
    """Why *method* of *info* cannot be inline, as the run time would say (or unchecked).

    Args:
        toolset: The class's display name.
        info: The class checked (whose ``limits`` apply when the tool sets none).
        method: The declared method.
        declared: ``(limits_set, timeout)`` of the declaration itself.
        function: The method's function, if it is one.
        metadata: Reads a class's recorded metadata.
    """
    if function is not None and function.is_coroutine:
        return problem("inline-async", toolset, method)
    limits_set, timeout = declared
    found = timeout if limits_set else _class_timeout(info, metadata)
    if isinstance(found, tuple):
        return problem("unchecked-inline", toolset, method, expression=found[1])
    if found is not None:
        return problem("inline-timeout", toolset, method, timeout=found)
    return None
