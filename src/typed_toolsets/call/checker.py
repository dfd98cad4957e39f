"""Finding what is wrong with arguments, in time linear in their size, stopping at the cap.

A `Checker` is a JSON Schema compiled once into plain Python checks. Its verdict is jsonschema's
(Draft 2020-12, with the library's format checks), and its problems are the ones
`typed_toolsets.call.validation` words from jsonschema's errors, in the same order; what differs
is the cost of a refusal:

- problems are produced lazily, so reading stops one problem past the cap instead of building
  every error of every union variant first (jsonschema lists each variant's errors in full);
- ``uniqueItems`` compares items by a hashable key, not pairwise;
- whether a union variant accepts a value is decided once per variant and value, however many
  enclosing unions ask;
- a value is only shown (cut to a few dozen characters) when a problem names it, and paths are
  built only for the problems reported.

So refusing any input costs time linear in its size, and memory linear in its nesting.

The checker compiles the keywords the library writes (`SUPPORTED`). A subschema using another
keyword that jsonschema asserts (a registered type's ``pattern``, say) is left to jsonschema,
which then finds its problems at its own cost; a schema that changes how references resolve
(``$id``, anchors) is left to jsonschema whole. jsonschema is imported only then.

This module compiles a schema; `typed_toolsets.call.keywords` holds the keywords that look only
at the value itself (and JSON equality), `typed_toolsets.call.nodes` the generated checks of the
others.
"""

from __future__ import annotations

import threading
import typing
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any, Final

from typed_toolsets.types.typespec import Schema

from .assembly import generated_node, leaf_node, with_shallow
from .jsonschema_errors import expand, has_tags, is_tag_error, shallow_error
from .jsonvalues import Link, path_of
from .keywords import SCALAR_KEYWORDS, Scalar, Unsupported, json_key, type_implied
from .nodes import (
    Additional,
    AnyOf,
    Closed,
    Items,
    Keyword,
    Memo,
    Node,
    Prefix,
    Properties,
    Reference,
    Required,
)
from .validation import MAX_PROBLEMS, Problem, collect

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator

__all__ = ["ASSERTING", "SUPPORTED", "Checker", "json_key"]

#: The keywords the checker compiles: every one the library's schemas use.
SUPPORTED: Final = SCALAR_KEYWORDS | frozenset(
    ["$ref", "properties", "required", "additionalProperties", "items", "prefixItems", "anyOf"]
)
#: Every keyword jsonschema's Draft 2020-12 validator acts on (the others are annotations);
#: those not `SUPPORTED` leave their subschema to jsonschema.
ASSERTING: Final = SUPPORTED | frozenset(
    [
        "$dynamicRef",
        "allOf",
        "oneOf",
        "not",
        "if",
        "contains",
        "dependentRequired",
        "dependentSchemas",
        "pattern",
        "patternProperties",
        "propertyNames",
        "unevaluatedItems",
        "unevaluatedProperties",
    ]
)
#: Keywords that change how references resolve: a schema holding one goes to jsonschema whole.
_RESOLUTION: Final = frozenset(
    {"$id", "$anchor", "$dynamicAnchor", "$dynamicRef", "$recursiveAnchor", "$recursiveRef"}
)


# ----------------------------------------------------------------------------------- compiler


def _resolution_keywords(schema: object) -> bool:
    """Whether any subschema of *schema* holds a keyword that changes how references resolve."""
    stack: list[object] = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            mapping = typing.cast("dict[str, object]", node)
            if not _RESOLUTION.isdisjoint(mapping):
                return True
            stack.extend(mapping.values())
        elif isinstance(node, list):
            stack.extend(typing.cast("list[object]", node))
    return False


def _as_dict(value: object) -> dict[str, object]:
    if not isinstance(value, dict):
        raise Unsupported
    return typing.cast("dict[str, object]", value)


def _as_list(value: object) -> list[object]:
    if not isinstance(value, list):
        raise Unsupported
    return typing.cast("list[object]", value)


