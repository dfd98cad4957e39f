"""Building a Toolset class's exports at class creation, and checking every definition rule.

Every problem of a class is collected and raised at once as a `ToolsetDefinitionError`. The rules
themselves (names, defaults, codes) live in `typed_toolsets.rules`, shared with the mypy plugin.
"""

from __future__ import annotations

import functools
import inspect
import threading
import types
import typing
from collections.abc import Callable
from typing import Any, Final

import attrs

from typed_toolsets.rules.kinds import Kind
from typed_toolsets.rules.labels import safe_repr
from typed_toolsets.rules.names import (
    API_NAMES,
    class_display_name,
    close_matches,
    default_description,
    final_tool_name,
    tool_name_problem,
)
from typed_toolsets.rules.problems import Problem, problem
from typed_toolsets.types.catalog import registry
from typed_toolsets.types.typespec import MISSING, Unresolved

from .declarations import (
    ToolAnnotations,
    ToolSpec,
    marks,
    spec_of,
)
from .errors import ToolsetDefinitionError
from .limits import Limits
from .methods import (
    MethodInfo,
    SignatureProblems,
    UnresolvedParameter,
    makes_coroutine,
    method_doc,
    read_method,
    unresolved_problems,
)
from .options import class_limits_of, class_policy, option_fields, toolset_name_of

__all__ = [
    "ClassInfo",
    "Export",
    "build_class",
    "check_present",
    "class_info",
    "exports_of",
    "init_problem",
    "required_init_fields",
]

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
        inline: Whether the async call forms run the (sync) method on the event loop's thread.
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
    inline: bool = False


class ClassInfo:
    """The declarations and exports of one Toolset class (stored in the class's own dict)."""

    def __init__(
        self,
        cls: type,
        own_specs: tuple[ToolSpec, ...],
        exports: list[Export],
        read: dict[tuple[str, Callable[..., Any]], tuple[int, MethodInfo]],
    ) -> None:
        self.qualname = cls.__qualname__
        self.own_specs = own_specs
        # The methods the class defines, each read under the registry's rules of a generation
        # (`_read_before`): its subclasses export those they inherit without reading them again.
        self.read = read
        self._own_names = frozenset(spec.method_name for spec in own_specs)
        self.exports = exports
        self._lock = threading.Lock()
        # Resolved on first use, even with every method read: see `_resolve`.
        self._resolved = False

    def _owns(self, export: Export) -> bool:
        """Whether this class declares *export* or defines its method (not merely inherits it)."""
        return class_info(export.owner) is self or export.method_name in self._own_names

    def is_resolved(self) -> bool:
        """Whether the exports are ready: every method read, the class options checked again."""
        return self._resolved

    def resolved_exports(self, cls: type, toolset_base: type) -> list[Export]:
        """The exports of *cls* (this info's class, a *toolset_base*) with every method read.

        Deferred ones are read now. A method deleted from the class after it was created is
        not looked for here (every `to_tools` would pay for it): see `check_present`.

        Raises:
            ToolsetDefinitionError: A deferred annotation still cannot be resolved, or the
                method cannot be exported, or a class option is an instance field.
        """
        if self._resolved:
            return self.exports
        return self._resolve(cls, toolset_base)

    def _resolve(self, cls: type, toolset_base: type) -> list[Export]:
        """Read the deferred method signatures (see `resolved_exports`).

        The class options are looked at again too: annotated in a dict attrs class or a
        dataclass, an option became an instance field after the class was created (by the
        decorator, which no hook of ours follows).
        """
        class_name = class_display_name(cls.__qualname__)
        with self._lock:
            if self.is_resolved():  # pragma: no cover - another thread finished first
                return self.exports
            problems: list[Problem] = option_fields(cls, toolset_base)
            resolved: list[Export] = []
            # As `build_class` gives them: the parameters read of the class's own exports.
            parameters: list[tuple[str, str, object]] = []
            for export in self.exports:
                if export.method is None:
                    method, failed, unread = read_deferred(
                        class_name, export.method_name, export.func, export.owner
                    )
                    if method is None:
                        problems.extend(failed)
                        if self._owns(export):
                            parameters.extend((export.method_name, *p) for p in unread)
                        continue
                    export = attrs.evolve(export, method=method)
                resolved.append(export)
            if problems:
                for export in resolved:
                    if export.method is not None and self._owns(export):
                        read = ((p.name, p.annotation) for p in export.method.params)
                        parameters.extend((export.method_name, *p) for p in read)
                error = ToolsetDefinitionError(problems)
                error._parameters = tuple(parameters)  # pyright: ignore[reportPrivateUsage]
                raise error
            self.exports = resolved
            self._resolved = True
            return resolved


