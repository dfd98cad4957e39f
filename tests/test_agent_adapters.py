"""`openai_chat_model` and `anthropic_model`: the loop driven by native tool calls.

Stand-in clients replay responses written in each API's response format (not captured from the
live APIs; no network): a tool call, parallel tool calls, then the final text. Every request
they receive is checked against the SDK's own request types, and every response is built with
the SDK's own response model, so the adapters read exactly what the SDKs hand over.
"""

from __future__ import annotations

import asyncio
import copy
import json
import types
import typing
from collections.abc import Iterator, Mapping
from typing import Any

import pytest
from pydantic import TypeAdapter

from typed_toolsets import Toolset, tool
from typed_toolsets.agent import (
    AgentError,
    ReAct,
    Transcript,
    anthropic_model,
    openai_chat_model,
)
from typed_toolsets.export import anthropic as anthropic_tools
from typed_toolsets.export import openai_chat
from typed_toolsets.text import TextProcessingToolset

openai_types = pytest.importorskip("openai.types.chat")
anthropic_types = pytest.importorskip("anthropic.types")

# Built once: a TypeAdapter of the SDKs' request unions takes a while to build.
OPENAI_MESSAGE = TypeAdapter(openai_types.ChatCompletionMessageParam)
OPENAI_TOOL = TypeAdapter(openai_types.ChatCompletionFunctionToolParam)
ANTHROPIC_MESSAGE = TypeAdapter(anthropic_types.MessageParam)
ANTHROPIC_TOOL = TypeAdapter(anthropic_types.ToolParam)

TASK = "How many words are in 'one two three'? Also sort 'b\\na' and dedupe 'a\\na'."
TOOLS = [
    t
    for t in TextProcessingToolset.to_tools()
    if t.name in {"text_wc", "text_sort_lines", "text_unique_lines"}
]
ANSWER = "There are 3 words; sorted: a, b; unique: a."


class Replayer:
    """Answers with recorded replies, by position in the conversation (so runs may interleave).

    Every request is checked against the SDK's request types first, and each reply is built
    with the SDK's response model (or handed over as a plain dict, ``as_sdk=False``).
    """

    def __init__(
        self, replies: list[dict[str, Any]], sdk: tuple[Any, Any, Any], *, as_sdk: bool
    ) -> None:
        self.replies = replies
        self.message_type, self.tool_type, self.response_type = sdk
        self.as_sdk = as_sdk
        self.requests: list[dict[str, Any]] = []

    def create(self, **request: Any) -> Any:
        for message in request["messages"]:
            _validated(self.message_type.validate_python(message))
        for entry in request.get("tools", []):
            assert self.tool_type.validate_python(entry) == entry
        self.requests.append(copy.deepcopy(request))
        answered = sum(1 for m in request["messages"] if m["role"] == "assistant")
        reply = self.replies[answered]
        return self.response_type.model_validate(reply) if self.as_sdk else reply

    async def acreate(self, **request: Any) -> Any:
        await asyncio.sleep(0)
        return self.create(**request)


def _validated(value: object) -> object:
    """*value* with the parts pydantic validates lazily (the SDKs' ``Iterable[...]`` fields:
    tool calls, content blocks) validated too, as the SDK's request would need them."""
    if isinstance(value, Iterator):  # pydantic's ValidatorIterator: validates as it goes
        return [_validated(item) for item in typing.cast("Iterator[object]", value)]
    if isinstance(value, dict):
        items = typing.cast("dict[str, object]", value).items()
        return {key: _validated(item) for key, item in items}
    if isinstance(value, list):
        return [_validated(item) for item in typing.cast("list[object]", value)]
    return value


def fake_openai(
    replies: list[dict[str, Any]], *, as_sdk: bool = True, is_async: bool = False
) -> tuple[Any, Replayer]:
    """A stand-in for ``openai.OpenAI()`` (``AsyncOpenAI()`` with *is_async*), and its log."""
    sdk = (OPENAI_MESSAGE, OPENAI_TOOL, openai_types.ChatCompletion)
    log = Replayer(replies, sdk, as_sdk=as_sdk)
    create = log.acreate if is_async else log.create
    return types.SimpleNamespace(chat=types.SimpleNamespace(completions=_with(create))), log


def fake_anthropic(
    replies: list[dict[str, Any]], *, as_sdk: bool = True, is_async: bool = False
) -> tuple[Any, Replayer]:
    """A stand-in for ``anthropic.Anthropic()`` (``AsyncAnthropic()`` with *is_async*)."""
    log = Replayer(
        replies, (ANTHROPIC_MESSAGE, ANTHROPIC_TOOL, anthropic_types.Message), as_sdk=as_sdk
    )
    return types.SimpleNamespace(messages=_with(log.acreate if is_async else log.create)), log


def _with(create: Any) -> types.SimpleNamespace:
    return types.SimpleNamespace(create=create)


# ---------------------------------------------------------------------------------- OpenAI


def completion(number: int, message: dict[str, Any], finish_reason: str) -> dict[str, Any]:
    return {
        "id": f"chatcmpl-{number}",
        "object": "chat.completion",
        "created": 1767225600 + number,
        "model": "gpt-4.1-2025-04-14",
        "choices": [
            {
                "index": 0,
                "finish_reason": finish_reason,
                "logprobs": None,
                "message": {"role": "assistant", "refusal": None, "annotations": [], **message},
            }
        ],
        "usage": {"prompt_tokens": 900, "completion_tokens": 30, "total_tokens": 930},
    }


def _openai_call(call_id: str, name: str, arguments: dict[str, Any] | str) -> dict[str, Any]:
    text = arguments if isinstance(arguments, str) else json.dumps(arguments)
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": text}}


