"""What a Toolset combines from classes that are not Toolsets (mixins), as the run time sees it.

A mixin's ``toolset_name`` is taken (`report_mixin_name` says when it cannot be read); its
``@tool`` and ``exports`` are not, since only Toolsets' declarations are inherited
(`report_mixin_declarations`, mirroring the run time's ``mixin-declaration`` problem).
"""

from __future__ import annotations

from collections.abc import Collection

from mypy.nodes import TypeInfo
from mypy.plugin import CheckerPluginInterface

from typed_toolsets.rules.problems import problem

from .codes import report
from .metadata import class_metadata, metadata, records
from .typeinfo import class_span, display_name

__all__ = ["report_mixin_declarations", "report_mixin_name"]


def _reported_on_a_base(info: TypeInfo, mixin: TypeInfo) -> bool:
    """Whether a Toolset base of *info* combines *mixin* too (its problem is reported there)."""
    return any(metadata(base.type) is not None and mixin in base.type.mro for base in info.bases)


def report_mixin_name(api: CheckerPluginInterface, info: TypeInfo, origin: TypeInfo) -> None:
    """A ``toolset_name`` from a class that is not a Toolset, when *info* combines it."""
    if origin is info or metadata(origin) is not None:
        return  # set in a Toolset class: reported there as unchecked, if so
    if _reported_on_a_base(info, origin):
        return
    found = problem("unchecked-mixin-toolset-name", display_name(info), mixin=display_name(origin))
    report(api, found, class_span(info))


def report_mixin_declarations(
    api: CheckerPluginInterface, info: TypeInfo, declared: Collection[str]
) -> None:
    """The tools *info*'s mixins of its own module declare, which *info* does not inherit.

    A method *info* declares itself (or inherits from a Toolset) is exported anyway.
    """
    recorded = records(class_metadata(info).get("mixin_declarations"))
    reported = set(declared)
    mixins = {display_name(base): base for base in info.mro[1:]}
    for entry in recorded:
        mixin, method = str(entry.get("mixin")), str(entry.get("method"))
        base = mixins.get(mixin)
        if method in reported or base is None or _reported_on_a_base(info, base):
            continue
        reported.add(method)
        found = problem("mixin-declaration", display_name(info), method, mixin=mixin)
        report(api, found, class_span(info))
