"""The public surface: a sorted ``__all__`` of exactly the public names, loaded lazily."""

from __future__ import annotations

import enum
import importlib
import inspect
import json
import pickle
import pickletools
import subprocess
import sys
import textwrap
import typing
from collections.abc import Iterator, Mapping
from pathlib import Path

import attrs
import pytest

import typed_toolsets


def test_all_is_sorted_and_complete() -> None:
    assert typed_toolsets.__all__ == sorted(typed_toolsets.__all__)
    for name in typed_toolsets.__all__:
        assert getattr(typed_toolsets, name) is not None
    assert set(typed_toolsets.__all__) <= set(dir(typed_toolsets))


def test_unknown_attribute() -> None:
    with pytest.raises(AttributeError, match="NoSuchThing"):
        typed_toolsets.NoSuchThing  # type: ignore[attr-defined]


WATCHED = [
    "asyncio",
    "concurrent.futures",
    "attrs",
    "cattrs",
    "jsonschema",
    "typed_toolsets._toolset",
    "typed_toolsets.types.converter",
    "typed_toolsets.call.validation",
    "typed_toolsets.text",
    "typed_toolsets.github",
    "typed_toolsets.mypy",
]


def _modules_after(code: str) -> dict[str, bool]:
    script = "\n".join(
        [
            "import json, sys",
            textwrap.dedent(code),
            f"print(json.dumps({{name: name in sys.modules for name in {WATCHED!r}}}))",
        ]
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout)


def test_import_is_light() -> None:
    loaded = _modules_after("import typed_toolsets")
    assert not any(loaded.values()), loaded


def test_defining_and_calling_loads_only_what_is_needed() -> None:
    loaded = _modules_after(
        """
from typed_toolsets import Toolset, tool
class T(Toolset):
    @tool
    def f(self, *, n: int) -> int:
        return n
tools = T.to_tools()
assert tools[0].dynamic_call({"n": 1}) == 1
"""
    )
    assert loaded["attrs"]
    assert loaded["typed_toolsets._toolset"]
    # The first call of a sync tool needs neither the converter (no hook can have been
    # registered on it before it is loaded) nor asyncio or threads (no deadline).
    assert not loaded["cattrs"]
    assert not loaded["typed_toolsets.types.converter"]
    assert not loaded["asyncio"]
    assert not loaded["concurrent.futures"]
    assert not loaded["jsonschema"], "jsonschema only loads to explain invalid arguments"
    assert not loaded["typed_toolsets.text"]
    assert not loaded["typed_toolsets.github"]
    assert not loaded["typed_toolsets.mypy"]


def test_a_hook_registered_on_the_converter_is_honoured() -> None:
    # In a fresh process: the converter is global, and the hook below would change every test.
    script = """
from typed_toolsets import Toolset, tool
from typed_toolsets.types.converter import converter
converter.register_structure_hook(int, lambda value, _: value * 10)
class T(Toolset):
    @tool
    def f(self, *, n: int) -> int:
        return n
print(T.to_tools()[0].dynamic_call({"n": 2}))
"""
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "20"


def test_a_deadline_or_the_async_forms_load_what_they_need() -> None:
    loaded = _modules_after(
        """
import asyncio
from typed_toolsets import Limits, Toolset, tool
class T(Toolset):
    @tool(limits=Limits(timeout=5))
    def f(self, *, n: int) -> int:
        return n
    @tool
    def g(self, *, n: int) -> int:
        return n
bounded, free = T.to_tools()
assert bounded.dynamic_call({"n": 1}) == 1
assert asyncio.run(free.adynamic_call({"n": 1})) == 1
"""
    )
    assert loaded["concurrent.futures"]


def test_a_failing_call_loads_its_messages_but_not_jsonschema() -> None:
    loaded = _modules_after(
        """
from typed_toolsets import Toolset, tool
class T(Toolset):
    @tool
    def f(self, *, n: int) -> int:
        return n
assert T.to_tools()[0].dynamic_call({"n": "x"}).startswith("Error: ")
"""
    )
    assert loaded["typed_toolsets.call.validation"]
    # The library's own schemas are checked by its compiled checker (call.checker).
    assert not loaded["jsonschema"]


PUBLIC_CLASSES = [
    "ArgumentProblem",
    "Description",
    "ExportError",
    "Limits",
    "Problem",
    "StrictArguments",
    "ToolAnnotations",
    "ToolError",
    "ToolProxy",
    "ToolResult",
    "ToolSpec",
    "Toolset",
    "ToolsetDefinitionError",
    "TypedToolsetsError",
]


@pytest.mark.parametrize("name", PUBLIC_CLASSES)
def test_public_classes_name_the_package(name: str) -> None:
    cls = getattr(typed_toolsets, name)
    assert cls.__module__ == "typed_toolsets"
    assert repr(cls) == f"<class 'typed_toolsets.{name}'>"


