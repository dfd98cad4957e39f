"""Paths within arguments, written for messages and details: ``owner.age``, ``$.tags[3]``.

Imports only the standard library and `typed_toolsets.call.shown`.
"""

from __future__ import annotations

import string
from collections.abc import Iterable, Sequence
from typing import Final

from .shown import json_escaped

__all__ = ["dotted_path", "json_path", "shown_dotted_path", "shown_path"]


def json_path(path: Iterable[str | int]) -> str:
    """Write a path as a JSON path: ``$.owner.age``, ``$.tags[3]``, ``$['odd key']``."""
    written = dotted_path(path)  # "$" only for the root: no key is written bare as "$"
    if written == "$":
        return written
    return "$" + written if written.startswith("[") else "$." + written


def dotted_path(path: Iterable[str | int]) -> str:
    """Write a path for a message: ``owner.age``, ``tags[3]``; the root itself is ``$``.

    It is the JSON path (`json_path`) without its leading ``$`` and the dot after it; a refusal's
    message writes one per problem, its details (built when asked) the JSON paths.
    """
    written = ""  # most paths are a key or two: added to in place, without a list to join
    for item in path:
        if isinstance(item, int):
            written += f"[{item}]"
        elif item.isidentifier():
            written = f"{written}.{item}" if written else item
        else:
            written += f"[{json_escaped(repr(item))}]"
    return written or "$"


#: A path longer than this is shown in a message with its middle left out (`_SHOWN_HEAD`
#: characters, "...", `_SHOWN_TAIL`): a key the model sent is echoed, and a message stays short
#: however long the key. The problem's details keep the path whole.
_SHOWN_CHARS: Final = 200
_SHOWN_HEAD: Final = 150
_SHOWN_TAIL: Final = 47


def shown_path(written: str) -> str:
    """A path written by `dotted_path`, as a message shows it: its middle left out when long."""
    if len(written) > _SHOWN_CHARS:
        return f"{written[:_SHOWN_HEAD]}...{written[-_SHOWN_TAIL:]}"
    return written


#: A key longer than this is not written whole for a message (`shown_dotted_path`).
_LONG_KEY: Final = 4 * _SHOWN_CHARS


def shown_dotted_path(path: Sequence[str | int]) -> str:
    """``shown_path(dotted_path(path))``, without writing a long key whole.

    Writing a key quotes and escapes all of it (a key of 700 KB of quotes and backslashes:
    60 ms), and then all but its two ends are left out. A long key is written as a stand-in of
    its two ends that `dotted_path` writes as it writes the key (the same identifier or not, the
    same quote), so the message is the same.
    """
    if not any(type(item) is str and len(item) > _LONG_KEY for item in path):
        return shown_path(dotted_path(path))
    return shown_path(dotted_path([_ends(item) for item in path]))


#: The characters of an ASCII identifier (as bytes, to delete them in C).
_IDENTIFIER_BYTES: Final = (string.ascii_letters + string.digits + "_").encode()


def _identifier(text: str) -> bool:
    """``text.isidentifier()``, in a third of the time for a long ASCII text."""
    if text.isascii():
        return (
            bool(text)
            and not text[0].isdigit()
            and not text.encode().translate(None, _IDENTIFIER_BYTES)
        )
    return text.isidentifier()


def _ends(item: str | int) -> str | int:
    """A long key's two ends, joined by what keeps it written as the key is (see above)."""
    if type(item) is not str or len(item) <= _LONG_KEY:
        return item
    # Each character is written as one or more: these ends give the shown path its own ends.
    head, tail = item[:_SHOWN_CHARS], item[-_SHOWN_CHARS:]
    middle = ""
    if not _identifier(item) and (head + tail).isidentifier():
        middle += " "
    # repr's quote: a double quote only for a key holding ' and no ".
    for quote in "'\"":
        if quote in item and quote not in head + tail:
            middle += quote
    return head + middle + tail
