"""How the plugin's problems are reported: not again where mypy has failed on the expression."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

SOURCE = """\
from typed_toolsets import Toolset, tool


class Undefined(Toolset):
    toolset_name = missing_name
    exports = (tool(missing_method),)


class NoOverload(Toolset):
    exports = (tool(123), tool("run", tool_name=456))

    def run(self) -> None: ...


NAME = "not final"


class Unchecked(Toolset):
    exports = (tool(NAME),)
"""


def test_unchecked_is_not_told_where_mypy_failed_on_the_expression(
    tmp_path: Path, mypy_run: Callable[..., dict[Path, list[str]]]
) -> None:
    path = tmp_path / "failed.py"
    path.write_text(SOURCE, encoding="utf-8")
    lines = mypy_run([path])[path.resolve()]
    errors = [line for line in lines if ": error: " in line]
    # Where mypy has no error, the plugin still says what it cannot read; nowhere else.
    assert [line.split(": ", 1)[0] for line in errors if "[toolset-unchecked]" in line] == ["19"]
    # mypy's own errors: the names it cannot find, the calls that match no signature.
    codes = [line.rsplit("[", 1)[1] for line in errors if "[toolset-unchecked]" not in line]
    assert codes == ["name-defined]", "name-defined]", "call-overload]", "call-overload]"]
