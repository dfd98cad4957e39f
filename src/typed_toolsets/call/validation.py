r"""The words of argument problems: ``<path>: <reason>``, written for a model to correct its call.

Each problem says which argument, what was wrong and what to send instead, in JSON terms: values
are shown as the model wrote them (``true``, ``null``; strings and keys quoted as every message
has always quoted them, ``'x'``, with JSON's escapes, ``'a\u0000'``), cut to a few dozen
characters however large the value is (`typed_toolsets.call.shown`).

`typed_toolsets.call.checker` finds the problems; this module only words them, so the reasons
are the same whichever engine found a problem. For a schema the checker does not compile itself
(a registered type using keywords the library never writes), jsonschema's errors are turned into
the same problems by `typed_toolsets.call.jsonschema_errors`.
"""

from __future__ import annotations

import itertools
import typing
import weakref
from collections.abc import Callable, Iterable, Iterator, Sequence, Sized
from typing import Any, Final

from typed_toolsets.rules.formats import (
    BY_FORMAT,
    LEAP_SECOND_RULE,
    MISSING_OFFSET_RULE,
    YEAR_ZERO_RULE,
    MisplacedLeapSecondError,
    MissingOffsetError,
    YearZeroError,
)
from typed_toolsets.types.typespec import BoundLost, Path

from .jsonbounds import FLOAT_RANGE
from .quoted import member_hint, quoted_hint, union_hint
from .shown import short, short_text

__all__ = [
    "MAX_PROBLEMS",
    "SHALLOW_KEYWORDS",
    "Problem",
    "as_dict",
    "collect",
    "counted",
    "exception_text",
    "expectation",
    "join_phrases",
    "keyword_reason",
    "missing",
    "reason_of",
    "suffix_of",
    "unbuilt_reason",
    "unexpected",
    "union_expectation",
    "union_mismatch",
    "with_article",
]

#: At most this many problems are reported for one call.
MAX_PROBLEMS: Final = 20

#: The keywords whose failure says a value does not even have a union variant's shape: a variant
#: failing none of them at the value's own path "got somewhere", and its problems are reported.
SHALLOW_KEYWORDS: Final = frozenset({"type", "enum", "const", "format"})

_TYPE_PHRASES: Final = {
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "a boolean",
    "null": "null",
    "array": "an array",
    "object": "an object",
}

#: How a keyword's failure is said when the schema's value is all it needs: ``shown`` is the
#: instance (shortened), ``value`` the keyword's value, ``size`` the instance's length (arrays);
#: ``characters`` and ``entries`` are those nouns in the number of *value*, ``items`` in that
#: of *size*.
_REASONS: Final = {
    "minimum": "{shown} is less than the minimum of {value}",
    "exclusiveMinimum": "{shown} must be greater than {value}",
    "maximum": "{shown} is greater than the maximum of {value}",
    "exclusiveMaximum": "{shown} must be less than {value}",
    "multipleOf": "{shown} is not a multiple of {value}",
    "minLength": "{shown} is shorter than {value} {characters}",
    "maxLength": "{shown} is longer than {value} {characters}",
    "minItems": "has {size} {items}, fewer than the minimum of {value}",
    "maxItems": "has {size} {items}, more than the maximum of {value}",
    "uniqueItems": "has duplicate items; every item must be different",
    "minProperties": "has fewer than {value} {entries}",
    "maxProperties": "has more than {value} {entries}",
}


def counted(count: object, one: str, more: str) -> str:
    """The noun *one* when *count* is 1, else *more* (``1 item``, ``0 items``, ``2 items``)."""
    return one if count == 1 else more


#: First letters after which a class's name takes "an" (a "U" mostly sounds as in "User").
_VOWELS: Final = frozenset("AEIOaeio")
#: How an exception's message is written unless its class says otherwise.
_DEFAULT_STR: Final = BaseException.__str__


def with_article(word: str) -> str:
    """*word* after its indefinite article, by its first letter (``an Owner``, ``a Tree``)."""
    return f"an {word}" if word[:1] in _VOWELS else f"a {word}"


Problem = tuple[Path, str]


# ----------------------------------------------------------------------------------- reasons


