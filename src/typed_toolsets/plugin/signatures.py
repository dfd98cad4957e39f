"""The checks of an exported method's parameters (checks 5, 6 and 8).

Check 5: parameter kinds and annotations; check 6: types with no JSON Schema, and a None default
on a type without null; check 8: ambiguous unions.

Problems of a parameter are reported on the parameter when the method is defined in the module
being checked, else on the declaration (functions loaded from mypy's cache keep no parameters;
what the checks need from them, their names for one, is recorded with the class's declarations:
`typed_toolsets.plugin.sources`).
"""

from __future__ import annotations

from typing import Final, cast

from mypy.nodes import (
    ARG_OPT,
    ARG_POS,
    ARG_STAR,
    ARG_STAR2,
    FUNC_NO_INFO,
    Argument,
    Context,
    Decorator,
    FuncDef,
    OverloadedFuncDef,
    SymbolNode,
    SymbolTableNode,
    TypeInfo,
)
from mypy.plugin import CheckerPluginInterface
from mypy.types import (
    AnyType,
    CallableType,
    Instance,
    NoneType,
    Type,
    TypeOfAny,
    UnionType,
    get_proper_type,
)

from typed_toolsets.rules import reasons
from typed_toolsets.rules.kinds import Kind
from typed_toolsets.rules.names import mangle
from typed_toolsets.rules.problems import Problem, problem
from typed_toolsets.rules.shapes import find_ambiguity

from .codes import Span
from .jsontypes import SchemaCheck
from .metadata import method_facts_of, mixin_method_facts_of
from .shapes import ShapeBuilder
from .sources import method_facts
from .typeinfo import checker_modules, function_of

__all__ = ["SignatureCheck"]


