"""Incremental mode, the daemon, parallel checking and cache invalidation, as subprocesses.

Each scenario writes a small package into a temporary directory and runs mypy (or dmypy) on it
the way a user would, with the plugin enabled and the cache in the same directory. The cache of
typed_toolsets and its dependencies is built once and copied into every scenario, so each run
only analyses the scenario's own modules.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from mypy.version import __version__ as mypy_version

pytestmark = pytest.mark.slow

MYPY_VERSION = tuple(int(part) for part in mypy_version.split("+")[0].split(".")[:2])

CONFIG = """\
[mypy]
strict = True
plugins = {plugins}
cache_dir = {cache}
"""

BASE = """\
from typed_toolsets import Toolset


class Base(Toolset):
    def assign(self, *, task_id: str) -> str:
        return task_id

    def legacy(self, task_id: str, /) -> str:
        return task_id
"""
MID = """\
from pkg.base import Base


class Mid(Base):
    pass
"""
LEAF = """\
from typed_toolsets import tool

from pkg.mid import Mid


class Leaf(Mid):
    exports = (tool("assign"),)
"""
UNKNOWN = (
    "pkg/leaf.py:7: error: Leaf.assign: Leaf has no method 'assign' to export; did you mean "
    "'assign_task'?  [toolset-unknown-method]"
)


def _mypy(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mypy", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def _errors(result: subprocess.CompletedProcess[str]) -> list[str]:
    assert "INTERNAL ERROR" not in result.stdout + result.stderr, result.stdout + result.stderr
    assert result.returncode in (0, 1), result.stdout + result.stderr
    return sorted(line for line in result.stdout.splitlines() if ": error: " in line)


_clock = [0]


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    # mypy trusts a cached file whose size and whole-second modification time are unchanged,
    # and an edit may keep the size: give every write its own later second.
    _clock[0] += 10
    stamp = path.stat().st_mtime + _clock[0]
    os.utime(path, (stamp, stamp))


@pytest.fixture(scope="module")
def warm_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A mypy cache holding typed_toolsets and its dependencies."""
    root = tmp_path_factory.mktemp("warm")
    cache = root / "cache"
    (root / "mypy.ini").write_text(
        CONFIG.format(plugins="typed_toolsets.mypy", cache=cache), encoding="utf-8"
    )
    (root / "seed.py").write_text("import typed_toolsets\nimport attrs\n", encoding="utf-8")
    assert _errors(_mypy("seed.py", cwd=root)) == []
    return cache


@pytest.fixture
def project(tmp_path: Path, warm_cache: Path) -> Path:
    shutil.copytree(warm_cache, tmp_path / "cache")
    (tmp_path / "mypy.ini").write_text(
        CONFIG.format(plugins="typed_toolsets.mypy", cache=tmp_path / "cache"), encoding="utf-8"
    )
    _write(tmp_path / "pkg" / "__init__.py", "")
    _write(tmp_path / "pkg" / "base.py", BASE)
    _write(tmp_path / "pkg" / "mid.py", MID)
    _write(tmp_path / "pkg" / "leaf.py", LEAF)
    return tmp_path


@pytest.mark.parametrize("plugins", ["typed_toolsets.mypy", ""])
def test_a_run_after_one_on_a_submodule_reads_the_package_from_the_cache(
    tmp_path: Path, plugins: str
) -> None:
    # mypy 1.19 stopped here ("method must be called on parsed file only"), with or without
    # the plugin: the reason 1.20 is the oldest supported (tox's mypy-plugin-min runs it).
    (tmp_path / "mypy.ini").write_text(
        CONFIG.format(plugins=plugins, cache=tmp_path / "cache"), encoding="utf-8"
    )
    _write(tmp_path / "first.py", "import typed_toolsets._version\n")
    _write(tmp_path / "second.py", "import typed_toolsets\n")
    assert _errors(_mypy("first.py", cwd=tmp_path)) == []
    assert _errors(_mypy("second.py", cwd=tmp_path)) == []


def test_incremental_run_sees_a_renamed_grandparent_method(project: Path) -> None:
    assert _errors(_mypy("-p", "pkg", cwd=project)) == []
    _write(project / "pkg" / "base.py", BASE.replace("def assign(", "def assign_task("))
    assert _errors(_mypy("-p", "pkg", cwd=project)) == [UNKNOWN]
    # And back: the error goes away again, from the cache.
    _write(project / "pkg" / "base.py", BASE)
    assert _errors(_mypy("-p", "pkg", cwd=project)) == []


