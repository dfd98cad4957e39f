"""``typed-toolsets list``, ``schema`` and ``call``: a toolset's tools, seen and run from a shell.

A TARGET names Toolset classes: ``module:Class``, ``module`` (every Toolset the module defines or
lists in ``__all__``) or ``path/to/file.py:Class``. Each class is built with no constructor
arguments, as ``Cls.to_tools()`` does. Exit statuses: 0 success, 1 the tool failed or the target
has definition problems, 2 a usage error or a target that cannot be loaded (one line on stderr).

Two tools of one exported name among those a command shows, exports or runs are a usage error,
in every command (the clash names both): ``list`` and ``schema`` show them all; ``call`` only
the one named, so another tool of the same target still runs (as ``serve --tools`` serves around
a clash).
"""

from __future__ import annotations

import argparse
import array
import contextlib
import json
import os
import stat
import sys
import typing
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final, TextIO

from typed_toolsets._toolset import Toolset
from typed_toolsets.call.proxy import ToolProxy
from typed_toolsets.definition.classes import required_init_fields
from typed_toolsets.definition.errors import ExportError, ToolsetDefinitionError
from typed_toolsets.rules.controls import escape_controls

from .main import EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE, STRICT_FORMATS
from .streams import stdin_from_null, stdout_to_stderr

__all__ = [
    "CommandError",
    "call_command",
    "did_you_mean",
    "error_lines",
    "list_command",
    "run_command",
    "schema_command",
    "targets_tools",
    "unique_or_stop",
]

_PARAMETERS_WIDTH: Final = 60


class _Stop(Exception):  # noqa: N818 - control flow: print the message, exit with the status
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


# -------------------------------------------------------------------------------- targets


def _target_classes(target: str) -> list[type[Toolset]]:
    """The Toolset classes a TARGET names, loaded as every command loads targets."""
    from typed_toolsets.analysis.targets import TargetError, load_toolsets

    try:
        return load_toolsets(target)
    except TargetError as exc:
        raise _Stop(EXIT_USAGE, str(exc)) from None
    except ToolsetDefinitionError as exc:
        raise _definition_stop(exc) from None


def _definition_stop(error: ToolsetDefinitionError) -> _Stop:
    """The stop of a command whose target has definition problems, each told where it is."""
    from typed_toolsets.analysis.check import located

    return _Stop(EXIT_PROBLEMS, located(error))


def _tools(target: str) -> list[ToolProxy]:
    """Every tool of the TARGET's classes, each class built with no arguments.

    What the import and the constructors print goes to stderr (`stdout_to_stderr`), and what
    they read of stdin is nothing (`stdin_from_null`).
    """
    return _targets_tools([target])


def _targets_tools(targets: list[str]) -> list[ToolProxy]:
    """Every tool of the classes the *targets* name, merged: a class named twice is built once.

    ``serve pkg.tools pkg.tools:Search`` names ``Search`` twice (in the module, and alone): its
    tools are served once, not refused as a clash with themselves.
    """
    tools: list[ToolProxy] = []
    built: set[type[Toolset]] = set()
    with stdout_to_stderr(), stdin_from_null():
        for target in targets:
            classes = [cls for cls in _target_classes(target) if cls not in built]
            built.update(classes)
            tools += _built(classes)
    return tools


def _built(classes: list[type[Toolset]]) -> list[ToolProxy]:
    tools: list[ToolProxy] = []
    for cls in classes:
        needed = required_init_fields(cls)
        if needed:
            names = ", ".join(repr(n) for n in needed)
            raise _Stop(
                EXIT_USAGE,
                f"{cls.__qualname__} needs constructor arguments ({names}), but the command line "
                f"builds it as {cls.__name__}(); give each a default, or name a subclass that does",
            )
        try:
            tools.extend(cls.to_tools())
        except ToolsetDefinitionError as exc:
            raise _definition_stop(exc) from None
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # noqa: BLE001 - its constructor raised: exit 2
            # A target that cannot be built is one that cannot be loaded: one line, no
            # traceback; a constructor's sys.exit() is no status of this command's.
            from typed_toolsets.analysis.targets import failure_text

            msg = f"cannot build the tools of {cls.__qualname__}: {failure_text(exc)}"
            raise _Stop(EXIT_USAGE, msg) from None
    return tools


