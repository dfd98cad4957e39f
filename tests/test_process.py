"""The bounded process runner: deadlines, output caps, group kills, faithful exit status.

Requirement IDs (security.md section 7) are in the test names: DL-1..DL-4, OUT-1, OUT-2.
The sleeping children use odd durations so that a survivor can be recognised in /proc.
"""

from __future__ import annotations

import asyncio
import os
import resource
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from typed_toolsets.builtins import process as _process
from typed_toolsets.builtins.process import run_bounded

ENV = {"PATH": os.environ.get("PATH", os.defpath), "LC_ALL": "C.UTF-8"}
SH = shutil.which("sh") or "/bin/sh"

pytestmark = pytest.mark.usefixtures("no_leaks")


def _sleep(tag: int) -> str:
    """A ``sleep`` of about a minute whose command line is unique to this test and process."""
    return f"sleep 60.{tag:02d}{os.getpid()}"


def _processes_running(needle: str, grace: float = 1.0) -> list[int]:
    """Live processes whose command line contains *needle*, after SIGKILL had *grace* to land."""
    end = time.monotonic() + grace
    while True:
        found = _scan(needle)
        if not found or time.monotonic() > end:
            return found
        time.sleep(0.01)


def _scan(needle: str) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ")
            state = Path(f"/proc/{entry}/stat").read_text().split(") ", 1)[1][0]
        except (FileNotFoundError, ProcessLookupError, IndexError):
            continue
        if needle.encode() in cmdline and state != "Z":
            found.append(int(entry))
    return found


def test_exit_status_and_output() -> None:
    result = run_bounded([SH, "-c", "printf out; printf err >&2; exit 3"], env=ENV)
    assert (result.returncode, result.stdout, result.stderr) == (3, b"out", b"err")
    assert result.ended_by == "exit"
    assert not result.truncated


def test_stdin_is_fed_and_closed() -> None:
    data = b"line\n" * 400_000  # 2 MB: far more than one pipe buffer
    result = run_bounded(["wc", "-c"], env=ENV, input_bytes=data)
    assert result.stdout.strip() == str(len(data)).encode()
    assert result.returncode == 0


def test_no_input_means_dev_null() -> None:
    result = run_bounded(["cat"], env=ENV, timeout=5)
    assert (result.returncode, result.stdout, result.ended_by) == (0, b"", "exit")


def test_environment_is_exactly_what_was_given() -> None:
    result = run_bounded(["env"], env={"PATH": ENV["PATH"], "ONLY": "this"})
    assert sorted(result.stdout.decode().splitlines()) == sorted(
        [f"PATH={ENV['PATH']}", "ONLY=this"]
    )


def test_child_leads_its_own_session_and_group() -> None:
    result = run_bounded([SH, "-c", "echo $$; cat /proc/$$/stat"], env=ENV)
    pid, stat = result.stdout.decode().splitlines()
    _state, _ppid, group, session = stat.split(") ", 1)[1].split()[:4]
    assert (group, session) == (pid, pid)
    assert int(session) != os.getsid(0)


def test_OUT_1_output_cap_stops_a_flood() -> None:
    started = time.monotonic()
    result = run_bounded(["yes"], env=ENV, max_output_bytes=256 * 1024)
    assert result.ended_by == "output_cap"
    assert result.truncated
    assert len(result.stdout) == 256 * 1024
    assert result.returncode == -signal.SIGKILL
    assert time.monotonic() - started < 1.0


def test_OUT_1_cap_counts_stdout_and_stderr_together() -> None:
    script = "head -c 600000 /dev/zero; head -c 600000 /dev/zero >&2; sleep 7.31"
    result = run_bounded([SH, "-c", script], env=ENV, max_output_bytes=1_000_000, timeout=5)
    assert result.ended_by == "output_cap"
    assert len(result.stdout) + len(result.stderr) == 1_000_000


def test_OUT_2_stderr_first_does_not_deadlock() -> None:
    started = time.monotonic()
    script = "head -c 1048576 /dev/zero >&2; echo out"
    result = run_bounded([SH, "-c", script], env=ENV, max_output_bytes=4 << 20, timeout=5)
    assert (result.ended_by, result.stdout, len(result.stderr)) == ("exit", b"out\n", 1 << 20)
    assert time.monotonic() - started < 1.0


