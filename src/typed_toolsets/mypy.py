"""The typed_toolsets mypy plugin: every Toolset definition mistake fails the type check.

Enable it with ``plugins = typed_toolsets.mypy`` (``mypy.ini``/``setup.cfg``) or
``plugins = ["typed_toolsets.mypy"]`` under ``[tool.mypy]`` (``pyproject.toml``). It reports,
on the line of the declaration, what `typed_toolsets.ToolsetDefinitionError` would raise when the
module is imported, plus two problems the import cannot see:

=============================  ==================================================================
error code                     problem
=============================  ==================================================================
``toolset-unknown-method``     ``tool("name")`` names no method of the class or its bases
``toolset-not-a-method``       the name is an attribute, property, static/class method, ...
``toolset-duplicate-name``     two exports share a final name, or one method is declared twice
``toolset-invalid-name``       a final name does not match ``^[A-Za-z_][A-Za-z0-9_-]{0,63}$``
``toolset-signature``          positional-only, ``*args``, ``**kwargs`` or unannotated parameter
``toolset-param-type``         a parameter type has no JSON Schema
``toolset-init``               ``Cls.to_tools()`` on a class whose constructor needs arguments
``toolset-ambiguous-union``    a JSON value could match two variants of a union
=============================  ==================================================================

All of them are sub-codes of ``toolset``: ``disable_error_code = toolset`` silences every one,
``disable_error_code = toolset-ambiguous-union`` just that one (mypy >= 1.19), and
``# type: ignore[toolset-param-type]`` one line.

Types registered at run time with `typed_toolsets.register_type` are unknown to mypy; list them
in the config so the plugin accepts them::

    [typed_toolsets.mypy]                      # mypy.ini / setup.cfg
    registered_types = decimal.Decimal, myapp.money.Money

    [tool.typed_toolsets.mypy]                 # pyproject.toml
    registered_types = ["decimal.Decimal", "myapp.money.Money"]

How it works (see ``research/mypy_plugin.md``): during semantic analysis a base-class hook records
each Toolset subclass's declarations (JSON metadata on the class, so it reaches other modules
through the cache) and registers the dependencies that incremental mode and the daemon need. At
type-check time mypy simulates one ``__init_subclass__`` call per class definition; a method hook
on it runs every check once the whole class, its bases and the attrs-generated ``__init__`` are
known. This module imports only mypy and the standard-library-only `typed_toolsets.rules`.

User documentation, including what the plugin cannot see: ``docs/mypy_plugin.md``.
"""

from __future__ import annotations

import configparser
import hashlib
import importlib
import os
import sys
from collections.abc import Callable, Iterator
from typing import Any, Final

from mypy.constant_fold import constant_fold_expr
from mypy.errorcodes import ErrorCode
from mypy.messages import format_type
from mypy.nodes import (
    ARG_NAMED,
    ARG_POS,
    ARG_STAR,
    ARG_STAR2,
    Argument,
    AssignmentStmt,
    CallExpr,
    ClassDef,
    Context,
    Decorator,
    Expression,
    FuncDef,
    ListExpr,
    MemberExpr,
    MypyFile,
    NameExpr,
    OpExpr,
    OverloadedFuncDef,
    RefExpr,
    Statement,
    SymbolNode,
    TupleExpr,
    TypeInfo,
    Var,
)
from mypy.options import Options
from mypy.plugin import (
    CheckerPluginInterface,
    ClassDefContext,
    MethodContext,
    Plugin,
    ReportConfigContext,
)
from mypy.server.trigger import make_wildcard_trigger
from mypy.typeops import type_object_type
from mypy.types import (
    AnyType,
    CallableType,
    Instance,
    LiteralType,
    NoneType,
    Overloaded,
    ProperType,
    TupleType,
    Type,
    TypeAliasType,
    TypedDictType,
    TypeOfAny,
    TypeType,
    TypeVarLikeType,
    UninhabitedType,
    UnionType,
    get_proper_type,
)

from typed_toolsets import rules
from typed_toolsets._version import __version__
from typed_toolsets.rules.names import (
    API_NAMES,
    TOOL_NAME_PATTERN,
    close_matches,
    default_toolset_name,
    final_tool_name,
    is_valid_tool_name,
)
from typed_toolsets.rules.problems import PROBLEM_CODES
from typed_toolsets.rules.shapes import Shape, find_ambiguity
from typed_toolsets.rules.typenames import (
    FORMAT_NAMES,
    MAPPING_ORIGINS,
    NUMERIC_NAMES,
    SCALAR_NAMES,
    SEQUENCE_ORIGINS,
    SET_ORIGINS,
    scalar_kinds,
)

__all__ = ["ERROR_CODES", "TOOLSET_CODE", "TypedToolsetsPlugin", "plugin"]

# ----------------------------------------------------------------------------------- constants

TOOLSET: Final = "typed_toolsets._toolset.Toolset"
TOOL_FUNCTION: Final = "typed_toolsets.definition.declarations.tool"
TOOL_SPEC: Final = "typed_toolsets.definition.declarations.ToolSpec"
TO_TOOLS_GET: Final = "typed_toolsets._toolset._ToTools.__get__"
INIT_SUBCLASS: Final = ".__init_subclass__"
#: Key of the recorded declarations in ``TypeInfo.metadata`` (JSON, stored in mypy's cache).
META: Final = "typed_toolsets"
#: Bumped when the shape of the recorded metadata changes.
META_VERSION: Final = 1
CONFIG_SECTION: Final = "typed_toolsets.mypy"

