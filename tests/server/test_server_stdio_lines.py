"""The lines a stdio server reads: each at most `request_limit` bytes, each one answered.

A ``typed-toolsets serve`` subprocess is written raw bytes, as a broken or hostile client would,
and driven by the MCP SDK's own client. The server once read a line whole, however long (a
client could make it hold gigabytes), and dropped a line it could not parse without an answer,
so the client whose request it was waited for its own timeout, or forever.
"""

from __future__ import annotations

import json
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, MCPError, StdioServerParameters
from mcp.client.stdio import stdio_client

from tests.server.support import (
    SAMPLE,
    initialized,
    raw_stdio,
    read_answer,
    send_line,
    serve_argv,
    text_of,
    write,
)
from typed_toolsets.server.messages import SERVER_BUSY
from typed_toolsets.server.protocol import MAX_IN_FLIGHT, body_limit, too_large, too_many

pytestmark = pytest.mark.slow

BOUND = 90.0
#: The longest line the sample server reads: its tools have the default limits.
LIMIT = body_limit(1_000_000)
MIB = 1024 * 1024
TOO_LONG: dict[str, Any] = {"code": -32600, "message": too_large("line", LIMIT)}


@pytest.fixture(scope="module")
def server() -> Iterator[subprocess.Popen[bytes]]:
    """One stdio server past ``initialize``, for the tests that leave it serving."""
    with initialized(SAMPLE) as process:
        yield process


def _call(*, first: str = "", last: str = "", nested: str = "") -> tuple[bytes, bytes]:
    """A ``tools/call`` line of ``sample_echo``, cut where its text goes: (before, after).

    *first* and *last* are members of the request before and after ``method`` and ``params``;
    *nested* follows the text in the arguments.
    """
    before = '{%s"method": "tools/call", "params": {"name": "sample_echo", "arguments": {"text": "'
    return (before % first).encode(), f'"{nested}}}}}{last}}}'.encode()


def _peak_memory(pid: int) -> int:
    """The most memory *pid* has had resident so far, in bytes (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmHWM in /proc/PID/status")


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc")
def test_a_long_line_is_discarded_as_it_arrives_and_answered() -> None:
    before, after = _call(first='"jsonrpc": "2.0", "id": 7, ')
    with initialized(SAMPLE) as process:
        start = _peak_memory(process.pid)
        write(process, before)
        for _ in range(64):  # 64 MiB, sixteen times the limit
            write(process, b"a" * MIB)
        send_line(process, after)
        answer = read_answer(process, BOUND)
        grown = _peak_memory(process.pid) - start
        send_line(process, b'{"jsonrpc": "2.0", "id": 8, "method": "ping"}')
        pong = read_answer(process, BOUND)
    assert answer == {"jsonrpc": "2.0", "id": 7, "error": TOO_LONG}
    assert TOO_LONG["message"].startswith("the request line is larger than 4,065,536 bytes")
    assert grown < 24 * MIB, f"the server grew by {grown:,} bytes"
    assert pong == {"jsonrpc": "2.0", "id": 8, "result": {}}


@pytest.mark.parametrize(
    ("first", "last", "request_id"),
    [
        ('"jsonrpc": "2.0", "id": "a-1", ', "", "a-1"),
        ("", ', "jsonrpc": "2.0", "id": 12', 12),  # the TypeScript SDK writes the id last
        ('"jsonrpc": "2.0", ', ', "id" : -3 ', -3),
        # The id cannot be read: escaped, or none there (a nested "id" is not the request's).
        ('"jsonrpc": "2.0", "id": "a\\"b", ', "", None),
        ('"jsonrpc": "2.0", ', "", None),
    ],
)
def test_the_answer_to_a_long_line_has_its_request_s_id_when_it_can_be_read(
    server: subprocess.Popen[bytes], first: str, last: str, request_id: str | int | None
) -> None:
    before, after = _call(first=first, last=last, nested=', "id": 5')
    write(server, before + b"a" * LIMIT)
    send_line(server, after)
    answer = read_answer(server, BOUND)
    assert answer == {"jsonrpc": "2.0", "id": request_id, "error": TOO_LONG}


def test_a_line_of_the_limit_is_read_and_one_byte_more_is_not(
    server: subprocess.Popen[bytes],
) -> None:
    answers = []
    for extra in (0, 1):
        before, after = _call(first=f'"jsonrpc": "2.0", "id": {extra}, ')
        text = b"a" * (LIMIT + extra - len(before) - len(after))
        send_line(server, before + text + after)
        answers.append(read_answer(server, BOUND))
    read, refused = answers
    error = json.loads(read["result"]["content"][0]["text"])["error"]
    assert (read["id"], read["result"]["isError"], error["kind"]) == (0, True, "limit")
    assert refused == {"jsonrpc": "2.0", "id": 1, "error": TOO_LONG}


def test_stdin_ending_in_the_middle_of_a_long_line_ends_the_server() -> None:
    # Bytes without a newline, then the end: read in chunks as they come, never held.
    before, _ = _call(first='"jsonrpc": "2.0", "id": 3, ')
    with initialized(SAMPLE) as process:
        assert process.stdin is not None
        assert process.stdout is not None
        assert process.stderr is not None
        write(process, before)
        for _ in range(16):
            write(process, b"a" * MIB)
        process.stdin.close()
        status = process.wait(BOUND)
        answers = [json.loads(line) for line in process.stdout.read().splitlines()]
        stderr = process.stderr.read().decode(errors="replace")
    assert status == 0, stderr
    assert answers == [{"jsonrpc": "2.0", "id": 3, "error": TOO_LONG}]
    assert "stdin closed; stopping" in stderr
    assert "Traceback" not in stderr


UNBOUNDED = """\
import sys

