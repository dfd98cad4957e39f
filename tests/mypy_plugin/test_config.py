"""Plugin configuration: types registered at run time, declared to the plugin."""

from __future__ import annotations

import os
import textwrap
from pathlib import Path

import pytest
from mypy import api

from typed_toolsets.plugin.config import read_registered_types

MODULE = """\
from decimal import Decimal

from typed_toolsets import Toolset, tool


class Prices(Toolset):
    @tool
    def convert(self, *, amount: Decimal, rate: Decimal | None = None) -> str:
        return str(amount)
"""

DECIMAL_ERROR = "Prices.convert: parameter 'amount' has type Decimal, which has no JSON Schema"


def _check(tmp_path: Path, config_name: str, config: str) -> str:
    (tmp_path / "prices.py").write_text(MODULE, encoding="utf-8")
    (tmp_path / config_name).write_text(textwrap.dedent(config), encoding="utf-8")
    stdout, stderr, _ = api.run(
        [
            "--config-file",
            str(tmp_path / config_name),
            "--no-incremental",
            "--cache-dir",
            os.devnull,
            str(tmp_path / "prices.py"),
        ]
    )
    assert stderr == ""
    return stdout


def test_unregistered_types_are_reported(tmp_path: Path) -> None:
    out = _check(tmp_path, "mypy.ini", "[mypy]\nstrict = True\nplugins = typed_toolsets.mypy\n")
    assert DECIMAL_ERROR in out
    assert out.count("[toolset-param-type]") == 2


def test_registered_types_in_mypy_ini(tmp_path: Path) -> None:
    out = _check(
        tmp_path,
        "mypy.ini",
        """\
        [mypy]
        strict = True
        plugins = typed_toolsets.mypy

        [typed_toolsets.mypy]
        registered_types =
            decimal.Decimal,
            fractions.Fraction
        """,
    )
    assert out.startswith("Success"), out


ALIASED = """\
from typing import TypeAlias

from moneylib import Money

from typed_toolsets import Toolset, tool

Cash: TypeAlias = Money  # type: ignore[no-any-unimported]


class Till(Toolset):
    @tool
    def pay(self, *, amount: Cash) -> int:
        return 0
"""


def test_a_registered_type_from_an_unfollowed_import_through_an_alias_is_no_any(
    tmp_path: Path,
) -> None:
    # Under disallow_any_unimported, mypy marks the alias's type as it marks an Any written in
    # an alias, and forgets its name: the plugin took it for an Any the user wrote.
    (tmp_path / "till.py").write_text(ALIASED, encoding="utf-8")
    (tmp_path / "mypy.ini").write_text(
        "[mypy]\nstrict = True\nplugins = typed_toolsets.mypy\nignore_missing_imports = True\n"
        "disallow_any_unimported = True\n\n[typed_toolsets.mypy]\nregistered_types = "
        "moneylib.Money\n",
        encoding="utf-8",
    )
    stdout, stderr, _ = api.run(
        [
            "--config-file",
            str(tmp_path / "mypy.ini"),
            "--no-incremental",
            "--cache-dir",
            os.devnull,
            str(tmp_path / "till.py"),
        ]
    )
    assert (stdout, stderr) == ("Success: no issues found in 1 source file\n", "")


def test_registered_types_in_pyproject(tmp_path: Path) -> None:
    out = _check(
        tmp_path,
        "pyproject.toml",
        """\
        [tool.mypy]
        strict = true
        plugins = ["typed_toolsets.mypy"]

        [tool.typed_toolsets.mypy]
        registered_types = ["decimal.Decimal"]
        """,
    )
    assert out.startswith("Success"), out


@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        ("setup.cfg", "[typed_toolsets.mypy]\nregistered_types = a.B, c.D\n", {"a.B", "c.D"}),
        ("setup.cfg", "[mypy]\nstrict = True\n", set()),
        ("setup.cfg", "not an ini file [", set()),
        # Read raw, as mypy reads the file: no interpolation, which raised at `get`.
        ("setup.cfg", "[typed_toolsets.mypy]\nregistered_types = a.B%, %(c)s\n", {"a.B%", "%(c)s"}),
        ("p.toml", '[tool.typed_toolsets.mypy]\nregistered_types = "a.B,c.D"\n', {"a.B", "c.D"}),
        ("p.toml", "[tool.typed_toolsets.mypy]\nregistered_types = 3\n", set()),
        ("p.toml", "not = [toml", set()),
    ],
)
def test_reading_the_config(tmp_path: Path, name: str, text: str, expected: set[str]) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    assert read_registered_types(str(path)) == expected
    assert read_registered_types(str(tmp_path / "missing.ini")) == frozenset()
    assert read_registered_types(None) == frozenset()


def test_the_cache_key_covers_the_rules_and_the_plugin(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from typed_toolsets.plugin import config

    digest = config.sources_digest()
    assert len(digest) == 16
    # Stand-ins for the plugin's own folder: editing one of its files changes the key.
    (tmp_path / "config.py").write_text("A = 1\n", encoding="utf-8")
    monkeypatch.setattr(config, "__file__", str(tmp_path / "config.py"))
    first = config.sources_digest()
    (tmp_path / "checks.py").write_text("B = 2\n", encoding="utf-8")
    assert config.sources_digest() not in {first, digest}
