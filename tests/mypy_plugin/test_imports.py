"""The plugin imports only mypy, the standard library and `typed_toolsets.rules`.

mypy loads the plugin on every run; importing the library's core (attrs, cattrs, the type
registry) there would slow every type check down and tie the plugin to run-time code. The
fully qualified names the plugin hooks must name real objects, or the hooks never fire.
"""

from __future__ import annotations

import ast
import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

import typed_toolsets
from typed_toolsets.plugin import fullnames

PACKAGE = Path(typed_toolsets.__file__).parent
PLUGIN_FILES = [*sorted((PACKAGE / "plugin").glob("*.py")), PACKAGE / "mypy.py"]

#: Library modules the plugin may import: its own package, the rules, the version (part of
#: mypy's cache key; the module holds nothing else) and `_public` (which the rules' public record
#: uses; standard library only).
ALLOWED = (
    "typed_toolsets.plugin",
    "typed_toolsets.rules",
    "typed_toolsets._version",
    "typed_toolsets._public",
)


def _allowed(module: str) -> bool:
    top = module.partition(".")[0]
    if top in sys.stdlib_module_names or top == "mypy":
        return True
    return any(module == a or module.startswith(f"{a}.") for a in ALLOWED)


def _imports(path: Path) -> list[tuple[int, str]]:
    """``(line, module)`` for every module *path* imports, relative imports resolved."""
    package = "typed_toolsets" if path.parent == PACKAGE else f"typed_toolsets.{path.parent.name}"
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{parent}.{base}" if base else parent
            # `from pkg import name` may import the submodule `pkg.name`.
            found.extend((node.lineno, f"{base}.{alias.name}") for alias in node.names)
    return found


@pytest.mark.parametrize("path", PLUGIN_FILES, ids=lambda p: p.name)
def test_plugin_modules_import_only_mypy_the_stdlib_and_the_rules(path: Path) -> None:
    bad = [(line, module) for line, module in _imports(path) if not _allowed(module)]
    assert bad == []


@pytest.mark.parametrize(
    "path", sorted((PACKAGE / "rules").glob("*.py")), ids=lambda p: f"rules/{p.name}"
)
def test_the_rules_import_only_the_stdlib(path: Path) -> None:
    # Besides each other: `_public`, itself standard library only (a record's public module).
    imported = [m for _, m in _imports(path)]
    assert [m for m in imported if m.partition(".")[0] not in sys.stdlib_module_names] == [
        m for m in imported if m.startswith(("typed_toolsets.rules.", "typed_toolsets._public."))
    ]


def test_the_public_module_imports_only_the_stdlib() -> None:
    imported = [m for _, m in _imports(PACKAGE / "_public.py")]
    assert imported
    assert [m for m in imported if m.partition(".")[0] not in sys.stdlib_module_names] == []


def test_the_import_rule_catches_a_core_import(tmp_path: Path) -> None:
    # The parser above must see what it is meant to forbid.
    sample = tmp_path / "sample.py"
    sample.write_text("from typed_toolsets.types import catalog\nfrom .. import Toolset\n")
    assert [m for _, m in _imports(sample) if not _allowed(m)] == [
        "typed_toolsets.types.catalog",
        "typed_toolsets.Toolset",
    ]


def test_loading_the_plugin_loads_no_core_module() -> None:
    script = (
        "import json, sys\nimport typed_toolsets.mypy\nprint(json.dumps(sorted(sys.modules)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=120
    )
    loaded = json.loads(done.stdout)
    ours = [m for m in loaded if m.startswith("typed_toolsets")]
    assert "typed_toolsets.plugin.classes" in ours
    # The package itself, with its lazy loader (standard library only), and the entry point.
    assert [m for m in ours if not _allowed(m)] == [
        "typed_toolsets",
        "typed_toolsets._lazy",
        "typed_toolsets.mypy",
    ]
    assert not {"attr", "attrs", "cattrs", "jsonschema"} & set(loaded)


@pytest.mark.parametrize("name", fullnames.__all__)
def test_fullnames_name_real_objects(name: str) -> None:
    fullname: str = getattr(fullnames, name)
    if fullname.startswith("."):  # a suffix, not a name
        assert fullname == ".__init_subclass__"
        return
    parts = fullname.split(".")
    for split in range(len(parts) - 1, 0, -1):
        try:
            value: object = importlib.import_module(".".join(parts[:split]))
        except ImportError:
            continue
        for attribute in parts[split:]:
            value = getattr(value, attribute)
        assert value is not None
        return
    pytest.fail(f"{fullname} names no module")
