"""What has no JSON form, worded or made sendable: lone surrogates and numbers that are not finite.

Shared by the call path (the model's arguments), the exports (a tool's results) and the built-in
toolsets (what their programs print), so each says it the same way. Standard library only.
"""

from __future__ import annotations

__all__ = ["escaped_surrogates", "not_finite", "too_large", "valid_text"]


def valid_text(text: str) -> str:
    r"""*text* as valid Unicode: each lone surrogate replaced by U+FFFD (a pair, by its character).

    Text may hold lone surrogates: bytes decoded with ``surrogateescape`` (as ``os.listdir`` and
    ``subprocess`` do with undecodable names), or half of a UTF-16 pair that JSON escaped alone
    (``"\ud800"``) and Python's parser read. Such text has no UTF-8 form, so it could not be
    printed, written or sent.
    """
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return _paired(text, "replace")
    return text


def escaped_surrogates(text: str) -> str:
    r"""*text* with each lone surrogate written as its ``\uXXXX`` escape (a pair, as its character).

    For where U+FFFD would make two texts one (`valid_text` replaces every lone surrogate alike).
    """
    if valid_text(text) == text:
        return text
    return "".join(
        f"\\u{ord(char):04x}" if "\ud800" <= char <= "\udfff" else char
        for char in _paired(text, "surrogatepass")
    )


def _paired(text: str, errors: str) -> str:
    """*text* with surrogate pairs joined into their characters, lone ones as *errors* says.

    UTF-16 holds a lone surrogate as one unit, which the decoder handles as one character.
    """
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", errors)


def not_finite(value: float | str) -> str:
    """Why a number that is not finite has no JSON form, named as JSON text would spell it.

    Args:
        value: The float (``nan``, ``inf``), or the word the text held (``NaN``, ``-Infinity``).
    """
    if isinstance(value, float):
        # Not Python's nan and inf: what the text held, as a lenient parser read it.
        value = "NaN" if value != value else "Infinity" if value > 0 else "-Infinity"
    return f"{value} is not valid JSON (numbers must be finite)"


def too_large(literal: str) -> str:
    """The start of the words for a number literal past a float's range (about 1.8e308).

    ``the number 1e400 is too large``, for the caller to say for what. A literal of any length
    is shown with its middle left out: its first 40 characters alone would be another number (a
    smaller one, without its fraction or exponent).
    """
    shown = literal if len(literal) <= 40 else f"{literal[:20]}...{literal[-17:]}"
    return f"the number {shown} is too large"
