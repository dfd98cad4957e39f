"""Reading ``tool()`` declarations during semantic analysis into the class's metadata.

A base-class hook runs on every Toolset subclass: it records the class's own declarations (both
forms, ``exports = (tool("name"), ...)`` and ``@tool`` / ``@tool(...)`` on a method), its
``toolset_name``, its method aliases (``search = find``) and the facts about its methods that
only their source shows (`typed_toolsets.plugin.sources`) as JSON metadata on the class, so that
they reach other modules through mypy's cache, and registers the dependencies that incremental
mode and the daemon need. The class checks read them back through `typed_toolsets.plugin.metadata`
once the class is defined.

What mypy can know is read: literals and ``Final`` constants (of any module for names, of this
module for tuples of declarations), ``method_name=`` by keyword, tuples built with ``+``, ``*``
and unpacking, ``Base.exports``, and aliases of `tool`. Anything else is recorded as *unchecked*
and reported with its own code (``toolset-unchecked``), never skipped without a word.
"""

from __future__ import annotations

import hashlib
import json
from typing import Final, TypeGuard

from mypy.nodes import (
    ARG_POS,
    ARG_STAR,
    ARG_STAR2,
    FUNC_NO_INFO,
    AssignmentStmt,
    CallExpr,
    Context,
    Decorator,
    DelStmt,
    Expression,
    FuncDef,
    IndexExpr,
    LambdaExpr,
    MemberExpr,
    NameExpr,
    OperatorAssignmentStmt,
    OverloadedFuncDef,
    RefExpr,
    Statement,
    StrExpr,
    SymbolNode,
    TempNode,
    TypeInfo,
    Var,
)
from mypy.plugin import ClassDefContext, SemanticAnalyzerPluginInterface
from mypy.plugins.common import add_attribute_to_class
from mypy.server.trigger import make_wildcard_trigger
from mypy.types import PROTOCOL_NAMES, LiteralType, get_proper_type

from typed_toolsets.rules.names import mangle
from typed_toolsets.rules.problems import problem

from .body import DECLARING, assigns, class_statements, unread_bindings
from .codes import report
from .decorators import (
    overload_marks,
    replaced_method,
    report_overload_marks,
    resolve,
    statement_decoratordecl,
    statement_decoratordecls,
)
from .fullnames import TOOL_SPEC, TOOLSET
from .inline import record_limits
from .metadata import DIGEST, FIELDS_META, META, META_VERSION, MIXIN_META, records
from .reader import Reader, assignments, describe, fold, span
from .sources import absent_members, class_method_facts, deleted_names, slot_names
from .typeinfo import class_span, display_name, function_of

__all__ = ["record_class", "record_mixin"]

#: The metaclasses with which mypy simulates ``__init_subclass__`` (``check_init_subclass``).
_CHECKED_METACLASSES: Final = ("builtins.type", "abc.ABCMeta")


def _unknown(data: dict[str, object], name: str, at: Context, where: str) -> None:
    """The class sets *name*, a declaring attribute, to what the plugin cannot know.

    *where* says how, for the messages about ``limits`` (only an inline tool needs them).
    """
    if name == "exports":
        data["exports_set"] = True
        data["exports_unchecked"] = True
        data["exports"] = []
    elif name == "toolset_name":
        data["toolset_name_set"] = True
        data["toolset_name_at"] = span(at)
        data.pop("toolset_name", None)
        data.pop("toolset_name_type", None)
    else:
        data["limits_set"] = True
        data["limits_at"] = span(at)
        data["limits_expression"] = f"`limits` ({where})"
        data.pop("limits_timeout", None)


def _record_unread(reader: Reader, stmt: Statement, data: dict[str, object]) -> None:
    """Declaring attributes bound in a way the plugin does not read: reported, never skipped."""
    for name, binding in unread_bindings(stmt):
        _unknown(data, name, stmt, f"bound by {binding}")
        if name != "limits":  # reported by the inline tool that needs them
            reader.skip("unchecked-binding", stmt, name=name, binding=binding)


