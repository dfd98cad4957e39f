"""uvicorn's HTTP/1.1 protocol (h11), with a deadline for each request's line and headers.

uvicorn bounds a connection's idle time only after a first answer (its keep-alive timer, which
any byte received stops): a connection that sends nothing, or a few bytes of headers now and
then, was held for ever, and every connection counts against uvicorn's ``limit_concurrency``,
so a thousand of them had every caller answered 503. Here a request's head must be whole within
`HEAD_SECONDS` of the connection opening, or of the previous answer on it, or the connection
is closed; so is a connection whose request was answered before its body was read. The body
has its own bound (`.bodies`). An answer the client does not read has one too: a connection
whose answer the client takes none of for `ANSWER_SECONDS` is closed (uvicorn bounds no write,
so a client that never read a large answer held its connection for ever).

May import uvicorn and h11 (the server extra's); loaded by `.http` when it runs uvicorn.
"""

from __future__ import annotations

import asyncio
from typing import Final

import h11
from typing_extensions import override
from uvicorn.protocols.http.h11_impl import H11Protocol

__all__ = ["ANSWER_SECONDS", "HEAD_SECONDS", "HeadsInTime"]

#: How long a request's line and headers may take to arrive (seconds), from the connection
#: opening or the previous answer on it.
HEAD_SECONDS: Final = 10.0
#: How long an answer may wait for the client to take any of it (seconds), once the connection's
#: write buffer is full (the client reads slower than the answer is written, or not at all).
ANSWER_SECONDS: Final = 30.0


class HeadsInTime(H11Protocol):
    """uvicorn's h11 protocol, closing a connection whose request head is not whole in time."""

    _head_timer: asyncio.TimerHandle | None = None
    _answer_timer: asyncio.TimerHandle | None = None
    _unread = 0  # the write buffer's size when last looked at, while an answer waits in it
    _resumed = False  # the buffer drained below its low-water mark since then

    @override
    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]  # uvicorn narrows asyncio's BaseTransport the same way
        super().connection_made(transport)
        self._wait_for_head()

    @override
    def on_response_complete(self) -> None:
        super().on_response_complete()
        # Part of the answer may wait in the buffer, however small: a close (uvicorn's, for
        # `Connection: close`, or ours below) waits for it to be written, for ever if the
        # client reads none. Looked at from here, after the answer's last write.
        self._answer_waits()
        if self.transport.is_closing():
            return
        if self.conn.their_state is h11.SEND_BODY:
            # Answered before its body was read (404, 401, 421...): uvicorn waits for the rest
            # of the body, and any byte stops its keep-alive timer, so a client sending one a
            # minute held the connection for ever. Closed, as servers close such a connection.
            self.transport.close()
            return
        self._wait_for_head()  # kept alive: the next request's head is awaited

    @override
    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_waiting()
        self._answer_read()
        super().connection_lost(exc)

    @override
    def pause_writing(self) -> None:
        super().pause_writing()
        self._answer_waits()

    @override
    def resume_writing(self) -> None:
        self._resumed = True
        super().resume_writing()

    def _answer_waits(self) -> None:
        """Look at the write buffer again in `ANSWER_SECONDS`, if it holds any (after a write)."""
        self._answer_read()
        unread = self.transport.get_write_buffer_size()
        self._unread = unread
        self._resumed = False
        if unread:
            self._answer_timer = self.loop.call_later(ANSWER_SECONDS, self._answer_waited)

    def _answer_read(self) -> None:
        if self._answer_timer is not None:
            self._answer_timer.cancel()
            self._answer_timer = None

    def _answer_waited(self) -> None:
        """The answer waited `ANSWER_SECONDS` more: closed unless the client took some of it."""
        self._answer_timer = None
        unread = self.transport.get_write_buffer_size()
        if not unread:
            return  # written whole
        if unread < self._unread or self._resumed:  # a slow reader, still reading
            self._answer_waits()
            return
        # Aborted, not closed: a close waits for the unread answer to be written, for ever.
        # The connection's loss resumes the writer waiting on it, which learns it is gone.
        self.transport.abort()

    def _wait_for_head(self) -> None:
        self._stop_waiting()
        self._head_timer = self.loop.call_later(HEAD_SECONDS, self._head_late)

    def _stop_waiting(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_late(self) -> None:
        self._head_timer = None
        # IDLE: no request line and headers read whole since the connection opened or the
        # previous answer (a request being read or answered is past it).
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self.transport.close()
