r"""Pure text operations with the seed library's (Ruby's) exact semantics.

The seed's tools are Ruby one-liners; a faithful port has to reproduce Ruby's primitives, which
differ from Python's in small ways that change outputs:

- ``String#lines`` splits only *after* ``"\n"`` and keeps the terminator (``"a\r\nb"`` is two
  lines, ``"a\rb"`` one); Python's ``splitlines`` also breaks on ``\r``, ``\v``, ``\f``,
  ``\x1c``-``\x1e``, ``\x85``, ``\u2028`` and ``\u2029``.
- ``chomp`` removes one trailing ``"\n"``, ``"\r\n"`` or ``"\r"``.
- ``split(/\s+/)`` splits on ASCII whitespace only (space, ``\t``, ``\n``, ``\v``, ``\f``,
  ``\r``); Python's ``str.split()`` also splits on Unicode spaces.
- ``\w`` is ASCII ``[A-Za-z0-9_]``; ``length`` counts code points.
- ``Array#[]`` with a range clamps and counts negative ends from the back.
- ``String#to_f`` reads the longest numeric prefix and gives ``0.0`` for none.
- ``Float#round(2)`` rounds half away from zero on the decimal value; ``Float#to_s`` prints the
  shortest round-tripping form.

Every function here is linear in its input (apart from sorting) and needs no external program.
"""

from __future__ import annotations

import math
from typing import Final

__all__ = [
    "chomp",
    "count_lines",
    "extract_lines",
    "ruby_lines",
    "ruby_round2",
    "ruby_to_f",
    "sort_lines",
    "summarize",
    "unique_lines",
    "word_count",
]

_ASCII_SPACE: Final = " \t\n\v\f\r"
_TO_SPACE: Final = str.maketrans(dict.fromkeys(_ASCII_SPACE[1:], " "))
_WORD_BYTES: Final = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")
_NON_WORD_ASCII: Final = bytes(b for b in range(128) if b not in _WORD_BYTES)
_DIGITS: Final = "0123456789"


