"""Running an external program under hard bounds: a deadline, an output cap, a process group.

`run_bounded` is the only place where the built-in toolsets start a program. It never uses a
shell. The child gets its own session (so its process group id is its pid), an explicit
environment, and either the caller's bytes on a library-owned stdin pipe or ``/dev/null``.
One selector loop feeds stdin and drains stdout and stderr together, so no pipe can deadlock,
and charges every byte read against one combined budget. The loop ends when the program has
exited and both pipes are closed, when the deadline passes, or when the budget is spent.

Whatever ends the loop (including an exception or a KeyboardInterrupt raised inside it), the
whole process group is sent SIGKILL *before* the leader is reaped: an unreaped leader keeps its
pid, and so its process group id, from being recycled, so the kill can never hit an unrelated
group. Exit is detected without reaping, through a pidfd where the kernel offers one (Linux
5.3+) and otherwise by polling ``waitid(..., WNOWAIT)``; that keeps the exit status faithful
(a normally exiting grep reports 0, 1 or 2, never the -9 of our cleanup kill).

When this process ends while programs run (a server stopping with calls left in their threads,
SIGTERM to the command line), their groups are killed then (`typed_toolsets._ending`): a
program never runs on past the process that started it, bounded by nothing.

A process that ends without running anything at its end (SIGKILL; SIGTERM where its host keeps
the default handling, as a library's host may) cannot kill them: the program's CPU time is
capped too (``RLIMIT_CPU``, its deadline on every CPU the host may use, and a second more), so
one left behind is ended by the kernel within that, not left to spin with no bound.

Known limits: a descendant that leaves the group with ``setsid()`` escapes the group kill. grep,
rg and gh, run with the argument vectors this library builds, start no such helpers. Where
``prlimit`` is missing (macOS) no CPU time or memory cap is set.
"""

from __future__ import annotations

import contextlib
import math
import os

if os.name != "posix":  # pragma: no cover - CI runs on Linux; tested by pretending otherwise
    # Said here, on import, rather than as a missing module (``resource``) or, later, a missing
    # ``os.killpg`` at the first call's deadline.
    msg = (
        "typed_toolsets' built-in toolsets (typed_toolsets.text, typed_toolsets.github) run "
        "grep, rg and gh in process groups of their own, which needs a POSIX system (Linux or "
        "macOS); on Windows, run them under WSL. The rest of typed_toolsets works without them."
    )
    raise ImportError(msg)

import resource
import selectors
import signal
import subprocess
import threading
import time
from collections.abc import Mapping, Sequence
from typing import IO, Final, Literal, TypeAlias

import attrs

from typed_toolsets import _ending

__all__ = ["EndedBy", "ProcessResult", "StartError", "run_bounded"]

#: Why the loop stopped: the program exited (and closed its output), the deadline passed, or the
#: output budget was spent.
EndedBy: TypeAlias = Literal["exit", "deadline", "output_cap"]

_CHUNK: Final = 65536
#: After the leader exits, a descendant that still holds a pipe open may keep it from reaching
#: EOF; everything the leader wrote is already in the pipe (at most one pipe buffer), so a short
#: grace is enough to drain it before the group is killed.
_EXIT_GRACE: Final = 0.2
#: Poll interval for exit detection where no pidfd is available.
_POLL: Final = 0.02
#: Longest single wait in the loop. A signal that arrives in another thread (or is simulated with
#: ``_thread.interrupt_main``) does not interrupt a blocked ``select``; waking up this often
#: keeps Ctrl-C and KeyboardInterrupt prompt without measurable cost.
_SLICE: Final = 0.1


class StartError(OSError):
    """The program could not be started; the cause (``__cause__``) is the `OSError` from exec.

    Kept apart from other `OSError` so that a failure while the program runs is never reported
    as a failure to start it.
    """


@attrs.frozen
class ProcessResult:
    """What a bounded run produced.

    Attributes:
        returncode: The exit status; negative for a signal (``-9`` after our own kill when
            ``ended_by`` is ``"deadline"`` or ``"output_cap"``).
        stdout: What the program wrote to stdout, within the budget.
        stderr: What it wrote to stderr, within the same budget.
        ended_by: Why the run stopped.
        duration: Wall-clock seconds from start to reap.
    """

    returncode: int
    stdout: bytes
    stderr: bytes
    ended_by: EndedBy
    duration: float

    @property
    def truncated(self) -> bool:
        """True when output was cut at the byte budget (the program was killed there)."""
        return self.ended_by == "output_cap"


def _pidfd(pid: int) -> int | None:
    opener = getattr(os, "pidfd_open", None)
    if opener is None:
        return None
    try:
        fd: int = opener(pid)
    except OSError:  # ENOSYS on old kernels; fall back to polling
        return None
    return fd


def _has_exited(pid: int) -> bool:
    """Whether *pid* has exited, without reaping it (WNOWAIT leaves the zombie in place)."""
    try:
        info = os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    except ChildProcessError:  # pragma: no cover - someone else reaped it
        return True
    return info is not None


