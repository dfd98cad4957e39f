"""Building a Toolset class's exports at class creation, and checking every definition rule.

Every problem of a class is collected and raised at once as a `ToolsetDefinitionError`. The rules
themselves (names, defaults, codes) live in `typed_toolsets.rules`, shared with the mypy plugin.
"""

from __future__ import annotations

import inspect
import threading
import typing
from collections.abc import Callable
from typing import Any, Final

import attrs

from typed_toolsets.rules.names import (
    API_NAMES,
    TOOL_NAME_PATTERN,
    class_display_name,
    close_matches,
    default_description,
    default_toolset_name,
    final_tool_name,
    is_valid_tool_name,
)
from typed_toolsets.rules.problems import problem
from typed_toolsets.types.typespec import MISSING, Unresolved

from .declarations import ToolAnnotations, ToolSpec, spec_of
from .errors import ToolsetDefinitionError
from .limits import DEFAULT_LIMITS, Limits
from .methods import MethodInfo, SignatureProblems, read_method

__all__ = ["ClassInfo", "Export", "build_class", "class_info", "required_init_fields"]

INFO_ATTRIBUTE: Final = "__typed_toolsets_class__"


@attrs.frozen(eq=False)
class Export:
    """One exported tool of one class.

    Attributes:
        name: The exported name.
        method_name: The method it calls.
        description: The description shown to the model.
        limits: The limits that apply (the tool's own, else the toolset's).
        owner: The class whose body defines the method.
        method: The method's signature and schemas; None while an annotation names something
            not defined yet (resolved when the tools are first built).
        annotations: The tool's hints for clients (its own laid over the toolset's), or None.
        requires_approval: Whether an agent must ask its approval callback before running it.
    """

    name: str
    method_name: str
    description: str
    limits: Limits
    owner: type
    func: Callable[..., Any]
    method: MethodInfo | None
    annotations: ToolAnnotations | None = None
    requires_approval: bool = False


class ClassInfo:
    """The declarations and exports of one Toolset class (stored in the class's own dict)."""

    def __init__(self, cls: type, own_specs: tuple[ToolSpec, ...], exports: list[Export]) -> None:
        self.qualname = cls.__qualname__
        self.own_specs = own_specs
        self.exports = exports
        self._lock = threading.Lock()
        self._resolved = all(e.method is not None for e in exports)

    def is_resolved(self) -> bool:
        """Whether every export's method signature has been read."""
        return self._resolved

    def resolved_exports(self, class_name: str) -> list[Export]:
        """The exports with every method signature read, reading deferred ones now.

        Raises:
            ToolsetDefinitionError: A deferred annotation still cannot be resolved, or the
                method cannot be exported.
        """
        if self._resolved:
            return self.exports
        with self._lock:
            if self.is_resolved():  # pragma: no cover - another thread finished first
                return self.exports
            problems: list[str] = []
            resolved: list[Export] = []
            for export in self.exports:
                if export.method is None:
                    try:
                        method = read_method(
                            class_name, export.method_name, export.func, export.owner
                        )
                    except SignatureProblems as exc:
                        problems.extend(exc.problems)
                        continue
                    except Unresolved as exc:
                        problems.append(_unresolved_problem(class_name, export.method_name, exc))
                        continue
                    export = attrs.evolve(export, method=method)
                resolved.append(export)
            if problems:
                raise ToolsetDefinitionError(problems)
            self.exports = resolved
            self._resolved = True
            return resolved


def _unresolved_problem(class_name: str, method_name: str, exc: Unresolved) -> str:
    cause = (
        f"an annotation names {exc.name!r}, which is not defined; define or import it in the "
        "module (names inside functions cannot be resolved)"
    )
    return problem(class_name, method_name, "param-type", cause)


def class_info(cls: type) -> ClassInfo | None:
    """Return the info stored on *cls* itself (not inherited), if any."""
    info = cls.__dict__.get(INFO_ATTRIBUTE)
    return info if isinstance(info, ClassInfo) else None


def _lookup(cls: type, name: str) -> tuple[type, object] | None:
    for klass in cls.__mro__:
        if name in klass.__dict__:
            return klass, klass.__dict__[name]
    return None


def _candidates(cls: type, toolset_base: type) -> list[str]:
    names: set[str] = set()
    for klass in cls.__mro__:
        if klass is toolset_base or klass is object:
            continue
        for name, value in klass.__dict__.items():
            if inspect.isfunction(value) and not (name.startswith("__") and name.endswith("__")):
                names.add(name)
    return sorted(names)


