from typed_toolsets import Toolset, tool


def build(flag: bool) -> None:
    class InFunction(Toolset):
        exports = (tool("missing"),)  # E: InFunction.missing: InFunction has no method 'missing' to export  [toolset-unknown-method]

    if flag:

        class InBlock(Toolset):
            @tool
            def bad(self, *args: int) -> None: ...  # E: InBlock.bad: '*args' is not supported; declare keyword parameters instead  [toolset-signature]


class Outer:
    class Inner(Toolset):
        exports = (tool("go", tool_name="bad name"),)  # E: Outer.Inner.go: the tool name 'bad name' is not valid for LLM APIs: it contains ' ' (names must match ^[A-Za-z_][A-Za-z0-9_-]{0,63}$: letters, digits, '_' and '-', at most 64 characters, not starting with a digit or '-')  [toolset-invalid-name]

        def go(self) -> None: ...