def test_OUT_2_both_pipes_flooding() -> None:
    started = time.monotonic()
    result = run_bounded([SH, "-c", "yes err >&2 & yes out"], env=ENV, max_output_bytes=1 << 20)
    assert result.ended_by == "output_cap"
    assert len(result.stdout) + len(result.stderr) == 1 << 20
    assert time.monotonic() - started < 1.0


def test_DL_1_deadline_kills_the_whole_group() -> None:
    started = time.monotonic()
    result = run_bounded([SH, "-c", f"{_sleep(11)} & {_sleep(11)} & wait"], env=ENV, timeout=1.0)
    elapsed = time.monotonic() - started
    assert result.ended_by == "deadline"
    assert result.returncode == -signal.SIGKILL
    assert 1.0 <= elapsed < 1.5
    assert _processes_running(_sleep(11)) == []


def test_DL_1_keyboard_interrupt_kills_the_group_and_propagates() -> None:
    main = threading.main_thread().ident
    assert main == threading.get_ident()
    timer = threading.Timer(0.3, signal.pthread_kill, (main, signal.SIGINT))
    started = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            run_bounded([SH, "-c", f"{_sleep(12)} & {_sleep(12)} & wait"], env=ENV, timeout=30)
    finally:
        timer.cancel()
    assert time.monotonic() - started < 1.5
    assert _processes_running(_sleep(12)) == []


def _run_in_a_thread(
    tag: int, timeout: float
) -> tuple[threading.Thread, list[_process.ProcessResult]]:
    """A run of `_sleep` (*tag*) in a daemon thread, as a call runs it, once the sleep runs.

    The thread's result goes in the list when the run ends.
    """
    results: list[_process.ProcessResult] = []
    argv = [SH, "-c", f"{_sleep(tag)} & wait"]
    thread = threading.Thread(
        target=lambda: results.append(run_bounded(argv, env=ENV, timeout=timeout)), daemon=True
    )
    thread.start()
    end = time.monotonic() + 10
    while not _scan(_sleep(tag)) and time.monotonic() < end:
        time.sleep(0.01)
    return thread, results


def test_DL_1_programs_still_running_when_the_process_ends_are_killed() -> None:
    # Their thread kills them at the deadline; when the process ends first (a server's stop
    # leaving the call's daemon thread, its watchdog's os._exit, SIGTERM to the command line),
    # that kill never came and the program ran on with no deadline at all.
    from typed_toolsets import _ending

    thread, results = _run_in_a_thread(41, timeout=60)
    assert _scan(_sleep(41)) != []
    _ending.end_all()
    assert _processes_running(_sleep(41)) == []
    thread.join(10)
    assert [result.returncode for result in results] == [-signal.SIGKILL]
    assert _process._running == set()  # pyright: ignore[reportPrivateUsage]


def test_DL_1_programs_still_running_at_the_interpreter_s_exit_are_killed() -> None:
    # An interpreter exits with daemon threads in the middle of a call: its program is killed.
    code = "\n".join(
        [
            "import threading, time",
            "from typed_toolsets.builtins import process",
            f"argv = [{SH!r}, '-c', {_sleep(42) + ' & wait'!r}]",
            f"call = lambda: process.run_bounded(argv, env={ENV!r}, timeout=60)",
            "threading.Thread(target=call, daemon=True).start()",
            "end = time.monotonic() + 10",
            "while not process._running and time.monotonic() < end:",
            "    time.sleep(0.01)",
            "time.sleep(0.2)",
        ]
    )
    try:
        done = subprocess.run([sys.executable, "-c", code], timeout=60, check=False)
        assert done.returncode == 0
        assert _processes_running(_sleep(42)) == []
    finally:
        for pid in _scan(_sleep(42)):
            os.kill(pid, signal.SIGKILL)


@pytest.mark.skipif(not hasattr(resource, "prlimit"), reason="prlimit is Linux-only")
def test_DL_1_a_program_its_process_could_not_kill_is_ended_by_its_cpu_cap() -> None:
    # A host killed by a SIGTERM it did not handle (a library's host, by default) runs nothing
    # at its end: its grep ran on with no deadline, spinning on a backtracking pattern for as
    # long as it took. Its CPU time is capped at its deadline on each CPU the host may use, and
    # a second: here one CPU and a deadline of 2 s, so the kernel ends it after 3 s of CPU.
    spin = f"while True: pass  # spin-{os.getpid()}"
    code = "\n".join(
        [
            "import os, sys",
            "os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})",
            "from typed_toolsets.builtins import process",
            # Written in two parts: the host's own command line must not hold the program's.
            f"spin = 'while True: pass  # spin-' + '{os.getpid()}'",
            f"process.run_bounded([sys.executable, '-c', spin], env={ENV!r}, timeout=2)",
        ]
    )
    host = subprocess.Popen([sys.executable, "-c", code])
    try:
        end = time.monotonic() + 20
        while not _scan(spin) and time.monotonic() < end:
            time.sleep(0.01)
        assert _scan(spin) != []
        host.send_signal(signal.SIGTERM)
        assert host.wait(10) == -signal.SIGTERM
        assert _scan(spin) != []  # left running: nothing killed it at its host's end
        assert _processes_running(spin, grace=15) == []
    finally:
        if host.poll() is None:
            host.kill()
            host.wait(10)
        for pid in _scan(spin):
            os.kill(pid, signal.SIGKILL)


