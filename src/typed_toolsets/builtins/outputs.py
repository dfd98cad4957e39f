r"""Turning a program's raw output into text that is safe to hand to a model or a terminal.

Output is decoded as UTF-8 with replacement (a program can print any bytes), control characters
other than tab and newline are written as visible escapes (``\x1b``) so that ANSI/OSC sequences
in searched text or in GitHub content cannot drive a terminal, and known secrets are redacted.
A carriage return stays as it is only in a CRLF line ending.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from typing import Final

from typed_toolsets.rules.controls import escape_controls

__all__ = [
    "REDACTED",
    "cap_answer",
    "cut_to_lines",
    "decode_output",
    "quote_pattern",
    "redact",
    "redact_cut_end",
]

REDACTED: Final = "[REDACTED]"


#: One escape as `escape_controls` writes it, in UTF-8: where a cut inside a line must not fall.
_ESCAPE: Final = re.compile(rb"\\x[0-9a-f]{2}|\\u[0-9a-f]{4}")


def quote_pattern(pattern: str) -> str:
    r"""*pattern* as every text tool's answer and error quotes it: in single quotes, escaped.

    Raw rather than ``repr``: a model reads ``'\d+'`` as the pattern it sent, while ``repr``
    would show ``'\\d+'``, a different pattern.
    """
    return f"'{escape_controls(pattern)}'"


def decode_output(data: bytes) -> str:
    """Decode program output (UTF-8, invalid bytes replaced) and escape control characters."""
    return escape_controls(data.decode("utf-8", errors="replace"))


def cut_to_lines(data: bytes) -> bytes:
    """Drop a trailing partial line from output cut at a byte budget (keeps whole lines only)."""
    end = data.rfind(b"\n")
    return data[: end + 1] if end >= 0 else data


def _outside_escape(data: bytes, end: int) -> int:
    r"""*end*, or the start of the ``\xNN`` (or ``\uNNNN``) escape in *data* it would cut in two.

    A cut ``\x1`` reads as a different text; ``\x1b`` written by the sender is kept whole too.
    """
    # Two escapes cannot overlap (a hex digit is not a backslash): at most one straddles *end*.
    for start in range(max(end - 5, 0), end):
        if _ESCAPE.match(data, start):
            return start
    return end


def _decode_cut(data: bytes) -> str:
    """Decode UTF-8 (lone surrogates allowed) that may end inside a character: drop that part."""
    for end in range(len(data), max(len(data) - 4, -1), -1):
        try:
            return data[:end].decode("utf-8", "surrogatepass")
        except UnicodeDecodeError:
            continue
    return ""  # pragma: no cover - text encoded from a str cuts to a character in 3 bytes


def cap_answer(text: str, *, max_bytes: int, note: str, cut: bool = False) -> str:
    r"""*text* if it fits in *max_bytes* UTF-8 bytes; else as many whole lines as fit, then *note*.

    Applied to a tool's answer after escaping, since escaping turns one control byte into four
    characters: what the model receives is what is capped. The note counts against the cap too.
    A first line longer than the cap is cut inside the line, at a character and not inside a
    ``\xNN`` escape; a cap too small for the note gives the note alone, cut.

    Args:
        text: The escaped answer.
        max_bytes: The cap on the returned text, in UTF-8 bytes.
        note: One line saying the answer was cut and what to do instead.
        cut: The text is already cut short (a program's output stopped at its own cap): add
            *note* even if the text fits.
    """
    # Quick cases first: no code point takes more than 4 bytes, and none fewer than 1.
    if not cut and len(text) * 4 <= max_bytes:
        return text
    data = text.encode("utf-8", "surrogatepass")
    if not cut and len(data) <= max_bytes:
        return text
    note_data = note.encode()
    if len(note_data) >= max_bytes:  # no room for text: the note alone, cut to the cap
        return _decode_cut(note_data[:max_bytes])
    room = max_bytes - len(note_data) - 1
    kept = data if len(data) <= room else cut_to_lines(data[: _outside_escape(data, room)])
    answer = _decode_cut(kept)
    return answer + ("" if not answer or answer.endswith("\n") else "\n") + note


def redact(text: str, secrets: Iterable[str]) -> str:
    """Replace every occurrence of each non-trivial secret in *text* with `REDACTED`."""
    for secret in secrets:
        if len(secret) >= 4 and secret in text:
            text = text.replace(secret, REDACTED)
    return text


def redact_cut_end(data: bytes, secrets: Iterable[str]) -> bytes:
    """*data*, cut at a cap, its end redacted when it is the beginning of a secret cut there.

    A secret cut in two is not found whole by `redact`; what is left of it (four characters or
    more) is replaced with `REDACTED` too. Whole secrets are `redact`'s, after decoding.
    """
    for secret in secrets:
        # As gh got it from its environment (a lone surrogate as the byte it stands for).
        encoded = os.fsencode(secret)
        for size in range(len(encoded) - 1, 3, -1):
            if data.endswith(encoded[:size]):
                return data[:-size] + REDACTED.encode()
    return data
