# pyright: strict
"""Public names keep their types, and a misspelled one is refused.

The packages load their names lazily (a module ``__getattr__`` at run time); type checkers must
not take that for "any name is an attribute of type Any". Each refusal below is pinned by its
ignore comment: both checkers report an ignore that is no longer needed.
"""

from __future__ import annotations

from collections.abc import Callable

from typing_extensions import assert_type

import typed_toolsets
import typed_toolsets.testing
from typed_toolsets import Toolset
from typed_toolsets.testing import check_toolset


def names() -> None:
    assert_type(typed_toolsets.__version__, str)
    assert_type(typed_toolsets.Toolset, type[Toolset])
    checker: Callable[[type[Toolset]], None] = typed_toolsets.testing.check_toolset
    checker = check_toolset
    checker(Toolset)
    typed_toolsets.ToolProxyy  # type: ignore[attr-defined]  # pyright: ignore[reportAttributeAccessIssue, reportUnknownMemberType]
    typed_toolsets.testing.valuez  # type: ignore[attr-defined]  # pyright: ignore[reportAttributeAccessIssue, reportUnknownMemberType]


def misspelled() -> None:
    from typed_toolsets import Toolsett  # type: ignore[attr-defined]  # pyright: ignore[reportAttributeAccessIssue, reportUnknownVariableType]
    from typed_toolsets.testing import check_toolsets  # type: ignore[attr-defined]  # pyright: ignore[reportAttributeAccessIssue, reportUnknownVariableType]

    del Toolsett, check_toolsets