def test_leaf_only_edit_reads_the_base_from_the_cache(project: Path) -> None:
    # Only leaf.py changes, so Base.legacy comes from the cache without its parsed parameters:
    # the problem is reported on the declaration instead of the parameter, without crashing,
    # and the positional-only parameter is named (its name is recorded with Base).
    assert _errors(_mypy("-p", "pkg", cwd=project)) == []
    _write(project / "pkg" / "leaf.py", LEAF.replace('tool("assign")', 'tool("legacy")'))
    assert _errors(_mypy("-p", "pkg", cwd=project)) == [
        (
            "pkg/leaf.py:7: error: Leaf.legacy: parameter 'task_id' is positional-only; tools "
            "are called with keywords, remove the '/'  [toolset-signature]"
        )
    ]


MIXIN = """\
class Legacy:
    def legacy(self, task_id: str, /) -> str:
        return task_id

    def old_style(self, __key: str) -> str:
        return __key
"""


def test_a_cached_mixin_names_its_positional_only_parameters(project: Path) -> None:
    # A mixin is no Toolset: its parameter names mypy forgets are recorded with it, so a Toolset
    # of another module reading it from the cache names them as the run time does (not '#1'),
    # and takes `__key` for what Python makes of it (`_Legacy__key`), no positional-only one.
    _write(project / "pkg" / "mixin.py", MIXIN)
    leaf = """\
        from typed_toolsets import Toolset, tool

        from pkg.mixin import Legacy


        class Leaf(Legacy, Toolset):
            exports = (tool("old_style"),)
        """
    _write(project / "pkg" / "leaf.py", leaf)
    assert _errors(_mypy("-p", "pkg", cwd=project)) == []
    _write(project / "pkg" / "leaf.py", leaf.replace('tool("old_style")', 'tool("legacy")'))
    assert _errors(_mypy("-p", "pkg", cwd=project)) == [
        (
            "pkg/leaf.py:7: error: Leaf.legacy: parameter 'task_id' is positional-only; tools "
            "are called with keywords, remove the '/'  [toolset-signature]"
        )
    ]


def test_a_cached_final_constant_is_read_in_expressions(project: Path) -> None:
    # `PREFIX + "_x"` with another module's Final `PREFIX` is read as `PREFIX` alone is, also
    # when that module comes from mypy's cache (its value is kept with the name).
    _write(project / "pkg" / "names.py", 'from typing import Final\n\nPREFIX: Final = "shop"\n')
    leaf = """\
        from typed_toolsets import Toolset, tool

        from pkg.names import PREFIX


        class Leaf(Toolset):
            toolset_name = PREFIX + " tools"
            exports = (tool(PREFIX + "_find"),)

            def shop_find(self) -> None: ...
        """
    _write(project / "pkg" / "leaf.py", leaf)
    invalid = (
        "pkg/leaf.py:8: error: Leaf.{method}: the tool name 'shop tools_{method}' is not valid "
        "for LLM APIs: it contains ' ' (names must match ^[A-Za-z_][A-Za-z0-9_-]{{0,63}}$: "
        "letters, digits, '_' and '-', at most 64 characters, not starting with a digit or '-')"
        "  [toolset-invalid-name]"
    )
    assert _errors(_mypy("-p", "pkg", cwd=project)) == [invalid.format(method="shop_find")]
    _write(project / "pkg" / "leaf.py", leaf.replace('"_find"', '"_fnd"'))
    assert _errors(_mypy("-p", "pkg", cwd=project)) == [
        (
            "pkg/leaf.py:8: error: Leaf.shop_fnd: Leaf has no method 'shop_fnd' to export; did "
            "you mean 'shop_find'?  [toolset-unknown-method]"
        )
    ]


WRAPPING = """\
import functools
from collections.abc import Callable, Iterator
from typing import ParamSpec, TypeVar

from typed_toolsets import Toolset

P = ParamSpec("P")
T = TypeVar("T")


def listify(f: Callable[P, Iterator[T]]) -> Callable[P, list[T]]:
    @functools.wraps(f)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> list[T]:
        return list(f(*args, **kwargs))

    return wrapper


class Mixin:
    @listify
    def mixed(self, *, n: int) -> Iterator[int]:
        yield n


class Wrapped(Toolset):
    @listify
    def listed(self, *, n: int) -> Iterator[int]:
        yield n

    def plain(self, *, n: int) -> Iterator[int]:
        yield n
"""


