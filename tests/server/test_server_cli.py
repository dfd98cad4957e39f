"""``typed-toolsets serve``: its usage errors (exit status 2, one line, before anything is served).

The runs that serve are in test_server_stdio.py and test_server_http.py; these stop before.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from starlette.applications import Starlette

from tests.server.support import OTHER, SAMPLE, TEXT
from typed_toolsets.cli.main import build_parser, main
from typed_toolsets.cli.serve import SETTINGS_VARIABLE, worker_app


def serve(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    status = main(["serve", *args])
    captured = capsys.readouterr()
    assert captured.out == ""
    return status, captured.err


def served_up_to_binding(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """Serve *args* over HTTP on a port already taken: the run's error, once it got that far.

    A run that gets as far as binding passed every check of its targets and options; the port
    being taken, it serves nothing and returns.
    """
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        status, err = serve(capsys, *args, "--transport", "http", "--port", port)
    assert status == 2
    assert err.startswith(f"typed-toolsets serve: error: cannot serve on 127.0.0.1:{port}: ")
    return err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            (SAMPLE, "--port", "8000"),
            "--port applies to --transport http; add it, or leave the option out",
        ),
        (
            (SAMPLE, "--host", "127.0.0.1", "--token-env", "X"),
            "--host, --token-env applies to --transport http",
        ),
        (
            (SAMPLE, "--transport", "http", "--host", "0.0.0.0"),  # noqa: S104 - refused
            "binding to 0.0.0.0 would let anyone who can reach it run the tools; serve on",
        ),
        (
            (SAMPLE, "--transport", "http", "--token-env", "TYPED_TOOLSETS_UNSET_VARIABLE"),
            "the environment variable TYPED_TOOLSETS_UNSET_VARIABLE is not set or empty",
        ),
        ((SAMPLE, "--transport", "http", "--workers", "0"), "--workers must be at least 1"),
        ((SAMPLE, "--transport", "http", "--port", "70000"), "--port within 0-65535"),
        # Each says which value is wrong (both used to be named whichever it was).
        ((SAMPLE, "--transport", "http", "--port", "-1"), "-1 is no port: give --port within"),
        ((SAMPLE, "--transport", "http", "--workers", "-3"), "at least 1, not -3"),
        (
            (SAMPLE, "--tools", "sample_add,sample_nope"),
            "--tools: no tool 'sample_nope' in the targets; available tools: sample_add,",
        ),
        ((SAMPLE, "--tools", " , "), "--tools names no tool"),
        (
            ("no_such_module_xyz:Thing",),
            "cannot import 'no_such_module_xyz': ModuleNotFoundError",
        ),
        (
            (SAMPLE, TEXT, OTHER),
            "Two tools are exported as 'sample_add': SampleToolset.add and OtherToolset.plus",
        ),
    ],
)
def test_usage_errors_are_one_line_and_exit_status_2(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], message: str
) -> None:
    status, err = serve(capsys, *args)
    assert status == 2
    assert err.startswith("typed-toolsets serve: error: ")
    assert message in err
    assert err.count("\n") == 1
    assert "Traceback" not in err


@pytest.mark.parametrize("token", ["   ", "secret\n", " secret", "se\tcret", "sécret"])
def test_a_token_no_client_can_send_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, token: str
) -> None:
    # The server would start and refuse every request with 401.
    monkeypatch.setenv("TYPED_TOOLSETS_TEST_TOKEN", token)
    status, err = serve(
        capsys, SAMPLE, "--transport", "http", "--token-env", "TYPED_TOOLSETS_TEST_TOKEN"
    )
    assert status == 2
    assert err.startswith(
        "typed-toolsets serve: error: --token-env TYPED_TOOLSETS_TEST_TOKEN: the token has spaces"
    )
    assert err.count("\n") == 1


def test_a_definition_error_in_a_target_is_exit_status_1(
    capsys: pytest.CaptureFixture[str], workdir: Path
) -> None:
    broken = workdir / "broken_tools.py"
    broken.write_text(
        "from typed_toolsets import Toolset, tool\n\n\n"
        "class BrokenToolset(Toolset):\n"
        "    exports = (tool('nope'),)\n"
    )
    status, err = serve(capsys, f"{broken}:BrokenToolset")
    assert status == 1
    assert err.startswith("typed-toolsets serve: error: ")
    assert "BrokenToolset has no method 'nope' to export" in err


def test_a_clash_outside_the_chosen_tools_does_not_matter(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # --tools picks other_hello only, so the sample_add clash is not served and not an error:
    # the run gets as far as binding, to a port already taken (so it serves nothing).
    err = served_up_to_binding(capsys, SAMPLE, OTHER, "--tools", "other_hello")
    assert "Address already in use" in err


def test_the_subcommand_is_listed_and_its_parser_loads_no_sdk() -> None:
    assert "serve" in build_parser().format_help()
    script = (
        "import json, sys\n"
        "from typed_toolsets.cli.main import build_parser\n"
        "build_parser().parse_args(['serve', 'x', '--transport', 'http'])\n"
        "print(json.dumps([m in sys.modules for m in ('mcp', 'typed_toolsets.server', "
        "'starlette', 'uvicorn')]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=120
    )
    assert json.loads(done.stdout) == [False, False, False, False]


@pytest.mark.slow
def test_without_the_extra_the_remedy_is_printed() -> None:
    script = (
        "import sys\n"
        "sys.modules['mcp'] = None  # as if the mcp extra were not installed\n"
        "from typed_toolsets.cli.main import main\n"
        "status = main(['serve', 'typed_toolsets.text:TextProcessingToolset'])\n"
        "try:\n"
        "    import typed_toolsets.server\n"
        "except ImportError as exc:\n"
        "    print(exc.name, exc)\n"
        "raise SystemExit(status)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        check=False,
        timeout=120,
    )
    remedy = (
        "the MCP server needs the official MCP SDK, an optional extra: "
        "pip install 'typed-toolsets[mcp]'"
    )
    assert done.returncode == 2
    assert done.stderr.startswith(f"typed-toolsets serve: error: {remedy} (")
    assert done.stderr.count("\n") == 1
    assert done.stdout.startswith(f"mcp {remedy} (")


def test_a_worker_builds_its_app_from_the_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(SETTINGS_VARIABLE, raising=False)
    with pytest.raises(RuntimeError, match=SETTINGS_VARIABLE):
        worker_app()
    settings = {
        "targets": [SAMPLE],
        "tools": ["sample_add"],
        "token_env": "TYPED_TOOLSETS_TEST_TOKEN",
        "log_arguments": False,
    }
    monkeypatch.setenv(SETTINGS_VARIABLE, json.dumps(settings))
    monkeypatch.setenv("TYPED_TOOLSETS_TEST_TOKEN", "t")
    assert isinstance(worker_app(), Starlette)
    monkeypatch.delenv("TYPED_TOOLSETS_TEST_TOKEN")
    with pytest.raises(RuntimeError, match="TYPED_TOOLSETS_TEST_TOKEN is not set"):
        worker_app()


def test_serve_called_from_code_never_ends_its_callers_process(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Only `typed-toolsets serve` run as the program (and its workers) may end its process when
    # a stop leaves calls running (tests/server/test_server_stdio.py and _http.py show that
    # it does): main([...]) and worker_app() from other code, this test's process, must not.
    from typed_toolsets.server.stopping import watchdog

    status, _ = serve(capsys, SAMPLE, "--port", "8000")  # a usage error, after the settings
    assert status == 2
    settings = {"targets": [SAMPLE], "tools": None, "token_env": None, "log_arguments": False}
    monkeypatch.setenv(SETTINGS_VARIABLE, json.dumps(settings))
    assert isinstance(worker_app(), Starlette)
    assert watchdog() is None  # no watchdog is started here by any stop


def test_a_class_named_twice_is_served_once(capsys: pytest.CaptureFixture[str]) -> None:
    # `typed_toolsets.text` holds TextProcessingToolset, named again alone: its 8 tools were
    # each "exported twice", a usage error in one 3,000-character line. Now the run gets as
    # far as binding, to a port already taken (so it serves nothing).
    served_up_to_binding(capsys, "typed_toolsets.text", TEXT)


def test_several_clashes_are_named_in_one_short_line(
    capsys: pytest.CaptureFixture[str], workdir: Path
) -> None:
    twins = workdir / "twin_tools.py"
    twins.write_text(
        "from typed_toolsets import Toolset, tool\n\n\n"
        "class One(Toolset):\n"
        "    toolset_name = 'twin'\n\n"
        "    @tool\n    def a(self) -> int:\n        return 1\n\n"
        "    @tool\n    def b(self) -> int:\n        return 1\n\n\n"
        "class Two(One):\n"
        "    pass\n"
    )
    status, err = serve(capsys, f"{twins}:One", f"{twins}:Two")
    assert status == 2
    assert err == (
        "typed-toolsets serve: error: 2 tool names are each exported more than once ('twin_a', "
        "'twin_b'). Two tools are exported as 'twin_a': One.a and Two.a; a model could not tell "
        "them apart. Rename one with tool(..., tool_name=...) or a different toolset_name, or "
        "leave one out\n"
    )
