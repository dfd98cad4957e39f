"""`typed_toolsets._ending`: what a call leaves running outside the process, ended with it."""

from __future__ import annotations

import atexit

import pytest

from typed_toolsets import _ending


def test_each_ending_runs_once_per_end_in_order_whatever_one_raises(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(_ending, "_endings", [])
    registered: list[object] = []
    monkeypatch.setattr(atexit, "register", registered.append)
    ran: list[str] = []

    def failing() -> None:
        ran.append("failing")
        raise OSError("the group is gone")

    def second() -> None:
        ran.append("second")

    _ending.at_end(failing)
    _ending.at_end(second)
    _ending.at_end(failing)  # once only
    assert registered == [_ending.end_all]  # with the first ending, once
    _ending.end_all()
    assert ran == ["failing", "second"]
    _ending.end_all()  # the process may be ended twice over (a second signal)
    assert ran == ["failing", "second"] * 2
