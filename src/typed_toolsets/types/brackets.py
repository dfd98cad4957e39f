"""How deep JSON text nests, from its brackets alone: no parsing, no recursion, passes in C.

The brackets outside strings are picked out (`outside_strings`, then every other byte deleted)
and summed up. The exact path measures a text before parsing it, so an over-deep one costs
neither a parser's work nor a structure's memory; the fast path (`typed_toolsets.types.fastpath`)
lets orjson read a text first and measures one dense in brackets here rather than walking what
orjson read (`typed_toolsets.types.handover.nests_deeper`). Malformed text gives some number;
the parser refuses it afterwards. Stdlib only.
"""

from __future__ import annotations

import itertools
import re
from typing import Final

__all__ = ["depth_over", "one_value", "outside_strings", "text_depth"]

_ESCAPE_RE: Final = re.compile(r"\\.", re.DOTALL)
_BYTE_ESCAPE_RE: Final = re.compile(rb"\\.", re.DOTALL)
# Every byte but the four brackets and the quote, for deleting them all in one C pass.
_NOT_STRUCTURE: Final = bytes(byte for byte in range(256) if byte not in b'[]{}"')
_BRACKET_STEP: Final = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}
# Braces as square brackets: one kind of pair to take out (`_measured`).
_SQUARE: Final = bytes.maketrans(b"{}", b"[]")
# A pass that takes out fewer than this share of what is left stops the passes (see there).
_FEW_LEAVES: Final = 8
_RUNS: Final = re.compile(rb"\[+|\]+")
_OPENING: Final = ord("[")
# Runs of at most this many brackets on average are summed bracket by bracket (`_summed`).
_SHORT_RUNS: Final = 8


def outside_strings(text: str) -> str:
    """*text* without its JSON strings: escapes dropped, then every other piece between quotes.

    Escapes are dropped first (outside strings they are invalid JSON anyway), so every quote left
    delimits a string. Malformed text gives some text; the parser rejects it afterwards.
    """
    if "\\" in text:
        text = _ESCAPE_RE.sub("", text)
    return "".join(text.split('"')[::2])


def _brackets(text: str | bytes) -> bytes:
    """The brackets of *text* outside its strings, in order, as bytes (as `outside_strings`).

    Escapes are dropped first; then every byte but the brackets and quotes, in C. Of what is
    left, two quotes in a row close a string and open the next (or are an empty one): taken out
    at once, so a text whose strings hold no bracket is left with no quote, and is never split
    into its strings.
    """
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    if b"\\" in data:
        data = _BYTE_ESCAPE_RE.sub(b"", data)
    kept = data.translate(None, _NOT_STRUCTURE)
    if b'"' in kept:
        kept = kept.replace(b'""', b"")
        if b'"' in kept:
            kept = b"".join(kept.split(b'"')[::2])
    return kept


def _summed(square: bytes) -> tuple[int, bool]:
    """The highest running sum of *square* (``[`` +1, ``]`` -1) from 0, and whether it balances.

    It balances when it ends at 0 and never goes below.

    Deep nesting makes long runs of one kind: summed run by run (the runs found in C), the
    highest sum being at the end of a run of opening brackets. Short runs (``[1],[1],...``) are
    summed bracket by bracket, in C iterators, which costs less per bracket than a run found.
    """
    if not square:
        return 0, True
    runs = square.count(b"[]") + square.count(b"][")
    if runs * _SHORT_RUNS > len(square):
        # No list of the levels: a megabyte of brackets would make one of tens of megabytes.
        steps = _BRACKET_STEP.__getitem__
        deepest = max(0, max(itertools.accumulate(map(steps, square))))
        balanced = 2 * square.count(b"[") == len(square) and (
            min(itertools.accumulate(map(steps, square))) >= 0
        )
        return deepest, balanced
    level = deepest = lowest = 0
    for run in _RUNS.findall(square):
        if run[0] == _OPENING:
            level += len(run)
            deepest = max(deepest, level)
        else:
            level -= len(run)
            lowest = min(lowest, level)
    return deepest, level == 0 and lowest >= 0


def _measured(brackets: bytes, limit: int | None = None) -> int | None:
    """The highest running sum of *brackets* (its depth), or None when it is within *limit*.

    Most brackets close at once (``{}`` and ``[]`` with no bracket between, once strings and
    scalars are deleted): each pass of ``bytes.replace`` (in C) takes all of those out, and the
    depth with them by one at most (every bracket left keeps its running sum: what was taken
    before it sums to 0). Passes stop when one takes out little, and what is left is summed up
    (`_summed`): the passes plus its depth bound the depth, which a bound within *limit*
    settles. Balanced brackets (any valid JSON text's) lose exactly one level per pass, their
    deepest pair being one taken out, and stay balanced: when what is left balances, the bound
    is the depth. Only for brackets that do not (malformed text) are all of them summed up.
    """
    whole = square = brackets.translate(_SQUARE)
    passes = 0
    while square:
        shorter = square.replace(b"[]", b"")
        if len(shorter) == len(square):
            break
        passes += 1
        taken = len(square) - len(shorter)
        square = shorter
        if taken * _FEW_LEAVES < len(square):
            break  # few pairs close at once: long runs, which summing up passes over quickly
    left, balanced = _summed(square)
    bound = passes + left
    if limit is not None and bound <= limit:
        return None
    return bound if balanced else _summed(whole)[0]


def text_depth(text: str | bytes) -> int:
    """Measure the deepest nesting of ``[``/``{`` outside strings, without recursion or parsing.

    Passes in C, linear whatever the text: of the text outside strings (`outside_strings`),
    every byte but the brackets is deleted, and the brackets left are summed up (`_measured`).
    Malformed text gives some number; the parser rejects it afterwards.
    """
    depth = _measured(_brackets(text))
    return 0 if depth is None else depth  # pragma: no branch - without a limit, a number


def depth_over(text: str | bytes, limit: int, opened: int | None = None) -> int | None:
    """How deep *text* nests when that is deeper than *limit* (None: within it).

    *opened* is the number of its opening brackets, when the caller has counted them: a text with
    no more of them than the limit cannot be too deep, which costs two counts to know.
    """
    if opened is None:
        if isinstance(text, str):
            opened = text.count("[") + text.count("{")
        else:
            opened = text.count(b"[") + text.count(b"{")
    if opened <= limit:
        return None
    depth = _measured(_brackets(text), limit)
    return depth if depth is not None and depth > limit else None


def one_value(text: str) -> bool:
    """Whether *text*'s brackets (outside strings) are one value's: opened first, closed last.

    The first bracket opens it, no later one closes it before the last, and the last closes it:
    ``{...}{...}`` or ``{...}]{...}`` are not one, however their brackets balance.
    """
    brackets = _brackets(text)
    opened = brackets.count(b"[") + brackets.count(b"{")
    if not brackets or 2 * opened != len(brackets):
        return False  # none, or not as many closed as opened
    levels = itertools.accumulate(map(_BRACKET_STEP.__getitem__, brackets[:-1]))
    return min(levels, default=1) > 0