def as_dict(value: object) -> dict[str, Any]:
    """*value* if it is a dict (a JSON object or schema), else an empty one."""
    return typing.cast("dict[str, Any]", value) if isinstance(value, dict) else {}


def expectation(given: object) -> str:
    """Describe in a few words what a (sub)schema accepts."""
    return join_phrases(_expected(given))


def _expected(given: object) -> list[str]:
    """What a (sub)schema accepts, one phrase per kind of value (a union's, each variant's)."""
    schema = as_dict(given)
    if not schema:
        return ["a valid value"]
    if "const" in schema:
        return [short(schema["const"])]
    if "enum" in schema:
        return [f"one of {short(schema['enum'], 120)}"]
    if "$ref" in schema:
        return [with_article(f"{str(schema['$ref']).rsplit('/', 1)[-1]} object")]
    declared = schema.get("type")
    if isinstance(declared, str):
        fmt = schema.get("format")
        if isinstance(fmt, str) and fmt in BY_FORMAT:
            return [BY_FORMAT[fmt].hint]
        return [_TYPE_PHRASES.get(declared, declared)]
    if isinstance(declared, list) and declared and all(isinstance(t, str) for t in declared):  # pyright: ignore[reportUnknownVariableType]
        # A registered type's schema may list its types.
        return [_TYPE_PHRASES.get(name, name) for name in typing.cast("list[str]", declared)]
    # The library writes unions as anyOf; a registered type's schema may use oneOf.
    options: list[object] = schema.get("anyOf") or schema.get("oneOf") or []
    if options:
        return [phrase for option in options for phrase in _expected(option)]
    return ["a valid value"]


def join_phrases(phrases: Sequence[str], last: str = " or ") -> str:
    """*phrases* as one, each once: ``a, b or c`` (*last* joins the last two)."""
    unique = list(dict.fromkeys(phrases))
    if len(unique) == 1:
        return unique[0]
    return ", ".join(unique[:-1]) + last + unique[-1]


def reason_of(keyword: str, value: object) -> Callable[[object], str] | None:
    """How a failure of the schema keyword *keyword* of value *value* is said, given the instance.

    The words that depend only on the keyword are written here, once per keyword of a schema.

    Returns:
        The function writing the reason for an instance, or None for a keyword without words of
        its own (jsonschema's message is used).
    """
    if keyword == "type":
        expected = [value] if isinstance(value, str) else list(typing.cast("list[str]", value))
        tail = f" is not of type {join_phrases([repr(t) for t in expected])}"
        wanted = frozenset(expected)
        if "string" in wanted:
            return _suffixed(tail)  # a string is never refused for its type: no hint to give
        return lambda instance: (
            short(instance)
            + tail
            + (quoted_hint(instance, wanted) if type(instance) is str else "")
        )
    if keyword in ("enum", "const"):
        tail = (
            f" is not one of {_enum_members(typing.cast('list[object]', value))}"
            if keyword == "enum"
            else f" is not {short(value)}, the only accepted value"
        )
        members = typing.cast("list[object]", value) if keyword == "enum" else [value]
        if all(isinstance(member, str) for member in members):
            return _suffixed(tail)  # a string holds no other string's JSON: no hint to give
        return lambda instance: (
            short(instance)
            + tail
            + (member_hint(instance, members) if type(instance) is str else "")
        )
    if keyword == "not":
        return _suffixed(f" must not match {short(value)}")
    if keyword == "pattern":  # jsonschema's words, with JSON's escapes and the value cut
        return _suffixed(f" does not match {short(value, _PATTERN_CHARS)}")
    if keyword == "contains":
        return _suffixed(f" has no item matching {short(value)}")
    if keyword == "format":
        row = BY_FORMAT.get(str(value))
        if row is None:
            return _suffixed(f" is not a valid {value}")
        hint = f" is not {row.hint}"
        parse = row.parse
        return lambda instance: _format_reason(parse, hint, instance)
    template = _REASONS.get(keyword)
    if template is None:
        return None

    def reason(instance: object) -> str:
        shown = short(instance)
        size = len(typing.cast("Sized", instance)) if isinstance(instance, list) else 0
        return template.format(
            shown=shown,
            value=value,
            size=size,
            items=counted(size, "item", "items"),
            characters=counted(value, "character", "characters"),
            entries=counted(value, "entry", "entries"),
        )

    return reason


