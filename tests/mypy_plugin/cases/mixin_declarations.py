from typing import ClassVar

from typed_toolsets import Toolset, ToolSpec, tool


class Greeting:
    exports: ClassVar[tuple[ToolSpec, ...]] = (tool("wave"),)

    @tool
    def greet(self, *, name: str) -> str:
        return name

    def wave(self) -> str:
        return "o/"


class Friendly(Greeting, Toolset):  # E: Friendly.wave: Greeting declares the tool 'wave' but is not a Toolset, so Friendly does not inherit the declaration (nothing exports 'wave'); derive Greeting from Toolset, or declare 'wave' in Friendly  [toolset-unknown-method]  # E: Friendly.greet: Greeting declares the tool 'greet' but is not a Toolset, so Friendly does not inherit the declaration (nothing exports 'greet'); derive Greeting from Toolset, or declare 'greet' in Friendly  [toolset-unknown-method]
    pass


class Declared(Greeting, Toolset):
    # A method the Toolset declares itself is exported: nothing is lost.
    exports = (tool("wave"), tool("greet"))


class Plain:
    def helper(self) -> str:
        return "plain"


class WithPlain(Plain, Toolset):
    @tool
    def ping(self) -> str:
        return "pong"


class SpacedName:
    toolset_name = "spaced name"


class NamedAfter(Toolset, SpacedName):
    # A mixin listed after Toolset sets the name too: no class before it in the MRO does.
    @tool  # E: NamedAfter.ping: the tool name 'spaced name_ping' is not valid for LLM APIs: it contains ' ' (names must match ^[A-Za-z_][A-Za-z0-9_-]{0,63}$: letters, digits, '_' and '-', at most 64 characters, not starting with a digit or '-')  [toolset-invalid-name]
    def ping(self) -> str:
        return "pong"


class Typed:
    toolset_name: ClassVar[str]  # only annotated: sets nothing


class AfterTyped(Toolset, Typed):
    @tool
    def ping(self) -> str:
        return "pong"


@tool
def marked(self: object, *, x: int) -> int:
    return x


class HeldMarked:
    held = marked


class HoldingUser(HeldMarked, Toolset):  # E: HoldingUser.held: HeldMarked declares the tool 'held' but is not a Toolset, so HoldingUser does not inherit the declaration (nothing exports 'held'); derive HeldMarked from Toolset, or declare 'held' in HoldingUser  [toolset-unknown-method]
    @tool
    def ping(self) -> str:
        return "pong"
