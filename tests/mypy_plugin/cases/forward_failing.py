# mypy: disable-error-code="assignment"
# A class that fails as it is created, whose method names classes defined later: the run time
# cannot read that method yet (it is told at the first to_tools() of a class that builds);
# `check` reads it once the module has run, and tells its problems beside the class's others.
import attrs

from typed_toolsets import Toolset, tool


class Tasks(Toolset):
    exports = (tool("find"), tool("nope"))  # E: Tasks.nope: Tasks has no method 'nope' to export  [toolset-unknown-method]

    def find(self, *, p: "list[Later]" = None, q: "LaterOpaque") -> int:  # E: Tasks.find: parameter 'p' defaults to None but its type list[Later] does not admit null; add `| None` to its annotation (a None default does not make a parameter nullable)  [toolset-signature]  # E: Tasks.find: parameter 'q' has type LaterOpaque, which has no JSON Schema ('LaterOpaque' is not an attrs class, dataclass, TypedDict, NamedTuple, enum or supported builtin type; use one of those, or register it with typed_toolsets.register_type() (and, for the mypy plugin, list it under registered_types in its config))  [toolset-param-type]
        return 1


@attrs.define
class Later:
    z: int


class LaterOpaque:
    pass
