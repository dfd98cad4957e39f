# mypy: disable-error-code="empty-body"
from typing import Final

import attrs

from remote_base import RemoteTimedMixin

import typed_toolsets as tt
from typed_toolsets import Limits, Toolset, tool

SLOW: Final = 2.5
FAST: Final = True


class Inline(Toolset):
    limits = Limits(max_depth=8)
    exports = (
        tool("lookup", inline=True),
        tool("waits", inline=True, limits=Limits(timeout=SLOW)),  # E: Inline.waits: inline=True runs 'waits' on the event loop, where it cannot be stopped at a deadline, but its limits set timeout=2.5; remove inline=True (it then runs in a worker thread), or give the tool limits without one (tool(..., limits=attrs.evolve(Inline.limits, timeout=None)))  [toolset-inline]
        tool("unbounded", inline=FAST, limits=Limits(1000, 8, None)),
        # `max_concurrent`, the fourth field, sets no deadline: read by keyword or position.
        tool("capped", inline=True, limits=Limits(1000, 8, None, 2)),
        tool("counted", inline=True, limits=Limits(max_concurrent=2)),
        tool("capped_slow", inline=True, limits=Limits(1000, 8, SLOW, 2)),  # E: Inline.capped_slow: inline=True runs 'capped_slow' on the event loop, where it cannot be stopped at a deadline, but its limits set timeout=2.5; remove inline=True (it then runs in a worker thread), or give the tool limits without one (tool(..., limits=attrs.evolve(Inline.limits, timeout=None)))  [toolset-inline]
        tool("threaded", inline=False, limits=Limits(timeout=3)),
        tool("evolved", inline=True, limits=attrs.evolve(Toolset.limits)),  # E: Inline.evolved: whether 'evolved' may run inline cannot be checked statically (attrs.evolve(...) is not True or False, nor Limits(...) with a literal timeout); write literals there, or check the class with `typed-toolsets check`  [toolset-unchecked]
    )

    def lookup(self, *, key: str) -> str:
        return key

    def waits(self) -> None: ...
    def unbounded(self) -> None: ...
    def capped(self) -> None: ...
    def counted(self) -> None: ...
    def capped_slow(self) -> None: ...
    def threaded(self) -> None: ...
    def evolved(self) -> None: ...

    @tool(inline=True)  # E: Inline.fetch: 'fetch' is an async def, which always runs on the event loop; inline=True is only for sync methods, remove it  [toolset-inline]
    async def fetch(self, *, url: str) -> str:
        return url


class Bounded(Toolset):
    limits = Limits(timeout=5)

    @tool(inline=True)  # E: Bounded.quick: inline=True runs 'quick' on the event loop, where it cannot be stopped at a deadline, but its limits set timeout=5; remove inline=True (it then runs in a worker thread), or give the tool limits without one (tool(..., limits=attrs.evolve(Bounded.limits, timeout=None)))  [toolset-inline]
    def quick(self) -> int:
        return 1

    @tool(inline=True, limits=Limits(timeout=None))
    def freed(self) -> int:
        return 1


class Base(Toolset):
    @tool(inline=True)
    def quick(self) -> int:
        return 1


class Slow(Base):  # E: Slow.quick: inline=True runs 'quick' on the event loop, where it cannot be stopped at a deadline, but its limits set timeout=1; remove inline=True (it then runs in a worker thread), or give the tool limits without one (tool(..., limits=attrs.evolve(Slow.limits, timeout=None)))  [toolset-inline]  # N: Slow inherits the declaration of 'quick' from Base (line 58 of inline)
    limits = Limits(timeout=1)


# Classes that are not Toolsets (mixins) give their limits to the Toolsets combining them.
class SlowMixin:
    limits = Limits(timeout=5.0)


class FreeMixin:
    limits = tt.Limits(timeout=None)


class Mixed(SlowMixin, Toolset):
    @tool(inline=True)  # E: Mixed.quick: inline=True runs 'quick' on the event loop, where it cannot be stopped at a deadline, but its limits set timeout=5.0; remove inline=True (it then runs in a worker thread), or give the tool limits without one (tool(..., limits=attrs.evolve(Mixed.limits, timeout=None)))  [toolset-inline]
    def quick(self) -> int:
        return 1


class MixedFree(FreeMixin, Toolset):
    exports = (tool("quick", inline=True),)

    def quick(self) -> int:
        return 1


class MixedRemote(RemoteTimedMixin, Toolset):
    exports = (tool("quick", inline=True),)  # E: MixedRemote.quick: inline=True runs 'quick' on the event loop, where it cannot be stopped at a deadline, but its limits set timeout=2; remove inline=True (it then runs in a worker thread), or give the tool limits without one (tool(..., limits=attrs.evolve(MixedRemote.limits, timeout=None)))  [toolset-inline]

    def quick(self) -> int:
        return 1


class Uploads(Toolset):
    # The run time told only the parameter's problem when the method had one.
    @tool(inline=True)  # E: Uploads.upload: 'upload' is an async def, which always runs on the event loop; inline=True is only for sync methods, remove it  [toolset-inline]
    async def upload(self, *, data: bytes) -> str:  # E: Uploads.upload: parameter 'data' has type bytes, which has no JSON Schema (bytes cannot be sent as JSON; use str (for example base64 text))  [toolset-param-type]
        return ""