def read_deferred(
    class_name: str, method_name: str, func: Callable[..., Any], owner: type
) -> tuple[MethodInfo | None, list[Problem], list[tuple[str, object]]]:
    """Read a method whose annotations named what was not defined when its class was created.

    Returns:
        The method read, or None with its problems and the parameters read despite them.
    """
    try:
        return read_method(class_name, method_name, func, owner, deferred=True), [], []
    except SignatureProblems as exc:
        return None, list(exc.problems), list(exc.parameters)
    except Unresolved as exc:
        return None, _unresolved_problems(class_name, method_name, exc), []


def _unresolved_problems(class_name: str, method_name: str, exc: Unresolved) -> list[Problem]:
    """The problems of annotations that still name something undefined, one per parameter."""
    unresolved = exc.unresolved if isinstance(exc, UnresolvedParameter) else ((exc.name, None),)
    return unresolved_problems(class_name, method_name, unresolved)


def class_info(cls: type) -> ClassInfo | None:
    """Return the info stored on *cls* itself (not inherited), if any."""
    info = cls.__dict__.get(INFO_ATTRIBUTE)
    return info if isinstance(info, ClassInfo) else None


def exports_of(cls: type, toolset_base: type) -> list[Export]:
    """What the tools of *cls*, a subclass of *toolset_base*, are built from: its exports, resolved.

    A base that overrides ``__init_subclass__`` without calling ``super().__init_subclass__()``
    (a registry of subclasses, say) keeps `build_class` from running for its subclasses: they
    had no tools and no checks. They are built on first use, bases first, so that inherited
    declarations merge as at class creation. Empty for *toolset_base* itself.

    Raises:
        ToolsetDefinitionError: A class so built has problems, or a deferred annotation still
            cannot be resolved (see `ClassInfo.resolved_exports`).
    """
    info = class_info(cls)
    if info is None and cls is not toolset_base:
        for klass in reversed(cls.__mro__):
            if (
                klass is not toolset_base
                and issubclass(klass, toolset_base)
                and class_info(klass) is None
            ):
                build_class(klass, toolset_base)
        info = class_info(cls)
    return [] if info is None else info.resolved_exports(cls, toolset_base)


def check_present(cls: type, exports: list[Export]) -> None:
    """Refuse *exports* of *cls* whose method was deleted after the class was created.

    ``del Cls.method`` leaves its export behind: binding it raised a bare AttributeError from
    inside the library. Called by `check`, and where binding failed.

    Raises:
        ToolsetDefinitionError: Each such export, as a ``deleted-method`` problem.
    """
    class_name = class_display_name(cls.__qualname__)
    deleted = [
        problem("deleted-method", class_name, export.method_name)
        for export in exports
        if _lookup(cls, export.method_name) is None
    ]
    if deleted:
        raise ToolsetDefinitionError(deleted)


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


