"""Where things are in a target's source: the lines ``check`` reports problems on.

`SourceIndex` reads one file with `ast`: the line of each class, of each of its declarations
(``tool(...)`` in ``exports`` and ``@tool`` decorators, in order), of each method and of each
parameter. `attribute_accesses` and `resolve` find ``X.to_tools`` call sites and what ``X`` is.
"""

from __future__ import annotations

import ast
import importlib.util
import typing
from collections.abc import Callable, Iterator
from typing import Final

import attrs

from typed_toolsets.definition.declarations import ToolSpec, tool
from typed_toolsets.rules.names import mangle

__all__ = [
    "UNRESOLVED",
    "ClassSource",
    "FunctionSource",
    "SourceIndex",
    "attribute_accesses",
    "constant",
    "read_source",
    "resolve",
    "root_name",
]


@attrs.frozen
class FunctionSource:
    """A method: the line of its ``def`` and of each parameter, by name."""

    line: int
    params: dict[str, int]


def read_source(path: str) -> str | None:
    """The source text of the module file *path*, decoded as Python decodes it; None if unreadable.

    A byte order mark and a PEP 263 coding line are honoured (reading it as plain UTF-8 left a
    BOM the parser refuses, and refused a Latin-1 file).
    """
    try:
        with open(path, "rb") as handle:
            return importlib.util.decode_source(handle.read())
    except (OSError, SyntaxError, UnicodeDecodeError, LookupError):
        return None


@attrs.define
class ClassSource:
    """A class: the line of its ``class`` statement, its declarations and its methods.

    Attributes:
        line: The ``class`` line (also for a decorated class, as Python and mypy report it).
        decls: ``(method name, line)`` of each declaration in the class body, in order.
        functions: The methods defined in the class body, by name.
        assigned: The names the class body assigns (``toolset_name = ...``, ``find = 3``), with
            the line of the last assignment.
        items: The line of each item of the ``exports`` tuple the class holds, in its order
            (``exports += ...`` included); None when the source does not show them all.
    """

    line: int
    decls: list[tuple[str, int]] = attrs.Factory(list[tuple[str, int]])
    functions: dict[str, FunctionSource] = attrs.Factory(dict[str, FunctionSource])
    assigned: dict[str, int] = attrs.Factory(dict[str, int])
    items: list[int] | None = None
    _lines: dict[str, list[int]] | None = attrs.field(default=None, init=False, eq=False)

    def decl_lines(self, method: str) -> list[int]:
        """The lines of *method*'s declarations in `decls`, in order.

        Grouped once: a scan of `decls` per problem was quadratic in a class of thousands of
        exports.
        """
        if self._lines is None:
            self._lines = {}
            for name, line in self.decls:
                self._lines.setdefault(name, []).append(line)
        return self._lines.get(method, [])


