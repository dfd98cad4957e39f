"""The errors of the built-in toolsets: a public module (``typed_toolsets.builtins.exceptions``).

Hierarchy::

    TypedToolsetsError                        root of everything typed_toolsets raises
    └── BuiltinToolError                      a built-in tool could not give the seed's answer
        ├── InvalidArgumentError (ValueError)   an argument the tool cannot use
        │   ├── InputTooLargeError              a text, pattern, list or value over its cap
        │   └── InvalidPatternError             a pattern refused by a rule or by the engine
        ├── ProgramNotFoundError                grep, rg or gh is not on the caller's PATH
        ├── ProgramTimeoutError (TimeoutError)  the deadline passed: the work was stopped
        ├── ProgramFailedError                  the program could not start, or crashed
        └── OutputTooLargeError                 gh's JSON was cut at the output cap

The built-in tools keep the seed library's success formats and its returned failure strings
(``No matches found for pattern '...'``, ``Failed to get issue: ...``). Problems the seed hid or
never met (a missing program, an invalid pattern, a deadline, an oversized input, a rejected
argument, a crash) are raised instead, as one of these. On the model-facing path the core turns
them into structured errors of kind ``"execution"`` whose text names the class and the cause::

    Error: Tool 'text_grep' failed: InvalidPatternError: grep rejected the pattern '(': ...

On the direct ``call`` path they propagate; catch `BuiltinToolError` to handle them all.
`typed_toolsets.text` and `typed_toolsets.github` re-export the classes their tools raise.
Every message says what to change, fits on one line unless it quotes a program's own
multi-line message, and contains no environment value, token or traceback.
"""

from __future__ import annotations

from typed_toolsets.definition.errors import TypedToolsetsError

__all__ = [
    "BuiltinToolError",
    "InputTooLargeError",
    "InvalidArgumentError",
    "InvalidPatternError",
    "OutputTooLargeError",
    "ProgramFailedError",
    "ProgramNotFoundError",
    "ProgramTimeoutError",
]


class BuiltinToolError(TypedToolsetsError):
    """Base class of the errors raised by the built-in toolsets' tools."""


class InvalidArgumentError(BuiltinToolError, ValueError):
    """An argument is malformed or outside what the tool accepts (a repo, an endpoint, ...)."""


class InputTooLargeError(InvalidArgumentError):
    """A text, pattern or list is over the tool's size cap."""


class InvalidPatternError(InvalidArgumentError):
    """A pattern is refused: empty, with a NUL or newline, or rejected by the regex engine."""


class ProgramNotFoundError(BuiltinToolError):
    """The external program (grep, rg, gh) is not on the calling process's PATH."""


class ProgramTimeoutError(BuiltinToolError, TimeoutError):
    """The work did not finish before the deadline and was stopped.

    An external program's whole process group was killed; `filter_lines`, which runs in the
    process, stopped between two searches.
    """


class ProgramFailedError(BuiltinToolError):
    """The external program failed in a way that is not the caller's input (a crash, a signal)."""


class OutputTooLargeError(BuiltinToolError):
    """The program's output exceeded the cap where a cut output cannot be used (JSON to parse)."""