class Checker:
    """A JSON Schema compiled for finding problems; safe to share across threads.

    Args:
        schema: The schema (a standalone document: its ``$ref``s point into its own ``$defs``).
    """

    def __init__(self, schema: Schema) -> None:
        self._schema = schema
        self._refs: dict[str, Node] = {}
        self._jsonschema: list[Draft202012Validator] = []
        self._lock = threading.Lock()
        #: No node yields one problem twice, so neither does the whole (by induction on the
        #: value: each node's keywords yield at paths of their own, see `Node.distinct`).
        self.distinct = True
        self._root = (
            self._fallback(schema) if _resolution_keywords(schema) else self._compile(schema)
        )
        #: Every problem of an instance at a link (the top: None), each path's memo in a dict.
        self.errors: Callable[[object, Link, Memo], Iterable[Problem]] = self._root.errors

    def problems(self, instance: object, cap: int = MAX_PROBLEMS) -> tuple[list[Problem], bool]:
        """Up to *cap* problems of *instance* (a parsed JSON value), and whether it has more."""
        return collect(self.errors(instance, None, {}), cap, distinct=self.distinct)

    def is_valid(self, instance: object) -> bool:
        """Whether *instance* matches the schema (jsonschema's verdict)."""
        return self._root.valid(instance, {})

    # ------------------------------------------------------------------------------ compiling

    def _compile(self, schema: object) -> Node:
        if schema is True:
            return Node(schema)
        if not isinstance(schema, dict):
            return self._fallback(schema)
        mapping = typing.cast("dict[str, object]", schema)
        keywords = [k for k in mapping if k in ASSERTING]
        if not SUPPORTED.issuperset(keywords):
            return self._fallback(mapping)
        if type_implied(mapping):
            keywords.remove("type")
        try:
            if keywords == ["$ref"]:
                return self._reference(mapping["$ref"])  # the target itself: no extra frame
            checks = [c for c in (self._keyword(k, mapping[k], mapping) for k in keywords) if c]
        except Unsupported:
            return self._fallback(mapping)
        if all(isinstance(c, Scalar) for c in checks):
            node = leaf_node(mapping, typing.cast("list[Scalar]", checks))
        else:
            node = generated_node(mapping, checks)
        self.distinct = self.distinct and node.distinct
        return with_shallow(node, checks)

    def _keyword(
        self, keyword: str, value: object, schema: dict[str, object]
    ) -> Scalar | Keyword | None:
        if keyword in SCALAR_KEYWORDS:
            return Scalar(keyword, value)
        if keyword == "properties":
            named = [(name, self._compile(sub)) for name, sub in _as_dict(value).items()]
            return Properties(named) if named else None
        if keyword == "required":
            names = _as_list(value)
            if not all(isinstance(n, str) for n in names):
                raise Unsupported
            return Required(typing.cast("list[str]", names)) if names else None
        if keyword == "additionalProperties":
            declared = list(_as_dict(schema.get("properties", {})))
            if value is False:
                return Closed(declared)
            if value is True:
                return None
            return Additional(frozenset(declared), self._compile(_as_dict(value)))
        if keyword == "items":
            if value is True:
                return None
            prefix = schema.get("prefixItems", [])
            start = len(prefix) if isinstance(prefix, list) else 0  # pyright: ignore[reportUnknownArgumentType]
            return Items(start, self._compile(_as_dict(value)))
        if keyword == "prefixItems":
            return Prefix([self._compile(sub) for sub in _as_list(value)])
        if keyword == "anyOf":
            options = _as_list(value)
            if not options:
                raise Unsupported
            return AnyOf([self._compile(sub) for sub in options], options, self._schema)
        # "$ref", the last supported keyword.
        return Reference(self._reference(value))

    def _reference(self, ref: object) -> Node:
        if not isinstance(ref, str):
            raise Unsupported
        node = self._refs.get(ref)
        if node is None:
            target = self._resolve(ref)
            # Registered before compiling, so a schema that refers to itself finds it.
            node = self._refs[ref] = Node(target)
            node.nested = True  # it may be recursive
            node.fill(self._compile(target))
        return node

    def _resolve(self, ref: str) -> object:
        if not ref.startswith("#"):
            raise Unsupported  # another document: jsonschema's resolver decides
        found: object = self._schema
        for part in ref[1:].split("/")[1:]:
            key = part.replace("~1", "/").replace("~0", "~")
            if isinstance(found, dict) and key in found:
                found = typing.cast("dict[str, object]", found)[key]
            elif isinstance(found, list) and key.isdigit():
                items = typing.cast("list[object]", found)
                if int(key) >= len(items):
                    raise Unsupported
                found = items[int(key)]
            else:
                raise Unsupported
        return found

    def _fallback(self, schema: object) -> Node:
        """A node that asks jsonschema (built on first use) about *schema*."""
        self.distinct = False  # jsonschema's errors may stand for one problem twice (`allOf`)
        node = Node(schema)
        ask, root = self._ask, self._schema

        def valid(x: Any, _memo: Memo) -> bool:
            return ask(schema).is_valid(x)  # pyright: ignore[reportUnknownMemberType]

        def errors(x: Any, link: Link, _memo: Memo) -> Iterator[Problem]:
            prefix = path_of(link)
            for error in ask(schema).iter_errors(x):  # pyright: ignore[reportUnknownMemberType]
                yield from expand(error, prefix, root)

        def shallow(x: Any) -> bool:
            found = ask(schema).iter_errors(x)  # pyright: ignore[reportUnknownMemberType]
            return any(not e.path and shallow_error(e) for e in found)

        def tagged(x: Any) -> bool | None:
            if not has_tags(schema, root):
                return None
            found = ask(schema).iter_errors(x)  # pyright: ignore[reportUnknownMemberType]
            return not any(is_tag_error(e) for e in found)

        node.valid = valid
        node.errors = errors
        node.shallow = shallow
        node.tagged = tagged
        return node

    def _ask(self, schema: object) -> Draft202012Validator:
        """The jsonschema validator of *schema*, resolving references in the whole document."""
        if not self._jsonschema:
            with self._lock:
                if not self._jsonschema:
                    from typed_toolsets.types.validator import make_validator

                    self._jsonschema.append(make_validator(self._schema))
        root = self._jsonschema[0]
        if schema is self._schema:
            return root
        return typing.cast("Draft202012Validator", root.evolve(schema=schema))  # pyright: ignore[reportUnknownMemberType]