def test_every_public_class_is_listed() -> None:
    classes = {n for n in typed_toolsets.__all__ if isinstance(getattr(typed_toolsets, n), type)}
    assert classes == set(PUBLIC_CLASSES)


@pytest.mark.parametrize("name", PUBLIC_CLASSES)
def test_annotations_of_public_classes_still_resolve(name: str) -> None:
    cls = getattr(typed_toolsets, name)
    hints = typing.get_type_hints(cls, include_extras=True)
    assert all(not isinstance(h, (str, typing.ForwardRef)) for h in hints.values()), hints
    if attrs.has(cls):
        attrs.resolve_types(cls)
        assert all(not isinstance(f.type, str) for f in attrs.fields(cls))


def test_annotations_resolve_before_anything_else_is_loaded() -> None:
    # ToolProxy's `toolset: Toolset` names a class the package loads lazily.
    loaded = _modules_after(
        """
import typing
from typed_toolsets import ToolProxy, ToolResult
assert "typed_toolsets._toolset" not in sys.modules
hints = typing.get_type_hints(ToolProxy)
assert hints["toolset"].__name__ == "Toolset", hints
assert typing.get_type_hints(ToolResult)["error"] is not None
"""
    )
    assert loaded["typed_toolsets._toolset"]


def test_a_subclass_in_a_module_with_string_annotations(tmp_path: Path) -> None:
    (tmp_path / "user_toolsets.py").write_text(
        textwrap.dedent(
            """
            from __future__ import annotations

            import attrs
            from typed_toolsets import Limits, Toolset, tool

            @attrs.define
            class Configured(Toolset):
                prefix: str = "p"
                limits = Limits()

                @tool
                def echo(self, *, text: str) -> str:
                    return self.prefix + text
            """
        )
    )
    sys.path.insert(0, str(tmp_path))
    try:
        import user_toolsets  # type: ignore[import-not-found]  # written just above
    finally:
        sys.path.remove(str(tmp_path))
    hints = typing.get_type_hints(user_toolsets.Configured)
    assert hints["prefix"] is str
    assert hints["limits"] == typing.ClassVar[typed_toolsets.Limits]
    attrs.resolve_types(user_toolsets.Configured)
    assert attrs.fields(user_toolsets.Configured).prefix.type is str


@pytest.mark.parametrize(
    "value",
    [
        typed_toolsets.ToolResult.success([1, "a"]),
        typed_toolsets.ToolResult.failure(
            typed_toolsets.ToolError(
                "t", "arguments", "m", (typed_toolsets.ArgumentProblem("$.a", "bad"),)
            )
        ),
        typed_toolsets.Limits(max_depth=3, timeout=1.5),
        typed_toolsets.tool("f", tool_name="g", description="d"),
        typed_toolsets.Description("text"),
    ],
)
def test_public_values_pickle_by_their_public_name(value: object) -> None:
    data = pickle.dumps(value)
    strings = {arg for _, arg, _ in pickletools.genops(data) if isinstance(arg, str)}
    assert {"typed_toolsets", type(value).__name__} <= strings
    assert not any(s.startswith("typed_toolsets.") for s in strings)
    assert pickle.loads(data) == value  # noqa: S301 - the bytes pickled just above


def test_public_exceptions_pickle() -> None:
    data = pickle.dumps(typed_toolsets.TypedToolsetsError("boom"))
    error = pickle.loads(data)  # noqa: S301 - the bytes pickled just above
    assert type(error) is typed_toolsets.TypedToolsetsError
    assert error.args == ("boom",)
    with pytest.raises(typed_toolsets.ToolsetDefinitionError) as raised:

        class Broken(typed_toolsets.Toolset):
            exports = (typed_toolsets.tool("missing"),)

    data = pickle.dumps(raised.value)
    definition = pickle.loads(data)  # noqa: S301 - the bytes pickled just above
    assert type(definition) is typed_toolsets.ToolsetDefinitionError
    assert definition.problems == raised.value.problems
    assert str(definition) == str(raised.value)


def test_error_kind_and_arguments_are_public() -> None:
    assert typing.get_args(typed_toolsets.ErrorKind) == (
        "arguments",
        "execution",
        "timeout",
        "limit",
    )
    assert set(typing.get_args(typed_toolsets.Arguments)) == {
        Mapping[str, object],
        str,
        bytes,
        type(None),
        typed_toolsets.StrictArguments,
    }


