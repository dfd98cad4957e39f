"""The threads sync tools run in while a server runs: a larger pool of daemon threads.

`ToolProxy.ainvoke` runs a sync tool without a deadline in the event loop's default executor
(``asyncio.to_thread``), unless it is declared ``inline`` (then it runs on the loop); a tool
with a deadline gets a daemon thread of its own from the call
path. The standard default executor does not suit a server on two counts: it has
``min(32, CPUs + 4)`` threads, so on a small machine a handful of slow calls would hold up every
other sync call, and its threads are joined when the interpreter exits, so a call that never
returns would keep the server alive after its client has gone. `DaemonThreads` grows to more
threads, and they are daemons: a call still running at shutdown is abandoned, exactly as a
timed-out call is, never waited for.
"""

from __future__ import annotations

import concurrent.futures
import queue
import threading
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

from typed_toolsets._public import public_in

__all__ = ["DEFAULT_THREADS", "DaemonThreads"]

#: Threads for sync tools while serving: as many slow sync calls can run at once.
DEFAULT_THREADS = 64

_T = TypeVar("_T")
_P = ParamSpec("_P")

_Job = tuple["concurrent.futures.Future[Any]", Callable[..., Any], tuple[Any, ...], dict[str, Any]]


@public_in("typed_toolsets.server")
class DaemonThreads(concurrent.futures.ThreadPoolExecutor):
    """An executor of up to *max_threads* daemon threads, started as calls need them.

    A `ThreadPoolExecutor` only by type, since ``loop.set_default_executor`` requires one: it
    shares none of its machinery, whose threads the interpreter joins at exit. `shutdown`
    starts no new call and never waits for a running one.
    """

    def __init__(self, max_threads: int = DEFAULT_THREADS) -> None:
        if max_threads < 1:
            msg = f"max_threads must be at least 1, got {max_threads}"
            raise ValueError(msg)
        super().__init__(max_workers=max_threads)
        self._limit = max_threads
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._idle = threading.Semaphore(0)
        self._lock = threading.Lock()
        self._started = 0
        self._closed = False

    @property
    def started(self) -> int:
        """How many threads this pool has started (it never starts more than *max_threads*)."""
        return self._started

    def submit(
        self, fn: Callable[_P, _T], /, *args: _P.args, **kwargs: _P.kwargs
    ) -> concurrent.futures.Future[_T]:
        """Run ``fn(*args, **kwargs)`` in a pool thread; a new thread when none is idle."""
        future: concurrent.futures.Future[_T] = concurrent.futures.Future()
        with self._lock:
            if self._closed:
                msg = "cannot run a call: the server's thread pool has shut down"
                raise RuntimeError(msg)
            self._jobs.put((future, fn, args, kwargs))
            if not self._idle.acquire(blocking=False) and self._started < self._limit:
                self._started += 1
                name = f"typed_toolsets serve {self._started}"
                threading.Thread(target=self._work, name=name, daemon=True).start()
        return future

    def _work(self) -> None:
        while True:
            job = self._jobs.get()
            if job is None:
                return
            future, fn, args, kwargs = job
            del job
            if future.set_running_or_notify_cancel():
                try:
                    result = fn(*args, **kwargs)
                except BaseException as exc:  # noqa: BLE001 - handed to whoever awaits the call
                    future.set_exception(exc)
                else:
                    future.set_result(result)
            del future, fn, args, kwargs
            self._idle.release()

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Start no further call; with *cancel_futures*, drop the queued ones.

        Never waits for a call that is running (whatever *wait* says): its daemon thread ends
        with the call or with the process.
        """
        with self._lock:
            self._closed = True
            if cancel_futures:
                while True:
                    try:
                        job = self._jobs.get_nowait()
                    except queue.Empty:
                        break
                    if job is not None:
                        job[0].cancel()
            for _ in range(self._started):
                self._jobs.put(None)
