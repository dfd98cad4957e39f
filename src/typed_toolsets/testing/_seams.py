"""The seam between `typed_toolsets.testing` and the core: every internal it uses, in one place.

The strategies and checks reach the type registry, the proxies and the two call paths only
through the functions below, so that when the core changes inside (the arguments model, the
strict variant, rule shapes) this module alone is re-pointed. Everything here is plain data and
functions: nothing in this module imports Hypothesis.

Only `typed_toolsets.types.usertypes` (and the registry it adds to) is imported with the
module: the Hypothesis plugin imports it while Hypothesis itself is being imported, so the rest
of the core is imported by the functions that need it.
"""

from __future__ import annotations

import json
import numbers
import typing
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, Final

import attrs

from typed_toolsets.types.containers import tuple_items
from typed_toolsets.types.hints import expand_alias
from typed_toolsets.types.typespec import MISSING
from typed_toolsets.types.usertypes import StrategySource, user_strategies

if TYPE_CHECKING:
    from typed_toolsets.call.exact import ExactPath
    from typed_toolsets.call.proxy import ToolProxy
    from typed_toolsets.call.result import ToolError
    from typed_toolsets.types.handover import Handover
    from typed_toolsets.types.typespec import TypeSpec

__all__ = [
    "MISSING",
    "Field",
    "Form",
    "Parameter",
    "StrategySource",
    "UnsupportedAnnotation",
    "ambiguity",
    "describe",
    "distinct_items",
    "exact_path",
    "fast_path",
    "json_key",
    "json_path",
    "json_text",
    "label",
    "parameters",
    "parse_json",
    "refused_as_busy",
    "registered_strategy",
    "schema_checker",
    "strict_json",
    "strict_parameters",
    "tool_proxy",
    "unstructurer",
    "violates",
    "watch_strategies",
    "within_limits",
]

_NoneType: Final = type(None)
Path = tuple["str | int", ...]


class UnsupportedAnnotation(Exception):  # noqa: N818 - a verdict on an annotation
    """The annotation has no JSON Schema mapping; the message is the registry's reason."""


@attrs.frozen
class Field:
    """One property of a closed object: an attrs class, dataclass, TypedDict or NamedTuple field.

    Attributes:
        name: The JSON property name, which is also the constructor keyword.
        annotation: Its type.
        required: Whether the JSON object must contain it (no default).
        attr_name: The attribute (or key) holding its value.
        default: Its default value; `MISSING` when it has none or a factory makes it.
        factory: What makes its default, when a factory taking no arguments does.
    """

    name: str
    annotation: object
    required: bool
    attr_name: str = ""
    default: object = MISSING
    factory: Callable[[], object] | None = None


@attrs.frozen
class Form:
    """What the strategies need to know about one annotation, as the registry sees it.

    Attributes:
        kind: One of ``registered`` (a `register_type` type), ``str``, ``int``, ``float``,
            ``bool``, ``null``, ``number`` (``int | float``, ``numbers.Real``), ``format`` (a
            string format type: `python_type` says which), ``constants`` (enums, literals),
            ``annotated``, ``union``, ``list`` (also sequences), ``tuple`` (``tuple[T, ...]``),
            ``set``, ``frozenset``, ``fixed`` (``tuple[A, B]``), ``mapping`` (``dict[str, T]``)
            and ``object`` (attrs classes, dataclasses, TypedDicts, NamedTuples).
        annotation: The annotation described.
        json_types: The JSON types its valid instances have (``integer`` and ``number`` as the
            registry counts them).
        python_type: The class, for ``registered``, ``format`` and ``object``.
        args: The nested annotations: the base of ``annotated``, the variants of ``union`` (None
            included), the item of arrays, the items of ``fixed``, the value of ``mapping``.
        constants: For ``constants``: the Python values, in declaration order.
        json_constants: For ``constants``: their JSON values, in the same order.
        constraints: For ``annotated``: ``(JSON Schema keyword, limit)`` pairs (``minimum``,
            ``maxLength``, ...), as the schema carries them.
        fields: For ``object``: its fields.
        make: For ``object``: the constructor taking the fields as keywords (None for a
            TypedDict, whose values are plain dicts).
    """

    kind: str
    annotation: object
    json_types: frozenset[str]
    python_type: type | None = None
    args: tuple[object, ...] = ()
    constants: tuple[object, ...] = ()
    json_constants: tuple[object, ...] = ()
    constraints: tuple[tuple[str, int | float], ...] = ()
    fields: tuple[Field, ...] = ()
    make: Callable[..., object] | None = None


# ------------------------------------------------------------------------------- the registry


