"""The agent examples of README.md and docs/agent.md run as written, against stand-in clients."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.test_agent_adapters import (
    ANSWER,
    ANTHROPIC_REPLIES,
    OPENAI_REPLIES,
    completion,
    fake_anthropic,
    fake_openai,
)
from typed_toolsets.agent import ReAct, Transcript

openai = pytest.importorskip("openai")
anthropic = pytest.importorskip("anthropic")

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
AGENT_DOC = ROOT / "docs" / "agent.md"


def _blocks(path: Path, language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", path.read_text(encoding="utf-8"), re.S)


def _block_after(path: Path, marker: str, language: str = "python") -> str:
    """The code block that follows the HTML comment *marker*."""
    text = path.read_text(encoding="utf-8")
    start = text.index(marker)
    match = re.compile(rf"```{language}\n(.*?)```", re.S).search(text, start)
    assert match is not None
    return match.group(1)


def _run(code: str, path: Path) -> dict[str, Any]:
    namespace: dict[str, Any] = {"__name__": "docs"}
    exec(compile(code, str(path), "exec"), namespace)  # noqa: S102 - our own documentation
    return namespace


def _stand_in(monkeypatch: pytest.MonkeyPatch, module: Any, name: str, client: Any) -> None:
    monkeypatch.setattr(module, name, lambda **_options: client)


def test_the_first_agent_example_runs_as_its_comments_say() -> None:
    code = _blocks(AGENT_DOC, "python")[0]
    namespace = _run(code, AGENT_DOC)
    checked = 0
    for line in code.splitlines():
        expression, _, expected = line.partition("  # ")
        if expected and expression.strip().startswith("result"):
            assert eval(expression.strip(), namespace) == eval(expected)  # noqa: S307
            checked += 1
    assert checked == 3


def test_the_documented_instructions_are_the_code_s() -> None:
    documented = _block_after(AGENT_DOC, "<!-- the instructions:", "text")
    assert ReAct(lambda t: {}, [], max_iterations=1).system_prompt + "\n" == documented


def test_the_text_model_example_runs(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    steps = [
        {"thought": "Count.", "action": "text_wc", "action_input": {"text": "one two three"}},
        {"thought": "Three.", "action": "finish", "final_answer": "3"},
    ]
    replies = [completion(i, {"content": json.dumps(s)}, "stop") for i, s in enumerate(steps)]
    client, log = fake_openai(replies)
    _stand_in(monkeypatch, openai, "OpenAI", client)
    _run(_block_after(AGENT_DOC, "<!-- a text model:"), AGENT_DOC)
    assert capsys.readouterr().out == "3\n"
    first, second = log.requests
    assert first["response_format"] == {"type": "json_object"}
    assert first["messages"][0]["role"] == "system"
    assert second["messages"][-1] == {
        "role": "user",
        "content": "Observation: Lines: 1, Words: 3, Characters: 13",
    }


def test_the_native_tool_call_example_runs(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    client, log = fake_anthropic(ANTHROPIC_REPLIES)
    _stand_in(monkeypatch, anthropic, "Anthropic", client)
    _run(_block_after(AGENT_DOC, "<!-- native tool calls:"), AGENT_DOC)
    assert capsys.readouterr().out == ANSWER + "\n"
    assert len(log.requests) == 3
    assert log.requests[0]["max_tokens"] == 2048


def test_the_readme_agent_example_runs(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    client, _ = fake_openai(OPENAI_REPLIES)
    _stand_in(monkeypatch, openai, "OpenAI", client)
    namespace = _run(_block_after(README, "<!-- agent:"), README)
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == ANSWER
    assert lines[1].startswith("text_wc {'text': 'one two three', 'words_only': True} Words: 3 ")
    assert lines[-1].startswith("finish {} None ")
    agent: ReAct = namespace["agent"]
    assert (agent.max_iterations, agent.deadline, agent.max_observation_chars) == (8, 60, 4000)


def test_a_transcript_is_what_the_doc_says() -> None:
    documented = set(re.findall(r"^- `(\w+)`", AGENT_DOC.read_text(encoding="utf-8"), re.M))
    fields = {"task", "tools", "turns", "system_prompt"}
    assert fields <= documented
    assert fields <= set(Transcript.__annotations__)


def test_the_package_docstring_example_runs() -> None:
    import typed_toolsets.agent

    code = re.search(r"```python\n(.*?)```", typed_toolsets.agent.__doc__ or "", re.S)
    assert code is not None
    namespace = _run(code.group(1), Path(typed_toolsets.agent.__file__))
    result = namespace["result"]
    assert result.final_answer == "2 words"
    assert result.steps[0].observation == "Lines: 1, Words: 2, Characters: 7"
