"""The metadata the plugin keeps on a Toolset class in mypy's cache, and reading it back.

`typed_toolsets.plugin.declarations` writes it during semantic analysis; the class checks
(`typed_toolsets.plugin.classes`) and the signature checks read it here once the class is
defined. It is JSON, so it survives mypy's cache and reaches other modules and the daemon.
"""

from __future__ import annotations

from typing import Final, cast

from mypy.nodes import Decorator, SymbolNode, TypeInfo

from typed_toolsets.rules.kinds import KINDS, Kind

from .codes import Span
from .typeinfo import wrapped_function

__all__ = [
    "DIGEST",
    "FIELDS_META",
    "META",
    "META_VERSION",
    "MIXIN_META",
    "Declaration",
    "Unchecked",
    "absent_members_of",
    "alias_of",
    "class_metadata",
    "declarations_of",
    "loose_tools_of",
    "overload_marks_of",
    "metadata",
    "method_facts_of",
    "mixin_metadata",
    "mixin_method_facts_of",
    "mixin_toolset_name",
    "none_default_fields",
    "records",
    "slots_of",
    "stored_span",
    "unchecked_of",
    "wrapped",
]

#: Key of the recorded declarations in ``TypeInfo.metadata`` (JSON, stored in mypy's cache).
META: Final = "typed_toolsets"
#: Bumped when the shape of the recorded metadata changes.
META_VERSION: Final = 7
#: Key of a mixin's recorded ``toolset_name`` and ``limits`` (a class that is not a Toolset).
MIXIN_META: Final = "typed_toolsets_mixin"
#: Key of the fields of a class (a struct, maybe) whose default is ``None``, recorded for every
#: class that has some: attrs, dataclass and NamedTuple metadata say only that a field has a
#: default, and ``attrs.field(default=None)`` is fine with mypy whatever the field's type.
FIELDS_META: Final = "typed_toolsets_fields"
#: A class attribute whose literal type is a digest of the metadata. mypy's daemon re-checks the
#: subclasses of a class when a member of the class changes, and metadata is not a member: the
#: digest makes a changed declaration, ``toolset_name`` or method fact one.
DIGEST: Final = "__typed_toolsets__"


def records(value: object) -> list[dict[str, object]]:
    """The objects of a list stored in the metadata (anything else is skipped)."""
    if not isinstance(value, list):
        return []
    # The metadata is the JSON `record_class` wrote: lists of objects with string keys.
    return [
        cast("dict[str, object]", d) for d in cast("list[object]", value) if isinstance(d, dict)
    ]


def metadata(info: TypeInfo) -> dict[str, object] | None:
    """What `record_class` stored on *info*, if it is of this plugin version."""
    data = info.metadata.get(META)
    if isinstance(data, dict) and data.get("version") == META_VERSION:
        return cast("dict[str, object]", data)
    return None


def class_metadata(info: TypeInfo) -> dict[str, object]:
    """`metadata`, or an empty record for a class the plugin did not record."""
    return metadata(info) or {}


def _position(data: dict[str, object], key: str) -> int:
    value = data.get(key)
    return value if isinstance(value, int) else -1


class Declaration:
    """One recorded declaration, as a checked class sees it after merging along the MRO.

    Attributes:
        method: The declared method's name.
        tool_name: The literal ``tool_name=``, or None.
        tool_name_known: False when ``tool_name=`` is not a literal (the final name is unknown).
        line: The line of the ``tool(...)`` call or ``@tool`` decorator (-1 when unknown).
        column: Its column.
        end_line: The line where it ends.
        end_column: The column where it ends.
        declared_by: The class whose body declares it.
        copied_from: For a declaration made by ``exports = Base.exports + ...``, the class whose
            ``exports`` it repeats.
        copied_index: Its place in that class's ``exports`` (None when not copied).
        inline: Whether it says ``inline=True`` (`typed_toolsets.plugin.inline`).
        limits_set: Whether an inline declaration says ``limits=``.
        timeout: The timeout its own ``limits=`` sets, as the run time shows it (None: none).
    """

    def __init__(self, data: dict[str, object], declared_by: TypeInfo) -> None:
        method = data.get("method")
        tool_name = data.get("tool_name")
        copied = data.get("copied_from")
        self.method = method if isinstance(method, str) else ""
        self.tool_name = tool_name if isinstance(tool_name, str) else None
        self.tool_name_known = data.get("tool_name_known", True) is not False
        self.line = _position(data, "line")
        self.column = _position(data, "column")
        self.end_line = _position(data, "end_line")
        self.end_column = _position(data, "end_column")
        self.declared_by = declared_by
        self.copied_from = copied if isinstance(copied, str) else None
        index = data.get("copied_index")
        self.copied_index = index if isinstance(index, int) else None
        timeout = data.get("timeout")
        self.inline = data.get("inline") is True
        self.limits_set = data.get("limits_set") is True
        self.timeout = timeout if isinstance(timeout, str) else None

    @property
    def span(self) -> tuple[int, int, int, int]:
        """``(line, column, end_line, end_column)`` of the declaration."""
        return self.line, self.column, self.end_line, self.end_column


