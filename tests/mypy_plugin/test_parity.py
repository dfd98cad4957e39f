"""Parity: the plugin and ``typed-toolsets check`` say the same thing on every case file.

The same files go through mypy with the plugin and through the runtime check. Both build the
same `Problem` records and render them with the same templates, so each problem must be
reported by both, on the same line, with the same code and the same message. Two kinds of
differences follow from what each side can see, and are listed and asserted too, so that a
change on either side shows up here:

- `LOOSE`: values that each side works out from its own view of a type (mypy's types at check
  time, the annotation objects at run time); the rest of the message must still be equal;
- `KNOWN`: problems only one side can report, and `KNOWN_WORDING`: problems both report, with
  the same code, class and method, in other words.

The ``toolset-unchecked`` code is the plugin's alone (what it cannot read, the run time sees):
those lines are left out, and `test_unchecked_code_is_the_plugins_alone` asserts it.
"""

from __future__ import annotations

import contextlib
import re
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from typed_toolsets.analysis.check import Finding, run_check
from typed_toolsets.analysis.targets import load_module, toolset_classes
from typed_toolsets.definition.classes import init_problem
from typed_toolsets.definition.errors import ToolsetDefinitionError
from typed_toolsets.rules.kinds import CODE_PREFIX, STATIC_ONLY_CODES
from typed_toolsets.rules.names import class_display_name
from typed_toolsets.rules.problems import Problem

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
    *(
        (
            "typed_proxy.py",
            text,
            "plugin",
            "Toolset.proxy() raises it when called; check does not infer what an argument is",
        )
        for text in (
            "proxy(catalog.helper)",
            "proxy(child.extra)",
            "proxy(remote.search)",
            "Toolset.proxy(Tools.search)",
            "Tools.proxy(Tools.find)",
            "proxy(kind.search)",
            "proxy(MoreTools.search)",
        )
    ),
    (
        "private_names.py",
        "proxy(self.__helper)",
        "plugin",
        "Toolset.proxy() raises it when called; check does not infer what an argument is",
    ),
    (
        "unchecked.py",
        "options: re2.Options",
        "runtime",
        "mypy does not see the type (the plugin says it cannot check it)",
    ),
    (
        "unchecked.py",
        "data: bytes",
        "runtime",
        "mypy checks nothing of a class with a custom metaclass (the plugin says so)",
    ),
    (
        "unchecked.py",
        'tool("search", **BAD_OPTIONS)',
        "runtime",
        "mypy cannot tell what **BAD_OPTIONS holds (the plugin says it cannot check it)",
    ),
    (
        "defaults.py",
        "x: Annotated[float, Le(10)] = math.inf",
        "runtime",
        "mypy does not see the constraints of Annotated",
    ),
    (
        "defaults.py",
        "n: Annotated[int, Ge(0)] = -1",
        "runtime",
        "mypy does not see the constraints of Annotated",
    ),
    (
        "conditional.py",
        "class Typo(Toolset):",
        "runtime",
        "`exports` set under a condition: the plugin says it cannot check it",
    ),
    (
        "bindings.py",
        "class Unpacked(Toolset):",
        "runtime",
        "`exports` bound by a tuple target: the plugin says it cannot check it",
    ),
    (
        "bindings.py",
        "@tool(inline=True)",
        "runtime",
        "`limits` bound by a tuple target: the plugin says it cannot check them",
    ),
]

#: (file, text on the line, why the two sides word the same problem differently).
KNOWN_WORDING = [
    (
        "not_a_method.py",
        'tool("retries")',
        "at class creation attrs has not made the field yet: the runtime sees its default, 3",
    ),
    ("param_type.py", "bare: list,", "mypy fills the missing parameter in: list[Any]"),
    ("param_type.py", "table: dict)", "mypy fills the missing parameters in: dict[Any, Any]"),
    (
        "param_type.py",
        "recursive: Json,",
        "mypy names the alias; at run time it is already expanded",
    ),
    ("param_type.py", "pair: TupleValued", "the run time shows the member's value too"),
]

