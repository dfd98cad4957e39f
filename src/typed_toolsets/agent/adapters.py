"""Models over the providers' SDK clients, with native tool calls: OpenAI Chat and Anthropic.

`openai_chat_model(client, model=...)` and `anthropic_model(client, model=...)` return a model
for `ReAct`. It sends the tools in the provider's own format (`typed_toolsets.export`), turns
each tool call of the reply into one step of the loop, and writes the loop's observations back
as the provider's tool results. The loop still runs every call: approvals, the deadline, the
observation cap and the iteration bound apply as with any model.

The client is the user's own (``openai.OpenAI()`` / ``AsyncOpenAI()``, ``anthropic.Anthropic()``
/ ``AsyncAnthropic()``, or anything with the same method), used by duck typing: no SDK is
imported here. Responses are read by attribute or by key, so SDK objects and plain dicts both
work.

Parallel tool calls: when a reply calls several tools, each call is one step (and one
iteration) of the loop, in the reply's order; the provider is asked again once every call of
its reply has its observation. The provider's message and call ids travel in each step's
``"native"`` key, so the model keeps no state between turns: one model object can serve any
number of runs.
"""

from __future__ import annotations

import abc
import inspect
import json
import typing
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Final

import attrs

from typed_toolsets import StrictArguments
from typed_toolsets.export import anthropic, openai_chat
from typed_toolsets.export.calls import anthropic_text
from typed_toolsets.rules.sendable import valid_text

from .errors import AgentError
from .prompt import Transcript, Turn
from .replies import (
    content_text,
    fresh_call_id,
    no_reply,
    own_fields,
    reply_field,
    reply_items,
    withheld_reason,
)
from .steps import FINISH, is_finish, parse_json

__all__ = ["AnthropicModel", "OpenAIChatModel", "anthropic_model", "openai_chat_model"]

_OPENAI: Final = "openai_chat"
_ANTHROPIC: Final = "anthropic"


@attrs.frozen
class _Read:
    """A provider's reply, read: the assistant message to send back, and its tool calls.

    Attributes:
        message: The assistant message, JSON-ready, as the next request must repeat it.
        thought: Text the model wrote beside its tool calls.
        calls: ``{"id", "name", "arguments"}`` for each tool call, in order.
        text: The whole text of the reply (the final answer when there are no calls).
        failure: Why the reply holds no answer at all (None for a reply).
    """

    message: dict[str, Any]
    thought: str
    calls: list[dict[str, Any]]
    text: str
    failure: str | None = None


def _native(turn: Turn, provider: str) -> Mapping[str, Any] | None:
    """The provider data a native step carries, when the turn's reply came from *provider*."""
    reply = turn.reply
    if not isinstance(reply, Mapping):
        return None
    native = typing.cast("Mapping[str, Any]", reply).get("native")
    if not isinstance(native, Mapping):
        return None
    found = typing.cast("Mapping[str, Any]", native)
    return found if found.get("provider") == provider else None


