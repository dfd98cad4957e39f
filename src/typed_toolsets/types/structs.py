"""Object types: attrs classes, dataclasses, TypedDicts and NamedTuples.

Each becomes a closed JSON object (``additionalProperties: false``) whose ``required`` lists the
fields without a default. Its structuring and unstructuring code is generated once per class
(`typed_toolsets.types.gen`). A method's keyword arguments are the same kind of closed object
(`typed_toolsets.types.arguments`), built from the same `Property` records and helpers.
"""

from __future__ import annotations

import contextlib
import dataclasses
import inspect
import types
import typing
from collections.abc import Callable, Collection, Iterator, Sequence
from typing import Any, Final

import attrs
import typing_extensions

from typed_toolsets.rules import reasons
from typed_toolsets.rules.labels import label
from typed_toolsets.rules.shapes import Shape

from . import docstrings
from .defaults import json_default
from .description import description_of
from .gen import KeyHook, UnstructureField, generate_object_structure, generate_unstructure
from .hints import class_hints
from .registry import Builder, Describer, Rule, ShapeFunction, unknown_shape
from .scalars import class_description
from .strict import means_default, null_sentence, nullable
from .typespec import (
    MISSING,
    ChildrenFn,
    Schema,
    TypeSpec,
    Unresolved,
    Unsupported,
    container_spec,
    instance_of,
)

__all__ = [
    "STRUCT_RULES",
    "FieldInfo",
    "Property",
    "object_children",
    "object_members",
    "object_schema",
    "resolve_hints",
    "struct_fields",
]


@attrs.frozen
class FieldInfo:
    """One field of an object type.

    Attributes:
        name: The JSON property name (and constructor keyword).
        attr_name: The attribute (or key) to read when unstructuring.
        annotation: The field's type.
        required: Whether the JSON object must contain it.
        default: The default value, or MISSING when there is none or it is a factory.
        description: A description from field metadata or the class docstring.
        factory: What makes the default, when a factory that takes no arguments does.
    """

    name: str
    attr_name: str
    annotation: object
    required: bool
    default: object = MISSING
    description: str | None = None
    factory: Callable[[], object] | None = None


def resolve_hints(cls: type, only: Collection[str] | None = None) -> dict[str, object]:
    """Resolve a class's annotations (strings included), keeping ``Annotated`` metadata.

    Args:
        cls: The class.
        only: When given, only these names' annotations are evaluated. Python 3.10 refuses to
            evaluate some annotations that declare no field (a dataclass's string ``"KW_ONLY"``
            marker), so a dataclass asks for its fields alone.

    Raises:
        Unresolved: An annotation names something that is not defined (yet).
    """
    # The class's own name is added so a class defined inside a function can refer to itself.
    localns = {**vars(cls), cls.__name__: cls}
    try:
        return class_hints(cls, localns, only)
    except NameError as exc:
        raise Unresolved(getattr(exc, "name", None) or str(exc)) from None
    except Exception as exc:  # noqa: BLE001 - e.g. TypeError for an annotation that is no type
        msg = f"the annotations of {cls.__qualname__} cannot be evaluated ({exc})"
        raise Unsupported(msg) from None


#: attrs' default factories: a class at run time, which attrs' stubs present as a function.
_FACTORY: Final = typing.cast("type", attrs.Factory)


def _field_docs(cls: type) -> dict[str, str]:
    """The fields described in the docstrings of *cls* and its bases (its own winning)."""
    docs: dict[str, str] = {}
    for klass in reversed(cls.__mro__):
        docs.update(docstrings.field_descriptions(klass.__dict__.get("__doc__")))
    return docs


def _metadata_description(metadata: typing.Mapping[Any, Any]) -> str | None:
    value = metadata.get("description")
    return value if isinstance(value, str) else None


# --------------------------------------------------------------------------- field collection


