"""The ``@tool`` marks a class body puts on its methods, read during semantic analysis.

Each ``@tool`` (stacked ones each) of a method, of a property's getter and of an overloaded
method's implementation declares it; one above an ``@overload`` marks what ``@overload``
returns instead, which the run time refuses, in any class (`report_overload_marks` says so for
a class that is not a Toolset; a Toolset's are recorded and reported with its checks).
"""

from __future__ import annotations

from typing import Final

from mypy.nodes import (
    ARG_POS,
    CallExpr,
    Decorator,
    Expression,
    FuncDef,
    MemberExpr,
    NameExpr,
    OverloadedFuncDef,
    RefExpr,
    Statement,
    SymbolNode,
    get_member_expr_fullname,
)
from mypy.plugin import ClassDefContext, SemanticAnalyzerPluginInterface

from typed_toolsets.rules.kinds import OVERLOAD_MARK
from typed_toolsets.rules.names import mangle
from typed_toolsets.rules.problems import Problem, problem

from .codes import report
from .reader import Reader, span

__all__ = [
    "OVERLOAD",
    "overload_mark_problem",
    "overload_marks",
    "replaced_method",
    "report_overload_marks",
    "resolve",
    "statement_decoratordecl",
    "statement_decoratordecls",
]


#: What ``@overload`` is (as mypy names it once the decorator is analysed).
OVERLOAD: Final = frozenset({"typing.overload", "typing_extensions.overload"})


def statement_decoratordecl(reader: Reader, stmt: Statement) -> dict[str, object] | None:
    """The first declaration *stmt*'s ``@tool`` marks make, if any."""
    found = statement_decoratordecls(reader, stmt)
    return found[0] if found else None


def statement_decoratordecls(reader: Reader, stmt: Statement) -> list[dict[str, object]]:
    """The declaration each ``@tool`` mark of *stmt* (a method, decorated or overloaded) makes."""
    # The method is the class attribute, named as Python stores it (a private `__x` is `_Cls__x`).
    if isinstance(stmt, Decorator):
        return reader.decorators(mangle(reader.info.name, stmt.name), stmt.original_decorators)
    if isinstance(stmt, OverloadedFuncDef):
        # (Before mypy analyses the group, a property with a setter is known by the setter's
        # decorator alone: `is_property` is set later.)
        accessed = stmt.is_property or _accessed(stmt)
        if stmt.impl is None and not accessed and not _overloaded(reader, stmt):
            return _redefined(reader, stmt)
        # At run time the class holds the implementation (or, for a property with a setter,
        # the getter), so that is where a @tool counts.
        candidates: list[object] = [stmt.impl]
        if accessed and stmt.items:
            candidates.append(stmt.items[0])
        for item in candidates:
            if isinstance(item, Decorator):
                name = mangle(reader.info.name, stmt.name)
                # A property's getter is analysed with its setter, after this hook: its
                # decorators' names are looked up here.
                bound = [_bound(reader.api, dec) for dec in item.original_decorators]
                found = reader.decorators(name, bound)
                if found:
                    return found
    return []


#: The decorators that add to a property of the same name, keeping its getter.
_ACCESSORS: Final = frozenset({"setter", "getter", "deleter"})


def _accessed(stmt: OverloadedFuncDef) -> bool:
    """Whether *stmt* is a property with a setter (``@name.setter``) or another accessor."""
    return any(
        isinstance(dec, MemberExpr)
        and dec.name in _ACCESSORS
        and isinstance(dec.expr, NameExpr)
        and dec.expr.name == stmt.name
        for item in stmt.items[1:]
        if isinstance(item, Decorator)
        for dec in item.original_decorators
    )


def replaced_method(stmt: Statement) -> str | None:
    """The method a ``def`` (plain or decorated, not marked) binds anew, replacing its marks.

    As ``tool()`` counts them: a method marked again after it counts the replaced one's marks
    only when that one was marked. A property's setter adds to the getter: it replaces nothing.
    """
    if isinstance(stmt, FuncDef):
        return stmt.name
    if isinstance(stmt, Decorator):
        accessor = any(
            isinstance(dec, MemberExpr)
            and dec.name in _ACCESSORS
            and isinstance(dec.expr, NameExpr)
            and dec.expr.name == stmt.name
            for dec in stmt.original_decorators
        )
        return None if accessor else stmt.name
    if isinstance(stmt, OverloadedFuncDef) and not (stmt.is_property or _accessed(stmt)):
        return stmt.name
    return None


def _overloaded(reader: Reader, stmt: OverloadedFuncDef) -> bool:
    """Whether an item of *stmt* is an ``@overload`` (else mypy grouped a name's redefinitions)."""
    return any(
        ref is not None and ref.fullname in OVERLOAD
        for item in stmt.unanalyzed_items
        if isinstance(item, Decorator)
        for ref in (_bound_name(reader.api, dec) for dec in item.original_decorators)
    )


