"""Metadata for ``Annotated`` parameters, and the description it gives."""

from __future__ import annotations

import typing
from collections.abc import Iterable

import attrs

from typed_toolsets._public import public

__all__ = ["Description", "annotated_description", "description_of"]


@public
@attrs.frozen
class Description:
    """Describe a parameter or field to the model: ``Annotated[str, Description("A city name")]``.

    A plain string in ``Annotated`` metadata works too; this class makes the intent explicit.

    Attributes:
        text: The description.
    """

    text: str = attrs.field(validator=attrs.validators.instance_of(str))


def annotated_description(metadata: Iterable[object]) -> str | None:
    """The last description in ``Annotated`` metadata.

    A plain ``str``, a `Description`, or PEP 727's ``typing_extensions.Doc`` (as FastAPI's
    users write it), known by its module and name: nothing is imported for it.
    """
    found: str | None = None
    for item in metadata:
        if isinstance(item, str):
            found = item
        elif isinstance(item, Description):
            found = item.text
        elif (doc := _doc_text(item)) is not None:
            found = doc
    return found


def _doc_text(item: object) -> str | None:
    """The text of PEP 727's ``Doc("text")`` (``typing_extensions``, or ``typing`` later)."""
    kind = type(item)
    if kind.__name__ != "Doc" or kind.__module__ not in ("typing_extensions", "typing"):
        return None
    text = getattr(item, "documentation", None)
    return text if isinstance(text, str) else None


def description_of(annotation: object) -> str | None:
    """The description an ``Annotated`` annotation gives (None for any other annotation)."""
    if typing.get_origin(annotation) is not typing.Annotated:
        return None
    return annotated_description(typing.get_args(annotation)[1:])
