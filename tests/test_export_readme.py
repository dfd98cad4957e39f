"""The README's export examples run as written: the dialect tour and the function-calling loop.

The loop talks to a stand-in OpenAI client that replays responses in the Chat Completions
format (no network) and checks every request it receives against the SDK's own request types.
"""

from __future__ import annotations

import re
import types
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel, TypeAdapter

openai = pytest.importorskip("openai")

from openai.types.chat import (  # noqa: E402
    ChatCompletion,
    ChatCompletionFunctionToolParam,
    ChatCompletionMessageParam,
)

README = Path(__file__).resolve().parent.parent / "README.md"

#: Two responses of the Chat Completions API, as the SDK receives them: a call of text_wc, then
#: the answer. Written in the API's response format (not captured from the live API).
REPLIES: list[dict[str, Any]] = [
    {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1767225600,
        "model": "gpt-4.1-2025-04-14",
        "choices": [
            {
                "index": 0,
                "finish_reason": "tool_calls",
                "logprobs": None,
                "message": {
                    "role": "assistant",
                    "content": None,
                    "refusal": None,
                    "annotations": [],
                    "tool_calls": [
                        {
                            "id": "call_wc1",
                            "type": "function",
                            "function": {
                                "name": "text_wc",
                                "arguments": '{"text":"one two three","words_only":true}',
                            },
                        }
                    ],
                },
            }
        ],
        "usage": {"prompt_tokens": 812, "completion_tokens": 24, "total_tokens": 836},
    },
    {
        "id": "chatcmpl-2",
        "object": "chat.completion",
        "created": 1767225601,
        "model": "gpt-4.1-2025-04-14",
        "choices": [
            {
                "index": 0,
                "finish_reason": "stop",
                "logprobs": None,
                "message": {
                    "role": "assistant",
                    "content": "There are 3 words.",
                    "refusal": None,
                    "annotations": [],
                },
            }
        ],
        "usage": {"prompt_tokens": 850, "completion_tokens": 7, "total_tokens": 857},
    },
]


class _Completions:
    def __init__(self) -> None:
        self.replies = list(REPLIES)
        self.requests: list[dict[str, Any]] = []

    def create(self, **request: Any) -> ChatCompletion:
        # What the SDK would send: its own models written out as JSON objects.
        messages = [
            m.model_dump(exclude_none=True) if isinstance(m, BaseModel) else dict(m)
            for m in request["messages"]
        ]
        for message in messages:
            TypeAdapter(ChatCompletionMessageParam).validate_python(message)
        for tool in request["tools"]:
            assert TypeAdapter(ChatCompletionFunctionToolParam).validate_python(tool) == tool
        self.requests.append({**request, "messages": messages})
        return ChatCompletion.model_validate(self.replies.pop(0))


class FakeOpenAI:
    """Stands in for ``openai.OpenAI``: ``client.chat.completions.create`` replays REPLIES."""

    last: FakeOpenAI | None = None

    def __init__(self, **_options: Any) -> None:
        self.chat = types.SimpleNamespace(completions=_Completions())
        FakeOpenAI.last = self


def _python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)


def _block_with(marker: str) -> str:
    (block,) = [b for b in _python_blocks() if marker in b]
    return block


def test_the_function_calling_loop_runs_against_recorded_responses(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(openai, "OpenAI", FakeOpenAI)
    code = _block_with("client.chat.completions.create")
    loop = code[code.index("while True:") :]
    assert len(loop.strip().splitlines()) == 10  # the README says "ten lines"
    exec(compile(code, str(README), "exec"), {"__name__": "readme"})  # noqa: S102 - our README
    assert capsys.readouterr().out == "There are 3 words.\n"
    client = FakeOpenAI.last
    assert client is not None
    first, second = client.chat.completions.requests
    assert [t["function"]["name"] for t in first["tools"]][:2] == ["text_grep", "text_wc"]
    assert second["messages"][-1] == {
        "role": "tool",
        "tool_call_id": "call_wc1",
        "content": "Words: 3",
    }
    assert second["messages"][-2]["tool_calls"][0]["id"] == "call_wc1"


def test_the_dialect_tour_runs(capsys: pytest.CaptureFixture[str]) -> None:
    code = _block_with("export.openai_chat(tools)")
    namespace: dict[str, Any] = {"__name__": "readme"}
    last = code.strip().splitlines()[-1].split("#")[0].strip()
    exec(compile(code, str(README), "exec"), namespace)  # noqa: S102 - our README
    assert eval(last, namespace) == "Lines: 1, Words: 2, Characters: 7"  # noqa: S307


def test_the_annotations_example_defines_a_toolset() -> None:
    code = _block_with("class FilesToolset(Toolset)")
    namespace: dict[str, Any] = {"__name__": "readme"}
    exec(compile(code, str(README), "exec"), namespace)  # noqa: S102 - our README
    read, delete = namespace["FilesToolset"].to_tools()
    assert read.annotations.read_only_hint is True
    assert delete.requires_approval is True
    assert delete.annotations.destructive_hint is True
    assert delete.annotations.open_world_hint is False
