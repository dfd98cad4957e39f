"""Reading mypy's view of classes: attrs classes, dataclasses, enums, NamedTuples and methods.

Shared by the schema check (`jsontypes`), the shapes (`shapes`) and the class checks.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final, NamedTuple, cast

from mypy.messages import format_type_bare
from mypy.nodes import (
    CallExpr,
    Decorator,
    FuncDef,
    MypyFile,
    OverloadedFuncDef,
    RefExpr,
    SymbolNode,
    TypeInfo,
    Var,
)
from mypy.options import Options
from mypy.plugin import CheckerPluginInterface
from mypy.types import (
    AnyType,
    CallableType,
    Instance,
    Overloaded,
    ProperType,
    TupleType,
    Type,
    TypeAliasType,
    get_proper_type,
)

from typed_toolsets.rules.typenames import NUMERIC_NAMES, SCALAR_NAMES

from .codes import Span
from .fullnames import TOOL_FUNCTION

__all__ = [
    "BYTES",
    "SCALARS",
    "StructField",
    "attrs_field_names",
    "checker_modules",
    "class_span",
    "display_name",
    "function_of",
    "is_plain_function",
    "is_property",
    "is_real_dataclass",
    "label",
    "member_value_type",
    "namedtuple_fields",
    "struct_attributes",
    "struct_class",
    "struct_fields",
    "wrapped_function",
    "wrapper_of",
]

#: Types with a scalar schema (strings, numbers, booleans, formats such as dates and UUIDs).
SCALARS: Final = SCALAR_NAMES | NUMERIC_NAMES
#: Binary types: JSON has no bytes.
BYTES: Final = frozenset({"builtins.bytes", "builtins.bytearray", "builtins.memoryview"})


def label(t: Type, options: Options) -> str:
    """How a type is named in problems: as written, without quotes (``dict[int, str]``).

    A generic ``type`` alias applied is named so (``Pair[int]``), as the run time names it
    (mypy would write the type it stands for).
    """
    if (
        isinstance(t, TypeAliasType)
        and t.alias is not None
        and t.alias.python_3_12_type_alias
        and t.alias.alias_tvars
    ):
        return f"{t.alias.name}[{', '.join(label(a, options) for a in t.args)}]"
    return format_type_bare(t, options)


def struct_attributes(info: TypeInfo, key: str) -> list[dict[str, object]] | None:
    """The fields mypy's attrs (``key="attrs"``) or dataclass plugin recorded on *info*."""
    data = info.metadata.get(key)
    attributes = data.get("attributes") if isinstance(data, dict) else None
    if not isinstance(attributes, list):
        return None
    return [a for a in attributes if isinstance(a, dict)]  # pyright: ignore[reportUnknownVariableType]


def is_real_dataclass(info: TypeInfo) -> bool:
    """A ``@dataclass`` (not a ``dataclass_transform`` base class such as pydantic's models)."""
    if struct_attributes(info, "dataclass") is None:
        return False
    meta = info.metaclass_type
    if meta is not None and any(m.dataclass_transform_spec for m in meta.type.mro):
        return False
    return not any(base.dataclass_transform_spec for base in info.mro)


def struct_class(info: TypeInfo) -> tuple[TypeInfo, str] | None:
    """The class whose fields a struct type has, with their kind (``"attrs"``, ``"dataclass"``).

    The nearest class along the MRO that attrs or ``@dataclass`` decorated, as the run time finds
    it: a subclass not decorated again has its base's fields (``attrs.fields`` and
    ``dataclasses.fields`` read the inherited attribute), which mypy records on the base only.
    None when *info* is neither (or a ``dataclass_transform`` model).
    """
    for klass in info.mro:
        if "attrs" in klass.metadata:
            return klass, "attrs"
        if struct_attributes(klass, "dataclass") is not None:
            return (klass, "dataclass") if is_real_dataclass(klass) else None
    return None


class StructField(NamedTuple):
    """A field of an attrs class or dataclass that its constructor takes, as mypy recorded it.

    Attributes:
        name: The attribute's name.
        key: Its key in JSON: an attrs ``alias`` when it has one, else the name.
        type: Its annotation, None when it has none.
        required: It has no default.
        init_var: A dataclass ``InitVar`` (not a field of the instance).
    """

    name: str
    key: str
    type: Type | None
    required: bool
    init_var: bool


def struct_fields(info: TypeInfo, decorated: TypeInfo, kind: str) -> Iterator[StructField]:
    """The fields struct *info*'s constructor takes, in order (``InitVar``s among them).

    Args:
        info: The struct class (its fields' types are looked up on it, which finds a base's).
        decorated: The class whose fields those are, and their *kind*: `struct_class`.
        kind: ``"attrs"`` or ``"dataclass"``.
    """
    is_attrs = kind == "attrs"
    for attribute in struct_attributes(decorated, kind) or []:
        name = attribute.get("name")
        if not isinstance(name, str):
            continue
        init_var = not is_attrs and bool(attribute.get("is_init_var"))
        if not init_var and not attribute.get("init" if is_attrs else "is_in_init", True):
            continue
        alias = attribute.get("alias") if is_attrs else None
        sym = info.get(name)
        node = sym.node if sym is not None else None
        annotation = node.type if isinstance(node, Var) else None
        if not is_attrs and _kw_only_marker(annotation):
            continue  # mypy records the marker among the attributes; no constructor takes it
        yield StructField(
            name=name,
            key=alias if isinstance(alias, str) else name,
            type=annotation,
            required=not attribute.get("has_default"),
            init_var=init_var,
        )


