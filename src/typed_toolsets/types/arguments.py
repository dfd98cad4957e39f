"""A method's arguments as one closed JSON object: the model the call path reads.

A method's keyword parameters are the properties of one struct, described by the same `Property`
records and helpers as the fields of an attrs class (`typed_toolsets.types.structs`). An
`ArgumentsModel` is built once per method, at class creation, with its JSON Schema (root
``$defs`` included when a recursive type needs them). What reading arguments takes is built on
first use and kept, each exactly once even when threads race, because it loads heavier modules:

- the structurer, generated with the hooks of the project's cattrs converter;
- the fast path for JSON text, one per size and depth limit and exact path to hand over to
  (`typed_toolsets.types.fastpath`);
- the jsonschema validator, which has the final word and explains refusals;
- `ArgumentsVariant.convert`: structuring argument by argument, locating the innermost part of
  a value that validates but cannot be built.

A model holds its JSON forms as `ArgumentsVariant`s, read by the same code:

- ``standard``: the schema a tool exports and validates; a parameter with a default may be left
  out;
- ``strict``: the form a model writes under OpenAI's and Anthropic's strict mode
  (`typed_toolsets.types.strict`), built on first use: ``null`` for a parameter or field with a
  default (whose type does not admit null itself) stands for that default, at every depth, and
  is read as the key left out, so the method's (or the class's) own default applies. A key left
  out still means its default too, as in the standard form, so the strict form reads everything
  the strict schema admits and everything the standard one does. Its properties and nested types
  come from the strict form of the type registry; the schema it validates says all that (the
  schema a tool exports for strict mode, where every property is required, is written from the
  standard schema by `typed_toolsets.call.strict`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Generic, TypeVar, cast

import attrs

from .catalog import registry
from .gen import KeyHook, generate_object_structure
from .strict import means_default
from .structs import Property, object_schema
from .typespec import BoundLost, Path, Reject, Schema, TypeSpec, union_refs

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator

    from .fastpath import ExactPath, FastArguments

__all__ = ["ArgumentsModel", "ArgumentsVariant", "Unbuilt", "locate"]

_T = TypeVar("_T")


_UNBUILT: Any = object()


class _Once(Generic[_T]):
    """A value built on first use, exactly once, also when threads ask for it together.

    Once built, it keeps only the value: the build function (a bound method, which would keep
    a reference cycle) and the lock are let go, as every tool holds a few of these.
    """

    __slots__ = ("_build", "_lock", "_value")

    def __init__(self, build: Callable[[], _T]) -> None:
        self._build: Callable[[], _T] | None = build
        self._lock: threading.Lock | None = threading.Lock()
        self._value: _T = _UNBUILT

    @property
    def built(self) -> bool:
        """Whether the value has been built."""
        return self._value is not _UNBUILT

    def get(self) -> _T:
        value = self._value
        if value is _UNBUILT:
            lock = self._lock
            if lock is None:  # built by another thread since the read above
                return self._value
            with lock:
                value = self._value
                if value is _UNBUILT:
                    # Set until the value is (this thread holds the lock that clears it).
                    build = cast("Callable[[], _T]", self._build)
                    value = self._value = build()
                    self._build = None
                    self._lock = None
        return value


@attrs.frozen
class Unbuilt:
    """An argument that matches the schema but could not be turned into its Python value.

    Attributes:
        path: Where, from the arguments object: the parameter's name, then keys and indexes.
        annotation: The parameter's annotation.
        cause: The exception that stopped it, or None when the value matches no structure.
    """

    path: Path
    annotation: object
    cause: BaseException | None


def locate(spec: TypeSpec, value: object, most: int = 1) -> list[tuple[Path, BaseException | None]]:
    """Find the innermost parts of *value* that fail to structure as *spec*, and why.

    A part whose own parts all build is a failure itself (its class's validator, its hook); one
    with parts that fail is looked into, each of them, in the value's order. Each part is built
    at most once per level it is looked at from: linear in the value's size times its depth.

    Args:
        spec: The type.
        value: A value its schema accepts.
        most: Stop once this many are found.

    Returns:
        Each failing part's path below *value*, and the exception (None when it is a `Reject`
        other than `BoundLost`); ``[((), None)]`` when nothing fails.
    """
    found: list[tuple[Path, BaseException | None]] = []
    stack: list[tuple[TypeSpec, object, Path]] = [(spec, value, ())]
    while stack and len(found) < most:
        current_spec, current, path = stack.pop()
        failing: list[tuple[TypeSpec, object, Path]] = []
        for segment, child, child_value in current_spec.children(current):
            try:
                child.structure(child_value)
            except Exception:  # noqa: BLE001 - any failure: look inside this child
                failing.append((child, child_value, (*path, segment)))
                if len(found) + len(failing) >= most:
                    break  # each holds a failure at least: enough to look into
        if failing:
            stack += reversed(failing)
            continue
        try:
            current_spec.structure(current)
        except BoundLost as exc:  # the one refusal that says why
            found.append((path, exc))
        except Reject:
            found.append((path, None))
        except Exception as exc:  # noqa: BLE001 - the cause, reported to the caller
            found.append((path, exc))
        else:
            found.append((path, None))
    return found


@attrs.frozen(eq=False)
class _Reader:
    """How a variant's properties are read: one key hook per property."""

    hooks: dict[str, Callable[[Any], Any]]
    keys: tuple[KeyHook, ...]


