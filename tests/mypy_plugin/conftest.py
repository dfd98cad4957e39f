"""The plugin test harness: batched in-process mypy runs over files with inline expectations.

A case file marks each expected message on its line with a trailing comment, exactly as mypy
prints it::

    tool("asign"),  # E: T.asign: T has no method 'asign' to export; ...  [toolset-unknown-method]

``# E:`` is an error, ``# N:`` a note; several may follow each other on one line. Every case
file of a directory is checked by one mypy run in this process (mypy's startup and the analysis
of typed_toolsets and attrs are paid once), and the output is split per file.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest
from mypy import api

HERE = Path(__file__).parent
CONFIG = HERE / "mypy.ini"

_EXPECT_RE = re.compile(r"#\s*(?P<kind>[EN]):\s*(?P<text>.*?)\s*(?=#\s*[EN]:|$)")
_OUTPUT_RE = re.compile(r"^(?P<path>.+?):(?P<line>\d+): (?P<severity>error|note): (?P<text>.*)$")
_SEVERITY = {"E": "error", "N": "note"}


def _normalise(text: str) -> str:
    # mypy puts two spaces before the error code; accept one in the case files.
    return re.sub(r"\s+(\[[a-z-]+\])$", r"  \1", text.strip())


def expected(path: Path) -> list[str]:
    """The messages a file expects, as ``"<line>: <severity>: <message>"``, sorted."""
    found: list[str] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        starts = [i for i in (line.find("# E:"), line.find("# N:")) if i >= 0]
        if not starts:
            continue
        for match in _EXPECT_RE.finditer(line, min(starts)):
            severity = _SEVERITY[match.group("kind")]
            found.append(f"{number}: {severity}: {_normalise(match.group('text'))}")
    return sorted(found, key=_sort_key)


def _sort_key(entry: str) -> tuple[int, str]:
    number, _, rest = entry.partition(":")
    return int(number), rest


def run_mypy(files: Sequence[Path], *extra: str) -> dict[Path, list[str]]:
    """Check *files* in one mypy run; the messages of each file, as `expected` gives them."""
    args = [
        "--config-file",
        str(CONFIG),
        "--no-incremental",
        "--cache-dir",
        os.devnull,
        "--no-error-summary",
        "--hide-error-context",
        *extra,
        *(str(f) for f in files),
    ]
    stdout, stderr, _status = api.run(args)
    if stderr.strip():
        raise RuntimeError(stderr)
    by_file: dict[Path, list[str]] = {Path(f).resolve(): [] for f in files}
    for line in stdout.splitlines():
        match = _OUTPUT_RE.match(line)
        if match is None:
            raise RuntimeError(f"unexpected mypy output: {line!r}\n{stdout}")
        path = Path(match.group("path")).resolve()
        entry = (
            f"{match.group('line')}: {match.group('severity')}: {_normalise(match.group('text'))}"
        )
        by_file.setdefault(path, []).append(entry)
    return {path: sorted(entries, key=_sort_key) for path, entries in by_file.items()}


CASES = sorted((HERE / "cases").glob("*.py"))


@pytest.fixture(scope="session")
def case_output() -> dict[Path, list[str]]:
    """The plugin's messages on every case file, from one mypy run shared by the tests."""
    return run_mypy(CASES)


@pytest.fixture(scope="session")
def mypy_run() -> Callable[..., dict[Path, list[str]]]:
    """`run_mypy`, for tests in this directory."""
    return run_mypy


@pytest.fixture(scope="session")
def mypy_expected() -> Callable[[Path], list[str]]:
    """`expected`, for tests in this directory."""
    return expected
