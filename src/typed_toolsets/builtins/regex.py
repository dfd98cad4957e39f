r"""Case-insensitive line filtering with RE2: linear time, whatever the pattern.

The seed filters with Ruby's backtracking engine, so a pattern like ``(a+)+$`` can hang the
process (and Python's ``re`` is no better: it also holds the GIL, so no thread timeout can stop
it). RE2 (google-re2) matches in time linear in the text, by construction. There is no fallback
to ``re``: RE2 syntax it lacks (backreferences, lookaround, atomic groups, possessive
quantifiers, ``\Z``) is an `InvalidPatternError` naming the construct.

Line semantics follow the seed, which keeps the lines of ``text.lines`` where
``line.match?(regex)``: each line is matched on its own and *with* its ``\n``, so ``error\s``,
``a[^b]`` or ``\n`` can match the newline, and Ruby's anchors are line anchors: ``^`` matches
at the start of the line, ``$`` before its ``\n`` and at its end, ``\A`` and ``\z`` at its
start and end only. Kept lines are returned with their terminators.

Checking a line on its own takes two RE2 searches (`_line_matches`), with the line as RE2's
whole text, and the line is kept when either finds a match:

- multi-line (``(?m)`` before the pattern) over the line up to its ``\n``, which RE2 still
  sees as context, so ``$`` holds before the newline and ``\z`` does not. This finds every
  match that stops short of the newline.
- single-line over the whole line, for a match that reaches its end: one that matches the
  newline or is empty there (``\z``). Multi-line mode would let ``^`` match there too, after the
  newline, where Ruby's does not.

The one kind of Ruby match neither finds asserts ``$`` and then matches the newline after it
(``^a$\n``, which says ``a\n`` twice); the whole-text search below finds it in a pattern
without a ``^`` anchor that is not checked line by line (``a$\n``).

A search costs microseconds in Python, too much for each of a million short lines, so
`_kept_spans` searches the whole text instead, once per kept line, in a copy where each line's
``\n`` is followed by ``\n\xff\n``. No pattern can match the byte ``\xff`` (it is never in
UTF-8, and only ``\C`` matches a lone byte), so no match crosses from one line into the next;
the ``\n`` before it makes ``$`` hold and ``\b`` fail at the end of a line, as at the end of a
Ruby string, and the one after it starts the next line. Every match of the seed's is then a
match in the copy, and a match in the copy that stops short of the line's newline is one of
the seed's. A match that runs on into the separator is checked again within the line, and
only a pattern with a ``^`` anchor (which RE2 would also match right after the newline; the
``^`` of ``[^a]`` or ``\^`` is none: `_pieces`) sends such a line to `_line_matches`. Patterns
with ``\A``, ``\z`` or ``\C`` are checked line by line throughout (`_needs_line_by_line`).
Ruby's ``m`` flag is RE2's ``s`` (``.`` matches a newline), and Ruby's anchors are always line
anchors: each ``m`` of a flag group is written ``s`` (`_ruby_flags_written`), so ``(?m)a.``
keeps ``a\n`` as the seed does, and ``(?-m)`` leaves the multi-line search multi-line.

Linear is not cheap: RE2's time per byte grows with the compiled program, up to a few
nanoseconds per instruction per byte when its DFA gives way to the NFA (counted repetitions:
``a[ab]{200}c`` over random ``ab`` text), and a few hundred nanoseconds per byte even for a tiny
program whose DFA keeps building states. So a pattern is refused when its program size times the
text's size is over `MAX_WORK`, and `_MAX_MEM` keeps compiling a 4 KB pattern to about 0.1 s.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Iterator
from typing import Final, Protocol

import re2

from typed_toolsets.rules.controls import escape_controls

from .exceptions import InvalidPatternError
from .outputs import quote_pattern

__all__ = ["MAX_WORK", "filter_lines"]

#: RE2's memory budget per compiled pattern (program and DFA cache). It also caps the program at
#: about 400,000 instructions, which compile in about 0.15 s; 64 MiB admitted 2.4 million, 1.6 s.
_MAX_MEM: Final = 8 << 20
#: Largest program size (RE2 instructions) times text size (bytes) that filter_lines runs.
#: Measured worst cases at the limit (google-re2 1.1, one core of a shared 2-core machine):
#: ``a[ab]{19}c`` (25 instructions) over 8 MB of random ``ab``: 0.9 s; ``a[ab]{194}c`` over 1 MB:
#: 0.9 s; ``\pL{446}z`` (530,000) over 200 bytes: 0.3 s, compiling. Without it,
#: ``\pL{1000}\pL{1000}z`` over 8 MB of letters ran for 101 s.
MAX_WORK: Final = 200_000_000


class _Match(Protocol):
    def start(self) -> int: ...

    def end(self) -> int: ...


class _Regex(Protocol):
    @property
    def programsize(self) -> int: ...

    def search(
        self, text: bytes, pos: int | None = None, endpos: int | None = None
    ) -> _Match | None: ...


def _options() -> re2.Options:
    options = re2.Options()
    options.case_sensitive = False
    # Invalid patterns are reported to the caller; absl's stderr logging would only add noise.
    options.log_errors = False
    # Only whether a line matches is used; groups would only slow the NFA down.
    options.never_capture = True
    options.max_mem = _MAX_MEM
    return options


def _reason(exc: re2.error) -> str:
    reason = exc.args[0] if exc.args else "invalid pattern"
    if isinstance(reason, bytes):
        reason = reason.decode("utf-8", "replace")
    # RE2 quotes the offending part of the pattern raw; escape it like every tool output.
    return escape_controls(str(reason))


_SYNTAX_ADVICE: Final = (
    "fix the pattern's syntax; to match one of [ ] ( ) { } * + ? | \\ literally, put a "
    "backslash before it"
)
#: Advice keyed by the start of RE2's reason. A reason not listed here is about a construct RE2
#: lacks (``invalid escape sequence: \1``, ``invalid perl operator: (?=``, ``++``): `_LACKS`.
_ADVICE: Final = (
    (
        "pattern too large",
        (
            "the pattern compiles to a program too large for RE2; use a smaller repetition "
            "count (a{1,50} rather than a{1,1000}) or a narrower class ([a-z] rather than \\pL)"
        ),
    ),
    (
        "invalid repetition size",
        (
            "RE2 repeats at most 1,000 times: in {n,m}, n and m are at most 1000 and n is not "
            "above m, and the counts of repetitions inside one another multiply ((a{10}){101} "
            "repeats a 1,010 times): use smaller counts (a{1,50} rather than a{1,5000})"
        ),
    ),
    ("missing ]", _SYNTAX_ADVICE),
    ("missing )", _SYNTAX_ADVICE),
    ("unexpected )", _SYNTAX_ADVICE),
    ("trailing \\", _SYNTAX_ADVICE),
    ("no argument for repetition operator", _SYNTAX_ADVICE),
    ("invalid character class range", _SYNTAX_ADVICE),
    (
        "bad repetition operator",
        (
            "one repetition operator follows an item: RE2 has no possessive quantifiers (a++, "
            "a*+), and a repetition of a repetition is grouped first ((x{2}){3}, not x{2}{3})"
        ),
    ),
)
_LACKS: Final = (
    "filter_lines takes RE2 syntax (like Python's re, without backreferences, "
    "lookahead/lookbehind, atomic groups or possessive quantifiers); rewrite the pattern "
    "without them"
)


_UNKNOWN_ESCAPE: Final = (
    "RE2 has no such escape: write the characters it stands for (a class such as [0-9a-fA-F], "
    "or the character itself), and put a backslash only before punctuation"
)
#: Escapes of other engines that RE2 has in another spelling.
_ESCAPE_SPELLINGS: Final = {
    "\\Z": "RE2 has no \\Z: write $ (each line is matched on its own) or \\z",
    # \H is written [^0-9a-fA-F] outside a class (`_RUBY_ESCAPES`); inside one it has no spelling.
    "\\H": (
        "RE2 has no \\H (Ruby's character that is no hexadecimal digit) inside [...]: write "
        "[^0-9a-fA-F] outside the brackets, or list the characters the class should hold"
    ),
}


def _flag_like(operator: str) -> bool:
    """Whether RE2 refused the ``(?`` *operator* as a flag it does not know or a group left open.

    Letters (and ``-``) only, not ``P`` or ``R``: the others are constructs RE2 lacks
    (look-around, atomic groups, ``(?P=name)``, recursion ``(?R)`` and ``(?1)``, ``(?|``).
    """
    letters = operator[2:].replace("-", "")
    return (
        operator.startswith("(?")
        and letters.isascii()
        and letters.isalpha()
        and (letters[0] not in "PR")
    )


_GROUP_ADVICE: Final = (
    "RE2's (?...) forms are (?:...), (?P<name>...) and the flags i, m, s and U, as (?i) or "
    "(?i:...), each closed by )"
)


def _compile(pattern: str, sent: str) -> _Regex:
    """RE2's program of *pattern*, which reads the pattern *sent* (an error quotes that one)."""
    try:
        return re2.compile(pattern, _options())
    except re2.error as exc:
        reason = _reason(exc)
        advice = next((text for start, text in _ADVICE if reason.startswith(start)), _LACKS)
        if reason.startswith("invalid escape sequence") and not reason[-1:].isdigit():
            # \h, \e: no construct RE2 lacks, an escape it has not (or spells otherwise)
            advice = _ESCAPE_SPELLINGS.get(reason[-2:], _UNKNOWN_ESCAPE)
        elif reason.startswith("invalid perl operator") and _flag_like(reason.split(": ")[-1]):
            advice = _GROUP_ADVICE  # (?z), or (?i never closed
        head, colon, quoted = reason.partition(": ")
        if colon and quoted not in escape_controls(sent):
            # RE2 quotes the part of its own reading it stopped at, which the translation of
            # Ruby's escapes made (`[\s\v]` for `\s`): not shown, as the model never wrote it.
            reason = head
        msg = f"RE2 cannot use the pattern {quote_pattern(sent)}: {reason}; {advice}"
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


#: The clock is read once every this many searches (each takes microseconds).
_CHECKED_EVERY: Final = 512

#: Put after each line's newline for the whole-text search: a byte no pattern matches, between
#: two newlines (see the module docstring). ``_BREAK`` is its end, where the next line starts.
_SEPARATOR: Final = b"\n\xff\n"
_BREAK: Final = b"\xff\n"


def _lines(data: bytes) -> list[bytes]:
    parts = data.split(b"\n")
    lines = [part + b"\n" for part in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines


def _line_matches(inner: _Regex, whole: _Regex, line: bytes) -> bool:
    """Whether the seed keeps *line* (with its newline, if it has one): see the module docstring."""
    if not line.endswith(b"\n"):
        return inner.search(line) is not None
    return inner.search(line, 0, len(line) - 1) is not None or whole.search(line) is not None


def _escape_end(pattern: str, start: int) -> int:
    r"""Where the escape at *start* ends: ``\Q`` runs to ``\E``, ``\p{^Greek}`` to its brace."""
    kind = pattern[start + 1 : start + 2]
    if kind == "Q":
        close = pattern.find("\\E", start + 2)
        return len(pattern) if close < 0 else close + 2
    if kind in ("p", "P", "x") and pattern.startswith("{", start + 2):
        close = pattern.find("}", start + 3)
        return len(pattern) if close < 0 else close + 1
    return min(start + 2, len(pattern))


def _class_end(pattern: str, start: int) -> int:
    """Where the character class opened at *start* ends, read as RE2's parser reads it."""
    position = start + 1
    if pattern.startswith("^", position):
        position += 1
    if pattern.startswith("]", position):  # a "]" first in a class is a literal
        position += 1
    while position < len(pattern) and pattern[position] != "]":
        if pattern.startswith("[:", position):
            # RE2 reads "[:" up to the next ":]" as a POSIX class (or refuses the pattern).
            close = pattern.find(":]", position + 2)
            if close >= 0:
                position = close + 2
                continue
        if pattern[position] == "\\":
            position = _escape_end(pattern, position)
            continue
        position += 1
    return position + 1


def _pieces(pattern: str) -> Iterator[tuple[int, str]]:
    r"""Each piece of *pattern*, a pattern RE2 compiled, with where it starts.

    A piece is an escape (``\A``, ``\p{^Greek}``, a ``\Q...\E`` quotation), a character class
    (``[^a]``) or one other character: so only a one-character piece can be an operator, and
    the ``^`` of ``[^a]`` or ``\^`` is not an anchor.
    """
    position = 0
    while position < len(pattern):
        if pattern[position] == "\\":
            end = _escape_end(pattern, position)
        elif pattern[position] == "[":
            end = _class_end(pattern, position)
        else:
            end = position + 1
        yield position, pattern[position:end]
        position = end


def _has_line_start(pattern: str) -> bool:
    """Whether *pattern* has a ``^`` anchor (not a ``^`` in a class or escaped)."""
    return any(piece == "^" for _, piece in _pieces(pattern))


def _flags_at(pattern: str, start: int) -> tuple[str, str, int] | None:
    """The flags that a flag group opening at *start* (``(?i-m)``, ``(?s:``) turns on and off.

    Returns:
        The flags turned on, those turned off and where they end (at the ``)`` or ``:``), or
        None when no flag group opens at *start*.
    """
    if not pattern.startswith("(?", start):
        return None
    end = start + 2
    while end < len(pattern) and pattern[end] in "imsU-":
        end += 1
    if not pattern.startswith((")", ":"), end):
        return None  # (?P<name>, (?<name>: a named group
    on, _, off = pattern[start + 2 : end].partition("-")
    return on, off, end


def _needs_line_by_line(pattern: str) -> bool:
    r"""Whether the whole-text search could miss a match: ``\A``, ``\z`` or ``\C``."""
    escapes = ("\\A", "\\z", "\\C")
    return any(piece in escapes for _, piece in _pieces(pattern))


def _ruby_flags_written(pattern: str) -> str:
    r"""*pattern* with each ``m`` of a flag group written ``s``: Ruby's ``m`` is RE2's ``s``.

    In Ruby, ``(?m)`` lets ``.`` match a newline (RE2's ``s``), and ``^`` and ``$`` are line
    anchors in any mode. Each line is matched on its own, so RE2's multi-line mode changes
    nothing there but its ``$``, which `filter_lines` keeps multi-line in the search that needs
    it (single-line ``$`` is ``\z``, which would miss every line but a last one without a
    newline). A group that names ``s`` itself (``(?s-m)``, a flag Ruby lacks) keeps RE2's
    reading of it, and its ``m`` is dropped.
    """
    if "(?" not in pattern:
        return pattern
    parts: list[str] = []
    done = 0
    for start, piece in _pieces(pattern):
        flags = _flags_at(pattern, start) if piece == "(" else None
        if flags is None or "m" not in flags[0] + flags[1]:
            continue
        on, off, end = flags
        dotall = "" if "s" in on + off else "s"
        written_on = on.replace("m", "") + (dotall if "m" in on else "")
        written_off = off.replace("m", "") + (dotall if "m" in off and "m" not in on else "")
        parts += [pattern[done:start], "(?", written_on, f"-{written_off}" if written_off else ""]
        done = end
    parts.append(pattern[done:])
    return "".join(parts)


_DIGITS: Final = frozenset("0123456789")


def _lower_bounds_written(pattern: str) -> str:
    r"""*pattern* with each ``{,n}`` written ``{0,n}``.

    Ruby (the seed's engine) and Python's ``re`` read ``a{,3}`` as up to three ``a``; RE2 reads
    the braces as the characters themselves, so the pattern would quietly mean something else.
    A ``{,n}`` inside a class or an escape (``[{,3}]``, ``\Q{,3}\E``) is left as it is
    (`_pieces`); so is ``{,}`` (no bound written), as RE2 reads it: the characters themselves.
    """
    if "{," not in pattern:
        return pattern
    found = list(_pieces(pattern))
    pieces = [piece for _, piece in found]
    parts: list[str] = []
    done = 0
    for index, (start, piece) in enumerate(found):
        if piece != "{" or pieces[index + 1 : index + 2] != [","]:
            continue
        end = index + 2
        while end < len(pieces) and pieces[end] in _DIGITS:
            end += 1
        if end == index + 2 or pieces[end : end + 1] != ["}"]:
            continue
        parts += [pattern[done : start + 1], "0"]
        done = start + 1
    parts.append(pattern[done:])
    return "".join(parts)


#: Ruby's escapes that RE2 lacks or reads otherwise: how each is written outside a class, and
#: inside one (None: left as RE2 reads it). Ruby's ``\s`` also matches a vertical tab, ``\h``
#: is a hexadecimal digit (RE2 has none), ``\e`` the escape character.
_RUBY_ESCAPES: Final[dict[str, tuple[str, str | None]]] = {
    # Inside a class \v goes first: after \s it would start a range ([\s-z] is \s, - and z).
    "\\s": ("[\\s\\v]", "\\v\\s"),
    "\\S": ("[^\\s\\v]", None),  # inside a class it admits a vertical tab, as RE2 reads it
    "\\h": ("[0-9a-fA-F]", "0-9a-fA-F"),
    "\\H": ("[^0-9a-fA-F]", None),  # inside a class: refused, with advice (_ESCAPE_SPELLINGS)
    "\\e": ("\\x1b", "\\x1b"),
}


def _ruby_escapes_written(pattern: str) -> str:
    r"""*pattern* with Ruby's escapes written as RE2 reads them (`_RUBY_ESCAPES`).

    ``\s`` is written ``[\s\v]``, ``\h`` ``[0-9a-fA-F]``, and inside a class ``\s`` gains
    ``\v`` and ``\h`` becomes the ranges; an escaped backslash (``\\h``) is left as it is.
    """
    if not any(escape in pattern for escape in _RUBY_ESCAPES):
        return pattern
    parts: list[str] = []
    for _, piece in _pieces(pattern):
        if piece in _RUBY_ESCAPES:
            parts.append(_RUBY_ESCAPES[piece][0])
        elif piece.startswith("[") and "\\" in piece:
            parts.append(_class_escapes_written(piece))
        else:
            parts.append(piece)
    return "".join(parts)


def _class_escapes_written(piece: str) -> str:
    r"""The class *piece* with each of Ruby's escapes in it written as RE2 reads it."""
    parts: list[str] = []
    position = done = 0
    while position < len(piece):
        if piece[position] != "\\":
            position += 1
            continue
        end = _escape_end(piece, position)
        written = _RUBY_ESCAPES.get(piece[position:end], ("", None))[1]
        if written is not None:
            parts += [piece[done:position], written]
            done = end
        position = end
    parts.append(piece[done:])
    return "".join(parts)


def _kept_spans(
    inner: _Regex, whole: _Regex, joined: bytes, pattern: str, deadline: float
) -> list[tuple[int, int]]:
    """The [start, end) in *joined* of each line the seed keeps, end just past its newline.

    One search per kept line: a line without a match costs no Python at all. A search costs a
    few microseconds, so a million kept lines take seconds: past *deadline* (`time.monotonic`),
    `TimeoutError`.
    """
    # A match that starts after a line's newline is one of the seed's only if it is empty there.
    empty_at_end = whole.search(b"\n", 1) is not None
    # Without a ^, a match in the copy that ends at a line's end (just past its newline) is one
    # of the seed's: the copy and a Ruby line then differ only beyond that end.
    exact_to_end = not _has_line_start(pattern)
    size = len(joined)
    spans: list[tuple[int, int]] = []
    position = 0
    for searched in itertools.count(1):
        if not searched % _CHECKED_EVERY and time.monotonic() > deadline:
            raise TimeoutError
        match = inner.search(joined, position)
        if match is None:
            break
        found_at = match.start()
        previous = joined.rfind(_BREAK, 0, found_at)
        start = 0 if previous < 0 else previous + len(_BREAK)
        if start == size:
            break  # after the text's final newline: no line there
        newline = joined.find(b"\n", start)
        if newline < 0:  # the last line, without a newline: the text's end is the line's end
            spans.append((start, size))
            break
        end = newline + 1
        if found_at >= end:
            kept = empty_at_end
        elif match.end() < end:
            kept = True
        elif exact_to_end:  # the match ran into the separator: is there one that stops in time?
            kept = match.end() == end or inner.search(joined, start, end) is not None
        else:
            kept = _line_matches(inner, whole, joined[start:end])
        if kept:
            spans.append((start, end))
        position = end + len(_SEPARATOR)
    return spans


def filter_lines(text: str, pattern: str, *, invert: bool, deadline: float = math.inf) -> str:
    """Keep the lines of *text* that match *pattern* case-insensitively (or, if *invert*, don't).

    Raises:
        InvalidPatternError: RE2 rejects the pattern, or its program is too large for the text.
        TimeoutError: The lines were not all matched by *deadline* (`time.monotonic`).
    """
    data = text.encode("utf-8", "surrogatepass")
    # Compiled on its own first, so that the prefix cannot turn an invalid pattern into a valid
    # one. A prefix, not a group around the pattern: a closing ")" would be quoted by an
    # unterminated \Q in the pattern ("\Qa)" is valid RE2, "(?m:\Qa))" is not).
    written = _ruby_flags_written(_ruby_escapes_written(_lower_bounds_written(pattern)))
    whole = _compile(written, pattern)
    inner = _compile(f"(?m){written}", pattern)
    _check_work(whole if whole.programsize > inner.programsize else inner, pattern, len(data))
    if _needs_line_by_line(pattern):
        kept: list[bytes] = []
        for counted, line in enumerate(_lines(data), 1):
            if not counted % _CHECKED_EVERY and time.monotonic() > deadline:
                raise TimeoutError
            if _line_matches(inner, whole, line) != invert:
                kept.append(line)
        return b"".join(kept).decode("utf-8", "surrogatepass")
    joined = data.replace(b"\n", b"\n" + _SEPARATOR)
    spans = _kept_spans(inner, whole, joined, pattern, deadline)
    pieces: list[bytes] = []
    if not invert:
        pieces = [joined[start:end] for start, end in spans]
    else:
        position = 0
        for start, end in spans:
            pieces.append(joined[position:start])
            position = end
        pieces.append(joined[position:])
    return b"".join(pieces).replace(_SEPARATOR, b"").decode("utf-8", "surrogatepass")