TOOLSET_CODE: Final = ErrorCode(
    "toolset", "typed_toolsets: Toolset declaration problems", "General"
)
_DESCRIPTIONS: Final = {
    "unknown-method": "tool() names no method of the Toolset class",
    "not-a-method": "an exported name is not a plain instance method",
    "duplicate-name": "two exports share a final tool name",
    "invalid-name": "an exported tool name is not valid for LLM APIs",
    "signature": "an exported method's parameters cannot be called with JSON keywords",
    "param-type": "a parameter type of an exported method has no JSON Schema",
    "init": "Cls.to_tools() on a Toolset whose constructor needs arguments",
    "ambiguous-union": "a JSON value could match two variants of a union parameter",
}
#: One error code per problem, all under `TOOLSET_CODE`.
ERROR_CODES: Final = {
    code: ErrorCode(f"toolset-{code}", _DESCRIPTIONS[code], "General", sub_code_of=TOOLSET_CODE)
    for code in sorted(PROBLEM_CODES)
}

_SCALARS: Final = SCALAR_NAMES | NUMERIC_NAMES
_BYTES: Final = frozenset({"builtins.bytes", "builtins.bytearray", "builtins.memoryview"})
_JSON_VALUE_TYPES: Final = frozenset(
    {"builtins.str", "builtins.int", "builtins.float", "builtins.bool", "enum.auto"}
)
_NOT_A_STRUCT: Final = (
    "is not an attrs class, dataclass, TypedDict, NamedTuple, enum or supported builtin type; "
    "use one of those, or register it with typed_toolsets.register_type() and list it under "
    "registered_types in the plugin config"
)
_ONLY: Final = "only plain instance methods (def or async def) can be exported"
_KEYWORDS: Final = "declare keyword parameters instead"
_NO_SHAPE: Final[frozenset[str]] = frozenset()


def _rules_digest() -> str:
    # mypy invalidates its cache when the plugin's entry module changes; the rules live in other
    # files, so their digest goes into the per-module config data.
    digest = hashlib.sha256()
    folder = os.path.dirname(rules.__file__ or "")
    try:
        for name in sorted(os.listdir(folder)):
            if name.endswith(".py"):
                with open(os.path.join(folder, name), "rb") as handle:
                    digest.update(name.encode() + b"\0" + handle.read())
    except OSError:  # pragma: no cover - the package is always installed with its sources
        return "unknown"
    return digest.hexdigest()[:16]


# ------------------------------------------------------------------------------------- plugin


class TypedToolsetsPlugin(Plugin):
    """Records Toolset declarations during semantic analysis and checks them when type checking."""

    def __init__(self, options: Options) -> None:
        super().__init__(options)
        self._registered = _read_registered_types(options.config_file)
        self._config_data: dict[str, object] = {
            "version": __version__,
            "meta": META_VERSION,
            "rules": _rules_digest(),
            "registered_types": sorted(self._registered),
        }

    def get_base_class_hook(self, fullname: str) -> Callable[[ClassDefContext], None] | None:
        """Record the declarations of every class whose direct base is a Toolset (or Toolset)."""
        if fullname == TOOLSET:
            return _record_class
        sym = self.lookup_fully_qualified(fullname)
        if sym is not None and isinstance(sym.node, TypeInfo) and sym.node.has_base(TOOLSET):
            return _record_class
        return None

    def get_method_hook(self, fullname: str) -> Callable[[MethodContext], Type] | None:
        """Check a class once it is defined; check ``Cls.to_tools()`` call sites."""
        if fullname == TO_TOOLS_GET:
            return _check_to_tools_access
        if fullname.endswith(INIT_SUBCLASS) and fullname != "builtins.object.__init_subclass__":
            # mypy simulates `Base.__init_subclass__(**class keywords)` after each class body
            # (TypeChecker.check_init_subclass), with the first base in the MRO that defines it:
            # `Toolset`, or a class before it in the MRO. `object` comes after `Toolset`.
            registered = self._registered
            return lambda ctx: _check_class_hook(ctx, registered)
        return None

    def get_additional_indirect_deps(self, file: MypyFile) -> set[str]:
        """Make a module that defines Toolset subclasses depend on every ancestor's module.

        A subclass checks names against methods of all its ancestors, but a bare ``class
        Leaf(Mid)`` gives mypy's coarse incremental mode no dependency on ``Mid``'s own bases, so
        editing a grandparent would leave the leaf's cached verdict stale (mypy >= 2.4).
        """
        modules: set[str] = set()
        if file.is_stub:
            return modules
        for _, sym, _ in file.local_definitions():
            node = sym.node
            if isinstance(node, TypeInfo) and META in node.metadata:
                modules.update(base.module_name for base in node.mro[1:])
        modules.discard(file.fullname)
        return modules

    def report_config_data(self, ctx: ReportConfigContext) -> object:
        """Invalidate cached results when the plugin, its rules or its config change."""
        return self._config_data


def plugin(version: str) -> type[Plugin]:
    """Entry point called by mypy with its version string."""
    del version  # every supported mypy (>= 1.19) has the hooks used here
    return TypedToolsetsPlugin


def _read_registered_types(config_file: str | None) -> frozenset[str]:
    """Read ``registered_types`` from the mypy config file, INI or ``pyproject.toml``."""
    if not config_file or not os.path.isfile(config_file):
        return frozenset()
    names: list[str] = []
    if config_file.endswith(".toml"):
        # mypy itself depends on tomli before Python 3.11.
        toml: Any = importlib.import_module("tomllib" if sys.version_info >= (3, 11) else "tomli")
        with open(config_file, "rb") as handle:
            try:
                data: object = toml.load(handle)
            except toml.TOMLDecodeError:
                return frozenset()
        section: object = data
        for key in ("tool", "typed_toolsets", "mypy"):
            section = section.get(key, {}) if isinstance(section, dict) else {}  # pyright: ignore[reportUnknownMemberType, reportUnknownVariableType]
        value: object = section.get("registered_types", []) if isinstance(section, dict) else []  # pyright: ignore[reportUnknownMemberType, reportUnknownVariableType]
        if isinstance(value, str):
            names = value.split(",")
        elif isinstance(value, list):
            names = [str(v) for v in value]  # pyright: ignore[reportUnknownVariableType, reportUnknownArgumentType]
    else:
        parser = configparser.ConfigParser()
        try:
            parser.read(config_file, encoding="utf-8")
        except configparser.Error:
            return frozenset()
        if parser.has_option(CONFIG_SECTION, "registered_types"):
            names = parser.get(CONFIG_SECTION, "registered_types").replace("\n", ",").split(",")
    return frozenset(n.strip() for n in names if n.strip())