def _limit_memory(pid: int, max_bytes: int) -> None:
    """Cap the address space of the running program *pid* at *max_bytes* (never raising a cap).

    Set from outside with ``prlimit`` (Linux) once the program runs: a ``preexec_fn`` is unsafe
    in a threaded host. A program already past the cap keeps what it has; its next allocation
    fails, so it cannot grow further. Where ``prlimit`` is missing (macOS) nothing is capped.
    """
    with contextlib.suppress(ProcessLookupError):
        _lower(pid, resource.RLIMIT_AS, max_bytes, max_bytes)


def _lower(pid: int, which: int, soft: int, hard: int) -> None:
    """Lower the limit *which* of the running program *pid* to *soft* and *hard* (never raised).

    Set from outside with ``prlimit`` (Linux): where it is missing (macOS) nothing is set.
    """
    prlimit = getattr(resource, "prlimit", None)
    if prlimit is None:  # pragma: no cover - Linux has it
        return
    infinity = resource.RLIM_INFINITY
    old_soft, old_hard = prlimit(pid, which)
    new_hard = hard if old_hard == infinity else min(hard, old_hard)
    new_soft = min(soft, new_hard) if old_soft == infinity else min(old_soft, soft, new_hard)
    prlimit(pid, which, (new_soft, new_hard))


def _limit_cpu(pid: int, timeout: float) -> None:
    """Cap the CPU time of the running program *pid* so that it outlives no deadline unbounded.

    Its deadline stops it first while this process runs (it cannot spend more CPU time than its
    deadline on every CPU this process may use); the cap bounds one left running when this
    process ended without killing it. Past the cap the kernel sends SIGXCPU, then SIGKILL a
    second later; no core is dumped (``RLIMIT_CORE`` 0).
    """
    if not timeout < _NO_CPU_CAP:
        return
    seconds = max(0, math.ceil(timeout)) * _cpus() + 1
    # A backstop, not the deadline: where the system refuses it (a host whose real and effective
    # users differ, a security policy), the program runs without it, as without prlimit.
    with contextlib.suppress(OSError):
        _lower(pid, resource.RLIMIT_CORE, 0, 0)
        _lower(pid, resource.RLIMIT_CPU, seconds, seconds + 1)


#: A deadline this far off (or none: infinity, NaN) sets no CPU time cap.
_NO_CPU_CAP: Final = 2.0**31


def _cpus() -> int:
    """How many CPUs this process may run on (its affinity, where the system tells it)."""
    affinity = getattr(os, "sched_getaffinity", None)
    if affinity is not None:
        with contextlib.suppress(OSError):
            return max(1, len(affinity(0)))
    return os.cpu_count() or 1  # pragma: no cover - Linux tells the affinity


def _kill_group(pgid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)


# The process groups of the programs running now, their leaders not reaped yet: killed when this
# process ends before their calls do (`typed_toolsets._ending`). A group leaves the set, under
# the lock, before its leader is reaped, so the group id killed is never one reused since.
# Re-entrant: a signal handler in the main thread may end them while that thread holds it.
_running: Final[set[int]] = set()
_running_lock = threading.RLock()


def _kill_running() -> None:
    """Kill the process group of every program running now (this process is ending)."""
    with _running_lock:
        for pgid in tuple(_running):
            _kill_group(pgid)


def _forget_running() -> None:
    """In a child of a fork: the programs are its parent's, not the child's to end at its exit.

    The lock is made anew: a thread of the parent may have held it (no thread runs in the
    child to release it).
    """
    global _running_lock  # replaced once per fork, in the child
    _running_lock = threading.RLock()
    _running.clear()


_ending.at_end(_kill_running)
os.register_at_fork(after_in_child=_forget_running)