def _spec(annotation: object) -> TypeSpec:
    from typed_toolsets.types.catalog import registry
    from typed_toolsets.types.typespec import Unresolved, Unsupported

    try:
        return registry.spec(annotation)
    except Unsupported as exc:
        raise UnsupportedAnnotation(str(exc)) from None
    except Unresolved as exc:
        msg = f"the annotation names {exc.name!r}, which is not defined"
        raise UnsupportedAnnotation(msg) from None


def distinct_items(annotation: object) -> int | None:
    """How many different JSON values *annotation* has, when they are few and known; else None.

    (A set of it asking for more different items has no value: a definition error for a whole
    parameter, a variant left empty in a union.)
    """
    from typed_toolsets.types.annotated import distinct_values

    return distinct_values(_spec(annotation).schema)


def _rule_of(annotation: object) -> str:
    """The name of the registry rule that builds *annotation* (users' rules come first)."""
    from typed_toolsets.types.catalog import registry

    rule = registry.rule_for(annotation)
    # The catalog's last rule matches everything.
    return "unsupported" if rule is None else rule.name  # pragma: no branch


_SCALAR_KINDS: Final[dict[object, str]] = {
    str: "str",
    int: "int",
    float: "float",
    bool: "bool",
    None: "null",
    _NoneType: "null",
    numbers.Real: "number",
}
_ARRAY_KINDS: Final = {"sequence": "list", "set": "set"}


def describe(annotation: object) -> Form:
    """Describe *annotation* by the registry rule that supports it.

    Raises:
        UnsupportedAnnotation: It has no JSON Schema mapping (the message says why).
    """
    spec = _spec(annotation)
    rule = _rule_of(annotation)
    json_types = spec.json_types
    args = typing.get_args(annotation)
    if rule.startswith("user:"):
        return Form("registered", annotation, json_types, python_type=typing.cast(type, annotation))
    if rule == "newtype":
        return describe(getattr(annotation, "__supertype__"))  # noqa: B009 - NewType's attribute
    if rule == "type alias":
        return describe(expand_alias(annotation))
    if rule == "annotated":
        return Form(
            "annotated",
            annotation,
            json_types,
            args=(args[0],),
            constraints=_constraints(args[0], args[1:]),
        )
    if rule == "scalar":
        return Form(_SCALAR_KINDS[annotation], annotation, json_types)
    if rule == "format":
        return Form("format", annotation, json_types, python_type=typing.cast(type, annotation))
    if rule in ("enum", "literal"):
        members: tuple[object, ...] = (
            tuple(typing.cast("Iterable[object]", annotation)) if rule == "enum" else args
        )
        return Form(
            "constants",
            annotation,
            json_types,
            constants=members,
            json_constants=spec.constants or (),
        )
    if rule == "union":
        return Form("union", annotation, json_types, args=args)
    if rule in _ARRAY_KINDS:
        kind = _ARRAY_KINDS[rule]
        if kind == "set" and typing.get_origin(annotation) is frozenset:
            kind = "frozenset"
        return Form(kind, annotation, json_types, args=args)
    if rule == "tuple":
        items, repeats = tuple_items(annotation)
        return Form("tuple" if repeats else "fixed", annotation, json_types, args=items)
    if rule == "mapping":
        return Form("mapping", annotation, json_types, args=args[1:])
    from typed_toolsets.types import structs

    cls = typing.cast(type, annotation)
    fields = tuple(
        Field(f.name, f.annotation, f.required, f.attr_name, f.default, f.factory)
        for f in structs.struct_fields(cls, rule) or ()
    )
    make = None if rule == "typeddict" else cls
    return Form("object", annotation, json_types, python_type=cls, fields=fields, make=make)


def _constraints(base: object, metadata: tuple[object, ...]) -> tuple[tuple[str, int | float], ...]:
    """The JSON Schema keywords ``Annotated[base, *metadata]`` adds, as the registry adds them."""
    from typed_toolsets.types import annotated

    found = annotated._constraints(metadata)  # pyright: ignore[reportPrivateUsage]
    keywords = annotated._keywords(found, _spec(base), base)  # pyright: ignore[reportPrivateUsage]
    return tuple(keywords.items())


def violates(constraints: tuple[tuple[str, int | float], ...], value: object) -> bool:
    """Whether the JSON *value* breaks one of *constraints* (jsonschema's verdict)."""
    from typed_toolsets.types import annotated

    return any(
        annotated._violation(keyword, limit)(value)  # pyright: ignore[reportPrivateUsage]
        for keyword, limit in constraints
    )


def unstructurer(annotation: object) -> Callable[[Any], Any]:
    """The project converter's function turning a value of *annotation* into JSON."""
    from typed_toolsets.types.converter import unstructure_hook

    return unstructure_hook(annotation)


