"""Where a definition error comes from: the Toolset class it is about, and the user code lines.

``check`` reports a problem raised while importing on the line of the code that raised it, or of
the class; the error's traceback tells both (`error_origin`).
"""

from __future__ import annotations

from typing import Final

import attrs

from typed_toolsets._toolset import Toolset

__all__ = ["Origin", "error_origin"]


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
