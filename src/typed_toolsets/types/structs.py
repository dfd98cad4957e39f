"""Object types: attrs classes, dataclasses, TypedDicts and NamedTuples.

Each becomes a closed JSON object (``additionalProperties: false``) whose ``required`` lists the
fields without a default. Structuring code is generated once per class, so the per-call cost is a
handful of dictionary lookups; the generated source is registered with `linecache` so tracebacks
show it.
"""

from __future__ import annotations

import dataclasses
import inspect
import linecache
import typing
from collections.abc import Callable, Collection, Iterator, Mapping
from typing import Any, Final

import attrs
import typing_extensions

from typed_toolsets.rules.shapes import Shape

from . import docstrings
from .registry import Builder, Describer, Rule, ShapeFunction, unknown_shape
from .scalars import class_description
from .typespec import MISSING, Reject, Schema, TypeSpec, Unresolved, Unsupported

__all__ = [
    "STRUCT_RULES",
    "FieldInfo",
    "KeyHook",
    "compile_function",
    "generate_object_structure",
    "object_body",
    "resolve_hints",
]


@attrs.frozen
class FieldInfo:
    """One field of an object type.

    Attributes:
        json_name: The JSON property name (and constructor keyword).
        attr_name: The attribute (or key) to read when unstructuring.
        annotation: The field's type.
        required: Whether the JSON object must contain it.
        default: The default value, or MISSING when there is none or it is a factory.
        description: A description from field metadata or the class docstring.
    """

    json_name: str
    attr_name: str
    annotation: object
    required: bool
    default: object = MISSING
    description: str | None = None


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
    targets: list[type] = [cls]
    if only is not None:
        # One stand-in per class of the MRO, so each annotation is still evaluated in the
        # globals of the module that wrote it; later (more derived) classes win, as usual.
        targets = []
        for base in reversed(cls.__mro__):
            own = inspect.get_annotations(base)
            kept = {name: value for name, value in own.items() if name in only}
            if kept:
                namespace = {"__module__": base.__module__, "__annotations__": kept}
                targets.append(type(base.__name__, (), namespace))
    hints: dict[str, object] = {}
    try:
        for target in targets:
            hints.update(
                typing_extensions.get_type_hints(target, localns=localns, include_extras=True)
            )
    except NameError as exc:
        raise Unresolved(getattr(exc, "name", None) or str(exc)) from None
    except Exception as exc:  # noqa: BLE001 - e.g. TypeError for an annotation that is no type
        msg = f"the annotations of {cls.__qualname__} cannot be evaluated ({exc})"
        raise Unsupported(msg) from None
    return hints


def _metadata_description(metadata: typing.Mapping[Any, Any]) -> str | None:
    value = metadata.get("description")
    return value if isinstance(value, str) else None


# --------------------------------------------------------------------------- field collection


def _attrs_fields(cls: type) -> list[FieldInfo]:
    hints = resolve_hints(cls)
    docs = docstrings.field_descriptions(cls.__doc__)
    fields: list[FieldInfo] = []
    for field in attrs.fields(cls):
        if not field.init:
            continue
        annotation = hints.get(field.name, field.type)
        if annotation is None:
            msg = f"field {cls.__qualname__}.{field.name} has no type annotation"
            raise Unsupported(msg)
        default = field.default
        required = default is attrs.NOTHING
        if required or isinstance(default, attrs.Factory):  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
            default = MISSING
        alias = getattr(field, "alias", None) or field.name.lstrip("_")
        fields.append(
            FieldInfo(
                json_name=alias,
                attr_name=field.name,
                annotation=annotation,
                required=required,
                default=default,
                description=_metadata_description(field.metadata)
                or docs.get(field.name)
                or docs.get(alias),
            )
        )
    return fields


