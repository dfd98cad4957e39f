"""``typed-toolsets demo``: a scripted model drives the built-in text toolset through `ReAct`.

Every tool call is real (the text toolset's pure-Python tools, so no program needs to be
installed); only the model is scripted, so the run is the same on every machine. The script
shows the whole system once: a few calls on an embedded log, one call with a wrong argument
type that the loop turns into an observation, the corrected call, and the final answer.
"""

from __future__ import annotations

import json
import sys
import textwrap
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final, TextIO

if TYPE_CHECKING:
    from typed_toolsets.agent import AgentResult

__all__ = ["LOG", "SCRIPT", "TASK", "main", "run_demo"]

TASK: Final = (
    "Which component failed first in this service log, and how many error lines are there?"
)

LOG: Final = """\
2025-03-14 09:00:01 INFO  api    started on port 8080
2025-03-14 09:00:02 INFO  db     connected to primary
2025-03-14 09:02:17 WARN  cache  hit rate below 50%
2025-03-14 09:05:43 ERROR db     connection lost: timeout after 30s
2025-03-14 09:05:44 ERROR api    request failed: database unavailable
2025-03-14 09:05:44 ERROR api    request failed: database unavailable
2025-03-14 09:06:10 INFO  db     reconnected to replica
2025-03-14 09:06:11 INFO  api    requests succeeding again
"""

_ERRORS: Final = """\
2025-03-14 09:05:43 ERROR db     connection lost: timeout after 30s
2025-03-14 09:05:44 ERROR api    request failed: database unavailable
2025-03-14 09:05:44 ERROR api    request failed: database unavailable
"""

#: What the scripted model says, step by step: what a real model might, mistake included.
SCRIPT: Final[tuple[Mapping[str, Any], ...]] = (
    {
        "thought": "First, how long is the log?",
        "action": "text_wc",
        "action_input": {"text": LOG, "lines_only": True},
    },
    {
        "thought": "Keep only the error lines (the filter ignores case).",
        "action": "text_filter_lines",
        "action_input": {"text": LOG, "pattern": "error"},
    },
    {
        "thought": "Two of the three errors look alike; how many distinct ones are there?",
        "action": "text_unique_lines",
        "action_input": {"text": _ERRORS},
    },
    {
        "thought": "Look at the lines just before the first error, 3 to 4.",
        "action": "text_extract_lines",
        "action_input": {"text": LOG, "start_line": "3", "end_line": 4},
    },
    {
        "thought": "start_line must be an integer, not a string: send 3.",
        "action": "text_extract_lines",
        "action_input": {"text": LOG, "start_line": 3, "end_line": 4},
    },
    {
        "thought": "The db error comes first; the api errors follow from it.",
        "action": "finish",
        "final_answer": (
            "The database failed first: at 09:05:43 db lost its connection (timeout after 30s); "
            "the api request failures one second later follow from it. There are 3 error lines "
            "(2 distinct)."
        ),
    },
)

_INTRO: Final = (
    "typed-toolsets demo: a scripted model drives the built-in text toolset through the ReAct "
    "loop\n(typed_toolsets.agent). Every tool call below is real; only the model's replies are "
    "scripted.\n"
)
_INDENT: Final = "  "
_LONG: Final = 48


def run_demo() -> AgentResult:
    """Run the scripted agent; returns its `typed_toolsets.agent.AgentResult`."""
    from typed_toolsets.agent import ReAct, ScriptedModel
    from typed_toolsets.text import TextProcessingToolset

    tools = TextProcessingToolset.to_tools()
    agent = ReAct(ScriptedModel(SCRIPT), tools, max_iterations=len(SCRIPT) + 2)
    return agent.run(TASK)


def _value(value: object) -> str:
    """An argument for the screen: the log by name, other long text shortened."""
    if value == LOG:
        return "<the log>"
    if isinstance(value, str) and len(value) > _LONG:
        lines = value.count("\n")
        return f"<text: {lines} line{'s' if lines != 1 else ''}>"
    return json.dumps(value, ensure_ascii=False)


def _arguments(arguments: Mapping[str, Any]) -> str:
    return "{" + ", ".join(f"{json.dumps(k)}: {_value(v)}" for k, v in arguments.items()) + "}"


def _block(label: str, text: str) -> str:
    """``label: text``, continuation lines indented under the text."""
    lines = text.rstrip("\n").split("\n") or [""]
    head = f"{_INDENT}{label:<12} {lines[0]}"
    pad = _INDENT + " " * 13
    return "\n".join([head, *(pad + line for line in lines[1:])])


def _milliseconds(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def _print_steps(result: AgentResult, out: TextIO) -> None:
    out.write(_INTRO + "\n")
    out.write(f"Task: {TASK}\n\n")
    out.write(f"The log ({len(LOG.splitlines())} lines):\n")
    out.write("".join(_INDENT + line + "\n" for line in LOG.splitlines()) + "\n")
    for number, step in enumerate(result.steps, 1):
        status = "" if step.ok else "  [error: sent back to the model]"
        out.write(f"Step {number}: {step.action}{status}\n")
        out.write(_block("thought:", step.thought) + "\n")
        if step.observation is not None:
            out.write(_block("arguments:", _arguments(step.arguments)) + "\n")
            out.write(_block("observation:", step.observation) + "\n")
        out.write(_block("took:", _milliseconds(step.duration)) + "\n\n")
    answer = textwrap.fill(
        str(result.final_answer), 79, initial_indent=_INDENT, subsequent_indent=_INDENT
    )
    out.write(f"Final answer:\n{answer}\n")
    calls = sum(1 for s in result.steps if s.result is not None)
    errors = sum(1 for s in result.steps if not s.ok)
    took = _milliseconds(sum(s.duration for s in result.steps))
    out.write(
        f"\n{result.iterations} steps, {calls} tool calls, {errors} error"
        f"{'' if errors == 1 else 's'} sent back to the model, {took} in all.\n"
    )


def main(out: TextIO | None = None, *, as_json: bool = False) -> None:
    """Run the demo and print each step readably, or (``as_json``) the whole run as JSON."""
    stream: TextIO = sys.stdout if out is None else out
    result = run_demo()
    if as_json:
        stream.write(json.dumps({"task": TASK, **result.to_dict()}, indent=2, ensure_ascii=False))
        stream.write("\n")
    else:
        _print_steps(result, stream)


if __name__ == "__main__":
    main(as_json="--json" in sys.argv[1:])
