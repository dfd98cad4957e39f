"""The plugin's verdicts on exact lines: every case file under ``cases/`` against its comments."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

CASES = sorted((Path(__file__).parent / "cases").glob("*.py"))


@pytest.mark.parametrize("case", CASES, ids=lambda p: p.stem)
def test_case(
    case: Path, case_output: dict[Path, list[str]], mypy_expected: Callable[[Path], list[str]]
) -> None:
    assert case_output[case.resolve()] == mypy_expected(case)


def test_every_case_expects_something_or_says_clean(
    mypy_expected: Callable[[Path], list[str]],
) -> None:
    # A case file without expectations must say it is meant to be clean, so that a file whose
    # comments were lost cannot pass silently.
    assert len(CASES) > 10
    for case in CASES:
        text = case.read_text(encoding="utf-8")
        assert mypy_expected(case) or "# clean: " in text, case.name


def test_every_plugin_code_is_exercised(case_output: dict[Path, list[str]]) -> None:
    from typed_toolsets.rules.kinds import CHECK_ONLY_CODES, PROBLEM_CODES

    seen = {line.rsplit("[", 1)[-1].rstrip("]") for lines in case_output.values() for line in lines}
    # Not `check`'s own: the plugin does not run the code that would raise it.
    assert {f"toolset-{code}" for code in PROBLEM_CODES - CHECK_ONLY_CODES} <= seen
