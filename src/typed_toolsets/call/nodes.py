"""Compiled schema nodes for `typed_toolsets.call.checker`: generated checks and lazy problems.

A `Node` is one (sub)schema as two Python functions generated for it: ``valid`` (stops at the
first problem) and ``errors`` (yields the problems, lazily, so that reading stops at the cap).
Children that only look at the value itself are checked inline; a union decides once per variant
and value whether the variant accepts it (`Memo`), however many enclosing unions ask; paths are
written out only for the problems reported. Here are the node and the keywords with subschemas,
each writing its lines of the generated functions (with a `typed_toolsets.call.source.Source`);
`typed_toolsets.call.assembly` puts a schema's lines together into a node.
"""

from __future__ import annotations

import abc
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Final, TypeAlias

from typing_extensions import override

from typed_toolsets.types.compiled import compile_function

from .jsonschema_errors import closest, no_variant, tag_mismatch
from .jsonvalues import Link, path_of
from .keywords import Scalar, Test
from .source import Source
from .validation import (
    Problem,
    missing,
    unexpected,
    union_expectation,
    union_mismatch,
)

__all__ = [
    "Additional",
    "AnyOf",
    "Closed",
    "Items",
    "Keyword",
    "Memo",
    "Node",
    "Prefix",
    "Properties",
    "Reference",
    "Required",
]

#: Per check: (variant id, value id) -> whether the variant accepts the value.
Memo: TypeAlias = dict[tuple[int, int], bool]
_Valid = Callable[[Any, Memo], bool]
_Errors = Callable[[Any, Link, Memo], Iterable[Problem]]
#: Arrays of at most this many items of a plain type are checked item by item (see `Items`):
#: measured at 24 items, listing and counting their types saves 100 ns when every item has the
#: type, and costs 600 ns more when one has not (the arrays a checker is asked about are often
#: the refused ones).
_CHECKED_ONE_BY_ONE: Final = 24
#: A container's own path, written once before its members' problems: each member's path is
#: then that plus its key or index (`_BELOW`), not the walk of its link.
_BASE: Final = "base = P(link)"
_BELOW: Final = "base + ({},)"
#: At most this many unknown arguments' problems are kept per object (`Closed.unknown`), each
#: named by a key of at most `_NAMED_CHARS` characters: the keys come from the model.
_NAMED: Final = 256
_NAMED_CHARS: Final = 80


# -------------------------------------------------------------------------------------- nodes


class Node:
    """A compiled schema.

    Attributes:
        valid: Whether a value matches (stops at its first problem).
        errors: The problems of a value at a path, lazily.
        shallow: Whether the value fails a type, enum, const or format keyword at its own
            path (following references): it has not even the shape of this schema.
        tagged: Of a value: None when the schema has no tags (properties of one constant:
            Literal fields), False when the value (an object) holds one with another value,
            else True; following references. A union's problems are those of the first variant
            the value has the shape of and whose tags it does not contradict, if any.
        leaf: The schema only looks at the value itself, with ``scalars``; generated code
            checks such a child inline.
        quick: ``valid`` is cheap to ask again (a union's, remembered per value): generated code
            asks it before starting on the problems.
        small: The schema checks a fixed number of values (no array or mapping of its own
            values, no reference, below it), so ``valid`` costs at most a fixed number of checks:
            generated code asks it before starting on the problems too (an array of valid
            objects then creates no generator per item).
        nested: A union or a reference is at or below this node (so unions above it remember
            what their variants said: the same value may be asked about again).
        scalars: A leaf's keywords.
        reason: A leaf with one keyword that tests the value: the reason it gives (generated
            code yields that problem itself once its inline check fails).
        guard: An object's or an array's ``type``, when a value failing it has that one problem
            (every other keyword of the schema looks only at values of that type): generated
            code checks it inline and yields the problem itself, without a generator of the
            node's own.
        items: The ``items`` of an array whose only other check is its guard, when they are of
            a plain type: generated code checks them in the parent's own function, without a
            generator of this node's (`Items.inlined_lines`).
        distinct: Its own checks never yield one problem twice (a node below may, and says so
            itself): a checker whose every node is distinct needs no set to drop repeats.
        schema: The schema it was compiled from.
    """

    __slots__ = (
        "distinct",
        "errors",
        "guard",
        "items",
        "leaf",
        "nested",
        "quick",
        "reason",
        "scalars",
        "schema",
        "shallow",
        "small",
        "tagged",
        "valid",
    )

    def __init__(self, schema: object) -> None:
        self.schema = schema
        self.leaf = False
        self.nested = False
        self.quick = False
        self.small = False
        self.distinct = True
        self.scalars: list[Scalar] = []
        self.reason: Callable[[Any], str] | None = None
        self.guard: Scalar | None = None
        self.items: Items | None = None
        self.valid: _Valid = _accept
        self.errors: _Errors = _no_errors
        self.shallow: Test = _never
        self.tagged: Callable[[Any], bool | None] = _untagged

    def fill(self, other: Node) -> None:
        """Behave as *other* (this node was referred to before it was compiled)."""
        self.leaf = other.leaf
        self.nested = self.nested or other.nested
        self.quick = other.quick
        self.small = other.small
        self.distinct = other.distinct
        self.scalars = other.scalars
        self.reason = other.reason
        self.guard = other.guard
        self.items = other.items
        self.valid = other.valid
        self.errors = other.errors
        self.shallow = other.shallow
        self.tagged = other.tagged


