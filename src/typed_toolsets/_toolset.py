"""`Toolset`: the base class whose declared methods become tools."""

from __future__ import annotations

import functools
import itertools
import sys
import types
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, ClassVar, ParamSpec, TypeVar, cast, overload

import attrs

# The package itself, for the annotation of the public `Toolset.proxy`: importing `.call.proxy`
# at run time would load the call layer with every toolset class, and the package loads it
# lazily when the annotation is evaluated (`typing.get_type_hints`).
import typed_toolsets

from ._public import public
from .definition.classes import build_class, exports_of, init_problem
from .definition.declarations import AnnotationsLike, ToolSpec
from .definition.errors import ToolsetDefinitionError
from .definition.limits import DEFAULT_LIMITS, Limits
from .rules.names import class_display_name, default_toolset_name, mangle
from .rules.problems import problem

if TYPE_CHECKING:
    from .call.proxy import ToolProxy

__all__ = ["Toolset"]

_P = ParamSpec("_P")
_R = TypeVar("_R")
_C = TypeVar("_C", bound=type)


def _attrs_base(cls: _C) -> _C:
    """``attrs.define(slots=False)``, which type checkers do not take for attrs' decorator.

    So that a subclass may be ``@attrs.define`` or ``@attrs.frozen``: pyright refuses a frozen
    attrs class whose attrs base is not frozen, and a mutable one whose base is. `Toolset` has no
    fields; what attrs gives it that a type checker may see is declared in its body.
    """
    return attrs.define(slots=False)(cls)


class _DefaultToolsetName:
    """The ``toolset_name`` of a class that sets none: derived from the class's own name.

    A descriptor on `Toolset`, so that every subclass derives it from its own ``__name__``
    unless a class in its MRO assigns one. A class before `Toolset` in the MRO hides this
    descriptor; one after it (a mixin listed after `Toolset`: ``class X(Toolset, Named)``) is
    looked for here, so that it sets the name wherever it stands.
    """

    def __get__(self, obj: object, owner: type | None = None) -> str:
        cls = owner if owner is not None else type(obj)
        mro = cls.__mro__
        for klass in mro[mro.index(Toolset) + 1 :]:
            if "toolset_name" in vars(klass):
                found: object = vars(klass)["toolset_name"]
                bind = getattr(type(found), "__get__", None)  # as attribute lookup would
                if bind is not None:
                    found = bind(found, obj, cls)
                return cast("str", found)  # a str, or a problem
        return default_toolset_name(cls.__name__)


class _ToTools:
    """``to_tools()``: on the class, builds one instance; on an instance, binds that instance."""

    @overload
    def __get__(self, obj: None, owner: Callable[[], Toolset]) -> Callable[[], list[ToolProxy]]: ...
    @overload
    def __get__(self, obj: Toolset, owner: object = None) -> Callable[[], list[ToolProxy]]: ...
    def __get__(self, obj: Toolset | None, owner: object = None) -> Callable[[], list[ToolProxy]]:
        if obj is None:
            return functools.partial(_class_to_tools, owner)
        return functools.partial(_instance_to_tools, obj)


# Not slotted: on Python 3.10 two plain subclasses of a slotted base cannot be combined
# (`class C(A, B)`: "multiple bases have instance lay-out conflict").
@public
@_attrs_base
class Toolset:
    """Base class of toolsets: groups related methods and exports the declared ones as tools.

    Declare exports by name in ``exports`` or with ``@tool`` on the method; every other method
    stays private. Subclasses with state are attrs classes (decorate them with ``@attrs.define``
    or ``@attrs.frozen``); ``to_tools()`` on the class needs every field to have a default.

    Example::

        class TextStatsToolset(Toolset):
            toolset_name = "stats"
            exports = (tool("word_count", description="Count words"),)

            def word_count(self, *, text: str) -> int:
                return len(text.split())

        tools = TextStatsToolset.to_tools()
        tools[0].dynamic_call({"text": "one two"})  # 2

    Attributes:
        toolset_name: Prefix of the generated tool names. Default: the class name without one
            trailing ``Toolset``, lower-cased (``TextStatsToolset`` gives ``textstats``).
        exports: The declared exports, in order: ``(tool("method"), ...)``.
        limits: The `Limits` applied to this toolset's tools (a tool's own limits replace them).
        tool_annotations: Hints for clients about every tool of the toolset (MCP tool
            annotations): a `ToolAnnotations`, or a mapping in MCP's names
            (``{"readOnlyHint": True}``); a tool's own ``tool(..., annotations=...)`` is laid
            over them.
        requires_approval: Whether an agent may run this toolset's tools only after its approval
            callback agrees (a tool's ``tool(..., requires_approval=...)`` overrides it).
    """

    toolset_name: ClassVar[str]
    exports: ClassVar[tuple[ToolSpec, ...]] = ()
    limits: ClassVar[Limits] = DEFAULT_LIMITS
    tool_annotations: ClassVar[AnnotationsLike | None] = None
    requires_approval: ClassVar[bool] = False

    if TYPE_CHECKING:
        # What `_attrs_base` gives, for type checkers: the (empty) attrs fields, and attrs'
        # ``eq=True`` without ``frozen`` makes instances unhashable.
        __attrs_attrs__: ClassVar[tuple[attrs.Attribute[Any], ...]]
        __hash__: ClassVar[None]  # type: ignore[assignment]  # pyright: ignore[reportIncompatibleMethodOverride]
    else:
        toolset_name = _DefaultToolsetName()

    #: Build the tools: ``Cls.to_tools()`` makes one instance with ``Cls()`` and binds every tool
    #: to it; ``instance.to_tools()`` binds that configured instance. Returns a new list of
    #: `ToolProxy` objects on every call.
    to_tools: ClassVar[_ToTools] = _ToTools()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        build_class(cls, Toolset)

    @staticmethod
    def proxy(method: Callable[_P, _R]) -> typed_toolsets.ToolProxy[_P, _R]:
        """The tool of one exported method of a toolset instance, statically typed.

        ``Toolset.proxy(tasks.search)`` is the `ToolProxy` ``tasks.to_tools()`` lists for
        ``search``, bound to ``tasks``, as a ``ToolProxy[P, R]``: its `ToolProxy.call` has the
        method's own signature and returns ``R``, its `ToolProxy.invoke` returns
        ``ToolResult[R]`` (for an ``async def``, ``R`` is what the coroutine returns), so strict
        type checkers see no ``Any``. The dynamic methods (`ToolProxy.dynamic_call`) are there
        too. Call it on `Toolset` itself.

        Example::

            search = Toolset.proxy(CatalogToolset().search)
            items = search.call(query="lamp")  # list[str], checked like the method
            result = search.invoke({"query": "lamp"})  # ToolResult[list[str]]

        Raises:
            TypeError: *method* is not a method of a toolset instance (for the class's function,
                ``Toolset.proxy(Tasks.search)``, a `ToolsetDefinitionError`, which is one).
            ToolsetDefinitionError: The method is not exported (or the class's tools cannot be
                built).
        """
        return cast("ToolProxy[_P, _R]", _proxy_of(method))