def _attrs_fields(cls: type) -> list[FieldInfo]:
    hints = resolve_hints(cls)
    docs = _field_docs(cls)
    fields: list[FieldInfo] = []
    for field in attrs.fields(cls):
        if not field.init:
            continue
        annotation = hints.get(field.name, field.type)
        if annotation is None:
            msg = reasons.unannotated_field(f"{cls.__qualname__}.{field.name}")
            raise Unsupported(msg)
        default = field.default
        required = default is attrs.NOTHING
        factory: Callable[[], object] | None = None
        if isinstance(default, _FACTORY):
            made: object = getattr(default, "factory", None)
            if getattr(default, "takes_self", True) is False and callable(made):
                factory = typing.cast("Callable[[], object]", made)
            default = MISSING
        elif required:
            default = MISSING
        alias = getattr(field, "alias", None) or field.name.lstrip("_")
        fields.append(
            FieldInfo(
                name=alias,
                attr_name=field.name,
                annotation=annotation,
                required=required,
                default=default,
                description=_metadata_description(field.metadata)
                or description_of(annotation)
                or docs.get(field.name)
                or docs.get(alias),
                factory=factory,
            )
        )
    return fields


def _slot_setters(cls: type) -> list[Callable[[Any, Any], object]] | None:
    """The setters of a frozen attrs class's slots, when building it with them is the same.

    One per field, in order; None when the class must be called.

    A frozen class's ``__init__`` sets each slot through ``object.__setattr__``, and calling the
    class costs a frame and that bound method besides (about a third of building it). Here the
    instance is made with ``object.__new__`` and each slot set by its member descriptor: the same
    slots hold the same values. Only when ``__init__`` would do nothing more: attrs wrote it (the
    class's own), for a frozen slotted class that is no exception and caches no hash, whose fields
    are all set from their arguments or a factory taking no arguments (no validator, converter,
    factory taking the instance or ``init=False``), with no ``__attrs_pre_init__`` or
    ``__attrs_post_init__``, no ``__new__`` of its own and ``type`` as metaclass; every slot the
    class adds is a field's (or ``__weakref__``). The class's properties are read from
    ``__attrs_props__`` (attrs 25.4 or later; without it, the class is called).
    """
    props = cls.__dict__.get("__attrs_props__")
    plain_class = (
        props is not None
        and getattr(props, "added_init", False) is True
        and getattr(props, "is_frozen", False) is True
        and getattr(props, "is_slotted", False) is True
        and getattr(props, "is_exception", True) is False
        and getattr(getattr(props, "hashability", None), "value", None) != "hashable_cache"
        and "__init__" in cls.__dict__
        and getattr(cls, "__new__", None) is object.__new__
        and type(cls) is type
        and not hasattr(cls, "__attrs_pre_init__")
        and not hasattr(cls, "__attrs_post_init__")
    )
    if not plain_class:
        return None
    fields = attrs.fields(cls)
    own = {f.name for f in fields} | {"__weakref__"}
    slots = cls.__dict__.get("__slots__", ())
    if isinstance(slots, str) or not set(slots) <= own:
        return None
    setters: list[Callable[[Any, Any], object]] = []
    for field in fields:
        if (
            not field.init
            or field.validator is not None
            or field.converter is not None
            # A factory taking the instance needs it half built; one taking nothing is called
            # by the structuring code itself (see `typed_toolsets.types.gen.object_body`).
            or (
                isinstance(field.default, _FACTORY)
                and getattr(field.default, "takes_self", True) is not False
            )
        ):
            return None
        owner = next((c for c in cls.__mro__ if field.name in c.__dict__), None)
        slot = None if owner is None else owner.__dict__[field.name]
        if type(slot) is not types.MemberDescriptorType:
            return None
        setters.append(slot.__set__)
    return setters


def _dataclass_fields(cls: type) -> list[FieldInfo]:
    all_fields: dict[str, Any] = getattr(cls, "__dataclass_fields__", {})
    for name, field in all_fields.items():
        # dataclasses marks InitVar pseudo-fields itself, also when the annotation is a string
        # (which Python 3.10's get_type_hints then refuses to evaluate).
        if repr(getattr(field, "_field_type", None)) == "_FIELD_INITVAR":
            msg = reasons.init_var_field(cls.__qualname__, name)
            raise Unsupported(msg)
    hints = resolve_hints(cls, only={field.name for field in dataclasses.fields(cls)})
    docs = _field_docs(cls)
    fields: list[FieldInfo] = []
    for field in dataclasses.fields(cls):
        if not field.init:
            continue
        has_default = field.default is not dataclasses.MISSING
        made = field.default_factory
        has_factory = made is not dataclasses.MISSING
        annotation = hints.get(field.name, field.type)
        fields.append(
            FieldInfo(
                name=field.name,
                attr_name=field.name,
                annotation=annotation,
                required=not has_default and not has_factory,
                default=field.default if has_default else MISSING,
                description=_metadata_description(field.metadata)
                or description_of(annotation)
                or docs.get(field.name),
                factory=None if made is dataclasses.MISSING else made,
            )
        )
    return fields


