"""The strict form of a type given with `register_type`: ``null`` for a property its schema makes
optional means that property left out, as the strict export tells the model, at any depth."""

from __future__ import annotations

import json
from typing import Any

import attrs
import pytest
from jsonschema import Draft202012Validator

from typed_toolsets import ExportError, Toolset, register_type, tool
from typed_toolsets.export import anthropic, dispatch, gemini, openai_chat
from typed_toolsets.testing import _seams


@attrs.frozen
class Money:
    given: dict[str, Any]


register_type(
    Money,
    schema={
        "type": "object",
        "properties": {
            "amount": {"type": "integer"},
            "currency": {"type": "string", "default": "EUR"},
            "parts": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {"k": {"type": "integer"}, "note": {"type": "string"}},
                    "required": ["k"],
                    "additionalProperties": False,
                },
            },
            "rate": {
                "anyOf": [
                    {
                        "type": "object",
                        "properties": {"p": {"type": "integer"}},
                        "additionalProperties": False,
                    },
                    {"type": "integer"},
                ]
            },
        },
        "required": ["amount"],
        "additionalProperties": False,
    },
    structure=Money,
    unstructure=lambda money: money.given,
)


class Bank(Toolset):
    @tool
    def pay(self, *, money: Money) -> Money:
        return money


def test_null_for_an_optional_property_of_a_registered_schema_leaves_it_out() -> None:
    (proxy,) = Bank.to_tools()
    sent = {
        "money": {
            "amount": 1,
            "currency": None,
            "parts": [{"k": 2, "note": None}],
            "rate": {"p": None},
        }
    }
    # What the strict export told the model: every one of those nulls is valid.
    assert Draft202012Validator(proxy.strict_parameters).is_valid(sent)
    expected = Money({"amount": 1, "parts": [{"k": 2}], "rate": {}})
    text = json.dumps(sent)
    assert dispatch([proxy], "bank_pay", text, strict=True) == expected
    assert dispatch([proxy], "bank_pay", sent, strict=True) == expected
    assert _seams.fast_path(proxy, text, strict=True) == {"money": expected}
    assert _seams.exact_path(proxy, sent, strict=True) == {"money": expected}
    # The standard form, and a key left out under strict, read as before.
    left_out = {"money": {"amount": 1, "parts": [{"k": 2}], "rate": {}}}
    assert dispatch([proxy], "bank_pay", left_out) == expected
    assert dispatch([proxy], "bank_pay", left_out, strict=True) == expected
    assert dispatch([proxy], "bank_pay", {"money": {"amount": 1, "rate": 3}}, strict=True) == (
        Money({"amount": 1, "rate": 3})
    )


def test_a_null_the_registered_schema_does_not_make_optional_is_still_refused() -> None:
    (proxy,) = Bank.to_tools()
    refused = dispatch([proxy], "bank_pay", {"money": {"amount": None}}, strict=True)
    assert isinstance(refused, str)
    assert refused.startswith("Error: Invalid arguments for tool 'bank_pay': money")
    refused = dispatch(
        [proxy], "bank_pay", {"money": {"amount": 1, "parts": [{"k": None}]}}, strict=True
    )
    assert isinstance(refused, str)
    assert refused.startswith("Error: Invalid arguments for tool 'bank_pay': money")


@attrs.frozen
class Loose:
    given: dict[str, Any]


# Boolean subschemas are JSON Schema too, and register_type takes them.
register_type(
    Loose,
    schema={
        "type": "object",
        "properties": {"any": True, "never": False, "n": {"type": "integer"}},
        "prefixItems": [True],
        "required": ["any"],
        "additionalProperties": False,
    },
    structure=Loose,
    unstructure=lambda loose: loose.given,
)


class Lenient(Toolset):
    @tool
    def take(self, *, loose: Loose) -> Loose:
        return loose