@attrs.frozen
class _NativeModel(abc.ABC):
    """What both adapters share: pending calls, the request cycle, sync and async clients."""

    client: Any
    model: str
    strict: bool
    instructions: str | None
    options: Mapping[str, Any]

    provider: typing.ClassVar[str]

    def __call__(self, transcript: Transcript) -> dict[str, Any] | Awaitable[dict[str, Any]]:
        """The next step: a pending call of the last reply, or what the provider says now."""
        pending = self._pending(transcript)
        if pending is not None:
            return pending
        response = self._send(transcript)
        if inspect.isawaitable(response):
            return self._later(typing.cast("Awaitable[object]", response), transcript)
        return self._step(response, transcript)

    async def _later(self, response: Awaitable[object], transcript: Transcript) -> dict[str, Any]:
        return self._step(await response, transcript)

    def _pending(self, transcript: Transcript) -> dict[str, Any] | None:
        if not transcript.turns:
            return None
        native = _native(transcript.turns[-1], self.provider)
        if native is None:
            return None
        index = int(native["index"]) + 1
        if index >= len(native["calls"]):
            return None
        return self._call_step(native, index)

    def _step(self, response: object, transcript: Transcript) -> dict[str, Any]:
        read = self._read(response)
        if read.failure is not None:
            steps = [turn.step for turn in transcript.turns]
            msg = f"{read.failure}; the run stopped"
            raise AgentError(msg, steps)
        if not read.calls:
            return {"thought": "", "action": FINISH, "final_answer": read.text}
        native = {
            "provider": self.provider,
            "message": _sendable(read.message),
            "thought": read.thought,
            "calls": read.calls,
            "index": 0,
        }
        return self._call_step(native, 0)

    def _call_step(self, native: Mapping[str, Any], index: int) -> dict[str, Any]:
        call = native["calls"][index]
        name, arguments = call["name"], call["arguments"]
        finish: dict[str, Any] = {}
        if isinstance(name, str) and is_finish(name):
            # The observation for an unknown tool offers "finish" with a "final_answer", which a
            # native model sends as a call: its final_answer argument is the step's.
            finish["final_answer"] = _final_answer(arguments)
        elif self.strict:
            # Written for the strict schemas: null for a defaulted property means its default.
            arguments = StrictArguments(arguments)
        return {
            "thought": native["thought"] if index == 0 else "",
            "action": name,
            "action_input": arguments,
            **finish,
            "native": {**native, "index": index},
        }

    def _conversation(
        self, transcript: Transcript, messages: list[dict[str, Any]]
    ) -> list[dict[str, Any]]:
        """*messages* (the opening), then each reply and the observations that answer it."""
        for turn in transcript.turns:
            native = _native(turn, self.provider)
            if native is None:  # a step from some other model: as the text format has it
                messages.extend(turn.text_messages())
                continue
            index = int(native["index"])
            if index == 0:
                self._open(messages, native["message"])
            self._answer(messages, native["calls"][index]["id"], turn)
        return messages

    # Each provider: the request, its reply, and how a tool call is answered.

    @abc.abstractmethod
    def _open(self, messages: list[dict[str, Any]], reply: dict[str, Any]) -> None:
        """Append the provider's reply (and whatever its answers go into) to *messages*."""

    @abc.abstractmethod
    def _answer(self, messages: list[dict[str, Any]], call_id: object, turn: Turn) -> None:
        """Append the answer to the tool call *call_id*: the turn's observation."""

    @abc.abstractmethod
    def _send(self, transcript: Transcript) -> object:
        """Ask the provider (its reply, or an awaitable of it for an async client)."""

    @abc.abstractmethod
    def _read(self, response: object) -> _Read:
        """Read the provider's reply."""


