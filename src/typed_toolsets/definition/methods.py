"""Reading an exported method: its parameters, their specs, and the JSON Schemas built from them."""

from __future__ import annotations

import ast
import collections.abc
import inspect
import math
import typing
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final, TypeAlias

import attrs

from typed_toolsets.rules.kinds import Kind
from typed_toolsets.rules.labels import label, safe_repr
from typed_toolsets.rules.problems import Problem, problem
from typed_toolsets.types import docstrings
from typed_toolsets.types.catalog import registry
from typed_toolsets.types.defaults import NonFiniteDefaultError, json_default
from typed_toolsets.types.description import description_of
from typed_toolsets.types.hints import evaluate
from typed_toolsets.types.structs import Property
from typed_toolsets.types.typespec import (
    MISSING,
    Schema,
    TypeSpec,
    Unresolved,
    Unsupported,
    UnsupportedMetadata,
)

if TYPE_CHECKING:
    from typed_toolsets.types.arguments import ArgumentsModel

__all__ = [
    "MethodInfo",
    "Param",
    "SignatureProblems",
    "UnresolvedParameter",
    "makes_coroutine",
    "read_method",
    "resolve_annotation",
    "unresolved_problems",
]

_EMPTY: Final = inspect.Parameter.empty
_VAR_POSITIONAL: Final = inspect.Parameter.VAR_POSITIONAL
_VAR_KEYWORD: Final = inspect.Parameter.VAR_KEYWORD
_VAR_KINDS: Final = frozenset({_VAR_POSITIONAL, _VAR_KEYWORD})


class SignatureProblems(Exception):  # noqa: N818 (a verdict carrying records, not an error)
    """A method cannot be exported; ``problems`` says why.

    ``parameters`` are the parameters read despite them, with their annotations (what
    ``typed-toolsets check`` still analyses for ambiguous unions); ``unresolved``, whether other
    parameters' annotations name what is not defined yet (read again once it is, for their own
    problems).
    """

    def __init__(
        self,
        problems: list[Problem],
        parameters: Sequence[tuple[str, object]] = (),
        *,
        unresolved: bool = False,
    ) -> None:
        super().__init__("\n".join(str(p) for p in problems))
        self.problems = problems
        self.parameters = tuple(parameters)
        self.unresolved = unresolved


class UnresolvedParameter(Unresolved):
    """`Unresolved`, for the annotations of a method's parameters.

    Attributes:
        parameter: The first parameter whose annotation names something not defined yet.
        unresolved: Every such parameter, in order, with the first name its annotation lacks.
    """

    def __init__(self, unresolved: Sequence[tuple[str, str]]) -> None:
        name, parameter = unresolved[0]
        super().__init__(name)
        self.parameter = parameter
        self.unresolved = tuple(unresolved)


#: One parameter of an exported method: a property of the method's arguments object.
Param: TypeAlias = Property


@attrs.frozen(eq=False)
class MethodInfo:
    """What the library knows about one exported method, shared by every class that exports it.

    Attributes:
        func: The function as defined.
        arguments: Its keyword parameters as one closed JSON object: schema, structurer, fast
            path, validator and error locating (built once, shared by every call).
        is_async: Whether it is an ``async def`` (or a sync wrapper of one: `makes_coroutine`).
        output_schema: The JSON Schema of its return annotation, or None.
        output_unstructure: The unstructure hook of the same spec (None when it has no schema):
            what it returns is written by the registration its ``output_schema`` was built
            from, as its arguments are read by the one its ``parameters`` were, whatever
            `register_type` is called later.
        summary: The first paragraph of its docstring, or None.
        sync_wrapper: Whether it is a plain ``def`` wrapper of an ``async def``: it may return
            the coroutine or run it itself (``asyncio.run``), so its call runs in a worker
            thread and what it returns is awaited when it is awaitable.
    """

    func: Callable[..., Any]
    arguments: ArgumentsModel
    is_async: bool
    output_schema: Schema | None
    summary: str | None
    sync_wrapper: bool = False
    output_unstructure: Callable[[Any], Any] | None = None

    @property
    def params(self) -> tuple[Param, ...]:
        """Its parameters, in order."""
        return self.arguments.params

    @property
    def parameters(self) -> Schema:
        """The JSON Schema of its arguments (never mutated; copied when handed out)."""
        return self.arguments.standard.schema


