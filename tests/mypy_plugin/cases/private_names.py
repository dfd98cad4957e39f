# Private names: Python stores `def __find` written in `class Tasks` as `_Tasks__find`, and so
# does its parameter `__data`; the string in `tool("__find")` is not mangled. mypy keeps the
# names as written, the run time sees the class's attributes: the plugin reads them as Python.
from typed_toolsets import Toolset, tool


class Tasks(Toolset):
    exports = (
        tool("__find"),  # E: Tasks.__find: Tasks has no method '__find' to export; did you mean '_Tasks__find'?  [toolset-unknown-method]
        tool("_Tasks__find"),
    )

    def __find(self, *, query: str) -> str:
        return query


class Base(Toolset):
    exports = (tool("_Base__find"),)

    def __find(self, *, query: str) -> str:
        return query


class Hidden(Toolset):
    # Exported as `hidden__Hidden__count`, the attribute's name.
    @tool
    def __count(
        self,
        *,
        __data: bytes,  # E: Hidden._Hidden__count: parameter '_Hidden__data' has type bytes, which has no JSON Schema (bytes cannot be sent as JSON; use str (for example base64 text))  [toolset-param-type]
    ) -> int:
        return 1


class Clash(Toolset):
    toolset_name = "clash"
    exports = (tool("_Clash__go", tool_name="clash___go"),)

    @tool  # E: Clash._Clash__go: the method '_Clash__go' is declared twice in this class  [toolset-duplicate-name]
    def __go(self) -> None: ...


class LongPrefix(Toolset):
    toolset_name = "abcdefghijabcdefghijabcdefghijabcdefghijabcdefghij"

    @tool  # E: LongPrefix._LongPrefix__go: the tool name 'abcdefghijabcdefghijabcdefghijabcdefghijabcdefghij__LongPrefix__go' is not valid for LLM APIs: it is too long (66 > 64 characters) (names must match ^[A-Za-z_][A-Za-z0-9_-]{0,63}$: letters, digits, '_' and '-', at most 64 characters, not starting with a digit or '-')  [toolset-invalid-name]
    def __go(self) -> None: ...


class Child(Base):
    # The base's method is `_Base__find`, whatever class names it.
    exports = (
        tool("__find"),  # E: Child.__find: Child has no method '__find' to export; did you mean '_Base__find'?  [toolset-unknown-method]
        tool("_Child__find"),  # E: Child._Child__find: Child has no method '_Child__find' to export; did you mean '_Base__find'?  [toolset-unknown-method]
        tool("_Base__find", tool_name="child_find"),
    )


class _Underscored(Toolset):
    # The class name's leading underscores are dropped: `_Underscored__go`.
    exports = (tool("_Underscored__go"),)

    def __go(self) -> None: ...


class Held(Toolset):
    @tool
    def __find(self, *, query: str) -> str:
        return query

    def __helper(self) -> None: ...

    def hold(self) -> None:
        Toolset.proxy(self.__find)
        Toolset.proxy(self.__helper)  # E: Held._Held__helper: '_Held__helper' is not exported as a tool; declare it with tool('_Held__helper') in `exports` or with @tool, or hold a method that is exported  [toolset-unknown-method]
