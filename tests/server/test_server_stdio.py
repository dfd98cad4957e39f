"""``typed-toolsets serve`` over stdio, driven end to end by the MCP SDK's own stdio client.

One server process (the sample toolset and the built-in text toolset) answers most tests; the
disconnect and import-failure tests start their own. Every wait is bounded.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any, Final

import anyio
import mcp.client.stdio
import pytest
from mcp import Client, ClientSession, MCPError, StdioServerParameters
from mcp.client.stdio import stdio_client

from tests.server.sample import SampleToolset
from tests.server.support import (
    INITIALIZE,
    SAMPLE,
    STUBBORN,
    TEXT,
    alive,
    children_of,
    flatten,
    initialized,
    processes_with,
    raw_stdio,
    read_answer,
    send_line,
    serve_argv,
    text_of,
    wait_until,
)
from typed_toolsets import ToolProxy, export
from typed_toolsets.export.values import result_text
from typed_toolsets.text import TextProcessingToolset

pytestmark = [pytest.mark.anyio, pytest.mark.slow]

#: Bound on any one exchange with a server (it starts by importing the SDK on a busy machine).
BOUND = 90.0


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"


def parameters(*args: str) -> StdioServerParameters:
    argv = serve_argv(*args)
    return StdioServerParameters(command=argv[0], args=argv[1:])


class Served:
    """A connected client and the stderr of the server it started."""

    def __init__(self, client: Client, log: Path) -> None:
        self.client = client
        self.log_path = log

    def log(self) -> str:
        return self.log_path.read_text()

    async def call(self, name: str, arguments: dict[str, Any] | None = None) -> Any:
        with anyio.fail_after(BOUND):
            return await self.client.call_tool(name, arguments or {})


@pytest.fixture(scope="module")
def log_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("stdio")


@pytest.fixture(scope="module")
async def served(log_dir: Path) -> AsyncIterator[Served]:
    log = log_dir / "server.log"
    with log.open("w") as errlog:
        transport = stdio_client(parameters(SAMPLE, TEXT), errlog=errlog)
        async with Client(transport, read_timeout_seconds=BOUND) as client:
            yield Served(client, log)


def tools() -> list[ToolProxy]:
    return SampleToolset.to_tools() + TextProcessingToolset.to_tools()


def envelope(result: Any) -> dict[str, Any]:
    assert result.is_error is True
    assert result.structured_content is None
    data: dict[str, Any] = json.loads(text_of(result))
    return data


# ------------------------------------------------------------------------------------ list


async def test_the_list_is_our_mcp_export(served: Served) -> None:
    with anyio.fail_after(BOUND):
        listed = await served.client.list_tools()
    wire = [tool.model_dump(by_alias=True, exclude_none=True, mode="json") for tool in listed.tools]
    assert wire == export.mcp(tools())
    by_name = {entry["name"]: entry for entry in wire}
    assert by_name["sample_point"]["outputSchema"]["type"] == "object"
    assert "outputSchema" not in by_name["sample_echo"]
    assert by_name["sample_add"]["annotations"] == {"readOnlyHint": True}


# ---------------------------------------------------------------------------------- calls


async def test_a_result_deeper_than_clients_read_is_the_tools_failure(served: Served) -> None:
    # The SDK client's own reader and checker read 128 levels; past about 200 it dropped the
    # answer (the call waited for its timeout) while the server logged the call as ok.
    deepest = await served.call("sample_chain", {"length": 127})  # 128 with {"result": ...}
    assert deepest.is_error is False
    assert deepest.structured_content is not None
    for length in (128, 250):
        refused = envelope(await served.call("sample_chain", {"length": length}))
        assert refused["error"]["kind"] == "execution"
        assert refused["error"]["message"] == (
            f"Tool 'sample_chain' returned a value nested {length + 1} levels deep, deeper than "
            "MCP clients read (128 levels); return a flatter value"
        )


async def test_structured_results_come_with_a_text_block(served: Served) -> None:
    added = await served.call("sample_add", {"a": 2, "b": 3})
    assert (added.is_error, text_of(added), added.structured_content) == (
        False,
        "5",
        {"result": 5},
    )
    point = await served.call("sample_point", {"x": 1, "y": 2.5})
    assert point.structured_content == {"x": 1.0, "y": 2.5}
    assert json.loads(text_of(point)) == {"x": 1.0, "y": 2.5}
    echoed = await served.call("sample_echo", {"text": "héllo\nworld"})
    assert (text_of(echoed), echoed.structured_content) == ("héllo\nworld", None)


async def test_bad_arguments_are_an_error_result_with_our_envelope(served: Served) -> None:
    arguments = {"a": "two", "c": 1}
    result = await served.call("sample_add", arguments)
    (proxy,) = (p for p in SampleToolset.to_tools() if p.name == "sample_add")
    expected = proxy.invoke(arguments).error
    assert expected is not None
    assert envelope(result) == expected.to_dict()
    details = envelope(result)["error"]["details"]
    assert {d["path"] for d in details} == {"$.a", "$.b", "$.c"}


async def test_an_unknown_tool_is_an_error_result_naming_the_tools(served: Served) -> None:
    error = envelope(await served.call("sample_nope"))["error"]
    assert error["kind"] == "arguments"
    assert error["message"].startswith("Unknown tool 'sample_nope'; available tools: sample_add")


async def test_a_failing_tool_is_an_execution_error(served: Served) -> None:
    error = envelope(await served.call("sample_fail", {"message": "boom"}))["error"]
    assert error == {
        "kind": "execution",
        "tool": "sample_fail",
        "message": "Tool 'sample_fail' failed: ValueError: boom",
        "details": [],
    }


@pytest.mark.skipif(sys.version_info < (3, 11), reason="asyncio.TaskGroup is Python 3.11+")
async def test_a_task_group_failing_after_its_body_is_an_execution_error(served: Served) -> None:
    # Python 3.11 and 3.12 leave the group's own cancel request counted on the task: it was
    # taken for the request's cancellation, and the server stopped ("Connection closed").
    for _ in range(2):
        error = envelope(await served.call("sample_taskgroup", {"message": "boom"}))["error"]
        assert error["kind"] == "execution"
        assert error["message"] == (
            "Tool 'sample_taskgroup' failed: ExceptionGroup: unhandled errors in a TaskGroup "
            "(1 sub-exception): ValueError: boom"
        )
    added = await served.call("sample_add", {"a": 1, "b": 2})
    assert (added.is_error, added.structured_content) == (False, {"result": 3})


async def test_a_sync_tool_past_its_deadline_is_a_timeout(served: Served) -> None:
    started = time.monotonic()
    error = envelope(await served.call("sample_deadline", {"seconds": 30}))["error"]
    assert time.monotonic() - started < 15
    assert error["kind"] == "timeout"
    assert "Limits.timeout=0.5" in error["message"]


async def test_twenty_concurrent_calls(served: Served) -> None:
    results: dict[int, Any] = {}

    async def one(i: int) -> None:
        name, arguments = ("sample_add", {"a": i, "b": 1000})
        if i % 2:
            name, arguments = ("text_wc", {"text": "w " * i, "words_only": True})
        results[i] = await served.call(name, arguments)

    async with anyio.create_task_group() as group:
        for i in range(20):
            group.start_soon(one, i)
    for i, result in results.items():
        expected = f"Words: {i}" if i % 2 else str(i + 1000)
        assert (result.is_error, text_of(result)) == (False, expected)
    assert len(results) == 20


async def test_slow_calls_do_not_hold_up_others(served: Served) -> None:
    # More slow sync calls than asyncio's default executor has threads on a small machine,
    # and a slow async one: a quick call still answers before any of them.
    finished: list[str] = []

    async def slow(name: str, seconds: float) -> None:
        await served.call(name, {"seconds": seconds})
        finished.append(name)

    async with anyio.create_task_group() as group:
        for _ in range(8):
            group.start_soon(slow, "sample_sleep", 4)
        group.start_soon(slow, "sample_asleep", 4)
        await anyio.sleep(0.5)
        quick = await served.call("sample_add", {"a": 1, "b": 1})
        finished.append("quick")
    assert text_of(quick) == "2"
    assert finished[0] == "quick", finished
    assert finished.count("sample_sleep") == 8


@pytest.mark.parametrize("swallow", [False, True])
async def test_a_cancelled_request_cancels_the_async_tool(
    served: Served, log_dir: Path, swallow: bool
) -> None:
    # A tool turning its cancellation into another exception stopped the server: the call path
    # raised a CancelledError of its own, which anyio did not know for its cancel scope's.
    marker = log_dir / f"cancel-{uuid.uuid4().hex}"
    arguments = {"seconds": 60, "marker": str(marker), "swallow": swallow}
    async with anyio.create_task_group() as group:
        group.start_soon(served.call, "sample_asleep", arguments)
        with anyio.fail_after(BOUND):
            while not marker.exists():
                await anyio.sleep(0.05)
        group.cancel_scope.cancel()  # the SDK client sends notifications/cancelled
    with anyio.fail_after(BOUND):
        while marker.read_text() != "cancelled":
            await anyio.sleep(0.05)
    with anyio.fail_after(BOUND):
        while "tool=sample_asleep outcome=cancelled" not in served.log():
            await anyio.sleep(0.05)
    # The server goes on serving.
    assert text_of(await served.call("sample_add", {"a": 1, "b": 2})) == "3"


# ------------------------------------------------------------------- the built-in text tools

TEXT_CALLS: list[tuple[str, dict[str, Any]]] = [
    ("text_grep", {"text": "ERROR one\nok\nWARN two", "pattern": "ERROR|WARN"}),
    ("text_grep", {"text": "a\nb", "pattern": "z", "count_only": True}),
    ("text_grep", {"text": "a", "pattern": "("}),
    ("text_wc", {"text": "one two\nthree"}),
    ("text_wc", {"text": "one two\nthree", "chars_only": True}),
    ("text_rg", {"text": "x1\ny\nx22", "pattern": r"x\d+", "context": 1}),
    ("text_extract_lines", {"text": "a\nb\nc\nd", "start_line": 2, "end_line": 3}),
    ("text_filter_lines", {"text": "Apple\nbanana\napricot", "pattern": "^a", "invert": True}),
    ("text_unique_lines", {"text": "b\na\nb\nc\na", "preserve_order": True}),
    ("text_sort_lines", {"text": "10\n9\n100", "numeric": True, "reverse": True}),
    ("text_summarize_text", {"text": "The cat sat.\nThe cat ran far away.\n"}),
    ("text_wc", {"text": 7}),
    ("text_extract_lines", {"text": "a", "start_line": "1"}),
]


async def test_the_text_toolset_answers_exactly_what_invoke_returns(served: Served) -> None:
    proxies = {proxy.name: proxy for proxy in TextProcessingToolset.to_tools()}
    for name, arguments in TEXT_CALLS:
        expected = proxies[name].invoke(arguments)
        result = await served.call(name, arguments)
        if expected.ok:
            assert (result.is_error, text_of(result)) == (
                False,
                result_text(proxies[name], expected.value),
            ), name
        else:
            assert expected.error is not None
            assert envelope(result) == expected.error.to_dict(), name


async def test_one_log_line_per_call_without_argument_values(served: Served) -> None:
    secret = f"secret-{uuid.uuid4().hex}"
    await served.call("sample_echo", {"text": secret})
    await served.call("sample_fail", {"message": secret})
    with anyio.fail_after(BOUND):
        while "tool=sample_fail" not in served.log():
            await anyio.sleep(0.05)
    log = served.log()
    assert f"serving {len(tools())} tools over stdio" in log
    assert "tool=sample_echo outcome=ok duration=" in log
    assert "tool=sample_fail outcome=error:execution duration=" in log
    assert 'tool="sample_nope" outcome=error:arguments' in log
    assert "tool=sample_add outcome=error:arguments" in log
    assert "tool=sample_deadline outcome=error:timeout" in log
    assert secret not in log
    assert "Traceback" not in log


async def test_a_handshake_client_works_too(log_dir: Path) -> None:
    # The classic initialize handshake (protocol 2025-11-25), through ClientSession itself.
    with (log_dir / "handshake.log").open("w") as errlog, anyio.fail_after(BOUND):
        transport = stdio_client(parameters(SAMPLE, "--tools", "sample_add"), errlog=errlog)
        async with transport as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            listed = await session.list_tools()
            assert [tool.name for tool in listed.tools] == ["sample_add"]
            result = await session.call_tool("sample_add", {"a": 40, "b": 2})
    assert result.structured_content == {"result": 42}


# ----------------------------------------------------------------------- leaving mid-call


async def test_a_client_leaving_mid_call_ends_the_server_and_its_work(log_dir: Path) -> None:
    tag = f"typed-toolsets-test-{uuid.uuid4().hex}"
    log = log_dir / "leaving.log"
    args = ("--tools", "sample_pid,sample_child,sample_sleep", "--log-arguments")
    with log.open("w") as errlog:
        transport = stdio_client(parameters(SAMPLE, *args), errlog=errlog)
        async with Client(transport, read_timeout_seconds=BOUND) as client:
            listed = await client.list_tools()
            names = [tool.name for tool in listed.tools]
            assert names == ["sample_sleep", "sample_child", "sample_pid"]
            pid = int(text_of(await client.call_tool("sample_pid", {})))
            async with anyio.create_task_group() as group:
                # A sync tool asleep in its thread, and an async tool waiting for a child process.
                group.start_soon(client.call_tool, "sample_sleep", {"seconds": 120})
                group.start_soon(client.call_tool, "sample_child", {"tag": tag, "seconds": 120})
                with anyio.fail_after(BOUND):
                    while not processes_with(tag):
                        await anyio.sleep(0.05)
                group.cancel_scope.cancel()
            started = time.monotonic()
        # Leaving the block closed the server's stdin and waited for the server to exit.
        leaving = time.monotonic() - started
    # The server exited by itself within the client's grace period (after which the SDK
    # client would have killed its process group): no thread or child process held it.
    assert leaving < mcp.client.stdio.PROCESS_TERMINATION_TIMEOUT, log.read_text()
    wait_until(lambda: not alive(pid), 10, "the server to exit")
    wait_until(lambda: not processes_with(tag), 10, "the tool's child process to end")
    text = log.read_text()
    assert "stdin closed; stopping" in text
    assert "tool=sample_child outcome=cancelled duration=" in text
    assert f'"tag": "{tag}"' in text  # --log-arguments
    assert "Traceback" not in text


# ------------------------------------------------------------------------------ failures


async def test_a_target_that_does_not_import_ends_the_server_with_one_line(log_dir: Path) -> None:
    log = log_dir / "unimportable.log"

    async def connect() -> None:
        with log.open("w") as errlog:
            transport = stdio_client(parameters("no_such_module_xyz:Thing"), errlog=errlog)
            async with Client(transport, read_timeout_seconds=BOUND):
                pass

    with pytest.raises(BaseException) as raised:
        await connect()
    assert any(isinstance(e, MCPError) for e in flatten(raised.value)), raised.value
    assert log.read_text() == (
        "typed-toolsets serve: error: cannot import 'no_such_module_xyz': "
        "ModuleNotFoundError: No module named 'no_such_module_xyz'\n"
    )


def test_a_target_that_does_not_import_is_exit_status_2() -> None:
    done = subprocess.run(
        serve_argv("no_such_module_xyz:Thing"),
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=BOUND,
        check=False,
    )
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.startswith("typed-toolsets serve: error: cannot import")
    assert done.stderr.count("\n") == 1


UNDECODABLE = """\
from typed_toolsets import Toolset, tool


