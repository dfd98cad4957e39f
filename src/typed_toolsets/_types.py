"""The process-wide type registry with its built-in rules installed."""

from __future__ import annotations

from ._builtin_types import install
from ._registry import register_type, registry

__all__ = ["register_type", "registry"]

install(registry)