@attrs.frozen
class OpenAIChatModel(_NativeModel):
    """A model over ``client.chat.completions.create`` (see `openai_chat_model`)."""

    provider: typing.ClassVar[str] = _OPENAI

    def messages(self, transcript: Transcript) -> list[dict[str, Any]]:
        """The Chat Completions ``messages`` for the transcript."""
        opening: list[dict[str, Any]] = []
        if self.instructions is not None:
            opening.append({"role": "system", "content": self.instructions})
        opening.append({"role": "user", "content": valid_text(transcript.task)})
        return self._conversation(transcript, opening)

    def _open(self, messages: list[dict[str, Any]], reply: dict[str, Any]) -> None:
        messages.append(reply)

    def _answer(self, messages: list[dict[str, Any]], call_id: object, turn: Turn) -> None:
        messages.append({"role": "tool", "tool_call_id": call_id, "content": turn.observation})

    def _send(self, transcript: Transcript) -> object:
        request: dict[str, Any] = {
            "model": self.model,
            "messages": self.messages(transcript),
            **self.options,
        }
        tools = openai_chat(transcript.tools, strict=self.strict)
        if tools:  # the API refuses an empty list
            request["tools"] = tools
        create: Callable[..., object] = self.client.chat.completions.create
        return create(**request)

    def _read(self, response: object) -> _Read:
        choices = reply_items(response, "choices")
        if not choices:
            # An error sent as a reply: read as an empty final answer, the run ended
            # "successfully" with "" and the error lost.
            return _Read({}, "", [], "", failure=no_reply("openai_chat_model", "choices", response))
        message = reply_field(choices[0], "message")
        if message is None:
            # Read as an empty final answer, the run ended "successfully" with "".
            failure = no_reply("openai_chat_model", "message", response)
            return _Read({}, "", [], "", failure=failure)
        content = reply_field(message, "content")
        text = content_text(content, "text")
        refusal = reply_field(message, "refusal") or content_text(content, "refusal")
        calls: list[dict[str, Any]] = []
        sent: list[dict[str, Any]] = []
        taken: set[str] = set()
        for call in reply_items(message, "tool_calls"):
            function = reply_field(call, "function")
            name, arguments = reply_field(function, "name"), reply_field(function, "arguments")
            call_id = fresh_call_id(reply_field(call, "id"), taken, "call_")
            calls.append({"id": call_id, "name": name, "arguments": arguments})
            sent.append(
                {
                    **own_fields(call, _OPENAI_CALL_FIELDS),
                    "id": call_id,
                    "type": "function",
                    "function": {"name": _name(name), "arguments": _arguments_text(arguments)},
                }
            )
        # A compatible server's own fields go back as they came: DeepSeek refuses the next
        # request without the message's `reasoning_content`, Gemini without each call's
        # `extra_content` (its thought signature).
        assistant: dict[str, Any] = {
            **own_fields(message, _OPENAI_MESSAGE_FIELDS),
            "role": "assistant",
        }
        if content is not None:
            assistant["content"] = content
        if sent:
            assistant["tool_calls"] = sent
        if not text and not calls and isinstance(refusal, str):
            text = refusal  # the model declined: its refusal is its answer
        if not text and not calls:
            withheld = withheld_reason("openai_chat_model", "finish_reason", choices[0])
            if withheld is not None:
                return _Read({}, "", [], "", failure=withheld)
        return _Read(assistant, text, calls, text)


#: The fields of a Chat Completions reply's message and tool call that OpenAI defines: those the
#: next request repeats are written by the adapter (the others are the reply's alone, such as
#: `annotations`, which the API would refuse in a request).
_OPENAI_MESSAGE_FIELDS: Final = frozenset(
    {"content", "refusal", "role", "annotations", "audio", "function_call", "tool_calls"}
)
_OPENAI_CALL_FIELDS: Final = frozenset({"id", "type", "function"})


@attrs.frozen
class AnthropicModel(_NativeModel):
    """A model over ``client.messages.create`` (see `anthropic_model`)."""

    max_tokens: int = 4096

    provider: typing.ClassVar[str] = _ANTHROPIC

    def messages(self, transcript: Transcript) -> list[dict[str, Any]]:
        """The Messages API ``messages`` for the transcript."""
        task = {"role": "user", "content": valid_text(transcript.task)}
        return self._conversation(transcript, [task])

    def _open(self, messages: list[dict[str, Any]], reply: dict[str, Any]) -> None:
        # Every tool_use of one reply is answered in one user message, in order.
        messages.append(reply)
        messages.append({"role": "user", "content": []})

    def _answer(self, messages: list[dict[str, Any]], call_id: object, turn: Turn) -> None:
        messages[-1]["content"].append(
            {
                "type": "tool_result",
                "tool_use_id": call_id,
                # Never empty nor blank, which the API refuses (a tool that returned "").
                "content": anthropic_text(turn.observation),
                "is_error": not turn.step.ok,
            }
        )

    def _send(self, transcript: Transcript) -> object:
        request: dict[str, Any] = {
            "model": self.model,
            "max_tokens": self.max_tokens,
            "messages": self.messages(transcript),
            **self.options,
        }
        if self.instructions is not None:
            request["system"] = self.instructions
        tools = anthropic(transcript.tools, strict=self.strict)
        if tools:
            request["tools"] = tools
        create: Callable[..., object] = self.client.messages.create
        return create(**request)

    def _read(self, response: object) -> _Read:
        if not isinstance(reply_field(response, "content"), (list, tuple)):
            # An error sent as a reply (as for OpenAI); `"content": []` is a reply, an empty one.
            failure = no_reply("anthropic_model", "content", response)
            return _Read({}, "", [], "", failure=failure)
        blocks: list[dict[str, Any]] = []
        texts: list[str] = []
        calls: list[dict[str, Any]] = []
        taken: set[str] = set()
        for block in reply_items(response, "content"):
            kind = reply_field(block, "type")
            if kind == "text":
                text = reply_field(block, "text") or ""
                texts.append(text)
                if text.strip():  # the API sends blank text blocks, but refuses them in a request
                    blocks.append({"type": "text", "text": text})
            elif kind == "tool_use":
                call_id, name, arguments = (
                    reply_field(block, "id"),
                    reply_field(block, "name"),
                    reply_field(block, "input"),
                )
                call_id = fresh_call_id(call_id, taken, "toolu_")
                calls.append({"id": call_id, "name": name, "arguments": arguments})
                sent = {"id": call_id, "name": _name(name), "input": _input_object(arguments)}
                blocks.append({"type": "tool_use", **sent})
            else:  # thinking and the like: sent back exactly as received
                blocks.append(_as_dict(block))
        text = "".join(texts)
        if not text and not calls:
            withheld = withheld_reason("anthropic_model", "stop_reason", response)
            if withheld is not None:
                return _Read({}, "", [], "", failure=withheld)
        return _Read({"role": "assistant", "content": blocks}, text, calls, text)


