# clean: correct methods that must not be refused: wrapped by a decorator of another module
# (whose own `Status` is another enum), aliased in the class body, decorated with a decorator
# typed as returning a callable Protocol, or generators a decorator wraps (the class attribute is
# the wrapper, no generator itself).
from __future__ import annotations

import enum
from collections.abc import Iterator

from typed_toolsets import Toolset, tool

from remote_base import RemoteBase
from remote_decorators import listify, logged, retrying


class Status(enum.Enum):
    OPEN = "open"
    CLOSED = "closed"


class Tasks(Toolset):
    exports = (tool("find"), tool("search"), tool("retried"), tool("again"))

    @tool
    @logged
    def set_status(self, *, status: Status) -> str:
        return status.value

    def find(self, *, query: str) -> list[str]:
        return [query]

    search = find

    @retrying
    def retried(self, *, count: int) -> int:
        return count

    again = retried


class Remote(RemoteBase):
    exports = (tool("lookup"),)

    lookup = RemoteBase.search


class Generated(Toolset):
    @tool
    @listify
    def numbers(self, *, count: int) -> Iterator[int]:
        yield from range(count)

    @tool
    @logged
    def raw(self, *, count: int) -> Iterator[int]:
        yield from range(count)
