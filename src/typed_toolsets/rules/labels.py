"""How problems name a type at run time: as it is written (``dict[int, str]``, ``Color | None``).

The mypy plugin names types with mypy's own formatter, which writes them the same way, so the
runtime's problems and the plugin's read alike. Standard library only.
"""

from __future__ import annotations

import enum
import math
import types
import typing
from collections.abc import Iterable
from typing import Final

__all__ = ["SHOWN_LIMIT", "int_text", "label", "literal_label", "safe_repr", "value_text"]

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
    if getattr(typing.get_origin(annotation), "_name", None) == "Unpack":
        # As mypy writes it; before type variables, which typing_extensions' (3.10) poses as.
        (unpacked,) = typing.get_args(annotation)
        return f"*{label(unpacked, annotated=annotated)}"
    if isinstance(annotation, typing.TypeVar):
        return annotation.__name__
    if isinstance(annotation, typing.ForwardRef):  # a name as written, not ForwardRef('...')
        return annotation.__forward_arg__
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is typing.Union or origin is types.UnionType:
        return " | ".join(label(a, annotated=annotated) for a in args)
    if origin is typing.Literal:
        return literal_label(args)
    if origin is typing.Annotated:
        base = label(args[0], annotated=annotated)
        return f"Annotated[{base}, ...]" if annotated else base
    # The empty tuple: of the bare forms, which have no schema, `tuple` has no origin and
    # `typing.Tuple` is the one with an origin and no arguments.
    if origin is tuple and not args and annotation is not typing.Tuple:  # noqa: UP006
        return "tuple[()]"
    if origin is not None and args:
        name = getattr(origin, "__name__", None) or label(origin)
        star = "*" if getattr(annotation, "__unpacked__", False) else ""  # `*tuple[str, ...]`
        return f"{star}{name}[{', '.join(label(a, annotated=annotated) for a in args)}]"
    qualname = getattr(annotation, "__qualname__", None)
    if isinstance(qualname, str):
        return qualname
    text = safe_repr(annotation)
    for prefix in ("typing_extensions.", "typing.", "collections.abc."):
        text = text.replace(prefix, "")
    return text


def literal_label(values: Iterable[object]) -> str:
    """``Literal[...]`` of *values*: `label` of that literal, without building it."""
    return f"Literal[{', '.join(map(_literal_text, values)) or '()'}]"


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


#: The most characters of a value a message shows (`safe_repr`).
SHOWN_LIMIT: Final = 200


def safe_repr(value: object, limit: int | None = SHOWN_LIMIT) -> str:
    """``repr(value)``, cut to *limit* characters; never an exception of its own.

    For the values of the user's code (and the model's) a message shows: a ``__repr__`` that
    raises must not replace the message (or the definition error) with its own exception, so
    the value is named by its type in angle brackets; an int past the interpreter's digit limit
    has no repr and is described by its size (`int_text`).

    Args:
        value: The value.
        limit: The most characters shown (None: all): a longer text is cut, ending in ``...``.
    """
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001 - a repr that fails (or gives no str) must not break the text
        text = int_text(value) if type(value) is int else f"<{type(value).__name__}>"
    if limit is not None and len(text) > limit:
        return f"{text[: limit - 3]}..."
    return text


def int_text(number: int) -> str:
    """*number* as Python writes it; past the interpreter's digit limit, its size instead."""
    try:
        return repr(number)
    except ValueError:  # over the interpreter's digit limit (sys.set_int_max_str_digits)
        return f"<an integer of about {int(number.bit_length() * math.log10(2)) + 1} digits>"
