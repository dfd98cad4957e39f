# Declarations bound otherwise than `name = value`: a chained assignment, and `exports += ...`
# after `exports = ...`, are read as the class holds them; a tuple target and an augmented
# `toolset_name` are said to be unchecked where they are written, never skipped.
from typed_toolsets import Limits, Toolset, tool


class Chained(Toolset):
    exports = MINE = (tool("fnd"),)  # E: Chained.fnd: Chained has no method 'fnd' to export; did you mean 'find'?  [toolset-unknown-method]

    def find(self, *, q: str) -> int:
        return 1


class Twice(Toolset):
    exports = exports = (tool("fnd"),)  # E: Twice.fnd: Twice has no method 'fnd' to export; did you mean 'find'?  [toolset-unknown-method]

    def find(self, *, q: str) -> int:
        return 1


class ChainedName(Toolset):
    toolset_name = alias = "a b"

    @tool  # E: ChainedName.find: the tool name 'a b_find' is not valid for LLM APIs: it contains ' ' (names must match ^[A-Za-z_][A-Za-z0-9_-]{0,63}$: letters, digits, '_' and '-', at most 64 characters, not starting with a digit or '-')  [toolset-invalid-name]
    def find(self, *, q: str) -> int:
        return 1


class Grown(Toolset):
    exports = (tool("find"),)
    exports += (tool("fnd"),)  # E: Grown.fnd: Grown has no method 'fnd' to export; did you mean 'find'?  [toolset-unknown-method]

    def find(self, *, q: str) -> int:
        return 1


class GrownClean(Toolset):
    exports = (tool("find"),)
    exports += (tool("count"),)

    def find(self, *, q: str) -> int:
        return 1

    def count(self) -> int:
        return 1


class Unpacked(Toolset):
    exports, other = (tool("fnd"),), 1  # E: Unpacked: `exports` bound by a tuple target cannot be checked statically (the plugin reads it from `exports = ...` in the class body); write it so, or check the class with `typed-toolsets check`  [toolset-unchecked]

    def find(self, *, q: str) -> int:
        return 1


class NameGrown(Toolset):
    toolset_name = "words"
    toolset_name += "_x"  # E: NameGrown: `toolset_name` bound by `toolset_name += ...` cannot be checked statically (the plugin reads it from `toolset_name = ...` in the class body); write it so, or check the class with `typed-toolsets check`  [toolset-unchecked]

    @tool
    def find(self, *, q: str) -> int:
        return 1


class LimitsUnpacked(Toolset):
    limits, extra = Limits(timeout=1.0), 2

    @tool(inline=True)  # E: LimitsUnpacked.find: whether 'find' may run inline cannot be checked statically (`limits` (bound by a tuple target) is not True or False, nor Limits(...) with a literal timeout); write literals there, or check the class with `typed-toolsets check`  [toolset-unchecked]
    def find(self, *, q: str) -> int:
        return 1
