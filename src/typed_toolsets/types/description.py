"""Metadata for ``Annotated`` parameters."""

from __future__ import annotations

import attrs

from typed_toolsets._public import public

__all__ = ["Description"]


@public
@attrs.frozen
class Description:
    """Describe a parameter or field to the model: ``Annotated[str, Description("A city name")]``.

    A plain string in ``Annotated`` metadata works too; this class makes the intent explicit.

    Attributes:
        text: The description.
    """

    text: str = attrs.field(validator=attrs.validators.instance_of(str))
