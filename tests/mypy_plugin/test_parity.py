"""Parity: the plugin and ``typed-toolsets check`` agree on every case file.

The same files go through mypy with the plugin and through the runtime check; both must name
the same problems: file, line, error code, class and method. The few differences that follow
from what each side can see are listed in `KNOWN`, each located by a piece of its source line,
and are asserted too, so that a change on either side shows up here.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from typed_toolsets.analysis.check import Finding, run_check

CASES_DIR = Path(__file__).parent / "cases"
CASES = sorted(CASES_DIR.glob("*.py"))

#: Files whose checks mypy's own configuration changes (inline `# mypy:` comments).
MYPY_CONFIGURED = {"disabled_codes.py", "disabled_one_code.py"}

#: (file, text on the line, side that reports it, why the other side cannot).
KNOWN = [
    ("local_classes.py", 'tool("missing")', "plugin", "a class inside a function never runs"),
    ("local_classes.py", "def bad(self, *args", "plugin", "a class inside a function never runs"),
    (
        "init_call_site.py",
        "type(instance).to_tools()",
        "plugin",
        "the runtime scan resolves names, not expressions",
    ),
]

#: (file, line, code, class, method, parameter)
Problem = tuple[str, int, str, str, str | None, str | None]

_PLUGIN_PARAM_RE = re.compile(
    r'as a tool: (?:parameter "([^"]+)"|"\*{1,2}([^"]+)")|parameter "([^"]+)" has the union'
)
_RUNTIME_PARAM_RE = re.compile(r": (?:parameter '([^']+)'|'\*{1,2}([^']+)')")


def _parameter(pattern: re.Pattern[str], text: str) -> str | None:
    match = pattern.search(text)
    return next((g for g in match.groups() if g), None) if match else None


_PLUGIN_RE = re.compile(
    r'^(?P<line>\d+): error: (?:Cannot export "(?P<export>[^"]+)" as a tool'
    r'|Ambiguous union in tool "(?P<ambiguous>[^"]+)"'
    r'|"(?P<call>[^"]+)\.to_tools\(\)" calls).*\[toolset-(?P<code>[a-z-]+)\]$'
)


def _plugin_problems(output: dict[Path, list[str]]) -> Iterator[Problem]:
    for path, lines in output.items():
        for line in lines:
            match = _PLUGIN_RE.match(line)
            if match is None:
                assert "[toolset" not in line, line
                continue
            code = match.group("code")
            export = match.group("export") or match.group("ambiguous")
            number = int(match.group("line"))
            if export is not None:
                toolset, method = export.rsplit(".", 1)
                param = _parameter(_PLUGIN_PARAM_RE, line)
                yield path.name, number, code, toolset, method, param
            else:
                yield path.name, number, code, match.group("call"), None, None


def _runtime_problem(finding: Finding) -> Problem:
    assert finding.code is not None, finding
    assert finding.toolset is not None, finding
    param = _parameter(_RUNTIME_PARAM_RE, finding.message)
    file = Path(finding.path).name
    return file, finding.line, finding.code, finding.toolset, finding.method, param


@pytest.fixture(scope="module")
def runtime_findings() -> list[Finding]:
    # The case files import each other by module name: put their directory on sys.path while
    # checking, and forget the modules afterwards.
    saved_path = list(sys.path)
    try:
        result = run_check([str(c) for c in CASES])
    finally:
        sys.path[:] = saved_path
        for name, module in list(sys.modules.items()):
            if Path(getattr(module, "__file__", None) or "/").is_relative_to(CASES_DIR):
                del sys.modules[name]
    return list(result.findings)


def _line_of(file: str, text: str) -> int:
    lines = (CASES_DIR / file).read_text(encoding="utf-8").splitlines()
    matches = [number for number, line in enumerate(lines, start=1) if text in line]
    assert len(matches) == 1, (file, text, matches)
    return matches[0]


def test_plugin_and_runtime_agree(
    case_output: dict[Path, list[str]], runtime_findings: list[Finding]
) -> None:
    plugin = {p for p in _plugin_problems(case_output) if p[0] not in MYPY_CONFIGURED}
    runtime = {
        _runtime_problem(f) for f in runtime_findings if Path(f.path).name not in MYPY_CONFIGURED
    }
    known = {(file, _line_of(file, text)): side for file, text, side, _why in KNOWN}
    only_plugin = {p for p in plugin - runtime if (p[0], p[1]) not in known}
    only_runtime = {p for p in runtime - plugin if (p[0], p[1]) not in known}
    assert (sorted(only_plugin), sorted(only_runtime)) == ([], [])
    assert len(plugin & runtime) >= 85


def test_known_differences_still_differ(
    case_output: dict[Path, list[str]], runtime_findings: list[Finding]
) -> None:
    plugin = {(p[0], p[1]) for p in _plugin_problems(case_output)}
    runtime = {(Path(f.path).name, f.line) for f in runtime_findings}
    for file, text, side, why in KNOWN:
        where = (file, _line_of(file, text))
        assert (where in plugin, where in runtime) == (side == "plugin", side == "runtime"), why


def test_runtime_honours_no_mypy_comments(runtime_findings: list[Finding]) -> None:
    # `# mypy: disable-error-code=...` configures mypy only; the runtime check reports anyway.
    files = {Path(f.path).name for f in runtime_findings}
    assert files >= MYPY_CONFIGURED
