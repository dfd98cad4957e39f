# pyright: strict, reportAny=true
# mypy: disallow-any-expr
"""The decorator forms of `tool` hold no `Any`: a module checked with `--disallow-any-expr`.

`tool`'s decorator overloads were typed with a callable bound (``Callable[..., Any]``), whose
``...`` is an ``Any`` to mypy: every ``@tool`` failed the flag the README recommends for strict
codebases. `Toolset.proxy` gives the typed calls such a codebase makes.
"""

from __future__ import annotations

from typing_extensions import assert_type

from typed_toolsets import Toolset, tool


class Units(Toolset):
    toolset_name = "units"

    @tool(description="Fahrenheit to Celsius.")
    def to_celsius(self, *, fahrenheit: float) -> float:
        return (fahrenheit - 32) * 5 / 9

    @tool
    def to_fahrenheit(self, *, celsius: float) -> float:
        return celsius * 9 / 5 + 32


def celsius(units: Units) -> float:
    converted = Toolset.proxy(units.to_celsius).call(fahrenheit=212.0)
    assert_type(converted, float)
    return converted + units.to_fahrenheit(celsius=0.0)
