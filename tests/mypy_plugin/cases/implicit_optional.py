# mypy: implicit-optional
# A None default never makes a parameter nullable at run time, even where mypy's
# implicit_optional widens the type.
from typing import Annotated, Optional, Union

from annotated_types import Ge

from typed_toolsets import Toolset, tool

Count = Annotated[int, Ge(0)]
Maybe = Optional[int]


class Defaults(Toolset):
    @tool
    def run(
        self,
        *,
        plain: int = None,  # E: Defaults.run: parameter 'plain' defaults to None but its type int does not admit null; add `| None` to its annotation (a None default does not make a parameter nullable)  [toolset-signature]
        counted: Count = None,  # E: Defaults.run: parameter 'counted' defaults to None but its type int does not admit null; add `| None` to its annotation (a None default does not make a parameter nullable)  [toolset-signature]
        optional: Optional[int] = None,
        union: Union[int, str, None] = None,
        alias: Maybe = None,
        annotated: Annotated[Optional[int], Ge(0)] = None,
        fine: int = 3,
    ) -> None: ...