def structurer(annotation: object) -> Callable[[Any], Any]:
    """The project converter's function turning JSON into a value of *annotation*."""
    from typed_toolsets.types.converter import structure_hook

    return structure_hook(annotation)


def strict_json(annotation: object) -> Callable[[object], object]:
    """The function writing a JSON value of a registered type as its strict schema wants it.

    Each optional property of the type's schema that the value leaves out becomes ``null``
    (`typed_toolsets.types.strict.strict_instance`): the strict export requires every one.
    """
    from typed_toolsets.types.strict import strict_instance
    from typed_toolsets.types.validator import make_validator

    schema = _spec(annotation).schema

    def check(node: Mapping[str, Any], value: object) -> bool:
        validator: Any = make_validator(dict(node))
        return bool(validator.is_valid(value))

    return lambda value: strict_instance(schema, value, check)


def json_key(value: object) -> object:
    """A key equal for two JSON values exactly when ``uniqueItems`` counts them as the same."""
    from typed_toolsets.types.typespec import json_key as key

    return key(value)


def registered_schema(annotation: object) -> Mapping[str, Any]:
    """The JSON Schema *annotation* (a registered type) was given."""
    return _spec(annotation).schema


def registered_strategy(tp: type) -> StrategySource | None:
    """The strategy given to `register_type` for *tp*, if any."""
    return user_strategies.get(tp)


def watch_strategies(watcher: Callable[[type, StrategySource], None]) -> None:
    """Call *watcher* for every strategy given to `register_type`, now and later."""
    user_strategies.watch(watcher)


def label(annotation: object) -> str:
    """A short readable name for *annotation* (``str | Color``, ``list[int]``)."""
    from typed_toolsets.analysis.ambiguity import label as write

    return write(annotation)


def ambiguity(annotation: object, *, objects: bool = False) -> str | None:
    """Why *annotation* holds an ambiguous union (as ``typed-toolsets check`` says), if it does.

    With *objects*, only a union of two object types (structs, TypedDicts) counts: one read as
    the other is always another value (a ``Literal["auto"] | str`` gives the same str either
    way).
    """
    from typed_toolsets.analysis.ambiguity import find_ambiguity

    found = find_ambiguity(annotation)
    if found is None or (objects and not found.objects):
        return None
    if found.null:
        return (
            f"the union {found.union} is ambiguous: a JSON null matches both {found.first} and "
            f"{found.second}, and always gives None"
        )
    return (
        f"the union {found.union} is ambiguous: a JSON value of {found.second} also matches "
        f"{found.first}, which comes first and wins"
    )


# ------------------------------------------------------------------------------------ proxies


@attrs.frozen
class Parameter:
    """One parameter of a tool.

    Attributes:
        name: The argument name.
        annotation: Its type.
        required: Whether it has no default.
    """

    name: str
    annotation: object
    required: bool


def tool_proxy(value: object, caller: str) -> ToolProxy:
    """*value*, checked to be one tool (a `ToolProxy`), for the public function *caller*.

    Raises:
        TypeError: It is not; the message says what to pass instead (a toolset's class or
            instance is the common mistake: its tools are ``to_tools()``).
    """
    from typed_toolsets._toolset import Toolset
    from typed_toolsets.call.proxy import ToolProxy

    if isinstance(value, ToolProxy):
        return typing.cast("ToolProxy", value)
    cls = value if isinstance(value, type) else type(value)
    if issubclass(cls, Toolset):
        kind = "class" if cls is value else "instance"
        name = cls.__qualname__
        got = f"the Toolset {kind} {name}"
        hint = (
            f"; pass one of its tools ({name}.to_tools()[0]), or check every tool with "
            f"check_toolset({name})"
        )
    else:
        got, hint = repr(value), ""
    msg = f"{caller}() needs one tool, a ToolProxy from to_tools() (got {got}){hint}"
    raise TypeError(msg)


def parameters(proxy: ToolProxy) -> tuple[Parameter, ...]:
    """The parameters of *proxy*'s method, in order."""
    method = proxy._export.method  # pyright: ignore[reportPrivateUsage]
    if method is None:  # pragma: no cover - proxies are built from resolved exports
        return ()
    return tuple(Parameter(p.name, p.annotation, p.required) for p in method.params)


def registered_since(proxy: ToolProxy) -> Parameter | None:
    """The first parameter whose type the registry now gives another schema than *proxy* has.

    A tool keeps the forms in force when its toolset's class was created: a `register_type`
    call since changes what the registry (and so this module's strategies) says of the type,
    not what the tool reads.
    """
    for prop in proxy._pipeline.exact.arguments.properties:  # pyright: ignore[reportPrivateUsage]
        now = _spec(prop.annotation)
        if now is not prop.spec and now.schema != prop.spec.schema:
            return Parameter(prop.name, prop.annotation, prop.required)
    return None