class SignatureCheck:
    """Checks the parameters of the methods one class exports.

    Args:
        api: mypy's checker, to report problems.
        info: The class being checked.
        class_name: Its name as problems show it.
        registered: Types registered at run time (from the plugin's config).
    """

    def __init__(
        self,
        api: CheckerPluginInterface,
        info: TypeInfo,
        class_name: str,
        registered: frozenset[str],
    ) -> None:
        self.api = api
        self.registered = registered
        self.info = info
        self.class_name = class_name
        self.types = SchemaCheck(api.options, registered)
        self.shapes = ShapeBuilder(api.options, registered)

    def reached(self) -> dict[str, str]:
        """The classes and aliases the verdicts so far depend on, with their modules."""
        return self.types.reached

    def facts(self, owner: TypeInfo | None, module: str, func: FuncDef) -> dict[str, object] | None:
        """What the source of the method *func* shows (`typed_toolsets.plugin.sources`).

        Recorded with a Toolset class's declarations; read now for a function of this module
        that is not a Toolset's (a mixin's, a module function a class attribute names). Of
        another module's mixin only the parameter names mypy forgets are known (recorded by
        `declarations.record_mixin`); nothing of another module's function.
        """
        recorded = method_facts_of(owner, func.name) if owner is not None else None
        if recorded is not None:
            return recorded
        if module != self.info.module_name or not _arguments(func):
            return mixin_method_facts_of(owner, func.name) if owner is not None else None
        checker: object = self.api

        def lookup(text: str) -> SymbolTableNode | None:
            find = getattr(checker, "lookup_qualified", None)
            try:
                found: object = find(text) if callable(find) else None
            except (KeyError, AssertionError):  # mypy's checker raises for unknown names
                return None
            return found if isinstance(found, SymbolTableNode) else None

        tree = checker_modules(self.api)[module]
        return method_facts(func, lookup, tree, self.api.options, self.registered)

    def check(
        self,
        method: str,
        owner: TypeInfo | None,
        module: str,
        node: SymbolNode | None,
        where: Span,
    ) -> list[tuple[Problem, Span]]:
        """The problems of the method *node*, exported as *method*.

        *owner* is the class that defines it (None for a module-level function), *module* its
        module; *where* is the declaration's place, used when the parameters' own are not known.
        """
        func = function_of(node)
        if func is None:
            return []
        signature = _effective_signature(node, func)
        arguments = _arguments(func) if module == self.info.module_name else None
        facts = self.facts(owner, module, func)
        kinds = func.arg_kinds if signature is None else signature.arg_kinds
        names = func.arg_names if signature is None else signature.arg_names
        own_signature = signature is None or _same_parameters(signature, func)
        params = _strings(facts.get("params")) if facts is not None and own_signature else []

        def place(index: int) -> Span:
            if arguments:
                name = names[index] if index < len(names) else None
                for argument in arguments:
                    if name is not None and argument.variable.name == name:
                        return _span(argument)
                if index < len(arguments) and own_signature:
                    return _span(arguments[index])
                return _span(func)
            return where

        def source_name(index: int) -> str | None:
            return params[index] if index < len(params) else None

        def written(index: int) -> str:
            """The parameter's name in the source: what the recorded facts are keyed by."""
            return names[index] or source_name(index) or f"#{index}"

        def shown(index: int) -> str:
            return _mangled(written(index), func)

        if not func.arg_kinds or func.arg_kinds[0] not in (ARG_POS, ARG_OPT):
            # No parameter takes the instance (mypy reports it too, as [misc]); the run time
            # stops at this problem, so the parameters are not looked at.
            at = _span(func) if arguments is not None else where
            return [(problem("no-self", self.class_name, method), at)]
        problems: list[tuple[Problem, Span]] = []
        flagged: set[int] = set()
        for index in range(1, len(kinds)):
            kind, name = kinds[index], names[index]
            found: Problem | None = None
            if kind == ARG_STAR:
                found = self.problem("var-positional", method, shown(index))
            elif kind == ARG_STAR2:
                found = self.problem("var-keyword", method, shown(index))
            elif name is None and not _dunder_convention(source_name(index)):
                found = self.problem("positional-only", method, shown(index))
            elif signature is None or _unannotated(signature.arg_types[index]):
                found = self.problem("unannotated", method, shown(index))
            if found is not None:
                problems.append((found, place(index)))
                flagged.add(index)
        if signature is None:
            return problems
        # As at run time, the other parameters' types are still checked: every problem at once.
        none_defaults = _strings(facts.get("none_defaults")) if facts is not None else []
        unresolved = _pairs(facts.get("unresolved")) if facts is not None else {}
        literal_defaults = _pairs(facts.get("literal_defaults")) if facts is not None else {}
        unresolved_names: list[tuple[Problem, Span]] = []
        for index in range(1, len(kinds)):
            if index in flagged:
                continue
            parameter, key = shown(index), written(index)
            if key in unresolved:
                # Python cannot resolve this annotation: the run time reports that instead.
                found = problem(
                    "unresolved-name", self.class_name, method, parameter, name=unresolved[key]
                )
                unresolved_names.append((found, place(index)))
                problems.append((found, place(index)))
                continue
            arg_type = signature.arg_types[index]
            reported = self.type_problem(method, parameter, arg_type)
            if reported is None and key in none_defaults:
                reported = self.default_problem(method, parameter, arg_type)
            if reported is None and key in literal_defaults:
                reported = self.literal_default_problem(
                    method, parameter, arg_type, literal_defaults[key]
                )
            if reported is None:
                reported = self.ambiguity_problem(method, parameter, arg_type)
            if reported is not None:
                problems.append((reported, place(index)))
        if unresolved_names and all(
            p.kind in ("ambiguous-union", "unresolved-name") for p, _ in problems
        ):
            # The run time reports the names it cannot resolve, each parameter's, before it
            # looks for ambiguity (as `check` does); among other problems, each in its place.
            return unresolved_names
        return problems

    def problem(self, kind: Kind, method: str, parameter: str) -> Problem:
        """A problem of one parameter that needs no other value (the signature kinds)."""
        return problem(kind, self.class_name, method, parameter)

    def type_problem(self, method: str, parameter: str, arg_type: Type) -> Problem | None:
        """Check 6: a type with no JSON Schema (or one that mypy cannot see)."""
        reason = self.types.problem(arg_type)
        unseen = self.types.unseen
        if reason is None and unseen is not None:
            # mypy names the binding in the module that imports it (`pkg.tools.Thing`).
            name = unseen.rpartition(".")[2]
            return problem("unchecked-type", self.class_name, method, parameter, name=name)
        if reason is None:
            return None
        shown = self.types.show(arg_type)
        return problem(
            "unsupported-type", self.class_name, method, parameter, type=shown, reason=reason
        )

    def ambiguity_problem(self, method: str, parameter: str, arg_type: Type) -> Problem | None:
        """Check 8: a union where one JSON value could match two variants."""
        ambiguity = find_ambiguity(self.shapes.shape(arg_type))
        if ambiguity is None:
            return None
        return ambiguity.problem(self.class_name, method, parameter)

    def default_problem(self, method: str, parameter: str, arg_type: Type) -> Problem:
        """A None default on a type that, as written, does not admit null.

        With ``implicit_optional`` mypy adds ``None`` to the type; it is not shown.
        """
        proper = get_proper_type(arg_type)
        if isinstance(proper, UnionType):
            items = [i for i in proper.items if not isinstance(get_proper_type(i), NoneType)]
            arg_type = UnionType.make_union(items) if items else arg_type
        shown = self.types.show(arg_type)
        return problem("none-default", self.class_name, method, parameter, type=shown)

    def literal_default_problem(
        self, method: str, parameter: str, arg_type: Type, default: str
    ) -> Problem | None:
        """A bool as the default of a number type (mypy accepts it: bool derives from int).

        Only ``int``, ``float`` and either then ``None`` (``Optional[int]``, ``float | None``)
        are judged: the run time's reasons for them are known (`typed_toolsets.rules.reasons`),
        and it shows such a union as mypy does.
        An infinity or NaN is a fine default of a float, which the schema only does not show; the
        constraints of ``Annotated`` that may refuse it are invisible to mypy: left to the run
        time, as caches written before this rule may still record such a default.
        """
        if default not in ("True", "False"):
            return None
        proper = get_proper_type(arg_type)
        items = (
            [get_proper_type(i) for i in proper.items]
            if isinstance(proper, UnionType)
            else [proper]
        )
        numbers: list[str] = []
        for item in items:
            if isinstance(item, Instance) and item.type.fullname in _NUMBERS:
                numbers.append(item.type.fullname)
            elif not isinstance(item, NoneType):
                return None
        if not numbers:
            return None
        if len(items) > 1 and not (
            len(items) == 2 == len(numbers) + 1 and isinstance(items[1], NoneType)
        ):
            # A number then None: the only unions whose reasons are known here. The run time
            # shows `None | int` in that order, which mypy writes `int | None`.
            return None
        if len(items) > 1:
            reason = reasons.no_variant(default, self.types.show(arg_type))
        elif numbers[0] == "builtins.float":
            reason = reasons.not_finite(default)
        else:
            reason = reasons.not_a(default, "an int")
        return problem(
            "bad-default",
            self.class_name,
            method,
            parameter,
            default=default,
            type=self.types.show(arg_type),
            reason=reason,
        )


