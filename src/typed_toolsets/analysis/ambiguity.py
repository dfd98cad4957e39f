"""Ambiguous unions, seen from the runtime: annotations described as `Shape`s.

A union parameter is ambiguous when one JSON value could match two of its variants (``str |
Color`` where ``Color`` has string values, two attrs classes with the same required fields): the
first variant in declared order then wins without a word. The analysis itself lives in
`typed_toolsets.rules`, shared with the mypy plugin; the description of an annotation as a shape
in `typed_toolsets.types.describe`, shared with the strict export.
"""

from __future__ import annotations

from typed_toolsets.rules.labels import label
from typed_toolsets.rules.shapes import Ambiguity
from typed_toolsets.rules.shapes import find_ambiguity as find_shape_ambiguity
from typed_toolsets.types.describe import shape_of

__all__ = ["find_ambiguity", "label", "shape_of"]


def find_ambiguity(annotation: object) -> Ambiguity | None:
    """The first ambiguous union in *annotation* (depth first, declared order), if any."""
    return find_shape_ambiguity(shape_of(annotation))
