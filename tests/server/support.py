"""What the server tests share: starting ``typed-toolsets serve``, watching processes, results.

Every wait is bounded, every server is stopped by its PID, and the HTTP servers bind to
loopback with port 0 (the log line names the port the system chose).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import select
import signal
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, Final

SAMPLE = f"{Path(__file__).with_name('sample.py')}:SampleToolset"
OTHER = f"{Path(__file__).with_name('sample.py')}:OtherToolset"
STUBBORN = f"{Path(__file__).with_name('sample.py')}:StubbornToolset"
TEXT = "typed_toolsets.text:TextProcessingToolset"

#: How long a server may take to start: it imports the MCP SDK, and the machine may be busy.
START_TIMEOUT = 60.0
STOP_TIMEOUT = 20.0

_URL = re.compile(r"at (http://\S+/mcp) ")


def serve_argv(*args: str) -> list[str]:
    """The command line of ``typed-toolsets serve ARGS``, as a client would start it."""
    return [sys.executable, "-m", "typed_toolsets", "serve", *args]


def wait_until(condition: object, timeout: float, what: str) -> None:
    """Poll *condition* (a callable) until it is true; fail after *timeout* seconds."""
    deadline = time.monotonic() + timeout
    while not condition():  # type: ignore[operator]
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(0.05)


def alive(pid: int) -> bool:
    """Whether *pid* is a live process (a zombie counts as gone)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state != "Z"


def children_of(pid: int) -> set[int]:
    """The live children of *pid*."""
    found: set[int] = set()
    with contextlib.suppress(FileNotFoundError):
        for task in os.listdir(f"/proc/{pid}/task"):
            with contextlib.suppress(FileNotFoundError):
                text = Path(f"/proc/{pid}/task/{task}/children").read_text()
                found.update(int(child) for child in text.split())
    return {child for child in found if alive(child)}


def processes_with(tag: str) -> set[int]:
    """Live processes whose command line contains *tag*."""
    found: set[int] = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError):
                argv = Path(f"/proc/{entry}/cmdline").read_bytes().split(b"\0")
                if tag.encode() in argv and alive(int(entry)):
                    found.add(int(entry))
    return found


# Sets the limits on open files given first, then runs the command line that follows.
_LIMITED = (
    "import os, resource, sys; "
    "resource.setrlimit(resource.RLIMIT_NOFILE, (int(sys.argv[1]), int(sys.argv[2]))); "
    "os.execv(sys.argv[3], sys.argv[3:])"
)


class HttpServer:
    """A ``typed-toolsets serve --transport http --port 0`` subprocess, stderr in a file.

    Started at once; `wait_started` waits for its listening line (several may start together).
    """

    def __init__(
        self,
        args: Sequence[str],
        log: Path,
        env: dict[str, str] | None = None,
        open_files: tuple[int, int] | None = None,
    ) -> None:
        self.log_path = log
        self.url = ""
        argv = serve_argv(*args, "--transport", "http", "--port", "0")
        if open_files is not None:  # started under these (soft, hard) limits on open files
            argv = [sys.executable, "-c", _LIMITED, *map(str, open_files), *argv]
        with log.open("wb") as stderr:
            self.process = subprocess.Popen(
                argv,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=stderr,
                env=env,
            )
        self.pid = self.process.pid

    def wait_started(self) -> HttpServer:
        """Wait for the listening line; `url` is then the endpoint."""
        wait_until(
            lambda: _URL.search(self.log()) or self.process.poll() is not None,
            START_TIMEOUT,
            "the server's listening line",
        )
        found = _URL.search(self.log())
        assert found is not None, f"the server did not start:\n{self.log()}"
        self.url = found.group(1)
        return self

    @property
    def port(self) -> int:
        return int(self.url.rsplit(":", 1)[1].split("/")[0])

    def log(self) -> str:
        """What the server wrote to stderr so far."""
        return self.log_path.read_text(errors="replace")

    def stop(self) -> int | None:
        """Stop it with SIGTERM (its workers too), SIGKILL if it hangs; its exit status."""
        if self.process.poll() is None:
            os.kill(self.pid, signal.SIGTERM)
            try:
                self.process.wait(STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                os.kill(self.pid, signal.SIGKILL)
                self.process.wait(STOP_TIMEOUT)
        return self.process.returncode


def text_of(result: Any) -> str:
    """The one text block of an MCP tool result."""
    (block,) = result.content
    assert block.type == "text"
    return str(block.text)


def flatten(exc: BaseException) -> Iterator[BaseException]:
    """The leaves of an exception group (the SDK's clients raise them), or *exc* itself."""
    inner = getattr(exc, "exceptions", None)
    if inner is None:
        yield exc
    else:
        for each in inner:
            yield from flatten(each)


#: A client's first request, as a raw JSON-RPC line holds it.
INITIALIZE: Final[dict[str, Any]] = {
    "jsonrpc": "2.0",
    "id": 0,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "test", "version": "0"},
    },
}


