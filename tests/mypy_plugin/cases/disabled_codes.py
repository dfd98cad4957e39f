# clean: the parent code silences every plugin check in this file.
# mypy: disable-error-code="toolset"
import attrs

from typed_toolsets import Toolset, tool


@attrs.define
class Silenced(Toolset):
    db: str
    exports = (tool("missing"), tool("go", tool_name="bad name"))

    def go(self, *args: int) -> None: ...


Silenced.to_tools()