def resolve_annotation(
    annotation: object, globalns: dict[str, Any], localns: Mapping[str, Any]
) -> object:
    """Evaluate string annotations and forward references, keeping ``Annotated`` metadata.

    Each annotation is resolved on its own, so a ``None`` default never makes it ``Optional``.

    Raises:
        Unresolved: A name in the annotation is not defined.
        Unsupported: The annotation is not a valid type expression.
    """
    if annotation is None:
        return None
    try:
        return evaluate(annotation, globalns, localns)
    except NameError as exc:
        raise Unresolved(getattr(exc, "name", None) or str(exc)) from None
    except Exception as exc:  # noqa: BLE001 - a broken annotation is a definition problem
        shown = safe_repr(annotation)
        msg = f"the annotation {shown} could not be evaluated ({type(exc).__name__}: {exc})"
        raise Unsupported(msg) from None


_KIND_PROBLEMS: Final[Mapping[object, Kind]] = {
    inspect.Parameter.POSITIONAL_ONLY: "positional-only",
    inspect.Parameter.VAR_POSITIONAL: "var-positional",
    inspect.Parameter.VAR_KEYWORD: "var-keyword",
}


def _param_problem(
    class_name: str, method_name: str, parameter: inspect.Parameter
) -> Problem | None:
    kind = _KIND_PROBLEMS.get(parameter.kind)
    if kind is not None:
        return problem(kind, class_name, method_name, parameter.name)
    if parameter.annotation is _EMPTY:
        return problem("unannotated", class_name, method_name, parameter.name)
    return None


#: The kinds of parameter an instance method's ``self`` can be.
_SELF_KINDS: Final = frozenset(
    {inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD}
)