class UndecodableToolset(Toolset):
    @tool
    def name(self) -> str:
        return b"abc\\xff".decode("utf-8", "surrogateescape")

    @tool
    def names(self) -> list[str]:
        return [b"abc\\xff".decode("utf-8", "surrogateescape")]

    @tool
    def refuse(self) -> str:
        raise ValueError(b"no \\xff".decode("utf-8", "surrogateescape"))
"""


def test_text_with_a_lone_surrogate_is_answered_as_valid_unicode(tmp_path: Path) -> None:
    # A tool returns or raises text decoded with surrogateescape; the server once died of it.
    target = tmp_path / "undecodable.py"
    target.write_text(UNDECODABLE, encoding="utf-8")
    names = ["undecodable_name", "undecodable_names", "undecodable_refuse"]
    answers, status, stderr = raw_stdio(
        [f"{target}:UndecodableToolset"], [(n, {}) for n in names], BOUND
    )
    by_id = {answer.get("id"): answer["result"] for answer in answers}
    assert by_id[1]["content"][0]["text"] == "abc\ufffd", stderr
    assert by_id[2]["structuredContent"] == {"result": ["abc\ufffd"]}
    assert "ValueError: no \ufffd" in by_id[3]["content"][0]["text"]
    assert status == 0
    assert "Traceback" not in stderr


PRINTS = """\
import os
import subprocess
import sys

