"""Hypothesis strategies and checks for users' own suites: ``pip install typed-toolsets[testing]``.

In three lines of a pytest suite, a toolset gets the guarantees the library's own property suite
proves for every type::

    from typed_toolsets.testing import check_toolset

    def test_my_tools() -> None:
        check_toolset(MyToolset)

- `values` (Python values of an annotation), `arguments` (argument mappings a tool's schema
  admits) and `invalid_arguments` (near misses, each with the JSON path its error must name) are
  strategies for tests of your own;
- `check_toolset` checks, for every tool, that values survive the trip through JSON, that the
  schema's arguments are accepted and its near misses refused at the right path, and that the
  fast and exact call paths agree. It never calls the methods unless ``call=True``;
- `register_type` (``typed_toolsets.register_type`` itself, here too) teaches them a type of
  your own: its ``strategy`` draws its values.

May import the core, `typed_toolsets.analysis` (the ambiguous unions `check` finds), attrs and
Hypothesis. Only this package imports Hypothesis; ``import typed_toolsets`` never does. The
names load on first use, so that Hypothesis's plugin entry point (`typed_toolsets.testing._plugin`)
stays light.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from typed_toolsets._lazy import lazy_names

if TYPE_CHECKING:
    from typed_toolsets.types.catalog import register_type as register_type

    from ._check import ToolsetCheckError as ToolsetCheckError
    from ._check import check_toolset as check_toolset
    from ._nearmiss import NearMiss as NearMiss
    from ._nearmiss import invalid_arguments as invalid_arguments
    from ._strategies import NoStrategyError as NoStrategyError
    from ._strategies import arguments as arguments
    from ._strategies import values as values

__all__ = [
    "NearMiss",
    "NoStrategyError",
    "ToolsetCheckError",
    "arguments",
    "check_toolset",
    "invalid_arguments",
    "register_type",
    "values",
]

_WHERE = {
    "NearMiss": "._nearmiss",
    "NoStrategyError": "._strategies",
    "ToolsetCheckError": "._check",
    "arguments": "._strategies",
    "check_toolset": "._check",
    "invalid_arguments": "._nearmiss",
    "register_type": "typed_toolsets.types.catalog",
    "values": "._strategies",
}


# Hidden from type checkers: they would take any name, a misspelled one too, for an
# attribute of type Any. They see the names imported under TYPE_CHECKING above.
def _without_hypothesis(exc: ModuleNotFoundError) -> Exception | None:
    if exc.name != "hypothesis" and not str(exc.name).startswith("hypothesis."):
        return None
    msg = (
        "typed_toolsets.testing needs Hypothesis; install it with "
        "`pip install 'typed-toolsets[testing]'`"
    )
    return ImportError(msg)


if not TYPE_CHECKING:
    __getattr__ = lazy_names(globals(), _WHERE, _without_hypothesis)


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
