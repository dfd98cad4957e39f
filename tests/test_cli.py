"""``typed-toolsets check``: targets, exit statuses, output, and findings on the right lines."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from typed_toolsets.cli.main import main

BROKEN = """\
import attrs

from typed_toolsets import Toolset, tool


class First(Toolset):
    exports = (tool("asign"),)

    def assign(self, *, task_id: str) -> str:
        return task_id


class Fine(Toolset):
    @tool
    def ping(self) -> str:
        return "pong"


class Second(Toolset):
    @tool
    def run(self, *args: int) -> None: ...


@attrs.define
class NeedsDb(Toolset):
    db_url: str

    @tool
    def query(self, *, sql: str) -> int:
        return len(sql)


def build() -> None:
    NeedsDb.to_tools()
    NeedsDb(db_url="x").to_tools()
    Fine.to_tools()


def shadowed(NeedsDb: type[Fine]) -> None:
    NeedsDb.to_tools()
"""

CLEAN = """\
import enum

from typed_toolsets import Toolset, tool


class Color(str, enum.Enum):
    RED = "red"


class Paint(Toolset):
    @tool
    def paint(self, *, color: Color | str) -> str:
        return str(color)

    @tool
    def mix(self, *, a: Color, b: Color | None = None) -> str:
        return a.value