def _dataclass_fields(cls: type) -> list[FieldInfo]:
    all_fields: dict[str, Any] = getattr(cls, "__dataclass_fields__", {})
    for name, field in all_fields.items():
        # dataclasses marks InitVar pseudo-fields itself, also when the annotation is a string
        # (which Python 3.10's get_type_hints then refuses to evaluate).
        if repr(getattr(field, "_field_type", None)) == "_FIELD_INITVAR":
            msg = f"dataclass {cls.__qualname__} has the InitVar field {name!r} (not supported)"
            raise Unsupported(msg)
    hints = resolve_hints(cls, only={field.name for field in dataclasses.fields(cls)})
    docs = docstrings.field_descriptions(cls.__doc__)
    fields: list[FieldInfo] = []
    for field in dataclasses.fields(cls):
        if not field.init:
            continue
        has_default = field.default is not dataclasses.MISSING
        has_factory = field.default_factory is not dataclasses.MISSING
        fields.append(
            FieldInfo(
                json_name=field.name,
                attr_name=field.name,
                annotation=hints.get(field.name, field.type),
                required=not has_default and not has_factory,
                default=field.default if has_default else MISSING,
                description=_metadata_description(field.metadata) or docs.get(field.name),
            )
        )
    return fields


_QUALIFIERS: Final = {
    typing_extensions.Required: True,
    typing_extensions.NotRequired: False,
    typing_extensions.ReadOnly: None,
}


def _unwrap_qualifiers(annotation: object) -> tuple[object, bool | None]:
    """Strip ``Required``/``NotRequired``/``ReadOnly``; return what they say about requiredness."""
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
    hints = resolve_hints(cls)
    docs = docstrings.field_descriptions(cls.__doc__)
    required_keys: frozenset[str] = getattr(cls, "__required_keys__", frozenset(hints))
    fields: list[FieldInfo] = []
    for name, hint in hints.items():
        # An explicit qualifier wins: Python 3.10's typing.TypedDict does not know the
        # typing_extensions qualifiers, so its __required_keys__ can be wrong.
        annotation, said = _unwrap_qualifiers(hint)
        fields.append(
            FieldInfo(
                json_name=name,
                attr_name=name,
                annotation=annotation,
                required=name in required_keys if said is None else said,
                description=docs.get(name),
            )
        )
    return fields


def _namedtuple_fields(cls: type) -> list[FieldInfo]:
    hints = resolve_hints(cls)
    docs = docstrings.field_descriptions(cls.__doc__)
    defaults: dict[str, object] = getattr(cls, "_field_defaults", {})
    names: tuple[str, ...] = getattr(cls, "_fields", ())
    fields: list[FieldInfo] = []
    for name in names:
        if name not in hints:
            msg = f"field {cls.__qualname__}.{name} has no type annotation"
            raise Unsupported(msg)
        fields.append(
            FieldInfo(
                json_name=name,
                attr_name=name,
                annotation=hints[name],
                required=name not in defaults,
                default=defaults.get(name, MISSING),
                description=docs.get(name),
            )
        )
    return fields


# ------------------------------------------------------------------------------- code generation

_counter: list[int] = [0]


def _compile(source: str, name: str, namespace: dict[str, Any]) -> Callable[[Any], Any]:
    _counter[0] += 1
    filename = f"<typed_toolsets generated {name} #{_counter[0]}>"
    code = compile(source, filename, "exec")
    exec(code, namespace)  # noqa: S102 - our own generated source, built from field names
    linecache.cache[filename] = (len(source), None, source.splitlines(keepends=True), filename)
    return namespace["generated"]  # type: ignore[no-any-return]


@attrs.frozen
class KeyHook:
    """How generated structuring code handles one key of an object.

    Attributes:
        key: The JSON property name; also the keyword passed to the constructor.
        required: Whether the key must be present.
        hook: Structures the value (raising `Reject` when it does not match).
        passthrough: When set, the value must be exactly of one of these types and is kept as is
            (the hook is not called).
        default: For an optional key of a class: the value to pass when the key is absent, or
            MISSING to leave the keyword out (a factory default, or a plain dict result).
        shortcut: A type whose values are kept as is without calling the hook (other values
            still go through it).
        list_of: When set, the value is a list whose items are exactly of this type, kept as is.
        lookup: When set, the value is a str found in this table, which gives the result.
    """

    key: str
    required: bool
    hook: Callable[[Any], Any]
    passthrough: tuple[type, ...] = ()
    default: object = MISSING
    shortcut: type | None = None
    list_of: type | None = None
    lookup: Mapping[str, object] | None = None

    @classmethod
    def for_spec(
        cls, key: str, required: bool, spec: TypeSpec, hook: Callable[[Any], Any] | None = None
    ) -> KeyHook:
        """The key hook of a value of *spec*.

        A *hook* other than the spec's own function (one registered on the converter by hand) is
        always called: the spec's shortcuts would bypass it.
        """
        if hook is not None and hook is not spec.structure:
            return cls(key=key, required=required, hook=hook)
        return cls(
            key=key,
            required=required,
            hook=spec.structure if hook is None else hook,
            passthrough=spec.passthrough,
            shortcut=spec.shortcut,
            list_of=spec.list_of,
            lookup=spec.lookup,
        )