from typed_toolsets import Limits, Toolset, tool


class Unbounded(Toolset):
    limits = Limits(max_argument_bytes=sys.maxsize)

    @tool
    def echo(self, *, s: str) -> str:
        return s
"""


def test_a_limit_written_as_none_reads_lines_of_any_length(tmp_path: Path) -> None:
    # The line limit (four times the arguments' and more) was a read's size past an index: the
    # reading thread died of an OverflowError, and the server waited for a line for ever.
    target = tmp_path / "unbounded.py"
    target.write_text(UNBOUNDED, encoding="utf-8")
    answers, status, stderr = raw_stdio(
        [f"{target}:Unbounded"], [("unbounded_echo", {"s": "hi"})], BOUND
    )
    assert status == 0, stderr
    assert answers[-1]["result"]["content"] == [{"type": "text", "text": "hi"}]
    assert "Traceback" not in stderr


PARSE_ERROR = -32700
INVALID_REQUEST = -32600


@pytest.mark.parametrize(
    ("line", "request_id", "code", "message"),
    [
        (b"garbage", None, PARSE_ERROR, "Parse error: expected value at line 1 column 1"),
        # Cut short, or past what json reads: the id is still read where it can be (it was not).
        (b'{"jsonrpc": "2.0", "id": 4, "method": "ping"', 4, PARSE_ERROR, "Parse error: "),
        (b'{"jsonrpc": "2.0", "method": "ping", "id": "4"', None, PARSE_ERROR, "Parse error: "),
        # An "id" at the end of a line cut short, or missing its last brace, is a nested
        # object's, and one after the message closed is another object's: the answer's id is
        # null, never that one.
        (
            b'{"jsonrpc": "2.0", "method": "notifications/initialized"}{"id": 7}',
            None,
            PARSE_ERROR,
            "Parse error: ",
        ),
        (
            (
                b'{"jsonrpc": "2.0", "method": "notifications/cancelled", "params": '
                b'{"requestId": 3, "id": 5}'
            ),
            None,
            PARSE_ERROR,
            "Parse error: ",
        ),
        (
            (
                b'{"jsonrpc": "2.0", "method": "tools/call", "params": {"name": "sample_echo", '
                b'"arguments": {"id": 5}'
            ),
            None,
            PARSE_ERROR,
            "Parse error: ",
        ),
        (
            b'{"jsonrpc": "2.0", "id": 12, "method": "tools/call", "params": {"name": '
            b'"sample_echo", "arguments": {"text": %s}}}' % (b"[" * 1200 + b"]" * 1200),
            12,
            PARSE_ERROR,
            "Parse error: recursion limit exceeded",
        ),
        (
            b'{"jsonrpc": "2.0", "method": "tools/call", "params": {"name": "sample_echo", '
            b'"arguments": {"text": %s}}, "id": "13"}' % (b"[" * 1200 + b"]" * 1200),
            "13",
            PARSE_ERROR,
            "Parse error: recursion limit exceeded",
        ),
        (b"\xff\xfe{}", None, PARSE_ERROR, "Parse error: "),
        # Not UTF-8: the SDK's reader made the byte U+FFFD, and the tool echoed "a\ufffdb".
        (
            (
                b'{"jsonrpc": "2.0", "id": 11, "method": "tools/call", "params": '
                b'{"name": "sample_echo", "arguments": {"text": "a\xffb"}}}'
            ),
            11,
            PARSE_ERROR,
            "Parse error: invalid unicode code point at line 1 column 112",
        ),
        # json reads a lone surrogate, and an integer's 5,000 digits, the SDK's parser does not.
        (b'{"jsonrpc": "2.0", "id": 5, "method": "x\\ud800"}', 5, PARSE_ERROR, "Parse error: "),
        (
            b'{"jsonrpc": "2.0", "id": 6, "method": "ping", "params": {"n": 1%s}}' % (b"0" * 5000),
            6,
            PARSE_ERROR,
            "Parse error: ",
        ),
        # JSON, not a JSON-RPC 2.0 message.
        (
            b'{"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": []}',
            7,
            INVALID_REQUEST,
            "Invalid Request: the line is not a JSON-RPC 2.0 message",
        ),
        (b'{"id": "eight", "method": "ping"}', "eight", INVALID_REQUEST, "Invalid Request: "),
        (b'{"jsonrpc": "1.0", "id": 9, "method": "ping"}', 9, INVALID_REQUEST, "Invalid Request: "),
        (b'[{"jsonrpc": "2.0", "id": 10, "method": "ping"}]', None, INVALID_REQUEST, "Invalid "),
        (b"42", None, INVALID_REQUEST, "Invalid Request: "),
        # An id that is neither a string nor an integer: the SDK took these for notifications.
        (
            b'{"jsonrpc": "2.0", "id": 1.5, "method": "ping"}',
            None,
            INVALID_REQUEST,
            'Invalid Request: "id" must be a string or an integer, not a number with a fraction',
        ),
        (
            b'{"jsonrpc": "2.0", "id": null, "method": "ping"}',
            None,
            INVALID_REQUEST,
            'Invalid Request: "id" must be a string or an integer, not null (MCP allows no null id)',
        ),
        (
            b'{"jsonrpc": "2.0", "id": true, "method": "ping"}',
            None,
            INVALID_REQUEST,
            'Invalid Request: "id" must be a string or an integer, not true',
        ),
    ],
)
def test_a_line_that_is_no_message_is_answered_with_a_json_rpc_error(
    server: subprocess.Popen[bytes],
    line: bytes,
    request_id: str | int | None,
    code: int,
    message: str,
) -> None:
    send_line(server, b"")  # blank lines are skipped, unanswered
    send_line(server, b"  \t")
    send_line(server, line)
    answer = read_answer(server, BOUND)
    send_line(server, b'{"jsonrpc": "2.0", "id": "after", "method": "ping"}')
    after = read_answer(server, BOUND)
    assert (answer["jsonrpc"], answer["id"], answer["error"]["code"]) == ("2.0", request_id, code)
    assert answer["error"]["message"].startswith(message)
    assert after == {"jsonrpc": "2.0", "id": "after", "result": {}}


def test_notifications_are_still_unanswered(server: subprocess.Popen[bytes]) -> None:
    notifications = [
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 99}},
        {"jsonrpc": "2.0", "method": "notifications/unknown", "params": {"id": 1.5}},
    ]
    for notification in notifications:
        send_line(server, json.dumps(notification).encode())
    send_line(server, b'{"jsonrpc": "2.0", "id": "pong", "method": "ping"}')
    assert read_answer(server, BOUND) == {"jsonrpc": "2.0", "id": "pong", "result": {}}


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.anyio
async def test_the_sdk_client_is_told_its_request_was_too_long(tmp_path: Path) -> None:
    # Sent whole, the line got the server to hold all of it, then parse it; now the client's
    # call fails at once with the reason, and the next one is served.
    argv = serve_argv(SAMPLE)
    parameters = StdioServerParameters(command=argv[0], args=argv[1:])
    with (tmp_path / "server.log").open("w") as errlog, anyio.fail_after(BOUND):
        async with Client(stdio_client(parameters, errlog=errlog)) as client:
            with pytest.raises(MCPError) as raised:
                await client.call_tool("sample_echo", {"text": "a" * (LIMIT + 1)})
            after = await client.call_tool("sample_add", {"a": 1, "b": 2})
    assert (raised.value.code, raised.value.message) == (-32600, TOO_LONG["message"])
    assert text_of(after) == "3"


def _asleep(request_id: int) -> bytes:
    """A ``tools/call`` line of ``sample_asleep`` for a minute: a call that stays in flight."""
    params = {"name": "sample_asleep", "arguments": {"seconds": 60}}
    request = {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params}
    return json.dumps(request).encode() + b"\n"


def _ping(process: subprocess.Popen[bytes]) -> dict[str, Any]:
    send_line(process, b'{"jsonrpc": "2.0", "id": "ping", "method": "ping"}')
    return read_answer(process, BOUND)


def test_requests_past_the_in_flight_bound_are_answered_at_once() -> None:
    # The SDK started a task for every request read, however many: 20,000 small calls of a slow
    # tool took 300 MiB. Past MAX_IN_FLIGHT, a request is answered with an error at once, and
    # each request that settles (answered, or cancelled) makes room for one more.
    busy = {"code": SERVER_BUSY, "message": too_many(MAX_IN_FLIGHT)}
    over = 10
    with initialized(SAMPLE) as process:
        send_line(process, b'{"jsonrpc": "2.0", "method": "notifications/initialized"}')
        write(process, b"".join(_asleep(i) for i in range(1, MAX_IN_FLIGHT + over + 1)))
        refused = [read_answer(process, BOUND) for _ in range(over)]
        assert refused == [
            {"jsonrpc": "2.0", "id": MAX_IN_FLIGHT + i, "error": busy} for i in range(1, over + 1)
        ]
        for request_id in (1, 2):
            cancel = {"requestId": request_id}
            notification = {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": cancel}
            send_line(process, json.dumps(notification).encode())
        # Once the cancelled calls have settled (a ping is served again), two more are served,
        # and a third is refused (the first answer written).
        deadline = time.monotonic() + BOUND
        while "error" in _ping(process):
            assert time.monotonic() < deadline, "no room made by the cancelled requests"
            time.sleep(0.05)
        write(process, b"".join(_asleep(i) for i in (-1, -2, -3)))
        assert read_answer(process, BOUND) == {"jsonrpc": "2.0", "id": -3, "error": busy}
