# Aliases made with `TypeAliasType` (and, from Python 3.12, the `type` statement): one without
# type parameters stands for the type it names; a generic one, or one naming itself, is refused.
# An `Any` written in an alias is refused as one written in the annotation (the plugin let it
# through: mypy marks it a "special form" once the alias is expanded).
from typing import Any, NamedTuple, TypeAlias, TypeVar

import attrs
from typing_extensions import TypeAliasType

from typed_toolsets import Toolset, tool

T = TypeVar("T")
Tags = TypeAliasType("Tags", list[str])
Scores = TypeAliasType("Scores", "dict[str, int] | None")
Json = TypeAliasType("Json", "dict[str, Json] | int")
Pair = TypeAliasType("Pair", tuple[T, T], type_params=(T,))
JsonDict: TypeAlias = dict[str, Any]
Loose = TypeAliasType("Loose", Any)


@attrs.define
class Event:
    meta: JsonDict


class Tagged(NamedTuple):
    meta: Loose


class Aliased(Toolset):
    @tool
    def tag(self, *, tags: Tags, nested: list[Tags] | None = None, scores: Scores = None) -> int:
        return len(tags)

    @tool
    def tree(self, *, value: Json) -> int:  # E: Aliased.tree: parameter 'value' has type Json, which has no JSON Schema (recursive type aliases are not supported; use a recursive attrs class)  [toolset-param-type]
        return 0

    @tool
    def pair(self, *, value: Pair[int]) -> int:  # E: Aliased.pair: parameter 'value' has type Pair[int], which has no JSON Schema (generic type aliases are not supported; write the type it names)  [toolset-param-type]
        return 0

    @tool
    def record(self, *, data: JsonDict) -> int:  # E: Aliased.record: parameter 'data' has type dict[str, Any], which has no JSON Schema (Any has no JSON Schema; use a concrete type)  [toolset-param-type]
        return 0

    @tool
    def anything(self, *, value: Loose) -> int:  # E: Aliased.anything: parameter 'value' has type Any, which has no JSON Schema (Any has no JSON Schema; use a concrete type)  [toolset-param-type]
        return 0

    @tool
    def log(self, *, event: Event) -> int:  # E: Aliased.log: parameter 'event' has type Event, which has no JSON Schema (field Event.meta: Any has no JSON Schema; use a concrete type)  [toolset-param-type]
        return 0

    @tool
    def tagged(self, *, item: Tagged) -> int:  # E: Aliased.tagged: parameter 'item' has type Tagged, which has no JSON Schema (field Tagged.meta: Any has no JSON Schema; use a concrete type)  [toolset-param-type]
        return 0
