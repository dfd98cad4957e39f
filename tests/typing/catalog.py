# pyright: strict
"""A toolset held one tool at a time by `typed_access`."""

from __future__ import annotations

from collections.abc import Awaitable

from typed_toolsets import Toolset, tool


class CatalogToolset(Toolset):
    toolset_name = "catalog"
    exports = (tool("search"),)

    def search(self, *, query: str, limit: int = 10) -> list[str]:
        return [query] * limit

    @tool
    async def fetch(self, *, item: str) -> int:
        return len(item)

    @tool
    def count(self, *, item: str) -> Awaitable[int]:
        """A plain def returning an awaitable: its tool's value is what awaiting it gives."""
        return self.fetch(item=item)

    @tool
    def remove(self, item: str) -> None:
        """Positional-or-keyword: calls pass keywords, a direct call may pass it positionally."""