_QUALIFIERS: Final = {
    typing_extensions.Required: True,
    typing_extensions.NotRequired: False,
    typing_extensions.ReadOnly: None,
}


def _unwrap_qualifiers(annotation: object) -> tuple[object, bool | None]:
    """Strip ``Required``/``NotRequired``/``ReadOnly``; return what they say about requiredness.

    They may also stand inside ``Annotated`` (``Annotated[NotRequired[int], "text"]``, which
    PEP 655 allows too): then the metadata stays, around what they hold.
    """
    if typing.get_origin(annotation) is typing.Annotated:
        held = typing.get_args(annotation)[0]
        inner, said = _unwrap_qualifiers(held)
        if inner is held:
            return annotation, said
        # `copy_with` keeps the metadata around another type (typing's stubs do not show it).
        copy_with: Callable[[tuple[object]], object] = getattr(annotation, "copy_with")  # noqa: B009
        return copy_with((inner,)), said
    required: bool | None = None
    origin = typing.get_origin(annotation)
    while origin in _QUALIFIERS:
        said = _QUALIFIERS[origin]
        if said is not None:
            required = said
        (annotation,) = typing.get_args(annotation)
        origin = typing.get_origin(annotation)
    return annotation, required


def _typeddict_fields(cls: type) -> list[FieldInfo]:
    extra = getattr(cls, "__extra_items__", typing_extensions.NoExtraItems)
    if extra is not typing_extensions.NoExtraItems and extra is not None:
        # PEP 728: the schema would need `additionalProperties` of that type and the call would
        # keep the extra keys; read as closed, every extra key the class admits would be refused.
        msg = (
            f"TypedDict {cls.__qualname__} declares extra_items (PEP 728), which is not supported:"
            " declare the extra keys as a dict[str, T] field instead"
        )
        raise Unsupported(msg)
    hints = resolve_hints(cls)
    docs = _field_docs(cls)
    required_keys: frozenset[str] = getattr(cls, "__required_keys__", frozenset(hints))
    fields: list[FieldInfo] = []
    for name, hint in hints.items():
        # An explicit qualifier wins: Python 3.10's typing.TypedDict does not know the
        # typing_extensions qualifiers, so its __required_keys__ can be wrong.
        annotation, said = _unwrap_qualifiers(hint)
        fields.append(
            FieldInfo(
                name=name,
                attr_name=name,
                annotation=annotation,
                required=name in required_keys if said is None else said,
                description=description_of(annotation) or docs.get(name),
            )
        )
    return fields


def _namedtuple_fields(cls: type) -> list[FieldInfo]:
    hints = resolve_hints(cls)
    docs = _field_docs(cls)
    defaults: dict[str, object] = getattr(cls, "_field_defaults", {})
    names: tuple[str, ...] = getattr(cls, "_fields", ())
    fields: list[FieldInfo] = []
    for name in names:
        if name not in hints:
            msg = reasons.unannotated_field(f"{cls.__qualname__}.{name}")
            raise Unsupported(msg)
        fields.append(
            FieldInfo(
                name=name,
                attr_name=name,
                annotation=hints[name],
                required=name not in defaults,
                default=defaults.get(name, MISSING),
                description=description_of(hints[name]) or docs.get(name),
            )
        )
    return fields


@attrs.frozen
class Property(FieldInfo):
    """One property of a closed JSON object, with its type's spec.

    A struct's field, or a method's parameter (whose ``attr_name`` is its ``name``).

    Attributes:
        spec: The spec of ``annotation``.
        null_default: In the strict form (`typed_toolsets.types.strict`): ``null`` stands for
            the default, read as the property left out.
    """

    spec: TypeSpec = attrs.field(kw_only=True)
    null_default: bool = attrs.field(default=False, kw_only=True)