def test_boolean_subschemas_of_a_registered_schema_are_read_in_strict_mode() -> None:
    (proxy,) = Lenient.to_tools()
    sent = {"loose": {"any": [1], "never": None, "n": None}}
    strict = proxy.strict_parameters  # was AttributeError: 'bool' object has no attribute 'get'
    loose = strict["properties"]["loose"]
    assert loose["properties"]["any"] is True
    assert loose["properties"]["never"]["anyOf"] == [False, {"type": "null"}]
    assert Draft202012Validator(strict).is_valid(sent)
    expected = Loose({"any": [1]})
    # Was "they could not be processed (TypeError: 'bool' object is not iterable)".
    assert dispatch([proxy], "lenient_take", sent, strict=True) == expected
    assert dispatch([proxy], "lenient_take", json.dumps(sent), strict=True) == expected
    assert dispatch([proxy], "lenient_take", {"loose": {"any": None}}) == Loose({"any": None})


@attrs.frozen
class Contact:
    given: dict[str, Any]


# Either key must be given: branches that only say which properties are required.
register_type(
    Contact,
    schema={
        "type": "object",
        "properties": {"email": {"type": "string"}, "phone": {"type": "string"}},
        "anyOf": [{"required": ["email"]}, {"required": ["phone"]}],
        "additionalProperties": False,
    },
    structure=Contact,
    unstructure=lambda contact: contact.given,
)


class Book(Toolset):
    @tool
    def add(self, *, contact: Contact) -> Contact:
        return contact


def test_a_branch_that_only_requires_properties_is_refused_in_strict_mode() -> None:
    (proxy,) = Book.to_tools()
    # Was a strict schema with "anyOf": [{}, {}] (each branch's required dropped, so it told the
    # model {"email": null, "phone": null} was valid), which the dialects refused as "a schema
    # with no type {}" with the advice to give the schema a type (it has one).
    with pytest.raises(ExportError) as caught:
        _ = proxy.strict_parameters
    assert caught.value.problems == tuple(
        "Tool 'book_add' has no lossless strict schema: parameter 'contact' has a schema that "
        f'only requires the properties ["{key}"] (no properties of its own, as in a branch of a '
        "registered type's anyOf); in strict mode every property is sent (null standing for one "
        "not given), so it would require nothing; give the registered schema one complete "
        "object schema per case (its properties, required and additionalProperties: false), or "
        "export it with strict=False"
        for key in ("email", "phone")
    )
    for export in (openai_chat, anthropic):
        with pytest.raises(ExportError) as caught:
            export([proxy], strict=True)
        assert all("only requires the properties" in p for p in caught.value.problems)
    # Strict calls still read it, against the schema as registered.
    assert dispatch(
        [proxy], "book_add", {"contact": {"email": "a@b.c", "phone": None}}, strict=True
    ) == (Contact({"email": "a@b.c"}))
    refused = dispatch(
        [proxy], "book_add", {"contact": {"email": None, "phone": None}}, strict=True
    )
    assert isinstance(refused, str)
    assert refused.startswith("Error: Invalid arguments for tool 'book_add': contact")


@attrs.frozen
class Layered:
    given: dict[str, Any]


@attrs.frozen
class Closed:
    given: dict[str, Any]


# An object inside allOf: not closed, and its property m may be left out.
register_type(
    Layered,
    schema={"allOf": [{"type": "object", "properties": {"m": {"type": "integer"}}}]},
    structure=Layered,
    unstructure=lambda layered: layered.given,
)
# The same object already in strict form: nothing to change.
register_type(
    Closed,
    schema={
        "allOf": [
            {
                "type": "object",
                "properties": {"m": {"type": "integer"}},
                "required": ["m"],
                "additionalProperties": False,
            }
        ]
    },
    structure=Closed,
    unstructure=lambda closed: closed.given,
)


class Layers(Toolset):
    @tool
    def loose(self, *, layered: Layered) -> Layered:
        return layered

    @tool
    def closed(self, *, closed: Closed) -> Closed:
        return closed


