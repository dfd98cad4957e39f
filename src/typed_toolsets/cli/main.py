"""The ``typed-toolsets`` command line (also ``python -m typed_toolsets``).

Each subcommand is a function taking the parsed arguments and returning the exit status; they
import what they need when they run, so ``typed-toolsets --help`` stays fast. Exit statuses:
0 success, 1 problems found, 2 usage errors and targets that cannot be imported.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import Final, TextIO

from typed_toolsets._version import __version__

__all__ = ["build_parser", "main"]

EXIT_OK: Final = 0
EXIT_PROBLEMS: Final = 1
EXIT_USAGE: Final = 2

_TARGET_HELP: Final = (
    "module:Class, module (every Toolset defined in it), path/to/file.py:Class or path/to/file.py"
)

Command = Callable[[argparse.Namespace, TextIO, TextIO], int]


def _check(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from typed_toolsets.analysis.check import TargetError, run_check

    try:
        result = run_check(args.targets, disable=args.disable)
    except TargetError as exc:
        err.write(f"typed-toolsets check: error: {exc}\n")
        return EXIT_USAGE
    for finding in result.findings:
        out.write(finding.format() + "\n")
    count = len(result.findings)
    checked = len(result.classes)
    if count:
        files = len({f.path for f in result.findings})
        problems = "problem" if count == 1 else "problems"
        out.write(f"Found {count} {problems} in {files} file{'s' if files != 1 else ''} ")
        out.write(f"(checked {checked} toolset{'s' if checked != 1 else ''})\n")
        return EXIT_PROBLEMS
    out.write(f"Success: no problems found in {checked} toolset{'s' if checked != 1 else ''}\n")
    return EXIT_OK


def _demo(_args: argparse.Namespace, out: TextIO, _err: TextIO) -> int:
    from .demo import main as demo

    demo(out)
    return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand."""
    parser = argparse.ArgumentParser(
        prog="typed-toolsets",
        description="Inspect and check typed_toolsets Toolset classes.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

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
        help="run the built-in example: two toolsets, a schema and a few model-style calls",
        description="Declare two small toolsets, print a tool schema and show calls and errors.",
    )
    demo.set_defaults(handler=_demo)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    handler: Command = args.handler
    try:
        return handler(args, sys.stdout, sys.stderr)
    except BrokenPipeError:  # the reader went away (`typed-toolsets demo | head`)
        sys.stderr.close()
        return EXIT_OK
