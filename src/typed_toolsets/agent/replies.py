"""Reading a provider's reply, for the native adapters (`typed_toolsets.agent.adapters`).

A reply is an SDK object or a plain mapping (a compatible server's, a proxy's): its fields are
read by attribute or by key. What a reply without an answer says (its error, the reason the
provider withheld it) is worded here, and each tool call gets an id its answer can name.
"""

from __future__ import annotations

import json
import typing
import uuid
from collections.abc import Mapping
from typing import Any, Final

__all__ = [
    "WITHHELD",
    "content_text",
    "fresh_call_id",
    "no_reply",
    "own_fields",
    "reply_field",
    "reply_items",
    "withheld_reason",
]


def reply_field(obj: object, key: str) -> Any:
    """A field of an SDK object or of a plain mapping (None when absent)."""
    if isinstance(obj, Mapping):
        return typing.cast("Mapping[str, Any]", obj).get(key)
    return getattr(obj, key, None)


def own_fields(obj: object, known: frozenset[str]) -> dict[str, Any]:
    """The fields of an SDK object or a mapping besides *known*: a provider's own, as they came.

    An SDK object keeps the fields its model does not declare in ``model_extra`` (pydantic).
    """
    fields = typing.cast(
        "object", obj if isinstance(obj, Mapping) else getattr(obj, "model_extra", None)
    )
    if not isinstance(fields, Mapping):
        return {}
    items = typing.cast("Mapping[str, Any]", fields).items()
    return {key: value for key, value in items if key not in known and value is not None}


def reply_items(obj: object, key: str) -> list[object]:
    """A list field of an SDK object or a mapping (empty when absent or null)."""
    value = reply_field(obj, key)
    return list(typing.cast("list[object]", value)) if isinstance(value, (list, tuple)) else []


def fresh_call_id(given: object, taken: set[str], prefix: str) -> str:
    """The id a call of one reply is answered by: *given*, or a new one when it cannot serve.

    Some compatible servers (LM Studio, llama.cpp, Gemini's) send none or "", and some the same
    id for two calls of one reply: each answer names its call by id, so no two calls of the
    reply may share one. *taken* holds the ids of the calls read before; the id is added.
    """
    if not (isinstance(given, str) and given) or given in taken:
        given = f"{prefix}{uuid.uuid4().hex}"
    taken.add(given)
    return given


def content_text(content: object, kind: str) -> str:
    """The text of an OpenAI reply's ``content`` (*kind* ``"text"``) or of its refusal parts.

    ``content`` is a string (its text), or, from compatible servers, a list of parts as a
    request may send them (``{"type": "text", "text": ...}``, ``{"type": "refusal", "refusal":
    ...}``): read as no text, the answer was lost and the run ended with "".
    """
    if isinstance(content, str):
        return content if kind == "text" else ""
    if not isinstance(content, (list, tuple)):
        return ""
    texts: list[str] = []
    for part in typing.cast("list[object] | tuple[object, ...]", content):
        text = reply_field(part, kind)
        if reply_field(part, "type") == kind and isinstance(text, str):
            texts.append(text)
    return "".join(texts)


def no_reply(function: str, missing: str, response: object) -> str:
    """What a reply without *missing* (its choices, its content) says: its ``error``, as JSON.

    A compatible server or a proxy may send its error as a reply (OpenRouter's ``"choices":
    null`` beside an ``"error"``; an Anthropic-style ``{"type": "error", "error": ...}`` body),
    which the SDK hands over unvalidated, and a plain-dict client as it came.
    """
    said = f"{function}: the provider's reply holds no {missing}"
    error = reply_field(response, "error")
    if error is None:
        return f"{said} (no message, no tool call)"
    try:
        return f"{said}, only an error: {json.dumps(error, ensure_ascii=False, default=str)}"
    except (TypeError, ValueError, RecursionError):  # circular: its text, as a JSON string
        return f"{said}, only an error: {json.dumps(str(error), ensure_ascii=False)}"


#: The stop reasons of a reply the provider cut off or withheld, and what to do about it. Such a
#: reply without text or a call is no answer: read as one, the run ended "successfully" with "".
WITHHELD: Final = {
    "content_filter": "the provider's content filter withheld the reply",
    "refusal": "the provider's safety system withheld the reply",
    "length": (
        "the reply reached the token limit before any text; raise max_completion_tokens "
        "(max_tokens for older models) in the options"
    ),
    "max_tokens": "the reply reached the token limit before any text; raise max_tokens",
    "model_context_window_exceeded": (
        "the conversation filled the model's context window; cap the observations "
        "(max_observation_chars) or shorten the task"
    ),
}


def withheld_reason(function: str, field: str, reply: object) -> str | None:
    """What an empty *reply* says when its stop reason (its *field*) is one of `WITHHELD`."""
    reason = reply_field(reply, field)
    if not isinstance(reason, str) or reason not in WITHHELD:
        return None
    return f"{function}: the provider's reply is empty ({field} {reason!r}): {WITHHELD[reason]}"
