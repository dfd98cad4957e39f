"""Every definition problem is a ToolsetDefinitionError at class creation naming class, method
and cause; all problems of a class are listed at once, one per line.
"""

from __future__ import annotations

import asyncio
import collections.abc
import dataclasses
import enum
import functools
import inspect
import pickle
import sys
import types
import typing
from collections.abc import Callable
from typing import Annotated, Any, Generic, Literal, TypeVar

import attrs
import pytest
from annotated_types import Ge, MaxLen, MultipleOf
from typing_extensions import NamedTuple, TypedDict

from typed_toolsets import Limits, Toolset, ToolsetDefinitionError, TypedToolsetsError, tool
from typed_toolsets.rules.kinds import CHECK_ONLY_CODES, KINDS, STATIC_ONLY_CODES
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


def test_decorating_a_cached_property_or_singledispatchmethod_names_the_method() -> None:
    # tool() said "@tool can only decorate a method (got <functools.cached_property object at
    # 0x...>)": no class, no method, an address.
    def cached() -> None:
        class CachedToolset(Toolset):
            @tool
            @functools.cached_property
            def size(self) -> int:
                return 1

    def dispatched() -> None:
        class DispatchToolset(Toolset):
            @tool
            @functools.singledispatchmethod
            def show(self, value: object) -> str:
                return str(value)

    assert single(cached) == (
        "CachedToolset.size: 'size' is a property; only plain instance methods (def or async "
        "def) can be exported [toolset-not-a-method]"
    )
    assert single(dispatched).startswith("DispatchToolset.show: 'show' is an attribute")


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


def test_stacked_tool_decorators_declare_the_method_twice() -> None:
    # The outer decorator's mark replaced the inner one's: only `outer` was exported, silently.
    def build() -> None:
        class StackedToolset(Toolset):
            @tool(tool_name="outer")
            @tool(tool_name="inner")
            def op(self) -> None: ...

    assert single(build) == (
        "StackedToolset.op: the method 'op' is declared twice in this class "
        "[toolset-duplicate-name]"
    )

    def logged(method: Callable[..., object]) -> Callable[..., object]:
        @functools.wraps(method)  # copies the mark of a marked method
        def wrapper(*args: object, **kwargs: object) -> object:
            return method(*args, **kwargs)

        return wrapper

    class Once(Toolset):  # a wrapper carrying the mark it copied declares the method once
        @tool
        @logged
        def op(self) -> None: ...

        @logged
        @tool
        def other(self) -> None: ...

    assert [proxy.name for proxy in Once.to_tools()] == ["once_op", "once_other"]


def test_a_method_defined_again_with_tool_in_one_class_body_is_declared_twice() -> None:
    # Python keeps only the last `def`: the marks it replaced are seen while the body runs.
    def build() -> None:
        class Redefined(Toolset):
            @tool
            def op(self) -> None: ...

            @tool(description="again")
            def op(self) -> None: ...  # noqa: F811

            @tool
            @tool
            def __hidden(self) -> None: ...

            limit = 3

            @tool
            def __hidden(self) -> None: ...

    hidden = (
        "Redefined._Redefined__hidden: the method '_Redefined__hidden' is declared twice in this "
        "class [toolset-duplicate-name]"
    )
    assert problems_of(build) == [
        "Redefined.op: the method 'op' is declared twice in this class [toolset-duplicate-name]",
        hidden,
        hidden,
    ]

    def exported(method: Callable[..., None]) -> Callable[..., None]:
        return tool(method)  # the user's own decorator: the body is a frame further up

    def made_in_a_function() -> None:
        class Local(Toolset):
            @tool
            def op(self) -> None: ...

            @exported
            def op(self) -> None: ...  # noqa: F811

    assert single(made_in_a_function) == (
        "Local.op: the method 'op' is declared twice in this class [toolset-duplicate-name]"
    )


def test_a_method_defined_again_is_declared_as_the_last_def_says() -> None:
    class Replaced(Toolset):
        @tool
        def plain(self) -> None: ...

        def plain(self) -> None: ...  # noqa: F811  # the class keeps a method not declared

        @tool
        def between(self) -> None: ...

        def between(self) -> None: ...  # noqa: F811

        @tool(description="The last")
        def between(self) -> None: ...  # noqa: F811  # replaces one not declared: once

    class Namespace:
        """What a metaclass's ``__prepare__`` may return: a mapping without ``get``."""

        def __init__(self) -> None:
            self.values: dict[str, object] = {}

        def __getitem__(self, key: str) -> object:
            return self.values[key]

        def __setitem__(self, key: str, value: object) -> None:
            self.values[key] = value

        def __delitem__(self, key: str) -> None:
            del self.values[key]

    class Prepared(type):
        @classmethod
        def __prepare__(cls, name: str, bases: tuple[type, ...], **kwds: object) -> Any:  # type: ignore[override]
            return Namespace()

        def __new__(cls, name: str, bases: tuple[type, ...], namespace: Any) -> Prepared:
            return super().__new__(cls, name, bases, dict(namespace.values))

    class Marked(metaclass=Prepared):  # its body is no dict: nothing looked for there
        @tool
        def op(self) -> None: ...

    assert "op" in vars(Marked)

    class Base(Toolset):
        @tool
        def op(self) -> None: ...

    class Child(Base):
        @tool(description="Overridden")
        def op(self) -> None: ...  # another class's body: an override, declared once

    assert [(p.name, p.description) for p in Replaced.to_tools()] == [
        ("replaced_between", "The last"),
    ]
    assert [p.description for p in Child.to_tools()] == ["Overridden"]
    source = "class Again(Toolset):\n    @tool\n    def op(self) -> None: ...\n"
    for _ in range(2):  # the same body run again makes a new class: nothing it replaces
        namespace: dict[str, object] = {"Toolset": Toolset, "tool": tool, "__name__": "again"}
        exec(source, namespace)  # noqa: S102
        again = namespace["Again"]
        assert isinstance(again, type)
        assert issubclass(again, Toolset)
        assert [p.name for p in again.to_tools()] == ["again_op"]


@pytest.mark.parametrize(
    ("toolset_name", "tool_name", "reason"),
    [
        ("has space", None, "it contains ' '"),
        ("x", "9starts_with_digit", "it starts with '9'"),
        ("x", "-dash-first", "it starts with '-'"),
        ("x", "dotted.name", "it contains '.'"),
        ("x", "trailing_newline\n", "it contains '\\n'"),
        ("x", "a" * 65, "it is too long (65 > 64 characters)"),
        ("x", "", "it is empty"),
        ("ünï", None, "it starts with 'ü' and it contains 'ï'"),
        ("x", "a b" * 30, "it is too long (90 > 64 characters) and it contains ' '"),
    ],
)
def test_invalid_final_names(toolset_name: str, tool_name: str | None, reason: str) -> None:
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
    assert f"is not valid for LLM APIs: {reason} (names must match" in problem
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
        ("def op() -> None: ...", "it takes no `self`"),
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


_T = TypeVar("_T")


@attrs.define
class Box(Generic[_T]):
    value: _T


class Page(TypedDict, Generic[_T]):
    items: list[_T]


class Duo(NamedTuple, Generic[_T]):
    left: _T


@attrs.define
class Pet:  # mutable: not hashable
    name: str


