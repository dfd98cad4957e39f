"""The Hypothesis plugin, and what imports Hypothesis (only `typed_toolsets.testing` does)."""

from __future__ import annotations

import importlib.metadata
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import attrs
from hypothesis import find
from hypothesis import strategies as st

from typed_toolsets import register_type
from typed_toolsets.testing import values


def run(code: str) -> dict[str, object]:
    """Run *code* in a fresh interpreter; it prints one JSON object, returned here."""
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_entry_point_is_declared() -> None:
    found = [
        e for e in importlib.metadata.entry_points(group="hypothesis") if e.name == "typed_toolsets"
    ]
    assert [e.value for e in found] == ["typed_toolsets.testing._plugin:_hypothesis_setup_hook"]


def test_nothing_but_the_testing_api_imports_hypothesis() -> None:
    loaded = run(
        """
        import json, sys
        import attrs
        from typed_toolsets import Toolset, register_type, tool
        import typed_toolsets.testing  # names load on first use

        @attrs.frozen
        class Cents:
            value: int

        register_type(
            Cents,
            schema={"type": "integer"},
            structure=Cents,
            unstructure=lambda c: c.value,
            strategy=lambda: __import__("hypothesis").strategies.integers().map(Cents),
        )

        class Shop(Toolset):
            @tool
            def pay(self, *, amount: Cents) -> int:
                return amount.value

        assert Shop.to_tools()[0].dynamic_call({"amount": 5}) == 5
        before = "hypothesis" in sys.modules
        typed_toolsets.testing.values
        print(json.dumps({"before": before, "after": "hypothesis" in sys.modules}))
        """
    )
    assert loaded == {"before": False, "after": True}


def test_without_hypothesis_the_testing_api_says_what_to_install() -> None:
    result = run(
        """
        import json, sys

        class NoHypothesis:
            def find_spec(self, name, path=None, target=None):
                if name == "hypothesis" or name.startswith("hypothesis."):
                    raise ModuleNotFoundError(f"No module named {name!r}", name=name)
                return None

        sys.meta_path.insert(0, NoHypothesis())
        import typed_toolsets.testing
        try:
            from typed_toolsets.testing import check_toolset
        except ImportError as exc:
            print(json.dumps({"error": str(exc)}))
        """
    )
    assert result == {
        "error": "typed_toolsets.testing needs Hypothesis; install it with "
        "`pip install 'typed-toolsets[testing]'`"
    }


PLUGIN_SCENARIO = """
    import decimal, json, sys
    import attrs
    from typed_toolsets import register_type

    @attrs.frozen
    class Early:
        code: str

    @attrs.frozen
    class Late:
        code: str

    @attrs.frozen
    class Theirs:
        code: str

    def just(value):
        # A function: the module registering a type need not import Hypothesis.
        return lambda: __import__("hypothesis").strategies.just(value)

    # Registered before Hypothesis is imported: replayed by the entry point.
    register_type(Early, schema={"type": "string"}, structure=Early,
                  unstructure=lambda v: v.code, strategy=just(Early("early")))
    # A standard library type keeps Hypothesis's own strategy.
    register_type(decimal.Decimal, schema={"type": "string"}, structure=decimal.Decimal,
                  unstructure=str,
                  strategy=just(decimal.Decimal(7)))

    from hypothesis import strategies as st

    # A project's own registration made first is kept.
    st.register_type_strategy(Theirs, st.just(Theirs("theirs")))
    register_type(Theirs, schema={"type": "string"}, structure=Theirs,
                  unstructure=lambda v: v.code, strategy=st.just(Theirs("ours")))
    # Registered after the import: the plugin watches register_type.
    register_type(Late, schema={"type": "string"}, structure=Late,
                  unstructure=lambda v: v.code, strategy=st.just(Late("late")))
    late_first = st.from_type(Late).example()
    # A new registration of one of ours replaces it.
    register_type(Late, schema={"type": "string"}, structure=Late,
                  unstructure=lambda v: v.code, strategy=st.just(Late("later")))

    decimals = {str(st.from_type(decimal.Decimal).example()) for _ in range(20)}
    print(json.dumps({
        "early": st.from_type(Early).example().code,
        "late": [late_first.code, st.from_type(Late).example().code],
        "theirs": st.from_type(Theirs).example().code,
        "decimal_untouched": decimals != {"7"},
    }))
"""