def test_an_object_inside_a_registered_all_of_is_made_strict_or_refused() -> None:
    loose, closed = Layers.to_tools()
    # Was sent to Anthropic's strict mode as it was: an object there without
    # additionalProperties: false nor m required, which strict mode refuses (the SDK's own
    # transform closes it).
    with pytest.raises(ExportError) as caught:
        anthropic([loose], strict=True)
    assert caught.value.problems == (
        (
            "Tool 'layers_loose' has no lossless strict schema: parameter 'layered' is an object "
            "with free-form keys (such as dict[str, T]); strict mode needs additionalProperties: "
            "false, which would admit only {}; use a list of key/value objects or an attrs class, "
            "or export it with strict=False"
        ),
        (
            "Tool 'layers_loose' has no lossless strict schema: parameter 'layered' at "
            "$.layered.m is an optional property inside an allOf or oneOf (of a registered type's "
            "schema), where strict mode, which sends every property, cannot say it was left out; "
            "require it there, or write the cases as anyOf, or export it with strict=False"
        ),
    )
    (entry,) = anthropic([closed], strict=True)
    assert entry["input_schema"]["properties"]["closed"] == {
        "allOf": [
            {
                "type": "object",
                "properties": {"m": {"type": "integer"}},
                "required": ["m"],
                "additionalProperties": False,
            }
        ]
    }
    assert dispatch([closed], "layers_closed", {"closed": {"m": 1}}, strict=True) == (
        Closed({"m": 1})
    )


@attrs.frozen
class Counts:
    given: dict[str, int]


@attrs.frozen
class Labelled:
    given: dict[str, Any]


# Keys beyond the named ones, by pattern: open to those though additionalProperties is false.
register_type(
    Counts,
    schema={
        "type": "object",
        "patternProperties": {"^x": {"type": "integer"}},
        "additionalProperties": False,
    },
    structure=Counts,
    unstructure=lambda counts: counts.given,
)
# Named properties, and any other key (no additionalProperties: open by default).
register_type(
    Labelled,
    schema={"type": "object", "properties": {"k": {"type": "string"}}, "required": ["k"]},
    structure=Labelled,
    unstructure=lambda labelled: labelled.given,
)


class Tally(Toolset):
    @tool
    def total(self, *, counts: Counts) -> int:
        return sum(counts.given.values())

    @tool
    def label(self, *, labelled: Labelled) -> int:
        return len(labelled.given)


def test_an_object_keyed_by_patterns_is_refused_in_strict_mode_not_closed() -> None:
    # Its strict form was closed to {} (the keys its patterns admit then refused by the grammar
    # the model is held to), where dict[str, T] is refused.
    total, _ = Tally.to_tools()
    assert total.dynamic_call({"counts": {"xa": 2, "xb": 3}}) == 5
    for export in (openai_chat, anthropic):
        with pytest.raises(ExportError) as caught:
            export([total], strict=True)
        assert caught.value.problems == (
            (
                "Tool 'tally_total' has no lossless strict schema: parameter 'counts' is an object "
                "with free-form keys (such as dict[str, T]); strict mode needs additionalProperties: "
                "false, which would admit only {}; use a list of key/value objects or an attrs "
                "class, or export it with strict=False"
            ),
        )


def test_gemini_says_why_it_cannot_write_an_object_of_patterns_or_notes_an_open_one() -> None:
    total, label = Tally.to_tools()
    # Not "an object with no fields ... it can only be {}": it admits {"xa": 2}.
    with pytest.raises(ExportError, match="parameter 'counts' is an object with free-form keys"):
        gemini([total])
    # The named property is written, and the other keys it takes are noted, as an explicit
    # additionalProperties is: they were dropped without a word.
    (declaration,) = gemini([label])
    assert declaration["parameters"]["properties"]["labelled"] == {
        "type": "object",
        "properties": {"k": {"type": "string"}},
        "required": ["k"],
        "description": 'JSON Schema: {"additionalProperties": true}',
    }
    assert label.dynamic_call({"labelled": {"k": "a", "extra": 1}}) == 2
