"""The leak-check helpers of conftest.py detect what they claim to (they guard every tool test)."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from typing import Any

import pytest

if not sys.platform.startswith("linux"):
    pytest.skip("the leak checks read /proc (Linux only)", allow_module_level=True)


def test_a_stray_child_is_seen_and_then_gone(leak_probe: Any) -> None:
    children = leak_probe.children
    before = children()
    stray = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        assert stray.pid in children() - before
    finally:
        stray.kill()
        stray.wait()
    assert stray.pid not in children()


def test_an_escaped_grandchild_is_adopted_as_subreaper(leak_probe: Any) -> None:
    children = leak_probe.children
    assert leak_probe.become_subreaper()
    before = children()
    # The middle process exits at once; its child leaves the session and would go to init.
    escapee = "import os, time; os.setsid(); time.sleep(30)"
    spawner = f"import subprocess, sys; subprocess.Popen([sys.executable, '-c', {escapee!r}])"
    middle = subprocess.run([sys.executable, "-c", spawner], check=True)
    assert middle.returncode == 0
    deadline = time.monotonic() + 2
    adopted: set[int] = set()
    while not adopted and time.monotonic() < deadline:
        adopted = children() - before
        time.sleep(0.01)
    assert adopted, "the orphan was not re-parented to the test process"
    for pid in adopted:
        os.kill(pid, 9)
    assert leak_probe.reap_adopted(before) == set()


def test_an_open_fd_is_seen(leak_probe: Any) -> None:
    open_fds = leak_probe.open_fds
    fds = open_fds()
    handle, name = tempfile.mkstemp()
    try:
        assert open_fds() - fds
    finally:
        os.close(handle)
        os.unlink(name)
    assert open_fds() - fds == set()