def _accept(_x: object, _memo: Memo) -> bool:
    return True


def _no_errors(_x: object, _link: Link, _memo: Memo) -> Iterable[Problem]:
    return ()


def _untagged(_x: object) -> bool | None:
    return None


def _never(_x: object) -> bool:
    return False


class Keyword(abc.ABC):
    """A keyword with subschemas (or a reference): the lines checking it, in generated code."""

    def children(self) -> list[Node]:
        """The nodes of its subschemas."""
        return []

    @abc.abstractmethod
    def valid_lines(self, src: Source) -> list[str]:
        """Lines returning False when ``x`` fails the keyword."""

    @abc.abstractmethod
    def error_lines(self, src: Source) -> list[str]:
        """Lines yielding the problems of ``x`` (at ``link``) for the keyword."""


class Properties(Keyword):
    """``properties``: each declared property present is checked against its schema."""

    def __init__(self, named: list[tuple[str, Node]]) -> None:
        self.named = named

    @override
    def children(self) -> list[Node]:
        return [node for _, node in self.named]

    @override
    def valid_lines(self, src: Source) -> list[str]:
        lines = ["if isinstance(x, dict):"]
        for name, node in self.named:
            lines += [
                f"    v = x.get({name!r}, M)",
                f"    if v is not M and not ({src.child_valid(node, 'v')}):",
                "        return False",
            ]
        return lines

    @override
    def error_lines(self, src: Source) -> list[str]:
        lines = ["if isinstance(x, dict):"]
        for name, node in self.named:
            lines += [f"    v = x.get({name!r}, M)", "    if v is not M:"]
            path = f"(P((link, {name!r})) if link else ({name!r},))"
            errors = src.child_errors(node, "v", f"(link, {name!r})", path)
            lines += [f"        {line}" for line in errors]
        return lines


class Required(Keyword):
    """``required``: each name must be present (each missing one is a problem)."""

    def __init__(self, names: list[str]) -> None:
        self.names = names

    @override
    def valid_lines(self, src: Source) -> list[str]:
        absent = " or ".join(f"{name!r} not in x" for name in self.names) or "False"
        return ["if isinstance(x, dict):", f"    if {absent}:", "        return False"]

    @override
    def error_lines(self, src: Source) -> list[str]:
        lines = ["if isinstance(x, dict):"]
        below, reason = src.name(missing(top=False)), missing(top=True)
        for name in self.names:
            # At the top (the arguments themselves) the problem is a constant.
            top = src.name(((name,), reason))
            lines += [
                f"    if {name!r} not in x:",
                f"        yield ((*P(link), {name!r}), {below}) if link else {top}",
            ]
        return lines


class Closed(Keyword):
    """``additionalProperties: false``: no property besides the declared ones."""

    def __init__(self, allowed: list[str]) -> None:
        self.allowed = allowed
        self.known = frozenset(allowed)
        self._top = unexpected(allowed, top=True)
        #: The problems of unknown arguments already named, by name (see `error_lines`).
        self.named: dict[str | int, Problem] = {}

    def unknown(self, name: str | int) -> Problem:
        """The problem of the unknown argument *name*, kept for the next refusals (a few)."""
        problem = ((name,), self._top)
        if len(self.named) < _NAMED and type(name) is str and len(name) <= _NAMED_CHARS:
            self.named[name] = problem
        return problem

    @override
    def valid_lines(self, src: Source) -> list[str]:
        return [
            "if isinstance(x, dict):",
            f"    if not {src.name(self.known)}.issuperset(x):",
            "        return False",
        ]

    @override
    def error_lines(self, src: Source) -> list[str]:
        known = src.name(self.known)
        # Every unknown key of the object has the same reason (its words depend on whether the
        # object is the arguments themselves, and on its declared keys): both written here. The
        # loop is written here too, not called: no generator of its own per refusal (a loop in C,
        # zip and filterfalse, costs more: `yield from` resumes this one per key all the same).
        # An unknown argument's problem is built once and kept (a model repeats its mistakes):
        # no tuples to build and free, and the refusal finds its path by identity (27 ns less a
        # key, measured).
        named = src.name(self.named)
        unknown = src.name(self.unknown)
        below = src.name(unexpected(self.allowed, top=False))
        return [
            "if isinstance(x, dict):",
            f"    if not {known}.issuperset(x):",
            "        if link:",
            "            u_base = P(link)",
            "            for u_name in x:",
            f"                if u_name not in {known}:",
            f"                    yield u_base + (u_name,), {below}",
            "        else:",
            "            for u_name in x:",
            f"                if u_name not in {known}:",
            f"                    yield {named}.get(u_name) or {unknown}(u_name)",
        ]