def _accessor(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether *node* adds to a property of its own name (``@name.setter``): its getter stays."""
    return any(
        isinstance(d, ast.Attribute)
        and d.attr in ("setter", "getter", "deleter")
        and isinstance(d.value, ast.Name)
        and d.value.id == node.name
        for d in node.decorator_list
    )


def _is_overload(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    return any(
        (isinstance(d, ast.Name) and d.id == "overload")
        or (isinstance(d, ast.Attribute) and d.attr == "overload")
        for d in node.decorator_list
    )


#: The most items of an ``exports`` tuple `SourceIndex` lists lines for.
_MAX_ITEMS: Final = 10_000_000


class SourceIndex:
    """Lines of classes, declarations, methods and parameters in one source file.

    Args:
        path: The file's path (for ``ast``'s messages).
        source: Its text (a file that does not parse gives an empty index).
        namespace: The module's namespace, to recognise ``tool`` under other names.
    """

    def __init__(self, path: str, source: str, namespace: dict[str, object]) -> None:
        self.path = path
        self.classes: dict[str, ClassSource] = {}
        #: Functions outside classes, by qualified name (a method alias may name one).
        self.functions: dict[str, FunctionSource] = {}
        self._namespace = namespace
        self._is_tool = _tool_matcher(namespace)
        #: The line of each function's ``def`` that ``@tool`` marks, and the nearest such mark's.
        self.marked_defs: dict[int, int] = {}
        try:
            tree = ast.parse(source, filename=path)
        except SyntaxError:
            return
        self._walk(tree.body, "")

    def _walk(self, body: list[ast.stmt], prefix: str) -> None:
        # In source order, with a stack of its own: a long `elif` chain nests deeper than
        # Python's recursion limit.
        pending = [(stmt, prefix) for stmt in reversed(body)]
        while pending:
            node, where = pending.pop()
            inner: list[ast.stmt] = []
            if isinstance(node, ast.ClassDef):
                qualname = f"{where}{node.name}"
                self.classes[qualname] = self._class(node)
                inner, where = node.body, f"{qualname}."
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self.functions[f"{where}{node.name}"] = _function_source(node)
                self._record_marks(node)
                inner, where = node.body, f"{where}{node.name}.<locals>."
            else:
                for field in ("body", "orelse", "finalbody", "handlers"):
                    block = getattr(node, field, None)
                    if isinstance(block, list):
                        for item in block:  # pyright: ignore[reportUnknownVariableType]
                            if isinstance(item, ast.stmt):
                                inner.append(item)
                            elif isinstance(item, ast.ExceptHandler):
                                inner.extend(item.body)
            pending += [(stmt, where) for stmt in reversed(inner)]

    def function(self, qualname: str) -> FunctionSource | None:
        """The function or method *qualname* (``Class.method``, ``helper``), if in this file.

        A qualified name has the method's name as written (``Class.__find``); the class keeps
        its methods by attribute (``_Class__find``).
        """
        owner, _, name = qualname.rpartition(".")
        if not owner:
            return self.functions.get(name)
        source = self.classes.get(owner)
        if source is None:
            return self.functions.get(qualname)
        return source.functions.get(mangle(owner.rpartition(".")[2], name))

    def _class(self, node: ast.ClassDef) -> ClassSource:
        # `@attrs.define class X` reports on the `class` line in Python >= 3.8 and in mypy.
        source = ClassSource(line=node.lineno)
        exports: list[tuple[str, int]] = []
        decorated: dict[str, list[tuple[str, int]]] = {}
        held: dict[str, bool] = {}  # whether the function a name holds is marked
        for stmt in node.body:
            value: ast.expr | None = None
            for assigned in _assigned_names(stmt):
                source.assigned[mangle(node.name, assigned)] = stmt.lineno
            if isinstance(stmt, ast.Assign):
                # `exports = ALL = (...)` binds the value to each name.
                if any(isinstance(t, ast.Name) and t.id == "exports" for t in stmt.targets):
                    value = stmt.value
            elif (
                isinstance(stmt, ast.AugAssign)
                and isinstance(stmt.op, ast.Add)
                and isinstance(stmt.target, ast.Name)
                and stmt.target.id == "exports"
            ):
                exports += self._exports(stmt.value)  # the tuple the class holds grows
                grown = self._items(stmt.value)
                source.items = (
                    None if grown is None or source.items is None else source.items + grown
                )
            elif (
                isinstance(stmt, ast.AnnAssign)
                and isinstance(stmt.target, ast.Name)
                and stmt.target.id == "exports"
            ):
                value = stmt.value
            if value is not None:
                exports = list(self._exports(value))
                source.items = self._items(value)
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                # The class attribute, as Python names it (a private `__x` is `_Class__x`).
                name = mangle(node.name, stmt.name)
                if _is_overload(stmt):
                    decorated.setdefault(name, [])
                    held[name] = False  # the name holds what @overload returns
                    continue
                # Stacked `@tool`s: one declaration each, as the plugin reads them.
                marks = [(name, line) for line in self._decorator_lines(stmt)]
                previous = decorated.get(name)
                # A property's setter keeps the getter's mark; a redefinition replaces it, and
                # a marked one declares the method again when the one it replaces was marked.
                if marks and previous and held.get(name):
                    marks = previous + marks
                held[name] = bool(marks) or bool(held.get(name) and _accessor(stmt))
                decorated[name] = marks or previous or []
                if name not in source.functions or marks or not previous:
                    source.functions[name] = _function_source(stmt, node.name)
        source.decls = exports + [d for marks in decorated.values() for d in marks]
        return source

    def _exports(self, value: ast.expr, at: int | None = None) -> Iterator[tuple[str, int]]:
        """``(method, line)`` of each declaration an ``exports`` value makes, read like the plugin.

        Declarations reached through a name are reported where the name is (*at*).
        """
        if isinstance(value, (ast.Tuple, ast.List)):
            for item in value.elts:
                yield from self._exports(item, at)
        elif isinstance(value, ast.Starred):
            yield from self._exports(value.value, at or value.lineno)
        elif isinstance(value, ast.Call) and self._is_tool(value.func):
            name = self._method_name(value)
            if isinstance(name, str):  # a literal, a module constant (`Final`), or of those
                yield name, at or value.lineno
        elif isinstance(value, ast.BinOp) and isinstance(value.op, ast.Add):
            yield from self._exports(value.left, at)
            yield from self._exports(value.right, at)
        elif isinstance(value, ast.BinOp) and isinstance(value.op, ast.Mult):
            count, items = value.right, value.left
            if not isinstance(count, ast.Constant):
                count, items = value.left, value.right
            if isinstance(count, ast.Constant) and type(count.value) is int:
                yield from list(self._exports(items, at)) * max(count.value, 0)
        elif isinstance(value, (ast.Name, ast.Attribute)):
            found = resolve(value, self._namespace)
            if isinstance(found, (tuple, list)):
                specs = typing.cast("tuple[object, ...] | list[object]", found)
                for spec in specs:
                    if isinstance(spec, ToolSpec):
                        yield spec.method_name, at or value.lineno

    def _items(self, value: ast.expr, at: int | None = None) -> list[int] | None:
        """The line of each item of the tuple an ``exports`` value makes, as the class holds it.

        Items reached through a name are on the name's line (*at*). None for a value whose
        items the source does not show (a call, a name that is no tuple or list).
        """
        lines: list[int] = []
        if isinstance(value, (ast.Tuple, ast.List)):
            for item in value.elts:
                if isinstance(item, ast.Starred):
                    unpacked = self._items(item.value, at or item.lineno)
                    if unpacked is None:
                        return None
                    lines += unpacked
                else:
                    lines.append(at or item.lineno)
            return lines
        if isinstance(value, ast.BinOp) and isinstance(value.op, ast.Add):
            left, right = self._items(value.left, at), self._items(value.right, at)
            return None if left is None or right is None else left + right
        if isinstance(value, ast.BinOp) and isinstance(value.op, ast.Mult):
            count, items = value.right, value.left
            if not isinstance(count, ast.Constant):
                count, items = value.left, value.right
            repeated = self._items(items, at)
            if not isinstance(count, ast.Constant) or type(count.value) is not int:
                return None
            times: int = count.value
            if repeated is None or len(repeated) * times > _MAX_ITEMS:
                return None  # a class that never runs (under `if False:`) may hold any count
            return repeated * max(times, 0)
        if isinstance(value, (ast.Name, ast.Attribute)):
            found = resolve(value, self._namespace)
            if isinstance(found, (tuple, list)):
                return [at or value.lineno] * len(typing.cast("tuple[object, ...]", found))
        return None

    def _method_name(self, call: ast.Call) -> object:
        first: ast.expr | None = call.args[0] if call.args else None
        for keyword in call.keywords:
            if keyword.arg == "method_name":
                first = keyword.value
        if first is None:
            return None
        return constant(first, self._namespace)

    def _record_marks(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        marks = self._decorator_lines(node)
        if marks:
            self.marked_defs[node.lineno] = marks[-1]  # applied first, so the one that raises

    def _decorator_lines(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> list[int]:
        return [
            dec.lineno
            for dec in node.decorator_list
            if self._is_tool(dec)
            or (isinstance(dec, ast.Call) and self._is_tool(dec.func) and not dec.args)
        ]


def _function_source(
    node: ast.FunctionDef | ast.AsyncFunctionDef, class_name: str | None = None
) -> FunctionSource:
    """Where *node* and its parameters are; a method's parameters named as Python stores them."""
    args = node.args
    every = (
        *args.posonlyargs,
        *args.args,
        *args.kwonlyargs,
        *(x for x in (args.vararg, args.kwarg) if x is not None),
    )
    if class_name is None:
        return FunctionSource(node.lineno, {a.arg: a.lineno for a in every})
    return FunctionSource(node.lineno, {mangle(class_name, a.arg): a.lineno for a in every})


