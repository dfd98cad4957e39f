"""The library's words over jsonschema's own errors: the same problems the checker finds.

For a schema the checker does not compile itself (a registered type using keywords the library
never writes) jsonschema finds the problems, and `expand` turns each of its errors into the
problems it stands for, worded by `typed_toolsets.call.validation`; `problems` does so for a
whole instance, the reference the checker is tested against. jsonschema is imported only by the
validators that produce the errors.
"""

from __future__ import annotations

import itertools
import re
import typing
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any, Final

from typed_toolsets.types.typespec import Path, json_key, kind_admitted, schema_kind

from .keywords import type_implied
from .shown import short, short_text
from .validation import (
    SHALLOW_KEYWORDS,
    Problem,
    as_dict,
    collect,
    counted,
    join_phrases,
    keyword_reason,
    missing,
    unexpected,
    union_expectation,
    union_mismatch,
)

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import ValidationError

__all__ = [
    "closest",
    "expand",
    "has_tags",
    "is_tag_error",
    "no_variant",
    "problems",
    "shallow_error",
    "tag_mismatch",
]


def _property_names(schema: object) -> list[str]:
    return list(as_dict(as_dict(schema).get("properties")))


def expand(error: ValidationError, prefix: Path = (), root: object = None) -> Iterator[Problem]:
    """The problems one jsonschema error stands for; its path is below *prefix*.

    *root* is the whole schema the error comes from: a union reads its variants' tags there
    (through their ``$ref``s).
    """
    path: Path = (*prefix, *error.absolute_path)
    keyword = str(error.validator)
    if keyword == "type" and type_implied(as_dict(error.schema)):
        return  # the enum's or constant's problem says it
    if keyword == "required":
        instance = as_dict(error.instance)
        names: list[str] = typing.cast(Any, error.validator_value)
        for name in names:
            if name not in instance:
                yield (*path, name), missing(top=not path)
        return
    if keyword == "additionalProperties" and error.validator_value is False:
        schema = as_dict(error.schema)
        allowed = _property_names(schema)
        # Keys a pattern admits are not additional (jsonschema searches each pattern in the key).
        patterns = list(as_dict(schema.get("patternProperties")))
        expected = [*allowed, *(f"keys matching {short(p)}" for p in patterns)]
        for name in as_dict(error.instance):
            if name not in allowed and not any(re.search(p, name) for p in patterns):
                yield (*path, name), unexpected(expected, top=not path)
        return
    if keyword == "dependentRequired":
        # One error per missing name, none saying which: each gives them all (collected once).
        instance = as_dict(error.instance)
        for name, needed in as_dict(error.validator_value).items():
            if name in instance:
                for other in typing.cast("list[str]", needed):
                    if other not in instance:
                        yield (*path, other), f"missing; required when {short(name)} is present"
        return
    if keyword in ("anyOf", "oneOf"):
        yield from _union_problems(error, path, prefix, root)
        return
    reason = keyword_reason(keyword, error.validator_value, error.instance)
    if reason is None:
        reason = _schema_reason(error) or short_text(error.message)
    if "propertyNames" in error.relative_schema_path and _of_a_key(error.relative_schema_path):
        # jsonschema checks each key as an instance at the object's own path: say it is a key.
        reason = f"the key {reason}"
    yield path, reason


#: Keywords whose value maps names to subschemas, and those whose value lists subschemas: the
#: next part of a schema path is a name or an index, not a keyword.
_NAMED: Final = frozenset({"properties", "patternProperties", "$defs", "dependentSchemas"})
_LISTED: Final = frozenset({"allOf", "anyOf", "oneOf", "prefixItems"})


def _of_a_key(schema_path: Iterable[str | int]) -> bool:
    """Whether an error at *schema_path* is about a key (``propertyNames``, as a keyword)."""
    keyword = True
    for part in schema_path:
        if not keyword:
            keyword = True  # a name or an index: a keyword follows it
        elif part == "propertyNames":
            return True  # below it the instance is a key (a string: nothing below that)
        elif part in _NAMED or part in _LISTED:
            keyword = False
    return False