def test_a_cached_base_keeps_what_decorates_its_generators(project: Path) -> None:
    # A decorator's wrapper is no generator function: exporting it is fine. mypy's cache keeps
    # no decorators, so a run that reads the base from the cache used to call it a generator.
    _write(project / "pkg" / "wrapping.py", WRAPPING)
    leaf = """\
        from typed_toolsets import tool

        from pkg.wrapping import Mixin, Wrapped


        class Leaf(Mixin, Wrapped):
            exports = (tool("listed"), tool("plain"), tool("mixed"))
        """
    _write(project / "pkg" / "leaf.py", leaf)
    generator = (
        "pkg/leaf.py:7: error: Leaf.plain: 'plain' is a generator; only methods that return a "
        "value can be exported  [toolset-not-a-method]"
    )
    assert _errors(_mypy("-p", "pkg", cwd=project)) == [generator]
    _write(
        project / "pkg" / "leaf.py", leaf.replace('tool("listed")', 'tool("listed", tool_name="l")')
    )
    assert _errors(_mypy("-p", "pkg", cwd=project)) == [generator]


def test_daemon_sees_a_renamed_grandparent_method(project: Path) -> None:
    status = project / "dmypy.json"
    dmypy = [sys.executable, "-m", "mypy.dmypy", "--status-file", str(status)]

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*dmypy, *args], cwd=project, capture_output=True, text=True, timeout=300, check=False
        )

    started = run("start", "--", "--config-file", "mypy.ini")
    assert started.returncode == 0, started.stdout + started.stderr
    try:
        assert _errors(run("check", "pkg")) == []
        _write(project / "pkg" / "base.py", BASE.replace("def assign(", "def assign_task("))
        assert _errors(run("check", "pkg")) == [UNKNOWN]
        _write(project / "pkg" / "base.py", BASE)
        assert _errors(run("check", "pkg")) == []
    finally:
        stopped = run("stop")
        assert stopped.returncode == 0, stopped.stdout + stopped.stderr