def _assigned_names(stmt: ast.stmt) -> Iterator[str]:
    if isinstance(stmt, ast.Assign):
        targets = stmt.targets
    elif isinstance(stmt, (ast.AnnAssign, ast.AugAssign)):
        targets = [stmt.target]
    else:
        return
    for target in targets:
        if isinstance(target, ast.Name):
            yield target.id


def _tool_matcher(namespace: dict[str, object]) -> Callable[[ast.expr], bool]:
    """Recognise references to `typed_toolsets.tool` (aliases and ``pkg.tool`` included)."""

    def is_tool(expr: ast.expr) -> bool:
        value = resolve(expr, namespace)
        if value is UNRESOLVED:
            return (isinstance(expr, ast.Name) and expr.id == "tool") or (
                isinstance(expr, ast.Attribute) and expr.attr == "tool"
            )
        return value is tool

    return is_tool


class _Unresolved:
    """The value of a name that cannot be found."""


UNRESOLVED: Final = _Unresolved()


def resolve(expr: ast.expr, namespace: dict[str, object]) -> object:
    """The value of a name or dotted name in *namespace*, or `UNRESOLVED`."""
    if isinstance(expr, ast.Name):
        return namespace.get(expr.id, UNRESOLVED)
    if isinstance(expr, ast.Attribute):
        base = resolve(expr.value, namespace)
        if base is UNRESOLVED:
            return UNRESOLVED
        try:
            return getattr(base, expr.attr)
        except Exception:  # noqa: BLE001 - a failing attribute means "cannot tell"
            return UNRESOLVED
    return UNRESOLVED