class _Loop:
    """The selector loop of one run: feeds stdin, drains both pipes, watches for exit."""

    def __init__(
        self,
        process: subprocess.Popen[bytes],
        pidfd: int | None,
        input_bytes: bytes | None,
        max_output_bytes: int,
    ) -> None:
        self.process = process
        self.pidfd = pidfd
        self.pending = memoryview(input_bytes) if input_bytes is not None else memoryview(b"")
        self.room = max_output_bytes
        self.out = bytearray()
        self.err = bytearray()
        self.buffers: dict[int, bytearray] = {}
        self.exited = False
        self.selector = selectors.DefaultSelector()
        self.open_outputs = 0
        for stream, buffer in ((process.stdout, self.out), (process.stderr, self.err)):
            if stream is not None:
                fd = stream.fileno()
                os.set_blocking(fd, False)
                self.selector.register(fd, selectors.EVENT_READ)
                self.buffers[fd] = buffer
                self.open_outputs += 1
        if pidfd is not None:
            self.selector.register(pidfd, selectors.EVENT_READ)
        if process.stdin is not None:
            if self.pending:
                os.set_blocking(process.stdin.fileno(), False)
                self.selector.register(process.stdin.fileno(), selectors.EVENT_WRITE)
            else:
                process.stdin.close()

    def close(self) -> None:
        self.selector.close()

    def run(self, deadline: float) -> EndedBy:
        exit_deadline: float | None = None
        while True:
            now = time.monotonic()
            if self.exited and self.open_outputs == 0:
                return "exit"
            if now >= deadline:
                return "deadline"
            if exit_deadline is not None and now >= exit_deadline:
                return "exit"
            wait = min(deadline - now, _SLICE)
            if exit_deadline is not None:
                wait = min(wait, exit_deadline - now)
            if self.pidfd is None and not self.exited:
                wait = min(wait, _POLL)
            for key, _ in self.selector.select(wait):
                if self._handle(key.fd):
                    return "output_cap"
            if not self.exited and self.pidfd is None and _has_exited(self.process.pid):
                self.exited = True
            if self.exited and exit_deadline is None:
                exit_deadline = time.monotonic() + _EXIT_GRACE

    def _handle(self, fd: int) -> bool:
        """Serve one ready file descriptor; True when the output budget is spent."""
        process = self.process
        if fd == self.pidfd:
            self.exited = True
            self.selector.unregister(fd)
            return False
        if process.stdin is not None and not process.stdin.closed and fd == process.stdin.fileno():
            self._feed(process.stdin)
            return False
        try:
            chunk = os.read(fd, _CHUNK)
        except BlockingIOError:  # pragma: no cover - spurious readiness
            return False
        if not chunk:
            self.selector.unregister(fd)
            self.open_outputs -= 1
            return False
        target = self.buffers[fd]
        target += chunk[: self.room]
        over = len(chunk) > self.room
        self.room = max(self.room - len(chunk), 0)
        return over

    def _feed(self, stdin: IO[bytes]) -> None:
        try:
            written = os.write(stdin.fileno(), self.pending[:_CHUNK])
        except BlockingIOError:  # pragma: no cover - spurious readiness
            return
        except BrokenPipeError:  # the program stopped reading (it exited, or needs no more)
            written = len(self.pending)
        self.pending = self.pending[written:]
        if not self.pending:
            self.selector.unregister(stdin.fileno())
            stdin.close()


def run_bounded(
    argv: Sequence[str],
    *,
    env: Mapping[str, str],
    input_bytes: bytes | None = None,
    timeout: float = 10.0,
    max_output_bytes: int = 1_000_000,
    cwd: str | None = None,
    executable: str | None = None,
    max_memory_bytes: int | None = None,
) -> ProcessResult:
    """Run *argv* (no shell) and return its output, bounded in time and size.

    Args:
        argv: The program (an absolute path is best) and its arguments.
        env: The child's whole environment; nothing is inherited.
        input_bytes: Bytes fed to the child's stdin, which is then closed; None gives it
            ``/dev/null``.
        timeout: Seconds before the process group is killed.
        max_output_bytes: Budget for stdout and stderr together; past it the group is killed.
        cwd: The child's working directory (default: the caller's).
        executable: The file to execute, when ``argv[0]`` is only the name the program should
            see (so its messages say ``grep:`` rather than a full path).
        max_memory_bytes: Cap on the program's address space (``RLIMIT_AS``, Linux only),
            for a program whose memory a caller's input decides (a regex engine); past it
            the program's allocations fail. None leaves it uncapped.

    Returns:
        The result. The program's process group is dead and the program is reaped.

    Raises:
        StartError: The program could not be started (missing, not executable, ...).
        ValueError: An argument or environment entry contains a NUL character.
    """
    started = time.monotonic()
    try:
        process = subprocess.Popen(
            list(argv),
            executable=executable,
            stdin=subprocess.PIPE if input_bytes is not None else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=dict(env),
            cwd=cwd,
            close_fds=True,
            start_new_session=True,
        )
    except OSError as exc:
        raise StartError(exc.errno, exc.strerror, exc.filename) from exc
    with _running_lock:
        _running.add(process.pid)
    pidfd: int | None = None
    loop: _Loop | None = None
    try:
        _limit_cpu(process.pid, timeout)
        if max_memory_bytes is not None:
            _limit_memory(process.pid, max_memory_bytes)
        pidfd = _pidfd(process.pid)
        loop = _Loop(process, pidfd, input_bytes, max_output_bytes)
        ended_by: EndedBy = loop.run(started + timeout)
        out, err = bytes(loop.out), bytes(loop.err)
    finally:
        # Kill first, reap after: until the leader is reaped its pid (= the group id) cannot be
        # reused, so this never signals an unrelated group. Runs on exceptions and on
        # KeyboardInterrupt too, so no descendant outlives the call.
        _kill_group(process.pid)
        with _running_lock:
            _running.discard(process.pid)
        if loop is not None:
            loop.close()
        if pidfd is not None:
            os.close(pidfd)
        for stream in (process.stdin, process.stdout, process.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        process.wait()
    return ProcessResult(
        returncode=process.returncode,
        stdout=out,
        stderr=err,
        ended_by=ended_by,
        duration=time.monotonic() - started,
    )
