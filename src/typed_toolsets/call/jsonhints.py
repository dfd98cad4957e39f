"""What to change in a JSON text the strict parser refused: words after the parser's message.

The parser says where it stopped (``Expecting value: line 1 column 1 (char 0)``); a model
corrects itself sooner when told what it wrote there in JSON's terms: a Markdown code fence, a
trailing comma, single quotes, Python's ``True``, a raw newline inside a string, a lone
backslash, a number as other languages write it (``07``, ``+1``, ``.5``, ``0x1F``), text after
the object, an object cut short (also inside a literal, a number or an escape), or JSON's
syntax as other notations write it (keys without quotes, comments, bare words, a missing comma
or colon). Each hint is looked for at the parser's position only (a few characters either
side), so its cost does not grow with the text.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

__all__ = ["CUT_HINT", "EMPTY_HINT", "json_hint"]

#: Python's words, and JSON's in another case (``TRUE``, ``Null``): where a value is expected,
#: the parser stops at them.
_WORD_CASE_RE: Final = re.compile(r"(?i:true|false|null|none)\b")
_JSON_WORDS: Final = frozenset({"true", "false", "null"})
_FENCE_RE: Final = re.compile(r"[ \t\n\r]*```")
_END_RE: Final = re.compile(r"[ \t\n\r]*\Z")
_SPACE: Final = " \t\n\r"
#: What is left where the parser stopped in a text cut inside a token: ``true``, ``false`` or
#: ``null`` begun, a number's sign, fraction or exponent without digits (``-``, ``1.``, ``1e+``:
#: the parser stops at the sign, dot or ``e``), a ``\u`` escape short of its four digits.
_CUT_TOKEN_RE: Final = re.compile(
    r"(?:t(?:ru?)?|f(?:a(?:ls?)?)?|n(?:ul?)?|-|\.|[eE][-+]?|u[0-9a-fA-F]{0,3})\Z"
)
_CUT_TOKEN_CHARS: Final = 4
#: The hint for a text that ends where the parser expected more of it.
CUT_HINT: Final = "; the text ends before the JSON object does: send it whole"
#: The hint for a text of JSON whitespace alone.
EMPTY_HINT: Final = "; the text holds no JSON value: send a JSON object ({} for no arguments)"
#: Quotes a word processor writes (a model copying prose does too), where JSON's are wanted.
_TYPOGRAPHIC_QUOTES: Final = frozenset(
    "\u201c\u201d\u201e\u201f\u2018\u2019\u201a\u201b\u00ab\u00bb"
)


def _before(text: str, pos: int) -> str:
    """The last character before *pos* that is not JSON whitespace ("" at the start)."""
    # Only the few characters before the position: a run of spaces is looked past in slices.
    start = pos
    while start > 0:
        chunk = text[max(0, start - 64) : start].rstrip(_SPACE)
        if chunk:
            return chunk[-1]
        start -= 64
    return ""


#: The control characters JSON has a short escape for, named as a hint names them.
_SHORT_ESCAPES: Final = {
    "\n": ("a line break", "\\n"),
    "\t": ("a tab", "\\t"),
    "\r": ("a carriage return", "\\r"),
    "\b": ("a backspace", "\\b"),
    "\f": ("a form feed", "\\f"),
}


def _control_hint(char: str) -> str:
    """What to write for the raw control character *char* the parser found inside a string."""
    named = _SHORT_ESCAPES.get(char)
    if named is not None:
        what, escape = named
    elif len(char) == 1 and char < " ":
        what, escape = f"the control character U+{ord(char):04X}", f"\\u{ord(char):04x}"
    else:  # pragma: no cover - the parser names the character at the position
        return "; a control character inside a string must be escaped (\\n, \\t or \\uXXXX)"
    return f"; {what} inside a string must be written as {escape} (escape it)"


def json_hint(message: str, text: str, pos: int) -> str:
    """What to change, said after the parser's *message* about *text* at *pos*; or "".

    Args:
        message: The parser's message, without its position (``JSONDecodeError.msg``).
        text: The text it refused.
        pos: Where it stopped (``JSONDecodeError.pos``).

    Returns:
        ``"; <what to change>"``, or ``""`` when the slip is none of the usual ones.
    """
    if _FENCE_RE.match(text) is not None:
        return "; the text is wrapped in a Markdown code fence (```): send the JSON object alone"
    here = text[pos : pos + 1]
    if not here and message.startswith("Expecting"):
        if message.startswith("Expecting value") and not _before(text, pos):
            return EMPTY_HINT  # spaces alone: nothing was cut, nothing was sent
        return CUT_HINT  # nothing at the position: the text ends there (most often cut short)
    if message.startswith("Extra data"):
        return "; more text follows the JSON object: send the object alone"
    if message.startswith("Invalid control character"):
        return _control_hint(here)
    if message.startswith("Invalid \\escape"):
        return (
            '; a backslash inside a string must be written as \\\\ (only \\", \\\\, \\/, \\b, '
            "\\f, \\n, \\r, \\t and \\uXXXX are escapes)"
        )
    if here == "'":
        return '; JSON writes strings and keys in double quotes ("), not single quotes'
    if here in _TYPOGRAPHIC_QUOTES:
        return f'; JSON writes strings and keys in plain double quotes ("), not {here}'
    word = _WORD_CASE_RE.match(text, pos) if message.startswith("Expecting value") else None
    if word is not None and word.group() not in _JSON_WORDS:
        if word.group() == "none":
            return "; JSON writes null, not none"
        return "; JSON writes true, false and null in lower case"
    # Python 3.13 names it itself, at the comma; before, it stops at the bracket after it.
    if message.startswith("Illegal trailing comma") or (
        here in ("}", "]") and _before(text, pos) == ","
    ):
        return "; JSON allows no comma before a closing } or ]: remove it"
    if message.startswith("Unterminated string"):
        return '; a string has no closing quote (") before the text ends: send the text whole'
    if message.startswith("Expecting") and _END_RE.match(text, pos) is not None:
        return CUT_HINT
    if (
        pos
        and len(text) - pos <= _CUT_TOKEN_CHARS
        and message.startswith(("Expecting", "Invalid \\uXXXX"))
        and _CUT_TOKEN_RE.match(text, pos) is not None
    ):
        return CUT_HINT  # the text ends inside a literal, a number or an escape
    return _number_hint(message, text, pos, here) or _syntax_hint(message, text, pos, here)


def _syntax_hint(message: str, text: str, pos: int, here: str) -> str:
    """What to change where JSON's own syntax was not followed.

    A comment, a bare word, a key without quotes, a comma too many or missing, a missing colon,
    a unicode escape short of its four digits.
    """
    if text.startswith(("//", "/*"), pos):
        return "; JSON has no comments: remove them"
    if message.startswith("Invalid \\uXXXX"):
        return "; a \\u escape has four hexadecimal digits (\\u00e9)"
    if message.startswith("Expecting property name"):
        if here == ",":
            if _before(text, pos) == ",":
                return "; two commas in a row: remove one"
            return "; no comma goes right after {: remove it"
        if here.isalpha() or here in "_$":
            return '; JSON writes keys in double quotes ("name": ...)'
        return ""
    if message.startswith("Expecting value") and (here.isalpha() or here == "_"):
        return (
            '; JSON writes text in double quotes ("like this"); its only words are true, false '
            "and null"
        )
    if message.startswith("Expecting ',' delimiter") and (
        here in '"{[-' or here in _DIGIT or here.isalpha()
    ):
        return "; a comma (,) goes between the members of an object and the items of an array"
    if message.startswith("Expecting ':' delimiter"):
        return '; a colon (:) goes between a key and its value ("name": value)'
    return ""


_DIGIT: Final = frozenset("0123456789")
#: The characters of a number the parser read, but a leading sign.
_NUMBER_PART: Final = frozenset("0123456789.eE+-")
#: Numbers as other languages write them, each with its JSON writing: quoted by the hints below
#: when short (a few dozen characters).
#: The part of a number after its integer digits: a fraction, an exponent.
_REST: Final = r"((?:\.[0-9]{1,30})?(?:[eE][+-]?[0-9]{1,30})?)(?![0-9])"
_LEADING_ZERO_RE: Final = re.compile(r"(-?)0+([0-9]{1,30})" + _REST)
_HEX_RE: Final = re.compile(r"(-?)0[xX]([0-9a-fA-F]{1,15})(?![0-9a-zA-Z])")
_PLUS_RE: Final = re.compile(r"\+([0-9]{1,30}" + _REST + ")")
_DOT_RE: Final = re.compile(r"(-?)\.([0-9]{1,30})" + _REST)
#: The zeros JSON does not write before a number's integer digits.
_LEADING_ZEROS_RE: Final = re.compile(r"^0+(?=[0-9])")
#: A number with a point and no digit after it (``1.``, ``1.e5``).
_BARE_POINT_RE: Final = re.compile(r"(-?[0-9]{1,30})\.((?:[eE][+-]?[0-9]{1,30})?)(?![0-9])")
#: Digits other languages write with a letter inside or after them (``0b101``, ``10n``, ``1f``).
_LETTERED_RE: Final = re.compile(r"-?[0-9][0-9a-zA-Z_.+-]{0,30}(?![0-9a-zA-Z_.])")


def _number_hint(message: str, text: str, pos: int, here: str) -> str:
    """What to change in a number written as other languages write it (``07``, ``+1``, ``.5``).

    The number written is quoted with its JSON writing when it is short.
    """
    after = text[pos + 1 : pos + 2]
    if message.startswith("Expecting value"):
        if here == "+" and after in _DIGIT:
            return _plus_hint(text, pos)
        if (here == "." and after in _DIGIT) or (
            here == "-" and after == "." and text[pos + 2 : pos + 3] in _DIGIT
        ):
            return _rewrite("a JSON number starts with a digit", _DOT_RE, text, pos)
        if text.startswith("undefined", pos):
            return "; JSON has no undefined: send null, or leave the key out"
        return ""
    if not message.startswith("Expecting ',' delimiter") or text[pos - 1 : pos] not in _DIGIT:
        return ""
    if here == "." and after not in _DIGIT:
        begin = _number_start(text, pos)
        return _rewrite("a JSON number has digits after its point", _BARE_POINT_RE, text, begin)
    # The parser read a number up to here; only a lone 0 (or -0) stops before a digit or an x.
    start = pos - 2 if text[pos - 2 : pos - 1] == "-" else pos - 1
    lone_zero = text[pos - 1] == "0" and not (start and text[start - 1] in _NUMBER_PART)
    if lone_zero and here in _DIGIT:
        return _rewrite("a JSON number has no leading zero", _LEADING_ZERO_RE, text, start)
    if lone_zero and here in ("x", "X"):
        return _rewrite("JSON has no hexadecimal numbers", _HEX_RE, text, start)
    if not (here.isascii() and (here.isalpha() or here == "_")):
        return ""
    begin = _number_start(text, pos)
    read = "" if begin < 0 else text[begin:pos]
    if here in ("e", "E") and read and "e" not in read and "E" not in read:
        return "; an exponent has digits after its e (1e5, 1e+5, 1e-5)"
    found = None if begin < 0 else _LETTERED_RE.match(text, begin)
    decimal = None if found is None else _in_decimal(found.group())
    if found is None or decimal is None:
        # Not a number of another language (``2nd``, ``9f86d0``): text without its quotes, as
        # likely as not.
        return (
            '; JSON writes text in double quotes ("like this"), and a number in decimal digits '
            "alone"
        )
    return f"; a JSON number has no prefix, suffix or _ (write {decimal}, not {found.group()})"


def _plus_hint(text: str, pos: int) -> str:
    """What to change in a number written with a plus sign at *pos* (``+1``, ``+0x1F``)."""
    written = _LETTERED_RE.match(text, pos + 1)
    plain = _PLUS_RE.match(text, pos)
    if written is not None and (plain is None or written.end() > plain.end()):
        # More than a JSON number after the sign, as another language writes it: its JSON
        # writing when known (it was "write 0, not +0" for +0x1F), else no number to quote.
        decimal = _in_decimal(written.group())
        if decimal is None:
            return "; a JSON number has no plus sign, and is written in decimal digits alone"
        return (
            f"; a JSON number has no plus sign, prefix, suffix or _ (write {decimal}, "
            f"not +{written.group()})"
        )
    return _rewrite("a JSON number has no plus sign", _PLUS_RE, text, pos)


#: The suffixes other languages put after a number (a big integer, a long, a float, a double).
_SUFFIXES: Final = frozenset("nNlLfFdD")


def _in_decimal(written: str) -> str | None:
    """*written* (``0b101``, ``0o17``, ``1_000``, ``10n``, ``2.5f``) as JSON writes it, if known."""
    try:
        return str(int(written, 0))  # a prefix or underscores, as Python reads them
    except ValueError:
        pass
    if len(written) > 1 and written[-1] in _SUFFIXES:
        body = written[:-1]
        if _JSON_NUMBER_RE.fullmatch(body) is not None:
            return body
    return None


#: A number as JSON writes it.
_JSON_NUMBER_RE: Final = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")


#: How far back a hint looks for the start of a number: the numbers it quotes are shorter.
_LOOK_BACK: Final = 64


def _number_start(text: str, pos: int) -> int:
    """Where the number the parser read up to *pos* begins (its sign included); -1 when long.

    Looks back at most `_LOOK_BACK` characters: a hint costs the same whatever the text.
    """
    start = pos
    floor = max(0, pos - _LOOK_BACK)
    while start > floor and text[start - 1] in _NUMBER_PART:
        start -= 1
    if start == floor and start and text[start - 1] in _NUMBER_PART:
        return -1
    return start


#: For each way of writing a number `_number_hint` names: its JSON writing, from the match.
_WRITINGS: Final[dict[re.Pattern[str], tuple[Callable[[re.Match[str]], str], str]]] = {
    _PLUS_RE: (lambda found: _LEADING_ZEROS_RE.sub("", found[1]), "1, not +1"),
    _DOT_RE: (lambda found: f"{found[1]}0.{found[2]}{found[3]}", "0.5, not .5"),
    _LEADING_ZERO_RE: (lambda found: f"{found[1]}{int(found[2])}{found[3]}", "7, not 07"),
    _HEX_RE: (lambda found: f"{found[1]}{int(found[2], 16)}", "16, not 0x10"),
    _BARE_POINT_RE: (
        lambda found: f"{found[1]}.0{found[2]} or {found[1]}{found[2]}",
        "1.0 or 1, not 1.",
    ),
}


def _rewrite(rule: str, written: re.Pattern[str], text: str, at: int) -> str:
    """``; <rule> (write <JSON>, not <written>)``: the number at *at*, or an example when long.

    *at* is -1 for a number too long to quote.
    """
    writing, example = _WRITINGS[written]
    found = None if at < 0 else written.match(text, at)
    shown = example if found is None else f"{writing(found)}, not {found.group()}"
    return f"; {rule} (write {shown})"
