"""A Toolset class's toolset-wide options, read and checked at class creation.

``toolset_name``, ``limits``, ``tool_annotations`` (or ``annotations``) and
``requires_approval``, as the nearest class in the MRO sets them; each problem is recorded and a
default taken in its place, so that the class's other problems are still found.
"""

from __future__ import annotations

import dataclasses
import types

from typed_toolsets.rules.labels import safe_repr
from typed_toolsets.rules.names import CLASS_OPTIONS, class_display_name, default_toolset_name
from typed_toolsets.rules.problems import Problem, problem

from .declarations import ANNOTATIONS_EXPECTED, ToolAnnotations, read_annotations
from .limits import DEFAULT_LIMITS, Limits

__all__ = ["class_limits_of", "class_policy", "option_fields", "toolset_name_of"]


def option_fields(cls: type, toolset_base: type) -> list[Problem]:
    """The options *cls* takes from a field of its instances, not from a class attribute.

    Annotated in a Toolset that is an attrs class or a dataclass, an option is an instance
    field: attrs removes a dict class's class attribute once its ``__init__`` is written, and a
    slotted class (or any base, a mixin's slots too) holds the slot's descriptor where the value
    was. Either way the value is only an ``__init__`` default. (A mixin's field of that name is
    its own data: the class reads the option from further along.)
    """
    where = class_display_name(cls.__qualname__)
    found: list[Problem] = []
    for option in CLASS_OPTIONS:
        for klass in cls.__mro__:
            value = vars(klass).get(option)
            if isinstance(value, types.MemberDescriptorType) or (
                issubclass(klass, toolset_base) and option in _instance_fields(klass)
            ):
                found.append(problem("option-field", where, option=option))
                break
            if option in vars(klass):
                break
    return found


def _instance_fields(cls: type) -> frozenset[str]:
    """The instance fields *cls* itself declares as an attrs class or a dataclass."""
    own = vars(cls)
    names: set[str] = set()
    if "__attrs_attrs__" in own:
        names.update(a.name for a in own["__attrs_attrs__"])
    if "__dataclass_fields__" in own:
        names.update(f.name for f in dataclasses.fields(cls))
    return frozenset(names)


def toolset_name_of(cls: type, problems: list[Problem]) -> str:
    """The ``toolset_name`` of *cls*; the default one, with a problem, when it is not a str."""
    name = getattr(cls, "toolset_name", None)
    if not isinstance(name, str):
        class_name = class_display_name(cls.__qualname__)
        problems.append(problem("toolset-name-type", class_name, got=safe_repr(name)))
        return default_toolset_name(cls.__name__)
    return name


def class_limits_of(cls: type, problems: list[Problem]) -> Limits:
    """The ``limits`` of *cls*; the defaults, with a problem, when they are not a `Limits`."""
    limits = getattr(cls, "limits", DEFAULT_LIMITS)
    if not isinstance(limits, Limits):
        class_name = class_display_name(cls.__qualname__)
        problems.append(problem("limits-type", class_name, got=safe_repr(limits)))
        return DEFAULT_LIMITS
    return limits


def class_policy(cls: type, problems: list[Problem]) -> tuple[ToolAnnotations | None, bool]:
    """The toolset-wide ``tool_annotations`` and ``requires_approval`` of *cls*, checked."""
    where = class_display_name(cls.__qualname__)
    declared = _class_annotations(cls, where, problems)
    try:
        annotations = read_annotations(declared)
    except TypeError:
        problems.append(
            problem(
                "class-option-type",
                where,
                option="tool_annotations",
                expected=ANNOTATIONS_EXPECTED,
                got=safe_repr(declared),
            )
        )
        annotations = None
    approval = getattr(cls, "requires_approval", False)
    if not isinstance(approval, bool):
        problems.append(
            problem(
                "class-option-type",
                where,
                option="requires_approval",
                expected="True or False",
                got=safe_repr(approval),
            )
        )
        approval = False
    return annotations, approval


def _class_annotations(cls: type, where: str, problems: list[Problem]) -> object:
    """The toolset-wide tool annotations of *cls*, as the nearest class in its MRO declares them.

    They are ``tool_annotations``, or ``annotations`` holding a `ToolAnnotations` (the word
    ``tool(..., annotations=...)`` uses for one tool, as ``limits`` and ``requires_approval``
    are one word at both levels); one class declaring both, differently, is a problem.
    """
    for klass in cls.__mro__:
        members = vars(klass)
        spelled = members.get("annotations")
        if not isinstance(spelled, ToolAnnotations):
            spelled = None
        if "tool_annotations" not in members:
            if spelled is not None:
                return spelled
            continue
        declared = members["tool_annotations"]
        if spelled is not None and declared is not None and _read(declared) != spelled:
            problems.append(
                problem(
                    "class-option-type",
                    where,
                    option="annotations",
                    expected="left out where tool_annotations is set (both are the toolset's "
                    "tool annotations: keep one)",
                    got=safe_repr(spelled),
                )
            )
        return spelled if declared is None and spelled is not None else declared
    return None


def _read(declared: object) -> object:
    """*declared* hints as a `ToolAnnotations`, to compare; as they are when they cannot be read."""
    try:
        return read_annotations(declared)
    except TypeError:
        return declared