def _kw_only_marker(annotation: Type | None) -> bool:
    """Whether *annotation* is ``dataclasses.KW_ONLY``, the marker of keyword-only fields."""
    found = get_proper_type(annotation)
    return isinstance(found, Instance) and found.type.fullname == "dataclasses.KW_ONLY"


def attrs_field_names(info: TypeInfo) -> set[str]:
    """The names of the attrs fields of *info* and its bases."""
    names: set[str] = set()
    for klass in info.mro:
        for attribute in struct_attributes(klass, "attrs") or []:
            name = attribute.get("name")
            if isinstance(name, str):
                names.add(name)
    return names


def namedtuple_fields(info: TypeInfo) -> list[str]:
    """The field names of a NamedTuple class, in order."""
    data = info.metadata.get("namedtuple")
    fields = data.get("fields") if isinstance(data, dict) else None
    if isinstance(fields, list):
        return [str(f) for f in fields]  # pyright: ignore[reportUnknownVariableType, reportUnknownArgumentType]
    return []


def member_value_type(info: TypeInfo, member: str) -> ProperType | None:
    """The type mypy infers for an enum member's value (a literal when it knows the value).

    None when mypy does not know it, or when the enum makes its members itself from a tuple:
    a class's own ``__new__`` or ``__init__`` takes the tuple assigned as its arguments, and
    may set ``_value_`` to any of them (the enum module's documented pattern).
    """
    sym = info.names.get(member)
    node = sym.node if sym is not None else None
    if not isinstance(node, Var) or node.type is None:
        return None
    found = get_proper_type(node.type)
    if _tuple_value(found) and _makes_members(info):
        return None
    return found


def _tuple_value(value: ProperType) -> bool:
    """Whether *value* is the type of a tuple (what ``A = ("a", "Label A")`` assigns)."""
    if isinstance(value, TupleType):
        return True
    return isinstance(value, Instance) and value.type.fullname == "builtins.tuple"


def _makes_members(info: TypeInfo) -> bool:
    """Whether the enum or a base not of the enum module defines ``__new__`` or ``__init__``."""
    return any(
        "__new__" in base.names or "__init__" in base.names
        for base in info.mro
        if not base.fullname.startswith(("enum.", "builtins."))
    )


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


def checker_modules(api: CheckerPluginInterface) -> dict[str, MypyFile]:
    """Every module mypy has loaded, by name (the checker has them; its interface does not say)."""
    modules = getattr(api, "modules", None)
    return cast("dict[str, MypyFile]", modules) if isinstance(modules, dict) else {}


def display_name(info: TypeInfo) -> str:
    """The class's qualified name as Python shows it (``Outer.Inner``), without the module.

    Classes defined in a function are known to mypy as ``Name@line``; show the plain name.
    """
    name = info.fullname
    if name.startswith(info.module_name + "."):
        name = name[len(info.module_name) + 1 :]
    return name.split("@", 1)[0]


def class_span(info: TypeInfo) -> Span:
    """The ``class Name`` part of a class statement (not its whole body)."""
    defn = info.defn
    return defn.line, defn.column, defn.line, defn.column + len("class ") + len(defn.name)


#: Decorators that return the very function they are given (the run time judges it as written).
_SAME_FUNCTION: Final = frozenset(
    {
        TOOL_FUNCTION,
        "typing.override",
        "typing_extensions.override",
        "typing.final",
        "typing_extensions.final",
        "abc.abstractmethod",
    }
)


def wrapped_function(node: SymbolNode | None) -> bool:
    """Whether a decorator other than `tool` (and a few that return their function) wraps it.

    The class attribute is then what the decorator returned, which the run time judges: a
    wrapper of a generator function (``@listify``, a logging decorator) is no generator itself.
    """
    if not isinstance(node, Decorator):
        return False
    for decorator in node.original_decorators:
        target = decorator.callee if isinstance(decorator, CallExpr) else decorator
        if not (isinstance(target, RefExpr) and target.fullname in _SAME_FUNCTION):
            return True
    return False


def is_property(node: SymbolNode | None) -> bool:
    """Whether the class attribute is a property (``functools.cached_property`` included)."""
    if isinstance(node, (FuncDef, OverloadedFuncDef)):
        return node.is_property
    if isinstance(node, Decorator):
        return node.func.is_property or node.var.is_property
    return False


#: The wrappers a class body may call by hand (``find = staticmethod(_find)``), as the run
#: time's `_kind_problem` names them.
_WRAPPER_CLASSES: Final = {
    "builtins.staticmethod": "staticmethod",
    "builtins.classmethod": "classmethod",
    "builtins.property": "property",
    "functools.cached_property": "property",
}


def wrapper_of(node: SymbolNode | None) -> str | None:
    """The wrapper an attribute set to ``staticmethod(f)`` (or the like) is, else None."""
    if not isinstance(node, Var) or node.type is None:
        return None
    value = get_proper_type(node.type)
    if isinstance(value, Instance):
        return _WRAPPER_CLASSES.get(value.type.fullname)
    return None


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
        # not a function at run time; one typed as returning a callable, or a callable
        # Protocol (how decorators that add attributes are typed), keeps a function.
        return (
            decorated is None
            or isinstance(decorated, (CallableType, Overloaded, AnyType))
            or (isinstance(decorated, Instance) and _is_callable_protocol(decorated.type))
        )
    return False


def _is_callable_protocol(info: TypeInfo) -> bool:
    return info.is_protocol and info.get("__call__") is not None
