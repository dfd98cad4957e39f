from typing import Final

from typed_toolsets import Toolset, tool

from remote_base import RemoteBase

FIND: Final = "find"


class Names(Toolset):
    exports = (
        tool("search", tool_name="find"),
        tool("lookup", tool_name=FIND),  # E: Cannot export "Names.lookup" as a tool: the tool name "find" is already exported by "Names.search"  [toolset-duplicate-name]
        tool("other", tool_name="names_search"),
    )

    def search(self, *, query: str) -> str:
        return query

    def lookup(self, *, query: str) -> str:
        return query

    @tool  # E: Cannot export "Names.other" as a tool: "other" is declared twice in "Names"  [toolset-duplicate-name]
    def other(self, *, query: str) -> str:
        return query


class Twice(Toolset):
    exports = (tool("go"), tool("go", tool_name="go_again"))  # E: Cannot export "Twice.go" as a tool: "go" is declared twice in "Twice"  [toolset-duplicate-name]

    def go(self) -> None:
        pass


class AgainstInherited(RemoteBase):
    exports = (tool("search", tool_name="remote_assign"),)  # E: Cannot export "AgainstInherited.search" as a tool: the tool name "remote_assign" is already exported by "RemoteBase.assign" (inherited)  [toolset-duplicate-name]


class Override(RemoteBase):
    # Declaring an inherited method again replaces its declaration: not a clash.
    exports = (tool("assign", description="Assign a task"),)


class ToolsetNameClash(RemoteBase):
    toolset_name = "other"
    exports = (tool("search", tool_name="other_assign"),)  # E: Cannot export "ToolsetNameClash.search" as a tool: the tool name "other_assign" is already exported by "RemoteBase.assign" (inherited)  [toolset-duplicate-name]


class Prefixed(Toolset):
    exports = (tool("search"), tool("lookup", tool_name="prefixed_search"))  # E: Cannot export "Prefixed.lookup" as a tool: the tool name "prefixed_search" is already exported by "Prefixed.search"  [toolset-duplicate-name]

    def search(self, *, query: str) -> str:
        return query

    def lookup(self, *, query: str) -> str:
        return query


class Left(Toolset):
    @tool(tool_name="shared")
    def left(self) -> None: ...


class Right(Toolset):
    @tool(tool_name="shared")
    def right(self) -> None: ...


class BothParents(Left, Right):  # E: Cannot export "BothParents.left" as a tool: the tool name "shared" is already exported by "Right.right" (inherited)  [toolset-duplicate-name]
    pass