# ---------------------------------------------------------------- recording (semantic analysis)


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


def _record_class(ctx: ClassDefContext) -> None:
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


# ------------------------------------------------------------------------------ type checking


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


def _check_class_hook(ctx: MethodContext, registered: frozenset[str]) -> Type:
    info = _class_being_defined(ctx)
    if info is not None and META in info.metadata and info.has_base(TOOLSET):
        _ClassChecker(ctx.api, info, registered).run()
    return ctx.default_return_type


def _check_to_tools_access(ctx: MethodContext) -> Type:
    """``Cls.to_tools`` builds ``Cls()``: report classes whose constructor needs arguments."""
    if len(ctx.arg_types) < 2 or not ctx.arg_types[0] or not ctx.arg_types[1]:
        return ctx.default_return_type
    obj = get_proper_type(ctx.arg_types[0][0])
    owner = get_proper_type(ctx.arg_types[1][0])
    if not isinstance(obj, NoneType) or not isinstance(owner, TypeType):
        return ctx.default_return_type  # `instance.to_tools()` binds the instance: fine
    item = get_proper_type(owner.item)
    if not isinstance(item, Instance):
        return ctx.default_return_type  # `type[T]` and friends: the class is not known here
    api = ctx.api

    def named_type(name: str) -> Instance:
        return api.named_generic_type(name, [])

    constructor = get_proper_type(type_object_type(item.type, named_type))
    needed = _required_arguments(constructor)
    if needed:
        name = _display_name(item.type)
        names = ", ".join(f'"{n}"' for n in needed)
        ctx.api.fail(
            f'"{name}.to_tools()" calls "{name}()" with no arguments, but its constructor needs '
            f"{names}; give each a default, or call to_tools() on an instance",
            ctx.context,
            code=ERROR_CODES["init"],
        )
    return ctx.default_return_type


def _required_arguments(constructor: ProperType) -> list[str]:
    items: list[CallableType]
    if isinstance(constructor, CallableType):
        items = [constructor]
    elif isinstance(constructor, Overloaded):
        items = list(constructor.items)
    else:
        return []
    best: list[str] | None = None
    for callable_type in items:
        needed = [
            name or f"#{index + 1}"
            for index, (kind, name) in enumerate(
                zip(callable_type.arg_kinds, callable_type.arg_names, strict=True)
            )
            if kind in (ARG_POS, ARG_NAMED)
        ]
        if best is None or len(needed) < len(best):
            best = needed
    return best or []


class _Method:
    """What the checker knows about one attribute found by name in a class's MRO."""

    def __init__(self, owner: TypeInfo, node: SymbolNode | None) -> None:
        self.owner = owner
        self.node = node


def _display_name(info: TypeInfo) -> str:
    """The class's qualified name as Python shows it (``Outer.Inner``), without the module.

    Classes defined in a function are known to mypy as ``Name@line``; show the plain name.
    """
    name = info.fullname
    if name.startswith(info.module_name + "."):
        name = name[len(info.module_name) + 1 :]
    return name.split("@", 1)[0]


def _lookup(info: TypeInfo, name: str) -> _Method | None:
    for klass in info.mro:
        sym = klass.names.get(name)
        if sym is not None:
            return _Method(klass, sym.node)
    return None


def _meta(info: TypeInfo) -> dict[str, object] | None:
    data = info.metadata.get(META)
    if isinstance(data, dict) and data.get("version") == META_VERSION:
        return data
    return None


def _decls(info: TypeInfo) -> list[dict[str, object]]:
    data = _meta(info)
    decls = data.get("decls") if data is not None else None
    return decls if isinstance(decls, list) else []  # pyright: ignore[reportUnknownVariableType]


class _Decl:
    """One declaration as the checked class sees it, after merging along the MRO."""

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


