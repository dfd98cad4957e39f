# pyright: strict
"""The export API's types, pinned with ``assert_type``."""

from __future__ import annotations

from typing import Any

import mcp_types
from anthropic import Anthropic
from anthropic.types import ToolParam
from openai import OpenAI
from openai.types.chat import ChatCompletionFunctionToolParam
from openai.types.responses import FunctionToolParam
from typing_extensions import assert_type

from typed_toolsets import (
    AnnotationsLike,
    ExportError,
    StrictArguments,
    ToolAnnotations,
    ToolProxy,
    Toolset,
    tool,
)
from typed_toolsets.export import (
    adispatch,
    anthropic,
    arespond,
    dispatch,
    gemini,
    mcp,
    mcp_call,
    openai_chat,
    openai_responses,
    respond,
    strict_arguments,
)


class NotesToolset(Toolset):
    tool_annotations = ToolAnnotations(read_only_hint=True)
    requires_approval = False

    @tool(annotations=ToolAnnotations(title="Add a note"), requires_approval=True)
    def add(self, *, text: str, pinned: bool = False) -> int:
        return len(text) + pinned


class SdkHinted(Toolset):
    # The MCP SDK's own hints, at the toolset's level too (the run time reads them there).
    tool_annotations = mcp_types.ToolAnnotations(read_only_hint=True)

    @tool(annotations=mcp_types.ToolAnnotations(idempotent_hint=True))
    def get(self, *, key: str) -> str:
        return key


def declarations() -> None:
    assert_type(Toolset.tool_annotations, AnnotationsLike | None)
    assert_type(Toolset.requires_approval, bool)
    assert_type(NotesToolset.requires_approval, bool)
    hints = ToolAnnotations(title="t", read_only_hint=True, open_world_hint=False)
    assert_type(hints.read_only_hint, bool | None)
    assert_type(hints.over(None), ToolAnnotations)
    assert_type(hints.to_dict(), dict[str, str | bool])


def proxies(proxy: ToolProxy) -> None:
    assert_type(proxy.annotations, ToolAnnotations | None)
    assert_type(proxy.requires_approval, bool)
    assert_type(proxy.strict_parameters, dict[str, Any])


def exports(tools: list[ToolProxy]) -> None:
    # The SDKs' own request types: a definition passes to their clients as it is (below).
    assert_type(openai_chat(tools, strict=True), list[ChatCompletionFunctionToolParam])
    assert_type(openai_responses(tools), list[FunctionToolParam])
    assert_type(anthropic(tools, strict=False), list[ToolParam])
    assert_type(gemini(tools), list[dict[str, Any]])
    assert_type(mcp(NotesToolset.to_tools()), list[dict[str, Any]])


def requests(openai_client: OpenAI, anthropic_client: Anthropic) -> None:
    tools = NotesToolset().to_tools()
    openai_client.chat.completions.create(model="m", messages=[], tools=openai_chat(tools))
    openai_client.responses.create(model="m", input="hi", tools=openai_responses(tools))
    anthropic_client.messages.create(
        model="m", max_tokens=64, messages=[], tools=anthropic(tools, strict=True)
    )


async def calls(tools: list[ToolProxy], call: object) -> None:
    assert_type(dispatch(tools, "notes_add", '{"text": "a"}', strict=True), Any)
    assert_type(await adispatch(tools, "notes_add", {"text": "a"}), Any)
    assert_type(respond(tools, call), dict[str, Any])
    assert_type(await arespond(tools, call, strict=True), dict[str, Any])
    assert_type(mcp_call(tools, "notes_add", None), dict[str, Any])
    arguments = strict_arguments(tools[0], '{"pinned": null}')
    assert_type(arguments, StrictArguments)
    assert_type(dispatch(tools, "notes_add", arguments), Any)


def errors(exc: ExportError) -> None:
    assert_type(exc.problems, tuple[str, ...])
    assert isinstance(exc, ValueError)