def _kind_problem(class_name: str, name: str, owner: type, value: object) -> Problem | None:
    """Why the attribute *value* (of *owner*) cannot be exported, or None for a plain method."""
    if name in API_NAMES:  # Toolset's own, or a subclass's method in its place
        return problem("api-name", class_name, name)
    if name.startswith("__") and name.endswith("__"):
        return problem("special-method", class_name, name)
    for wrapper in (staticmethod, classmethod, property):
        if isinstance(value, wrapper):
            return problem("wrapped-method", class_name, name, wrapper=wrapper.__name__)
    if isinstance(value, functools.cached_property):
        # A property to its users (and to mypy, so the plugin says so too).
        return problem("wrapped-method", class_name, name, wrapper="property")
    if inspect.isclass(value):
        return problem("nested-class", class_name, name)
    if inspect.isfunction(value):
        if inspect.isasyncgenfunction(value) or inspect.isgeneratorfunction(value):
            return problem("generator", class_name, name)
        return None
    if type(value).__name__ == "_CountingAttr":
        return problem("attrs-field", class_name, name)
    if isinstance(value, types.MemberDescriptorType):
        # A slotted attrs class (a base: at class creation attrs has not made this one's yet)
        # makes its fields slots; any other is a plain `__slots__` member.
        if attrs.has(owner) and name in attrs.fields_dict(owner):
            return problem("attrs-field", class_name, name)
        return problem("slot", class_name, name)
    return problem("attribute", class_name, name)


def _own_specs(cls: type, problems: list[Problem]) -> tuple[ToolSpec, ...]:
    class_name = class_display_name(cls.__qualname__)
    specs: list[ToolSpec] = []
    declared = cls.__dict__.get("exports", MISSING)
    if declared is not MISSING:
        if isinstance(declared, ToolSpec):
            problems.append(problem("exports-one-tool", class_name, name=declared.method_name))
        elif not isinstance(declared, (tuple, list)):
            problems.append(problem("exports-not-a-tuple", class_name, got=safe_repr(declared)))
        else:
            for item in typing.cast("tuple[object, ...] | list[object]", declared):
                if isinstance(item, ToolSpec):
                    specs.append(item)
                else:
                    kind: Kind = "exports-method" if callable(item) else "exports-item"
                    problems.append(problem(kind, class_name, got=safe_repr(item)))
    loose: list[tuple[str, ToolSpec]] = []
    for name, value in cls.__dict__.items():
        # By type: any attribute comes here, and a proxy's `__class__` may raise.
        if issubclass(type(value), ToolSpec):
            if name != "exports":
                loose.append((name, value))
            continue
        spec = spec_of(value)
        if spec is None:
            continue
        if spec.method_name != name:
            if _alias(cls, spec):
                continue  # `search = find`: declared where the marked method is, not again
            # Marked under another name: the function a decorator without functools.wraps
            # returned (its ``__name__`` is ``wrapper``). It is this attribute's tool.
            spec = attrs.evolve(spec, method_name=name)
        # Stacked `@tool`s declare the method once each: the further ones are reported below.
        specs += [spec] * marks(value)
    seen: set[str] = set()
    for spec in specs:
        if spec.method_name in seen:
            problems.append(problem("declared-twice", class_name, spec.method_name))
        seen.add(spec.method_name)
    for name, value in loose:
        # A tool() kept under a name to list in `exports` later is fine once it is listed.
        if value.method_name not in seen:
            found = problem(
                "tool-attribute", class_name, attribute=name, got=repr(value.method_name)
            )
            problems.append(found)
    return tuple(specs)


def _alias(cls: type, spec: ToolSpec) -> bool:
    """Whether *spec*'s method, under its own name in *cls* or a base, is the one marked."""
    return any(spec_of(vars(klass).get(spec.method_name)) is spec for klass in cls.__mro__)


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


def _mixin_problems(cls: type, toolset_base: type, declared: set[str]) -> list[Problem]:
    """The declarations of *cls*'s bases that are not Toolsets, which nothing inherits.

    Only a Toolset's declarations are merged (`_merged_specs`); a mixin's ``@tool`` would
    otherwise be dropped without a word. A method *cls* declares itself is exported anyway.
    """
    class_name = class_display_name(cls.__qualname__)
    found: list[Problem] = []
    for klass in cls.__mro__[1:]:
        if issubclass(klass, toolset_base) or klass is object:
            continue
        mixin = class_display_name(klass.__qualname__)
        for spec in _own_specs(klass, []):  # the mixin's own mistakes are not this class's
            if spec.method_name not in declared:
                declared.add(spec.method_name)
                found.append(
                    problem("mixin-declaration", class_name, spec.method_name, mixin=mixin)
                )
    return found