def _redefined(reader: Reader, stmt: OverloadedFuncDef) -> list[dict[str, object]]:
    """The declarations of a method defined again and again in a row (mypy's ``no-redef``).

    The class keeps the last ``def``; each ``@tool`` one replaces declares the method once more,
    back to the first that is not one (as ``tool()`` counts the marks it finds in the body).
    """
    name = mangle(reader.info.name, stmt.name)
    found: list[dict[str, object]] = []
    for item in reversed(stmt.items):
        if not isinstance(item, Decorator):
            break
        # Analysed with the methods' bodies, after this hook: their names are looked up here.
        bound = [_bound(reader.api, dec) for dec in item.original_decorators]
        marked = reader.decorators(name, bound)
        if not marked:
            break
        found = marked + found
    return found


def _bound(api: SemanticAnalyzerPluginInterface, dec: Expression) -> Expression:
    """*dec* with its name (a call's callee, for ``@tool(...)``) looked up, where it is one."""
    if isinstance(dec, CallExpr):
        callee = _bound(api, dec.callee)
        if callee is dec.callee:
            return dec
        call = CallExpr(callee, dec.args, dec.arg_kinds, dec.arg_names)
        call.set_line(dec)
        return call
    bound = _bound_name(api, dec) if isinstance(dec, RefExpr) else None
    if bound is None:
        return dec
    bound.set_line(dec)
    return bound


def overload_marks(reader: Reader, stmt: Statement) -> list[dict[str, int]]:
    """Where a ``@tool`` above an ``@overload`` of *stmt* is: it marks what ``@overload`` returns.

    The run time refuses it (``tool-cannot-mark``) as the class body runs, at the ``@tool``
    nearest the ``@overload`` (a further one never runs). (A ``@tool`` below ``@overload``
    marks a function the class does not keep either, but nothing refuses it.) mypy analyses
    the overloads with the methods' bodies, after this hook: their decorators' names are looked
    up here.
    """
    if not isinstance(stmt, OverloadedFuncDef):
        return []
    marks: list[dict[str, int]] = []
    for item in stmt.unanalyzed_items:
        if not isinstance(item, Decorator):
            continue
        decorators = item.original_decorators
        found = [_bound_name(reader.api, dec) for dec in decorators]
        overload = next(
            (i for i, ref in enumerate(found) if ref is not None and ref.fullname in OVERLOAD),
            None,
        )
        if overload is None:
            continue
        tools = [
            i for i, ref in enumerate(found[:overload]) if ref is not None and reader.is_tool(ref)
        ]
        if tools:
            marks.append(span(decorators[tools[-1]]))
    return marks


def overload_mark_problem() -> Problem:
    """The problem of a ``@tool`` above an ``@overload``, as ``tool()`` raises it."""
    return problem("tool-cannot-mark", None, got="an @overload", reason=OVERLOAD_MARK)


def report_overload_marks(ctx: ClassDefContext) -> None:
    """Each ``@tool`` above an ``@overload`` in the body of a class that is not a Toolset.

    ``tool()`` refuses it as the body runs, whatever the class: a mixin a Toolset combines later,
    a protocol, any class. A stub's body never runs.
    """
    body = ctx.cls.defs.body
    if ctx.api.is_stub_file or not any(isinstance(stmt, OverloadedFuncDef) for stmt in body):
        return  # (every class mypy analyses comes here: the cheap tests first)
    reader = Reader(ctx.api, ctx.cls.info)
    for stmt in body:
        for at in overload_marks(reader, stmt):
            where = (at["line"], at["column"], at["end_line"], at["end_column"])
            report(ctx.api, overload_mark_problem(), where)


def _bound_name(api: SemanticAnalyzerPluginInterface, dec: Expression) -> NameExpr | None:
    """What decorates (or, called with options only, its callee), looked up as a bound name."""
    if isinstance(dec, CallExpr) and ARG_POS not in dec.arg_kinds:
        dec = dec.callee
    node = resolve(api, dec) if isinstance(dec, RefExpr) else None
    if node is None:
        return None
    bound = NameExpr(node.name)
    bound.node, bound.fullname = node, node.fullname
    return bound


def resolve(api: SemanticAnalyzerPluginInterface, ref: RefExpr) -> SymbolNode | None:
    """What *ref* names, for the MRO hook, which mypy calls before it analyses the class body."""
    name = ref.name if isinstance(ref, NameExpr) else None
    if isinstance(ref, MemberExpr):
        name = get_member_expr_fullname(ref)  # `tt.Limits`
    found = api.lookup_qualified(name, ref, suppress_errors=True) if name else None
    return found.node if found is not None else None
