"""`tool()`: declaring which methods of a Toolset are exported, and how."""

from __future__ import annotations

import functools
import inspect
import typing
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Final, Protocol, TypeAlias, TypeVar, overload

import attrs

from typed_toolsets._public import public
from typed_toolsets.rules.kinds import OVERLOAD_MARK
from typed_toolsets.rules.labels import safe_repr
from typed_toolsets.rules.names import mangle
from typed_toolsets.rules.problems import Problem, problem

from .errors import ToolsetDefinitionError
from .limits import Limits

__all__ = [
    "ANNOTATIONS_EXPECTED",
    "SPEC_ATTRIBUTE",
    "AnnotationsLike",
    "ToolAnnotations",
    "ToolSpec",
    "marks",
    "read_annotations",
    "spec_of",
    "tool",
]


class _Function(Protocol):
    """What `tool` decorates, as type checkers see it: a function (it has a name).

    Not ``Callable[..., Any]``: its ``...`` is an ``Any`` in the decorator's type, which mypy's
    ``--disallow-any-expr`` refuses on every ``@tool``. The decorator returns the function's own
    type, so a decorated method is still a method to the checkers (overrides, ``@override``).
    """

    __name__: str
    __qualname__: str


_F = TypeVar("_F", bound=_Function)

#: Name of the attribute under which the decorator form stores its `ToolSpec` on the function.
SPEC_ATTRIBUTE: Final = "__typed_toolsets_spec__"
#: How many ``@tool`` decorators marked the function, when more than one (the outermost's
#: `ToolSpec` is the one kept; each further one declares the method again).
_MARKS_ATTRIBUTE: Final = "__typed_toolsets_marks__"