def _unique(tools: list[ToolProxy]) -> dict[str, ToolProxy]:
    """*tools* by exported name; two of one name stop the command as a usage error."""
    from typed_toolsets.export.dialects import unique_tools

    try:
        return unique_tools(tools)
    except ExportError as exc:
        # One line, whatever the number of clashes: the command's error is a single line, which
        # names every clash and words the first.
        first = " ".join(str(exc).splitlines()[0].split())
        seen: dict[str, ToolProxy] = {}
        clashes = list(dict.fromkeys(p.name for p in tools if seen.setdefault(p.name, p) is not p))
        if len(clashes) > 1:
            names = ", ".join(repr(name) for name in clashes)
            first = f"{len(clashes)} tool names are each exported more than once ({names}). {first}"
        raise _Stop(EXIT_USAGE, first) from None


def _error_lines(command: str, err: TextIO, message: str) -> None:
    """*message* on *err*, each of its failures (a line) a line of the command's error."""
    for line in message.splitlines() or [""]:
        err.write(f"typed-toolsets {command}: error: {line}\n")


def _run(command: str, err: TextIO, body: Callable[[], int]) -> int:
    try:
        return body()
    except _Stop as stop:
        _error_lines(command, err, stop.message)
        return stop.status
    except ExportError as exc:
        _error_lines(command, err, str(exc))
        return EXIT_PROBLEMS


#: The characters that end a line (`str.splitlines`), each as an escape in a one-line message.
_LINE_BREAKS: Final = {
    ord(c): c.encode("unicode_escape").decode() for c in "\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"
}


def _failure_line(message: str) -> str:
    """``Error: <message>`` as one line: a tool's multi-line exception message, its breaks escaped.

    A later line of it (``Traceback (most recent call last):``) read as another line of stderr.
    """
    return f"Error: {message.translate(_LINE_BREAKS)}\n"


def did_you_mean(unknown: list[str], names: list[str]) -> str:
    """`` (did you mean 'text_wc'?)``: the tools *names* that the *unknown* ones may mean.

    A name typed without its toolset's prefix (``wc``, the method's name) is matched first,
    then close spellings: all the names share that prefix, so only a close one counts (a
    looser match would offer every tool of the toolset).
    """
    from typed_toolsets.rules.names import close_matches

    meant: dict[str, None] = {}
    for name in unknown:
        suffixed = [tool for tool in names if tool.endswith("_" + name)]
        meant.update(dict.fromkeys(suffixed[:3] or close_matches(name, names, cutoff=0.8)))
    return f" (did you mean {' or '.join(repr(name) for name in meant)}?)" if meant else ""


#: For ``serve`` (`typed_toolsets.cli.serve`), which loads its targets the same way: the error
#: that ends a command with a status and one line, loading a TARGET's tools, refusing a name
#: clash among them, and running a command body that may raise the first.
CommandError = _Stop
unique_or_stop = _unique
targets_tools = _targets_tools
run_command = _run
error_lines = _error_lines


# ----------------------------------------------------------------------------------- list


def _short_json(value: object, limit: int = 24) -> str:
    # JSON escapes C0 controls only: a C1 one or a bidi override is shown escaped, as in the
    # descriptions (cut first, so an escape is never cut in two).
    text = json.dumps(value, ensure_ascii=False)
    return escape_controls(text if len(text) <= limit else text[: limit - 3] + "...")


