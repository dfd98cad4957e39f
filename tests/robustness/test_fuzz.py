"""Fuzzing the model-facing call with mixed input: valid, near misses, any JSON, broken text.

For generated tools and inputs (mappings, JSON text, bytes, and text mangled the ways a model or an
attacker mangles it), every call must end in a value or a `ToolError` that names the tool: never an
exception, never a slow or unbounded refusal, and the same answer for a mapping and its JSON
text, from sync and from async code. CI runs a short fuzz (the ``ci`` profile);
``HYPOTHESIS_PROFILE=thorough`` runs it long.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.strategies.annotations import cases, json_values
from tests.strategies.toolsets import echo_tool
from typed_toolsets import ToolProxy, ToolResult
from typed_toolsets.call.validation import MAX_PROBLEMS
from typed_toolsets.testing import arguments, invalid_arguments

#: A call of a few kilobytes at most: anything near a second means a superlinear path.
SECONDS = 2.0
# Names as `json_path` writes them: Python identifiers (Unicode letters too), else quoted.
_PATH = re.compile(r"\$(\.(?!\d)\w+|\[\d+\]|\['.*'\]|\[\".*\"\])*")
_PREFIXES = (
    "Invalid arguments for tool {name!r}: ",
    "Invalid JSON arguments for tool {name!r}: ",
    "Arguments for tool {name!r} ",
)


@st.composite
def mangled(draw: st.DrawFn, text: str) -> str:
    """*text* with one of the edits models and attackers make."""
    edit = draw(st.integers(0, 9))
    where = draw(st.integers(0, len(text)))
    if edit == 0:
        return text[:where]  # cut short
    if edit == 1:
        return text[:where] + draw(st.sampled_from('{}[]",:\\0-9eE+.tfn \ufeff')) + text[where:]
    if edit == 2:
        depth = draw(st.sampled_from([40, 200, 5_000]))
        return "[" * depth + text + "]" * depth
    if edit == 3 and text.endswith("}") and len(text) > 2:
        return text[:-1] + ', "value": 1}'  # a duplicate key
    if edit == 4:
        digits = draw(st.sampled_from([19, 20, 309, 400, 5_000]))
        return '{"value": ' + draw(st.sampled_from(["", "-"])) + "9" * digits + "}"
    if edit == 5 and text.endswith("}") and len(text) > 2:
        escape = draw(st.sampled_from(["\\u003a", "\\ud800", "\\udc00\\ud800", "\\u0000"]))
        return text[:-1] + f', "x{escape}": "{escape}"}}'
    if edit == 6:
        return "\ufeff" + text
    if edit == 7:
        return draw(st.sampled_from(["", " ", "null", "[]", '"x"', "1e400", "NaN", "{}"]))
    if edit == 8:
        return text.replace(":", ": " + "[" * 50, 1)
    return text


@st.composite
def calls(draw: st.DrawFn) -> tuple[ToolProxy, Any, Any]:
    """A tool, what is sent to it, and (for JSON-ready input) the same as a mapping."""
    proxy = echo_tool(draw(cases()).annotation)
    base: dict[str, Any] = draw(
        st.one_of(
            arguments(proxy),
            invalid_arguments(proxy).map(lambda near: dict(near.arguments)),
            st.builds(lambda v: {"value": v}, json_values),
            st.dictionaries(st.text(max_size=5), json_values, max_size=3),
        )
    )
    form = draw(st.sampled_from(["mapping", "text", "bytes", "mangled"]))
    if form == "mapping":
        return proxy, base, base
    text = json.dumps(base)
    if form == "text":
        return proxy, text, base
    if form == "bytes":
        return proxy, text.encode(), base
    return proxy, draw(mangled(text)), None


def check_result(proxy: ToolProxy, result: ToolResult) -> None:
    assert isinstance(result, ToolResult)
    if result.ok:
        return
    error = result.error
    assert error is not None
    assert error.tool == proxy.name
    assert error.kind in ("arguments", "limit"), error
    prefixes = tuple(p.format(name=proxy.name) for p in _PREFIXES)
    assert error.message.startswith(prefixes), error.message
    assert len(error.details) <= MAX_PROBLEMS
    for detail in error.details:
        assert _PATH.fullmatch(detail.path), detail.path


@settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(calls())
def test_every_call_ends_in_a_value_or_an_error(call: tuple[ToolProxy, Any, Any]) -> None:
    proxy, sent, mapping = call
    started = time.perf_counter()
    result = proxy.invoke(sent)
    assert time.perf_counter() - started < SECONDS
    check_result(proxy, result)
    assert proxy.dynamic_call(sent) == result.dynamic()
    assert asyncio.run(proxy.ainvoke(sent)) == result
    if mapping is not None and sent is not mapping:
        # The same arguments as a mapping and as JSON text: the same answer.
        assert proxy.invoke(mapping) == result