OPENAI_REPLIES: list[dict[str, Any]] = [
    completion(
        1,
        {
            "content": None,
            "tool_calls": [
                _openai_call("call_wc", "text_wc", {"text": "one two three", "words_only": True})
            ],
        },
        "tool_calls",
    ),
    completion(
        2,
        {
            "content": None,
            "tool_calls": [
                _openai_call("call_sort", "text_sort_lines", {"text": "b\na"}),
                _openai_call("call_uniq", "text_unique_lines", {"text": "a\na"}),
            ],
        },
        "tool_calls",
    ),
    completion(3, {"content": ANSWER}, "stop"),
]


def _check_steps(result: Any) -> None:
    """The run both providers' recorded replies give: one call, two parallel calls, the answer."""
    assert result.final_answer == ANSWER
    assert [s.action for s in result.steps] == [
        "text_wc",
        "text_sort_lines",
        "text_unique_lines",
        "finish",
    ]
    assert [s.observation for s in result.steps] == ["Words: 3", "a\nb\n", "a\n", None]
    assert result.iterations == 4  # two parallel calls are two steps


def _check_openai_run(log: Replayer, result: Any) -> None:
    _check_steps(result)
    first, second, third = log.requests  # the provider was asked three times
    assert first["model"] == "gpt-4.1"
    assert first["tools"] == openai_chat(TOOLS)
    assert first["messages"] == [{"role": "user", "content": TASK}]
    assert second["messages"][1:] == [
        {
            "role": "assistant",
            "tool_calls": [OPENAI_REPLIES[0]["choices"][0]["message"]["tool_calls"][0]],
        },
        {"role": "tool", "tool_call_id": "call_wc", "content": "Words: 3"},
    ]
    assert third["messages"][3:] == [
        {
            "role": "assistant",
            "tool_calls": OPENAI_REPLIES[1]["choices"][0]["message"]["tool_calls"],
        },
        {"role": "tool", "tool_call_id": "call_sort", "content": "a\nb\n"},
        {"role": "tool", "tool_call_id": "call_uniq", "content": "a\n"},
    ]


@pytest.mark.parametrize("as_sdk", [True, False], ids=["sdk-objects", "plain-dicts"])
def test_openai_tool_call_parallel_calls_and_final_text(as_sdk: bool) -> None:
    client, log = fake_openai(OPENAI_REPLIES, as_sdk=as_sdk)
    agent = ReAct(openai_chat_model(client, model="gpt-4.1"), TOOLS, max_iterations=6)
    _check_openai_run(log, agent.run(TASK))


@pytest.mark.parametrize("runner", ["run", "arun"])
def test_openai_async_client(runner: str) -> None:
    client, log = fake_openai(OPENAI_REPLIES, is_async=True)
    agent = ReAct(openai_chat_model(client, model="gpt-4.1"), TOOLS, max_iterations=6)
    result = agent.run(TASK) if runner == "run" else asyncio.run(agent.arun(TASK))
    _check_openai_run(log, result)


def test_openai_options_instructions_and_no_tools() -> None:
    client, log = fake_openai([OPENAI_REPLIES[-1]])
    model = openai_chat_model(client, model="gpt-4.1", instructions="Be brief.", temperature=0)
    assert ReAct(model, [], max_iterations=1).run("Hi.").final_answer == ANSWER
    (request,) = log.requests
    assert "tools" not in request  # the API refuses an empty list
    assert request["temperature"] == 0
    assert request["messages"] == [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "Hi."},
    ]


def test_openai_errors_go_back_as_tool_messages() -> None:
    replies = [
        completion(
            1,
            {
                "content": "Let me try.",
                "tool_calls": [
                    _openai_call("call_1", "text_wc", {"txt": "a"}),
                    _openai_call("call_2", "text_grep", {"text": "a", "pattern": "a"}),
                    _openai_call("call_3", "text_wc", '{"text": '),
                ],
            },
            "tool_calls",
        ),
        completion(2, {"content": "I could not."}, "stop"),
    ]
    client, log = fake_openai(replies)
    result = ReAct(openai_chat_model(client, model="gpt-4.1"), TOOLS, max_iterations=5).run("x")
    assert [s.ok for s in result.steps] == [False, False, False, True]
    assert result.steps[0].thought == "Let me try."
    tool_messages = log.requests[-1]["messages"][-3:]
    assert [m["tool_call_id"] for m in tool_messages] == ["call_1", "call_2", "call_3"]
    assert tool_messages[0]["content"].startswith("Error: Invalid arguments for tool 'text_wc': ")
    assert tool_messages[1]["content"].startswith("Error: Unknown tool 'text_grep'")  # not given
    assert tool_messages[2]["content"].startswith(
        "Error: Invalid JSON arguments for tool 'text_wc': "
    )


def test_openai_strict_null_means_the_default() -> None:
    arguments = {"text": "one two", "lines_only": None, "words_only": None, "chars_only": None}
    replies = [
        completion(
            1,
            {"content": None, "tool_calls": [_openai_call("c", "text_wc", arguments)]},
            "tool_calls",
        ),
        completion(2, {"content": "Done."}, "stop"),
    ]
    client, log = fake_openai(replies)
    model = openai_chat_model(client, model="gpt-4.1", strict=True)
    result = ReAct(model, TOOLS, max_iterations=3).run("Count.")
    assert result.steps[0].observation == "Lines: 1, Words: 2, Characters: 7"
    assert result.steps[0].arguments == arguments  # as the model sent them
    assert log.requests[0]["tools"] == openai_chat(TOOLS, strict=True)
    # Without strict, null is not a boolean: the model is told so.
    plain, _ = fake_openai(replies)
    result = ReAct(openai_chat_model(plain, model="gpt-4.1"), TOOLS, max_iterations=3).run("x")
    assert (result.steps[0].observation or "").startswith("Error: Invalid arguments")


