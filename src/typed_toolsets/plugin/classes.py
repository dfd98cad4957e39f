"""The checks of a Toolset class once it is defined (checks 1 to 4), mirroring `build_class`.

At type-check time mypy simulates one ``__init_subclass__`` call per class definition; the hook
on it (`check_class_hook`) runs every check once the whole class, its bases and the
attrs-generated ``__init__`` are known. The declarations come from the metadata recorded during
semantic analysis (`typed_toolsets.plugin.declarations`); each problem is a
`typed_toolsets.rules.problems.Problem`, reported with the runtime's words.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from mypy.nodes import (
    CallExpr,
    ClassDef,
    Decorator,
    FuncDef,
    MemberExpr,
    NameExpr,
    OverloadedFuncDef,
    Statement,
    SymbolNode,
    TypeInfo,
    Var,
)
from mypy.plugin import CheckerPluginInterface, MethodContext
from mypy.types import AnyType, CallableType, Overloaded, Type, get_proper_type

from typed_toolsets.rules.names import (
    API_NAMES,
    close_matches,
    default_toolset_name,
    final_tool_name,
    tool_name_problem,
)
from typed_toolsets.rules.problems import Problem, problem

from .codes import report
from .declarations import META, Declaration, declarations_of, metadata
from .fullnames import TOOLSET
from .signatures import SignatureCheck, function_of
from .typeinfo import attrs_field_names

__all__ = ["ClassCheck", "check_class_hook", "display_name", "is_plain_function"]


def check_class_hook(ctx: MethodContext, registered: frozenset[str]) -> Type:
    """The ``__init_subclass__`` method hook: check the class being defined, if it is a Toolset."""
    info = _class_being_defined(ctx)
    if info is not None and META in info.metadata and info.has_base(TOOLSET):
        ClassCheck(ctx.api, info, registered).run()
    return ctx.default_return_type


def _class_being_defined(ctx: MethodContext) -> TypeInfo | None:
    """The class whose definition made mypy simulate this ``__init_subclass__`` call, if any."""
    call = ctx.context
    if not isinstance(call, CallExpr) or not isinstance(call.callee, MemberExpr):
        return None
    expr = call.callee.expr
    if not isinstance(expr, NameExpr) or not isinstance(expr.node, TypeInfo):
        return None
    name, line = expr.name, call.line
    tscope = getattr(ctx.api, "tscope", None)
    classes = getattr(tscope, "classes", None)
    if isinstance(classes, list) and classes:
        info = classes[-1]  # pyright: ignore[reportUnknownVariableType]
        if isinstance(info, TypeInfo) and info.name == name and info.defn.line == line:
            return info
    # Classes inside functions are not on the scope stack: look for the definition.
    function = getattr(tscope, "function", None)
    body = getattr(getattr(function, "body", None), "body", None)
    if isinstance(body, list):
        for found in _class_defs(body):  # pyright: ignore[reportUnknownArgumentType]
            if found.name == name and found.line == line:
                return found.info
    return None


_NESTED: Final = ("body", "else_body", "finally_body", "handlers", "bodies", "defs", "func")


def _class_defs(statements: list[Statement]) -> Iterator[ClassDef]:
    """Every class definition in *statements*, at any depth (blocks, nested functions...)."""
    for stmt in statements:
        if isinstance(stmt, ClassDef):
            yield stmt
        # Statement nodes hold nested code as a Block, a list of Blocks, or a function.
        for attribute in _NESTED:
            child: object = getattr(stmt, attribute, None)
            children: list[object] = list(child) if isinstance(child, list) else [child]  # pyright: ignore[reportUnknownArgumentType]
            for item in children:
                if isinstance(item, (FuncDef, Decorator)):
                    item = item.func if isinstance(item, Decorator) else item
                    item = item.body
                inner = getattr(item, "body", None)
                if isinstance(inner, list):
                    yield from _class_defs(inner)  # pyright: ignore[reportUnknownArgumentType]


def display_name(info: TypeInfo) -> str:
    """The class's qualified name as Python shows it (``Outer.Inner``), without the module.

    Classes defined in a function are known to mypy as ``Name@line``; show the plain name.
    """
    name = info.fullname
    if name.startswith(info.module_name + "."):
        name = name[len(info.module_name) + 1 :]
    return name.split("@", 1)[0]


class _Found:
    """An attribute found by name in a class's MRO: the class that defines it, and its node."""

    def __init__(self, owner: TypeInfo, node: SymbolNode | None) -> None:
        self.owner = owner
        self.node = node


