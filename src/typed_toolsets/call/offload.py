"""Which arguments are read off the event loop: those whose reading may hold it too long.

Used by `typed_toolsets.call.pipeline` (``Pipeline.arun``), which imports `StrictArguments`
already.
"""

from __future__ import annotations

import itertools
import typing
from collections.abc import Collection, Iterable, Mapping
from typing import Final

from .strict import StrictArguments

__all__ = ["OFFLOAD_CHARS", "OFFLOAD_VALUES", "large"]

#: From async code, arguments given as text of at least this many characters (or bytes) are read
#: in a worker thread: reading them (and, when they are refused, finding their problems) may take
#: longer than an event loop should be held. Below it, the most expensive refusals measured
#: (every item of an array short of required fields, or of the wrong depth) hold the loop about
#: 12 ms; the hop to a thread and back costs about 0.2 ms, what reading 30 KB takes.
OFFLOAD_CHARS: Final = 128 * 1024
#: Likewise for a mapping holding at least this many values, at any depth, or strings of at
#: least `OFFLOAD_CHARS` characters in all; and for a shorter text opening this many arrays and
#: objects: building each costs a microsecond or more (a set of nested tuples, two), so a text
#: of 129 KB of them held a loop 116 ms.
OFFLOAD_VALUES: Final = 4096
#: Texts shorter than this are read on the loop without counting their brackets: they cannot
#: open `OFFLOAD_VALUES` arrays and objects (two characters each at least).
_COUNTED_CHARS: Final = 8 * 1024


#: The types of values that hold nothing to read further, as a mapping's values mostly are.
_PLAIN: Final = frozenset({int, float, bool, type(None)})


def _few_values(arguments: object, budget: int) -> bool:
    """Whether a mapping holds at most *budget* values, and strings under `OFFLOAD_CHARS`.

    Its keys' characters count with its values'. Reads no more than that many values. A value's
    type is looked at as it is before any `isinstance` (an abstract class's check costs a
    microsecond each: a small dict took 8 us).
    """
    stack: list[object] = [arguments]
    seen = chars = 0
    try:
        while stack:
            item = stack.pop()
            values: Collection[object]
            left = budget - seen
            if type(item) is list:
                values = typing.cast("list[object]", item)
            elif (plain := type(item) is dict) or isinstance(item, Mapping):
                mapping = typing.cast("Mapping[object, object]", item)
                keys: Collection[object] = mapping
                if not plain:
                    # Its keys may never end, and its length may say anything: one past what
                    # the budget has left is read, no more.
                    keys = list(itertools.islice(mapping, left + 1))
                if len(keys) > left:
                    return False
                # Its keys are read too (an unexpected one is named): a long key counts.
                chars += sum([str.__len__(key) for key in keys if isinstance(key, str)])
                values = mapping.values()
                if not plain:
                    values = list(itertools.islice(values, left + 1))
            else:  # another sequence: read as far as the budget, as another mapping's keys
                values = list(itertools.islice(typing.cast("Iterable[object]", item), left + 1))
            seen += len(values)
            if seen > budget:
                return False
            for value in values:
                kind = type(value)
                if kind is str:
                    chars += str.__len__(typing.cast(str, value))
                elif kind is dict or kind is list:
                    stack.append(value)
                elif kind in _PLAIN:
                    continue
                elif isinstance(value, str):
                    chars += str.__len__(value)
                elif isinstance(value, (Mapping, list, tuple)):
                    stack.append(typing.cast(object, value))
            if chars >= OFFLOAD_CHARS:
                return False  # a long string: its format or pattern is read in C, holding the GIL
    except Exception:  # noqa: BLE001 - a mapping that cannot be read: the exact path says why
        return False
    return True


def _brackets(data: bytes | bytearray) -> int:
    """How many arrays and objects *data* opens, at most (a bracket in a string counts too)."""
    if isinstance(data, bytearray):
        return bytearray.count(data, b"[") + bytearray.count(data, b"{")
    return bytes.count(data, b"[") + bytes.count(data, b"{")


def large(arguments: object) -> bool:
    """Whether reading *arguments* may hold an event loop too long (cheap for small ones).

    Arguments that cannot even be looked at (a ``__class__`` that raises) are: the exact path
    reads them in a worker thread and says why they are refused, as for a sync call.
    """
    try:
        if type(arguments) is StrictArguments:
            # What a model wrote for the strict schema (``adispatch(..., strict=True)``) is read
            # as long as the same arguments unmarked.
            arguments = arguments.arguments
        # The lengths of the values themselves: a subclass's own __len__ may say anything, or
        # raise (the call path reads a subclass's value the same way).
        if isinstance(arguments, str):
            size = str.__len__(arguments)
            return size >= OFFLOAD_CHARS or (
                size >= _COUNTED_CHARS
                and str.count(arguments, "[") + str.count(arguments, "{") >= OFFLOAD_VALUES
            )
        if isinstance(arguments, Mapping):
            return not _few_values(typing.cast(object, arguments), OFFLOAD_VALUES - 1)
        data: bytes | bytearray
        if isinstance(arguments, bytes):
            data, size = arguments, bytes.__len__(arguments)
        elif isinstance(arguments, bytearray):
            data, size = arguments, bytearray.__len__(arguments)
        elif isinstance(arguments, memoryview):
            size = arguments.nbytes
            data = arguments.tobytes() if _COUNTED_CHARS <= size < OFFLOAD_CHARS else b""
        else:
            return False
        return size >= OFFLOAD_CHARS or (
            size >= _COUNTED_CHARS and _brackets(data) >= OFFLOAD_VALUES
        )
    except Exception:  # noqa: BLE001 - the exact path explains it, as an "arguments" error
        return True
