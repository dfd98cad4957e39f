"""A tool's return value as JSON: the value a model reads back, its text, and what has none.

`json_value` writes the value with its return annotation's hooks; `result_text` gives the text
every dialect answers with (a ``str`` as it is), never failing: a part with no JSON form is
written as the best text it has. `not_json` says where and why a value is no JSON value (for
MCP structured content). `valid_text` makes every text sendable (no lone surrogates).
"""

from __future__ import annotations

import json
import math
import typing
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Final

from typed_toolsets.call.paths import json_path
from typed_toolsets.call.proxy import ToolProxy
from typed_toolsets.call.shown import short_text
from typed_toolsets.call.validation import with_article
from typed_toolsets.rules.labels import int_text, safe_repr
from typed_toolsets.rules.sendable import escaped_surrogates, not_finite, valid_text
from typed_toolsets.types.typespec import LONG_INT, MAX_INT_DIGITS

from .mcp_tools import answers_in_text

__all__ = [
    "distinct_keys",
    "json_value",
    "not_json",
    "plain_json",
    "plain_json_text",
    "result_text",
    "valid_text",
]


def _return_hook(proxy: ToolProxy) -> Callable[[Any], Any] | None:
    """The unstructure function of the method's return annotation (None when it has none).

    The one its output schema was built with (`MethodInfo.output_unstructure`): a later
    `register_type` of a type it returns changes neither, as it changes no built tool's
    arguments.
    """
    method = proxy._export.method  # pyright: ignore[reportPrivateUsage]
    return None if method is None else method.output_unstructure


def json_value(proxy: ToolProxy, value: object) -> object:
    """*value*, returned by *proxy*'s method, as a JSON value (by its return annotation)."""
    from typed_toolsets.types.converter import converter

    hook = _return_hook(proxy)
    # When the method returned something other than its annotation says, its own type decides.
    for unstructure in (hook, converter.unstructure):
        if unstructure is not None:
            try:
                return unstructure(value)
            except Exception:  # noqa: BLE001, S112 - try the next way, then give up
                continue
    return value


def result_text(proxy: ToolProxy, value: object, *, indent: int | None = None) -> str:
    """A tool's return value as the text a model (or a person) reads: JSON, or the ``str`` itself.

    A value with no JSON form is still written as JSON text: NaN and the infinities as strings,
    an integer past the interpreter's digit limit as a string saying how long it is, a struct
    field by field, any other part as its repr (its type's name when that fails too). Never
    raises an `Exception`.

    Args:
        proxy: The tool that returned it (its return annotation decides the JSON form).
        value: What the method returned.
        indent: JSON indentation (None: one line).
    """
    if type(value) is str:
        return valid_text(value)
    if isinstance(value, str) and answers_in_text(proxy.output_schema):
        # A str subclass (a StrEnum member) of a `-> str` tool: its text.
        return valid_text(str.__str__(value))
    return _sendable(json_value(proxy, value), lambda data: _written(data, value, indent))


def _sendable(data: object, write: Callable[[object], str]) -> str:
    """*data* as *write* writes it, valid Unicode (`valid_text`), each object's keys distinct.

    Lone surrogates are replaced by U+FFFD: in keys, that may make two of an object's keys one
    (undecodable file names differing in one byte), which `distinct_keys` keeps apart.
    """
    text = write(data)
    valid = valid_text(text)
    if valid is not text:
        keyed = distinct_keys(data)
        if keyed is not data:
            valid = valid_text(write(keyed))
    return valid


def _whole_repr(value: object) -> str:
    """A value with no JSON form, written as a string: its whole repr (it is the tool's output)."""
    return safe_repr(value, None)


def _written(data: object, value: object, indent: int | None) -> str:
    """*data* (*value* as JSON) as JSON text, lone surrogates and all; never raises."""
    try:
        try:
            return json.dumps(data, ensure_ascii=False, allow_nan=False, indent=indent)
        except (TypeError, ValueError):
            # Not JSON as it stands (NaN, an object with no JSON form): still valid JSON text,
            # with such values written as strings (their repr; a type's name when even that
            # fails).
            lenient = _jsonable(data, set(), _Cycles(data))
            return json.dumps(lenient, ensure_ascii=False, indent=indent, default=_whole_repr)
    except RecursionError:
        # json.dumps recurses: a value nested thousands of levels deep (a long chain of a
        # recursive class) has no text it can write, which is said rather than raised.
        return json.dumps(_TOO_DEEP)
    except Exception:  # noqa: BLE001 - a part that breaks even the lenient writing (a key's str)
        return json.dumps(f"<a {type(value).__name__} value that cannot be written as text>")


