"""Reading the expressions of ``tool()`` declarations: names, constants, calls and tuples.

`Reader` reads what mypy can know of one class body during semantic analysis (literals,
``Final`` constants, aliases of `tool`, tuples built with ``+``, ``*`` and unpacking); what it
cannot read it records as *unchecked* (`typed_toolsets.plugin.declarations` reports it).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Final

from mypy.constant_fold import (
    ConstantValue,
    constant_fold_binary_op,
    constant_fold_expr,
    constant_fold_unary_op,
)
from mypy.nodes import (
    ARG_POS,
    ARG_STAR,
    ARG_STAR2,
    AssignmentExpr,
    AssignmentStmt,
    BytesExpr,
    CallExpr,
    ComplexExpr,
    ConditionalExpr,
    Context,
    DictExpr,
    Expression,
    FloatExpr,
    FuncDef,
    GeneratorExpr,
    IndexExpr,
    IntExpr,
    LambdaExpr,
    ListComprehension,
    ListExpr,
    MemberExpr,
    NameExpr,
    OpExpr,
    OverloadedFuncDef,
    RefExpr,
    SetExpr,
    StarExpr,
    Statement,
    StrExpr,
    TupleExpr,
    TypeInfo,
    UnaryExpr,
    Var,
)
from mypy.plugin import SemanticAnalyzerPluginInterface
from mypy.subtypes import is_same_type
from mypy.types import AnyType, get_proper_type

from .fullnames import TOOL_FUNCTION, TOOLSET
from .inline import read_inline
from .metadata import metadata, records

#: Expressions whose value is never a ToolSpec: in ``exports``, mypy reports their type.
_NO_TOOL_SPEC: Final = (
    StrExpr,
    BytesExpr,
    IntExpr,
    FloatExpr,
    ComplexExpr,
    LambdaExpr,
    TupleExpr,
    ListExpr,
    DictExpr,
    SetExpr,
    ListComprehension,
    GeneratorExpr,
)

__all__ = [
    "DYNAMIC",
    "MAX_DEPTH",
    "Dynamic",
    "Reader",
    "assignments",
    "decl",
    "describe",
    "fold",
    "span",
]

#: How deep aliases and constants are followed (``a = b``, ``b = tool``).
MAX_DEPTH: Final = 8


class Dynamic:
    """Marks a value that is not a literal: the plugin cannot check it."""


DYNAMIC: Final = Dynamic()


def assignments(body: list[Statement], name: str) -> Iterator[AssignmentStmt]:
    """The statements of *body* that assign to the name *name*."""
    for stmt in body:
        if isinstance(stmt, AssignmentStmt) and any(
            isinstance(lvalue, NameExpr) and lvalue.name == name for lvalue in stmt.lvalues
        ):
            yield stmt


def span(node: Context) -> dict[str, int]:
    """Where *node* is: its line and column, and where it ends (for editors to underline)."""
    end_line = node.end_line if node.end_line is not None else node.line
    end_column = node.end_column if node.end_column is not None else node.column
    return {
        "line": node.line,
        "column": node.column,
        "end_line": end_line,
        "end_column": end_column,
    }


#: How mypy parses the value of an f-string's ``{x}``: ``"{:{}}".format(x, spec)``, with
#: ``!r``, ``!s`` or ``!a`` before the colon for a conversion.
_FORMATTED: Final = frozenset({"{:{}}", "{!r:{}}", "{!s:{}}", "{!a:{}}"})


def _formatted(expr: Expression) -> tuple[str, Expression, Expression] | None:
    """``(format, value, spec)`` when *expr* is an f-string's formatted value, else None."""
    if (
        isinstance(expr, CallExpr)
        and isinstance(expr.callee, MemberExpr)
        and expr.callee.name == "format"
        and isinstance(expr.callee.expr, StrExpr)
        and expr.callee.expr.value in _FORMATTED
        and expr.arg_kinds == [ARG_POS, ARG_POS]
    ):
        return expr.callee.expr.value, expr.args[0], expr.args[1]
    return None


