"""The seed's output formats of gh's JSON, for `typed_toolsets.github` (Ruby's string forms).

Each format takes the parsed JSON and returns the seed's text. A value of an unexpected JSON
type is a `TypeError` whose message names it in JSON's words; the toolset reports it as the
seed's ``Error ...: <message>``.
"""

from __future__ import annotations

import json
from typing import Any, cast

__all__ = [
    "format_issue",
    "format_issue_list",
    "format_pr",
    "format_pr_list",
    "format_traffic",
    "mergeable_text",
]


def _text(value: object) -> str:
    """Ruby's string interpolation of a JSON value: ``nil`` is empty, ``true`` is ``true``."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value
    if isinstance(value, (int, float)):
        return repr(value)
    try:
        return json.dumps(value, ensure_ascii=False)
    except RecursionError:
        # json.loads accepted it, a few frames higher up the stack.
        msg = "gh returned a value nested too deeply to show"
        raise TypeError(msg) from None


def _json_kind(value: object) -> str:
    """What a parsed JSON value is, in JSON's words (``an object``), for a formatting error."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    return "an array" if isinstance(value, list) else "an object"


def _first(*values: object) -> object:
    """Ruby's ``a || b``: the first value that is neither nil nor false."""
    for value in values:
        if value is not None and value is not False:
            return value
    return None


def _names(items: object, key: str) -> list[str]:
    """``items&.map { |i| i[key] } || []``."""
    if items is None:
        return []
    if not isinstance(items, list):
        msg = f"gh returned {_json_kind(items)} where an array of {key!r} entries belongs"
        raise TypeError(msg)
    entries = cast("list[object]", items)
    return [
        _text(cast("dict[str, object]", entry).get(key))
        if isinstance(entry, dict)
        else _text(entry)
        for entry in entries
    ]


def _records(data: object) -> list[dict[str, Any]]:
    if not isinstance(data, list) or not all(isinstance(item, dict) for item in data):  # pyright: ignore[reportUnknownVariableType]
        msg = "gh did not return a list of objects"
        raise TypeError(msg)
    return data  # pyright: ignore[reportUnknownVariableType]


def _record(data: object) -> dict[str, Any]:
    if not isinstance(data, dict):
        msg = "gh did not return an object"
        raise TypeError(msg)
    return data  # pyright: ignore[reportUnknownVariableType]


def _body(value: object) -> str:
    return _text(value) if value else "No description provided"


def format_issue_list(data: object) -> str:
    """The seed's issue list: a header, then per issue its title line, labels, assignees, URL."""
    issues = _records(data)
    if not issues:
        return "No issues found"
    lines = [f"Found {len(issues)} issue(s):"]
    for issue in issues:
        labels = _names(issue.get("labels"), "name")
        assignees = _names(issue.get("assignees"), "login")
        lines.append(
            f"#{_text(issue.get('number'))}: {_text(issue.get('title'))} "
            f"({_text(issue.get('state'))})"
        )
        if labels:
            lines.append(f"  Labels: {', '.join(labels)}")
        if assignees:
            lines.append(f"  Assignees: {', '.join(assignees)}")
        lines.append(f"  URL: {_text(issue.get('url'))}")
        lines.append("")
    return "\n".join(lines)


def format_pr_list(data: object) -> str:
    """The seed's pull request list: title line, ``head → base``, URL, per pull request."""
    prs = _records(data)
    if not prs:
        return "No pull requests found"
    lines = [f"Found {len(prs)} pull request(s):"]
    for pr in prs:
        lines.append(
            f"#{_text(pr.get('number'))}: {_text(pr.get('title'))} ({_text(pr.get('state'))})"
        )
        lines.append(f"  {_text(pr.get('headRefName'))} → {_text(pr.get('baseRefName'))}")
        lines.append(f"  URL: {_text(pr.get('url'))}")
        lines.append("")
    return "\n".join(lines)


def format_issue(data: object) -> str:
    """The seed's issue view."""
    issue = _record(data)
    labels = _names(issue.get("labels"), "name")
    assignees = _names(issue.get("assignees"), "login")
    lines = [
        f"Issue #{_text(issue.get('number'))}: {_text(issue.get('title'))}",
        f"State: {_text(issue.get('state'))}",
    ]
    if labels:
        lines.append(f"Labels: {', '.join(labels)}")
    if assignees:
        lines.append(f"Assignees: {', '.join(assignees)}")
    lines += [f"URL: {_text(issue.get('url'))}", "", "Body:", _body(issue.get("body"))]
    return "\n".join(lines)


def mergeable_text(value: object) -> str:
    """The ``mergeable`` state (MERGEABLE/CONFLICTING/UNKNOWN) as ``Yes``/``No``/``Unknown``."""
    if value is True or value == "MERGEABLE":
        return "Yes"
    if value is False or value == "CONFLICTING":
        return "No"
    if value is None or value == "UNKNOWN" or value == "":
        return "Unknown"
    return _text(value)


def format_pr(data: object) -> str:
    """The seed's pull request view, with ``Mergeable`` reported truthfully."""
    pr = _record(data)
    lines = [
        f"Pull Request #{_text(pr.get('number'))}: {_text(pr.get('title'))}",
        f"State: {_text(pr.get('state'))}",
        f"Branch: {_text(pr.get('headRefName'))} → {_text(pr.get('baseRefName'))}",
        f"Mergeable: {mergeable_text(pr.get('mergeable'))}",
        f"URL: {_text(pr.get('url'))}",
        "",
        "Body:",
        _body(pr.get("body")),
    ]
    return "\n".join(lines)


def format_traffic(data: object, label: str) -> str:
    """The seed's traffic summary: totals, then one line per data point."""
    traffic = _record(data)
    series = _first(traffic.get(label.lower()), traffic.get("views"), [])
    if not isinstance(series, list):
        msg = f"gh returned {_json_kind(series)} for the {label.lower()} series, not an array"
        raise TypeError(msg)
    points: list[object] = series  # pyright: ignore[reportUnknownVariableType]
    total = _text(_first(traffic.get("count"), 0))
    uniques = _text(_first(traffic.get("uniques"), 0))
    lines = [f"{label}: {total} total ({uniques} unique) over the last {len(points)} data points"]
    for point in points:
        entry = _record(point)
        count = _text(_first(entry.get("count"), 0))
        unique = _text(_first(entry.get("uniques"), 0))
        lines.append(f"  {_text(entry.get('timestamp'))}: {count} ({unique} unique)")
    return "\n".join(lines)
