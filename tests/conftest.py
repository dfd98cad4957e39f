"""Shared fixtures.

``no_leaks`` (security.md appendix C): a test using it must leave no temporary file, no open
file descriptor and no child process behind. The test process becomes a child subreaper
(``PR_SET_CHILD_SUBREAPER``), so a grandchild that escaped its parent is re-parented to us and
shows up in ``/proc/self/task/*/children`` instead of vanishing under init.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

_PR_SET_CHILD_SUBREAPER = 36
_subreaper: list[bool] = []


def _become_subreaper() -> bool:
    if not _subreaper:
        ok = False
        if sys.platform.startswith("linux"):
            with contextlib.suppress(OSError, AttributeError):
                libc = ctypes.CDLL(None, use_errno=True)
                ok = libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
        _subreaper.append(ok)
    return _subreaper[0]


def children() -> set[int]:
    """Pids of this process's live (or zombie) children, over all its threads."""
    found: set[int] = set()
    for task in os.listdir("/proc/self/task"):
        with contextlib.suppress(FileNotFoundError):
            found.update(
                int(pid) for pid in Path(f"/proc/self/task/{task}/children").read_text().split()
            )
    return found


def _reap_adopted(baseline: set[int], grace: float = 1.0) -> set[int]:
    """Reap zombies we inherited as subreaper; return the children still alive after *grace*."""
    end = time.monotonic() + grace
    while True:
        for pid in children() - baseline:
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, os.WNOHANG)
        live = children() - baseline
        if not live or time.monotonic() > end:
            return live
        time.sleep(0.01)


def open_fds() -> set[str]:
    """This process's open file descriptors."""
    return set(os.listdir("/proc/self/fd"))


class LeakProbe:
    """The helpers behind ``no_leaks``, for the tests that check them."""

    children = staticmethod(children)
    open_fds = staticmethod(open_fds)
    become_subreaper = staticmethod(_become_subreaper)
    reap_adopted = staticmethod(_reap_adopted)


@pytest.fixture
def leak_probe() -> LeakProbe:
    """The leak-check helpers (`children`, `open_fds`, `become_subreaper`, `reap_adopted`)."""
    return LeakProbe()


@pytest.fixture
def no_leaks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Fail the test if it leaves a temp file, an fd or a child process; yields the temp dir."""
    if not sys.platform.startswith("linux"):
        pytest.skip("the leak checks read /proc (Linux only)")
    _become_subreaper()
    temp = tmp_path / "tmp"
    temp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    monkeypatch.setenv("TMPDIR", str(temp))
    baseline_children = children()
    fds = open_fds()
    yield temp
    assert sorted(p.name for p in temp.iterdir()) == [], "temporary files leaked"
    leaked_children = _reap_adopted(baseline_children)
    assert leaked_children == set(), f"child processes leaked: {leaked_children}"
    assert open_fds() - fds == set(), "file descriptors leaked"

