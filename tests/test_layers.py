"""The layers of `docs/architecture.md`: every module imports only what its layer may.

The core (rules, types, definition, call, ``_toolset``, analysis) never imports an integration
(built-ins, export, testing, agent, server, CLI, the plugin); integrations import the core and
the integrations the diagram draws below them. A new arrow is a decision: it goes in `MAY_IMPORT`
and in the diagram together.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

import typed_toolsets

PACKAGE = Path(typed_toolsets.__file__).parent

#: What a module of the package ``typed_toolsets`` itself re-exports, the public API.
PUBLIC = "public API"

_CORE = {
    "_ending",
    "_lazy",
    "_public",
    "_version",
    "rules",
    "types",
    "definition",
    "call",
    "_toolset",
}

#: Layer -> the layers its modules may import (their own always).
MAY_IMPORT: dict[str, set[str]] = {
    "rules": {"_public"},
    "_public": set(),
    "_ending": set(),
    "_lazy": set(),
    "_version": set(),
    "types": {"_public", "rules"},
    "definition": {"_public", "rules", "types"},
    "call": {"_public", "rules", "types", "definition"},
    "_toolset": {"_public", "rules", "types", "definition", "call"},
    "typed_toolsets": _CORE,
    "analysis": _CORE,
    "plugin": {"_public", "rules", "_version"},
    "mypy": {"_public", "plugin", "rules", "_version"},
    "builtins": {PUBLIC, "_ending", "_public", "definition", "rules"},
    "text": {"builtins"},
    "github": {"builtins"},
    "export": _CORE,
    "testing": _CORE | {"analysis"},
    "agent": _CORE | {PUBLIC, "export"},
    "server": _CORE | {PUBLIC, "export"},
    "cli": _CORE | {PUBLIC, "analysis", "export", "server", "agent", "text"},
    "__main__": {"cli"},
}

#: Imports that go against the arrows on purpose, each with its reason.
EXCEPTIONS = {
    # The proxy's `toolset` field is annotated `typed_toolsets.Toolset`; the module is imported
    # (not the class: that would be a cycle) so that the annotation resolves at run time, and a
    # proxy loaded from a pickle finds its toolset class's exports below `Toolset`.
    ("call/proxy.py", "typed_toolsets"),
    # Likewise `Toolset.proxy` returns a `typed_toolsets.ToolProxy`: importing `call.proxy`
    # itself would load the call layer with every toolset class, before any tool is built.
    ("_toolset.py", "typed_toolsets"),
}


def _layer_of_path(path: Path) -> str:
    relative = path.relative_to(PACKAGE)
    if len(relative.parts) > 1:
        return relative.parts[0]
    return "typed_toolsets" if relative.stem == "__init__" else relative.stem


def _layer_of_module(module: str) -> str | None:
    parts = module.split(".")
    if parts[0] != "typed_toolsets":
        return None
    if len(parts) == 1:
        return "typed_toolsets"
    if (PACKAGE / parts[1]).is_dir() or (PACKAGE / f"{parts[1]}.py").exists():
        return parts[1]
    return PUBLIC  # `from typed_toolsets import Toolset`


def _imports(text: str, package: str) -> Iterator[str]:
    """Every module the source *text* of a module in *package* imports, relative ones resolved."""
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{parent}.{base}" if base else parent
            if base == "typed_toolsets":
                yield from (f"{base}.{alias.name}" for alias in node.names)
            else:
                yield base


def _imports_of(path: Path) -> Iterator[str]:
    package = ".".join(("typed_toolsets", *path.relative_to(PACKAGE).parent.parts))
    return _imports(path.read_text(encoding="utf-8"), package)


MODULES = sorted(PACKAGE.rglob("*.py"))


def test_every_layer_is_known() -> None:
    assert {_layer_of_path(path) for path in MODULES} <= MAY_IMPORT.keys()


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_imports_follow_the_layers(path: Path) -> None:
    layer = _layer_of_path(path)
    allowed = MAY_IMPORT[layer] | {layer}
    name = path.relative_to(PACKAGE).as_posix()
    wrong = sorted(
        {
            module
            for module in _imports_of(path)
            if (target := _layer_of_module(module)) is not None
            and target not in allowed
            and (name, module) not in EXCEPTIONS
        }
    )
    assert wrong == [], f"{name} ({layer}) may import only {sorted(allowed)}"


def test_a_wrong_arrow_is_seen() -> None:
    # Relative imports must resolve, or a core module importing `..export` would pass unnoticed.
    text = "from ..export import dispatch\nfrom .. import Toolset\nfrom . import pipeline\n"
    layers = {_layer_of_module(m) for m in _imports(text, "typed_toolsets.call")}
    assert layers == {"export", PUBLIC, "call"}