def declarations_of(info: TypeInfo) -> list[Declaration]:
    """The declarations *info*'s own body makes, in order (``exports``, then decorators)."""
    data = class_metadata(info)
    return [
        Declaration(d, info) for d in records(data.get("exports")) + records(data.get("decorated"))
    ]


class Unchecked:
    """Something in a class body the plugin cannot check statically (reported as such).

    Attributes:
        kind: The kind of problem (``unchecked-exports``, ``unchecked-tool-name``, ...).
        span: ``(line, column, end_line, end_column)``.
        values: The values of its message.
    """

    def __init__(self, kind: Kind, span: Span, values: dict[str, str]) -> None:
        self.kind: Kind = kind
        self.span = span
        self.values = values


def stored_span(data: object) -> Span | None:
    """A `span` read back from the metadata, if it is one."""
    if not isinstance(data, dict):
        return None
    stored = cast("dict[str, object]", data)
    line, column, end_line, end_column = (
        stored.get(key) for key in ("line", "column", "end_line", "end_column")
    )
    if (
        isinstance(line, int)
        and isinstance(column, int)
        and isinstance(end_line, int)
        and isinstance(end_column, int)
    ):
        return line, column, end_line, end_column
    return None


def unchecked_of(info: TypeInfo) -> list[Unchecked]:
    """What *info*'s own body has that cannot be checked statically."""
    found: list[Unchecked] = []
    for data in records(class_metadata(info).get("unchecked")):
        kind, at, values = data.get("kind"), stored_span(data), data.get("values")
        if kind not in KINDS or at is None or not isinstance(values, dict):
            continue  # not written by this version (the version check makes it unlikely)
        texts = {k: v for k, v in cast("dict[str, object]", values).items() if isinstance(v, str)}
        found.append(Unchecked(cast("Kind", kind), at, texts))
    return found


def alias_of(info: TypeInfo, name: str) -> tuple[str, str] | None:
    """``(target fullname, target name)`` when *info*'s body binds *name* to a function."""
    aliases = class_metadata(info).get("aliases")
    entry = cast("dict[str, object]", aliases).get(name) if isinstance(aliases, dict) else None
    if not isinstance(entry, dict):
        return None
    data = cast("dict[str, object]", entry)
    target, target_name = data.get("target"), data.get("name")
    if isinstance(target, str) and isinstance(target_name, str):
        return target, target_name
    return None


def loose_tools_of(info: TypeInfo) -> list[tuple[str, str]]:
    """``(attribute, method)`` of each ``attribute = tool("method")`` of *info*'s own body."""
    found: list[tuple[str, str]] = []
    for data in records(class_metadata(info).get("loose_tools")):
        attribute, method = data.get("attribute"), data.get("method")
        if isinstance(attribute, str) and isinstance(method, str):
            found.append((attribute, method))
    return found


def overload_marks_of(info: TypeInfo) -> list[Span]:
    """Where *info*'s own body puts ``@tool`` above an ``@overload``."""
    found = [stored_span(mark) for mark in records(class_metadata(info).get("overload_marks"))]
    return [at for at in found if at is not None]