def read_method(
    class_name: str,
    method_name: str,
    func: Callable[..., Any],
    owner: type,
    *,
    deferred: bool = False,
) -> MethodInfo:
    """Read an exported method's signature and build its schemas.

    Args:
        class_name: The toolset class being defined (named in problems).
        method_name: The exported method's name.
        func: The plain function.
        owner: The class whose body defines *func* (its namespace resolves names).
        deferred: It is read when the tools are first built, after `Unresolved` at class
            creation: a return annotation naming what is still not defined then has no schema
            (``output_schema`` None), as one with no JSON Schema mapping.

    Raises:
        SignatureProblems: The method cannot be exported; every problem is listed.
        Unresolved: An annotation names something not defined yet (a return annotation's only
            when not *deferred*).
    """
    try:
        signature = inspect.signature(func)
    except (TypeError, ValueError) as exc:
        found = problem("unreadable-signature", class_name, method_name, reason=str(exc))
        raise SignatureProblems([found]) from None
    parameters = list(signature.parameters.values())
    wrapper = _wrapper_name(func, method_name, parameters)
    if wrapper is not None:
        found = problem("hidden-signature", class_name, method_name, wrapper=wrapper)
        raise SignatureProblems([found])
    if not parameters or parameters[0].kind not in _SELF_KINDS:
        # The instance is passed first: without a parameter for it, no call can succeed.
        raise SignatureProblems([problem("no-self", class_name, method_name)])
    parameters = parameters[1:]
    problems: list[Problem] = []
    # A parameter of a kind no call can pass, or without an annotation, is one problem; the
    # others' annotations are still checked, so the error lists every problem at once (SPEC 1).
    typed: list[inspect.Parameter] = []
    for parameter in parameters:
        param_problem = _param_problem(class_name, method_name, parameter)
        if param_problem is not None:
            problems.append(param_problem)
        else:
            typed.append(parameter)
    parameters = typed

    globalns = _annotation_globals(func)
    # The class's own namespace, read in place: a copy per method was quadratic in the size of
    # a class of thousands of exports.
    localns = vars(owner)
    doc = method_doc(func, owner, method_name)
    docs = docstrings.parameter_descriptions(doc)
    params: list[Param] = []
    # Each parameter whose type has a schema, its default judged or not: `check` looks at
    # these for ambiguous unions when the method has problems (as the plugin does).
    read: list[tuple[str, object]] = []
    unresolved: list[tuple[str, str]] = []
    # Where each unresolved name falls among the problems (how many were found before it).
    places: list[int] = []
    for parameter in parameters:
        try:
            annotation = resolve_annotation_for(
                parameter.annotation,
                globalns,
                localns,
                class_name,
                method_name,
                parameter.name,
                problems,
            )
        except Unresolved as exc:
            # Keep checking the other parameters: each one's missing name is reported.
            unresolved.append((exc.name, parameter.name))
            places.append(len(problems))
            continue
        if annotation is MISSING:
            continue
        try:
            spec = registry.spec(annotation)
        except Unresolved as exc:
            # A name in a struct's own annotations (a field of a class the parameter takes):
            # reported at the parameter, as a name in its annotation is.
            unresolved.append((exc.name, parameter.name))
            places.append(len(problems))
            continue
        except Unsupported as exc:
            problems.append(
                problem(
                    "unsupported-type",
                    class_name,
                    method_name,
                    parameter.name,
                    # The metadata, not the type, has no schema: Annotated[int, ...] is said.
                    type=label(annotation, annotated=isinstance(exc, UnsupportedMetadata)),
                    reason=str(exc),
                )
            )
            continue
        read.append((parameter.name, annotation))
        default = parameter.default
        if default is not _EMPTY:
            default_problem = _default_problem(
                class_name, method_name, parameter.name, annotation, default, spec
            )
            if default_problem is not None:
                problems.append(default_problem)
                continue
        params.append(
            Property(
                name=parameter.name,
                attr_name=parameter.name,
                annotation=annotation,
                spec=spec,
                required=default is _EMPTY,
                default=MISSING if default is _EMPTY else default,
                description=description_of(annotation) or docs.get(parameter.name),
            )
        )
    if deferred and unresolved and problems:
        # Read once the module has run, a name still undefined stays so: each is told among
        # the method's other problems, where its parameter's type problem would be (as the
        # plugin tells them), not left for after those are fixed.
        told = unresolved_problems(class_name, method_name, unresolved)
        every: list[Problem] = []
        start = 0
        for place, found in zip(places, told, strict=True):
            every += problems[start:place]
            every.append(found)
            start = place
        problems = every + problems[start:]
    if problems:
        raise SignatureProblems(problems, read, unresolved=bool(unresolved))
    if unresolved:
        raise UnresolvedParameter(unresolved)
    # Loaded by the first class that exports a method, not by `import typed_toolsets`.
    from typed_toolsets.types.arguments import ArgumentsModel

    returned = signature.return_annotation
    is_async = makes_coroutine(func)
    if not is_async:
        awaited = _awaited(returned, globalns, localns)
        if awaited is not _EMPTY:
            # A plain def that returns an awaitable (`-> Awaitable[int]`, a coroutine it makes):
            # awaited as a sync wrapper's is, its value is what the tool returns. It was handed
            # back unawaited, as the tool's value.
            is_async, returned = True, awaited
    output = _output_spec(returned, globalns, localns, deferred=deferred)
    return MethodInfo(
        func=func,
        arguments=ArgumentsModel.build(func.__qualname__, params),
        is_async=is_async,
        sync_wrapper=is_async and not inspect.iscoroutinefunction(func),
        output_schema=None if output is None else registry.document(output.schema, output.refs),
        output_unstructure=None if output is None else output.unstructure,
        summary=docstrings.summary(doc),
    )


def unresolved_problems(
    class_name: str, method_name: str, unresolved: Sequence[tuple[str, str | None]]
) -> list[Problem]:
    """The problems of annotations that name what is not defined: ``(name, parameter)`` each."""
    return [
        problem("unresolved-name", class_name, method_name, parameter, name=name)
        for name, parameter in unresolved
    ]