def test_daemon_run_reads_edited_registered_types(project: Path) -> None:
    # `dmypy run` restarts when mypy's options or a plugin change, not when a config section
    # only the plugin reads does: the plugin's registered types must count as a change.
    status = project / "dmypy.json"
    dmypy = [sys.executable, "-m", "mypy.dmypy", "--status-file", str(status)]
    _write(
        project / "pkg" / "prices.py",
        """\
        from decimal import Decimal

        from typed_toolsets import Toolset, tool


        class Prices(Toolset):
            @tool
            def pay(self, *, amount: Decimal) -> None: ...
        """,
    )
    config = CONFIG.format(plugins="typed_toolsets.mypy", cache=project / "cache")
    registered = config + "\n[typed_toolsets.mypy]\nregistered_types = decimal.Decimal\n"
    unregistered = (
        "pkg/prices.py:8: error: Prices.pay: parameter 'amount' has type Decimal, which has no "
        "JSON Schema ('Decimal' is not an attrs class, dataclass, TypedDict, NamedTuple, enum or "
        "supported builtin type; use one of those, or register it with "
        "typed_toolsets.register_type() (and, for the mypy plugin, list it under "
        "registered_types in its config))  [toolset-param-type]"
    )

    def run() -> list[str]:
        found = subprocess.run(
            [*dmypy, "run", "--", "--config-file", "mypy.ini", "-p", "pkg"],
            cwd=project,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        return _errors(found)

    try:
        (project / "mypy.ini").write_text(registered, encoding="utf-8")
        assert run() == []
        (project / "mypy.ini").write_text(config, encoding="utf-8")
        assert run() == [unregistered]
        (project / "mypy.ini").write_text(registered, encoding="utf-8")
        assert run() == []
    finally:
        stopped = subprocess.run(
            [*dmypy, "stop"], cwd=project, capture_output=True, text=True, timeout=60, check=False
        )
        assert stopped.returncode == 0, stopped.stdout + stopped.stderr


@pytest.mark.skipif(MYPY_VERSION < (2, 0), reason="parallel checking (-n) arrived in mypy 2.0")
def test_parallel_checking_gives_the_sequential_output(project: Path) -> None:
    _write(project / "pkg" / "base.py", BASE.replace("def assign(", "def assign_task("))
    _write(
        project / "pkg" / "other.py",
        """\
        from typed_toolsets import tool

        from pkg.base import Base


        class Other(Base):
            exports = (tool("legacy"), tool("assign_task", tool_name="bad name"))
        """,
    )
    sequential = _errors(_mypy("-p", "pkg", "--cache-dir", str(project / "seq"), cwd=project))
    parallel = _errors(_mypy("-n", "2", "-p", "pkg", cwd=project))
    assert len(sequential) == 3
    assert parallel == sequential
    # A warm parallel run replays the same errors from the cache.
    assert _errors(_mypy("-n", "2", "-p", "pkg", cwd=project)) == sequential


def test_a_plugin_version_change_invalidates_the_cache(project: Path) -> None:
    # A stand-in for an older release: the same entry file, whose behaviour and reported
    # version depend on an environment variable, so only `report_config_data` tells them apart.
    (project / "shim.py").write_text(
        textwrap.dedent(
            """\
            import os

            from mypy.plugin import Plugin

            from typed_toolsets.mypy import TypedToolsetsPlugin


            class OldRelease(Plugin):
                def report_config_data(self, ctx):
                    return {"version": "0.0.1"}


            def plugin(version):
                return OldRelease if os.environ.get("OLD_RELEASE") else TypedToolsetsPlugin
            """
        ),
        encoding="utf-8",
    )
    config = CONFIG.format(plugins=project / "shim.py", cache=project / "cache")
    (project / "mypy.ini").write_text(config, encoding="utf-8")
    _write(project / "pkg" / "base.py", BASE.replace("def assign(", "def assign_task("))
    old = subprocess.run(
        [sys.executable, "-m", "mypy", "-p", "pkg"],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env={**os.environ, "OLD_RELEASE": "1"},
    )
    assert _errors(old) == []  # the "old release" checks nothing
    env = {k: v for k, v in os.environ.items() if k != "OLD_RELEASE"}
    new = subprocess.run(
        [sys.executable, "-m", "mypy", "-p", "pkg"],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env=env,
    )
    assert _errors(new) == [UNKNOWN]


# --------------------------------------------------------------------------- never stale
#
# Verdicts that depend on definitions mypy's own dependencies do not connect to the Toolset:
# a struct field two modules away, an enum's values, a base's constructor seen from a
# `Sub.to_tools()` call in a third module, a base's declarations seen from a grandchild. After
# every edit (and after undoing it), a warm incremental run, `-n 2` and the daemon must report
# exactly what a cold run reports.

STALE_FILES = {
    "pkg/__init__.py": "",
    "pkg/models.py": """\
        import enum

        import attrs


        class Color(enum.Enum):
            RED = "red"


        @attrs.define
        class Inner:
            data: str
            color: Color = Color.RED
        """,
    "pkg/wrap.py": """\
        import attrs

        from pkg.models import Inner


        @attrs.define
        class Outer:
            inner: Inner
        """,
    "pkg/names.py": """\
        from typing import Final

        PREFIX: Final = "app"
        """,
    "pkg/tools.py": """\
        from typed_toolsets import Toolset, tool

        from pkg.names import PREFIX
        from pkg.wrap import Outer


        class Tools(Toolset):
            @tool
            def store(self, *, outer: Outer) -> None: ...

            @tool(tool_name=PREFIX + "_load")
            def load(self) -> None: ...
        """,
    "pkg/base.py": """\
        from __future__ import annotations

        import attrs

        from typed_toolsets import Toolset, tool

        from pkg.models import Color


        @attrs.define
        class Base(Toolset):
            db: str = "sqlite://"
            exports = (tool("find", tool_name="base_find"),)

            def find(self, *, query: str) -> str:
                return query

            def legacy(self, key: str) -> str:
                return key

            def paint(self, *, color: Color) -> str:
                return str(color.value)
        """,
    "pkg/sub.py": """\
        from pkg.base import Base


        class Sub(Base):
            pass
        """,
    "pkg/leaf.py": """\
        from typed_toolsets import tool

        from pkg.sub import Sub


        class Leaf(Sub):
            exports = (tool("lookup", tool_name="shared"), tool("legacy"), tool("paint"))

            def lookup(self, *, key: str) -> str:
                return key
        """,
    "pkg/use.py": """\
        from pkg.sub import Sub


        def build() -> int:
            return len(Sub.to_tools())
        """,
    "pkg/mixins.py": """\
        from typing import TYPE_CHECKING

        from typed_toolsets import Limits


        class Timed:
            limits = Limits(timeout=None)

            def stamp(self, key: str) -> str:
                return "stamp"
        """,
    "pkg/quick.py": """\
        from typed_toolsets import Toolset, tool

        from pkg.mixins import Timed


        class Quick(Timed, Toolset):
            exports = (tool("stamp"),)

            @tool(inline=True)
            def now(self) -> int:
                return 1
        """,
}

#: (file, text replaced, replacement, the errors a cold run reports after the edit)
STALE_EDITS = [
    (
        # The limits of a class that is not a Toolset are recorded with it (mypy forgets them).
        "pkg/mixins.py",
        "timeout=None",
        "timeout=3",
        [
            (
                "pkg/quick.py:9: error: Quick.now: inline=True runs 'now' on the event loop, where "
                "it cannot be stopped at a deadline, but its limits set timeout=3; remove "
                "inline=True (it then runs in a worker thread), or give the tool limits without "
                "one (tool(..., limits=attrs.evolve(Quick.limits, timeout=None)))  [toolset-inline]"
            )
        ],
    ),
    (
        # And the names it binds only under `if TYPE_CHECKING:` (no method at run time).
        "pkg/mixins.py",
        'def stamp(self, key: str) -> str:\n        return "stamp"',
        "if TYPE_CHECKING:\n\n        def stamp(self, key: str) -> str: ...",
        [
            (
                "pkg/quick.py:7: error: Quick.stamp: Quick has no method 'stamp' to export  "
                "[toolset-unknown-method]"
            )
        ],
    ),
    (
        # So is the name of a mixin's positional-only parameter.
        "pkg/mixins.py",
        "key: str)",
        "task_key: str, /)",
        [
            (
                "pkg/quick.py:7: error: Quick.stamp: parameter 'task_key' is positional-only; "
                "tools are called with keywords, remove the '/'  [toolset-signature]"
            )
        ],
    ),
    (
        # Another module's Final constant is read in a constant expression: its value is kept.
        "pkg/names.py",
        '"app"',
        '"my app"',
        [
            (
                "pkg/tools.py:11: error: Tools.load: the tool name 'my app_load' is not valid for "
                "LLM APIs: it contains ' ' (names must match ^[A-Za-z_][A-Za-z0-9_-]{0,63}$: "
                "letters, digits, '_' and '-', at most 64 characters, not starting with a digit "
                "or '-')  [toolset-invalid-name]"
            )
        ],
    ),
    (
        "pkg/models.py",
        "data: str",
        "data: bytes",
        [
            (
                "pkg/tools.py:9: error: Tools.store: parameter 'outer' has type Outer, which has no "
                "JSON Schema (field Outer.inner: field Inner.data: bytes cannot be sent as JSON; use "
                "str (for example base64 text))  [toolset-param-type]"
            )
        ],
    ),
    (
        # attrs accepts a None default whatever the type: the None defaults are recorded with
        # the struct (its attrs metadata says only that the field has a default).
        "pkg/models.py",
        "color: Color = Color.RED",
        "color: Color = attrs.field(default=None)",
        [
            (
                "pkg/tools.py:9: error: Tools.store: parameter 'outer' has type Outer, which has no "
                "JSON Schema (field Outer.inner: field Inner.color defaults to None but its type "
                "Color does not admit null; add `| None` to its annotation (a None default does "
                "not make a field nullable))  [toolset-param-type]"
            )
        ],
    ),
    (
        "pkg/models.py",
        'RED = "red"',
        'RED = ("red", 1)',
        [
            (
                "pkg/leaf.py:7: error: Leaf.paint: parameter 'color' has type Color, which has no "
                "JSON Schema (enum 'Color' has the member 'RED', whose value is not a JSON string, "
                "number, boolean or null)  [toolset-param-type]"
            ),
            (
                "pkg/tools.py:9: error: Tools.store: parameter 'outer' has type Outer, which has no "
                "JSON Schema (field Outer.inner: field Inner.color: enum 'Color' has the member "
                "'RED', whose value is not a JSON string, number, boolean or null)  "
                "[toolset-param-type]"
            ),
        ],
    ),
    (
        "pkg/base.py",
        'db: str = "sqlite://"',
        "db: str",
        [
            (
                "pkg/use.py:5: error: Sub: Sub.to_tools() calls Sub() with no arguments, but the "
                "constructor needs 'db'; give each a default, or call to_tools() on an instance  "
                "[toolset-init]"
            )
        ],
    ),
    (
        # The name of a positional-only parameter is recorded with Base (mypy forgets it).
        "pkg/base.py",
        "key: str)",
        "key: str, /)",
        [
            (
                "pkg/leaf.py:7: error: Leaf.legacy: parameter 'key' is positional-only; tools are "
                "called with keywords, remove the '/'  [toolset-signature]"
            )
        ],
    ),
    (
        # Only what Python sees changes (the types are the same): the recorded facts do.
        "pkg/base.py",
        "from pkg.models import Color\n",
        "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    from pkg.models import Color\n",
        [
            (
                "pkg/leaf.py:7: error: Leaf.paint: parameter 'color': an annotation names 'Color', "
                "which Python cannot find when it resolves the annotation; define or import it at "
                "the module's top level "
                "(an import under `if TYPE_CHECKING:` or a name inside a function is not enough)  "
                "[toolset-param-type]"
            )
        ],
    ),
    (
        "pkg/base.py",
        'tool_name="base_find"',
        'tool_name="shared"',
        [
            (
                "pkg/leaf.py:7: error: Leaf.lookup: the tool name 'shared' is already exported by "
                "the method 'find'  [toolset-duplicate-name]"
            )
        ],
    ),
]


class _Modes:
    """One project checked the four ways: cold, warm, ``-n 2`` (warm) and the daemon."""

    def __init__(self, root: Path, warm_cache: Path) -> None:
        self.root = root
        self.warm_cache = warm_cache
        self.runs = 0
        status = root / "dmypy.json"
        self.dmypy = [sys.executable, "-m", "mypy.dmypy", "--status-file", str(status)]
        for cache in ("cache", "parallel"):
            shutil.copytree(warm_cache, root / cache)

    def daemon(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*self.dmypy, *args],
            cwd=self.root,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )

    def cold(self) -> list[str]:
        # A fresh copy of the library's cache: only the project is analysed from scratch.
        self.runs += 1
        cold = self.root / f"cold{self.runs}"
        shutil.copytree(self.warm_cache, cold)
        try:
            return _errors(_mypy("-p", "pkg", "--cache-dir", str(cold), cwd=self.root))
        finally:
            shutil.rmtree(cold)

    def others(self) -> dict[str, list[str]]:
        found = {"warm": _errors(_mypy("-p", "pkg", cwd=self.root))}
        if MYPY_VERSION >= (2, 0):
            parallel = _mypy("-n", "2", "-p", "pkg", "--cache-dir", "parallel", cwd=self.root)
            found["-n 2"] = _errors(parallel)
        found["dmypy"] = _errors(self.daemon("check", "pkg"))
        return found


def test_every_mode_reports_what_a_cold_run_reports(tmp_path: Path, warm_cache: Path) -> None:
    for name, text in STALE_FILES.items():
        _write(tmp_path / name, text)
    (tmp_path / "mypy.ini").write_text(
        CONFIG.format(plugins="typed_toolsets.mypy", cache=tmp_path / "cache"), encoding="utf-8"
    )
    modes = _Modes(tmp_path, warm_cache)
    started = modes.daemon("start", "--", "--config-file", "mypy.ini")
    assert started.returncode == 0, started.stdout + started.stderr
    try:
        assert modes.cold() == []
        found = modes.others()
        assert found == {key: [] for key in found}
        for file, old, new, expected in STALE_EDITS:
            original = textwrap.dedent(STALE_FILES[file])
            assert old in original, (file, old)
            for step, text, errors in (
                (f"{file}: {new}", original.replace(old, new), expected),
                (f"{file}: back to {old}", original, []),
            ):
                _write(tmp_path / file, text)
                assert modes.cold() == errors, step
                found = modes.others()
                assert found == dict.fromkeys(found, errors), step
    finally:
        stopped = modes.daemon("stop")
        assert stopped.returncode == 0, stopped.stdout + stopped.stderr
