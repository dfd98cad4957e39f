"""Reading ``tool()`` declarations during semantic analysis, and the metadata they are kept in.

A base-class hook runs on every Toolset subclass: it records the class's own declarations (both
forms, ``exports = (tool("name"), ...)`` and ``@tool`` / ``@tool(...)`` on a method) as JSON
metadata on the class, so that they reach other modules through mypy's cache, and registers the
dependencies that incremental mode and the daemon need. The class checks read them back with
`declarations_of` once the class is defined.
"""

from __future__ import annotations

from typing import Final, cast

from mypy.constant_fold import constant_fold_expr
from mypy.nodes import (
    ARG_POS,
    AssignmentStmt,
    CallExpr,
    Decorator,
    Expression,
    ListExpr,
    MemberExpr,
    NameExpr,
    OpExpr,
    OverloadedFuncDef,
    RefExpr,
    Statement,
    TupleExpr,
    TypeInfo,
    Var,
)
from mypy.plugin import ClassDefContext
from mypy.server.trigger import make_wildcard_trigger

from .fullnames import TOOL_FUNCTION, TOOL_SPEC, TOOLSET

__all__ = ["META", "META_VERSION", "Declaration", "declarations_of", "metadata", "record_class"]

#: Key of the recorded declarations in ``TypeInfo.metadata`` (JSON, stored in mypy's cache).
META: Final = "typed_toolsets"
#: Bumped when the shape of the recorded metadata changes.
META_VERSION: Final = 1


class _Dynamic:
    """Marks a value that is not a literal: the plugin cannot check it."""


_DYNAMIC: Final = _Dynamic()


def _literal_str(expr: Expression, module: str) -> str | _Dynamic | None:
    """The value of a constant string expression or ``None``; else `_DYNAMIC`.

    Literals, ``Final`` names (of any module) and constant expressions of this module
    (``"x" * 3``, ``PREFIX + "_find"``) are read, as ``tool()`` would receive them.
    """
    if isinstance(expr, NameExpr) and expr.fullname == "builtins.None":
        return None
    if isinstance(expr, RefExpr) and isinstance(expr.node, Var):
        value = expr.node.final_value
        if isinstance(value, str):
            return value
    folded = constant_fold_expr(expr, module)
    return folded if isinstance(folded, str) else _DYNAMIC


def _is_tool(expr: Expression) -> bool:
    return isinstance(expr, RefExpr) and expr.fullname == TOOL_FUNCTION


def _decl(
    method: str, tool_name: str | _Dynamic | None, expr: Expression, form: str
) -> dict[str, object]:
    return {
        "method": method,
        "tool_name": None if isinstance(tool_name, _Dynamic) else tool_name,
        "dynamic_name": isinstance(tool_name, _Dynamic),
        "line": expr.line,
        "column": expr.column,
        "form": form,
    }


def _tool_name_argument(call: CallExpr, module: str) -> str | _Dynamic | None:
    for name, arg in zip(call.arg_names, call.args, strict=True):
        if name == "tool_name":
            return _literal_str(arg, module)
    return None


def _exports_decls(expr: Expression, decls: list[dict[str, object]], module: str) -> bool:
    """Collect ``tool(...)`` calls from an ``exports`` value; False if some cannot be read."""
    if isinstance(expr, (TupleExpr, ListExpr)):
        complete = True
        for item in expr.items:
            if not (isinstance(item, CallExpr) and _is_tool(item.callee)):
                complete = False  # not a declaration: mypy's own type check reports it
                continue
            first = item.args[0] if item.args and item.arg_names[0] is None else None
            method = _literal_str(first, module) if first is not None else None
            if not isinstance(method, str):
                complete = False  # a computed method name: nothing to check statically
                continue
            decls.append(_decl(method, _tool_name_argument(item, module), item, "exports"))
        return complete
    if isinstance(expr, OpExpr) and expr.op == "+":
        left = _exports_decls(expr.left, decls, module)
        return _exports_decls(expr.right, decls, module) and left
    # `exports = Base.exports + (...)`: the inherited part is already recorded on the base.
    return isinstance(expr, (NameExpr, MemberExpr)) and expr.name == "exports"


def _decorator_decl(
    name: str, decorators: list[Expression], module: str
) -> dict[str, object] | None:
    for dec in decorators:
        if _is_tool(dec):
            return _decl(name, None, dec, "decorator")
        # `@tool(...)` with options only; a positional argument is the exports form misused.
        if isinstance(dec, CallExpr) and _is_tool(dec.callee) and ARG_POS not in dec.arg_kinds:
            return _decl(name, _tool_name_argument(dec, module), dec, "decorator")
    return None