def raw_stdio(
    args: Sequence[str], calls: Sequence[tuple[str, dict[str, Any]]], timeout: float
) -> tuple[list[dict[str, Any]], int, str]:
    """Drive ``typed-toolsets serve ARGS`` over stdio with raw JSON lines, as a client does.

    Sends ``initialize``, then each ``tools/call`` (ids 1, 2, ...), reads until every call is
    answered (or stdout ends), then closes stdin. Returns every line the server wrote on stdout
    (each parsed as JSON: the protocol is all that may be there), its exit status and stderr.
    """
    lines = [INITIALIZE, {"jsonrpc": "2.0", "method": "notifications/initialized"}]
    lines += [
        {
            "jsonrpc": "2.0",
            "id": index,
            "method": "tools/call",
            "params": {"name": name, "arguments": arguments},
        }
        for index, (name, arguments) in enumerate(calls, 1)
    ]
    process = subprocess.Popen(
        serve_argv(*args),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        bufsize=0,  # unbuffered, so select() sees every line not yet read
    )
    with process:
        try:
            answers = _exchange(process, lines, time.monotonic() + timeout)
            status = process.wait(timeout)
        finally:
            if process.poll() is None:
                os.kill(process.pid, signal.SIGKILL)
                process.wait(STOP_TIMEOUT)
        assert process.stdout is not None
        assert process.stderr is not None
        answers += [json.loads(text) for text in process.stdout.read().splitlines() if text]
        stderr = process.stderr.read().decode(errors="replace")
    return answers, status, stderr


@contextlib.contextmanager
def initialized(*args: str) -> Iterator[subprocess.Popen[bytes]]:
    """A ``typed-toolsets serve ARGS`` stdio subprocess past ``initialize`` (its pipes unbuffered).

    Killed at the end if it still runs.
    """
    with subprocess.Popen(
        serve_argv(*args),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        bufsize=0,  # unbuffered, so select() sees every line not yet read
    ) as process:
        assert process.stdin is not None
        try:
            send_line(process, json.dumps(INITIALIZE).encode())
            assert read_answer(process, START_TIMEOUT)["id"] == 0
            yield process
        finally:
            if process.poll() is None:
                process.kill()
                process.wait(STOP_TIMEOUT)
            with contextlib.suppress(BrokenPipeError):
                process.stdin.close()


def send_line(process: subprocess.Popen[bytes], line: bytes) -> None:
    """Write *line* and a newline to the stdin of *process*."""
    write(process, line + b"\n")


def write(process: subprocess.Popen[bytes], data: bytes) -> None:
    """Write all of *data* to the (unbuffered) stdin of *process*."""
    assert process.stdin is not None
    view = memoryview(data)
    while view:
        view = view[process.stdin.write(view) or 0 :]


def read_answer(process: subprocess.Popen[bytes], timeout: float) -> dict[str, Any]:
    """The next line *process* writes on stdout, as JSON; fail after *timeout* seconds."""
    assert process.stdout is not None
    line = _read_line(process.stdout, time.monotonic() + timeout)
    assert line, "stdout ended"
    answer: dict[str, Any] = json.loads(line)
    return answer


def _exchange(
    process: subprocess.Popen[bytes], lines: list[dict[str, Any]], deadline: float
) -> list[dict[str, Any]]:
    """Write *lines* one at a time, each request answered before the next; then close stdin."""
    assert process.stdin is not None
    assert process.stdout is not None
    answers: list[dict[str, Any]] = []
    for line in lines:
        process.stdin.write(json.dumps(line).encode() + b"\n")
        process.stdin.flush()
        while "id" in line and not any(a.get("id") == line["id"] for a in answers):
            text = _read_line(process.stdout, deadline)
            if not text:  # stdout ended: the server has gone
                process.stdin.close()
                return answers
            answers.append(json.loads(text))
    process.stdin.close()
    return answers


def _read_line(stream: Any, deadline: float) -> bytes:
    """One line of *stream*, waiting at most until *deadline* for it to begin."""
    ready, _, _ = select.select([stream], [], [], max(deadline - time.monotonic(), 0.0))
    if not ready:
        raise AssertionError("the server answered nothing before the deadline")
    line: bytes = stream.readline()
    return line


def post_scope() -> dict[str, Any]:
    """The ASGI scope of a JSON POST to ``/mcp`` from loopback, for an app driven by hand."""
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/mcp",
        "raw_path": b"/mcp",
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"127.0.0.1"), (b"content-type", b"application/json")],
        "client": ("127.0.0.1", 5000),
        "server": ("127.0.0.1", 8000),
    }