def _annotated_field(cls: type, name: str) -> bool:
    return any(name in inspect.get_annotations(klass) for klass in cls.__mro__)


def _kind_problem(name: str, value: object, owner: type, toolset_base: type) -> str | None:
    """Why the attribute *value* cannot be exported, or None when it is a plain method."""
    if name in API_NAMES and owner is toolset_base:
        return f"{name!r} is part of the Toolset API and cannot be exported"
    if name.startswith("__") and name.endswith("__"):
        return f"{name!r} is a special method and cannot be exported"
    only = "only plain instance methods (def or async def) can be exported"
    if isinstance(value, staticmethod):
        return f"{name!r} is a staticmethod; {only}"
    if isinstance(value, classmethod):
        return f"{name!r} is a classmethod; {only}"
    if isinstance(value, property):
        return f"{name!r} is a property; {only}"
    if inspect.isclass(value):
        return f"{name!r} is a nested class; only plain instance methods can be exported"
    if inspect.isfunction(value):
        if inspect.isasyncgenfunction(value) or inspect.isgeneratorfunction(value):
            return f"{name!r} is a generator; only methods that return a value can be exported"
        return None
    kind = (
        "an attrs field"
        if type(value).__name__ in ("_CountingAttr", "member_descriptor")
        else "an attribute"
    )
    return f"{name!r} is {kind}, not a method; only plain instance methods can be exported"


def _own_specs(cls: type, problems: list[str]) -> tuple[ToolSpec, ...]:
    specs: list[ToolSpec] = []
    declared = cls.__dict__.get("exports", MISSING)
    if declared is not MISSING:
        if not isinstance(declared, (tuple, list)):
            problems.append(
                problem(
                    class_display_name(cls.__qualname__),
                    None,
                    "unknown-method",
                    f"`exports` must be a tuple of tool(...) declarations (got {declared!r})",
                )
            )
        else:
            for item in declared:  # pyright: ignore[reportUnknownVariableType]
                if isinstance(item, ToolSpec):
                    specs.append(item)
                else:
                    hint = ' (use tool("name"), not the method itself)' if callable(item) else ""  # pyright: ignore[reportUnknownArgumentType]
                    problems.append(
                        problem(
                            class_display_name(cls.__qualname__),
                            None,
                            "unknown-method",
                            f"`exports` contains {item!r}, not a tool(...) declaration{hint}",
                        )
                    )
    for name, value in cls.__dict__.items():
        spec = spec_of(value)
        if spec is not None and spec.method_name == name:
            specs.append(spec)
    seen: set[str] = set()
    for spec in specs:
        if spec.method_name in seen:
            problems.append(
                problem(
                    class_display_name(cls.__qualname__),
                    spec.method_name,
                    "duplicate-name",
                    f"the method {spec.method_name!r} is declared twice in this class",
                )
            )
        seen.add(spec.method_name)
    return tuple(specs)


def _merged_specs(cls: type, own: tuple[ToolSpec, ...]) -> list[ToolSpec]:
    """Bases' declarations first (re-declarations keep their position), then the class's own."""
    merged: dict[str, ToolSpec] = {}
    for klass in reversed(cls.__mro__[1:]):
        info = class_info(klass)
        if info is not None:
            for spec in info.own_specs:
                merged[spec.method_name] = spec
    for spec in own:
        merged[spec.method_name] = spec
    return list(merged.values())


def _toolset_name(cls: type, problems: list[str]) -> str:
    name = getattr(cls, "toolset_name", None)
    if not isinstance(name, str):
        problems.append(
            problem(
                class_display_name(cls.__qualname__),
                None,
                "invalid-name",
                f"`toolset_name` must be a str (got {name!r})",
            )
        )
        return default_toolset_name(cls.__name__)
    return name


def _class_limits(cls: type, problems: list[str]) -> Limits:
    limits = getattr(cls, "limits", DEFAULT_LIMITS)
    if not isinstance(limits, Limits):
        problems.append(
            problem(
                class_display_name(cls.__qualname__),
                None,
                "signature",
                f"`limits` must be a Limits (got {limits!r})",
            )
        )
        return DEFAULT_LIMITS
    return limits


