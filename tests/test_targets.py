"""Loading the Toolset classes a command-line target names (`typed_toolsets.analysis.targets`)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from typed_toolsets import ToolsetDefinitionError
from typed_toolsets.analysis.check import run_check
from typed_toolsets.analysis.targets import TargetError, load_module, load_toolsets, split_target

TOOLS = """\
from typed_toolsets import Toolset, tool


class First(Toolset):
    @tool
    def ping(self) -> str:
        return "pong"


class Holder:
    class Second(Toolset):
        @tool
        def echo(self, *, text: str) -> str:
            return text
"""

BROKEN = """\
from typed_toolsets import Toolset, tool


class Broken(Toolset):
    exports = (tool("missing"),)


class After(Toolset):
    pass
"""


def _refused(target: str) -> str:
    """The message of the usage error *target* is."""
    with pytest.raises(TargetError) as caught:
        load_toolsets(target)
    return str(caught.value)


def _write(directory: Path, name: str, source: str) -> Path:
    path = directory / name
    path.write_text(textwrap.dedent(source), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("target", "parts"),
    [
        ("pkg.mod", ("pkg.mod", None)),
        ("pkg.mod:Outer.Inner", ("pkg.mod", "Outer.Inner")),
        ("dir/file.py:Cls", ("dir/file.py", "Cls")),
        ("C:\\dir\\file.py", ("C:\\dir\\file.py", None)),
        ("C:\\dir\\file.py:Cls", ("C:\\dir\\file.py", "Cls")),
        # Python's identifiers: a class name that starts with a letter outside ASCII too.
        ("werkzeuge:Инструменты", ("werkzeuge", "Инструменты")),
        ("mod:Éclair.Café", ("mod", "Éclair.Café")),
        ("mod:Class-Name", ("mod:Class-Name", None)),
        ("mod:Outer.", ("mod:Outer.", None)),
    ],
)
def test_split_target(target: str, parts: tuple[str, str | None]) -> None:
    assert split_target(target) == parts


def test_module_class_and_path_targets(workdir: Path) -> None:
    path = _write(workdir, "tools_mod.py", TOOLS)
    assert [c.__qualname__ for c in load_toolsets("tools_mod")] == ["First", "Holder.Second"]
    assert [c.__qualname__ for c in load_toolsets("tools_mod:Holder.Second")] == ["Holder.Second"]
    assert [c.__qualname__ for c in load_toolsets(f"{path}:First")] == ["First"]
    with pytest.raises(TargetError, match="tools_mod has no Toolset class 'Nope'"):
        load_toolsets("tools_mod:Nope")
    with pytest.raises(TargetError, match="no such file"):
        load_toolsets("missing_file.py")


def test_a_mistyped_class_name_is_told_the_classes_there_are(workdir: Path) -> None:
    _write(workdir, "named_mod.py", TOOLS)
    assert _refused("named_mod:Frist") == (
        "named_mod:Frist: named_mod has no Toolset class 'Frist'; did you mean 'First'?"
    )
    assert _refused("named_mod:Zzz") == (
        "named_mod:Zzz: named_mod has no Toolset class 'Zzz'; its Toolset classes are "
        "First, Holder.Second"
    )
    assert _refused("named_mod:Holder") == (
        "named_mod:Holder: named_mod has no Toolset class 'Holder' (it is a class, not a "
        "Toolset); did you mean 'Holder.Second'?"
    )


def test_a_class_named_with_a_dot_is_told_to_use_a_colon(workdir: Path) -> None:
    _write(workdir, "dotted_mod.py", TOOLS)
    assert _refused("dotted_mod.First") == (
        "cannot import 'dotted_mod.First': ModuleNotFoundError: No module named "
        "'dotted_mod.First'; 'dotted_mod' is not a package; First is a Toolset class of "
        "dotted_mod: write dotted_mod:First"
    )
    with pytest.raises(TargetError) as caught:
        load_toolsets("dotted_mod.Nope")
    assert "write" not in str(caught.value)


ABSTRACT = """\
import abc

from typed_toolsets import Toolset, tool


class Base(Toolset, abc.ABC):
    @abc.abstractmethod
    def helper(self) -> int: ...

    @tool
    def add(self, *, x: int) -> int:
        return x + self.helper()