@pytest.mark.skipif(not hasattr(resource, "prlimit"), reason="prlimit is Linux-only")
def test_the_cpu_cap_never_raises_a_lower_limit_the_host_set() -> None:
    show = "import resource; print(*resource.getrlimit(resource.RLIMIT_CPU))"
    script = f"ulimit -t 5; exec {sys.executable} -c '{show}'"
    assert run_bounded([SH, "-c", script], env=ENV, timeout=60).stdout.split() == [b"5", b"5"]
    # Without one: the deadline on each CPU, and a second (SIGKILL a second after SIGXCPU).
    result = run_bounded([sys.executable, "-c", show], env=ENV, timeout=2.5)
    cpus = len(os.sched_getaffinity(0))
    assert result.stdout.split() == [str(3 * cpus + 1).encode(), str(3 * cpus + 2).encode()]


@pytest.mark.skipif(not hasattr(resource, "prlimit"), reason="prlimit is Linux-only")
def test_a_cpu_cap_the_system_refuses_leaves_the_program_running(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A host whose real and effective users differ may not set another process's limits:
    # every run failed with PermissionError, gh's included (it had no cap to set before).
    prlimit = resource.prlimit

    def refusing(pid: int, limit: int, *new: tuple[int, int]) -> tuple[int, int]:
        if limit in (resource.RLIMIT_CPU, resource.RLIMIT_CORE):
            raise PermissionError(1, "Operation not permitted")
        return prlimit(pid, limit, *new)

    monkeypatch.setattr(resource, "prlimit", refusing)
    result = run_bounded([sys.executable, "-c", "print('ran')"], env=ENV, timeout=30)
    assert (result.returncode, result.stdout) == (0, b"ran\n")


def test_DL_1_simulated_interrupt_is_prompt() -> None:
    # _thread.interrupt_main does not interrupt a blocked select: the loop's short slices do.
    import _thread

    timer = threading.Timer(0.3, _thread.interrupt_main)
    started = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            run_bounded([SH, "-c", f"{_sleep(13)} & wait"], env=ENV, timeout=30)
    finally:
        timer.cancel()
    assert time.monotonic() - started < 1.0
    assert _processes_running(_sleep(13)) == []


def test_DL_1_exception_inside_the_loop_kills_the_group(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = {"n": 0}
    original = _process._Loop._handle

    def failing(self: _process._Loop, fd: int) -> bool:
        calls["n"] += 1
        if calls["n"] > 2:
            raise RuntimeError("injected read failure")
        return original(self, fd)

    monkeypatch.setattr(_process._Loop, "_handle", failing)
    with pytest.raises(RuntimeError, match="injected"):
        run_bounded([SH, "-c", f"{_sleep(14)} & yes"], env=ENV, timeout=10)
    assert _processes_running(_sleep(14)) == []


def test_exception_before_spawn_leaves_nothing() -> None:
    with pytest.raises(ValueError, match="null"):
        run_bounded(["echo", "a\x00b"], env=ENV)
    with pytest.raises(_process.StartError) as info:
        run_bounded(["/nonexistent/program"], env=ENV)
    assert isinstance(info.value.__cause__, FileNotFoundError)
    assert info.value.filename == "/nonexistent/program"


def test_descendant_holding_the_pipe_after_exit_is_killed_promptly() -> None:
    started = time.monotonic()
    result = run_bounded([SH, "-c", f"{_sleep(15)} & echo done"], env=ENV, timeout=10)
    assert (result.ended_by, result.returncode, result.stdout) == ("exit", 0, b"done\n")
    assert time.monotonic() - started < 1.0
    assert _processes_running(_sleep(15)) == []


@pytest.mark.skipif(not hasattr(resource, "prlimit"), reason="prlimit is Linux-only")
def test_memory_cap_makes_allocations_past_it_fail() -> None:
    allocate = "b = bytearray(512 << 20); print('allocated')"
    capped = run_bounded([sys.executable, "-c", allocate], env=ENV, max_memory_bytes=256 << 20)
    assert capped.returncode == 1
    assert b"MemoryError" in capped.stderr
    uncapped = run_bounded([sys.executable, "-c", allocate], env=ENV)
    assert (uncapped.returncode, uncapped.stdout) == (0, b"allocated\n")


@pytest.mark.skipif(not hasattr(resource, "prlimit"), reason="prlimit is Linux-only")
def test_memory_cap_never_raises_a_lower_limit_the_host_set() -> None:
    show = "import resource; print(*resource.getrlimit(resource.RLIMIT_AS))"
    script = f"ulimit -v {128 << 10}; exec {sys.executable} -c '{show}'"
    result = run_bounded([SH, "-c", script], env=ENV, max_memory_bytes=1 << 30)
    assert result.stdout.split() == [str(128 << 20).encode()] * 2


def test_executable_sets_the_file_argv0_stays() -> None:
    result = run_bounded(["name-shown", "-c", 'echo "$0"'], env=ENV, executable=SH)
    assert result.stdout == b"name-shown\n"


@pytest.mark.slow
def test_DL_3_exit_status_is_faithful() -> None:
    grep = shutil.which("grep")
    assert grep is not None
    seen: dict[str, set[int]] = {"match": set(), "no match": set(), "error": set()}
    cases = {"match": ["-e", "a"], "no match": ["-e", "z"], "error": ["-E", "-e", "("]}
    for _ in range(60):
        for name, arguments in cases.items():
            result = run_bounded([grep, *arguments], env=ENV, input_bytes=b"a\n")
            seen[name].add(result.returncode)
    assert seen == {"match": {0}, "no match": {1}, "error": {2}}


def test_DL_4_runner_in_a_thread_does_not_block_the_event_loop() -> None:
    async def main() -> tuple[float, float]:
        gaps: list[float] = []
        stop = asyncio.Event()

        async def heartbeat() -> None:
            last = time.monotonic()
            while not stop.is_set():
                await asyncio.sleep(0.01)
                now = time.monotonic()
                gaps.append(now - last)
                last = now

        beat = asyncio.create_task(heartbeat())
        started = time.monotonic()
        argv = [SH, "-c", _sleep(16)]
        result = await asyncio.to_thread(run_bounded, argv, env=ENV, timeout=0.5)
        elapsed = time.monotonic() - started
        stop.set()
        await beat
        assert result.ended_by == "deadline"
        return elapsed, max(gaps)

    elapsed, worst_gap = asyncio.run(main())
    assert elapsed < 0.8
    assert worst_gap < 0.05
    assert _processes_running(_sleep(16)) == []


@pytest.mark.parametrize("module", ["typed_toolsets.text", "typed_toolsets.github"])
def test_off_posix_the_built_in_toolsets_say_what_they_need(module: str) -> None:
    # On Windows the import failed with "No module named 'resource'" (or, had that been
    # guarded, with a missing os.killpg at the first deadline). Pretended here: the standard
    # modules are imported first, as they would be there, then os.name says "nt".
    script = (
        "import pathlib, selectors, shutil, signal, subprocess, tempfile\n"
        "import os\n"
        "os.name = 'nt'\n"
        "import typed_toolsets\n"
        f"import {module}\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 1
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError: typed_toolsets' built-in toolsets")
    assert "needs a POSIX system (Linux or macOS); on Windows, run them under WSL" in last


def test_DL_1_a_forked_child_leaves_its_parent_s_programs_running() -> None:
    # The child inherited the set of running programs and the ending at its exit: a child of
    # os.fork() that exited normally killed the programs its parent's calls were running.
    import warnings

    from typed_toolsets import _ending

    thread, results = _run_in_a_thread(43, timeout=3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # fork with threads running
        child = os.fork()
    if child == 0:  # pragma: no cover - the child: what its exit would run, then out
        _ending.end_all()
        os._exit(0)
    os.waitpid(child, 0)
    assert _scan(_sleep(43)) != []  # still running: the call's own deadline ends it
    thread.join(10)
    assert [result.ended_by for result in results] == ["deadline"]
    assert _processes_running(_sleep(43)) == []
