"""The project converter: every supported type is structured by the registry's strict hooks."""

from __future__ import annotations

import enum
from typing import Any

import attrs
import pytest

from typed_toolsets.types.catalog import registry
from typed_toolsets.types.converter import converter, structure_hook, unstructure_hook
from typed_toolsets.types.typespec import Reject


class Shade(enum.Enum):
    DARK = "dark"


@attrs.define
class Box:
    size: int


@pytest.mark.parametrize(
    ("annotation", "value"),
    [
        (int, 2.5),
        (int, True),
        (int, "3"),
        (str, 5),
        (float, "2"),
        (float, False),
        (bool, 1),
        (bool, "true"),
        (Shade, "DARK"),
        (list[int], [1, "2"]),
        (Box, {"size": "1"}),
        (Box, {"size": 1, "extra": 2}),
    ],
)
def test_no_coercion(annotation: Any, value: Any) -> None:
    """cattrs' own hooks would coerce (int(2.5) == 2); the project converter refuses."""
    with pytest.raises(Reject):
        converter.structure(value, annotation)


@pytest.mark.parametrize(
    "annotation", [int, str, float, bool, Shade, list[int], Box, dict[str, Box]]
)
def test_hooks_are_the_registrys(annotation: Any) -> None:
    assert structure_hook(annotation) is registry.spec(annotation).structure


def test_a_hook_registered_on_the_converter_is_honoured() -> None:
    class Celsius(float):
        pass

    local = converter.copy()
    local.register_structure_hook(Celsius, lambda v, _: Celsius(v))
    assert local.structure(3, Celsius) == Celsius(3.0)


def test_unstructure_round_trip() -> None:
    value = {"a": Box(3)}
    data = unstructure_hook(dict[str, Box])(value)
    assert data == {"a": {"size": 3}}
    assert converter.structure(data, dict[str, Box]) == value
