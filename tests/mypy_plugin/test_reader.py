"""What the plugin's `Reader` records from a class body, looked at in mypy's own build."""

from __future__ import annotations

import os

from mypy import build
from mypy.modulefinder import BuildSource
from mypy.nodes import TypeInfo
from mypy.options import Options
from mypy.version import __version__ as mypy_version

import typed_toolsets.mypy
from typed_toolsets.plugin.metadata import META, records

REPEATED = """\
from typed_toolsets import Toolset, tool


class Big(Toolset):
    exports = (tool("a"), tool("b")) * 1_000_000 + 3 * (tool("c"),) + (tool("d"),) * 1

    def a(self) -> None: ...

    def b(self) -> None: ...

    def c(self) -> None: ...

    def d(self) -> None: ...
"""


def _recorded(source: str, name: str) -> tuple[dict[str, object], list[str]]:
    """The metadata the plugin records on the class *name* of *source*, and mypy's messages."""
    options = Options()
    options.incremental = False
    options.cache_dir = os.devnull
    plugin = typed_toolsets.mypy.plugin(mypy_version)(options)
    result = build.build([BuildSource(None, "big", source)], options, extra_plugins=[plugin])
    tree = result.graph["big"].tree
    assert tree is not None
    info = tree.names[name].node
    assert isinstance(info, TypeInfo)
    return info.metadata[META], result.errors


def test_a_repeated_tuple_is_read_twice_at_most() -> None:
    # Twice tells a declaration made again; a million records took the plugin a minute.
    data, errors = _recorded(REPEATED, "Big")
    methods = [str(decl["method"]) for decl in records(data["exports"])]
    assert methods == ["a", "b", "a", "b", "c", "c", "d"]
    assert [e.split(": ", 1)[1] for e in errors] == [
        f"error: Big.{method}: the method {method!r} is declared twice in this class  "
        "[toolset-duplicate-name]"
        for method in ("a", "b", "c")
    ]
