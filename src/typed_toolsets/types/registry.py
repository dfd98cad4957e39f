"""The one dispatch from annotations to `TypeSpec`s: an ordered list of predicate -> factory rules.

Schema generation, validation and the cattrs hooks all read the spec this registry builds, so a
new type is added in one place. Users add types with `register_type` (`.usertypes`).
"""

from __future__ import annotations

import contextlib
import itertools
import re
import threading
import typing
import weakref
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Final, Protocol

import attrs

from typed_toolsets.rules import reasons
from typed_toolsets.rules.names import class_display_name
from typed_toolsets.rules.shapes import Shape

from .bounded import keep_recent
from .typespec import (
    Schema,
    TypeSpec,
    Unsupported,
    count_members,
)

__all__ = [
    "Builder",
    "Describer",
    "Rule",
    "ShapeFunction",
    "TypeRegistry",
    "cache_key",
    "registry",
    "schema_shape",
    "unknown_shape",
]

Predicate = Callable[[object], bool]
Factory = Callable[[object, "Builder"], TypeSpec]
ShapeFunction = Callable[[object, "Describer"], Shape]

_DEF_NAME_RE: Final = re.compile(r"[^A-Za-z0-9_.-]")


class Describer(Protocol):
    """What a rule's shape function may ask of the session describing an annotation.

    A session (the ambiguity analysis) dispatches each annotation to the first rule whose
    predicate matches, as the registry does, and calls that rule's ``shape``. A shape function
    may raise `Unsupported` or `Unresolved`: the annotation then has an unknown shape, which
    never overlaps anything.
    """

    @property
    def strict(self) -> bool:
        """Whether the session is the strict export's, which the mypy plugin has no part in.

        The union analysis of ``check`` leaves alone what the plugin cannot read, so the two
        agree; the strict export's must see every object a union's variants may be.
        """
        ...

    def shape(self, annotation: object) -> Shape:
        """The shape of a nested annotation."""
        ...

    def label(self, annotation: object) -> str:
        """How to show *annotation* in a message (``dict[str, Color] | None``)."""
        ...

    def spec(self, annotation: object) -> TypeSpec:
        """The registry's spec of *annotation* (raising as `TypeRegistry.spec` does)."""
        ...

    def closed_object(
        self, cls: type, fields: Callable[[], Iterable[tuple[str, object, bool]]]
    ) -> Shape:
        """The shape of the object type *cls*: one per class in a session, so cycles end.

        *fields* reads ``(JSON name, annotation, required)`` for each property; it is called
        at most once per class in a session.
        """
        ...


def schema_shape(annotation: object, describer: Describer) -> Shape:
    """The shape known from the JSON types of the spec's schema alone (a user-registered type)."""
    return Shape.opaque(describer.label(annotation), describer.spec(annotation).json_types)


def unknown_shape(annotation: object, describer: Describer) -> Shape:
    """A shape that overlaps nothing: for types the analysis leaves alone, as the plugin does."""
    return Shape.opaque(describer.label(annotation), frozenset())


@attrs.frozen
class Rule:
    """One entry of the dispatch: annotations matching ``predicate`` are built by ``factory``.

    Attributes:
        name: A name for messages and debugging.
        predicate: Whether the rule handles an annotation.
        factory: Builds the annotation's `TypeSpec`.
        shape: Describes the annotation for the ambiguity analysis (which JSON values it
            admits), as the factory's schema does; by default, from the schema's JSON types.
        replaces: For a user rule (where it is required), what it is the rule of (the
            registered class): a later rule for the same takes its place.
    """

    name: str
    predicate: Predicate
    factory: Factory
    shape: ShapeFunction = schema_shape
    replaces: object = None


class _Pending:
    """A struct class being built; self-references get a spec whose hooks are filled in later."""

    def __init__(self, cls: type, def_name: str) -> None:
        self.cls = cls
        self.def_name = def_name
        self.target: TypeSpec | None = None
        ref = {"$ref": f"#/$defs/{def_name}"}
        self.ref = TypeSpec(
            annotation=cls,
            schema=ref,
            structure=self._structure,
            unstructure=self._unstructure,
            json_types=frozenset({"object"}),
            depth=None,
            refs=frozenset({cls}),
            instance_check=lambda value: isinstance(value, cls),
            children=self._children,
            members=count_members,
        )

    def _spec(self) -> TypeSpec:
        if self.target is None:  # pragma: no cover - only reachable if a build failed and leaked
            msg = f"{self.cls.__qualname__} is still being built"
            raise RuntimeError(msg)
        return self.target

    def _structure(self, value: object) -> object:
        return self._spec().structure(value)

    def _unstructure(self, value: object) -> object:
        return self._spec().unstructure(value)

    def _children(self, value: object) -> Any:
        return self._spec().children(value)


