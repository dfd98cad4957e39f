import attrs

from typed_toolsets import Toolset, tool

from remote_base import RemoteNeedsDb


@attrs.define
class NeedsDb(Toolset):
    db_url: str
    retries: int = 3

    @tool
    def query(self, *, sql: str) -> int:
        return len(sql)


@attrs.define
class HasDefaults(Toolset):
    db_url: str = "sqlite://"

    @tool
    def query(self, *, sql: str) -> int:
        return len(sql)


@attrs.define
class StillNeedsDb(HasDefaults):
    token: str = attrs.field(kw_only=True)


@attrs.define
class Private(Toolset):
    _key: str


class Stateless(Toolset):
    @tool
    def ping(self) -> str:
        return "pong"


NeedsDb.to_tools()  # E: NeedsDb: NeedsDb.to_tools() calls NeedsDb() with no arguments, but the constructor needs 'db_url'; give each a default, or call to_tools() on an instance  [toolset-init]
NeedsDb(db_url="x").to_tools()
HasDefaults.to_tools()
StillNeedsDb.to_tools()  # E: StillNeedsDb: StillNeedsDb.to_tools() calls StillNeedsDb() with no arguments, but the constructor needs 'token'; give each a default, or call to_tools() on an instance  [toolset-init]
Private.to_tools()  # E: Private: Private.to_tools() calls Private() with no arguments, but the constructor needs 'key'; give each a default, or call to_tools() on an instance  [toolset-init]
Stateless.to_tools()
Stateless().to_tools()
RemoteNeedsDb.to_tools()  # E: RemoteNeedsDb: RemoteNeedsDb.to_tools() calls RemoteNeedsDb() with no arguments, but the constructor needs 'db_url'; give each a default, or call to_tools() on an instance  [toolset-init]
build = NeedsDb.to_tools  # E: NeedsDb: NeedsDb.to_tools() calls NeedsDb() with no arguments, but the constructor needs 'db_url'; give each a default, or call to_tools() on an instance  [toolset-init]


def make(kind: type[HasDefaults], instance: NeedsDb) -> None:
    kind.to_tools()
    instance.to_tools()
    type(instance).to_tools()  # E: NeedsDb: NeedsDb.to_tools() calls NeedsDb() with no arguments, but the constructor needs 'db_url'; give each a default, or call to_tools() on an instance  [toolset-init]
