"""The type registry: one dispatch for schema and hooks, user types, caching, recursive defs."""

from __future__ import annotations

import dataclasses
import decimal
import functools
import inspect
import json
import re
import threading
import typing
from typing import Annotated, Literal, Union

import attrs
import pytest
from annotated_types import MultipleOf

from tests.strategies.toolsets import echo_tool, make_echo_toolset
from typed_toolsets import Toolset, ToolsetDefinitionError, export, register_type, tool
from typed_toolsets.types.catalog import registry
from typed_toolsets.types.converter import converter
from typed_toolsets.types.typespec import Reject, Unsupported


class Money:
    """Not supported until registered."""

    def __init__(self, cents: int) -> None:
        self.cents = cents

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Money) and other.cents == self.cents

    def __hash__(self) -> int:
        return hash(self.cents)


def test_unregistered_class_is_unsupported() -> None:
    class Opaque:
        pass

    with pytest.raises(Unsupported, match=r"register it with typed_toolsets\.register_type"):
        registry.spec(Opaque)


def test_register_type_in_one_call() -> None:
    register_type(
        Money,
        schema={"type": "string", "pattern": "^[0-9]+[.][0-9]{2}$"},
        structure=lambda text: Money(int(text.replace(".", ""))),
        unstructure=lambda money: f"{money.cents // 100}.{money.cents % 100:02d}",
    )
    proxy = echo_tool(list[Money])
    assert proxy.parameters["properties"]["value"] == {
        "type": "array",
        "items": {"type": "string", "pattern": "^[0-9]+[.][0-9]{2}$"},
    }
    assert proxy.dynamic_call({"value": ["1.50"]}) == {"value": [Money(150)]}
    assert proxy.dynamic_call({"value": ["1.5"]}) == (
        f"Error: Invalid arguments for tool '{proxy.name}': value[0]: '1.5' does not match "
        "'^[0-9]+[.][0-9]{2}$'"
    )
    assert converter.unstructure([Money(205)], unstructure_as=list[Money]) == ["2.05"]


def test_registered_structure_failures_are_argument_problems() -> None:
    def strict_decimal(text: str) -> decimal.Decimal:
        value = decimal.Decimal(text)
        if value.is_nan():
            msg = "NaN is not an amount"
            raise ValueError(msg)
        return value

    register_type(
        decimal.Decimal, schema={"type": "string"}, structure=strict_decimal, unstructure=str
    )
    result = echo_tool(decimal.Decimal).invoke({"value": "NaN"})
    assert result.error is not None
    assert result.error.details[0].path == "$.value"
    assert "ValueError: NaN is not an amount" in result.error.message


class Loop:
    """Registered below with a structure hook that never returns: it recurses."""


def _forever(value: object) -> Loop:
    return _forever(value)


def test_a_hook_that_recurses_is_its_part_s_problem_not_the_nesting() -> None:
    # It was reported as arguments nested too deeply ("send a flatter structure") for a string.
    register_type(Loop, schema={"type": "string"}, structure=_forever, unstructure=str)
    proxy = echo_tool(Loop)
    for arguments in ({"value": "x"}, '{"value": "x"}'):
        result = proxy.invoke(arguments)
        assert result.error is not None
        assert result.error.kind == "arguments"
        (problem,) = result.error.details
        assert problem.path == "$.value"
        assert problem.message.startswith("'x' is not accepted: RecursionError: ")


class Power:
    """Registered below with a structure hook that overflows on its own (2.0 ** 2000)."""

    def __init__(self, exponent: int) -> None:
        self.value = 2.0**exponent


def test_a_hook_s_own_overflow_is_told_in_its_words_not_as_a_number_too_large() -> None:
    # It was "2000 is too large for a float; send a number between -1.8e308 and 1.8e308":
    # 2000 is well inside that range, and no number the model could send would do.
    register_type(Power, schema={"type": "integer"}, structure=Power, unstructure=lambda _: 0)
    proxy = echo_tool(Power)
    for arguments in ({"value": 2000}, '{"value": 2000}'):
        result = proxy.invoke(arguments)
        assert result.error is not None
        (problem,) = result.error.details
        assert problem.path == "$.value"
        assert problem.message.startswith("2000 is not accepted: OverflowError: ")
    assert proxy.invoke({"value": 3}).ok