def _lookup(info: TypeInfo, name: str) -> _Found | None:
    for klass in info.mro:
        sym = klass.names.get(name)
        if sym is not None:
            return _Found(klass, sym.node)
    return None


class ClassCheck:
    """Runs checks 1 to 6 and 8 on one class definition, mirroring `build_class`."""

    def __init__(
        self, api: CheckerPluginInterface, info: TypeInfo, registered: frozenset[str]
    ) -> None:
        self.api = api
        self.info = info
        self.name = display_name(info)
        self.signatures = SignatureCheck(api, info, self.name, registered)

    def where(self, decl: Declaration) -> tuple[int, int]:
        """Own declarations are reported where they are written, inherited ones on the class."""
        if decl.declared_by is self.info and decl.line > 0:
            return decl.line, decl.column
        return self.info.defn.line, self.info.defn.column

    # -- names

    def toolset_name(self, info: TypeInfo) -> str | None:
        """The ``toolset_name`` *info* has at run time, or None when it is not a literal."""
        for klass in info.mro:
            if klass.fullname == TOOLSET:
                return default_toolset_name(info.name)
            data = metadata(klass)
            if data is not None:
                if data.get("dynamic_toolset_name"):
                    return None
                name = data.get("toolset_name")
                if isinstance(name, str):
                    return name
            elif "toolset_name" in klass.names:
                return None  # set by a mixin: its value is not recorded
        return None

    @staticmethod
    def final_name(decl: Declaration, toolset_name: str | None) -> str | None:
        """The exported name of *decl*, or None when it is not known statically."""
        if decl.dynamic_name:
            return None
        if decl.tool_name is not None:
            return decl.tool_name
        if toolset_name is None:
            return None
        return final_tool_name(toolset_name, decl.method, None)

    # -- the checks

    def merged(self) -> list[Declaration]:
        """Bases' declarations first (re-declarations keep their place), then the class's own."""
        merged: dict[str, Declaration] = {}
        for klass in reversed(self.info.mro[1:]):
            for decl in declarations_of(klass):
                merged[decl.method] = decl
        seen: set[str] = set()
        for decl in declarations_of(self.info):
            if decl.method in seen:
                report(
                    self.api, problem("declared-twice", self.name, decl.method), self.where(decl)
                )
            seen.add(decl.method)
            merged[decl.method] = decl
        return list(merged.values())

    def inherited_method(self, decl: Declaration, found: _Found | None) -> bool:
        """Whether an inherited declaration still resolves to what it did in its own class.

        Problems of the method itself were then reported on that class already; repeating
        them on every subclass would only add noise.
        """
        if decl.declared_by is self.info:
            return False
        there = _lookup(decl.declared_by, decl.method)
        if found is None or there is None:
            return found is None and there is None
        return found.owner is there.owner

    def inherited_name(self, decl: Declaration) -> bool:
        """Whether an inherited declaration keeps the final name it had in its own class."""
        return decl.declared_by is not self.info and self.final_name(
            decl, self.toolset_name(self.info)
        ) == self.final_name(decl, self.toolset_name(decl.declared_by))

    def run(self) -> None:
        """Check every declaration the class has, its own and inherited."""
        toolset_name = self.toolset_name(self.info)
        final_names: dict[str, Declaration] = {}
        for decl in self.merged():
            found = _lookup(self.info, decl.method)
            quiet = self.inherited_method(decl, found)
            where = self.where(decl)
            if found is None:
                if not quiet:
                    report(self.api, self.unknown(decl), where)
                continue
            kind = self.kind_problem(decl.method, found)
            if kind is not None:
                if not quiet:
                    report(self.api, kind, where)
                continue
            name = self.final_name(decl, toolset_name)
            reason = tool_name_problem(name) if name is not None else None
            if name is not None and reason is not None:
                if not self.inherited_name(decl):
                    found_problem = problem(
                        "invalid-tool-name", self.name, decl.method, name=name, reason=reason
                    )
                    report(self.api, found_problem, where)
                continue
            if name is not None:
                earlier = final_names.get(name)
                if earlier is not None:
                    # Two inherited names that already clashed in the class declaring the later
                    # one were reported there.
                    clashed_before = (
                        self.inherited_name(decl)
                        and self.inherited_name(earlier)
                        and earlier.declared_by in decl.declared_by.mro
                    )
                    if not clashed_before:
                        found_problem = problem(
                            "duplicate-tool-name",
                            self.name,
                            decl.method,
                            name=name,
                            other=earlier.method,
                        )
                        report(self.api, found_problem, where)
                    continue
                final_names[name] = decl
            if not quiet:
                self.signatures.check(decl.method, found.owner, found.node, where)

    def unknown(self, decl: Declaration) -> Problem:
        """The problem of a declaration naming no method, with close names as suggestions."""
        candidates = sorted(
            {
                name
                for klass in self.info.mro
                if klass.fullname not in (TOOLSET, "builtins.object")
                for name, sym in klass.names.items()
                if not (name.startswith("__") and name.endswith("__"))
                and is_plain_function(sym.node)
            }
        )
        matches = close_matches(decl.method, candidates)
        return problem("unknown-method", self.name, decl.method, matches=matches)

    def kind_problem(self, name: str, found: _Found) -> Problem | None:
        """Why *found* cannot be exported (the order of the runtime's `_kind_problem`)."""
        node = found.node
        if name in API_NAMES and found.owner.fullname == TOOLSET:
            return problem("api-name", self.name, name)
        if name.startswith("__") and name.endswith("__"):
            return problem("special-method", self.name, name)
        func = function_of(node)
        if func is not None and (func.is_static or func.is_class):
            wrapper = "staticmethod" if func.is_static else "classmethod"
            return problem("wrapped-method", self.name, name, wrapper=wrapper)
        if _is_property(node):
            return problem("wrapped-method", self.name, name, wrapper="property")
        if isinstance(node, TypeInfo):
            return problem("nested-class", self.name, name)
        if is_plain_function(node) and func is not None:
            if func.is_generator or func.is_async_generator:
                return problem("generator", self.name, name)
            return None
        if isinstance(node, Var) and not node.has_explicit_value and not node.is_classvar:
            # Only annotated: the class has no such attribute at run time (yet).
            return problem("annotated-attribute", self.name, name)
        if name in attrs_field_names(found.owner):
            return problem("attrs-field", self.name, name)
        return problem("attribute", self.name, name)


def _is_property(node: SymbolNode | None) -> bool:
    if isinstance(node, (FuncDef, OverloadedFuncDef)):
        return node.is_property
    if isinstance(node, Decorator):
        return node.func.is_property or node.var.is_property
    return False


def is_plain_function(node: SymbolNode | None) -> bool:
    """Whether the class attribute is a function at run time (not wrapped by a decorator)."""
    if isinstance(node, FuncDef):
        return not (node.is_static or node.is_class or node.is_property)
    if isinstance(node, OverloadedFuncDef):
        return not node.is_property and is_plain_function(node.impl)
    if isinstance(node, Decorator):
        func = node.func
        if func.is_static or func.is_class or func.is_property or node.var.is_property:
            return False
        decorated = get_proper_type(node.var.type) if node.var.type is not None else None
        # A decorator returning a callable object (functools.cache) leaves an attribute that is
        # not a function at run time; one typed as returning a callable keeps a function.
        return decorated is None or isinstance(decorated, (CallableType, Overloaded, AnyType))
    return False
