"""`check_toolset`: the guarantees of the library's own property suite, for a user's toolset."""

from __future__ import annotations

import asyncio
import concurrent.futures
import re
import typing
from collections.abc import Callable, Mapping
from typing import Any, Final, NoReturn, TypeVar

from hypothesis import HealthCheck, Phase, assume, given, settings
from hypothesis import strategies as st
from hypothesis.errors import FailedHealthCheck, InvalidArgument, Unsatisfiable
from hypothesis.reporting import current_reporter, with_reporter

from typed_toolsets._public import public_in
from typed_toolsets._toolset import Toolset
from typed_toolsets.call.proxy import ToolProxy
from typed_toolsets.call.result import ToolError, ToolResult
from typed_toolsets.definition.errors import notes_state
from typed_toolsets.definition.limits import Limits

from . import _seams
from ._defaults import default_at
from ._nearmiss import NearMiss, invalid_arguments
from ._same import UNSEEN, defines_equality, json_forms, same
from ._strategies import NoStrategyError, arguments, tool_parameters, values

__all__ = ["ToolsetCheckError", "check_toolset"]

_T = TypeVar("_T")
_ABSENT: Final = object()
_PARAMETER_RE: Final = re.compile(r"\$\.([A-Za-z_]\w*)")
#: Longest ``repr`` of an example in a message; the whole example is on the exception.
_SHOWN: Final = 2000


@public_in("typed_toolsets.testing")
class ToolsetCheckError(AssertionError):
    """A guarantee checked by `check_toolset` does not hold.

    The message names the toolset, the tool, the parameter (when one is to blame), what went
    wrong and the example, shrunk by Hypothesis to a minimal one.

    Attributes:
        toolset: The toolset class's name.
        tool: The exported tool name.
        parameter: The parameter concerned, or None.
        problem: What went wrong.
        example: The failing example: the Python values drawn for the round trip, the argument
            mapping otherwise (for an ambiguous union no value drawn showed, the union).
    """

    def __init__(
        self, toolset: str, tool: str, parameter: str | None, problem: str, example: object
    ) -> None:
        self.toolset = toolset
        self.tool = tool
        self.parameter = parameter
        self.problem = problem
        self.example = example
        where = f"{toolset}: tool {tool!r}"
        if parameter is not None:
            where += f", parameter {parameter!r}"
        shown = repr(example)
        if len(shown) > _SHOWN:
            shown = shown[: _SHOWN - 3] + "..."
        super().__init__(f"{where}: {problem}\n  example: {shown}")

    def __reduce__(
        self,
    ) -> tuple[type[ToolsetCheckError], tuple[object, ...], dict[str, object] | None]:
        # The default rebuilds an exception from its message alone (pytest-xdist pickles it).
        found = (self.toolset, self.tool, self.parameter, self.problem, self.example)
        return type(self), found, notes_state(self)


def _parameter_of(path: str) -> str | None:
    found = _PARAMETER_RE.match(path)
    return found.group(1) if found else None


def _json_object(example: object) -> dict[str, object]:
    """*example* when it is a JSON object (the arguments sent), else an empty one."""
    return typing.cast("dict[str, object]", example) if isinstance(example, dict) else {}


def _kinds(value: object) -> str:
    return type(value).__qualname__