def _positional_count(make: Callable[..., Any], names: list[str]) -> int:
    """How many of *names*, in order, *make* takes as its leading positional parameters.

    Keyword arguments cost a CPython call far more than positional ones (the names are matched
    one by one), and the constructor runs once per structured object.
    """
    try:
        parameters = list(inspect.signature(make).parameters.values())
    except (TypeError, ValueError):  # pragma: no cover - classes always have a signature
        return 0
    count = 0
    for parameter, name in zip(parameters, names, strict=False):
        if parameter.kind is not parameter.POSITIONAL_OR_KEYWORD or parameter.name != name:
            break
        count += 1
    return count


def object_body(
    keys: list[KeyHook], make: Callable[..., Any] | None, namespace: dict[str, Any], indent: str
) -> tuple[list[str], str]:
    """Source lines checking and structuring the JSON object ``v`` with exactly *keys*.

    The lines raise ``Reject`` when ``v`` does not match. Returns them with the expression of the
    result: a call of *make* with the values, or, when *make* is None, the name of the dict of the
    values present (absent optional keys are left out, so a method's own defaults apply).
    """
    namespace.update({"Reject": Reject, "M": MISSING, "make": make})
    # Every required key is counted up front: the lines raise before the count is compared when
    # one is missing.
    required = sum(1 for k in keys if k.required)
    lines = ["if type(v) is not dict:", "    raise Reject", f"n = {required}"]
    keywords: list[str] = []
    uses_kw = any(not k.required and (make is None or k.default is MISSING) for k in keys)
    if uses_kw:
        lines.append("kw = {}")
    for index, item in enumerate(keys):
        key = repr(item.key)
        namespace[f"s{index}"] = item.hook
        value = "x"
        # Whether the check itself rejects the missing marker (it is of no JSON type).
        rejects_missing = True
        if len(item.passthrough) == 1:
            namespace[f"t{index}"] = item.passthrough[0]
            check = [f"if type(x) is not t{index}:", "    raise Reject"]
        elif item.passthrough:
            namespace[f"t{index}"] = item.passthrough
            check = [f"if type(x) not in t{index}:", "    raise Reject"]
        elif item.list_of is not None:
            # One C-level pass over the items: the set of their types must be {list_of}.
            namespace[f"t{index}"] = {item.list_of}
            check = [f"if type(x) is not list or (x and set(map(type, x)) != t{index}):"]
            check.append("    raise Reject")
        elif item.lookup is not None:
            namespace[f"t{index}"] = item.lookup
            check = [
                f"x = t{index}.get(x, M) if type(x) is str else M",
                "if x is M:",
                "    raise Reject",
            ]
        elif item.shortcut is not None:
            namespace[f"t{index}"] = item.shortcut
            check = [f"if type(x) is not t{index}:", f"    x = s{index}(x)"]
            rejects_missing = False
        else:
            check = []
            value = f"s{index}(x)"
            rejects_missing = False
        lines.append(f"x = v.get({key}, M)")
        if item.required:
            if not rejects_missing:
                lines.extend(["if x is M:", "    raise Reject"])
            lines.extend([*check, f"a{index} = {value}"])
            keywords.append(f"a{index}")
        elif make is not None and item.default is not MISSING:
            # Passing the class's own default when the key is absent is the same as omitting it.
            namespace[f"d{index}"] = item.default
            lines.extend(["if x is M:", f"    a{index} = d{index}", "else:"])
            lines.extend(f"    {line}" for line in check)
            lines.extend([f"    a{index} = {value}", "    n += 1"])
            keywords.append(f"a{index}")
        else:
            lines.append("if x is not M:")
            lines.extend(f"    {line}" for line in check)
            lines.extend([f"    kw[{key}] = {value}", "    n += 1"])
            keywords.append("")
    lines.extend(["if n != len(v):", "    raise Reject"])
    named = [(item.key, local) for item, local in zip(keys, keywords, strict=True) if local]
    if make is None:
        lines.append("r = {" + ", ".join(f"{key!r}: {local}" for key, local in named) + "}")
        if uses_kw:
            lines.append("r.update(kw)")
        result = "r"
    else:
        positional = _positional_count(make, [key for key, _ in named])
        call = [local for _, local in named[:positional]]
        call += [f"{key}={local}" for key, local in named[positional:]]
        if uses_kw:
            call.append("**kw")
        result = f"make({', '.join(call)})"
    return [f"{indent}{line}" for line in lines], result


