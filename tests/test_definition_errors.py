"""Every definition problem is a ToolsetDefinitionError at class creation naming class, method
and cause; all problems of a class are listed at once, one per line.
"""

from __future__ import annotations

import sys
import types
from collections.abc import Callable
from typing import Any

import attrs
import pytest

from typed_toolsets import Toolset, ToolsetDefinitionError, TypedToolsetsError, tool
from typed_toolsets.rules.problems import Problem


def records_of(build: Callable[[], object]) -> list[Problem]:
    """The problems *build* raises; the message is their lines, one per record."""
    with pytest.raises(ToolsetDefinitionError) as caught:
        build()
    assert isinstance(caught.value, TypeError)
    assert isinstance(caught.value, TypedToolsetsError)
    problems = caught.value.problems
    assert isinstance(problems, tuple)
    assert all(isinstance(p, Problem) for p in problems)
    assert str(caught.value).splitlines() == [str(p) for p in problems]
    return list(problems)


def problems_of(build: Callable[[], object]) -> list[str]:
    return [str(p) for p in records_of(build)]


def single(build: Callable[[], object]) -> str:
    (problem,) = problems_of(build)
    return problem


def test_unknown_method_with_did_you_mean() -> None:
    def build() -> None:
        class TaskToolset(Toolset):
            exports = (tool("asign"),)

            def assign(self) -> None: ...

    problem = single(build)
    assert problem.startswith("TaskToolset.asign: ")
    assert "no method 'asign'" in problem
    assert "did you mean 'assign'?" in problem
    assert problem.endswith("[toolset-unknown-method]")


def test_unknown_method_without_close_match() -> None:
    def build() -> None:
        class TaskToolset(Toolset):
            exports = (tool("zzz"),)

    problem = single(build)
    assert "no method 'zzz'" in problem
    assert "did you mean" not in problem


def test_inherited_methods_are_found_and_suggested() -> None:
    class BaseToolset(Toolset):
        def remove_item(self) -> None: ...

    class ChildToolset(BaseToolset):
        exports = (tool("remove_item"),)

    assert [t.name for t in ChildToolset.to_tools()] == ["child_remove_item"]

    def build() -> None:
        class OtherToolset(BaseToolset):
            exports = (tool("remove_items"),)

    assert "did you mean 'remove_item'?" in single(build)


@pytest.mark.parametrize(
    ("member", "kind"),
    [
        (staticmethod(lambda: None), "staticmethod"),
        (classmethod(lambda cls: None), "classmethod"),
        (property(lambda self: 1), "property"),
        (3, "attribute"),
        ("text", "attribute"),
        (type("Nested", (), {}), "nested class"),
    ],
)
def test_not_a_plain_method(member: object, kind: str) -> None:
    def build() -> None:
        type("OddToolset", (Toolset,), {"exports": (tool("member"),), "member": member})

    problem = single(build)
    assert problem.startswith("OddToolset.member: ")
    assert kind in problem
    assert problem.endswith("[toolset-not-a-method]")


def test_attrs_fields_are_not_methods() -> None:
    def build() -> None:
        @attrs.define
        class FieldToolset(Toolset):
            retries: int = 3
            url: str = attrs.field(default="x")
            required_field: str = attrs.field(default="y")
            exports = (tool("retries"), tool("url"))

    problems = problems_of(build)
    assert len(problems) == 2
    assert all("FieldToolset." in p and "not a method" in p for p in problems)


def test_annotated_field_without_default_is_named() -> None:
    def build() -> None:
        @attrs.define
        class FieldToolset(Toolset):
            db: str
            exports = (tool("db"),)

    assert "annotated attribute" in single(build)


def test_special_and_api_names_cannot_be_exported() -> None:
    def build() -> None:
        class ApiToolset(Toolset):
            exports = (tool("to_tools"), tool("__repr__"))

    problems = problems_of(build)
    assert "part of the Toolset API" in problems[0]
    assert "special method" in problems[1]


def test_generators_cannot_be_exported() -> None:
    def build() -> None:
        class GenToolset(Toolset):
            @tool
            def numbers(self) -> Any:
                yield 1

            @tool
            async def stream(self) -> Any:
                yield 1

    problems = problems_of(build)
    assert len(problems) == 2
    assert all("generator" in p for p in problems)


def test_decorating_a_staticmethod_is_reported() -> None:
    def build() -> None:
        class StaticToolset(Toolset):
            @tool
            @staticmethod
            def helper() -> None: ...

    assert "staticmethod" in single(build)