def test_from_type_learns_the_strategies_given_to_register_type() -> None:
    assert run(PLUGIN_SCENARIO) == {
        "early": "early",
        "late": ["late", "later"],
        "theirs": "theirs",
        "decimal_untouched": True,
    }


@attrs.frozen
class Badge:
    label: str


register_type(
    Badge,
    schema={"type": "string", "minLength": 1},
    structure=Badge,
    unstructure=lambda badge: badge.label,
    strategy=st.sampled_from(["gold", "silver"]).map(Badge),
)


def test_in_this_process_too() -> None:
    # pytest imported Hypothesis before this module ran: the registration reached it through
    # the plugin's watch.
    assert find(st.from_type(Badge), lambda badge: True) in (Badge("gold"), Badge("silver"))
    assert find(values(list[Badge]), lambda badges: len(badges) == 2)


LAZY_SCENARIO = """
    import json
    import hypothesis  # a conftest.py that registers settings profiles imports it first
    from hypothesis import strategies as st
    from typed_toolsets import register_type

    class Money:
        def __init__(self, cents):
            self.cents = cents

    calls = []

    def money_values():
        calls.append("called")
        # Refers to a name the module defines after the registration, as module code may.
        return st.integers(0, MAX_CENTS).map(Money)

    register_type(Money, schema={"type": "integer"}, structure=Money,
                  unstructure=lambda m: m.cents, strategy=money_values)
    called_at_registration = bool(calls)
    MAX_CENTS = 100

    def broken():
        return 42

    class Other:
        pass

    register_type(Other, schema={"type": "string"}, structure=lambda s: Other(),
                  unstructure=lambda o: "o", strategy=broken)

    print(json.dumps({
        "called_at_registration": called_at_registration,
        "cents": 0 <= st.from_type(Money).example().cents <= 100,
    }))
"""


def test_a_strategy_function_is_called_only_when_a_strategy_is_asked_for() -> None:
    # With Hypothesis already imported, register_type handed the plugin's st.deferred to
    # st.register_type_strategy, which evaluates it at once: the function ran inside
    # register_type (a NameError for a name defined later, Hypothesis's InvalidArgument for a
    # function not returning a strategy), while the module registering the type was imported.
    assert run(LAZY_SCENARIO) == {"called_at_registration": False, "cents": True}


def test_a_type_in_a_project_module_named_like_the_standard_library_s_gets_its_strategy(
    tmp_path: Path,
) -> None:
    # Judged by its name alone, a project's own `tabnanny.py` (or `email.py`, `code.py`) was the
    # standard library's, and its types were left to Hypothesis's guess (Sku(code='')).
    module = textwrap.dedent(
        """
        import attrs
        from hypothesis import strategies as st
        from typed_toolsets import register_type

        @attrs.frozen
        class Sku:
            code: str

        register_type(
            Sku,
            schema={"type": "string"},
            structure=Sku,
            unstructure=lambda s: s.code,
            strategy=st.from_regex(r"\\A[A-Z]{3}\\Z").map(Sku),
        )
        """
    )
    (tmp_path / "tabnanny.py").write_text(module, encoding="utf-8")
    found = run(
        f"""
        import json, sys
        sys.path.insert(0, {str(tmp_path)!r})
        from hypothesis import find, strategies as st
        import tabnanny
        example = find(st.from_type(tabnanny.Sku), lambda sku: True)
        print(json.dumps({{"code": example.code, "file": tabnanny.__file__}}))
        """
    )
    assert str(found["file"]).startswith(str(tmp_path))
    assert found["code"] == "AAA"