def method_doc(func: Callable[..., Any], owner: type, name: str) -> str | None:
    """*func*'s docstring, or, when it has none, that of the method it overrides.

    As `inspect.getdoc` reads a method's (and pydoc and Sphinx show it): an override written
    without a docstring keeps the description and the parameters' descriptions of the tool.
    """
    doc = func.__doc__
    if doc is not None:
        return doc
    for base in owner.__mro__[1:]:
        found: object = base.__dict__.get(name)
        if found is not None:
            inherited = getattr(found, "__doc__", None)
            # Not a docstring of its own but its type's (a mixin's ``query = "SELECT 1"`` has
            # str's): none, as inspect.getdoc reads it.
            if isinstance(inherited, str) and inherited != getattr(type(found), "__doc__", None):
                return inherited
    return None


def _wrapper_name(
    func: Callable[..., Any], method_name: str, parameters: list[inspect.Parameter]
) -> str | None:
    """The name of a decorator's wrapper made without functools.wraps, when *func* is one.

    Its ``(*args, **kwargs)``, or ``(self, *args, **kwargs)``, stand in for the method's own
    parameters, which the message says (not that *args and **kwargs are not supported). A
    function of the class's own body with the instance first (``g = impl``) is no wrapper.
    """
    name = getattr(func, "__name__", method_name)
    if name == method_name or not parameters:
        return None
    rest = parameters[1:] if parameters[0].kind in _SELF_KINDS else parameters
    if parameters[0].kind is _VAR_POSITIONAL:
        return name
    qualname: str = getattr(func, "__qualname__", name)
    outer = qualname.rsplit(".", 2)[-2] if "." in qualname else "<locals>"
    if rest and outer == "<locals>" and all(p.kind in _VAR_KINDS for p in rest):
        return name
    return None


def makes_coroutine(func: Callable[..., Any]) -> bool:
    """Whether calling *func* makes a coroutine: an ``async def``, or a sync wrapper of one.

    A decorator's plain ``def`` wrapper made with `functools.wraps` returns the coroutine of the
    ``async def`` it wraps. Its signature is read through ``__wrapped__`` (`inspect.signature`),
    and so is this, as mypy sees the decorated ``async def``: else the call would hand back an
    unawaited coroutine as the tool's value.
    """
    return inspect.iscoroutinefunction(func) or inspect.iscoroutinefunction(inspect.unwrap(func))


#: The return annotations that say a plain def returns something to await, bare or with the
#: awaited type (``Awaitable[int]``, ``Coroutine[Any, Any, int]``).
_AWAITABLES: Final[frozenset[object]] = frozenset(
    {collections.abc.Awaitable, collections.abc.Coroutine, typing.Awaitable, typing.Coroutine}
)


def _awaited(annotation: object, globalns: dict[str, Any], localns: Mapping[str, Any]) -> object:
    """What awaiting a value of the return *annotation* gives (``T`` of ``Awaitable[T]``).

    ``Coroutine[Any, Any, T]`` gives ``T`` too, a bare ``Awaitable`` `Any`; any other annotation
    `inspect.Parameter.empty`. Awaiting is told by the annotation's own name alone, however its
    ``T`` resolves: ``Awaitable[Later]``, with ``Later`` not defined yet, is still awaited.
    """
    if annotation is _EMPTY:
        return _EMPTY
    try:
        resolved = resolve_annotation(annotation, globalns, localns)
    except (Unresolved, Unsupported):
        resolved = _subscripted(annotation, globalns, localns)
        return Any if resolved in _AWAITABLES else _EMPTY
    if resolved in _AWAITABLES:
        return Any
    if typing.get_origin(resolved) not in _AWAITABLES:
        return _EMPTY
    args = typing.get_args(resolved)
    return args[-1] if args else Any


