# clean: correct methods that must not be refused: wrapped by a decorator of another module
# (whose own `Status` is another enum), aliased in the class body, or decorated with a decorator
# typed as returning a callable Protocol.
from __future__ import annotations

import enum

from typed_toolsets import Toolset, tool

from remote_base import RemoteBase
from remote_decorators import logged, retrying


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
