from typed_toolsets import Toolset, tool

from remote_base import RemoteMid


class Tasks(Toolset):
    exports = (
        tool("assign"),
        tool("asign"),  # E: Cannot export "Tasks.asign" as a tool: "Tasks" has no method "asign"; did you mean "assign"?  [toolset-unknown-method]
        tool("nothing_like_it"),  # E: Cannot export "Tasks.nothing_like_it" as a tool: "Tasks" has no method "nothing_like_it"  [toolset-unknown-method]
    )

    def assign(self, *, task_id: str) -> str:
        return task_id


class Leaf(RemoteMid):
    exports = (
        tool("search"),
        tool("_internal"),
        tool("serch"),  # E: Cannot export "Leaf.serch" as a tool: "Leaf" has no method "serch"; did you mean "search"?  [toolset-unknown-method]
        tool("assing"),  # E: Cannot export "Leaf.assing" as a tool: "Leaf" has no method "assing"; did you mean "assign"?  [toolset-unknown-method]
    )


class NotOnSibling(Toolset):
    exports = (tool("search"),)  # E: Cannot export "NotOnSibling.search" as a tool: "NotOnSibling" has no method "search"  [toolset-unknown-method]
