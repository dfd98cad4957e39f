"""Declaring toolsets: names, descriptions, export order, inheritance and to_tools()."""

from __future__ import annotations

import threading
import time
from typing import Any, ClassVar

import attrs
import pytest

from tests.fixtures import forward_toolsets
from typed_toolsets import Toolset, ToolsetDefinitionError, register_type, tool
from typed_toolsets.definition.classes import class_info


def names(cls: Any) -> list[str]:
    return [t.name for t in cls.to_tools()]


class TestToolsetName:
    @pytest.mark.parametrize(
        ("class_name", "expected"),
        [
            ("TextStatsToolset", "textstats"),
            ("DatabaseToolset", "database"),
            ("ToolsetHelper", "toolsethelper"),
            ("GitHubCLIToolset", "githubcli"),
            ("MyToolsetToolset", "mytoolset"),
            ("Plain", "plain"),
            ("lowertoolset", "lowertoolset"),
        ],
    )
    def test_default_rule(self, class_name: str, expected: str) -> None:
        cls = type(class_name, (Toolset,), {})
        assert cls.toolset_name == expected

    def test_explicit_name_is_inherited(self) -> None:
        class BaseToolset(Toolset):
            toolset_name = "base"

        class ChildToolset(BaseToolset):
            pass

        assert ChildToolset.toolset_name == "base"

    def test_default_name_is_derived_per_class(self) -> None:
        class ParentToolset(Toolset):
            exports = (tool("ping"),)

            def ping(self) -> str:
                return "pong"

        class KidToolset(ParentToolset):
            pass

        assert names(ParentToolset) == ["parent_ping"]
        assert names(KidToolset) == ["kid_ping"]

    def test_instance_sees_the_same_name(self) -> None:
        class SomeToolset(Toolset):
            pass

        assert SomeToolset().toolset_name == "some"

    def test_a_mixin_after_toolset_sets_the_name(self) -> None:
        # Toolset's default hid it (SPEC 1: the default applies when no class in the MRO sets
        # one); a mixin before Toolset, and the class's own name, still come first.
        class Named:
            toolset_name = "mixed"

        class AfterToolset(Toolset, Named):
            @tool
            def ping(self) -> str:
                return "pong"

        class Own(Toolset, Named):
            toolset_name = "own"

        class Child(AfterToolset):
            pass

        class Described:
            class _Name:
                def __get__(self, obj: object, owner: type | None = None) -> str:
                    return "described"

            toolset_name = _Name()

        class WithDescriptor(Toolset, Described):
            @tool
            def ping(self) -> str:
                return "pong"

        assert names(WithDescriptor) == ["described_ping"]  # was "must be a str"
        assert names(AfterToolset) == ["mixed_ping"]
        assert AfterToolset.toolset_name == AfterToolset().toolset_name == "mixed"
        assert (Own.toolset_name, Child.toolset_name) == ("own", "mixed")
        assert names(Child) == ["mixed_ping"]


class TestDescriptions:
    def test_explicit_docstring_and_default(self) -> None:
        class DocToolset(Toolset):
            exports = (
                tool("explicit", description="Given here"),
                tool("documented"),
                tool("bare_thing"),
            )

            def explicit(self) -> None:
                """Not this one."""

            def documented(self) -> None:
                """First paragraph,
                over two lines.

                Second paragraph.

                Args:
                    nothing: at all.
                """

            def bare_thing(self) -> None: ...

        tools = DocToolset.to_tools()
        assert [t.description for t in tools] == [
            "Given here",
            "First paragraph, over two lines.",
            "Bare thing operation",
        ]

    def test_defaults_apply_only_for_none(self) -> None:
        class EmptyToolset(Toolset):
            exports = (tool("op", description=""),)

            def op(self) -> None:
                """A docstring that must not be used."""

        assert EmptyToolset.to_tools()[0].description == ""

    @pytest.mark.parametrize(
        ("method", "expected"),
        [
            ("word_count", "Word count operation"),
            ("get_HTML", "Get html operation"),
            ("x", "X operation"),
        ],
    )
    def test_default_description_like_the_seed(self, method: str, expected: str) -> None:
        cls = type(
            "DescToolset", (Toolset,), {"exports": (tool(method),), method: lambda self: None}
        )
        assert cls.to_tools()[0].description == expected