def object_schema(properties: Sequence[Property]) -> Schema:
    """The schema of a closed object with exactly *properties* (defaults shown when JSON-ready).

    A property whose ``null`` stands for its default admits null, and its description says so.
    """
    schema_properties: Schema = {}
    for prop in properties:
        entry = dict(prop.spec.schema)
        if prop.description:
            entry["description"] = prop.description
        if prop.default is not MISSING:
            # A default without a JSON form the schema admits is simply not shown.
            with contextlib.suppress(ValueError):
                entry["default"] = json_default(prop.default, prop.spec)
        if prop.null_default:
            entry = nullable(entry, null_sentence(entry))
        schema_properties[prop.name] = entry
    return {
        "type": "object",
        "properties": schema_properties,
        "required": [p.name for p in properties if p.required],
        "additionalProperties": False,
    }


def object_members(properties: Sequence[Property]) -> Callable[[Any], int]:
    """Count the members of a closed object's JSON value and of every object nested in it."""
    nested = [(p.name, p.spec.members) for p in properties if p.spec.members is not None]
    if not nested:
        return len

    def members(value: Any) -> int:
        mapping: dict[str, Any] = value
        total = len(mapping)
        for key, count in nested:
            item = mapping.get(key)
            if item is not None:  # null holds no members (and may stand for a default)
                total += count(item)
        return total

    return members


def object_children(properties: Sequence[Property]) -> ChildrenFn:
    """Yield ``(key, spec, value)`` for the known properties of a closed object's JSON value.

    A ``null`` that stands for a default is no value to look into.
    """
    by_name = {p.name: p.spec for p in properties}
    defaulted_by_null = {p.name for p in properties if p.null_default}

    def children(value: Any) -> Iterator[tuple[str | int, TypeSpec, object]]:
        if type(value) is dict:
            for key, element in typing.cast("dict[str, object]", value).items():
                spec = by_name.get(key)
                if spec is not None and (element is not None or key not in defaulted_by_null):
                    yield key, spec, element

    return children


def _object_spec(cls: type, fields: list[FieldInfo], kind: str, builder: Builder) -> TypeSpec:
    for field in fields:
        if not field.name.isidentifier() and kind != "dict":
            msg = f"field {cls.__qualname__}.{field.attr_name} has no keyword-usable name"
            raise Unsupported(msg)
    properties: list[Property] = []
    strict = builder.registry.strict
    for field in fields:
        try:
            spec = builder.spec(field.annotation)
        except Unsupported as exc:
            msg = reasons.field_reason(f"{cls.__qualname__}.{field.name}", str(exc))
            raise Unsupported(msg) from None
        if field.default is None and "null" not in spec.json_types:
            # Read as written, as a parameter's: a None default does not make a field nullable.
            field_name = f"{cls.__qualname__}.{field.name}"
            msg = reasons.field_none_default(field_name, label(field.annotation))
            raise Unsupported(msg)
        properties.append(
            Property(
                **attrs.asdict(field, recurse=False),
                spec=spec,
                null_default=strict and means_default(field.required, spec.schema),
            )
        )
    schema = object_schema(properties)
    generated_doc = None
    if kind == "dataclass":
        generated_doc = cls.__name__ + str(inspect.signature(cls)).replace(" -> None", "")
    elif kind == "namedtuple":
        names = ", ".join(f.name for f in fields)
        # collections.namedtuple writes one field as a one-item tuple's: "Point(x,)".
        generated_doc = f"{cls.__name__}({names}{',' if len(fields) == 1 else ''})"
    description = class_description(cls, generated_doc)
    if description:
        schema["description"] = description
    name = f"{cls.__module__}.{cls.__qualname__}"
    structure = generate_object_structure(
        name,
        [
            KeyHook.for_spec(
                p.name,
                p.required,
                p.spec,
                default=p.default,
                null_default=p.null_default,
                factory=p.factory,
            )
            for p in properties
        ],
        None if kind == "dict" else cls,
        _slot_setters(cls) if kind == "attrs" else None,
    )
    unstructure = generate_unstructure(
        name,
        cls,
        [UnstructureField(p.name, p.attr_name, p.required, p.spec.unstructure) for p in properties],
        from_dict=kind == "dict",
    )
    return attrs.evolve(
        container_spec(
            cls,
            "object",
            [p.spec for p in properties],
            schema,
            structure,
            unstructure,
            instance_of(dict if kind == "dict" else cls),
            object_children(properties),
        ),
        required_keys=frozenset(p.name for p in properties if p.required),
        property_keys=frozenset(p.name for p in properties),
        members=object_members(properties),
    )


