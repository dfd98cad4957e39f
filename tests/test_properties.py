"""The core properties: schema, validator and converter agree, for every generated type.

1. Every generated schema is a valid Draft 2020-12 schema.
2. value -> unstructure -> JSON text -> validates -> structure -> equal to the value (for unions:
   when the union is unambiguous), directly and through a tool's ``dynamic_call``.
3. The converse: JSON instances generated from the schema itself, that the validator accepts,
   structure without error.
4. ``dynamic_call`` on arbitrary JSON and arbitrary Python objects returns a value or an
   ``"Error: "`` string and never raises.
5. The fast path (the strict structuring hooks) and jsonschema give the same verdict on valid and
   invalid instances.
"""

from __future__ import annotations

import json
import math
from typing import Any

from hypothesis import assume, given, note, reject
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema
from jsonschema import Draft202012Validator

from tests.strategies.annotations import Case, cases, json_values, text
from tests.strategies.toolsets import echo_tool, toolsets
from typed_toolsets.call.jsonin import parse_strict
from typed_toolsets.types.catalog import registry
from typed_toolsets.types.converter import converter, structure_hook
from typed_toolsets.types.typespec import Reject, Schema
from typed_toolsets.types.validator import make_validator

_FORMATS = {
    "uuid": st.uuids().map(str),
}


def root_schema(annotation: object) -> Schema:
    """The schema of *annotation* as a standalone document (with its ``$defs``)."""
    spec = registry.spec(annotation)
    return registry.document(spec.schema, spec.refs)


def unrolled(schema: Schema, depth: int = 3) -> Schema:
    """*schema* with its ``$ref``s inlined *depth* times and then refused (``false``).

    hypothesis-jsonschema cannot generate from recursive schemas; every instance of the unrolled
    schema is an instance of the original, so it still tests the converse property.
    """
    defs: dict[str, Schema] = schema.get("$defs", {})

    def walk(node: object, level: int) -> object:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/$defs/"):
                target = defs[ref.removeprefix("#/$defs/")]
                rest = {k: v for k, v in node.items() if k != "$ref"}
                inner = walk(target, level + 1) if level < depth else False
                return {"allOf": [inner, walk(rest, level)]} if rest else inner
            return {k: walk(v, level) for k, v in node.items() if k != "$defs"}
        if isinstance(node, list):
            return [walk(v, level) for v in node]
        return node

    result = walk(schema, 0)
    assert isinstance(result, dict)
    return result


def schema_instances(schema: Schema) -> st.SearchStrategy[object]:
    """JSON instances generated from *schema* (recursive schemas unrolled first)."""
    return from_schema(unrolled(schema) if "$defs" in schema else schema, custom_formats=_FORMATS)


def fast_verdict(annotation: object, instance: object) -> bool:
    """Whether the strict structuring hook accepts *instance* (a build failure counts as accepted:
    the value matched the schema but the class refused it)."""
    try:
        structure_hook(annotation)(instance)
    except Reject:
        return False
    except Exception:
        return True
    return True


@given(cases())
def test_every_schema_is_valid_draft_2020_12(case: Case) -> None:
    note(repr(case.annotation))
    Draft202012Validator.check_schema(root_schema(case.annotation))


@given(cases(), st.data())
def test_round_trip_through_json(case: Case, data: st.DataObject) -> None:
    note(repr(case.annotation))
    value = data.draw(case.values, label="value")
    unstructured = converter.unstructure(value, unstructure_as=case.annotation)
    text_form = json.dumps(unstructured, ensure_ascii=False)
    parsed = parse_strict(text_form)
    validator = make_validator(root_schema(case.annotation))
    assert validator.is_valid(parsed), list(validator.iter_errors(parsed))
    structured = converter.structure(parsed, case.annotation)
    if case.exact:
        assert structured == value


@given(cases(max_leaves=4), st.data())
def test_round_trip_through_a_tool(case: Case, data: st.DataObject) -> None:
    note(repr(case.annotation))
    value = data.draw(case.values, label="value")
    proxy = echo_tool(case.annotation)
    arguments = json.dumps({"value": converter.unstructure(value, unstructure_as=case.annotation)})
    result = proxy.invoke(arguments)
    assert result.ok, result.error
    if case.exact:
        assert result.value == {"value": value}


