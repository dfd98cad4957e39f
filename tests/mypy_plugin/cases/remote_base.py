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


# Not a Toolset: a mixin whose parameters mypy leaves unnamed (signature.py). Its body is gone
# once it comes from mypy's cache; the names are recorded with it.
class RemoteLegacyMixin:
    def legacy(self, task_id: str, /) -> str:
        return task_id

    # No positional-only parameter to Python: it is mangled to `_RemoteLegacyMixin__key`.
    def old_style(self, __key: str) -> str:
        return __key
