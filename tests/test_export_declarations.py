"""Tool annotations and ``requires_approval``: declared per tool or per toolset, carried on proxies."""

from __future__ import annotations

import re
from typing import ClassVar

import attrs
import pytest

from typed_toolsets import ToolAnnotations, Toolset, ToolsetDefinitionError, export, tool
from typed_toolsets.github import GitHubCLIToolset
from typed_toolsets.text import TextProcessingToolset


def test_annotations_are_typed_hints_with_mcp_names() -> None:
    hints = ToolAnnotations(title="Search", read_only_hint=True, open_world_hint=False)
    assert hints.to_dict() == {"title": "Search", "readOnlyHint": True, "openWorldHint": False}
    assert ToolAnnotations().to_dict() == {}
    full = ToolAnnotations(
        title="t",
        read_only_hint=False,
        destructive_hint=True,
        idempotent_hint=False,
        open_world_hint=True,
    )
    assert list(full.to_dict()) == [
        "title",
        "readOnlyHint",
        "destructiveHint",
        "idempotentHint",
        "openWorldHint",
    ]


@pytest.mark.parametrize(
    "kwargs",
    [{"read_only_hint": 1}, {"destructive_hint": "yes"}, {"title": 3}, {"open_world_hint": None}],
)
def test_annotations_check_their_types(kwargs: dict[str, object]) -> None:
    if kwargs == {"open_world_hint": None}:
        assert ToolAnnotations(**kwargs).open_world_hint is None  # type: ignore[arg-type]
        return
    # attrs' own TypeError said "'title' must be <class 'str'>" and held the attrs field.
    with pytest.raises(ToolsetDefinitionError) as raised:
        ToolAnnotations(**kwargs)  # type: ignore[arg-type]
    (name, value), *_ = kwargs.items()
    expected = "a str" if name == "title" else "True, False"
    assert str(raised.value) == (
        f"ToolAnnotations(): `{name}` must be {expected} or None (got {value!r})"
    )
    assert isinstance(raised.value, TypeError)  # as it was


class _NoRepr:
    def __repr__(self) -> str:
        raise RuntimeError("no repr")


def test_annotations_given_a_value_without_a_repr_still_say_what_to_pass() -> None:
    # The value's own RuntimeError came out of ToolAnnotations(), tool() and class creation.
    with pytest.raises(
        ToolsetDefinitionError, match=r"must be True, False or None \(got <_NoRepr>\)"
    ):
        ToolAnnotations(read_only_hint=_NoRepr())  # type: ignore[arg-type]
    with pytest.raises(ToolsetDefinitionError, match="got <dict>"):
        tool("f", annotations={"readOnlyHint": _NoRepr()})


def test_annotations_are_keyword_only() -> None:
    with pytest.raises(TypeError):
        ToolAnnotations("title")  # type: ignore[misc]


def test_tool_hints_are_laid_over_the_toolset_hints_field_by_field() -> None:
    class Files(Toolset):
        tool_annotations = ToolAnnotations(read_only_hint=True, open_world_hint=False)
        exports = (
            tool("read"),
            tool(
                "delete",
                annotations=ToolAnnotations(read_only_hint=False, destructive_hint=True),
                requires_approval=True,
            ),
        )

        def read(self, *, path: str) -> str:
            return path

        def delete(self, *, path: str) -> None: ...

        @tool(annotations=ToolAnnotations(title="Stat a file"))
        def stat(self, *, path: str) -> int:
            return len(path)

    read, delete, stat = Files.to_tools()
    assert read.annotations == ToolAnnotations(read_only_hint=True, open_world_hint=False)
    assert delete.annotations == ToolAnnotations(
        read_only_hint=False, destructive_hint=True, open_world_hint=False
    )
    assert stat.annotations == ToolAnnotations(
        title="Stat a file", read_only_hint=True, open_world_hint=False
    )
    assert [t.requires_approval for t in (read, delete, stat)] == [False, True, False]


def test_a_toolset_may_require_approval_for_every_tool_and_a_tool_may_opt_out() -> None:
    @attrs.define
    class Shell(Toolset):
        requires_approval = True
        cwd: str = "/"

        @tool
        def run(self, *, argv: list[str]) -> str:
            return " ".join(argv)

        @tool(requires_approval=False)
        def pwd(self) -> str:
            return self.cwd

    run, pwd = Shell.to_tools()
    assert (run.requires_approval, pwd.requires_approval) == (True, False)
    assert run.annotations is None


def test_subclasses_inherit_the_toolset_policy_and_may_change_it() -> None:
    class Base(Toolset):
        tool_annotations = ToolAnnotations(read_only_hint=True)
        requires_approval = True

        @tool
        def look(self) -> str:
            return "ok"

    class Relaxed(Base):
        requires_approval = False

    (look,) = Relaxed.to_tools()
    assert look.name == "relaxed_look"
    assert look.annotations == ToolAnnotations(read_only_hint=True)
    assert not look.requires_approval
    assert Base.to_tools()[0].requires_approval


def test_a_toolset_s_annotations_may_be_spelled_as_a_tool_s() -> None:
    # `tool(..., annotations=...)` for one tool, `annotations = ...` for the toolset (as
    # `limits` and `requires_approval` are one word at both levels): it was silently ignored.
    hints = ToolAnnotations(read_only_hint=True, open_world_hint=False)

    class Files(Toolset):
        annotations = hints

        @tool
        def read(self, *, path: str) -> str:
            return path

        @tool(annotations=ToolAnnotations(title="Size"))
        def size(self, *, path: str) -> int:
            return len(path)

    class Narrower(Files):
        tool_annotations = ToolAnnotations(idempotent_hint=True)  # the nearer class wins

    read, size = Files.to_tools()
    assert read.annotations == hints
    assert size.annotations == ToolAnnotations(
        title="Size", read_only_hint=True, open_world_hint=False
    )
    assert export.mcp([read])[0]["annotations"] == {"readOnlyHint": True, "openWorldHint": False}
    assert Narrower.to_tools()[0].annotations == ToolAnnotations(idempotent_hint=True)