def test_register_type_checks_its_arguments() -> None:
    with pytest.raises(TypeError, match="`tp` must be a class"):
        register_type("Money", schema={}, structure=str, unstructure=str)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="`schema` must be a mapping"):
        register_type(Money, schema=[], structure=str, unstructure=str)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="must be callables"):
        register_type(Money, schema={}, structure=3, unstructure=str)  # type: ignore[arg-type]
    # None is null wherever it is written: such a registration would never be used.
    with pytest.raises(TypeError, match="cannot be NoneType: None is always JSON null"):
        register_type(type(None), schema={"type": "string"}, structure=str, unstructure=str)
    # A hook called with the value alone that needs more (a cattrs hook takes the type too):
    # every call failed as an "arguments" error, which the model could never fix.
    two = "`structure` must take one argument, the JSON value (got a callable taking (value, tp))"
    with pytest.raises(TypeError, match=re.escape(two) + r".*lambda value: hook\(value, Money\)"):
        register_type(Money, schema={}, structure=lambda value, tp: value, unstructure=str)
    with pytest.raises(TypeError, match=r"`unstructure` must take one argument, the value \(got"):
        register_type(Money, schema={}, structure=str, unstructure=lambda: "x")


def test_a_hook_wrapped_with_functools_wraps_is_read_by_its_own_signature() -> None:
    # inspect.signature follows __wrapped__: a wrapper binding the type to a cattrs-style hook,
    # the very fix the refusal advises, was refused for its target's (value, tp).
    def cattrs_hook(value: str, tp: type) -> object:
        return tp(value)

    @functools.wraps(cattrs_hook)
    def bound(value: str) -> object:
        return cattrs_hook(value, _Label)

    register_type(_Label, schema={"type": "string"}, structure=bound, unstructure=str)
    assert echo_tool(_Label).invoke({"value": "x"}).ok


class _Label(str):
    pass


def _holding_itself() -> dict[str, object]:
    schema: dict[str, object] = {"type": "object"}
    schema["properties"] = {"self": schema}
    return schema


@pytest.mark.parametrize(
    ("schema", "says"),
    [
        ({"type": "array", "items": {"$ref": "#/$defs/p"}}, "it uses '$ref'"),
        ({"$defs": {"p": {"type": "integer"}}}, "it uses '$defs'"),
        ({"anyOf": [{"$id": "urn:x"}]}, "it uses '$id'"),
        ({"type": "string", "pattern": r"^\p{L}+$"}, r"its pattern '^\\p{L}+$' is not a regular"),
        ({"type": "object", "patternProperties": {"[": {}}}, "its pattern '[' is not a regular"),
        ({"properties": {"a": {"pattern": 3}}}, "its pattern 3 is not a string"),
        ({"type": "strnig"}, "its type 'strnig' is not a JSON Schema type"),
        ({"type": ["string", "nul"]}, "its type 'nul' is not a JSON Schema type"),
        # What jsonschema's metaschema refuses, which failed each call (or built no toolset).
        ({"type": "string", "minLength": "3"}, "at /minLength, '3' is not of type 'integer'"),
        ({"anyOf": []}, "at /anyOf, [] should be non-empty"),
        ({"type": "number", "multipleOf": 0}, "at /multipleOf, 0 is less than or equal to"),
        ({"enum": 5}, "it is not a Draft 2020-12 JSON Schema: at /enum, 5 is not of type 'array'"),
        # Not JSON: the schema is exported as JSON.
        ({"type": "string", "default": Money}, "at /default, which is not a JSON value"),
        ({"maximum": float("nan")}, "it holds nan at /maximum, which is not a JSON number"),
        ({"properties": {"a": {"enum": [1, float("inf")]}}}, "inf at /properties/a/enum/1"),
        ({"properties": {1: {}}}, "a key that is not a string, 1, at /properties"),
        # A schema holding itself: the check went round it for ever.
        (_holding_itself(), "it holds itself at /properties/self, which no JSON value does"),
    ],
)
def test_a_schema_that_cannot_work_is_refused_when_registered(schema: object, says: str) -> None:
    """Found by a model's first call otherwise, as an internal error showing the schema."""

    class Custom:
        pass

    with pytest.raises(ValueError, match=r"^`schema` for .*Custom cannot be used: ") as caught:
        register_type(Custom, schema=schema, structure=str, unstructure=str)  # type: ignore[arg-type]
    assert says in str(caught.value)
    with pytest.raises(Unsupported):  # nothing was registered
        registry.spec(Custom)