class TestExportOrder:
    def test_exports_tuple_then_decorated_in_source_order(self) -> None:
        class OrderToolset(Toolset):
            exports = (tool("second"), tool("first"))

            @tool
            def third(self) -> None: ...

            def first(self) -> None: ...

            def second(self) -> None: ...

            @tool(description="Last")
            def fourth(self) -> None: ...

        assert [t.method_name for t in OrderToolset.to_tools()] == [
            "second",
            "first",
            "third",
            "fourth",
        ]

    def test_both_forms_give_the_same_tool(self) -> None:
        class ByName(Toolset):
            toolset_name = "t"
            exports = (tool("op", description="Do it", tool_name="do_it"),)

            def op(self, *, n: int) -> int:
                return n

        class ByDecorator(Toolset):
            toolset_name = "t"

            @tool(description="Do it", tool_name="do_it")
            def op(self, *, n: int) -> int:
                return n

        (a,) = ByName.to_tools()
        (b,) = ByDecorator.to_tools()
        assert a.schema == b.schema
        assert a.dynamic_call({"n": 2}) == b.dynamic_call({"n": 2}) == 2

    def test_only_declared_methods_are_exported(self) -> None:
        class PrivateToolset(Toolset):
            exports = (tool("public"),)

            def public(self) -> str:
                return self.helper()

            def helper(self) -> str:
                return "help"

        assert names(PrivateToolset) == ["private_public"]


class TestInheritance:
    def test_subclass_adds_and_redeclares_in_place(self) -> None:
        class BaseToolset(Toolset):
            exports = (tool("a"), tool("b", description="old"), tool("c"))

            def a(self) -> str:
                return "a"

            def b(self) -> str:
                return "b"

            def c(self) -> str:
                return "c"

        class SubToolset(BaseToolset):
            toolset_name = "sub"
            exports = (tool("d"), tool("b", description="new"))

            def d(self) -> str:
                return "d"

        tools = SubToolset.to_tools()
        assert [t.name for t in tools] == ["sub_a", "sub_b", "sub_c", "sub_d"]
        assert tools[1].description == "new"
        assert [t.name for t in BaseToolset.to_tools()] == ["base_a", "base_b", "base_c"]

    def test_override_without_redeclaring_uses_the_override(self) -> None:
        class BaseToolset(Toolset):
            @tool
            def greet(self, *, name: str) -> str:
                return f"hi {name}"

        class LoudToolset(BaseToolset):
            def greet(self, *, name: str, shout: bool = False) -> str:
                return f"HI {name}" if shout else f"hi {name}"

        (greet,) = LoudToolset.to_tools()
        assert greet.name == "loud_greet"
        assert list(greet.parameters["properties"]) == ["name", "shout"]
        assert greet.dynamic_call({"name": "x", "shout": True}) == "HI x"

    def test_multiple_inheritance_merges_along_the_mro(self) -> None:
        class A(Toolset):
            toolset_name = "m"

            @tool
            def a(self) -> str:
                return "a"

        class B(Toolset):
            toolset_name = "m"

            @tool
            def b(self) -> str:
                return "b"

        class C(A, B):
            pass

        assert names(C) == ["m_b", "m_a"]

    def test_attrs_subclass_chain(self) -> None:
        @attrs.define
        class BaseToolset(Toolset):
            prefix: str = ">"

            @tool
            def echo(self, *, text: str) -> str:
                return self.prefix + text

        @attrs.frozen
        class FrozenToolset(BaseToolset):
            suffix: str = "<"

            @tool
            def wrap(self, *, text: str) -> str:
                return self.prefix + text + self.suffix

        tools = FrozenToolset(prefix="[", suffix="]").to_tools()
        assert [t.name for t in tools] == ["frozen_echo", "frozen_wrap"]
        assert tools[1].dynamic_call({"text": "x"}) == "[x]"