#: The public classes of the subpackages, by the subpackage users import them from.
SUBPACKAGE_CLASSES = (
    [
        ("typed_toolsets.agent", name)
        for name in (
            "AgentError",
            "AgentResult",
            "DeadlineExceededError",
            "MaxIterationsError",
            "ReAct",
            "ScriptedModel",
            "Step",
            "Transcript",
            "Turn",
        )
    ]
    + [
        ("typed_toolsets.testing", name)
        for name in ("NearMiss", "NoStrategyError", "ToolsetCheckError")
    ]
    + [("typed_toolsets.server", name) for name in ("BearerAuth", "DaemonThreads")]
    # The errors both built-in toolsets raise keep their shared module (test_builtins_security).
    + [("typed_toolsets.text", "TextProcessingToolset")]
    + [("typed_toolsets.github", name) for name in ("GitHubCLIToolset", "IssueState", "PRState")]
)


@pytest.mark.parametrize(("package", "name"), SUBPACKAGE_CLASSES)
def test_subpackage_classes_name_their_subpackage(package: str, name: str) -> None:
    # Tracebacks said typed_toolsets.testing._check.ToolsetCheckError, a module users never
    # import; the annotations still resolve where they were written.
    cls = getattr(importlib.import_module(package), name)
    assert (cls.__module__, cls.__qualname__) == (package, name)
    if not issubclass(cls, enum.Enum):  # an enum's repr names it alone: <enum 'IssueState'>
        assert repr(cls) == f"<class '{package}.{name}'>"
    hints = typing.get_type_hints(cls, include_extras=True)
    assert all(not isinstance(h, (str, typing.ForwardRef)) for h in hints.values()), hints


def test_every_subpackage_class_is_listed() -> None:
    homes = {name: package for package, name in SUBPACKAGE_CLASSES}
    for package in (
        "typed_toolsets.agent",
        "typed_toolsets.testing",
        "typed_toolsets.server",
        "typed_toolsets.text",
        "typed_toolsets.github",
    ):
        module = importlib.import_module(package)
        for name in module.__all__:
            value = getattr(module, name)
            # A type alias (`Approve = Callable[...]`) is an instance of type on Python 3.10.
            is_class = isinstance(value, type) and typing.get_origin(value) is None
            if is_class and value.__module__ not in (
                "typed_toolsets",
                "typed_toolsets.builtins.exceptions",
            ):
                assert value.__module__ == homes.get(name), name


def test_subpackage_errors_pickle_by_their_public_name() -> None:
    from typed_toolsets.agent import MaxIterationsError
    from typed_toolsets.testing import ToolsetCheckError

    checked = ToolsetCheckError("T", "t_f", "x", "not accepted", {"x": 1})
    for error in (MaxIterationsError((), 3), checked):
        data = pickle.dumps(error)
        strings = {arg for _, arg, _ in pickletools.genops(data) if isinstance(arg, str)}
        assert type(error).__module__ in strings
        assert not any(".agent." in s or "._" in s for s in strings)
        again = pickle.loads(data)  # noqa: S301 - the bytes pickled just above
        assert (type(again), str(again)) == (type(error), str(error))


def _public_callables(package: str) -> Iterator[tuple[str, object]]:
    """Each public function of *package*, and each public method of its public classes."""
    module = importlib.import_module(package)
    for name in module.__all__:
        value = getattr(module, name)
        if inspect.isfunction(value):
            yield name, value
        elif isinstance(value, type):
            for attribute, member in vars(value).items():
                if attribute.startswith("_") and attribute not in ("__init__", "__call__"):
                    continue
                if isinstance(member, (staticmethod, classmethod)):
                    member = member.__func__
                elif isinstance(member, property):
                    member = member.fget
                if inspect.isfunction(member):
                    yield f"{name}.{attribute}", member


def test_the_annotations_of_the_public_functions_resolve() -> None:
    # `register_type`'s strategy was a string alias joined with `| None`, which cannot be
    # evaluated (frameworks and documentation tools read the hints at run time).
    hints = typing.get_type_hints(typed_toolsets.register_type)
    assert hints["strategy"] is not None


@pytest.mark.parametrize(
    "package",
    [
        "typed_toolsets",
        "typed_toolsets.testing",
        "typed_toolsets.agent",
        "typed_toolsets.export",
        "typed_toolsets.server",
    ],
)
def test_the_annotations_of_the_public_callables_resolve(package: str) -> None:
    # `Toolset.proxy` and the testing strategies named `ToolProxy`, the agent's errors `Step`,
    # imported for type checkers only (get_type_hints raised NameError); `ReAct` named string
    # aliases joined with `| None` (TypeError).
    found = dict(_public_callables(package))
    assert found
    unresolved: dict[str, str] = {}
    for name, function in found.items():
        try:
            hints = typing.get_type_hints(function)
        except (NameError, TypeError) as exc:
            unresolved[name] = repr(exc)
        else:
            if any(isinstance(h, (str, typing.ForwardRef)) for h in hints.values()):
                unresolved[name] = repr(hints)
    assert unresolved == {}
    if package == "typed_toolsets":
        hints = typing.get_type_hints(typed_toolsets.Toolset.proxy)
        assert typing.get_origin(hints["return"]) is typed_toolsets.ToolProxy
