"""``typed-toolsets demo``: the README's first command, run as a user runs it."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.fixtures.wheel import install_wheel
from typed_toolsets.cli.demo import LOG, SCRIPT, TASK
from typed_toolsets.cli.main import main
from typed_toolsets.text import TextProcessingToolset


def _demo(*arguments: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "typed_toolsets", "demo", *arguments],
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )


def _expected_observations() -> list[str]:
    """What each scripted call gives when the tools are called directly."""
    tools = {t.name: t for t in TextProcessingToolset.to_tools()}
    return [
        tools[step["action"]].dynamic_call(step["action_input"])
        for step in SCRIPT
        if step["action"] != "finish"
    ]


def test_the_demo_prints_each_step_readably() -> None:
    done = _demo()
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    out = done.stdout
    assert f"Task: {TASK}\n" in out
    assert "".join(f"  {line}\n" for line in LOG.splitlines()) in out  # the log, shown once
    headers = re.findall(r"^Step (\d+): (\S+)(.*)$", out, re.M)
    assert headers == [
        ("1", "text_wc", ""),
        ("2", "text_filter_lines", ""),
        ("3", "text_unique_lines", ""),
        ("4", "text_extract_lines", "  [error: sent back to the model]"),
        ("5", "text_extract_lines", ""),
        ("6", "finish", ""),
    ]
    # The argument error, as the model saw it, then the corrected call's real output.
    assert (
        "  observation: Error: Invalid arguments for tool 'text_extract_lines': start_line: '3' "
        "is not of type 'integer'; 3 is wanted, without quotes\n"
    ) in out
    step5 = out[out.index("Step 5:") : out.index("Step 6:")]
    assert '"start_line": 3' in step5
    assert "2025-03-14 09:02:17 WARN  cache  hit rate below 50%" in step5
    # Long arguments are abbreviated; the log is never repeated in a step.
    assert out.count("connected to primary") == 1
    assert '{"text": <the log>, "lines_only": true}' in out
    assert re.search(r"^Final answer:\n  The database failed first", out, re.M)
    assert re.search(
        r"^6 steps, 5 tool calls, 1 error sent back to the model, [0-9.]+ ms in all\.$", out, re.M
    )


def test_the_demo_as_json() -> None:
    done = _demo("--json")
    assert done.returncode == 0, done.stderr
    run: dict[str, Any] = json.loads(done.stdout)
    assert run["task"] == TASK
    assert run["iterations"] == len(run["steps"]) == len(SCRIPT)
    assert run["final_answer"] == SCRIPT[-1]["final_answer"]
    steps = run["steps"]
    assert [s["action"] for s in steps] == [s["action"] for s in SCRIPT]
    assert [s["arguments"] for s in steps[:-1]] == [s["action_input"] for s in SCRIPT[:-1]]
    assert [s["thought"] for s in steps] == [s["thought"] for s in SCRIPT]
    # Every observation is what the real tool gives for those arguments.
    assert [s["observation"] for s in steps[:-1]] == _expected_observations()
    assert [s["ok"] for s in steps] == [True, True, True, False, True, True]
    assert steps[-1]["observation"] is None
    assert all(isinstance(s["duration"], float) and s["duration"] >= 0 for s in steps)


def test_the_demo_command_in_process(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo"]) == 0
    assert "Step 6: finish" in capsys.readouterr().out
    assert main(["demo", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["iterations"] == 6


def test_the_demo_help_says_what_it_does(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["demo", "--help"])
    assert caught.value.code == 0
    out = capsys.readouterr().out
    assert "ReAct loop" in out
    assert "--json" in out


def test_the_demo_needs_no_program_on_path() -> None:
    # Only pure-Python tools: a machine without grep or rg runs it the same.
    done = _demo(env={**os.environ, "PATH": ""})
    assert done.returncode == 0, done.stderr
    assert "Step 6: finish" in done.stdout


@pytest.mark.slow
def test_the_readme_first_command_works_from_a_fresh_install(tmp_path: Path) -> None:
    """``pip install .`` then ``typed-toolsets demo``: the wheel, its console script, no source."""
    site = install_wheel(tmp_path)
    script = site / "bin" / "typed-toolsets"
    assert script.exists()
    env = {**os.environ, "PYTHONPATH": str(site), "PATH": ""}
    done = subprocess.run(
        [str(script), "demo"], cwd=tmp_path, env=env, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert "Step 4: text_extract_lines  [error: sent back to the model]" in done.stdout
    assert "Final answer:" in done.stdout
    where = subprocess.run(
        [sys.executable, "-c", "import typed_toolsets; print(typed_toolsets.__file__)"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert where.stdout.startswith(str(site))  # the installed copy ran, not the source tree


def test_off_posix_the_demo_says_what_it_needs_in_one_line() -> None:
    # Pretended as in tests/test_process.py: the standard modules first, then os.name says "nt".
    script = (
        "import pathlib, selectors, shutil, signal, subprocess, sys, tempfile\n"
        "import os\n"
        "os.name = 'nt'\n"
        "from typed_toolsets.cli.main import main\n"
        "sys.exit(main(['demo']))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 1
    assert done.stdout == ""
    (line,) = done.stderr.splitlines()  # no traceback
    assert line.startswith("typed-toolsets demo: error: typed_toolsets' built-in toolsets")
    assert "on Windows, run them under WSL" in line