class TestToTools:
    def test_instance_binds_the_configured_instance(self) -> None:
        @attrs.define
        class ConfigToolset(Toolset):
            greeting: str = "hello"

            @tool
            def greet(self, *, name: str) -> str:
                return f"{self.greeting} {name}"

        configured = ConfigToolset(greeting="hola")
        (greet,) = configured.to_tools()
        assert greet.toolset is configured
        assert greet.dynamic_call({"name": "Ana"}) == "hola Ana"
        (default,) = ConfigToolset.to_tools()
        assert default.dynamic_call({"name": "Ana"}) == "hello Ana"

    def test_constructor_needing_arguments(self) -> None:
        @attrs.define
        class NeedsDbToolset(Toolset):
            db_url: str
            pool: int
            timeout: float = 1.0

            @tool
            def query(self) -> str:
                return self.db_url

        with pytest.raises(ToolsetDefinitionError) as caught:
            NeedsDbToolset.to_tools()
        message = str(caught.value)
        assert "NeedsDbToolset" in message
        assert "'db_url', 'pool'" in message
        assert "timeout" not in message
        assert NeedsDbToolset("sqlite://", 2).to_tools()[0].dynamic_call(None) == "sqlite://"

    def test_base_toolset_exports_nothing(self) -> None:
        assert Toolset.to_tools() == []

    def test_fresh_list_and_instance_each_call(self) -> None:
        class CountToolset(Toolset):
            @tool
            def one(self) -> int:
                return 1

        lists = [CountToolset.to_tools() for _ in range(3)]
        assert len({id(tools[0].toolset) for tools in lists}) == 3

    def test_proxies_are_immutable(self) -> None:
        class ImmutableToolset(Toolset):
            @tool
            def one(self) -> int:
                return 1

        (proxy,) = ImmutableToolset.to_tools()
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            proxy.name = "other"  # type: ignore[misc]

    def test_concurrent_calls_share_nothing_mutable(self) -> None:
        class AddToolset(Toolset):
            @tool
            def add(self, *, a: int, b: int) -> int:
                return a + b

        (add,) = AddToolset.to_tools()
        results: list[object] = []

        def worker(offset: int) -> None:
            for i in range(200):
                results.append(add.dynamic_call({"a": i, "b": offset}) == i + offset)

        threads = [threading.Thread(target=worker, args=(n,)) for n in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert results == [True] * 800


class TestForwardReferences:
    def test_string_annotations_and_later_classes_resolve(self) -> None:
        tools = forward_toolsets.PlannerToolset.to_tools()
        plan = tools[0]
        assert plan.name == "planner_plan"
        assert plan.description == "Make a plan."
        properties = plan.parameters["properties"]
        assert properties["owner"]["description"] == "Who owns the plan."
        assert properties["deadline"]["default"] is None
        result = plan.dynamic_call(
            {
                "owner": {"name": "Ana", "age": 30},
                "steps": [{"title": "write"}, {"title": "test", "minutes": 9}],
            }
        )
        assert result == forward_toolsets.Plan(
            owner=forward_toolsets.Person("Ana", 30),
            steps=[forward_toolsets.Step("write"), forward_toolsets.Step("test", 9)],
        )
        assert plan.output_schema is not None
        assert plan.output_schema["required"] == ["owner", "steps"]

    def test_a_return_annotation_naming_a_later_class_has_its_schema(self) -> None:
        # Only the return annotation names a later class: it was read at class creation, and
        # had no schema (output_schema None) while the same return type of a method whose
        # parameter also named a later class had one.
        get, describe = forward_toolsets.CatalogToolset.to_tools()
        assert get.output_schema == {
            "type": "object",
            "properties": {"sku": {"type": "string"}, "price": {"type": "number"}},
            "required": ["sku", "price"],
            "additionalProperties": False,
        }
        assert get.invoke({"sku": "A"}).value == forward_toolsets.Item("A", 1.0)
        # A name never defined has no schema, as a type without one: the tool still works.
        assert describe.output_schema is None
        assert describe.dynamic_call({"sku": "B"}) == "B"

    def test_nested_class_names_resolve_in_the_class_namespace(self) -> None:
        mode = forward_toolsets.PlannerToolset.to_tools()[1]
        assert mode.dynamic_call({"mode": "fast"}) == "fast/safe"
        assert mode.parameters["properties"]["fallback"]["default"] == "safe"

    def test_unresolvable_name_is_a_definition_error_naming_it(self) -> None:
        with pytest.raises(ToolsetDefinitionError) as caught:
            forward_toolsets.BrokenForwardToolset.to_tools()
        message = str(caught.value)
        assert "BrokenForwardToolset.use" in message
        assert "'NeverDefined'" in message


class Registry(Toolset):
    """A base that records its subclasses and forgets ``super().__init_subclass__()``."""

    registered: ClassVar[list[type]] = []

    def __init_subclass__(cls, **kwargs: Any) -> None:
        Registry.registered.append(cls)


class Registered(Registry):
    exports = (tool("shout"),)

    @tool
    def ping(self, *, text: str) -> str:
        return text

    def shout(self, *, text: str) -> str:
        return text.upper()


class RegisteredChild(Registered):
    @tool
    def echo(self, *, text: str) -> str:
        return text


class TestSkippedInitSubclass:
    """A base's ``__init_subclass__`` without ``super()``: its subclasses had no tools at all.

    ``to_tools()`` returned ``[]`` and no check ran: the class is built on first use now.
    """

    def test_its_subclasses_are_built_on_first_use(self) -> None:
        assert names(Registered) == ["registered_shout", "registered_ping"]
        # Bases first: the child inherits what its base declares, as at class creation.
        assert names(RegisteredChild()) == [
            "registeredchild_shout",
            "registeredchild_ping",
            "registeredchild_echo",
        ]
        assert Registered.to_tools()[1].dynamic_call({"text": "hi"}) == "hi"
        assert Toolset.proxy(Registered().shout).call(text="hi") == "HI"

    def test_their_problems_are_raised_on_first_use(self) -> None:
        class Broken(Registry):
            exports = (tool("nope"),)

            @tool
            def take(self, *, data: bytes) -> None: ...

        with pytest.raises(ToolsetDefinitionError) as caught:
            Broken.to_tools()
        assert [p.code for p in caught.value.problems] == [
            "toolset-unknown-method",
            "toolset-param-type",
        ]


def test_a_class_of_thousands_of_exports_is_built_in_linear_time() -> None:
    # Each method's annotations were resolved in a copy of the class's namespace: 12,000
    # exports took 18 s to build (about 2 s now, on a quiet machine).
    count = 12_000
    namespace: dict[str, object] = {"exports": tuple(tool(f"m{i}") for i in range(count))}
    for i in range(count):

        def method(self: object) -> None: ...

        namespace[f"m{i}"] = method
    started = time.perf_counter()
    type("Many", (Toolset,), namespace)
    assert time.perf_counter() - started < 8.0


def _methods(cls: type) -> dict[str, object]:
    info = class_info(cls)
    assert info is not None
    return {export.method_name: export.method for export in info.exports}


def test_a_subclass_shares_the_methods_it_inherits_unchanged() -> None:
    # Each subclass of a 100-tool base read every method again: 20 ms to define it. (Defined
    # here: a type registered by another test since would have them read again, rightly.)
    @attrs.define
    class Ledger(Toolset):
        toolset_name = "ledger"

        @tool
        def add(self, cents: int) -> int:
            """Add an amount."""
            return cents

        @tool
        def count(self, limit: int = 10) -> int:
            """Count entries."""
            return limit

    @attrs.define
    class Sub(Ledger):
        toolset_name = "sub"

        @tool
        def count(self, limit: int = 5) -> int:
            """Count fewer entries."""
            return limit

    base, sub = _methods(Ledger), _methods(Sub)
    assert sub["add"] is base["add"]
    assert sub["count"] is not base["count"]  # its own method, read on its own
    assert [p.name for p in Sub.to_tools()] == ["sub_add", "sub_count"]
    assert Sub.to_tools()[1].dynamic_call({}) == 5
    assert Sub.to_tools()[0].dynamic_call({"cents": 3}) == 3
    assert "sub_add" in Sub.to_tools()[0].dynamic_call({"cents": "x"})  # its own name


@attrs.define
class Cents:
    value: int


@attrs.define
class Till(Toolset):
    toolset_name = "till"

    @tool
    def put(self, amount: Cents) -> int:
        """Put money in."""
        return amount.value


def test_a_type_registered_later_is_read_by_later_subclasses() -> None:
    assert Till.to_tools()[0].parameters["properties"]["amount"]["type"] == "object"
    register_type(Cents, schema={"type": "integer"}, structure=Cents, unstructure=lambda c: c.value)

    @attrs.define
    class Drawer(Till):
        toolset_name = "drawer"

    assert _methods(Drawer)["put"] is not _methods(Till)["put"]
    assert Drawer.to_tools()[0].parameters["properties"]["amount"] == {"type": "integer"}
    assert Drawer.to_tools()[0].dynamic_call({"amount": 7}) == 7
    # The class defined before keeps what its tools were built from.
    assert Till.to_tools()[0].parameters["properties"]["amount"]["type"] == "object"


def _save(self: object, item: Item) -> str:  # noqa: F821 - resolved in each class's namespace
    """Save an item."""
    return repr(item)


@attrs.define
class _Note:
    text: str


@attrs.define
class _Todo:
    title: str


def _tools_of(item_type: type, name: str) -> type[Toolset]:
    class Tools(Toolset):
        toolset_name = name
        Item = item_type
        exports = (tool("save"),)
        save = _save

    return Tools


def test_classes_of_one_name_sharing_a_function_read_it_each_in_its_own_namespace() -> None:
    # A factory's classes share their module, qualname and function: the first one's read
    # (`Item` as _Note) was taken by the second.
    notes, todos = _tools_of(_Note, "notes"), _tools_of(_Todo, "todos")
    assert notes.to_tools()[0].parameters["properties"]["item"]["required"] == ["text"]
    assert todos.to_tools()[0].parameters["properties"]["item"]["required"] == ["title"]
    assert todos.to_tools()[0].dynamic_call({"item": {"title": "x"}}) == "_Todo(title='x')"


@attrs.define
class Coins:
    value: int


def test_a_type_registered_while_a_class_is_read_is_not_missed_by_its_subclasses(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The read made under the rules before the registration was kept for the subclasses.
    from typed_toolsets.definition import classes

    read = classes.read_method
    registered: list[bool] = []

    def register_meanwhile(*args: Any, **kwargs: Any) -> Any:
        found = read(*args, **kwargs)
        if not registered:
            registered.append(True)
            register_type(
                Coins, schema={"type": "integer"}, structure=Coins, unstructure=lambda c: c.value
            )
        return found

    monkeypatch.setattr(classes, "read_method", register_meanwhile)

    class Box(Toolset):
        toolset_name = "box"

        @tool
        def put(self, amount: Coins) -> int:
            return amount.value

    class Crate(Box):
        toolset_name = "crate"

    assert Box.to_tools()[0].parameters["properties"]["amount"]["type"] == "object"
    assert Crate.to_tools()[0].parameters["properties"]["amount"] == {"type": "integer"}


def test_after_a_registration_the_inherited_methods_are_read_once_more_then_shared(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Read again for one subclass, they were read again for every later one.
    from typed_toolsets.definition import classes

    @attrs.define
    class Base(Toolset):
        toolset_name = "base"

        @tool
        def one(self, n: int) -> int:
            return n

        @tool
        def two(self, n: int) -> int:
            return n

    @attrs.define
    class Pennies:
        value: int

    register_type(Pennies, schema={"type": "integer"}, structure=Pennies, unstructure=int)
    reads: list[str] = []
    read = classes.read_method

    def counted(*args: Any, **kwargs: Any) -> Any:
        reads.append(args[1])
        return read(*args, **kwargs)

    monkeypatch.setattr(classes, "read_method", counted)
    first = type("First", (Base,), {})
    assert sorted(reads) == ["one", "two"]
    second = type("Second", (Base,), {})
    assert sorted(reads) == ["one", "two"]
    assert _methods(second)["one"] is _methods(first)["one"]