print("printed while importing")
os.write(1, b"written to fd 1 while importing\\n")
subprocess.run([sys.executable, "-c", "print('a child process, while importing')"], check=True)

from typed_toolsets import Toolset, tool


class PrintsToolset(Toolset):
    @tool
    def hi(self) -> str:
        print("printed by the tool")
        return "hi"
"""


def test_what_a_target_prints_while_importing_goes_to_stderr(tmp_path: Path) -> None:
    target = tmp_path / "prints.py"
    target.write_text(PRINTS, encoding="utf-8")
    answers, status, stderr = raw_stdio([str(target)], [("prints_hi", {})], BOUND)
    # Every line on stdout parsed as JSON-RPC (raw_stdio would have failed on any other).
    assert [answer.get("id") for answer in answers] == [0, 1], stderr
    assert answers[1]["result"]["content"][0]["text"] == "hi"
    for text in ("printed while importing", "written to fd 1", "a child process", "by the tool"):
        assert text in stderr
    assert status == 0


def test_what_a_tool_prints_reaches_stderr_while_the_server_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # sys.stdout, block-buffered on a pipe, held it until the server stopped (out of order with
    # the log, or lost to a SIGKILL).
    monkeypatch.delenv("PYTHONUNBUFFERED", raising=False)  # as a client starts the server
    target = tmp_path / "prints.py"
    target.write_text(PRINTS, encoding="utf-8")
    call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "prints_hi"}}
    with initialized(f"{target}:PrintsToolset") as process:
        assert process.stderr is not None
        send_line(process, json.dumps(call).encode())
        assert read_answer(process, BOUND)["id"] == 1
        seen = b""
        deadline = time.monotonic() + BOUND
        while b"printed by the tool" not in seen:
            assert time.monotonic() < deadline, seen.decode(errors="replace")
            ready, _, _ = select.select([process.stderr], [], [], 0.1)
            if ready:
                seen += os.read(process.stderr.fileno(), 65536)
        assert process.poll() is None  # still serving


HOST = """\
from typed_toolsets.server import serve
from typed_toolsets.text import TextProcessingToolset