class Additional(Keyword):
    """``additionalProperties`` with a schema: every undeclared property is checked by it."""

    def __init__(self, declared: frozenset[str], node: Node) -> None:
        self.declared = declared
        self.node = node

    @override
    def children(self) -> list[Node]:
        return [self.node]

    @override
    def valid_lines(self, src: Source) -> list[str]:
        return [
            "if isinstance(x, dict):",
            "    for key, v in x.items():",
            (
                f"        if key not in {src.name(self.declared)} and not "
                f"({src.child_valid(self.node, 'v')}):"
            ),
            "            return False",
        ]

    @override
    def error_lines(self, src: Source) -> list[str]:
        # In the object's own order (jsonschema walks a set: an order that varies by run).
        errors = src.child_errors(self.node, "v", "(link, key)", _BELOW.format("key"))
        return [
            "if isinstance(x, dict):",
            f"    {_BASE}",
            "    for key, v in x.items():",
            f"        if key not in {src.name(self.declared)}:",
            *(f"            {line}" for line in errors),
        ]


class Items(Keyword):
    """``items``: every item from *start* on (past the ``prefixItems``) is checked."""

    def __init__(self, start: int, node: Node) -> None:
        self.start = start
        self.node = node
        # Items of a plain JSON type: one pass in C over their Python types decides most arrays.
        scalars = node.scalars if node.leaf else []
        only_type = len(scalars) == 1 and scalars[0].keyword == "type" and start == 0
        self.exact = scalars[0].exact if only_type else frozenset[type]()

    @override
    def children(self) -> list[Node]:
        return [self.node]

    def _head(self, src: Source, x: str = "x", i: str = "i", v: str = "v") -> list[str]:
        """The loop over the items of the array *x*: each index in *i*, each item in *v*."""
        head = f"if isinstance({x}, list):"
        if self.exact:
            # Only the items of another Python type can fail: their indexes are found in C
            # (a short array costs less checked item by item than its types listed and counted).
            found = f"inexact({x}, {src.name(self.exact)})"
            items = f"({found} if len({x}) > {_CHECKED_ONE_BY_ONE} else range(len({x})))"
            return [head, f"    for {i} in {items}:", f"        {v} = {x}[{i}]"]
        if self.start == 0:
            return [head, "    for i, v in enumerate(x):"]
        return [head, f"    for i in range({self.start}, len(x)):", "        v = x[i]"]

    @override
    def valid_lines(self, src: Source) -> list[str]:
        return [
            *self._head(src),
            f"        if not ({src.child_valid(self.node, 'v')}):",
            "            return False",
        ]

    @override
    def error_lines(self, src: Source) -> list[str]:
        head = self._head(src)
        errors = src.child_errors(self.node, "v", "(link, i)", _BELOW.format("i"))
        return [head[0], f"    {_BASE}", *head[1:], *(f"        {line}" for line in errors)]

    def inlined_lines(self, src: Source, var: str, path: str) -> list[str]:
        """Lines yielding the problems of the items of *var*, an array at *path*, in its parent.

        For an array node whose only checks are its guard and these items, of a plain type
        (`Node.items`); the lines' names are their own (``item_base``, ``j``, ``w``), apart from
        the parent's, which they run inside.
        """
        reason = self.node.reason
        if not self.exact or reason is None:  # pragma: no cover - `Node.items` says they are
            msg = "only items of a plain type are checked in their array's parent"
            raise ValueError(msg)
        head = self._head(src, var, "j", "w")
        problem = f"yield item_base + (j,), {src.reason(reason, 'w')}"
        test = src.child_valid(self.node, "w")
        # The loop's lines, without the array's type test (the parent's guard made it).
        loop = [line[4:] for line in head[1:]]
        return [f"item_base = {path}", *loop, f"    if not ({test}):", f"        {problem}"]