@attrs.frozen(eq=False)
class ArgumentsVariant:
    """One JSON form of a method's arguments: the schema a model is shown, and the code reading it.

    Attributes:
        name: Whose arguments these are (``Class.method``), for generated code and tracebacks.
        properties: The arguments, in the method's order.
        schema: The JSON Schema document (never mutated; copy it before handing it out).
    """

    name: str
    properties: tuple[Property, ...]
    schema: Schema
    _strict_form: Callable[[], ArgumentsVariant] | None = attrs.field(
        default=None, repr=False, alias="strict_form"
    )
    _reader: _Once[_Reader] = attrs.field(
        init=False,
        repr=False,
        default=attrs.Factory(lambda self: _Once(self._build_reader), takes_self=True),
    )
    # The generated function of the exact path, built when that path first structures: the fast
    # path embeds its own, so a tool called only with JSON text never needs this one's memory.
    _structure: _Once[Callable[[dict[str, object]], dict[str, object]]] = attrs.field(
        init=False,
        repr=False,
        default=attrs.Factory(lambda self: _Once(self._build_structure), takes_self=True),
    )
    _validator: _Once[Draft202012Validator] = attrs.field(
        init=False,
        repr=False,
        default=attrs.Factory(lambda self: _Once(self._build_validator), takes_self=True),
    )
    _fast: dict[tuple[int, int, object], FastArguments[Any]] = attrs.field(
        init=False, repr=False, factory=dict
    )
    _fast_lock: threading.Lock = attrs.field(init=False, repr=False, factory=threading.Lock)

    def strict_form(self) -> ArgumentsVariant:
        """The strict form of these arguments (see the module docstring).

        This variant when it is that form, else the model's ``strict`` one, built on first use.
        """
        build = self._strict_form
        return self if build is None else build()

    def _build_reader(self) -> _Reader:
        from .hooks import structure_hook  # the converter's, once cattrs is loaded

        hooks = {p.name: structure_hook(p.annotation, p.spec) for p in self.properties}
        keys = tuple(
            KeyHook.for_spec(p.name, p.required, p.spec, hooks[p.name], null_default=p.null_default)
            for p in self.properties
        )
        return _Reader(hooks=hooks, keys=keys)

    def _build_structure(self) -> Callable[[dict[str, object]], dict[str, object]]:
        keys = self._reader.get().keys
        return generate_object_structure(f"arguments of {self.name}", keys, None)

    def _build_validator(self) -> Draft202012Validator:
        from .validator import make_validator  # jsonschema: loaded by the first refusal

        return make_validator(self.schema)

    def structure(self, arguments: dict[str, object]) -> dict[str, object]:
        """Check and structure parsed *arguments* into keyword arguments, in one pass.

        Raises:
            Exception: They do not match (`Reject`), or a hook failed; `validator` and `convert`
                say why.
        """
        return self._structure.get()(arguments)

    def validator(self) -> Draft202012Validator:
        """The jsonschema validator of ``schema``, with the library's format checks."""
        return self._validator.get()

    def fast_path(self, max_bytes: int, max_depth: int, exact: ExactPath[_T]) -> FastArguments[_T]:
        """The fast path for JSON text within these limits, handing over to *exact*; built once.

        Args:
            max_bytes: ``Limits.max_argument_bytes``.
            max_depth: ``Limits.max_depth``.
            exact: What the fast path hands over to: its exact path's bound ``__call__``
                (`ExactPath.fast`), so each exact path has a fast path of its own (their
                generated code is shared, by shape).
        """
        key = (max_bytes, max_depth, exact)
        fast = self._fast
        found = fast.get(key)
        if found is None:
            from .fastpath import make_fast_arguments  # orjson: loaded by the first proxy

            with self._fast_lock:
                found = fast.get(key)
                if found is None:
                    found = make_fast_arguments(
                        f"arguments of {self.name}",
                        self._reader.get().keys,
                        [_counted_spec(p) for p in self.properties],
                        self.schema,
                        max_bytes,
                        max_depth,
                        exact,
                    )
                    fast[key] = found
        return found

    def convert(
        self, arguments: dict[str, object], most: int = 1
    ) -> dict[str, object] | list[Unbuilt]:
        """Structure schema-valid *arguments* one by one: the keyword arguments, or what failed.

        Meant for arguments the validator accepts (so no key is unknown or missing): each one
        that cannot be built is located down to its innermost failing parts (`locate`), up to
        *most* of them in all.
        """
        hooks = self._reader.get().hooks
        kwargs: dict[str, object] = {}
        failures: list[Unbuilt] = []
        for prop in self.properties:
            if prop.name not in arguments:
                continue
            value = arguments[prop.name]
            if value is None and prop.null_default:
                continue  # the default applies, as for a key left out
            try:
                kwargs[prop.name] = hooks[prop.name](value)
            except Exception:  # noqa: BLE001 - located and reported below
                for inner, cause in locate(prop.spec, value, most - len(failures)):
                    failures.append(Unbuilt((prop.name, *inner), prop.annotation, cause))
                if len(failures) >= most:
                    break
        return failures or kwargs