class _ToolCheck:
    """The three properties of one tool; each raises `ToolsetCheckError` on its first failure."""

    def __init__(self, toolset: str, proxy: ToolProxy, *, call: bool) -> None:
        self.toolset = toolset
        self.proxy = proxy
        self.call = call
        self.params = tool_parameters(proxy)
        self.annotations = {p.name: p.annotation for p in self.params}
        self.schema_problems = _seams.schema_checker(proxy.parameters)
        self.strict_problems: Callable[[object], list[tuple[Any, str]]] | None = None
        #: How many drawn values the round trip set aside for not fitting the tool's Limits.
        self.over_limits = 0

    def fail(self, parameter: str | None, problem: str, example: object) -> NoReturn:
        raise ToolsetCheckError(self.toolset, self.proxy.name, parameter, problem, example)

    def unambiguous(self) -> None:
        """Fail on two structs of a union ``typed-toolsets check`` finds ambiguous, unseen.

        The round trip shows most ambiguous unions (``str | StrColor``: the enum's values come
        back as str). Not two structs the second of which adds a defaulted field (``Contact |
        Employee``): the converter writes that field, so an Employee's JSON is never a
        Contact's; but a model that leaves it out sends JSON the union reads as a Contact. Only
        structs (object types): a union whose overlap gives the same value either way
        (``Literal["auto"] | str``) loses nothing, and ``check`` only warns of it. The example
        is the union.
        """
        for name, annotation in self.annotations.items():
            why = _seams.ambiguity(annotation, objects=True)
            if why is not None:
                problem = (
                    f"{why} (as typed-toolsets check reports): no value drawn here came back "
                    "changed, but a model's arguments can be read as the other variant (one "
                    "that leaves out a field with a default, say); give each variant a member "
                    "that tells it apart (a required field of its own, or a Literal tag)"
                )
                self.fail(name, problem, _seams.label(annotation))

    def run(
        self,
        config: settings,
        what: str,
        strategy: st.SearchStrategy[_T],
        check: Callable[[_T], None],
    ) -> None:
        """Run one property; a Hypothesis error about the examples names this tool and why."""
        try:
            _run(config, strategy, check)
        except (FailedHealthCheck, Unsatisfiable) as exc:
            raise self.unhealthy(exc, what) from exc
        except NoStrategyError:
            raise  # names the tool and the parameter already
        except InvalidArgument as exc:
            raise self.ungenerated(exc, what) from exc

    def unhealthy(self, exc: FailedHealthCheck | Unsatisfiable, what: str) -> Exception:
        """*exc* again, naming the toolset and the tool, and the likely cause."""
        where = f"{self.toolset}: tool {self.proxy.name!r}: "
        hypothesis_said = f"\n  ({type(exc).__name__}: {_first_line(exc)})"
        check = _health_check(exc)
        if check == "nested_given":
            message = (
                "check_toolset() was called inside a @given test; it runs Hypothesis itself, "
                "so call it from a plain test function"
            )
            return type(exc)(where + message + hypothesis_said)
        if check in ("data_too_large", "large_base_example"):
            message = (
                f"Hypothesis could not generate {what} small enough to check it (its "
                f"HealthCheck.{check}); the likely cause is a MinLen asking for long strings or "
                "collections, or collections nested deep: lower it, or suppress "
                f"HealthCheck.{check} in your Hypothesis profile and pass a small max_examples "
                "(each example is large: the four checks of a tool with 100 of them may take "
                "minutes)"
            )
            return type(exc)(where + message + hypothesis_said)
        limits = self.proxy.limits
        defaults = Limits()
        tight = [
            f"{field}={getattr(limits, field)!r}"
            for field in ("max_depth", "max_argument_bytes")
            if getattr(limits, field) < getattr(defaults, field)
        ]
        if self.over_limits or tight:
            shown = ", ".join(tight) or "its size and depth limits"
            cause = (
                f"its Limits ({shown}): most generated values do not fit them, and only values "
                "within the limits are checked; raise the limits (tool(..., limits=...) or the "
                "class's `limits`), or narrow the parameter types (MaxLen, fewer nesting levels)"
            )
        else:
            cause = (
                "a class or constraint that refuses most generated values (an attrs validator, "
                "a __post_init__ check, a registered structure hook)"
            )
        message = (
            f"Hypothesis could not generate enough {what} to check it; the likely cause is {cause}"
        )
        return type(exc)(where + message + hypothesis_said)

    def ungenerated(self, exc: InvalidArgument, what: str) -> InvalidArgument:
        """*exc* again, naming the toolset and the tool whose values Hypothesis cannot draw.

        A constraint past what Hypothesis generates (``MinLen(100_000)`` on a string), or a
        registered type's ``strategy=`` that is no strategy.
        """
        return InvalidArgument(
            f"{self.toolset}: tool {self.proxy.name!r}: Hypothesis cannot generate {what}: "
            f"{_first_line(exc)}"
        )

    # ------------------------------------------------------------------------------ helpers

    def _refused(self, error: ToolError, what: str, example: object) -> NoReturn:
        paths = [d.path for d in error.details]
        parameter = next((p for p in map(_parameter_of, paths) if p is not None), None)
        message = f"{what} ({error.kind} error: {error.message})"
        if error.kind == "arguments":
            message += f"; {_REFUSED_FIX}"
        self.fail(parameter, message, example)

    def _agree(
        self,
        first: tuple[str, Mapping[str, object]],
        second: tuple[str, Mapping[str, object]],
        example: object,
    ) -> None:
        """Both keyword-argument mappings hold the same values, of the same types."""
        (one, mine), (other, theirs) = first, second
        sent = _json_object(example)
        for name in sorted(set(mine) | set(theirs)):
            left, right = mine.get(name, _ABSENT), theirs.get(name, _ABSENT)
            if not same(left, right, sent=sent.get(name, UNSEEN)):
                self.fail(
                    name,
                    f"{one} structured it as {left!r} ({_kinds(left)}), {other} as {right!r} "
                    f"({_kinds(right)})",
                    example,
                )

    def invoke(self, arguments: Mapping[str, object] | str) -> ToolResult[Any]:
        """``proxy.invoke``, run to completion even when called inside a running event loop.

        There, ``invoke`` on an async tool only answers that ``ainvoke`` must be used (an
        ``"execution"`` error): the method would never run. A worker thread has no loop.
        """
        if self.proxy.is_async and _loop_running():
            with concurrent.futures.ThreadPoolExecutor(max_workers=1) as worker:
                return worker.submit(self.proxy.invoke, arguments).result()
        return self.proxy.invoke(arguments)

    def _invoked(self, arguments: Mapping[str, object] | str, example: object) -> None:
        result = self.invoke(arguments)
        error = result.error
        # Timeouts are the tool's business, and so is the refusal to start more calls while
        # too many that timed out still run, or beyond its max_concurrent (a "limit" error
        # about no argument).
        if error is None or error.kind not in ("arguments", "limit"):
            return
        if not _seams.refused_as_busy(error):
            self._refused(error, "invoke() refused valid arguments", example)

    # ---------------------------------------------------------------------------- properties

    def round_trip(self, drawn: dict[str, Any]) -> None:
        """A value goes to JSON text, validates, and comes back the same, of the same type."""
        forms: dict[str, object] = {}
        for name, value in drawn.items():
            try:
                forms[name] = _seams.unstructurer(self.annotations[name])(value)
            except Exception as exc:  # noqa: BLE001 - reported, with the value
                self.fail(
                    name, f"unstructuring {value!r} raised {type(exc).__name__}: {exc}", drawn
                )
            try:
                _seams.parse_json(_seams.json_text(forms[name]))
            except (TypeError, ValueError) as exc:
                self.fail(
                    name,
                    f"{value!r} unstructures to {forms[name]!r}, which is not JSON ({exc})",
                    drawn,
                )
        text = _seams.json_text(forms)
        parsed = _seams.parse_json(text)
        # Values too large for the tool's Limits are refused before anything else: they test the
        # limits, not the round trip.
        fits = _seams.within_limits(self.proxy, text)
        self.over_limits += not fits
        assume(fits)
        for path, message in self.schema_problems(parsed):
            parameter = str(path[0]) if path else None
            shown = _seams.json_text(
                forms.get(parameter, forms) if parameter is not None else forms
            )
            default = default_at(drawn.get(parameter), path[1:]) if parameter else None
            cause = (
                "the schema is stricter than the converter"
                if default is None
                else f"it is the default of {default}, which breaks its own constraint: change "
                "the default or the constraint"
            )
            self.fail(
                parameter,
                f"its JSON form {shown} does not validate against the tool's schema "
                f"({_seams.json_path(path)}: {message}): {cause}",
                drawn,
            )
        exact = _seams.exact_path(self.proxy, text)
        if isinstance(exact, ToolError):
            self._refused(exact, f"the JSON form {text} validates, but the tool refused it", drawn)
        for name in sorted(set(drawn) | set(exact)):
            value, back = drawn.get(name, _ABSENT), exact.get(name, _ABSENT)
            if same(value, back, defaults=True):
                continue
            sent = _seams.json_text(forms.get(name))
            problem = (
                f"{value!r} ({_kinds(value)}) went to JSON as {sent} and came back as {back!r} "
                f"({_kinds(back)})"
            )
            why = _seams.ambiguity(self.annotations[name]) if name in self.annotations else None
            if why is None and type(value) is type(back) and not defines_equality(type(value)):
                both = json_forms(value, back)
                came = _seams.json_text(both[1]) if both is not None else "?"
                why = (
                    f"the converter loses information ({_kinds(value)} defines no __eq__, so its "
                    f"values are compared by their JSON forms: {sent} went, {came} came back)"
                )
            elif why is None and type(value) is type(back):
                why = (
                    "the converter loses information (structure is not the inverse of unstructure)"
                )
            self.fail(name, f"{problem}: {why}" if why else problem, drawn)
        fast = _seams.fast_path(self.proxy, text)
        if fast is not None:
            self._agree(("the fast path", fast), ("the exact path", exact), drawn)
        if self.call:
            self._invoked(text, drawn)

    def accepted(self, mapping: dict[str, Any]) -> None:
        """Arguments generated from the schema validate, and both call paths accept them alike."""
        for path, message in self.schema_problems(mapping):
            parameter = str(path[0]) if path else None
            self.fail(
                parameter,
                f"arguments generated for its schema do not validate against it "
                f"({_seams.json_path(path)}: {message}); a type added with register_type must "
                "have a strategy and an unstructure hook that give JSON its schema admits",
                mapping,
            )
        text = _seams.json_text(mapping)
        exact = _seams.exact_path(self.proxy, text)
        if isinstance(exact, ToolError):
            self._refused(exact, _REFUSED, mapping)
        as_mapping = _seams.exact_path(self.proxy, mapping)
        if isinstance(as_mapping, ToolError):
            self._refused(as_mapping, f"{_REFUSED} as a mapping", mapping)
        self._agree(("the mapping", as_mapping), ("its JSON text", exact), mapping)
        fast = _seams.fast_path(self.proxy, text)
        if fast is not None:
            self._agree(("the fast path", fast), ("the exact path", exact), mapping)
        if self.call:
            self._invoked(mapping, mapping)

    def accepted_strict(self, mapping: dict[str, Any]) -> None:
        """Arguments of the strict variant validate against it and are accepted, read so."""
        if self.strict_problems is None:
            self.strict_problems = _seams.schema_checker(_seams.strict_parameters(self.proxy))
        for path, message in self.strict_problems(mapping):
            self.fail(
                str(path[0]) if path else None,
                f"arguments generated for its strict schema do not validate against it "
                f"({_seams.json_path(path)}: {message})",
                mapping,
            )
        text = _seams.json_text(mapping)
        exact = _seams.exact_path(self.proxy, text, strict=True)
        if isinstance(exact, ToolError):
            self._refused(exact, "arguments its strict schema admits were refused", mapping)
        fast = _seams.fast_path(self.proxy, text, strict=True)
        if fast is not None:
            self._agree(("the strict fast path", fast), ("the strict exact path", exact), mapping)

    def refused(self, near: NearMiss) -> None:
        """A near miss is refused, with an error naming its path, by both call paths."""
        mapping, path = near
        parameter = _parameter_of(path)
        text = _seams.json_text(mapping)
        results: list[tuple[str, object]] = [
            ("the exact path", _seams.exact_path(self.proxy, text))
        ]
        if self.call:
            invoked = self.invoke(mapping)
            results.append(("invoke()", invoked.error if invoked.error is not None else invoked))
        for who, outcome in results:
            if not isinstance(outcome, ToolError):
                self.fail(parameter, f"{who} accepted arguments that are wrong at {path}", mapping)
            named = [d.path for d in outcome.details]
            if outcome.kind != "arguments" or path not in named:
                self.fail(
                    parameter,
                    f"{who} refused arguments that are wrong at {path}, but its error does not "
                    f"name {path} ({outcome.kind} error: {outcome.message})",
                    mapping,
                )
        if _seams.fast_path(self.proxy, text) is not None:
            self.fail(
                parameter, f"the fast path accepted arguments that are wrong at {path}", mapping
            )