def _schema_reason(error: ValidationError) -> str | None:
    """JSON words for a keyword that needs the rest of its schema to say what went wrong."""
    # jsonschema types it as a keyword, but a `false` schema's error has none.
    keyword = typing.cast(object, error.validator)
    value, instance = error.validator_value, error.instance
    shown = short(instance)
    if keyword is None:  # a `false` schema: no value is allowed there
        return f"{shown} is not allowed here; leave it out"
    schema = as_dict(error.schema)
    if keyword == "items" and value is False and isinstance(instance, list):
        allowed = len(typing.cast("list[object]", schema.get("prefixItems", [])))
        size = len(typing.cast("list[object]", instance))
        return f"has {size} {counted(size, 'item', 'items')}, more than the {allowed} allowed"
    if keyword in ("minContains", "maxContains"):
        matching = short(schema.get("contains"))
        bound = "fewer than" if keyword == "minContains" else "more than"
        items = counted(value, "item", "items")
        return f"{shown} has {bound} {value} {items} matching {matching}"
    if keyword == "unevaluatedItems":
        return f"{shown} has more items than its schema allows"
    if keyword == "unevaluatedProperties":
        return f"{shown} has entries its schema does not allow; send only the declared ones"
    return None


def shallow_error(error: ValidationError) -> bool:
    """Whether *error* says its value has not even the shape of the schema (at the error's path).

    A type, enum, const or format failure; or a union (``anyOf``, ``oneOf``) none of whose
    branches the value has the shape of, as a union of the checker's own says it (a registered
    type's ``oneOf`` of an enum and a pattern, given a number).
    """
    if error.validator in SHALLOW_KEYWORDS:
        return True
    if error.validator not in _UNIONS or not error.context:
        return False
    branches: dict[int, bool] = {}
    for sub in error.context:
        index = int(sub.relative_schema_path[0])
        branches[index] = branches.get(index, False) or (
            not sub.relative_path and shallow_error(sub)
        )
    return all(branches.values())


_UNIONS: Final = frozenset({"anyOf", "oneOf"})


def _union_problems(
    error: ValidationError, path: Path, prefix: Path, root: object
) -> Iterator[Problem]:
    options = typing.cast("list[object]", error.validator_value)
    if error.validator == "oneOf" and not error.context:  # it matched more than one
        shown = short(error.instance)
        expected = union_expectation(options)
        yield path, f"{shown} matches more than one of {expected}; send one matching exactly one"
        return
    branches: dict[int, list[ValidationError]] = {}
    for sub in error.context or ():
        branches.setdefault(int(sub.relative_schema_path[0]), []).append(sub)
    # A branch "got somewhere" when the value had its shape: none of its errors is about the
    # value's type, enum, constant or format at this very path. The first of those with tags
    # (properties of one constant: Literal fields) the value does not contradict is the variant
    # it meant; without one, the one it is nearest (`closest`).
    progressed = [
        (index, errors)
        for index, errors in sorted(branches.items())
        if not any((*prefix, *e.absolute_path) == path and shallow_error(e) for e in errors)
    ]
    meant = [
        errors
        for index, errors in progressed
        if has_tags(options[index], root) and not any(is_tag_error(e) for e in errors)
    ]
    if not meant:
        found = tag_mismatch(error.instance, [options[i] for i, _ in progressed], root)
        if found:
            for key, reason in found:
                yield (*path, key), reason
            return
    if meant:
        chosen = meant[0]
    elif progressed:
        shaped = [options[i] for i, _ in progressed]
        nearest = closest(error.instance, shaped, root)
        if nearest is None:
            yield path, no_variant(error.instance, shaped, root)
            return
        chosen = progressed[nearest][1]
    else:
        chosen = []
    if chosen:
        for sub in chosen:
            yield from expand(sub, prefix, root)
        return
    yield path, union_mismatch(error.instance, options)


def is_tag_error(error: ValidationError) -> bool:
    """Whether *error* says that a property of one constant (a tag) holds another value."""
    if error.validator != "const" or len(error.path) != 1:
        return False
    (key,) = error.path
    return list(error.relative_schema_path)[-3:-1] == ["properties", key]


