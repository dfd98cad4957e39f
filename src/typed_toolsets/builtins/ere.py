r"""What grep's POSIX extended regular expressions make of escapes a model writes for other engines.

GNU grep gives a meaning to a few escaped letters (``\w \W \s \S \b \B``); any other is read as
the letter itself, without a word: ``\d`` matches ``d``, ``\t`` matches ``t``. A model that
writes Perl's ``\d+`` or ``\t`` gets lines that merely hold a ``d`` or a ``t``, or none, and
cannot tell. Inside a bracket expression a backslash is itself (``[\d]`` matches ``\`` or
``d``). Such a pattern is refused before grep runs, with what to write instead.

May import the standard library and `typed_toolsets.builtins.exceptions`.
"""

from __future__ import annotations

from typing import Final

from .exceptions import InvalidPatternError

__all__ = ["check_grep_escapes"]

#: The escaped letters GNU grep reads as classes or anchors, not as the letter.
_KNOWN: Final = frozenset("wWsSbB")

#: What to do instead of a Perl escape grep lacks (for any other: `_ELSE`).
_INSTEAD: Final = {
    "d": "write [0-9] for a digit, or use text_rg",
    "D": "write [^0-9] for a character that is no digit, or use text_rg",
    "t": "write the tab character itself, or [[:blank:]] for a space or a tab",
    "h": "write [[:blank:]] for a space or a tab",
    "r": "write the carriage return itself",
    "n": "grep matches one line at a time, so no match holds a line break",
    "A": "write ^ for the start of a line",
    "z": "write $ for the end of a line",
    "Z": "write $ for the end of a line",
    "p": "write a class such as [[:alpha:]], or use text_rg",
}
_ELSE: Final = "use text_rg, which takes Perl-style escapes"

#: The escaped punctuation GNU grep reads as an anchor, where other regex flavours (and a model
#: escaping an apostrophe in ``don\'t``) mean the character: what grep reads, what to write.
_ANCHORS: Final = {
    "'": ("the end of the line", "write ' itself for an apostrophe, or $ for the end"),
    "`": ("the start of the line", "write ` itself for a backquote, or ^ for the start"),
    "<": ("the start of a word", "write < itself for the character, or \\b for a word edge"),
    ">": ("the end of a word", "write > itself for the character, or \\b for a word edge"),
}

#: The classes, equivalence classes and collating symbols inside a bracket expression.
_BRACKET_OPENERS: Final = ("[:", "[=", "[.")


def check_grep_escapes(pattern: str) -> None:
    r"""Refuse *pattern* when grep reads one of its escapes otherwise than it was meant.

    An escaped letter grep gives no meaning to is read as the letter (``\d``, ``[\d]``); an
    escaped ``'`` `` ` `` ``<`` ``>`` is an anchor to GNU grep (``don\'t`` matches nothing).

    Raises:
        InvalidPatternError: The first such escape, what grep reads, and what to write.
    """
    index, size = 0, len(pattern)
    while index < size:
        char = pattern[index]
        if char == "\\" and index + 1 < size:
            letter = pattern[index + 1]
            if letter.isascii() and letter.isalpha() and letter not in _KNOWN:
                raise InvalidPatternError(_escaped_letter(letter))
            if letter in _ANCHORS:
                meaning, instead = _ANCHORS[letter]
                msg = (
                    f"`pattern` has \\{letter}, which grep reads as {meaning}, not as the "
                    f"character {letter}; {instead}"
                )
                raise InvalidPatternError(msg)
            index += 2
        elif char == "[":
            index = _bracket_end(pattern, index)
        else:
            index += 1


def _escaped_letter(letter: str) -> str:
    return (
        f"`pattern` has \\{letter}, which grep's POSIX extended regular expressions lack: grep "
        f"would read it as the letter {letter}; {_INSTEAD.get(letter, _ELSE)}"
    )


def _bracket_end(pattern: str, start: int) -> int:
    r"""Where the bracket expression opened at *start* ends (past its ``]``).

    Raises:
        InvalidPatternError: It holds a backslash before a letter (``[\d]``, ``[\s-]``).
    """
    index, size = start + 1, len(pattern)
    if index < size and pattern[index] == "^":
        index += 1
    if index < size and pattern[index] == "]":  # a first ] is itself
        index += 1
    while index < size:
        char = pattern[index]
        if char == "]":
            return index + 1
        if pattern.startswith(_BRACKET_OPENERS, index):
            closer = pattern[index + 1] + "]"
            found = pattern.find(closer, index + 2)
            index = size if found < 0 else found + 2
            continue
        if char == "\\" and pattern.startswith("\\", index + 1):
            # Two backslashes: a backslash, as the writer meant it either way ([\\a-z]).
            index += 2
            continue
        if char == "\\" and index + 1 < size and pattern[index + 1].isascii():
            letter = pattern[index + 1]
            if letter.isalpha():
                msg = (
                    f"`pattern` has \\{letter} inside [...], where grep reads a backslash as "
                    f"itself: it would match \\ or {letter}; write a class such as [0-9] or "
                    "[[:space:]] there, or use text_rg, which takes Perl-style escapes"
                )
                raise InvalidPatternError(msg)
        index += 1
    return size  # not closed: grep says so