def test_a_strict_step_is_sent_in_the_text_format_as_its_json() -> None:
    arguments = {"text": "a b", "lines_only": None, "words_only": True, "chars_only": None}
    call = completion(
        1, {"content": None, "tool_calls": [_openai_call("c", "text_wc", arguments)]}, "tool_calls"
    )
    client, _ = fake_openai([call])
    native = openai_chat_model(client, model="gpt-4.1", strict=True)
    seen: list[list[dict[str, str]]] = []

    def model(transcript: Transcript) -> Any:
        if not transcript.turns:
            return native(transcript)
        seen.append(transcript.messages())
        return {"thought": "", "action": "finish", "final_answer": "2"}

    assert ReAct(model, TOOLS, max_iterations=3).run("Count.").steps[0].observation == "Words: 2"
    sent = json.loads(seen[0][-2]["content"])
    assert json.loads(sent["action_input"]) == arguments


@pytest.mark.parametrize("as_sdk", [True, False], ids=["sdk-objects", "plain-dicts"])
def test_openai_calls_without_ids_or_with_object_arguments_are_sent_back_valid(
    as_sdk: bool,
) -> None:
    """Compatible servers (LM Studio, llama.cpp, Gemini's) may send a call without an id, or
    with "" (and some an object for ``arguments``): repeated so, with ``"tool_call_id": null``,
    every later request was one the API refuses (and "" twice cannot tell two calls apart)."""
    calls: list[dict[str, Any]] = [
        {
            "id": "",
            "type": "function",
            "function": {"name": "text_wc", "arguments": '{"text": "a b"}'},
        },
        {"id": "", "type": "function", "function": {"name": "text_wc", "arguments": "{}"}},
        {"id": "", "type": "function", "function": {"name": "text_wc", "arguments": "{}"}},
    ]
    if not as_sdk:  # what the SDK's own response model would not hold, a plain dict may
        del calls[0]["id"]
        calls[0]["function"]["arguments"] = {"text": "a b"}
        calls[2]["function"]["arguments"] = None
    replies = [
        completion(1, {"content": None, "tool_calls": calls}, "tool_calls"),
        completion(2, {"content": "2 words."}, "stop"),
    ]
    client, log = fake_openai(replies, as_sdk=as_sdk)
    result = ReAct(openai_chat_model(client, model="m"), TOOLS, max_iterations=4).run("Count.")
    assert result.final_answer == "2 words."
    assert result.steps[0].observation == "Lines: 1, Words: 2, Characters: 3"
    assistant, *answers = log.requests[-1]["messages"][1:]
    sent = assistant["tool_calls"]
    ids = [call["id"] for call in sent]
    assert all(isinstance(i, str) and i for i in ids)
    assert len(set(ids)) == 3
    assert [answer["tool_call_id"] for answer in answers] == ids
    assert json.loads(sent[0]["function"]["arguments"]) == {"text": "a b"}
    assert sent[2]["function"]["arguments"] == "{}"


@pytest.mark.parametrize("as_sdk", [True, False], ids=["sdk-objects", "plain-dicts"])
def test_openai_a_compatible_server_s_own_fields_are_sent_back_as_they_came(as_sdk: bool) -> None:
    """DeepSeek refuses the next request without the message's ``reasoning_content``, Gemini's
    compatible server without each call's ``extra_content`` (its thought signature): the
    assistant message was rebuilt from OpenAI's fields alone."""
    call = {
        **_openai_call("call_A", "text_wc", {"text": "a b"}),
        "extra_content": {"google": {"thought_signature": "SIG123"}},
    }
    replies = [
        completion(
            1,
            {"content": None, "reasoning_content": "I should count.", "tool_calls": [call]},
            "tool_calls",
        ),
        completion(2, {"content": "2 words."}, "stop"),
    ]
    client, log = fake_openai(replies, as_sdk=as_sdk)
    result = ReAct(openai_chat_model(client, model="m"), TOOLS, max_iterations=4).run("Count.")
    assert result.final_answer == "2 words."
    assistant = log.requests[-1]["messages"][1]
    # OpenAI's own reply-only fields (`annotations`, a null `refusal`) are not repeated.
    assert assistant == {
        "role": "assistant",
        "reasoning_content": "I should count.",
        "tool_calls": [call],
    }


def test_openai_refusal_is_the_final_answer() -> None:
    reply = completion(1, {"content": None, "refusal": "I can't help with that."}, "stop")
    client, _ = fake_openai([reply])
    result = ReAct(openai_chat_model(client, model="gpt-4.1"), TOOLS, max_iterations=1).run("x")
    assert result.final_answer == "I can't help with that."


@pytest.mark.parametrize("as_sdk", [True, False], ids=["sdk-objects", "plain-dicts"])
@pytest.mark.parametrize(
    ("reason", "said"),
    [
        ("content_filter", "the provider's content filter withheld the reply"),
        (
            "length",
            # OpenAI's chat parameter is max_completion_tokens (max_tokens is its older name).
            (
                "the reply reached the token limit before any text; raise "
                "max_completion_tokens (max_tokens for older models) in the options"
            ),
        ),
    ],
)
def test_openai_an_empty_reply_cut_off_or_withheld_stops_the_run(
    reason: str, said: str, as_sdk: bool
) -> None:
    # It ended the run "successfully" with the final answer "".
    client, _ = fake_openai([completion(1, {"content": None}, reason)], as_sdk=as_sdk)
    with pytest.raises(AgentError) as raised:
        ReAct(openai_chat_model(client, model="m"), TOOLS, max_iterations=2).run("x")
    assert str(raised.value) == (
        f"openai_chat_model: the provider's reply is empty (finish_reason {reason!r}): {said}; "
        "the run stopped"
    )
    # With text, the text is the answer; an empty reply that simply stopped is "" as before.
    for message, finish, answer in (
        ({"content": "Partial"}, reason, "Partial"),
        ({"content": ""}, "stop", ""),
    ):
        client, _ = fake_openai([completion(1, message, finish)], as_sdk=as_sdk)
        agent = ReAct(openai_chat_model(client, model="m"), TOOLS, max_iterations=2)
        assert agent.run("x").final_answer == answer