#: Values of a kind of problem that each side computes from its own view of the type.
LOOSE: dict[str, tuple[frozenset[str], str]] = {
    "ambiguous-union": (
        frozenset({"first", "second"}),
        "mypy splits Literal['a', 'b'] into one literal per value",
    ),
}

#: (file, line, code, message)
Reported = tuple[str, int, str, str]

_PLUGIN_RE = re.compile(r"^(?P<line>\d+): error: (?P<message>.*)  \[(?P<code>toolset-[a-z-]+)\]$")
_STATIC_ONLY = {CODE_PREFIX + code for code in STATIC_ONLY_CODES}
_WILDCARD = "\0"


def _plugin_problems(output: dict[Path, list[str]]) -> Iterator[Reported]:
    for path, lines in output.items():
        for line in lines:
            match = _PLUGIN_RE.match(line)
            if match is None:
                assert "[toolset" not in line, line
                continue
            if match.group("code") not in _STATIC_ONLY:
                yield (
                    path.name,
                    int(match.group("line")),
                    match.group("code"),
                    match.group("message"),
                )


def _reported(finding: Finding) -> Reported:
    return Path(finding.path).name, finding.line, finding.code, finding.message


def _loose_pattern(problem: Problem) -> re.Pattern[str] | None:
    """The message of *problem* with its `LOOSE` values as wildcards, or None."""
    loose = LOOSE.get(problem.kind)
    if loose is None:
        return None
    values = tuple((n, _WILDCARD if n in loose[0] else v) for n, v in problem.values)
    skeleton = Problem(problem.kind, problem.toolset, problem.method, problem.parameter, values)
    return re.compile(re.escape(skeleton.message).replace(re.escape(_WILDCARD), ".+") + "$")


@contextlib.contextmanager
def _case_modules() -> Iterator[None]:
    # The case files import each other by module name: put their directory on sys.path while
    # checking, and forget the modules afterwards.
    saved_path = list(sys.path)
    try:
        yield
    finally:
        sys.path[:] = saved_path
        for name, module in list(sys.modules.items()):
            if Path(getattr(module, "__file__", None) or "/").is_relative_to(CASES_DIR):
                del sys.modules[name]


@pytest.fixture(scope="module")
def runtime_findings() -> list[Finding]:
    with _case_modules():
        result = run_check([str(c) for c in CASES])
    return list(result.findings)


def _line_of(file: str, text: str) -> int:
    lines = (CASES_DIR / file).read_text(encoding="utf-8").splitlines()
    matches = [number for number, line in enumerate(lines, start=1) if text in line]
    assert len(matches) == 1, (file, text, matches)
    return matches[0]


def _where(message: str) -> str:
    return message.split(": ", 1)[0]


def _pair(
    plugin: set[Reported], findings: list[Finding]
) -> tuple[int, set[Reported], list[Finding]]:
    """Match each finding with a plugin problem: (exact matches, plugin left, findings left)."""
    left = set(plugin)
    unmatched: list[Finding] = []
    exact = 0
    wording = {(file, _line_of(file, text)) for file, text, _ in KNOWN_WORDING}
    for finding in findings:
        file, line, code, message = reported = _reported(finding)
        if reported in left:
            left.discard(reported)
            exact += 1
            continue
        pattern = _loose_pattern(finding.problem)
        candidates = [
            p
            for p in left
            if p[:3] == (file, line, code)
            and (
                (pattern is not None and pattern.match(p[3]))
                or ((file, line) in wording and _where(p[3]) == _where(message))
            )
        ]
        if candidates:
            left.discard(min(candidates))
        else:
            unmatched.append(finding)
    return exact, left, unmatched