def distinct_keys(value: object) -> object:
    r"""*value* with the keys of its dicts still distinct once their lone surrogates are replaced.

    `valid_text` replaces each lone surrogate by U+FFFD, so ``"a\udcff"`` and ``"a\udcfe"``
    would become one key (a JSON object holding it twice, or one member lost). In a dict where
    that happens, each key holding one is written with its lone surrogates as ``\uXXXX`` text
    instead (``"a\\udcff"``), one key each (numbered, ``"a\\udcff (2)"``, in the rare dict
    that also has a key spelled so). *value* itself when nothing changes; never raises.
    """
    try:
        return _keyed(value)
    except RecursionError:  # as deep as that, it is written as too deep anyway
        return value


def _keyed(value: object) -> object:
    if isinstance(value, list):
        items = typing.cast("list[object]", value)
        listed = [_keyed(item) for item in items]
        same = all(p is i for p, i in zip(listed, items, strict=True))
        return items if same else listed
    if not isinstance(value, dict):
        return value
    members = typing.cast("dict[object, object]", value)
    parts = {key: _keyed(member) for key, member in members.items()}
    replaced = {valid_text(key) if isinstance(key, str) else key for key in parts}
    if len(replaced) == len(parts):
        return members if all(parts[key] is members[key] for key in parts) else parts
    escaped: dict[object, object] = {}
    for key, member in parts.items():
        written: object = escaped_surrogates(key) if isinstance(key, str) else key
        number = 1
        while written in escaped or (written != key and written in parts):
            # A key also spelled as that text: numbered, so that no member is lost.
            number += 1
            written = f"{escaped_surrogates(typing.cast('str', key))} ({number})"
        escaped[written] = member
    return escaped


_TOO_DEEP: Final = "<a value nested too deeply to write as JSON text>"


def _jsonable(value: object, within: set[int], cycles: _Cycles) -> object:
    if isinstance(value, float) and not math.isfinite(value):
        return repr(value)
    if isinstance(value, int) and not isinstance(value, bool):
        try:
            int.__repr__(value)
        except ValueError:  # over the interpreter's digit limit: no JSON text
            return int_text(value)
        return value
    if value is None or isinstance(value, (str, float, bool)):
        return value
    # The containers written so far on the way here: one met again contains itself.
    if id(value) in within:
        return _CIRCULAR
    within.add(id(value))
    try:
        return _jsonable_parts(value, within, cycles)
    finally:
        within.discard(id(value))


def _jsonable_parts(value: object, within: set[int], cycles: _Cycles) -> object:
    if isinstance(value, Mapping):
        items = typing.cast("Mapping[object, object]", value).items()
        return {str(k): _jsonable(v, within, cycles) for k, v in items}
    if type(value) in _CONTAINERS:
        return [_jsonable(v, within, cycles) for v in typing.cast("list[object]", value)]
    # The whole had no JSON form, this part may (an enum, a UUID beside a naive datetime);
    # without one, a struct is written field by field (the part that has none shows where), a
    # subclass of a container item by item, anything else as its repr (by json.dumps).
    form, reason = _own_json_form(value, cycles)
    if reason is None:
        return _jsonable(form, within, cycles)
    members = _struct_members(value)
    if members is not None:
        return {name: _jsonable(member, within, cycles) for name, member in members}
    if isinstance(value, _CONTAINERS):
        return [_jsonable(v, within, cycles) for v in typing.cast("list[object]", value)]
    return value


#: What stands for a part that contains itself, which no JSON text can hold.
_CIRCULAR: Final = "<a circular reference: this value contains itself>"
#: Why a value holding a part that contains itself is no JSON value.
_CONTAINS_ITSELF: Final = (
    "the value contains itself (a circular reference), which no JSON text can hold"
)


_CONTAINERS: Final = (list, tuple, set, frozenset)


