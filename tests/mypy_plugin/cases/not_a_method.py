import functools
from collections.abc import AsyncIterator, Iterator
from typing import ClassVar

from typing_extensions import override

import attrs

from typed_toolsets import Toolset, tool


@attrs.define
class Kinds(Toolset):
    retries: int = 3
    label: ClassVar[str] = "x"
    exports = (
        tool("retries"),  # E: Kinds.retries: 'retries' is an attrs field, not a method; only plain instance methods can be exported  [toolset-not-a-method]
        tool("label"),  # E: Kinds.label: 'label' is an attribute, not a method; only plain instance methods can be exported  [toolset-not-a-method]
        tool("summary"),  # E: Kinds.summary: 'summary' is a property; only plain instance methods (def or async def) can be exported  [toolset-not-a-method]
        tool("helper"),  # E: Kinds.helper: 'helper' is a staticmethod; only plain instance methods (def or async def) can be exported  [toolset-not-a-method]
        tool("build"),  # E: Kinds.build: 'build' is a classmethod; only plain instance methods (def or async def) can be exported  [toolset-not-a-method]
        tool("Nested"),  # E: Kinds.Nested: 'Nested' is a nested class; only plain instance methods can be exported  [toolset-not-a-method]
        tool("__len__"),  # E: Kinds.__len__: '__len__' is a special method and cannot be exported  [toolset-not-a-method]
        tool("to_tools"),  # E: Kinds.to_tools: 'to_tools' is part of the Toolset API and cannot be exported  [toolset-not-a-method]
        tool("limits"),  # E: Kinds.limits: 'limits' is part of the Toolset API and cannot be exported  [toolset-not-a-method]
        tool("numbers"),  # E: Kinds.numbers: 'numbers' is a generator; only methods that return a value can be exported  [toolset-not-a-method]
        tool("stream"),  # E: Kinds.stream: 'stream' is a generator; only methods that return a value can be exported  [toolset-not-a-method]
        tool("cached"),  # E: Kinds.cached: 'cached' is an attribute, not a method; only plain instance methods can be exported  [toolset-not-a-method]
        tool("_private"),
        tool("settable"),  # E: Kinds.settable: 'settable' is a property; only plain instance methods (def or async def) can be exported  [toolset-not-a-method]
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
    @tool  # E: Decorated.static_marked: 'static_marked' is a staticmethod; only plain instance methods (def or async def) can be exported  [toolset-not-a-method]
    @staticmethod
    def static_marked() -> None:
        pass

    @property
    @tool  # E: Decorated.property_marked: 'property_marked' is a property; only plain instance methods (def or async def) can be exported  [toolset-not-a-method]
    def property_marked(self) -> int:
        return 1

    @tool
    async def fine(self, *, text: str) -> str:
        return text


class Plain(Toolset):
    count = 3
    annotated: int
    exports = (tool("count"), tool("annotated"), tool("toolset_name"), tool("exports"))  # E: Plain.annotated: 'annotated' is an annotated attribute (an attrs field), not a method  [toolset-not-a-method]  # E: Plain.count: 'count' is an attribute, not a method; only plain instance methods can be exported  [toolset-not-a-method]  # E: Plain.exports: 'exports' is part of the Toolset API and cannot be exported  [toolset-not-a-method]  # E: Plain.toolset_name: 'toolset_name' is part of the Toolset API and cannot be exported  [toolset-not-a-method]


class Lazy(Toolset):
    exports = (tool("total"),)  # E: Lazy.total: 'total' is a property; only plain instance methods (def or async def) can be exported  [toolset-not-a-method]

    @functools.cached_property
    def total(self) -> int:
        return 1


class OwnApi(Toolset):
    # A method of its own in the place of the Toolset API's is not exported either.
    @tool  # E: OwnApi.proxy: 'proxy' is part of the Toolset API and cannot be exported  [toolset-not-a-method]
    def proxy(self) -> int:  # type: ignore[override]
        return 1


class Streams(Toolset):
    def lines(self) -> Iterator[str]:
        yield ""


class Overridden(Streams):
    # `override` returns the function itself: still a generator.
    @tool  # E: Overridden.lines: 'lines' is a generator; only methods that return a value can be exported  [toolset-not-a-method]
    @override
    def lines(self) -> Iterator[str]:
        yield "x"


class Declared(Toolset):
    exports = (tool("find"), tool("count"))

    def find(self) -> int:
        return 1

    def count(self) -> int:
        return 1


class Replaced(Declared):  # N: Replaced inherits the declaration of 'find' from Declared (line 124 of not_a_method)  # N: Replaced inherits the declaration of 'count' from Declared (line 124 of not_a_method)
    # A decorated method that replaces a declared one is reported on its `def` line, where mypy
    # reports the override too.
    @property
    def find(self) -> int:  # type: ignore[override]  # E: Replaced.find: 'find' is a property; only plain instance methods (def or async def) can be exported  [toolset-not-a-method]  # N: Error code "toolset-not-a-method" not covered by "type: ignore[override]" comment
        return 1

    @classmethod
    @functools.cache
    def count(cls) -> int:  # E: Replaced.count: 'count' is a classmethod; only plain instance methods (def or async def) can be exported  [toolset-not-a-method]
        return 1


class Slotted(Toolset):
    __slots__ = ("name",)
    exports = (tool("name"),)  # E: Slotted.name: 'name' is a slot (named in `__slots__`), not a method; only plain instance methods can be exported  [toolset-not-a-method]


class SlottedBase(Toolset):
    __slots__ = "label"


class FromSlottedBase(SlottedBase):
    # mypy knows the attribute from `__init__`; at run time it is the base's slot.
    exports = (tool("label"),)  # E: FromSlottedBase.label: 'label' is a slot (named in `__slots__`), not a method; only plain instance methods can be exported  [toolset-not-a-method]

    def __init__(self) -> None:
        self.label = "x"


@attrs.define
class Fields(Toolset):
    url: str = "x"


class FromFields(Fields):
    # A slotted attrs class makes its fields slots: they are still its fields.
    exports = (tool("url"),)  # E: FromFields.url: 'url' is an attrs field, not a method; only plain instance methods can be exported  [toolset-not-a-method]


def _free() -> int:
    return 1


def _getter(self: object) -> int:
    return 1


class Wrapped(Toolset):
    # The wrappers called by hand, not as decorators.
    free = staticmethod(_free)
    value = property(_getter)
    exports = (tool("free"), tool("value"))  # E: Wrapped.free: 'free' is a staticmethod; only plain instance methods (def or async def) can be exported  [toolset-not-a-method]  # E: Wrapped.value: 'value' is a property; only plain instance methods (def or async def) can be exported  [toolset-not-a-method]


class MarkedSettable(Toolset):
    # mypy groups a property with its setter as a redefinition: the getter's mark still counts.
    @property
    @tool  # E: MarkedSettable.value: 'value' is a property; only plain instance methods (def or async def) can be exported  [toolset-not-a-method]
    def value(self) -> int:
        return 1

    @value.setter
    def value(self, new: int) -> None:
        pass
