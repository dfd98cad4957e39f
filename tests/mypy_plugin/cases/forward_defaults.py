# mypy: disable-error-code="assignment"
# A None default of a class defined later in the module: the class was not known yet when the
# plugin recorded the method's facts, and the default went unreported (it now waits a pass).
import attrs

from typed_toolsets import Toolset, tool


class LaterDefaults(Toolset):
    @tool
    def find(self, *, where: "Place" = None) -> int:  # E: LaterDefaults.find: parameter 'where' defaults to None but its type Place does not admit null; add `| None` to its annotation (a None default does not make a parameter nullable)  [toolset-signature]
        return 1

    @tool
    def near(self, *, where: "Place | None" = None) -> int:
        return 1


@attrs.define
class Place:
    name: str
