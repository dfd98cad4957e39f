"""The ``typed-toolsets`` command line (also ``python -m typed_toolsets``).

Each subcommand is a function taking the parsed arguments and returning the exit status; they
import what they need when they run, so ``typed-toolsets --help`` stays fast. Exit statuses:
0 success, 1 problems found (or the output cannot be written), 2 usage errors and targets that
cannot be imported, 130 Ctrl-C; never a traceback: `main` turns the rest into one line (a
Ctrl-C before `main` runs, while Python starts and imports this module, is Python's own).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import io
import os
import re
import signal
import sys
import textwrap
import threading
import typing
from collections.abc import Callable, Sequence
from types import FrameType
from typing import TYPE_CHECKING, Any, Final, NoReturn, TextIO

from typed_toolsets._version import __version__

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

__all__ = ["SCHEMA_FORMATS", "STRICT_FORMATS", "build_parser", "main"]

EXIT_OK: Final = 0
EXIT_PROBLEMS: Final = 1
EXIT_USAGE: Final = 2
#: Ctrl-C (128 + SIGINT, as a shell reports a process the signal stopped).
EXIT_INTERRUPTED: Final = 130

_TARGET_HELP: Final = (
    "module:Class, module (every Toolset it defines or lists in __all__), path/to/file.py:Class "
    "or path/to/file.py"
)
_ONE_TARGET_HELP: Final = (
    "the toolsets: module:Class, module (every Toolset it defines or lists in __all__), "
    "path/to/file.py:Class or path/to/file.py; each class is built with no constructor arguments"
)
_EXAMPLE_TARGET: Final = "typed_toolsets.text:TextProcessingToolset"
#: ``schema --format`` choices, and those with a strict variant.
SCHEMA_FORMATS: Final = ("json-schema", "openai", "openai-responses", "anthropic", "gemini", "mcp")
STRICT_FORMATS: Final = ("json-schema", "openai", "openai-responses", "anthropic")

Command = Callable[[argparse.Namespace, TextIO, TextIO], int]


def _check(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from typed_toolsets.analysis.check import TargetError, run_check

    from .streams import stdin_from_null, stdout_to_stderr

    try:
        # What the targets print on import is no finding, and what they read is nothing.
        with stdout_to_stderr(), stdin_from_null():
            result = run_check(args.targets, disable=args.disable)
    except TargetError as exc:
        err.write(f"typed-toolsets check: error: {exc}\n")
        return EXIT_USAGE
    count = len(result.findings)
    skipped = len(result.unchecked)
    # The verdict stands if the reader of the findings goes away (`check pkg | head`).
    args.verdict = EXIT_USAGE if skipped else EXIT_PROBLEMS if count else EXIT_OK
    for finding in result.findings:
        out.write(finding.format() + "\n")
    checked = len(result.classes)
    toolsets = f"{checked} toolset{'s' if checked != 1 else ''}"
    # Targets that could not be checked are said last, and make the status a usage error's.
    tail = f"; {skipped} target{'s' if skipped != 1 else ''} not checked" if skipped else ""
    if count:
        files = len({f.path for f in result.findings})
        problems = "problem" if count == 1 else "problems"
        out.write(f"Found {count} {problems} in {files} file{'s' if files != 1 else ''} ")
        out.write(f"(checked {toolsets}{tail})\n")
    elif skipped:
        out.write(f"No problems found in {toolsets}{tail}\n")
    else:
        out.write(f"Success: no problems found in {toolsets}\n")
    for reason in result.unchecked:
        err.write(f"typed-toolsets check: error: {reason}\n")
    verdict: int = args.verdict
    return verdict


def _demo(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from .demo import main as demo

    try:
        # The demo's agent runs the text toolset, which needs a POSIX system: off one, its
        # import says so, and that is said in one line, not as a traceback.
        importlib.import_module("typed_toolsets.text")
    except ImportError as exc:
        err.write(f"typed-toolsets demo: error: {exc}\n")
        return EXIT_PROBLEMS
    demo(out, as_json=args.json)
    return EXIT_OK


def _tool_command(name: str) -> Command:
    """The handler *name* of `typed_toolsets.cli.tools`, imported when the command runs."""

    def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
        from . import tools

        handler: Command = getattr(tools, name)
        return handler(args, out, err)

    return run


def _paragraph(text: str) -> str:
    # The tool commands format their help raw, for the examples; wrap the prose here.
    return textwrap.fill(text, 79)


def _add_tool_commands(commands: Any) -> None:
    """``list``, ``schema`` and ``call``: what a toolset offers a model, and running it."""
    formatter = argparse.RawDescriptionHelpFormatter
    listing = commands.add_parser(
        "list",
        help="show a table of the tools: parameters (JSON types, defaults) and descriptions",
        description=_paragraph(
            "Print one row per tool: its exported name, its parameters as JSON types with their "
            "defaults (what `call` and a model send), and the first line of its description."
        ),
        epilog=f"example:\n  typed-toolsets list {_EXAMPLE_TARGET}",
        formatter_class=formatter,
    )
    listing.add_argument("target", metavar="TARGET", help=_ONE_TARGET_HELP)
    listing.set_defaults(handler=_tool_command("list_command"))

    schema = commands.add_parser(
        "schema",
        help="print the tool definitions as JSON, in a model API's format",
        description=_paragraph(
            "Print the tool definitions as a JSON array: the canonical JSON Schemas "
            "(json-schema: name, description, parameters) or the tools of an OpenAI Chat, "
            "OpenAI Responses, Anthropic, Gemini or MCP request. Exit status 1 when the tools "
            "cannot be exported as asked (the reason names the tool and parameter)."
        ),
        epilog=(
            "examples:\n"
            f"  typed-toolsets schema {_EXAMPLE_TARGET}\n"
            f"  typed-toolsets schema {_EXAMPLE_TARGET} --format openai --strict"
        ),
        formatter_class=formatter,
    )
    schema.add_argument("target", metavar="TARGET", help=_ONE_TARGET_HELP)
    schema.add_argument(
        "--format",
        choices=SCHEMA_FORMATS,
        default="json-schema",
        help="the output format (default: json-schema)",
    )
    schema.add_argument(
        "--strict",
        action="store_true",
        help=(
            "the strict variant (every property required, null meaning the default); for "
            + ", ".join(STRICT_FORMATS)
        ),
    )
    schema.set_defaults(handler=_tool_command("schema_command"))

    call = commands.add_parser(
        "call",
        help="run one tool with JSON arguments, as a model would",
        description=_paragraph(
            "Run TOOL with ARGUMENTS through the model-facing path (limits, JSON parsing, "
            "validation, structuring). The result goes to stdout as JSON, or as plain text when "
            "the tool returns a string (exit status 0); an error goes to stderr (exit status 1)."
        ),
        epilog=(
            "examples:\n"
            f'  typed-toolsets call {_EXAMPLE_TARGET} text_wc \'{{"text": "one two"}}\'\n'
            # printf, not echo: dash's echo turns the JSON escape \n into a line break.
            f"  printf '%s' '{{\"text\": \"b\\na\"}}' | typed-toolsets call {_EXAMPLE_TARGET} "
            "text_sort_lines -"
        ),
        formatter_class=formatter,
    )
    call.add_argument("target", metavar="TARGET", help=_ONE_TARGET_HELP)
    call.add_argument("tool", metavar="TOOL", help="the exported tool name (see `list`)")
    call.add_argument(
        "arguments",
        metavar="ARGUMENTS",
        nargs="?",
        default=None,
        help="the arguments as a JSON object, or - to read them from stdin (default: {})",
    )
    call.set_defaults(handler=_tool_command("call_command"))


class _Parser(argparse.ArgumentParser):
    """argparse's parser, whose usage and error messages never change the command's status.

    A message stderr cannot take stayed in its buffer (Python 3.10 raised on the write too),
    and the flush at exit failed: a usage error ended with status 120, not 2. Written as the
    commands write stderr (`_Quiet`), what cannot be written is dropped with the buffer.

    Long options are taken only in full, in every subcommand (whose parsers are of this class
    too): with argparse's abbreviations a typo silently became another option (``--str`` was
    ``--strict``, ``--log`` ``--log-arguments``), and a new option could change what an
    abbreviation in someone's script meant.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        """Say a usage error in one line, as every other failure is said, and exit with 2.

        argparse's own printed the command's whole usage first (four or five lines over the
        reason); the line points at ``--help`` for it.
        """
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        if not message:
            return
        if file is sys.stdout:
            # --help and --version: the command's output, whose write error `main` says (it
            # was dropped as stderr's are, and the status was 0 with nothing written). Without
            # a stdout (`>&-`) argparse hands None: said as for every command.
            out = typing.cast("TextIO", file or _missing("stdout is closed"))
            out.write(message)
            out.flush()
            return
        stream = file if file is not None else sys.stderr
        _quiet(typing.cast("TextIO | None", stream)).write(message)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand."""
    parser = _Parser(
        prog="typed-toolsets",
        description=(
            "Inspect, run and check typed_toolsets Toolset classes: list their tools, print "
            "their schemas for a model API, call a tool, check definitions, serve the tools "
            "over MCP, or run the demo."
        ),
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    _add_tool_commands(commands)

    check = commands.add_parser(
        "check",
        help="report Toolset definition problems (the mypy plugin's checks, at run time)",
        description=(
            "Import the targets and report every Toolset definition problem that the mypy "
            "plugin reports: unknown or non-method exports, duplicate or invalid tool names, "
            "unsupported parameters and types, ambiguous unions (warnings) and Cls.to_tools() "
            "calls on classes whose constructor needs arguments. Exit status: 0 clean, 1 "
            "problems found, 2 usage error or a target that cannot be imported."
        ),
    )
    check.add_argument("targets", nargs="+", metavar="TARGET", help=_TARGET_HELP)
    check.add_argument(
        "--disable",
        action="append",
        default=[],
        metavar="CODE",
        help=(
            "skip problems with this error code: toolset (all) or toolset-<code>, e.g. "
            "toolset-ambiguous-union (repeatable, or comma-separated)"
        ),
    )
    check.set_defaults(handler=_check)

    demo = commands.add_parser(
        "demo",
        help="run the built-in example: a scripted model drives the text toolset as an agent",
        description=(
            "A scripted model drives the built-in text toolset through the ReAct loop "
            "(typed_toolsets.agent) on an embedded log: real tool calls, one argument error "
            "sent back to the model and corrected, then the final answer. Each step is printed."
        ),
    )
    demo.add_argument(
        "--json", action="store_true", help="print the run (task, steps, answer) as JSON"
    )
    demo.set_defaults(handler=_demo)

    from .serve import add_parser as add_serve

    add_serve(commands)
    for command in commands.choices.values():
        # Whose usage an unknown argument is told against (see `main`).
        command.set_defaults(usage_parser=command)
    return parser


#: The options of the program itself, given before its command.
_PROGRAM_OPTIONS: Final = frozenset({"-h", "--help", "--version"})


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status.

    Args:
        argv: The arguments; None reads the process's own (``sys.argv``): the command then runs
            as the program, and ``serve`` may end the process when a stop leaves calls running
            (see `typed_toolsets.server.stopping`), which it never does for a caller's process.
    """
    try:
        return _run(argv)
    except KeyboardInterrupt:
        # Ctrl-C before a command runs: while the parser is built (it imports the commands'
        # modules) or the arguments are read. What a command's run raises is told by `_run`.
        _say("", "interrupted")
        return EXIT_INTERRUPTED


def _run(argv: Sequence[str] | None) -> int:
    if argv is None:
        from .streams import occupy_closed_descriptors

        occupy_closed_descriptors()
        if sys.stderr is None:  # started with `2>&-`: argparse would print its usage on stdout
            sys.stderr = _quiet(None)
    parser = build_parser()
    try:
        # An option before the command is the program's own (--help, --version): another one
        # was told as a missing COMMAND, or against the command's usage.
        for word in sys.argv[1:] if argv is None else argv:
            if not word.startswith("-") or word in ("-", "--"):
                break
            if word not in _PROGRAM_OPTIONS:
                parser.error(f"unrecognized arguments: {word}")
        args, unknown = parser.parse_known_args(argv)
        if unknown:
            # argparse's own check names the top-level parser ("see typed-toolsets --help")
            # for an option of `schema`'s mistyped.
            usage: argparse.ArgumentParser = getattr(args, "usage_parser", parser)
            usage.error(f"unrecognized arguments: {' '.join(unknown)}")
    except (OSError, ValueError) as exc:  # --help or --version could not be written
        unwritten = _output_failed("", exc)
        if unwritten is None:
            raise
        return unwritten
    args.as_program = argv is None
    # serve's stop handles SIGTERM itself.
    ended = _end_on_sigterm() if args.as_program and args.command != "serve" else False
    handler: Command = args.handler
    # A process started without stdout or stderr (`>&-`, `2>&-`) has None there.
    out = sys.stdout if sys.stdout is not None else _missing("stdout is closed")
    err = _quiet(sys.stderr)
    try:
        status = handler(args, out, err)
        # A write error shows here, not as a traceback at exit. A stream closed since (by a
        # tool `serve` ran) holds nothing more to write: the command's output is out already.
        if sys.stdout is not None and not sys.stdout.closed:
            sys.stdout.flush()
    except KeyboardInterrupt:  # Ctrl-C, or a target or tool raising it
        _say(args.command, "interrupted")
        return EXIT_INTERRUPTED
    except BaseException as exc:
        failed = _output_failed(args.command, exc, getattr(args, "verdict", EXIT_OK))
        if failed is None:
            raise
        return failed
    finally:
        if ended:  # the caller's own handling again (main() may be called by other code)
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
    return status


def _end_on_sigterm() -> bool:
    """Have SIGTERM end the command as its default handling does, its calls' programs first.

    A built-in's program runs in a process group of its own, which the call kills at its
    deadline: ended by the signal where it stands, the command left it running with no deadline
    at all (`typed_toolsets._ending`). Only over SIGTERM's default handling, in the main thread
    (which alone takes signal handlers), on POSIX.

    Returns:
        Whether the handler was put in (`main` puts the default one back when it returns).
    """
    if (
        os.name != "posix"
        or threading.current_thread() is not threading.main_thread()
        or signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL
    ):
        return False
    signal.signal(signal.SIGTERM, _on_sigterm)
    return True


def _on_sigterm(signum: int, _frame: FrameType | None) -> None:
    from typed_toolsets import _ending

    _ending.end_all()
    signal.signal(signum, signal.SIG_DFL)
    os.kill(os.getpid(), signum)
    raise SystemExit(128 + signum)  # the signal, blocked in this thread, has not ended it yet


def _output_failed(command: str, exc: BaseException, verdict: int = EXIT_OK) -> int | None:
    """The status when writing the output of *command* failed with *exc*, said on stderr.

    None when *exc* is no failure to write stdout (the caller raises it again).

    Args:
        command: The command that was writing.
        exc: What writing raised.
        verdict: The status of a command that had judged before writing (``check``): the
            reader going away does not change it.
    """
    if _broken_pipe(exc):  # the reader went away (`typed-toolsets demo | head`)
        _drop(sys.stdout)
        return verdict
    if isinstance(exc, ValueError) and getattr(sys.stdout, "closed", False):
        # A tool (or a target) closed sys.stdout: nothing more can be written to it.
        _say(command, "error: cannot write the output: sys.stdout was closed")
        return EXIT_PROBLEMS
    if isinstance(exc, UnicodeEncodeError):
        # stdout's encoding lacks a character of the output (PYTHONIOENCODING, a legacy
        # Windows code page when redirected); tools and targets run where their errors are
        # caught, so only a write gets here.
        _say(command, f"error: cannot write the output: {_unencodable(exc)}")
        return EXIT_PROBLEMS
    if not isinstance(exc, OSError):
        return None
    _drop(sys.stdout)
    _say(command, f"error: cannot write the output: {exc}")
    return EXIT_PROBLEMS


class _Missing(io.TextIOBase):
    """The stdout a process started without: writing fails with *reason* (status 1)."""

    def __init__(self, reason: str) -> None:
        super().__init__()
        self._reason = reason

    def write(self, s: str, /) -> int:
        raise OSError(self._reason)


def _missing(reason: str) -> TextIO:
    return typing.cast("TextIO", _Missing(reason))


class _Quiet(io.TextIOBase):
    """stderr as the commands write to it: what cannot be written there is dropped.

    Without stderr (`2>&-`), with a reader that went away (EPIPE) or a full disk, what a command
    says there is lost, and its exit status still tells: a failed call stays status 1 and a
    usage error 2 (a write error must not turn them into 0 or 1). After a failure the stream
    is pointed at the null device, so that what is left in its buffer cannot fail again at
    exit (which would make the status 120).
    """

    def __init__(self, stream: TextIO | None) -> None:
        super().__init__()
        self._stream = stream

    def write(self, s: str, /) -> int:
        if self._stream is not None:
            try:
                self._stream.write(_bytes_shown(s))
                self._stream.flush()
            except (OSError, ValueError):
                _drop(self._stream)
                self._stream = None
        return len(s)


def _bytes_shown(text: str) -> str:
    r"""*text* with the bytes an argument held that are not UTF-8 shown as ``\xff``.

    Python reads such bytes of ``sys.argv`` as lone surrogates (``\udcff``), which a message
    echoing the argument (in its repr, as most do) would show in Python's own escape.
    """
    if text.isascii():
        return _ESCAPED_BYTE.sub(r"\\x\1", text) if "\\udc" in text else text
    try:
        text = text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    except UnicodeEncodeError:  # another lone surrogate: the stream's own escape
        return text
    return _ESCAPED_BYTE.sub(r"\\x\1", text)


#: A byte of an argument that is not UTF-8, as a repr shows it (``\udcff``).
_ESCAPED_BYTE: Final = re.compile(r"\\udc([89a-f][0-9a-f])")


def _quiet(stream: TextIO | None) -> TextIO:
    return typing.cast("TextIO", _Quiet(stream))


def _say(command: str, text: str) -> None:
    """One line on stderr (when there is a stderr to write to)."""
    # Before a command is read (--help, --version), the program's name alone.
    name = f"typed-toolsets {command}" if command else "typed-toolsets"
    _quiet(sys.stderr).write(f"{name}: {text}\n")


def _unencodable(exc: UnicodeEncodeError) -> str:
    """Which character stdout's encoding cannot write, and the remedy."""
    # The stream's own name: a code page's codec reports itself as "charmap".
    encoding = getattr(sys.stdout, "encoding", None) or exc.encoding
    character = exc.object[exc.start : exc.start + 1]
    if "\ud800" <= character <= "\udfff":  # no encoding has it: another one would not help
        return (
            f"the output holds U+{ord(character):04X}, half of a UTF-16 pair alone, which no "
            "encoding can write; remove it from the text it comes from (a docstring, say)"
        )
    return (
        f"stdout's encoding ({encoding}) has no character U+{ord(character):04X}; "
        "set PYTHONIOENCODING=utf-8"
    )


def _broken_pipe(exc: BaseException) -> bool:
    """Whether *exc* is a broken pipe, alone or as all an exception group holds (stdio serve)."""
    if isinstance(exc, BrokenPipeError):
        return True
    split: Any = getattr(exc, "split", None)  # BaseExceptionGroup, Python 3.11+
    if split is None:
        return False
    matched, rest = split(BrokenPipeError)
    return matched is not None and rest is None


def _drop(stream: TextIO | None) -> None:
    """Point *stream*'s descriptor at the null device: its buffer cannot fail again at exit."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, typing.cast("TextIO", stream).fileno())
        os.close(null)
