"""Facts about a method that only its source shows, recorded during semantic analysis.

A function loaded from mypy's cache keeps its signature but not its parameters as written, so
what the checks need from them is recorded with the class's declarations
(`typed_toolsets.plugin.declarations`) and travels through the cache:

- ``params``: the parameter names (mypy forgets the names of positional-only ones);
- ``none_defaults``: parameters with a ``None`` default whose annotation, *as written*, does not
  admit ``None`` (``implicit_optional`` makes mypy widen the type; the library never does);
- ``unresolved``: ``[parameter, name]`` for an annotation naming something Python cannot find
  when it resolves the annotation: a name imported only under ``if TYPE_CHECKING:``, or, for a
  string annotation (PEP 563), a name local to the function the class is defined in;
- ``literal_defaults``: ``[parameter, repr]`` for a bool default (``True``), which a number
  type refuses and mypy accepts (bool derives from int), shown as the run time's ``repr`` shows
  it.

`class_method_facts` gathers them for each method of a class body, with ``wrapped``: whether a
decorator other than `tool` wraps the method (`typeinfo.wrapped_function`; mypy's cache keeps
no decorators).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Final

from mypy.nodes import (
    GDEF,
    LDEF,
    AssignmentStmt,
    Block,
    ClassDef,
    Decorator,
    DelStmt,
    DictExpr,
    Expression,
    ForStmt,
    FuncDef,
    IfStmt,
    Import,
    ImportFrom,
    ListExpr,
    MemberExpr,
    MypyFile,
    NameExpr,
    OverloadedFuncDef,
    PlaceholderNode,
    RefExpr,
    SetExpr,
    Statement,
    StrExpr,
    SymbolTableNode,
    TryStmt,
    TupleExpr,
    TypeAlias,
    TypeInfo,
    WhileStmt,
    WithStmt,
)
from mypy.options import Options
from mypy.plugin import SemanticAnalyzerPluginInterface
from mypy.reachability import MYPY_TRUE, infer_condition_value
from mypy.types import AnyType, Instance, Type, TypeList, TypeOfAny, UnboundType, UnionType

from typed_toolsets.rules.names import mangle

from .body import assigns
from .decorators import OVERLOAD
from .jsontypes import SchemaCheck
from .typeinfo import function_of, wrapped_function

__all__ = [
    "absent_members",
    "admits_null",
    "class_method_facts",
    "deleted_names",
    "method_facts",
    "slot_names",
    "type_checking_names",
]

_OPTIONAL: Final = frozenset({"typing.Optional", "typing_extensions.Optional"})
_UNION: Final = frozenset({"typing.Union", "typing_extensions.Union"})
_ANNOTATED: Final = frozenset({"typing.Annotated", "typing_extensions.Annotated"})
_LITERAL: Final = frozenset({"typing.Literal", "typing_extensions.Literal"})
#: Special forms whose values are never None (mypy reads them as `builtins.tuple`).
_NEVER_NULL: Final = frozenset({"typing.Tuple", "typing_extensions.Tuple"})
_NONE_TYPES: Final = frozenset({"types.NoneType", "_typeshed.NoneType", "builtins.NoneType"})

Lookup = Callable[[str], SymbolTableNode | None]


def method_facts(
    func: FuncDef,
    lookup: Lookup,
    module: MypyFile,
    options: Options,
    registered: frozenset[str],
) -> dict[str, object]:
    """The facts about the method *func* (see the module docstring).

    Args:
        func: The method, as parsed (with its parameters).
        lookup: Finds a name where the method is defined.
        module: The module that defines it.
        options: mypy's options for that module.
        registered: The types registered at run time (their schema may admit null).
    """
    strings = module.is_future_flag_set("annotations")
    hidden: frozenset[str] | None = None
    analysed = SchemaCheck(options, registered).admits_null
    params: list[str] = []
    none_defaults: list[str] = []
    unresolved: list[list[str]] = []
    literal_defaults: list[list[str]] = []
    for index, argument in enumerate(func.arguments):
        name = argument.variable.name
        params.append(name)
        annotation = argument.type_annotation
        if index == 0 or annotation is None:
            continue
        shown = literal_default(argument.initializer)
        if shown is not None:
            literal_defaults.append([name, shown])
        if _is_none(argument.initializer) and not admits_null(annotation, lookup, analysed):
            none_defaults.append(name)
        for found, in_string in _names(annotation, strings):
            sym = lookup(found)
            if sym is None:
                continue
            if sym.kind == LDEF:
                if in_string:  # resolved later, in the module's globals and the class's names
                    unresolved.append([name, found])
                    break
                continue
            if hidden is None:
                hidden = type_checking_names(module, options)
            if found in hidden and sym.kind == GDEF:
                unresolved.append([name, found])
                break
    return {
        "params": params,
        "none_defaults": none_defaults,
        "unresolved": unresolved,
        "literal_defaults": literal_defaults,
    }


def class_method_facts(
    api: SemanticAnalyzerPluginInterface, body: list[Statement], registered: frozenset[str]
) -> tuple[dict[str, dict[str, object]], bool]:
    """The facts about each method of a class body (see the module docstring).

    Returns:
        The facts by method, and whether an annotation names what is not defined yet in this
        pass (a class later in the module): its facts are not final.
    """
    module = api.modules[api.cur_mod_id]
    facts: dict[str, dict[str, object]] = {}
    placeholders: list[str] = []
    for stmt in body:
        if not isinstance(stmt, (FuncDef, Decorator, OverloadedFuncDef)):
            continue
        func = function_of(stmt)
        if func is None and isinstance(stmt, OverloadedFuncDef):
            func = _implementation(stmt)
        if func is None:
            continue

        def lookup(name: str, func: FuncDef = func) -> SymbolTableNode | None:
            found = api.lookup_qualified(name, func, suppress_errors=True)
            # Not found in this pass, or a placeholder: a class defined later in the module
            # may be either until it is (on the final pass, a name still missing is missing).
            if found is None or isinstance(found.node, PlaceholderNode):
                placeholders.append(name)
            return found

        facts[stmt.name] = method_facts(func, lookup, module, api.options, registered)
        # mypy's cache keeps no decorators: whether one wraps the method is recorded here.
        facts[stmt.name]["wrapped"] = wrapped_function(stmt)
    return facts, bool(placeholders)


def _implementation(overloaded: OverloadedFuncDef) -> FuncDef | None:
    """The implementation of *overloaded* before mypy has analysed it (it is then its last item).

    Its facts were not recorded, so a base in another module had its unresolvable annotations
    unreported and its positional-only parameters numbered.
    """
    last = overloaded.items[-1] if overloaded.items else None
    if isinstance(last, FuncDef):
        return last
    if isinstance(last, Decorator) and not any(_is_overload(d) for d in last.decorators):
        return last.func
    return None


def _is_overload(decorator: Expression) -> bool:
    """Whether *decorator* is ``@overload`` (``typing.overload``, as imported or as written)."""
    if isinstance(decorator, RefExpr) and decorator.fullname in OVERLOAD:
        return True
    return isinstance(decorator, (NameExpr, MemberExpr)) and decorator.name == "overload"


def literal_default(expr: Expression | None) -> str | None:
    """The ``repr`` of a default that is a bool (``True``), else None."""
    # The name as written, not the fullname: mypy resolves a decorated method's defaults with
    # its body, after the class's declarations are recorded. `True` and `False` are keywords,
    # so the names always are the builtins.
    if isinstance(expr, NameExpr) and expr.name in ("True", "False"):
        return expr.name
    return None


def _is_none(expr: Expression | None) -> bool:
    return isinstance(expr, NameExpr) and expr.name == "None"


def _names(t: Type, in_string: bool) -> Iterator[tuple[str, bool]]:
    """The names an annotation uses, in the order Python evaluates them (roots of dotted ones)."""
    if isinstance(t, UnboundType):
        in_string = in_string or t.original_str_expr is not None
        yield t.name.split(".", 1)[0], in_string
        for arg in t.args:
            yield from _names(arg, in_string)
    elif isinstance(t, UnionType):
        in_string = in_string or t.original_str_expr is not None
        for item in t.items:
            yield from _names(item, in_string)
    elif isinstance(t, TypeList):
        for item in t.items:
            yield from _names(item, in_string)


def admits_null(t: Type, lookup: Lookup, analysed: Callable[[Type], bool]) -> bool:
    """Whether an annotation as written admits ``None`` (True when it cannot be told).

    *t* is the annotation before mypy analyses it (and before ``implicit_optional`` adds
    ``None`` for a ``None`` default); names are resolved with *lookup*, and the types they stand
    for judged by *analysed*.
    """
    if isinstance(t, UnionType):
        return any(admits_null(item, lookup, analysed) for item in t.items)
    if not isinstance(t, UnboundType):
        return analysed(t)
    if t.name == "None":
        return True
    sym = lookup(t.name)
    node = sym.node if sym is not None else None
    if node is None or isinstance(node, PlaceholderNode):
        return True
    fullname = node.fullname
    if fullname in _OPTIONAL:
        return True
    if fullname in _UNION:
        return any(admits_null(arg, lookup, analysed) for arg in t.args)
    if fullname in _ANNOTATED:
        return not t.args or admits_null(t.args[0], lookup, analysed)
    if fullname in _LITERAL:
        return any(_literal_admits_null(arg, lookup) for arg in t.args)
    if fullname in _NEVER_NULL:
        return False
    if isinstance(node, TypeAlias):
        return analysed(node.target)
    if isinstance(node, TypeInfo):
        args: list[Type] = [AnyType(TypeOfAny.special_form)] * len(node.type_vars)
        return fullname in _NONE_TYPES or analysed(Instance(node, args))
    return True  # a type variable, Any, a special form: not this check's business


def _literal_admits_null(arg: Type, lookup: Lookup) -> bool:
    """Whether a value of ``Literal[..., arg, ...]`` is ``None``: ``None`` or a nested literal.

    Numbers and booleans are parsed as raw expressions, strings as names with their text
    (never ``None``). A dotted name is an enum member, whose value is not known yet: it may be
    ``None`` (True, as for what cannot be told).
    """
    if not isinstance(arg, UnboundType) or arg.original_str_expr is not None:
        return False
    if arg.name == "None" or "." in arg.name:
        return True
    sym = lookup(arg.name)
    node = sym.node if sym is not None else None
    if node is not None and node.fullname in _LITERAL:
        return any(_literal_admits_null(inner, lookup) for inner in arg.args)
    return True


def type_checking_names(module: MypyFile, options: Options) -> frozenset[str]:
    """The module-level names bound only under ``if TYPE_CHECKING:`` (absent at run time)."""
    if not any(imp.is_mypy_only for imp in module.imports):
        return frozenset()
    typing_only: set[str] = set()
    runtime: set[str] = set()
    _bind(module.defs, runtime, typing_only, options)
    return frozenset(typing_only - runtime)


def absent_members(body: list[Statement], options: Options) -> list[str]:
    """The names a class body binds that the class does not have at run time, sorted.

    Those bound only under ``if TYPE_CHECKING:`` (Python never creates them) and those a ``del``
    at the top level of the body removes after their last binding. mypy sees both as members
    of the class; a name exported from there is no method at run time, and a base's attribute
    of that name is found instead.
    """
    absent = _deleted(body, options)
    if any(isinstance(stmt, IfStmt) for stmt in body):
        typing_only: set[str] = set()
        runtime: set[str] = set()
        _bind(body, runtime, typing_only, options)
        absent |= typing_only - runtime
    return sorted(absent)


def slot_names(body: list[Statement], class_name: str) -> list[str]:
    """The attributes a literal ``__slots__`` in a class body makes slots, as stored, sorted.

    mypy keeps them (``TypeInfo.slots``) only when every base has ``__slots__`` too, and
    `Toolset` has none: a slot is no member of the class to mypy, but one at run time.
    """
    items: list[Expression] = []
    for stmt in body:
        if not assigns(stmt, "__slots__"):
            continue
        value = stmt.rvalue  # the last assignment is the one the class is created with
        if isinstance(value, StrExpr):
            items = [value]
        elif isinstance(value, (ListExpr, TupleExpr, SetExpr)):
            items = value.items
        elif isinstance(value, DictExpr):
            items = [key for key, _ in value.items if key is not None]
        else:
            items = []
    names = {item.value for item in items if isinstance(item, StrExpr)}
    return sorted(mangle(class_name, name) for name in names - {"__dict__", "__weakref__"})


def _deleted(body: list[Statement], options: Options) -> set[str]:
    """The names a top-level ``del`` removes and no later statement binds again."""
    if not any(isinstance(stmt, DelStmt) for stmt in body):
        return set()  # (every class mypy analyses comes here: the cheap test first)
    deleted: set[str] = set()
    for stmt in body:
        if isinstance(stmt, DelStmt):
            deleted.update(deleted_names(stmt))
        elif deleted:
            bound: set[str] = set()  # under `if TYPE_CHECKING:` too: mypy sees it then
            _bind([stmt], bound, bound, options)
            deleted -= bound
    return deleted


def deleted_names(stmt: DelStmt) -> list[str]:
    """The names ``del a, b`` removes, as written (not mangled)."""
    return list(_targets(stmt.expr))


def _bind(body: list[Statement], names: set[str], typing_only: set[str], options: Options) -> None:
    for stmt in body:
        if isinstance(stmt, Import):
            names.update(alias or module.split(".", 1)[0] for module, alias in stmt.ids)
        elif isinstance(stmt, ImportFrom):
            names.update(alias or name for name, alias in stmt.names)
        elif isinstance(stmt, (ClassDef, FuncDef, Decorator, OverloadedFuncDef)):
            names.add(stmt.name)
        elif isinstance(stmt, AssignmentStmt):
            for lvalue in stmt.lvalues:
                names.update(_targets(lvalue))
        elif isinstance(stmt, IfStmt):
            for condition, block in zip(stmt.expr, stmt.body, strict=True):
                if infer_condition_value(condition, options) == MYPY_TRUE:
                    _bind(block.body, typing_only, typing_only, options)
                else:
                    _bind(block.body, names, typing_only, options)
            if stmt.else_body is not None:
                # mypy skips the `else` of `if TYPE_CHECKING:`; Python runs it.
                _bind(stmt.else_body.body, names, typing_only, options)
        else:
            for block in _blocks(stmt):
                _bind(block.body, names, typing_only, options)


def _targets(lvalue: Expression) -> Iterator[str]:
    if isinstance(lvalue, NameExpr):
        yield lvalue.name
    elif isinstance(lvalue, TupleExpr):
        for item in lvalue.items:
            yield from _targets(item)


def _blocks(stmt: Statement) -> Iterator[Block]:
    if isinstance(stmt, (WithStmt, ForStmt, WhileStmt)):
        yield stmt.body
        else_body = getattr(stmt, "else_body", None)
        if isinstance(else_body, Block):
            yield else_body
    elif isinstance(stmt, TryStmt):
        yield stmt.body
        yield from stmt.handlers
        for block in (stmt.else_body, stmt.finally_body):
            if block is not None:
                yield block
