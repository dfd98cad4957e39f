"""Exceptions raised by typed_toolsets.

Hierarchy::

    TypedToolsetsError              root of everything this library raises
    ├── ToolsetDefinitionError      (also a TypeError) a Toolset class is declared wrongly
    └── ExportError                 (also a ValueError) tools cannot be exported as asked

Errors met while *calling* a tool on a model's behalf are never raised: they are returned as
`typed_toolsets.ToolError` values inside a `typed_toolsets.ToolResult`, or as ``"Error: ..."``
strings from `ToolProxy.dynamic_call`.
"""

from __future__ import annotations

import typing
from collections.abc import Iterable

from typed_toolsets._public import public
from typed_toolsets.rules.problems import Problem

__all__ = ["ExportError", "ToolsetDefinitionError", "TypedToolsetsError", "notes_state"]


def notes_state(exc: BaseException) -> dict[str, object] | None:
    """What an exception's own ``__reduce__`` keeps besides its arguments: its notes, if any.

    A ``__reduce__`` that rebuilds an exception from its attributes drops what was added to it
    since (``add_note``, which Hypothesis and frameworks use); pickle sets this state back.
    """
    notes: object = getattr(exc, "__notes__", None)
    if not isinstance(notes, list):
        return None
    return {"__notes__": list(typing.cast("list[object]", notes))}


@public
class TypedToolsetsError(Exception):
    """Base class of every exception raised by typed_toolsets."""


@public
class ToolsetDefinitionError(TypedToolsetsError, TypeError):
    """A Toolset class or one of its tool declarations is invalid.

    Raised when the class is created (or, for annotations that name something defined later in
    the module, when its tools are first built), when its tools are built after an exported
    method was deleted from the class, and by ``tool()`` called with arguments of the wrong
    type. The message lists every problem found, one per line, each naming the class, the method
    and the cause: ``Class.method: cause [toolset-<code>]``. ``ToolAnnotations()`` given a hint
    of the wrong type raises it too, before any class or declaration exists: its message names
    the field, and ``problems`` is empty.

    Your own code may raise it with a message (``ToolsetDefinitionError("...")``, from an
    ``__init_subclass__`` of its own, say), or a list of them: the message is kept as given
    (one line each) and ``problems`` is empty, since no record of the library's says it.
    ``typed-toolsets check`` reports such an error raised while a target is imported as a
    finding with its message (code ``toolset-raised``); the other commands, as that target's
    import failure.

    Attributes:
        problems: One `Problem` record per problem, in the order they were found; each has
            ``code``, ``toolset``, ``method``, ``parameter`` and ``str(problem)``, its line of
            the message.
    """

    problems: tuple[Problem, ...]
    # (method, parameter, annotation) of the class's exported parameters read despite the
    # problems (not those of methods inherited unchanged): ``typed-toolsets check`` still
    # reports their ambiguous unions, as the mypy plugin does. Not part of the public API.
    _parameters: tuple[tuple[str, str, object], ...] = ()
    # (method, function, owner) of the class's own exports whose annotations named something
    # not defined yet when the class failed: ``check`` reads them once the module has run, as
    # the first ``to_tools()`` would have. Not part of the public API.
    _deferred: tuple[tuple[str, object, type], ...] = ()

    def __init__(self, problems: Iterable[Problem] | Iterable[str] | str) -> None:
        if isinstance(problems, str):  # a str is iterable too: its characters are no records
            self.problems = ()
            super().__init__(problems)
            return
        found: tuple[Problem | str, ...] = tuple(problems)
        records = tuple(p for p in found if isinstance(p, Problem))
        # Messages of your own code's (a list of str) are kept as given, one per line, as one
        # message is; no record of the library's says them.
        self.problems = records if len(records) == len(found) else ()
        super().__init__("\n".join(str(p) for p in found))

    def __reduce__(
        self,
    ) -> tuple[
        type[ToolsetDefinitionError], tuple[tuple[Problem, ...] | str], dict[str, object] | None
    ]:
        # The default rebuilds the exception from its message, which is not a list of records.
        return type(self), (self.problems or str(self),), notes_state(self)


@public
class ExportError(TypedToolsetsError, ValueError):
    """Tools cannot be exported as asked, and the library refuses rather than lose information.

    Raised by `ToolProxy.strict_parameters` and the ``strict=True`` exports of
    `typed_toolsets.export` when a parameter has no lossless strict form, by the Gemini export
    for what its schema cannot say (recursive types, objects with free-form keys or no fields),
    and when two tools in one list share an exported name. The message
    lists every problem, one per line, each naming the tool and the parameter.

    Attributes:
        problems: The individual problems, in the order they were found.
    """

    problems: tuple[str, ...]

    def __init__(self, problems: Iterable[str] | str) -> None:
        # One message of a caller's own is one problem, not one per character.
        self.problems = (problems,) if isinstance(problems, str) else tuple(problems)
        super().__init__("\n".join(self.problems))

    def __reduce__(
        self,
    ) -> tuple[type[ExportError], tuple[tuple[str, ...]], dict[str, object] | None]:
        # The default rebuilds the exception from its message, which is not the list.
        return type(self), (self.problems,), notes_state(self)
