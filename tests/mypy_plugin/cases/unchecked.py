# What the plugin cannot read is reported as such, with its own code, never skipped silently.
import functools
from collections.abc import Callable
from typing import Any, Final, ParamSpec, TypeVar

import re2  # type: ignore[import-untyped]  # no types: mypy sees Any

from typed_toolsets import Toolset, tool

from remote_exports import PREFIX, SHARED, ComputedMixin, exported

LOOKUP = "lookup"  # not Final: it could change before the class is created
NOT_FINAL = (tool("search"),)
NAMES: Final = ("search", "lookup")
APP: Final = "crm"
SEARCH_ONLY = ("search",)
P = ParamSpec("P")
R = TypeVar("R")
OPTIONS: dict[str, Any] = {"tool_name": "find"}
BAD_OPTIONS: dict[str, Any] = {"tool_name": "bad name!"}
DESCRIBED: dict[str, Any] = {"description": "Go."}


class Helper(Toolset):
    exports = (
        tool("search"),
        exported("lookup"),  # E: Helper: the exports given as exported(...) cannot be checked statically (mypy cannot tell which tool(...) calls it holds); write the tool(...) calls in the class body, or in a Final tuple of this module (tuples joined with `+`, repeated with `*` or unpacked with `*` are read too)  [toolset-unchecked]
    )

    def search(self, *, query: str) -> str:
        return query

    def lookup(self, *, key: int) -> int:
        return key


class NotFinal(Toolset):
    exports = NOT_FINAL  # E: NotFinal: the exports given as NOT_FINAL cannot be checked statically (it is not a Final constant of this module); write the tool(...) calls in the class body, or in a Final tuple of this module (tuples joined with `+`, repeated with `*` or unpacked with `*` are read too)  [toolset-unchecked]

    def search(self, *, query: str) -> str:
        return query


class OtherModule(Toolset):
    exports = SHARED  # E: OtherModule: the exports given as SHARED cannot be checked statically (it is not a Final constant of this module); write the tool(...) calls in the class body, or in a Final tuple of this module (tuples joined with `+`, repeated with `*` or unpacked with `*` are read too)  [toolset-unchecked]

    def search(self, *, query: str) -> str:
        return query


class Comprehension(Toolset):
    exports = tuple(tool(name) for name in NAMES)  # E: Comprehension: the exports given as tuple(...) cannot be checked statically (mypy cannot tell which tool(...) calls it holds); write the tool(...) calls in the class body, or in a Final tuple of this module (tuples joined with `+`, repeated with `*` or unpacked with `*` are read too)  [toolset-unchecked]

    def search(self, *, query: str) -> str:
        return query

    def lookup(self, *, key: int) -> int:
        return key


class Names(Toolset):
    toolset_name = LOOKUP.upper()  # E: Names: `toolset_name` given as LOOKUP.upper(...) cannot be checked statically, nor the tool names made from it (it is neither a string literal nor a Final constant whose value mypy knows: one set to a literal, not from another name); write the name as a literal, or set a Final constant to the literal  [toolset-unchecked]
    exports = (
        tool(LOOKUP),  # E: Names: the method name given as LOOKUP cannot be checked statically (it is neither a string literal nor a Final constant whose value mypy knows: one set to a literal, not from another name); write the name as a literal, or set a Final constant to the literal  [toolset-unchecked]
        tool("search", tool_name=LOOKUP),  # E: Names.search: the tool name given as LOOKUP cannot be checked statically (it is neither a string literal nor a Final constant whose value mypy knows: one set to a literal, not from another name); write the name as a literal, or set a Final constant to the literal  [toolset-unchecked]
    )

    def search(self, *, query: str) -> str:
        return query

    def lookup(self, *, key: int) -> int:
        return key


class Computed(ComputedMixin, Toolset):  # E: Computed: `toolset_name` comes from ComputedMixin, which is not a Toolset and does not set it to a string literal, so it cannot be checked statically, nor the tool names made from it; write it as a string literal there, or set it in a Toolset class  [toolset-unchecked]
    @tool
    def go(self) -> None: ...


class ComputedChild(Computed):
    # Reported once, on the Toolset that takes the name from the mixin.
    @tool
    def stop(self) -> None: ...


class Unseen(Toolset):
    @tool
    def compile(self, *, options: re2.Options) -> None: ...  # E: Unseen.compile: parameter 'options' uses re2, which mypy cannot see (its module is not analysed), so its JSON Schema cannot be checked statically; give mypy that module's types (a stub package), or silence this code where the type is registered  [toolset-unchecked]


class Meta(type):
    pass


