"""Work a call leaves running outside the process, ended when the process ends.

A built-in toolset's program runs in a process group of its own (no signal to the caller's group
reaches it), and the thread that started it kills that group at the call's deadline. When the
process ends first, that kill never comes: a server's stop leaves the call's thread (a daemon)
behind, a stop that takes too long ends the process with ``os._exit``, SIGTERM ends
``typed-toolsets call`` where it stands. The program then runs on with no deadline at all.

So whoever starts such work registers how to end it (`at_end`), and `end_all` runs those
endings: at the interpreter's exit (`atexit`, registered with the first ending), and where a
stop ends the process without an exit of the interpreter (the server's watchdog, a signal's
default handling, the command line's SIGTERM).

Standard library only, importing nothing of the package: usable from every layer.
"""

from __future__ import annotations

import atexit
import contextlib
import threading
from collections.abc import Callable
from typing import Final

__all__ = ["at_end", "end_all"]

_endings: Final[list[Callable[[], None]]] = []
_lock: Final = threading.Lock()


def at_end(ending: Callable[[], None]) -> None:
    """Have *ending* run once the process ends (`end_all`); each function is registered once.

    It must be quick, safe to run from a signal handler in the main thread (so re-entrant with
    whatever that thread was doing) and from any thread, more than once.
    """
    with _lock:
        if ending in _endings:
            return
        if not _endings:
            atexit.register(end_all)
        _endings.append(ending)


def end_all() -> None:
    """Run every registered ending, in order; never raises an `Exception` (the process ends)."""
    for ending in tuple(_endings):
        with contextlib.suppress(Exception):
            ending()
