"""The checks of an exported method's parameters (checks 5, 6 and 8).

Check 5: parameter kinds and annotations; check 6: types with no JSON Schema, and a None default
on a type without null; check 8: ambiguous unions.

Problems of a parameter are reported on the parameter when the method is defined in the module
being checked, else on the declaration (functions loaded from mypy's cache keep no parameters).
"""

from __future__ import annotations

from mypy.nodes import (
    ARG_STAR,
    ARG_STAR2,
    Argument,
    Decorator,
    FuncDef,
    NameExpr,
    OverloadedFuncDef,
    SymbolNode,
    TypeInfo,
)
from mypy.plugin import CheckerPluginInterface
from mypy.types import AnyType, CallableType, Type, TypeOfAny, get_proper_type

from typed_toolsets.rules.problems import Kind, Problem, problem
from typed_toolsets.rules.shapes import find_ambiguity

from .codes import report
from .jsontypes import SchemaCheck
from .shapes import ShapeBuilder

__all__ = ["SignatureCheck", "function_of"]


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
        self.info = info
        self.class_name = class_name
        self.types = SchemaCheck(api.options, registered)
        self.shapes = ShapeBuilder(api.options, registered)

    def check(
        self, method: str, owner: TypeInfo, node: SymbolNode | None, where: tuple[int, int]
    ) -> None:
        """Check the method *node* (defined by *owner*), exported as *method*.

        *where* is the declaration's place, used when the parameters' own are not known.
        """
        func = function_of(node)
        if func is None:
            return
        signature = _effective_signature(node, func)
        arguments = _arguments(func)
        here = owner.module_name == self.info.module_name and arguments is not None
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
            return where

        def source_name(index: int) -> str | None:
            if here and arguments is not None and index < len(arguments):
                return str(arguments[index].variable.name)
            return None

        def shown(index: int) -> str:
            return names[index] or source_name(index) or f"#{index}"

        problems: list[tuple[int, Problem]] = []
        for index in range(1, len(kinds)):
            kind, name = kinds[index], names[index]
            if kind == ARG_STAR:
                problems.append((index, self.problem("var-positional", method, shown(index))))
            elif kind == ARG_STAR2:
                problems.append((index, self.problem("var-keyword", method, shown(index))))
            elif name is None and not _dunder_convention(source_name(index)):
                problems.append((index, self.problem("positional-only", method, shown(index))))
            elif signature is None or _unannotated(signature.arg_types[index]):
                problems.append((index, self.problem("unannotated", method, shown(index))))
        for index, found in problems:
            report(self.api, found, place(index))
        if problems or signature is None:
            return
        for index in range(1, len(kinds)):
            arg_type = signature.arg_types[index]
            reported = self.type_problem(method, shown(index), arg_type)
            if reported is None and here and arguments is not None and index < len(arguments):
                reported = self.default_problem(method, shown(index), arg_type, arguments[index])
            if reported is None:
                reported = self.ambiguity_problem(method, shown(index), arg_type)
            if reported is not None:
                report(self.api, reported, place(index))

    def problem(self, kind: Kind, method: str, parameter: str) -> Problem:
        """A problem of one parameter that needs no other value (the signature kinds)."""
        return problem(kind, self.class_name, method, parameter)

    def type_problem(self, method: str, parameter: str, arg_type: Type) -> Problem | None:
        """Check 6: a type with no JSON Schema."""
        reason = self.types.problem(arg_type)
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
        return problem(
            "ambiguous-union",
            self.class_name,
            method,
            parameter,
            union=ambiguity.union,
            first=ambiguity.first,
            second=ambiguity.second,
        )

    def default_problem(
        self, method: str, parameter: str, arg_type: Type, argument: Argument
    ) -> Problem | None:
        """A None default on a type that does not admit null (only with the source at hand)."""
        initializer = argument.initializer
        if (
            isinstance(initializer, NameExpr)
            and initializer.fullname == "builtins.None"
            and not self.types.admits_null(arg_type)
        ):
            shown = self.types.show(arg_type)
            return problem("none-default", self.class_name, method, parameter, type=shown)
        return None


def function_of(node: SymbolNode | None) -> FuncDef | None:
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
