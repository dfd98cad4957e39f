"""Dependencies a verdict has on definitions in other modules, for incremental mode and dmypy.

mypy re-checks a module when a module it depends on changes its interface, and the daemon
re-checks a target when a definition it depends on changes. A verdict of the plugin can depend
on more than mypy sees: a struct's field two modules away, an enum's values, the constructor of a
base class in another module. `depend_on` registers those (through checker internals, read
defensively: without them the plugin still checks, only less incrementally).
"""

from __future__ import annotations

from collections.abc import Iterable

from mypy.plugin import CheckerPluginInterface
from mypy.server.trigger import make_trigger, make_wildcard_trigger

__all__ = ["depend_on"]


def depend_on(api: CheckerPluginInterface, names: Iterable[str], modules: Iterable[str]) -> None:
    """Re-check the current target when a definition in *names* changes.

    Args:
        api: mypy's checker, checking the target whose verdict depends on them.
        names: Fully qualified names of classes and type aliases; a change to one of them or
            to a member of a class makes the daemon re-check the current target.
        modules: Their modules; a change to one makes incremental mode (and ``-n``) re-check
            the current module.
    """
    tree = getattr(api, "tree", None)
    current = getattr(tree, "fullname", None)
    refs = getattr(api, "module_refs", None)
    if isinstance(refs, set):
        refs.update(m for m in modules if m != current)  # pyright: ignore[reportUnknownMemberType]
    deps = getattr(tree, "plugin_deps", None)
    tscope = getattr(api, "tscope", None)
    current_target = getattr(tscope, "current_target", None)
    if not isinstance(deps, dict) or not callable(current_target):
        return
    target = current_target()
    if not isinstance(target, str):
        return
    for name in names:
        for trigger in (make_trigger(name), make_wildcard_trigger(name)):
            deps.setdefault(trigger, set()).add(target)  # pyright: ignore[reportUnknownMemberType]
