import datetime
import enum
from typing import Literal, Optional, Union

import attrs
from typing_extensions import TypedDict

from typed_toolsets import Toolset, tool


class Color(str, enum.Enum):
    RED = "red"
    BLUE = "blue"


class Size(enum.Enum):
    SMALL = 1
    LARGE = 2


# auto() numbers the members; the str mixin makes the numbers strings ('1', '2').
class Ticket(str, enum.Enum):
    BUG = enum.auto()
    TASK = enum.auto()


class Level(enum.IntEnum):
    LOW = enum.auto()
    HIGH = enum.auto()


# auto() takes the next power of two in a Flag: 1, 2, 4, then 16 after 8; its values are
# every combination of those (0 to 31).
class Perm(enum.IntFlag):
    READ = enum.auto()
    WRITE = enum.auto()
    RUN = enum.auto()
    ADMIN = 8
    OWNER = enum.auto()


# A plain Enum's auto() counts on from the last value.
class Step(enum.Enum):
    FIRST = enum.auto()
    TENTH = 10
    NEXT = enum.auto()


# The str mixin makes 1 the string '1'.
class Digit(str, enum.Enum):
    ONE = 1


# mypy does not compute A's value; B alone makes `Computed | str` ambiguous.
class Computed(enum.Enum):
    A = "a".upper()
    B = "b"


class Ratio(enum.Enum):
    HALF = 0.5
    ONE = 1.0
    NAME = "name"


@attrs.define
class ByName:
    name: str
    limit: int = 10


@attrs.define
class ByLabel:
    name: str
    exact: bool = False


@attrs.define
class Cat:
    kind: Literal["cat"]
    lives: int


@attrs.define
class Dog:
    kind: Literal["dog"]
    lives: int


class LabelAgain(ByLabel):
    """Not decorated again: ByLabel's fields."""


class Puppy(Dog):
    pass


class NameDict(TypedDict):
    name: str


@attrs.define
class Holder:
    value: Union[int, Size]


class Ambiguous(Toolset):
    exports = (
        tool("enum_after_str"),
        tool("str_after_enum"),
        tool("same_fields"),
        tool("nested"),
        tool("in_field"),
        tool("dict_vs_class"),
        tool("formats"),
        tool("literal_vs_scalar"),
        tool("inherited_fields"),
        tool("str_mixin_auto"),
        tool("partly_computed"),
        tool("float_members"),
        tool("int_enum_auto"),
        tool("flag_auto"),
        tool("flag_combination"),
        tool("enum_auto_after_value"),
        tool("member_vs_enum"),
        tool("empty_vs_list"),
        tool("member_and_value"),
        tool("optional_member_and_value"),
    )

    def enum_after_str(self, *, color: str | Color) -> None: ...  # E: Ambiguous.enum_after_str: parameter 'color' has the union str | Color, and a JSON value can match both str and Color (the first one in declared order wins)  [toolset-ambiguous-union]
    def str_after_enum(self, *, color: Color | str | None = None) -> None: ...  # E: Ambiguous.str_after_enum: parameter 'color' has the union Color | str | None, and a JSON value can match both Color and str (the first one in declared order wins)  [toolset-ambiguous-union]
    def same_fields(self, *, query: ByName | ByLabel) -> None: ...  # E: Ambiguous.same_fields: parameter 'query' has the union ByName | ByLabel, and a JSON value can match both ByName and ByLabel (the first one in declared order wins)  [toolset-ambiguous-union]
    def nested(self, *, colors: list[Color | str]) -> None: ...  # E: Ambiguous.nested: parameter 'colors' has the union Color | str, and a JSON value can match both Color and str (the first one in declared order wins)  [toolset-ambiguous-union]
    def in_field(self, *, holder: Holder) -> None: ...  # E: Ambiguous.in_field: parameter 'holder' has the union int | Size, and a JSON value can match both int and Size (the first one in declared order wins)  [toolset-ambiguous-union]
    def dict_vs_class(self, *, query: NameDict | ByName) -> None: ...  # E: Ambiguous.dict_vs_class: parameter 'query' has the union NameDict | ByName, and a JSON value can match both NameDict and ByName (the first one in declared order wins)  [toolset-ambiguous-union]
    def formats(self, *, when: datetime.date | str) -> None: ...  # E: Ambiguous.formats: parameter 'when' has the union date | str, and a JSON value can match both date and str (the first one in declared order wins)  [toolset-ambiguous-union]
    def inherited_fields(self, *, query: ByName | LabelAgain) -> None: ...  # E: Ambiguous.inherited_fields: parameter 'query' has the union ByName | LabelAgain, and a JSON value can match both ByName and LabelAgain (the first one in declared order wins)  [toolset-ambiguous-union]
    def literal_vs_scalar(self, *, mode: Literal["fast", "slow"] | str) -> None: ...  # E: Ambiguous.literal_vs_scalar: parameter 'mode' has the union Literal['fast', 'slow'] | str, and a JSON value can match both Literal['fast'] and str (the first one in declared order wins)  [toolset-ambiguous-union]
    def member_vs_enum(self, *, color: Literal[Color.RED] | Color) -> None: ...  # E: Ambiguous.member_vs_enum: parameter 'color' has the union Literal[Color.RED] | Color, and a JSON value can match both Literal[Color.RED] and Color (the first one in declared order wins)  [toolset-ambiguous-union]
    def empty_vs_list(self, *, items: tuple[()] | list[int]) -> None: ...  # E: Ambiguous.empty_vs_list: parameter 'items' has the union tuple[()] | list[int], and a JSON value can match both tuple[()] and list[int] (the first one in declared order wins)  [toolset-ambiguous-union]
    def member_and_value(self, *, x: Literal[Color.RED, "red"]) -> None: ...  # E: Ambiguous.member_and_value: parameter 'x' has the union Literal[Color.RED, 'red'], and a JSON value can match both Literal[Color.RED] and Literal['red'] (the first one in declared order wins)  [toolset-ambiguous-union]
    def optional_member_and_value(self, *, x: Optional[Literal[Color.RED, "red"]] = None) -> None: ...  # E: Ambiguous.optional_member_and_value: parameter 'x' has the union Literal[Color.RED, 'red'] | None, and a JSON value can match both Literal[Color.RED] and Literal['red'] (the first one in declared order wins)  [toolset-ambiguous-union]
    def str_mixin_auto(self, *, ticket: Ticket | str) -> None: ...  # E: Ambiguous.str_mixin_auto: parameter 'ticket' has the union Ticket | str, and a JSON value can match both Ticket and str (the first one in declared order wins)  [toolset-ambiguous-union]
    def partly_computed(self, *, value: Computed | str) -> None: ...  # E: Ambiguous.partly_computed: parameter 'value' has the union Computed | str, and a JSON value can match both Computed and str (the first one in declared order wins)  [toolset-ambiguous-union]
    def float_members(self, *, ratio: Ratio | str) -> None: ...  # E: Ambiguous.float_members: parameter 'ratio' has the union Ratio | str, and a JSON value can match both Ratio and str (the first one in declared order wins)  [toolset-ambiguous-union]
    def int_enum_auto(self, *, level: Level | Literal[2]) -> None: ...  # E: Ambiguous.int_enum_auto: parameter 'level' has the union Level | Literal[2], and a JSON value can match both Level and Literal[2] (the first one in declared order wins)  [toolset-ambiguous-union]
    def flag_auto(self, *, perm: Perm | Literal[16]) -> None: ...  # E: Ambiguous.flag_auto: parameter 'perm' has the union Perm | Literal[16], and a JSON value can match both Perm and Literal[16] (the first one in declared order wins)  [toolset-ambiguous-union]
    def flag_combination(self, *, perm: Perm | Literal[3]) -> None: ...  # E: Ambiguous.flag_combination: parameter 'perm' has the union Perm | Literal[3], and a JSON value can match both Perm and Literal[3] (the first one in declared order wins)  [toolset-ambiguous-union]
    def enum_auto_after_value(self, *, step: Step | Literal[11]) -> None: ...  # E: Ambiguous.enum_auto_after_value: parameter 'step' has the union Step | Literal[11], and a JSON value can match both Step and Literal[11] (the first one in declared order wins)  [toolset-ambiguous-union]