#: A pattern is shown whole up to this many characters.
_PATTERN_CHARS: Final = 120
#: An enum's members are listed whole up to about this many characters, then counted.
_MEMBERS_CHARS: Final = 400


def _enum_members(members: list[object]) -> str:
    """*members* as a message lists them: each one whole, those past `_MEMBERS_CHARS` counted."""
    shown: list[str] = []
    size = 0
    for index, member in enumerate(members):
        text = short(member)
        size += len(text) + 2
        if size > _MEMBERS_CHARS and index:
            return f"[{', '.join(shown)}, ...] ({len(members) - index} more in the schema)"
        shown.append(text)
    return f"[{', '.join(shown)}]"


#: The tail of each reason `_suffixed` made (see `suffix_of`).
_SUFFIXES: Final[weakref.WeakKeyDictionary[Callable[[object], str], str]] = (
    weakref.WeakKeyDictionary()
)


def _suffixed(tail: str) -> Callable[[object], str]:
    """The reason: the instance (shortened), then *tail*."""
    reason: Callable[[object], str] = lambda instance: short(instance) + tail  # noqa: E731
    _SUFFIXES[reason] = tail
    return reason


def suffix_of(reason: Callable[[object], str]) -> str | None:
    """*reason*'s words after the instance, when it is ``short(instance)`` followed by them.

    Generated code then writes the reason itself (``short(v) + tail``): a problem costs one
    Python frame fewer.
    """
    return _SUFFIXES.get(reason)


def keyword_reason(keyword: str, value: object, instance: object) -> str | None:
    """What to say when *instance* fails the schema keyword *keyword* of value *value*.

    Returns:
        The reason, or None for a keyword without its own words (jsonschema's message is used).
    """
    reason = reason_of(keyword, value)
    return None if reason is None else reason(instance)


def _format_reason(parse: Callable[[str], object], hint: str, instance: object) -> str:
    """Why *instance* is no value of a format: *hint* (what it is not), or the true reason.

    A string of the format's grammar may still be refused: a leap second at another minute (the
    rule is added), a date in the year 0000 (valid RFC 3339 that Python cannot hold: said so).
    """
    shown = short(instance)
    broken = _rule_broken(parse, instance)
    if broken is YEAR_ZERO_RULE:
        return f"{shown} {YEAR_ZERO_RULE}"
    return f"{shown}{hint}; {broken}" if broken else shown + hint


def _rule_broken(parse: Callable[[str], object], instance: object) -> str | None:
    """The rule a text of a format's grammar breaks, if the grammar does not show it.

    `LEAP_SECOND_RULE`, `MISSING_OFFSET_RULE` (a time written as Python writes a naive one) or
    `YEAR_ZERO_RULE`; None when *instance* is valid or breaks the grammar otherwise.
    """
    if isinstance(instance, str):
        try:
            parse(instance)
        except MisplacedLeapSecondError:
            return LEAP_SECOND_RULE
        except MissingOffsetError:
            return MISSING_OFFSET_RULE
        except YearZeroError:
            return YEAR_ZERO_RULE
        except ValueError:
            pass
    return None


def _format_rules(instance: object, options: Sequence[object]) -> str:
    """The rule a string refused by a union breaks in a format variant (see `_rule_broken`)."""
    if type(instance) is not str:
        return ""
    for option in options:
        fmt = as_dict(option).get("format")
        if isinstance(fmt, str) and fmt in BY_FORMAT:
            broken = _rule_broken(BY_FORMAT[fmt].parse, instance)
            if broken is not None:
                return f"; it {broken}" if broken is YEAR_ZERO_RULE else f"; {broken}"
    return ""


def missing(*, top: bool) -> str:
    """The reason for an absent required property: an argument (at the *top*) or a field."""
    return f"missing required {'argument' if top else 'field'}"