def _record_conditional(
    reader: Reader, stmt: Statement, block: str, data: dict[str, object]
) -> None:
    """A declaration nested in a compound statement: reported as unchecked, never skipped.

    Which branch runs is decided when the class is created, so the class's ``exports`` (or
    ``toolset_name``, or ``limits``) becomes unknown, and a ``@tool`` there may or may not
    declare a tool.
    """
    for name in DECLARING:
        if assigns(stmt, name) and not isinstance(stmt.rvalue, TempNode):
            _unknown(data, name, stmt, f"set inside {block}")
            if name != "limits":  # reported by the inline tool that needs them
                declaration = f"`{name} = ...`"
                reader.skip("unchecked-conditional", stmt, declaration=declaration, block=block)
    _record_unread(reader, stmt, data)
    before = len(reader.unchecked)
    decl = statement_decoratordecl(reader, stmt)
    del reader.unchecked[before:]  # its options are not read: the declaration itself is not
    if decl is not None:
        at = {key: decl[key] for key in ("line", "column", "end_line", "end_column")}
        values = {"method": str(decl["method"]), "declaration": "@tool", "block": block}
        reader.unchecked.append({"kind": "unchecked-conditional", **at, "values": values})


class _Attributes:
    """What the names a class body assigns say, besides its declarations."""

    def __init__(self) -> None:
        #: ``search = find``: the function each alias holds.
        self.aliases: dict[str, dict[str, object]] = {}
        #: ``f = lambda self: ...``: each lambda's parameters.
        self.lambdas: dict[str, list[list[str]]] = {}
        #: ``count = tool("word_count")``: a declaration outside ``exports``.
        self.loose: list[dict[str, object]] = []

    def record(
        self, reader: Reader, stmt: AssignmentStmt, name: str, data: dict[str, object]
    ) -> None:
        """Record ``name = value`` (*stmt*) into the class's metadata *data*, or here."""
        value = stmt.rvalue
        if isinstance(value, TempNode):
            return  # `exports: ClassVar[...]` alone sets nothing: the class inherits the value
        if name == "exports":
            data["exports"], data["exports_unchecked"] = _read_exports(reader, value)
            data["exports_set"] = True
        elif name == "toolset_name":
            _record_toolset_name(reader, stmt, data)
        elif name == "limits":
            record_limits(stmt, data, describe, span(stmt))
        elif isinstance(value, LambdaExpr):
            self.lambdas[name] = _lambda_parameters(value)
        elif (method := _loose_tool(reader, value)) is not None:
            self.loose.append({"attribute": name, "method": method})
        else:
            alias = alias_target(value)
            if alias is not None:
                self.aliases[name] = {**alias, **span(stmt)}


