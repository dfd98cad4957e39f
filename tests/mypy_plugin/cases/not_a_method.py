import functools
from collections.abc import AsyncIterator, Iterator
from typing import ClassVar

import attrs

from typed_toolsets import Toolset, tool


@attrs.define
class Kinds(Toolset):
    retries: int = 3
    label: ClassVar[str] = "x"
    exports = (
        tool("retries"),  # E: Cannot export "Kinds.retries" as a tool: "retries" is an attrs field, not a method; only plain instance methods (def or async def) can be exported  [toolset-not-a-method]
        tool("label"),  # E: Cannot export "Kinds.label" as a tool: "label" is an attribute, not a method; only plain instance methods (def or async def) can be exported  [toolset-not-a-method]
        tool("summary"),  # E: Cannot export "Kinds.summary" as a tool: "summary" is a property; only plain instance methods (def or async def) can be exported  [toolset-not-a-method]
        tool("helper"),  # E: Cannot export "Kinds.helper" as a tool: "helper" is a staticmethod; only plain instance methods (def or async def) can be exported  [toolset-not-a-method]
        tool("build"),  # E: Cannot export "Kinds.build" as a tool: "build" is a classmethod; only plain instance methods (def or async def) can be exported  [toolset-not-a-method]
        tool("Nested"),  # E: Cannot export "Kinds.Nested" as a tool: "Nested" is a nested class; only plain instance methods (def or async def) can be exported  [toolset-not-a-method]
        tool("__len__"),  # E: Cannot export "Kinds.__len__" as a tool: "__len__" is a special method and cannot be exported  [toolset-not-a-method]
        tool("to_tools"),  # E: Cannot export "Kinds.to_tools" as a tool: "to_tools" is part of the Toolset API and cannot be exported  [toolset-not-a-method]
        tool("limits"),  # E: Cannot export "Kinds.limits" as a tool: "limits" is part of the Toolset API and cannot be exported  [toolset-not-a-method]
        tool("numbers"),  # E: Cannot export "Kinds.numbers" as a tool: "numbers" is a generator; only methods that return a value can be exported  [toolset-not-a-method]
        tool("stream"),  # E: Cannot export "Kinds.stream" as a tool: "stream" is a generator; only methods that return a value can be exported  [toolset-not-a-method]
        tool("cached"),  # E: Cannot export "Kinds.cached" as a tool: "cached" is an attribute, not a method; only plain instance methods (def or async def) can be exported  [toolset-not-a-method]
        tool("_private"),
        tool("settable"),  # E: Cannot export "Kinds.settable" as a tool: "settable" is a property; only plain instance methods (def or async def) can be exported  [toolset-not-a-method]
    )

    class Nested:
        pass

    @property
    def summary(self) -> str:
        return ""

    @property
    def settable(self) -> int:
        return 1

    @settable.setter
    def settable(self, value: int) -> None:
        pass

    @staticmethod
    def helper() -> None:
        pass

    @classmethod
    def build(cls) -> None:
        pass

    def __len__(self) -> int:
        return 0

    def numbers(self) -> Iterator[int]:
        yield 1

    async def stream(self) -> AsyncIterator[int]:
        yield 1

    @functools.cache  # noqa: B019
    def cached(self) -> int:
        return 1

    def _private(self, *, flag: bool) -> bool:
        return flag


class Decorated(Toolset):
    @tool  # E: Cannot export "Decorated.static_marked" as a tool: "static_marked" is a staticmethod; only plain instance methods (def or async def) can be exported  [toolset-not-a-method]
    @staticmethod
    def static_marked() -> None:
        pass

    @property
    @tool  # E: Cannot export "Decorated.property_marked" as a tool: "property_marked" is a property; only plain instance methods (def or async def) can be exported  [toolset-not-a-method]
    def property_marked(self) -> int:
        return 1

    @tool
    async def fine(self, *, text: str) -> str:
        return text


class Plain(Toolset):
    count = 3
    annotated: int
    exports = (tool("count"), tool("annotated"), tool("toolset_name"), tool("exports"))  # E: Cannot export "Plain.annotated" as a tool: "annotated" is an attribute, not a method; only plain instance methods (def or async def) can be exported  [toolset-not-a-method]  # E: Cannot export "Plain.count" as a tool: "count" is an attribute, not a method; only plain instance methods (def or async def) can be exported  [toolset-not-a-method]  # E: Cannot export "Plain.exports" as a tool: "exports" is an attribute, not a method; only plain instance methods (def or async def) can be exported  [toolset-not-a-method]  # E: Cannot export "Plain.toolset_name" as a tool: "toolset_name" is part of the Toolset API and cannot be exported  [toolset-not-a-method]
