"""The transcript the model reads, and the prompt format a text model is given.

Each turn the model callable receives a `Transcript`: the task, the tools on offer and every
step so far with the observation the model was shown. A text model reads it as chat messages
(`Transcript.messages`)::

    system     the instructions: the step format, then each tool's name, description and
               parameters schema (`Transcript.system_prompt`)
    user       "Task: <task>"
    assistant  the model's step, as JSON text          } once per step so far
    user       "Observation: <what the step gave>"     }

So an adapter for any chat API is a few lines::

    def model(transcript):
        reply = client.chat.completions.create(model="gpt-4.1", messages=transcript.messages())
        return reply.choices[0].message.content

The native function-calling adapters (`typed_toolsets.agent.adapters`) read the same transcript
but speak the provider's own tool-call messages instead.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Final

import attrs

from typed_toolsets import StrictArguments, ToolProxy
from typed_toolsets._public import public_in
from typed_toolsets.call.result import short_repr
from typed_toolsets.rules.sendable import valid_text

from .steps import STEP_FORMAT, Step

__all__ = ["OBSERVATION_PREFIX", "Transcript", "Turn", "system_prompt"]

#: How an observation is introduced to a text model.
OBSERVATION_PREFIX: Final = "Observation: "

_INSTRUCTIONS: Final = f"""\
You complete a task by calling tools, one step at a time.

Answer every message with exactly one JSON object and nothing else: {STEP_FORMAT}.
"action_input" must match the parameters schema of the tool. The result of each call comes back \
in a message starting with "{OBSERVATION_PREFIX.strip()}". An observation starting with "Error: " \
says what was wrong and what to send instead: correct the step and try again. When you know the \
answer, finish.

Tools (name: description, then the JSON Schema of its parameters):"""


def _compact(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=repr)


def system_prompt(tools: Iterable[ToolProxy]) -> str:
    """The instructions for a text model: the step format and each tool.

    Each tool is one entry: ``- <name>: <description>`` (plus a note when it runs only after
    approval), then its parameters schema as one line of JSON.
    """
    lines = [_INSTRUCTIONS]
    for proxy in tools:
        note = " (runs only when approved)" if proxy.requires_approval else ""
        lines.append(f"- {proxy.name}: {proxy.description}{note}")
        lines.append(f"  parameters: {_compact(proxy.parameters)}")
    return "\n".join(lines)


def _json_form(value: object) -> object:
    """What a reply holds that JSON has no form for: strict arguments as sent, others' repr."""
    return value.arguments if isinstance(value, StrictArguments) else repr(value)


@public_in("typed_toolsets.agent")
@attrs.frozen
class Turn:
    """One step so far, as the model sees it.

    Attributes:
        reply: What the model returned for the step, as it returned it (JSON text or a mapping;
            keys the loop does not read, such as a native adapter's ``"native"``, are kept).
        observation: What the model is shown: the step's observation, truncated with a note
            when it is longer than the run's ``max_observation_chars``.
        step: The step as recorded (its observation in full).
    """

    # A reply or an observation may be megabytes: a repr shows them cut short.
    reply: object = attrs.field(repr=short_repr)
    observation: str = attrs.field(repr=short_repr)
    step: Step

    def text_messages(self) -> list[dict[str, str]]:
        """The turn in the text format: the reply as an assistant message, then the observation."""
        return [
            {"role": "assistant", "content": self.reply_text()},
            {"role": "user", "content": OBSERVATION_PREFIX + self.observation},
        ]

    def reply_text(self) -> str:
        r"""The reply as JSON text: a text reply as it was sent, unless it is empty or blank.

        That one is written as a JSON string (``""``): a chat API may refuse an assistant
        message without text (Anthropic's does), which would fail every later request of the
        run for one empty reply. A lone surrogate (a reply decoded from ``"\ud800"``) is
        written as U+FFFD: no request body can carry it, so echoed it would fail them all too.
        """
        if isinstance(self.reply, (bytes, bytearray)):
            text = bytes(self.reply).decode("utf-8", "replace")
        elif isinstance(self.reply, str):
            text = valid_text(self.reply)
        else:
            return valid_text(json.dumps(self.reply, ensure_ascii=False, default=_json_form))
        return text if text.strip() else json.dumps(text)


@public_in("typed_toolsets.agent")
@attrs.frozen
class Transcript:
    """What the model callable receives each turn.

    Attributes:
        task: The task the run was given.
        tools: The tools on offer, in order.
        turns: Every step so far, oldest first.
        system_prompt: The instructions for a text model (see `system_prompt`).
    """

    # A run may take thousands of turns, and the prompt shows every tool: a repr cuts them short.
    task: str = attrs.field(repr=short_repr)
    tools: tuple[ToolProxy, ...] = attrs.field(repr=short_repr)
    turns: tuple[Turn, ...] = attrs.field(repr=short_repr)
    system_prompt: str = attrs.field(repr=short_repr)

    def messages(self, *, system: bool = True) -> list[dict[str, str]]:
        """The transcript as chat messages (``{"role": ..., "content": ...}``).

        Args:
            system: Start with the system message (False for APIs that take the system prompt
                separately, such as Anthropic's ``system=``).
        """
        messages: list[dict[str, str]] = []
        if system:
            messages.append({"role": "system", "content": self.system_prompt})
        messages.append({"role": "user", "content": valid_text(f"Task: {self.task}")})
        for turn in self.turns:
            messages.extend(turn.text_messages())
        return messages