def record_class(ctx: ClassDefContext, registered: frozenset[str]) -> None:
    """Store the class's own declarations as metadata (idempotent: may run several times).

    *registered* names the types registered at run time (from the plugin's config).
    """
    info = ctx.cls.info
    if not info.has_base(TOOLSET) or info.fullname == TOOLSET:
        return
    ancestors = [base for base in info.mro[1:] if base.fullname != "builtins.object"]
    for base in ancestors:
        # dmypy re-checks this class when any ancestor changes (as mypy's attrs plugin does).
        ctx.api.add_plugin_dependency(make_wildcard_trigger(base.fullname))
    module = ctx.api.modules.get(ctx.api.cur_mod_id)
    refs = getattr(module, "module_refs", None)
    if isinstance(refs, set):  # coarse incremental mode on mypy 1.20 to 2.3
        refs.update(b.module_name for b in ancestors if b.module_name != ctx.api.cur_mod_id)  # pyright: ignore[reportUnknownMemberType]

    reader = Reader(ctx.api, info)
    data: dict[str, object] = {"version": META_VERSION}
    decorated: list[dict[str, object]] = []
    attributes = _Attributes()
    marked_overloads: list[dict[str, int]] = []
    for stmt, block in class_statements(ctx.cls.defs.body):
        if block is not None:
            _record_conditional(reader, stmt, block, data)
            continue
        if isinstance(stmt, AssignmentStmt):
            for target in stmt.lvalues:  # `exports = ALL = (...)` binds the value to each name
                if isinstance(target, NameExpr):
                    attributes.record(reader, stmt, target.name, data)
                    decorated += _marked_elsewhere(reader, stmt.rvalue, target.name)
        if _extends_exports(stmt, data):
            _record_extension(reader, stmt, data)
        else:
            _record_unread(reader, stmt, data)
        # Stacked `@tool`s declare the method once each: merging reports the further ones.
        marked = statement_decoratordecls(reader, stmt)
        replaced = None if marked else replaced_method(stmt)
        if replaced is not None:  # a `def` not marked: the marks of the one it replaces go
            gone_name = mangle(info.name, replaced)
            decorated = [decl for decl in decorated if decl["method"] != gone_name]
        decorated += marked
        if isinstance(stmt, DelStmt):  # `del find` after `@tool def find`: the mark goes too
            gone = {mangle(info.name, name) for name in deleted_names(stmt)}
            decorated = [decl for decl in decorated if decl["method"] not in gone]
        marked_overloads += overload_marks(reader, stmt)
    data.setdefault("exports", [])
    data["decorated"] = decorated
    data["overload_marks"] = marked_overloads
    data["unchecked"] = reader.unchecked
    data["aliases"] = attributes.aliases
    data["lambdas"] = attributes.lambdas
    data["loose_tools"] = attributes.loose
    data["methods"], waiting = class_method_facts(ctx.api, ctx.cls.defs.body, registered)
    if waiting and not ctx.api.final_iteration:
        # A later class's name: whether it admits null is known once it is defined, in a
        # further pass (this hook runs again then; what is recorded now is overwritten).
        ctx.api.defer()
    data["absent"] = absent_members(ctx.cls.defs.body, ctx.api.options)
    data["slots"] = slot_names(ctx.cls.defs.body, info.name)
    data["mixin_declarations"] = _mixin_declarations(ctx.api, info)
    info.metadata[META] = data
    _add_digest(ctx, data)
    meta = info.metaclass_type
    if meta is not None and meta.type.fullname not in _CHECKED_METACLASSES:
        # mypy skips the `__init_subclass__` simulation the checks run in: say so.
        found = problem("unchecked-metaclass", display_name(info), metaclass=meta.type.name)
        report(ctx.api, found, class_span(info))
    for stmt, _ in class_statements(ctx.cls.defs.body):
        if assigns(stmt, "exports"):
            _declare_exports_type(ctx, stmt)


def _extends_exports(stmt: Statement, data: dict[str, object]) -> TypeGuard[OperatorAssignmentStmt]:
    """Whether *stmt* is ``exports += ...`` after the class body set ``exports`` itself."""
    return (
        isinstance(stmt, OperatorAssignmentStmt)
        and stmt.op == "+"
        and isinstance(stmt.lvalue, NameExpr)
        and stmt.lvalue.name == "exports"
        and data.get("exports_set") is True
    )


def _record_extension(
    reader: Reader, stmt: OperatorAssignmentStmt, data: dict[str, object]
) -> None:
    """``exports += (...)`` after ``exports = ...``: the tuple the class holds grows."""
    more, unread = _read_exports(reader, stmt.rvalue)
    data["exports"] = [*records(data["exports"]), *more]
    data["exports_unchecked"] = data.get("exports_unchecked") is True or unread


def _read_exports(reader: Reader, value: Expression) -> tuple[list[dict[str, object]], bool]:
    """The declarations an ``exports`` value makes, and whether some of it could not be read.

    What could not be read is recorded as unchecked on *reader* (`Reader.exports`).
    """
    found: list[dict[str, object]] = []
    before = len(reader.unchecked)
    reader.exports(value, found)
    return found, len(reader.unchecked) > before


