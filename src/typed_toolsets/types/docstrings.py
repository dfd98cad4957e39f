"""Reading descriptions out of docstrings (Google and NumPy style sections, reST field lists)."""

from __future__ import annotations

import inspect
import re
from typing import Final

__all__ = ["description_text", "field_descriptions", "parameter_descriptions", "summary"]

_PARAM_SECTIONS: Final = frozenset(
    {
        "args",
        "arguments",
        "parameters",
        "params",
        "keyword args",
        "keyword arguments",
        "other parameters",
    }
)
_ATTRIBUTE_SECTIONS: Final = frozenset({"attributes"})
_SECTION_HEADERS: Final = (
    _PARAM_SECTIONS
    | _ATTRIBUTE_SECTIONS
    | frozenset(
        {
            "returns",
            "return",
            "yields",
            "yield",
            "raises",
            "raise",
            "except",
            "exceptions",
            "note",
            "notes",
            "example",
            "examples",
            "see also",
            "warning",
            "warnings",
            "warns",
            "todo",
            "references",
            "methods",
        }
    )
)
_HEADER_RE: Final = re.compile(r"([A-Za-z][A-Za-z ]*):\s*")
# A Python identifier: not ASCII-only (``größe``).
_NAME: Final = r"[^\W\d]\w*"
# ``name: text`` or ``name (type): text`` or ``name (type, optional): text``; the type may hold
# parentheses of its own, two deep (``tuple(int, tuple(int, int))``).
_GOOGLE_ENTRY_RE: Final = re.compile(
    rf"(\*{{0,2}}{_NAME})\s*(?:\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\))?\s*:(.*)"
)
# ``:param name: text`` or ``:param type name: text``, under any of the field's names in Sphinx.
_REST_PARAM_RE: Final = re.compile(
    rf":(?:param|parameter|arg|argument|key|keyword)\s+(?:[^:]*?\s)?({_NAME})\s*:(.*)"
)
# A field list's ``:name:``; a role (``:func:`x```, ``:py:func:`x```: names, then a backtick)
# is part of the text.
_REST_FIELD_RE: Final = re.compile(r":(?![\w.+-]+(?::[\w.+-]+)*:`)[A-Za-z][^:`]*:")


# A NumPy style section's rule, under its name: ``Parameters`` then ``----------``.
_NUMPY_RULE_RE: Final = re.compile(r"-{3,}")
# ``name``, ``name : type`` or ``name1, name2 : type`` at the section's indentation.
_NUMPY_ENTRY_RE: Final = re.compile(rf"({_NAME}(?:\s*,\s*{_NAME})*)(?:\s*:.*)?")


def _lines(doc: object) -> list[str]:
    # Typed str | None by the callers (as __doc__ is), checked here: __doc__ may be set to
    # anything, and an int raised out of cleandoc, out of the class statement.
    if not doc or not isinstance(doc, str):
        return []
    # Lines end at line feeds (CR LF and a lone CR read as one), as Python's own source does:
    # splitlines() also ends them at U+2028, NEL and the like, which are text here.
    return inspect.cleandoc(doc.replace("\r\n", "\n").replace("\r", "\n")).split("\n")


def _is_header(line: str) -> str | None:
    match = _HEADER_RE.fullmatch(line)
    if match is None:
        return None
    name = match.group(1).strip().lower()
    return name if name in _SECTION_HEADERS else None


def _numpy_header(lines: list[str], index: int) -> str | None:
    """The section *lines[index]* opens in NumPy style (its name, then a rule of dashes)."""
    if index + 1 >= len(lines) or _NUMPY_RULE_RE.fullmatch(lines[index + 1].strip()) is None:
        return None
    name = lines[index].strip().lower()
    return name if name in _SECTION_HEADERS else None


def _paragraphs(lines: list[str]) -> list[str]:
    paragraphs: list[list[str]] = [[]]
    for line in lines:
        if line.strip():
            paragraphs[-1].append(line.strip())
        elif paragraphs[-1]:
            paragraphs.append([])
    return [" ".join(p) for p in paragraphs if p]


def _body_lines(doc: str | None) -> list[str]:
    """The lines before the first section header or reST field."""
    body: list[str] = []
    lines = _lines(doc)
    for index, line in enumerate(lines):
        if (
            _is_header(line) is not None
            or _REST_FIELD_RE.match(line.strip())
            or _numpy_header(lines, index) is not None
        ):
            break
        body.append(line)
    return body


