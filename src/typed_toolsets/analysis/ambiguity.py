"""Ambiguous unions, seen from the runtime: annotations described as `Shape`s.

A union parameter is ambiguous when one JSON value could match two of its variants (``str |
Color`` where ``Color`` has string values, two attrs classes with the same required fields): the
first variant in declared order then wins without a word. The analysis itself lives in
`typed_toolsets.rules`, shared with the mypy plugin; this module only runs a description session:
each annotation goes to the type registry's first matching rule, as when the registry builds it,
and that rule's shape function describes it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Final

from typed_toolsets.rules.labels import label
from typed_toolsets.rules.shapes import Ambiguity, Shape
from typed_toolsets.rules.shapes import find_ambiguity as find_shape_ambiguity
from typed_toolsets.types.catalog import registry
from typed_toolsets.types.registry import Rule
from typed_toolsets.types.typespec import TypeSpec, Unresolved, Unsupported

__all__ = ["find_ambiguity", "label", "shape_of"]

_UNKNOWN: Final[frozenset[str]] = frozenset()


def _rule_for(annotation: object) -> Rule | None:
    for rule in registry.rules():
        try:
            if rule.predicate(annotation):
                return rule
        except Exception:  # noqa: BLE001, S112 - a failing predicate means "not this rule"
            continue
    return None


class _Describer:
    """One description session (a `typed_toolsets.types.registry.Describer`).

    It shares one shape per class, so recursive classes terminate.
    """

    def __init__(self) -> None:
        self._classes: dict[type, Shape] = {}

    def shape(self, annotation: object) -> Shape:
        rule = _rule_for(annotation)
        if rule is not None:
            try:
                return rule.shape(annotation, self)
            except (Unsupported, Unresolved):
                pass
        # Nothing can be said about it: unknown, never ambiguous.
        return Shape.opaque(label(annotation), _UNKNOWN)

    def label(self, annotation: object) -> str:
        return label(annotation)

    def spec(self, annotation: object) -> TypeSpec:
        return registry.spec(annotation)

    def closed_object(
        self, cls: type, fields: Callable[[], Iterable[tuple[str, object, bool]]]
    ) -> Shape:
        found = self._classes.get(cls)
        if found is not None:
            return found
        # Read first: a class whose fields cannot be read is left unknown, not cached half-built.
        read = list(fields())
        shape = Shape.closed_object(label(cls))
        self._classes[cls] = shape
        shape.fields = {name: self.shape(annotation) for name, annotation, _ in read}
        shape.required = frozenset(name for name, _, required in read if required)
        return shape


def shape_of(annotation: object) -> Shape:
    """Describe *annotation* for the ambiguity analysis."""
    return _Describer().shape(annotation)


def find_ambiguity(annotation: object) -> Ambiguity | None:
    """The first ambiguous union in *annotation* (depth first, declared order), if any."""
    return find_shape_ambiguity(shape_of(annotation))
