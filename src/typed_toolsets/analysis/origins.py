"""Where a definition error comes from: the Toolset class it is about, and the user code lines.

``check`` reports a problem raised while importing on the line of the code that raised it, or of
the class; the error's traceback tells both (`error_origin`). A class that failed is read again
once its module has run (`failed_class_read`).
"""

from __future__ import annotations

import typing
from collections.abc import Callable
from typing import Any, Final

import attrs

from typed_toolsets._toolset import Toolset
from typed_toolsets.definition.classes import read_deferred
from typed_toolsets.definition.errors import ToolsetDefinitionError
from typed_toolsets.rules.names import class_display_name
from typed_toolsets.rules.problems import Problem

__all__ = ["Origin", "error_origin", "failed_class_read"]


@attrs.frozen
class Origin:
    """Where a definition error comes from.

    Attributes:
        cls: The Toolset class it is about, when the traceback shows it.
        path: The file of the user code that raised it: the module defining ``cls``, or the
            innermost user frame when the class is not known.
        line: The line in that file.
        call_path: The file of the innermost user frame (a ``Cls.to_tools()`` call).
        call_line: Its line.
    """

    cls: type | None
    path: str | None
    line: int
    call_path: str | None
    call_line: int


# The core's own frames; the built-in toolsets' modules count as user code (they define classes).
_LIBRARY_MODULES: Final = tuple(
    f"typed_toolsets.{layer}" for layer in ("_", "rules.", "types.", "definition.", "call.")
)


def error_origin(exc: BaseException) -> Origin:
    """The Toolset class a definition error is about, and the user code lines that raised it."""
    cls: type | None = None
    frames: list[tuple[str, str, int]] = []
    tb = exc.__traceback__
    while tb is not None:
        candidate = tb.tb_frame.f_locals.get("cls")
        if isinstance(candidate, type) and issubclass(candidate, Toolset):
            cls = candidate
        name = str(tb.tb_frame.f_globals.get("__name__"))
        if not name.startswith((*_LIBRARY_MODULES, "importlib", "attr")):
            frames.append((name, tb.tb_frame.f_code.co_filename, tb.tb_lineno))
        tb = tb.tb_next
    call_path, call_line = (frames[-1][1], frames[-1][2]) if frames else (None, 0)
    module = cls.__module__ if cls is not None else None
    defining = [f for f in frames if module is None or f[0] == module]
    path, line = (defining[-1][1], defining[-1][2]) if defining else (None, 0)
    return Origin(cls, path, line, call_path, call_line)


def failed_class_read(
    exc: ToolsetDefinitionError, cls: type | None
) -> tuple[list[Problem], list[tuple[str, str, object]]]:
    """The problems of a class that failed, and the parameters read, its deferred methods read.

    Methods naming a class defined later were not read when it failed; the module has run
    since: read now, as the first to_tools() would (and the plugin does), each one's problems
    take the place of those told then, in its own order (as the plugin tells them).
    """
    problems = list(exc.problems)
    read = list(exc._parameters)  # pyright: ignore[reportPrivateUsage]
    if cls is None:
        return problems, read
    qualname = class_display_name(cls.__qualname__)
    for method, func, owner in exc._deferred:  # pyright: ignore[reportPrivateUsage]
        info, failed, parameters = read_deferred(
            qualname, method, typing.cast("Callable[..., Any]", func), owner
        )
        # Where the first of them was told (nothing before it is removed), else at the end.
        at = next((i for i, found in enumerate(problems) if found in failed), len(problems))
        problems = [found for found in problems if found not in failed]
        problems[at:at] = failed
        if info is not None:
            parameters = [(p.name, p.annotation) for p in info.params]
        read += [(method, *p) for p in parameters]
    return problems, read