def test_duplicate_final_names() -> None:
    def build() -> None:
        class DupToolset(Toolset):
            toolset_name = "d"
            exports = (
                tool("a", tool_name="same"),
                tool("b", tool_name="same"),
                tool("c", tool_name="d_e"),
            )

            def a(self) -> None: ...

            def b(self) -> None: ...

            def c(self) -> None: ...

            @tool
            def e(self) -> None: ...

    problems = problems_of(build)
    assert len(problems) == 2
    assert problems[0].startswith("DupToolset.b: ")
    assert "'same' is already exported by the method 'a'" in problems[0]
    assert problems[1].startswith("DupToolset.e: ")
    assert "'d_e' is already exported by the method 'c'" in problems[1]
    assert all(p.endswith("[toolset-duplicate-name]") for p in problems)


def test_duplicate_against_inherited_exports() -> None:
    class BaseToolset(Toolset):
        toolset_name = "t"

        @tool(tool_name="lookup")
        def search(self) -> None: ...

    def build() -> None:
        class ChildToolset(BaseToolset):
            exports = (tool("find", tool_name="lookup"),)

            def find(self) -> None: ...

    problem = single(build)
    assert problem.startswith("ChildToolset.find: ")
    assert "already exported by the method 'search'" in problem


def test_method_declared_twice_in_one_class() -> None:
    def build() -> None:
        class TwiceToolset(Toolset):
            exports = (tool("op"),)

            @tool(description="again")
            def op(self) -> None: ...

    problem = single(build)
    assert "TwiceToolset.op" in problem
    assert "declared twice" in problem


@pytest.mark.parametrize(
    ("toolset_name", "tool_name"),
    [
        ("has space", None),
        ("x", "9starts_with_digit"),
        ("x", "-dash-first"),
        ("x", "dotted.name"),
        ("x", "trailing_newline\n"),
        ("x", "a" * 65),
        ("x", ""),
        ("ünï", None),
    ],
)
def test_invalid_final_names(toolset_name: str, tool_name: str | None) -> None:
    def build() -> None:
        class NameToolset(Toolset):
            exports = (tool("op", tool_name=tool_name),)

            def op(self) -> None: ...

        NameToolset.toolset_name = toolset_name  # type: ignore[misc]

    def build_with_name() -> None:
        type(
            "NameToolset",
            (Toolset,),
            {
                "toolset_name": toolset_name,
                "exports": (tool("op", tool_name=tool_name),),
                "op": lambda self: None,
            },
        )

    problem = single(build_with_name)
    assert problem.startswith("NameToolset.op: ")
    assert "not valid for LLM APIs" in problem
    assert problem.endswith("[toolset-invalid-name]")


def test_longest_valid_name() -> None:
    cls = type(
        "LongToolset",
        (Toolset,),
        {"exports": (tool("op", tool_name="a" * 64),), "op": lambda self: None},
    )
    assert cls.to_tools()[0].name == "a" * 64


@pytest.mark.parametrize(
    ("signature_source", "cause"),
    [
        ("def op(self, a: int, /) -> None: ...", "positional-only"),
        ("def op(self, *args: int) -> None: ...", "'*args' is not supported"),
        ("def op(self, **extra: int) -> None: ...", "'**extra' is not supported"),
        ("def op(self, untyped) -> None: ...", "no type annotation"),
    ],
)
def test_signature_problems(signature_source: str, cause: str) -> None:
    namespace: dict[str, Any] = {}
    exec(signature_source, namespace)  # noqa: S102
    problem = single(
        lambda: type("SigToolset", (Toolset,), {"exports": (tool("op"),), "op": namespace["op"]})
    )
    assert problem.startswith("SigToolset.op: ")
    assert cause in problem
    assert problem.endswith("[toolset-signature]")


def test_positional_or_keyword_parameters_are_fine() -> None:
    class OkToolset(Toolset):
        @tool
        def op(self, a: int, b: str = "x") -> str:
            return f"{a}{b}"

    assert OkToolset.to_tools()[0].dynamic_call({"a": 1}) == "1x"


@pytest.mark.parametrize(
    ("annotation", "cause"),
    [
        ("object", "object has no JSON Schema"),
        ("Any", "Any has no JSON Schema"),
        ("Callable[[int], str]", "callables have no JSON Schema"),
        ("dict[int, str]", "JSON object keys are strings"),
        ("bytes", "bytes cannot be sent as JSON"),
        ("Opaque", "'Opaque' is not an attrs class"),
        ("list", "needs its type parameters"),
        ("set[list[int]]", "set items must be"),
        ("list[Any]", "Any has no JSON Schema"),
    ],
)
def test_annotations_without_schema(annotation: str, cause: str) -> None:
    namespace: dict[str, Any] = {"Any": Any, "Callable": Callable, "Opaque": type("Opaque", (), {})}
    exec(f"def op(self, *, x: {annotation}) -> None: ...", namespace)  # noqa: S102
    problem = single(
        lambda: type("TypeToolset", (Toolset,), {"exports": (tool("op"),), "op": namespace["op"]})
    )
    assert problem.startswith("TypeToolset.op: ")
    assert "parameter 'x'" in problem
    assert cause in problem
    assert problem.endswith("[toolset-param-type]")