class _Color:
    def __init__(self, name: str) -> None:
        self.name = name


register_type(
    _Color,
    schema={"oneOf": [{"enum": ["red", "green"]}, {"type": "string", "pattern": "^#[0-9a-f]{6}$"}]},
    structure=_Color,
    unstructure=lambda color: color.name,
)


class _Paint:
    """As `_Color`, its schema an anyOf: the checker compiles it (jsonschema checks a oneOf)."""

    def __init__(self, name: str) -> None:
        self.name = name


register_type(
    _Paint,
    schema={"anyOf": [{"enum": ["red", "green"]}, {"type": "string", "pattern": "^#[0-9a-f]{6}$"}]},
    structure=_Paint,
    unstructure=lambda paint: paint.name,
)


class _Tag:
    def __init__(self, value: int | str) -> None:
        self.value = value


register_type(
    _Tag, schema={"type": ["integer", "string"]}, structure=_Tag, unstructure=lambda t: t.value
)


@pytest.mark.parametrize("sent", [2.5, None, True])
@pytest.mark.parametrize("annotation", [_Color | int, int | _Color, _Paint | int, int | _Paint])
def test_a_union_with_a_registered_union_names_every_variant(
    sent: object, annotation: object
) -> None:
    # The value has the shape of neither branch of the registered type's oneOf: the union's
    # other variant was left out of what to send ("expected one of ['red', 'green'] or a
    # string" for an int | _Color parameter).
    result = echo_tool(annotation).invoke({"value": sent})
    assert result.error is not None
    message = result.error.details[0].message
    assert message.startswith(f"{json.dumps(sent)} is not valid here; expected ")
    assert "one of ['red', 'green'], a string or an integer" in message or (
        "an integer, one of ['red', 'green'] or a string" in message
    )
    # A string has the oneOf's shape: its own branch's words.
    refused = echo_tool(annotation).invoke({"value": "blue"})
    assert refused.error is not None
    assert "'blue' does not match '^#[0-9a-f]{6}$'" in refused.error.message
    assert echo_tool(annotation).invoke({"value": 3}).ok


def test_a_registered_schema_listing_its_types_says_them_in_a_union() -> None:
    result = echo_tool(_Tag | None).invoke({"value": 1.5})
    assert result.error is not None
    assert result.error.details[0].message == (
        "1.5 is not valid here; expected an integer, a string or null"
    )  # was "expected a valid value or null"


def test_a_schema_shared_without_holding_itself_is_json() -> None:
    class Shared:
        pass

    item = {"type": "integer"}
    schema = {"type": "object", "properties": {"a": item, "b": item}}
    register_type(Shared, schema=schema, structure=lambda _: Shared(), unstructure=str)
    assert registry.spec(Shared).schema == {
        "type": "object",
        "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
    }


class _Meta(type):
    def __eq__(cls, other: object) -> bool:  # no __hash__: its classes are unhashable
        return cls is other


class _Unhashed(metaclass=_Meta):
    def __init__(self, code: str) -> None:
        self.code = code


def test_a_class_its_metaclass_makes_unhashable_is_refused_with_the_reason() -> None:
    # Registered, it reached dicts keyed by class (strategies, cattrs' dispatch) with a bare
    # "unhashable type" TypeError.
    with pytest.raises(TypeError, match=r"`tp` must be hashable: _Unhashed's metaclass defines"):
        register_type(_Unhashed, schema={"type": "string"}, structure=_Unhashed, unstructure=str)
    assert registry.user_rule(_Unhashed) is None


def test_annotated_metadata_that_is_a_dict_builds_with_the_converter_imported() -> None:
    # cattrs keys its hooks by annotation: an unhashable one failed to_tools() once the
    # converter module was imported.
    import typed_toolsets.types.converter  # noqa: F401

    class Noted(Toolset):
        @tool
        def note(self, *, x: Annotated[int, {"doc": "a dict"}]) -> int:
            return x

    (note,) = Noted.to_tools()
    assert note.invoke({"x": 3}).value == 3
    assert note.invoke('{"x": 3, "t": "a:b"}').error is not None  # the exact path


