from typing_extensions import Unpack

from typed_toolsets import Toolset, tool

# A fixed tuple unpacked in a tuple is written out in place (mypy reads it so); a tuple of any
# length unpacked in one had a schema of one nested array, and no definition error.


class Unpacked(Toolset):
    @tool
    def fixed(self, *, x: tuple[int, Unpack[tuple[str, str]]]) -> None: ...

    @tool
    def trailing(self, *, x: tuple[int, Unpack[tuple[str, ...]]]) -> None: ...  # E: Unpacked.trailing: parameter 'x' has type tuple[int, *tuple[str, ...]], which has no JSON Schema (a tuple of any length unpacked in a tuple (*tuple[X, ...]) has no JSON Schema; write tuple[X, ...] for any number of items, or list each item: tuple[A, B])  [toolset-param-type]

    @tool
    def between(self, *, x: tuple[str, Unpack[tuple[int, ...]], str]) -> None: ...  # E: Unpacked.between: parameter 'x' has type tuple[str, *tuple[int, ...], str], which has no JSON Schema (a tuple of any length unpacked in a tuple (*tuple[X, ...]) has no JSON Schema; write tuple[X, ...] for any number of items, or list each item: tuple[A, B])  [toolset-param-type]
