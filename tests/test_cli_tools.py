"""``typed-toolsets list``, ``schema`` and ``call``, run as a user runs them: as a subprocess.

Every target form (``module:Class``, ``module``, ``path/to/file.py:Class``), stdin, the output
formats and the exit statuses (0 success, 1 a failed call or a definition problem, 2 a usage
error or a target that cannot be loaded, with one line and never a traceback).
"""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

import pytest

from typed_toolsets.cli import main as cli_main
from typed_toolsets.cli.main import main

TEXT = "typed_toolsets.text:TextProcessingToolset"

SHOP = """\
import enum

import attrs

from typed_toolsets import Toolset, tool


class Size(enum.Enum):
    S = "s"
    L = "l"


@attrs.frozen
class Line:
    sku: str
    size: Size = Size.S


class ShopToolset(Toolset):
    \"\"\"Shop things.\"\"\"

    @tool
    def order(self, *, lines: list[Line], note: str | None = None) -> list[Line]:
        \"\"\"Order some lines.

        More text that is not shown by list.
        \"\"\"
        return lines

    @tool
    def total(self, *, prices: dict[str, float]) -> float:
        return sum(prices.values())


class Clock(Toolset):
    @tool
    async def tick(self, *, n: int = 1) -> int:
        return n + 1


@attrs.define
class NeedsDb(Toolset):
    db_url: str

    @tool
    def query(self, *, sql: str) -> int:
        return len(sql)
"""


