# Declarations inside a compound statement of the class body (`if`, `try`, `with`, ...): which
# branch runs is decided when the class is created, so the plugin says it cannot check them,
# where they are written, and adds no error of its own or of mypy's (`exports` of two lengths).
import contextlib
import os
import sys

from typed_toolsets import Limits, Toolset, tool

DEBUG = os.environ.get("TYPED_TOOLSETS_CASE_DEBUG") is not None


class Branches(Toolset):
    if DEBUG:
        exports = (tool("search"), tool("dump"))  # E: Branches: `exports = ...` inside an `if` statement cannot be checked statically (which tools the class declares then depends on what runs when the class is created); declare it at the top level of the class body, or check the class with `typed-toolsets check`  [toolset-unchecked]
    else:
        exports = (tool("search"),)  # E: Branches: `exports = ...` inside an `if` statement cannot be checked statically (which tools the class declares then depends on what runs when the class is created); declare it at the top level of the class body, or check the class with `typed-toolsets check`  [toolset-unchecked]

    def search(self, *, query: str) -> str:
        return query

    def dump(self) -> str:
        return ""


class Typo(Toolset):
    if DEBUG:
        exports = (tool("search"),)  # E: Typo: `exports = ...` inside an `if` statement cannot be checked statically (which tools the class declares then depends on what runs when the class is created); declare it at the top level of the class body, or check the class with `typed-toolsets check`  [toolset-unchecked]
    else:
        exports = (tool("serch"),)  # E: Typo: `exports = ...` inside an `if` statement cannot be checked statically (which tools the class declares then depends on what runs when the class is created); declare it at the top level of the class body, or check the class with `typed-toolsets check`  [toolset-unchecked]

    def search(self, *, query: str) -> str:
        return query


class Child(Branches):
    # A top-level `exports` of yet another length: no [assignment] error either.
    exports = (tool("search"), tool("dump"), tool("extra"))

    def extra(self) -> None: ...


class Copy(Branches):
    exports = Branches.exports  # E: Copy: the exports given as Branches.exports cannot be checked statically (mypy cannot tell which tool(...) calls it holds); write the tool(...) calls in the class body, or in a Final tuple of this module (tuples joined with `+`, repeated with `*` or unpacked with `*` are read too)  [toolset-unchecked]


class Decorators(Toolset):
    if not DEBUG:
        @tool  # E: Decorators.search: @tool inside an `if` statement cannot be checked statically (which tools the class declares then depends on what runs when the class is created); declare it at the top level of the class body, or check the class with `typed-toolsets check`  [toolset-unchecked]
        def search(self, *, query: str) -> str:
            return query

    try:
        @tool(tool_name="other")  # E: Decorators.other: @tool inside a `try` statement cannot be checked statically (which tools the class declares then depends on what runs when the class is created); declare it at the top level of the class body, or check the class with `typed-toolsets check`  [toolset-unchecked]
        def other(self, *, n: int) -> int:
            return n
    except ImportError:
        pass

    with contextlib.suppress(ImportError):
        @tool  # E: Decorators.third: @tool inside a `with` statement cannot be checked statically (which tools the class declares then depends on what runs when the class is created); declare it at the top level of the class body, or check the class with `typed-toolsets check`  [toolset-unchecked]
        def third(self) -> None: ...

    if sys.version_info >= (3, 99):
        # A branch mypy does not analyse (the configured Python is older): skipped as mypy does.
        @tool
        def future(self, *, data: bytes) -> None: ...


def held(instance: Decorators) -> None:
    # Not reported as 'not exported': the conditional @tool may export it.
    Decorators.proxy(instance.search)


class Named(Toolset):
    if DEBUG:
        toolset_name = "debug tools"  # E: Named: `toolset_name = ...` inside an `if` statement cannot be checked statically (which tools the class declares then depends on what runs when the class is created); declare it at the top level of the class body, or check the class with `typed-toolsets check`  [toolset-unchecked]

    @tool
    def find(self) -> None: ...


class InlineLimits(Toolset):
    if DEBUG:
        limits = Limits(timeout=5.0)

    @tool(inline=True)  # E: InlineLimits.run: whether 'run' may run inline cannot be checked statically (`limits` (set inside an `if` statement) is not True or False, nor Limits(...) with a literal timeout); write literals there, or check the class with `typed-toolsets check`  [toolset-unchecked]
    def run(self) -> None: ...
