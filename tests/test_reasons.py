"""`rules.reasons`: each reason an annotation (or a default) has no JSON form is written there alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from typed_toolsets.rules import reasons

SOURCE = Path(reasons.__file__).parent.parent
#: Each reason's own words (between the values it is given), as a second copy would repeat them.
WORDS: dict[str, str] = {
    "ANY": reasons.ANY,
    "BYTES": reasons.BYTES,
    "CALLABLES": reasons.CALLABLES,
    "CLASSES": reasons.CLASSES,
    "EMPTY_LITERAL": reasons.EMPTY_LITERAL,
    "GENERIC_TYPE_ALIAS": reasons.GENERIC_TYPE_ALIAS,
    "LITERAL_STRING": reasons.LITERAL_STRING,
    "NEVER": reasons.NEVER,
    "OBJECT": reasons.OBJECT,
    "OMITTED_PARAMETERS": reasons.OMITTED_PARAMETERS,
    "RECURSIVE_ALIAS": reasons.RECURSIVE_ALIAS,
    "TYPE_PREDICATE": reasons.TYPE_PREDICATE,
    "enum_value": "is not a JSON string, number, boolean or null",
    "field_none_default": "does not admit null; add `| None` to its annotation",
    "field_reason": "",  # `field C.f: <reason>`: no words of its own
    "flag_values": "is a Flag whose members combine into more than",
    "generic_struct": "is generic; generic structs are not supported",
    "init_var_field": "has the InitVar field",
    "literal_value": "is bytes; JSON has no bytes",
    "missing_parameters": "needs its type parameters (for example",
    "no_members": "has no members",
    "no_variant": "none of the variants of",
    "not_a": "",  # `True is not an int`: words of the type's own
    "not_a_struct": "is not an attrs class, dataclass, TypedDict, NamedTuple, enum",
    "not_finite": "is not a finite number",
    "str_keys": "only str keys are supported, as JSON object keys are strings; use dict[str, ...] and convert or check the keys in the method",
    "type_variable": "the type variable",
    "unannotated_field": "",  # `field C.f has no type annotation`: a parameter's says it too
    "wrong_parameters": "type parameters, not",
}
#: Said by one side only: mypy reads LiteralString as str and TypeGuard as bool; only mypy
#: omits parameters so; mypy reports a wrong number of them itself ([type-arg]).
ONE_SIDE = {
    "EMPTY_LITERAL": "types",
    "LITERAL_STRING": "types",
    "OMITTED_PARAMETERS": "plugin",
    "TYPE_PREDICATE": "types",
    "wrong_parameters": "types",
}


def test_every_reason_is_listed_here() -> None:
    assert set(WORDS) == set(reasons.__all__)


def test_the_words_are_the_reasons_own() -> None:
    rendered = {
        "enum_value": reasons.enum_value("E", "A", None),
        "field_none_default": reasons.field_none_default("C.f", "int"),
        "flag_values": reasons.flag_values("F", 1024),
        "generic_struct": reasons.generic_struct("Page"),
        "init_var_field": reasons.init_var_field("C", "f"),
        "literal_value": reasons.literal_value("Literal[b'x']", is_bytes=True),
        "missing_parameters": reasons.missing_parameters("builtins.dict", "dict"),
        "no_members": reasons.no_members("E"),
        "no_variant": reasons.no_variant("True", "int | None"),
        "not_finite": reasons.not_finite("True"),
        "not_a_struct": reasons.not_a_struct("C"),
        "str_keys": reasons.str_keys("int"),
        "type_variable": reasons.type_variable("T"),
        "wrong_parameters": reasons.wrong_parameters("builtins.dict", "dict", 1),
    }
    assert set(rendered) == {name for name in WORDS if name.islower() and WORDS[name]}
    for name, text in rendered.items():
        assert WORDS[name] in text, name


@pytest.mark.parametrize("name", sorted(n for n in WORDS if WORDS[n]))
def test_its_words_are_written_nowhere_else(name: str) -> None:
    copies = [
        path.relative_to(SOURCE).as_posix()
        for path in SOURCE.rglob("*.py")
        if path.name != "reasons.py" and WORDS[name] in path.read_text(encoding="utf-8")
    ]
    assert copies == []


@pytest.mark.parametrize("name", sorted(WORDS))
@pytest.mark.parametrize("side", ["types", "plugin"])
def test_both_sides_word_it_with_this_module(name: str, side: str) -> None:
    if ONE_SIDE.get(name, side) != side:
        pytest.skip(f"only {ONE_SIDE[name]} says it")
    uses = (f"reasons.{name}" in path.read_text("utf-8") for path in (SOURCE / side).rglob("*.py"))
    assert any(uses)
