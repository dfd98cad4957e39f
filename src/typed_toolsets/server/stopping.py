"""How long a stopping server waits for calls that ignore their cancellation, and how it ends.

A stopping server cancels the calls still running, then waits for them: the SDK's task groups,
and asyncio's own ending after them, wait for every task. A tool that swallows its cancellation
(a retry loop catching ``BaseException``) would keep the process alive for as long as it runs,
forever for some, whatever the client or the supervisor asked. In a process that serves and
does nothing else (``typed-toolsets serve`` run as the program, and each of its ``--workers``;
not ``main(["serve", ...])`` called from other code), a stop starts a watchdog: when the stop
is not over within `STOP_GRACE`, it logs so and ends the process the way the stop asked for
(status 0, or by the signal). A host's process (an app that mounts the server, a script calling
`typed_toolsets.server.serve`) is the host's to end: there the stop waits, as before.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import sys
import threading
import time
from typing import Final

from typed_toolsets import _ending
from typed_toolsets.call.execution import CANCEL_GRACE

__all__ = ["STOP_GRACE", "Watchdog", "stop_ends_process", "watchdog"]

#: How long a stop waits for its cancelled calls before it ends the process without them (the
#: grace a call's own deadline gives a cancelled task).
STOP_GRACE: Final = CANCEL_GRACE

# How long the main thread gets to act on the signal sent again before the process is ended.
_SECOND_SIGNAL_WAIT: Final = 1.0

# Set once in the processes ``typed-toolsets serve`` serves in (see `stop_ends_process`).
_ends_process = False


def stop_ends_process() -> None:
    """Let a stop that leaves calls running end this process (the server's own processes only)."""
    global _ends_process  # one switch per process, set before serving
    _ends_process = True


class Watchdog:
    """Ends the process `STOP_GRACE` after a stop began, unless `cancel` is called first.

    Args:
        by_signal: End the process by this signal (its default handling), as the stop was
            asked for; None ends it with status 0, a clean stop's.
    """

    def __init__(self, by_signal: signal.Signals | None = None) -> None:
        self._by_signal = by_signal
        self._timer = threading.Timer(STOP_GRACE, self._end)
        self._timer.daemon = True  # never what keeps the interpreter waiting
        self._timer.start()

    def cancel(self) -> None:
        """The stop is over: the process ends on its own."""
        self._timer.cancel()

    def _end(self) -> None:
        # Imported here: this module loads before the package has checked for the MCP SDK.
        from .protocol import logger

        logger.error(
            "calls still running did not stop within %s s of their cancellation; "
            "the process ends without them",
            STOP_GRACE,
        )
        _ending.end_all()  # the interpreter does not exit: what it would end at exit, now
        logging.shutdown()  # writes out every handler's buffer
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):
                if stream is not None:
                    stream.flush()
        if self._by_signal is None:
            os._exit(0)
        # Signal handlers are set in the main thread only: the signal again takes the stop's
        # second-signal path there, which ends the process by it (see `_sigint`).
        os.kill(os.getpid(), self._by_signal)
        time.sleep(_SECOND_SIGNAL_WAIT)
        os._exit(128 + self._by_signal)  # a shell's status for the signal


def watchdog(by_signal: signal.Signals | None = None) -> Watchdog | None:
    """A `Watchdog` for a stop beginning now, in the server's own processes; None elsewhere."""
    return Watchdog(by_signal) if _ends_process else None