def _struct_members(value: object) -> list[tuple[str, object]] | None:
    """The fields of a struct (attrs class, dataclass, NamedTuple) by JSON name; else None."""
    from typed_toolsets.types.structs import struct_fields

    try:
        fields = struct_fields(type(value))
        if fields is None:
            return None
        return [(field.name, getattr(value, field.attr_name)) for field in fields]
    except Exception:  # noqa: BLE001 - fields that cannot be read: the whole is written as it is
        return None


def not_json(value: object) -> str | None:
    """Where and why *value* is not a JSON value (its first such part), or None."""
    stack: list[tuple[tuple[str | int, ...], object]] = [((), value)]
    cycles = _Cycles(value)
    # The lists and dicts being looked into (met again inside, one contains itself: no JSON text
    # can hold it, and looking on would never end) and those looked at already (a part shared by
    # several is looked at once); each kept, so that no other object takes its id meanwhile.
    entered: dict[int, object] = {}
    done: dict[int, object] = {}
    while stack:
        path, item = stack.pop()
        kind = type(item)
        if item is None or kind is str or kind is bool:
            continue
        if kind is _Left:
            container = typing.cast(_Left, item).container
            del entered[id(container)]
            done[id(container)] = container
            continue
        if id(item) in entered:
            return f"{json_path(path)}: {_CONTAINS_ITSELF}"
        if kind is list or kind is dict:
            if id(item) in done:
                continue
            entered[id(item)] = item
            stack.append((path, _Left(item)))
        if kind is float:
            if not math.isfinite(typing.cast(float, item)):
                return f"{json_path(path)}: {not_finite(typing.cast(float, item))}"
        elif kind is int:
            if abs(typing.cast(int, item)) >= LONG_INT:
                return (
                    f"{json_path(path)}: an integer of more than {MAX_INT_DIGITS:,} digits is not "
                    "a JSON number"
                )
        elif kind is list:
            items = typing.cast("list[object]", item)
            stack.extend(((*path, index), v) for index, v in reversed(list(enumerate(items))))
        elif kind is dict:
            members = typing.cast("dict[object, object]", item)
            for key, v in reversed(members.items()):
                if type(key) is not str:
                    return f"{json_path(path)}: the key {key!r} is not a string"
                stack.append(((*path, key), v))
        else:
            # A part the whole's unstructuring left as it was (it failed elsewhere): its own
            # JSON form is looked at in its place, or why it has none is the answer.
            if kind is _Unwritten:
                # Every field of a struct with no JSON form has one: the struct's reason holds.
                return f"{json_path(path)}: {typing.cast(_Unwritten, item).reason}"
            form, reason = _own_json_form(item, cycles)
            if reason is not None:
                # A struct is looked into first, so the answer names the field that has no form.
                fields = _struct_members(item)
                if fields is None:
                    return f"{json_path(path)}: {reason}"
                entered[id(item)] = item  # its answer is found before it is left
                stack.append((path, _Unwritten(reason)))
                stack.extend(((*path, name), v) for name, v in reversed(fields))
                continue
            stack.append((path, form))
    return None


def plain_json(value: object) -> object:
    """*value*, which `not_json` passes, as plain JSON values, its text valid (`valid_text`).

    A part of another type (an enum member, a UUID a registered type's unstructure left) is
    written by its own JSON form: what a client receives, not the Python object.
    """
    return json.loads(plain_json_text(value))


def plain_json_text(value: object) -> str:
    """The JSON text of `plain_json`'s value: valid Unicode, each object's keys distinct."""
    return _sendable(value, lambda data: json.dumps(data, ensure_ascii=False, default=_json_form))


def _json_form(value: object) -> object:
    form, reason = _own_json_form(value)
    if reason is not None:  # pragma: no cover - not_json found a form for every such part
        raise TypeError(reason)
    return form


class _Left:
    """The end of a list's or dict's items in `not_json`'s stack: it is looked at."""

    __slots__ = ("container",)

    def __init__(self, container: object) -> None:
        self.container = container


class _Unwritten:
    """Why a struct has no JSON form, looked at after its fields (`not_json`)."""

    __slots__ = ("reason",)

    def __init__(self, reason: str) -> None:
        self.reason = reason