def _type_text(schema: Mapping[str, Any]) -> str:
    """A compact, TypeScript-like reading of a parameter's schema."""
    ref = schema.get("$ref")
    if isinstance(ref, str):
        return ref.rpartition("/")[2]
    if "const" in schema:
        return _short_json(schema["const"])
    enum = schema.get("enum")
    if isinstance(enum, list):
        values = [_short_json(v) for v in typing.cast("list[object]", enum)]
        return " | ".join(values[:4] + (["..."] if len(values) > 4 else []))
    branches = schema.get("anyOf")
    if isinstance(branches, list):
        variants = typing.cast("list[Mapping[str, Any]]", branches)
        return " | ".join(_type_text(v) for v in variants)
    kind = schema.get("type")
    if kind == "array":
        prefix = schema.get("prefixItems")
        if isinstance(prefix, list):
            items = typing.cast("list[Mapping[str, Any]]", prefix)
            return "[" + ", ".join(_type_text(i) for i in items) + "]"
        items_schema = schema.get("items")
        inner = (
            _type_text(typing.cast("Mapping[str, Any]", items_schema))
            if isinstance(items_schema, Mapping)
            else "any"
        )
        return f"({inner})[]" if " " in inner else f"{inner}[]"
    if kind == "object":
        extra = schema.get("additionalProperties")
        if isinstance(extra, Mapping):
            return f"{{string: {_type_text(typing.cast('Mapping[str, Any]', extra))}}}"
        return "object"
    if kind == "string" and isinstance(schema.get("format"), str):
        return str(schema["format"])
    if isinstance(kind, list):
        return " | ".join(str(k) for k in typing.cast("list[object]", kind))
    return str(kind) if kind is not None else "any"


def _parameters(parameters: Mapping[str, Any]) -> list[str]:
    """``name: type = default`` for each parameter (``name?: type``: a default with no JSON)."""
    properties = typing.cast("Mapping[str, Mapping[str, Any]]", parameters.get("properties", {}))
    required = typing.cast("list[str]", parameters.get("required", []))
    parts: list[str] = []
    for name, prop in properties.items():
        if "default" in prop:
            text = f"{name}: {_type_text(prop)} = {_short_json(prop['default'])}"
        elif name in required:
            text = f"{name}: {_type_text(prop)}"
        else:
            # A default the schema cannot write (math.inf, a factory's): still optional, which
            # a bare ``name: type`` would hide.
            text = f"{name}?: {_type_text(prop)}"
        parts.append(text)
    return parts


def _wrap(parts: list[str], width: int) -> list[str]:
    """*parts* joined by commas into lines of about *width*, never splitting a part."""
    lines: list[str] = []
    current = ""
    for index, part in enumerate(parts):
        piece = part + ("," if index < len(parts) - 1 else "")
        if current and len(current) + 1 + len(piece) > width:
            lines.append(current)
            current = piece
        else:
            current = f"{current} {piece}" if current else piece
    lines.append(current or "-")
    return lines


def _first_line(description: str) -> str:
    # A docstring's control characters (an ESC starting a terminal sequence) shown, not obeyed,
    # as the built-in tools show their programs' output.
    return escape_controls(description.strip().splitlines()[0]) if description.strip() else ""


def _table(rows: list[tuple[str, list[str], str]], out: TextIO) -> None:
    header = ("TOOL", ["PARAMETERS"], "DESCRIPTION")
    all_rows = [header, *rows]
    name_width = max(len(r[0]) for r in all_rows)
    wrapped = [(name, _wrap(parts, _PARAMETERS_WIDTH), text) for name, parts, text in all_rows]
    width = max(len(line) for _, lines, _ in wrapped for line in lines)
    for name, lines, description in wrapped:
        out.write(f"{name:<{name_width}}  {lines[0]:<{width}}  {description}".rstrip() + "\n")
        for line in lines[1:]:
            out.write(f"{'':<{name_width}}  {line}".rstrip() + "\n")


