"""The problem records and their templates (`typed_toolsets.rules.problems`)."""

from __future__ import annotations

import string
from typing import get_args

import pytest

from typed_toolsets import Problem as PublicProblem
from typed_toolsets.rules.kinds import (
    CHECK_ONLY_CODES,
    CODE_PREFIX,
    KINDS,
    PROBLEM_CODES,
    STATIC_ONLY_CODES,
    WARNING_CODES,
    Kind,
)
from typed_toolsets.rules.problems import Problem, problem


def test_the_kind_literal_and_the_template_table_agree() -> None:
    assert set(get_args(Kind)) == set(KINDS)
    assert PublicProblem is Problem


def test_codes_are_the_ten_stable_codes() -> None:
    assert {
        "unknown-method",
        "not-a-method",
        "duplicate-name",
        "invalid-name",
        "signature",
        "param-type",
        "init",
        "ambiguous-union",
        "unchecked",
        "inline",
        "raised",
    } == PROBLEM_CODES
    assert WARNING_CODES <= PROBLEM_CODES
    # The plugin's own: what it cannot read statically, the run time and `check` see.
    assert {"unchecked"} == STATIC_ONLY_CODES
    # check's own: a definition error raised in the checked code's words.
    assert {"raised"} == CHECK_ONLY_CODES


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_every_template_renders(kind: Kind) -> None:
    fields = {f for _, f, _, _ in string.Formatter().parse(KINDS[kind].text) if f}
    values = {f: f"<{f}>" for f in fields - {"toolset", "method", "parameter"}}
    record = problem(kind, "Cls", "meth", "param", **values)
    assert record.code == CODE_PREFIX + KINDS[kind].code
    assert str(record) == f"Cls.meth: {record.cause} [{record.code}]"
    for value in values.values():
        assert value in record.cause


def test_where_names_the_class_the_method_or_tool() -> None:
    assert problem("limits-type", "Cls", got="3").where == "Cls"
    assert problem("api-name", "Outer.Inner", "to_tools").where == "Outer.Inner.to_tools"
    assert problem("tool-name-type", None, "op", got="5").where == "tool()"


def test_name_lists_and_suggestions() -> None:
    assert problem("unknown-method", "C", "x", matches=()).cause == "C has no method 'x' to export"
    several = problem("unknown-method", "C", "serch", matches=["search", "scorch"])
    assert several.cause.endswith("; did you mean 'search' or 'scorch'?")
    assert several.value("matches") == ("search", "scorch")
    needs = problem("init", "C", needed=["a", "b"])
    assert "the constructor needs 'a', 'b';" in needs.cause


def test_a_long_value_is_shown_by_its_start_and_end() -> None:
    # A union holding a Literal of 4,000 values: a 35,000-character label in one message.
    union = "Literal[" + ", ".join(f"'v{n}'" for n in range(4000)) + "] | int | str"
    found = problem(
        "ambiguous-union", "C", "m", "p", union=union, first="Literal['v0']", second="str"
    )
    assert len(found.message) < 700
    assert "has the union Literal['v0', 'v1'," in found.cause
    assert " ... " in found.cause
    assert (
        "'v3999'] | int | str, and a JSON value can match both Literal['v0'] and str" in found.cause
    )
    assert found.value("union") == union  # the record keeps it whole
    short = problem("ambiguous-union", "C", "m", "p", union="int | str", first="int", second="str")
    assert " ... " not in short.cause


def test_values_are_checked_when_the_record_is_made() -> None:
    with pytest.raises(ValueError, match="needs the values \\['name', 'reason'\\]"):
        problem("invalid-tool-name", "C", "m")
    with pytest.raises(ValueError, match="needs the values \\[\\]"):
        problem("api-name", "C", "m", extra="x")
    with pytest.raises(ValueError, match="unknown kind of problem 'nope'"):
        problem("nope", "C")  # type: ignore[arg-type]
    with pytest.raises(KeyError):
        problem("api-name", "C", "m").value("matches")


def test_value_order_does_not_matter() -> None:
    one = Problem("duplicate-tool-name", "C", "m", None, (("other", "a"), ("name", "n")))
    two = problem("duplicate-tool-name", "C", "m", name="n", other="a")
    assert one == two
    assert hash(one) == hash(two)


def test_severity() -> None:
    ambiguous = problem(
        "ambiguous-union", "C", "m", "p", union="str | Color", first="str", second="Color"
    )
    assert ambiguous.severity == "warning"
    assert problem("api-name", "C", "m").severity == "error"


def test_records_are_frozen() -> None:
    record = problem("api-name", "C", "m")
    with pytest.raises(AttributeError):
        record.method = "other"  # type: ignore[misc]


def test_a_long_reason_is_shown_whole() -> None:
    # What is wrong may be in its middle (a chain of fields, the user's own exception text).
    reason = "field A.b: " * 60 + "'Handle' is not a JSON type; register it"
    found = problem("unsupported-type", "C", "m", "p", type="Handle", reason=reason)
    assert reason in found.cause
