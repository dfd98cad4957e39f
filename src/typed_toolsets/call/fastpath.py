"""The fast path of the model-facing call, for arguments given as JSON text.

orjson parses the text; the generated structuring code then checks and builds the arguments in
one pass. Whatever this path cannot vouch for, it leaves to the exact path (stdlib parsing with
strict hooks, then jsonschema), which gives the verdict and the messages. So the fast path only
ever says "here are the arguments" or "ask the exact path", and it must say the first exactly
when the exact path would accept the same input with the same result:

- orjson merges duplicate keys silently; the total number of object members the arguments hold
  must therefore equal the number of ``:`` in the text (a colon outside a string separates a key
  from its value, so a duplicate key, or a colon inside a string, sends the call on);
- orjson turns integer literals beyond 64 bits into floats; while the fast path structures, number
  hooks refuse floats of 2**63 or more (see `typed_toolsets.types.typespec.ambiguous_float`);
- size is the UTF-8 length, checked before parsing; orjson itself refuses nesting past 1,024, and
  nesting past ``Limits.max_depth`` is checked before the arguments are accepted (statically when
  the parameter types bound it);
- NaN, Infinity, numbers overflowing a float, lone surrogates and invalid UTF-8 make orjson fail.

Without orjson (an optional speed-up), the exact path handles every call.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from typed_toolsets.definition.limits import Limits
from typed_toolsets.definition.methods import MethodInfo
from typed_toolsets.types.structs import KeyHook, compile_function, object_body
from typed_toolsets.types.typespec import number_mode

__all__ = ["MISS", "make_fast_arguments", "orjson_available"]

_loads: Callable[[bytes], Any] | None
try:  # pragma: no cover - which branch runs depends on the environment
    from orjson import loads as _loads
except ImportError:  # pragma: no cover
    _loads = None

#: Returned when the fast path leaves the call to the exact path.
MISS: Final = object()

FastArguments = Callable[[object], object]


def orjson_available() -> bool:
    """Whether the fast path can run (orjson is importable)."""
    return _loads is not None


def _parsed_depth(value: object) -> int:
    """The container nesting of a parsed JSON value (the value itself is level 1), iteratively."""
    deepest = 0
    stack: list[tuple[object, int]] = [(value, 1)]
    while stack:
        item, level = stack.pop()
        if level > deepest:
            deepest = level
        children: list[object]
        if isinstance(item, dict):
            children = list(item.values())  # pyright: ignore[reportUnknownArgumentType]
        elif isinstance(item, list):
            children = item  # pyright: ignore[reportUnknownVariableType]
        else:
            continue
        stack.extend((child, level + 1) for child in children if type(child) in (dict, list))
    return deepest


def _subschemas(schema: dict[str, Any]) -> list[object]:
    found: list[object] = []
    for keyword in ("properties", "$defs"):
        found.extend(dict(schema.get(keyword) or {}).values())
    found.extend(
        schema[keyword]
        for keyword in ("items", "additionalProperties")
        if isinstance(schema.get(keyword), dict)
    )
    for keyword in ("prefixItems", "anyOf"):
        found.extend(list(schema.get(keyword) or ()))
    return found


def _has_numbers(schema: object) -> bool:
    """Whether a schema admits JSON numbers anywhere (types, enums or constants)."""
    stack: list[object] = [schema]
    while stack:
        node = stack.pop()
        if not isinstance(node, dict):
            continue
        mapping: dict[str, Any] = node  # pyright: ignore[reportUnknownVariableType]
        declared = mapping.get("type")
        if declared in ("integer", "number"):
            return True
        constants = [mapping["const"]] if "const" in mapping else list(mapping.get("enum") or ())
        if any(isinstance(c, (int, float)) and not isinstance(c, bool) for c in constants):
            return True
        if declared is None and not mapping.keys() & {"anyOf", "$ref", "enum", "const"}:
            return True  # an open schema (a registered type's, say) may admit numbers
        stack.extend(_subschemas(mapping))
    return False


def make_fast_arguments(
    method: MethodInfo, keys: list[KeyHook], limits: Limits
) -> FastArguments | None:
    """Build the fast path for one tool: JSON text in, keyword arguments (or `MISS`) out.

    The generated function parses, checks and structures in one frame; see the module docstring
    for what it must leave to the exact path.

    Args:
        method: The exported method.
        keys: How to structure each parameter (hooks from the project converter).
        limits: The tool's limits.

    Returns:
        The function, or None when orjson is not installed.
    """
    if _loads is None:
        return None
    depths = [p.spec.depth for p in method.params]
    bounded = all(d is not None for d in depths)
    static_depth = 1 + max([0, *(d for d in depths if d is not None)])
    check_depth = not bounded or static_depth > limits.max_depth
    # Only arguments that can hold numbers need the guard against orjson's integer-as-float.
    guard_numbers = _has_numbers(method.parameters)
    namespace: dict[str, Any] = {
        "loads": _loads,
        "MISS": MISS,
        "mode": number_mode,
        "parsed_depth": _parsed_depth,
        "max_bytes": limits.max_argument_bytes,
        "max_depth": limits.max_depth,
    }
    body, result = object_body(keys, None, namespace, "        ")
    lines = [
        "def generated(arguments):",
        "    kind = type(arguments)",
        "    if kind is str:",
        "        if len(arguments) > max_bytes:",
        "            return MISS",
        "        try:",
        "            data = arguments.encode()",
        "        except UnicodeEncodeError:",
        "            return MISS",
        "    elif kind is bytes:",
        "        data = arguments",
        "    else:",
        "        return MISS",
        "    if not data or len(data) > max_bytes:",
        "        return MISS",
        "    try:",
        "        v = loads(data)",
        "    except Exception:",
        "        return MISS",
        "    if type(v) is not dict:",
        "        return MISS",
    ]
    if check_depth:
        lines += [
            '    if data.count(b"[") + data.count(b"{") > max_depth:',
            "        if parsed_depth(v) > max_depth:",
            "            return MISS",
        ]
    if guard_numbers:
        lines.append("    mode.exact = False")
    lines += ["    try:", *body, "    except Exception:", "        return MISS"]
    if guard_numbers:
        lines += ["    finally:", "        mode.exact = True"]
    lines.append("    members = len(v)")
    for index, param in enumerate(method.params):
        if param.spec.members is not None:
            namespace[f"c{index}"] = param.spec.members
            key = repr(param.name)
            lines += [f"    if {key} in v:", f"        members += c{index}(v[{key}])"]
    lines += ['    if data.count(b":") != members:', "        return MISS", f"    return {result}"]
    source = "\n".join(lines) + "\n"
    generated: FastArguments = compile_function(
        source, f"fast path of {method.func.__qualname__}", namespace
    )
    return generated
