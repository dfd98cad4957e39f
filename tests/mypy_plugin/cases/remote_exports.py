# clean: declarations made in their own module, used by unchecked.py and read_exports.py.
from typing import TYPE_CHECKING, Final

from typed_toolsets import ToolSpec, tool

expose = tool
SHARED: Final = (tool("search"),)
PREFIX: Final = "shop"


def exported(name: str) -> ToolSpec:
    """A helper wrapping tool(): mypy cannot tell which method it declares."""
    return tool(name, description=f"Run {name}")


class NamedMixin:
    """Not a Toolset: its literal toolset_name is still read."""

    toolset_name = "named"


class ComputedMixin:
    toolset_name = PREFIX.upper()


def measure(self: object, *, data: bytes) -> int:
    """A function a class attribute names (`size = measure`): a method of that class."""
    return len(data)


class RemoteTypingMixin:
    """Not a Toolset: a method that exists only for type checkers (type_checking_names.py)."""

    if TYPE_CHECKING:

        def typed_only(self, *, query: str) -> str: ...
