# clean: a base toolset in its own module, inherited by other case files.
import attrs

from typed_toolsets import Limits, Toolset, tool


class RemoteBase(Toolset):
    toolset_name = "remote"
    exports = (tool("assign"),)

    def assign(self, *, task_id: str) -> str:
        return task_id

    def search(self, *, query: str) -> list[str]:
        return [query]

    def _internal(self, *, flag: bool) -> bool:
        return flag


class RemoteMid(RemoteBase):
    pass


@attrs.define
class RemoteNeedsDb(Toolset):
    db_url: str

    @tool
    def query(self, *, sql: str) -> int:
        return len(sql)


# Not a Toolset: a mixin whose limits the Toolsets combining it take (inline.py).
class RemoteTimedMixin:
    limits = Limits(timeout=2)
