from typed_toolsets import Toolset, tool


def build(flag: bool) -> None:
    class InFunction(Toolset):
        exports = (tool("missing"),)  # E: Cannot export "InFunction.missing" as a tool: "InFunction" has no method "missing"  [toolset-unknown-method]

    if flag:

        class InBlock(Toolset):
            @tool
            def bad(self, *args: int) -> None: ...  # E: Cannot export "InBlock.bad" as a tool: "*args" is not supported; declare keyword parameters instead  [toolset-signature]


class Outer:
    class Inner(Toolset):
        exports = (tool("go", tool_name="bad name"),)  # E: Cannot export "Outer.Inner.go" as a tool: the tool name "bad name" is not valid for LLM APIs (it must match ^[A-Za-z_][A-Za-z0-9_-]{0,63}$)  [toolset-invalid-name]

        def go(self) -> None: ...