"""


Write = Callable[[str, str], Path]


@pytest.fixture
def write(workdir: Path) -> Write:
    def write(name: str, source: str) -> Path:
        path = workdir / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(source), encoding="utf-8")
        return path

    return write


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[str], str]:
    status = main(["check", *args])
    captured = capsys.readouterr()
    return status, captured.out.splitlines(), captured.err


def test_every_broken_class_of_a_module_is_reported_on_its_line(
    write: Write, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write("broken_mod.py", BROKEN)
    status, out, err = run(capsys, str(path))
    assert (status, err) == (1, "")
    # As mypy shows them: relative to the current directory, for a file inside it.
    assert out == [
        (
            "broken_mod.py:7: error: First.asign: First has no method 'asign' to export; did you "
            "mean 'assign'?  [toolset-unknown-method]"
        ),
        (
            "broken_mod.py:21: error: Second.run: '*args' is not supported; declare keyword "
            "parameters instead  [toolset-signature]"
        ),
        (
            "broken_mod.py:34: error: NeedsDb: NeedsDb.to_tools() calls NeedsDb() with no arguments, "
            "but the constructor needs 'db_url'; give each a default, or call to_tools() on an "
            "instance  [toolset-init]"
        ),
        "Found 3 problems in 1 file (checked 4 toolsets)",
    ]


def test_a_class_whose_base_skips_init_subclass_is_checked(
    write: Write, capsys: pytest.CaptureFixture[str]
) -> None:
    # Its base's __init_subclass__ does not call super(): it had no checks ("Success").
    path = write(
        "registry_mod.py",
        """\
        from typed_toolsets import Toolset, tool


        class Registry(Toolset):
            def __init_subclass__(cls, **kwargs: object) -> None:
                pass


        class Skips(Registry):
            exports = (tool("nope"),)
        """,
    )
    status, out, err = run(capsys, str(path))
    assert (status, err) == (1, "")
    assert out == [
        (
            "registry_mod.py:10: error: Skips.nope: Skips has no method 'nope' to export  "
            "[toolset-unknown-method]"
        ),
        "Found 1 problem in 1 file (checked 2 toolsets)",
    ]


def test_a_forward_reference_beside_another_problem_of_its_method_is_checked(
    write: Write, capsys: pytest.CaptureFixture[str]
) -> None:
    # `p` names a class defined later, and `q` has a bad default: only q's problem was told
    # (p's appeared once q was fixed), while the plugin tells both at once.
    path = write(
        "forward_mod.py",
        """\
        from __future__ import annotations

        import attrs

        from typed_toolsets import Toolset, tool


        class Top(Toolset):
            @tool
            def both(self, *, p: Point, q: int = True) -> None: ...


        @attrs.define
        class Point:
            cb: bytes = b""
        """,
    )
    status, out, err = run(capsys, str(path))
    assert (status, err) == (1, "")
    # In the parameters' order, as the plugin tells them (once the module has run, p is read
    # where it stands in the method).
    assert out == [
        (
            "forward_mod.py:10: error: Top.both: parameter 'p' has type Point, which has no JSON "
            "Schema (field Point.cb: bytes cannot be sent as JSON; use str (for example base64 "
            "text))  [toolset-param-type]"
        ),
        (
            "forward_mod.py:10: error: Top.both: parameter 'q' has the default True, which is "
            "not a valid int (True is not an int)  [toolset-signature]"
        ),
        "Found 2 problems in 1 file (checked 1 toolset)",
    ]


def test_a_problem_of_the_exports_value_is_told_on_its_line(
    write: Write, capsys: pytest.CaptureFixture[str]
) -> None:
    # It was told on the class line; mypy reports the assignment's type on the exports line.
    path = write(
        "exports_mod.py",
        """\
        from typed_toolsets import Toolset, tool


        class One(Toolset):
            exports = (tool("a"))

            def a(self) -> None: ...
        """,
    )
    status, out, _ = run(capsys, str(path))
    assert status == 1
    assert out[0].startswith("exports_mod.py:5: error: One: `exports` is one tool('a') declaration")


def test_an_exported_method_deleted_after_its_class_is_told_on_its_declaration(
    write: Write, capsys: pytest.CaptureFixture[str]
) -> None:
    # to_tools() raised a bare AttributeError, while check said Success.
    path = write(
        "deleted_mod.py",
        """\
        from typed_toolsets import Toolset, tool


        class Gone(Toolset):
            @tool
            def f(self) -> None: ...

            @tool
            def g(self) -> None: ...


        del Gone.f
        """,
    )
    status, out, err = run(capsys, str(path))
    assert (status, err) == (1, "")
    assert out == [
        (
            "deleted_mod.py:5: error: Gone.f: Gone exports 'f', but the method was deleted after "
            "the class was defined; define it again, or remove its declaration (its @tool, or "
            "its tool(...) in `exports`)  [toolset-unknown-method]"
        ),
        "Found 1 problem in 1 file (checked 1 toolset)",
    ]


def test_thousands_of_exports_and_their_findings_are_checked_in_linear_time(
    write: Write, capsys: pytest.CaptureFixture[str]
) -> None:
    # Each export looked up its declaring class, and each finding its declaration's line and
    # whether it was found already, in a scan: 8,000 exports, each with an ambiguous union,
    # took over 20 s to check (about 6 s now, most of it Python compiling and running them).
    count = 8_000
    exports = "".join(f"        tool('m{i}'),\n" for i in range(count))
    methods = "".join(f"    def m{i}(self, *, c: Color | str) -> None: ...\n" for i in range(count))
    path = write("many_mod.py", "")
    path.write_text(
        "import enum\n\nfrom typed_toolsets import Toolset, tool\n\n\n"
        "class Color(str, enum.Enum):\n    RED = 'red'\n\n\n"
        f"class Many(Toolset):\n    exports = (\n{exports}    )\n{methods}",
        encoding="utf-8",
    )
    started = time.perf_counter()
    status, out, _ = run(capsys, str(path))
    assert time.perf_counter() - started < 12.0
    assert status == 1
    assert out[-1] == f"Found {count} problems in 1 file (checked 1 toolset)"
    assert out[0].startswith(f"many_mod.py:{13 + count}: warning: Many.m0: parameter 'c' has")


def test_a_problem_of_an_exports_item_is_told_on_the_item_s_line(
    write: Write, capsys: pytest.CaptureFixture[str]
) -> None:
    # They were told on the last assignment of `exports`: here the `+=` line, for both.
    path = write(
        "items_mod.py",
        """\
        from typed_toolsets import Toolset, tool


        class Items(Toolset):
            exports = (
                tool("f"),
                "g",
            )
            exports += (
                tool("h"),
                len,
            )

            def f(self) -> None: ...

            def g(self) -> None: ...

            def h(self) -> None: ...
        """,
    )
    status, out, _ = run(capsys, str(path))
    assert status == 1
    assert out == [
        (
            "items_mod.py:7: error: Items: `exports` contains 'g', not a tool(...) declaration  "
            "[toolset-unknown-method]"
        ),
        (
            "items_mod.py:11: error: Items: `exports` contains <built-in function len>, not a "
            'tool(...) declaration (use tool("name"), not the method itself)  '
            "[toolset-unknown-method]"
        ),
        "Found 2 problems in 1 file (checked 1 toolset)",
    ]


def test_classes_of_one_name_are_counted_each(
    write: Write, capsys: pytest.CaptureFixture[str]
) -> None:
    # Counted by name, the three were one toolset.
    one = write(
        "one_mod.py",
        """\
        from typed_toolsets import Toolset, tool


        class Fine(Toolset):
            @tool
            def f(self) -> None: ...
        """,
    )
    two = write(
        "two_mod.py",
        """\
        from typed_toolsets import Toolset, tool


        class Fine(Toolset):
            @tool
            def g(self) -> None: ...


        def make() -> type[Toolset]:
            class Fine(Toolset):
                @tool
                def h(self) -> None: ...

            return Fine


        Made = make()
        """,
    )
    status, out, _ = run(capsys, str(one), str(two))
    assert (status, out) == (0, ["Success: no problems found in 3 toolsets"])


def test_names_still_undefined_beside_an_annotation_that_cannot_be_evaluated_are_told(
    write: Write, capsys: pytest.CaptureFixture[str]
) -> None:
    # Only `b` was told: its error hid the names of `a` and `c`, which the plugin tells (mypy,
    # not the plugin, reports `b`).
    path = write(
        "typing_only_mod.py",
        """\
        from __future__ import annotations

        from typing import TYPE_CHECKING

        from typed_toolsets import Toolset, tool

        if TYPE_CHECKING:
            from enum import Enum as Priority


        class Tasks(Toolset):
            @tool
            def f(
                self,
                *,
                a: Priority,
                b: "int + str",
                c: Priority,
            ) -> None: ...
        """,
    )
    status, out, err = run(capsys, str(path))
    assert (status, err) == (1, "")
    unresolved = (
        "an annotation names 'Priority', which Python cannot find when it resolves the "
        "annotation; define or import it at the module's top level (an import under `if "
        "TYPE_CHECKING:` or a name inside a function is not enough)  [toolset-param-type]"
    )
    assert out == [
        f"typing_only_mod.py:16: error: Tasks.f: parameter 'a': {unresolved}",
        (
            "typing_only_mod.py:17: error: Tasks.f: parameter 'b': the annotation \"'int + str'\" "
            "could not be evaluated (TypeError: unsupported operand type(s) for +: 'type' and "
            "'type')  [toolset-param-type]"
        ),
        f"typing_only_mod.py:18: error: Tasks.f: parameter 'c': {unresolved}",
        "Found 3 problems in 1 file (checked 1 toolset)",
    ]


def test_names_still_undefined_beside_any_other_problem_are_told_in_one_run(
    write: Write, capsys: pytest.CaptureFixture[str]
) -> None:
    # Only `z` was told (a type with no schema hid the names of `x` and `w`, told once it was
    # fixed); the plugin tells all three, in the parameters' order, and so does check now.
    path = write(
        "hidden_names_mod.py",
        """\
        from __future__ import annotations

        from typing import TYPE_CHECKING

        from typed_toolsets import Toolset, tool

        if TYPE_CHECKING:
            from uuid import UUID


        class Ids(Toolset):
            @tool
            def f(self, *, x: UUID, z: object, w: Nowhere) -> None: ...
        """,
    )
    status, out, err = run(capsys, str(path))
    assert (status, err) == (1, "")
    where = (
        "which Python cannot find when it resolves the annotation; define or import it at the "
        "module's top level (an import under `if TYPE_CHECKING:` or a name inside a function is "
        "not enough)  [toolset-param-type]"
    )
    assert out == [
        f"hidden_names_mod.py:13: error: Ids.f: parameter 'x': an annotation names 'UUID', {where}",
        (
            "hidden_names_mod.py:13: error: Ids.f: parameter 'z' has type object, which has no "
            "JSON Schema (object has no JSON Schema; use a concrete type)  [toolset-param-type]"
        ),
        f"hidden_names_mod.py:13: error: Ids.f: parameter 'w': an annotation names 'Nowhere', {where}",
        "Found 3 problems in 1 file (checked 1 toolset)",
    ]


def test_statements_needing_a_failed_class_are_skipped_and_others_still_fail(
    write: Write, capsys: pytest.CaptureFixture[str]
) -> None:
    # Run again statement by statement after a class failed: what needs that class is skipped,
    # and anything else that raises ends the run there (it was swallowed once), the class that
    # failed before it reported: the import never got that far.
    head = """\
        from typed_toolsets import Limits, Toolset, tool


        class First(Toolset):
            exports = (tool("missing"),)


        ALIAS = First
        TOOLS = ALIAS.to_tools()
        """
    tail = """\


        class Last(Toolset):
            @tool
            def op(self, *, data: bytes) -> int:
                return 1
        """
    path = write("skips_mod.py", head + tail)
    status, out, err = run(capsys, str(path))
    assert (status, err) == (1, "")
    assert [line.split(": error: ")[-1].split(":")[0] for line in out[:-1]] == [
        "First.missing",
        "Last.op",
    ]
    write("fails_mod.py", head + "\n        RESULT = int('not a number')\n" + tail)
    status, out, err = run(capsys, "fails_mod")
    assert (status, err) == (1, "")
    assert [line.split(": error: ")[-1].split(":")[0] for line in out[:-1]] == ["First.missing"]
    assert out[-1] == "Found 1 problem in 1 file (checked 1 toolset)"


def test_a_proxy_of_an_unexported_method_made_at_import_is_reported_at_the_call(
    write: Write, capsys: pytest.CaptureFixture[str]
) -> None:
    # As the plugin reports it, and as a `Cls.to_tools()` that runs while importing: the call
    # that raised is the mistake, not the class (which is fine).
    path = write(
        "proxy_mod.py",
        """\
        from typed_toolsets import Toolset, tool


        class Catalog(Toolset):
            @tool
            def search(self, *, query: str) -> list[str]:
                return [query]

            def helper(self) -> None: ...


        SEARCH = Toolset.proxy(Catalog().helper)
        """,
    )
    status, out, _ = run(capsys, str(path))
    assert status == 1
    assert out[0].startswith(
        "proxy_mod.py:12: error: Catalog.helper: 'helper' is not exported as a tool"
    )


def test_a_clean_module_passes_with_warnings_for_ambiguous_unions(
    write: Write, capsys: pytest.CaptureFixture[str]
) -> None:
    write("clean_mod.py", CLEAN)
    status, out, _ = run(capsys, "clean_mod")
    assert status == 1
    assert out[0].endswith(
        "clean_mod.py:12: warning: Paint.paint: parameter 'color' has the union Color | str, "
        "and a JSON value can match both Color and str (the first one in declared order wins)"
        "  [toolset-ambiguous-union]"
    )
    status, out, _ = run(capsys, "clean_mod", "--disable", "toolset-ambiguous-union")
    assert (status, out) == (0, ["Success: no problems found in 1 toolset"])


def test_a_file_outside_the_current_directory_is_shown_by_its_whole_path(
    tmp_path_factory: pytest.TempPathFactory, workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    far = tmp_path_factory.mktemp("elsewhere") / "far_mod.py"
    far.write_text(textwrap.dedent(BROKEN), encoding="utf-8")
    assert not far.is_relative_to(workdir)
    status, out, _ = run(capsys, str(far))
    assert status == 1
    assert out[0].startswith(f"{far}:7: error: First.asign:")


def test_class_targets_check_that_class_and_the_import_of_its_module(
    write: Write, capsys: pytest.CaptureFixture[str]
) -> None:
    write("pkg/__init__.py", "")
    write("pkg/tools.py", BROKEN)
    broken = f"{Path('pkg', 'tools.py')}:"
    # The module cannot be imported (First and Second raise as it runs), so neither can Fine:
    # their problems are the target's findings (SPEC 9), where "Success" was said.
    status, out, _ = run(capsys, "pkg.tools:Fine")
    assert status == 1
    assert [line.split(": ")[0] for line in out[:-1]] == [f"{broken}7", f"{broken}21"]
    # Of the module's other classes, nothing else is checked: only the target's own calls.
    # (Another file: a module imported once is not run again in this process.)
    other = write("other_tools.py", BROKEN)
    status, out, _ = run(capsys, f"{other}:NeedsDb")
    assert status == 1
    lines = [line.split(": ")[0] for line in out[:-1]]
    assert lines == ["other_tools.py:7", "other_tools.py:21", "other_tools.py:34"]


def test_a_class_target_in_a_module_another_module_breaks_is_not_a_success(
    write: Write, capsys: pytest.CaptureFixture[str]
) -> None:
    # Importing the target's module imports a broken one: neither can be imported.
    write("broken_dep.py", BROKEN)
    write("uses_dep.py", "import broken_dep\n" + CLEAN)
    status, out, _ = run(capsys, "uses_dep:Paint")
    assert status == 1
    assert out[0].startswith("broken_dep.py:7: error: First.asign: ")


def test_the_parent_code_disables_everything(
    write: Write, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write("broken_all.py", BROKEN)
    status, out, _ = run(capsys, str(path), "--disable", "toolset")
    assert (status, out) == (0, ["Success: no problems found in 4 toolsets"])


@pytest.mark.parametrize(
    ("target", "reason"),
    [
        ("no_such_module_xyz", "cannot import 'no_such_module_xyz': ModuleNotFoundError"),
        ("missing_file.py", "missing_file.py: no such file"),
        # importlib's words were "the 'package' argument is required to perform a relative import"
        (".", ".: not a module name or a .py file; give a module's dotted name (mypackage.tools)"),
        ("..pkg", "..pkg: not a module name or a .py file; give a module's dotted name"),
        # importlib's words: "No module named 'pkg_dir/'".
        ("pkg_dir/", "pkg_dir/: not a module name or a .py file; give a module's dotted name"),
        # It was "no such file".
        ("a_dir.py", "a_dir.py: a directory, not a .py file"),
        # Read as the module good.py.bak, it imported (and ran) the module raises_mod first.
        ("raises_mod.py.bak", "raises_mod.py.bak: not a .py file; give a .py file or a module's"),
        # The path too long to look at was "cannot write the output: [Errno 36]", status 1.
        ("m" * 300, "cannot import 'mmmmmmmm"),
        ("raises_mod", "cannot import 'raises_mod': RuntimeError: boom"),
        ("clean_target:Nope", "clean_target:Nope: clean_target has no Toolset class 'Nope'"),
        (
            "clean_target:Pain",
            "clean_target:Pain: clean_target has no Toolset class 'Pain'; did you mean 'Paint'?",
        ),
    ],
)
def test_unimportable_targets_exit_2_with_one_line(
    write: Write, capsys: pytest.CaptureFixture[str], target: str, reason: str
) -> None:
    here = write("raises_mod.py", "raise RuntimeError('boom')\n").parent
    (here / "raises_mod.py.bak").write_text("raise RuntimeError('boom')\n", encoding="utf-8")
    (here / "a_dir.py").mkdir(exist_ok=True)
    (here / "pkg_dir").mkdir(exist_ok=True)
    write("clean_target.py", CLEAN)
    status, out, err = run(capsys, target)
    assert (status, out) == (2, [])
    assert err.startswith(f"typed-toolsets check: error: {reason}")
    assert err.count("\n") == 1


def test_a_target_that_cannot_be_imported_does_not_hide_the_others_problems(
    write: Write, capsys: pytest.CaptureFixture[str]
) -> None:
    write("raises_mod.py", "raise RuntimeError('boom')\n")
    write("clean_target.py", CLEAN)
    path = write("broken_many.py", BROKEN)
    targets = ["raises_mod", str(path), "clean_target:Nope", "no_such_module_xyz"]
    status, out, err = run(capsys, *targets)
    assert status == 2
    # The importable module's problems (as in the test above), then the count.
    assert [line.split(": error: ")[0] for line in out[:-1]] == [
        "broken_many.py:7",
        "broken_many.py:21",
        "broken_many.py:34",
    ]
    assert out[-1] == "Found 3 problems in 1 file (checked 4 toolsets; 3 targets not checked)"
    assert err.splitlines() == [
        "typed-toolsets check: error: " + reason
        for reason in (
            "cannot import 'raises_mod': RuntimeError: boom (raises_mod.py, line 1)",
            (
                "clean_target:Nope: clean_target has no Toolset class 'Nope'; its Toolset "
                "classes are Paint"
            ),
            (
                "cannot import 'no_such_module_xyz': ModuleNotFoundError: No module named "
                "'no_such_module_xyz'"
            ),
        )
    ]
    # Nothing found in the rest: no "Success" while a target was left unchecked.
    status, out, err = run(
        capsys, "clean_target:Paint", "no_such_module_xyz", "--disable", "toolset"
    )
    assert status == 2
    assert out == ["No problems found in 1 toolset; 1 target not checked"]
    assert err.count("\n") == 1


def test_a_definition_error_a_module_raises_itself_is_a_finding(
    write: Write, capsys: pytest.CaptureFixture[str]
) -> None:
    # SPEC 9: a finding with its message (exit 1), at the line that raised it; the classes
    # before it are checked all the same. The other commands cannot import such a module.
    write(
        "own_rule.py",
        """\
        from typed_toolsets import Toolset, ToolsetDefinitionError, tool

        class Fine(Toolset):
            @tool
            def op(self, x) -> int:
                return 1

        raise ToolsetDefinitionError("every plugin must set a name")
        """,
    )
    status, out, err = run(capsys, "own_rule")
    assert (status, err) == (1, "")
    assert out == [
        (
            "own_rule.py:5: error: Fine.op: parameter 'x' has no type annotation; annotate it "
            "so it gets a JSON Schema  [toolset-signature]"
        ),
        "own_rule.py:8: error: every plugin must set a name  [toolset-raised]",
        "Found 2 problems in 1 file (checked 1 toolset)",
    ]
    # Its code can be disabled as any other: then nothing is left to check.
    write(
        "own_rule_off.py", "from typed_toolsets import ToolsetDefinitionError as E\nraise E('x')\n"
    )
    assert main(["list", "own_rule_off"]) == 2
    assert capsys.readouterr().err == (
        "typed-toolsets list: error: cannot import 'own_rule_off': ToolsetDefinitionError: "
        "x (own_rule_off.py, line 2)\n"
    )
    status, out, err = run(capsys, "own_rule_off", "--disable", "toolset-raised")
    assert (status, out) == (2, [])
    assert "own_rule_off defines no Toolset class" in err


def test_a_definition_error_raised_for_a_class_names_it(
    write: Write, capsys: pytest.CaptureFixture[str]
) -> None:
    # Raised from a base's __init_subclass__: the class it was raised for leads the message,
    # and the classes after it are still checked.
    write(
        "own_base.py",
        """\
        from typed_toolsets import Toolset, ToolsetDefinitionError, tool

        class Base(Toolset):
            def __init_subclass__(cls, **kwargs: object) -> None:
                super().__init_subclass__(**kwargs)
                if "plugin" not in vars(cls):
                    raise ToolsetDefinitionError("set `plugin` in every subclass")

        class Missing(Base):
            @tool
            def op(self) -> int:
                return 1

        class Later(Base):
            plugin = "later"

            @tool
            def op(self, x) -> int:
                return 1
        """,
    )
    status, out, _ = run(capsys, "own_base")
    assert status == 1
    assert out[:2] == [
        "own_base.py:7: error: Missing: set `plugin` in every subclass  [toolset-raised]",
        (
            "own_base.py:18: error: Later.op: parameter 'x' has no type annotation; annotate it "
            "so it gets a JSON Schema  [toolset-signature]"
        ),
    ]


def test_unknown_codes_are_usage_errors(write: Write, capsys: pytest.CaptureFixture[str]) -> None:
    write("clean_codes.py", CLEAN)
    status, _, err = run(capsys, "clean_codes", "--disable", "toolset-nope")
    assert status == 2
    assert "unknown error code 'toolset-nope'" in err


def test_a_definition_error_in_an_imported_module_is_a_finding(
    write: Write, capsys: pytest.CaptureFixture[str]
) -> None:
    dependency = write("dep_mod.py", BROKEN)
    write("uses_dep.py", "import dep_mod\n")
    status, out, _ = run(capsys, "uses_dep")
    assert status == 1
    assert out[0].startswith(f"{dependency.name}:7: error: First.asign:")


def test_forward_references_are_resolved(write: Write, capsys: pytest.CaptureFixture[str]) -> None:
    write(
        "forward_mod.py",
        """\
        from __future__ import annotations

        from typed_toolsets import Toolset, tool


        class Later(Toolset):
            @tool
            def use(self, *, item: Item) -> None: ...

            @tool
            def missing(self, *, other: Missing) -> None: ...


        class Item:
            pass
        """,
    )
    status, out, _ = run(capsys, "forward_mod")
    assert status == 1
    assert len(out) == 3
    assert ":8: error: Later.use: parameter 'item' has type Item, which has no JSON" in out[0]
    assert ":11: error: Later.missing: parameter 'other': an annotation names 'Missing'" in out[1]


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["check"])
    assert exc.value.code == 2
    assert "TARGET" in capsys.readouterr().err


@pytest.mark.slow
@pytest.mark.parametrize("entry", ["module", "script"])
def test_entry_points(write: Write, workdir: Path, entry: str) -> None:
    write("entry_mod.py", BROKEN)
    command = (
        [sys.executable, "-m", "typed_toolsets"]
        if entry == "module"
        else [str(Path(sys.executable).parent / "typed-toolsets")]
    )
    result = subprocess.run(
        [*command, "check", "entry_mod"],
        cwd=workdir,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 1, result.stderr
    assert result.stdout.splitlines()[-1] == "Found 3 problems in 1 file (checked 4 toolsets)"


def test_toolsets_nested_in_plain_classes_are_checked(
    write: Write, capsys: pytest.CaptureFixture[str]
) -> None:
    write(
        "nested_mod.py",
        """\
        import enum

        from typed_toolsets import Toolset, tool


        class Color(str, enum.Enum):
            RED = "red"


        class Namespace:
            class Inner(Toolset):
                @tool
                def paint(self, *, color: str | Color) -> None: ...
        """,
    )
    status, out, _ = run(capsys, "nested_mod")
    assert status == 1
    assert ":13: warning: Namespace.Inner.paint: parameter 'color'" in out[0]


def test_check_finds_the_classes_list_finds_and_refuses_a_target_without_any(
    write: Write, capsys: pytest.CaptureFixture[str]
) -> None:
    from typed_toolsets.analysis.targets import load_toolsets

    # A facade defines no class but lists its toolsets in __all__: check reads them as list.
    status, out, _ = run(capsys, "typed_toolsets.text")
    assert (status, out) == (0, ["Success: no problems found in 1 toolset"])
    assert len(load_toolsets("typed_toolsets.text")) == 1
    # A module with no toolset is a mistaken target (exit 2), as for list, not a success.
    status, out, err = run(capsys, "json")
    assert (status, out) == (2, [])
    assert err == "typed-toolsets check: error: json: json defines no Toolset class\n"
    # One that only imports toolsets is told how to name them, as list tells it.
    write("facade_mod.py", "from typed_toolsets.text import TextProcessingToolset\n")
    status, out, err = run(capsys, "facade_mod")
    assert (status, out) == (2, [])
    assert err == (
        "typed-toolsets check: error: facade_mod: facade_mod defines no Toolset class; it "
        "imports TextProcessingToolset: list the ones to use in its __all__, or name one "
        "(facade_mod:TextProcessingToolset)\n"
    )
    # Among several targets, a helper module without toolsets is fine.
    write("helper_mod.py", "X = 1\n")
    write("clean_mod.py", CLEAN)
    status, out, _ = run(capsys, "helper_mod", "clean_mod")
    assert status == 1  # the clean module's ambiguous unions are warnings
    assert out[-1] == "Found 1 problem in 1 file (checked 1 toolset)"
    status, _, err = run(capsys, "helper_mod", "json")
    assert status == 2
    assert err == "typed-toolsets check: error: none of the targets defines a Toolset class\n"


@pytest.mark.slow
@pytest.mark.parametrize(
    ("args", "typo"),
    [
        (["schema", "typed_toolsets.text:TextProcessingToolset", "--form", "openai"], "--form"),
        (["schema", "typed_toolsets.text:TextProcessingToolset", "--str"], "--str"),
        (["check", "typed_toolsets.text", "--dis", "toolset"], "--dis"),
        (["serve", "typed_toolsets.text", "--tool", "text_wc"], "--tool"),
        (["demo", "--js"], "--js"),
    ],
    ids=["schema-format", "schema-strict", "check-disable", "serve-tools", "demo-json"],
)
def test_long_options_are_taken_only_in_full(args: list[str], typo: str) -> None:
    """argparse took any unambiguous prefix of a long option: a typo silently became another
    option (``--str`` ran ``--strict``, ``--tool`` ``--tools``) and the command ran, status 0.
    Now it is a usage error that names what was sent (serve stops at it, never serving)."""
    result = subprocess.run(
        [sys.executable, "-m", "typed_toolsets", *args],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 2, result.stderr
    assert result.stdout == ""
    # Told against the subcommand's usage (it pointed at `typed-toolsets --help`).
    command = args[0]
    line = result.stderr.splitlines()[-1]
    assert line.startswith(f"typed-toolsets {command}: error: unrecognized arguments: {typo}")
    assert line.endswith(f"(see typed-toolsets {command} --help)")


@pytest.mark.parametrize("args", [["--vers"], ["--vers", "list", "typed_toolsets.text"], ["-x"]])
def test_an_unknown_option_before_the_command_is_told_against_the_program(
    args: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    # "--vers" alone said "the following arguments are required: COMMAND"; before a command,
    # it was told against that command ("typed-toolsets list: ... (see typed-toolsets list").
    with pytest.raises(SystemExit) as stopped:
        main(args)
    assert stopped.value.code == 2
    assert capsys.readouterr().err == (
        f"typed-toolsets: error: unrecognized arguments: {args[0]} (see typed-toolsets --help)\n"
    )


def test_the_problems_of_one_line_keep_the_order_of_the_error(
    write: Write, capsys: pytest.CaptureFixture[str]
) -> None:
    # Sorted by their words, they came '**kw' before '*args', and parameters x, f, b as b, f, x.
    write(
        "one_line.py",
        """\
        from collections.abc import Callable

        from typed_toolsets import Toolset, tool

        class OneLine(Toolset):
            @tool
            def star(self, *args: int, **kw: int) -> None: ...

            @tool
            def types(self, *, x: object, f: Callable[[], int], b: bytes) -> None: ...
        """,
    )
    status, out, _ = run(capsys, "one_line")
    assert status == 1
    # The order the class's ToolsetDefinitionError lists them in (and the plugin reports).
    found = [line.split(": ", 3)[3].split(" is ")[0].split(" has ")[0] for line in out[:-1]]
    assert found == ["'*args'", "'**kw'", "parameter 'x'", "parameter 'f'", "parameter 'b'"]


def test_an_ambiguous_union_with_a_bad_default_is_told_both_ways(
    write: Write, capsys: pytest.CaptureFixture[str]
) -> None:
    # The parameter's bad default dropped it from those looked at for ambiguity: the plugin
    # told the ambiguity, check only the default.
    write(
        "bad_union_default.py",
        """\
        import enum

        from typed_toolsets import Toolset, tool

        class Color(str, enum.Enum):
            RED = "red"

        class Amb(Toolset):
            @tool
            def find(self, *, c: str | Color = 1) -> int:
                return 1
        """,
    )
    status, out, _ = run(capsys, "bad_union_default")
    assert status == 1
    assert [line.split("  [")[-1] for line in out[:-1]] == [
        "toolset-signature]",
        "toolset-ambiguous-union]",
    ]


MIXED = """\
from typed_toolsets import Toolset, tool