"""


def test_an_abstract_base_is_left_out_of_its_module_and_refused_by_name(workdir: Path) -> None:
    concrete = (
        ABSTRACT + "\n\nclass Concrete(Base):\n    def helper(self) -> int:\n        return 1\n"
    )
    _write(workdir, "abstract_base_mod.py", concrete)
    assert [c.__qualname__ for c in load_toolsets("abstract_base_mod")] == ["Concrete"]
    assert _refused("abstract_base_mod:Base") == (
        "abstract_base_mod:Base: Base is abstract (it does not implement helper), so it "
        "cannot be built; name a subclass that implements them"
    )
    _write(workdir, "only_abstract_mod.py", ABSTRACT)
    assert _refused("only_abstract_mod") == (
        "only_abstract_mod: every Toolset class only_abstract_mod defines is abstract (Base); "
        "define a subclass that implements their abstract methods, and name it"
    )


def test_a_module_getattr_that_raises_is_a_name_the_module_lacks(workdir: Path) -> None:
    # PEP 562: a module's own __getattr__ may raise anything for a name it does not have
    # (here for __all__, a mistyped class and a dotted one).
    source = TOOLS + (
        "\n\ndef __getattr__(name: str) -> object:\n"
        "    raise ImportError(f'optional dependency for {name} missing')\n"
    )
    _write(workdir, "lazy_mod.py", source)
    assert [c.__qualname__ for c in load_toolsets("lazy_mod")] == ["First", "Holder.Second"]
    assert _refused("lazy_mod:Nope") == (
        "lazy_mod:Nope: lazy_mod has no Toolset class 'Nope'; its Toolset classes are "
        "First, Holder.Second"
    )
    with pytest.raises(TargetError, match=r"cannot import 'lazy_mod\.First'"):
        load_toolsets("lazy_mod.First")


def test_definition_errors_propagate_or_are_collected(workdir: Path) -> None:
    _write(workdir, "broken_targets.py", BROKEN)
    with pytest.raises(ToolsetDefinitionError) as caught:
        load_toolsets("broken_targets")
    assert [p.code for p in caught.value.problems] == ["toolset-unknown-method"]
    loaded = load_module("broken_targets")
    assert [p.toolset for f in loaded.failures for p in f.problems] == ["Broken"]
    assert loaded.module is not None
    assert hasattr(loaded.module, "After")  # the statements after the broken class ran


def test_check_reports_tool_argument_errors_at_the_call(workdir: Path) -> None:
    _write(
        workdir,
        "bad_tool_call.py",
        """\
        from typed_toolsets import Toolset, tool


        class T(Toolset):
            exports = (tool("x", tool_name=5),)

            def x(self) -> None: ...
        """,
    )
    (finding,) = run_check(["bad_tool_call"]).findings
    assert (finding.line, finding.code, finding.toolset, finding.method) == (
        5,
        "toolset-invalid-name",
        None,
        "x",
    )
    assert finding.format().endswith(
        ":5: error: tool(): `tool_name` must be a str or None (got 5)  [toolset-invalid-name]"
    )


def _toolset_file(directory: Path, name: str, class_name: str, body: str = "") -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    source = f"""\
        from typed_toolsets import Toolset, tool
        {body}

        class {class_name}(Toolset):
            @tool
            def where(self) -> str:
                return __file__
        """
    return _write(directory, name, source)


def test_each_file_target_is_loaded_from_its_own_path(workdir: Path) -> None:
    # Two files with one base name, and one named as a standard module already imported.
    first = _toolset_file(workdir / "a", "tools.py", "AToolset")
    second = _toolset_file(workdir / "c", "tools.py", "CToolset")
    shadow = _toolset_file(workdir / "sub", "json.py", "JsonToolset")
    for path, name in [(first, "AToolset"), (second, "CToolset"), (shadow, "JsonToolset")]:
        (cls,) = load_toolsets(str(path))
        assert cls.__name__ == name
        assert cls.to_tools()[0].call() == str(path)
    # The same file named twice is loaded once.
    assert load_toolsets(f"{first}:AToolset") == load_toolsets(str(first))
    import json

    assert json.__file__ != str(shadow)


def test_check_reads_every_file_with_one_base_name(workdir: Path) -> None:
    _toolset_file(workdir / "a", "tools.py", "AToolset")
    (workdir / "c").mkdir()
    _write(workdir / "c", "tools.py", BROKEN)
    result = run_check([str(workdir / "a" / "tools.py"), str(workdir / "c" / "tools.py")])
    assert [(Path(f.path).parent.name, f.code) for f in result.findings] == [
        ("c", "toolset-unknown-method")
    ]


def test_a_file_target_still_imports_its_siblings_and_a_package_file_its_package(
    workdir: Path,
) -> None:
    tools = _toolset_file(workdir / "a", "tools.py", "AToolset", "from helper import GREETING")
    _write(workdir / "a", "helper.py", "GREETING = 'hi'\n")
    (workdir / "pkg").mkdir()
    _write(workdir / "pkg", "__init__.py", "")
    _write(workdir / "pkg", "helper.py", "GREETING = 'hi'\n")
    member = _toolset_file(
        workdir / "pkg", "tools.py", "PkgToolset", "from .helper import GREETING"
    )
    assert [c.__name__ for c in load_toolsets(str(tools))] == ["AToolset"]
    (cls,) = load_toolsets(str(member))
    assert cls.__module__ == "pkg.tools"


@pytest.mark.parametrize(
    ("prefix", "encoding"),
    [(b"\xef\xbb\xbf", "utf-8"), (b"# -*- coding: latin-1 -*-\n", "latin-1")],
    ids=["byte-order-mark", "coding-line"],
)
def test_a_file_is_read_as_python_decodes_it(workdir: Path, prefix: bytes, encoding: str) -> None:
    # Read as plain UTF-8, a BOM made the parser refuse it (findings on line 0, the call sites
    # not looked at) and a Latin-1 file could not be read.
    source = textwrap.dedent(
        """\
        import attrs
        from typed_toolsets import Toolset, tool

        # caf\u00e9
        class Broken(Toolset):
            exports = (tool("g"),)

        @attrs.define
        class Needs(Toolset):
            url: str

        def main() -> None:
            Needs.to_tools()
        """
    )
    lines = prefix.count(b"\n")
    (workdir / "decoded.py").write_bytes(prefix + source.encode(encoding))
    findings = run_check([str(workdir / "decoded.py")]).findings
    # Each where the file has it: the declaration, the call.
    assert sorted((f.line - lines, f.code) for f in findings) == [
        (6, "toolset-unknown-method"),
        (13, "toolset-init"),
    ]


@pytest.mark.parametrize(
    "after",
    [
        'TOOLS = REGISTRY["Broken"].to_tools()',  # a registry the failed class never joined
        "raise SystemExit(0)",
        'raise RuntimeError("configuration missing")',
    ],
)
def test_what_fails_after_a_failed_class_does_not_hide_it(workdir: Path, after: str) -> None:
    # The import stopped at the class; run again statement by statement, a later statement
    # that fails (perhaps because of it) ends the run, and the class's problem is reported.
    _write(
        workdir,
        "registry_mod.py",
        f"""\
        from typed_toolsets import Toolset, tool

        REGISTRY = {{}}


        def register(cls):
            REGISTRY[cls.__name__] = cls
            return cls


        @register
        class Broken(Toolset):
            exports = (tool("serch"),)

            def search(self, *, q: str) -> str:
                return q


        {after}
        """,
    )
    (finding,) = run_check(["registry_mod"]).findings
    assert (finding.code, finding.line) == ("toolset-unknown-method", 13)


def test_a_module_nested_past_the_recursion_limit_is_checked(workdir: Path) -> None:
    # One expression of 1,200 operands and an `elif` chain of 1,200 branches: Python compiles
    # them, and the walks of the source (classes and functions, `to_tools()` call sites) ran
    # out of stack on them (a traceback, exit 1).
    terms = " | ".join(f"(1 << {i % 60})" for i in range(1200))
    branches = "".join(f"    elif n == {i}:\n        return {i}\n" for i in range(1, 1200))
    chain = f"def pick(n):\n    if n == 0:\n        return 0\n{branches}    return -1\n"
    source = TOOLS + f"\n\nMASK = {terms}\n\n\n{chain}\n\nFirst.to_tools()\n"
    (workdir / "deep_mod.py").write_text(source, encoding="utf-8")
    result = run_check(["deep_mod"])
    assert result.findings == ()
    assert len(result.classes) == 2  # First and Holder.Second


def test_a_list_of_ones_own_messages_raised_is_a_finding(workdir: Path) -> None:
    _write(
        workdir,
        "own_list_mod.py",
        """\
        from typed_toolsets import Toolset, ToolsetDefinitionError


        class Base(Toolset):
            def __init_subclass__(cls, **kwargs: object) -> None:
                super().__init_subclass__(**kwargs)
                raise ToolsetDefinitionError(["Plugins must set a name", "and a version"])


        class Plugin(Base):
            pass
        """,
    )
    (finding,) = run_check(["own_list_mod"]).findings
    assert (finding.code, finding.toolset, finding.line) == ("toolset-raised", "Plugin", 7)
    assert "Plugins must set a name\nand a version" in finding.format()


@pytest.mark.parametrize("given", ["file", "module", "package"])
def test_a_package_importing_its_failing_module_is_a_finding(workdir: Path, given: str) -> None:
    # Finding the module imported its package, whose __init__ imports the module: the
    # definition error escaped `check` as a traceback.
    package = workdir / f"reexporting_{given}"
    package.mkdir()
    _write(package, "__init__.py", f"from reexporting_{given}.tools import Broken\n")
    _write(package, "tools.py", BROKEN)
    target = {
        "file": str(package / "tools.py"),
        "module": f"reexporting_{given}.tools",
        "package": f"reexporting_{given}",
    }[given]
    (finding,) = run_check([target]).findings
    assert (finding.code, finding.toolset, finding.line) == ("toolset-unknown-method", "Broken", 5)
    assert Path(finding.path).name == "tools.py"


def test_a_package_importing_its_failing_module_has_each_class_checked(workdir: Path) -> None:
    # Found as the package would have imported it, only the first class was reported.
    package = workdir / "reexporting_two"
    package.mkdir()
    _write(package, "__init__.py", "from reexporting_two.tools import Broken\n")
    _write(
        package, "tools.py", BROKEN + "\n\nclass Again(Toolset):\n    exports = (tool('gone'),)\n"
    )
    findings = run_check(["reexporting_two.tools"]).findings
    assert [(f.toolset, f.code) for f in findings] == [
        ("Broken", "toolset-unknown-method"),
        ("Again", "toolset-unknown-method"),
    ]