def cli(
    *args: str, cwd: Path | None = None, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    """Run ``python -m typed_toolsets ARGS`` (the same entry point as the console script).

    Without *stdin*, stdin is the null device, whatever the test runner's is.
    """
    return subprocess.run(
        [sys.executable, "-m", "typed_toolsets", *args],
        capture_output=True,
        text=True,
        input=stdin,
        stdin=subprocess.DEVNULL if stdin is None else None,
        cwd=cwd,
        timeout=120,
        check=False,
    )


@pytest.fixture
def shop(tmp_path: Path) -> Path:
    (tmp_path / "shop_tools.py").write_text(SHOP, encoding="utf-8")
    return tmp_path


# ---------------------------------------------------------------------------------- call


@pytest.mark.slow
def test_the_main_job_in_one_line() -> None:
    done = cli("call", TEXT, "text_wc", '{"text": "one two\\nthree"}')
    assert (done.returncode, done.stdout, done.stderr) == (
        0,
        "Lines: 2, Words: 3, Characters: 13\n",
        "",
    )


@pytest.mark.slow
def test_the_console_script_runs_too() -> None:
    script = Path(sys.executable).with_name("typed-toolsets")
    if not script.exists():
        pytest.skip("the console script is not installed next to this interpreter")
    done = subprocess.run(
        [str(script), "call", TEXT, "text_sort_lines", '{"text": "b\\na"}'],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert (done.returncode, done.stdout) == (0, "a\nb\n")


@pytest.mark.slow
def test_the_help_s_stdin_example_works_as_printed() -> None:
    # It was `echo '{"text": "b\\na"}' | ...`: dash's echo (sh on Debian) turns the JSON escape
    # into a line break, and the call was refused as invalid JSON. printf '%s' writes its
    # argument as is in every shell.
    (line,) = [line for line in cli("call", "--help").stdout.splitlines() if " | " in line]
    writer, command = (shlex.split(part) for part in line.split(" | "))
    assert writer[:2] == ["printf", "%s"]
    done = cli(*command[1:], stdin=writer[2])
    assert (done.returncode, done.stdout) == (0, "a\nb\n"), done.stderr


@pytest.mark.slow
def test_arguments_from_stdin(shop: Path) -> None:
    arguments = json.dumps({"lines": [{"sku": "a1"}, {"sku": "b2", "size": "l"}]})
    done = cli("call", "shop_tools:ShopToolset", "shop_order", "-", cwd=shop, stdin=arguments)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [{"sku": "a1", "size": "s"}, {"sku": "b2", "size": "l"}]
    assert done.stdout.startswith("[\n  {\n")  # indented for people


@pytest.mark.slow
def test_a_failed_call_goes_to_stderr_with_status_1(shop: Path) -> None:
    done = cli(
        "call", "shop_tools.py:ShopToolset", "shop_total", '{"prices": {"a": "x"}}', cwd=shop
    )
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == (
        "Error: Invalid arguments for tool 'shop_total': prices.a: 'x' is not of type 'number'\n"
    )
    done = cli("call", "shop_tools.py:ShopToolset", "shop_total", "{not json", cwd=shop)
    assert done.returncode == 1
    assert done.stderr.startswith("Error: Invalid JSON arguments for tool 'shop_total'")


@pytest.mark.slow
def test_a_tool_that_exits_is_a_failed_call_not_the_commands_status(tmp_path: Path) -> None:
    # argparse inside a tool exits on bad input: that call failed (status 1), with its reason.
    (tmp_path / "quits.py").write_text(
        textwrap.dedent(
            """\
            import asyncio
            import sys

            from typed_toolsets import Toolset, tool


            class Quits(Toolset):
                @tool
                def stop(self, *, code: int) -> int:
                    sys.exit(code)

                @tool
                async def wait(self) -> int:
                    # Awaiting a task something else cancelled raises CancelledError.
                    task = asyncio.create_task(asyncio.sleep(10))
                    task.cancel()
                    return await task
            """
        ),
        encoding="utf-8",
    )
    done = cli("call", "quits.py:Quits", "quits_stop", '{"code": 2}', cwd=tmp_path)
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == "Error: Tool 'quits_stop' failed: SystemExit: 2\n"
    # It was a traceback: the call path lets cancellation through, for its host to stop.
    done = cli("call", "quits.py:Quits", "quits_wait", cwd=tmp_path)
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == "Error: Tool 'quits_wait' failed: CancelledError\n"


@pytest.mark.slow
def test_a_failure_with_a_multi_line_message_is_one_line(tmp_path: Path) -> None:
    # Its later lines (one reading "Traceback (most recent call last):") went out as they were.
    (tmp_path / "wordy.py").write_text(
        textwrap.dedent(
            """\
            from typed_toolsets import Toolset, tool


            class Wordy(Toolset):
                @tool
                def fail(self) -> int:
                    raise RuntimeError("first\\r\\n  Traceback (most recent call last):\\u2028end")
            """
        ),
        encoding="utf-8",
    )
    done = cli("call", "wordy.py:Wordy", "wordy_fail", cwd=tmp_path)
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == (
        "Error: Tool 'wordy_fail' failed: RuntimeError: first\\r\\n  Traceback (most recent call "
        "last):\\u2028end\n"
    )


@pytest.mark.slow
def test_a_tool_that_closes_stdout_closes_only_its_own(tmp_path: Path) -> None:
    # The tool's sys.stdout is a stream of its own (on stderr): the result still goes out.
    (tmp_path / "closer.py").write_text(
        textwrap.dedent(
            """\
            import sys

            from typed_toolsets import Toolset, tool


            class Closer(Toolset):
                @tool
                def shut(self) -> str:
                    sys.stdout.close()
                    return "done"
            """
        ),
        encoding="utf-8",
    )
    done = cli("call", "closer:Closer", "closer_shut", cwd=tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (0, "done\n", "")


@pytest.mark.slow
def test_no_arguments_means_an_empty_object_and_async_tools_run(shop: Path) -> None:
    done = cli("call", "shop_tools:Clock", "clock_tick", cwd=shop)
    assert (done.returncode, done.stdout) == (0, "2\n")
    done = cli("call", str(shop / "shop_tools.py") + ":ShopToolset", "shop_order")
    assert done.returncode == 1
    assert "lines: missing required argument" in done.stderr
    assert "Note:" not in done.stderr  # stdin is the null device: nothing was piped in


@pytest.mark.slow
@pytest.mark.parametrize("piped", ["pipe", "file"])
def test_arguments_piped_in_without_a_dash_are_said_to_be_unread(
    shop: Path, tmp_path: Path, piped: str
) -> None:
    # The tool ran with {} and said only "missing required argument": the JSON on stdin was
    # never read, and nothing said why.
    argv = [sys.executable, "-m", "typed_toolsets", "call", TEXT, "text_wc"]
    sent = b'{"text": "one two"}\n'
    if piped == "pipe":
        done = subprocess.run(argv, input=sent, capture_output=True, timeout=120, check=False)
    else:
        source = tmp_path / "arguments.json"
        source.write_bytes(sent)
        with source.open("rb") as stdin:
            done = subprocess.run(argv, stdin=stdin, capture_output=True, timeout=120, check=False)
    assert (done.returncode, done.stdout) == (1, b"")
    assert done.stderr.decode().splitlines() == [
        "Error: Invalid arguments for tool 'text_wc': text: missing required argument",
        "Note: stdin was not read; to take the arguments from it, pass - after TOOL",
    ]
    # Not for a tool that failed otherwise, nor for arguments given in the command line.
    done = subprocess.run(
        [*argv, '{"text": 3}'], input=sent, capture_output=True, timeout=120, check=False
    )
    assert b"Note:" not in done.stderr


@pytest.mark.slow
def test_an_empty_pipe_on_stdin_gets_no_note() -> None:
    # A parent that always pipes stdin (`true |`, Popen(stdin=PIPE)) piped nothing in.
    argv = [sys.executable, "-m", "typed_toolsets", "call", TEXT, "text_wc"]
    done = subprocess.run(argv, input=b"", capture_output=True, timeout=120, check=False)
    assert done.returncode == 1
    assert done.stderr.decode().splitlines() == [
        "Error: Invalid arguments for tool 'text_wc': text: missing required argument"
    ]


@pytest.mark.slow
def test_an_unknown_tool_is_a_usage_error_listing_the_tools(shop: Path) -> None:
    done = cli("call", "shop_tools:ShopToolset", "shop_nope", "{}", cwd=shop)
    assert done.returncode == 2
    assert done.stderr == (
        "typed-toolsets call: error: shop_tools:ShopToolset has no tool 'shop_nope'; available "
        "tools: shop_order, shop_total\n"
    )


# ---------------------------------------------------------------------------------- list


@pytest.mark.slow
def test_list_prints_a_table() -> None:
    done = cli("list", TEXT)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].split() == ["TOOL", "PARAMETERS", "DESCRIPTION"]
    assert lines[1].startswith("text_grep ")
    assert "text: string, pattern: string, ignore_case: boolean = true," in lines[1]
    assert lines[1].endswith("Search for patterns in text using grep")
    assert lines[2].strip() == "count_only: boolean = false"
    names = [line.split()[0] for line in lines[1:] if not line.startswith(" ")]
    assert names == [
        "text_grep",
        "text_wc",
        "text_rg",
        "text_extract_lines",
        "text_filter_lines",
        "text_unique_lines",
        "text_sort_lines",
        "text_summarize_text",
    ]


LOUD = """
from typed_toolsets import Toolset, tool


class Loud(Toolset):
    @tool
    def shout(self, text: str, mode: str = "a\u202eb", sep: str = "\x9b31m") -> str:
        "Shout \x1b[31mred\x1b[0m, ring\x07 and turn \u202eback."
        return text
"""


def test_list_shows_a_docstring_s_control_characters_as_escapes(tmp_path: Path) -> None:
    # Written raw, the ESC sequences and the bidi override acted on the terminal.
    (tmp_path / "loud_tools.py").write_text(LOUD, encoding="utf-8")
    done = cli("list", "loud_tools:Loud", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[1].endswith(
        "Shout \\x1b[31mred\\x1b[0m, ring\\x07 and turn \\u202eback."
    )
    # And the parameters' defaults (JSON escapes C0 controls only).
    assert 'mode: string = "a\\u202eb"' in done.stdout
    assert 'sep: string = "\\x9b31m"' in done.stdout


@pytest.mark.slow
def test_list_a_module_a_facade_and_a_file(shop: Path) -> None:
    facade = cli("list", "typed_toolsets.text")
    assert facade.stdout == cli("list", TEXT).stdout
    done = cli("list", str(shop / "shop_tools.py") + ":ShopToolset")
    assert done.returncode == 0
    assert done.stdout.splitlines() == [
        "TOOL        PARAMETERS                                   DESCRIPTION",
        "shop_order  lines: object[], note: string | null = null  Order some lines.",
        "shop_total  prices: {string: number}                     Total operation",
    ]
    module = cli("list", "shop_tools", cwd=shop)
    # The module holds a class that needs constructor arguments: a usage error naming it.
    assert module.returncode == 2
    assert module.stderr == (
        "typed-toolsets list: error: NeedsDb needs constructor arguments ('db_url'), but the "
        "command line builds it as NeedsDb(); give each a default, or name a subclass that "
        "does\n"
    )


def test_list_marks_a_parameter_whose_default_has_no_json_form_as_optional(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # `limit: float = math.inf` has no "default" in its schema and is not required either:
    # shown as `limit: number`, it read as an argument to send.
    (tmp_path / "bounded.py").write_text(
        textwrap.dedent(
            """\
            import math

            from typed_toolsets import Toolset, tool


            class Bounded(Toolset):
                @tool
                def scan(self, *, query: str, limit: float = math.inf, depth: int = 2) -> int:
                    return 0
            """
        ),
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)
    assert main(["list", "bounded.py"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "TOOL          PARAMETERS                                         DESCRIPTION",
        "bounded_scan  query: string, limit?: number, depth: integer = 2  Scan operation",
    ]


# -------------------------------------------------------------------------------- schema


@pytest.mark.parametrize(
    ("form", "name"),
    [
        ("json-schema", lambda e: e["name"]),
        ("openai", lambda e: e["function"]["name"]),
        ("openai-responses", lambda e: e["name"]),
        ("anthropic", lambda e: e["name"]),
        ("gemini", lambda e: e["name"]),
        ("mcp", lambda e: e["name"]),
    ],
)
def test_schema_in_every_format(
    form: str, name: Callable[[dict[str, Any]], str], capsys: pytest.CaptureFixture[str]
) -> None:
    from typed_toolsets import export
    from typed_toolsets.text import TextProcessingToolset

    assert main(["schema", TEXT, "--format", form]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert [name(e) for e in printed][:2] == ["text_grep", "text_wc"]
    tools = TextProcessingToolset.to_tools()
    expected = {
        "json-schema": [t.schema for t in tools],
        "openai": export.openai_chat(tools),
        "openai-responses": export.openai_responses(tools),
        "anthropic": export.anthropic(tools),
        "gemini": export.gemini(tools),
        "mcp": export.mcp(tools),
    }[form]
    assert printed == expected
    if form in ("json-schema", "openai", "openai-responses", "anthropic"):
        assert main(["schema", TEXT, "--format", form, "--strict"]) == 0
        strict = json.loads(capsys.readouterr().out)
        assert strict != printed
        assert "null means the default" in json.dumps(strict)


@pytest.mark.slow
def test_schema_strict_and_its_refusals(shop: Path) -> None:
    done = cli("schema", "shop_tools:Clock", "--strict", cwd=shop)
    assert done.returncode == 0
    (entry,) = json.loads(done.stdout)
    assert entry["parameters"]["required"] == ["n"]
    done = cli("schema", "shop_tools:ShopToolset", "--format", "openai", "--strict", cwd=shop)
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr.startswith(
        "typed-toolsets schema: error: Tool 'shop_total' has no lossless strict schema: "
        "parameter 'prices' is an object with free-form keys"
    )
    done = cli("schema", TEXT, "--format", "gemini", "--strict")
    assert done.returncode == 2
    assert done.stderr == (
        "typed-toolsets schema: error: --strict applies to json-schema, openai, "
        "openai-responses, anthropic; gemini has none\n"
    )


@pytest.mark.slow
def test_each_failure_is_a_line_of_the_commands_error(tmp_path: Path) -> None:
    # Two tools refused, or two definition problems: the second line came without the
    # "typed-toolsets schema: error: " its first had.
    (tmp_path / "two_maps.py").write_text(
        textwrap.dedent(
            """\
            from typed_toolsets import Toolset, tool

            class Maps(Toolset):
                @tool
                def a(self, *, m: dict[str, int]) -> int:
                    return 1

                @tool
                def b(self, *, m: dict[str, str]) -> int:
                    return 1
            """
        )
    )
    (tmp_path / "two_problems.py").write_text(
        textwrap.dedent(
            """\
            from typing import Any
            from typed_toolsets import Toolset, tool

            class Broken(Toolset):
                @tool
                def a(self, *, m: Any) -> int:
                    return 1

                @tool
                def b(self, *, n) -> int:
                    return 1
            """
        )
    )
    for args, lines in [
        (("schema", "two_maps:Maps", "--format", "gemini"), ["'maps_a'", "'maps_b'"]),
        (("list", "two_problems:Broken"), ["Broken.a:", "Broken.b:"]),
    ]:
        done = cli(*args, cwd=tmp_path)
        assert (done.returncode, done.stdout) == (1, ""), args
        said = done.stderr.splitlines()
        assert len(said) == 2, said
        for line, names in zip(said, lines, strict=True):
            assert line.startswith(f"typed-toolsets {args[0]}: error: "), line
            assert names in line


# ----------------------------------------------------------------------- target problems


@pytest.mark.slow
@pytest.mark.parametrize(
    ("target", "expected"),
    [
        (
            "no_such_module_xyz",
            "cannot import 'no_such_module_xyz': ModuleNotFoundError: No module",
        ),
        ("typed_toolsets.text:Nope", "typed_toolsets.text:Nope: typed_toolsets.text has no"),
        (
            "typed_toolsets.text:TextProcessing",
            (
                "typed_toolsets.text:TextProcessing: typed_toolsets.text has no Toolset class "
                "'TextProcessing'; did you mean 'TextProcessingToolset'?\n"
            ),
        ),
        (
            "typed_toolsets.text.TextProcessingToolset",
            (
                "cannot import 'typed_toolsets.text.TextProcessingToolset': ModuleNotFoundError: "
                "No module named 'typed_toolsets.text.TextProcessingToolset'; "
                "'typed_toolsets.text' is not a package; TextProcessingToolset is a Toolset class "
                "of typed_toolsets.text: write typed_toolsets.text:TextProcessingToolset\n"
            ),
        ),
        ("missing.py:Cls", "missing.py: no such file"),
        ("raising_mod", "cannot import 'raising_mod': RuntimeError: boom"),
        # Any BaseException but KeyboardInterrupt: it was a traceback with status 1.
        ("cancelled_mod", "cannot import 'cancelled_mod': CancelledError"),
        ("empty_mod", "empty_mod: empty_mod defines no Toolset class\n"),
        (
            "importing_mod",
            (
                "importing_mod: importing_mod defines no Toolset class; it imports "
                "TextProcessingToolset: list the ones to use in its __all__, or name one "
                "(importing_mod:TextProcessingToolset)\n"
            ),
        ),
        (
            # A file target: the class is named after the file, which is what reaches it.
            "sub/importing_mod.py",
            (
                "sub/importing_mod.py: importing_mod defines no Toolset class; it imports "
                "TextProcessingToolset: list the ones to use in its __all__, or name one "
                "(sub/importing_mod.py:TextProcessingToolset)\n"
            ),
        ),
    ],
)
def test_targets_that_cannot_be_loaded_are_one_line_usage_errors(
    tmp_path: Path, target: str, expected: str
) -> None:
    (tmp_path / "raising_mod.py").write_text("raise RuntimeError('boom')\n")
    (tmp_path / "cancelled_mod.py").write_text("import asyncio\nraise asyncio.CancelledError\n")
    (tmp_path / "empty_mod.py").write_text("X = 1\n")
    (tmp_path / "importing_mod.py").write_text(
        "from typed_toolsets.text import TextProcessingToolset\n"
    )
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "importing_mod.py").write_text(
        "from typed_toolsets.text import TextProcessingToolset\n"
    )
    done = cli("list", target, cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.startswith(f"typed-toolsets list: error: {expected}")
    assert done.stderr.count("\n") == 1
    assert "Traceback" not in done.stderr


@pytest.mark.slow
def test_a_target_that_fails_to_import_says_where(tmp_path: Path) -> None:
    # A one-line error has no traceback: the file and line are the only way to the mistake.
    (tmp_path / "helpers_mod.py").write_text("import no_such_dependency_xyz\n")
    (tmp_path / "files_mod.py").write_text(
        textwrap.dedent(
            """\
            from typed_toolsets import Toolset, tool


            class Files(Toolset):
                @tool
                def find(self, *, root: Path) -> list[str]:
                    return []
            """
        )
    )
    (tmp_path / "uses_helpers.py").write_text("X = 1\nimport helpers_mod\n")
    for command in ("list", "check"):
        for target, expected in [
            ("files_mod", "NameError: name 'Path' is not defined (files_mod.py, line 6)\n"),
            (
                "uses_helpers",
                (
                    "ModuleNotFoundError: No module named 'no_such_dependency_xyz' "
                    "(helpers_mod.py, line 1)\n"
                ),
            ),
        ]:
            done = cli(command, target, cwd=tmp_path)
            assert done.returncode == 2
            assert done.stderr == (
                f"typed-toolsets {command}: error: cannot import {target!r}: {expected}"
            )


@pytest.mark.slow
def test_a_definition_error_in_the_target_is_shown_with_status_1(tmp_path: Path) -> None:
    (tmp_path / "broken_tools.py").write_text(
        textwrap.dedent(
            """\
            import sys
            from typed_toolsets import Toolset, tool

            print("importing", file=sys.stderr)

            class Broken(Toolset):
                exports = (tool("nope"),)
            """
        )
    )
    done = cli("call", "broken_tools:Broken", "broken_nope", cwd=tmp_path)
    assert done.returncode == 1
    # Where `check` reports it (the declaration's line), found without running the module
    # again (it ran three times).
    assert done.stderr == (
        "importing\n"
        "typed-toolsets call: error: broken_tools.py:7: Broken.nope: Broken has no method "
        "'nope' to export [toolset-unknown-method]\n"
    )


@pytest.mark.slow
def test_a_definition_problem_found_on_first_use_is_told_where_it_is(tmp_path: Path) -> None:
    # The class is created (its annotations name a class defined later), and its tools fail
    # when built: each problem on the line of its parameter, as `check` reports it.
    (tmp_path / "late_tools.py").write_text(
        textwrap.dedent(
            """\
            from __future__ import annotations

            from typed_toolsets import Toolset, tool

            class Late(Toolset):
                @tool
                def f(
                    self,
                    *,
                    when: Later,
                ) -> str:
                    return ""

            class Later:
                pass
            """
        )
    )
    for command in ("list", "schema"):
        done = cli(command, "late_tools.py", cwd=tmp_path)
        assert done.returncode == 1
        assert done.stderr.startswith(
            f"typed-toolsets {command}: error: late_tools.py:10: Late.f: "
        )
        assert done.stderr.endswith("[toolset-param-type]\n")


UNBUILDABLE = """\
import asyncio
import os
import sys

import attrs

from typed_toolsets import Toolset, tool


class Raising(Toolset):
    def __init__(self) -> None:
        raise RuntimeError("no connection")

    @tool
    def ping(self) -> str:
        return "pong"


class Exiting(Toolset):
    def __init__(self) -> None:
        sys.exit(0)


class Cancelled(Toolset):
    def __init__(self) -> None:
        raise asyncio.CancelledError

    @tool
    def ping(self) -> str:
        return "pong"


@attrs.define
class FromEnvironment(Toolset):
    token: str = attrs.field(factory=lambda: os.environ["TYPED_TOOLSETS_UNSET_TOKEN"])

    @tool
    def ping(self) -> str:
        return "pong"
"""


@pytest.mark.slow
@pytest.mark.parametrize(
    ("cls", "reason"),
    [
        ("Raising", "RuntimeError: no connection (unbuildable.py, line 12)"),
        # The constructor's exit is no status of the command's: it used to end it with 0.
        ("Exiting", "SystemExit: 0 (unbuildable.py, line 21)"),
        # Any BaseException but KeyboardInterrupt: it was a traceback with status 1.
        ("Cancelled", "CancelledError (unbuildable.py, line 26)"),
        ("FromEnvironment", "KeyError: 'TYPED_TOOLSETS_UNSET_TOKEN' (unbuildable.py, line 35)"),
    ],
)
def test_a_class_whose_constructor_raises_is_a_one_line_usage_error(
    tmp_path: Path, cls: str, reason: str
) -> None:
    (tmp_path / "unbuildable.py").write_text(UNBUILDABLE, encoding="utf-8")
    target = f"unbuildable:{cls}"
    for command, *rest in (["list"], ["schema"], ["call", "x_ping"]):
        done = cli(command, target, *rest, cwd=tmp_path)
        assert (done.returncode, done.stdout) == (2, "")
        assert done.stderr == (
            f"typed-toolsets {command}: error: cannot build the tools of {cls}: {reason}\n"
        )


@pytest.mark.slow
@pytest.mark.parametrize(
    ("target", "expected"),
    [
        (
            # The base class has no tools: listing it printed an empty table with status 0.
            "typed_toolsets:Toolset",
            (
                "typed_toolsets:Toolset: typed_toolsets has no Toolset class 'Toolset' (it is "
                "the base class Toolset, which has no tools)"
            ),
        ),
        (
            "typed_toolsets.text:",
            (
                "cannot import 'typed_toolsets.text:': ModuleNotFoundError: No module named "
                "'typed_toolsets.text:'; write a target as module:Class (a module name, one "
                "':', a class name)"
            ),
        ),
    ],
    ids=["base-class", "empty-class"],
)
def test_targets_naming_no_toolset_class_say_so(target: str, expected: str) -> None:
    for command in ("list", "check"):
        done = cli(command, target)
        assert (done.returncode, done.stdout) == (2, "")
        assert done.stderr == f"typed-toolsets {command}: error: {expected}\n"


CYRILLIC = """\
from typed_toolsets import Toolset, tool


class Инструменты(Toolset):
    toolset_name = "ru"

    @tool
    def echo(self, *, текст: str) -> dict[str, str]:
        \"\"\"Эхо.\"\"\"
        return {"текст": текст}
"""


@pytest.mark.slow
def test_a_class_named_outside_ascii_is_a_target(tmp_path: Path) -> None:
    # `module:Class` took only ASCII class names: the rest were read as a module name.
    (tmp_path / "werkzeuge.py").write_text(CYRILLIC, encoding="utf-8")
    done = cli("list", "werkzeuge:Инструменты", cwd=tmp_path)
    assert (done.returncode, done.stdout.split()) == (
        0,
        ["TOOL", "PARAMETERS", "DESCRIPTION", "ru_echo", "текст:", "string", "Эхо."],
    )
    # Non-ASCII names and values through stdin, a Windows line ending after them.
    done = subprocess.run(
        [sys.executable, "-m", "typed_toolsets", "call", "werkzeuge:Инструменты", "ru_echo", "-"],
        input='{"текст": "привет"}\r\n'.encode(),
        capture_output=True,
        cwd=tmp_path,
        timeout=120,
        check=False,
    )
    assert (done.returncode, json.loads(done.stdout), done.stderr) == (
        0,
        {"текст": "привет"},
        b"",
    )


CLASHING = """\
from typed_toolsets import Toolset, tool


class Orders(Toolset):
    toolset_name = "shop"

    @tool
    def find(self, *, sku: str) -> str:
        return sku

    @tool
    def count(self, *, n: int) -> int:
        return n


class Stock(Toolset):
    toolset_name = "shop"

    @tool
    def find(self, *, sku: str, depot: int = 0) -> int:
        return depot
"""


@pytest.mark.slow
def test_a_name_clash_is_one_usage_error_in_every_command(tmp_path: Path) -> None:
    # Two classes export `shop_find`: a model could not tell them apart, so no command shows,
    # exports or runs it, and each says so in the same words, as `serve` does (SPEC: a usage
    # error). `call` looks only at the tool it names: the target's other tools still run.
    (tmp_path / "clashing.py").write_text(CLASHING, encoding="utf-8")
    clash = (
        "Two tools are exported as 'shop_find': Orders.find and Stock.find; a model could not "
        "tell them apart. Rename one with tool(..., tool_name=...) or a different toolset_name, "
        "or leave one out\n"
    )
    for args in (
        ("list", "clashing"),
        ("schema", "clashing"),
        ("schema", "clashing", "--format", "mcp"),
        ("call", "clashing", "shop_find", '{"sku": "a"}'),
    ):
        done = cli(*args, cwd=tmp_path)
        assert (done.returncode, done.stdout) == (2, ""), args
        assert done.stderr == f"typed-toolsets {args[0]}: error: {clash}", args
    done = cli("call", "clashing", "shop_count", '{"n": 3}', cwd=tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (0, "3\n", "")
    done = cli("call", "clashing", "shop_nope", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.endswith("available tools: shop_find, shop_count\n")  # each name once


# ---------------------------------------------------------------------------------- help


@pytest.mark.parametrize("command", ["list", "schema", "call"])
def test_help_of_every_command_explains_it(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        main([command, "--help"])
    assert exited.value.code == 0
    text = capsys.readouterr().out
    assert f"usage: typed-toolsets {command}" in text
    assert "module:Class" in text
    assert TEXT in text  # an example to copy
    assert len(text.splitlines()) > 10


@pytest.mark.parametrize(
    ("argv", "line"),
    [
        (["call", TEXT], "typed-toolsets call: error: the following arguments are required: TOOL"),
        (
            ["schema", TEXT, "--format", "xml"],
            "typed-toolsets schema: error: argument --format: invalid choice: 'xml'",
        ),
        (["list"], "typed-toolsets list: error: the following arguments are required: TARGET"),
        ([], "typed-toolsets: error: the following arguments are required: COMMAND"),
    ],
)
def test_usage_errors_exit_2_with_a_one_line_reason(
    argv: list[str], line: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(argv)
    assert exited.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    (written,) = captured.err.splitlines()  # the reason alone, not argparse's usage over it
    assert written.startswith(line)
    command = line.split(": error")[0]
    assert written.endswith(f" (see {command} --help)")


# ------------------------------------------------------------------ streams and interrupts


def _run_bytes(
    argv: list[str], *, cwd: Path | None = None, stdin: bytes | None = None, stdout: Any = None
) -> tuple[int, bytes, str]:
    """Run *argv* with bytes on stdin; its status, stdout (bytes) and stderr (text)."""
    done = subprocess.run(
        argv,
        input=stdin,
        stdout=subprocess.PIPE if stdout is None else stdout,
        stderr=subprocess.PIPE,
        cwd=cwd,
        timeout=120,
        check=False,
    )
    return done.returncode, done.stdout or b"", done.stderr.decode(errors="replace")


COMMAND = [sys.executable, "-m", "typed_toolsets"]


@pytest.mark.slow
def test_stdin_is_read_as_bytes_so_bad_utf8_is_said_as_such() -> None:
    status, out, err = _run_bytes(
        [*COMMAND, "call", TEXT, "text_wc", "-"], stdin=b'{"text": "\xff"}'
    )
    assert (status, out) == (1, b"")
    assert err == (
        "Error: Invalid JSON arguments for tool 'text_wc': the bytes are not valid UTF-8 "
        "(invalid start byte at byte 10)\n"
    )


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="a POSIX argument vector is bytes")
def test_bad_utf8_in_the_argument_is_said_as_on_stdin() -> None:
    # Python decodes argv with surrogateescape: the byte the user gave, not a "lone surrogate".
    status, out, err = _run_bytes(
        [*COMMAND, "call", TEXT, "text_wc", os.fsdecode(b'{"text": "\xff"}')]
    )
    assert (status, out) == (1, b"")
    assert err == (
        "Error: Invalid JSON arguments for tool 'text_wc': the bytes are not valid UTF-8 "
        "(invalid start byte at byte 10)\n"
    )


TINY = """\
from typed_toolsets import Limits, Toolset, tool


class Tiny(Toolset):
    limits = Limits(max_argument_bytes=16)

    @tool
    def echo(self, *, s: str) -> str:
        return s
"""


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads /proc")
def test_sigterm_kills_the_program_of_the_call_it_ends() -> None:
    # SIGTERM ended the command where it stood: the kill of grep's process group at the
    # call's deadline never came, and grep (backtracking for minutes) ran on alone.
    from tests.server.support import alive, children_of, wait_until

    arguments = json.dumps({"text": "ab" * 300 + "z", "pattern": r"^(.*)(.*)\2\1\1z"})
    greps: set[int] = set()
    with subprocess.Popen(
        [*COMMAND, "call", TEXT, "text_grep", arguments],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    ) as process:
        try:
            wait_until(lambda: greps.update(children_of(process.pid)) or greps, 60, "grep")
            process.send_signal(signal.SIGTERM)
            status = process.wait(20)
            wait_until(lambda: not any(map(alive, greps)), 5, "grep to end")
        finally:
            for pid in greps:
                if alive(pid):
                    os.kill(pid, signal.SIGKILL)
            if process.poll() is None:
                process.kill()
                process.wait(20)
    assert status == -signal.SIGTERM


UNBOUNDED = """\
import sys

from typed_toolsets import Limits, Toolset, tool


class Unbounded(Toolset):
    limits = Limits(max_argument_bytes={limit})

    @tool
    def echo(self, *, s: str) -> str:
        return s
"""


@pytest.mark.slow
@pytest.mark.parametrize("limit", ["sys.maxsize", "10**15"])
def test_stdin_is_read_under_a_limit_written_as_none(tmp_path: Path, limit: str) -> None:
    # One read of the limit's size: OverflowError past an index, MemoryError past the memory,
    # each a traceback, for 14 bytes on stdin.
    (tmp_path / "unbounded.py").write_text(UNBOUNDED.format(limit=limit))
    argv = [*COMMAND, "call", "unbounded.py:Unbounded", "unbounded_echo", "-"]
    status, out, err = _run_bytes(argv, cwd=tmp_path, stdin=b'{"s": "hi"}\n')
    assert (status, out, err) == (0, b"hi\n", "")
    status, out, err = _run_bytes(argv, cwd=tmp_path, stdin=b"x" * 3_000_000)
    assert (status, out) == (1, b"")
    assert err.startswith("Error: Invalid JSON arguments for tool 'unbounded_echo'")
    assert "Traceback" not in err


@pytest.mark.slow
@pytest.mark.parametrize("ending", [b"", b"\n", b"\r\n"])
def test_stdin_s_line_ending_is_not_counted_against_the_limit(
    tmp_path: Path, ending: bytes
) -> None:
    # `echo '{"s": "abcdefg"}' | typed-toolsets call ... -`: the same 16 bytes as the argument,
    # and accepted as it is; echo's newline made them 17, over the limit.
    (tmp_path / "tiny.py").write_text(TINY)
    argv = [*COMMAND, "call", "tiny.py:Tiny", "tiny_echo", "-"]
    status, out, err = _run_bytes(argv, cwd=tmp_path, stdin=b'{"s": "abcdefg"}' + ending)
    assert (status, out, err) == (0, b"abcdefg\n", "")
    status, out, err = _run_bytes(argv, cwd=tmp_path, stdin=b'{"s": "abcdefgh"}' + ending)
    assert (status, out) == (1, b"")
    assert "are 17 bytes" in err


@pytest.mark.slow
def test_a_closed_stdin_is_a_one_line_usage_error() -> None:
    # Python closes descriptor 0, then becomes the command: `typed-toolsets call ... - <&-`.
    closer = "import os, sys; os.close(0); os.execv(sys.executable, sys.argv[1:])"
    argv = [sys.executable, "-c", closer, sys.executable, "-m", "typed_toolsets"]
    status, out, err = _run_bytes([*argv, "call", TEXT, "text_wc", "-"])
    assert (status, out) == (2, b"")
    assert err == "typed-toolsets call: error: cannot read the arguments from stdin: it is closed\n"


@pytest.mark.slow
@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize(
    "args",
    [["call", TEXT, "text_wc", '{"text": "a"}'], ["list", TEXT], ["demo"], ["schema", TEXT]],
    ids=lambda args: args[0],
)
def test_output_that_cannot_be_written_is_one_line_and_status_1(args: list[str]) -> None:
    with Path("/dev/full").open("wb") as full:
        status, _, err = _run_bytes([*COMMAND, *args], stdout=full)
    assert status == 1
    assert err == (
        f"typed-toolsets {args[0]}: error: cannot write the output: "
        "[Errno 28] No space left on device\n"
    )


ACCENTS = """\
from typed_toolsets import Toolset, tool


class Accents(Toolset):
    @tool(description="Order a café")
    def order(self) -> str:
        return "café"
"""


def _written_as(cwd: Path, encoding: str, args: list[str]) -> subprocess.CompletedProcess[bytes]:
    """Run the command line in *cwd* with stdout encoded as *encoding* (PYTHONIOENCODING)."""
    env = {**os.environ, "PYTHONIOENCODING": encoding}
    return subprocess.run(
        [*COMMAND, *args], capture_output=True, cwd=cwd, env=env, timeout=120, check=False
    )


@pytest.mark.slow
@pytest.mark.parametrize(
    "args",
    [
        ["call", "accents.py:Accents", "accents_order"],
        ["list", "accents.py"],
        ["schema", "accents.py"],
    ],
    ids=lambda args: args[0],
)
def test_output_that_stdout_s_encoding_cannot_write_is_one_line_and_status_1(
    tmp_path: Path, args: list[str]
) -> None:
    # A stdout whose encoding lacks a character of the output (PYTHONIOENCODING, a legacy
    # Windows code page when redirected) is output that cannot be written: the remedy, no
    # traceback.
    (tmp_path / "accents.py").write_text(ACCENTS, encoding="utf-8")
    done = _written_as(tmp_path, "ascii", args)
    assert done.returncode == 1
    assert done.stderr.decode() == (
        f"typed-toolsets {args[0]}: error: cannot write the output: stdout's encoding (ascii) "
        "has no character U+00E9; set PYTHONIOENCODING=utf-8\n"
    )


def test_a_lone_surrogate_in_the_output_is_not_blamed_on_the_encoding(tmp_path: Path) -> None:
    # "set PYTHONIOENCODING=utf-8" was the remedy given under utf-8 itself.
    (tmp_path / "halves.py").write_text(ACCENTS.replace("\u00e9", "\\udc80"), encoding="utf-8")
    done = _written_as(tmp_path, "utf-8:strict", ["schema", "halves.py"])
    assert done.returncode == 1
    assert done.stderr.decode() == (
        "typed-toolsets schema: error: cannot write the output: the output holds U+DC80, half "
        "of a UTF-16 pair alone, which no encoding can write; remove it from the text it comes "
        "from (a docstring, say)\n"
    )


INTERRUPTING = """\
import os

from typed_toolsets import Toolset, tool

if os.environ.get("INTERRUPT_ON_IMPORT"):
    raise KeyboardInterrupt


class StopToolset(Toolset):
    @tool
    def now(self) -> str:
        raise KeyboardInterrupt
"""


def test_an_interrupt_before_the_command_runs_is_one_line_and_status_130(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Building the parser imports the commands' modules: a Ctrl-C there was a traceback.
    def interrupted() -> NoReturn:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli_main, "build_parser", interrupted)
    assert cli_main.main(["list", "typed_toolsets.text"]) == 130
    assert capsys.readouterr() == ("", "typed-toolsets: interrupted\n")


@pytest.mark.slow
@pytest.mark.parametrize(
    ("args", "on_import"),
    [
        (["call", "stop_tools:StopToolset", "stop_now"], False),
        (["call", "stop_tools:StopToolset", "stop_now"], True),
        (["list", "stop_tools"], True),
        (["check", "stop_tools"], True),
    ],
)
def test_an_interrupt_is_one_line_and_status_130(
    tmp_path: Path, args: list[str], on_import: bool
) -> None:
    (tmp_path / "stop_tools.py").write_text(INTERRUPTING, encoding="utf-8")
    env = {**os.environ, "INTERRUPT_ON_IMPORT": "1" if on_import else ""}
    done = subprocess.run(
        [*COMMAND, *args], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120
    )
    assert (done.returncode, done.stdout) == (130, "")
    assert done.stderr == f"typed-toolsets {args[0]}: interrupted\n"