def _exact(proxy: ToolProxy, strict: bool) -> ExactPath:
    """The tool's exact path: of its standard arguments, or of their strict form."""
    from typed_toolsets.call.exact import ExactPath

    exact = proxy._pipeline.exact  # pyright: ignore[reportPrivateUsage]
    if not strict:
        return exact
    return ExactPath(exact.name, exact.limits, exact.arguments.strict_form())


def exact_path(
    proxy: ToolProxy, arguments: object, *, strict: bool = False
) -> dict[str, object] | ToolError:
    """Check and structure *arguments* the exact way (strict parsing, hooks, then jsonschema).

    Returns the keyword arguments the method would receive, or the `ToolError` explaining why
    not. The method is not called.

    Args:
        proxy: The tool.
        arguments: What a model sent.
        strict: Read them as written for the strict schema (``null`` for a default).
    """
    from typed_toolsets.call.exact import Failed

    checked = _exact(proxy, strict)(arguments)
    return checked.error if type(checked) is Failed else checked


def fast_path(proxy: ToolProxy, text: str, *, strict: bool = False) -> dict[str, object] | None:
    """The keyword arguments the fast path gives for the JSON *text*, or None when it passes.

    None means it leaves the call to the exact path (as it must for anything it cannot vouch
    for), or that this installation has no fast path (orjson missing). The method is not called.
    With *strict*, the fast path of the strict form of the arguments.
    """
    exact = _exact(proxy, strict)
    limits = exact.limits
    # The tool's own fast path, built to hand over to `_passes` instead of the exact path.
    fast = exact.arguments.fast_path(limits.max_argument_bytes, limits.max_depth, _passes)
    return fast(text)


def refused_as_busy(error: ToolError) -> bool:
    """Whether *error* refused to start the call, whatever its arguments.

    A ``"limit"`` error that says nothing of the arguments: each call that timed out keeps its
    thread (or task) until it ends, and past a cap new calls with a timeout are refused; and a
    tool with a ``Limits.max_concurrent`` refuses calls beyond it.
    """
    from typed_toolsets.call.execution import refused_as_busy as busy

    return busy(error)


def _passes(arguments: object, handover: Handover) -> None:
    """Where `fast_path` hands over what the fast path does not vouch for: nothing."""


def json_text(value: object) -> str:
    """Compact JSON text, the encoding whose size the call path measures for a mapping.

    Raises:
        TypeError: *value* holds something with no JSON form.
        ValueError: It holds a NaN or an infinity.
    """
    return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))


def within_limits(proxy: ToolProxy, arguments: Mapping[str, object] | str) -> bool:
    """Whether *arguments* fit the tool's size and depth limits.

    A mapping is measured as its compact JSON text, so the answer is the same for either form.
    """
    from typed_toolsets.call.jsonin import ArgumentsInputError, LimitExceeded, load_arguments

    try:
        load_arguments(arguments, proxy.limits)
    except LimitExceeded:
        return False
    except ArgumentsInputError:
        pass  # not a question of limits; the caller's checks report it
    return True


def parse_json(text: str) -> object:
    """Parse JSON text as strictly as the call path does (no NaN, no duplicate keys, ...).

    Raises:
        ValueError: *text* is not valid JSON by the call path's rules.
    """
    from typed_toolsets.call.jsonin import InvalidJSON, parse_strict

    try:
        return parse_strict(text)
    except InvalidJSON as exc:
        raise ValueError(str(exc)) from None


def json_path(path: Path) -> str:
    """A path as the call path writes it in errors (``$.owner.age``, ``$.tags[3]``)."""
    from typed_toolsets.call.paths import json_path as write

    return write(path)


def schema_checker(schema: Mapping[str, Any]) -> Callable[[object], list[tuple[Path, str]]]:
    """A function listing what jsonschema (with the library's format checks) finds wrong."""
    from typed_toolsets.call.jsonschema_errors import problems
    from typed_toolsets.types.validator import make_validator

    validator = make_validator(dict(schema))

    def check(instance: object) -> list[tuple[Path, str]]:
        return problems(validator, instance)[0]

    return check


# ------------------------------------------------------------------------- the strict variant


def strict_parameters(proxy: ToolProxy) -> dict[str, Any]:
    """The strict variant of the tool's schema (OpenAI ``strict: true``), per SPEC section 8.

    Raises:
        ValueError: The tool has no lossless strict variant (an ``ExportError``, naming the
            parameter).
    """
    return proxy.strict_parameters