class Prefix(Keyword):
    """``prefixItems``: the first items are checked each by its own schema."""

    def __init__(self, nodes: list[Node]) -> None:
        self.nodes = nodes

    @override
    def children(self) -> list[Node]:
        return self.nodes

    @override
    def valid_lines(self, src: Source) -> list[str]:
        lines = ["if isinstance(x, list):", "    n = len(x)"]
        for index, node in enumerate(self.nodes):
            lines += [
                f"    if n > {index}:",
                f"        v = x[{index}]",
                f"        if not ({src.child_valid(node, 'v')}):",
                "            return False",
            ]
        return lines

    @override
    def error_lines(self, src: Source) -> list[str]:
        lines = ["if isinstance(x, list):", f"    {_BASE}", "    n = len(x)"]
        for index, node in enumerate(self.nodes):
            errors = src.child_errors(node, "v", f"(link, {index})", _BELOW.format(index))
            lines += [f"    if n > {index}:", f"        v = x[{index}]"]
            lines += [f"        {line}" for line in errors]
        return lines


class AnyOf(Keyword):
    """A union: accepted when a variant accepts it.

    Otherwise its problems are those of the variant the value has the shape of and is nearest
    (`closest`: an object's keys), or, when it has none's, what to send.
    """

    def __init__(self, nodes: list[Node], options: list[object], root: object) -> None:
        self.nodes = nodes
        self.options = options
        self.root = root  # the whole schema: the variants' tags are read through their $refs
        # What to send, said when a value has none of the variants' shapes: written once.
        self.expected = union_expectation(options)
        src = Source()
        src.namespace["memo_any"] = self._memo_valid
        either = " or ".join(f"({src.child_valid(node, 'x')})" for node in nodes)
        lines = ["def generated(x, memo):"]
        if any(node.nested for node in nodes):
            # A value inside may be asked about again by a union below: remember the answers.
            lines += ["    if isinstance(x, (list, dict)):", "        return memo_any(x, memo)"]
        lines.append(f"    return {either}")
        self.valid: _Valid = compile_function("\n".join(lines) + "\n", "checker", src.namespace)

    @override
    def children(self) -> list[Node]:
        return self.nodes

    def shallow(self, x: object) -> bool:
        """Whether *x* has the shape of none of the variants (a union inside a union's variant)."""
        for node in self.nodes:  # noqa: SIM110 - any() would build a generator per call
            if not node.shallow(x):
                return False
        return True

    def _memo_valid(self, x: object, memo: Memo) -> bool:
        # Decided once per variant and value, however many enclosing unions ask.
        for node in self.nodes:
            key = (id(node), id(x))
            known = memo.get(key)
            if known is None:
                known = memo[key] = node.valid(x, memo)
            if known:
                return True
        return False

    def errors(self, x: object, link: Link, memo: Memo) -> Iterator[Problem]:
        """The problems of *x* at *link*: none when a variant accepts it."""
        if self.valid(x, memo):
            return
        shaped: list[int] = []  # the variants x has the shape of
        for index, node in enumerate(self.nodes):
            if not node.shallow(x):
                if node.tagged(x):  # x contradicts none of its tags: the variant x meant
                    yield from node.errors(x, link, memo)
                    return
                shaped.append(index)
        if shaped:
            found = tag_mismatch(x, [self.options[i] for i in shaped], self.root)
            if found:
                base = path_of(link)
                for key, reason in found:
                    yield (*base, key), reason
                return
            options = [self.options[i] for i in shaped]
            nearest = closest(x, options, self.root)
            if nearest is None:
                yield path_of(link), no_variant(x, options, self.root)
                return
            yield from self.nodes[shaped[nearest]].errors(x, link, memo)
            return
        yield path_of(link), union_mismatch(x, self.options, self.expected)

    @override
    def valid_lines(self, src: Source) -> list[str]:
        return [f"if not {src.name(self)}.valid(x, memo):", "    return False"]

    @override
    def error_lines(self, src: Source) -> list[str]:
        return [
            f"if not {src.name(self)}.valid(x, memo):",
            f"    yield from {src.name(self)}.errors(x, link, memo)",
        ]


class Reference(Keyword):
    """``$ref``: the value is checked by the node of the schema referred to."""

    def __init__(self, target: Node) -> None:
        self.target = target

    def shallow(self, x: object) -> bool:
        """Whether *x* has not even the shape of the schema referred to."""
        # Read at call time: a recursive schema's target is finished after this keyword.
        return self.target.shallow(x)

    def tagged(self, x: object) -> bool | None:
        """What the tags of the schema referred to say of *x* (see `Node.tagged`)."""
        return self.target.tagged(x)

    @override
    def valid_lines(self, src: Source) -> list[str]:
        return [f"if not {src.name(self.target)}.valid(x, memo):", "    return False"]

    @override
    def error_lines(self, src: Source) -> list[str]:
        return [f"yield from {src.name(self.target)}.errors(x, link, memo)"]