def _mixin_declarations(
    api: SemanticAnalyzerPluginInterface, info: TypeInfo
) -> list[dict[str, str]]:
    """The methods bases of *info* that are not Toolsets declare tools for, which nothing inherits.

    Only bases of this module are read: another module's class body is gone once it comes from
    mypy's cache, and what the plugin says must not depend on that. A base defined here has
    been analysed already (it is defined before the class), so its names are bound.
    """
    found: list[dict[str, str]] = []
    for base in info.mro[1:]:
        if base.has_base(TOOLSET) or base.module_name != api.cur_mod_id:
            continue
        reader = Reader(api, base)
        mixin = display_name(base)
        for stmt, block in class_statements(base.defn.defs.body):
            declared: list[dict[str, object]] = []
            if block is None and assigns(stmt, "exports"):
                declared, _ = _read_exports(reader, stmt.rvalue)
            decl = statement_decoratordecl(reader, stmt) if block is None else None
            declared += [decl] if decl is not None else []
            if block is None and isinstance(stmt, AssignmentStmt):  # `held = marked`
                for target in stmt.lvalues:
                    if isinstance(target, NameExpr):
                        declared += _marked_elsewhere(reader, stmt.rvalue, target.name)[:1]
            found += [{"mixin": mixin, "method": str(d["method"])} for d in declared]
    return found


def _loose_tool(reader: Reader, expr: Expression) -> str | None:
    """The method name of ``tool("name", ...)`` bound to an attribute (not in ``exports``)."""
    if not isinstance(expr, CallExpr) or not reader.is_tool(expr.callee) or not expr.args:
        return None
    if expr.arg_kinds[0] != ARG_POS or expr.arg_names[0] is not None:
        return None
    method = reader.literal_str(expr.args[0])
    return method if isinstance(method, str) else None


def record_mixin(ctx: ClassDefContext) -> None:
    """Record a class's ``toolset_name``, ``limits`` and unnamed parameters if not a Toolset.

    Its literal ``toolset_name``, its ``limits``, the names of its methods' positional-only
    parameters (`_unnamed_parameters`) and the names it binds that it lacks at run time
    (`sources.absent_members`): a Toolset subclass combining the mixin takes its name,
    limits and methods from it, and the mixin's own body is gone once the mixin comes from mypy's
    cache. The limits are recorded as `inline.record_limits` records a Toolset's.
    """
    # Called for every class mypy analyses (typeshed's too): the cheapest test first.
    body = ctx.cls.defs.body
    info = ctx.cls.info
    if not info.has_base(TOOLSET):
        report_overload_marks(ctx)  # (a Toolset's are checked with its declarations)
    # A protocol is no struct, and a digest would be a member every match must have.
    protocol = _is_protocol(ctx)
    fields = _record_none_defaults(info, [] if protocol else body)
    names = list(assignments(body, "toolset_name"))
    # `limits: ClassVar[Limits]` alone sets nothing (the class has no such attribute). A class
    # that calls nothing there sets no `Limits(...)`: leave it alone ("limits" is a common name).
    limits = [s for s in assignments(body, "limits") if not isinstance(s.rvalue, TempNode)]
    if not any(isinstance(s.rvalue, CallExpr) for s in limits):
        limits = []
    methods = {} if ctx.api.is_stub_file else _unnamed_parameters(body)
    absent = absent_members(body, ctx.api.options)
    slots = slot_names(body, info.name)
    if not (names or limits or methods or absent or slots) or info.has_base(TOOLSET):
        if fields is not None and not info.has_base(TOOLSET):
            _add_digest(ctx, fields)  # (never a protocol's)
        return  # `record_class` reads a Toolset's
    data: dict[str, object] = {"version": META_VERSION}
    if methods:
        data["methods"] = methods
    if absent:
        data["absent"] = absent
    if slots:
        data["slots"] = slots
    for stmt in names:  # the last assignment is the class's
        value = stmt.rvalue
        data["mixin_toolset_name"] = value.value if isinstance(value, StrExpr) else None

    for stmt in limits:
        record_limits(stmt, data, describe, span(stmt), lambda ref: resolve(ctx.api, ref))
    info.metadata[MIXIN_META] = data
    if not protocol:  # then the daemon may miss an edit of its name or limits: rare enough
        _add_digest(ctx, {**data, **(fields or {})})


