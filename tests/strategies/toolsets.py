"""Build Toolset classes from annotation cases."""

from __future__ import annotations

import inspect
import itertools
from typing import Any

from hypothesis import strategies as st

from tests.strategies.annotations import Case, cases
from tests.strategies.annotations import identifiers as _identifiers
from typed_toolsets import Limits, ToolProxy, Toolset, tool

__all__ = ["echo_tool", "make_echo_toolset", "toolsets"]

_names = (f"Generated{i}Toolset" for i in itertools.count())


def make_echo_toolset(
    params: list[tuple[str, object, object]],
    toolset_name: str | None = None,
    limits: Limits | None = None,
) -> type[Toolset]:
    """A toolset whose one tool, ``echo``, returns the keyword arguments it received.

    Args:
        params: ``(name, annotation, default)`` triples; a default of ``inspect.Parameter.empty``
            makes the parameter required.
        toolset_name: The toolset's name, if not the class's.
        limits: The toolset's limits, if not the default ones.
    """

    def echo(self: object, **kwargs: Any) -> dict[str, Any]:
        return kwargs

    parameters = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    parameters += [
        inspect.Parameter(
            name, inspect.Parameter.KEYWORD_ONLY, annotation=annotation, default=default
        )
        for name, annotation, default in params
    ]
    echo.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    namespace: dict[str, Any] = {"exports": (tool("echo"),), "echo": echo, "__module__": __name__}
    if toolset_name is not None:
        namespace["toolset_name"] = toolset_name
    if limits is not None:
        namespace["limits"] = limits
    return type(next(_names), (Toolset,), namespace)


def echo_tool(annotation: object) -> ToolProxy:
    """The ``echo`` tool of a toolset with one required parameter ``value: annotation``."""
    cls = make_echo_toolset([("value", annotation, inspect.Parameter.empty)])
    return cls.to_tools()[0]


@st.composite
def toolsets(draw: st.DrawFn) -> tuple[type[Toolset], list[tuple[str, Case, bool]]]:
    """A generated toolset and, per parameter, its case and whether it has a default."""
    count = draw(st.integers(0, 3))
    names = draw(st.lists(_identifiers, min_size=count, max_size=count, unique=True))
    params: list[tuple[str, object, object]] = []
    described: list[tuple[str, Case, bool]] = []
    for name in names:
        case = draw(cases(max_leaves=3))
        defaulted = draw(st.booleans())
        default = draw(case.values) if defaulted else inspect.Parameter.empty
        params.append((name, case.annotation, default))
        described.append((name, case, defaulted))
    return make_echo_toolset(params), described