def _loop_running() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


_HEALTH_CHECK_RE: Final = re.compile(r"HealthCheck\.([a-z_]+)")


def _health_check(exc: FailedHealthCheck | Unsatisfiable) -> str | None:
    """The name of the health check *exc* reports (``filter_too_much``...), None if unknown.

    Hypothesis keeps it only in the message, which names it for suppressing it.
    """
    found = _HEALTH_CHECK_RE.findall(str(exc)) if isinstance(exc, FailedHealthCheck) else []
    return found[-1] if found else None


def _filtered(exc: FailedHealthCheck | Unsatisfiable) -> bool:
    """Whether *exc* says that too many generated examples were set aside."""
    return isinstance(exc, Unsatisfiable) or _health_check(exc) in ("filter_too_much", None)


def _first_line(exc: Exception) -> str:
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else "no message"


def _has_strict_variant(proxy: ToolProxy) -> bool:
    # Tools without a lossless strict variant are simply not exported with strict=True.
    try:
        _seams.strict_parameters(proxy)
    except ValueError:
        return False
    return True


#: What the "accepted" check says of arguments the schema admits and the call refuses.
_REFUSED: Final = "arguments its schema admits were refused"
#: And what to change: the two sides must agree.
_REFUSED_FIX: Final = (
    "the class or hook is stricter than the schema: tighten the schema (Annotated constraints, "
    "or the registered schema) or loosen the class's validator or the structure hook"
)


