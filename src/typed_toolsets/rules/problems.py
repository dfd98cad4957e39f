"""Definition problems as data: one `Problem` record per problem, rendered from its kind's template.

The runtime (`typed_toolsets.ToolsetDefinitionError.problems`), ``typed-toolsets check`` and the
mypy plugin build the same records and render them here, so the three say the same thing. A
record carries what a tool needs to act on it (``code``, ``toolset``, ``method``, ``parameter``)
and the values its message needs; ``str(problem)`` is its line of the error message::

    Tasks.asign: Tasks has no method 'asign' to export [toolset-unknown-method]

Each kind of problem (`Kind`) has one error code and one template in `KINDS` (the table is
`typed_toolsets.rules.kinds`); this module renders them.

``tool()``'s own argument errors are raised before any class exists: their records have
``toolset=None`` and render as ``tool(): <cause> [toolset-<code>]``. A `ToolsetDefinitionError`
that code of the user's raised with a message of its own (no record of the library's says it)
becomes a record only in ``typed-toolsets check`` (kind ``raised``, code ``toolset-raised``):
its line is that message, led by the class it was raised for when that is known.

Standard library only: the mypy plugin imports this module on every run (and hashes every file
of this package into its cache key, so a template change re-checks cached modules).
"""

from __future__ import annotations

import string
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final, Literal, TypeAlias, cast

from typed_toolsets._public import public

from .kinds import CODE_PREFIX, KINDS, WARNING_CODES, Kind

__all__ = ["Problem", "Value", "problem"]

#: A value a message needs: a text (names, type labels, reasons, reprs) or a list of names.
Value: TypeAlias = "str | tuple[str, ...]"


class _Formatter(string.Formatter):
    """`str.format` with the specs of the templates: ``names``, ``suggest`` and ``where``.

    ``where`` writes a parameter as ``parameter 'x': `` and nothing without one (a problem of
    the return annotation, say).
    """

    def format_field(self, value: object, format_spec: str) -> str:
        if format_spec == "where":
            return "" if value is None else f"parameter {value!r}: "
        if format_spec == "names":
            return ", ".join(repr(item) for item in _names(value))
        if format_spec == "suggest":
            names = _names(value)
            return f"; did you mean {' or '.join(repr(n) for n in names)}?" if names else ""
        return format(value, format_spec)


def _names(value: object) -> tuple[str, ...]:
    if isinstance(value, tuple):
        return tuple(str(item) for item in cast("tuple[object, ...]", value))
    return (str(value),)


_FORMATTER: Final = _Formatter()
#: The values that are types' labels, and the most characters of one a message shows: past
#: them, its start and its end (a reason is shown whole: what is wrong may be in its middle).
_LABELS: Final = frozenset({"type", "union", "first", "second"})
_SHOWN_MOST: Final = 400
_SHOWN_HEAD: Final = 250
_SHOWN_TAIL: Final = 145


def _shown_label(text: Value) -> Value:
    # A union of a 4,000-value Literal is a 35,000-character label: its start and its end (the
    # other variants) tell which one it is (`Problem.value` keeps it whole).
    if isinstance(text, str) and len(text) > _SHOWN_MOST:
        return f"{text[:_SHOWN_HEAD]} ... {text[-_SHOWN_TAIL:]}"
    return text


_OWN_FIELDS: Final = frozenset({"toolset", "method", "parameter"})


def _fields(text: str) -> frozenset[str]:
    return frozenset(name for _, name, _, _ in _FORMATTER.parse(text) if name)


#: The values each kind's template needs, besides toolset, method and parameter.
_VALUE_NAMES: Final[Mapping[str, frozenset[str]]] = {
    kind: _fields(template.text) - _OWN_FIELDS for kind, template in KINDS.items()
}