class Builder:
    """One build session: factories use it to build nested annotations and handle recursion."""

    def __init__(self, registry: TypeRegistry) -> None:
        self.registry = registry
        self.cache: dict[object, TypeSpec] = {}
        self.new_defs: dict[type, tuple[str, Schema, frozenset[type]]] = {}
        self._pending: dict[type, _Pending] = {}
        self._stack: list[type] = []
        self._recursive: set[type] = set()

    def spec(self, annotation: object) -> TypeSpec:
        """Build (or fetch) the spec of a nested annotation.

        Raises:
            Unsupported: The annotation has no JSON Schema mapping.
            Unresolved: It names something not defined yet.
        """
        found = self.registry.cached(annotation)
        if found is None:
            found = _lookup(self.cache, annotation)
        if found is not None:
            return found
        rule = self.registry.rule_for(annotation)
        if rule is None:
            raise Unsupported(_describe_unsupported(annotation))
        spec = rule.factory(annotation, self)
        _store(self.cache, annotation, spec)
        return spec

    def struct(self, cls: type, make: Callable[[], TypeSpec]) -> TypeSpec:
        """Build an object type that may refer to itself, directly or through other classes.

        A class found in a cycle gets a root ``$defs`` entry and is referenced with ``$ref`` at
        every use; any other class is inlined.
        """
        pending = self._pending.get(cls)
        if pending is not None:
            self._recursive.update(self._stack[self._stack.index(cls) :])
            return pending.ref
        existing = self.registry.def_for(cls)
        if existing is not None:
            return existing
        pending = _Pending(cls, self.registry.def_name(cls))
        self._pending[cls] = pending
        self._stack.append(cls)
        try:
            inline = make()
        finally:
            self._stack.pop()
            del self._pending[cls]
        if cls not in self._recursive:
            return inline
        pending.target = inline
        self.new_defs[cls] = (pending.def_name, inline.schema, inline.refs)
        return pending.ref