def test_plugin_and_runtime_say_the_same_thing(
    case_output: dict[Path, list[str]], runtime_findings: list[Finding]
) -> None:
    plugin = {p for p in _plugin_problems(case_output) if p[0] not in MYPY_CONFIGURED}
    findings = [f for f in runtime_findings if Path(f.path).name not in MYPY_CONFIGURED]
    exact, only_plugin, only_runtime = _pair(plugin, findings)
    known = {(file, _line_of(file, text)): side for file, text, side, _why in KNOWN}
    assert sorted(p for p in only_plugin if (p[0], p[1]) not in known) == []
    assert [_reported(f) for f in only_runtime if (Path(f.path).name, f.line) not in known] == []
    assert len(findings) - len(only_runtime) >= 85
    # Most problems are worded identically, values included.
    assert exact >= 70


def test_known_differences_still_differ(
    case_output: dict[Path, list[str]], runtime_findings: list[Finding]
) -> None:
    plugin = {(p[0], p[1]): p for p in _plugin_problems(case_output)}
    runtime = {(Path(f.path).name, f.line): _reported(f) for f in runtime_findings}
    for file, text, side, why in KNOWN:
        where = (file, _line_of(file, text))
        assert (where in plugin, where in runtime) == (side == "plugin", side == "runtime"), why
    plugin_lines = Counter((p[0], p[1]) for p in _plugin_problems(case_output))
    runtime_lines = Counter((Path(f.path).name, f.line) for f in runtime_findings)
    for file, text, why in KNOWN_WORDING:
        where = (file, _line_of(file, text))
        # One problem on the line, or which one is compared would depend on their order (it
        # differed on Python 3.10, hiding a wording the sides did not share).
        assert (plugin_lines[where], runtime_lines[where]) == (1, 1), where
        assert plugin[where][:3] == runtime[where][:3], why
        assert plugin[where][3] != runtime[where][3], why


def test_loose_values_are_loose_somewhere(runtime_findings: list[Finding]) -> None:
    # Every entry of LOOSE is used by some case, so that it cannot outlive its reason.
    kinds = {f.problem.kind for f in runtime_findings}
    assert set(LOOSE) <= kinds


def test_runtime_honours_no_mypy_comments(runtime_findings: list[Finding]) -> None:
    # `# mypy: disable-error-code=...` configures mypy only; the runtime check reports anyway.
    files = {Path(f.path).name for f in runtime_findings}
    assert files >= MYPY_CONFIGURED


def test_unchecked_code_is_the_plugins_alone(
    case_output: dict[Path, list[str]], runtime_findings: list[Finding]
) -> None:
    reported = [line for lines in case_output.values() for line in lines]
    assert any(line.endswith("[toolset-unchecked]") for line in reported)
    assert not any(f.code in _STATIC_ONLY for f in runtime_findings)


def test_the_run_time_agrees(runtime_findings: list[Finding]) -> None:
    """Building the tools of every class the cases define fails exactly where they say it does.

    ``check`` reports a class's problems (none of them ambiguities, which never fail); then its
    ``to_tools()`` raises `ToolsetDefinitionError` (it resolves what the class creation left
    for later), as it does for a class whose constructor needs arguments or that is abstract.
    Every other class builds its tools. Nothing raises anything else (a raw TypeError).
    """
    failing = {
        (Path(f.path).stem, f.toolset)
        for f in runtime_findings
        if f.severity == "error" and f.code != "toolset-init"
    }
    outcomes: dict[tuple[str, str], bool] = {}
    with _case_modules():
        for case in CASES:
            loaded = load_module(str(case))
            if loaded.module is None:
                continue
            for cls in toolset_classes(loaded.module):
                name = class_display_name(cls.__qualname__)
                expected = (case.stem, name) in failing or init_problem(cls) is not None
                try:
                    cls.to_tools()
                except ToolsetDefinitionError:
                    outcomes[case.stem, name] = True
                else:
                    outcomes[case.stem, name] = False
                assert outcomes[case.stem, name] == expected, (case.name, name)
    # The cases exercise both outcomes, the deferred ones and the constructors included.
    assert sum(outcomes.values()) >= 5
    assert len(outcomes) - sum(outcomes.values()) >= 25
    assert outcomes["type_checking_names", "Tasks"]
    assert outcomes["init_call_site", "Abstract"]
    assert outcomes["init_call_site", "HandWritten"]
    assert not outcomes["wrapped_methods", "Tasks"]
