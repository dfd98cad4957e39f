"""The README's examples with their outputs shown run as written, and give what they show.

Each `expression  # value` line of a block is evaluated and compared with its value (a comment
continued on the lines below it, as the README wraps a long string, is joined first); the words
the README quotes from messages are checked against the messages the library writes.
"""

from __future__ import annotations

import ast
import enum
import re
import shlex
from pathlib import Path
from typing import Any

import pytest

from typed_toolsets import Toolset, tool
from typed_toolsets.cli.main import main

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"


def _blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", README.read_text(encoding="utf-8"), re.S)


def _block_with(marker: str, language: str = "python") -> str:
    (block,) = [b for b in _blocks(language) if marker in b]
    return block


def _shown_values(code: str) -> list[tuple[str, object]]:
    """Each `expression  # value` line of *code*, with the value the comment shows.

    A comment may go on in comment-only lines below it, or start on the line below (a long
    value): those lines are joined with one space. Only the leading literal of a comment is the
    value; the words after it explain.
    """
    lines = code.splitlines()
    shown: list[tuple[str, object]] = []
    for index, line in enumerate(lines):
        if line.lstrip().startswith("#"):
            continue
        expression, _, comment = line.partition("  # ")
        parts = [comment.strip()] if comment else []
        follow = index + 1
        while follow < len(lines) and lines[follow].startswith("# "):
            parts.append(lines[follow][1:].strip())
            follow += 1
        if not parts:
            continue
        try:
            ast.parse(expression.strip(), mode="eval")
        except SyntaxError:
            continue
        value = _leading_literal(" ".join(parts))
        if value is not _NONE:
            shown.append((expression.strip(), value))
    return shown


_NONE = object()


def _leading_literal(text: str) -> object:
    for end in range(len(text), 0, -1):
        try:
            return ast.literal_eval(text[:end])
        except (SyntaxError, ValueError):
            continue
    return _NONE


def _run(code: str, namespace: dict[str, Any]) -> dict[str, Any]:
    exec(compile(code, str(README), "exec"), namespace)  # noqa: S102 - our own README
    return namespace


def test_the_declaring_example_gives_what_its_comments_show() -> None:
    code = _block_with("class TextStatsToolset(Toolset)")
    namespace = _run(code, {"__name__": "readme"})
    shown = _shown_values(code)
    assert len(shown) == 4
    for expression, value in shown:
        assert eval(expression, namespace) == value, expression  # noqa: S307


def test_the_definition_error_example_gives_what_its_comments_show() -> None:
    namespace = _run(_block_with("class TextStatsToolset(Toolset)"), {"__name__": "readme"})
    code = _block_with("except ToolsetDefinitionError as error:")
    _run(code, namespace)
    shown = _shown_values(code)
    assert len(shown) == 2
    for expression, value in shown:
        assert eval(expression, namespace) == value, expression  # noqa: S307


def test_the_command_line_call_prints_what_the_readme_shows(
    capsys: pytest.CaptureFixture[str],
) -> None:
    block = _block_with("typed-toolsets call typed_toolsets.text", "sh")
    command, shown = block.strip().splitlines()
    argv = shlex.split(command)
    assert argv[0] == ".venv/bin/typed-toolsets"  # the environment "Try it" made
    assert main(argv[1:]) == 0
    assert capsys.readouterr().out.strip() == shown.removeprefix("# ")


class _Priority(enum.Enum):
    LOW = "low"
    HIGH = "high"


class _Catalog(Toolset):
    toolset_name = "catalog"

    @tool
    def search(self, *, query: str, limit: int = 10) -> list[str]:
        return [query][:limit]

    @tool
    def tag(self, *, n: int, tags: list[str], priority: _Priority) -> None: ...


def _reasons() -> str:
    """What the README's step 3 and step 2 quote, as the call path writes it."""
    search, tag = _Catalog.to_tools()
    return "\n".join(
        [
            search.dynamic_call('{"query": "lamp",}'),
            search.dynamic_call({"arguments": {"query": "lamp"}}),
            tag.dynamic_call({"n": "5", "tags": '["a"]', "priority": 2}),
        ]
    )


@pytest.mark.parametrize(
    "quoted",
    [
        "JSON allows no comma before a closing } or ]: remove it",
        "n: '5' is not of type 'integer'; 5 is wanted, without quotes",
        (
            """tags: '["a"]' is not of type 'array'; the array itself is wanted, not a string"""
            " holding its JSON"
        ),
        "2 is not one of ['low', 'high']",
        (
            "arguments: unexpected argument; expected only: query, limit; it holds the arguments"
            " themselves: send them at the top level, not inside 'arguments'"
        ),
    ],
)
def test_the_messages_the_readme_quotes_are_the_library_s(quoted: str) -> None:
    readme = " ".join(README.read_text(encoding="utf-8").split())
    assert quoted in readme
    assert quoted in _reasons()


def test_a_value_of_another_type_than_an_enum_s_gets_the_enum_s_reason_alone() -> None:
    assert "priority: 2 is not one of ['low', 'high']" in _reasons()
    assert "2 is not of type" not in _reasons()