class _ClassChecker:
    """Runs checks 1 to 6 and 8 on one class definition, mirroring `build_class`."""

    def __init__(self, api: CheckerPluginInterface, info: TypeInfo, registered: frozenset[str]):
        self.api = api
        self.info = info
        self.types = _TypeChecker(api.options, registered)

    # -- reporting

    def fail(self, code: str, message: str, line: int, column: int = -1) -> None:
        self.api.fail(message, Context(line, column), code=ERROR_CODES[code])

    def class_line(self) -> tuple[int, int]:
        return self.info.defn.line, self.info.defn.column

    def where(self, decl: _Decl) -> tuple[int, int]:
        """Own declarations are reported where they are written, inherited ones on the class."""
        if decl.declared_by is self.info and decl.line > 0:
            return decl.line, decl.column
        return self.class_line()

    def cannot(self, decl: _Decl, cause: str) -> str:
        return f'Cannot export "{_display_name(self.info)}.{decl.method}" as a tool: {cause}'

    # -- names

    def toolset_name(self, info: TypeInfo) -> str | None:
        """The ``toolset_name`` *info* has at run time, or None when it is not a literal."""
        for klass in info.mro:
            if klass.fullname == TOOLSET:
                return default_toolset_name(info.name)
            data = _meta(klass)
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
    def final_name(decl: _Decl, toolset_name: str | None) -> str | None:
        if decl.dynamic_name:
            return None
        if decl.tool_name is not None:
            return decl.tool_name
        if toolset_name is None:
            return None
        return final_tool_name(toolset_name, decl.method, None)

    # -- the checks

    def merged(self) -> list[_Decl]:
        """Bases' declarations first (re-declarations keep their place), then the class's own."""
        merged: dict[str, _Decl] = {}
        for klass in reversed(self.info.mro[1:]):
            for data in _decls(klass):
                decl = _Decl(data, klass)
                merged[decl.method] = decl
        seen: set[str] = set()
        for data in _decls(self.info):
            decl = _Decl(data, self.info)
            if decl.method in seen:
                line, column = self.where(decl)
                self.fail(
                    "duplicate-name",
                    self.cannot(
                        decl, f'"{decl.method}" is declared twice in "{_display_name(self.info)}"'
                    ),
                    line,
                    column,
                )
            seen.add(decl.method)
            merged[decl.method] = decl
        return list(merged.values())

    def inherited_method(self, decl: _Decl, found: _Method | None) -> bool:
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

    def inherited_name(self, decl: _Decl) -> bool:
        """Whether an inherited declaration keeps the final name it had in its own class."""
        return decl.declared_by is not self.info and self.final_name(
            decl, self.toolset_name(self.info)
        ) == self.final_name(decl, self.toolset_name(decl.declared_by))

    def run(self) -> None:
        toolset_name = self.toolset_name(self.info)
        final_names: dict[str, _Decl] = {}
        for decl in self.merged():
            found = _lookup(self.info, decl.method)
            quiet = self.inherited_method(decl, found)
            line, column = self.where(decl)
            if found is None:
                if not quiet:
                    self.fail("unknown-method", self.unknown(decl), line, column)
                continue
            kind = self.kind_problem(decl.method, found)
            if kind is not None:
                if not quiet:
                    self.fail("not-a-method", self.cannot(decl, kind), line, column)
                continue
            name = self.final_name(decl, toolset_name)
            if name is not None and not is_valid_tool_name(name):
                if not self.inherited_name(decl):
                    cause = (
                        f'the tool name "{name}" is not valid for LLM APIs (it must match '
                        f"{TOOL_NAME_PATTERN})"
                    )
                    self.fail("invalid-name", self.cannot(decl, cause), line, column)
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
                        owner = earlier.declared_by
                        by = f'"{_display_name(owner)}.{earlier.method}"'
                        if owner is not self.info:
                            by += " (inherited)"
                        cause = f'the tool name "{name}" is already exported by {by}'
                        self.fail("duplicate-name", self.cannot(decl, cause), line, column)
                    continue
                final_names[name] = decl
            if not quiet:
                self.check_signature(decl, found, line, column)

    def unknown(self, decl: _Decl) -> str:
        candidates = sorted(
            {
                name
                for klass in self.info.mro
                if klass.fullname not in (TOOLSET, "builtins.object")
                for name, sym in klass.names.items()
                if not (name.startswith("__") and name.endswith("__"))
                and _is_plain_function(sym.node)
            }
        )
        matches = close_matches(decl.method, candidates)
        quoted = " or ".join(f'"{m}"' for m in matches)
        hint = f"; did you mean {quoted}?" if matches else ""
        return self.cannot(
            decl, f'"{_display_name(self.info)}" has no method "{decl.method}"{hint}'
        )

    def kind_problem(self, name: str, found: _Method) -> str | None:
        """Why *found* cannot be exported (the order of `classes._kind_problem`)."""
        node = found.node
        if name in API_NAMES and found.owner.fullname == TOOLSET:
            return f'"{name}" is part of the Toolset API and cannot be exported'
        if name.startswith("__") and name.endswith("__"):
            return f'"{name}" is a special method and cannot be exported'
        func = _function_of(node)
        if func is not None:
            if func.is_static:
                return f'"{name}" is a staticmethod; {_ONLY}'
            if func.is_class:
                return f'"{name}" is a classmethod; {_ONLY}'
        if _is_property(node):
            return f'"{name}" is a property; {_ONLY}'
        if isinstance(node, TypeInfo):
            return f'"{name}" is a nested class; {_ONLY}'
        if _is_plain_function(node) and func is not None:
            if func.is_generator or func.is_async_generator:
                return f'"{name}" is a generator; only methods that return a value can be exported'
            return None
        attrs_fields = _attrs_field_names(found.owner)
        kind = "an attrs field" if name in attrs_fields else "an attribute"
        return f'"{name}" is {kind}, not a method; {_ONLY}'

    def check_signature(self, decl: _Decl, found: _Method, line: int, column: int) -> None:
        """Checks 5 (parameters), 6 (types) and 8 (ambiguous unions) on one exported method."""
        func = _function_of(found.node)
        if func is None:
            return
        signature = _effective_signature(found.node, func)
        arguments = _arguments(func)
        here = found.owner.module_name == self.info.module_name and arguments is not None
        kinds = func.arg_kinds if signature is None else signature.arg_kinds
        names = func.arg_names if signature is None else signature.arg_names

        def place(index: int) -> tuple[int, int]:
            if here and arguments is not None:
                name = names[index] if index < len(names) else None
                for argument in arguments:
                    if name is not None and argument.variable.name == name:
                        return argument.line, argument.column
                if index < len(arguments) and signature is func.type:
                    return arguments[index].line, arguments[index].column
                return func.line, func.column
            return line, column

        def source_name(index: int) -> str | None:
            if here and arguments is not None and index < len(arguments):
                return str(arguments[index].variable.name)
            return None

        problems: list[tuple[int, str]] = []
        for index in range(1, len(kinds)):
            kind, name = kinds[index], names[index]
            shown = name or source_name(index) or f"#{index}"
            if kind == ARG_STAR:
                problems.append((index, f'"*{shown}" is not supported; {_KEYWORDS}'))
            elif kind == ARG_STAR2:
                problems.append((index, f'"**{shown}" is not supported; {_KEYWORDS}'))
            elif name is None and not _dunder_convention(source_name(index)):
                cause = f'parameter "{shown}" is positional-only; tools are called with keywords'
                problems.append((index, f'{cause}, remove the "/"'))
            elif signature is None or _unannotated(signature.arg_types[index]):
                problems.append((index, f'parameter "{shown}" has no type annotation'))
        for index, cause in problems:
            self.fail("signature", self.cannot(decl, cause), *place(index))
        if problems or signature is None:
            return
        for index in range(1, len(kinds)):
            shown = names[index] or source_name(index) or f"#{index}"
            arg_type = signature.arg_types[index]
            reason = self.types.problem(arg_type)
            if reason is not None:
                cause = (
                    f'parameter "{shown}" has type {self.types.show(arg_type)}, which has no '
                    f"JSON Schema ({reason})"
                )
                self.fail("param-type", self.cannot(decl, cause), *place(index))
                continue
            if here and arguments is not None and index < len(arguments):
                initializer = arguments[index].initializer
                if (
                    isinstance(initializer, NameExpr)
                    and initializer.fullname == "builtins.None"
                    and not self.types.admits_null(arg_type)
                ):
                    shown_type = self.types.show(arg_type)
                    cause = (
                        f'parameter "{shown}" defaults to None but its type {shown_type} does not '
                        'admit null; add "| None" (a None default does not make it nullable)'
                    )
                    self.fail("signature", self.cannot(decl, cause), *place(index))
                    continue
            ambiguity = find_ambiguity(self.types.shape(arg_type))
            if ambiguity is not None:
                where = f"{_display_name(self.info)}.{decl.method}"
                message = (
                    f'Ambiguous union in tool "{where}": parameter "{shown}" has the union '
                    f"{ambiguity.union}, and a JSON value can match both {ambiguity.first} and "
                    f"{ambiguity.second} (the first one in declared order wins)"
                )
                self.fail("ambiguous-union", message, *place(index))