def _settings(max_examples: int | None) -> settings:
    current = settings()  # the active profile: users' derandomisation and sizes carry over
    return settings(
        current,
        max_examples=current.max_examples if max_examples is None else max_examples,
        deadline=None,
        database=None,
        report_multiple_bugs=False,
        suppress_health_check=[*current.suppress_health_check, HealthCheck.too_slow],
        # The explain phase lists lines "always and only run by failing test cases": lines of
        # this library's call path, read as a bug of its own; the error already says which
        # tool, which example and what to change.
        phases=[phase for phase in current.phases if phase is not Phase.explain],
    )


def _run(config: settings, strategy: st.SearchStrategy[_T], check: Callable[[_T], None]) -> None:
    @config
    @given(strategy)
    def holds(example: _T) -> None:
        check(example)

    forward = current_reporter()

    def report(text: object) -> None:
        # Hypothesis advises adding @seed(...) "to this test" when a run stops early (a failed
        # health check): the test is this inner one, which the user cannot decorate, and the
        # error raised says what to change. The rest of what it reports goes through.
        if not (isinstance(text, str) and "@seed(" in text):
            forward(text)

    with with_reporter(report):
        holds()


def _drawn(tool: str, params: tuple[_seams.Parameter, ...]) -> st.SearchStrategy[dict[str, Any]]:
    each: dict[str, st.SearchStrategy[Any]] = {}
    for param in params:
        where = f"tool {tool!r}, parameter {param.name!r}"
        try:
            each[param.name] = _named(values(param.annotation), where)
        except NoStrategyError as exc:
            msg = f"{where}: {exc}"
            raise NoStrategyError(msg) from None
    required = {p.name: each[p.name] for p in params if p.required}
    optional = {p.name: each[p.name] for p in params if not p.required}
    return st.fixed_dictionaries(required, optional=optional)


