# pyright: strict
"""Toolsets with state: ``@attrs.define`` and ``@attrs.frozen`` subclasses, as SPEC 1 allows.

Neither checker may refuse a frozen subclass of `Toolset` (pyright refuses a frozen attrs class
whose attrs base is not frozen), and both keep seeing each subclass as the attrs class it is.
"""

from __future__ import annotations

from typing import Any

import attrs
from typing_extensions import assert_type

from typed_toolsets import Toolset, tool


@attrs.frozen
class PricingToolset(Toolset):
    """Immutable configuration: a frozen attrs class."""

    currency: str = "EUR"
    rate: float = 1.0

    @tool
    def convert(self, *, amount: float) -> float:
        return amount * self.rate


@attrs.define
class CounterToolset(Toolset):
    count: int = 0

    @tool
    def bump(self, *, by: int = 1) -> int:
        self.count += by
        return self.count


class PlainToolset(Toolset):
    @tool
    def echo(self, *, text: str) -> str:
        return text


def configured(toolset: Toolset) -> None:
    pricing = PricingToolset(currency="USD", rate=1.1)
    assert_type(attrs.evolve(pricing, rate=2.0), PricingToolset)
    assert_type(Toolset.proxy(pricing.convert).call(amount=2.0), float)
    assert_type(attrs.asdict(CounterToolset(count=2)), dict[str, Any])
    assert_type(attrs.asdict(toolset), dict[str, Any])
    assert_type(PricingToolset.to_tools()[0].name, str)
    assert_type(PlainToolset().to_tools()[0].name, str)
    prices = {pricing}  # frozen attrs classes with eq are hashable
    del prices