def _check_hint(_instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    """`ToolAnnotations`' validator: a value of the wrong type is a definition error.

    As `tool` raises for its own arguments, not attrs' TypeError, whose message names
    ``<class 'bool'>`` and the attrs field.
    """
    expected, words = (str, "a str") if attribute.name == "title" else (bool, "True, False")
    if value is not None and not isinstance(value, expected):
        shown = safe_repr(value)
        msg = f"ToolAnnotations(): `{attribute.name}` must be {words} or None (got {shown})"
        raise ToolsetDefinitionError(msg)


#: Where `typing.overload` comes from (`typing_extensions` has its own on older Pythons).
_TYPING_MODULES: Final = frozenset({"typing", "typing_extensions"})


@public
@attrs.frozen(kw_only=True)
class ToolAnnotations:
    """Hints about what a tool does, for clients that decide how to run it (MCP tool annotations).

    They are hints, not guarantees: the library does not enforce them, and a client should trust
    them only as far as it trusts the toolset. Declare them per toolset
    (``tool_annotations = ToolAnnotations(...)`` in the class body) and per tool
    (``tool(..., annotations=ToolAnnotations(...))``); a tool's hints are laid over its
    toolset's, field by field (a field left None keeps the toolset's value). The MCP export
    (`typed_toolsets.export.mcp`) carries them as ``annotations``, in MCP's names.

    Attributes:
        title: A human-readable title for the tool (MCP ``title``).
        read_only_hint: The tool does not change its environment (MCP ``readOnlyHint``).
        destructive_hint: The tool may delete or overwrite things; meaningful when it is not
            read-only (MCP ``destructiveHint``).
        idempotent_hint: Calling it again with the same arguments has no further effect;
            meaningful when it is not read-only (MCP ``idempotentHint``).
        open_world_hint: The tool reaches outside systems, such as the web or a remote API,
            rather than a closed domain (MCP ``openWorldHint``).

    Raises:
        ToolsetDefinitionError: A hint is not True, False or None, or the title not a str or
            None; the message names the field.
    """

    title: str | None = attrs.field(default=None, validator=_check_hint)
    read_only_hint: bool | None = attrs.field(default=None, validator=_check_hint)
    destructive_hint: bool | None = attrs.field(default=None, validator=_check_hint)
    idempotent_hint: bool | None = attrs.field(default=None, validator=_check_hint)
    open_world_hint: bool | None = attrs.field(default=None, validator=_check_hint)

    def over(self, base: ToolAnnotations | None) -> ToolAnnotations:
        """These hints laid over *base*: each field set here wins, the others come from *base*."""
        if base is None:
            return self
        return ToolAnnotations(
            **{
                field.name: getattr(self, field.name)
                if getattr(self, field.name) is not None
                else getattr(base, field.name)
                for field in attrs.fields(ToolAnnotations)
            }
        )

    def to_dict(self) -> dict[str, str | bool]:
        """The MCP ``annotations`` object: the fields that are set, in MCP's camelCase names."""
        found: dict[str, str | bool] = {}
        for key, field in _MCP_NAMES.items():
            value: str | bool | None = getattr(self, field)
            if value is not None:
                found[key] = value
        return found


#: Each hint's name in MCP (``tool(annotations={"readOnlyHint": True})``), and its field's.
_MCP_NAMES: Final = {
    "title": "title",
    "readOnlyHint": "read_only_hint",
    "destructiveHint": "destructive_hint",
    "idempotentHint": "idempotent_hint",
    "openWorldHint": "open_world_hint",
}
#: What `read_annotations` takes, as a definition error says it.
ANNOTATIONS_EXPECTED: Final = (
    f"a ToolAnnotations, a mapping of MCP's hints ({', '.join(_MCP_NAMES)}: the title a str, "
    "the others True or False), or None"
)


class _Dumped(Protocol):
    """A model that writes itself as a mapping (the MCP SDK's ``ToolAnnotations``, pydantic's)."""

    def model_dump(self, *, exclude_none: bool = ...) -> dict[str, Any]: ...


#: What a toolset's ``tool_annotations`` and ``tool(annotations=...)`` may be: ours, a mapping in
#: MCP's names, or the MCP SDK's ``ToolAnnotations`` (which the run time reads at both levels).
AnnotationsLike: TypeAlias = ToolAnnotations | Mapping[str, str | bool | None] | _Dumped


def read_annotations(value: object) -> ToolAnnotations | None:
    """Tool annotations as declared: a `ToolAnnotations`, or MCP's hints by name.

    A mapping may use MCP's names (``{"readOnlyHint": True}``) or the fields' own; an object
    with a ``model_dump`` method (the MCP SDK's ``ToolAnnotations``) is read as its mapping.

    Raises:
        TypeError: *value* is none of those, names a hint neither way, or holds a value of the
            wrong type (see `ANNOTATIONS_EXPECTED`).
    """
    if value is None or isinstance(value, ToolAnnotations):
        return value
    dump = getattr(value, "model_dump", None)
    if not isinstance(value, Mapping) and callable(dump):
        value = dump(exclude_none=True)
    if not isinstance(value, Mapping):
        raise TypeError(ANNOTATIONS_EXPECTED)
    fields: dict[str, Any] = {}  # checked by the class's own validators
    for key, hint in typing.cast("Mapping[object, object]", value).items():
        name = _MCP_NAMES.get(key) if isinstance(key, str) else None
        if name is None and key in _MCP_NAMES.values():
            name = typing.cast("str", key)
        if name is None:
            raise TypeError(ANNOTATIONS_EXPECTED)
        fields[name] = hint
    return ToolAnnotations(**fields)


@public
@attrs.frozen
class ToolSpec:
    """One export declaration, as made by `tool`.

    Attributes:
        method_name: The name of the method to export.
        tool_name: The exported name, used as is; None means ``<toolset_name>_<method_name>``.
        description: The description shown to the model; None means the first paragraph of the
            method's docstring, else ``"<Method name> operation"``.
        limits: Limits for this tool, replacing the toolset's; None means the toolset's.
        annotations: Hints for clients, laid over the toolset's ``tool_annotations``.
        requires_approval: Whether an agent may run the tool only after an approval callback
            agrees; None means the toolset's ``requires_approval``.
        inline: Whether the async call forms run this sync method on the event loop's own
            thread instead of a worker thread (see `tool`).
    """

    method_name: str
    tool_name: str | None = None
    description: str | None = None
    limits: Limits | None = None
    annotations: ToolAnnotations | None = None
    requires_approval: bool | None = None
    inline: bool = False

    def __attrs_post_init__(self) -> None:
        # Made directly or by `attrs.evolve`, it is checked as `tool` checks its arguments,
        # and hints given as a mapping are read as `tool` reads them. An empty method name is
        # the class's to judge: a function named "" is marked as its attribute's tool.
        _check_arguments(
            self.method_name if self.method_name != "" else None,
            self.tool_name,
            self.description,
            self.limits,
            self.annotations,
            self.requires_approval,
            self.inline,
        )
        given = typing.cast("object", self.annotations)  # a mapping, despite the field's type
        if given is not None and not isinstance(given, ToolAnnotations):
            object.__setattr__(self, "annotations", read_annotations(given))

    if not TYPE_CHECKING:  # type checkers report the call as they would without it

        def __call__(self, func: object) -> None:
            """Refuse ``@tool("name")``: the ``exports`` form used as a decorator.

            Other agent frameworks spell a named tool so; without this, Python's
            "'ToolSpec' object is not callable" would say nothing of what to write instead.

            Raises:
                ToolsetDefinitionError: Always, saying which decorator to write.
            """
            name = getattr(func, "__name__", None)
            method = name if isinstance(name, str) else None
            found = problem("tool-spec-decorator", None, method, got=repr(self.method_name))
            raise ToolsetDefinitionError([found])


def _unwrap(obj: object) -> object:
    """The function inside a staticmethod, classmethod or property (else *obj* itself).

    A `functools.cached_property` or `functools.singledispatchmethod` too: marked through its
    function, it is found by the class, which says what it is and why it cannot be exported.
    """
    # By type, not isinstance: a proxy's `__class__` may raise (werkzeug's LocalProxy outside
    # a request), and any class attribute comes here.
    kind = type(obj)
    if issubclass(kind, (staticmethod, classmethod)):
        return getattr(obj, "__func__", None)
    if issubclass(kind, property):
        return typing.cast("property", obj).fget
    if issubclass(kind, (functools.cached_property, functools.singledispatchmethod)):
        return typing.cast("functools.cached_property[object]", obj).func
    return obj


def _check_arguments(
    method_name: object,
    tool_name: object,
    description: object,
    limits: object,
    annotations: object = None,
    requires_approval: object = None,
    inline: object = False,
) -> None:
    """Raise the problems of tool()'s arguments; *method_name* is None in the decorator form.

    No class exists yet: the records have ``toolset=None`` (see `typed_toolsets.rules.problems`).
    """
    method = method_name if isinstance(method_name, str) and method_name else None
    problems: list[Problem] = []
    if method is None and method_name is not None:
        problems.append(problem("tool-method-name", None, got=safe_repr(method_name)))
    if tool_name is not None and not isinstance(tool_name, str):
        problems.append(problem("tool-name-type", None, method, got=safe_repr(tool_name)))
    options: tuple[tuple[str, object, type], ...] = (
        ("description", description, str),
        ("limits", limits, Limits),
        ("requires_approval", requires_approval, bool),
    )
    try:
        read_annotations(annotations)
    except TypeError:
        found = problem(
            "class-option-type",
            None,
            method,
            option="annotations",
            expected=ANNOTATIONS_EXPECTED,
            got=safe_repr(annotations),
        )
        problems.append(found)
    for option, value, expected in options:
        if value is not None and not isinstance(value, expected):
            problems.append(
                problem(
                    "tool-option-type",
                    None,
                    method,
                    option=option,
                    expected=expected.__name__,
                    got=safe_repr(value),
                )
            )
    if not isinstance(inline, bool):
        problems.append(
            problem(
                "class-option-type",
                None,
                method,
                option="inline",
                expected="True or False",
                got=safe_repr(inline),
            )
        )
    if problems:
        raise ToolsetDefinitionError(problems)


#: How far up from `_marked_before` the class body marking a method is looked for: the
#: decorator's own frames, then a few of the user's own decorators wrapping it.
_FRAMES_UP: Final = 8


def _marked_before(target: object) -> int:
    """How many marks the method *target* replaces in the class body defining it (0: none).

    Python keeps only the last ``def`` of a name, so a method declared with ``@tool`` twice in
    one class body is seen only while the body runs: as the second is marked, the namespace
    still holds the first (the ``__qualname__`` and ``__module__`` the body starts with say
    whose it is). The body is the first frame up that is no function's (a decorator's).
    """
    qualname, module = getattr(target, "__qualname__", None), getattr(target, "__module__", None)
    name = getattr(target, "__name__", None)
    if not isinstance(qualname, str) or not isinstance(name, str):
        return 0
    owner, _, own = qualname.rpartition(".")
    if not owner or own != name:
        return 0
    frame = inspect.currentframe()  # the class body is only seen from its frame
    for _ in range(_FRAMES_UP):
        frame = frame.f_back if frame is not None else None
        if frame is None:
            return 0
        if not frame.f_code.co_flags & inspect.CO_OPTIMIZED:
            namespace = frame.f_locals
            # Whatever a metaclass's ``__prepare__`` made (a mapping without ``get``, one that
            # raises): looked at only as a plain dict, else nothing is found.
            if type(namespace) is not dict:
                return 0
            if namespace.get("__qualname__") != owner or namespace.get("__module__") != module:
                return 0  # a module or another class's body: not where it is defined
            earlier = namespace.get(mangle(owner.rpartition(".")[2], name))
            return 0 if _unwrap(earlier) is target else marks(earlier)
    return 0


def _mark(obj: object, spec_for: Callable[[str], ToolSpec]) -> None:
    # Staticmethods, classmethods and properties are marked through the function they wrap, so
    # that the class check can find them and report that they cannot be exported.
    target = _unwrap(obj)
    name = getattr(target, "__name__", None)
    if not isinstance(name, str) or not callable(target):
        raise ToolsetDefinitionError([problem("tool-not-a-method", None, got=safe_repr(obj))])
    if name == "_overload_dummy" and getattr(target, "__module__", None) in _TYPING_MODULES:
        # What @overload returns, one function for every overload: marked, it exported
        # nothing (the class keeps the implementation), and was marked for every class.
        found = problem("tool-cannot-mark", None, got="an @overload", reason=OVERLOAD_MARK)
        raise ToolsetDefinitionError([found])
    spec = spec_for(name)
    try:
        if isinstance(getattr(target, SPEC_ATTRIBUTE, None), ToolSpec):
            # `@tool` over `@tool`: the method declared twice, which the class reports.
            setattr(target, _MARKS_ATTRIBUTE, marks(target) + 1)
        else:
            earlier = _marked_before(target)
            if earlier:  # a second `@tool def` of the name: declared once more each
                setattr(target, _MARKS_ATTRIBUTE, earlier + 1)
        setattr(target, SPEC_ATTRIBUTE, spec)
    except (AttributeError, TypeError) as exc:
        found = problem("tool-cannot-mark", None, name, got=safe_repr(obj), reason=str(exc))
        raise ToolsetDefinitionError([found]) from None


@overload
def tool(
    method_name: str,
    *,
    tool_name: str | None = None,
    description: str | None = None,
    limits: Limits | None = None,
    annotations: AnnotationsLike | None = None,
    requires_approval: bool | None = None,
    inline: bool = False,
) -> ToolSpec: ...
@overload
def tool(method_name: _F) -> _F: ...
@overload
def tool(
    method_name: None = None,
    *,
    tool_name: str | None = None,
    description: str | None = None,
    limits: Limits | None = None,
    annotations: AnnotationsLike | None = None,
    requires_approval: bool | None = None,
    inline: bool = False,
) -> Callable[[_F], _F]: ...
def tool(
    method_name: str | _Function | None = None,
    *,
    tool_name: str | None = None,
    description: str | None = None,
    limits: Limits | None = None,
    annotations: AnnotationsLike | None = None,
    requires_approval: bool | None = None,
    inline: bool = False,
) -> ToolSpec | _Function | Callable[[_F], _F]:
    """Declare a method as a tool, by name in ``exports`` or as a decorator.

    In the class body, ``exports = (tool("word_count", description="..."),)`` declares the
    method ``word_count``. On the method itself, ``@tool`` or ``@tool(description="...")``
    declares the same thing. Both forms give the same result.

    Args:
        method_name: The method's name (``exports`` form). Omit it in the decorator form.
        tool_name: The exported name, used as is. Default: ``<toolset_name>_<method_name>``.
        description: The description for the model. Default: the first paragraph of the
            method's docstring, else ``"<Method name> operation"``.
        limits: Limits for this tool, replacing the toolset's.
        annotations: Hints for clients (MCP tool annotations), laid over the toolset's
            ``tool_annotations`` field by field: a `ToolAnnotations`, or a mapping in MCP's
            names (``{"readOnlyHint": True}``; the MCP SDK's ``ToolAnnotations`` too).
        requires_approval: True: an agent runs this tool only after its approval callback
            agrees; None: the toolset's ``requires_approval``.
        inline: True: the async call forms (``ainvoke``, ``adynamic_call``, ``acall``) run this
            sync method directly on the event loop's thread, for fast work that never blocks
            (no I/O, no sleeping, no heavy computing). Default False: a sync method called from
            async code runs in a worker thread, so a slow one cannot stall the loop. The sync
            forms are unchanged. An inline tool cannot have a timeout (nothing can stop code
            running on the loop) and an ``async def`` already runs on the loop: both are
            definition errors.

    Returns:
        A `ToolSpec` in the ``exports`` form; the method itself, marked, in the decorator form.

    Raises:
        ToolsetDefinitionError: An argument has the wrong type.
    """
    if method_name is None:

        def decorate(func: _F) -> _F:
            _mark(
                func,
                lambda name: ToolSpec(
                    method_name=name,
                    tool_name=tool_name,
                    description=description,
                    limits=limits,
                    annotations=read_annotations(annotations),
                    requires_approval=requires_approval,
                    inline=inline,
                ),
            )
            return func

        _check_arguments(
            None, tool_name, description, limits, annotations, requires_approval, inline
        )
        return decorate
    if not isinstance(method_name, str):
        options = (tool_name, description, limits, annotations, requires_approval)
        if any(option is not None for option in options) or inline is not False:
            name = getattr(method_name, "__name__", None)
            method = name if isinstance(name, str) else None
            raise ToolsetDefinitionError([problem("tool-options-form", None, method)])
        _mark(method_name, ToolSpec)
        return method_name
    _check_arguments(
        method_name, tool_name, description, limits, annotations, requires_approval, inline
    )
    return ToolSpec(
        method_name=method_name,
        tool_name=tool_name,
        description=description,
        limits=limits,
        annotations=read_annotations(annotations),
        requires_approval=requires_approval,
        inline=inline,
    )


def marks(obj: object) -> int:
    """How many ``@tool`` decorators marked *obj* (or what it wraps): 0, 1 or more."""
    target = _unwrap(obj)
    if spec_of(target) is None:
        return 0
    count = getattr(target, _MARKS_ATTRIBUTE, 1)
    return count if type(count) is int else 1


def spec_of(obj: object) -> ToolSpec | None:
    """Return the `ToolSpec` the decorator form attached to *obj* (or what it wraps), if any."""
    target = _unwrap(obj)
    try:
        spec = getattr(target, SPEC_ATTRIBUTE, None)
        return spec if isinstance(spec, ToolSpec) else None
    except Exception:  # noqa: BLE001 - its own __getattr__ (a dict read as attributes: KeyError)
        return None