def has_tags(schema: object, root: object) -> bool:
    """Whether *schema* (its ``$ref`` followed in *root*) has a property of one constant."""
    return bool(_tags(schema, root))


def _resolved(schema: object, root: object) -> dict[str, Any]:
    """*schema* with its ``$ref`` followed in *root* (to the schema that has no reference)."""
    seen: list[object] = []
    found = as_dict(schema)
    while "$ref" in found and found not in seen:
        seen.append(found)
        found = as_dict(_pointed(root, found["$ref"]))
    return found


def _tags(schema: object, root: object) -> dict[str, object]:
    """The tags of *schema* (its ``$ref`` followed in *root*): property name to its constant."""
    properties = as_dict(_resolved(schema, root).get("properties"))
    return {name: sub["const"] for name, sub in properties.items() if "const" in as_dict(sub)}


def closest(instance: object, options: list[object], root: object) -> int | None:
    """Which of *options*, variants *instance* has the shape of (in declared order), it is nearest.

    For an object, the variant that leaves the fewest of its keys undeclared (in a closed
    object) and of its own required keys absent. So ``{"b": 1}`` sent for ``A | B`` is told
    that ``b`` wants a string (B's problem), not that ``b`` is unexpected and ``a`` missing
    (A's), which is false of the union. Among variants whose keys all fit, the one with the
    fewest members of the wrong JSON type (`_misfits`, one level deep: linear in the object,
    however deep the variants recurse), the first of those in declared order. So
    ``{"x": "s", "next": ...}`` for ``A(x: int, next) | B(x: str, next)`` is judged as a B.

    None when the object's keys are wrong for two or more variants alike (``{}`` for a union of
    objects each with a required key): no variant is nearer, and the problems of the first
    would say "expected only" its keys, which is false of the union (`no_variant` says why).
    """
    if type(instance) is not dict or len(options) < 2:
        return 0
    members = typing.cast("dict[str, object]", instance)
    fewest, nearest = -1, list[tuple[int, dict[str, Any]]]()
    for index, option in enumerate(options):
        found = _resolved(option, root)
        properties = as_dict(found.get("properties"))
        required = typing.cast("list[object]", found.get("required", []))
        undeclared = (
            sum(1 for key in members if key not in properties)
            if found.get("additionalProperties") is False
            else 0
        )
        absent = sum(1 for name in required if isinstance(name, str) and name not in members)
        if fewest < 0 or undeclared + absent < fewest:
            fewest, nearest = undeclared + absent, [(index, found)]
        elif undeclared + absent == fewest:
            nearest.append((index, found))
    if len(nearest) == 1:
        return nearest[0][0]
    if fewest > 0:
        return None
    # min keeps the first of equals: declared order decides what the members do not.
    return min(nearest, key=lambda found: _misfits(members, found[1], root))[0]


def _misfits(members: dict[str, object], variant: dict[str, Any], root: object) -> int:
    """How many of *members* have a JSON type their schema in *variant* does not admit.

    A member's schema is its property's, else the variant's ``additionalProperties`` (a map's
    values: ``dict[str, int]``); a member with neither is not counted.
    """
    properties = as_dict(variant.get("properties"))
    extra: object = variant.get("additionalProperties")
    count = 0
    for key, value in members.items():
        schema: object = properties.get(key, extra)
        if not _fits(schema_kind(value), schema, root, _FIT_DEPTH):  # no schema admits all
            count += 1
    return count


#: How many unions inside unions `_fits` looks into (a registered schema may nest them).
_FIT_DEPTH: Final = 8


def _fits(kind: str, schema: object, root: object, depth: int) -> bool:
    """Whether a value of JSON type *kind* (`schema_kind`) can pass *schema* (its types only).

    Only ``type``, ``const``, ``enum`` and the variants of ``anyOf`` and ``oneOf`` are read; a
    schema that says nothing of types admits every kind.
    """
    found = _resolved(schema, root)
    declared = found.get("type")
    if isinstance(declared, (str, list)):
        names = [declared] if isinstance(declared, str) else typing.cast("list[str]", declared)
        if not kind_admitted(kind, names):
            return False
    constants = [found["const"]] if "const" in found else found.get("enum")
    if isinstance(constants, list) and not any(
        kind_admitted(kind, [schema_kind(c)]) for c in typing.cast("list[object]", constants)
    ):
        return False
    for keyword in ("anyOf", "oneOf"):
        variants = found.get(keyword)
        if not isinstance(variants, list) or depth <= 0:
            continue
        if not any(_fits(kind, v, root, depth - 1) for v in typing.cast("list[object]", variants)):
            return False
    return True


