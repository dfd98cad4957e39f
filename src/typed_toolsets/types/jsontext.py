"""Measuring JSON text without parsing it, in passes made in C.

Both paths of a call measure a text's nesting before trusting a parse of it: the exact path
before parsing, the fast path before handing orjson's reading over.
"""

from __future__ import annotations

import itertools
import re
from typing import Final

__all__ = ["text_depth"]

_ESCAPE_RE: Final = re.compile(r"\\.", re.DOTALL)
# Every byte but the four brackets, for deleting them all in one C pass.
_NOT_BRACKETS: Final = bytes(byte for byte in range(256) if byte not in b"[]{}")
_BRACKET_STEP: Final = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}


def text_depth(text: str) -> int:
    """Measure the deepest nesting of ``[``/``{`` outside strings, without recursion or parsing.

    Passes in C, linear whatever the text: escapes are dropped first (outside strings they are
    invalid JSON anyway), so every quote left delimits a string; splitting at the quotes leaves
    the text outside strings at the even places; every byte of it but the brackets is deleted,
    and the brackets left are summed up. Malformed text gives some number; the parser rejects it
    afterwards.
    """
    if "\\" in text:
        text = _ESCAPE_RE.sub("", text)
    outside = "".join(text.split('"')[::2]).encode("utf-8", "surrogatepass")
    brackets = outside.translate(None, _NOT_BRACKETS)
    if not brackets:
        return 0
    # No list of the levels: a megabyte of brackets would make one of tens of megabytes.
    return max(0, max(itertools.accumulate(map(_BRACKET_STEP.__getitem__, brackets))))