def _arguments(func: FuncDef) -> list[Argument] | None:
    """The function's parameters as parsed, or None for a function loaded from mypy's cache.

    Cached functions keep only their serialized attributes (name, kinds, names, type, flags):
    touching ``arguments`` on them raises, so they are reported at the declaration instead.
    """
    try:
        return func.arguments
    except AttributeError:
        return None


def _dunder_convention(name: str | None) -> bool:
    # mypy treats `__x` parameters as positional-only (the pre-PEP 570 convention); Python
    # does not, so only a real `/` counts. Without the source (another module) mypy's verdict
    # is all there is.
    return name is not None and name.startswith("__") and not name.endswith("__")


def _unannotated(t: Type) -> bool:
    proper = get_proper_type(t)
    return isinstance(proper, AnyType) and proper.type_of_any == TypeOfAny.unannotated


def _function_of(node: SymbolNode | None) -> FuncDef | None:
    """The function a method name stands for (the implementation of an overload)."""
    if isinstance(node, FuncDef):
        return node
    if isinstance(node, Decorator):
        return node.func
    if isinstance(node, OverloadedFuncDef):
        impl = node.impl
        if isinstance(impl, Decorator):
            return impl.func
        if isinstance(impl, FuncDef):
            return impl
        first = node.items[0] if node.items else None
        if node.is_property and isinstance(first, Decorator):
            return first.func
    return None


def _is_property(node: SymbolNode | None) -> bool:
    if isinstance(node, (FuncDef, OverloadedFuncDef)):
        return node.is_property
    if isinstance(node, Decorator):
        return node.func.is_property or node.var.is_property
    return False


def _is_plain_function(node: SymbolNode | None) -> bool:
    """Whether the class attribute is a function at run time (not wrapped by a decorator)."""
    if isinstance(node, FuncDef):
        return not (node.is_static or node.is_class or node.is_property)
    if isinstance(node, OverloadedFuncDef):
        return not node.is_property and _is_plain_function(node.impl)
    if isinstance(node, Decorator):
        func = node.func
        if func.is_static or func.is_class or func.is_property or node.var.is_property:
            return False
        decorated = get_proper_type(node.var.type) if node.var.type is not None else None
        # A decorator returning a callable object (functools.cache) leaves an attribute that is
        # not a function at run time; one typed as returning a callable keeps a function.
        return decorated is None or isinstance(decorated, (CallableType, Overloaded, AnyType))
    return False


def _effective_signature(node: SymbolNode | None, func: FuncDef) -> CallableType | None:
    """The signature a call sees: the decorated one, unless the decorator hides it."""
    if isinstance(node, OverloadedFuncDef) and isinstance(node.impl, Decorator):
        node = node.impl
    if isinstance(node, Decorator) and node.var.type is not None:
        decorated = get_proper_type(node.var.type)
        # `(*args: Any, **kwargs: Any)` says nothing: inspect.signature follows __wrapped__ to
        # the original function, so use its signature.
        if (
            isinstance(decorated, CallableType)
            and not decorated.is_ellipsis_args
            and not _is_any_varargs(decorated)
        ):
            return decorated
    original = get_proper_type(func.type) if func.type is not None else None
    return original if isinstance(original, CallableType) else None


def _is_any_varargs(signature: CallableType) -> bool:
    kinds = signature.arg_kinds
    return (
        len(kinds) == 2
        and kinds[0] == ARG_STAR
        and kinds[1] == ARG_STAR2
        and all(isinstance(get_proper_type(t), AnyType) for t in signature.arg_types)
    )