def test_none_default_does_not_make_a_parameter_nullable() -> None:
    def build() -> None:
        class NoneToolset(Toolset):
            @tool
            def op(self, *, x: int = None) -> None: ...  # type: ignore[assignment]

    problem = single(build)
    assert "NoneToolset.op" in problem
    assert "defaults to None" in problem
    assert "int | None" in problem


def test_default_that_does_not_match_the_type() -> None:
    def build() -> None:
        class BadDefaultToolset(Toolset):
            @tool
            def op(self, *, x: int = "three") -> None: ...  # type: ignore[assignment]

    assert "default 'three'" in single(build)


def test_every_problem_is_listed_at_once() -> None:
    def build() -> None:
        @attrs.define
        class BrokenToolset(Toolset):
            db: str
            exports = (tool("asign"), tool("helper"), tool("legacy"), tool("typed"))

            def assign(self) -> None: ...

            @staticmethod
            def helper() -> None: ...

            def legacy(self, task_id: str, /, *args: int, **extra: str) -> None: ...

            def typed(self, *, blob: object, anything: Any) -> None: ...

    problems = problems_of(build)
    assert len(problems) == 7
    methods = [p.split(":", 1)[0] for p in problems]
    assert methods == [
        "BrokenToolset.asign",
        "BrokenToolset.helper",
        "BrokenToolset.legacy",
        "BrokenToolset.legacy",
        "BrokenToolset.legacy",
        "BrokenToolset.typed",
        "BrokenToolset.typed",
    ]


def test_bad_exports_and_class_attributes() -> None:
    def build() -> None:
        class WeirdToolset(Toolset):
            toolset_name = 3  # type: ignore[assignment]
            limits = "fast"  # type: ignore[assignment]
            exports = ("op",)  # type: ignore[assignment]

    problems = problems_of(build)
    assert any("`toolset_name` must be a str" in p for p in problems)
    assert any("`limits` must be a Limits" in p for p in problems)
    assert any("`exports` contains 'op'" in p for p in problems)


def test_method_reference_in_exports_gets_a_hint() -> None:
    def build() -> None:
        class RefToolset(Toolset):
            def op(self) -> None: ...

            exports = (op,)  # type: ignore[assignment]

    assert 'use tool("name")' in single(build)


@pytest.mark.parametrize(
    "call",
    [
        lambda: tool(3),  # type: ignore[call-overload]
        lambda: tool(""),
        lambda: tool("x", tool_name=5),  # type: ignore[arg-type]
        lambda: tool("x", description=b"x"),  # type: ignore[arg-type]
        lambda: tool("x", limits={"timeout": 1}),  # type: ignore[arg-type]
        lambda: tool(description=3),  # type: ignore[call-overload]
    ],
)
def test_tool_arguments_are_checked(call: Callable[[], object]) -> None:
    with pytest.raises(ToolsetDefinitionError):
        call()


def test_attrs_slotted_rebuild_runs_checks_once() -> None:
    """@attrs.define builds the class twice; the error is raised once, from the first build."""
    calls: list[str] = []

    def build() -> None:
        @attrs.define
        class OnceToolset(Toolset):
            x: int = 0
            exports = (tool("missing"),)

    problems = problems_of(build)
    calls.extend(problems)
    assert len(calls) == 1


def _module(source: str) -> dict[str, Any]:
    module = types.ModuleType("generated_module")
    sys.modules[module.__name__] = module  # dataclasses and get_type_hints look modules up
    try:
        exec(compile(source, "<generated>", "exec"), module.__dict__)  # noqa: S102
    finally:
        del sys.modules[module.__name__]
    return module.__dict__


def test_initvar_is_refused_with_string_annotations() -> None:
    source = """
from __future__ import annotations
import dataclasses
from dataclasses import InitVar
from typed_toolsets import Toolset, tool

@dataclasses.dataclass
class WithInit:
    x: int
    y: InitVar[int]

    def __post_init__(self, y: int) -> None:
        pass

class InitToolset(Toolset):
    @tool
    def f(self, *, d: WithInit) -> None: ...
"""
    problem = single(lambda: _module(source))
    assert "InitVar field 'y'" in problem


def test_other_problems_are_reported_next_to_a_forward_reference() -> None:
    source = """
from __future__ import annotations
from typed_toolsets import Toolset, tool

class MixedToolset(Toolset):
    @tool
    def f(self, *, later: Later, bad: object) -> None: ...

class Later:
    pass
"""
    problem = single(lambda: _module(source))
    assert problem.startswith("MixedToolset.f: parameter 'bad'")