def lambda_of(info: TypeInfo, name: str) -> list[tuple[str, str]] | None:
    """``(parameter, kind)`` of the lambda *info*'s body binds to *name*, or None."""
    lambdas = class_metadata(info).get("lambdas")
    entry = cast("dict[str, object]", lambdas).get(name) if isinstance(lambdas, dict) else None
    if not isinstance(entry, list):
        return None
    pairs = [cast("list[object]", p) for p in cast("list[object]", entry) if isinstance(p, list)]
    return [(str(p[0]), str(p[1])) for p in pairs if len(p) == 2]


def method_facts_of(info: TypeInfo, name: str) -> dict[str, object] | None:
    """The recorded facts about *info*'s own method *name* (see `sources.method_facts`)."""
    methods = class_metadata(info).get("methods")
    entry = cast("dict[str, object]", methods).get(name) if isinstance(methods, dict) else None
    return cast("dict[str, object]", entry) if isinstance(entry, dict) else None


def wrapped(owner: TypeInfo | None, node: SymbolNode | None, *, here: bool) -> bool:
    """`typeinfo.wrapped_function` for a method of *owner*, the same from mypy's cache.

    mypy's cache keeps no decorators, so a Toolset records which of its methods one wraps. A
    method of another module's class that records nothing (a mixin) counts as wrapped when it
    is decorated at all (the run time judges it); *here* says it is of the module checked.
    """
    name = node.name if isinstance(node, Decorator) else None
    recorded = method_facts_of(owner, name) if owner is not None and name else None
    if recorded is not None and "wrapped" in recorded:
        return recorded["wrapped"] is True
    return wrapped_function(node) if here else isinstance(node, Decorator)


def mixin_metadata(info: TypeInfo) -> dict[str, object] | None:
    """What `declarations.record_mixin` stored on *info*, if it is of this plugin version."""
    data = info.metadata.get(MIXIN_META)
    if isinstance(data, dict) and data.get("version") == META_VERSION:
        return cast("dict[str, object]", data)
    return None


def mixin_method_facts_of(info: TypeInfo, name: str) -> dict[str, object] | None:
    """The parameter names `declarations.record_mixin` recorded for *info*'s method *name*.

    Recorded only for a method whose parameters mypy leaves unnamed (positional-only ones):
    ``{"params": [...]}``, the ``params`` of `sources.method_facts`.
    """
    methods = (mixin_metadata(info) or {}).get("methods")
    entry = cast("dict[str, object]", methods).get(name) if isinstance(methods, dict) else None
    return cast("dict[str, object]", entry) if isinstance(entry, dict) else None


def absent_members_of(info: TypeInfo) -> frozenset[str]:
    """The names *info*'s body binds that it does not have at run time (`sources.absent_members`).

    Recorded by `declarations.record_class` for a Toolset, `declarations.record_mixin` for
    another class.
    """
    data = metadata(info) or mixin_metadata(info) or {}
    names = data.get("absent")
    return (
        frozenset(str(n) for n in cast("list[object]", names))
        if isinstance(names, list)
        else frozenset()
    )


def slots_of(info: TypeInfo) -> frozenset[str]:
    """The slots *info*'s own ``__slots__`` makes (`sources.slot_names`), as stored.

    Recorded like `absent_members_of`'s names.
    """
    data = metadata(info) or mixin_metadata(info) or {}
    names = data.get("slots")
    return (
        frozenset(str(n) for n in cast("list[object]", names))
        if isinstance(names, list)
        else frozenset()
    )


def mixin_toolset_name(info: TypeInfo) -> str | None:
    """The literal ``toolset_name`` `declarations.record_mixin` recorded on *info*, if any."""
    name = (mixin_metadata(info) or {}).get("mixin_toolset_name")
    return name if isinstance(name, str) else None


def none_default_fields(info: TypeInfo) -> list[str]:
    """The fields *info*'s own body declares with a ``None`` default.

    Recorded by `declarations.record_mixin`, for every class.
    """
    data = info.metadata.get(FIELDS_META)
    if not isinstance(data, dict) or data.get("version") != META_VERSION:
        return []
    names = cast("dict[str, object]", data).get("none_defaults")
    return [str(n) for n in cast("list[object]", names)] if isinstance(names, list) else []
