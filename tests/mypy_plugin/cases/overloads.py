# `@tool` above an `@overload` marks what `@overload` returns, which the class does not keep:
# refused as the class body runs, and by the plugin, where it is written. On the
# implementation it declares the tool.
from typing import Protocol, overload

from typing_extensions import overload as ext_overload

from typed_toolsets import Toolset, tool


class Marked(Toolset):
    @tool  # E: tool(): @tool cannot mark an @overload: the class keeps only the implementation; put @tool on the def without @overload  [toolset-not-a-method]
    @overload
    def h(self, *, q: int) -> int: ...
    @overload
    def h(self, *, q: str) -> str: ...
    def h(self, *, q: int | str) -> int | str:
        return q


class MarkedWithOptions(Toolset):
    @overload
    def h(self, *, q: int) -> int: ...
    @tool(tool_name="hh")  # E: tool(): @tool cannot mark an @overload: the class keeps only the implementation; put @tool on the def without @overload  [toolset-not-a-method]
    @ext_overload
    def h(self, *, q: str) -> str: ...
    def h(self, *, q: int | str) -> int | str:
        return q


class Implementation(Toolset):
    @overload
    def h(self, *, q: int) -> int: ...
    @overload
    def h(self, *, q: str) -> str: ...
    @tool
    def h(self, *, q: int | str) -> int | str:
        return q


expose = tool


class Alias(Toolset):
    @expose  # E: tool(): @tool cannot mark an @overload: the class keeps only the implementation; put @tool on the def without @overload  [toolset-not-a-method]
    @overload
    def h(self, *, q: int) -> int: ...
    @overload
    def h(self, *, q: str) -> str: ...
    def h(self, *, q: int | str) -> int | str:
        return q


class Stacked(Toolset):
    # The @tool nearest the @overload raises; the one above it never runs.
    @tool
    @tool  # E: tool(): @tool cannot mark an @overload: the class keeps only the implementation; put @tool on the def without @overload  [toolset-not-a-method]
    @overload
    def h(self, *, q: int) -> int: ...
    @overload
    def h(self, *, q: str) -> str: ...
    def h(self, *, q: int | str) -> int | str:
        return q


# In a class that is not a Toolset too: tool() refuses it as the body runs, whatever the class.
class MarkedMixin:
    @tool  # E: tool(): @tool cannot mark an @overload: the class keeps only the implementation; put @tool on the def without @overload  [toolset-not-a-method]
    @overload
    def h(self, *, q: int) -> int: ...
    @overload
    def h(self, *, q: str) -> str: ...
    def h(self, *, q: int | str) -> int | str:
        return q


class Combined(MarkedMixin, Toolset):
    # Reported once, in the mixin, where it is written.
    @tool
    def go(self) -> None: ...


class MarkedProtocol(Protocol):
    @overload
    def h(self, *, q: int) -> int: ...
    @expose  # E: tool(): @tool cannot mark an @overload: the class keeps only the implementation; put @tool on the def without @overload  [toolset-not-a-method]
    @overload
    def h(self, *, q: str) -> str: ...
    def h(self, *, q: int | str) -> int | str:
        return q


class PlainOverloads:
    # An @overload alone, or @tool on the implementation (not a Toolset's: no tool), says nothing.
    @overload
    def h(self, *, q: int) -> int: ...
    @overload
    def h(self, *, q: str) -> str: ...
    @tool
    def h(self, *, q: int | str) -> int | str:
        return q