def _final_answer(arguments: object) -> object:
    """The ``final_answer`` argument of a native call of ``finish`` (None when there is none)."""
    if isinstance(arguments, (str, bytes, bytearray)):
        try:
            arguments = parse_json(arguments)
        except (ValueError, RecursionError):
            return None
    return reply_field(arguments, "final_answer")


def _arguments_text(arguments: object) -> object:
    """A call's arguments as the request repeats them: text, as the API requires.

    A compatible server may send an object (or nothing): repeated so, the request is refused.
    The loop reads it as it came; what is sent back is its JSON text (``{}`` for nothing).
    """
    if isinstance(arguments, str):
        return arguments
    try:
        return json.dumps({} if arguments is None else arguments, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):  # no JSON text: sent as it came
        return arguments


def _name(name: object) -> str:
    """A call's tool name as the request repeats it: text, as the API requires.

    A compatible server (or a plain dict) may send none, or ``null``: repeated so, every later
    request of the run is refused. The loop reads the name as it came, and tells the model the
    call has none; what is sent back is ``""``.
    """
    return name if isinstance(name, str) else ""


def _input_object(arguments: object) -> object:
    """A ``tool_use`` block's input as the request repeats it: an object, as the API requires.

    ``null`` (or none) means no arguments, ``{}``, as for any call; JSON text of an object is
    that object. Anything else is sent as ``{}``: the loop reads what came, and its observation
    tells the model what was wrong with it.
    """
    if isinstance(arguments, (str, bytes, bytearray)):
        try:
            arguments = parse_json(arguments)
        except (ValueError, RecursionError):
            return {}
    return typing.cast("object", arguments) if isinstance(arguments, Mapping) else {}


def _sendable(message: dict[str, Any]) -> dict[str, Any]:
    r"""*message* as a request can carry it: each lone surrogate as U+FFFD (`valid_text`).

    A reply may hold one (JSON escapes ``"\ud800"`` alone): no request body, which is UTF-8,
    can carry it, so repeated as it came it would fail every later request of the run. The
    call itself keeps what was sent, which the tool refuses, telling the model.
    """
    try:
        text = json.dumps(message, ensure_ascii=False)
        cleaned = valid_text(text)
        return message if cleaned is text else typing.cast("dict[str, Any]", json.loads(cleaned))
    except (TypeError, ValueError, RecursionError):  # not JSON as it stands: sent as it came
        return message