def _unnamed_parameters(body: list[Statement]) -> dict[str, dict[str, object]]:
    """The parameter names of a class's methods whose parameters mypy leaves unnamed, by method.

    mypy keeps no name for a positional-only parameter (a real ``/``, or the ``__x`` convention,
    which Python does not follow: it mangles the name), and the body is gone once the class comes
    from mypy's cache. A Toolset combining the class names the parameter from this, as the run
    time does (`sources.method_facts`'s ``params``). Special methods are left out: they are never
    exported, and mypy takes their parameters as positional-only.
    """
    found: dict[str, dict[str, object]] = {}
    for stmt in body:
        if not isinstance(stmt, (FuncDef, Decorator, OverloadedFuncDef)):
            continue
        if stmt.name.startswith("__") and stmt.name.endswith("__"):
            continue
        func = function_of(stmt)
        if func is not None and None in func.arg_names[1:]:
            found[stmt.name] = {"params": [a.variable.name for a in func.arguments]}
    return found


def _is_protocol(ctx: ClassDefContext) -> bool:
    """Whether the class is a protocol (mypy sets ``is_protocol`` after the MRO hook runs).

    By then mypy has moved its ``Protocol`` (or ``Protocol[T]``) base out of the bases.
    """
    for expr in ctx.cls.removed_base_type_exprs:
        base = expr.base if isinstance(expr, IndexExpr) else expr
        node = resolve(ctx.api, base) if isinstance(base, RefExpr) else None
        if node is not None and node.fullname in PROTOCOL_NAMES:
            return True
    return False


#: The calls that declare a field with its options, by the name they are called with
#: (``attrs.field``, ``attr.ib``, ``dataclasses.field``): mypy has not bound names yet.
_FIELD_CALLS: Final = frozenset({"field", "ib", "attrib"})


def _record_none_defaults(info: TypeInfo, body: list[Statement]) -> dict[str, object] | None:
    """Record the annotated fields of a class body whose default is ``None``; the record or None.

    ``x: int = None`` (mypy reports it, unless silenced) and ``x: int = attrs.field(default=None)``
    (which mypy accepts): a struct's field, if the class is one, whose type may refuse ``null``.
    """
    found = [
        stmt.lvalues[0].name
        for stmt in body
        if isinstance(stmt, AssignmentStmt)
        and stmt.unanalyzed_type is not None
        and len(stmt.lvalues) == 1
        and isinstance(stmt.lvalues[0], NameExpr)
        and _none_default(stmt.rvalue)
    ]
    if not found:
        info.metadata.pop(FIELDS_META, None)
        return None
    data: dict[str, object] = {"version": META_VERSION, "none_defaults": found}
    info.metadata[FIELDS_META] = data
    return data


def _none_default(value: Expression) -> bool:
    """Whether a field's value makes its default ``None``: ``None``, ``field(default=None)``."""
    if isinstance(value, NameExpr):
        return value.name == "None"
    if not isinstance(value, CallExpr) or not isinstance(value.callee, (NameExpr, MemberExpr)):
        return False
    called = value.callee.name
    if called not in _FIELD_CALLS:
        return False
    for index, (name, arg) in enumerate(zip(value.arg_names, value.args, strict=True)):
        # `attr.ib(None)`: its first parameter is the default.
        if name == "default" or (name is None and index == 0 and called != "field"):
            return isinstance(arg, NameExpr) and arg.name == "None"
    return False


def _record_toolset_name(reader: Reader, stmt: AssignmentStmt, data: dict[str, object]) -> None:
    value = reader.literal_str(stmt.rvalue)
    data["toolset_name_set"] = True
    data["toolset_name_at"] = span(stmt)
    data.pop("toolset_name", None)
    data.pop("toolset_name_type", None)
    if isinstance(value, str):
        data["toolset_name"] = value
        return
    # A constant that is no str (`None`, `123`): the run time's problem, shown as its repr.
    constant = None if value is None else fold(stmt.rvalue, reader.module)
    if value is None or constant is not None:
        data["toolset_name_type"] = repr(constant)
    else:
        reader.skip("unchecked-toolset-name", stmt.rvalue, expression=describe(stmt.rvalue))


def _referred(expr: Expression) -> SymbolNode | None:
    """What the name or attribute *expr* refers to (``find``, ``Base.method``), if it is one."""
    if not isinstance(expr, RefExpr):
        return None
    node = expr.node
    if isinstance(expr, MemberExpr) and isinstance(expr.expr, RefExpr):
        owner = expr.expr.node  # `Base.method`: semantic analysis leaves class members unbound
        sym = owner.get(expr.name) if isinstance(owner, TypeInfo) else None
        node = sym.node if sym is not None else node
    return node