@given(cases(), st.data())
def test_instances_of_the_schema_structure(case: Case, data: st.DataObject) -> None:
    note(repr(case.annotation))
    schema = root_schema(case.annotation)
    instance = data.draw(schema_instances(schema), label="instance")
    assume(make_validator(schema).is_valid(instance))
    try:
        converter.structure(instance, case.annotation)
    except OverflowError:
        # A JSON integer beyond the float range, in a float field: valid, but not a float. The
        # call path reports it as an argument error at that path (documented).
        reject()


def _mutations(value: object) -> st.SearchStrategy[object]:
    """Instances near *value*: one part replaced by arbitrary JSON, a key added or removed."""
    if isinstance(value, dict) and value:
        keys = sorted(value)
        return st.one_of(
            st.sampled_from(keys).flatmap(
                lambda k: _mutations(value[k]).map(lambda v: {**value, k: v})
            ),
            st.sampled_from(keys).map(lambda k: {kk: vv for kk, vv in value.items() if kk != k}),
            text.map(lambda k: {**value, k: None}),
        )
    if isinstance(value, list) and value:
        return st.integers(0, len(value) - 1).flatmap(
            lambda i: _mutations(value[i]).map(lambda v: [*value[:i], v, *value[i + 1 :]])
        ) | st.just([*value, *value])
    return json_values


@given(cases(), st.data())
def test_fast_path_and_jsonschema_agree(case: Case, data: st.DataObject) -> None:
    note(repr(case.annotation))
    schema = root_schema(case.annotation)
    validator = make_validator(schema)
    valid = converter.unstructure(
        data.draw(case.values, label="value"), unstructure_as=case.annotation
    )
    instance = data.draw(
        st.one_of(st.just(valid), _mutations(valid), json_values, schema_instances(schema)),
        label="instance",
    )
    assert fast_verdict(case.annotation, instance) == validator.is_valid(instance)


@given(toolsets(), st.data())
def test_argument_objects_agree_with_jsonschema(generated: Any, data: st.DataObject) -> None:
    cls, params = generated
    proxy = cls.to_tools()[0]
    validator = make_validator(proxy.parameters)
    valid = {
        name: converter.unstructure(data.draw(case.values), unstructure_as=case.annotation)
        for name, case, defaulted in params
        if not defaulted or data.draw(st.booleans())
    }
    instance = data.draw(
        st.one_of(st.just(valid), _mutations(valid), json_values), label="instance"
    )
    result = proxy.invoke(instance if isinstance(instance, dict) else {"arguments": instance})
    if isinstance(instance, dict) and validator.is_valid(instance):
        assert result.ok or result.error.kind == "arguments", result
        if not result.ok:
            # Valid JSON that cannot be built: only a float overflow can do that here.
            assert "OverflowError" in result.error.message
    else:
        assert not result.ok
        assert result.error.kind == "arguments"
        assert result.error.details


# --------------------------------------------------------------------------- never raises

_objects = st.one_of(
    json_values,
    st.builds(object),
    st.binary(),
    st.floats(),
    st.complex_numbers(),
    st.dictionaries(st.integers() | st.tuples(st.integers()), json_values, max_size=3),
    st.lists(st.builds(object) | st.sets(st.integers()), max_size=3),
    st.recursive(
        st.none(),
        lambda inner: st.lists(inner, max_size=2) | st.dictionaries(text, inner, max_size=2),
    ),
)


@given(toolsets(), st.data())
def test_dynamic_call_never_raises(generated: Any, data: st.DataObject) -> None:
    cls, _ = generated
    proxy = cls.to_tools()[0]
    arguments = data.draw(
        st.one_of(
            _objects,
            json_values.map(json.dumps),
            json_values.map(lambda v: json.dumps(v).encode()),
            st.text(),
            st.binary(),
            st.dictionaries(text, _objects, max_size=3),
        ),
        label="arguments",
    )
    result = proxy.dynamic_call(arguments)
    assert isinstance(result, dict) or (isinstance(result, str) and result.startswith("Error: "))
    invoked = proxy.invoke(arguments)
    assert invoked.ok == isinstance(result, dict)


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_float_values_survive_json(number: float) -> None:
    proxy = echo_tool(float)
    result = proxy.dynamic_call(json.dumps({"value": number}))
    assert result == {"value": number}
    assert math.copysign(1, result["value"]) == math.copysign(1, number)
