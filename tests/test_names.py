"""The naming rules the plugin shares with the run time (`typed_toolsets.rules.names`)."""

from __future__ import annotations

import pytest

from typed_toolsets.rules.names import default_description, mangle, written_names

CLASSES = ("Tasks", "_Tasks", "__Tasks", "___", "T_", "Outer_Inner")
NAMES = ("find", "_find", "__find", "__find_", "__find__", "__", "___", "_Tasks__find")


def _stored(class_name: str, name: str) -> str:
    """The attribute Python stores for ``def <name>`` in ``class <class_name>``."""
    namespace: dict[str, object] = {}
    exec(f"class {class_name}:\n    def {name}(self): pass\n", namespace)  # noqa: S102
    cls = namespace[class_name]
    assert isinstance(cls, type)
    (stored,) = (key for key, value in vars(cls).items() if callable(value))
    return stored


@pytest.mark.parametrize("class_name", CLASSES)
@pytest.mark.parametrize("name", NAMES)
def test_mangle_is_pythons(class_name: str, name: str) -> None:
    assert mangle(class_name, name) == _stored(class_name, name)


@pytest.mark.parametrize("class_name", CLASSES)
@pytest.mark.parametrize("name", NAMES)
def test_written_names_are_the_names_stored_so(class_name: str, name: str) -> None:
    stored = _stored(class_name, name)
    assert name in written_names(class_name, stored)
    for written in written_names(class_name, stored):
        assert mangle(class_name, written) == stored
    if stored != name:  # `def __find` is no attribute `__find`
        assert written_names(class_name, name) == ()


@pytest.mark.parametrize(
    ("method", "described"),
    [
        ("word_count", "Word count operation"),
        ("_under", "Under operation"),  # was " under operation"
        ("trailing_", "Trailing operation"),  # was "Trailing  operation"
        ("two__words", "Two words operation"),
        ("ALL_CAPS", "All caps operation"),
    ],
)
def test_default_description_has_one_space_between_words(method: str, described: str) -> None:
    assert default_description(method) == described
