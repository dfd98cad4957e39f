"""Issue 17, findings 7, 8 and 9: what a refusal says, leap seconds, and deep nesting.

- 7: messages speak JSON (``true``, ``null``, what number to send), never Python internals;
- 8: RFC 3339 leap seconds are read (as ``:59.999999``) at 23:59:60 UTC, refused elsewhere with
  the reason;
- 9: depth is measured without recursion; nesting past ``MAX_NESTING`` is refused, in time linear
  in the input, whatever ``Limits.max_depth`` and the interpreter's recursion limit say.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap
from datetime import date, datetime, time, timedelta, timezone
from pathlib import Path
from typing import Annotated, Any

import attrs
import pytest
from annotated_types import Ge
from hypothesis import given

from tests.robustness.measure import assert_bounded, timed
from tests.strategies.annotations import json_values
from tests.strategies.toolsets import echo_tool
from typed_toolsets import Limits, ToolProxy, Toolset, tool
from typed_toolsets.call.jsonin import MAX_NESTING
from typed_toolsets.rules.formats import LEAP_SECOND_RULE

ROOT = Path(__file__).resolve().parents[2]

# ------------------------------------------------------------------------------------ finding 7

#: Words that only Python would use for what the model sent. (What the tool author's own code
#: raised keeps its type, as a failing tool's does: ``ValueError: 'n' must be >= 0``.)
PYTHONISMS = re.compile(
    r"\b(True|False|None|Union|OverflowError)\b|could not be converted|int too large"
)


@attrs.define
class Positive:
    n: int = attrs.field(validator=attrs.validators.ge(0))


@pytest.mark.parametrize(
    ("annotation", "arguments", "message"),
    [
        (int, '{"value": true}', "value: true is not of type 'integer'"),
        (str, '{"value": null}', "value: null is not of type 'string'"),
        (
            int,
            '{"value": [true, null, {"a": false}]}',
            "value: [true, null, {'a': false}] is not of type 'integer'",
        ),
        (
            float,
            '{"value": ' + "1" * 400 + "}",
            (
                f"value: {'1' * 56}...1 is too large for a float; send a number between "
                "-1.8e308 and 1.8e308"
            ),
        ),
        (
            Annotated[int, Ge(0)] | float,
            '{"value": -' + "1" * 400 + "}",
            (
                f"value: -{'1' * 55}...1 is too large for a float; send a number between "
                "-1.8e308 and 1.8e308"
            ),
        ),
        (
            list[Positive],
            '{"value": [{"n": 1}, {"n": -1}]}',
            "value[1]: {'n': -1} is not accepted: ValueError: 'n' must be >= 0: -1",
        ),
        (
            int | None,
            '{"value": false}',
            "value: false is not valid here; expected an integer or null",
        ),
    ],
)
def test_messages_say_what_to_send_in_json_terms(
    annotation: object, arguments: str, message: str
) -> None:
    proxy = echo_tool(annotation)
    result = proxy.invoke(arguments)
    assert result.error is not None
    assert result.error.message == f"Invalid arguments for tool {proxy.name!r}: {message}"
    assert not PYTHONISMS.search(result.error.message)


@pytest.mark.parametrize(
    ("annotation", "number"),
    [(float, "1e400"), (float, "-1.5e309"), (int, "2E+999"), (float | None, "1" + "0" * 400)],
)
def test_a_number_too_large_for_a_float_says_which_numbers_to_send(
    annotation: object, number: str
) -> None:
    # A fraction or an exponent is read as a float when the text is read, whatever the
    # annotation (the message said only "too large for a float"); digits, when the type is built.
    result = echo_tool(annotation).invoke('{"value": ' + number + "}")
    assert result.error is not None
    assert result.error.kind == "arguments"
    assert result.error.message.endswith(
        "is too large for a float; send a number between -1.8e308 and 1.8e308"
    )


@pytest.mark.parametrize(
    ("number", "shown"),
    [
        ("9" * 400 + ".0", "9" * 20 + "..." + "9" * 15 + ".0"),
        ("1." + "0" * 100 + "e400", "1." + "0" * 18 + "..." + "0" * 13 + "e400"),
        ("-1.5e309", "-1.5e309"),
    ],
)
def test_a_long_number_too_large_for_a_float_is_shown_cut_not_as_another_number(
    number: str, shown: str
) -> None:
    # Its first 40 characters alone were shown: 9999999999999999999999999999999999999999,
    # which a float holds.
    result = echo_tool(float).invoke('{"value": ' + number + "}")
    assert result.error is not None
    assert result.error.message == (
        f"Invalid JSON arguments for tool {result.error.tool!r}: the number {shown} is too large for "
        "a float; send a number between -1.8e308 and 1.8e308"
    )


@given(json_values.filter(lambda v: not PYTHONISMS.search(json.dumps(v))))
def test_no_python_words_for_any_json(value: object) -> None:
    for annotation in (int, list[str], dict[str, bool], Positive | None):
        result = echo_tool(annotation).invoke({"value": value})
        if result.error is not None:
            assert not PYTHONISMS.search(result.error.message), result.error.message


# ------------------------------------------------------------------------------------ finding 8


def datetimes() -> ToolProxy:
    return echo_tool(datetime)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2016-12-31T23:59:60Z", datetime(2016, 12, 31, 23, 59, 59, 999_999, timezone.utc)),
        (
            "1998-12-31T15:59:60.123-08:00",
            datetime(1998, 12, 31, 15, 59, 59, 999_999, timezone(timedelta(hours=-8))),
        ),
    ],
)
def test_leap_seconds_are_read_as_the_last_microsecond(text: str, expected: datetime) -> None:
    for arguments in ({"value": text}, json.dumps({"value": text})):
        assert datetimes().invoke(arguments).value == {"value": expected}
    assert echo_tool(time).invoke({"value": "23:59:60Z"}).value == {
        "value": time(23, 59, 59, 999_999, timezone.utc)
    }


@pytest.mark.parametrize(
    "text", ["2016-12-31T23:58:60Z", "2016-12-31T22:59:60Z", "2016-12-31T23:59:60+01:00"]
)
def test_a_misplaced_leap_second_is_refused_with_the_reason(text: str) -> None:
    proxy = datetimes()
    result = proxy.invoke({"value": text})
    assert result.error is not None
    assert result.error.details[0].message == (
        f"'{text}' is not an RFC 3339 date-time such as 2024-05-01T12:30:00Z; {LEAP_SECOND_RULE}"
    )
    assert proxy.invoke(json.dumps({"value": text})).error == result.error


@pytest.mark.parametrize(
    ("annotation", "text"),
    [
        (datetime, "0000-01-01T00:00:00Z"),
        (datetime, "0000-12-31T23:00:00-02:00"),
        (date, "0000-03-01"),
    ],
)
def test_the_year_0000_is_refused_for_what_it_is(annotation: object, text: str) -> None:
    # RFC 3339 allows it; the message called it "not an RFC 3339 date-time".
    proxy = echo_tool(annotation)
    result = proxy.invoke({"value": text})
    assert result.error is not None
    assert result.error.details[0].message == (
        f"'{text}' is in the year 0000, which RFC 3339 allows but Python's dates do not (they "
        "start at 0001); send a year from 0001 to 9999"
    )
    assert proxy.invoke(json.dumps({"value": text})).error == result.error


@pytest.mark.parametrize(
    ("annotation", "text", "said"),
    [
        (
            datetime,
            "2016-12-31T23:58:60Z",
            "an RFC 3339 date-time such as 2024-05-01T12:30:00Z or null; " + LEAP_SECOND_RULE,
        ),
        (
            date,
            "0000-03-01",
            (
                "a date such as 2024-05-01 or null; it is in the year 0000, which RFC 3339 allows "
                "but Python's dates do not (they start at 0001); send a year from 0001 to 9999"
            ),
        ),
    ],
)
def test_an_optional_date_or_date_time_says_the_same_reason(
    annotation: object, text: str, said: str
) -> None:
    # With null as the union's other variant the reason was lost: "not valid here" alone.
    proxy = echo_tool(annotation | None)
    result = proxy.invoke({"value": text})
    assert result.error is not None
    assert result.error.details[0].message == f"'{text}' is not valid here; expected {said}"
    assert proxy.invoke(json.dumps({"value": text})).error == result.error


# ------------------------------------------------------------------------------------ finding 9


@attrs.define
class Node:
    children: list[Node]


class Deep(Toolset):
    toolset_name = "deep"
    limits = Limits(max_depth=1_000_000, max_argument_bytes=3_000_000)

    @tool
    def tree(self, *, node: Node) -> int:
        depth = 1
        while node.children:
            node = node.children[0]
            depth += 1
        return depth

    @tool
    def numbers(self, *, x: list[int]) -> int:
        return len(x)


def deep() -> dict[str, ToolProxy]:
    return {t.method_name: t for t in Deep.to_tools()}


def tree_text(levels: int) -> str:
    """A ``tree`` call nested *levels* JSON levels deep (the arguments object is level 1)."""
    nodes = (levels - 1) // 2
    return (
        '{"node": ' + '{"children": [' * (nodes - 1) + '{"children": []}' + "]}" * (nodes - 1) + "}"
    )


def tree_value(levels: int) -> dict[str, Any]:
    node: dict[str, Any] = {"children": []}
    for _ in range((levels - 1) // 2 - 1):
        node = {"children": [node]}
    return {"node": node}


def test_nesting_up_to_the_most_read_is_accepted() -> None:
    assert MAX_NESTING == 128  # as the README says
    tree = deep()["tree"]
    levels = MAX_NESTING - 1  # an odd number of levels: objects and lists alternate
    assert tree.invoke(tree_text(levels)).value == (levels - 1) // 2
    assert tree.invoke(tree_value(levels)).value == (levels - 1) // 2


@pytest.mark.parametrize("levels", [MAX_NESTING + 3, 991, 200_003])
def test_deeper_is_refused_quickly_whatever_max_depth_says(levels: int) -> None:
    tree = deep()["tree"]
    for arguments in (tree_text(levels), tree_value(levels)):
        result = tree.invoke(arguments)
        assert result.error is not None
        assert result.error.kind == "limit"
        assert f"over the limit of {MAX_NESTING}" in result.error.message
        assert "whatever Limits.max_depth allows" in result.error.message
    # The review: a dict of depth 200,002 took 99.6 s to refuse.
    assert_bounded(lambda: tree.invoke(tree_value(levels)), 1)
    # In milliseconds (under 1 ms measured): the mapping is not read past the limit.
    value = tree_value(levels)
    seconds, _ = timed(lambda: tree.invoke(value))
    assert seconds < 0.1, f"{seconds:.3f} s"
    assert_bounded(lambda: tree.invoke(tree_text(levels)), len(tree_text(levels)) / 1e6)


@pytest.mark.parametrize("tool", ["tree", "numbers"])
def test_a_text_nested_past_the_limit_in_every_part_is_refused_in_bounded_time(
    tool: str,
) -> None:
    # Wide as well as deep: a thousand arrays, each nested one level past what is read. The
    # value was walked a container at a time (0.3 s) and the text measured a bracket at a time
    # (85 ms, twice); its text is measured in C passes now.
    inner = MAX_NESTING - 1
    text = '{"x": [' + ",".join(["[" * inner + "]" * inner] * 1_000) + "]}"
    arguments = {"node": json.loads(text)["x"]} if tool == "tree" else json.loads(text)
    proxy = deep()[tool]
    for form in (text.replace('"x"', '"node"') if tool == "tree" else text, arguments):
        result = proxy.invoke(form)
        assert result.error is not None
        assert result.error.kind == "limit", result.error.message
        assert f"over the limit of {MAX_NESTING}" in result.error.message
        assert_bounded(lambda form=form: proxy.invoke(form), len(text) / 1e6)


def test_the_verdicts_do_not_depend_on_the_recursion_limit() -> None:
    """The same calls under three recursion limits, from a deep stack too: the same answers."""
    script = textwrap.dedent(
        f"""
        import json, sys
        sys.setrecursionlimit(int(sys.argv[1]))
        from tests.robustness.test_messages_and_depth import deep, tree_text, tree_value
        tools = deep()

        def answers():
            out = []
            for levels in (9, 65, {MAX_NESTING - 1}, {MAX_NESTING + 1}, 991, 20_001):
                for arguments in (tree_text(levels), tree_value(levels)):
                    result = tools["tree"].invoke(arguments)
                    out.append(result.value if result.ok else result.error.kind)
                bad = '{{"x": ' + "[" * levels + "]" * levels + "}}"
                out.append(tools["numbers"].invoke(bad).error.kind)
            return out

        def from_depth(frames):
            return answers() if frames == 0 else from_depth(frames - 1)

        print(json.dumps([answers(), from_depth(300)]))
        """
    )
    seen = []
    for limit in ("1000", "3000", "100000"):
        done = subprocess.run(
            [sys.executable, "-c", script, limit],
            capture_output=True,
            text=True,
            check=False,
            cwd=ROOT,
        )
        assert done.returncode == 0, done.stderr
        plain, deep_stack = json.loads(done.stdout)
        assert plain == deep_stack
        seen.append(plain)
    assert seen[0] == seen[1] == seen[2]
    assert seen[0][:3] == [4, 4, "arguments"]
    assert seen[0][-3:] == ["limit", "limit", "limit"]
