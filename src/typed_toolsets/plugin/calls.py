"""``Cls.to_tools()`` on a class that cannot be built with no arguments (the ``init`` code).

``to_tools`` is a descriptor: accessed on the class, it builds ``Cls()`` with no arguments. A
method hook on its ``__get__`` sees the class at every ``Cls.to_tools`` access and reports the
constructor's required arguments; ``instance.to_tools()`` binds the instance and is fine.
"""

from __future__ import annotations

from mypy.nodes import (
    ARG_NAMED,
    ARG_POS,
    FUNC_NO_INFO,
    IS_ABSTRACT,
    CallExpr,
    MemberExpr,
    RefExpr,
    TypeInfo,
    Var,
)
from mypy.plugin import MethodContext
from mypy.typeops import type_object_type
from mypy.types import (
    CallableType,
    Instance,
    NoneType,
    Overloaded,
    ProperType,
    Type,
    TypeType,
    get_proper_type,
)

from typed_toolsets.rules.names import mangle
from typed_toolsets.rules.problems import problem

from .classes import display_name, exported_function
from .codes import report
from .deps import depend_on
from .fullnames import TOOLSET
from .members import lookup_member
from .typeinfo import checker_modules, function_of, wrapped_function

__all__ = ["abstract_methods", "check_proxy_call", "check_to_tools_access"]


def check_to_tools_access(ctx: MethodContext) -> Type:
    """``Cls.to_tools`` builds ``Cls()``: report abstract classes and required arguments."""
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
    # The verdict depends on every class of the MRO (a base's field losing its default, in
    # another module): re-check this call when one changes.
    ancestors = [c for c in item.type.mro if c.fullname not in (TOOLSET, "builtins.object")]
    depend_on(api, (c.fullname for c in ancestors), (c.module_name for c in ancestors))
    abstract = abstract_methods(item.type) if _names_the_class(ctx) else []
    if abstract:
        found = problem("abstract-class", display_name(item.type), methods=abstract)
        report(api, found, ctx.context)
        return ctx.default_return_type

    def named_type(name: str) -> Instance:
        return api.named_generic_type(name, [])

    constructor = get_proper_type(type_object_type(item.type, named_type))
    needed = _required_arguments(constructor)
    if needed:
        report(api, problem("init", display_name(item.type), needed=needed), ctx.context)
    return ctx.default_return_type


def _names_the_class(ctx: MethodContext) -> bool:
    """Whether ``to_tools`` is read off the class itself, not off a ``type[A]`` value.

    A value of type ``type[A]`` (``cls`` in a classmethod, ``type(self)``, a parameter so
    annotated) holds A or any subclass: an abstract A's is a concrete one, which mypy lets
    ``cls()`` build. The class by its name, an alias of it or a variable holding it is A.
    """
    context = ctx.context
    if not isinstance(context, MemberExpr):
        return True
    target = context.expr
    if isinstance(target, CallExpr):
        return False  # type(self), or a function returning a class: some subclass
    if isinstance(target, RefExpr) and isinstance(target.node, Var):
        var = target.node
        return not (var.is_cls or isinstance(get_proper_type(var.type), TypeType))
    return True


def abstract_methods(info: TypeInfo) -> list[str]:
    """The abstract methods that keep *info* from being instantiated at run time.

    mypy calls any class with abstract members abstract; Python refuses to build one only when
    its metaclass is `abc.ABCMeta` (``abc.ABC`` as a base), so only then is it reported.
    """
    meta = info.metaclass_type
    if not info.is_abstract or meta is None or not meta.type.has_base("abc.ABCMeta"):
        return []
    # Only `@abstractmethod` stops Python; a protocol's `...` bodies are abstract to mypy alone.
    return sorted(name for name, status in info.abstract_attributes if status == IS_ABSTRACT)


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


def check_proxy_call(ctx: MethodContext) -> Type:
    """``Toolset.proxy(instance.method)``: the method must be one the class exports.

    The run time raises the same ``not-exported`` problem when the proxy is made.
    """
    if not ctx.args or not ctx.args[0]:
        return ctx.default_return_type
    argument = ctx.args[0][0]
    if not isinstance(argument, MemberExpr):
        return ctx.default_return_type  # a method held in a variable: not known here
    lookup_type = getattr(ctx.api, "lookup_type_or_none", None)
    receiver = lookup_type(argument.expr) if callable(lookup_type) else None
    receiver = get_proper_type(receiver) if isinstance(receiver, Type) else None
    owner = _class_read(receiver)
    if owner is not None:
        read = lookup_member(owner, argument.name, checker_modules(ctx.api))
        node = read.node if read is not None else None
        func = function_of(node)
        if (
            func is not None
            and func.info is not FUNC_NO_INFO
            and func.info.has_base(TOOLSET)
            and not (func.is_static or func.is_class or func.is_property)
            and not wrapped_function(node)
        ):
            # `Toolset.proxy(Tasks.search)`: no instance to bind, a TypeError at run time,
            # which names the function as its class defines it (`find = search` is `search`).
            found = problem("proxy-of-class", display_name(func.info), func.name)
            report(ctx.api, found, argument)
        return ctx.default_return_type
    if not isinstance(receiver, Instance) or not receiver.type.has_base(TOOLSET):
        return ctx.default_return_type
    info = receiver.type
    modules = checker_modules(ctx.api)
    ancestors = [c for c in info.mro if c.fullname not in (TOOLSET, "builtins.object")]
    depend_on(ctx.api, (c.fullname for c in ancestors), (c.module_name for c in ancestors))
    if exported_function(info, argument.name, modules) is False:
        found = problem("not-exported", display_name(info), _function_name(info, argument.name))
        report(ctx.api, found, argument)
    return ctx.default_return_type


def _class_read(receiver: ProperType | None) -> TypeInfo | None:
    """The Toolset class *receiver* is (``Tasks``, ``type[Tasks]``), when it is a class."""
    if isinstance(receiver, TypeType):
        receiver = receiver.item
    elif isinstance(receiver, CallableType) and receiver.is_type_obj():
        receiver = get_proper_type(receiver.ret_type)
    else:
        return None
    if isinstance(receiver, Instance) and receiver.type.has_base(TOOLSET):
        return receiver.type
    return None


def _function_name(info: TypeInfo, name: str) -> str:
    """The name the run time gives the method: its function's own (``find`` for an alias).

    As its class stores it: a private ``def __find`` in ``Tasks`` is ``_Tasks__find``.
    """
    sym = info.get(name)
    node = sym.node if sym is not None else None
    func = function_of(node)
    if func is None:
        return name
    return func.name if func.info is FUNC_NO_INFO else mangle(func.info.name, func.name)
