"""A bounded ReAct agent over typed tools: `ReAct`, its result, approvals and model adapters.

```python
from typed_toolsets.agent import ReAct, ScriptedModel
from typed_toolsets.text import TextProcessingToolset

tools = [t for t in TextProcessingToolset.to_tools() if t.name == "text_wc"]
model = ScriptedModel([
    {"thought": "Count them.", "action": "text_wc", "action_input": {"text": "one two"}},
    {"thought": "Done.", "action": "finish", "final_answer": "2 words"},
])
result = ReAct(model, tools, max_iterations=5).run("How many words in 'one two'?")
result.final_answer                      # "2 words"
result.steps[0].observation              # "Lines: 1, Words: 2, Characters: 7"
```

The model is any callable that takes the `Transcript` and returns the next step, as JSON text
or a mapping (or an awaitable of one)::

    {"thought": "...", "action": "<tool name>", "action_input": {...}}
    {"thought": "...", "action": "finish", "final_answer": ...}

(``tool_input`` is accepted for ``action_input``.) Tool errors, unknown actions, malformed steps
and refused approvals come back to the model as ``"Error: ..."`` observations; running out of
iterations raises `MaxIterationsError`, passing the deadline `DeadlineExceededError`, both
carrying the steps so far. `openai_chat_model` and `anthropic_model` drive the loop with a
provider's native tool calls; `ScriptedModel` replays fixed steps. The prompt format for text
models is in `typed_toolsets.agent.prompt` and docs/agent.md.

May import the core (`typed_toolsets` and its layers: a reply is read, bounded and its paths
named as a tool's arguments are, by the call path's own readers), `typed_toolsets.export`, the
standard library and attrs; nothing in the core imports it, and no provider SDK is imported.
"""

from __future__ import annotations

from .adapters import anthropic_model, openai_chat_model
from .errors import AgentError, DeadlineExceededError, MaxIterationsError
from .loop import Approve, Model, ModelReply, ReAct
from .prompt import Transcript, Turn
from .scripted import ScriptedModel
from .steps import AgentResult, Step

__all__ = [
    "AgentError",
    "AgentResult",
    "Approve",
    "DeadlineExceededError",
    "MaxIterationsError",
    "Model",
    "ModelReply",
    "ReAct",
    "ScriptedModel",
    "Step",
    "Transcript",
    "Turn",
    "anthropic_model",
    "openai_chat_model",
]