def build_class(cls: type, toolset_base: type) -> None:
    """Collect, check and store the exports of a new Toolset subclass.

    Raises:
        ToolsetDefinitionError: Listing every problem of the class.
    """
    existing = class_info(cls)
    if existing is not None and existing.qualname == cls.__qualname__:
        # attrs' slotted classes are built twice: the copy inherits the first build's dict. An
        # option annotated there became a slot only now.
        slotted = option_fields(cls, toolset_base)
        if slotted:
            raise ToolsetDefinitionError(slotted)
        return
    # Before any method is read: a type registered meanwhile makes its reads stale.
    generation = registry.generation
    read: dict[tuple[str, Callable[..., Any]], tuple[int, MethodInfo]] = {}
    problems: list[Problem] = option_fields(cls, toolset_base)
    if problems:  # a hand-written ``__slots__``: the option's value is no more
        raise ToolsetDefinitionError(problems)
    own = _own_specs(cls, problems)
    toolset_name = toolset_name_of(cls, problems)
    class_limits = class_limits_of(cls, problems)
    class_annotations, class_approval = class_policy(cls, problems)
    class_name = class_display_name(cls.__qualname__)
    exports: list[Export] = []
    final_names: dict[str, str] = {}
    # The parameters read of the exports this class declares or defines (not inherited
    # unchanged), for `check` when the class has problems.
    parameters: list[tuple[str, str, object]] = []
    deferred: list[tuple[str, object, type]] = []
    own_names = {s.method_name for s in own}
    merged = _merged_specs(cls, own)
    problems.extend(_mixin_problems(cls, toolset_base, {s.method_name for s in merged}))
    for spec in merged:
        method_name = spec.method_name
        found = _lookup(cls, method_name)
        if found is None:
            if _annotated_field(cls, method_name):
                problems.append(problem("annotated-attribute", class_name, method_name))
                continue
            matches = close_matches(method_name, _candidates(cls, toolset_base))
            problems.append(problem("unknown-method", class_name, method_name, matches=matches))
            continue
        owner, value = found
        kind_problem = _kind_problem(class_name, method_name, owner, value)
        if kind_problem is not None:
            problems.append(kind_problem)
            continue
        name = final_tool_name(toolset_name, method_name, spec.tool_name)
        reason = tool_name_problem(name)
        name_problem: Problem | None = None
        if reason is not None:
            name_problem = problem(
                "invalid-tool-name", class_name, method_name, name=name, reason=reason
            )
        elif name in final_names:
            other = final_names[name]
            name_problem = problem(
                "duplicate-tool-name", class_name, method_name, name=name, other=other
            )
        else:
            final_names[name] = method_name
        if name_problem is not None:
            problems.append(name_problem)
        func = typing.cast("Callable[..., Any]", value)
        limits = spec.limits if spec.limits is not None else class_limits
        # The declaration's own problem, told with the method's (as the plugin tells both).
        inline_problem = (
            _inline_problem(class_name, method_name, func, limits) if spec.inline else None
        )
        if inline_problem is not None:
            problems.append(inline_problem)
        method: MethodInfo | None = _read_before(owner, method_name, func)
        try:
            # Read even under a name problem: the method's own problems are listed too.
            if method is None:
                method = read_method(class_name, method_name, func, owner)
                owner_info = vars(owner).get(INFO_ATTRIBUTE)
                if owner is cls:
                    read[method_name, func] = (generation, method)
                elif isinstance(owner_info, ClassInfo):  # read again: a type was registered
                    owner_info.read[method_name, func] = (generation, method)
        except SignatureProblems as exc:
            problems.extend(exc.problems)
            if owner is cls or method_name in own_names:
                parameters.extend((method_name, *read) for read in exc.parameters)
                if exc.unresolved:  # its forward references' problems are told once defined
                    deferred.append((method_name, func, owner))
            continue
        except Unresolved:
            method = None  # a forward reference: resolved when the tools are first built
            if owner is cls or method_name in own_names:
                deferred.append((method_name, func, owner))
        if method is not None and (owner is cls or method_name in own_names):
            parameters.extend((method_name, p.name, p.annotation) for p in method.params)
        if inline_problem is not None or name_problem is not None:
            continue
        description = spec.description
        if description is None:
            description = (method.summary if method is not None else None) or _summary(
                func, owner, method_name
            )
        if description is None:
            description = default_description(method_name)
        exports.append(
            Export(
                name=name,
                method_name=method_name,
                description=description,
                limits=limits,
                owner=owner,
                func=func,
                method=method,
                annotations=spec.annotations.over(class_annotations)
                if spec.annotations is not None
                else class_annotations,
                requires_approval=class_approval
                if spec.requires_approval is None
                else spec.requires_approval,
                inline=spec.inline,
            )
        )
    if problems:
        error = ToolsetDefinitionError(problems)
        error._parameters = tuple(parameters)  # pyright: ignore[reportPrivateUsage]
        error._deferred = tuple(deferred)  # pyright: ignore[reportPrivateUsage]
        raise error
    type.__setattr__(cls, INFO_ATTRIBUTE, ClassInfo(cls, own, exports, read))


