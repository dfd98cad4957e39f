"""Evaluating annotations as `typing.get_type_hints` does, without typing's cache of forms.

typing (3.10 to 3.13) caches ``Union[...]``, ``Annotated[...]``, ``Optional[...]`` and the like
by their arguments' equality, and a union is equal to itself in any order. `get_type_hints`
rebuilds every form holding a forward reference through that cache: ``Optional["Dog | Cat"]``
would come back as the ``Optional[Cat | Dog]`` some other module built first, and the first
variant in declared order would no longer be the declared one. Here forward references are
evaluated as typing evaluates them (in the globals of the module that wrote them), and the forms
around them are rebuilt anew. A whole annotation written as a string (``from __future__ import
annotations``) is evaluated by Python itself, as it would have been without the import.
"""

from __future__ import annotations

import builtins
import inspect
import sys
import types
import typing
from collections.abc import Callable, Collection, Iterator, Mapping
from typing import Any, ForwardRef

__all__ = ["class_hints", "evaluate", "expand_alias", "is_type_alias"]

_NoneType = type(None)
#: How many parts of an expanded alias are looked at for the alias itself (a bound: an
#: annotation is written by hand).
_MAX_PARTS = 10_000


def evaluate(annotation: object, globalns: dict[str, Any], localns: Mapping[str, Any]) -> object:
    """*annotation* with every string and forward reference in it evaluated.

    A name is looked up in *globalns* (the module's), then in the builtins, then in *localns*
    (a class's names: its nested classes, its own name): a class attribute named like a type
    (a field ``date: date``, a method ``list``) does not hide the type, as in
    ``typing.get_type_hints`` of a class, which reads the module first.

    Raises:
        NameError: A name in it is not defined.
        Exception: Whatever evaluating its text raises (a `SyntaxError`, say).
    """
    if annotation is None:
        return _NoneType
    if isinstance(annotation, str):
        annotation = ForwardRef(annotation, is_argument=False, is_class=True)
    return _Evaluation(globalns, localns).of(annotation)


def class_hints(
    cls: type, localns: Mapping[str, Any], only: Collection[str] | None = None
) -> dict[str, object]:
    """The evaluated annotations of *cls* and its bases, read as ``get_type_hints(cls)`` reads them.

    Each annotation is evaluated in the globals of the module of the class that wrote it (then
    the builtins, then *localns*: see `evaluate`); a more derived class's annotation of a name
    wins.

    Args:
        cls: The class.
        localns: The names every annotation may use after its module's and the builtins.
        only: When given, only these names' annotations are evaluated.

    Raises:
        NameError: A name in an annotation is not defined.
        Exception: Whatever evaluating an annotation's text raises.
    """
    hints: dict[str, object] = {}
    for base in reversed(cls.__mro__):
        module = sys.modules.get(base.__module__)
        globalns: dict[str, Any] = vars(module) if module is not None else {}
        evaluation = _Evaluation(globalns, localns)
        for name, value in inspect.get_annotations(base).items():
            if only is not None and name not in only:
                continue
            if isinstance(value, str):
                value = ForwardRef(value, is_argument=False, is_class=True)
            hints[name] = _NoneType if value is None else evaluation.of(value)
    return hints