def _attrs_field_names(info: TypeInfo) -> set[str]:
    names: set[str] = set()
    for klass in info.mro:
        data = klass.metadata.get("attrs")
        attributes = data.get("attributes") if isinstance(data, dict) else None
        if isinstance(attributes, list):
            for attribute in attributes:  # pyright: ignore[reportUnknownVariableType]
                if isinstance(attribute, dict) and isinstance(attribute.get("name"), str):  # pyright: ignore[reportUnknownMemberType]
                    names.add(str(attribute["name"]))  # pyright: ignore[reportUnknownArgumentType]
    return names


# ------------------------------------------------------------------------- the type table walk


def _struct_attributes(info: TypeInfo, key: str) -> list[dict[str, object]] | None:
    data = info.metadata.get(key)
    attributes = data.get("attributes") if isinstance(data, dict) else None
    if not isinstance(attributes, list):
        return None
    return [a for a in attributes if isinstance(a, dict)]  # pyright: ignore[reportUnknownVariableType]


def _is_real_dataclass(info: TypeInfo) -> bool:
    """A ``@dataclass`` (not a ``dataclass_transform`` base class such as pydantic's models)."""
    if _struct_attributes(info, "dataclass") is None:
        return False
    meta = info.metaclass_type
    if meta is not None and any(m.dataclass_transform_spec for m in meta.type.mro):
        return False
    return not any(base.dataclass_transform_spec for base in info.mro)


