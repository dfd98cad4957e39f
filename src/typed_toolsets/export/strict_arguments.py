"""`strict_arguments`: what a model wrote for a tool's strict schema, ready for the tool's calls.

The strict form is read by the tool's own call path (`typed_toolsets.StrictArguments`, see
`typed_toolsets.call.strict`); this name stays for code written against it.
"""

from __future__ import annotations

from typed_toolsets.call.proxy import Arguments, ToolProxy
from typed_toolsets.call.strict import StrictArguments

__all__ = ["strict_arguments"]


def strict_arguments(proxy: ToolProxy, arguments: Arguments) -> StrictArguments:
    """Mark *arguments* as written for *proxy*'s strict schema: ``StrictArguments(arguments)``.

    ``proxy.invoke(strict_arguments(proxy, arguments))`` (or ``dynamic_call``, or the async
    forms) reads ``null`` for a parameter or field with a default as that default, at every
    depth, in the same single pass as any call; the method (or class) gets its own default, as if
    the key were left out. Arguments already marked are returned as they are.

    Args:
        proxy: The tool the arguments are for (any tool reads `StrictArguments` alike).
        arguments: What the model sent: a mapping, JSON text, or None / ``""``.

    Returns:
        Arguments for ``proxy.invoke`` / ``proxy.dynamic_call`` (no longer a rewritten mapping:
        the tool reads ``null`` itself).
    """
    del proxy  # the strict form is the tool's own: nothing to look up here
    if isinstance(arguments, StrictArguments):
        return arguments
    return StrictArguments(arguments)
