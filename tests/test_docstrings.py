"""Descriptions read from docstrings: summaries, Google and NumPy sections, reST ``:param:``."""

from __future__ import annotations

from typing import Annotated

import attrs

from typed_toolsets import Toolset, tool
from typed_toolsets.types.docstrings import (
    description_text,
    field_descriptions,
    parameter_descriptions,
    summary,
)

GOOGLE = """Search the catalog
    for products.

    Matches are ranked.

    Args:
        query: What to look for; a
            free-text phrase.
        limit (int, optional): At most this many.
        *args: Ignored.

    Returns:
        The matches.
"""

REST = """Search.

    :param query: What to look for,
        in words.
    :param int limit: At most this many.
    :returns: matches
"""


def test_summary_is_the_first_paragraph_on_one_line() -> None:
    assert summary(GOOGLE) == "Search the catalog for products."
    assert summary("One line.") == "One line."
    assert summary(None) is None
    assert summary("") is None
    assert summary("Args:\n    x: only args") is None


def test_description_text_keeps_paragraphs_before_sections() -> None:
    assert description_text(GOOGLE) == "Search the catalog for products.\n\nMatches are ranked."


def test_google_args() -> None:
    assert parameter_descriptions(GOOGLE) == {
        "query": "What to look for; a free-text phrase.",
        "limit": "At most this many.",
    }


def test_google_args_on_the_opening_line() -> None:
    # As a method's docstring holds it: the opening line unindented, the rest indented past the
    # body's margin, so cleaning leaves the entries with no indentation at all.
    entries_only = """Args:
        x: The first.
        y: The second,
            on two lines.
    """
    assert parameter_descriptions(entries_only) == {
        "x": "The first.",
        "y": "The second, on two lines.",
    }
    with_returns = """Args:
        x: The first.

    Returns:
        z: not a parameter.
    """
    assert parameter_descriptions(with_returns) == {"x": "The first."}


def test_rest_params() -> None:
    assert parameter_descriptions(REST) == {
        "query": "What to look for, in words.",
        "limit": "At most this many.",
    }


def test_a_role_opening_the_summary_is_text_not_a_field() -> None:
    # ":func:`search` ..." read as a field list left the tool the fallback description.
    doc = """:func:`search`, wrapped: finds things.

    :param query: What :class:`Index` looks for.
    """
    assert summary(doc) == ":func:`search`, wrapped: finds things."
    assert parameter_descriptions(doc) == {"query": "What :class:`Index` looks for."}
    assert summary(":param query: Only fields.") is None
    assert summary("Do it.\n:param x:the x") == "Do it."  # a field without a space after it


def test_attributes_section() -> None:
    doc = """A person.

    Attributes:
        name: Full name.
        age: In years.
    """
    assert field_descriptions(doc) == {"name": "Full name.", "age": "In years."}
    assert parameter_descriptions(doc) == {}


def test_no_invented_descriptions() -> None:
    assert parameter_descriptions("Just a summary.") == {}
    assert parameter_descriptions(None) == {}


def test_any_identifier_and_a_type_with_parentheses_are_read() -> None:
    # Python identifiers are not ASCII-only, and a type may hold parentheses of its own.
    google = """Measure.

    Args:
        größe (int): Size in cm.
        pair (tuple(int, int)): Two numbers,
            in order.
    """
    assert parameter_descriptions(google) == {
        "größe": "Size in cm.",
        "pair": "Two numbers, in order.",
    }
    assert parameter_descriptions(":param größe: Size in cm.") == {"größe": "Size in cm."}


NUMPY = """Search the catalog.

    Matches are ranked.

    Parameters
    ----------
    query : str
        What to look for; a
        free-text phrase.
    low, high : int, optional
        The price range.
    *args
        Ignored.
    flag

    Returns
    -------
    list of str
        The matches.

    Examples
    --------
    >>> search("tea")
"""


def test_numpy_parameters() -> None:
    assert summary(NUMPY) == "Search the catalog."
    # The sections are not part of the description (they were read as one more paragraph).
    assert description_text(NUMPY) == "Search the catalog.\n\nMatches are ranked."
    assert parameter_descriptions(NUMPY) == {
        "query": "What to look for; a free-text phrase.",
        "low": "The price range.",
        "high": "The price range.",
    }


def test_numpy_attributes_describe_fields() -> None:
    doc = """A point.

    Attributes
    ----------
    x : float
        East.
    y : float
        North.
    """
    assert description_text(doc) == "A point."
    assert field_descriptions(doc) == {"x": "East.", "y": "North."}
    assert parameter_descriptions(doc) == {}


def test_a_line_of_dashes_under_other_text_is_no_section() -> None:
    doc = """Convert.

    Before
    ------
    x : int
        Not a parameter.
    """
    assert parameter_descriptions(doc) == {}
    assert description_text(doc) == "Convert.\n\nBefore ------ x : int Not a parameter."


@attrs.define
class Point:
    """A point.

    Attributes
    ----------
    x : float
        East.
    """

    x: float


class Maps(Toolset):
    @tool
    def pin(self, *, at: Point, label: str = "") -> str:
        """Pin a point.

        Parameters
        ----------
        at : Point
            Where.
        label : str, optional
            The pin's text.
        """
        return label


def test_a_numpy_docstring_describes_a_tool_and_its_struct() -> None:
    proxy = Maps.to_tools()[0]
    assert proxy.description == "Pin a point."
    properties = proxy.parameters["properties"]
    assert properties["label"]["description"] == "The pin's text."
    # The parameter's words describe it; the class's describe its field.
    assert properties["at"]["description"] == "Where."
    assert properties["at"]["properties"]["x"]["description"] == "East."


