"""The Hypothesis plugin: ``st.from_type`` learns the strategies given to ``register_type``.

Hypothesis runs the functions of its ``hypothesis`` entry-point group when it is imported; this
package declares `_hypothesis_setup_hook` there. Only types registered with ``strategy=`` are
handed to ``st.register_type_strategy``, and only those Hypothesis does not already know (the
standard library's, and any that a project or another plugin registered first): giving a
strategy to ``register_type`` is the opt-in, and nothing Hypothesis already resolves changes
behind a test suite's back. See docs/testing.md.
"""

from __future__ import annotations

import os
import sys
import sysconfig
import typing
from typing import TYPE_CHECKING, Any, TypeGuard

from . import _seams
from ._seams import StrategySource

if TYPE_CHECKING:
    from hypothesis.strategies import SearchStrategy

__all__ = ["_hypothesis_setup_hook"]

#: The types this plugin registered, so that a later ``register_type`` of one replaces ours.
_ours: set[type] = set()


def _known_to_hypothesis(tp: type) -> bool:
    if _from_standard_library(tp.__module__):
        return True
    try:
        # Hypothesis has no public way to ask whether a type has a registered strategy.
        from hypothesis.strategies._internal.types import (
            _global_type_lookup,  # pyright: ignore[reportPrivateUsage]
        )
    except ImportError:  # pragma: no cover - a Hypothesis that moved its table
        return False
    return tp in _global_type_lookup


def _from_standard_library(name: str) -> bool:
    """Whether the module *name* is the standard library's, by where it was loaded from.

    Not by its name alone: a project's own ``email.py`` or ``code.py``, first on ``sys.path``,
    is named like the standard library's module it hides.
    """
    top = name.partition(".")[0]
    if top not in sys.stdlib_module_names and top != "builtins":
        return False
    module = sys.modules.get(name)
    file: object = getattr(module, "__file__", None)
    if not isinstance(file, str):
        return True  # built into the interpreter (or frozen)
    where = os.path.realpath(file)
    paths = sysconfig.get_paths()
    third_party = {os.path.realpath(paths[key]) for key in ("purelib", "platlib") if key in paths}
    if any(where.startswith(path + os.sep) for path in third_party):
        return False
    standard = {os.path.realpath(paths[key]) for key in ("stdlib", "platstdlib") if key in paths}
    return any(where.startswith(path + os.sep) for path in standard)


def _register(tp: type, source: StrategySource) -> None:
    from hypothesis import strategies as st

    if tp not in _ours and _known_to_hypothesis(tp):
        return
    if callable(source):
        make = typing.cast("typing.Callable[[], st.SearchStrategy[Any]]", source)

        # Registered as a function of the type, which Hypothesis calls when a test resolves
        # the type: an `st.deferred` would be evaluated by `register_type_strategy` at once
        # (it checks `is_empty`), running the function inside `register_type` while the
        # user's module is still being imported.
        def resolve(_tp: type) -> st.SearchStrategy[Any]:
            return make()

        st.register_type_strategy(tp, resolve)
        _ours.add(tp)
    elif _is_strategy(source):
        from hypothesis.errors import InvalidArgument

        try:
            st.register_type_strategy(tp, source)
        except InvalidArgument as exc:  # an empty strategy (st.sampled_from([]))
            msg = f"the strategy given to register_type() for {tp.__qualname__}: {exc}"
            raise InvalidArgument(msg) from exc
        _ours.add(tp)


def _is_strategy(value: object) -> TypeGuard[SearchStrategy[Any]]:
    from hypothesis.strategies import SearchStrategy

    return isinstance(value, SearchStrategy)


def _hypothesis_setup_hook() -> None:
    """Register, now and whenever ``register_type`` is given one later, each type's strategy."""
    _seams.watch_strategies(_register)
