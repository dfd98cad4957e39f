"""The typing examples: mypy with the plugin and basedpyright strict accept ``tests/typing``;
basedpyright reports exactly the mistakes marked in ``tests/typing_negative``.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from mypy import api

ROOT = Path(__file__).parents[2]
POSITIVE = ROOT / "tests" / "typing"
NEGATIVE = ROOT / "tests" / "typing_negative"
_EXPECT_RE = re.compile(r"#\s*expect:\s*(?P<rules>[\w, ]+)$")


def test_typing_examples_pass_mypy_with_the_plugin(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # the config's paths are relative to the repository root
    stdout, stderr, status = api.run(
        [
            "--config-file",
            str(POSITIVE / "mypy.ini"),
            "--no-incremental",
            "--cache-dir",
            "/dev/null",
        ]
    )
    assert (status, stderr) == (0, ""), stdout
    count = len(list(POSITIVE.glob("*.py")))  # every example file is checked
    assert f"Success: no issues found in {count} source files" in stdout


def _basedpyright() -> str:
    found = shutil.which("basedpyright", path=str(Path(sys.executable).parent))
    found = found or shutil.which("basedpyright")
    if found is None:  # pragma: no cover - it is in the dev extra
        pytest.skip("basedpyright is not installed")
    return found


@pytest.fixture(scope="module")
def pyright_diagnostics() -> list[dict[str, Any]]:
    result = subprocess.run(
        [_basedpyright(), "--outputjson", str(POSITIVE), str(NEGATIVE)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    report = json.loads(result.stdout)
    assert report["summary"]["filesAnalyzed"] >= 5
    diagnostics: list[dict[str, Any]] = report["generalDiagnostics"]
    return diagnostics


@pytest.mark.slow
def test_typing_examples_pass_basedpyright_strict(
    pyright_diagnostics: list[dict[str, Any]],
) -> None:
    positive = [d for d in pyright_diagnostics if Path(str(d["file"])).is_relative_to(POSITIVE)]
    assert positive == []


@pytest.mark.slow
def test_basedpyright_reports_the_marked_mistakes(
    pyright_diagnostics: list[dict[str, Any]],
) -> None:
    expected: set[tuple[str, int, str]] = set()
    for path in sorted(NEGATIVE.glob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            match = _EXPECT_RE.search(line)
            if match:
                rules = (r.strip() for r in match.group("rules").split(","))
                expected |= {(path.name, number, rule) for rule in rules}
    actual: set[tuple[str, int, str]] = set()
    for diagnostic in pyright_diagnostics:
        path = Path(str(diagnostic["file"]))
        if path.is_relative_to(NEGATIVE) and diagnostic["severity"] == "error":
            line = int(diagnostic["range"]["start"]["line"]) + 1
            actual.add((path.name, line, str(diagnostic.get("rule"))))
    assert len(expected) >= 8
    assert actual == expected