@pytest.mark.parametrize(
    ("annotation", "cause"),
    [
        ("object", "object has no JSON Schema"),
        ("Any", "Any has no JSON Schema"),
        ("Callable[[int], str]", "callables have no JSON Schema"),
        ("dict[int, str]", "only str keys are supported"),
        ("bytes", "bytes cannot be sent as JSON"),
        ("Opaque", "'Opaque' is not an attrs class"),
        ("Box[int]", "'Box' is generic; generic structs are not supported"),
        ("Page[int]", "'Page' is generic; generic structs are not supported"),
        ("Duo[str]", "'Duo' is generic; generic structs are not supported"),
        ("list", "list needs its type parameters (for example list[str])"),
        # The example fits the generic (a dict's was list[str]).
        ("dict", "dict needs its type parameters (for example dict[str, int])"),
        ("Mapping", "Mapping needs its type parameters (for example Mapping[str, int])"),
        ("tuple", "tuple needs its type parameters (for example tuple[int, ...])"),
        ("frozenset", "frozenset needs its type parameters (for example frozenset[str])"),
        # typing's aliases written bare: a bare Tuple was read as tuple[()] (only [] accepted).
        ("typing.Tuple", "Tuple needs its type parameters (for example Tuple[int, ...])"),
        ("typing.List", "List needs its type parameters (for example List[str])"),
        ("typing.Dict", "Dict needs its type parameters (for example Dict[str, int])"),
        ("set[list[int]]", "set items must be"),
        # The class by its name, not its repr (<class 'tests.test_definition_errors.Pet'>).
        ("frozenset[Pet]", "UUIDs or tuples of those (got Pet))"),
        # true and 1 are two items in JSON, one in a Python set: never merged silently.
        ("set[bool | int]", "can hold a boolean and a number equal to it at one place"),
        ("frozenset[Literal[1, True]]", "can hold a boolean and a number equal to it at one place"),
        (
            "set[tuple[bool] | tuple[float, ...]]",
            "can hold a boolean and a number equal to it at one place",
        ),
        ("list[Any]", "Any has no JSON Schema"),
        # The base type by its name, not its repr (<class 'bool'>).
        ("Annotated[bool, Ge(0)]", "the Ge constraint applies to numbers, not to bool)"),
        ("Annotated[int, MaxLen(2)]", "applies to strings, arrays and objects, not to int)"),
        # No JSON text writes an integer of more than 4,300 digits (nor does repr): the Literal
        # raised ValueError, and the enum's schema could not be written as JSON.
        (
            "Literal[10**5000, 1]",
            "the literal Literal[<an integer of about 5001 digits>] is not a JSON string",
        ),
        ("Huge", "member 'A', whose value <an integer of about 5001 digits> is not a JSON"),
        # Its schema was {"enum": []}: a tool no call could satisfy.
        ("Literal[()]", "has type Literal[()], which has no JSON Schema (a Literal with no values"),
        ("set[Literal[()]]", "has type set[Literal[()]], which has no JSON Schema"),
    ],
)
def test_annotations_without_schema(annotation: str, cause: str) -> None:
    namespace: dict[str, Any] = {
        "Any": Any,
        "Callable": Callable,
        "Mapping": collections.abc.Mapping,
        "Literal": Literal,
        "Opaque": type("Opaque", (), {}),
        "Box": Box,
        "Page": Page,
        "Duo": Duo,
        "Pet": Pet,
        "Annotated": Annotated,
        "Ge": Ge,
        "MaxLen": MaxLen,
        "typing": typing,
        "Huge": enum.Enum("Huge", {"A": 10**5000, "B": 1}),
    }
    exec(f"def op(self, *, x: {annotation}) -> None: ...", namespace)  # noqa: S102
    problem = single(
        lambda: type("TypeToolset", (Toolset,), {"exports": (tool("op"),), "op": namespace["op"]})
    )
    assert problem.startswith("TypeToolset.op: ")
    assert "parameter 'x'" in problem
    assert cause in problem
    assert problem.endswith("[toolset-param-type]")


@pytest.mark.parametrize(
    ("annotation", "shown"),
    [
        ("Annotated[bool, Ge(0)]", "Annotated[bool, ...]"),
        ("list[Annotated[int, MaxLen(2)]] | None", "list[Annotated[int, ...]] | None"),
        ("list[Any]", "list[Any]"),  # no metadata at fault: the type as written
        ("Annotated[Any, 'a note']", "Any"),
    ],
)
def test_a_constraint_without_schema_names_the_annotated_type(annotation: str, shown: str) -> None:
    # "parameter 'x' has type int, which has no JSON Schema": int has one; its metadata did not.
    namespace: dict[str, Any] = {"Annotated": Annotated, "Ge": Ge, "MaxLen": MaxLen, "Any": Any}
    exec(f"def op(self, *, x: {annotation}) -> None: ...", namespace)  # noqa: S102
    problem = single(
        lambda: type("TypeToolset", (Toolset,), {"exports": (tool("op"),), "op": namespace["op"]})
    )
    assert problem.startswith(f"TypeToolset.op: parameter 'x' has type {shown}, which has no JSON ")


def test_none_default_does_not_make_a_parameter_nullable() -> None:
    def build() -> None:
        class NoneToolset(Toolset):
            @tool
            def op(self, *, x: int = None) -> None: ...  # type: ignore[assignment]

    problem = single(build)
    assert "NoneToolset.op" in problem
    assert "defaults to None but its type int does not admit null" in problem
    assert "add `| None` to its annotation" in problem


def test_none_default_on_an_annotated_alias_names_no_other_type() -> None:
    # The advice is to add `| None` to the annotation as written: `Count | None` keeps the
    # constraint, which `int | None` (the type under Annotated) would lose.
    source = """
from typing import Annotated
from annotated_types import Ge
from typed_toolsets import Toolset, tool

Count = Annotated[int, Ge(0)]

class T(Toolset):
    @tool
    def op(self, *, n: Count = None) -> None: ...
"""
    problem = single(lambda: _module(source))
    assert "parameter 'n' defaults to None but its type int does not admit null" in problem
    assert "add `| None` to its annotation" in problem
    assert "Annotated" not in problem
    assert "int | None" not in problem


def test_default_that_does_not_match_the_type() -> None:
    def build() -> None:
        class BadDefaultToolset(Toolset):
            @tool
            def op(self, *, x: int = "three") -> None: ...  # type: ignore[assignment]

    assert "default 'three'" in single(build)


def test_a_default_that_breaks_a_constraint_is_told_which() -> None:
    # It was "(its JSON form does not match the annotation's schema)", whatever the constraint.
    def build() -> None:
        class Bounded(Toolset):
            @tool
            def op(
                self,
                *,
                n: Annotated[int, Ge(0)] = -1,
                s: Annotated[str, MaxLen(2)] = "abc",
                m: Annotated[int, MultipleOf(3)] | None = 4,
            ) -> None: ...

    problems = problems_of(build)
    assert [p.split("(", 1)[1] for p in problems] == [
        "-1 is less than the minimum of 0) [toolset-signature]",
        "'abc' is too long) [toolset-signature]",
        "4 is not a multiple of 3) [toolset-signature]",
    ]


def test_a_default_past_the_float_range_over_a_float_multiple_is_told_which() -> None:
    # It was "(OverflowError: int too large to convert to float)": jsonschema's division.
    def build() -> None:
        class Cents(Toolset):
            @tool
            def op(self, *, n: Annotated[int, MultipleOf(0.3)] = 10**320) -> None: ...

    assert single(build).endswith(f"(1{'0' * 320} is not a multiple of 0.3) [toolset-signature]")


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


def test_a_signature_problem_does_not_hide_another_parameter_s_type() -> None:
    # SPEC 1: every problem of the class at once. A parameter no call can pass (or unannotated)
    # is one problem; the other parameters' annotations are still checked.
    def build() -> None:
        class Mixed(Toolset):
            exports = (tool("op"), tool("star"), tool("bare"))

            def op(self, a: int, /, blob: object) -> None: ...

            def star(self, *args: int, raw: bytes) -> None: ...

            def bare(self, x, *, keys: dict[int, str]) -> None: ...

    with pytest.raises(ToolsetDefinitionError) as caught:
        build()
    found = [(p.method, p.parameter, p.code) for p in caught.value.problems]
    assert found == [
        ("op", "a", "toolset-signature"),
        ("op", "blob", "toolset-param-type"),
        ("star", "args", "toolset-signature"),
        ("star", "raw", "toolset-param-type"),
        ("bare", "x", "toolset-signature"),
        ("bare", "keys", "toolset-param-type"),
    ]


