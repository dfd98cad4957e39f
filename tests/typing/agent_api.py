# pyright: strict
"""The agent API's types, pinned with ``assert_type``: models, callbacks, results, errors."""

from __future__ import annotations

from collections.abc import Awaitable, Mapping
from typing import Any

from typing_extensions import assert_type

from typed_toolsets import ToolProxy, ToolResult, TypedToolsetsError
from typed_toolsets.agent import (
    AgentError,
    AgentResult,
    DeadlineExceededError,
    MaxIterationsError,
    ReAct,
    ScriptedModel,
    Step,
    Transcript,
    Turn,
    anthropic_model,
    openai_chat_model,
)
from typed_toolsets.text import TextProcessingToolset


def text_model(transcript: Transcript) -> str:
    messages = transcript.messages()
    assert_type(messages, list[dict[str, str]])
    return messages[-1]["content"]


async def async_model(transcript: Transcript) -> dict[str, Any]:
    turn: Turn = transcript.turns[-1]
    assert_type(turn.observation, str)
    assert_type(turn.step, Step)
    return {"action": "finish", "final_answer": turn.observation}


def approve(tool_name: str, arguments: Mapping[str, Any]) -> bool:
    return tool_name != "text_grep"


async def async_approve(tool_name: str, arguments: Mapping[str, Any]) -> bool:
    return bool(arguments)


def agents(client: object) -> None:
    tools: list[ToolProxy] = TextProcessingToolset.to_tools()
    ReAct(text_model, tools, max_iterations=3, approve=approve, deadline=1.5)
    ReAct(async_model, tools, max_iterations=3, approve=async_approve, max_observation_chars=9)
    ReAct(ScriptedModel([{"action": "finish", "final_answer": 1}, "{}"]), tools, max_iterations=1)
    ReAct(openai_chat_model(client, model="gpt-4.1", strict=True), tools, max_iterations=2)
    ReAct(anthropic_model(client, model="claude", max_tokens=64), tools, max_iterations=2)
    ReAct(text_model, tools)  # type: ignore[call-arg]  # pyright: ignore[reportCallIssue]  # the bound is required


def results(agent: ReAct) -> Awaitable[AgentResult]:
    result = agent.run("task")
    assert_type(result.final_answer, object)
    assert_type(result.iterations, int)
    step = result.steps[0]
    assert_type(step.action, str | None)
    assert_type(step.arguments, Mapping[str, Any])
    assert_type(step.observation, str | None)
    assert_type(step.duration, float)
    assert_type(step.result, ToolResult | None)
    return agent.arun("task")


def errors(agent: ReAct) -> None:
    try:
        agent.run("task")
    except MaxIterationsError as error:
        assert_type(error.steps, tuple[Step, ...])
        assert_type(error.max_iterations, int)
    except DeadlineExceededError as error:
        assert_type(error.deadline, float)
        assert_type(error.waiting_for, str)
    except AgentError as error:
        base: TypedToolsetsError = error  # in the library's exception tree
        assert_type(base.args, tuple[Any, ...])