def test_data_that_looks_like_a_reference_is_not_one() -> None:
    class Tagged:
        pass

    schema = {"const": {"$ref": "#/x"}, "default": {"pattern": "("}, "enum": [{"type": "?"}]}
    register_type(Tagged, schema=schema, structure=lambda _: Tagged(), unstructure=str)
    assert echo_tool(Tagged).parameters["properties"]["value"] == schema


def test_specs_are_cached_and_union_order_is_kept() -> None:
    assert registry.spec(list[int]) is registry.spec(list[int])
    first = registry.spec(Union[int, str])  # noqa: UP007
    second = registry.spec(Union[str, int])  # noqa: UP007
    assert first is not second
    assert [s["type"] for s in first.schema["anyOf"]] == ["integer", "string"]
    assert [s["type"] for s in second.schema["anyOf"]] == ["string", "integer"]


def test_equal_constraints_of_other_types_are_built_apart() -> None:
    # typing keeps these two apart (one names its type as a forward reference); the registry
    # must too: MultipleOf(2) checks integers exactly, MultipleOf(2.0) through floats.
    def take(n: Annotated["int", MultipleOf(2)]) -> None: ...  # noqa: UP037

    # A description of its own: typing's cache would hand back an Annotated[int, MultipleOf(2)]
    # built earlier by any other test (the two are equal), whose metadata holds 2.
    floaty = registry.spec(Annotated[int, MultipleOf(2.0), "floaty"])
    exact = registry.spec(typing.get_type_hints(take, include_extras=True)["n"])
    assert repr(floaty.schema) == "{'type': 'integer', 'multipleOf': 2.0, 'description': 'floaty'}"
    assert repr(exact.schema) == "{'type': 'integer', 'multipleOf': 2}"
    with pytest.raises(Reject):
        exact.structure(2**53 + 1)


def test_failed_builds_leave_nothing_half_built() -> None:
    @attrs.define
    class Half:
        good: int
        bad: object

    with pytest.raises(Unsupported, match=r"field .*Half\.bad"):
        registry.spec(Half)
    with pytest.raises(Unsupported):
        registry.spec(list[Half])


def test_def_names_are_per_document() -> None:
    def make() -> type:
        @attrs.define
        class Node:
            kids: list[Node]

        return Node

    first, second = make(), make()
    alone = registry.spec(first)
    assert registry.document(alone.schema, alone.refs) == {
        "$ref": "#/$defs/Node",
        "$defs": {
            "Node": {
                "type": "object",
                "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/Node"}}},
                "required": ["kids"],
                "additionalProperties": False,
            }
        },
    }
    both = registry.spec(tuple[first, second])  # type: ignore[valid-type]
    document = registry.document(both.schema, both.refs)
    assert sorted(document["$defs"]) == ["Node", "tests.test_registry.Node"]
    first_ref, second_ref = (item["$ref"] for item in document["prefixItems"])
    assert first_ref != second_ref
    assert document["$defs"][second_ref.removeprefix("#/$defs/")]["properties"]["kids"][
        "items"
    ] == {"$ref": second_ref}


@attrs.frozen
class Stamp:
    """Built as an object until a test registers it (as an integer)."""

    day: int


@attrs.frozen
class Log:
    stamp: Stamp
    older: Log | None = None


def test_registering_a_type_rebuilds_the_recursive_classes_that_hold_it() -> None:
    early = echo_tool(Log)  # builds Log's $defs entry with Stamp as an object
    register_type(Stamp, schema={"type": "integer"}, structure=Stamp, unstructure=lambda s: s.day)
    late = echo_tool(Log)
    assert late.parameters["$defs"]["Log"]["properties"]["stamp"] == {"type": "integer"}
    assert late.dynamic_call({"value": {"stamp": 3, "older": {"stamp": 2}}}) == {
        "value": Log(Stamp(3), Log(Stamp(2)))
    }
    (strict,) = export.openai_chat([late], strict=True)
    assert strict["function"]["parameters"]["$defs"]["Log"]["properties"]["stamp"] == {
        "type": "integer"
    }
    # The tool built before keeps the schema and hooks it was built with.
    assert early.parameters["$defs"]["Log"]["properties"]["stamp"]["type"] == "object"
    assert early.dynamic_call({"value": {"stamp": {"day": 3}}}) == {"value": Log(Stamp(3))}


