"""An attrs class built from its slots is the same as one built by calling the class.

A frozen slotted class whose ``__init__`` only sets its fields is built with ``object.__new__``
and its slots' setters (`typed_toolsets.types.structs`); every other kind of class is called. For
each kind, the structured value is compared with the class called on the same arguments: fields,
equality, hash, what ``__attrs_post_init__`` and ``__attrs_pre_init__`` did, what a validator
raised.
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from typed_toolsets.types.catalog import registry
from typed_toolsets.types.structs import (
    _slot_setters,  # pyright: ignore[reportPrivateUsage]
)
from typed_toolsets.types.typespec import Reject

PRE_INITS: list[str] = []


@attrs.frozen
class Plain:
    name: str
    size: int = 3
    note: str | None = None


@attrs.frozen
class Private:
    _secret: str
    shown: bool = False


@attrs.frozen
class Sub(Plain):
    extra: float = 1.5


@attrs.frozen
class Validated:
    size: int = attrs.field(validator=attrs.validators.gt(0))


@attrs.frozen
class Converted:
    size: int = attrs.field(converter=lambda v: v * 2)  # pyright: ignore[reportUnknownLambdaType]


@attrs.frozen
class Factoried:
    name: str
    tags: tuple[str, ...] = attrs.Factory(tuple)


@attrs.frozen
class FactoriedList:
    name: str
    tags: list[str] = attrs.Factory(list)


@attrs.frozen
class FactoryOfSelf:
    name: str
    label: str = attrs.Factory(lambda self: self.name + "!", takes_self=True)  # pyright: ignore[reportUnknownLambdaType, reportUnknownMemberType]


@attrs.frozen
class ConvertedFactory:
    name: str
    tags: tuple[str, ...] = attrs.field(factory=list, converter=tuple)  # pyright: ignore[reportUnknownArgumentType]


@attrs.frozen
class PostInit:
    name: str
    upper: str = attrs.field(init=False, default="")

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "upper", self.name.upper())


@attrs.frozen
class PreInit:
    name: str

    def __attrs_pre_init__(self) -> None:
        PRE_INITS.append("called")


@attrs.frozen
class InitFalse:
    name: str
    fixed: int = attrs.field(init=False, default=7)


@attrs.define
class Mutable:
    name: str
    size: int = 3


@attrs.frozen(slots=False)
class DictClass:
    name: str
    size: int = 3


@attrs.frozen(cache_hash=True)
class CachedHash:
    name: str


class Undecorated(Plain):
    def __attrs_post_init__(self) -> None:
        PRE_INITS.append("undecorated")


@attrs.frozen
class OwnNew:
    name: str

    def __new__(cls, *args: Any, **kwargs: Any) -> OwnNew:
        PRE_INITS.append("new")
        return super().__new__(cls)


# (class, JSON object, the same arguments as the class takes them, built from slots)
CASES: list[tuple[type, dict[str, Any], dict[str, Any], bool]] = [
    (Plain, {"name": "a"}, {"name": "a"}, True),
    (Plain, {"name": "a", "size": 5, "note": "n"}, {"name": "a", "size": 5, "note": "n"}, True),
    (Private, {"secret": "s"}, {"secret": "s"}, True),
    (Sub, {"name": "a", "extra": 2.5}, {"name": "a", "extra": 2.5}, True),
    (Validated, {"size": 2}, {"size": 2}, False),
    (Converted, {"size": 2}, {"size": 2}, False),
    (Factoried, {"name": "a"}, {"name": "a"}, True),
    (Factoried, {"name": "a", "tags": ["x"]}, {"name": "a", "tags": ("x",)}, True),
    (FactoriedList, {"name": "a"}, {"name": "a"}, True),
    (FactoryOfSelf, {"name": "a"}, {"name": "a"}, False),
    (FactoryOfSelf, {"name": "a", "label": "b"}, {"name": "a", "label": "b"}, False),
    (ConvertedFactory, {"name": "a"}, {"name": "a"}, False),
    (PostInit, {"name": "a"}, {"name": "a"}, False),
    (PreInit, {"name": "a"}, {"name": "a"}, False),
    (InitFalse, {"name": "a"}, {"name": "a"}, False),
    (Mutable, {"name": "a", "size": 4}, {"name": "a", "size": 4}, False),
    (DictClass, {"name": "a"}, {"name": "a"}, False),
    (CachedHash, {"name": "a"}, {"name": "a"}, False),
    (Undecorated, {"name": "a"}, {"name": "a"}, False),
    (OwnNew, {"name": "a"}, {"name": "a"}, False),
]


def _state(value: object) -> tuple[object, ...]:
    """Every attribute attrs knows of, init=False ones included."""
    return tuple(getattr(value, field.name) for field in attrs.fields(type(value)))


@pytest.mark.parametrize(("cls", "data", "arguments", "from_slots"), CASES)
def test_built_as_the_class_builds_it(
    cls: type, data: dict[str, Any], arguments: dict[str, Any], from_slots: bool
) -> None:
    assert (_slot_setters(cls) is not None) is from_slots
    PRE_INITS.clear()
    expected = cls(**arguments)
    by_class = list(PRE_INITS)
    PRE_INITS.clear()
    built = registry.spec(cls).structure(data)
    assert by_class == PRE_INITS  # pre-init, post-init and __new__ ran as often
    assert type(built) is cls
    assert _state(built) == _state(expected)
    assert built == expected
    if cls.__hash__ is not None:
        try:
            expected_hash = hash(expected)
        except TypeError:  # a list field
            with pytest.raises(TypeError):
                hash(built)
        else:
            assert hash(built) == expected_hash
    assert repr(built) == repr(expected)
    assert attrs.asdict(built) == attrs.asdict(expected)


def test_a_frozen_class_built_from_slots_stays_frozen() -> None:
    built = registry.spec(Plain).structure({"name": "a"})
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        built.name = "b"  # type: ignore[misc]


@pytest.mark.parametrize("shape", [FactoriedList, list[FactoriedList]])
def test_a_factory_default_is_made_afresh_for_each_object(shape: Any) -> None:
    hook = registry.spec(shape).structure
    if shape is FactoriedList:
        first, second = hook({"name": "a"}), hook({"name": "b"})
    else:
        first, second = hook([{"name": "a"}, {"name": "b"}])
    assert first.tags == second.tags == []
    assert first.tags is not second.tags
    first.tags.append("x")
    assert second.tags == []
    assert FactoriedList("c").tags == []


def test_a_validator_raises_as_when_the_class_is_called() -> None:
    with pytest.raises(ValueError, match="'size' must be > 0: -1") as by_class:
        Validated(size=-1)
    with pytest.raises(ValueError, match="'size' must be > 0: -1") as built:
        registry.spec(Validated).structure({"size": -1})
    assert str(built.value) == str(by_class.value)


@pytest.mark.parametrize("cls", [Plain, Validated, PostInit, DictClass])
def test_a_list_of_objects_is_built_as_each_one_is(cls: type) -> None:
    data = [dict(case[1]) for case in CASES if case[0] is cls]
    built = registry.spec(list[cls]).structure(data)  # type: ignore[valid-type]
    assert built == [registry.spec(cls).structure(item) for item in data]
    assert all(type(item) is cls for item in built)


def test_a_list_of_objects_refuses_and_raises_as_each_one_does() -> None:
    hook = registry.spec(list[Plain]).structure
    with pytest.raises(Reject):
        hook([{"name": "a"}, {"name": 1}])
    with pytest.raises(Reject):
        hook([{"name": "a"}, {"name": "b", "other": 1}])
    with pytest.raises(ValueError, match="'size' must be > 0: -1"):
        registry.spec(list[Validated]).structure([{"size": 1}, {"size": -1}])