class WithMetaclass(Toolset, metaclass=Meta):  # E: WithMetaclass: mypy does not check a class with the custom metaclass Meta (it does not simulate its __init_subclass__), so none of its declarations can be checked statically; remove the metaclass, or check the class with `typed-toolsets check`  [toolset-unchecked]
    @tool
    def run(self, *, data: bytes) -> None: ...


class Unpacked(Toolset):
    exports = (
        tool(*SEARCH_ONLY),  # E: Unpacked: the arguments unpacked from *SEARCH_ONLY cannot be checked statically (mypy cannot tell which method name or options they hold); pass the method name and each option as its own argument (a literal or a Final constant)  [toolset-unchecked]
        tool("lookup", **OPTIONS),  # E: Unpacked.lookup: the arguments unpacked from **OPTIONS cannot be checked statically (mypy cannot tell which method name or options they hold); pass the method name and each option as its own argument (a literal or a Final constant)  [toolset-unchecked]
    )

    def search(self, *, query: str) -> str:
        return query

    def lookup(self, *, key: int) -> int:
        return key

    @tool(  # type: ignore[untyped-decorator]  # mypy cannot pick an overload for **Any
        **DESCRIBED  # E: Unpacked.go: the arguments unpacked from **DESCRIBED cannot be checked statically (mypy cannot tell which method name or options they hold); pass the method name and each option as its own argument (a literal or a Final constant)  [toolset-unchecked]
    )
    def go(self) -> None: ...


class UnpackedBadName(Toolset):
    exports = (tool("search", **BAD_OPTIONS),)  # E: UnpackedBadName.search: the arguments unpacked from **BAD_OPTIONS cannot be checked statically (mypy cannot tell which method name or options they hold); pass the method name and each option as its own argument (a literal or a Final constant)  [toolset-unchecked]

    def search(self, *, query: str) -> str:
        return query


class Formatted(Toolset):
    toolset_name = f"{LOOKUP}_tools"  # E: Formatted: `toolset_name` given as an f-string cannot be checked statically, nor the tool names made from it (it is neither a string literal nor a Final constant whose value mypy knows: one set to a literal, not from another name); write the name as a literal, or set a Final constant to the literal  [toolset-unchecked]

    @tool(tool_name=f"{APP:3}")  # E: Formatted.padded: the tool name given as an f-string cannot be checked statically (it is neither a string literal nor a Final constant whose value mypy knows: one set to a literal, not from another name); write the name as a literal, or set a Final constant to the literal  [toolset-unchecked]
    def padded(self) -> None: ...

    @tool(tool_name="%s_del" % APP)  # E: Formatted.delete: the tool name given as '%s_del' % APP cannot be checked statically (it is neither a string literal nor a Final constant whose value mypy knows: one set to a literal, not from another name); write the name as a literal, or set a Final constant to the literal  [toolset-unchecked]
    def delete(self) -> None: ...

    @tool(tool_name="{}_upd".format(APP))  # E: Formatted.update: the tool name given as '{}_upd'.format(...) cannot be checked statically (it is neither a string literal nor a Final constant whose value mypy knows: one set to a literal, not from another name); write the name as a literal, or set a Final constant to the literal  [toolset-unchecked]
    def update(self) -> None: ...


class Described(Toolset):
    # Each expression is named in the message, as it is written.
    toolset_name = "a" if APP else "b"  # E: Described: `toolset_name` given as 'a' if ... else 'b' cannot be checked statically, nor the tool names made from it (it is neither a string literal nor a Final constant whose value mypy knows: one set to a literal, not from another name); write the name as a literal, or set a Final constant to the literal  [toolset-unchecked]
    exports = (tool(name := "w"), tool("v", tool_name=NAMES[0]))  # E: Described: the method name given as (name := ...) cannot be checked statically (it is neither a string literal nor a Final constant whose value mypy knows: one set to a literal, not from another name); write the name as a literal, or set a Final constant to the literal  [toolset-unchecked]  # E: Described.v: the tool name given as NAMES[...] cannot be checked statically (it is neither a string literal nor a Final constant whose value mypy knows: one set to a literal, not from another name); write the name as a literal, or set a Final constant to the literal  [toolset-unchecked]

    def w(self) -> None: ...

    def v(self) -> None: ...


class Sliced(Toolset):
    exports = (tool("s"),)[:1]  # E: Sliced: the exports given as an item or a slice of a tuple cannot be checked statically (mypy cannot tell which tool(...) calls it holds); write the tool(...) calls in the class body, or in a Final tuple of this module (tuples joined with `+`, repeated with `*` or unpacked with `*` are read too)  [toolset-unchecked]

    def s(self) -> None: ...