def _class_policy(cls: type, problems: list[str]) -> tuple[ToolAnnotations | None, bool]:
    """The toolset-wide ``tool_annotations`` and ``requires_approval`` of *cls*, checked."""
    where = class_display_name(cls.__qualname__)
    annotations = getattr(cls, "tool_annotations", None)
    if annotations is not None and not isinstance(annotations, ToolAnnotations):
        cause = f"`tool_annotations` must be a ToolAnnotations or None (got {annotations!r})"
        problems.append(problem(where, None, "signature", cause))
        annotations = None
    approval = getattr(cls, "requires_approval", False)
    if not isinstance(approval, bool):
        cause = f"`requires_approval` must be True or False (got {approval!r})"
        problems.append(problem(where, None, "signature", cause))
        approval = False
    return annotations, approval


def build_class(cls: type, toolset_base: type) -> None:
    """Collect, check and store the exports of a new Toolset subclass.

    Raises:
        ToolsetDefinitionError: Listing every problem of the class.
    """
    existing = class_info(cls)
    if existing is not None and existing.qualname == cls.__qualname__:
        # attrs' slotted classes are built twice: the copy inherits the first build's dict.
        return
    problems: list[str] = []
    own = _own_specs(cls, problems)
    toolset_name = _toolset_name(cls, problems)
    class_limits = _class_limits(cls, problems)
    class_annotations, class_approval = _class_policy(cls, problems)
    class_name = class_display_name(cls.__qualname__)
    exports: list[Export] = []
    final_names: dict[str, str] = {}
    for spec in _merged_specs(cls, own):
        method_name = spec.method_name
        found = _lookup(cls, method_name)
        if found is None:
            if _annotated_field(cls, method_name):
                cause = f"{method_name!r} is an annotated attribute (an attrs field), not a method"
                problems.append(problem(class_name, method_name, "not-a-method", cause))
                continue
            matches = close_matches(method_name, _candidates(cls, toolset_base))
            hint = f"; did you mean {' or '.join(repr(m) for m in matches)}?" if matches else ""
            cause = f"{class_name} has no method {method_name!r} to export{hint}"
            problems.append(problem(class_name, method_name, "unknown-method", cause))
            continue
        owner, value = found
        kind_problem = _kind_problem(method_name, value, owner, toolset_base)
        if kind_problem is not None:
            problems.append(problem(class_name, method_name, "not-a-method", kind_problem))
            continue
        name = final_tool_name(toolset_name, method_name, spec.tool_name)
        if not is_valid_tool_name(name):
            cause = (
                f"the tool name {name!r} is not valid for LLM APIs (it must match "
                f"{TOOL_NAME_PATTERN}: letters, digits, '_' and '-', at most 64 "
                "characters, not starting with a digit or '-')"
            )
            problems.append(problem(class_name, method_name, "invalid-name", cause))
            continue
        if name in final_names:
            cause = (
                f"the tool name {name!r} is already exported by the method {final_names[name]!r}"
            )
            problems.append(problem(class_name, method_name, "duplicate-name", cause))
            continue
        final_names[name] = method_name
        func = typing.cast("Callable[..., Any]", value)
        method: MethodInfo | None
        try:
            method = read_method(class_name, method_name, func, owner)
        except SignatureProblems as exc:
            problems.extend(exc.problems)
            continue
        except Unresolved:
            method = None  # a forward reference: resolved when the tools are first built
        description = spec.description
        if description is None:
            description = (method.summary if method is not None else None) or _summary(func)
        if description is None:
            description = default_description(method_name)
        exports.append(
            Export(
                name=name,
                method_name=method_name,
                description=description,
                limits=spec.limits if spec.limits is not None else class_limits,
                owner=owner,
                func=func,
                method=method,
                annotations=spec.annotations.over(class_annotations)
                if spec.annotations is not None
                else class_annotations,
                requires_approval=class_approval
                if spec.requires_approval is None
                else spec.requires_approval,
            )
        )
    if problems:
        raise ToolsetDefinitionError(problems)
    type.__setattr__(cls, INFO_ATTRIBUTE, ClassInfo(cls, own, exports))


def _summary(func: Callable[..., Any]) -> str | None:
    from typed_toolsets.types.docstrings import summary

    return summary(func.__doc__)


def required_init_fields(cls: type) -> list[str]:
    """Names of the constructor arguments *cls* needs (attrs fields without defaults)."""
    if attrs.has(cls):
        return [
            getattr(a, "alias", None) or a.name
            for a in attrs.fields(cls)
            if a.init and a.default is attrs.NOTHING
        ]
    try:
        signature = inspect.signature(cls)
    except (TypeError, ValueError):  # pragma: no cover - builtins without signatures
        return []
    return [
        p.name
        for p in signature.parameters.values()
        if p.default is inspect.Parameter.empty
        and p.kind not in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
    ]
