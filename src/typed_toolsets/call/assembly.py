"""Node assembly for `typed_toolsets.call.checker`: a schema's checks become a `Node`'s functions.

A schema whose keywords look only at the value itself is a leaf (one expression, its problems
listed directly); any other has its two functions generated from the lines of its keywords
(`typed_toolsets.call.nodes`), repeated type tests written once.
"""

from __future__ import annotations

import typing
from typing import Any, Final

from typed_toolsets.types.compiled import compile_function
from typed_toolsets.types.typespec import MISSING

from .jsonvalues import Link, path_of
from .keywords import Scalar
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
from .source import Source
from .validation import Problem

__all__ = ["generated_node", "leaf_node", "with_shallow"]


def leaf_node(schema: object, scalars: list[Scalar]) -> Node:
    """The node of a schema whose keywords all look only at the value itself."""
    node = Node(schema)
    node.leaf = True
    node.scalars = scalars
    src = Source()
    source = f"def generated(x, memo):\n    return {src.inline(scalars, 'x')}\n"
    node.valid = compile_function(source, "checker", src.namespace)
    tests = [(c.test, c.reason) for c in scalars if c.test is not None]
    if len(tests) == 1:
        # Most leaves have one keyword (their type): no list of reasons to gather.
        ((test, reason),) = tests
        node.reason = reason

        def error(x: Any, link: Link, _memo: Memo) -> list[Problem]:
            return [] if test(x) else [(path_of(link), reason(x))]

        node.errors = error
        return node

    def errors(x: Any, link: Link, _memo: Memo) -> list[Problem]:
        found: list[Problem] = []
        for test, reason in tests:  # a loop, not comprehensions: no frame of their own
            if not test(x):
                if not found:
                    found.append((path_of(link), reason(x)))
                    continue
                # Two keywords worded alike are one problem (so the node stays `distinct`).
                problem = (found[0][0], reason(x))
                if problem not in found:
                    found.append(problem)
        return found

    node.errors = errors
    return node


def generated_node(schema: object, checks: list[Scalar | Keyword]) -> Node:
    """The node of a schema with subschemas: its checks in two generated functions."""
    node = Node(schema)
    node.nested = any(
        isinstance(c, (AnyOf, Reference)) or any(n.nested for n in c.children())
        for c in checks
        if isinstance(c, Keyword)
    )
    node.small = all(
        isinstance(c, Scalar)
        or (
            isinstance(c, (Properties, Required, Closed, Prefix, AnyOf))
            and all(n.leaf or n.small for n in c.children())
        )
        for c in checks
    )
    if len(checks) == 1 and isinstance(checks[0], AnyOf):
        node.valid, node.errors = checks[0].valid, checks[0].errors  # no wrapper: one frame less
        node.quick = True
        return node
    node.guard = _guard(checks)
    node.items = _plain_items(node.guard, checks)
    node.distinct = _distinct(checks)
    src = Source()
    valid: list[str] = []
    errors: list[str] = []
    for check in checks:
        if isinstance(check, Scalar):
            if check.test is None:
                continue
            test = src.inline([check], "x")
            valid += [f"if not ({test}):", "    return False"]
            errors += [f"if not ({test}):", f"    yield P(link), {src.reason(check.reason, 'x')}"]
        else:
            valid += check.valid_lines(src)
            errors += check.error_lines(src)
    valid = ["def generated(x, memo):", *_indented(_merged(valid)), "    return True"]
    errors = [
        "def generated(x, link, memo):",
        *_indented(_merged(errors)),
        "    return",
        "    yield  # a generator, whatever the checks",
    ]
    node.valid = compile_function("\n".join(valid) + "\n", "checker", src.namespace)
    node.errors = compile_function("\n".join(errors) + "\n", "checker", src.namespace)
    return node


def _distinct(checks: list[Scalar | Keyword]) -> bool:
    """Whether the checks of one schema never yield one problem twice (see `Node.distinct`).

    Below the value, each keyword yields at paths no other one does: `Properties` at declared
    keys the object has, `Required` at declared keys it lacks (once each, unless a name is
    listed twice), `Closed` and `Additional` at the keys it does not declare, `Prefix` and
    `Items` at indexes on either side of the prefix's end. At the value's own path, each tested
    scalar keyword, union and reference yields: two of them might word one problem alike.
    """
    own = 0
    for check in checks:
        if isinstance(check, (AnyOf, Reference)) or (
            isinstance(check, Scalar) and check.test is not None
        ):
            own += 1
        elif isinstance(check, Required) and len(set(check.names)) != len(check.names):
            return False
    return own <= 1


