"""Shared fixtures and the Hypothesis profiles.

``HYPOTHESIS_PROFILE`` picks a profile: ``ci`` (the default: derandomized and sized to keep the
whole suite well inside a CI run), ``dev`` (random, quick) or ``thorough`` (many more examples).

``no_leaks`` (security.md appendix C): a test using it must leave no temporary file, no open
file descriptor and no child process behind. The test process becomes a child subreaper
(``PR_SET_CHILD_SUBREAPER``), so a grandchild that escaped its parent is re-parented to us and
shows up in ``/proc/self/task/*/children`` instead of vanishing under init.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import shutil
import signal
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    derandomize=True,
    deadline=None,
    max_examples=60,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    print_blob=True,
)
settings.register_profile(
    "dev", deadline=None, max_examples=30, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "thorough",
    deadline=None,
    max_examples=2000,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

# A suite started in the background by a non-interactive shell (`pytest ... &`, nohup) inherits
# SIGINT ignored, which Python then keeps, and so do the programs the tests start: every test of
# Ctrl-C would fail for how the suite was started. Ctrl-C is what they test: it is delivered.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

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


FIXTURES = Path(__file__).resolve().parent / "fixtures"


class FakeGh:
    """Controls the stand-in ``gh`` installed first on PATH (see fixtures/fake_gh.py)."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self._replies: list[dict[str, Any]] = []
        self._default: dict[str, Any] | None = None
        self._save()

    def reply(
        self,
        *when: str,
        stdout: str = "",
        stderr: str = "",
        exit: int = 0,
        **extra: Any,
    ) -> None:
        """Answer runs whose arguments contain every token of *when* (the latest match wins)."""
        entry = {"when": list(when), "stdout": stdout, "stderr": stderr, "exit": exit, **extra}
        self._replies.append(entry)
        self._save()

    def default(self, **reply: Any) -> None:
        """Answer every run that no `reply` matches."""
        self._default = reply
        self._save()

    def _save(self) -> None:
        config: dict[str, Any] = {"replies": self._replies}
        if self._default is not None:
            config["default"] = self._default
        (self.directory / "gh-replies.json").write_text(json.dumps(config))

    def calls(self) -> list[dict[str, Any]]:
        """Every run so far: ``{"argv": [...], "env": {...}}``."""
        log = self.directory / "gh-calls.jsonl"
        if not log.exists():
            return []
        return [json.loads(line) for line in log.read_text().splitlines()]

    def argvs(self) -> list[list[str]]:
        """The argument vectors (without ``gh``) of every run so far."""
        return [call["argv"] for call in self.calls()]


@pytest.fixture
def fake_gh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> FakeGh:
    """A stand-in ``gh`` first on PATH that records its argv and environment."""
    directory = tmp_path / "fake-gh-bin"
    directory.mkdir()
    source = (FIXTURES / "fake_gh.py").read_text()
    script = directory / "gh"
    # -S: no site import; the stand-in needs only the standard library, and starts faster.
    script.write_text(source.replace("#!/usr/bin/env python3", f"#!{sys.executable} -S", 1))
    script.chmod(0o755)
    monkeypatch.setenv("PATH", f"{directory}{os.pathsep}{os.environ.get('PATH', os.defpath)}")
    assert shutil.which("gh") == str(script)
    return FakeGh(directory)


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A directory for target modules; sys.path and sys.modules are restored afterwards."""
    monkeypatch.chdir(tmp_path)
    saved_path = list(sys.path)
    yield tmp_path
    sys.path[:] = saved_path
    # Forget the modules imported from here (not typed_toolsets' own lazily loaded ones).
    for name, module in list(sys.modules.items()):
        if Path(getattr(module, "__file__", None) or "/").is_relative_to(tmp_path):
            del sys.modules[name]