@public
@dataclass(frozen=True, repr=False)
class Problem:
    """One problem of a Toolset definition.

    Records are immutable and hashable, and compare by value. Build them with `problem`.

    Attributes:
        kind: What is wrong (a key of `KINDS`); more precise than ``code``.
        toolset: The class's qualified name, as Python shows it (``Outer.Inner``, without
            ``<locals>``); None only for ``tool()``'s own argument errors, raised before the
            class exists.
        method: The exported method concerned, or None for a problem of the class.
        parameter: The method's parameter concerned, or None.
        values: The other values the message needs, as ``(name, value)`` pairs sorted by name.
        code: The error code (``"toolset-unknown-method"``), as the mypy plugin and ``check``
            report it.
    """

    kind: Kind
    toolset: str | None
    method: str | None = None
    parameter: str | None = None
    values: tuple[tuple[str, Value], ...] = ()
    code: str = field(init=False)

    def __post_init__(self) -> None:
        template = KINDS.get(self.kind)
        if template is None:
            msg = f"unknown kind of problem {self.kind!r}; use one of {sorted(KINDS)}"
            raise ValueError(msg)
        given = frozenset(name for name, _ in self.values)
        if given != _VALUE_NAMES[self.kind]:
            msg = (
                f"a {self.kind!r} problem needs the values {sorted(_VALUE_NAMES[self.kind])} "
                f"(got {sorted(given)})"
            )
            raise ValueError(msg)
        object.__setattr__(self, "values", tuple(sorted(self.values)))
        object.__setattr__(self, "code", CODE_PREFIX + template.code)

    def value(self, name: str) -> Value:
        """The value *name* of the message (``problem.value("matches")``).

        Raises:
            KeyError: The kind of problem has no such value.
        """
        for key, value in self.values:
            if key == name:
                return value
        raise KeyError(name)

    @property
    def where(self) -> str:
        """``Class.method``, ``Class`` for a problem of the class, ``tool()`` without a class.

        Empty for a message raised in the code's own words outside any known class.
        """
        if self.toolset is None:
            return "" if self.kind == "raised" else "tool()"
        return self.toolset if self.method is None else f"{self.toolset}.{self.method}"

    @property
    def cause(self) -> str:
        """What is wrong and what to change (the message without its place and code)."""
        return _FORMATTER.format(
            KINDS[self.kind].text,
            toolset=self.toolset,
            method=self.method,
            parameter=self.parameter,
            **{name: _shown_label(v) if name in _LABELS else v for name, v in self.values},
        )

    @property
    def message(self) -> str:
        """``<where>: <cause>``: the line without its code, as the mypy plugin reports it."""
        where = self.where
        return f"{where}: {self.cause}" if where else self.cause

    @property
    def severity(self) -> Literal["error", "warning"]:
        """``warning`` for ambiguous unions (the declared order decides), else ``error``."""
        return "warning" if KINDS[self.kind].code in WARNING_CODES else "error"

    def __str__(self) -> str:
        return f"{self.message} [{self.code}]"

    def __repr__(self) -> str:
        parts = [
            f"code={self.code!r}",
            f"kind={self.kind!r}",
            f"toolset={self.toolset!r}",
            f"method={self.method!r}",
            f"parameter={self.parameter!r}",
            *(f"{name}={value!r}" for name, value in self.values),
        ]
        return f"Problem({', '.join(parts)})"


def problem(
    kind: Kind,
    toolset: str | None,
    method: str | None = None,
    parameter: str | None = None,
    **values: str | Sequence[str],
) -> Problem:
    """Build the record of one problem.

    Args:
        kind: What is wrong (a key of `KINDS`).
        toolset: The class's display name (`typed_toolsets.rules.names.class_display_name`),
            or None for ``tool()``'s own argument errors.
        method: The exported method concerned, if any.
        parameter: The parameter concerned, if any.
        **values: The values the kind's template names; a sequence of names becomes a tuple.

    Raises:
        ValueError: *kind* is unknown, or the values do not match its template.
    """
    pairs = tuple(
        (name, value if isinstance(value, str) else tuple(value)) for name, value in values.items()
    )
    return Problem(kind, toolset, method, parameter, pairs)
