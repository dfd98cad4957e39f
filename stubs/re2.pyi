# Type stub for google-re2 (`import re2`), which ships no type hints.
# Covers the API typed_toolsets uses; mirrored at typings/re2.pyi for pyright (keep identical).
from collections.abc import Iterator
from typing import AnyStr, Generic

class error(Exception): ...

class Options:
    NAMES: tuple[str, ...]
    max_mem: int
    posix_syntax: bool
    longest_match: bool
    log_errors: bool
    literal: bool
    never_nl: bool
    dot_nl: bool
    never_capture: bool
    case_sensitive: bool
    perl_classes: bool
    word_boundary: bool
    one_line: bool
    def __init__(self) -> None: ...

class _Match(Generic[AnyStr]):
    def start(self, group: int | str = 0) -> int: ...
    def end(self, group: int | str = 0) -> int: ...
    def span(self, group: int | str = 0) -> tuple[int, int]: ...
    def group(self, group: int | str = 0) -> AnyStr | None: ...

class _Regexp:
    @property
    def pattern(self) -> str | bytes: ...
    @property
    def groups(self) -> int: ...
    def search(
        self, text: AnyStr, pos: int | None = None, endpos: int | None = None
    ) -> _Match[AnyStr] | None: ...
    def match(
        self, text: AnyStr, pos: int | None = None, endpos: int | None = None
    ) -> _Match[AnyStr] | None: ...
    def fullmatch(
        self, text: AnyStr, pos: int | None = None, endpos: int | None = None
    ) -> _Match[AnyStr] | None: ...
    def finditer(
        self, text: AnyStr, pos: int | None = None, endpos: int | None = None
    ) -> Iterator[_Match[AnyStr]]: ...

def compile(pattern: str | bytes | _Regexp, options: Options | None = None) -> _Regexp: ...
def escape(pattern: AnyStr) -> AnyStr: ...
def purge() -> None: ...
