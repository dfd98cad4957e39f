"""`typed_toolsets.server.DaemonThreads`: the worker threads of sync tools, never waited for at exit."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest

from typed_toolsets.server import DaemonThreads

BOUND = 60.0


@pytest.fixture
def pool() -> Iterator[DaemonThreads]:
    threads = DaemonThreads(4)
    yield threads
    threads.shutdown(cancel_futures=True)


def test_daemon_threads_run_calls_in_daemon_threads(pool: DaemonThreads) -> None:
    seen = pool.submit(lambda: (threading.current_thread().daemon, threading.get_ident()))
    daemon, ident = seen.result(BOUND)
    assert daemon is True
    assert ident != threading.get_ident()
    failing = pool.submit(int, "x")
    with pytest.raises(ValueError, match="invalid literal"):
        failing.result(BOUND)


def test_daemon_threads_grow_to_their_limit_and_are_reused(pool: DaemonThreads) -> None:
    release = threading.Event()
    blocked = [pool.submit(release.wait, BOUND) for _ in range(6)]
    time.sleep(0.2)
    assert pool.started == 4  # never more than the limit: the other two wait their turn
    assert sum(f.running() for f in blocked) == 4
    release.set()
    assert all(f.result(BOUND) for f in blocked)
    for _ in range(10):
        pool.submit(time.sleep, 0).result(BOUND)
    assert pool.started == 4  # idle threads took the later calls


def test_shutting_down_never_waits_for_a_running_call() -> None:
    threads = DaemonThreads(1)
    release = threading.Event()
    running = threads.submit(release.wait, BOUND)
    queued = threads.submit(time.sleep, 0)
    time.sleep(0.1)
    started = time.monotonic()
    threads.shutdown(wait=True, cancel_futures=True)
    assert time.monotonic() - started < 1.0
    assert queued.cancelled()
    with pytest.raises(RuntimeError, match="shut down"):
        threads.submit(time.sleep, 0)
    release.set()
    assert running.result(BOUND) is True
    with pytest.raises(ValueError, match="at least 1"):
        DaemonThreads(0)
