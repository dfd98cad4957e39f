# mypy: disable-error-code="type-arg"
import dataclasses
import enum
from collections.abc import Callable, Iterable
from typing import Any, Generic, Literal, NamedTuple, NewType, Protocol, TypeVar, Union

import attrs
from typing_extensions import NamedTuple as GenericNamedTuple
from typing_extensions import Never, TypedDict

from typed_toolsets import Toolset, tool

T = TypeVar("T")
Blob = NewType("Blob", bytes)
Json = Union[int, list["Json"]]


class Opaque:
    pass


class Shaped(Protocol):
    def area(self) -> float: ...


class TupleValued(enum.Enum):
    PAIR = (1, 2)


class Empty(enum.Enum):
    pass


# Eleven members that combine: 2,048 values, more than a JSON enum lists.
class Many(enum.Flag):
    A = enum.auto()
    B = enum.auto()
    C = enum.auto()
    D = enum.auto()
    E = enum.auto()
    F = enum.auto()
    G = enum.auto()
    H = enum.auto()
    I = enum.auto()
    J = enum.auto()
    K = enum.auto()


@attrs.define
class WithAny:
    payload: Any


@attrs.define
class Outer:
    inner: WithAny


@attrs.define
class Box(Generic[T]):
    value: T


@dataclasses.dataclass
class WithInitVar:
    seed: dataclasses.InitVar[int]
    name: str = ""


class OuterAgain(Outer):
    pass


class InitVarAgain(WithInitVar):
    pass


class Page(TypedDict, Generic[T]):
    items: list[T]


class Duo(GenericNamedTuple, Generic[T]):
    left: T


@attrs.define
class NoneField:
    # mypy accepts a None default given to attrs.field() whatever the field's type.
    count: int = attrs.field(default=None)
    fine: int | None = attrs.field(default=None)


class NoneFieldAgain(NoneField):
    pass


class Point(NamedTuple):
    x: int
    label: object


