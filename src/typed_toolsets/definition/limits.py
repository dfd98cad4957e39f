"""Runtime boundaries applied around every model-facing call."""

from __future__ import annotations

import contextvars
from typing import Final

import attrs

from typed_toolsets._public import public

from .validators import optional_positive_int, optional_positive_seconds, positive_int

__all__ = ["DEFAULT_LIMITS", "Limits", "call_deadline", "set_call_deadline"]


@public
@attrs.frozen
class Limits:
    """Bounds for one tool call, checked before any work scales with the input.

    Set them per toolset (``limits = Limits(...)`` in the class body) or per tool
    (``tool(..., limits=Limits(...))``). A tool's limits replace the toolset's entirely; to
    change one field, use ``attrs.evolve(MyToolset.limits, timeout=5.0)``.

    Attributes:
        max_argument_bytes: Largest accepted input: the UTF-8 length of a JSON text, or of the
            compact JSON encoding of a mapping.
        max_depth: Deepest accepted nesting of containers; the arguments object itself is 1, a
            list inside it 2.
        timeout: Seconds to wait for the tool, or None to wait as long as it takes. A sync tool
            runs in a worker thread that is abandoned (not killed: Python cannot kill a thread)
            at the deadline (a program it started through the built-in toolsets is killed
            then: `call_deadline`); an async tool is cancelled. At most what a thread can wait for
            (``validators.MAX_SECONDS``, about 292 years; 49 days on Windows).
        max_concurrent: The most calls of the tool that run at once, or None for no limit.
            Counted per tool across the process (every instance's proxy of it shares the
            count, renamed copies too; a subclass's tools, inherited or not, count on their
            own). A call beyond it is not queued: once its arguments are accepted, it is
            refused at once with a ``"limit"`` error. A call keeps its place until its method
            has really ended, so a call left running at its deadline (an abandoned thread, or a
            task that ignored its cancellation) still holds one: with a tool that starts a
            program, at most this many of its programs run at any time.
    """

    max_argument_bytes: int = attrs.field(default=1_000_000, validator=positive_int)
    max_depth: int = attrs.field(default=32, validator=positive_int)
    timeout: float | None = attrs.field(default=None, validator=optional_positive_seconds)
    max_concurrent: int | None = attrs.field(default=None, validator=optional_positive_int)


#: The limits used when neither the toolset nor the tool sets any.
DEFAULT_LIMITS = Limits()


_CALL_DEADLINE: Final[contextvars.ContextVar[float | None]] = contextvars.ContextVar(
    "typed_toolsets_call_deadline", default=None
)


def call_deadline() -> float | None:
    """When the call running in this thread stops waiting (`time.monotonic`), or None.

    Set in the worker thread of a call with a `Limits.timeout` (`set_call_deadline`). That
    thread cannot be stopped, so a tool that starts a program (the built-in toolsets) ends the
    program by this time itself rather than let it run on after the caller has given up.
    """
    return _CALL_DEADLINE.get()


def set_call_deadline(deadline: float | None) -> None:
    """Set `call_deadline` for the current thread (a call's worker thread, which it ends with)."""
    _CALL_DEADLINE.set(deadline)
