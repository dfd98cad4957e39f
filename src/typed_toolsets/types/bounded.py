"""Caches keyed by what users define: each holds at most a bounded number of entries.

A cache entry keyed by a type, or by code generated for one, keeps that type alive: a program
that defines toolsets with types of their own and drops them (one per request, per user) would
otherwise keep every one of them for good. An entry dropped is built again when asked for.

May import the standard library only.
"""

from __future__ import annotations

import itertools
from typing import TypeVar

__all__ = ["CACHED_ENTRIES", "keep_recent"]

_K = TypeVar("_K")
_V = TypeVar("_V")

#: The most entries a cache keyed by types (or by their generated code) holds. Far more than a
#: program's own types: a cache only drops entries when toolsets come and go.
CACHED_ENTRIES = 4096


def keep_recent(cache: dict[_K, _V]) -> None:
    """Drop the oldest entries of *cache* when it holds more than `CACHED_ENTRIES`.

    A quarter of the bound goes at once, so that the cost of dropping is spread over many
    insertions. The caller holds the cache's lock: a cache shared by threads is changed by one
    at a time.
    """
    limit = CACHED_ENTRIES  # read here, so that a test can lower it
    if len(cache) <= limit:
        return
    for key in list(itertools.islice(cache, len(cache) - limit * 3 // 4)):
        cache.pop(key, None)