def _fstring_parts(expr: Expression) -> list[Expression] | None:
    """The parts of an f-string (literals and formatted values), else None.

    mypy parses ``f"{APP}_find"`` as ``"".join(["{:{}}".format(APP, ""), "_find"])`` (a lone
    ``f"{APP}"`` as the ``format`` call alone); the same code written by hand is the same value.
    """
    if _formatted(expr) is not None:
        return [expr]
    if not (
        isinstance(expr, CallExpr)
        and isinstance(expr.callee, MemberExpr)
        and expr.callee.name == "join"
        and isinstance(expr.callee.expr, StrExpr)
        and expr.callee.expr.value == ""
        and expr.arg_kinds == [ARG_POS]
        and isinstance(expr.args[0], ListExpr)
    ):
        return None
    parts = expr.args[0].items
    if all(isinstance(part, StrExpr) for part in parts):
        return None  # an f-string has a formatted value: this was written as a join
    if all(isinstance(part, StrExpr) or _formatted(part) is not None for part in parts):
        return parts
    return None


def describe(expr: Expression) -> str:
    """A short text for *expr* in messages: ``NAMES``, ``helpers.EXPORTS``, ``make(...)``."""
    if _fstring_parts(expr) is not None:
        return "an f-string"  # not its parse, `"".join(...)`
    if isinstance(expr, StrExpr):
        return repr(expr.value)
    if isinstance(expr, NameExpr):
        return expr.name
    if isinstance(expr, MemberExpr):
        return f"{describe(expr.expr)}.{expr.name}"
    if isinstance(expr, CallExpr):
        return f"{describe(expr.callee)}(...)"
    if isinstance(expr, (ListComprehension, GeneratorExpr)):
        return "a comprehension"
    if isinstance(expr, OpExpr):
        return f"{describe(expr.left)} {expr.op} {describe(expr.right)}"
    if isinstance(expr, IndexExpr):
        base = describe(expr.base)
        return f"an item or a slice of {base}" if base.startswith("a") else f"{base}[...]"
    if isinstance(expr, AssignmentExpr):
        return f"({describe(expr.target)} := ...)"
    if isinstance(expr, ConditionalExpr):
        return f"{describe(expr.if_expr)} if ... else {describe(expr.else_expr)}"
    if isinstance(expr, StarExpr):
        return f"*{describe(expr.expr)}"
    if isinstance(expr, TupleExpr):
        return "a tuple"
    return "(an expression)"  # set in a sentence as a name: "the method name (an expression)"


def fold(expr: Expression, module: str) -> ConstantValue | None:
    """The value of a constant expression, with the ``Final`` names of any module; else None.

    mypy's `constant_fold_expr` binds only the names of *module* (mypyc must not trust another
    module's values), while the value mypy records on an imported ``Final`` name is the one it
    checks with, and the one a name alone is read as: ``PREFIX + "_x"`` is read as ``PREFIX``
    is. The values travel through mypy's cache with the names.
    """
    if isinstance(expr, RefExpr) and isinstance(expr.node, Var):
        value = expr.node.final_value
        if value is not None:
            return value
    if isinstance(expr, OpExpr):
        left, right = fold(expr.left, module), fold(expr.right, module)
        if left is None or right is None:
            return None
        return constant_fold_binary_op(expr.op, left, right)
    if isinstance(expr, UnaryExpr):
        operand = fold(expr.expr, module)
        return None if operand is None else constant_fold_unary_op(expr.op, operand)
    return constant_fold_expr(expr, module)