def test_strict_hooks_reject() -> None:
    with pytest.raises(Reject):
        registry.spec(list[int]).structure("no")


@attrs.frozen
class Badge:
    code: str


def test_registering_a_type_the_converter_has_used_changes_its_hooks() -> None:
    # cattrs caches the hook it found for each type: registering must not leave the old one.
    assert converter.unstructure(Badge("a")) == {"code": "a"}
    assert converter.structure({"code": "a"}, Badge) == Badge("a")
    register_type(Badge, schema={"type": "string"}, structure=Badge, unstructure=lambda b: b.code)
    assert converter.unstructure(Badge("a")) == "a"
    assert converter.unstructure([Badge("a")], unstructure_as=list[Badge]) == ["a"]
    assert converter.structure("a", Badge) == Badge("a")
    register_type(
        Badge,
        schema={"type": "string"},
        structure=lambda text: Badge(text.lower()),
        unstructure=lambda b: b.code.upper(),
    )
    assert converter.unstructure(Badge("a")) == "A"
    assert converter.structure("A", Badge) == Badge("a")


@attrs.frozen
class Token:
    code: str


class _PausingRegistry:
    """The registry, pausing the thread named *who* at its second lookup of `Token`.

    The converter looks a type up twice while finding its hook (is it supported, then its
    spec): the pause falls after the second, before cattrs caches the hook made from it.
    """

    def __init__(self, who: str) -> None:
        self.who = who
        self.looked_up = 0
        self.paused = threading.Event()
        self.resume = threading.Event()

    def __getattr__(self, name: str) -> object:
        return getattr(registry, name)

    def spec(self, annotation: object) -> object:
        found = registry.spec(annotation)
        if annotation is Token and threading.current_thread().name == self.who:
            self.looked_up += 1
            if self.looked_up == 2:
                self.paused.set()
                self.resume.wait(10)
        return found


def test_registering_a_type_while_the_converter_finds_its_hook_does_not_keep_the_old_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A hook found from the old spec, cached after register_type cleared the cache, would be
    # the converter's hook for the type for good.
    from typed_toolsets.types import converter as converter_module

    register_type(Token, schema={"type": "string"}, structure=Token, unstructure=lambda t: "1")
    pausing = _PausingRegistry("finding")
    monkeypatch.setattr(converter_module, "registry", pausing)
    found: list[object] = []
    finding = threading.Thread(
        target=lambda: found.append(converter.unstructure(Token("a"))), name="finding"
    )
    finding.start()
    assert pausing.paused.wait(10)
    register_type(Token, schema={"type": "string"}, structure=Token, unstructure=lambda t: "2")
    pausing.resume.set()
    finding.join(10)
    assert found == ["1"]  # found before the new registration was made
    assert converter.unstructure(Token("a")) == "2"