def _proxies(cls: type[Toolset], instance: Toolset) -> list[ToolProxy]:
    from .call.proxy import make_proxies

    return make_proxies(exports_of(cls, Toolset), instance)


def _class_to_tools(cls: object) -> list[ToolProxy]:
    if not isinstance(cls, type) or not issubclass(cls, Toolset):  # pragma: no cover - typing
        msg = f"to_tools() needs a Toolset class (got {cls!r})"
        raise TypeError(msg)
    try:
        instance = cls()
    except TypeError:
        # Why, looked for only now: reading the constructor's signature cost two thirds of a
        # built class's to_tools(). A missing argument or an abstract method fails the call
        # before ``__init__`` runs (only a ``__new__`` of the class's own may have run).
        found = init_problem(cls)
        if found is not None:
            raise ToolsetDefinitionError([found]) from None
        raise
    return _proxies(cls, instance)


def _instance_to_tools(instance: Toolset) -> list[ToolProxy]:
    return _proxies(type(instance), instance)


def _defining_toolset(method: object) -> tuple[type, str] | None:
    """The Toolset class whose body defines *method* as a plain method, and its name there.

    Found by the function's names, through its module; a class out of its module's reach (one
    defined in a function: ``<locals>``) among the toolset classes alive, by its qualified name.
    """
    if not isinstance(method, types.FunctionType):
        return None
    *path, name = method.__qualname__.split(".")
    if not path:
        return None
    found: object = sys.modules.get(method.__module__)
    for part in path:
        found = getattr(found, part, None)
    # The class its module names first; another of that name only when it is not the one.
    for owner in itertools.chain([found], _toolset_classes(".".join(path))):
        if (
            isinstance(owner, type)
            and issubclass(owner, Toolset)
            and vars(owner).get(mangle(owner.__name__, name)) is method
        ):
            return owner, name
    return None


def _toolset_classes(qualname: str) -> Iterator[type]:
    """The subclasses of `Toolset` alive whose qualified name is *qualname*, lazily.

    Only for an error's wording (a class's function passed to `Toolset.proxy`): it walks every
    toolset class.
    """
    seen: set[type] = set()
    stack: list[type] = [Toolset]
    while stack:
        below: list[type] = type.__subclasses__(stack.pop())
        for sub in below:
            if sub not in seen:
                seen.add(sub)
                stack.append(sub)
                if sub.__qualname__ == qualname:
                    yield sub


def _stored_name(func: object) -> str:
    """The class attribute a method's function was defined as: its name, mangled if private."""
    name = str(getattr(func, "__name__", ""))
    owner = str(getattr(func, "__qualname__", "")).rpartition(".")[0].rpartition(".")[2]
    return name if owner in ("", "<locals>") else mangle(owner, name)


def _proxy_of(method: Callable[..., object]) -> ToolProxy:
    """The proxy `Toolset.proxy` returns (see there)."""
    from .call.proxy import make_proxies

    instance = getattr(method, "__self__", None)
    func = getattr(method, "__func__", None)
    if not isinstance(instance, Toolset) or func is None:
        defined = _defining_toolset(method)
        if defined is not None:
            # `Toolset.proxy(Tasks.search)`: the function read from the class.
            owner, name = defined
            record = problem("proxy-of-class", class_display_name(owner.__qualname__), name)
            raise ToolsetDefinitionError([record])
        msg = (
            "Toolset.proxy() takes a method of a toolset instance, as in "
            f"Toolset.proxy(tasks.search) (got {method!r})"
        )
        raise TypeError(msg)
    cls = type(instance)
    class_name = class_display_name(cls.__qualname__)
    exports = exports_of(cls, Toolset)
    # The method may be exported under an alias too (`search = find`): its own name first, as
    # the class stores it (a private `def __find` in `Tasks` is `_Tasks__find`).
    name = _stored_name(func)
    found = sorted((e for e in exports if e.func is func), key=lambda e: e.method_name != name)
    if not found:
        raise ToolsetDefinitionError([problem("not-exported", class_name, name)])
    return make_proxies(found[:1], instance)[0]