def list_command(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """``typed-toolsets list TARGET``: one row per tool."""

    def body() -> int:
        tools = list(_unique(_tools(args.target)).values())
        rows = [(p.name, _parameters(p.parameters), _first_line(p.description)) for p in tools]
        _table(rows, out)
        return EXIT_OK

    return _run("list", err, body)


# --------------------------------------------------------------------------------- schema


def _schemas(tools: list[ToolProxy], form: str, strict: bool) -> Sequence[Mapping[str, object]]:
    from typed_toolsets import export
    from typed_toolsets.export.dialects import json_schemas

    if form == "json-schema":
        return json_schemas(tools, strict=strict)
    if form == "openai":
        return export.openai_chat(tools, strict=strict)
    if form == "openai-responses":
        return export.openai_responses(tools, strict=strict)
    if form == "anthropic":
        return export.anthropic(tools, strict=strict)
    if form == "gemini":
        return export.gemini(tools)
    return export.mcp(tools)


def schema_command(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """``typed-toolsets schema TARGET [--format F] [--strict]``: the definitions as JSON."""

    def body() -> int:
        if args.strict and args.format not in STRICT_FORMATS:
            choices = ", ".join(STRICT_FORMATS)
            raise _Stop(EXIT_USAGE, f"--strict applies to {choices}; {args.format} has none")
        tools = list(_unique(_tools(args.target)).values())
        schemas = _schemas(tools, args.format, args.strict)
        out.write(json.dumps(schemas, indent=2, ensure_ascii=False) + "\n")
        return EXIT_OK

    return _run("schema", err, body)


# ----------------------------------------------------------------------------------- call


#: Said after refused arguments when none were given and stdin holds something, unread.
_STDIN_UNREAD: Final = (
    "Note: stdin was not read; to take the arguments from it, pass - after TOOL\n"
)


def _stdin_unread(kind: str) -> str:
    """The note for a call refused its arguments (*kind*) without ARGUMENTS, stdin piped in.

    Piping the arguments in without ``-`` ran the tool with ``{}``. Said when stdin holds
    something unread: a pipe or a socket with bytes waiting (asked of the system, not read),
    or a file that is not empty; not for a terminal, the null device, or a pipe a parent
    opens and leaves empty.
    """
    if kind != "arguments":
        return ""
    try:
        status = os.fstat(0)
        if stat.S_ISREG(status.st_mode):
            return _STDIN_UNREAD if status.st_size else ""
        if stat.S_ISFIFO(status.st_mode) or stat.S_ISSOCK(status.st_mode):
            return _STDIN_UNREAD if _waiting_bytes(0) else ""
    except OSError:
        pass
    return ""


def _waiting_bytes(fd: int) -> int:
    """How many bytes the pipe or socket *fd* holds unread (0 where that cannot be asked)."""
    try:
        import fcntl
        import termios
    except ImportError:  # not POSIX
        return 0
    waiting = array.array("i", [0])
    fcntl.ioctl(fd, termios.FIONREAD, waiting)
    return waiting[0]


def _read_arguments(text: str | None, stdin: TextIO | None, limit: int) -> str | bytes | None:
    """The ARGUMENTS text, or for ``-`` the bytes on stdin, less the line ending they end with.

    Stdin is read up to a byte past *limit* (``Limits.max_argument_bytes``) and a line ending:
    the call measures what is within that; what goes on past it is over the limit however long
    it is (`_OverLimit`), and an endless stdin (``yes |``) is refused as a long one is.

    Bytes, not text decoded here: the call path reads them as it reads a model's, and says
    where they are not UTF-8 (a text decoding would hide that as a lone surrogate). The line
    ending ``echo`` or a file adds is no part of the arguments: within `Limits`, the same JSON
    is accepted on stdin as in the argument.

    An argument Python decoded with ``surrogateescape`` (bytes that are not text in the
    file system encoding) goes back to those bytes, so the call says where they are not UTF-8,
    as for stdin, instead of naming a lone surrogate the user never typed.
    """
    if text != "-":
        if text is None or text.isascii():
            return text
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            with contextlib.suppress(UnicodeEncodeError):  # a surrogate no byte decodes to
                return os.fsencode(text)
        return text
    if stdin is None:  # started with stdin closed (`<&-`)
        raise _Stop(EXIT_USAGE, "cannot read the arguments from stdin: it is closed")
    try:
        source: Any = getattr(stdin, "buffer", stdin)
        read: str | bytes = _read_most(source, limit + 3)
        if len(read) == limit + 3 and source.read(1):
            raise _OverLimit
    except (OSError, ValueError) as exc:
        raise _Stop(EXIT_USAGE, f"cannot read the arguments from stdin: {exc}") from None
    except MemoryError:
        msg = "cannot read the arguments from stdin: they do not fit in memory"
        raise _Stop(EXIT_USAGE, msg) from None
    if isinstance(read, bytes):
        return read[:-2] if read.endswith(b"\r\n") else read.removesuffix(b"\n")
    return read[:-2] if read.endswith("\r\n") else read.removesuffix("\n")


#: How much of stdin one read asks for: a read allocates what it asks for before it reads.
_STDIN_CHUNK: Final = 1 << 20


def _read_most(source: Any, most: int) -> str | bytes:
    """At most *most* bytes (or characters) of *source*, all it holds when that is less.

    Read in chunks, as they come: ``read(most)`` would allocate *most* bytes at once (a limit of
    ``sys.maxsize`` is no size at all).
    """
    parts: list[Any] = []
    size = 0
    while size < most:
        chunk = source.read(min(_STDIN_CHUNK, most - size))
        if not chunk:
            break
        parts.append(chunk)
        size += len(chunk)
    if not parts:
        empty: str | bytes = source.read(0)  # b"" or "", as the stream reads
        return empty
    joined: str | bytes = parts[0][:0].join(parts)
    return joined


class _OverLimit(Exception):  # noqa: N818 - control flow: stdin goes on past the byte limit
    pass


def call_command(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """``typed-toolsets call TARGET TOOL [JSON | -]``: run one tool as a model would."""

    def body() -> int:
        from asyncio import CancelledError

        from typed_toolsets.call.exact import limit_error
        from typed_toolsets.call.execution import execution_error
        from typed_toolsets.call.jsonbounds import size_error
        from typed_toolsets.export.values import result_text

        tools = _tools(args.target)
        named = [proxy for proxy in tools if proxy.name == args.tool]
        if not named:
            names = list(dict.fromkeys(proxy.name for proxy in tools))
            hint = did_you_mean([args.tool], names)
            raise _Stop(
                EXIT_USAGE,
                f"{args.target} has no tool {args.tool!r}{hint}; available tools: "
                f"{', '.join(names) or 'none'}",
            )
        (proxy,) = _unique(named).values()
        try:
            arguments = _read_arguments(args.arguments, sys.stdin, proxy.limits.max_argument_bytes)
        except _OverLimit:
            error = limit_error(proxy.name, size_error(None, proxy.limits))
            err.write(_failure_line(error.message))
            return EXIT_PROBLEMS
        try:
            with stdout_to_stderr():  # what the tool prints is not its result
                result = proxy.invoke(arguments)
        except (SystemExit, CancelledError) as exc:
            # The call path lets a tool's exit and cancellation through for a host that is
            # stopping; here the command is the host, and one tool exiting (argparse on bad
            # input) or cancelled (awaiting a task something else cancelled) is that call's
            # failure, as in the MCP server: not this command's status, nor a traceback.
            err.write(_failure_line(execution_error(proxy.name, exc).message))
            return EXIT_PROBLEMS
        if not result.ok:
            message = result.error.message if result.error is not None else "the tool failed"
            err.write(_failure_line(message))
            if args.arguments is None and result.error is not None:
                err.write(_stdin_unread(result.error.kind))
            return EXIT_PROBLEMS
        text = result_text(proxy, result.value, indent=2)
        out.write(text if text.endswith("\n") else text + "\n")
        return EXIT_OK

    return _run("call", err, body)