def test_a_name_problem_does_not_hide_the_method_s_own_problems() -> None:
    # SPEC 1: every problem of the class at once, the exported name's and the parameters'.
    def build() -> None:
        class Named(Toolset):
            exports = (tool("run", tool_name="bad name"), tool("first", tool_name="named_walk"))

            def run(self, blob: bytes) -> None: ...

            def first(self) -> None: ...

            @tool
            def walk(self, *, blob: object) -> None: ...

    with pytest.raises(ToolsetDefinitionError) as caught:
        build()
    found = [(p.method, p.parameter, p.code) for p in caught.value.problems]
    assert found == [
        ("run", None, "toolset-invalid-name"),
        ("run", "blob", "toolset-param-type"),
        ("walk", None, "toolset-duplicate-name"),
        ("walk", "blob", "toolset-param-type"),
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


def _module_named(name: str, source: str) -> types.ModuleType:
    """Run *source* as the module *name*, kept in sys.modules (the caller removes it)."""
    module = types.ModuleType(name)
    sys.modules[name] = module
    exec(compile(source, f"<{name}>", "exec"), module.__dict__)  # noqa: S102
    return module


DECORATOR_MODULE = """
import enum
import functools
import functools

def logged(func):
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        return func(*args, **kwargs)
    return wrapper
"""
OTHER_STATUS = """
class Status(enum.Enum):  # not the Status of the toolset's module
    UP = 1
"""


@pytest.mark.parametrize("decorator_module_has_status", [True, False])
def test_wrapped_methods_resolve_names_in_their_own_module(
    decorator_module_has_status: bool,
) -> None:
    # functools.wraps copies the string annotations (PEP 563) onto the wrapper, whose globals
    # are the decorator module's: the names belong to the wrapped function's module.
    source = DECORATOR_MODULE + (OTHER_STATUS if decorator_module_has_status else "")
    _module_named("wrapped_decorators", source)
    try:
        toolsets = _module_named(
            "wrapped_toolsets",
            """
from __future__ import annotations
import enum
import functools
from typed_toolsets import Toolset, tool
from wrapped_decorators import logged

class Status(enum.Enum):
    OPEN = "open"
    CLOSED = "closed"

class Tasks(Toolset):
    @tool
    @logged
    def set_status(self, *, status: Status) -> str:
        return status.value
""",
        )
        (proxy,) = toolsets.Tasks.to_tools()
        assert proxy.parameters["properties"]["status"]["enum"] == ["open", "closed"]
        assert proxy.dynamic_call({"status": "closed"}) == "closed"
    finally:
        for name in ("wrapped_decorators", "wrapped_toolsets"):
            sys.modules.pop(name, None)


def _build(source: str) -> Callable[[], object]:
    def build() -> object:
        namespace = _module(source)
        return namespace["T"].to_tools()

    return build


@pytest.mark.parametrize(
    ("source", "kind", "cause"),
    [
        (
            """
class T(Toolset):
    def __init__(self, db: str, *, retries: int, verbose: bool = False) -> None:
        self.db = db
""",
            "init",
            "the constructor needs 'db', 'retries';",
        ),
        (
            """
@dataclasses.dataclass
class T(Toolset):
    db: str
    timeout: float = 1.0
""",
            "init",
            "the constructor needs 'db';",
        ),
        (
            """
@attrs.define
class Base(Toolset):
    db: str = "sqlite://"

class T(Base):
    def __init__(self, db: str) -> None:
        super().__init__(db)
""",
            "init",
            "the constructor needs 'db';",
        ),
        (
            """
@attrs.define
class T(Toolset):
    _secret: str
""",
            "init",
            "the constructor needs 'secret';",
        ),
        (
            """
class T(Toolset, abc.ABC):
    @abc.abstractmethod
    def connect(self) -> None: ...

    @property
    @abc.abstractmethod
    def url(self) -> str: ...
""",
            "abstract-class",
            "but T is abstract (it does not implement 'connect', 'url');",
        ),
    ],
    ids=["hand-written-init", "dataclass", "init-over-attrs", "attrs-private-alias", "abstract"],
)
def test_to_tools_on_a_class_that_cannot_be_built(source: str, kind: str, cause: str) -> None:
    # Never the raw TypeError of `cls()`: the definition error naming what to change.
    header = "import abc, dataclasses, attrs\nfrom typed_toolsets import Toolset, tool\n"
    body = source + "\n    @tool\n    def go(self, *, x: int) -> int:\n        return x\n"
    (record,) = records_of(_build(header + body))
    assert (record.kind, record.code, record.toolset) == (kind, "toolset-init", "T")
    assert cause in str(record)


def test_to_tools_on_a_concrete_subclass_of_an_abstract_toolset() -> None:
    source = """
import abc
from typed_toolsets import Toolset, tool

class Base(Toolset, abc.ABC):
    @abc.abstractmethod
    def connect(self) -> str: ...

    @tool
    def ping(self) -> str:
        return self.connect()

class T(Base):
    def connect(self) -> str:
        return "pong"
"""
    (proxy,) = _module(source)["T"].to_tools()
    assert proxy.dynamic_call({}) == "pong"


def test_to_tools_on_a_class_reads_its_constructor_only_when_calling_it_fails(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import typed_toolsets._toolset as toolset_module

    read: list[type] = []
    real = toolset_module.init_problem
    monkeypatch.setattr(toolset_module, "init_problem", lambda cls: read.append(cls) or real(cls))
    built = _module("from typed_toolsets import Toolset, tool\nclass T(Toolset):\n" + _GO)["T"]
    assert [p.dynamic_call({"x": 2}) for p in built.to_tools()] == [2]
    # Its signature was read on every call: two thirds of a built class's to_tools().
    assert read == []


_GO = """
    @tool
    def go(self, *, x: int) -> int:
        return x
"""


def test_a_type_error_of_the_constructor_s_own_code_is_not_a_definition_error() -> None:
    source = (
        """
from typed_toolsets import Toolset, tool

class T(Toolset):
    def __init__(self) -> None:
        raise TypeError("the database driver is missing")
"""
        + _GO
    )
    with pytest.raises(TypeError, match="the database driver is missing"):
        _module(source)["T"].to_tools()


@pytest.mark.parametrize(
    "decorate",
    [attrs.define, attrs.frozen, functools.partial(dataclasses.dataclass, slots=True)],
    ids=["attrs.define", "attrs.frozen", "dataclass-slots"],
)
def test_a_class_option_annotated_in_a_slotted_class_is_a_definition_error(
    decorate: Callable[[type], type],
) -> None:
    # The class worked (its first build was kept), but its toolset_name was a slot descriptor:
    # Tasks(toolset_name="other") was ignored, and every subclass failed, naming the descriptor.
    namespace = {"__annotations__": {"toolset_name": "str"}, "toolset_name": "task"}
    (record,) = records_of(lambda: decorate(type("Tasks", (Toolset,), namespace)))
    assert (record.kind, record.toolset, record.code) == (
        "option-field",
        "Tasks",
        "toolset-signature",
    )
    assert "`toolset_name` is a field of each instance" in str(record)


@pytest.mark.parametrize(
    "decorate",
    [functools.partial(attrs.define, slots=False), dataclasses.dataclass],
    ids=["attrs-dict", "dataclass"],
)
def test_a_class_option_annotated_in_a_dict_class_is_a_definition_error_on_first_use(
    decorate: Callable[[type], type],
) -> None:
    # attrs removed the class attribute once it wrote __init__: Tasks kept its first build's
    # name, a subclass silently took its own default one; Tasks(toolset_name=...) did nothing.
    @tool
    def go(self: object, *, x: int) -> int:
        return x

    namespace = {"__annotations__": {"toolset_name": "str"}, "toolset_name": "task", "go": go}
    tasks = decorate(type("Tasks", (Toolset,), namespace))
    for use in (tasks.to_tools, lambda: tasks().to_tools(), lambda: Toolset.proxy(tasks().go)):
        (record,) = records_of(use)
        assert (record.kind, record.toolset) == ("option-field", "Tasks")
        assert "`toolset_name` is a field of each instance" in str(record)
    (record,) = records_of(lambda: type("Sub", (tasks,), {}))  # at once: the base is known
    assert (record.kind, record.toolset) == ("option-field", "Sub")


def test_a_class_option_from_a_slot_of_a_mixin_is_a_definition_error() -> None:
    # The message named the descriptor: "`limits` must be a Limits (got <member 'limits' ...>)".
    config = attrs.define(type("Config", (), {"__annotations__": {"limits": "int"}, "limits": 3}))
    (record,) = records_of(lambda: type("T", (config, Toolset), {}))
    assert (record.kind, record.toolset) == ("option-field", "T")
    assert "`limits` is a field of each instance" in str(record)


def test_a_class_option_annotated_as_a_class_variable_is_taken() -> None:
    @attrs.define
    class Tasks(Toolset):
        toolset_name: typing.ClassVar[str] = "task"
        base_url: str = "https://example.invalid"

        @tool
        def assign(self, *, task_id: str) -> str:
            return task_id

    class Sub(Tasks):
        pass

    assert [p.name for p in Sub(base_url="x").to_tools()] == ["task_assign"]


# ------------------------------------------------------------------ the records, kind by kind


async def _async_method(self: object) -> None:
    return None


def _class(name: str, **namespace: object) -> Callable[[], object]:
    return lambda: type(name, (Toolset,), dict(namespace))


def _function(source: str) -> Callable[..., Any]:
    namespace: dict[str, Any] = {"Any": Any}
    exec(source, namespace)  # noqa: S102
    return namespace["op"]  # type: ignore[no-any-return]


class _Mixin:
    """A base that is not a Toolset, marking a method with ``@tool``."""

    @tool
    def op(self) -> None: ...


def _deleted_op() -> type[Toolset]:
    """A Toolset class exporting ``op``, whose ``op`` was deleted once the class was built."""
    cls = type("T", (Toolset,), {"exports": (tool("op"),), "op": lambda self: None})
    del cls.op  # type: ignore[attr-defined]
    return cls


def _unreadable() -> Callable[..., Any]:
    op = _function("def op(self) -> None: ...")
    op.__signature__ = "not a signature"  # type: ignore[attr-defined]
    return op


_UNREADABLE = _unreadable()


def _python_says(action: Callable[[], object]) -> str:
    """The message of the error *action* raises: its wording changes between Python versions."""
    try:
        action()
    except (AttributeError, TypeError, ValueError) as exc:
        return str(exc)
    raise AssertionError("expected an error")


def _forward_reference_to_nothing() -> object:
    # The class is created (the name may be defined later); building its tools reports it.
    cls = type("T", (Toolset,), {"exports": (tool("op"),), "op": _function(FORWARD)})
    return cls.to_tools()


FORWARD = "def op(self, *, a: 'Later'): ..."


@attrs.define
class _NeedsDb(Toolset):
    db_url: str

    @tool
    def query(self, *, sql: str) -> str:
        return sql

    def helper(self) -> None: ...


#: (id, what raises, kind, toolset, method, parameter, the line it renders)
RECORDS: list[tuple[str, Callable[[], object], str, str | None, str | None, str | None, str]] = [
    (
        "unknown-method",
        _class("T", exports=(tool("asign"),), assign=lambda self: None),
        "unknown-method",
        "T",
        "asign",
        None,
        (
            "T.asign: T has no method 'asign' to export; did you mean 'assign'? "
            "[toolset-unknown-method]"
        ),
    ),
    (
        "exports-not-a-tuple",
        _class("T", exports="op"),
        "exports-not-a-tuple",
        "T",
        None,
        None,
        (
            "T: `exports` must be a tuple of tool(...) declarations (got 'op') "
            "[toolset-unknown-method]"
        ),
    ),
    (
        # `exports = (tool("op"))`: parentheses without a comma make no tuple.
        "exports-one-tool",
        _class("T", exports=tool("op"), op=lambda self: None),
        "exports-one-tool",
        "T",
        None,
        None,
        (
            "T: `exports` is one tool('op') declaration, not a tuple of them; add a trailing "
            "comma: exports = (tool('op'),) [toolset-unknown-method]"
        ),
    ),
    (
        # A tool() bound to a name of the class body, never listed in `exports`.
        "tool-attribute",
        _class("T", count=tool("op"), op=lambda self: None),
        "tool-attribute",
        "T",
        None,
        None,
        (
            "T: `count = tool('op')` declares no tool by itself; list it in `exports` "
            "(exports = (tool('op'),)) or write @tool on the method [toolset-unknown-method]"
        ),
    ),
    (
        # `@tool` in a base that is not a Toolset: nothing inherits it (it was dropped silently).
        "mixin-declaration",
        lambda: type("T", (_Mixin, Toolset), {}),
        "mixin-declaration",
        "T",
        "op",
        None,
        (
            "T.op: _Mixin declares the tool 'op' but is not a Toolset, so T does not inherit the "
            "declaration (nothing exports 'op'); derive _Mixin from Toolset, or declare 'op' in T "
            "[toolset-unknown-method]"
        ),
    ),
    (
        "exports-item",
        _class("T", exports=("op",)),
        "exports-item",
        "T",
        None,
        None,
        "T: `exports` contains 'op', not a tool(...) declaration [toolset-unknown-method]",
    ),
    (
        "exports-method",
        _class("T", exports=(len,)),
        "exports-method",
        "T",
        None,
        None,
        (
            "T: `exports` contains <built-in function len>, not a tool(...) declaration "
            '(use tool("name"), not the method itself) [toolset-unknown-method]'
        ),
    ),
    (
        "tool-method-name",
        lambda: tool(""),
        "tool-method-name",
        None,
        None,
        None,
        "tool(): the method name must be a non-empty str (got '') [toolset-unknown-method]",
    ),
    (
        "annotated-attribute",
        _class("T", __annotations__={"db": str}, exports=(tool("db"),)),
        "annotated-attribute",
        "T",
        "db",
        None,
        (
            "T.db: 'db' is an annotated attribute (an attrs field), not a method "
            "[toolset-not-a-method]"
        ),
    ),
    (
        "attribute",
        _class("T", exports=(tool("count"),), count=3),
        "attribute",
        "T",
        "count",
        None,
        (
            "T.count: 'count' is an attribute, not a method; only plain instance methods can be "
            "exported [toolset-not-a-method]"
        ),
    ),
    (
        "attrs-field",
        _class("T", exports=(tool("url"),), url=attrs.field(default="x")),
        "attrs-field",
        "T",
        "url",
        None,
        (
            "T.url: 'url' is an attrs field, not a method; only plain instance methods can be "
            "exported [toolset-not-a-method]"
        ),
    ),
    (
        "slot",
        _class("T", exports=(tool("name"),), __slots__=("name",)),
        "slot",
        "T",
        "name",
        None,
        (
            "T.name: 'name' is a slot (named in `__slots__`), not a method; only plain instance "
            "methods can be exported [toolset-not-a-method]"
        ),
    ),
    (
        "api-name",
        _class("T", exports=(tool("to_tools"),)),
        "api-name",
        "T",
        "to_tools",
        None,
        (
            "T.to_tools: 'to_tools' is part of the Toolset API and cannot be exported "
            "[toolset-not-a-method]"
        ),
    ),
    (
        "special-method",
        _class("T", exports=(tool("__repr__"),)),
        "special-method",
        "T",
        "__repr__",
        None,
        "T.__repr__: '__repr__' is a special method and cannot be exported [toolset-not-a-method]",
    ),
    (
        "wrapped-method",
        _class("T", exports=(tool("op"),), op=classmethod(lambda cls: None)),
        "wrapped-method",
        "T",
        "op",
        None,
        (
            "T.op: 'op' is a classmethod; only plain instance methods (def or async def) can be "
            "exported [toolset-not-a-method]"
        ),
    ),
    (
        "nested-class",
        _class("T", exports=(tool("Inner"),), Inner=type("Inner", (), {})),
        "nested-class",
        "T",
        "Inner",
        None,
        (
            "T.Inner: 'Inner' is a nested class; only plain instance methods can be exported "
            "[toolset-not-a-method]"
        ),
    ),
    (
        "generator",
        _class("T", exports=(tool("op"),), op=_function("def op(self):\n    yield 1")),
        "generator",
        "T",
        "op",
        None,
        (
            "T.op: 'op' is a generator; only methods that return a value can be exported "
            "[toolset-not-a-method]"
        ),
    ),
    (
        "tool-not-a-method",
        lambda: tool(3),  # type: ignore[call-overload]
        "tool-not-a-method",
        None,
        None,
        None,
        "tool(): @tool can only decorate a method (got 3) [toolset-not-a-method]",
    ),
    (
        "tool-cannot-mark",
        lambda: tool(len),
        "tool-cannot-mark",
        None,
        "len",
        None,
        (
            "tool(): @tool cannot mark <built-in function len>: "
            + _python_says(lambda: setattr(len, "__typed_toolsets_spec__", None))
            + " [toolset-not-a-method]"
        ),
    ),
    (
        "duplicate-tool-name",
        _class(
            "T",
            exports=(tool("a", tool_name="x"), tool("b", tool_name="x")),
            a=lambda self: None,
            b=lambda self: None,
        ),
        "duplicate-tool-name",
        "T",
        "b",
        None,
        "T.b: the tool name 'x' is already exported by the method 'a' [toolset-duplicate-name]",
    ),
    (
        "declared-twice",
        _class("T", exports=(tool("a"), tool("a")), a=lambda self: None),
        "declared-twice",
        "T",
        "a",
        None,
        "T.a: the method 'a' is declared twice in this class [toolset-duplicate-name]",
    ),
    (
        "invalid-tool-name",
        _class("T", exports=(tool("a", tool_name="a b"),), a=lambda self: None),
        "invalid-tool-name",
        "T",
        "a",
        None,
        (
            "T.a: the tool name 'a b' is not valid for LLM APIs: it contains ' ' (names must "
            "match ^[A-Za-z_][A-Za-z0-9_-]{0,63}$: letters, digits, '_' and '-', at most 64 "
            "characters, not starting with a digit or '-') [toolset-invalid-name]"
        ),
    ),
    (
        "toolset-name-type",
        _class("T", toolset_name=3),
        "toolset-name-type",
        "T",
        None,
        None,
        "T: `toolset_name` must be a str (got 3) [toolset-invalid-name]",
    ),
    (
        "tool-name-type",
        lambda: tool("op", tool_name=5),  # type: ignore[arg-type]
        "tool-name-type",
        None,
        "op",
        None,
        "tool(): `tool_name` must be a str or None (got 5) [toolset-invalid-name]",
    ),
    (
        "unreadable-signature",
        _class("T", exports=(tool("op"),), op=_UNREADABLE),
        "unreadable-signature",
        "T",
        "op",
        None,
        (
            "T.op: its signature cannot be read ("
            + _python_says(lambda: inspect.signature(_UNREADABLE))
            + ") [toolset-signature]"
        ),
    ),
    (
        "no-self",
        _class("T", exports=(tool("op"),), op=_function("def op(*, a: int): ...")),
        "no-self",
        "T",
        "op",
        None,
        (
            "T.op: it takes no `self`; a tool is an instance method: make `self` its first "
            "parameter [toolset-signature]"
        ),
    ),
    (
        "hidden-signature",
        _class(
            "T",
            exports=(tool("op"),),
            op=_function("def wrapper(*args, **kwargs): ...\nop = wrapper"),
        ),
        "hidden-signature",
        "T",
        "op",
        None,
        (
            "T.op: it is a function named 'wrapper' that takes only *args and **kwargs: a "
            "decorator without functools.wraps hides the method's parameters; decorate its "
            "wrapper with @functools.wraps(<the method>) [toolset-signature]"
        ),
    ),
    (
        # The same wrapper taking the instance first: it was told that *args and **kwargs are
        # not supported.
        "hidden-signature-after-self",
        _class(
            "T",
            exports=(tool("op"),),
            op=_function("def wrapper(self, *args, **kwargs): ...\nop = wrapper"),
        ),
        "hidden-signature",
        "T",
        "op",
        None,
        (
            "T.op: it is a function named 'wrapper' that takes only *args and **kwargs: a "
            "decorator without functools.wraps hides the method's parameters; decorate its "
            "wrapper with @functools.wraps(<the method>) [toolset-signature]"
        ),
    ),
    (
        "api-name-of-its-own",
        _class("T", exports=(tool("proxy"),), proxy=_function("def op(self): ...")),
        "api-name",
        "T",
        "proxy",
        None,
        "T.proxy: 'proxy' is part of the Toolset API and cannot be exported [toolset-not-a-method]",
    ),
    (
        "positional-only",
        _class("T", exports=(tool("op"),), op=_function("def op(self, a: int, /): ...")),
        "positional-only",
        "T",
        "op",
        "a",
        (
            "T.op: parameter 'a' is positional-only; tools are called with keywords, remove the '/' "
            "[toolset-signature]"
        ),
    ),
    (
        "var-positional",
        _class("T", exports=(tool("op"),), op=_function("def op(self, *rest: int): ...")),
        "var-positional",
        "T",
        "op",
        "rest",
        "T.op: '*rest' is not supported; declare keyword parameters instead [toolset-signature]",
    ),
    (
        "var-keyword",
        _class("T", exports=(tool("op"),), op=_function("def op(self, **extra: int): ...")),
        "var-keyword",
        "T",
        "op",
        "extra",
        "T.op: '**extra' is not supported; declare keyword parameters instead [toolset-signature]",
    ),
    (
        "unannotated",
        _class("T", exports=(tool("op"),), op=_function("def op(self, *, a): ...")),
        "unannotated",
        "T",
        "op",
        "a",
        (
            "T.op: parameter 'a' has no type annotation; annotate it so it gets a JSON Schema "
            "[toolset-signature]"
        ),
    ),
    (
        "none-default",
        _class("T", exports=(tool("op"),), op=_function("def op(self, *, a: int = None): ...")),
        "none-default",
        "T",
        "op",
        "a",
        (
            "T.op: parameter 'a' defaults to None but its type int does not admit null; add "
            "`| None` to its annotation (a None default does not make a parameter nullable) "
            "[toolset-signature]"
        ),
    ),
    (
        "bad-default",
        _class("T", exports=(tool("op"),), op=_function("def op(self, *, a: int = 'x'): ...")),
        "bad-default",
        "T",
        "op",
        "a",
        (
            "T.op: parameter 'a' has the default 'x', which is not a valid int ('x' is "
            "not an int) [toolset-signature]"
        ),
    ),
    (
        "limits-type",
        _class("T", limits="fast"),
        "limits-type",
        "T",
        None,
        None,
        "T: `limits` must be a Limits (got 'fast') [toolset-signature]",
    ),
    (
        "class-option-type",
        _class("T", requires_approval="yes"),
        "class-option-type",
        "T",
        None,
        None,
        "T: `requires_approval` must be True or False (got 'yes') [toolset-signature]",
    ),
    (
        "option-field",
        lambda: attrs.define(type("T", (Toolset,), {"__annotations__": {"limits": Limits}})),
        "option-field",
        "T",
        None,
        None,
        (
            "T: `limits` is a field of each instance (annotated in an attrs class or a dataclass, "
            "or named in `__slots__`), not a class option: `limits=` given to the constructor "
            "changes nothing, and the class itself may not keep the value (attrs removes it, a "
            "slot replaces it); a class option is a class attribute: drop the annotation, or "
            "annotate it `ClassVar[...]` [toolset-signature]"
        ),
    ),
    (
        "tool-option-type",
        lambda: tool("op", description=b"x"),  # type: ignore[arg-type]
        "tool-option-type",
        None,
        "op",
        None,
        "tool(): `description` must be a str or None (got b'x') [toolset-signature]",
    ),
    (
        "tool-options-form",
        lambda: tool(len, description="x"),  # type: ignore[call-overload]
        "tool-options-form",
        None,
        "len",
        None,
        (
            "tool(): pass options as @tool(description=...), not @tool(method, ...) "
            "[toolset-signature]"
        ),
    ),
    (
        # `@tool("op")`, as other agent frameworks name a tool: a clear error, not Python's
        # "'ToolSpec' object is not callable" (mypy reports that call as [operator]).
        "tool-spec-decorator",
        lambda: tool("op")(_function("def op(self) -> None: ...")),  # type: ignore[operator]
        "tool-spec-decorator",
        None,
        "op",
        None,
        (
            "tool(): tool('op') is the `exports` form, which takes a method name; on the method "
            "write @tool, or @tool(tool_name=..., description=...) to set its name or "
            "description [toolset-signature]"
        ),
    ),
    (
        "unsupported-type",
        _class("T", exports=(tool("op"),), op=_function("def op(self, *, a: dict[int, Any]): ...")),
        "unsupported-type",
        "T",
        "op",
        "a",
        (
            "T.op: parameter 'a' has type dict[int, Any], which has no JSON Schema (only str keys "
            "are supported, as JSON object keys are strings; use dict[str, ...] and convert or "
            "check the keys in the method (got int)) [toolset-param-type]"
        ),
    ),
    (
        "bad-annotation",
        _class("T", exports=(tool("op"),), op=_function("def op(self, *, a: 'list['): ...")),
        "bad-annotation",
        "T",
        "op",
        "a",
        "",  # the parser's message differs between Python versions: checked below
    ),
    (
        "unresolved-name",
        _forward_reference_to_nothing,
        "unresolved-name",
        "T",
        "op",
        "a",
        (
            "T.op: parameter 'a': an annotation names 'Later', which Python cannot find when it "
            "resolves the "
            "annotation; define or import it at the module's top level (an import under "
            "`if TYPE_CHECKING:` or a name inside a function is not enough) [toolset-param-type]"
        ),
    ),
    (
        "abstract-class",
        _build(
            "import abc\nfrom typed_toolsets import Toolset\n"
            "class T(Toolset, abc.ABC):\n"
            "    @abc.abstractmethod\n"
            "    def connect(self) -> None: ...\n"
        ),
        "abstract-class",
        "T",
        None,
        None,
        (
            "T: T.to_tools() calls T(), but T is abstract (it does not implement 'connect'); "
            "implement them, or call to_tools() on a concrete subclass [toolset-init]"
        ),
    ),
    (
        "not-exported",
        lambda: Toolset.proxy(_NeedsDb(db_url="x").helper),
        "not-exported",
        "_NeedsDb",
        "helper",
        None,
        (
            "_NeedsDb.helper: 'helper' is not exported as a tool; declare it with tool('helper') "
            "in `exports` or with @tool, or hold a method that is exported "
            "[toolset-unknown-method]"
        ),
    ),
    (
        "proxy-of-class",
        lambda: Toolset.proxy(_NeedsDb.helper),  # pyright: ignore[reportArgumentType]
        "proxy-of-class",
        "_NeedsDb",
        "helper",
        None,
        (
            "_NeedsDb.helper: Toolset.proxy() takes a method of a toolset instance, not the "
            "class's function: make an instance and pass its method, as in "
            "Toolset.proxy(_NeedsDb().helper) [toolset-not-a-method]"
        ),
    ),
    (
        # `del T.op` after the class was built: binding it raised a bare AttributeError.
        "deleted-method",
        lambda: _deleted_op().to_tools(),
        "deleted-method",
        "T",
        "op",
        None,
        (
            "T.op: T exports 'op', but the method was deleted after the class was defined; "
            "define it again, or remove its declaration (its @tool, or its tool(...) in "
            "`exports`) [toolset-unknown-method]"
        ),
    ),
    (
        "inline-async",
        _class("T", exports=(tool("fetch", inline=True),), fetch=_async_method),
        "inline-async",
        "T",
        "fetch",
        None,
        (
            "T.fetch: 'fetch' is an async def, which always runs on the event loop; inline=True "
            "is only for sync methods, remove it [toolset-inline]"
        ),
    ),
    (
        "inline-timeout",
        _class(
            "T",
            limits=Limits(timeout=3),
            exports=(tool("quick", inline=True),),
            quick=lambda self: None,
        ),
        "inline-timeout",
        "T",
        "quick",
        None,
        (
            "T.quick: inline=True runs 'quick' on the event loop, where it cannot be stopped at a "
            "deadline, but its limits set timeout=3; remove inline=True (it then runs in a "
            "worker thread), or give the tool limits without one "
            "(tool(..., limits=attrs.evolve(T.limits, timeout=None))) [toolset-inline]"
        ),
    ),
    (
        "init",
        _NeedsDb.to_tools,
        "init",
        "_NeedsDb",
        None,
        None,
        (
            "_NeedsDb: _NeedsDb.to_tools() calls _NeedsDb() with no arguments, but the constructor "
            "needs 'db_url'; give each a default, or call to_tools() on an instance [toolset-init]"
        ),
    ),
]

#: Kinds that only `typed-toolsets check` and the plugin report (the runtime decides by order),
#: and those only the plugin reports (what it cannot read statically, the run time sees).
# The ambiguous unions are warnings of `check` (both kinds), the static-only codes the plugin's.
NOT_RAISED = {
    kind
    for kind, template in KINDS.items()
    if template.code == "ambiguous-union"
    or template.code in STATIC_ONLY_CODES
    or template.code in CHECK_ONLY_CODES
}


@pytest.mark.parametrize(
    ("build", "kind", "toolset", "method", "parameter", "line"),
    [case[1:] for case in RECORDS],
    ids=[case[0] for case in RECORDS],
)
def test_each_kind_of_problem_is_a_record(
    build: Callable[[], object],
    kind: str,
    toolset: str | None,
    method: str | None,
    parameter: str | None,
    line: str,
) -> None:
    (record,) = records_of(build)
    assert (record.kind, record.toolset, record.method, record.parameter) == (
        kind,
        toolset,
        method,
        parameter,
    )
    assert record.code == f"toolset-{KINDS[record.kind].code}"
    if line:
        assert str(record) == line
    else:
        assert str(record).startswith("""T.op: parameter 'a': the annotation "'list['" could""")
    assert str(record) == f"{record.message} [{record.code}]"
    assert record.message == f"{record.where}: {record.cause}"


def test_every_kind_is_exercised() -> None:
    assert {case[2] for case in RECORDS} | NOT_RAISED == set(KINDS)


def test_a_method_deleted_after_its_class_was_built_is_told_until_defined_again() -> None:
    class Base(Toolset):
        @tool
        def op(self) -> None: ...

        @tool
        def other(self) -> None: ...

    class Sub(Base):
        pass

    instance = Sub()
    op = Base.__dict__["op"]
    del Base.op
    for build, toolset in (
        (Base.to_tools, "Base"),
        (Sub.to_tools, "Sub"),
        (instance.to_tools, "Sub"),
    ):
        (record,) = records_of(build)
        assert (record.kind, record.toolset, record.method) == ("deleted-method", toolset, "op")
    # The tool of a method still there is built: only binding the deleted one fails.
    assert Toolset.proxy(instance.other).method_name == "other"
    Base.op = op  # type: ignore[method-assign]
    assert [p.method_name for p in instance.to_tools()] == ["op", "other"]


class _NoRepr:
    """A value whose ``__repr__`` raises, as a broken or proxied object's may."""

    def __repr__(self) -> str:
        raise RuntimeError("no repr")


def test_values_whose_repr_raises_are_shown_by_their_type() -> None:
    # The RuntimeError of their repr came out of class creation instead of the problems.
    no_repr = _NoRepr()

    def op(self: object, *, a: str = no_repr, b: list[int] = [no_repr]) -> None: ...  # type: ignore[assignment]  # noqa: B006

    assert problems_of(_class("T", exports=(tool("op"), no_repr), op=op)) == [
        "T: `exports` contains <_NoRepr>, not a tool(...) declaration [toolset-unknown-method]",
        (
            "T.op: parameter 'a' has the default <_NoRepr>, which is not a valid str (<_NoRepr> "
            "is not a str) [toolset-signature]"
        ),
        (
            "T.op: parameter 'b' has the default <list>, which is not a valid list[int] "
            "(<_NoRepr> is not an int) [toolset-signature]"
        ),
    ]
    assert problems_of(_class("T", exports=no_repr, limits=no_repr)) == [
        (
            "T: `exports` must be a tuple of tool(...) declarations (got <_NoRepr>) "
            "[toolset-unknown-method]"
        ),
        "T: `limits` must be a Limits (got <_NoRepr>) [toolset-signature]",
    ]
    assert problems_of(lambda: tool("op", description=no_repr)) == [  # type: ignore[arg-type]
        "tool(): `description` must be a str or None (got <_NoRepr>) [toolset-signature]"
    ]


def test_the_error_pickles_with_its_records() -> None:
    (record,) = records_of(_class("T", exports=(tool("asign"),), assign=lambda self: None))
    error = ToolsetDefinitionError([record])
    copy = pickle.loads(pickle.dumps(error))  # noqa: S301 - our own object
    assert copy.problems == (record,)
    assert str(copy) == str(error)


def test_records_are_hashable_values() -> None:
    build = _class("T", exports=(tool("asign"),), assign=lambda self: None)
    first, second = records_of(build)[0], records_of(build)[0]
    assert first == second
    assert len({first, second}) == 1
    assert first.value("matches") == ("assign",)
    assert repr(first) == (
        "Problem(code='toolset-unknown-method', kind='unknown-method', toolset='T', "
        "method='asign', parameter=None, matches=('assign',))"
    )


class Shade(enum.Enum):
    DARK = 1


def test_set_items_apart_by_place_or_plain_enums_are_fine() -> None:
    class SetToolset(Toolset):
        @tool
        def op(self, *, pairs: set[tuple[bool, int]], marks: set[Shade | bool]) -> int:
            return len(pairs) + len(marks)

    (proxy,) = SetToolset.to_tools()
    assert proxy.dynamic_call({"pairs": [[True, 1], [False, 1]], "marks": [1, True]}) == 4


def _unwrapped(fn: Callable[..., Any]) -> Callable[..., Any]:
    """A decorator that forgets functools.wraps: its wrapper is named ``wrapper``."""

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        return fn(*args, **kwargs)

    return wrapper


def _named_wrapper(fn: Callable[..., Any]) -> Callable[..., Any]:
    """A decorator whose wrapper spells out the method's signature, under its own name."""

    def wrapper(self: object, *, text: str) -> Any:
        return fn(self, text=text)

    return wrapper


def _lookup(self: object, *, query: str) -> str:
    return query


def test_a_marked_wrapper_under_another_name_is_not_dropped() -> None:
    # `@tool` outermost marks the wrapper, named `wrapper`: it is the attribute's tool (it was
    # left out without a word), and a wrapper hiding the signature says how to show it.
    class Shown(Toolset):
        @tool
        @_named_wrapper
        def shout(self, *, text: str) -> str:
            return text.upper()

        find = tool(_lookup)

    assert [t.name for t in Shown.to_tools()] == ["shown_shout", "shown_find"]
    assert Shown.to_tools()[0].dynamic_call({"text": "hi"}) == "HI"
    with pytest.raises(ToolsetDefinitionError) as caught:

        class Hidden(Toolset):
            @tool
            @_unwrapped
            def shout(self, *, text: str) -> str:
                return text.upper()

    assert [p.kind for p in caught.value.problems] == ["hidden-signature"]


def test_a_mixins_declarations_are_refused_unless_the_toolset_declares_them() -> None:
    # A base that is not a Toolset declares nothing its subclasses inherit: its `@tool` and its
    # `exports` were dropped without a word, and the tools silently missing.
    class Marked:
        @tool
        def greet(self, *, name: str) -> str:
            return "hi " + name

    class Listed:
        exports = (tool("wave"),)

        def wave(self) -> str:
            return "o/"

    def build() -> None:
        class Greeter(Marked, Listed, Toolset):
            pass

    assert [(p.kind, p.method) for p in records_of(build)] == [
        ("mixin-declaration", "greet"),
        ("mixin-declaration", "wave"),
    ]

    class Declared(Marked, Listed, Toolset):
        exports = (tool("greet"), tool("wave"))

    assert [t.name for t in Declared.to_tools()] == ["declared_greet", "declared_wave"]

    class MarkedToolset(Toolset):
        @tool
        def greet(self, *, name: str) -> str:
            return "hi " + name

    class Inherits(MarkedToolset):
        pass

    assert Inherits.to_tools()[0].dynamic_call({"name": "ann"}) == "hi ann"


def _sync_wrapper(fn: Callable[..., Any]) -> Callable[..., Any]:
    """A decorator whose plain ``def`` wrapper returns what the method returns (a coroutine)."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        return fn(*args, **kwargs)

    return wrapper


def test_a_sync_wrapper_of_an_async_def_is_an_async_tool() -> None:
    # The wrapper returns the coroutine: it was run as a sync tool, whose value was the
    # unawaited coroutine, and inline=True on it was accepted (mypy's plugin refused it).
    class Waiting(Toolset):
        @tool
        @_sync_wrapper
        async def double(self, *, x: int) -> int:
            return 2 * x

    (proxy,) = Waiting.to_tools()
    assert proxy.is_async
    assert proxy.dynamic_call({"x": 2}) == 4
    assert proxy.invoke('{"x": 3}').value == 6
    assert asyncio.run(proxy.adynamic_call({"x": 4})) == 8

    def build() -> None:
        class Inline(Toolset):
            @tool(inline=True)
            @_sync_wrapper
            async def double(self, *, x: int) -> int:
                return 2 * x

    assert [p.kind for p in records_of(build)] == ["inline-async"]


class _Delegating(Toolset):
    async def _double(self, x: int) -> int:
        await asyncio.sleep(0)
        return 2 * x

    @tool
    def double(self, *, x: int) -> collections.abc.Awaitable[int]:
        return self._double(x)

    @tool
    def named(self, *, x: int) -> collections.abc.Coroutine[Any, Any, str]:
        return self._name(x)

    async def _name(self, x: int) -> str:
        return f"n{x}"


class _LaterAwaited(Toolset):
    async def _one(self) -> int:
        return 1

    @tool
    def bare(self) -> collections.abc.Awaitable:  # type: ignore[type-arg]  # bare on purpose
        return self._one()

    @tool
    def unknown(self) -> collections.abc.Awaitable[NeverDefined]:  # type: ignore[name-defined]  # noqa: F821
        return self._one()


def test_an_awaitable_of_an_unresolved_or_no_type_is_awaited_too() -> None:
    # The awaited type naming what is not defined (imported under TYPE_CHECKING, say), or none:
    # the coroutine was handed back unawaited.
    bare, unknown = _LaterAwaited.to_tools()
    assert (bare.is_async, unknown.is_async) == (True, True)
    assert (bare.output_schema, unknown.output_schema) == (None, None)
    assert bare.dynamic_call() == 1
    assert unknown.dynamic_call() == 1


def test_a_plain_def_returning_an_awaitable_is_an_async_tool() -> None:
    # Its coroutine was handed back unawaited, as the tool's value (and "never awaited").
    double, named = _Delegating.to_tools()
    assert (double.is_async, named.is_async) == (True, True)
    assert double.output_schema == {"type": "integer"}
    assert named.output_schema == {"type": "string"}
    assert double.dynamic_call({"x": 2}) == 4
    assert named.invoke('{"x": 3}').value == "n3"
    assert asyncio.run(double.adynamic_call({"x": 4})) == 8
    assert asyncio.run(named.ainvoke({"x": 5})).value == "n5"


def _running_wrapper(fn: Callable[..., Any]) -> Callable[..., Any]:
    """A decorator whose plain ``def`` wrapper runs the method's coroutine itself."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        return asyncio.run(fn(*args, **kwargs))

    return wrapper


@pytest.mark.parametrize("timeout", [None, 5.0])
@pytest.mark.parametrize("wrap", [_sync_wrapper, _running_wrapper])
def test_a_sync_wrapper_of_an_async_def_gives_its_value_from_every_call(
    wrap: Callable[[Callable[..., Any]], Callable[..., Any]], timeout: float | None
) -> None:
    # A wrapper that runs the coroutine itself (asyncio.run) returns the value, not a
    # coroutine: awaiting it failed ("object int can't be used in 'await' expression"), and
    # from a running loop its asyncio.run failed. Its call runs in a worker thread, and its
    # value is awaited only when it is awaitable.
    class Waiting(Toolset):
        @tool(limits=Limits(timeout=timeout))
        @wrap
        async def double(self, *, x: int) -> int:
            await asyncio.sleep(0)
            return 2 * x

    (proxy,) = Waiting.to_tools()
    assert proxy.dynamic_call({"x": 2}) == 4
    assert proxy.invoke('{"x": 3}').value == 6

    async def from_a_loop() -> list[object]:
        return [
            await proxy.adynamic_call({"x": 4}),
            (await proxy.ainvoke({"x": 5})).value,
            await proxy.acall(x=6),
        ]

    assert asyncio.run(from_a_loop()) == [8, 10, 12]


def test_an_alias_of_a_marked_method_is_not_exported_again() -> None:
    class Base(Toolset):
        toolset_name = "t"

        @tool
        def find(self, *, query: str) -> str:
            return query

        search = find

    class Sub(Base):
        again = Base.find

    assert [t.name for t in Base.to_tools()] == ["t_find"]
    assert [t.name for t in Sub.to_tools()] == ["t_find"]


def test_a_tool_kept_under_a_name_and_listed_in_exports_is_fine() -> None:
    spec = tool("op")

    class Kept(Toolset):
        _spec = spec
        exports = (spec,)

        def op(self) -> str:
            return "x"

    assert [t.method_name for t in Kept.to_tools()] == ["op"]


def test_every_parameter_naming_something_undefined_is_reported() -> None:
    # Each parameter's annotation is resolved on its own: one missing name does not hide another.
    source = "def op(self, *, a: 'Later', b: 'list[Never]', c: int, d: 'Later | None'): ..."
    cls = type("T", (Toolset,), {"exports": (tool("op"),), "op": _function(source)})
    with pytest.raises(ToolsetDefinitionError) as caught:
        cls.to_tools()
    found = [(p.kind, p.parameter, dict(p.values)["name"]) for p in caught.value.problems]
    assert found == [
        ("unresolved-name", "a", "Later"),
        ("unresolved-name", "b", "Never"),
        ("unresolved-name", "d", "Later"),
    ]


def test_a_name_undefined_in_a_struct_s_fields_is_reported_at_the_parameter() -> None:
    # The parameter's own annotation resolves; the class it names has a field naming nothing.
    source = (
        "from __future__ import annotations\n"
        "import attrs\n"
        "@attrs.define\n"
        "class Point:\n"
        "    x: Nowhere\n"
        "def op(self, *, at: Point, n: int): ...\n"
    )
    namespace: dict[str, object] = {}
    exec(source, namespace)  # noqa: S102 - a fixed source
    cls = type("T", (Toolset,), {"exports": (tool("op"),), "op": namespace["op"]})
    with pytest.raises(ToolsetDefinitionError) as caught:
        cls.to_tools()
    (found,) = caught.value.problems
    assert (found.kind, found.method, found.parameter) == ("unresolved-name", "op", "at")
    assert str(found).startswith("T.op: parameter 'at': an annotation names 'Nowhere', ")


@pytest.mark.parametrize(
    ("annotation", "reason"),
    [
        ("typing.NoReturn", "Never has no JSON Schema"),
        ("typing_extensions.Never", "Never has no JSON Schema"),
        ("typing_extensions.LiteralString", "LiteralString is a string written in the source code"),
        ("list[typing_extensions.LiteralString]", "LiteralString is a string written in the"),
        # As the plugin says it (mypy sees Self's type variable); it was "typing.Self has no
        # JSON Schema mapping", and TypeGuard's Python repr.
        ("typing_extensions.Self", "the type variable Self has no JSON Schema"),
        ("typing_extensions.Self | None", "the type variable Self has no JSON Schema"),
        ("typing.TypeGuard[int]", "TypeGuard and TypeIs annotate what a type predicate returns"),
        ("typing_extensions.TypeIs[str]", "TypeGuard and TypeIs annotate what a type predicate"),
    ],
)
def test_never_and_literal_string_say_why_they_have_no_schema(annotation: str, reason: str) -> None:
    source = f"import typing, typing_extensions\ndef op(self, *, a: {annotation}): ..."
    namespace: dict[str, object] = {}
    exec(source, namespace)  # noqa: S102 - a fixed source
    with pytest.raises(ToolsetDefinitionError) as caught:
        type("T", (Toolset,), {"exports": (tool("op"),), "op": namespace["op"]})
    (found,) = caught.value.problems
    assert found.kind == "unsupported-type"
    assert f"({reason}" in str(found)


def test_a_default_holding_a_lone_surrogate_is_a_definition_problem() -> None:
    # Every export would carry it, and no JSON text can: json.dumps(...).encode() would raise.
    source = "def op(self, *, name: str = 'caf\\udce9', tags: list[str] = ['ok', '\\ud800']): ..."
    namespace: dict[str, object] = {}
    exec(source, namespace)  # noqa: S102 - a fixed source
    with pytest.raises(ToolsetDefinitionError) as caught:
        type("T", (Toolset,), {"exports": (tool("op"),), "op": namespace["op"]})
    found = [(p.kind, p.parameter) for p in caught.value.problems]
    assert found == [("bad-default", "name"), ("bad-default", "tags")]
    assert "holds a lone surrogate (U+DCE9), which no JSON text can carry" in str(caught.value)
    assert "(U+D800)" in str(caught.value)


def test_a_literal_or_enum_value_holding_a_lone_surrogate_has_no_schema() -> None:
    source = (
        "import enum, typing\n"
        "class E(str, enum.Enum):\n    A = 'a\\udc80'\n"
        "def op(self, *, x: typing.Literal['ok', 'b\\udc80'], e: E): ..."
    )
    namespace: dict[str, object] = {}
    exec(source, namespace)  # noqa: S102 - a fixed source
    with pytest.raises(ToolsetDefinitionError) as caught:
        type("T", (Toolset,), {"exports": (tool("op"),), "op": namespace["op"]})
    assert [(p.kind, p.parameter) for p in caught.value.problems] == [
        ("unsupported-type", "x"),
        ("unsupported-type", "e"),
    ]
    message = str(caught.value)
    assert "the literal Literal['b\\udc80'] is not a JSON string" in message
    assert "whose value 'a\\udc80' is not a JSON string" in message


def test_an_error_raised_with_a_message_of_one_s_own_keeps_it() -> None:
    from typed_toolsets import ExportError

    error = ToolsetDefinitionError("Plugins must set a name")
    assert str(error) == "Plugins must set a name"
    assert error.problems == ()
    again = pickle.loads(pickle.dumps(error))  # noqa: S301 - our own object
    assert (str(again), again.problems) == (str(error), ())
    assert ExportError("two tools clash").problems == ("two tools clash",)
    assert str(ExportError("two tools clash")) == "two tools clash"
    # A list of one's own messages too (`check` read each as a record, and crashed).
    several = ToolsetDefinitionError(["Plugins must set a name", "and a version"])
    assert (str(several), several.problems) == ("Plugins must set a name\nand a version", ())
    again = pickle.loads(pickle.dumps(several))  # noqa: S301 - our own object
    assert (str(again), again.problems) == (str(several), ())


#: A recursive alias written as a string: Python evaluates it one level deep.
JsonText: typing.TypeAlias = "dict[str, JsonText] | list[JsonText] | str | None"


def test_a_recursive_string_alias_is_told_as_the_plugin_tells_it() -> None:
    # It read "ForwardRef('dict[str, JsonText] | ...') has no JSON Schema mapping": Python's
    # internals, and no way out.
    def define() -> None:
        class Documents(Toolset):
            @tool
            def store(self, *, document: JsonText) -> str:
                return ""

    problem = single(define)
    assert "ForwardRef" not in problem
    assert problem.endswith(
        "which has no JSON Schema (recursive type aliases are not supported; use a recursive "
        "attrs class) [toolset-param-type]"
    )
    assert "dict[str, dict[str, JsonText] | list[JsonText] | str | None]" in problem


def test_a_method_of_the_class_under_another_name_is_no_wrapper() -> None:
    # `g = impl`, with only **options after self: "'**options' is not supported" (what the
    # plugin says too), not a decorator's wrapper hiding the parameters.
    with pytest.raises(ToolsetDefinitionError) as caught:

        class Aliased(Toolset):
            def impl(self, **options: int) -> int:
                return len(options)

            exports = (tool("g"),)
            g = impl

    assert str(caught.value) == (
        "Aliased.g: '**options' is not supported; declare keyword parameters instead "
        "[toolset-signature]"
    )


def test_tool_on_an_overload_says_to_mark_the_implementation() -> None:
    # @overload returns one function for every overload: marked, the class exported nothing
    # (it keeps the implementation), and every overload in the process was marked.
    with pytest.raises(ToolsetDefinitionError) as caught:

        class Overloaded(Toolset):
            @tool
            @typing.overload
            def get(self, *, x: int) -> int: ...
            @typing.overload
            def get(self, *, x: str) -> str: ...
            def get(self, *, x: int | str) -> int | str:
                return x

    assert str(caught.value) == (
        "tool(): @tool cannot mark an @overload: the class keeps only the implementation; put "
        "@tool on the def without @overload [toolset-not-a-method]"
    )
    assert not hasattr(typing.overload(lambda: None), "__typed_toolsets_spec__")


class _ItemsAsAttributes(dict[str, int]):
    """A dict whose attributes are its items: a missing one is a KeyError, not AttributeError."""

    def __getattr__(self, name: str) -> int:
        return self[name]


class _Unbound:
    """Like a context-local proxy used outside its context: every attribute access raises."""

    def __getattribute__(self, name: str) -> object:
        raise RuntimeError("working outside of the application context")


@pytest.mark.parametrize("kind", [_ItemsAsAttributes, _Unbound])
def test_a_class_attribute_whose_attributes_raise_is_only_an_attribute(kind: type) -> None:
    class Settings(Toolset):
        settings = kind()
        other = staticmethod(len)  # looked at as the attributes are, and told apart by type

        @tool
        def ping(self, *, x: int) -> int:
            return x

    (ping,) = Settings.to_tools()
    assert ping.dynamic_call({"x": 2}) == 2


@pytest.mark.parametrize(
    ("annotation", "reason"),
    [
        ("list[int, str]", "list takes one type parameter, not 2 (for example list[str])"),
        ("dict[str]", "dict takes two type parameters, not 1 (for example dict[str, int])"),
        ("set[int, str]", "set takes one type parameter, not 2 (for example set[str])"),
        (
            "collections.abc.Mapping[str]",
            "Mapping takes two type parameters, not 1 (for example Mapping[str, int])",
        ),
    ],
)
def test_a_generic_given_the_wrong_number_of_parameters_is_told_so(
    annotation: str, reason: str
) -> None:
    # Python builds such an annotation without a word; unpacking its parameters raised.
    source = f"class Arity(Toolset):\n    @tool\n    def f(self, *, a: {annotation}) -> None: ...\n"
    namespace = {"Toolset": Toolset, "tool": tool, "collections": collections}
    (record,) = records_of(lambda: exec(source, namespace))  # noqa: S102 - this test's own text
    assert (record.code, record.method, record.parameter) == ("toolset-param-type", "f", "a")
    assert f"which has no JSON Schema ({reason})" in str(record)


def test_a_wrong_number_of_parameters_met_when_a_later_name_is_read_is_a_definition_error() -> None:
    class Later(Toolset):
        @tool
        def f(self, *, a: Pending) -> None: ...  # noqa: F821 - defined below

    globals()["Pending"] = dict[str]  # type: ignore[misc]
    try:
        (record,) = records_of(Later.to_tools)
    finally:
        del globals()["Pending"]
    assert "dict takes two type parameters, not 1" in str(record)


def test_a_name_still_undefined_is_told_beside_an_annotation_that_cannot_be_evaluated() -> None:
    class Later(Toolset):
        @tool
        def f(self, *, a: Pending[int], b: NeverDefined) -> None: ...  # noqa: F821 - see below

    globals()["Pending"] = 3
    try:
        records = records_of(Later.to_tools)
    finally:
        del globals()["Pending"]
    # `a`'s annotation hid `b`'s missing name.
    assert [(r.kind, r.parameter) for r in records] == [
        ("bad-annotation", "a"),
        ("unresolved-name", "b"),
    ]


def test_a_tool_spec_made_or_evolved_directly_is_checked_as_tool_checks_it() -> None:
    spec = tool("f")
    # Each was let through (a number as the description, in every export) or broke class
    # creation with an AttributeError.
    for changes in ({"limits": 5}, {"description": 5}, {"inline": "yes"}, {"tool_name": 7}):
        with pytest.raises(ToolsetDefinitionError) as caught:
            attrs.evolve(spec, **changes)
        (record,) = caught.value.problems
        assert record.code in ("toolset-signature", "toolset-invalid-name"), changes
    from typed_toolsets import ToolAnnotations, ToolSpec

    # A function named "" is still marked as its attribute's tool, as before these checks.
    def nameless(self: object) -> int:
        return 1

    nameless.__name__ = ""

    class Nameless(Toolset):
        run = tool(nameless)

    assert [proxy.name for proxy in Nameless.to_tools()] == ["nameless_run"]
    hinted = attrs.evolve(spec, annotations={"readOnlyHint": True})  # type: ignore[arg-type]
    assert hinted.annotations == ToolAnnotations(read_only_hint=True)
    assert ToolSpec("f", annotations={"readOnlyHint": True}) == hinted  # type: ignore[arg-type]


@pytest.mark.skipif(sys.version_info < (3, 11), reason="add_note is Python 3.11+")
def test_the_library_s_errors_keep_their_notes_when_pickled_or_copied() -> None:
    import copy

    from typed_toolsets import ExportError
    from typed_toolsets.agent import DeadlineExceededError, MaxIterationsError
    from typed_toolsets.testing import ToolsetCheckError

    errors: list[BaseException] = [
        ToolsetDefinitionError("Plugins must set a name"),
        ExportError("two tools clash"),
        MaxIterationsError((), 3),
        DeadlineExceededError((), 1.5, "model"),
        ToolsetCheckError("T", "t_f", "x", "the schema refused it", "{}"),
    ]
    for error in errors:
        error.add_note("while loading plugin 'acme'")  # type: ignore[attr-defined]
        again = pickle.loads(pickle.dumps(error))  # noqa: S301 - our own object
        for copied in (again, copy.deepcopy(error)):
            assert type(copied) is type(error)
            assert str(copied) == str(error)
            assert copied.__notes__ == ["while loading plugin 'acme'"]  # type: ignore[attr-defined]


def test_an_option_field_found_on_first_use_is_told_with_the_other_problems() -> None:
    source = """
import attrs
from typed_toolsets import Toolset, tool

@attrs.define(slots=False)
class Tasks(Toolset):
    toolset_name: str = "task"

    @tool
    def add(self, *, later: Later) -> None: ...
"""
    tasks = _module(source)["Tasks"]
    kinds = [record.kind for record in records_of(tasks.to_tools)]
    assert kinds == ["option-field", "unresolved-name"]


def test_a_mixin_s_own_field_named_like_an_option_is_its_data() -> None:
    @dataclasses.dataclass
    class Quota:
        limits: dict[str, int] = dataclasses.field(default_factory=dict)

    class Tasks(Quota, Toolset):
        @tool
        def add(self, *, title: str) -> str:
            return title

    assert [p.name for p in Tasks(limits={"a": 1}).to_tools()] == ["tasks_add"]
    assert Tasks.to_tools()[0].limits == Limits()