def test_a_toolset_s_annotations_declared_twice_differently_are_a_definition_error() -> None:
    with pytest.raises(ToolsetDefinitionError) as caught:

        class Both(Toolset):
            tool_annotations = ToolAnnotations(read_only_hint=True)
            annotations = ToolAnnotations(read_only_hint=False)

            @tool
            def ping(self) -> str:
                return "pong"

    assert "Both: `annotations` must be left out where tool_annotations is set" in str(caught.value)

    class Same(Toolset):  # the same hints twice: nothing to choose between
        tool_annotations = ToolAnnotations(read_only_hint=True)
        annotations = ToolAnnotations(read_only_hint=True)

        @tool
        def ping(self) -> str:
            return "pong"

    assert Same.to_tools()[0].annotations == ToolAnnotations(read_only_hint=True)


def test_an_attribute_named_annotations_of_another_kind_is_the_class_s_own() -> None:
    class Notes(Toolset):
        annotations: ClassVar[list[str]] = ["not hints"]

        @tool
        def ping(self) -> str:
            return "pong"

    assert Notes.to_tools()[0].annotations is None


def test_without_declarations_nothing_is_set() -> None:
    class Plain(Toolset):
        @tool
        def ping(self) -> str:
            return "pong"

    (ping,) = Plain.to_tools()
    assert ping.annotations is None
    assert ping.requires_approval is False


def test_wrong_declarations_are_definition_errors() -> None:
    with pytest.raises(ToolsetDefinitionError) as caught:

        class Wrong(Toolset):
            tool_annotations = ("readOnlyHint", True)  # type: ignore[assignment]
            requires_approval = "yes"  # type: ignore[assignment]

            @tool
            def ping(self) -> str:
                return "pong"

    message = str(caught.value)
    assert (
        "Wrong: `tool_annotations` must be a ToolAnnotations, a mapping of MCP's hints" in message
    )
    assert "Wrong: `requires_approval` must be True or False (got 'yes')" in message
    assert len(caught.value.problems) == 2


@pytest.mark.parametrize(
    ("kwargs", "expected"),
    [
        ({"annotations": {"readOnly": True}}, "`annotations` must be a ToolAnnotations, a "),
        ({"annotations": {"readOnlyHint": "yes"}}, "`annotations` must be a ToolAnnotations, a "),
        ({"annotations": ("readOnlyHint", True)}, "`annotations` must be a ToolAnnotations, a "),
        ({"requires_approval": 1}, "`requires_approval` must be a bool or None (got 1)"),
    ],
)
def test_tool_checks_the_new_options(kwargs: dict[str, object], expected: str) -> None:
    with pytest.raises(ToolsetDefinitionError, match=re.escape(expected)):
        tool("ping", **kwargs)  # type: ignore[arg-type]
    with pytest.raises(ToolsetDefinitionError, match=re.escape(expected)):
        tool(**kwargs)  # type: ignore[call-overload]


def test_annotations_may_be_written_in_mcp_s_names() -> None:
    # SPEC 8 names the hints as MCP does: a mapping of those (or the fields' own names, or the
    # MCP SDK's ToolAnnotations) was refused as "not a ToolAnnotations".
    from mcp.types import ToolAnnotations as SdkAnnotations

    class Files(Toolset):
        tool_annotations: ClassVar[dict[str, bool]] = {"readOnlyHint": True, "openWorldHint": False}

        @tool(annotations={"readOnlyHint": False, "destructiveHint": True, "title": "Delete"})
        def delete(self, *, path: str) -> None: ...

        @tool(annotations={"idempotent_hint": True})
        def touch(self, *, path: str) -> None: ...

        @tool(annotations=SdkAnnotations(title="Stat"))
        def stat(self, *, path: str) -> int:
            return len(path)

    delete, touch, stat = Files.to_tools()
    assert delete.annotations == ToolAnnotations(
        title="Delete", read_only_hint=False, destructive_hint=True, open_world_hint=False
    )
    assert touch.annotations == ToolAnnotations(
        read_only_hint=True, idempotent_hint=True, open_world_hint=False
    )
    assert stat.annotations == ToolAnnotations(
        title="Stat", read_only_hint=True, open_world_hint=False
    )
    assert export.mcp([delete])[0]["annotations"] == {
        "title": "Delete",
        "readOnlyHint": False,
        "destructiveHint": True,
        "openWorldHint": False,
    }
    assert tool("delete", annotations={"readOnlyHint": True}).annotations == ToolAnnotations(
        read_only_hint=True
    )


def test_the_bare_decorator_refuses_options_given_with_the_method() -> None:
    def ping(self: object) -> str:
        return "pong"

    with pytest.raises(ToolsetDefinitionError, match=r"@tool\(description=...\)"):
        tool(ping, requires_approval=True)  # type: ignore[call-overload]


def test_the_built_in_toolsets_are_read_only() -> None:
    for tools, open_world in (
        (TextProcessingToolset.to_tools(), False),
        (GitHubCLIToolset.to_tools(), True),
    ):
        for proxy in tools:
            assert proxy.annotations == ToolAnnotations(
                read_only_hint=True, open_world_hint=open_world
            ), proxy.name
            assert not proxy.requires_approval
