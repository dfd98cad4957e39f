"""``stubs/`` (mypy's ``mypy_path``) and ``typings/`` (pyright's ``stubPath``) hold the same stubs."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _stub_files(directory: Path) -> dict[str, str]:
    return {
        str(path.relative_to(directory)): path.read_text(encoding="utf-8")
        for path in sorted(directory.rglob("*.pyi"))
    }


def test_stub_directories_are_identical() -> None:
    assert _stub_files(ROOT / "stubs") == _stub_files(ROOT / "typings")


def test_both_directories_explain_themselves() -> None:
    assert (ROOT / "stubs" / "README.md").is_file()
    assert (ROOT / "typings" / "README.md").is_file()
