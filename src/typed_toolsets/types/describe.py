"""Annotations described as `Shape`s (the JSON values they admit), for the union analyses.

A description session sends each annotation to the type registry's first matching rule, as the
registry does when it builds the type, and that rule's shape function describes it. The
ambiguity check (`typed_toolsets.analysis.ambiguity`) and the strict export
(`typed_toolsets.call.strict`, which refuses a union only its strict form makes ambiguous) read
annotations through `shape_of`; the analysis itself lives in `typed_toolsets.rules.shapes`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Final

from typed_toolsets.rules.labels import label
from typed_toolsets.rules.shapes import Shape

from .catalog import registry
from .registry import Rule
from .typespec import TypeSpec, Unresolved, Unsupported

__all__ = ["shape_of"]

_UNKNOWN: Final[frozenset[str]] = frozenset()


def _rule_for(annotation: object) -> Rule | None:
    found = registry.user_rule(annotation)
    if found is not None:
        return found
    for rule in registry.builtin_rules():
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

    def __init__(self, *, strict: bool) -> None:
        self._classes: dict[type, Shape] = {}
        self._strict = strict

    @property
    def strict(self) -> bool:
        return self._strict

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


def shape_of(annotation: object, *, strict: bool = False) -> Shape:
    """Describe *annotation* for the union analyses (`typed_toolsets.rules.shapes`).

    With *strict*, for the strict export's: every object is described, what the mypy plugin
    does not read included (a NamedTuple), since no check of the plugin's must agree with it.
    """
    return _Describer(strict=strict).shape(annotation)
