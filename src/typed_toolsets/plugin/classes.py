"""The checks of a Toolset class once it is defined (checks 1 to 4), mirroring `build_class`.

At type-check time mypy simulates one ``__init_subclass__`` call per class definition; the hook
on it (`check_class_hook`) runs every check once the whole class, its bases and the
attrs-generated ``__init__`` are known. The declarations come from the metadata recorded during
semantic analysis (`typed_toolsets.plugin.declarations`); each problem is a
`typed_toolsets.rules.problems.Problem`, reported with the runtime's words.

Where a problem is reported: an own declaration's problems on the declaration; a parameter's on
the parameter when the method is in this file. A problem of an *inherited* declaration that this
class causes is reported on the line that causes it (its ``toolset_name``, the overriding
method), or on the ``class`` line, with a note there naming the class that declares it.
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
    MypyFile,
    NameExpr,
    Statement,
    SymbolNode,
    TypeInfo,
    Var,
)
from mypy.plugin import CheckerPluginInterface, MethodContext
from mypy.types import Type

from typed_toolsets.rules.kinds import Kind
from typed_toolsets.rules.names import (
    API_NAMES,
    close_matches,
    default_toolset_name,
    final_tool_name,
    mangle,
    tool_name_problem,
)
from typed_toolsets.rules.problems import Problem, problem

from .codes import Span, failed_within, note, report
from .decorators import overload_mark_problem
from .deps import depend_on
from .fullnames import TOOLSET
from .inline import inline_problem
from .members import Found, lookup_member
from .metadata import (
    META,
    Declaration,
    absent_members_of,
    class_metadata,
    declarations_of,
    loose_tools_of,
    metadata,
    mixin_toolset_name,
    overload_marks_of,
    stored_span,
    unchecked_of,
    wrapped,
)
from .mixins import report_mixin_declarations, report_mixin_name
from .signatures import SignatureCheck
from .typeinfo import (
    attrs_field_names,
    checker_modules,
    class_span,
    display_name,
    function_of,
    is_plain_function,
    is_property,
    wrapper_of,
)

__all__ = [
    "ClassCheck",
    "check_class_hook",
    "class_span",
    "display_name",
    "exported_function",
    "is_plain_function",
    "merge",
]

#: Unchecked kinds after which a class may export any method.
_UNREADABLE_EXPORTS: Final = frozenset(
    {
        "unchecked-exports",
        "unchecked-exports-name",
        "unchecked-method-name",
        "unchecked-conditional",
        "unchecked-binding",
        "unchecked-arguments",
        "unchecked-decorator",
    }
)
#: Modules whose definitions never change between runs (mypy does not track them either).
_STABLE: Final = ("builtins", "typing", "typing_extensions", "collections", "types", "abc")


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


def _one_copy(earlier: Declaration, decl: Declaration) -> bool:
    """Whether both come from one ``Base.exports`` the class repeats: the base declares it twice.

    That is the base's problem, reported on the base (whose class the run time never creates,
    so nothing of this one is checked there). One place of Base's copied twice (``Base.exports
    * 2``, ``X + X``) is this class's repeat.
    """
    return (
        decl.copied_from is not None
        and earlier.copied_from == decl.copied_from
        and (earlier.line, earlier.column) == (decl.line, decl.column)
        and earlier.copied_index != decl.copied_index
    )


def merge(info: TypeInfo) -> tuple[list[Declaration], list[Declaration]]:
    """The declarations *info* has, merged along its MRO as `build_class` merges them.

    Returns:
        Bases' declarations first (re-declarations keep their place), then the class's own;
        and the own declarations of a method the class declares twice.
    """
    merged: dict[str, Declaration] = {}
    for klass in reversed(info.mro[1:]):
        for decl in declarations_of(klass):
            merged[decl.method] = decl
    first: dict[str, Declaration] = {}
    twice: list[Declaration] = []
    for decl in declarations_of(info):
        earlier = first.setdefault(decl.method, decl)
        if earlier is not decl and not _one_copy(earlier, decl):
            twice.append(decl)
        inherited = merged.get(decl.method)
        if (
            decl.copied_from is not None
            and inherited is not None
            and inherited.declared_by.fullname == decl.copied_from
        ):
            continue  # `Base.exports` repeats Base's own: it keeps meaning what it meant
        merged[decl.method] = decl
    return list(merged.values()), twice


def exported_function(info: TypeInfo, name: str, modules: dict[str, MypyFile]) -> bool | None:
    """Whether ``instance.<name>`` of a *info* instance is a method *info* exports.

    True when *name* is declared, or names the same function as a declared name (an alias);
    None when some declaration of the class cannot be read (it might be any method). *name* is
    mypy's (``self.__find`` is ``__find``): the class that defines it stores it mangled.
    """
    owner = next((klass for klass in info.mro if name in klass.names), None)
    if owner is not None:
        name = mangle(owner.name, name)
    if any(item.kind in _UNREADABLE_EXPORTS for klass in info.mro for item in unchecked_of(klass)):
        return None
    declarations, _ = merge(info)
    if any(decl.method == name for decl in declarations):
        return True
    found = lookup_member(info, name, modules)
    if found is None or found.node is None:
        return None  # not a method at all: mypy reports the attribute
    for decl in declarations:
        other = lookup_member(info, decl.method, modules)
        if other is not None and other.node is found.node:
            return True
    return False


class ClassCheck:
    """Runs checks 1 to 6 and 8 on one class definition, mirroring `build_class`."""

    def __init__(
        self, api: CheckerPluginInterface, info: TypeInfo, registered: frozenset[str]
    ) -> None:
        self.api = api
        self.info = info
        self.name = display_name(info)
        self.signatures = SignatureCheck(api, info, self.name, registered)
        self.noted: set[str] = set()

    def lookup(self, info: TypeInfo, name: str) -> Found | None:
        """*name* in *info*'s MRO (a method alias stands for the function it names)."""
        return lookup_member(info, name, checker_modules(self.api))

    def where(self, decl: Declaration) -> Span:
        """Own declarations are reported where they are written, inherited ones on the class."""
        if self.own(decl) and decl.line > 0:
            return decl.span
        return class_span(self.info)

    def own(self, decl: Declaration) -> bool:
        """Whether *decl* is written in this class's body (``Base.exports`` copies included)."""
        return decl.declared_by is self.info

    def report(self, found: Problem, decl: Declaration, at: Span | None = None) -> None:
        """Report a problem of *decl* at *at* (default: `where`), with a note if it is inherited."""
        report(self.api, found, at or self.where(decl))
        if not self.own(decl) and decl.method not in self.noted:
            self.noted.add(decl.method)
            note(self.api, self.inherited_note(decl), class_span(self.info))

    def inherited_note(self, decl: Declaration) -> str:
        """The note naming the class that declares an inherited declaration, and where."""
        owner = decl.declared_by
        return (
            f"{self.name} inherits the declaration of {decl.method!r} from {display_name(owner)} "
            f"(line {decl.line} of {owner.module_name})"
        )

    # -- names

    def toolset_name_origin(self, info: TypeInfo) -> tuple[TypeInfo, str | None]:
        """The class that gives *info* its ``toolset_name``, and the name (None if unknown).

        `Toolset`'s own is the default, unless a class after it in the MRO (a mixin listed
        after `Toolset`) sets one: the run time's descriptor looks past it (`_DefaultToolsetName`).
        """
        toolset: TypeInfo | None = None
        for klass in info.mro:
            if klass.fullname == TOOLSET:
                toolset = klass
                continue
            data = metadata(klass)
            if data is not None and data.get("toolset_name_set"):
                if "toolset_name_type" in data:  # no str: the run time takes the default
                    return klass, default_toolset_name(info.name)
                name = data.get("toolset_name")
                return klass, name if isinstance(name, str) else None
            sym = klass.names.get("toolset_name")
            if (
                data is None
                and sym is not None
                and not (isinstance(sym.node, Var) and not sym.node.has_explicit_value)
            ):
                # A mixin that is not a Toolset: a string literal (or Final) can be known. (Only
                # annotated, `toolset_name: ClassVar[str]`, it sets nothing: the class has none.)
                node = sym.node
                value = node.final_value if isinstance(node, Var) else None
                if not isinstance(value, str):
                    value = mixin_toolset_name(klass)
                return klass, value
        if toolset is not None:
            return toolset, default_toolset_name(info.name)
        return info, None

    def toolset_name(self, info: TypeInfo) -> str | None:
        """The ``toolset_name`` *info* has at run time, or None when it is not known."""
        return self.toolset_name_origin(info)[1]

    def final_name(self, decl: Declaration, toolset_name: str | None) -> str | None:
        """The exported name of *decl*, or None when it is not known statically."""
        if not decl.tool_name_known:
            return None
        if decl.tool_name is not None:
            return decl.tool_name
        if toolset_name is None:
            return None
        return final_tool_name(toolset_name, decl.method, None)

    def name_span(self, decl: Declaration) -> Span:
        """Where a name problem of *decl* is caused.

        For an inherited declaration whose name is made from this class's ``toolset_name``,
        the ``toolset_name`` assignment; else `where`.
        """
        at = stored_span(class_metadata(self.info).get("toolset_name_at"))
        if not self.own(decl) and decl.tool_name is None and at is not None:
            return at
        return self.where(decl)

    # -- the checks

    def merged(self) -> list[Declaration]:
        """Bases' declarations first (re-declarations keep their place), then the class's own."""
        declarations, twice = merge(self.info)
        for decl in twice:
            report(self.api, problem("declared-twice", self.name, decl.method), decl.span)
        return declarations

    def inherited_method(self, decl: Declaration, found: Found | None) -> bool:
        """Whether an inherited declaration still resolves to what it did in its own class.

        Problems of the method itself were then reported on that class already; repeating
        them on every subclass would only add noise.
        """
        if self.own(decl):
            return False
        there = self.lookup(decl.declared_by, decl.method)
        if found is None or there is None:
            return found is None and there is None
        return found.owner is there.owner and found.node is there.node

    def inherited_name(self, decl: Declaration) -> bool:
        """Whether an inherited declaration keeps the final name it had in its own class."""
        return not self.own(decl) and self.final_name(
            decl, self.toolset_name(self.info)
        ) == self.final_name(decl, self.toolset_name(decl.declared_by))

    def run(self) -> None:
        """Check every declaration the class has, its own and inherited."""
        self.report_unchecked()
        self.report_loose_tools()
        self.report_overload_marks()
        origin, toolset_name = self.toolset_name_origin(self.info)
        self.report_toolset_name_type(origin)
        final_names: dict[str, Declaration] = {}
        declarations = self.merged()
        if toolset_name is None and any(d.tool_name is None for d in declarations):
            report_mixin_name(self.api, self.info, origin)
        report_mixin_declarations(self.api, self.info, {d.method for d in declarations})
        for decl in declarations:
            if not decl.method:
                # `tool("")` raises before the class exists: `tool()`'s own argument error.
                if self.own(decl):
                    report(self.api, problem("tool-method-name", None, got=repr("")), decl.span)
                continue
            found = self.lookup(self.info, decl.method)
            quiet = self.inherited_method(decl, found)
            if found is None:
                if not quiet:
                    self.report(self.unknown(decl), decl)
                continue
            kind = self.kind_problem(decl.method, found)
            if kind is not None:
                if not quiet:
                    self.report(kind, decl, self.override_span(found, decl))
                continue
            name = self.final_name(decl, toolset_name)
            reason = tool_name_problem(name) if name is not None else None
            if name is not None and reason is not None:
                if not self.inherited_name(decl):
                    found_problem = problem(
                        "invalid-tool-name", self.name, decl.method, name=name, reason=reason
                    )
                    self.report(found_problem, decl, self.name_span(decl))
                # As at run time, the method's own problems are still reported below.
            elif name is not None:
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
                        self.report(found_problem, decl, self.name_span(decl))
                else:
                    final_names[name] = decl
            if decl.inline:
                self.check_inline(decl, found)
            if not quiet and found.lambda_parameters is not None:
                for found_problem in self.lambda_problems(decl.method, found):
                    self.report(found_problem, decl)
            elif not quiet:
                for found_problem, at in self.signatures.check(
                    decl.method, found.defined_in, found.module, found.node, self.where(decl)
                ):
                    self.report(found_problem, decl, at)
        reached = self.signatures.reached()
        depend_on(
            self.api,
            (name for name, module in reached.items() if not module.startswith(_STABLE)),
            (module for module in reached.values() if not module.startswith(_STABLE)),
        )

    def check_inline(self, decl: Declaration, found: Found) -> None:
        """``inline=True`` on an async method, or with a timeout (`plugin.inline`).

        An inherited declaration's problem is reported again only when this class causes it
        (its ``limits`` or its override of the method).
        """

        def verdict(info: TypeInfo, node: SymbolNode | None) -> Problem | None:
            return inline_problem(
                display_name(info),
                info,
                decl.method,
                declared=(decl.limits_set, decl.timeout),
                function=function_of(node),
                metadata=metadata,
            )

        found_problem = verdict(self.info, found.node)
        if found_problem is None:
            return
        if not self.own(decl):
            there = self.lookup(decl.declared_by, decl.method)
            before = verdict(decl.declared_by, there.node if there is not None else None)
            if before is not None and (before.kind, before.values) == (
                found_problem.kind,
                found_problem.values,
            ):
                return  # reported on the class that declares it
        self.report(found_problem, decl)

    def override_span(self, found: Found, decl: Declaration) -> Span | None:
        """The attribute of this class that replaces an inherited declaration's method."""
        node = found.alias or found.node
        if self.own(decl) or found.owner is not self.info or node is None or node.line <= 0:
            return None
        if isinstance(node, Decorator):
            node = node.func  # mypy reports a decorated method on its `def` line, as `check`
        return node.line, node.column, node.line, node.column + len(node.name)

    def report_unchecked(self) -> None:
        """What this class's body declares in a way the plugin cannot read.

        Not where mypy has already failed on the expression (``tool(undefined)``): its error
        says what to fix there.
        """
        failed = failed_within(self.api)
        for item in unchecked_of(self.info):
            if failed(item.span):
                continue
            method = item.values.get("method")
            values = {k: v for k, v in item.values.items() if k != "method"}
            report(self.api, problem(item.kind, self.name, method, **values), item.span)

    def report_toolset_name_type(self, origin: TypeInfo) -> None:
        """A ``toolset_name`` of this class's body that is a constant but no str (``123``).

        Not repeated on subclasses (*origin* is then a base): the class that sets it fails.
        """
        data = metadata(origin) if origin is self.info else None
        got = (data or {}).get("toolset_name_type")
        if isinstance(got, str):
            at = stored_span((data or {}).get("toolset_name_at")) or class_span(self.info)
            report(self.api, problem("toolset-name-type", self.name, got=got), at)

    def report_overload_marks(self) -> None:
        """``@tool`` above an ``@overload``: refused as the class body runs, said as then."""
        for at in overload_marks_of(self.info):
            report(self.api, overload_mark_problem(), at)

    def report_loose_tools(self) -> None:
        """``count = tool("word_count")`` whose method this class's body does not declare."""
        if class_metadata(self.info).get("exports_unchecked") is True:
            return  # exports the plugin cannot read may list it (reported as unchecked)
        declared = {decl.method for decl in declarations_of(self.info)}
        for attribute, method in loose_tools_of(self.info):
            if method not in declared:
                found = problem("tool-attribute", self.name, attribute=attribute, got=repr(method))
                report(self.api, found, class_span(self.info))

    def unknown(self, decl: Declaration) -> Problem:
        """The problem of a declaration naming no method, with close names as suggestions."""
        candidates = sorted(
            {
                mangle(klass.name, name)
                for klass in self.info.mro
                if klass.fullname not in (TOOLSET, "builtins.object")
                for name, sym in klass.names.items()
                if not (name.startswith("__") and name.endswith("__"))
                and is_plain_function(sym.node)
                and name not in absent_members_of(klass)
            }
        )
        matches = close_matches(decl.method, candidates)
        return problem("unknown-method", self.name, decl.method, matches=matches)

    def lambda_problems(self, method: str, found: Found) -> list[Problem]:
        """A lambda's parameters, as the run time's `read_method` judges a function's.

        None of them can have an annotation; the problems are reported on the declaration,
        where ``check`` finds them too (a lambda has no name of its own to look up).
        """
        parameters = found.lambda_parameters or []
        if not parameters or parameters[0][1] not in ("positional", "positional-only"):
            if parameters and parameters[0][1] == "var-positional":
                return [problem("hidden-signature", self.name, method, wrapper="<lambda>")]
            return [problem("no-self", self.name, method)]
        kinds: dict[str, Kind] = {
            "positional-only": "positional-only",
            "var-positional": "var-positional",
            "var-keyword": "var-keyword",
        }
        owner = found.owner.name
        return [
            problem(kinds.get(kind, "unannotated"), self.name, method, mangle(owner, name))
            for name, kind in parameters[1:]
        ]

    def kind_problem(self, name: str, found: Found) -> Problem | None:
        """Why *found* cannot be exported (the order of the runtime's `_kind_problem`)."""
        node = found.node
        if name in API_NAMES:  # Toolset's own, or a subclass's method in its place
            return problem("api-name", self.name, name)
        if name.startswith("__") and name.endswith("__"):
            return problem("special-method", self.name, name)
        if found.lambda_parameters is not None:
            return None  # a plain function at run time
        func = function_of(node)
        if func is not None and (func.is_static or func.is_class):
            wrapper = "staticmethod" if func.is_static else "classmethod"
            return problem("wrapped-method", self.name, name, wrapper=wrapper)
        if is_property(node):
            return problem("wrapped-method", self.name, name, wrapper="property")
        called = wrapper_of(node)
        if called is not None:
            return problem("wrapped-method", self.name, name, wrapper=called)
        if isinstance(node, TypeInfo):
            return problem("nested-class", self.name, name)
        if is_plain_function(node) and func is not None:
            if (func.is_generator or func.is_async_generator) and not wrapped(
                found.defined_in, node, here=found.module == self.info.module_name
            ):
                return problem("generator", self.name, name)
            return None
        if found.slot:
            return problem("slot", self.name, name)
        if isinstance(node, Var) and not node.has_explicit_value and not node.is_classvar:
            # Only annotated: the class has no such attribute at run time (yet).
            return problem("annotated-attribute", self.name, name)
        if name in attrs_field_names(found.owner):
            return problem("attrs-field", self.name, name)
        return problem("attribute", self.name, name)
