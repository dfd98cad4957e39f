import abc
import dataclasses
from typing import Protocol

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


class HandWritten(Toolset):
    def __init__(self, db_url: str, *, retries: int, verbose: bool = False) -> None:
        self.db_url = db_url

    @tool
    def ping(self) -> str:
        return "pong"


class OverAttrs(HasDefaults):
    def __init__(self, db_url: str) -> None:
        super().__init__(db_url)


@dataclasses.dataclass
class Data(Toolset):
    db_url: str
    timeout: float = 1.0

    @tool
    def ping(self) -> str:
        return "pong"


class Abstract(Toolset, abc.ABC):
    @abc.abstractmethod
    def connect(self) -> str: ...

    @tool
    def ping(self) -> str:
        return self.connect()


class Concrete(Abstract):
    def connect(self) -> str:
        return "pong"


class AbstractWithoutABC(Toolset):
    # Without ABCMeta, Python builds it anyway: nothing to report.
    @abc.abstractmethod
    def connect(self) -> str: ...

    @tool
    def ping(self) -> str:
        return "pong"


class Finder(Protocol):
    def find(self, *, q: str) -> str: ...

    def count(self) -> int: ...


class FromProtocol(Toolset, Finder):
    # Only explicitly abstract methods stop Python; these bodies are abstract to mypy alone.
    @tool
    def find(self, *, q: str) -> str:
        return q


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
HandWritten.to_tools()  # E: HandWritten: HandWritten.to_tools() calls HandWritten() with no arguments, but the constructor needs 'db_url', 'retries'; give each a default, or call to_tools() on an instance  [toolset-init]
OverAttrs.to_tools()  # E: OverAttrs: OverAttrs.to_tools() calls OverAttrs() with no arguments, but the constructor needs 'db_url'; give each a default, or call to_tools() on an instance  [toolset-init]
Data.to_tools()  # E: Data: Data.to_tools() calls Data() with no arguments, but the constructor needs 'db_url'; give each a default, or call to_tools() on an instance  [toolset-init]
Abstract.to_tools()  # E: Abstract: Abstract.to_tools() calls Abstract(), but Abstract is abstract (it does not implement 'connect'); implement them, or call to_tools() on a concrete subclass  [toolset-init]
Concrete.to_tools()
FromProtocol.to_tools()
AbstractWithoutABC.to_tools()
RemoteNeedsDb.to_tools()  # E: RemoteNeedsDb: RemoteNeedsDb.to_tools() calls RemoteNeedsDb() with no arguments, but the constructor needs 'db_url'; give each a default, or call to_tools() on an instance  [toolset-init]
build = NeedsDb.to_tools  # E: NeedsDb: NeedsDb.to_tools() calls NeedsDb() with no arguments, but the constructor needs 'db_url'; give each a default, or call to_tools() on an instance  [toolset-init]


def make(kind: type[HasDefaults], instance: NeedsDb) -> None:
    kind.to_tools()
    instance.to_tools()
    type(instance).to_tools()  # E: NeedsDb: NeedsDb.to_tools() calls NeedsDb() with no arguments, but the constructor needs 'db_url'; give each a default, or call to_tools() on an instance  [toolset-init]


class SelfCounting(Toolset, abc.ABC):
    # A `type[...]` of an abstract class holds a concrete subclass: mypy lets `cls()` build it.
    @abc.abstractmethod
    def connect(self) -> str: ...

    @tool
    def ping(self) -> str:
        return self.connect()

    @classmethod
    def count(cls) -> int:
        return len(cls.to_tools())

    def again(self) -> int:
        return len(type(self).to_tools())


def count_any(kind: type[Abstract]) -> int:
    return len(kind.to_tools())


# The class itself, by another name: still the abstract class.
AbstractAlias = Abstract
held = Abstract
AbstractAlias.to_tools()  # E: Abstract: Abstract.to_tools() calls Abstract(), but Abstract is abstract (it does not implement 'connect'); implement them, or call to_tools() on a concrete subclass  [toolset-init]
held.to_tools()  # E: Abstract: Abstract.to_tools() calls Abstract(), but Abstract is abstract (it does not implement 'connect'); implement them, or call to_tools() on a concrete subclass  [toolset-init]