class Amount:
    """A decimal-like amount its hooks write as a JSON number (Infinity and NaN too)."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Amount) and other.text == self.text

    def __hash__(self) -> int:
        return hash(self.text)


UNLIMITED = Amount("nan")


@attrs.frozen
class Order:
    limit: Amount = UNLIMITED


def test_a_default_written_as_nan_or_infinity_is_kept_out_of_the_schema() -> None:
    # It was written into "default" as NaN, which no JSON text (nor any provider) accepts.
    register_type(
        Amount,
        schema={"type": "number"},
        structure=lambda number: Amount(repr(float(number))),
        unstructure=lambda amount: float(amount.text),
    )
    cls = make_echo_toolset(
        [("order", Order, inspect.Parameter.empty), ("cap", Amount, Amount("inf"))]
    )
    proxy = cls.to_tools()[0]
    properties = proxy.parameters["properties"]
    assert "default" not in properties["cap"]
    assert "default" not in properties["order"]["properties"]["limit"]
    json.dumps(proxy.parameters, allow_nan=False)
    json.dumps(export.openai_chat([proxy], strict=True), allow_nan=False)
    # The defaults still apply when the model leaves them out (echo shows what was passed).
    assert proxy.dynamic_call({"order": {}}) == {"order": Order(UNLIMITED)}


class Opaque:
    def __init__(self, value: object) -> None:
        self.value = value


@pytest.mark.parametrize(
    ("form", "says"),
    [
        (lambda _: Opaque(1), "Object of type Opaque is not JSON serializable"),
        (lambda _: {b"key"}, "Object of type set is not JSON serializable"),
        (lambda _: (loop := [], loop.append(loop))[0], "Circular reference detected"),
    ],
)
def test_a_default_whose_json_form_is_not_json_is_a_definition_error(
    form: typing.Callable[[object], object], says: str
) -> None:
    # A TypeError escaped the class statement, or the check of a list holding itself never
    # ended (run in a thread so that the test can say so).
    register_type(Opaque, schema={}, structure=Opaque, unstructure=form)
    outcome: list[BaseException | None] = []

    def define() -> None:
        try:
            make_echo_toolset([("value", Opaque, Opaque(1))])
        except BaseException as exc:  # whatever it raised is the test's answer
            outcome.append(exc)
        else:
            outcome.append(None)

    thread = threading.Thread(target=define, daemon=True)
    thread.start()
    thread.join(10)
    assert outcome, "defining the toolset did not finish"
    error = outcome[0]
    assert isinstance(error, ToolsetDefinitionError)
    assert f"its JSON form is not JSON ({says}); unstructure must return JSON values" in str(error)


def test_registering_a_type_again_replaces_its_rule() -> None:
    # Each registration added a rule and kept the earlier ones, which could never match
    # again: rules piled up and every later build asked each of them first.
    class Ticket:
        def __init__(self, code: str) -> None:
            self.code = code

    before = len(registry.rules())
    for pattern in ("^[a-z]+$", "^[0-9]+$", "^[A-Z]+$"):
        register_type(
            Ticket,
            schema={"type": "string", "pattern": pattern},
            structure=Ticket,
            unstructure=lambda ticket: ticket.code,
        )
    assert len(registry.rules()) == before + 1
    assert registry.spec(Ticket).schema == {"type": "string", "pattern": "^[A-Z]+$"}


def test_a_user_rule_is_found_by_its_class_not_tried_in_turn() -> None:
    # Each lookup tried every registered type's rule in turn (and each registration copied
    # them): 4,000 registered types took seconds to build.
    from typed_toolsets.types.registry import Rule, TypeRegistry

    asked: list[type] = []

    def rule_of(cls: type) -> Rule:
        def predicate(annotation: object) -> bool:
            asked.append(cls)
            return annotation is cls

        return Rule(name=cls.__name__, predicate=predicate, factory=_never_built, replaces=cls)

    own = TypeRegistry(registry.builtin_rules())
    classes = [type(f"Kind{i}", (), {}) for i in range(300)]
    for cls in classes:
        own.add_user_rule(rule_of(cls))
    replaced = rule_of(classes[7])
    own.add_user_rule(replaced)  # registered again: the latest first, the earlier gone
    for cls in classes:
        asked.clear()
        found = own.rule_for(cls)
        assert found is not None
        assert found.name == cls.__name__
        assert asked == [cls]
    assert own.rule_for(classes[7]) is replaced
    assert [rule.name for rule in own.rules()[:2]] == ["Kind7", "Kind299"]
    assert len(own.rules()) == len(registry.builtin_rules()) + 300
    asked.clear()
    found = own.rule_for(int)
    assert found is not None
    assert not asked  # a class nobody registered asks no user rule
    with pytest.raises(ValueError, match="the rule of one class"):
        own.add_user_rule(Rule(name="any", predicate=lambda _: True, factory=_never_built))


def _never_built(annotation: object, builder: object) -> typing.NoReturn:
    raise AssertionError(annotation)


@dataclasses.dataclass
class _Unhashable:
    name: str

    def __hash__(self) -> int:  # refuses, but not with TypeError
        raise NotImplementedError


def test_a_value_that_refuses_hashing_is_no_literal_value() -> None:
    spec = registry.spec(Union[Literal["none"], _Unhashable])  # noqa: UP007
    assert spec.unstructure("none") == "none"
    assert spec.unstructure(_Unhashable("x")) == {"name": "x"}