class _TypeChecker:
    """Walks mypy's types with the runtime's type table (`typed_toolsets.types.catalog`)."""

    def __init__(self, options: Options, registered: frozenset[str]) -> None:
        self.options = options
        self.registered = registered
        self._shapes: dict[str, Shape] = {}

    def show(self, t: Type) -> str:
        return format_type(t, self.options)

    # -- check 6: is there a schema?

    def problem(self, t: Type) -> str | None:
        """Why *t* has no JSON Schema, or None when it has one (or cannot be known)."""
        return self._problem(t, set())

    def _problem(self, t: Type, seen: set[str]) -> str | None:
        if isinstance(t, TypeAliasType) and t.alias is not None:
            if t.is_recursive:
                return "recursive type aliases are not supported; use a recursive attrs class"
            if getattr(t.alias, "python_3_12_type_alias", False):
                return "aliases made with the `type` statement are not supported"
        proper = get_proper_type(t)
        if isinstance(proper, NoneType):
            return None
        if isinstance(proper, AnyType):
            return _any_problem(proper)
        if isinstance(proper, UninhabitedType):
            return "Never has no JSON Schema"
        if isinstance(proper, LiteralType):
            return self._literal_problem(proper)
        if isinstance(proper, UnionType):
            for item in proper.items:
                reason = self._problem(item, seen)
                if reason is not None:
                    return reason
            return None
        if isinstance(proper, TupleType):
            fallback = proper.partial_fallback.type
            if fallback.fullname != "builtins.tuple":
                return self._namedtuple_problem(fallback, proper, seen)
            for item in proper.items:
                reason = self._problem(item, seen)
                if reason is not None:
                    return reason
            return None
        if isinstance(proper, TypedDictType):
            for value in proper.items.values():
                reason = self._problem(value, seen)
                if reason is not None:
                    return reason
            return None
        if isinstance(proper, (CallableType, Overloaded)):
            return "callables have no JSON Schema"
        if isinstance(proper, TypeType):
            return "classes (type[...]) have no JSON Schema"
        if isinstance(proper, TypeVarLikeType):
            return f"the type variable {self.show(proper)} has no JSON Schema"
        if isinstance(proper, Instance):
            return self._instance_problem(proper, seen)
        return None  # partial, erased or placeholder types: mypy reports those itself

    def _literal_problem(self, literal: LiteralType) -> str | None:
        if literal.fallback.type.is_enum:
            return self._enum_problem(literal.fallback.type)
        if literal.fallback.type.fullname in _BYTES:
            return f"the literal {self.show(literal)} is bytes; JSON has no bytes"
        if isinstance(literal.value, (str, int, bool)):
            return None
        return f"the literal {self.show(literal)} is not a JSON string, number, boolean or null"

    def _instance_problem(self, instance: Instance, seen: set[str]) -> str | None:
        info = instance.type
        fullname = info.fullname
        if fullname in self.registered or fullname in _SCALARS:
            return None
        if info.is_newtype and info.bases:
            return self._problem(info.bases[0], seen)
        if info.is_enum:
            return self._enum_problem(info)
        if info.tuple_type is not None and fullname != "builtins.tuple":
            return self._namedtuple_problem(info, info.tuple_type, seen)
        if info.typeddict_type is not None:
            return self._problem(info.typeddict_type, seen)
        args = instance.args
        containers = SEQUENCE_ORIGINS | SET_ORIGINS | MAPPING_ORIGINS
        if (fullname in containers or fullname == "builtins.tuple") and _bare(args):
            return _missing_parameters(info)
        if fullname in SEQUENCE_ORIGINS or fullname == "builtins.tuple":
            return self._problem(args[0], seen) if args else _missing_parameters(info)
        if fullname in SET_ORIGINS:
            if not args:
                return _missing_parameters(info)
            reason = self._problem(args[0], seen)
            if reason is None and not self._hashable(args[0]):
                return (
                    "set items must be strings, numbers, booleans, enums, literals, dates, "
                    f"times or UUIDs (got {self.show(args[0])})"
                )
            return reason
        if fullname in MAPPING_ORIGINS:
            if len(args) != 2:
                return _missing_parameters(info)
            key = get_proper_type(args[0])
            if not (isinstance(key, Instance) and key.type.fullname == "builtins.str"):
                return f"JSON object keys are strings; use a str key type (got {self.show(key)})"
            return self._problem(args[1], seen)
        if "attrs" in info.metadata or _is_real_dataclass(info):
            return self._struct_problem(instance, seen)
        if fullname == "builtins.object":
            return "object has no JSON Schema; use a concrete type"
        if fullname in _BYTES:
            return "bytes cannot be sent as JSON; use str (for example base64 text)"
        return f'"{info.name}" {_NOT_A_STRUCT}'

    def _namedtuple_problem(
        self, info: TypeInfo, tuple_type: TupleType, seen: set[str]
    ) -> str | None:
        if info.fullname in seen:
            return None
        seen.add(info.fullname)
        try:
            names = _namedtuple_fields(info)
            for index, item in enumerate(tuple_type.items):
                field = names[index] if index < len(names) else f"#{index}"
                proper = get_proper_type(item)
                if isinstance(proper, AnyType) and proper.type_of_any != TypeOfAny.explicit:
                    return f"field {info.name}.{field} has no type annotation"
                reason = self._problem(item, seen)
                if reason is not None:
                    return f"field {info.name}.{field}: {reason}"
            return None
        finally:
            seen.discard(info.fullname)

    def _struct_problem(self, instance: Instance, seen: set[str]) -> str | None:
        info = instance.type
        if info.fullname in seen:
            return None  # recursive classes are supported
        if info.type_vars:
            return f'"{info.name}" is generic; generic structs are not supported'
        seen.add(info.fullname)
        try:
            is_attrs = "attrs" in info.metadata
            attributes = _struct_attributes(info, "attrs" if is_attrs else "dataclass") or []
            for attribute in attributes:
                name = attribute.get("name")
                if not isinstance(name, str):
                    continue
                if not is_attrs and attribute.get("is_init_var"):
                    return f"dataclass {info.name} has the InitVar field {name!r} (not supported)"
                if not attribute.get("init" if is_attrs else "is_in_init", True):
                    continue
                sym = info.get(name)
                node = sym.node if sym is not None else None
                field_type = node.type if isinstance(node, Var) else None
                if field_type is None:
                    return f"field {info.name}.{name} has no type annotation"
                reason = self._problem(field_type, seen)
                if reason is not None:
                    return f"field {info.name}.{name}: {reason}"
            return None
        finally:
            seen.discard(info.fullname)

    def _enum_problem(self, info: TypeInfo) -> str | None:
        members = info.enum_members
        if not members:
            return f"enum {info.name!r} has no members"
        for member in members:
            value = _member_value_type(info, member)
            if value is None:
                continue
            ok = isinstance(value, (NoneType, LiteralType, AnyType)) or (
                isinstance(value, Instance) and value.type.fullname in _JSON_VALUE_TYPES
            )
            if not ok:
                return (
                    f"enum {info.name!r} has the member {member!r}, whose value is not a JSON "
                    "string, number, boolean or null"
                )
        return None

    def _hashable(self, t: Type) -> bool:
        """Mirrors `TypeSpec.hashable`: scalars, enums, literals and tuples of those."""
        proper = get_proper_type(t)
        if isinstance(proper, (NoneType, LiteralType)):
            return True
        if isinstance(proper, UnionType):
            return all(self._hashable(item) for item in proper.items)
        if isinstance(proper, TupleType):
            return proper.partial_fallback.type.fullname == "builtins.tuple" and all(
                self._hashable(item) for item in proper.items
            )
        if isinstance(proper, Instance):
            info = proper.type
            if info.fullname in _SCALARS or info.is_enum:
                return True
            if info.is_newtype and info.bases:
                return self._hashable(info.bases[0])
            if info.fullname == "builtins.tuple" and proper.args:
                return self._hashable(proper.args[0])
        return False

    def admits_null(self, t: Type) -> bool:
        proper = get_proper_type(t)
        if isinstance(proper, (NoneType, AnyType)):
            return True
        if isinstance(proper, UnionType):
            return any(self.admits_null(item) for item in proper.items)
        if isinstance(proper, Instance):
            info = proper.type
            if info.fullname in self.registered:
                return True  # its schema is not known here
            if info.is_newtype and info.bases:
                return self.admits_null(info.bases[0])
        return False

    # -- check 8: shapes for the ambiguity analysis

    def shape(self, t: Type) -> Shape:
        """The JSON shape of *t*; unknown parts never overlap anything (no false alarms)."""
        proper = get_proper_type(t)
        label = self.show(t)
        if isinstance(proper, NoneType):
            return Shape.scalar(label, frozenset({"null"}))
        if isinstance(proper, LiteralType):
            value = _literal_json(proper)
            if value is _UNKNOWN:
                return Shape.opaque(label, _NO_SHAPE)
            return Shape.constants_of(label, (value,))
        if isinstance(proper, UnionType):
            return self._union_shape(proper, label)
        if isinstance(proper, TupleType):
            if proper.partial_fallback.type.fullname != "builtins.tuple":
                return Shape.opaque(label, _NO_SHAPE)  # NamedTuple: not analysed
            return Shape.fixed_array(label, tuple(self.shape(i) for i in proper.items))
        if isinstance(proper, TypedDictType):
            shape = Shape.closed_object(label)
            shape.fields = {k: self.shape(v) for k, v in proper.items.items()}
            shape.required = frozenset(proper.required_keys)
            return shape
        if isinstance(proper, Instance):
            return self._instance_shape(proper, label)
        return Shape.opaque(label, _NO_SHAPE)

    def _union_shape(self, union: UnionType, label: str) -> Shape:
        names = {"builtins.int": "int", "builtins.float": "float"}

        def number_kind(item: ProperType) -> str | None:
            return names.get(item.type.fullname) if isinstance(item, Instance) else None

        items = [get_proper_type(i) for i in _flatten(union)]
        return Shape.union_of(label, items, number_kind, self.shape)

    def _instance_shape(self, instance: Instance, label: str) -> Shape:
        info = instance.type
        fullname = info.fullname
        if fullname in self.registered:
            return Shape.opaque(label, _NO_SHAPE)  # its schema is only known at run time
        kinds = scalar_kinds(fullname)
        if kinds is not None:
            return Shape.scalar(label, kinds, FORMAT_NAMES.get(fullname))
        if info.is_newtype and info.bases:
            return self.shape(info.bases[0])
        if info.is_enum:
            return _enum_shape(info, label)
        if info.tuple_type is not None and fullname != "builtins.tuple":
            return Shape.opaque(label, _NO_SHAPE)
        if info.typeddict_type is not None:
            return self.shape(info.typeddict_type)
        args = instance.args
        if args and (
            fullname in SEQUENCE_ORIGINS or fullname in SET_ORIGINS or fullname == "builtins.tuple"
        ):
            return Shape.array(label, self.shape(args[0]))
        if len(args) == 2 and fullname in MAPPING_ORIGINS:
            return Shape.mapping(label, self.shape(args[1]))
        if "attrs" in info.metadata or _is_real_dataclass(info):
            return self._struct_shape(info, label)
        return Shape.opaque(label, _NO_SHAPE)

    def _struct_shape(self, info: TypeInfo, label: str) -> Shape:
        cached = self._shapes.get(info.fullname)
        if cached is not None:
            return cached
        shape = Shape.closed_object(label)
        self._shapes[info.fullname] = shape
        is_attrs = "attrs" in info.metadata
        fields: dict[str, Shape] = {}
        required: set[str] = set()
        for attribute in _struct_attributes(info, "attrs" if is_attrs else "dataclass") or []:
            name = attribute.get("name")
            if not isinstance(name, str) or not attribute.get(
                "init" if is_attrs else "is_in_init", True
            ):
                continue
            alias = attribute.get("alias")
            key = alias if is_attrs and isinstance(alias, str) else name
            sym = info.get(name)
            node = sym.node if sym is not None else None
            field_type = node.type if isinstance(node, Var) else None
            fields[key] = (
                self.shape(field_type) if field_type is not None else Shape.opaque(key, _NO_SHAPE)
            )
            if not attribute.get("has_default"):
                required.add(key)
        shape.fields = fields
        shape.required = frozenset(required)
        return shape