class _Evaluation:
    """Forward references evaluated in one pair of namespaces."""

    def __init__(self, globalns: dict[str, Any], localns: Mapping[str, Any]) -> None:
        self.globalns = globalns
        self.localns = localns
        self._evaluating: set[str] = set()
        self._aliases: list[object] = []  # the `type` aliases being expanded, outermost first

    def of(self, node: object) -> object:
        """*node* with its forward references evaluated; forms that held one built anew.

        An alias made with the ``type`` statement (or ``TypeAliasType``) without type
        parameters is the type it names; one naming itself is left as it is, as a name of its
        own is, and a generic one too (`typed_toolsets.types.catalog` says why).
        """
        if isinstance(node, ForwardRef):
            return self._reference(node)
        if is_type_alias(node) and not getattr(node, "__type_params__", ()):
            if node in self._aliases:
                return node
            self._aliases.append(node)
            try:
                # Evaluated when first read: a name not defined raises NameError here.
                value: object = getattr(node, "__value__")  # noqa: B009
                if isinstance(value, str):  # TypeAliasType("Json", "dict[str, Json] | int")
                    module = str(getattr(node, "__module__", ""))
                    value = ForwardRef(value, is_argument=False, is_class=True, module=module)
                expanded = self.of(value)
            finally:
                self._aliases.pop()
            # One naming itself is left whole (named in problems as written, as mypy names it).
            return node if _mentions(expanded, node) else expanded
        if isinstance(node, types.GenericAlias):
            # `list["Tree"]` keeps the text: typing reads a text there as a forward reference.
            texts = tuple(ForwardRef(a) if isinstance(a, str) else a for a in node.__args__)
            evaluated = tuple(self.of(a) for a in texts)
            if _same(evaluated, node.__args__):
                return node
            origin: Any = node.__origin__
            return types.GenericAlias(origin, evaluated)
        if isinstance(node, types.UnionType):
            evaluated = tuple(self.of(a) for a in node.__args__)
            return node if _same(evaluated, node.__args__) else _union(evaluated)
        found: object = getattr(node, "__args__", None)
        copy_with: object = getattr(node, "copy_with", None)
        if type(found) is not tuple or not callable(copy_with) or not _is_typing_form(node):
            return node
        # A typing form: a text among its arguments is data (a Literal's value), not a reference.
        old = typing.cast("tuple[object, ...]", found)
        evaluated = tuple(self.of(a) for a in old)
        if _same(evaluated, old):
            return node
        if typing.get_origin(node) is typing.Union:
            return _union(evaluated)
        # `Annotated`'s arguments are its type alone; `copy_with` keeps its metadata.
        rebuild = typing.cast("Callable[[tuple[object, ...]], object]", copy_with)
        return rebuild(evaluated)

    def _reference(self, ref: ForwardRef) -> object:
        text = ref.__forward_arg__
        if text in self._evaluating:
            return ref  # a reference to itself (an alias of its own name): left as typing does
        globalns = self.globalns
        module_name: object = getattr(ref, "__forward_module__", None)
        if isinstance(module_name, str):
            module = sys.modules.get(module_name)
            if module is not None:
                globalns = vars(module)
        # The code typing compiled from the reference's text; the names as `_Scope` orders them.
        scope = _Scope(globalns, self.localns)
        value: object = eval(ref.__forward_code__, globalns, scope)  # noqa: S307
        if value is None:
            return _NoneType
        if isinstance(value, str):
            value = ForwardRef(value, is_argument=False, is_class=True)
        self._evaluating.add(text)
        try:
            return self.of(value)
        finally:
            self._evaluating.discard(text)


class _Scope(Mapping[str, Any]):
    """The names of an annotation: its module's, then the builtins, then *fallback*'s."""

    def __init__(self, globalns: dict[str, Any], fallback: Mapping[str, Any]) -> None:
        self._globalns = globalns
        self._fallback = fallback
        found: object = globalns.get("__builtins__", builtins)
        self._builtins: Mapping[str, Any] = (
            typing.cast("Mapping[str, Any]", found) if isinstance(found, Mapping) else vars(found)
        )

    def __getitem__(self, name: str) -> Any:
        for names in (self._globalns, self._builtins, self._fallback):
            if name in names:
                return names[name]
        raise KeyError(name)

    def __iter__(self) -> Iterator[str]:
        return iter({**self._fallback, **self._builtins, **self._globalns})

    def __len__(self) -> int:
        return len({**self._fallback, **self._builtins, **self._globalns})


def is_type_alias(node: object) -> bool:
    """Whether *node* is an alias made with the ``type`` statement or ``TypeAliasType``."""
    kind = type(node)
    return kind.__name__ == "TypeAliasType" and kind.__module__ in ("typing", "typing_extensions")


def expand_alias(alias: object) -> object | None:
    """The type a ``type`` alias without type parameters names, or None when it names itself.

    For an alias met outside an evaluated annotation (given to the registry itself): those in
    annotations are expanded as they are evaluated.

    Raises:
        NameError: A name in it is not defined.
    """
    module = sys.modules.get(str(getattr(alias, "__module__", "")))
    expanded = evaluate(alias, vars(module) if module is not None else {}, {})
    return None if expanded is alias else expanded


def _mentions(annotation: object, alias: object) -> bool:
    """Whether *alias* is part of *annotation* (looked at up to `_MAX_PARTS` parts)."""
    stack, seen = [annotation], 0
    while stack and seen < _MAX_PARTS:
        part = stack.pop()
        if part is alias:
            return True
        stack.extend(typing.get_args(part))
        seen += 1
    return False


def _same(new: tuple[object, ...], old: tuple[object, ...]) -> bool:
    return all(a is b for a, b in zip(new, old, strict=True))


def _is_typing_form(node: object) -> bool:
    return type(node).__module__ in ("typing", "typing_extensions")


def _union(variants: tuple[object, ...]) -> object:
    """``Union[*variants]`` in exactly this order, built anew (not taken from typing's cache).

    Without the function under the cache (a later Python), the usual form is used.
    """
    form: object = typing.Union
    getitem: Callable[[object, tuple[object, ...]], object] = getattr(  # noqa: B009
        type(form),
        "__getitem__",  # a special form's: typing's stubs do not show it
    )
    build: Callable[[object, tuple[object, ...]], object] = getattr(getitem, "__wrapped__", getitem)
    return build(form, variants)