def summary(doc: str | None) -> str | None:
    """Return the first paragraph of *doc* on one line, or None if there is none."""
    paragraphs = _paragraphs(_body_lines(doc))
    return paragraphs[0] if paragraphs else None


def description_text(doc: str | None) -> str | None:
    """Return every paragraph before the first section, separated by blank lines."""
    paragraphs = _paragraphs(_body_lines(doc))
    return "\n\n".join(paragraphs) if paragraphs else None


def _google_section(doc: str | None, sections: frozenset[str]) -> dict[str, str]:
    result: dict[str, str] = {}
    lines = _lines(doc)
    index = 0
    while index < len(lines):
        header = _is_header(lines[index])
        # A header on the docstring's opening line ("""Args:) has no indentation of its own
        # to drop, so cleaning it leaves its entries at none: they are read at the margin.
        at_margin = index == 0
        index += 1
        if header not in sections:
            continue
        entry_indent: int | None = None
        current: str | None = None
        while index < len(lines):
            line = lines[index]
            if not line.strip():
                index += 1
                continue
            indent = len(line) - len(line.lstrip())
            if indent == 0 and (not at_margin or _is_header(line) is not None):
                break  # the next section (or text) at the docstring's own indentation
            if entry_indent is None:
                entry_indent = indent
            if indent <= entry_indent:
                # At the entries' indentation, a line that is no entry (a paragraph after them,
                # ``x, y: ...``) ends the entry before it: it is not part of its text.
                match = _GOOGLE_ENTRY_RE.fullmatch(line.strip())
                current = None
                if match is not None and not match.group(1).startswith("*"):
                    name: str = match.group(1)
                    result[name] = match.group(2).strip()
                    current = name
            elif current is not None:
                result[current] = f"{result[current]} {line.strip()}".strip()
            index += 1
    return result


def _numpy_section(doc: str | None, sections: frozenset[str]) -> dict[str, str]:
    """The entries of NumPy style *sections*: ``name : type`` lines, their text indented below."""
    result: dict[str, str] = {}
    lines = _lines(doc)
    index = 0
    while index < len(lines):
        header = _numpy_header(lines, index)
        if header is None:
            index += 1
            continue
        margin = len(lines[index]) - len(lines[index].lstrip())
        index += 2  # the name and its rule
        if header not in sections:
            continue
        names: list[str] = []
        while index < len(lines) and _numpy_header(lines, index) is None:
            line = lines[index]
            index += 1
            if not line.strip():
                continue
            indent = len(line) - len(line.lstrip())
            if indent < margin:
                break
            if indent == margin:
                match = _NUMPY_ENTRY_RE.fullmatch(line.strip())
                names = [] if match is None else [n.strip() for n in match.group(1).split(",")]
                result.update(dict.fromkeys(names, ""))
            else:
                for name in names:
                    result[name] = f"{result[name]} {line.strip()}".strip()
    return result


def _rest_params(doc: str | None) -> dict[str, str]:
    result: dict[str, str] = {}
    current: str | None = None
    for line in _lines(doc):
        stripped = line.strip()
        match = _REST_PARAM_RE.match(stripped)
        if match is not None:
            name: str = match.group(1)
            result[name] = match.group(2).strip()
            current = name
        elif _REST_FIELD_RE.match(stripped) or not stripped:
            current = None
        elif current is not None and line[:1].isspace():
            result[current] = f"{result[current]} {stripped}".strip()
        else:
            current = None
    return result


def parameter_descriptions(doc: str | None) -> dict[str, str]:
    """Map parameter names to descriptions: Google ``Args:``, reST ``:param x:``, NumPy sections."""
    found = _rest_params(doc)
    found.update(_numpy_section(doc, _PARAM_SECTIONS))
    found.update(_google_section(doc, _PARAM_SECTIONS))
    return {name: text for name, text in found.items() if text}


def field_descriptions(doc: str | None) -> dict[str, str]:
    """Map field names to descriptions from a class docstring's ``Attributes`` (Google, NumPy)."""
    found = _numpy_section(doc, _ATTRIBUTE_SECTIONS)
    found.update(_google_section(doc, _ATTRIBUTE_SECTIONS))
    return {name: text for name, text in found.items() if text}
