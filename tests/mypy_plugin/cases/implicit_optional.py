# mypy: implicit-optional
# A None default never makes a parameter nullable at run time, even where mypy's
# implicit_optional widens the type.
from typing import Annotated, Literal, Optional, Tuple, Union

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


class SpecialForms(Toolset):
    # Literal and Tuple are special forms, not classes: what they admit is read from their
    # arguments (a tuple never is None).
    @tool
    def run(
        self,
        *,
        word: Literal["a", "b"] = None,  # E: SpecialForms.run: parameter 'word' defaults to None but its type Literal['a', 'b'] does not admit null; add `| None` to its annotation (a None default does not make a parameter nullable)  [toolset-signature]
        either: Union[str, Literal[1]] = None,  # E: SpecialForms.run: parameter 'either' defaults to None but its type str | Literal[1] does not admit null; add `| None` to its annotation (a None default does not make a parameter nullable)  [toolset-signature]
        pair: Tuple[int, str] = None,  # E: SpecialForms.run: parameter 'pair' defaults to None but its type tuple[int, str] does not admit null; add `| None` to its annotation (a None default does not make a parameter nullable)  [toolset-signature]
        items: Tuple[int, ...] = None,  # E: SpecialForms.run: parameter 'items' defaults to None but its type tuple[int, ...] does not admit null; add `| None` to its annotation (a None default does not make a parameter nullable)  [toolset-signature]
        nullable: Literal["a", None] = None,
        nested: Literal[Literal["a"], None] = None,
    ) -> None: ...