@st.composite
def _named(draw: st.DrawFn, strategy: st.SearchStrategy[_T], where: str) -> _T:
    """*strategy*'s values; a registered strategy that draws no value of its type says *where*."""
    try:
        return draw(strategy)
    except NoStrategyError as exc:
        msg = f"{where}: {exc}"
        raise NoStrategyError(msg) from None


def check_toolset(
    cls_or_instance: Callable[[], Toolset] | Toolset,
    *,
    max_examples: int | None = None,
    call: bool = False,
) -> None:
    """Check, for every tool of a toolset, the guarantees the library's own suite proves.

    For each tool, with Hypothesis:

    1. Round trip: Python values of each parameter's type (`values`) go to JSON with the
       project's converter, are written as JSON text, validate against the tool's exported
       schema, and come back through the tool's call path equal and of the same types
       (``str | SomeStrEnum`` fails here: the enum comes back as a ``str``).
    2. Accepted: argument mappings generated from the schema (`arguments`) validate, and the call
       path accepts them (an attrs validator or a registered ``structure`` hook stricter than
       the schema fails here), as text and as a mapping; for a tool with a strict variant, its
       arguments (``null`` for a default) too, once mapped back to the defaults.
    3. Refused: near misses (`invalid_arguments`) are refused with an ``"arguments"`` error that
       names the broken path.
    4. Unambiguous: no parameter holds two structs (object types) of a union
       ``typed-toolsets check`` finds ambiguous, even where no value drawn above showed it (the
       later adding a defaulted field).

    Throughout, the fast path (orjson and generated code) and the exact path (strict parsing and
    jsonschema) must agree. Methods are never called unless *call* is true: tools have side
    effects. Call it from a plain test function (not from inside ``@given``).

    Args:
        cls_or_instance: A Toolset class (built with ``Cls()``, as ``to_tools()`` does) or a
            configured instance.
        max_examples: Examples per property and tool; by default the active Hypothesis
            profile's ``max_examples``.
        call: Also run the tools through ``invoke`` with the generated arguments, and require
            that none is refused with an ``"arguments"`` or ``"limit"`` error.

    Raises:
        ToolsetCheckError: A guarantee does not hold; the message names the tool, the parameter
            and the (shrunk) example.
        NoStrategyError: A parameter's type has no strategy (a type registered without
            ``strategy=``).
        hypothesis.errors.FailedHealthCheck: Nearly all generated values of a tool were set
            aside (they do not fit its Limits, or a class refuses them); the message names the
            toolset, the tool and the likely cause, and Hypothesis's error is its ``__cause__``.
            ``hypothesis.errors.Unsatisfiable`` likewise. Also when the smallest values are
            too large to generate (a ``MinLen`` asking for long ones), or when it is called
            inside a ``@given`` test; the message says which.
        hypothesis.errors.InvalidArgument: Hypothesis cannot generate values of a parameter (a
            constraint past what it draws, such as ``MinLen(100_000)`` on a string); the message
            names the toolset and the tool.
    """
    # Checked at run time too: callers without a type checker pass anything.
    # Typed as a callable for the constructor's arguments: a class whose constructor needs some
    # is refused by the type checker, as ``Cls.to_tools()`` is.
    given_object = typing.cast(object, cls_or_instance)
    toolset: type[Toolset] | Toolset
    if isinstance(given_object, Toolset):
        toolset = given_object
        name = type(given_object).__qualname__
    elif isinstance(given_object, type) and issubclass(given_object, Toolset):
        toolset = given_object
        name = given_object.__qualname__
    else:
        msg = f"check_toolset() needs a Toolset class or instance (got {given_object!r})"
        raise TypeError(msg)
    config = _settings(max_examples)
    for proxy in toolset.to_tools():
        check = _ToolCheck(name, proxy, call=call)
        try:
            _run(config, _drawn(proxy.name, check.params), check.round_trip)
        except (FailedHealthCheck, Unsatisfiable) as exc:
            # `values` drops the draws a class refuses; when it refuses nearly all of them, the
            # schema's arguments show which (and raise the precise error).
            if _filtered(exc):
                check.run(config, "arguments", arguments(proxy), check.accepted)
            raise check.unhealthy(exc, "values of its parameters") from exc
        except NoStrategyError:
            raise  # names the tool and the parameter already
        except InvalidArgument as exc:
            raise check.ungenerated(exc, "values of its parameters") from exc
        check.run(config, "arguments", arguments(proxy), check.accepted)
        if _has_strict_variant(proxy):
            check.run(
                config, "strict arguments", arguments(proxy, strict=True), check.accepted_strict
            )
        check.run(config, "near misses", invalid_arguments(proxy), check.refused)
        check.unambiguous()