def no_variant(instance: object, options: list[object], root: object) -> str:
    """The reason for an object whose keys are as wrong for each of *options* (see `closest`)."""
    # ", or ": the shapes have commas of their own.
    shapes = join_phrases([_object_shape(option, root) for option in options], ", or ")
    return f"{short(instance)} fits none of the accepted objects; expected {shapes}"


def _keys(keys: list[str]) -> str:
    return join_phrases([short(key) for key in keys], " and ")


def _object_shape(option: object, root: object) -> str:
    """An object variant by its keys (``an object with 'a', and optionally 'b'``)."""
    found = _resolved(option, root)
    required = [name for name in found.get("required", []) if isinstance(name, str)]
    optional = [name for name in as_dict(found.get("properties")) if name not in required]
    closed = found.get("additionalProperties") is False
    if required and closed and not optional:
        return f"an object with only {_keys(required)}"
    if required and closed:
        return f"an object with {_keys(required)}, and optionally {_keys(optional)}"
    if required:
        return f"an object with {_keys(required)}"
    if closed and optional:
        return f"an object with at most {_keys(optional)}"
    return "an empty object" if closed else "an object"


def tag_mismatch(
    instance: object, options: list[object], root: object
) -> list[tuple[str, str]] | None:
    """What to say of an object that contradicts the tags of the union variants it is shaped as.

    *options* are the variants *instance* has the shape of, in declared order. When the first
    of them has tags, two or more have, and *instance* holds other values at the same tag
    properties of each of those, the reason is at each such property, naming every one's
    constant: not the first variant's alone, which would call it "the only accepted value".
    Otherwise None (the first variant's problems are said).
    """
    if type(instance) is not dict:
        return None
    members = typing.cast("dict[str, object]", instance)
    tagged = [tags for tags in (_tags(option, root) for option in options) if tags]
    if len(tagged) < 2 or not _tags(options[0], root):
        return None
    keys: list[str] | None = None
    constants: dict[str, list[object]] = {}
    for tags in tagged:
        wrong = [
            name
            for name, constant in tags.items()
            if name in members and json_key(members[name]) != json_key(constant)
        ]
        if not wrong or (keys is not None and set(wrong) != set(keys)):
            return None
        keys = keys if keys is not None else wrong
        for name in wrong:
            constants.setdefault(name, []).append(tags[name])
    return [
        (name, union_mismatch(members[name], [{"const": c} for c in constants[name]]))
        for name in keys or ()
    ]


def _pointed(root: object, ref: object) -> object:
    """What the local reference *ref* (``#/$defs/Name``) points at in *root* (None if nothing)."""
    if not isinstance(ref, str) or not ref.startswith("#/"):
        return None
    found: object = root
    for part in ref[2:].split("/"):
        key = part.replace("~1", "/").replace("~0", "~")
        if isinstance(found, dict) and key in found:
            found = typing.cast("dict[str, object]", found)[key]
        else:
            return None
    return found


def problems(validator: Draft202012Validator, instance: object) -> tuple[list[Problem], bool]:
    """What jsonschema finds wrong with *instance*: up to `MAX_PROBLEMS` problems, and if more.

    The call path finds problems with `typed_toolsets.call.checker` (linear in the input, and it
    stops at the cap); this is the same wording over jsonschema's own errors, for schemas of any
    kind, and the reference the checker is tested against.
    """
    # types-jsonschema leaves part of iter_errors' signature unknown.
    errors: Iterator[ValidationError] = validator.iter_errors(typing.cast(Any, instance))  # pyright: ignore[reportUnknownMemberType]
    root = validator.schema
    return collect(itertools.chain.from_iterable(expand(error, (), root) for error in errors))