class Types(Toolset):
    exports = (
        tool("callables"),
        tool("anything"),
        tool("classes"),
        tool("mappings"),
        tool("binary"),
        tool("generics"),
        tool("wrapped"),
        tool("variable"),
        tool("structs"),
        tool("inherited"),
        tool("generic_structs"),
        tool("enums"),
        tool("tuple_valued"),
        tool("others"),
        tool("sets"),
    )

    def callables(self, *, cb: Callable[[int], str]) -> None: ...  # E: Types.callables: parameter 'cb' has type Callable[[int], str], which has no JSON Schema (callables have no JSON Schema)  [toolset-param-type]
    def anything(self, *, a: Any, o: object, ok: int) -> None: ...  # E: Types.anything: parameter 'a' has type Any, which has no JSON Schema (Any has no JSON Schema; use a concrete type)  [toolset-param-type]  # E: Types.anything: parameter 'o' has type object, which has no JSON Schema (object has no JSON Schema; use a concrete type)  [toolset-param-type]
    def classes(self, *, opaque: Opaque, shaped: Shaped, kind: type[int]) -> None: ...  # E: Types.classes: parameter 'kind' has type type[int], which has no JSON Schema (classes (type[...]) have no JSON Schema)  [toolset-param-type]  # E: Types.classes: parameter 'opaque' has type Opaque, which has no JSON Schema ('Opaque' is not an attrs class, dataclass, TypedDict, NamedTuple, enum or supported builtin type; use one of those, or register it with typed_toolsets.register_type() (and, for the mypy plugin, list it under registered_types in its config))  [toolset-param-type]  # E: Types.classes: parameter 'shaped' has type Shaped, which has no JSON Schema ('Shaped' is not an attrs class, dataclass, TypedDict, NamedTuple, enum or supported builtin type; use one of those, or register it with typed_toolsets.register_type() (and, for the mypy plugin, list it under registered_types in its config))  [toolset-param-type]
    def mappings(
        self,
        *,
        int_keys: dict[int, str],  # E: Types.mappings: parameter 'int_keys' has type dict[int, str], which has no JSON Schema (only str keys are supported, as JSON object keys are strings; use dict[str, ...] and convert or check the keys in the method (got int))  [toolset-param-type]
        literal_keys: dict[Literal["a"], int],  # E: Types.mappings: parameter 'literal_keys' has type dict[Literal['a'], int], which has no JSON Schema (only str keys are supported, as JSON object keys are strings; use dict[str, ...] and convert or check the keys in the method (got Literal['a']))  [toolset-param-type]
        nested: list[dict[str, Opaque]],  # E: Types.mappings: parameter 'nested' has type list[dict[str, Opaque]], which has no JSON Schema ('Opaque' is not an attrs class, dataclass, TypedDict, NamedTuple, enum or supported builtin type; use one of those, or register it with typed_toolsets.register_type() (and, for the mypy plugin, list it under registered_types in its config))  [toolset-param-type]
    ) -> None: ...
    def binary(self, *, raw: bytes, blob: Blob, arr: bytearray) -> None: ...  # E: Types.binary: parameter 'arr' has type bytearray, which has no JSON Schema (bytes cannot be sent as JSON; use str (for example base64 text))  [toolset-param-type]  # E: Types.binary: parameter 'blob' has type Blob, which has no JSON Schema (bytes cannot be sent as JSON; use str (for example base64 text))  [toolset-param-type]  # E: Types.binary: parameter 'raw' has type bytes, which has no JSON Schema (bytes cannot be sent as JSON; use str (for example base64 text))  [toolset-param-type]
    def generics(self, *, bare: list, count: int) -> None: ...  # E: Types.generics: parameter 'bare' has type list[Any], which has no JSON Schema (list needs its type parameters (for example list[str]))  [toolset-param-type]
    def wrapped(self, *, iterable: Iterable[int], box: Box[int]) -> None: ...  # E: Types.wrapped: parameter 'box' has type Box[int], which has no JSON Schema ('Box' is generic; generic structs are not supported)  [toolset-param-type]  # E: Types.wrapped: parameter 'iterable' has type Iterable[int], which has no JSON Schema ('Iterable' is not an attrs class, dataclass, TypedDict, NamedTuple, enum or supported builtin type; use one of those, or register it with typed_toolsets.register_type() (and, for the mypy plugin, list it under registered_types in its config))  [toolset-param-type]
    def variable(self, *, var: T) -> None: ...  # E: Types.variable: parameter 'var' has type T, which has no JSON Schema (the type variable T has no JSON Schema)  [toolset-param-type]

    @tool
    def bare_mapping(self, *, table: dict) -> None: ...  # E: Types.bare_mapping: parameter 'table' has type dict[Any, Any], which has no JSON Schema (dict needs its type parameters (for example dict[str, int]))  [toolset-param-type]
    def structs(self, *, outer: Outer, init: WithInitVar, point: Point) -> None: ...  # E: Types.structs: parameter 'init' has type WithInitVar, which has no JSON Schema (dataclass WithInitVar has the InitVar field 'seed' (not supported))  [toolset-param-type]  # E: Types.structs: parameter 'outer' has type Outer, which has no JSON Schema (field Outer.inner: field WithAny.payload: Any has no JSON Schema; use a concrete type)  [toolset-param-type]  # E: Types.structs: parameter 'point' has type Point, which has no JSON Schema (field Point.label: object has no JSON Schema; use a concrete type)  [toolset-param-type]
    def inherited(self, *, outer: OuterAgain, init: InitVarAgain) -> None: ...  # E: Types.inherited: parameter 'init' has type InitVarAgain, which has no JSON Schema (dataclass InitVarAgain has the InitVar field 'seed' (not supported))  [toolset-param-type]  # E: Types.inherited: parameter 'outer' has type OuterAgain, which has no JSON Schema (field OuterAgain.inner: field WithAny.payload: Any has no JSON Schema; use a concrete type)  [toolset-param-type]
    def generic_structs(self, *, page: Page[int], duo: Duo[str]) -> None: ...  # E: Types.generic_structs: parameter 'duo' has type Duo[str], which has no JSON Schema ('Duo' is generic; generic structs are not supported)  [toolset-param-type]  # E: Types.generic_structs: parameter 'page' has type Page[int], which has no JSON Schema ('Page' is generic; generic structs are not supported)  [toolset-param-type]
    def enums(self, *, empty: Empty, blit: Literal[b"x"], many: Many) -> None: ...  # E: Types.enums: parameter 'blit' has type Literal[b'x'], which has no JSON Schema (the literal Literal[b'x'] is bytes; JSON has no bytes)  [toolset-param-type]  # E: Types.enums: parameter 'empty' has type Empty, which has no JSON Schema (enum 'Empty' has no members)  [toolset-param-type]  # E: Types.enums: parameter 'many' has type Many, which has no JSON Schema (enum 'Many' is a Flag whose members combine into more than 1,024 values, too many for a JSON enum to list; use a set of an Enum's members (frozenset[...]) instead)  [toolset-param-type]
    def tuple_valued(self, *, pair: TupleValued) -> None: ...  # E: Types.tuple_valued: parameter 'pair' has type TupleValued, which has no JSON Schema (enum 'TupleValued' has the member 'PAIR', whose value is not a JSON string, number, boolean or null)  [toolset-param-type]
    def others(
        self,
        *,
        never: Never,  # E: Types.others: parameter 'never' has type Never, which has no JSON Schema (Never has no JSON Schema)  [toolset-param-type]
        recursive: Json,  # E: Types.others: parameter 'recursive' has type Json, which has no JSON Schema (recursive type aliases are not supported; use a recursive attrs class)  [toolset-param-type]
        unhashable: set[list[int]],  # E: Types.others: parameter 'unhashable' has type set[list[int]], which has no JSON Schema (set items must be strings, numbers, booleans, enums, literals, dates, times, UUIDs or tuples of those (got list[int]))  [toolset-param-type]
        opt: object | None,  # E: Types.others: parameter 'opt' has type object | None, which has no JSON Schema (object has no JSON Schema; use a concrete type)  [toolset-param-type]
    ) -> None: ...
    def sets(self, *, mixed: set[bool | int], apart: set[tuple[bool, int]]) -> None: ...  # E: Types.sets: parameter 'mixed' has type set[bool | int], which has no JSON Schema (set items of type bool | int can hold a boolean and a number equal to it at one place, which JSON tells apart (true, 1) but a Python set merges (True == 1); use a list, or keep booleans and numbers apart)  [toolset-param-type]

    # Decorated, with the type variable in the return type too: the decorator keeps the
    # method's own type, so the variable is the method's, not one of the decorator's.
    @tool
    def decorated_variable(self, *, var: T) -> T:  # E: Types.decorated_variable: parameter 'var' has type T, which has no JSON Schema (the type variable T has no JSON Schema)  [toolset-param-type]
        return var

    @tool
    def none_fields(self, *, direct: NoneField, inherited: NoneFieldAgain) -> None: ...  # E: Types.none_fields: parameter 'direct' has type NoneField, which has no JSON Schema (field NoneField.count defaults to None but its type int does not admit null; add `| None` to its annotation (a None default does not make a field nullable))  [toolset-param-type]  # E: Types.none_fields: parameter 'inherited' has type NoneFieldAgain, which has no JSON Schema (field NoneFieldAgain.count defaults to None but its type int does not admit null; add `| None` to its annotation (a None default does not make a field nullable))  [toolset-param-type]
