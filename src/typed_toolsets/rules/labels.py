"""How problems name a type at run time: as it is written (``dict[int, str]``, ``Color | None``).

The mypy plugin names types with mypy's own formatter, which writes them the same way, so the
runtime's problems and the plugin's read alike. Standard library only.
"""

from __future__ import annotations

import enum
import math
import types
import typing

__all__ = ["int_text", "label", "safe_repr", "value_text"]

_NoneType = type(None)


def label(annotation: object, *, annotated: bool = False) -> str:
    """A short readable name for an annotation (``str | Color``, ``list[int]``).

    Args:
        annotation: The annotation.
        annotated: Write ``Annotated[int, ...]`` where the annotation has metadata (for a
            problem the metadata causes), rather than the type alone.
    """
    if annotation is None or annotation is _NoneType:
        return "None"
    if annotation is Ellipsis:
        return "..."
    if isinstance(annotation, list):  # the parameters of Callable[[int, str], ...]
        return f"[{', '.join(label(a) for a in typing.cast('list[object]', annotation))}]"
    if isinstance(annotation, typing.TypeVar):
        return annotation.__name__
    if isinstance(annotation, typing.ForwardRef):  # a name as written, not ForwardRef('...')
        return annotation.__forward_arg__
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is typing.Union or origin is types.UnionType:
        return " | ".join(label(a, annotated=annotated) for a in args)
    if origin is typing.Literal:
        return f"Literal[{', '.join(_literal_text(a) for a in args) or '()'}]"
    if origin is typing.Annotated:
        base = label(args[0], annotated=annotated)
        return f"Annotated[{base}, ...]" if annotated else base
    # The empty tuple: of the bare forms, which have no schema, `tuple` has no origin and
    # `typing.Tuple` is the one with an origin and no arguments.
    if origin is tuple and not args and annotation is not typing.Tuple:  # noqa: UP006
        return "tuple[()]"
    if origin is not None and args:
        name = getattr(origin, "__name__", None) or label(origin)
        return f"{name}[{', '.join(label(a, annotated=annotated) for a in args)}]"
    qualname = getattr(annotation, "__qualname__", None)
    if isinstance(qualname, str):
        return qualname
    text = safe_repr(annotation)
    for prefix in ("typing_extensions.", "typing.", "collections.abc."):
        text = text.replace(prefix, "")
    return text


def _literal_text(value: object) -> str:
    """A literal's value as written in the annotation: an enum member by its name, as mypy does."""
    if isinstance(value, enum.Enum):
        return f"{type(value).__qualname__}.{value.name}"
    return value_text(value)


def value_text(value: object) -> str:
    """*value* as Python writes it (``repr``), an int past the interpreter's digits described."""
    if isinstance(value, int) and not isinstance(value, bool):
        return int_text(value)
    return repr(value)


def safe_repr(value: object) -> str:
    """``repr(value)``, or its type's name in angle brackets when its ``__repr__`` fails.

    For the values of the user's code a message shows: a ``__repr__`` that raises must not
    replace the message (or the definition error) with its own exception.
    """
    try:
        return repr(value)
    except Exception:  # noqa: BLE001 - a repr that fails (or gives no str) must not break the text
        return f"<{type(value).__name__}>"


def int_text(number: int) -> str:
    """*number* as Python writes it; past the interpreter's digit limit, its size instead."""
    try:
        return repr(number)
    except ValueError:  # over the interpreter's digit limit (sys.set_int_max_str_digits)
        return f"<an integer of about {int(number.bit_length() * math.log10(2)) + 1} digits>"