class Good(Toolset):
    @tool
    def ping(self) -> str:
        return "pong"

class Bad(Toolset):
    @tool
    def broken(self, *, data: bytes) -> int:
        return 0

class Sub(Bad):
    pass
"""


def test_a_class_target_of_a_module_that_fails_is_told_what_is_missing(
    write: Write, capsys: pytest.CaptureFixture[str]
) -> None:
    write("mixed_mod.py", MIXED)
    # A name no class statement has is a typo, whatever else fails: it was passed over.
    status, out, err = run(capsys, "mixed_mod:Nope")
    assert (status, out) == (2, [])
    assert err.startswith("typed-toolsets check: error: mixed_mod:Nope: mixed_mod has no Toolset")
    # One whose class statement failed, or whose base's did: its problems, not "no class".
    # (Another module: one imported once is not run again in this process.)
    write("mixed_sub.py", MIXED)
    status, out, _ = run(capsys, "mixed_sub:Sub")
    assert status == 1
    assert out[0].startswith("mixed_sub.py:10: error: Bad.broken: parameter 'data' has type bytes")


@pytest.mark.parametrize(
    "targets", [("ord_mod:Good", "ord_mod:Bad"), ("ord_mod:Bad", "ord_mod:Good")]
)
def test_two_targets_in_one_failing_module_are_told_alike_in_either_order(
    write: Write, capsys: pytest.CaptureFixture[str], targets: tuple[str, str]
) -> None:
    # The second target read the module the first left behind, without its failures: "Bad"
    # was then said not to exist (status 2), in one order only.
    write("ord_mod.py", MIXED)
    status, out, err = run(capsys, *targets)
    assert status == 1
    assert out[0].startswith("ord_mod.py:10: error: Bad.broken: ")
    assert err == ""


@pytest.mark.slow
def test_a_removed_working_directory_still_lets_an_installed_module_load(tmp_path: Path) -> None:
    # Path.cwd() raised: "cannot write the output: [Errno 2] No such file or directory", 1.
    import subprocess
    import sys

    gone = tmp_path / "gone"
    gone.mkdir()
    code = (
        "import os, runpy, sys\n"
        f"os.chdir({str(gone)!r}); os.rmdir({str(gone)!r})\n"
        "sys.argv = ['typed-toolsets', 'check', 'typed_toolsets.text']\n"
        "runpy.run_module('typed_toolsets', run_name='__main__')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.startswith("Success")


def test_main_called_by_other_code_leaves_sigterm_as_it_was(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # main() reads sys.argv when given nothing. It put its SIGTERM handler in and left it there
    # (the host's process kept it), and from another thread it raised ValueError ("signal only
    # works in main thread").
    import signal
    import threading

    monkeypatch.setattr(sys, "argv", ["typed-toolsets", "list", "typed_toolsets.text"])
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL
    assert main() == 0
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL
    statuses: list[int] = []
    thread = threading.Thread(target=lambda: statuses.append(main()))
    thread.start()
    thread.join(60)
    assert statuses == [0]
    assert "text_grep" in capsys.readouterr().out
