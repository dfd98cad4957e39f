# Defaults the schema refuses (`bad-default`) and methods without `self` (`no-self`), as the run
# time reports them. What mypy cannot see (the constraints of `Annotated`) is left to the run time.
# An infinity or NaN is a fine default of a float (the schema only does not show it): no problem.
import math
from math import inf
from typing import Annotated, Optional

from annotated_types import Ge, Le

from typed_toolsets import Toolset, tool


class Defaults(Toolset):
    exports = (
        tool("unbounded"),
        tool("below"),
        tool("undefined"),
        tool("parsed"),
        tool("overflow"),
        tool("flag"),
        tool("flag_float"),
        tool("optional"),
        tool("constrained"),
        tool("spelled"),
        tool("negative"),
        tool("limited"),
        tool("fine"),
    )

    def unbounded(self, *, limit: float = math.inf) -> float:
        return limit

    def below(self, *, limit: float = -inf) -> float:
        return limit

    def undefined(self, *, x: float = math.nan) -> float:
        return x

    def parsed(self, *, x: float = float("inf")) -> float:
        return x

    def overflow(self, *, x: float = 1e999) -> float:
        return x

    def flag(self, *, n: int = True) -> int:  # E: Defaults.flag: parameter 'n' has the default True, which is not a valid int (True is not an int)  [toolset-signature]
        return n

    def flag_float(self, *, x: float = False) -> float:  # E: Defaults.flag_float: parameter 'x' has the default False, which is not a valid float (False is not a finite number)  [toolset-signature]
        return x

    def optional(self, *, n: int | None = False) -> int | None:  # E: Defaults.optional: parameter 'n' has the default False, which is not a valid int | None (none of the variants of int | None takes False)  [toolset-signature]
        return n

    def constrained(self, *, x: Annotated[float, Ge(0)] = math.inf) -> float:
        return x

    def spelled(self, *, x: Optional[float] = -inf) -> float | None:
        return x

    # mypy does not see the constraints of Annotated: left to the run time.
    def negative(self, *, n: Annotated[int, Ge(0)] = -1) -> int:
        return n

    # mypy does not see the bound an infinity breaks: left to the run time.
    def limited(self, *, x: Annotated[float, Le(10)] = math.inf) -> float:
        return x

    def fine(self, *, on: bool = True, big: float = 1e300, x: float = -1.5, n: int = 0) -> None:
        pass


class DecoratedDefaults(Toolset):
    # mypy analyses a decorated method's defaults with its body, after the class is read.
    @tool
    def flag(self, *, n: int = False) -> int:  # E: DecoratedDefaults.flag: parameter 'n' has the default False, which is not a valid int (False is not an int)  [toolset-signature]
        return n

    @tool(description="A float.")
    def flag_float(self, *, x: float = True) -> float:  # E: DecoratedDefaults.flag_float: parameter 'x' has the default True, which is not a valid float (True is not a finite number)  [toolset-signature]
        return x

    @tool()
    def optional(self, *, w: int | None = False) -> int | None:  # E: DecoratedDefaults.optional: parameter 'w' has the default False, which is not a valid int | None (none of the variants of int | None takes False)  [toolset-signature]
        return w

    @tool
    def fine(self, *, on: bool = True) -> bool:
        return on


class NoSelf(Toolset):
    exports = (tool("keywords"),)

    def keywords(*, x: int) -> int:  # E: NoSelf.keywords: it takes no `self`; a tool is an instance method: make `self` its first parameter  [toolset-signature]  # E: "self" parameter missing for a non-static method (or an invalid type for self)  [misc]
        return x

    @tool
    def ping() -> str:  # E: NoSelf.ping: it takes no `self`; a tool is an instance method: make `self` its first parameter  [toolset-signature]  # E: Method must have at least one argument. Did you forget the "self" argument?  [misc]
        return "pong"


class OptionalBools(Toolset):
    # Optional[X] is shown `X | None` by the run time too now (it was typing.Optional[X]), so
    # the plugin judges it; `None | int` keeps its order at run time, mypy writes it `int | None`.
    @tool
    def spelled(self, *, n: Optional[int] = False) -> int:  # E: OptionalBools.spelled: parameter 'n' has the default False, which is not a valid int | None (none of the variants of int | None takes False)  [toolset-signature]
        return 1
