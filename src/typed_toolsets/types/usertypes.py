"""Types users teach the library: `register_type`, and the strategies it records for testing.

A registration is one rule in `.registry` (it takes precedence over the built-in ones), built
from the user's schema and functions; its Hypothesis strategy, if given, is kept here for
`typed_toolsets.testing`.
"""

from __future__ import annotations

import threading
import typing
from collections.abc import Callable, Mapping
from typing import Any, Final, Protocol, TypeAlias

from .registry import Builder, Rule, registry
from .schema_lint import JSON_TYPES, not_json, schema_problem
from .typespec import (
    AmbiguousNumber,
    Reject,
    Schema,
    TypeSpec,
    count_members,
    exact_numbers,
    has_unsafe_float,
    json_copy,
)

__all__ = ["StrategyLike", "StrategySource", "register_type", "user_strategies"]


class StrategyLike(Protocol):
    """What `register_type` accepts as ``strategy``: a Hypothesis ``SearchStrategy``.

    A protocol rather than Hypothesis's own class, so that the core never imports Hypothesis,
    not even for type checkers (an optional dependency would leave the signature partly unknown
    to pyright in projects that do not install it).
    """

    def example(self) -> Any: ...  # noqa: D102 - the method that identifies a strategy


#: A strategy, or a function of no arguments that makes it on first use.
StrategySource: TypeAlias = StrategyLike | Callable[[], StrategyLike]


class _UserStrategies:
    """The strategies given to `register_type`, by type, and who wants to hear of new ones.

    `typed_toolsets.testing` reads them; its Hypothesis plugin watches them to register each
    one for ``st.from_type`` too.
    """

    def __init__(self) -> None:
        self._by_type: dict[type, StrategySource] = {}
        self._watchers: list[Callable[[type, StrategySource], None]] = []
        self._lock = threading.Lock()

    def get(self, tp: type) -> StrategySource | None:
        """The strategy (or the function making it) registered for exactly *tp*, if any."""
        return self._by_type.get(tp)

    def set(self, tp: type, strategy: StrategySource | None) -> None:
        """Record *tp*'s strategy (None forgets it) and tell the watchers of a new one.

        A watcher that refuses it (Hypothesis's check of an empty strategy) leaves the strategy
        *tp* had before, and its error propagates.
        """
        with self._lock:
            previous = self._by_type.get(tp)
            if strategy is None:
                self._by_type.pop(tp, None)
                return
            self._by_type[tp] = strategy
            watchers = list(self._watchers)
        try:
            for watcher in watchers:
                watcher(tp, strategy)
        except BaseException:
            with self._lock:
                # Unless another registration of the type came meanwhile, and stays.
                if self._by_type.get(tp) is strategy:
                    if previous is None:
                        self._by_type.pop(tp, None)
                    else:
                        self._by_type[tp] = previous
            raise

    def watch(self, watcher: Callable[[type, StrategySource], None]) -> None:
        """Call *watcher* for every strategy registered so far and for every later one."""
        with self._lock:
            self._watchers.append(watcher)
            known = list(self._by_type.items())
        for tp, strategy in known:
            watcher(tp, strategy)


#: The strategies of user-registered types (see `register_type`).
user_strategies: Final = _UserStrategies()


def _not_one_argument(hook: Callable[..., object]) -> str | None:
    """How *hook*'s parameters are written when a call with one argument cannot bind; else None.

    Only a function's (or a bound method's) signature is read: a class's is inferred, and a
    metaclass or ``__new__`` may take what it does not show; a builtin may have none.
    """
    import inspect

    if not (inspect.isfunction(hook) or inspect.ismethod(hook)):
        return None
    try:
        # The function's own parameters: a `functools.wraps` wrapper shows its target's.
        signature = inspect.signature(hook, follow_wrapped=False)
    except (TypeError, ValueError):
        return None
    try:
        signature.bind(None)
    except TypeError:
        return str(signature)
    return None


