"""The plugin's configuration, and the digest of its sources (part of mypy's cache key).

The configuration is the ``registered_types`` list of the ``[typed_toolsets.mypy]`` section (the
format is in `typed_toolsets.mypy`'s docstring and ``docs/mypy_plugin.md``).
"""

from __future__ import annotations

import configparser
import hashlib
import importlib
import os
import sys
from typing import Any, Final

from typed_toolsets import rules

__all__ = ["CONFIG_SECTION", "read_registered_types", "sources_digest"]

CONFIG_SECTION: Final = "typed_toolsets.mypy"


def sources_digest() -> str:
    """A digest of every file of `typed_toolsets.rules` and of this package.

    mypy invalidates its cache when the plugin's entry module (`typed_toolsets.mypy`) changes;
    the checks, the problem templates and the type tables live in other files, so their digest
    goes into the per-module config data.
    """
    digest = hashlib.sha256()
    for package in (rules.__file__, __file__):
        folder = os.path.dirname(package or "")
        try:
            for name in sorted(os.listdir(folder)):
                if name.endswith(".py"):
                    with open(os.path.join(folder, name), "rb") as handle:
                        digest.update(name.encode() + b"\0" + handle.read())
        except OSError:  # pragma: no cover - the package is always installed with its sources
            return "unknown"
    return digest.hexdigest()[:16]


def read_registered_types(config_file: str | None) -> frozenset[str]:
    """Read ``registered_types`` from the mypy config file, INI or ``pyproject.toml``."""
    if not config_file or not os.path.isfile(config_file):
        return frozenset()
    names: list[str] = []
    if config_file.endswith(".toml"):
        # mypy itself depends on tomli before Python 3.11.
        toml: Any = importlib.import_module("tomllib" if sys.version_info >= (3, 11) else "tomli")
        with open(config_file, "rb") as handle:
            try:
                data: object = toml.load(handle)
            except toml.TOMLDecodeError:
                return frozenset()
        section: object = data
        for key in ("tool", "typed_toolsets", "mypy"):
            section = section.get(key, {}) if isinstance(section, dict) else {}  # pyright: ignore[reportUnknownMemberType, reportUnknownVariableType]
        value: object = section.get("registered_types", []) if isinstance(section, dict) else []  # pyright: ignore[reportUnknownMemberType, reportUnknownVariableType]
        if isinstance(value, str):
            names = value.split(",")
        elif isinstance(value, list):
            names = [str(v) for v in value]  # pyright: ignore[reportUnknownVariableType, reportUnknownArgumentType]
    else:
        # Raw, as mypy reads its own file: a `%` is no interpolation (it would raise at `get`).
        parser = configparser.RawConfigParser()
        try:
            parser.read(config_file, encoding="utf-8")
        except configparser.Error:
            return frozenset()
        if parser.has_option(CONFIG_SECTION, "registered_types"):
            names = parser.get(CONFIG_SECTION, "registered_types").replace("\n", ",").split(",")
    return frozenset(n.strip() for n in names if n.strip())