def unexpected(allowed: Sequence[str], *, top: bool) -> str:
    """The reason for a property its object does not declare: an argument (at the *top*) or not.

    Args:
        allowed: The names the object declares.
        top: The object is the arguments themselves.
    """
    noun = "argument" if top else "field"
    if not allowed:
        return (
            f"unexpected {noun}; {'the tool takes no arguments' if top else 'no field is allowed'}"
        )
    return f"unexpected {noun}; expected only: {', '.join(allowed)}"


def union_expectation(options: Sequence[object]) -> str:
    """What a union accepts, in a few words: each of its variants' `expectation`."""
    return join_phrases([phrase for option in options for phrase in _expected(option)])


def union_mismatch(instance: object, options: Sequence[object], expected: str | None = None) -> str:
    """The reason for a value that has the shape of none of a union's variants.

    Args:
        instance: The value.
        options: The union's variants (schemas).
        expected: ``union_expectation(options)``, when the caller keeps it.
    """
    if expected is None:
        expected = union_expectation(options)
    hint = union_hint(instance, options) + _format_rules(instance, options)
    return f"{short(instance)} is not valid here; expected {expected}{hint}"


def collect(
    stream: Iterable[Problem], cap: int = MAX_PROBLEMS, *, distinct: bool = False
) -> tuple[list[Problem], bool]:
    """The first *cap* different problems of *stream*, and whether it holds more.

    Reads the stream only as far as it needs: one problem past the cap at most.

    Args:
        stream: The problems, in order; a problem may come more than once.
        cap: How many to keep.
        distinct: The stream is known never to hold a problem twice (see `Checker.distinct`):
            past the first problem, it is read in C, with no set of the problems seen.
    """
    found: list[Problem] = []
    seen: set[Problem] | None = None  # built at the second problem: most refusals have one
    problems = iter(stream)
    for problem in problems:
        if not found:
            if not cap:
                return found, True
            found.append(problem)
            continue
        if distinct:
            found.append(problem)
            found += itertools.islice(problems, cap - 1)  # up to one past the cap
            if len(found) > cap:
                del found[cap:]
                return found, True
            return found, False
        if seen is None:  # the second problem: the first is the only one found
            seen = {found[0]}
        if problem in seen:
            continue
        if len(found) == cap:
            return found, True
        seen.add(problem)
        found.append(problem)
    return found, False


# ------------------------------------------------------------------- values that do not build


def unbuilt_reason(value: object, cause: BaseException | None) -> str:
    """The reason for a value the schema accepts but the type cannot be built from.

    Args:
        value: The innermost part that failed.
        cause: What stopped it: an exception from a hook or a class's own validator (its message
            is meant for the caller), or None when it matched no structure.
    """
    shown = short(value)
    if isinstance(cause, OverflowError) and _past_floats(value):
        return f"{shown} is too large for a float; {FLOAT_RANGE}"
    if isinstance(cause, BoundLost):
        return _bound_lost_reason(shown, cause)
    if cause is None:
        return f"{shown} does not match the expected structure"
    # The type and message of what the tool author's own code raised, as for a failing tool.
    return f"{shown} is not accepted: {exception_text(cause, 200)}"


def _past_floats(value: object) -> bool:
    """Whether *value* is an integer too large for a float (a hook's own overflow is not that)."""
    if not isinstance(value, int) or isinstance(value, bool):
        return False
    try:
        float(value)
    except OverflowError:
        return True
    return False


#: Why a whole number past 2**53 changes when read as a float.
_FLOAT_WHOLES: Final = "a float holds whole numbers exactly only up to 2**53 = 9007199254740992"


def _bound_lost_reason(shown: str, lost: BoundLost) -> str:
    """Why a value within its bounds is refused: what was read from it is not (`BoundLost`)."""
    result = lost.result
    if isinstance(result, int):
        broken = keyword_reason(lost.keyword, lost.limit, result)
        return (
            f"{shown} is read as the whole number {short(result)} ({_FLOAT_WHOLES}), and "
            f"{broken}; write all its digits, as an integer"
        )
    if isinstance(result, float):
        broken = keyword_reason(lost.keyword, lost.limit, result)
        return (
            f"{shown} is {short(result)} as a float ({_FLOAT_WHOLES}), and {broken}; send a "
            "number that stays within the bounds as a float"
        )
    items = list(typing.cast("Iterable[object]", result))
    broken = keyword_reason(lost.keyword, lost.limit, items)
    return (
        f"{shown} holds {len(items)} different {counted(len(items), 'item', 'items')} once read "
        "(items equal in Python count once in a set, such as whole numbers past 2**53 read as "
        f"one float), so the set {broken}; send items that stay different"
    )


