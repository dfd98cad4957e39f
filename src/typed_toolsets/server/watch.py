"""The client closing the stdio server's stdout, watched: it reads no more answers.

Linux only (epoll); may import the standard library and `typed_toolsets.server.protocol`.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import stat
import sys
from collections.abc import Callable, Generator

from .protocol import logger

__all__ = ["stdout_watched"]


@contextlib.contextmanager
def stdout_watched(closed: Callable[[], None]) -> Generator[None]:
    """Meanwhile, call *closed* when the client closes stdout (it reads no more answers).

    Without a watch, the server would notice only when it next wrote: an idle one, or one
    running a long call, served on for a client that had gone. The write end of a pipe whose
    reader has closed reports an error to epoll, which the event loop gives to a reader's
    callback (a pipe's write end is never readable, so nothing else calls it). A socket (what
    Node's ``spawn`` gives a child for its stdio) becomes readable at its end; one that holds
    data instead is the client's stdin too, and is not watched further. Linux only; a file or
    a terminal never closes.
    """
    watched = _stdout_stream()
    if watched is None:
        yield
        return
    fd, is_socket = watched
    loop = asyncio.get_running_loop()

    def reader_gone() -> None:
        if is_socket:
            ended = _socket_ended(fd)
            if ended is None:  # woken for nothing
                return
            if not ended:  # the client writes to it: its stdin's socket too, or not ours to read
                loop.remove_reader(fd)
                return
        loop.remove_reader(fd)
        logger.info("stdout closed; stopping")
        # What the SDK writes from now on (the answers of the calls cancelled) goes nowhere:
        # written to the pipe, it would fail, and what failed stays in the SDK's buffer, to fail
        # again as the interpreter ends ("Exception ignored ... BrokenPipeError").
        _to_null(fd)
        closed()

    try:
        loop.add_reader(fd, reader_gone)
    except (OSError, ValueError, NotImplementedError):  # a loop that cannot watch it
        os.close(fd)
        yield
        return
    try:
        yield
    finally:
        loop.remove_reader(fd)
        os.close(fd)


def _to_null(pipe: int) -> None:
    """Point every other descriptor of this process open on the pipe of *pipe* at the null device.

    The SDK writes stdout through a private duplicate of descriptor 1 whose number it keeps to
    itself; it is found among this process's descriptors (Linux's ``/proc``) by its pipe.
    """
    with contextlib.suppress(OSError):
        pipe_stat = os.fstat(pipe)
        null = os.open(os.devnull, os.O_WRONLY)
        try:
            for name in os.listdir("/proc/self/fd"):
                other = int(name)
                if other == pipe:
                    continue
                with contextlib.suppress(OSError):
                    other_stat = os.fstat(other)
                    if (other_stat.st_dev, other_stat.st_ino) == (
                        pipe_stat.st_dev,
                        pipe_stat.st_ino,
                    ):
                        os.dup2(null, other)
        finally:
            os.close(null)


def _stdout_stream() -> tuple[int, bool] | None:
    """A duplicate of file descriptor 1 (not inherited) to watch, and whether it is a socket.

    None off Linux, and for what cannot be watched: a file, a terminal, or a FIFO this process
    may read too (``1<>fifo``: readable whenever it holds an answer not read yet).
    """
    if sys.platform != "linux":
        return None
    import fcntl  # POSIX only

    try:
        mode = os.fstat(1).st_mode
        if stat.S_ISFIFO(mode):
            if fcntl.fcntl(1, fcntl.F_GETFL) & os.O_ACCMODE != os.O_WRONLY:
                return None
            return os.dup(1), False
        if stat.S_ISSOCK(mode):
            return os.dup(1), True
    except OSError:
        return None
    return None


def _socket_ended(fd: int) -> bool | None:
    """Whether the socket *fd* is at its end (True), holds data (False), or neither (None)."""
    try:
        with socket.socket(fileno=os.dup(fd)) as peer:
            data = peer.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT)
    except BlockingIOError:
        return None
    except OSError:  # reset by the client: gone too
        return True
    return not data