def test_openai_content_in_parts_is_the_answer_and_a_reply_without_message_stops_the_run() -> None:
    # A compatible server's list of text parts was read as no text: the run ended with "".
    parts = [{"type": "text", "text": "The answer "}, {"type": "text", "text": "is 3."}]
    client, log = fake_openai([completion(1, {"content": parts}, "stop")], as_sdk=False)
    agent = ReAct(openai_chat_model(client, model="m"), TOOLS, max_iterations=2)
    assert agent.run("x").final_answer == "The answer is 3."
    # Parts beside a call are its thought, and go back as they came (the request types hold).
    replies = [
        completion(
            1,
            {"content": parts, "tool_calls": [_openai_call("c1", "text_wc", {"text": "a"})]},
            "tool_calls",
        ),
        completion(2, {"content": "Done."}, "stop"),
    ]
    client, log = fake_openai(replies, as_sdk=False)
    result = ReAct(openai_chat_model(client, model="m"), TOOLS, max_iterations=3).run("x")
    assert result.steps[0].thought == "The answer is 3."
    assert log.requests[1]["messages"][1]["content"] == parts
    # Refusal parts alone are the answer, as a refusal field is.
    refused = [{"type": "refusal", "refusal": "I can't help with that."}]
    client, _ = fake_openai([completion(1, {"content": refused}, "stop")], as_sdk=False)
    agent = ReAct(openai_chat_model(client, model="m"), TOOLS, max_iterations=2)
    assert agent.run("x").final_answer == "I can't help with that."
    # A choice whose message is null is no answer; the reply's error is told.
    reply = completion(1, {}, "stop")
    reply["choices"][0]["message"] = None
    reply["error"] = {"message": "upstream overloaded"}
    client, _ = fake_openai([reply], as_sdk=False)
    with pytest.raises(AgentError) as raised:
        ReAct(openai_chat_model(client, model="m"), TOOLS, max_iterations=2).run("x")
    assert str(raised.value) == (
        "openai_chat_model: the provider's reply holds no message, only an error: "
        '{"message": "upstream overloaded"}; the run stopped'
    )


@pytest.mark.parametrize("as_sdk", [True, False], ids=["sdk-objects", "plain-dicts"])
def test_calls_of_one_reply_sharing_an_id_are_answered_each_by_its_own(as_sdk: bool) -> None:
    # Both answers named "call_1": the provider could not tell which result was whose.
    replies = [
        completion(
            1,
            {
                "content": None,
                "tool_calls": [
                    _openai_call("call_1", "text_wc", {"text": "a b"}),
                    _openai_call("call_1", "text_wc", {"text": "a"}),
                ],
            },
            "tool_calls",
        ),
        completion(2, {"content": "Done."}, "stop"),
    ]
    client, log = fake_openai(replies, as_sdk=as_sdk)
    ReAct(openai_chat_model(client, model="m"), TOOLS, max_iterations=4).run("x")
    assistant, *answers = log.requests[-1]["messages"][1:]
    ids = [call["id"] for call in assistant["tool_calls"]]
    assert ids[0] == "call_1"
    assert len(set(ids)) == 2
    assert [answer["tool_call_id"] for answer in answers] == ids
    uses = [_use("toolu_1", "text_wc", {"text": "a b"}), _use("toolu_1", "text_wc", {"text": "a"})]
    replies = [
        _message(1, uses, "tool_use"),
        _message(2, [{"type": "text", "text": "Done."}], "end_turn"),
    ]
    client, log = fake_anthropic(replies, as_sdk=as_sdk)
    ReAct(anthropic_model(client, model="m", max_tokens=64), TOOLS, max_iterations=4).run("x")
    sent, answered = log.requests[-1]["messages"][1:]
    ids = [block["id"] for block in sent["content"]]
    assert ids[0] == "toolu_1"
    assert len(set(ids)) == 2
    assert [block["tool_use_id"] for block in answered["content"]] == ids


# ------------------------------------------------------------------------------- Anthropic


def _message(number: int, content: list[dict[str, Any]], stop_reason: str) -> dict[str, Any]:
    return {
        "id": f"msg_0{number}",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5-20250929",
        "content": content,
        "stop_reason": stop_reason,
        "stop_sequence": None,
        "usage": {"input_tokens": 1200, "output_tokens": 60},
    }