class TypeRegistry:
    """Ordered rules plus the caches of built specs and ``$defs`` entries. Thread-safe.

    The specs cached are bounded (`typed_toolsets.types.bounded`): a type of a toolset that is
    gone is dropped in time. A recursive class's ``$defs`` entry is kept for good (a schema
    built with it may be documented later: the strict form is built on first use).

    Attributes:
        strict: This registry builds the strict form of each type (see `strict_form`).
    """

    def __init__(
        self, rules: Iterable[Rule] = (), *, strict_of: TypeRegistry | None = None
    ) -> None:
        self._builtin: list[Rule] = list(rules)
        # By the class each is the rule of (`Rule.replaces`), the latest registered last.
        self._user: dict[object, Rule] = {}
        self._cache: dict[object, TypeSpec] = {}
        self._defs: dict[type, tuple[str, Schema, frozenset[type]]] = {}
        self._def_refs: dict[type, TypeSpec] = {}
        # Weak: a token holds no reference to its class (the caches above are bounded).
        self._names: weakref.WeakKeyDictionary[type, str] = weakref.WeakKeyDictionary()
        self._lock = threading.RLock()
        # The strict form reads its rules from the registry it is the strict form of.
        self._rules_of = self if strict_of is None else strict_of
        self.strict = strict_of is not None
        self._strict_form: TypeRegistry | None = None
        self._on_new_rule: list[Callable[[], None]] = []
        #: How many user rules were added: what was built from the rules at one count may
        #: differ from what they build at a later one.
        self.generation = 0

    def rules(self) -> list[Rule]:
        """The rules in dispatch order: users' first (the latest first), then the built-in ones."""
        source = self._rules_of
        return [*reversed(source._user.values()), *source._builtin]

    def user_rule(self, annotation: object) -> Rule | None:
        """The user rule of *annotation* (a registered class), if any.

        Found by the class, not tried in turn: however many types are registered, a lookup
        costs the same.
        """
        try:
            rule = self._rules_of._user.get(annotation)
        except TypeError:  # unhashable: no registered class
            return None
        return rule if rule is not None and rule.predicate(annotation) else None

    def builtin_rules(self) -> list[Rule]:
        """The built-in rules in dispatch order (after the user rules)."""
        return self._rules_of._builtin

    def rule_for(self, annotation: object) -> Rule | None:
        """The first rule in dispatch order (`rules`) whose predicate takes *annotation*.

        Raises:
            Exception: What a built-in rule's predicate raised.
        """
        found = self.user_rule(annotation)
        if found is not None:
            return found
        for rule in self._rules_of._builtin:
            if rule.predicate(annotation):
                return rule
        return None

    def add_builtin(self, rule: Rule) -> None:
        """Append a built-in rule (used while the package initialises)."""
        self._builtin.append(rule)

    def add_user_rule(self, rule: Rule) -> None:
        """Put a user rule ahead of every other rule and forget cached specs it may change.

        A rule that `Rule.replaces` what an earlier one does takes that one's place.

        Recursive classes are built again too (their fields may hold the type); the ``$defs``
        entries of the old builds stay until a new build replaces them, so a schema built
        before the rule is still documented as it was built.
        """
        if rule.replaces is None:
            msg = f"a user rule is the rule of one class (`replaces`): {rule.name}"
            raise ValueError(msg)
        with self._lock:
            # Registered again: the earlier rule could never match again.
            self._user.pop(rule.replaces, None)
            self._user[rule.replaces] = rule
            self._forget()
            strict = self._strict_form
            listeners = list(self._on_new_rule)
        if strict is not None:
            with strict._lock:
                strict._forget()
        for forget in listeners:
            forget()
        # Last: what is built from here on sees the new rule, whatever it was counted under.
        with self._lock:
            self.generation += 1

    def on_new_rule(self, forget: Callable[[], None]) -> None:
        """Call *forget* after each user rule is added: a cache built from specs must forget them.

        The converter caches the hook it found for each type; one found before a type was
        registered (or registered again) would otherwise outlive the new rule.
        """
        with self._lock:
            self._on_new_rule.append(forget)

    def _forget(self) -> None:
        self._cache.clear()
        self._def_refs.clear()

    def strict_form(self) -> TypeRegistry:
        """The registry of the strict form of the same types (OpenAI ``strict: true``), built once.

        It has the same rules; the object types it builds also read ``null`` for a property
        with a default (whose type does not admit null itself) as that property left out, so
        the default applies, and their schemas say so (`typed_toolsets.types.strict`). Every
        type holding an object type is built around that form of it, at any depth.
        """
        if self.strict:
            return self
        with self._lock:
            if self._strict_form is None:
                self._strict_form = TypeRegistry(strict_of=self)
            return self._strict_form

    def cached(self, annotation: object) -> TypeSpec | None:
        """Return the spec already built for *annotation*, if any."""
        return _lookup(self._cache, annotation)

    def def_for(self, cls: type) -> TypeSpec | None:
        """Return the ``$ref`` spec of a recursive class built earlier, if any."""
        return self._def_refs.get(cls)

    def def_name(self, cls: type) -> str:
        """Return the internal ``$defs`` token of *cls* (see `document` for the public names)."""
        with self._lock:
            token = self._names.get(cls)
            if token is None:
                token = f"{_DEF_TOKEN}{next(_tokens)}"
                self._names[cls] = token
            return token

    def spec(self, annotation: object) -> TypeSpec:
        """Return the spec of *annotation*, building and caching it on first use.

        Raises:
            Unsupported: The annotation has no JSON Schema mapping; the message says why.
            Unresolved: The annotation names something that is not defined.
        """
        found = self.cached(annotation)
        if found is not None:
            return found
        with self._lock:
            builder = Builder(self)
            spec = builder.spec(annotation)
            # Commit only after the whole build succeeded, so no half-built spec is cached.
            self._cache.update(builder.cache)
            keep_recent(self._cache)
            for cls, entry in builder.new_defs.items():
                self._defs[cls] = entry
                ref = _lookup(builder.cache, cls)
                if ref is not None:
                    self._def_refs[cls] = ref
            return spec

    def document(self, schema: Schema, refs: Iterable[type]) -> Schema:
        """Make *schema* a standalone document: add the ``$defs`` it needs, transitively.

        Each recursive class is named after its qualified name in this document alone (with its
        module when two classes share a qualified name), so a schema never depends on what else
        the process has built.
        """
        classes: list[type] = []
        queue = sorted(refs, key=_class_order)
        while queue:
            cls = queue.pop(0)
            if cls in classes:
                continue
            classes.append(cls)
            queue.extend(sorted(self._defs[cls][2] - set(classes), key=_class_order))
        if not classes:
            return dict(schema)
        names = _document_names(classes)
        rename = {f"#/$defs/{self._defs[c][0]}": f"#/$defs/{names[c]}" for c in classes}
        result: Schema = _rewrite_refs(schema, rename)
        result["$defs"] = {names[c]: _rewrite_refs(self._defs[c][1], rename) for c in classes}
        return result