class Unambiguous(Toolset):
    exports = (tool("fine"),)

    def fine(
        self,
        *,
        optional: Optional[Color] = None,
        numeric: int | float = 0,
        flags: bool | int = 0,
        tagged: Cat | Dog | None = None,
        inherited: Cat | Puppy | None = None,
        kinds: Literal["a"] | Literal["b"] = "a",
        dates: datetime.date | datetime.datetime | None = None,
        sizes: Size | str = "x",
        today: datetime.date | Literal["today"] = "today",
        shapes: tuple[int] | tuple[int, int] = (1,),
        ticket: Ticket | int = 0,
        level: Level | Literal[7] = 7,
        perm: Perm | Literal[32, 40] = 32,
        step: Step | Literal[2] = 2,
        digit: Digit | int = 0,
        nulls: Optional[Literal[None, 1]] = None,
        repeated: Union[Literal["a"], Literal["a", "b"]] = "a",
    ) -> None: ...


# A class with definition errors still gets its ambiguous unions reported, beside the errors.
class Broken(Toolset):
    exports = (tool("mixed"), tool("missing"), tool("only_ambiguous"))  # E: Broken.missing: Broken has no method 'missing' to export  [toolset-unknown-method]

    def mixed(self, *, data: object, color: str | Color) -> None: ...  # E: Broken.mixed: parameter 'color' has the union str | Color, and a JSON value can match both str and Color (the first one in declared order wins)  [toolset-ambiguous-union]  # E: Broken.mixed: parameter 'data' has type object, which has no JSON Schema (object has no JSON Schema; use a concrete type)  [toolset-param-type]
    def only_ambiguous(self, *, query: ByName | ByLabel) -> None: ...  # E: Broken.only_ambiguous: parameter 'query' has the union ByName | ByLabel, and a JSON value can match both ByName and ByLabel (the first one in declared order wins)  [toolset-ambiguous-union]


class Described(enum.Enum):
    # An __init__ taking a member's one value, as Python's documentation shows: its values are
    # still known (they were taken for unknown, and the unions went unreported).
    RED = "red"

    def __init__(self, value: str) -> None:
        self.label = value.upper()


class Shaded(enum.Enum):
    RED = "red"


class OwnInit(Toolset):
    @tool
    def literal(self, *, x: Described | Literal["red"]) -> None: ...  # E: OwnInit.literal: parameter 'x' has the union Described | Literal['red'], and a JSON value can match both Described and Literal['red'] (the first one in declared order wins)  [toolset-ambiguous-union]

    @tool
    def enums(self, *, x: Described | Shaded) -> None: ...  # E: OwnInit.enums: parameter 'x' has the union Described | Shaded, and a JSON value can match both Described and Shaded (the first one in declared order wins)  [toolset-ambiguous-union]