def _counted_spec(prop: Property) -> TypeSpec:
    """The spec the fast path counts a property's object members with (null counts none)."""
    count = prop.spec.members
    if not prop.null_default or count is None:
        return prop.spec

    def members(value: Any) -> int:
        return 0 if value is None else count(value)

    return attrs.evolve(prop.spec, members=members)


def _strict_variant(name: str, params: Sequence[Property]) -> ArgumentsVariant:
    """The strict form of the arguments *params* (see the module docstring)."""
    strict = registry.strict_form()
    properties: list[Property] = []
    for param in params:
        spec = strict.spec(param.annotation)
        null_default = means_default(param.required, spec.schema)
        properties.append(attrs.evolve(param, spec=spec, null_default=null_default))
    schema = strict.document(object_schema(properties), union_refs(p.spec for p in properties))
    return ArgumentsVariant(f"{name} (strict form)", tuple(properties), schema)


@attrs.frozen(eq=False)
class ArgumentsModel:
    """A method's keyword parameters as one closed JSON object, in each of its JSON forms.

    Attributes:
        params: The parameters, in order.
        standard: The form the tool exports: optional parameters may be left out.
    """

    params: tuple[Property, ...]
    standard: ArgumentsVariant
    _strict: _Once[ArgumentsVariant] = attrs.field(repr=False, alias="strict")

    @property
    def strict(self) -> ArgumentsVariant:
        """The strict form: ``null`` for a parameter or field with a default means the default.

        Built on first use (its types are built again in their strict form).
        """
        return self._strict.get()

    @classmethod
    def build(cls, name: str, params: Sequence[Property]) -> ArgumentsModel:
        """The model of *params*, with its schema; the code reading it is built on first use.

        Args:
            name: Whose arguments these are (``Class.method``).
            params: The parameters, in order; their defaults must have a JSON form.
        """
        properties = tuple(params)
        schema = registry.document(object_schema(properties), union_refs(p.spec for p in params))
        strict = _Once(lambda: _strict_variant(name, properties))
        standard = ArgumentsVariant(name, properties, schema, strict_form=strict.get)
        return cls(params=properties, standard=standard, strict=strict)