_DEF_TOKEN: Final = "typed-toolsets-def-"  # noqa: S105 - a $defs placeholder, not a secret
#: The number of each token: never reused, though classes go and their tokens with them.
_tokens: Final = itertools.count()


def _class_order(cls: type) -> tuple[str, str]:
    return (cls.__qualname__, cls.__module__)


def _document_names(classes: list[type]) -> dict[type, str]:
    names: dict[type, str] = {}
    taken: set[str] = set()
    for cls in classes:
        short = class_display_name(cls.__qualname__)
        candidates = [_DEF_NAME_RE.sub("_", c) for c in (short, f"{cls.__module__}.{short}")]
        name = next((c for c in candidates if c not in taken), None)
        if name is None:
            number = 2
            while f"{candidates[-1]}_{number}" in taken:
                number += 1
            name = f"{candidates[-1]}_{number}"
        taken.add(name)
        names[cls] = name
    return names


def _rewrite_refs(node: Any, rename: Mapping[str, str]) -> Any:
    if isinstance(node, dict):
        mapping = typing.cast("dict[str, Any]", node)
        return {
            k: rename.get(v, v) if k == "$ref" and isinstance(v, str) else _rewrite_refs(v, rename)
            for k, v in mapping.items()
        }
    if isinstance(node, list):
        items: list[Any] = node  # pyright: ignore[reportUnknownVariableType]
        return [_rewrite_refs(v, rename) for v in items]
    return node


def cache_key(annotation: object) -> object:
    """A key that tells apart annotations ``typing`` considers equal but the library does not.

    ``Union[A, B] == Union[B, A]`` for ``typing``, but the first matching variant wins here, so
    the order of arguments is part of the key, at every level of nesting.
    """
    args = typing.get_args(annotation)
    if not args:
        return annotation
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return (origin, cache_key(args[0]), *map(_metadata_key, args[1:]))
    if origin is typing.Literal:
        return (origin, *((type(typing.cast(object, a)), a) for a in args))
    return (origin, *(cache_key(a) for a in args))


def _metadata_key(item: object) -> object:
    """The key of one ``Annotated`` item: its type, and a dataclass's field values with theirs.

    ``annotated_types``' constraints are dataclasses, and equal ones can differ: ``MultipleOf(2)``
    checks integers exactly where ``MultipleOf(2.0)`` goes through floats, and ``Le(True)`` is
    refused where ``Le(1)`` is not.
    """
    fields: dict[str, object] | None = getattr(type(item), "__dataclass_fields__", None)
    if fields is None:
        return (type(item), item)
    values: list[object] = [getattr(item, name) for name in fields]
    return (type(item), *((type(value), value) for value in values))


def _lookup(cache: Mapping[object, TypeSpec], annotation: object) -> TypeSpec | None:
    try:
        return cache.get(cache_key(annotation))
    except TypeError:  # unhashable annotation (e.g. Annotated metadata that is a dict)
        return None


def _store(cache: dict[object, TypeSpec], annotation: object, spec: TypeSpec) -> None:
    with contextlib.suppress(TypeError):  # unhashable annotations are simply not cached
        cache[cache_key(annotation)] = spec


def _describe_unsupported(annotation: object) -> str:
    return reasons.not_a_struct(getattr(annotation, "__qualname__", None) or repr(annotation))


#: The process-wide registry. Built-in rules are added by `typed_toolsets.types.catalog`.
registry: Final = TypeRegistry()
