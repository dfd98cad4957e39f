# clean: a base toolset with overloaded methods in its own module, inherited by signature.py.
from __future__ import annotations

from typing import TYPE_CHECKING, overload

from typed_toolsets import Toolset

if TYPE_CHECKING:
    from uuid import UUID


class RemoteOverloaded(Toolset):
    @overload
    def find(self, *, key: int) -> int: ...
    @overload
    def find(self, *, key: UUID) -> str: ...
    def find(self, *, key: int | UUID) -> int | str:
        return 1

    @overload
    def pick(self, key: int, /) -> int: ...
    @overload
    def pick(self, key: str, /) -> str: ...
    def pick(self, key: int | str, /) -> int | str:
        return key
