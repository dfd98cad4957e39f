"""The public surface: a sorted ``__all__`` of exactly the public names, loaded lazily."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

import typed_toolsets


def test_all_is_sorted_and_complete() -> None:
    assert typed_toolsets.__all__ == sorted(typed_toolsets.__all__)
    for name in typed_toolsets.__all__:
        assert getattr(typed_toolsets, name) is not None
    assert set(typed_toolsets.__all__) <= set(dir(typed_toolsets))


def test_unknown_attribute() -> None:
    with pytest.raises(AttributeError, match="NoSuchThing"):
        typed_toolsets.NoSuchThing  # type: ignore[attr-defined]


WATCHED = [
    "attrs",
    "cattrs",
    "jsonschema",
    "typed_toolsets._toolset",
    "typed_toolsets.types.converter",
    "typed_toolsets.call.validation",
    "typed_toolsets.text",
    "typed_toolsets.github",
    "typed_toolsets.mypy",
]


def _modules_after(code: str) -> dict[str, bool]:
    script = "\n".join(
        [
            "import json, sys",
            textwrap.dedent(code),
            f"print(json.dumps({{name: name in sys.modules for name in {WATCHED!r}}}))",
        ]
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout)


def test_import_is_light() -> None:
    loaded = _modules_after("import typed_toolsets")
    assert not any(loaded.values()), loaded


def test_defining_and_calling_loads_only_what_is_needed() -> None:
    loaded = _modules_after(
        """
from typed_toolsets import Toolset, tool
class T(Toolset):
    @tool
    def f(self, *, n: int) -> int:
        return n
tools = T.to_tools()
assert tools[0].dynamic_call({"n": 1}) == 1
"""
    )
    assert loaded["attrs"]
    assert loaded["typed_toolsets._toolset"]
    assert loaded["cattrs"]
    assert loaded["typed_toolsets.types.converter"]
    assert not loaded["jsonschema"], "jsonschema only loads to explain invalid arguments"
    assert not loaded["typed_toolsets.text"]
    assert not loaded["typed_toolsets.github"]
    assert not loaded["typed_toolsets.mypy"]


def test_a_failing_call_loads_jsonschema_for_its_messages() -> None:
    loaded = _modules_after(
        """
from typed_toolsets import Toolset, tool
class T(Toolset):
    @tool
    def f(self, *, n: int) -> int:
        return n
assert T.to_tools()[0].dynamic_call({"n": "x"}).startswith("Error: ")
"""
    )
    assert loaded["jsonschema"]