def _read_before(owner: type, method_name: str, func: Callable[..., Any]) -> MethodInfo | None:
    """*func* as read for the class defining it, if no type has been registered since.

    Each subclass of a 100-tool base read every method again (20 ms to define it). attrs'
    slotted copy of a class holds the first build's info, and the same functions.
    """
    info = vars(owner).get(INFO_ATTRIBUTE)
    found = info.read.get((method_name, func)) if isinstance(info, ClassInfo) else None
    if found is None or found[0] != registry.generation:
        return None
    return found[1]


def _inline_problem(
    class_name: str, method_name: str, func: Callable[..., Any], limits: Limits
) -> Problem | None:
    """Why *func* cannot run inline on the event loop, if it cannot.

    An ``async def`` runs on the loop anyway. A deadline needs a thread to walk away from: code
    running on the loop's own thread cannot be stopped, so a timeout would silently not hold.
    """
    if makes_coroutine(func):
        return problem("inline-async", class_name, method_name)
    if limits.timeout is not None:
        return problem("inline-timeout", class_name, method_name, timeout=repr(limits.timeout))
    return None


def _summary(func: Callable[..., Any], owner: type, method_name: str) -> str | None:
    from typed_toolsets.types.docstrings import summary

    return summary(method_doc(func, owner, method_name))


def init_problem(cls: type) -> Problem | None:
    """Why ``cls()`` cannot be called with no arguments (what ``Cls.to_tools()`` does), if so.

    The constructor is read as Python calls it: an attrs- or dataclass-generated ``__init__``,
    a hand-written one, or ``__new__``. An abstract class (``abc.ABC`` with unimplemented
    abstract methods) cannot be built at all.
    """
    class_name = class_display_name(cls.__qualname__)
    abstract = sorted(getattr(cls, "__abstractmethods__", ()))
    if abstract:
        return problem("abstract-class", class_name, methods=abstract)
    needed = required_init_fields(cls)
    if needed:
        return problem("init", class_name, needed=needed)
    return None


def required_init_fields(cls: type) -> list[str]:
    """Names of the arguments ``cls()`` needs (fields without defaults, in call order)."""
    try:
        signature = inspect.signature(cls)
    except (TypeError, ValueError):  # pragma: no cover - a class Python shows no signature for
        return []
    return [
        p.name
        for p in signature.parameters.values()
        if p.default is inspect.Parameter.empty
        and p.kind not in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
    ]