class _Unknown:
    """A value the plugin cannot compute."""


_UNKNOWN: Final = _Unknown()


def _flatten(union: UnionType) -> Iterator[Type]:
    for item in union.items:
        proper = get_proper_type(item)
        if isinstance(proper, UnionType):
            yield from _flatten(proper)
        else:
            yield item


def _any_problem(any_type: AnyType) -> str | None:
    if any_type.type_of_any == TypeOfAny.explicit:
        return "Any has no JSON Schema; use a concrete type"
    if any_type.type_of_any == TypeOfAny.from_omitted_generics:
        return "a generic type needs its type parameters (for example list[str])"
    # Unannotated parameters are a signature problem; errors and unfollowed imports are
    # reported by mypy itself, and other Any values cannot be judged.
    return None


def _bare(args: tuple[Type, ...] | list[Type]) -> bool:
    """Whether a generic was written without its parameters (``list``, ``dict``).

    mypy fills them with ``Any``: "omitted generics", or "from error" when it reported the
    missing parameters itself (``disallow_any_generics``, part of ``--strict``).
    """
    omitted = (TypeOfAny.from_omitted_generics, TypeOfAny.from_error)
    return not args or all(
        isinstance(p, AnyType) and p.type_of_any in omitted for p in map(get_proper_type, args)
    )


def _missing_parameters(info: TypeInfo) -> str:
    return f"{info.name} needs its type parameters (for example list[str])"


def _namedtuple_fields(info: TypeInfo) -> list[str]:
    data = info.metadata.get("namedtuple")
    fields = data.get("fields") if isinstance(data, dict) else None
    if isinstance(fields, list):
        return [str(f) for f in fields]  # pyright: ignore[reportUnknownVariableType, reportUnknownArgumentType]
    return []


def _member_value_type(info: TypeInfo, member: str) -> ProperType | None:
    sym = info.names.get(member)
    node = sym.node if sym is not None else None
    if isinstance(node, Var) and node.type is not None:
        return get_proper_type(node.type)
    return None


def _member_value(info: TypeInfo, member: str) -> object:
    """The JSON value of an enum member, when mypy knows it (a literal or an ``auto()``)."""
    value = _member_value_type(info, member)
    if isinstance(value, NoneType):
        return None
    if isinstance(value, LiteralType):
        return value.value if isinstance(value.value, (str, int, bool)) else _UNKNOWN
    if isinstance(value, Instance):
        if value.last_known_value is not None:
            literal = value.last_known_value.value
            return literal if isinstance(literal, (str, int, bool)) else _UNKNOWN
        if value.type.fullname == "enum.auto" and info.has_base("enum.StrEnum"):
            return member.lower()
    return _UNKNOWN


def _enum_shape(info: TypeInfo, label: str) -> Shape:
    values: list[object] = []
    kinds: set[str] = set()
    known = True
    for member in info.enum_members:
        value = _member_value(info, member)
        if value is _UNKNOWN:
            known = False
            member_type = _member_value_type(info, member)
            if isinstance(member_type, Instance) and member_type.type.fullname == "enum.auto":
                kinds.add("integer")  # auto() numbers members outside StrEnum
            else:
                return Shape.opaque(label, _NO_SHAPE)
        else:
            values.append(value)
    if known:
        return Shape.constants_of(label, tuple(values))
    # Some values are only known by their JSON kind: compare by kind.
    kinds.update(Shape.constants_of(label, tuple(values)).kinds)
    return Shape.opaque(label, frozenset(kinds))


def _literal_json(literal: LiteralType) -> object:
    if literal.fallback.type.fullname in _BYTES:
        return _UNKNOWN
    if literal.fallback.type.is_enum and isinstance(literal.value, str):
        return _member_value(literal.fallback.type, literal.value)
    return literal.value if isinstance(literal.value, (str, int, bool)) else _UNKNOWN