# An entry that may well be a ToolSpec, other than a tool(...) call: each was skipped silently.
SPECS: Final = (tool("s"), tool("t"))
DEBUG: Final = False


class ExpressionEntries(Toolset):
    exports = (SPECS[0], tool("s") if DEBUG else tool("t"), (chosen := tool("u")))  # E: ExpressionEntries: the exports given as SPECS[...] cannot be checked statically (mypy cannot tell which tool(...) calls it holds); write the tool(...) calls in the class body, or in a Final tuple of this module (tuples joined with `+`, repeated with `*` or unpacked with `*` are read too)  [toolset-unchecked]  # E: ExpressionEntries: the exports given as tool(...) if ... else tool(...) cannot be checked statically (mypy cannot tell which tool(...) calls it holds); write the tool(...) calls in the class body, or in a Final tuple of this module (tuples joined with `+`, repeated with `*` or unpacked with `*` are read too)  [toolset-unchecked]  # E: ExpressionEntries: the exports given as (chosen := ...) cannot be checked statically (mypy cannot tell which tool(...) calls it holds); write the tool(...) calls in the class body, or in a Final tuple of this module (tuples joined with `+`, repeated with `*` or unpacked with `*` are read too)  [toolset-unchecked]

    def s(self) -> None: ...

    def t(self) -> None: ...

    def u(self) -> None: ...


# A Final constant set from another module's Final name: mypy records no value for it (the
# message said to declare it Final, which it is).
RENAMED: Final = PREFIX


class FromAnotherName(Toolset):
    exports = (tool(RENAMED),)  # E: FromAnotherName: the method name given as RENAMED cannot be checked statically (it is neither a string literal nor a Final constant whose value mypy knows: one set to a literal, not from another name); write the name as a literal, or set a Final constant to the literal  [toolset-unchecked]

    def shop(self) -> None: ...


# A decorator mypy cannot tell from `tool` might declare the method: said where it is written.
# Those that are known functions or classes (or calls of them) say nothing.
DECORATORS = [tool]
UNTYPED: Any = tool
cached = functools.cache


def passthrough(func: Callable[P, R]) -> Callable[P, R]:
    return func


def factory() -> Callable[[Callable[P, R]], Callable[P, R]]:
    return passthrough


class Holder:
    def wrap(self, func: Callable[P, R]) -> Callable[P, R]:
        return func


holder = Holder()


class Decorated(Toolset):
    @(tool if APP else tool)  # E: Decorated.either: the decorator @(tool if ... else tool) cannot be checked statically (mypy cannot tell whether it is tool, which would declare the method a tool); write @tool or @tool(...) itself there (or a name bound to tool), or check the class with `typed-toolsets check`  [toolset-unchecked]
    def either(self) -> None: ...

    @DECORATORS[0]  # E: Decorated.item: the decorator @DECORATORS[...] cannot be checked statically (mypy cannot tell whether it is tool, which would declare the method a tool); write @tool or @tool(...) itself there (or a name bound to tool), or check the class with `typed-toolsets check`  [toolset-unchecked]
    def item(self) -> None: ...

    @DECORATORS[0](tool_name="called")  # E: Decorated.called: the decorator @DECORATORS[...](...) cannot be checked statically (mypy cannot tell whether it is tool, which would declare the method a tool); write @tool or @tool(...) itself there (or a name bound to tool), or check the class with `typed-toolsets check`  [toolset-unchecked]
    def called(self) -> None: ...

    @UNTYPED  # E: Untyped decorator makes function "untyped" untyped  [untyped-decorator]  # E: Decorated.untyped: the decorator @UNTYPED cannot be checked statically (mypy cannot tell whether it is tool, which would declare the method a tool); write @tool or @tool(...) itself there (or a name bound to tool), or check the class with `typed-toolsets check`  [toolset-unchecked]
    def untyped(self) -> None: ...

    @staticmethod
    def static() -> None: ...

    @property
    def prop(self) -> int:
        return 1

    @functools.cache
    def cached_method(self) -> int:
        return 1

    @cached
    def cached_alias(self) -> int:
        return 1

    @functools.lru_cache(maxsize=None)
    def lru(self) -> int:
        return 1

    @passthrough
    def plain(self) -> None: ...

    @factory()
    def made(self) -> None: ...

    @holder.wrap
    def held(self) -> None: ...

    @(lambda func: func)
    def anonymous(self) -> None: ...


def proxies(decorated: Decorated) -> None:
    # Any method may be exported then: no `toolset-unknown-method` for one that is not.
    Toolset.proxy(decorated.plain)
