# mypy: disable-error-code="toolset-ambiguous-union"
import enum

from typed_toolsets import Toolset, tool


class Color(str, enum.Enum):
    RED = "red"


class OnlyOne(Toolset):
    @tool
    def paint(self, *, color: str | Color, other: object) -> None: ...  # E: OnlyOne.paint: parameter 'other' has type object, which has no JSON Schema (object has no JSON Schema; use a concrete type)  [toolset-param-type]

    @tool
    def mix(self, *, color: str | Color) -> None: ...

    @tool
    def ignored(self, *, other: object) -> None: ...  # type: ignore[toolset-param-type]