def _subscripted(
    annotation: object, globalns: dict[str, Any], localns: Mapping[str, Any]
) -> object:
    """What a string annotation ``X[...]`` subscripts (``X`` resolved), or None."""
    if not isinstance(annotation, str):
        return None
    try:
        node = ast.parse(annotation.strip(), mode="eval").body
    except SyntaxError:
        return None
    if not isinstance(node, ast.Subscript):
        return None
    try:
        return resolve_annotation(ast.unparse(node.value), globalns, localns)
    except (Unresolved, Unsupported):
        return None


def _annotation_globals(func: Callable[..., Any]) -> dict[str, Any]:
    """The globals that resolve *func*'s annotations: those of the function that wrote them.

    `inspect.signature` follows ``__wrapped__`` (set by `functools.wraps`) to the decorated
    function, so its string annotations name things of that function's module, not of the
    decorator's.
    """
    written = inspect.unwrap(func, stop=lambda f: hasattr(f, "__signature__"))
    found: dict[str, Any] = getattr(written, "__globals__", None) or getattr(
        func, "__globals__", {}
    )
    return found


def resolve_annotation_for(
    annotation: object,
    globalns: dict[str, Any],
    localns: Mapping[str, Any],
    class_name: str,
    method_name: str,
    param_name: str,
    problems: list[Problem],
) -> object:
    """Resolve one parameter's annotation, recording a problem (and returning MISSING) if broken.

    Raises:
        Unresolved: A name is not defined yet; the caller may retry later.
    """
    try:
        return resolve_annotation(annotation, globalns, localns)
    except Unsupported as exc:
        problems.append(
            problem("bad-annotation", class_name, method_name, param_name, reason=str(exc))
        )
        return MISSING


def _default_problem(
    class_name: str,
    method_name: str,
    name: str,
    annotation: object,
    default: object,
    spec: TypeSpec,
) -> Problem | None:
    if default is None and "null" not in spec.json_types:
        return problem("none-default", class_name, method_name, name, type=label(annotation))
    try:
        json_default(default, spec)
    except ValueError as exc:
        if isinstance(exc, NonFiniteDefaultError) or _without_json_form(default, spec):
            return None  # kept out of the schema; the method gets it when the model leaves it out
        reason = str(exc)
        if type(default) is float and not math.isfinite(default) and "number" in spec.json_types:
            # Not "not a finite number": a float may default to an infinity; a constraint of this
            # one (`Annotated[float, Le(10)]`) refuses it.
            reason = f"{default!r} breaks a constraint of the annotation"
        return problem(
            "bad-default",
            class_name,
            method_name,
            name,
            default=safe_repr(default),
            type=label(annotation),
            reason=reason,
        )
    return None


def _without_json_form(default: object, spec: TypeSpec) -> bool:
    """Whether *default* is a value of the type that JSON cannot write: an infinity or NaN.

    ``limit: float = math.inf`` is a fine default; only the schema's ``"default"`` cannot show it.
    The type's own hook judges it, constraints included (``Annotated[float, Le(10)]`` refuses it).
    (A default whose JSON form holds one, a registered type's, is `NonFiniteDefaultError`.)
    """
    if type(default) is not float or math.isfinite(default):
        return False
    try:
        spec.structure(default)
    except Exception:  # noqa: BLE001 - any refusal means it is not a value of the type
        return False
    return True


def _output_spec(
    annotation: object, globalns: dict[str, Any], localns: Mapping[str, Any], *, deferred: bool
) -> TypeSpec | None:
    """The spec of a return annotation (None for ``None``, or one with no schema).

    Raises:
        Unresolved: It names something not defined yet, and the method is not read *deferred*
            (a class defined later in the module: read again when the tools are first built).
    """
    if (
        annotation is _EMPTY
        or annotation is None
        or annotation is type(None)
        or annotation == "None"
    ):
        return None
    try:
        resolved = resolve_annotation(annotation, globalns, localns)
        if resolved is None or resolved is type(None):
            return None
        return registry.spec(resolved)
    except Unresolved:
        if not deferred:
            raise
        return None
    except Unsupported:
        return None
