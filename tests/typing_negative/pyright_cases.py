# pyright: strict
"""Mistakes pyright must report without any plugin (never executed).

Each line that must fail carries ``# expect: <rule>``; ``tests/mypy_plugin/test_typing.py``
compares basedpyright's output with these comments.
"""

from __future__ import annotations

import attrs
from typing_extensions import override

from typed_toolsets import ToolResult, Toolset, tool
from typed_toolsets.testing import check_toolset


@attrs.define
class NeedsDb(Toolset):
    db_url: str

    @tool
    def query(self, *, sql: str) -> int:
        return len(sql)


class Declared(Toolset):
    exports = (tool("go"), "stop")  # expect: reportAssignmentType

    def go(self) -> None: ...

    @tool  # expect: reportCallIssue, reportArgumentType, reportUntypedFunctionDecorator
    @property
    def size(self) -> int:
        return 1


class Stateless(Toolset):
    @tool
    def ping(self) -> str:
        return "pong"


class Overrides(Stateless):
    # A decorated method is still a method to pyright (its override checks hold), as long as
    # `tool` returns the function's own type: typed with a ParamSpec, it was a plain callable.
    @override
    @tool
    def pong(self) -> str:  # expect: reportGeneralTypeIssues
        return "ping"

    @tool
    def ping(self) -> int:  # expect: reportIncompatibleMethodOverride
        return 1


def misuse(result: ToolResult, db: NeedsDb) -> None:
    seen = {Stateless()}  # expect: reportUnhashable
    del seen
    NeedsDb.to_tools()  # expect: reportAttributeAccessIssue, reportUnknownMemberType
    db.to_tools()
    check_toolset(NeedsDb)  # expect: reportArgumentType
    check_toolset(db)
    check_toolset(Stateless)
    db.query(statement="x")  # expect: reportCallIssue
    tool(42)  # expect: reportCallIssue, reportArgumentType
    tool("go", tool_name=7)  # expect: reportCallIssue, reportArgumentType
    result.value + 1  # expect: reportOperatorIssue, reportUnusedExpression


def typed_proxy_misuse(db: NeedsDb) -> None:
    query = Toolset.proxy(db.query)
    query.call(sql=3)  # expect: reportArgumentType
    query.call(statement="x")  # expect: reportCallIssue
    rows: str = query.invoke({"sql": "x"}).value  # expect: reportAssignmentType
    del rows