def test_a_doc_that_is_no_string_is_no_docstring() -> None:
    # `f.__doc__ = 5`: cleandoc raised AttributeError out of the class statement.
    def double(self: object, *, x: int) -> int:
        return 2 * x

    double.__doc__ = 5  # type: ignore[assignment]  # what the test is about
    DocOdd = type("DocOdd", (Toolset,), {"exports": (tool("double"),), "double": double})
    (proxy,) = DocOdd.to_tools()
    assert proxy.description == "Double operation"
    assert proxy.dynamic_call({"x": 2}) == 4


class Shop(Toolset):
    toolset_name = "shop"

    @tool
    def price(self, *, item_id: int) -> int:
        """Return the price of an item in cents.

        Args:
            item_id: The catalogue number of the item.
        """
        return 100


class Discounted(Shop):
    def price(self, *, item_id: int) -> int:  # the same tool, another implementation
        return 90


class Relabelled(Shop):
    def price(self, *, item_id: int) -> int:
        """Return the discounted price."""
        return 90


def test_an_override_without_a_docstring_keeps_the_tool_s_descriptions() -> None:
    # It became "Price operation" with no parameter description; inspect.getdoc, pydoc and
    # Sphinx all show the base method's docstring for it.
    (base,) = Shop.to_tools()
    (override,) = Discounted.to_tools()
    assert override.description == base.description == "Return the price of an item in cents."
    assert override.parameters == base.parameters
    assert override.parameters["properties"]["item_id"]["description"] == (
        "The catalogue number of the item."
    )
    # An override with a docstring of its own says what it says, and nothing more.
    (own,) = Relabelled.to_tools()
    assert own.description == "Return the discounted price."
    assert "description" not in own.parameters["properties"]["item_id"]


class Mixin:
    price = "in cents"
    count = 0


class Mixed(Toolset, Mixin):
    @tool
    def price(self, *, item_id: int) -> int:
        return item_id

    @tool
    def count(self) -> int:
        return 0


def test_an_override_of_an_attribute_that_is_no_method_has_no_docstring_of_it() -> None:
    # The mixin's str and int gave the tools str's and int's own docstrings.
    assert [proxy.description for proxy in Mixed.to_tools()] == [
        "Price operation",
        "Count operation",
    ]


def test_a_role_with_its_domain_is_text_not_a_field() -> None:
    # ":py:func:`search` found." at a line's start ended the summary and the parameter's text.
    doc = """Return the price of the item that
    :py:func:`search` found.

    :param item_id: the catalogue number, as
        :py:func:`search` returns it.
    :returns: the price.
    """
    assert summary(doc) == "Return the price of the item that :py:func:`search` found."
    assert parameter_descriptions(doc) == {
        "item_id": "the catalogue number, as :py:func:`search` returns it."
    }


def test_lines_end_at_line_feeds_only() -> None:
    # A docstring with CR line ends lost its parameters; U+2028 ended a description early.
    doc = "Do it.\r\n\r\n    Args:\r        x: before\u2028after.\r        y: why.\r"
    assert summary(doc) == "Do it."
    assert parameter_descriptions(doc) == {"x": "before\u2028after.", "y": "why."}


def test_other_parameters_and_types_two_deep_are_read() -> None:
    doc = """Do it.

    Args:
        y (tuple(int, tuple(int, int))): a nested type.

    Other Parameters:
        z: an other parameter.
    """
    assert parameter_descriptions(doc) == {"y": "a nested type.", "z": "an other parameter."}


def test_every_sphinx_name_of_a_parameter_field_is_read() -> None:
    # Only ``:param`` was: the others gave no description, and no word of it.
    doc = """Do it.

    :parameter a: an a.
    :arg b: a b.
    :argument int c: a c.
    :key d: a d.
    :keyword e: an e.
    :type a: int
    """
    assert parameter_descriptions(doc) == {
        "a": "an a.",
        "b": "a b.",
        "c": "a c.",
        "d": "a d.",
        "e": "an e.",
    }


def test_a_line_at_the_entries_indentation_that_is_no_entry_is_not_one_s_text() -> None:
    # A paragraph after the entries, or an entry of a form not read (``x, y: ...``), is not
    # taken as the text of the entry before it (the model reads these descriptions).
    doc = """Do it.

    Args:
        x: The x.
        y: The y.

        Both are in centimetres.
        a, b: The corners.
        c: The c.
    """
    assert parameter_descriptions(doc) == {"x": "The x.", "y": "The y.", "c": "The c."}


@attrs.define
class Item:
    """An item.

    Attributes:
        sku: Stock keeping unit.
        name: What it is called.
    """

    sku: Annotated[str, "The SKU, e.g. AB-123."]
    name: str


@attrs.define
class Boxed(Item):
    size: int = 1


class Store(Toolset):
    @tool
    def add(self, *, item: Item, boxed: Boxed) -> int:
        return 0


def test_a_field_is_described_as_a_parameter_is_annotated_first_and_as_its_bases_say() -> None:
    # The docstring beat Annotated for a field (the reverse of a parameter), and a subclass
    # without a docstring lost its inherited fields' descriptions.
    (add,) = Store.to_tools()
    for name in ("item", "boxed"):
        fields = add.parameters["properties"][name]["properties"]
        assert fields["sku"]["description"] == "The SKU, e.g. AB-123."
        assert fields["name"]["description"] == "What it is called."
    assert "description" not in add.parameters["properties"]["boxed"]["properties"]["size"]