#: The number types whose refusal of a bool default `literal_default_problem` knows.
_NUMBERS: Final = frozenset({"builtins.int", "builtins.float"})


def _span(node: Context) -> Span:
    end_line = node.end_line if node.end_line is not None else node.line
    end_column = node.end_column if node.end_column is not None else node.column
    return node.line, node.column, end_line, end_column


def _strings(value: object) -> list[str]:
    if not isinstance(value, list):
        return []
    return [str(item) for item in cast("list[object]", value)]


def _pairs(value: object) -> dict[str, str]:
    """``[[parameter, name], ...]`` (recorded JSON) as a mapping."""
    pairs: dict[str, str] = {}
    for item in cast("list[object]", value) if isinstance(value, list) else []:
        if isinstance(item, list) and len(cast("list[object]", item)) == 2:
            key, name = cast("list[object]", item)
            pairs[str(key)] = str(name)
    return pairs


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


def _mangled(name: str, func: FuncDef) -> str:
    """*name* as the run time sees it: Python mangles ``__x`` in a class body to ``_Cls__x``."""
    return name if func.info is FUNC_NO_INFO else mangle(func.info.name, name)


def _same_parameters(signature: CallableType, func: FuncDef) -> bool:
    """Whether a decorated *signature* has *func*'s own parameters (``F -> F``, ``P -> P``).

    The names recorded from the source then name its parameters (mypy forgets those of
    positional-only ones).
    """
    if signature is func.type:
        return True
    if signature.arg_kinds != func.arg_kinds:
        return False
    return all(
        mine is None or theirs is None or mine == theirs
        for mine, theirs in zip(signature.arg_names, func.arg_names, strict=True)
    )


def _unannotated(t: Type) -> bool:
    proper = get_proper_type(t)
    return isinstance(proper, AnyType) and proper.type_of_any == TypeOfAny.unannotated


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
