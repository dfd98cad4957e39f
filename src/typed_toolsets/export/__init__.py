"""One toolset definition, every model API: tool definitions, strict mode and the call glue.

Definitions, as JSON-ready dicts in each provider's shape (no SDK needed at run time):

- `openai_chat` (Chat Completions ``tools``), `openai_responses` (Responses ``tools``),
  `anthropic` (Messages ``tools``), each with ``strict=True`` for the strict variant;
- `gemini` (``function_declarations``) and `mcp` (``tools/list`` entries).

Calls, from what the model sent back:

- `dispatch` / `adispatch`: run the tool a model named, with the arguments it sent;
- `respond` / `arespond`: answer an OpenAI Chat tool call, an OpenAI Responses ``function_call``
  item or an Anthropic ``tool_use`` block with the message the provider expects;
- `mcp_call` / `amcp_call`: an MCP ``tools/call`` result.

Errors reach the model as the envelope of `ToolError.to_dict`, with the provider's error flag
where it has one (Anthropic ``is_error``, MCP ``isError``).

Strict mode (``strict=True``) is lossless: every property is required, a defaulted one is
nullable and ``null`` means its default, which the ``strict=True`` call functions read so (the
arguments as `StrictArguments`); what cannot be made lossless is refused with an `ExportError`
naming the tool and parameter.

May import every core layer; nothing in the core imports it.
"""

from __future__ import annotations

from typed_toolsets.call.strict import StrictArguments
from typed_toolsets.definition.errors import ExportError

from .calls import adispatch, amcp_call, arespond, dispatch, mcp_call, respond
from .dialects import anthropic, openai_chat, openai_responses
from .gemini import gemini
from .mcp_tools import mcp
from .strict_arguments import strict_arguments

__all__ = [
    "ExportError",
    "StrictArguments",
    "adispatch",
    "amcp_call",
    "anthropic",
    "arespond",
    "dispatch",
    "gemini",
    "mcp",
    "mcp_call",
    "openai_chat",
    "openai_responses",
    "respond",
    "strict_arguments",
]
