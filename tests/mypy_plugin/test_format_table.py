"""The format table seen by the plugin: each row's type is accepted and analysed like at run time.

One generated module holds a Toolset per row of `FORMAT_TYPES`, written with the row's fullname
as a user would write the annotation. mypy with the plugin and ``typed-toolsets check`` must both
accept the type (also as a set item) and report exactly one ambiguous union: the row's type
next to a literal of its example, not next to a near miss or another format type.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from typed_toolsets.analysis.check import run_check
from typed_toolsets.rules.formats import FORMAT_TYPES, FormatType

MODULE = "format_table_case"

HEADER = """\
from __future__ import annotations

from typing import Literal

from typed_toolsets import Toolset, tool
"""

TOOLSET = """

class Format{index}(Toolset):
    @tool
    def plain(self, *, value: {name}, items: set[{name}], maybe: {name} | None = None) -> None: ...

    @tool
    def example(self, *, value: {name} | Literal[{example!r}]) -> None: ...

    @tool
    def near_miss(self, *, value: {name} | Literal[{near_miss!r}]) -> None: ...

    @tool
    def other_format(self, *, value: {name} | {other}) -> None: ...
"""

_PLUGIN_RE = re.compile(
    r"^\d+: error: (?P<toolset>Format\d+)\.(?P<method>\w+): .*\[(?P<code>toolset-[a-z-]+)\]$"
)

#: (toolset, method, code)
Problem = tuple[str, str, str]


def _source() -> str:
    modules = sorted({row.fullname.rsplit(".", 1)[0] for row in FORMAT_TYPES})
    parts = [HEADER, *(f"import {module}\n" for module in modules)]
    for index, row in enumerate(FORMAT_TYPES):
        other = FORMAT_TYPES[(index + 1) % len(FORMAT_TYPES)]
        parts.append(
            TOOLSET.format(
                index=index,
                name=row.fullname,
                example=row.example,
                near_miss=row.example[:-1],
                other=other.fullname,
            )
        )
    return "".join(parts)


def _plugin_problems(lines: list[str]) -> Iterator[Problem]:
    for line in lines:
        match = _PLUGIN_RE.search(line)
        assert match is not None, line
        yield match.group("toolset"), match.group("method"), match.group("code")


@pytest.fixture(scope="module")
def problems(
    tmp_path_factory: pytest.TempPathFactory,
    mypy_run: Callable[[list[Path]], dict[Path, list[str]]],
) -> tuple[set[Problem], set[Problem]]:
    """The problems the plugin and the runtime check report on the generated module."""
    path = tmp_path_factory.mktemp("formats") / f"{MODULE}.py"
    path.write_text(_source(), encoding="utf-8")
    output = mypy_run([path])
    plugin = set(_plugin_problems(output[path.resolve()]))
    saved_path = list(sys.path)
    try:
        findings = run_check([str(path)]).findings
    finally:
        sys.path[:] = saved_path
        sys.modules.pop(MODULE, None)
    runtime = {(str(f.toolset), str(f.method), f.code) for f in findings}
    return plugin, runtime


@pytest.mark.parametrize(
    "index", range(len(FORMAT_TYPES)), ids=lambda i: FORMAT_TYPES[i].format_name
)
def test_plugin_and_runtime_see_the_row_alike(
    index: int, problems: tuple[set[Problem], set[Problem]]
) -> None:
    row: FormatType[Any] = FORMAT_TYPES[index]
    plugin, runtime = problems
    expected = {(f"Format{index}", "example", "toolset-ambiguous-union")}
    toolset = f"Format{index}"
    assert {p for p in plugin if p[0] == toolset} == expected, row.fullname
    assert {p for p in runtime if p[0] == toolset} == expected, row.fullname