def exception_text(exc: BaseException, limit: int) -> str:
    """``<Type>: <message>`` of *exc* (its type alone without a message), cut to *limit*.

    An exception raised with a message and then more (attrs' validators raise
    ``ValueError(message, attribute, options, value)``) has the message alone: the default
    ``str()`` would write the tuple of all of them, Python reprs included. An exception group's
    message only counts its members (``While structuring Inner (2 sub-exceptions)``, ``unhandled
    errors in a TaskGroup (1 sub-exception)``): what went wrong follows it, each innermost
    exception in turn, in cattrs' words with its path within the value for cattrs' own
    (``invalid value for type, expected int @ $.x``).
    """
    try:
        args = exc.args
        if len(args) > 1 and isinstance(args[0], str) and type(exc).__str__ is _DEFAULT_STR:
            text = str.__str__(args[0])
        else:
            text = str(exc)
        leaves = _group_leaves(exc, limit)
        if leaves:
            text = f"{text}: {'; '.join(leaves)}" if text else "; ".join(leaves)
    except Exception:  # noqa: BLE001 - a broken __str__ must not break the error path
        text = ""
    # The class's own name, past any ``__name__`` its metaclass defines (which may raise).
    name: str = _TYPE_NAME.__get__(type(exc), type)
    return f"{name}: {short_text(text, limit)}" if text else name


_TYPE_NAME: Final = vars(type)["__name__"]


#: At most this many innermost exceptions of a group are written (each is cut anyway).
_LEAVES: Final = 8
#: The walk looks at this many members at most (a group is any size: counting is bounded too).
_COUNTED: Final = 10_000


def _group_leaves(exc: BaseException, limit: int) -> list[str]:
    """What the innermost exceptions of *exc*, an exception group, say; nothing for another.

    In order, depth first, without recursing; a group met again (one holding itself) is passed
    over. A cattrs error, at any depth, says its own in cattrs' words. Past `_LEAVES`, the last
    says how many more there are.
    """
    if not _members(exc):
        return []
    leaves: list[str] = []
    more = steps = 0
    seen = {id(exc)}
    walks: list[Iterator[str | BaseException]] = [iter(_cattrs_words(exc) or _members(exc))]
    # Every member looked at is a step (a group met again too), so the walk is bounded.
    while walks and steps <= _COUNTED:
        steps += 1
        member = next(walks[-1], None)
        if member is None:
            walks.pop()
        elif not isinstance(member, str) and _members(member):
            if id(member) not in seen:
                seen.add(id(member))
                walks.append(iter(_cattrs_words(member) or _members(member)))
        elif len(leaves) == _LEAVES:
            more += 1  # counted, not written
        else:  # cattrs' words for a part, or an innermost exception
            leaves.append(member if isinstance(member, str) else exception_text(member, limit))
    if walks and more:  # stopped before the end
        leaves.append(f"and at least {more:,} more {counted(more, 'exception', 'exceptions')}")
    elif walks:
        leaves.append("and the rest not looked at")
    elif more:
        leaves.append(f"and {more:,} more {counted(more, 'exception', 'exceptions')}")
    return leaves


def _cattrs_words(group: BaseException) -> list[str]:
    """The words of cattrs for its errors in *group*, each with its path; none for another."""
    if type(group).__module__.partition(".")[0] != "cattrs":
        return []
    # A cattrs error was raised by cattrs, so it is loaded.
    from cattrs import transform_error

    return transform_error(group)


def _members(exc: BaseException) -> tuple[BaseException, ...]:
    """The exceptions *exc* groups: Python's groups, or the backport's on Python 3.10."""
    members: object = getattr(exc, "exceptions", None)
    if isinstance(members, tuple) and callable(getattr(exc, "derive", None)):
        return typing.cast("tuple[BaseException, ...]", members)
    return ()