def compile_function(source: str, name: str, namespace: dict[str, Any]) -> Callable[..., Any]:
    """Compile generated source defining ``generated`` and register it with linecache."""
    return _compile(source, name, namespace)


def generate_object_structure(
    name: str, keys: list[KeyHook], make: Callable[..., Any] | None
) -> Callable[[Any], Any]:
    """Generate a function structuring a JSON object with exactly *keys* (unknown keys rejected).

    It returns ``make(key=value, ...)``, or, when *make* is None, the dict of the values present
    (absent optional keys are left out, so a method's own defaults apply).
    """
    namespace: dict[str, Any] = {}
    body, result = object_body(keys, make, namespace, "    ")
    source = "\n".join(["def generated(v):", *body, f"    return {result}"]) + "\n"
    return _compile(source, f"structure {name}", namespace)


def _generate_unstructure(
    cls: type, fields: list[FieldInfo], specs: list[TypeSpec], kind: str
) -> Callable[[Any], Any]:
    namespace: dict[str, Any] = {"cls": cls, "M": MISSING}
    lines = ["def generated(v):"]
    if kind == "dict":
        lines.extend(
            ["    if not isinstance(v, dict):", "        raise ValueError(f'{v!r} is not a dict')"]
        )
    else:
        lines.extend(
            [
                "    if not isinstance(v, cls):",
                "        raise ValueError(f'{v!r} is not a ' + cls.__qualname__)",
            ]
        )
    lines.append("    r = {}")
    for index, (field, spec) in enumerate(zip(fields, specs, strict=True)):
        namespace[f"u{index}"] = spec.unstructure
        key = repr(field.json_name)
        if kind == "dict":
            attr = repr(field.attr_name)
            lines.append(f"    x = v.get({attr}, M)")
            lines.append("    if x is not M:")
            lines.append(f"        r[{key}] = u{index}(x)")
            if field.required:
                lines.append("    else:")
                lines.append(f"        raise ValueError('missing required key ' + {key})")
        else:
            lines.append(f"    r[{key}] = u{index}(v.{field.attr_name})")
    lines.append("    return r")
    source = "\n".join(lines) + "\n"
    return _compile(source, f"unstructure {cls.__module__}.{cls.__qualname__}", namespace)