def _own_json_form(value: object, cycles: _Cycles | None = None) -> tuple[object, str | None]:
    """*value*'s JSON form by its own type (of no JSON type), or None and why it has none.

    Args:
        value: The part.
        cycles: The parts of the whole being written that reach one containing itself: their
            hooks would recurse without end (an attrs class or dataclass holding itself), so
            they are said to have no form, and a struct is written field by field instead,
            where the part met again is named as a cycle.

    Raises:
        RecursionError: *value* is nested too deeply to write (and contains no cycle).
    """
    from typed_toolsets.types.converter import unstructure_hook

    if cycles is not None and cycles.known(value):
        return None, _CONTAINS_ITSELF
    what = with_article(type(value).__name__)
    try:
        form = unstructure_hook(type(value))(value)
    except RecursionError:
        if cycles is not None and cycles.reach(value):
            return None, _CONTAINS_ITSELF
        raise  # nested too deeply to write, which is no reason of the value's own type
    except Exception as exc:  # noqa: BLE001 - its reason is the message (a naive datetime's)
        try:
            reason = str(exc)
        except Exception:  # noqa: BLE001 - an exception whose own text fails
            reason = ""
        if reason:
            return None, f"{what} has no JSON form: {short_text(reason)}"
        return None, f"{what} is not a JSON value"
    if type(form) is type(value):
        return None, f"{what} is not a JSON value"
    return form, None


class _Cycles:
    """The parts of one value from which a part that contains itself is reached.

    Looked for (`_reaching_cycles`) only when a part's hook ran out of stack, then once for the
    whole value: each of its parts is walked once however many of them reach a cycle, and none
    of those runs its hook again.
    """

    __slots__ = ("_fields", "_reaching", "_root", "_seen")

    def __init__(self, root: object) -> None:
        self._root = root
        self._seen: dict[int, object] | None = None  # None: not looked for yet
        self._reaching: set[int] = set()
        self._fields: dict[type, tuple[str, ...] | None] = {}

    def known(self, value: object) -> bool:
        """Whether *value* is known to reach a cycle (without looking)."""
        return id(value) in self._reaching

    def reach(self, value: object) -> bool:
        """Whether *value* (a part of the root, or a new object) reaches a cycle."""
        if self._seen is None:
            self._seen = {}
            _reaching_cycles(self._root, self._seen, self._reaching, self._fields)
        if id(value) not in self._seen:  # a part a hook made, not one of the root's
            _reaching_cycles(value, self._seen, self._reaching, self._fields)
        return id(value) in self._reaching


def _parts(value: object, fields: dict[type, tuple[str, ...] | None]) -> Iterator[object]:
    """The values *value* holds: a mapping's values, a container's items, a struct's fields.

    *fields* keeps each struct type's attribute names: reading them costs tens of microseconds.
    """
    try:
        if isinstance(value, Mapping):
            return iter(list(typing.cast("Mapping[object, object]", value).values()))
        if isinstance(value, _CONTAINERS):
            return iter(list(typing.cast("list[object]", value)))
        kind = type(value)
        if kind not in fields:
            from typed_toolsets.types.structs import struct_fields

            found = struct_fields(kind)
            fields[kind] = None if found is None else tuple(f.attr_name for f in found)
        names = fields[kind]
        return iter(() if names is None else [getattr(value, name) for name in names])
    except Exception:  # noqa: BLE001 - parts that cannot be read hold no cycle found here
        return iter(())


def _reaching_cycles(
    root: object,
    seen: dict[int, object],
    reaching: set[int],
    fields: dict[type, tuple[str, ...] | None],
) -> None:
    """Add to *reaching* the ids of *root*'s parts from which a part containing itself is reached.

    Depth first, without recursion (the value may be nested past the stack); *seen* keeps each
    part looked at, so that no other object takes its id meanwhile.
    """
    seen[id(root)] = root
    path = {id(root)}  # the parts being looked into: one met again inside contains itself
    stack: list[tuple[object, Iterator[object]]] = [(root, _parts(root, fields))]
    while stack:
        value, parts = stack[-1]
        for part in parts:
            key = id(part)
            if key in path or key in reaching:
                reaching.add(id(value))
            elif key not in seen and not isinstance(part, _LEAVES):
                seen[key] = part
                path.add(key)
                stack.append((part, _parts(part, fields)))
                break
        else:
            stack.pop()
            path.discard(id(value))
            if stack and id(value) in reaching:
                reaching.add(id(stack[-1][0]))


#: Values that hold no others.
_LEAVES: Final = (str, int, float, type(None))