def _use(use_id: str, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return {"type": "tool_use", "id": use_id, "name": name, "input": arguments}


ANTHROPIC_REPLIES: list[dict[str, Any]] = [
    _message(
        1,
        [
            {"type": "text", "text": "I'll count the words first."},
            _use("toolu_wc", "text_wc", {"text": "one two three", "words_only": True}),
        ],
        "tool_use",
    ),
    _message(
        2,
        [
            {"type": "text", "text": "Now both line tasks at once."},
            _use("toolu_sort", "text_sort_lines", {"text": "b\na"}),
            _use("toolu_uniq", "text_unique_lines", {"text": "a\na"}),
        ],
        "tool_use",
    ),
    _message(3, [{"type": "text", "text": ANSWER}], "end_turn"),
]


def _check_anthropic_run(log: Replayer, result: Any) -> None:
    _check_steps(result)
    assert [s.thought for s in result.steps] == [
        "I'll count the words first.",
        "Now both line tasks at once.",
        "",  # the second call of one reply
        "",
    ]
    first, second, third = log.requests
    assert (first["model"], first["max_tokens"]) == ("claude-sonnet-4-5", 1024)
    assert first["tools"] == anthropic_tools(TOOLS)
    assert first["messages"] == [{"role": "user", "content": TASK}]
    assert second["messages"][1:] == [
        {"role": "assistant", "content": ANTHROPIC_REPLIES[0]["content"]},
        {"role": "user", "content": [_result("toolu_wc", "Words: 3")]},
    ]
    # Both results of the parallel calls answer in one user message, in order.
    assert third["messages"][3:] == [
        {"role": "assistant", "content": ANTHROPIC_REPLIES[1]["content"]},
        {
            "role": "user",
            "content": [_result("toolu_sort", "a\nb\n"), _result("toolu_uniq", "a\n")],
        },
    ]


def _result(use_id: str, content: str, *, is_error: bool = False) -> dict[str, Any]:
    return {"type": "tool_result", "tool_use_id": use_id, "content": content, "is_error": is_error}


@pytest.mark.parametrize("as_sdk", [True, False], ids=["sdk-objects", "plain-dicts"])
def test_anthropic_tool_use_parallel_calls_and_final_text(as_sdk: bool) -> None:
    client, log = fake_anthropic(ANTHROPIC_REPLIES, as_sdk=as_sdk)
    model = anthropic_model(client, model="claude-sonnet-4-5", max_tokens=1024)
    _check_anthropic_run(log, ReAct(model, TOOLS, max_iterations=6).run(TASK))


@pytest.mark.parametrize("runner", ["run", "arun"])
def test_anthropic_async_client(runner: str) -> None:
    client, log = fake_anthropic(ANTHROPIC_REPLIES, is_async=True)
    model = anthropic_model(client, model="claude-sonnet-4-5", max_tokens=1024)
    agent = ReAct(model, TOOLS, max_iterations=6)
    result = agent.run(TASK) if runner == "run" else asyncio.run(agent.arun(TASK))
    _check_anthropic_run(log, result)


class Files(Toolset):
    """A toolset with a destructive tool, to run only when approved."""

    @tool(requires_approval=True)
    def remove(self, *, path: str) -> str:
        """Remove a file."""
        return f"removed {path}"


def test_anthropic_refusals_and_errors_are_flagged_tool_results() -> None:
    replies = [
        _message(
            1,
            [
                _use("toolu_1", "files_remove", {"path": "/etc/passwd"}),
                _use("toolu_2", "files_remove", {"path": "/tmp/scratch"}),
                _use("toolu_3", "files_remove", {"path": "/tmp/b", "force": True}),
            ],
            "tool_use",
        ),
        _message(2, [{"type": "text", "text": "Removed what I was allowed to."}], "end_turn"),
    ]
    client, log = fake_anthropic(replies)
    asked: list[tuple[str, dict[str, Any]]] = []

    def approve(name: str, arguments: Mapping[str, Any]) -> bool:
        asked.append((name, dict(arguments)))
        return str(arguments.get("path", "")).startswith("/tmp/")

    model = anthropic_model(client, model="claude-sonnet-4-5", instructions="Be careful.")
    result = ReAct(model, Files.to_tools(), max_iterations=5, approve=approve).run("Clean up.")
    assert [s.ok for s in result.steps] == [False, True, False, True]
    request = log.requests[-1]
    assert request["system"] == "Be careful."
    results = request["messages"][-1]["content"]
    assert [(r["tool_use_id"], r["is_error"]) for r in results] == [
        ("toolu_1", True),
        ("toolu_2", False),
        ("toolu_3", True),
    ]
    assert results[0]["content"] == (
        "Error: The call of tool 'files_remove' was not approved. Choose another action, or finish."
    )
    assert results[1]["content"] == "removed /tmp/scratch"
    # Refused by the schema before anyone is asked: the callback sees only calls that would run.
    assert results[2]["content"] == (
        "Error: Invalid arguments for tool 'files_remove': force: unexpected argument; "
        "expected only: path"
    )
    assert asked == [
        ("files_remove", {"path": "/etc/passwd"}),
        ("files_remove", {"path": "/tmp/scratch"}),
    ]


class Quiet(Toolset):
    @tool
    def say(self, *, text: str) -> str:
        return text


def test_anthropic_an_empty_tool_result_is_sent_as_its_json_text() -> None:
    # A tool returning "" (or only whitespace) was answered with that text, which the API
    # refuses ("text content blocks must be non-empty"), failing every later request.
    replies = [
        _message(1, [_use("toolu_1", "quiet_say", {"text": ""})], "tool_use"),
        _message(2, [_use("toolu_2", "quiet_say", {"text": " \n"})], "tool_use"),
        _message(3, [{"type": "text", "text": "Nothing to say."}], "end_turn"),
    ]
    client, log = fake_anthropic(replies)
    model = anthropic_model(client, model="claude-sonnet-4-5")
    result = ReAct(model, Quiet.to_tools(), max_iterations=5).run("Say nothing.")
    assert [s.observation for s in result.steps[:2]] == ["", " \n"]
    sent = [
        block["content"]
        for message in log.requests[-1]["messages"]
        if isinstance(message["content"], list)
        for block in message["content"]
        if block.get("type") == "tool_result"
    ]
    assert sent == ['""', '" \\n"']


def test_anthropic_thinking_blocks_go_back_unchanged() -> None:
    thinking = {"type": "thinking", "thinking": "Count first.", "signature": "EqQBCkYIBxgCKkA"}
    replies = [
        _message(1, [thinking, _use("toolu_1", "text_wc", {"text": "a b"})], "tool_use"),
        _message(2, [{"type": "text", "text": "2 words."}], "end_turn"),
    ]
    client, log = fake_anthropic(replies)
    model = anthropic_model(client, model="claude-sonnet-4-5")
    assert ReAct(model, TOOLS, max_iterations=3).run("Count.").final_answer == "2 words."
    assistant = log.requests[-1]["messages"][1]
    assert assistant["content"][0] == thinking


def test_one_model_object_serves_runs_side_by_side() -> None:
    """The adapters keep no state between turns: the transcript carries it."""
    client, log = fake_openai(OPENAI_REPLIES)
    model = openai_chat_model(client, model="gpt-4.1")
    one, two = ReAct(model, TOOLS, max_iterations=6), ReAct(model, TOOLS, max_iterations=6)

    async def both() -> list[Any]:
        return list(await asyncio.gather(one.arun(TASK), two.arun(TASK)))

    for result in asyncio.run(both()):
        _check_steps(result)
    assert len(log.requests) == 6


def test_steps_of_another_model_are_sent_in_the_text_format() -> None:
    """A model that mixes a scripted first step with a native one still sends valid requests."""
    # The stand-in answers by the number of replies so far: the first was the scripted one.
    done = completion(2, {"content": "Done."}, "stop")
    client, log = fake_openai([OPENAI_REPLIES[0], done])
    native = openai_chat_model(client, model="gpt-4.1")
    first = {"thought": "Warm up.", "action": "text_wc", "action_input": {"text": "a b"}}

    def model(transcript: Transcript) -> Any:
        return first if not transcript.turns else native(transcript)

    result = ReAct(model, TOOLS, max_iterations=3).run("Go.")
    assert result.final_answer == "Done."
    (request,) = log.requests
    assert request["messages"][1:] == [
        {"role": "assistant", "content": json.dumps(first)},
        {"role": "user", "content": "Observation: Lines: 1, Words: 2, Characters: 3"},
    ]


class Listing(Toolset):
    """A tool failing with a file name decoded with ``surrogateescape`` (as ``os.listdir`` does)."""

    @tool
    def open(self, *, path: str) -> str:
        """Open a file."""
        raise FileNotFoundError(f"no such file: {path}/caf\udce9")


def test_an_error_with_lone_surrogates_is_sent_as_valid_unicode() -> None:
    """A request body is UTF-8: an observation holding a lone surrogate cannot be sent at all."""
    replies = [
        _message(1, [_use("toolu_1", "listing_open", {"path": "/srv"})], "tool_use"),
        _message(2, [{"type": "text", "text": "Not found."}], "end_turn"),
    ]
    client, log = fake_anthropic(replies)
    agent = ReAct(anthropic_model(client, model="m"), Listing.to_tools(), max_iterations=3)
    result = agent.run("x")
    expected = "Error: Tool 'listing_open' failed: FileNotFoundError: no such file: /srv/caf\ufffd"
    assert result.steps[0].observation == expected
    (sent,) = log.requests[-1]["messages"][-1]["content"]
    assert sent["content"] == expected
    json.dumps(log.requests[-1], ensure_ascii=False).encode("utf-8")  # as the SDK writes it


@pytest.mark.parametrize("as_sdk", [True, False], ids=["sdk-objects", "plain-dicts"])
def test_a_reply_with_lone_surrogates_is_sent_back_as_valid_unicode(as_sdk: bool) -> None:
    """A reply may hold a lone surrogate (JSON text escapes ``\\ud800`` alone), as may a task
    (a file name decoded with ``surrogateescape``): repeated as they came, they made every later
    request of the run unsendable (UnicodeEncodeError as the SDK writes the body)."""
    openai_replies = [
        completion(
            1,
            {
                "content": "Count\ud800.",
                "tool_calls": [_openai_call("c1", "text_wc", {"text": "a"})],
            },
            "tool_calls",
        ),
        completion(2, {"content": "1 word."}, "stop"),
    ]
    anthropic_replies = [
        _message(
            1,
            [{"type": "text", "text": "Count\ud800."}, _use("t1", "text_wc", {"text": "a\ud800"})],
            "tool_use",
        ),
        _message(2, [{"type": "text", "text": "1 word."}], "end_turn"),
    ]
    openai_client, openai_log = fake_openai(openai_replies, as_sdk=as_sdk)
    anthropic_client, anthropic_log = fake_anthropic(anthropic_replies, as_sdk=as_sdk)
    for model, log in [
        (openai_chat_model(openai_client, model="m"), openai_log),
        (anthropic_model(anthropic_client, model="m"), anthropic_log),
    ]:
        result = ReAct(model, TOOLS, max_iterations=3).run("Count caf\udce9.")
        assert result.final_answer == "1 word."
        for request in log.requests:
            json.dumps(request, ensure_ascii=False).encode("utf-8")  # as the SDK writes it
        assert log.requests[0]["messages"][0]["content"] == "Count caf\ufffd."
        assert "Count\ufffd." in json.dumps(log.requests[1]["messages"][1], ensure_ascii=False)
    # What the model sent is what the loop read: the tool refused the lone surrogate.
    observation = result.steps[0].observation or ""
    assert "text: the string 'a\\ud800' contains a lone surrogate (U+D800)" in observation


@pytest.mark.parametrize("as_sdk", [True, False], ids=["sdk-objects", "plain-dicts"])
def test_anthropic_blank_text_blocks_are_not_sent_back(as_sdk: bool) -> None:
    """The API may reply with ``TextBlock(text="")`` beside its calls, yet refuses a request
    holding a text block that is empty or only whitespace ("text content blocks must be
    non-empty" / "must contain non-whitespace text")."""
    use = _use("toolu_1", "text_wc", {"text": "a b"})
    blank = [{"type": "text", "text": ""}, {"type": "text", "text": "\n"}]
    replies = [
        _message(1, [*blank, use], "tool_use"),
        _message(2, [{"type": "text", "text": "2 words."}], "end_turn"),
    ]
    client, log = fake_anthropic(replies, as_sdk=as_sdk)
    model = anthropic_model(client, model="claude-sonnet-4-5")
    assert ReAct(model, TOOLS, max_iterations=3).run("Count.").final_answer == "2 words."
    assert log.requests[-1]["messages"][1] == {"role": "assistant", "content": [use]}


def test_a_native_call_of_finish_ends_the_run() -> None:
    """An unknown tool's observation offers "finish" with a "final_answer", which a native model
    can only send as a tool call: that call ends the run (it was an endless malformed step)."""
    replies = [
        completion(
            1, {"content": None, "tool_calls": [_openai_call("c1", "text_grep", {})]}, "tool_calls"
        ),
        completion(
            2,
            {"content": None, "tool_calls": [_openai_call("c2", "Finish", {"final_answer": "3"})]},
            "tool_calls",
        ),
    ]
    client, _ = fake_openai(replies)
    result = ReAct(openai_chat_model(client, model="gpt-4.1"), TOOLS, max_iterations=3).run("x")
    assert '"finish" with a "final_answer"' in (result.steps[0].observation or "")
    assert (result.final_answer, result.iterations) == ("3", 2)
    # Anthropic's input is an object; without a final_answer the step is malformed, as in text.
    blocks = [_use("toolu_1", "finish", {}), _use("toolu_2", "finish", {"final_answer": 3})]
    client, _ = fake_anthropic([_message(1, blocks, "tool_use")])
    result = ReAct(anthropic_model(client, model="m"), TOOLS, max_iterations=3).run("x")
    assert (result.final_answer, result.iterations) == (3, 2)
    observation = result.steps[0].observation or ""
    assert '"finish" needs a "final_answer"' in observation
    # Told in tool calls' terms, not the text format's JSON step.
    assert observation.endswith(
        'Instead, call one of the tools with its arguments, or call "finish" with '
        '{"final_answer": "<your answer>"}'
    )
    assert '"action"' not in observation


@pytest.mark.parametrize(
    ("option", "said"),
    [
        ("messages", "the transcript"),
        ("tools", "ReAct's tools"),
        ("stream", "whole replies"),
    ],
)
def test_options_the_adapter_writes_itself_are_refused(option: str, said: str) -> None:
    """Given as options, these were silently replaced (tools), replaced the whole
    conversation (messages) or made every reply read as an empty final answer (stream)."""
    value: Any = True if option == "stream" else [{"role": "user", "content": "x"}]
    with pytest.raises(TypeError, match=f"anthropic_model.*'{option}'.*{said}"):
        anthropic_model(object(), model="m", **{option: value})
    with pytest.raises(TypeError, match=f"openai_chat_model.*'{option}'.*{said}"):
        openai_chat_model(object(), model="m", **{option: value})


def test_anthropic_system_is_sent_as_given_unless_instructions_say_it_too() -> None:
    # Beside instructions= it was overridden by them; alone it is the system prompt, blocks too.
    with pytest.raises(TypeError, match=r"'system'.*once, as instructions= or as system="):
        anthropic_model(object(), model="m", instructions="a", system="b")
    blocks = [{"type": "text", "text": "Be careful.", "cache_control": {"type": "ephemeral"}}]
    client, log = fake_anthropic([_message(1, [{"type": "text", "text": "done"}], "end_turn")])
    result = ReAct(anthropic_model(client, model="m", system=blocks), TOOLS, max_iterations=2)
    assert result.run("x").final_answer == "done"
    assert log.requests[0]["system"] == blocks


def test_openai_a_call_without_a_name_is_answered_and_sent_back_valid() -> None:
    """A plain-dict reply (a compatible server's) may hold a call whose name is null or not
    text: repeated so, the next request failed the SDK's types (the API refuses it), and the
    run with it. Now the model is answered as the export's dispatch answers such a call (an
    unknown tool ``null``, and the tools on offer), and "" is sent back as its name."""
    calls: list[dict[str, Any]] = [
        {"id": "c1", "type": "function", "function": {"name": None, "arguments": "{}"}},
        {"id": "c2", "type": "function", "function": {"name": 7, "arguments": "{}"}},
    ]
    replies = [
        completion(1, {"content": None, "tool_calls": calls}, "tool_calls"),
        completion(2, {"content": "done"}, "stop"),
    ]
    client, log = fake_openai(replies, as_sdk=False)  # its create() checks the SDK's types
    result = ReAct(openai_chat_model(client, model="m"), TOOLS, max_iterations=4).run("x")
    assert result.final_answer == "done"
    available = "available tools: text_wc, text_unique_lines, text_sort_lines"
    assert [step.observation for step in result.steps[:2]] == [
        f'Error: Unknown tool null; {available} (or "finish" with a "final_answer")',
        f'Error: Unknown tool 7; {available} (or "finish" with a "final_answer")',
    ]
    assert [step.action for step in result.steps[:2]] == [None, None]
    sent = log.requests[-1]["messages"][1]["tool_calls"]
    assert [call["function"]["name"] for call in sent] == ["", ""]


def test_anthropic_null_input_is_no_arguments_and_a_nameless_call_is_answered() -> None:
    """A plain-dict tool_use block with ``"input": null`` (no arguments, ``{}``), input as JSON
    text or an array, no id or no name was repeated as it came, which the SDK's types (and the
    API) refuse: every later request of the run failed."""
    blocks: list[dict[str, Any]] = [
        {"type": "tool_use", "id": "toolu_1", "name": "text_wc", "input": None},
        {"type": "tool_use", "id": None, "name": "text_wc", "input": '{"text": "a b"}'},
        {"type": "tool_use", "id": "toolu_3", "name": None, "input": {"text": "a"}},
        {"type": "tool_use", "id": "toolu_4", "name": "text_wc", "input": [1]},
    ]
    replies = [
        _message(1, blocks, "tool_use"),
        _message(2, [{"type": "text", "text": "done"}], "end_turn"),
    ]
    client, log = fake_anthropic(replies, as_sdk=False)  # its create() checks the SDK's types
    result = ReAct(anthropic_model(client, model="m"), TOOLS, max_iterations=6).run("x")
    assert result.final_answer == "done"
    assert [step.observation for step in result.steps[:4]] == [
        # null is {}: the tool says what is missing, as for a call without arguments.
        "Error: Invalid arguments for tool 'text_wc': text: missing required argument",
        "Lines: 1, Words: 2, Characters: 3",
        (
            "Error: Unknown tool null; available tools: text_wc, text_unique_lines, "
            'text_sort_lines (or "finish" with a "final_answer")'
        ),
        # As the tool says it (no "action_input", which a function-calling model never sent).
        "Error: Arguments for tool 'text_wc' must be a JSON object, not array",
    ]
    assistant, answers = log.requests[-1]["messages"][1:]
    sent = assistant["content"]
    assert [block["input"] for block in sent] == [{}, {"text": "a b"}, {"text": "a"}, {}]
    assert [block["name"] for block in sent] == ["text_wc", "text_wc", "", "text_wc"]
    ids = [block["id"] for block in sent]
    assert all(isinstance(i, str) and i for i in ids)
    assert len(set(ids)) == 4
    assert [answer["tool_use_id"] for answer in answers["content"]] == ids


@pytest.mark.parametrize("as_sdk", [True, False], ids=["sdk-objects", "plain-dicts"])
def test_openai_a_reply_without_choices_stops_the_run_with_its_error(as_sdk: bool) -> None:
    """A compatible server (OpenRouter) may send its error as a reply: ``"choices": null``
    beside an ``"error"``, which the SDK hands over unvalidated. It was read as a reply without
    tool calls: the run ended "successfully" with the final answer ``""``, the error lost."""
    first = completion(
        1, {"content": None, "tool_calls": [_openai_call("c1", "text_wc", {"text": "a"})]}, "x"
    )
    failed = {
        "id": "gen-2",
        "object": "chat.completion",
        "created": 1767225602,
        "model": "m",
        "choices": None,
        "error": {"message": "Rate limit exceeded", "code": 429},
    }
    replies = [first, failed]
    if as_sdk:  # as the SDK builds a response: without validating it
        replies = [openai_types.ChatCompletion.model_construct(**reply) for reply in replies]
    answer = _with(lambda **request: replies[len(request["messages"]) // 2])
    client = types.SimpleNamespace(chat=types.SimpleNamespace(completions=answer))
    agent = ReAct(openai_chat_model(client, model="m"), TOOLS, max_iterations=4)
    with pytest.raises(AgentError) as raised:
        agent.run("Count.")
    assert str(raised.value) == (
        "openai_chat_model: the provider's reply holds no choices, only an error: "
        '{"message": "Rate limit exceeded", "code": 429}; the run stopped'
    )
    assert [step.observation for step in raised.value.steps] == [
        "Lines: 1, Words: 1, Characters: 1"
    ]
    del failed["error"]
    client, _ = fake_openai([failed], as_sdk=False)
    with pytest.raises(AgentError, match=r"holds no choices \(no message, no tool call\)"):
        ReAct(openai_chat_model(client, model="m"), TOOLS, max_iterations=2).run("x")


@pytest.mark.parametrize("as_sdk", [True, False], ids=["sdk-objects", "plain-dicts"])
@pytest.mark.parametrize(
    ("reason", "said"),
    [
        ("refusal", "the provider's safety system withheld the reply"),
        ("max_tokens", "the reply reached the token limit before any text; raise max_tokens"),
        (
            "model_context_window_exceeded",
            (
                "the conversation filled the model's context window; cap the observations "
                "(max_observation_chars) or shorten the task"
            ),
        ),
    ],
)
def test_anthropic_an_empty_reply_cut_off_or_withheld_stops_the_run(
    reason: str, said: str, as_sdk: bool
) -> None:
    client, _ = fake_anthropic([_message(1, [], reason)], as_sdk=as_sdk)
    with pytest.raises(AgentError) as raised:
        ReAct(anthropic_model(client, model="m"), TOOLS, max_iterations=2).run("x")
    assert str(raised.value) == (
        f"anthropic_model: the provider's reply is empty (stop_reason {reason!r}): {said}; "
        "the run stopped"
    )
    text = [{"type": "text", "text": "Partial"}]
    client, _ = fake_anthropic([_message(1, text, reason)], as_sdk=as_sdk)
    agent = ReAct(anthropic_model(client, model="m"), TOOLS, max_iterations=2)
    assert agent.run("x").final_answer == "Partial"


@pytest.mark.parametrize("as_sdk", [True, False], ids=["sdk-objects", "plain-dicts"])
def test_anthropic_an_error_body_as_the_reply_stops_the_run_with_its_error(as_sdk: bool) -> None:
    """An Anthropic-style error body handed over as the reply (a proxy's, a plain-dict client's)
    has no content: it ended the run "successfully" with ``""``. An empty content list is a
    reply (an empty final answer), as before."""
    error = {"type": "overloaded_error", "message": "Overloaded"}
    body: Any = {"type": "error", "error": error}
    if as_sdk:
        body = anthropic_types.Message.model_construct(**body)
    client = types.SimpleNamespace(messages=_with(lambda **_: body))
    with pytest.raises(AgentError) as raised:
        ReAct(anthropic_model(client, model="m"), TOOLS, max_iterations=2).run("x")
    assert str(raised.value) == (
        "anthropic_model: the provider's reply holds no content, only an error: "
        '{"type": "overloaded_error", "message": "Overloaded"}; the run stopped'
    )
    client, _ = fake_anthropic([_message(1, [], "end_turn")], as_sdk=as_sdk)
    assert (
        ReAct(anthropic_model(client, model="m"), TOOLS, max_iterations=2).run("x").final_answer
        == ""
    )