#: The longest string `constant` builds by repeating one (``"a" * 2``): a method name is short.
_REPEATED_CHARS: Final = 10_000


def constant(expr: ast.expr, namespace: dict[str, object]) -> object:
    """The value of a constant expression, as the mypy plugin reads a method name; or `UNRESOLVED`.

    Literals and names (`resolve`), strings joined with ``+`` or repeated with ``*``, and
    f-strings whose ``{...}`` hold such strings without a conversion or a format spec: the plugin
    reports a declaration so named on its own line, and so must ``check``.
    """
    if isinstance(expr, ast.Constant):
        return expr.value
    if isinstance(expr, ast.BinOp):
        left, right = constant(expr.left, namespace), constant(expr.right, namespace)
        if isinstance(expr.op, ast.Add) and type(left) is str and type(right) is str:
            return left + right
        if isinstance(expr.op, ast.Mult):
            text, count = (left, right) if type(left) is str else (right, left)
            if type(text) is str and type(count) is int and len(text) * count <= _REPEATED_CHARS:
                return text * count
        return UNRESOLVED
    if isinstance(expr, ast.JoinedStr):
        parts: list[str] = []
        for part in expr.values:
            if isinstance(part, ast.FormattedValue):
                if part.conversion != -1 or part.format_spec is not None:
                    return UNRESOLVED
                value = constant(part.value, namespace)
            else:
                value = constant(part, namespace)
            if type(value) is not str:
                return UNRESOLVED
            parts.append(value)
        return "".join(parts)
    return resolve(expr, namespace)


def root_name(expr: ast.expr) -> str | None:
    """The name a dotted name starts with (``a`` for ``a.b.c``), if it is one."""
    while isinstance(expr, ast.Attribute):
        expr = expr.value
    return expr.id if isinstance(expr, ast.Name) else None


def _bound_names(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> set[str]:
    args = node.args
    names = {
        a.arg
        for a in (*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg)
        if a is not None
    }
    body: list[ast.AST] = [node.body] if isinstance(node, ast.Lambda) else list(node.body)
    for stmt in body:
        for inner in ast.walk(stmt):
            if isinstance(inner, ast.Name) and isinstance(inner.ctx, ast.Store):
                names.add(inner.id)
    return names


def attribute_accesses(tree: ast.Module) -> Iterator[tuple[ast.Attribute, frozenset[str]]]:
    """Every attribute access, with the names bound locally by the enclosing functions.

    In source order, walked with a stack of its own: an expression of a thousand operands
    (``A | B | ...``) or a long ``elif`` chain nests deeper than Python's recursion limit.
    """
    pending: list[tuple[ast.AST, frozenset[str]]] = [(tree, frozenset())]
    while pending:
        node, local = pending.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            local = local | _bound_names(node)
        if isinstance(node, ast.Attribute):
            yield node, local
        children = list(ast.iter_child_nodes(node))
        pending += [(child, local) for child in reversed(children)]