def _object_spec(cls: type, fields: list[FieldInfo], kind: str, builder: Builder) -> TypeSpec:
    for field in fields:
        if not field.json_name.isidentifier() and kind != "dict":
            msg = f"field {cls.__qualname__}.{field.attr_name} has no keyword-usable name"
            raise Unsupported(msg)
    specs: list[TypeSpec] = []
    for field in fields:
        try:
            specs.append(builder.spec(field.annotation))
        except Unsupported as exc:
            msg = f"field {cls.__qualname__}.{field.json_name}: {exc}"
            raise Unsupported(msg) from None
    properties: Schema = {}
    for field, spec in zip(fields, specs, strict=True):
        prop = dict(spec.schema)
        if field.description:
            prop["description"] = field.description
        if field.default is not MISSING:
            json_default = _json_default(field.default, spec)
            if json_default is not MISSING:
                prop["default"] = json_default
        properties[field.json_name] = prop
    required = [f.json_name for f in fields if f.required]
    schema: Schema = {
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": False,
    }
    generated_doc = None
    if kind == "dataclass":
        generated_doc = cls.__name__ + str(inspect.signature(cls)).replace(" -> None", "")
    elif kind == "namedtuple":
        generated_doc = f"{cls.__name__}({', '.join(f.json_name for f in fields)})"
    description = class_description(cls, generated_doc)
    if description:
        schema["description"] = description
    structure = generate_object_structure(
        f"{cls.__module__}.{cls.__qualname__}",
        [
            attrs.evolve(KeyHook.for_spec(f.json_name, f.required, s), default=f.default)
            for f, s in zip(fields, specs, strict=True)
        ],
        None if kind == "dict" else cls,
    )
    unstructure = _generate_unstructure(cls, fields, specs, "dict" if kind == "dict" else "attr")
    by_name = dict(zip((f.json_name for f in fields), specs, strict=True))

    def children(value: Any) -> Iterator[tuple[str | int, TypeSpec, object]]:
        if type(value) is dict:
            for key, element in value.items():  # pyright: ignore[reportUnknownVariableType]
                spec = by_name.get(key)  # pyright: ignore[reportUnknownArgumentType]
                if spec is not None:
                    yield key, spec, element

    depths = [s.depth for s in specs]
    nested = [
        (f.json_name, s.members)
        for f, s in zip(fields, specs, strict=True)
        if s.members is not None
    ]

    def members(value: Any) -> int:
        mapping: dict[str, Any] = value
        total = len(mapping)
        for key, count in nested:
            if key in mapping:
                total += count(mapping[key])
        return total

    instance_check: Callable[[object], bool]
    if kind == "dict":
        instance_check = lambda v: isinstance(v, dict)  # noqa: E731
    else:
        instance_check = lambda v: isinstance(v, cls)  # noqa: E731
    return TypeSpec(
        annotation=cls,
        schema=schema,
        structure=structure,
        unstructure=unstructure,
        json_types=frozenset({"object"}),
        depth=None if None in depths else 1 + max([0, *[d for d in depths if d is not None]]),
        required_keys=frozenset(required),
        property_keys=frozenset(by_name),
        refs=frozenset[type]().union(*(s.refs for s in specs)),
        instance_check=instance_check,
        children=children,
        members=members if nested else len,
    )


def _json_default(default: object, spec: TypeSpec) -> object:
    """The JSON form of a field default, or MISSING when it has none that the schema admits."""
    try:
        value = spec.unstructure(default)
        spec.structure(value)
    except Exception:  # noqa: BLE001 - a default without a JSON form simply is not shown
        return MISSING
    return value


def _rule(
    fields_of: Callable[[type], list[FieldInfo]], kind: str
) -> Callable[[object, Builder], TypeSpec]:
    def factory(annotation: object, builder: Builder) -> TypeSpec:
        cls = typing.cast("type", annotation)
        return builder.struct(cls, lambda: _object_spec(cls, fields_of(cls), kind, builder))

    return factory


def _is_attrs(annotation: object) -> bool:
    return isinstance(annotation, type) and attrs.has(annotation)


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
            cls, lambda: [(f.json_name, f.annotation, f.required) for f in fields_of(cls)]
        )

    return shape


STRUCT_RULES: Final = (
    Rule("attrs", _is_attrs, _rule(_attrs_fields, "attrs"), _shape(_attrs_fields)),
    Rule(
        "dataclass", _is_dataclass, _rule(_dataclass_fields, "dataclass"), _shape(_dataclass_fields)
    ),
    Rule("typeddict", _is_typeddict, _rule(_typeddict_fields, "dict"), _shape(_typeddict_fields)),
    # NamedTuples are left out of the analysis, as the mypy plugin leaves them.
    Rule("namedtuple", _is_namedtuple, _rule(_namedtuple_fields, "namedtuple"), unknown_shape),
)