def ruby_lines(text: str) -> list[str]:
    r"""``text.lines``: split after each ``\n``, keeping it; ``""`` gives ``[]``."""
    parts = text.split("\n")
    lines = [part + "\n" for part in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines


def count_lines(text: str) -> int:
    """``text.lines.count`` without building the list."""
    return text.count("\n") + (1 if text and not text.endswith("\n") else 0)


def chomp(line: str) -> str:
    r"""``line.chomp``: drop one trailing ``\r\n``, ``\n`` or ``\r``."""
    if line.endswith("\r\n"):
        return line[:-2]
    if line.endswith(("\n", "\r")):
        return line[:-1]
    return line


def _words(text: str) -> list[str]:
    r"""``text.split(/\s+/).reject(&:empty?)``: runs of non-ASCII-whitespace."""
    return [word for word in text.translate(_TO_SPACE).split(" ") if word]


def word_count(text: str, *, lines_only: bool, words_only: bool, chars_only: bool) -> str:
    """The seed's ``word_count`` output."""
    if lines_only:
        return f"Lines: {count_lines(text)}"
    if words_only:
        return f"Words: {len(_words(text))}"
    if chars_only:
        return f"Characters: {len(text)}"
    return f"Lines: {count_lines(text)}, Words: {len(_words(text))}, Characters: {len(text)}"


def extract_lines(text: str, start_line: int, end_line: int | None) -> str:
    """The seed's ``extract_lines``: 1-based lines, with Ruby's slicing rules.

    ``lines[start..end]`` where ``start = max(start_line - 1, 0)`` and
    ``end = min(end_line - 1, n - 1)``: a start past the end gives ``""``, and a negative end
    counts from the back (``end_line=0`` is "through the last line"). Without ``end_line``, the
    single line ``start_line``.
    """
    lines = ruby_lines(text)
    count = len(lines)
    start = max(start_line - 1, 0)
    if start > count:
        return ""
    if end_line is None:
        return "".join(lines[start : start + 1])
    end = min(end_line - 1, count - 1)
    if end < 0:
        end += count
        if end < 0:
            return ""
    return "".join(lines[start : end + 1])


def unique_lines(text: str, *, preserve_order: bool) -> str:
    r"""The seed's ``unique_lines``: chomped lines, first one kept (or sorted), each + ``\n``."""
    lines = [chomp(line) for line in ruby_lines(text)]
    unique = list(dict.fromkeys(lines)) if preserve_order else sorted(set(lines))
    return "".join(line + "\n" for line in unique)


def sort_lines(text: str, *, reverse: bool, numeric: bool) -> str:
    r"""The seed's ``sort_lines``: chomped lines sorted (by ``to_f`` when *numeric*), each + ``\n``.

    Ruby's ``sort_by`` is not stable; this sort is, so equal keys keep their input order (before
    the optional reversal, which, as in the seed, happens after sorting).
    """
    lines = [chomp(line) for line in ruby_lines(text)]
    if numeric:
        lines.sort(key=ruby_to_f)
    else:
        lines.sort()
    if reverse:
        lines.reverse()
    return "".join(line + "\n" for line in lines)


def _digits_with_underscores(text: str, index: int) -> int:
    """End of a run of digits starting at *index*, with Ruby's single ``_`` between digits."""
    end = index
    while end < len(text):
        digit = text[end] in _DIGITS
        # Ruby accepts one underscore between two digits ("1_000"), nowhere else.
        joiner = text[end] == "_" and end > index and text[end + 1 : end + 2] in tuple(_DIGITS)
        if digit or joiner:
            end += 1
        else:
            break
    return end


def ruby_to_f(text: str) -> float:
    """``String#to_f``: the longest decimal prefix (after ASCII whitespace), else ``0.0``.

    Accepts a sign, digits with single underscores between them, a fraction (a ``.`` followed
    by a digit) and an exponent; hexadecimal, ``Infinity`` and ``NaN`` read as ``0.0``.
    """
    i = 0
    while i < len(text) and text[i] in _ASCII_SPACE:
        i += 1
    start = i
    if i < len(text) and text[i] in "+-":
        i += 1
    int_end = _digits_with_underscores(text, i)
    has_digits = int_end > i
    end = int_end
    if end + 1 < len(text) and text[end] == "." and text[end + 1] in _DIGITS:
        end = _digits_with_underscores(text, end + 1)
        has_digits = True
    if not has_digits:
        return 0.0
    if end < len(text) and text[end] in "eE":
        j = end + 1
        if j < len(text) and text[j] in "+-":
            j += 1
        exp_end = _digits_with_underscores(text, j)
        if exp_end > j:
            end = exp_end
    number = text[start:end].replace("_", "")
    try:
        return float(number)
    except ValueError:  # pragma: no cover - the scan above only admits valid literals
        return 0.0


def ruby_round2(value: float) -> float:
    """``Float#round(2)``: half away from zero, as Ruby computes it (``round_half_up``).

    Ruby rounds ``x * 100`` half away from zero, then steps up when ``(f + 0.5) / 100`` is still
    not above ``x``, which rounds on the decimal value the float prints as (``2.675`` gives
    ``2.68``, where Python's ``round`` gives ``2.67``).
    """
    if not math.isfinite(value):
        return value
    scaled = abs(value) * 100.0
    rounded = math.floor(scaled)
    if scaled - rounded >= 0.5:
        rounded += 1
    if (rounded + 0.5) / 100.0 <= abs(value):
        rounded += 1
    return math.copysign(rounded / 100.0, value)


def _format_average(total: int, count: int) -> str:
    # Ruby prints the Integer 0 for an empty input and Float#to_s (repr-like) otherwise.
    if count == 0:
        return "0"
    return repr(ruby_round2(total / count))


def summarize(text: str) -> str:
    """The seed's ``summarize_text`` block (no trailing newline)."""
    line_count = count_lines(text)
    words = _words(text)
    chars = len(text)
    frequencies: dict[str, int] = {}
    for word in words:
        key = word.lower().encode("ascii", "ignore").translate(None, _NON_WORD_ASCII).decode()
        frequencies[key] = frequencies.get(key, 0) + 1
    ranked = sorted(
        ((word, count) for word, count in frequencies.items() if len(word) >= 3),
        key=lambda item: -item[1],
    )[:5]
    word_chars = sum(len(word) for word in words)
    summary = [
        "Text Summary:",
        f"  Lines: {line_count}",
        f"  Words: {len(words)}",
        f"  Characters: {chars}",
        f"  Average line length: {_format_average(chars, line_count)}",
        f"  Average word length: {_format_average(word_chars, len(words))}",
    ]
    if ranked:
        summary.append("  Most frequent words:")
        summary.extend(f"    {word}: {count}" for word, count in ranked)
    return "\n".join(summary)
