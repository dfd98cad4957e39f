"""How problems name a type at run time: as it is written (``dict[int, str]``, ``Color | None``).

The mypy plugin names types with mypy's own formatter, which writes them the same way, so the
runtime's problems and the plugin's read alike. Standard library only.
"""

from __future__ import annotations

import types
import typing

__all__ = ["label"]

_NoneType = type(None)


def label(annotation: object) -> str:
    """A short readable name for an annotation (``str | Color``, ``list[int]``)."""
    if annotation is None or annotation is _NoneType:
        return "None"
    if annotation is Ellipsis:
        return "..."
    if isinstance(annotation, list):  # the parameters of Callable[[int, str], ...]
        return f"[{', '.join(label(a) for a in typing.cast('list[object]', annotation))}]"
    if isinstance(annotation, typing.TypeVar):
        return annotation.__name__
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is typing.Union or origin is types.UnionType:
        return " | ".join(label(a) for a in args)
    if origin is typing.Literal:
        return f"Literal[{', '.join(repr(a) for a in args)}]"
    if origin is typing.Annotated:
        return label(args[0])
    if origin is not None and args:
        name = getattr(origin, "__name__", None) or label(origin)
        return f"{name}[{', '.join(label(a) for a in args)}]"
    qualname = getattr(annotation, "__qualname__", None)
    if isinstance(qualname, str):
        return qualname
    text = repr(annotation)
    for prefix in ("typing_extensions.", "typing.", "collections.abc."):
        text = text.replace(prefix, "")
    return text
