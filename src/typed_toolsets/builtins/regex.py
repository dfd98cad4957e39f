r"""Case-insensitive line filtering with RE2: linear time, whatever the pattern.

The seed filters with Ruby's backtracking engine, so a pattern like ``(a+)+$`` can hang the
process (and Python's ``re`` is no better: it also holds the GIL, so no thread timeout can stop
it). RE2 (google-re2) matches in time linear in the text, by construction. There is no fallback
to ``re``: RE2 syntax it lacks (backreferences, lookaround, atomic groups, possessive
quantifiers, ``\Z``) is an `InvalidPatternError` naming the construct.

Line semantics follow the seed: a line matches when the pattern matches anywhere in it; ``^``
and ``$`` match at the start and end of each line (Ruby's anchors are always line anchors).
The line terminator is not part of what is matched (so ``^$`` finds blank lines, and a pattern
cannot match the newline itself); kept lines are returned with their terminators.

For speed the whole text is searched at once with RE2's ``never_nl`` option (no match can
cross a newline) and multi-line anchors; only ``\A`` and ``\z``, which mean "start/end of the
text" there but "start/end of the line" in the seed, need the slower line-by-line search.

Linear is not cheap: RE2's time per byte grows with the compiled program, up to a few
nanoseconds per instruction per byte when its DFA gives way to the NFA (counted repetitions:
``a[ab]{200}c`` over random ``ab`` text), and a few hundred nanoseconds per byte even for a tiny
program whose DFA keeps building states. So a pattern is refused when its program size times the
text's size is over `MAX_WORK`, and `_MAX_MEM` keeps compiling a 4 KB pattern to about 0.1 s.
"""

from __future__ import annotations

from typing import Final, Protocol

import re2

from .exceptions import InvalidPatternError
from .outputs import escape_controls, quote_pattern

__all__ = ["MAX_WORK", "filter_lines"]

#: RE2's memory budget per compiled pattern (program and DFA cache). It also caps the program at
#: about 400,000 instructions, which compile in about 0.15 s; 64 MiB admitted 2.4 million, 1.6 s.
_MAX_MEM: Final = 8 << 20
#: Largest program size (RE2 instructions) times text size (bytes) that filter_lines runs.
#: Measured worst cases at the limit (google-re2 1.1, one core of a shared 2-core machine):
#: ``a[ab]{19}c`` (25 instructions) over 8 MB of random ``ab``: 2.0 s; ``a[ab]{194}c`` over 1 MB:
#: 1.2 s. Without it, ``\pL{1000}\pL{1000}z`` over 8 MB of letters ran for 101 s.
MAX_WORK: Final = 200_000_000


class _Match(Protocol):
    def start(self) -> int: ...


class _Regex(Protocol):
    @property
    def programsize(self) -> int: ...

    def search(self, text: bytes, pos: int | None = None) -> _Match | None: ...


def _options(*, never_nl: bool) -> re2.Options:
    options = re2.Options()
    options.case_sensitive = False
    # Invalid patterns are reported to the caller; absl's stderr logging would only add noise.
    options.log_errors = False
    options.never_nl = never_nl
    options.max_mem = _MAX_MEM
    return options


def _uses_text_anchors(pattern: str) -> bool:
    r"""Whether *pattern* contains the escapes ``\A`` or ``\z`` (not an escaped backslash)."""
    i = 0
    while i < len(pattern) - 1:
        if pattern[i] == "\\":
            if pattern[i + 1] in "Az":
                return True
            i += 2
        else:
            i += 1
    return False


def _reason(exc: re2.error) -> str:
    reason = exc.args[0] if exc.args else "invalid pattern"
    if isinstance(reason, bytes):
        reason = reason.decode("utf-8", "replace")
    # RE2 quotes the offending part of the pattern raw; escape it like every tool output.
    return escape_controls(str(reason))


def _compile(pattern: str, *, never_nl: bool) -> _Regex:
    try:
        return re2.compile(pattern, _options(never_nl=never_nl))
    except re2.error as exc:
        reason = _reason(exc)
        if reason.startswith("pattern too large"):
            advice = (
                "the pattern compiles to a program too large for RE2; use a smaller repetition "
                "count (a{1,50} rather than a{1,1000}) or a narrower class ([a-z] rather than \\pL)"
            )
        else:
            advice = (
                "filter_lines takes RE2 syntax (like Python's re, without backreferences, "
                "lookahead/lookbehind, atomic groups or possessive quantifiers); rewrite the "
                "pattern without them"
            )
        msg = f"RE2 cannot use the pattern {quote_pattern(pattern)}: {reason}; {advice}"
        raise InvalidPatternError(msg) from None


def _check_work(regex: _Regex, pattern: str, size: int) -> None:
    """Refuse to run *regex* over *size* bytes when that may take seconds (see `MAX_WORK`)."""
    program = regex.programsize
    if program * size <= MAX_WORK:
        return
    msg = (
        f"the pattern {quote_pattern(pattern)} compiles to a program too large to run over this "
        f"text: {program:,} RE2 instructions times {size:,} bytes is over the limit of "
        f"{MAX_WORK:,}; use a smaller repetition count (a{{1,50}} rather than a{{1,1000}}) or a "
        "narrower class ([a-z] rather than \\pL), or filter a smaller part of the text"
    )
    raise InvalidPatternError(msg)


def _line_bounds(data: bytes, position: int) -> tuple[int, int]:
    r"""The [start, end) of the line holding *position*, end including its ``\n``."""
    start = data.rfind(b"\n", 0, position) + 1
    newline = data.find(b"\n", position)
    end = len(data) if newline < 0 else newline + 1
    return start, end


def _matching_spans(regex: _Regex, data: bytes) -> list[tuple[int, int]]:
    """Spans of the lines of *data* in which *regex* (never_nl, multi-line) matches."""
    spans: list[tuple[int, int]] = []
    position = 0
    size = len(data)
    while True:
        match = regex.search(data, position)
        if match is None:
            break
        found = match.start()
        if found == size and (size == 0 or data.endswith(b"\n")):
            break  # the empty "line" after a final newline is not a line
        start, end = _line_bounds(data, found)
        spans.append((start, end))
        if end >= size:
            break
        position = end
    return spans


def _split_lines(data: bytes) -> list[bytes]:
    parts = data.split(b"\n")
    lines = [part + b"\n" for part in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines


def filter_lines(text: str, pattern: str, *, invert: bool) -> str:
    """Keep the lines of *text* that match *pattern* case-insensitively (or, if *invert*, don't).

    Raises:
        InvalidPatternError: RE2 rejects the pattern.
    """
    data = text.encode("utf-8", "surrogatepass")
    if _uses_text_anchors(pattern):
        regex = _compile(pattern, never_nl=False)
        _check_work(regex, pattern, len(data))
        kept = [
            line
            for line in _split_lines(data)
            if (regex.search(line[:-1] if line.endswith(b"\n") else line) is None) == invert
        ]
        return b"".join(kept).decode("utf-8", "surrogatepass")
    # Checked on its own first, so that wrapping cannot turn an invalid pattern into a valid one.
    _compile(pattern, never_nl=True)
    regex = _compile(f"(?m:{pattern})", never_nl=True)
    _check_work(regex, pattern, len(data))
    spans = _matching_spans(regex, data)
    if not invert:
        return b"".join(data[start:end] for start, end in spans).decode("utf-8", "surrogatepass")
    pieces: list[bytes] = []
    position = 0
    for start, end in spans:
        pieces.append(data[position:start])
        position = end
    pieces.append(data[position:])
    return b"".join(pieces).decode("utf-8", "surrogatepass")
