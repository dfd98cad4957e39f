"""How many calls of one tool run at once: `Limits.max_concurrent`, counted per tool.

`typed_toolsets.call.pipeline` takes a `Place` for each call of a tool with a limit once its
arguments are accepted, refusing the call when none is left, and hands the method wrapped by
`Place.held` to its usual route. The place is given back when the method has really ended,
wherever it ran: in the caller's thread, in a worker thread left running at its deadline, or in
a task that ignored its cancellation (a tool's program then still runs, and still counts). A
call that ends before its method starts (refused on the way, or left at its deadline before its
thread got to run it) gives its place back as it ends, and the method is then not run.
"""

from __future__ import annotations

import functools
import threading
import weakref
from collections.abc import Callable
from typing import Any, Final

from .execution import awaitable, not_started_error
from .result import ToolError

__all__ = ["Place", "Slots"]

# A place's states: taken by a call, held by its running method, given back.
_TAKEN: Final = 0
_ENTERED: Final = 1
_GIVEN: Final = 2


class Slots:
    """The places of one tool's calls: at most `limit` taken at once (thread-safe)."""

    __slots__ = ("limit", "lock", "taken")

    def __init__(self, limit: int) -> None:
        #: `Limits.max_concurrent`.
        self.limit = limit
        #: How many calls hold a place now; changed holding `lock`.
        self.taken = 0
        self.lock = threading.Lock()

    def take(self, name: str) -> Place | ToolError:
        """A place for a call of the tool *name*, or its ``"limit"`` error when all are taken.

        *name* is the name it was called by: a renamed copy of the tool counts here too.
        """
        with self.lock:
            if self.taken >= self.limit:
                return self._refusal(name)
            self.taken += 1
        return Place(self)

    def refusal(self, name: str) -> ToolError | None:
        """The ``"limit"`` error a call of *name* would get now (all places taken), else None."""
        return self._refusal(name) if self.taken >= self.limit else None

    def _refusal(self, name: str) -> ToolError:
        calls = "1 call" if self.limit == 1 else f"{self.limit} calls"
        reason = (
            f"it is already running {calls} (Limits.max_concurrent={self.limit}), the most it "
            "runs at once; wait for one of them to end, then call again"
        )
        return not_started_error(name, reason)


class Place:
    """One call's place in its tool's `Slots`, given back exactly once."""

    __slots__ = ("_slots", "_state")

    def __init__(self, slots: Slots) -> None:
        self._slots = slots
        self._state = _TAKEN

    def enter(self) -> bool:
        """Note that the method starts; False when the call already gave its place back."""
        with self._slots.lock:
            if self._state != _TAKEN:
                return False
            self._state = _ENTERED
            return True

    def give(self) -> None:
        """Give the place back (the method ended), unless it is already."""
        with self._slots.lock:
            if self._state != _GIVEN:
                self._state = _GIVEN
                self._slots.taken -= 1

    def end_call(self) -> None:
        """The call ends: give the place back unless the method started (it gives it then)."""
        with self._slots.lock:
            if self._state == _TAKEN:
                self._state = _GIVEN
                self._slots.taken -= 1

    def held(
        self, bound: Callable[..., Any], *, is_async: bool, wrapper: bool
    ) -> Callable[..., Any]:
        """*bound* (the method) holding this place while it runs, called as *bound* is.

        Args:
            bound: The method.
            is_async: It is an ``async def`` (or a sync wrapper of one).
            wrapper: It is a plain ``def`` returning the coroutine of an ``async def``.
        """
        held = self._wrapped if wrapper else self._awaited if is_async else self._called
        return functools.partial(held, bound)

    # *bound* before ``/``: a tool may have a parameter of any name.
    def _called(self, bound: Callable[..., Any], /, **kwargs: object) -> object:
        if not self.enter():
            return None  # the call ended before its thread ran it: nobody waits for a value
        try:
            return bound(**kwargs)
        finally:
            self.give()

    async def _awaited(self, bound: Callable[..., Any], /, **kwargs: object) -> object:
        # An async def, so the place is entered when the coroutine starts: one never started
        # (its task cancelled first) leaves it to the call's end.
        if not self.enter():
            return None
        try:
            return await bound(**kwargs)
        finally:
            self.give()

    def _wrapped(self, bound: Callable[..., Any], /, **kwargs: object) -> object:
        if not self.enter():
            return None
        try:
            value = bound(**kwargs)
        except BaseException:
            self.give()
            raise
        if not awaitable(value):
            self.give()
            return value
        coroutine = self._finish(value)
        # Closed unawaited when its caller was cancelled, its ``finally`` never runs: the place
        # is given back (and the method's coroutine closed, as it would have been) once it goes.
        weakref.finalize(coroutine, self._dropped, value)
        return coroutine

    def _dropped(self, value: object) -> None:
        import inspect  # only for such wrappers

        if inspect.iscoroutine(value):
            value.close()  # never started, so no code of it runs; a no-op once it ended
        self.give()

    async def _finish(self, value: Any) -> object:
        try:
            return await value
        finally:
            self.give()