print("starting my server")  # block-buffered: stdout is a pipe
serve(TextProcessingToolset.to_tools())
"""


def test_what_a_host_printed_before_serving_stays_off_the_protocol(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Making sys.stdout line-buffered flushed it, before the SDK had moved file descriptor 1:
    # the banner went out on the protocol's stdout.
    monkeypatch.delenv("PYTHONUNBUFFERED", raising=False)
    host = tmp_path / "host.py"
    host.write_text(HOST, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(host)],
        input=json.dumps(INITIALIZE).encode() + b"\n",
        capture_output=True,
        timeout=BOUND,
        check=False,
    )
    assert [json.loads(line)["id"] for line in done.stdout.splitlines()] == [0]
    assert b"starting my server" in done.stderr


CLOSES = """\
import sys

from typed_toolsets import Toolset, tool


class ClosesToolset(Toolset):
    @tool
    def shut(self) -> str:
        sys.stdout.close()
        return "shut"

    @tool
    def hi(self) -> str:
        return "hi"
"""


def test_a_tool_closing_sys_stdout_fails_no_later_call_and_not_the_stop(tmp_path: Path) -> None:
    # Over stdio sys.stdout writes to stderr (the protocol has file descriptor 1 of its own).
    # The server ended with status 1: "cannot write the output: sys.stdout was closed".
    target = tmp_path / "closes.py"
    target.write_text(CLOSES, encoding="utf-8")
    answers, status, stderr = raw_stdio(
        [f"{target}:ClosesToolset"], [("closes_shut", {}), ("closes_hi", {})], BOUND
    )
    texts = [answer["result"]["content"][0]["text"] for answer in answers[1:]]
    assert (texts, status) == (["shut", "hi"], 0), stderr
    assert "error" not in stderr


def _stderr(process: subprocess.Popen[bytes]) -> str:
    assert process.stderr is not None
    return process.stderr.read().decode(errors="replace")


def test_a_client_that_stops_reading_ends_the_server_quietly() -> None:
    with initialized(SAMPLE) as process:
        assert process.stdin is not None
        assert process.stdout is not None
        process.stdout.close()  # the client reads no more: the next answer breaks the pipe
        for index in range(1, 4):
            ping = {"jsonrpc": "2.0", "id": index, "method": "ping"}
            try:
                process.stdin.write(json.dumps(ping).encode() + b"\n")
                process.stdin.flush()
            except BrokenPipeError:
                break
            time.sleep(0.3)
        with contextlib.suppress(BrokenPipeError):
            process.stdin.close()
        status = process.wait(BOUND)
        stderr = _stderr(process)
    assert status == 0, stderr
    assert "Traceback" not in stderr


def _start_long_call(process: subprocess.Popen[bytes], tool: str) -> None:
    """Call *tool* (a sample sleeper) for 600 seconds, and give the call half a second to start."""
    call = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": tool, "arguments": {"seconds": 600}},
    }
    send_line(process, json.dumps(call).encode())
    time.sleep(0.5)


@pytest.mark.skipif(sys.platform != "linux", reason="watched on Linux only (epoll)")
@pytest.mark.parametrize("both", [False, True], ids=["stdout", "stdout-and-stdin"])
@pytest.mark.parametrize(
    "tool",
    [None, "sample_sleep", "sample_asleep"],
    ids=["idle", "mid-sync-call", "mid-async-call"],
)
def test_a_client_that_closes_stdout_ends_the_server_while_stdin_stays_open(
    tool: str | None, both: bool
) -> None:
    # The server noticed only when it next wrote: idle, it served on for ever; mid-call, until
    # the call ended (a 60 s call ran its 60 s). Now as closing stdin does: the calls get
    # ANSWER_GRACE (1 s), then are cancelled. The answers of the calls cancelled, which the
    # SDK then wrote to the closed pipe, made Python 3.13 print "Exception ignored ...
    # BrokenPipeError" as it ended.
    with initialized(SAMPLE) as process:
        assert process.stdin is not None
        assert process.stdout is not None
        if tool is not None:
            _start_long_call(process, tool)
        started = time.monotonic()
        process.stdout.close()
        if both:
            process.stdin.close()
        status = process.wait(BOUND)
        took = time.monotonic() - started
        stderr = _stderr(process)
    assert status == 0, stderr
    assert took < 30, took  # about 1 s; generous for a loaded machine
    assert "closed; stopping" in stderr
    assert "stdout closed; stopping" in stderr or both
    assert "Traceback" not in stderr
    assert "Exception ignored" not in stderr


def _socket_answer(sock: socket.socket) -> dict[str, Any]:
    """The next line the server writes on the socket *sock*, as JSON."""
    sock.settimeout(BOUND)
    line = b""
    while not line.endswith(b"\n"):
        chunk = sock.recv(65536)
        assert chunk, "the server closed its stdout"
        line += chunk
    answer: dict[str, Any] = json.loads(line)
    return answer


@contextlib.contextmanager
def _serving(stdin: int, stdout: int) -> Iterator[subprocess.Popen[bytes]]:
    """``serve SAMPLE`` over the descriptors *stdin* (or a pipe, for -1) and *stdout*.

    Killed at the end if it still runs.
    """
    with subprocess.Popen(
        serve_argv(SAMPLE),
        stdin=subprocess.PIPE if stdin < 0 else stdin,
        stdout=stdout,
        stderr=subprocess.PIPE,
        bufsize=0,  # each line written at once
    ) as process:
        try:
            yield process
        finally:
            if process.poll() is None:
                process.kill()
                process.wait(BOUND)


@pytest.mark.skipif(sys.platform != "linux", reason="watched on Linux only (epoll)")
def test_a_client_closing_a_socket_stdout_ends_the_server() -> None:
    # Node's spawn (Claude Desktop, VS Code, the MCP Inspector) gives a child's stdio as
    # sockets: only a pipe was watched, so the server served on for a client that had gone.
    ours, theirs = socket.socketpair()
    with _serving(-1, theirs.fileno()) as process:
        theirs.close()
        send_line(process, json.dumps(INITIALIZE).encode())
        assert _socket_answer(ours)["id"] == 0
        ours.close()
        status = process.wait(BOUND)
        stderr = _stderr(process)
    assert status == 0, stderr
    assert "stdout closed; stopping" in stderr


@pytest.mark.skipif(sys.platform != "linux", reason="watched on Linux only (epoll)")
def test_a_fifo_stdout_opened_for_reading_too_is_not_taken_for_a_closed_one(
    tmp_path: Path,
) -> None:
    # `serve 1<>fifo`: an answer not read yet made it readable, and the server stopped at once.
    fifo = tmp_path / "answers"
    os.mkfifo(fifo)
    both = os.open(fifo, os.O_RDWR)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        with _serving(-1, both) as process:
            send_line(process, json.dumps(INITIALIZE).encode())
            wait_until(lambda: select.select([reader], [], [], 0)[0], BOUND, "an answer")
            time.sleep(1.0)  # unread meanwhile: the pipe stays readable
            assert process.poll() is None
            assert json.loads(os.read(reader, 65536))["id"] == 0
            assert process.stdin is not None
            process.stdin.close()
            status = process.wait(BOUND)
            stderr = _stderr(process)
    finally:
        os.close(both)
        os.close(reader)
    assert status == 0, stderr
    assert "stdin closed; stopping" in stderr
    assert "stdout closed" not in stderr


@pytest.mark.skipif(sys.platform != "linux", reason="watched on Linux only (epoll)")
def test_one_socket_for_stdin_and_stdout_is_served_until_it_closes() -> None:
    # The client's requests make the socket readable too: that is no end of stdout (and the
    # watch must not spin on it).
    ours, theirs = socket.socketpair()
    with _serving(theirs.fileno(), theirs.fileno()) as process:
        theirs.close()
        ours.sendall(json.dumps(INITIALIZE).encode() + b"\n")
        assert _socket_answer(ours)["id"] == 0
        time.sleep(1.0)
        for index in (1, 2):
            ping = {"jsonrpc": "2.0", "id": index, "method": "ping"}
            ours.sendall(json.dumps(ping).encode() + b"\n")
            assert _socket_answer(ours)["id"] == index
        assert process.poll() is None
        ours.close()
        status = process.wait(BOUND)
        stderr = _stderr(process)
    assert status == 0, stderr
    assert "Traceback" not in stderr


@pytest.mark.parametrize(
    "tool",
    [None, "sample_sleep", "sample_asleep"],
    ids=["idle", "mid-sync-call", "mid-async-call"],
)
def test_ctrl_c_ends_the_server_with_status_130_while_the_client_keeps_stdin_open(
    tool: str | None,
) -> None:
    # A terminal's Ctrl-C (or a client's SIGINT) while stdin stays open: the server must not wait
    # for another line, or the end of stdin, before it stops; and it stops as a cancellation, on
    # Python 3.10 too, where Ctrl-C landing in one of the SDK's tasks was once logged as an
    # unhandled error of its task group.
    with initialized(SAMPLE) as process:
        assert process.stdin is not None
        if tool is not None:
            _start_long_call(process, tool)
        process.send_signal(signal.SIGINT)
        status = process.wait(20)  # stdin is still open
        stderr = _stderr(process)
    assert status == 130, stderr
    assert stderr.endswith("typed-toolsets serve: interrupted\n"), stderr
    # Only our own lines: no traceback, no "unhandled exception during asyncio.run() shutdown".
    strays = [line for line in stderr.splitlines() if "typed-toolsets serve: " not in line]
    assert strays == [], stderr


def _running_with(tag: str) -> list[int]:
    """The processes whose command line holds *tag* (read from /proc, Linux)."""
    found: list[int] = []
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        with contextlib.suppress(OSError):
            if tag.encode() in cmdline.read_bytes():
                found.append(int(cmdline.parent.name))
    return found


@pytest.mark.skipif(not Path("/proc/self/cmdline").exists(), reason="reads /proc")
def test_sigterm_cancels_the_calls_before_it_ends_the_server(tmp_path: Path) -> None:
    # An MCP client sends SIGTERM to a stdio server that does not exit when stdin closes. It
    # killed the server at once: a call still running was never cancelled, and the child
    # process of one (`sample_child`) ran on alone. The status stays the signal's.
    marker, tag = tmp_path / "asleep", f"typed-toolsets-test-{uuid.uuid4()}"
    calls = [
        ("sample_asleep", {"seconds": 600, "marker": str(marker)}),
        ("sample_child", {"tag": tag, "seconds": 600}),
    ]
    try:
        with initialized(SAMPLE) as process:
            assert process.stdin is not None
            for index, (name, arguments) in enumerate(calls, 1):
                call = {
                    "jsonrpc": "2.0",
                    "id": index,
                    "method": "tools/call",
                    "params": {"name": name, "arguments": arguments},
                }
                process.stdin.write(json.dumps(call).encode() + b"\n")
            process.stdin.flush()
            end = time.monotonic() + BOUND
            while not (marker.exists() and _running_with(tag)) and time.monotonic() < end:
                time.sleep(0.05)
            assert marker.read_text() == "started"
            process.send_signal(signal.SIGTERM)
            status = process.wait(20)  # stdin is still open
            end = time.monotonic() + 5
            while _running_with(tag) and time.monotonic() < end:
                time.sleep(0.05)
            assert _running_with(tag) == []  # (a child left running holds stderr open)
            stderr = _stderr(process)
    finally:
        for pid in _running_with(tag):
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
    assert status == -signal.SIGTERM, stderr
    assert marker.read_text() == "cancelled"
    assert "Traceback" not in stderr


#: What a server that ended without a call ignoring its cancellation logs.
LEFT_RUNNING = "calls still running did not stop within 0.5 s of their cancellation"


@pytest.mark.parametrize(
    ("stop", "status"),
    [("close", 0), (signal.SIGTERM, -signal.SIGTERM), (signal.SIGINT, 130)],
    ids=["stdin-closed", "SIGTERM", "SIGINT"],
)
def test_a_call_that_ignores_its_cancellation_does_not_hold_the_stop(
    tmp_path: Path, stop: str | signal.Signals, status: int
) -> None:
    # The stop cancelled the call, then waited for it forever (the SDK's task groups, then
    # asyncio's own ending, wait for every task); the process never ended on any stop.
    marker = tmp_path / "marker"
    call = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": "stubborn_ignore", "arguments": {"marker": str(marker)}},
    }
    with initialized(STUBBORN) as process:
        assert process.stdin is not None
        process.stdin.write(json.dumps(call).encode() + b"\n")
        process.stdin.flush()
        wait_until(marker.exists, BOUND, "the call to start")
        stopped = time.monotonic()
        if stop == "close":
            process.stdin.close()
        else:
            process.send_signal(stop)
        ended = process.wait(20)
        took = time.monotonic() - stopped
        stderr = _stderr(process)
    assert (ended, took < 10) == (status, True), stderr
    assert marker.read_text() == "cancelled"  # it was told, and went on
    assert LEFT_RUNNING in stderr
    assert "Traceback" not in stderr


#: A grep that backtracks for minutes (GNU grep's matcher of back-references), far past the
#: tool's 10 s deadline: what a model can send `text_grep`.
BACKTRACKING: Final[dict[str, Any]] = {"text": "ab" * 300 + "z", "pattern": r"^(.*)(.*)\2\1\1z"}


def _greps_of(pid: int) -> set[int]:
    return {
        child
        for child in children_of(pid)
        if b"grep" in Path(f"/proc/{child}/cmdline").read_bytes().split(b"\0")[0]
    }


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads /proc")
@pytest.mark.parametrize(
    ("stop", "status"),
    [("close", 0), (signal.SIGTERM, -signal.SIGTERM), (signal.SIGINT, 130)],
    ids=["stdin-closed", "SIGTERM", "SIGINT"],
)
def test_a_stop_kills_the_programs_of_the_calls_it_leaves(
    stop: str | signal.Signals, status: int
) -> None:
    # The call's thread kills grep's process group at the deadline; the stop left that thread
    # (a daemon) behind and the process ended, so grep ran on with no deadline at all.
    call = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": "text_grep", "arguments": BACKTRACKING},
    }
    greps: set[int] = set()
    try:
        with initialized(TEXT) as process:
            assert process.stdin is not None
            process.stdin.write(json.dumps(call).encode() + b"\n")
            process.stdin.flush()
            wait_until(lambda: greps.update(_greps_of(process.pid)) or greps, BOUND, "grep")
            if stop == "close":
                process.stdin.close()
            else:
                process.send_signal(stop)
            ended = process.wait(20)
            wait_until(lambda: not any(map(alive, greps)), 5, "grep to end")
            stderr = _stderr(process)
    finally:
        for pid in greps:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
    assert ended == status, stderr
    assert "Traceback" not in stderr


def test_calls_piped_in_before_stdin_ends_are_all_answered() -> None:
    # Told of the end at once, the SDK cancelled calls that had ended before their answers
    # were written: a script piping its requests in lost answers at random (8 runs in 10).
    calls = [
        {
            "jsonrpc": "2.0",
            "id": number,
            "method": "tools/call",
            "params": {"name": "sample_add", "arguments": {"a": number, "b": 1}},
        }
        for number in (1, 2, 3)
    ]
    lines = [INITIALIZE, {"jsonrpc": "2.0", "method": "notifications/initialized"}, *calls]
    piped = b"".join(json.dumps(line).encode() + b"\n" for line in lines)
    for _ in range(5):
        done = subprocess.run(
            serve_argv(SAMPLE), input=piped, capture_output=True, timeout=BOUND, check=False
        )
        answers = {answer["id"]: answer for answer in map(json.loads, done.stdout.splitlines())}
        assert done.returncode == 0, done.stderr
        assert sorted(answers) == [0, 1, 2, 3], done.stderr
        assert [answers[n]["result"]["content"][0]["text"] for n in (1, 2, 3)] == ["2", "3", "4"]