def _marked_elsewhere(reader: Reader, expr: Expression, name: str) -> list[dict[str, object]]:
    """``g = free``: the declarations of a function marked ``@tool`` under another name.

    The run time declares such a function as the attribute's tool (``g``), unless the class or
    a base holds it under its own name too (``search = find`` after ``@tool def find``: an alias
    of a method declared there). Only a function of this module is read: another module's
    decorators are gone once it comes from mypy's cache, and what the plugin says must not
    depend on that.
    """
    node = _referred(expr)
    if not isinstance(node, Decorator):
        return []
    owner = node.func.info
    module = node.fullname.rpartition(".")[0] if owner is FUNC_NO_INFO else owner.module_name
    if module != reader.module:
        return []
    for klass in reader.info.mro:
        held = klass.names.get(node.name)
        if held is not None and held.node is node:
            return []  # an alias of the method where it is declared
    return reader.decorators(mangle(reader.info.name, name), node.original_decorators)


def alias_target(expr: Expression) -> dict[str, object] | None:
    """``search = find``: what a class attribute assigned a function refers to, if it does.

    The class then holds the same function under another name, a plain method at run time.
    """
    if not isinstance(expr, RefExpr):
        return None
    node = _referred(expr)
    if isinstance(node, Decorator):
        node = node.func
    if isinstance(node, (FuncDef, OverloadedFuncDef)) and node.fullname.startswith("builtins."):
        return None  # `f = len`: a builtin, implemented in C, is an attribute, not a method
    if isinstance(node, OverloadedFuncDef):
        return {"target": node.fullname, "name": node.name}
    if isinstance(node, FuncDef) and not (node.is_static or node.is_class or node.is_property):
        return {"target": node.fullname, "name": node.name}
    return None


def _lambda_parameters(expr: LambdaExpr) -> list[list[str]]:
    """``[name, kind]`` of each parameter of a lambda a class attribute holds.

    A plain function at run time, whose parameters have no annotations: `ClassCheck`'s
    ``lambda_problems`` judges them.
    """
    kinds = {ARG_STAR: "var-positional", ARG_STAR2: "var-keyword"}
    found: list[list[str]] = []
    for argument in expr.arguments:
        if argument.kind in kinds:
            kind = kinds[argument.kind]
        elif argument.pos_only and argument.kind.is_positional():
            # mypy before 2 marks a keyword-only `__key` positional-only too (its old spelling)
            kind = "positional-only"
        else:
            kind = "positional" if argument.kind.is_positional() else "keyword"
        found.append([argument.variable.name, kind])
    return found


def _add_digest(ctx: ClassDefContext, data: dict[str, object]) -> None:
    text = json.dumps(data, sort_keys=True, separators=(",", ":"))
    digest = hashlib.sha256(text.encode()).hexdigest()[:16]
    current = ctx.cls.info.names.get(DIGEST)
    node = current.node if current is not None else None
    if isinstance(node, Var):
        proper = get_proper_type(node.type) if node.type is not None else None
        if isinstance(proper, LiteralType) and proper.value == digest:
            return
    literal = LiteralType(digest, ctx.api.named_type("builtins.str"))
    add_attribute_to_class(
        ctx.api,
        ctx.cls,
        DIGEST,
        literal,
        is_classvar=True,
        override_allow_incompatible=True,
        overwrite_existing=True,
    )


def _declare_exports_type(ctx: ClassDefContext, stmt: AssignmentStmt) -> None:
    """Declare an unannotated ``exports = (...)`` as ``tuple[ToolSpec, ...]``.

    mypy infers ``tuple[ToolSpec, ToolSpec]`` for it despite the base's declared type
    (python/mypy#14760), and a subclass with a different number of tools would then fail with an
    ``[assignment]`` error. Declaring the type keeps mypy's check that the value is a tuple of
    `ToolSpec`.
    """
    names = [t for t in stmt.lvalues if isinstance(t, NameExpr) and t.name == "exports"]
    if stmt.type is not None or not names:
        return
    target = names[0]  # `exports = exports = (...)` binds it twice, to one variable
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
