"""Control characters shown, not obeyed: the one escaping of every text a terminal or model reads.

A text a program printed, a pure-Python tool computed or a docstring holds may carry an ESC that
starts a terminal sequence, or a bidirectional override that shows the text around it in
another order; each is written as a visible escape instead. Standard library only.
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["escape_controls"]

#: The bidirectional embeddings, overrides and isolates: shown raw they reorder the text around
#: them, so a reader sees another text than the one there ("Trojan Source").
_BIDI: Final = (*range(0x202A, 0x202F), *range(0x2066, 0x206A))


def _control_table(escape: str) -> dict[int, str]:
    controls = [*range(0x20), 0x7F, *range(0x80, 0xA0)]
    table = {c: escape.format(c) for c in controls if c not in (0x09, 0x0A, 0x0D)}
    return table | {c: f"\\u{c:04x}" for c in _BIDI}


_CONTROLS: Final = _control_table("\\x{:02x}")
#: The same characters in JSON's spelling: inside a JSON text's strings, the text stays JSON.
_JSON_CONTROLS: Final = _control_table("\\u{:04x}")
# One fixed character class (linear, no backtracking). Substituting only where it matches keeps
# the common case, text with no control character, at a scan: str.translate with a table costs
# about 50 ms per MB of non-ASCII text.
_CONTROL_CHAR: Final = re.compile("[" + "".join(map(chr, _CONTROLS)) + "]")


def _escape(match: re.Match[str]) -> str:
    return _CONTROLS[ord(match.group())]


def _json_escape(match: re.Match[str]) -> str:
    return _JSON_CONTROLS[ord(match.group())]


def escape_controls(text: str, *, json: bool = False) -> str:
    r"""Write C0/C1 control characters (not ``\t``, ``\n`` or a CRLF's ``\r``) as ``\xNN``.

    The bidirectional embeddings, overrides and isolates (U+202A to U+202E, U+2066 to U+2069)
    are written ``\uNNNN``: they would show the text around them in another order.

    Every text the built-in tools return passes through here (or their `decode_output`), so what
    a program printed and what a pure-Python tool computed are escaped alike; the command line
    shows docstrings through it too.

    Args:
        text: The text.
        json: *text* is JSON (a GitHub API response): they are written ``\u00NN``, as JSON
            writes them, so that a DEL or a C1 character a string held raw (JSON allows it)
            leaves the text JSON.
    """
    escaped = _CONTROL_CHAR.sub(_json_escape if json else _escape, text)
    if "\r" not in escaped:
        return escaped
    cr = "\\u000d" if json else "\\x0d"
    return "\r\n".join(part.replace("\r", cr) for part in escaped.split("\r\n"))