#: By JSON type, the keywords with subschemas that look only at values of that type.
_KEYWORDS_OF_TYPE: Final[dict[str, tuple[type[Keyword], ...]]] = {
    "object": (Properties, Required, Closed, Additional),
    "array": (Items, Prefix),
}


def _guard(checks: list[Scalar | Keyword]) -> Scalar | None:
    """The `Node.guard` of a schema with these *checks*, if it has one."""
    tested = [c for c in checks if isinstance(c, Scalar) and c.test is not None]
    if len(tested) != 1 or tested[0].keyword != "type":
        return None
    kinds = _KEYWORDS_OF_TYPE.get(str(tested[0].value))
    if kinds is None or not all(isinstance(c, kinds) for c in checks if isinstance(c, Keyword)):
        return None
    return tested[0]


def _plain_items(guard: Scalar | None, checks: list[Scalar | Keyword]) -> Items | None:
    """The `Node.items` of a schema with these *checks* and *guard*, if it has them."""
    if guard is None:
        return None
    others = [
        c for c in checks if c is not guard and not (isinstance(c, Scalar) and c.test is None)
    ]
    if len(others) == 1 and isinstance(others[0], Items) and others[0].exact:
        return others[0]
    return None


def _indented(lines: list[str]) -> list[str]:
    return [f"    {line}" for line in lines]


def _merged(lines: list[str]) -> list[str]:
    """*lines*, with the blocks under the same type test in a row made one block.

    Keywords check the value's type each in its own block (``if isinstance(x, dict):``); after
    the type keyword's own test (``if not (isinstance(x, dict)):``) the next such block is its
    ``else``. The checks run in the same order: only repeated tests go.
    """
    merged: list[str] = []
    header = ""  # the type test whose block `merged` ends with ("" when it ends with another)
    negated = ""  # the type test the last block is the failure of
    for line in lines:
        if line.startswith(" "):
            merged.append(line)
            continue
        if line.startswith("if isinstance(x, ") and line.endswith("):") and " " not in line[17:]:
            test = line[3:-1]
            if test == header:
                continue  # the same test: its lines join the block open above
            if test == negated:
                merged.append("else:")
                header, negated = test, ""
                continue
            header, negated = test, ""
        elif line.startswith("if not (isinstance(x, ") and line.endswith(")):"):
            header, negated = "", line[8:-2]
        else:
            header = negated = ""
        merged.append(line)
    return merged


def with_shallow(node: Node, checks: list[Scalar | Keyword]) -> Node:
    """*node*, told which of *checks* say a value has not even the schema's shape, and its tags."""
    tests = [c.test for c in checks if isinstance(c, Scalar) and c.shallow and c.test is not None]
    followed = [c.shallow for c in checks if isinstance(c, (AnyOf, Reference))]
    if tests or followed:

        def shallow(x: Any) -> bool:
            # Loops, not any() over generators: asked once per variant of every refused union.
            for test in tests:
                if not test(x):
                    return True
            for follow in followed:  # noqa: SIM110 - any() would build a generator per call
                if follow(x):
                    return True
            return False

        node.shallow = shallow
    return _with_tags(node, checks)


def _with_tags(node: Node, checks: list[Scalar | Keyword]) -> Node:
    """*node*, told which of its properties are tags (see `Node.tagged`)."""
    tags = [
        (name, scalar.test)
        for check in checks
        if isinstance(check, Properties)
        for name, child in check.named
        if child.leaf
        for scalar in child.scalars
        if scalar.keyword == "const" and scalar.test is not None
    ]
    followed = [c.tagged for c in checks if isinstance(c, Reference)]
    if tags or followed:

        def tagged(x: object) -> bool | None:
            said: bool | None = None
            value: object = x  # narrowed here, not x (the references ask about x as it is)
            if tags:
                said = True
                if type(value) is dict:
                    members = typing.cast("dict[str, object]", value)
                    for name, test in tags:
                        held = members.get(name, MISSING)
                        if held is not MISSING and not test(held):
                            return False
            for follow in followed:
                found = follow(x)
                if found is False:
                    return False
                if found:
                    said = True
            return said

        node.tagged = tagged
    return node