def record_class(ctx: ClassDefContext) -> None:
    """Store the class's own declarations as metadata (idempotent: may run several times)."""
    info = ctx.cls.info
    if not info.has_base(TOOLSET) or info.fullname == TOOLSET:
        return
    ancestors = [base for base in info.mro[1:] if base.fullname != "builtins.object"]
    for base in ancestors:
        # dmypy re-checks this class when any ancestor changes (as mypy's attrs plugin does).
        ctx.api.add_plugin_dependency(make_wildcard_trigger(base.fullname))
    module = ctx.api.modules.get(ctx.api.cur_mod_id)
    refs = getattr(module, "module_refs", None)
    if isinstance(refs, set):  # coarse incremental mode on mypy 1.19 to 2.3
        refs.update(b.module_name for b in ancestors if b.module_name != ctx.api.cur_mod_id)  # pyright: ignore[reportUnknownMemberType]

    exports: list[dict[str, object]] = []
    decorated: list[dict[str, object]] = []
    complete = True
    toolset_name: str | _Dynamic | None = None
    exports_stmt: AssignmentStmt | None = None
    for stmt in ctx.cls.defs.body:
        if isinstance(stmt, AssignmentStmt) and len(stmt.lvalues) == 1:
            target = stmt.lvalues[0]
            if isinstance(target, NameExpr) and target.name == "exports":
                exports = []
                complete = _exports_decls(stmt.rvalue, exports, ctx.api.cur_mod_id)
                exports_stmt = stmt
            elif isinstance(target, NameExpr) and target.name == "toolset_name":
                toolset_name = _literal_str(stmt.rvalue, ctx.api.cur_mod_id)
                if toolset_name is None:
                    toolset_name = _DYNAMIC
        decl = _statement_decorator_decl(stmt, ctx.api.cur_mod_id)
        if decl is not None:
            decorated.append(decl)
    info.metadata[META] = {
        "version": META_VERSION,
        "decls": exports + decorated,
        "complete": complete,
        "toolset_name": toolset_name if isinstance(toolset_name, str) else None,
        "dynamic_toolset_name": isinstance(toolset_name, _Dynamic),
    }
    if exports_stmt is not None:
        _declare_exports_type(ctx, exports_stmt)


def _statement_decorator_decl(stmt: Statement, module: str) -> dict[str, object] | None:
    if isinstance(stmt, Decorator):
        return _decorator_decl(stmt.name, stmt.original_decorators, module)
    if isinstance(stmt, OverloadedFuncDef):
        # At run time the class holds the implementation (or, for a property with a setter,
        # the getter), so that is where a @tool counts.
        candidates: list[object] = [stmt.impl]
        if stmt.is_property and stmt.items:
            candidates.append(stmt.items[0])
        for item in candidates:
            if isinstance(item, Decorator):
                decl = _decorator_decl(stmt.name, item.original_decorators, module)
                if decl is not None:
                    return decl
    return None


def _declare_exports_type(ctx: ClassDefContext, stmt: AssignmentStmt) -> None:
    """Declare an unannotated ``exports = (...)`` as ``tuple[ToolSpec, ...]``.

    mypy infers ``tuple[ToolSpec, ToolSpec]`` for it despite the base's declared type
    (python/mypy#14760), and a subclass with a different number of tools would then fail with an
    ``[assignment]`` error. Declaring the type keeps mypy's check that the value is a tuple of
    `ToolSpec`.
    """
    target = stmt.lvalues[0]
    if stmt.type is not None or not isinstance(target, NameExpr):
        return
    var = target.node
    if not isinstance(var, Var) or var.info is not ctx.cls.info or not var.is_inferred:
        return
    spec = ctx.api.named_type_or_none(TOOL_SPEC)
    if spec is None:
        return
    var.type = ctx.api.named_type("builtins.tuple", [spec])
    var.is_inferred = False
    var.is_classvar = True  # as declared on Toolset; an instance variable would clash
    target.is_inferred_def = False


# ---------------------------------------------------------------------- reading them back


def metadata(info: TypeInfo) -> dict[str, object] | None:
    """What `record_class` stored on *info*, if it is of this plugin version."""
    data = info.metadata.get(META)
    if isinstance(data, dict) and data.get("version") == META_VERSION:
        return data
    return None


class Declaration:
    """One recorded declaration, as a checked class sees it after merging along the MRO.

    Attributes:
        method: The declared method's name.
        tool_name: The literal ``tool_name=``, or None.
        dynamic_name: Whether ``tool_name=`` is not a literal (the final name is unknown).
        line: The line of the ``tool(...)`` call or ``@tool`` decorator (-1 when unknown).
        column: Its column.
        declared_by: The class whose body declares it.
    """

    def __init__(self, data: dict[str, object], declared_by: TypeInfo) -> None:
        method = data.get("method")
        tool_name = data.get("tool_name")
        line, column = data.get("line"), data.get("column")
        self.method = method if isinstance(method, str) else ""
        self.tool_name = tool_name if isinstance(tool_name, str) else None
        self.dynamic_name = bool(data.get("dynamic_name"))
        self.line = line if isinstance(line, int) else -1
        self.column = column if isinstance(column, int) else -1
        self.declared_by = declared_by


def declarations_of(info: TypeInfo) -> list[Declaration]:
    """The declarations *info*'s own body makes, in order."""
    data = metadata(info)
    decls = data.get("decls") if data is not None else None
    if not isinstance(decls, list):
        return []
    # The metadata is the JSON `record_class` wrote: a list of objects with string keys.
    return [Declaration(cast("dict[str, object]", d), info) for d in cast("list[object]", decls)]
