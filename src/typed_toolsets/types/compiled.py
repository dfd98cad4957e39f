"""Compiling generated source: one code object per source, named in tracebacks.

Generated functions (structuring, unstructuring, fast paths, the checker's nodes) are compiled
here: identical sources share their code, each source is registered with `linecache` under a
``<typed_toolsets generated ...>`` name (so tracebacks show it, as cattrs' generated code does)
for as long as a function runs it, and how many are kept is bounded (`keep_recent`).
"""

from __future__ import annotations

import builtins
import itertools
import linecache
import re
import sys
import threading
import types
import weakref
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from .bounded import keep_recent

__all__ = ["compile_bound", "compile_function"]

_numbers: Final = itertools.count(1)
_NAME: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
#: Generated code compiled so far, by the hash of its source: (the source's lines, as linecache
#: holds them; the function's code, or the module's when the function has defaults or a
#: closure; whether it is the function's). Mostly one per shape of arguments, but a checker's
#: code names its parameters, so tools that come and go add their own: the oldest are dropped
#: (`keep_recent`), and each source leaves linecache once no function runs its code.
_codes: dict[int, list[tuple[list[str], types.CodeType, bool]]] = {}
_codes_lock: Final = threading.Lock()


def compile_function(source: str, name: str, namespace: dict[str, Any]) -> Callable[..., Any]:
    """Compile generated source defining ``generated``, register it with linecache, return it.

    Identical sources share one compiled code (tools with the same parameters generate the same
    source; only the namespace, with the hooks and defaults, differs), so the file name in
    tracebacks names the first function compiled from it. The function's globals are always
    *namespace*.

    Args:
        source: The source of a module defining one function named ``generated``.
        name: What the function does, for its file name in tracebacks.
        namespace: Its globals (the values the source refers to by name).
    """
    # Most generated lines recur across tools ("    if x is M:"): interned, each is stored once
    # (what linecache keeps is otherwise the largest part of a tool's memory).
    lines = [sys.intern(line) for line in source.splitlines(keepends=True)]
    with _codes_lock:
        compiled = _codes.setdefault(hash(source), [])
    for known, code, is_function in compiled:
        if known == lines:
            if code.co_filename not in linecache.cache:  # cleared since (linecache.clearcache)
                linecache.cache[code.co_filename] = (len(source), None, known, code.co_filename)
            if is_function:
                namespace["generated"] = types.FunctionType(code, namespace)
            else:
                exec(code, namespace)  # noqa: S102 - our own generated source, as below
            generated: Callable[..., Any] = namespace["generated"]
            return generated
    filename = f"<typed_toolsets generated {name} #{next(_numbers)}>"
    module = compile(source, filename, "exec")
    exec(module, namespace)  # noqa: S102 - our own generated source, built from field names
    linecache.cache[filename] = (len(source), None, lines, filename)
    generated = namespace["generated"]
    # The function's code lives as long as a function or `_codes` holds it (a module's code
    # holds its function's as a constant): then tracebacks need its source no more.
    weakref.finalize(generated.__code__, linecache.cache.pop, filename, None)
    # A function without defaults or a closure is rebuilt from its own code alone; otherwise
    # the module code runs again, so that its defaults are evaluated in the new namespace.
    plain = (generated.__defaults__, generated.__kwdefaults__, generated.__closure__) == (
        None,
        None,
        None,
    )
    with _codes_lock:  # tools are built in any thread: the oldest are dropped by one at once
        compiled.append((lines, generated.__code__ if plain else module, plain))
        keep_recent(_codes)
    return generated


def compile_bound(
    name: str,
    parameter: str,
    body: Sequence[str],
    namespace: Mapping[str, object],
    shared: dict[str, Any],
) -> Callable[[Any], Any]:
    """Compile a function of *parameter* whose own values are its parameters' defaults.

    The function's globals are *shared* (builtins and the values every such function holds
    alike); each other value of *namespace* that the body mentions is a parameter after
    *parameter*, with the value as its default (callers pass *parameter* alone). Two reasons: the
    source depends on the function's shape only, not on which hooks or keys it holds, so it
    shares its code with every function of the same shape; and a code object run with different
    globals dicts misses the interpreter's caches of global lookups on every switch (a quarter
    more instructions a call when tools of one shape are called in turn), while one dict keeps
    them warm.

    Args:
        name: What the function does, for its file name in tracebacks (see `compile_function`).
        parameter: The name of its one argument.
        body: Its lines, indented, reading values by their names in *namespace* or *shared*.
        namespace: The values it may read; those that are *shared*'s own are read from there.
        shared: Its globals: a dict kept for the life of the process, with ``__builtins__``.
    """
    # Each parameter costs the call a copy of its default: only the names the body mentions are
    # bound (a hook the lines do not call, as for a key kept as is, is left out).
    mentioned = set(_NAME.findall("\n".join(body)))
    absent = object()
    bound = {
        key: value
        for key, value in namespace.items()
        if key in mentioned and shared.get(key, absent) is not value
    }
    header = f"def generated({', '.join([parameter, *bound])}):"
    source = "\n".join([header, *body]) + "\n"
    # Compiled without defaults, the function is plain: its code alone is kept and shared.
    code = compile_function(source, name, {"__builtins__": builtins}).__code__
    return types.FunctionType(code, shared, None, tuple(bound.values()))
