"""The plugin's error codes, and how a `Problem` record is reported to mypy."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from mypy.errorcodes import ErrorCode
from mypy.nodes import Context
from mypy.plugin import CheckerPluginInterface, SemanticAnalyzerPluginInterface

from typed_toolsets.rules.kinds import CODE_PREFIX, PROBLEM_CODES
from typed_toolsets.rules.problems import Problem

__all__ = ["ERROR_CODES", "TOOLSET_CODE", "Span", "failed_within", "note", "report"]

#: Where a problem is: ``(line, column, end_line, end_column)``, as mypy's nodes give them.
Span = tuple[int, int, int, int]

TOOLSET_CODE: Final = ErrorCode(
    "toolset", "typed_toolsets: Toolset declaration problems", "General"
)
_DESCRIPTIONS: Final = {
    "unknown-method": "tool() names no method of the Toolset class",
    "not-a-method": "an exported name is not a plain instance method",
    "duplicate-name": "two exports share a final tool name",
    "invalid-name": "an exported tool name is not valid for LLM APIs",
    "signature": "an exported method's parameters cannot be called with JSON keywords",
    "inline": "tool(..., inline=True) on an async method, or on a tool with a timeout",
    "param-type": "a parameter type of an exported method has no JSON Schema",
    "init": "Cls.to_tools() on a Toolset whose constructor needs arguments",
    "ambiguous-union": "a JSON value could match two variants of a union parameter",
    "unchecked": "an export the plugin cannot read, so cannot check statically",
    "raised": "a ToolsetDefinitionError raised in the code's own words (only check runs it)",
}
#: One error code per problem code (keyed without the ``toolset-`` prefix), under `TOOLSET_CODE`.
ERROR_CODES: Final = {
    code: ErrorCode(
        f"{CODE_PREFIX}{code}", _DESCRIPTIONS[code], "General", sub_code_of=TOOLSET_CODE
    )
    for code in sorted(PROBLEM_CODES)
}
_BY_NAME: Final = {error_code.code: error_code for error_code in ERROR_CODES.values()}
#: mypy's own errors that say an expression failed: a name it cannot find, a call that matches
#: no signature of the function (`tool()`'s, for a declaration).
_FAILED: Final = frozenset(
    {"name-defined", "attr-defined", "call-overload", "call-arg", "arg-type"}
)


def _context(where: Context | Span) -> Context:
    if not isinstance(where, tuple):
        return where
    line, column, end_line, end_column = where
    context = Context(line, column)
    # Editors underline from the column to the end (mypy's --show-error-end shows them too).
    context.end_line = end_line if end_line >= line else line
    context.end_column = end_column if end_line > line or end_column > column else None
    return context


def report(
    api: CheckerPluginInterface | SemanticAnalyzerPluginInterface,
    problem: Problem,
    where: Context | Span,
) -> None:
    """Report *problem* as an error at *where* (a node, or a `Span`).

    The message is the record's `Problem.message`: the runtime's line without its code, which
    mypy prints after it.
    """
    api.fail(problem.message, _context(where), code=_BY_NAME[problem.code])


def note(api: CheckerPluginInterface, text: str, where: Context | Span) -> None:
    """Add a note at *where* (after an error that it explains)."""
    api.msg.note(text, _context(where))


def failed_within(api: CheckerPluginInterface) -> Callable[[Span], bool]:
    """Whether mypy has already failed on an expression of the current file around a `Span`.

    The errors `_FAILED` names, reported so far (a class body is checked before its
    ``__init_subclass__`` call, which runs the class checks), whose span holds the given one or
    lies inside it: the undefined name itself, or the ``tool(...)`` call around an argument.
    """
    errors = api.msg.errors
    # `error_info_map` is mypy's own record, not its plugin API: were it to change, nothing is
    # left out (a redundant message at worst), rather than the plugin failing.
    try:
        failed = [
            (info.line, info.column, info.end_line, info.end_column)
            for info in errors.error_info_map.get(errors.file, [])
            if info.severity == "error" and info.code is not None and info.code.code in _FAILED
        ]
    except (AttributeError, TypeError):  # pragma: no cover - another mypy's internals
        failed = []

    def within(where: Span) -> bool:
        return any(_nested(where, other) or _nested(other, where) for other in failed)

    return within


def _nested(inner: Span, outer: Span) -> bool:
    return inner[:2] >= outer[:2] and inner[2:] <= outer[2:]