class Reader:
    """Reads the declarations of one class body (semantic analysis, so expressions are bound)."""

    def __init__(self, api: SemanticAnalyzerPluginInterface, info: TypeInfo) -> None:
        self.api = api
        self.info = info
        self.module = api.cur_mod_id
        self.unchecked: list[dict[str, object]] = []
        tool = api.lookup_fully_qualified_or_none(TOOL_FUNCTION)
        node = tool.node if tool is not None else None
        self.tool_type = node.type if isinstance(node, (FuncDef, OverloadedFuncDef)) else None

    def skip(self, kind: str, node: Context, **values: str) -> None:
        """Record something that cannot be checked statically, to report it."""
        self.unchecked.append({"kind": kind, **span(node), "values": values})

    # -- values

    def constant(self, expr: Expression, depth: int = 0) -> Expression | None:
        """The value of a name bound once in this module or class body, else None."""
        if not isinstance(expr, RefExpr) or not isinstance(expr.node, Var) or depth > MAX_DEPTH:
            return None
        var = expr.node
        if var.info is self.info:
            body = self.info.defn.defs.body
        elif var.fullname == f"{self.module}.{var.name}":
            body = self.api.modules[self.module].defs
        else:
            return None
        values = [stmt.rvalue for stmt in assignments(body, var.name)]
        return values[0] if len(values) == 1 else None

    def literal_str(self, expr: Expression) -> str | Dynamic | None:
        """The value of a constant string expression or ``None``; else `DYNAMIC`.

        Literals, ``Final`` names (of any module), constant expressions of those (``"x" * 3``,
        ``PREFIX + "_find"``) and f-strings of those (``f"{PREFIX}_find"``) are
        read, as ``tool()`` would receive them.
        """
        if isinstance(expr, NameExpr) and expr.fullname == "builtins.None":
            return None
        folded = fold(expr, self.module)
        if isinstance(folded, str):
            return folded
        return self.fstring(expr)

    def fstring(self, expr: Expression) -> str | Dynamic:
        """The value of an f-string whose values are constant strings, else `DYNAMIC`.

        Only ``{value}`` without a conversion or a format spec is read: it is the string itself.
        """
        parts = _fstring_parts(expr)
        if parts is None:
            return DYNAMIC
        text: list[str] = []
        for part in parts:
            formatted = _formatted(part)
            if formatted is None:
                value: str | Dynamic | None = part.value if isinstance(part, StrExpr) else DYNAMIC
            else:
                form, inner, spec = formatted
                plain = form == "{:{}}" and isinstance(spec, StrExpr) and not spec.value
                value = self.literal_str(inner) if plain else DYNAMIC
            if not isinstance(value, str):
                return DYNAMIC
            text.append(value)
        return "".join(text)

    def is_tool(self, expr: Expression, depth: int = 0) -> bool:
        """Whether *expr* is `tool`, or an alias of it (``expose = tool``, in any module)."""
        if not isinstance(expr, RefExpr) or depth > MAX_DEPTH:
            return False
        if expr.fullname == TOOL_FUNCTION:
            return True
        var = expr.node
        if not isinstance(var, Var):
            return False
        if var.type is not None and self.tool_type is not None:
            # Another module's alias, already type checked: it has `tool`'s own type.
            return is_same_type(get_proper_type(var.type), self.tool_type)
        value = self.constant(expr, depth)
        return value is not None and self.is_tool(value, depth + 1)

    # -- the two forms

    def tool_call(self, call: CallExpr, form: str) -> dict[str, object] | None:
        """The declaration a ``tool(...)`` call makes (None when its method name is unknown)."""
        method_expr: Expression | None = None
        for name, arg, kind in zip(call.arg_names, call.args, call.arg_kinds, strict=True):
            if (name is None and kind == ARG_POS and method_expr is None) or name == "method_name":
                method_expr = arg
        if method_expr is None:
            # `tool(*NAMES)`, `tool(**OPTIONS)`: the method name may be in there.
            self.unpacked(call, None)
            return None  # `tool()` in exports: mypy reports the missing argument
        method = self.literal_str(method_expr)
        if not isinstance(method, str):
            self.skip("unchecked-method-name", method_expr, expression=describe(method_expr))
            return None
        return self.with_tool_name(decl(method, None, call, form), call)

    def with_tool_name(self, decl: dict[str, object], call: CallExpr) -> dict[str, object]:
        """*decl* with the ``tool_name=`` of *call*, or marked unknown when it is not a literal.

        Its ``inline=`` (and an inline tool's ``limits=``) are read too (`read_inline`).
        """
        read_inline(decl, call, self.skip, describe)
        if self.unpacked(call, str(decl["method"])):
            decl["tool_name_known"] = False
        for name, arg in zip(call.arg_names, call.args, strict=True):
            if name != "tool_name":
                continue
            tool_name = self.literal_str(arg)
            if isinstance(tool_name, Dynamic):
                decl["tool_name_known"] = False
                self.skip(
                    "unchecked-tool-name", arg, method=str(decl["method"]), expression=describe(arg)
                )
            else:
                decl["tool_name"] = tool_name
        return decl

    def unpacked(self, call: CallExpr, method: str | None) -> bool:
        """Record ``*args`` and ``**kwargs`` of *call* as unchecked; whether it has ``**kwargs``.

        ``**OPTIONS`` may hold any option (a ``tool_name``, ``inline=True``), ``*NAMES`` the
        method name: what they hold is decided at run time.
        """
        options = False
        for arg, kind in zip(call.args, call.arg_kinds, strict=True):
            if kind not in (ARG_STAR, ARG_STAR2):
                continue
            stars = "*" if kind == ARG_STAR else "**"
            values = {"expression": f"{stars}{describe(arg)}"}
            self.skip(
                "unchecked-arguments", arg, **values, **({"method": method} if method else {})
            )
            options = options or kind == ARG_STAR2
        return options

    def exports(self, expr: Expression, out: list[dict[str, object]], depth: int = 0) -> None:
        """Collect the declarations of an ``exports`` value; record what cannot be read."""
        if depth > MAX_DEPTH:
            self.skip("unchecked-exports", expr, expression=describe(expr))
            return
        if isinstance(expr, (TupleExpr, ListExpr)):
            for item in expr.items:
                self.exports_item(item, out, depth)
        elif isinstance(expr, OpExpr) and expr.op == "+":
            self.exports(expr.left, out, depth + 1)
            self.exports(expr.right, out, depth + 1)
        elif isinstance(expr, OpExpr) and expr.op == "*":
            self.repeated(expr, out, depth)
        elif isinstance(expr, MemberExpr) and expr.name == "exports":
            self.copied(expr, out)
        elif isinstance(expr, CallExpr) and self.is_tool(expr.callee):
            return  # a single tool(...) instead of a tuple: mypy reports the type
        else:
            if isinstance(expr, RefExpr) and isinstance(expr.node, Var):
                self.through(expr, out, depth, self.exports)
                return
            self.skip("unchecked-exports", expr, expression=describe(expr))

    def exports_item(self, item: Expression, out: list[dict[str, object]], depth: int) -> None:
        """Read one item of an exports tuple into *out* (an unpacked tuple, or a tool call)."""
        if isinstance(item, StarExpr):
            self.exports(item.expr, out, depth + 1)
        elif isinstance(item, CallExpr) and self.is_tool(item.callee):
            decl = self.tool_call(item, "exports")
            if decl is not None:
                out.append(decl)
        elif isinstance(item, CallExpr):
            self.skip("unchecked-exports", item, expression=describe(item))
        elif isinstance(item, RefExpr) and isinstance(item.node, Var):
            self.through(item, out, depth, self.exports_item)
        elif not isinstance(item, _NO_TOOL_SPEC) and not isinstance(item, RefExpr):
            # An expression that may well give a ToolSpec (``SPECS[0]``, ``a if DEBUG else b``,
            # ``(s := tool("x"))``): what it declares is not known here.
            self.skip("unchecked-exports", item, expression=describe(item))
        # Anything else (a string, a method, a literal) is not a ToolSpec: mypy reports its type.

    def through(
        self,
        ref: RefExpr,
        out: list[dict[str, object]],
        depth: int,
        read: Callable[[Expression, list[dict[str, object]], int], None],
    ) -> None:
        """Read the value of the Final constant *ref* names, as if written where *ref* is."""
        value = self.constant(ref)
        if value is None or not (isinstance(ref.node, Var) and ref.node.is_final):
            self.skip("unchecked-exports-name", ref, expression=describe(ref))
            return
        found: list[dict[str, object]] = []
        before = len(self.unchecked)
        read(value, found, depth + 1)
        # Reported in the class body: the constant may serve several classes.
        for record in (*found, *self.unchecked[before:]):
            record.update(span(ref))
        out.extend(found)

    def repeated(self, expr: OpExpr, out: list[dict[str, object]], depth: int) -> None:
        """Read a tuple of declarations repeated a constant number of times (``(...) * 2``)."""
        count = fold(expr.right, self.module)
        items = expr.left
        if not isinstance(count, int):
            count, items = fold(expr.left, self.module), expr.right
        if not isinstance(count, int) or isinstance(count, bool):
            self.skip("unchecked-exports", expr, expression=describe(expr))
            return
        once: list[dict[str, object]] = []
        self.exports(items, once, depth + 1)
        # Twice says all the checks need (a declaration made again is reported once, where it
        # is written): a count of a million made a million records, a minute of work.
        out.extend(once * min(max(count, 0), 2))

    def copied(self, expr: MemberExpr, out: list[dict[str, object]]) -> None:
        """``Base.exports``: the declarations of Base's ``exports``, made here again."""
        owner = expr.expr.node if isinstance(expr.expr, RefExpr) else None
        if not isinstance(owner, TypeInfo):
            self.skip("unchecked-exports", expr, expression=describe(expr))
            return
        for klass in owner.mro:
            if klass.fullname == TOOLSET:
                return
            data = metadata(klass)
            if data is not None and data.get("exports_set"):
                # Each keeps its place in Base's: two of them at two places are Base's own
                # repeat (reported there), one place copied twice is this class's.
                out.extend(
                    {**decl, **span(expr), "copied_from": klass.fullname, "copied_index": index}
                    for index, decl in enumerate(records(data.get("exports")))
                )
                if data.get("exports_unchecked"):
                    self.skip("unchecked-exports", expr, expression=describe(expr))
                return
            if "exports" in klass.names:
                break  # a class that is not a Toolset (or not recorded) sets it
        self.skip("unchecked-exports", expr, expression=describe(expr))

    def decorator(self, name: str, decorators: list[Expression]) -> dict[str, object] | None:
        """The declaration ``@tool`` or ``@tool(...)`` among *decorators* makes, if any.

        Of stacked ones, the outermost: the one whose mark the method keeps at run time.
        """
        found = self.decorators(name, decorators)
        return found[0] if found else None

    def decorators(self, name: str, decorators: list[Expression]) -> list[dict[str, object]]:
        """The declaration each ``@tool`` or ``@tool(...)`` among *decorators* makes, in order."""
        found: list[dict[str, object]] = []
        for dec in decorators:
            if self.is_tool(dec):
                found.append(decl(name, None, dec, "decorator"))
            # `@tool(...)` with options only; a positional argument is the exports form misused.
            elif (
                isinstance(dec, CallExpr)
                and self.is_tool(dec.callee)
                and ARG_POS not in dec.arg_kinds
            ):
                found.append(self.with_tool_name(decl(name, None, dec, "decorator"), dec))
            elif self.might_be_tool(dec):
                text = describe(dec)
                text = f"({text})" if isinstance(dec, (ConditionalExpr, OpExpr)) else text
                self.skip("unchecked-decorator", dec, method=name, expression=text)
        return found

    def might_be_tool(self, expr: Expression, depth: int = 0) -> bool:
        """Whether the decorator *expr* might be `tool` (or ``tool(...)``), for all mypy knows.

        ``@(tool if X else tool)``, ``@DECORATORS[0]``, a name of type ``Any`` (an untyped
        library's too) might be; a function, a class or a module, a call of one, a lambda, or
        an attribute of a value of a known type are not (mypy checks what they return).
        """
        if depth > MAX_DEPTH or self.is_tool(expr):
            return True
        if isinstance(expr, CallExpr):
            callee = expr.callee  # `tool("name")` as a decorator: mypy reports its type
            return not self.is_tool(callee) and self.might_be_tool(callee, depth + 1)
        if isinstance(expr, ConditionalExpr):
            return any(self.might_be_tool(e, depth + 1) for e in (expr.if_expr, expr.else_expr))
        if isinstance(expr, AssignmentExpr):
            return self.might_be_tool(expr.value, depth + 1)
        if isinstance(expr, MemberExpr) and expr.node is None:
            return self.might_be_tool(expr.expr, depth + 1)  # `obj.method`: what is `obj`?
        if not isinstance(expr, RefExpr):
            return not isinstance(expr, LambdaExpr)  # an item, an operation...
        var = expr.node
        if not isinstance(var, Var):
            return False  # a function, a class, a module (or no name: mypy reports it)
        if var.type is not None:
            return isinstance(get_proper_type(var.type), AnyType)
        value = self.constant(expr, depth)
        return value is None or self.might_be_tool(value, depth + 1)


def decl(method: str, tool_name: str | None, node: Context, form: str) -> dict[str, object]:
    """A declaration record: the method, its tool name, where it is written and its form."""
    return {"method": method, "tool_name": tool_name, **span(node), "form": form}
