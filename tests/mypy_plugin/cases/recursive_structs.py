# TypedDicts and NamedTuples that refer to themselves are recursive structs, as attrs classes
# are: the run time gives them `$defs` and `$ref`s. mypy calls such a class a recursive alias
# inside its own body, which is not the `Json = dict[str, "Json"] | ...` kind it cannot have.
from __future__ import annotations

from typing import NamedTuple

from typing_extensions import NotRequired, TypedDict

from typed_toolsets import Toolset, tool


class Node(TypedDict):
    name: str
    children: list[Node]


class Comment(TypedDict):
    name: str
    replies: NotRequired[list[Reply]]


class Reply(TypedDict):
    text: str
    thread: Comment | None


class Outline(TypedDict):
    name: str
    children: NotRequired[list[Outline]]


class Cons(NamedTuple):
    head: int
    tail: Cons | None = None


class Blob(TypedDict):
    data: bytes
    parts: list[Blob]


class Trees(Toolset):
    @tool
    def walk(self, *, node: Node, comment: Comment, items: Cons | None = None) -> int:
        return len(node["children"])

    @tool
    def either(
        self,
        *,
        node: Node | Outline,  # E: Trees.either: parameter 'node' has the union Node | Outline, and a JSON value can match both Node and Outline (the first one in declared order wins)  [toolset-ambiguous-union]
        comment: Comment | Node,
    ) -> None: ...


class Blobs(Toolset):
    @tool
    def store(
        self,
        *,
        blob: Blob,  # E: Blobs.store: parameter 'blob' has type Blob, which has no JSON Schema (field Blob.data: bytes cannot be sent as JSON; use str (for example base64 text))  [toolset-param-type]
    ) -> None: ...