def _as_dict(block: object) -> dict[str, Any]:
    if isinstance(block, Mapping):
        return dict(typing.cast("Mapping[str, Any]", block))
    dump = getattr(block, "model_dump", None)
    if callable(dump):
        return typing.cast("dict[str, Any]", dump(mode="json", exclude_none=True))
    return {"type": reply_field(block, "type")}


#: Request parameters the adapters write themselves, and what to do instead of passing them.
_WRITTEN: Final = {
    "messages": "the adapter writes them from the transcript: give the task to run()",
    "tools": "the adapter sends ReAct's tools: pass the proxies to ReAct",
    "stream": "the adapter reads whole replies: leave it out",
}
#: With ``instructions=``, which the adapter sends as ``system`` (alone, it is passed on).
_SYSTEM: Final = {"system": "give the system prompt once, as instructions= or as system="}


def _options(function: str, options: Mapping[str, Any], written: Mapping[str, str]) -> None:
    """Refuse *options* that would replace what the adapter writes (silently, before)."""
    for key, instead in written.items():
        if key in options:
            msg = f"{function}() does not take the request parameter {key!r}; {instead}"
            raise TypeError(msg)


def openai_chat_model(
    client: Any,
    *,
    model: str,
    strict: bool = False,
    instructions: str | None = None,
    **options: Any,
) -> OpenAIChatModel:
    """A `ReAct` model over an OpenAI Chat Completions client, with native tool calls.

    Each turn sends the task, the tools (`typed_toolsets.export.openai_chat`) and the
    conversation so far (the model's tool calls and, as ``"tool"`` messages, the loop's
    observations) to ``client.chat.completions.create``. A reply with tool calls gives one step
    per call; a reply without them is the final answer (its text, or its refusal).

    Args:
        client: ``openai.OpenAI()`` or ``openai.AsyncOpenAI()`` (anything with
            ``chat.completions.create``); with an async client, use ``await agent.arun(...)``.
        model: The model name, e.g. ``"gpt-4.1"``.
        strict: Send the strict tool schemas (``strict: true``); the tools are called with the
            model's arguments as `typed_toolsets.StrictArguments` (its ``null`` for a defaulted
            parameter or field means the default).
        instructions: A system message put first, if given.
        **options: More request parameters (``temperature``, ``parallel_tool_calls``, ...).

    Raises:
        TypeError: *options* hold ``messages``, ``tools`` or ``stream``, which the adapter
            writes itself (the conversation, ReAct's tools, whole replies).
    """
    _options("openai_chat_model", options, _WRITTEN)
    return OpenAIChatModel(client, model, strict, instructions, options)


def anthropic_model(
    client: Any,
    *,
    model: str,
    max_tokens: int = 4096,
    strict: bool = False,
    instructions: str | None = None,
    **options: Any,
) -> AnthropicModel:
    """A `ReAct` model over an Anthropic Messages client, with native tool use.

    Each turn sends the task, the tools (`typed_toolsets.export.anthropic`) and the
    conversation so far (the model's ``tool_use`` blocks and, as ``tool_result`` blocks with
    ``is_error``, the loop's observations) to ``client.messages.create``. A reply with
    ``tool_use`` blocks gives one step per block (its text is the thought); a reply without
    them is the final answer (its text).

    Args:
        client: ``anthropic.Anthropic()`` or ``anthropic.AsyncAnthropic()`` (anything with
            ``messages.create``); with an async client, use ``await agent.arun(...)``.
        model: The model name, e.g. ``"claude-sonnet-4-5"``.
        max_tokens: The reply's token limit (the API requires one).
        strict: Send the strict tool schemas; ``null`` means the default, as for OpenAI.
        instructions: The ``system`` prompt, if given.
        **options: More request parameters (``tool_choice``, ``stop_sequences``, ...).

    Raises:
        TypeError: *options* hold ``messages``, ``tools`` or ``stream``, which the adapter
            writes itself, or ``system`` beside *instructions* (a ``system`` alone, a string or
            a list of blocks, is sent as given).
    """
    _options("anthropic_model", options, _WRITTEN if instructions is None else _WRITTEN | _SYSTEM)
    return AnthropicModel(client, model, strict, instructions, options, max_tokens)
