"""``typed-toolsets serve TARGET...``: the targets' tools as one MCP server, over stdio or HTTP.

Loads its targets as ``list``/``schema``/``call`` do (`typed_toolsets.cli.tools`), merges them
(two tools with one name is a usage error naming both), keeps only ``--tools`` when given, and
runs `typed_toolsets.server`. With ``--workers N`` (HTTP), uvicorn starts N processes that each
build the same app from the settings this process leaves in its environment (`worker_app`); a
token is read from its variable by each worker, so it never appears on a command line.

This module is light: the MCP SDK is imported only when the command runs, and its absence is a
usage error (exit status 2) with the remedy.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import textwrap
import time
from typing import TYPE_CHECKING, Any, Final, TextIO

import attrs

from .main import EXIT_OK, EXIT_USAGE

if TYPE_CHECKING:
    from starlette.applications import Starlette

    from typed_toolsets import ToolProxy

__all__ = ["SETTINGS_VARIABLE", "add_parser", "serve_command", "worker_app"]

#: The environment variable through which `serve_command` hands its settings to its workers.
SETTINGS_VARIABLE: Final = "TYPED_TOOLSETS_SERVE_SETTINGS"

_DEFAULT_HOST: Final = "127.0.0.1"
_DEFAULT_PORT: Final = 8000
_EXAMPLE: Final = "typed_toolsets.text:TextProcessingToolset"


@attrs.frozen
class _Settings:
    """What every worker process needs to build the same app."""

    targets: tuple[str, ...]
    tools: tuple[str, ...] | None
    token_env: str | None
    log_arguments: bool
    # Whether the processes serve only (see `typed_toolsets.server.stopping`): the command runs
    # as the program, not as a function called from other code.
    own_process: bool = False

    def to_json(self) -> str:
        return json.dumps(attrs.asdict(self))

    @classmethod
    def from_json(cls, text: str) -> _Settings:
        data: dict[str, Any] = json.loads(text)
        tools = data["tools"]
        return cls(
            targets=tuple(data["targets"]),
            tools=tuple(tools) if tools is not None else None,
            token_env=data["token_env"],
            log_arguments=bool(data["log_arguments"]),
            own_process=data.get("own_process") is True,
        )


def add_parser(commands: Any) -> None:
    """Add the ``serve`` subcommand to *commands* (the subparsers of `build_parser`)."""
    serve = commands.add_parser(
        "serve",
        help="run the tools as an MCP server, over stdio or Streamable HTTP",
        description=textwrap.fill(
            "Serve the tools of every TARGET as one MCP server (the official MCP SDK; install "
            "typed-toolsets[mcp]). Over stdio (the default) for the client that starts it; "
            "over stateless Streamable HTTP at /mcp, where any number of processes behind a "
            "load balancer serve one client. HTTP binds to 127.0.0.1 unless told otherwise; "
            "any other address needs a bearer token (--token-env). Each call writes one line "
            "to stderr: the tool, its outcome and its duration.",
            79,
        ),
        epilog=(
            "examples:\n"
            f"  typed-toolsets serve {_EXAMPLE}\n"
            f"  typed-toolsets serve {_EXAMPLE} --tools text_wc,text_grep\n"
            f"  typed-toolsets serve {_EXAMPLE} --transport http --port 8000 --workers 2\n"
            f"  MCP_TOKEN=... typed-toolsets serve {_EXAMPLE} --transport http \\\n"
            "      --host 0.0.0.0 --token-env MCP_TOKEN"
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    serve.add_argument(
        "targets",
        nargs="+",
        metavar="TARGET",
        help=(
            "the toolsets: module:Class, module (every Toolset it defines or lists in "
            "__all__), path/to/file.py:Class or path/to/file.py, each built with no "
            "constructor arguments; several merge into one server"
        ),
    )
    serve.add_argument(
        "--transport", choices=("stdio", "http"), default="stdio", help="(default: stdio)"
    )
    serve.add_argument(
        "--host",
        help=f"(http) the address to bind (default: {_DEFAULT_HOST}); "
        "anything but loopback needs --token-env",
    )
    serve.add_argument(
        "--port", type=int, help=f"(http) the port (default: {_DEFAULT_PORT}; 0 picks a free one)"
    )
    serve.add_argument(
        "--tools",
        action="append",
        metavar="NAME,...",
        help="expose only these tools (comma-separated, or repeat the option)",
    )
    serve.add_argument(
        "--token-env",
        metavar="NAME",
        help="(http) require Authorization: Bearer <token>, the token being the value of the "
        "environment variable NAME",
    )
    serve.add_argument("--workers", type=int, help="(http) how many worker processes (default: 1)")
    serve.add_argument(
        "--log-arguments",
        action="store_true",
        help="log the arguments' values too (by default only the tool, outcome and duration)",
    )
    serve.set_defaults(handler=serve_command)


def _tool_names(option: list[str] | None) -> tuple[str, ...] | None:
    if option is None:
        return None
    names = tuple(name.strip() for value in option for name in value.split(",") if name.strip())
    if not names:
        from .tools import CommandError

        raise CommandError(EXIT_USAGE, "--tools names no tool")
    return names


def _load(settings: _Settings) -> list[ToolProxy]:
    """The targets' tools, merged, restricted to ``--tools``; every tool name unique.

    Raises:
        CommandError: A target cannot be loaded, a name is unknown, or two tools share one.
    """
    from .tools import CommandError, did_you_mean, targets_tools, unique_or_stop

    tools = targets_tools(list(settings.targets))
    if settings.tools is not None:
        known = {proxy.name for proxy in tools}
        unknown = [name for name in settings.tools if name not in known]
        if unknown:
            names = ", ".join(repr(name) for name in unknown)
            tool_names = list(dict.fromkeys(proxy.name for proxy in tools))
            hint = did_you_mean(unknown, tool_names)
            available = ", ".join(tool_names) or "none"
            msg = f"--tools: no tool {names} in the targets{hint}; available tools: {available}"
            raise CommandError(EXIT_USAGE, msg)
        wanted = set(settings.tools)
        tools = [proxy for proxy in tools if proxy.name in wanted]
    chosen = list(unique_or_stop(tools).values())
    if not chosen:
        raise CommandError(EXIT_USAGE, "the targets export no tools; there is nothing to serve")
    return chosen


def _token(settings: _Settings) -> str | None:
    if settings.token_env is None:
        return None
    name = settings.token_env
    token = os.environ.get(name, "")
    from typed_toolsets.server.guard import token_problem

    problem = token_problem(token)
    if problem is None:
        return token
    from .tools import CommandError

    if not token:
        msg = (
            f"--token-env {name}: the environment variable {name} is not set or empty; put the "
            "bearer token there"
        )
    else:
        msg = f"--token-env {name}: the token {problem}"
    raise CommandError(EXIT_USAGE, msg)


def _http_only(args: argparse.Namespace) -> None:
    """Refuse the HTTP options with stdio: the user meant HTTP and would get a silent stdio."""
    from .tools import CommandError

    given = [
        option
        for option, value in (
            ("--host", args.host),
            ("--port", args.port),
            ("--token-env", args.token_env),
            ("--workers", args.workers),
        )
        if value is not None
    ]
    if given:
        msg = f"{', '.join(given)} applies to --transport http; add it, or leave the option out"
        raise CommandError(EXIT_USAGE, msg)


def _stdio_streams() -> None:
    """Refuse stdio without stdin or stdout (``<&-``, ``>&-``): there is no client to serve.

    As in the other commands, a missing stdin is a usage error (``call -``) and a missing
    stdout an output that cannot be written (status 1).
    """
    from .main import EXIT_PROBLEMS
    from .tools import CommandError

    if sys.stdin is None:
        raise CommandError(EXIT_USAGE, "cannot serve over stdio: stdin is closed")
    if sys.stdout is None:
        raise CommandError(EXIT_PROBLEMS, "cannot write the output: stdout is closed")


def _serve(args: argparse.Namespace) -> int:
    from .tools import CommandError

    try:
        from typed_toolsets import server
    except ImportError as exc:
        raise CommandError(EXIT_USAGE, str(exc)) from None
    settings = _Settings(
        targets=tuple(args.targets),
        tools=_tool_names(args.tools),
        token_env=args.token_env,
        log_arguments=args.log_arguments,
        own_process=args.as_program,
    )
    _own_process(settings)
    if args.transport == "stdio":
        _http_only(args)
        _stdio_streams()
        tools = _load(settings)  # what the targets print goes to stderr (`targets_tools`)
        server.serve(tools, transport="stdio", log_arguments=settings.log_arguments)
        return EXIT_OK
    host = args.host if args.host is not None else _DEFAULT_HOST
    port = args.port if args.port is not None else _DEFAULT_PORT
    workers = args.workers if args.workers is not None else 1
    if workers < 1:
        raise CommandError(EXIT_USAGE, f"--workers must be at least 1, not {workers}")
    if not 0 <= port <= 65535:
        msg = f"{port} is no port: give --port within 0-65535 (0 picks a free one)"
        raise CommandError(EXIT_USAGE, msg)
    token = _token(settings)
    try:
        server.check_bind(host, token)
    except ValueError as exc:
        raise CommandError(EXIT_USAGE, str(exc)) from None
    tools = _load(settings)
    try:
        if workers == 1:
            server.serve(
                tools,
                transport="http",
                host=host,
                port=port,
                token=token,
                log_arguments=settings.log_arguments,
            )
        else:
            from typed_toolsets.server.http import WorkerStartError, run
            from typed_toolsets.server.protocol import tools_text

            os.environ[SETTINGS_VARIABLE] = settings.to_json()
            server.configure_logging()
            try:
                run(
                    f"{__name__}:worker_app",
                    host=host,
                    port=port,
                    workers=workers,
                    what=tools_text(tools),
                )
            except WorkerStartError as exc:
                raise CommandError(EXIT_USAGE, str(exc)) from None
    except OSError as exc:
        raise CommandError(EXIT_USAGE, f"cannot serve on {host}:{port}: {exc}") from None
    return EXIT_OK


def _own_process(settings: _Settings) -> None:
    """Let a stop end this process when it only serves (see `typed_toolsets.server.stopping`)."""
    if settings.own_process:
        from typed_toolsets.server.stopping import stop_ends_process

        stop_ends_process()


def serve_command(args: argparse.Namespace, _out: TextIO, err: TextIO) -> int:
    """``typed-toolsets serve TARGET... [--transport stdio|http] [...]``."""
    from .tools import run_command

    return run_command("serve", err, lambda: _serve(args))  # Ctrl-C: see `main`


def worker_app() -> Starlette:
    """The app of one ``serve --workers N`` worker process, built from the parent's settings.

    The worker stops (as on SIGTERM) once the process that started it is gone.

    Raises:
        RuntimeError: The settings are missing (not started by ``serve``), or, called in-process,
            the targets do not load.
        SystemExit: In a worker process, the targets no longer load as they did in the parent
            (the reason on stderr, in one line): with uvicorn's ``STARTUP_FAILURE`` status, 3,
            which stops the server.
    """
    from typed_toolsets import server

    from .tools import CommandError, error_lines

    text = os.environ.get(SETTINGS_VARIABLE)
    if text is None:
        msg = (
            "worker_app() builds the app of `typed-toolsets serve --workers N`, which sets "
            f"{SETTINGS_VARIABLE}"
        )
        raise RuntimeError(msg)
    settings = _Settings.from_json(text)
    server.configure_logging()
    _own_process(settings)
    parent = _serving_parent(settings)
    try:
        tools = _load(settings)
        token = _token(settings)
    except CommandError as exc:
        if parent is None:  # called from other code, in its own process
            raise RuntimeError(exc.message) from None
        # One line, as the parent's own errors, and the status uvicorn (and gunicorn) take for
        # a worker that cannot start: any other made uvicorn start it again, failing the same
        # way, for ever.
        from uvicorn.config import STARTUP_FAILURE

        error_lines("serve", sys.stderr, f"worker process {os.getpid()}: {exc.message}")
        sys.exit(STARTUP_FAILURE)
    if parent is not None:
        _end_with(parent)
    return server.asgi_app(tools, token=token, log_arguments=settings.log_arguments)


def _serving_parent(settings: _Settings) -> int | None:
    """The ``serve`` process this one is a worker of; None when `worker_app` is called in-process.

    uvicorn spawns its workers (`multiprocessing` knows their parent: any process started by
    `multiprocessing` that builds the app from ``serve``'s settings is taken for one); under
    ``serve`` run as the program, a worker forked by another server (gunicorn) has its parent
    as its own.
    """
    import multiprocessing

    started_by = multiprocessing.parent_process()
    if started_by is not None and started_by.pid is not None:
        return started_by.pid
    return os.getppid() if settings.own_process else None


def _end_with(parent: int) -> None:
    """Stop this worker (as SIGTERM does) once *parent*, the ``serve`` process, is gone.

    Killed with SIGKILL (the OOM killer, a supervisor's last resort), the parent cannot stop
    its workers: they served on, holding the port the next ``serve`` needs. The parent may be
    gone already, while the worker was still importing the targets.
    """
    import signal
    import threading

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(_PARENT_CHECK_SECONDS)
        os.kill(os.getpid(), signal.SIGTERM)

    threading.Thread(target=watch, name="typed_toolsets-parent-watch", daemon=True).start()


#: How often a worker looks whether its parent is still there.
_PARENT_CHECK_SECONDS: Final = 1.0