def _rule(
    fields_of: Callable[[type], list[FieldInfo]], kind: str
) -> Callable[[object, Builder], TypeSpec]:
    def factory(annotation: object, builder: Builder) -> TypeSpec:
        cls = typing.cast("type", annotation)
        return builder.struct(cls, lambda: _object_spec(cls, fields_of(cls), kind, builder))

    return factory


def _is_attrs(annotation: object) -> bool:
    # A dataclass deriving from an attrs class is a dataclass: its own decorator wrote __init__.
    if not isinstance(annotation, type) or not attrs.has(annotation):
        return False
    for cls in annotation.__mro__:
        own = vars(cls)
        if "__attrs_attrs__" in own:
            return True
        if "__dataclass_fields__" in own:
            return False
    return True  # pragma: no cover - attrs.has found its attributes on some class


def _is_dataclass(annotation: object) -> bool:
    return isinstance(annotation, type) and dataclasses.is_dataclass(annotation)


def _is_typeddict(annotation: object) -> bool:
    return isinstance(annotation, type) and typing_extensions.is_typeddict(annotation)


def _is_namedtuple(annotation: object) -> bool:
    fields = getattr(annotation, "_fields", None)
    return (
        isinstance(fields, tuple) and isinstance(annotation, type) and issubclass(annotation, tuple)
    )


def _shape(fields_of: Callable[[type], list[FieldInfo]]) -> ShapeFunction:
    # The same field reader as the schema: the same names, aliases and required flags.
    def shape(annotation: object, describer: Describer) -> Shape:
        cls = typing.cast("type", annotation)
        return describer.closed_object(
            cls, lambda: [(f.name, f.annotation, f.required) for f in fields_of(cls)]
        )

    return shape


def _namedtuple_shape(annotation: object, describer: Describer) -> Shape:
    # Left out of check's analysis, as the mypy plugin leaves NamedTuples; the strict export's
    # sees it as the object it is.
    if describer.strict:
        return _shape(_namedtuple_fields)(annotation, describer)
    return unknown_shape(annotation, describer)


STRUCT_RULES: Final = (
    Rule("attrs", _is_attrs, _rule(_attrs_fields, "attrs"), _shape(_attrs_fields)),
    Rule(
        "dataclass", _is_dataclass, _rule(_dataclass_fields, "dataclass"), _shape(_dataclass_fields)
    ),
    Rule("typeddict", _is_typeddict, _rule(_typeddict_fields, "dict"), _shape(_typeddict_fields)),
    Rule("namedtuple", _is_namedtuple, _rule(_namedtuple_fields, "namedtuple"), _namedtuple_shape),
)
#: The field reader of each struct rule, by the rule's name.
_FIELD_READERS: Final[dict[str, Callable[[type], list[FieldInfo]]]] = {
    "attrs": _attrs_fields,
    "dataclass": _dataclass_fields,
    "typeddict": _typeddict_fields,
    "namedtuple": _namedtuple_fields,
}


def struct_fields(cls: object, rule: str | None = None) -> list[FieldInfo] | None:
    """The fields of a struct class as its schema has them (names, defaults); None for another.

    Args:
        cls: An attrs class, dataclass, TypedDict or NamedTuple class (or anything else).
        rule: The name of the struct rule that matches it, when the caller knows it.

    Raises:
        Unsupported: The class is a struct whose fields have no JSON form (an ``InitVar``, an
            annotation that names nothing defined, ...).
    """
    if rule is None:
        rule = next((r.name for r in STRUCT_RULES if r.predicate(cls)), None)
        if rule is None:
            return None
    return _FIELD_READERS[rule](typing.cast("type", cls))