def register_type(
    tp: type,
    *,
    schema: Mapping[str, Any],
    structure: Callable[[Any], Any],
    unstructure: Callable[[Any], Any],
    strategy: StrategySource | None = None,
) -> None:
    r"""Teach typed_toolsets a type of your own: its JSON Schema and how to (un)structure it.

    The registration applies to the type exactly (not to subclasses) and takes precedence over
    the built-in rules. Arguments are validated against *schema* (with jsonschema) before
    *structure* is called, so *structure* only sees values the schema admits; any exception it
    raises becomes an argument error at that value's path.

    Example::

        register_type(
            Decimal,
            schema={"type": "string", "pattern": r"^-?[0-9]+(\\.[0-9]+)?$"},
            structure=Decimal,
            unstructure=str,
        )

    Args:
        tp: The class to register.
        schema: Its JSON Schema (a JSON-ready mapping; it is copied).
        structure: Builds a *tp* from a JSON value that matches *schema*.
        unstructure: Turns a *tp* into a JSON value that matches *schema*.
        strategy: For `typed_toolsets.testing` (optional): a Hypothesis strategy of *tp* values,
            or a function of no arguments returning one (so the module registering the type
            need not import Hypothesis). Without it, ``values()`` of *tp* raises an error
            naming the type.

    Raises:
        TypeError: An argument has the wrong type, or *tp* is ``NoneType`` (always JSON null)
            or unhashable (a metaclass with ``__eq__`` and no ``__hash__``), or a hook cannot be
            called with one argument (where its signature can be read).
        ValueError: *schema* holds a value that is not JSON, uses a reference (``$ref``,
            ``$defs``...), a pattern Python's `re` cannot compile or a ``type`` JSON Schema does
            not have, or is not a Draft 2020-12 schema (its metaschema refuses it).
    """
    # Checked at run time too: callers without a type checker pass anything.
    if not isinstance(typing.cast(object, tp), type):
        msg = f"`tp` must be a class (got {tp!r})."
        raise TypeError(msg)
    try:
        hash(tp)
    except TypeError:
        msg = (
            f"`tp` must be hashable: {tp.__qualname__}'s metaclass defines __eq__ without "
            "__hash__; typed_toolsets keeps each registered type's rule by its class (give the "
            "metaclass __hash__ = type.__hash__)."
        )
        raise TypeError(msg) from None
    if tp is type(None):
        # None is JSON null wherever it is written (a nullable parameter, Literal[None]): a
        # registration would never be used.
        msg = "`tp` cannot be NoneType: None is always JSON null; register a class of your own."
        raise TypeError(msg)
    if not isinstance(typing.cast(object, schema), Mapping):
        msg = f"`schema` must be a mapping (got {schema!r})."
        raise TypeError(msg)
    if not callable(typing.cast(object, structure)) or not callable(
        typing.cast(object, unstructure)
    ):
        msg = "`structure` and `unstructure` must be callables."
        raise TypeError(msg)
    for role, hook, what in (
        ("structure", structure, "the JSON value"),
        ("unstructure", unstructure, "the value"),
    ):
        shape = _not_one_argument(hook)
        if shape is not None:
            # Called with the value alone: every call would fail, and be blamed on the model.
            msg = f"`{role}` must take one argument, {what} (got a callable taking {shape})."
            if role == "structure":
                msg += (
                    " A cattrs-style hook, which takes the type too, can be wrapped: "
                    f"`lambda value: hook(value, {tp.__qualname__})`."
                )
            raise TypeError(msg)
    if strategy is not None and not callable(strategy) and not hasattr(strategy, "example"):
        msg = (
            "`strategy` must be a Hypothesis strategy or a function returning one "
            f"(got {strategy!r})."
        )
        raise TypeError(msg)
    problem = not_json(schema)  # before a copy: a schema that holds itself has no end
    frozen_schema = json_copy(schema) if problem is None else {}
    if problem is None:
        problem = schema_problem(frozen_schema)
    if problem is None:
        # jsonschema's own verdict on the rest (a keyword's value of the wrong kind: an
        # `enum` that is not an array, a `multipleOf` of 0, an empty `anyOf`); it is imported
        # here rather than at the first call of a tool using the type.
        from .validator import metaschema_problem

        problem = metaschema_problem(frozen_schema)
    if problem is not None:
        msg = f"`schema` for {tp.__qualname__} cannot be used: {problem}."
        raise ValueError(msg)
    checker = _SchemaCheck(frozen_schema)

    def structure_checked(value: Any) -> object:
        # The schema and the user's function may read a float differently from the integer
        # literal it can stand for on the fast path; the exact path decides those.
        if has_unsafe_float(value) and not exact_numbers():
            raise AmbiguousNumber
        checker.check(value)
        return structure(value)

    def factory(annotation: object, builder: Builder) -> TypeSpec:
        schema, read = frozen_schema, typing.cast("Callable[[Any], Any]", structure_checked)
        if builder.registry.strict:  # null for a defaulted property, as the strict export says
            from .validator import strict_reading

            schema, read = strict_reading(frozen_schema, structure_checked)
        return TypeSpec(
            annotation=annotation,
            schema=schema,
            structure=read,
            unstructure=unstructure,
            json_types=_schema_json_types(frozen_schema),
            depth=None,
            instance_check=lambda value: isinstance(value, tp),
            members=count_members,
        )

    # The strategy first: Hypothesis's plugin may refuse it (an empty one), and then the type
    # stays as it was, not registered by halves.
    user_strategies.set(tp, strategy)
    registry.add_user_rule(
        Rule(
            name=f"user:{tp.__module__}.{tp.__qualname__}",
            predicate=lambda a: a is tp,
            factory=factory,
            replaces=tp,
        )
    )


class _SchemaCheck:
    """Validates one value against a user-supplied schema, compiling the validator on first use."""

    def __init__(self, schema: Schema) -> None:
        self._schema = schema
        self._validator: Any = None

    def check(self, value: object) -> None:
        if self._validator is None:
            from .validator import make_validator

            self._validator = make_validator(self._schema)
        if not self._validator.is_valid(value):
            raise Reject


def _schema_json_types(schema: Schema) -> frozenset[str]:
    declared = schema.get("type")
    if isinstance(declared, str):
        return frozenset({declared})
    if isinstance(declared, list) and all(isinstance(t, str) for t in declared):  # pyright: ignore[reportUnknownVariableType]
        return frozenset(declared)  # pyright: ignore[reportUnknownArgumentType]
    return JSON_TYPES
