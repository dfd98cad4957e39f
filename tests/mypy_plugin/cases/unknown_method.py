from typed_toolsets import Toolset, tool

from remote_base import RemoteMid


class Tasks(Toolset):
    exports = (
        tool("assign"),
        tool("asign"),  # E: Tasks.asign: Tasks has no method 'asign' to export; did you mean 'assign'?  [toolset-unknown-method]
        tool("nothing_like_it"),  # E: Tasks.nothing_like_it: Tasks has no method 'nothing_like_it' to export  [toolset-unknown-method]
    )

    def assign(self, *, task_id: str) -> str:
        return task_id


class Leaf(RemoteMid):
    exports = (
        tool("search"),
        tool("_internal"),
        tool("serch"),  # E: Leaf.serch: Leaf has no method 'serch' to export; did you mean 'search'?  [toolset-unknown-method]
        tool("assing"),  # E: Leaf.assing: Leaf has no method 'assing' to export; did you mean 'assign'?  [toolset-unknown-method]
    )


class NotOnSibling(Toolset):
    exports = (tool("search"),)  # E: NotOnSibling.search: NotOnSibling has no method 'search' to export  [toolset-unknown-method]


class Loose(Toolset):  # E: Loose: `count = tool('word_count')` declares no tool by itself; list it in `exports` (exports = (tool('word_count'),)) or write @tool on the method  [toolset-unknown-method]
    count = tool("word_count")

    def word_count(self, *, text: str) -> int:
        return len(text.split())



class EmptyName(Toolset):
    # `tool("")` raises before the class exists: `tool()`'s own error, not a missing method.
    exports = (tool(""),)  # E: tool(): the method name must be a non-empty str (got '')  [toolset-unknown-method]


# `del` in the class body removes the method: exported, the run time finds none (or a base's);
# marked with @tool, its mark goes with it, so it is no tool. mypy keeps the name.
class Deleted(Toolset):
    exports = (tool("find"),)  # E: Deleted.find: Deleted has no method 'find' to export  [toolset-unknown-method]

    def find(self, *, q: str) -> str:
        return q

    del find


class DeletedMarked(Toolset):
    @tool
    def find(self, q):  # type: ignore[no-untyped-def]  # no tool once deleted: not judged
        return q

    @tool
    def keep(self) -> None: ...

    del find


class DeletedTwice(Toolset):
    def find(self, *, q: str) -> str:
        return q

    del find

    @tool  # type: ignore[no-redef]  # bound again: the class has it
    def find(self, *, q: str) -> str:
        return q


class DeletedBase(Toolset):
    def search(self, *, q: str) -> str:
        return q


class DeletedOverride(DeletedBase):
    exports = (tool("search"),)  # the base's method is found instead

    def search(self, *, q: str) -> str:
        return q

    del search


class InstanceAttribute(Toolset):
    # mypy knows `self.count` from `__init__`: the class has no such attribute.
    exports = (tool("count"),)  # E: InstanceAttribute.count: InstanceAttribute has no method 'count' to export  [toolset-unknown-method]

    def __init__(self) -> None:
        self.count = 1
