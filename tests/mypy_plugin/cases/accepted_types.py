# clean: every row of the type table is accepted, by the plugin and at run time.
from __future__ import annotations

import dataclasses
import datetime
import enum
import numbers
import typing
import uuid
from collections.abc import Mapping, MutableMapping, MutableSequence, MutableSet, Sequence
from collections.abc import Set as AbstractSet
from typing import Annotated, Dict, List, Literal, NamedTuple, NewType, Optional, Tuple

import annotated_types
import attrs
from typing_extensions import NotRequired, Required, TypedDict

from typed_toolsets import Description, Toolset, tool

UserId = NewType("UserId", str)


class Color(str, enum.Enum):
    RED = "red"
    GREEN = "green"


class Level(enum.IntEnum):
    LOW = 1
    HIGH = 2


class Mixed(enum.Enum):
    AUTO = enum.auto()
    TWO = "two"
    NOTHING = None
    THREE = 3.5


class Labelled(str, enum.Enum):
    """The enum module's own pattern: members made by ``__new__``, ``_value_`` set there."""

    label: str

    def __new__(cls, value: str, label: str) -> Labelled:
        member = str.__new__(cls, value)
        member._value_ = value
        member.label = label
        return member

    DRAFT = ("draft", "A draft")
    DONE = ("done", "Done")


@attrs.define
class Filter:
    field: str
    value: int | None = None
    _secret: str = "x"
    cache: object = attrs.field(init=False, default=None)


@attrs.frozen
class Tree:
    label: str
    children: list[Tree] = attrs.Factory(list)


@dataclasses.dataclass
class Window:
    start: datetime.date
    end: datetime.date | None = None
    scratch: list[object] = dataclasses.field(init=False, default_factory=list)


@dataclasses.dataclass
class Chain:
    next: Chain | None = None


@dataclasses.dataclass
class Span:
    """Fields after the KW_ONLY marker are keyword-only; the marker is no field."""

    low: int
    _: dataclasses.KW_ONLY
    high: int = 10


class NamedFilter(Filter):
    """Not decorated again: attrs sees Filter's fields (as dataclasses sees Window's below)."""

    def describe(self) -> str:
        return self.field


class WideWindow(Window):
    pass


class Query(TypedDict, total=False):
    text: Required[str]
    limit: int
    tags: NotRequired[list[str]]


class Pair(NamedTuple):
    left: int
    right: str = ""


class Everything(Toolset):
    @tool
    def scalars(
        self,
        *,
        s: str,
        i: int,
        f: float,
        b: bool,
        n: None,
        real: numbers.Real,
        numeric: int | float,
        when: datetime.datetime,
        day: datetime.date,
        at: datetime.time,
        uid: uuid.UUID,
    ) -> None: ...

    @tool
    def constants(
        self,
        *,
        color: Color,
        level: Level,
        mixed: Mixed,
        labelled: Labelled,
        lit: Literal["a", "b"],
        num: Literal[1, 2, True],
        member: Literal[Color.RED],
        none_lit: Literal[None],
    ) -> None: ...

    @tool
    def containers(
        self,
        *,
        a: list[int],
        b: Sequence[str],
        c: MutableSequence[float],
        d: List[bool],  # noqa: UP006
        e: tuple[int, ...],
        f: tuple[int, str],
        g: tuple[()],
        h: Tuple[Color, int],  # noqa: UP006
        i: set[str],
        j: frozenset[Level],
        k: AbstractSet[Literal["x", "y"]],
        l: MutableSet[tuple[int, str]],  # noqa: E741
        m: typing.FrozenSet[datetime.date],  # noqa: UP006
        n: dict[str, int],
        o: Mapping[str, list[Filter]],
        p: MutableMapping[str, Color],
        q: Dict[str, Optional[int]],  # noqa: UP006
        r: set[int | float],
    ) -> None: ...

    @tool
    def structs(
        self,
        *,
        flt: Filter,
        tree: Tree,
        window: Window,
        chain: Chain,
        query: Query,
        pair: Pair,
        span: Span,
    ) -> None: ...

    @tool
    def inherited(self, *, flt: NamedFilter, window: WideWindow) -> None: ...

    @tool
    def wrappers(
        self,
        *,
        user: UserId,
        ids: set[UserId],
        by_user: dict[UserId, int],
        positive: Annotated[int, annotated_types.Ge(0)],
        short: Annotated[str, annotated_types.MaxLen(10), "A short text"],
        described: Annotated[float, Description("A ratio")],
        maybe: Optional[Filter] = None,
        later: Later | None = None,
    ) -> None: ...


@attrs.define
class Later:
    """Defined after its first use: a forward reference."""

    when: datetime.datetime
