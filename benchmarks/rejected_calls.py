"""What refusing arguments costs: typed_toolsets against pydantic, and against accepting them.

Each workload is one tool with an accepted call and a rejected one of about the same size (a
wrong type at a path, a missing or unexpected key, a wrong item deep in a large array, the inputs
of issue 17's findings 1 and 2, a file cut short (invalid JSON), a wrong field beside a file,
every argument wrong, as many unknown keys as the report's cap of problems, as many wrong
items). Both contenders are timed from JSON text to their full answer:

- typed_toolsets: ``dynamic_call`` (sync tool), the ``"Error: ..."`` text that names every problem
  (up to 20) with its path and what to send;
- pydantic 2: ``TypeAdapter.validate_json`` of a ``TypedDict`` (strict, extra keys forbidden), and
  for a rejection the ``ValidationError``'s ``errors()`` (every problem, with its location and
  message; without asking for them pydantic's report is never built).

Batches are interleaved across contenders, both accepted calls among them (see
`call_overhead.measure`); the figure is the median of the batch means. Each answer is checked
before timing: both contenders accept the accepted call and refuse the rejected one. The last
column, pydantic's own refusal against its own accepted call, is for context: it shows what
writing the report costs in compiled code (no goal applies to it).

Goals (issue 15; the script exits 1 when one is missed):

- rejected arguments cost at most 3 x what pydantic takes to refuse them;
- a rejected call costs at most 20 x an accepted call of the same tool;
- and, issue 17's bound, at most 3 x an accepted call of the same tool and about the same size.

Usage::

    pip install -e . -r benchmarks/requirements.txt
    python benchmarks/rejected_calls.py            # a minute or two
    python benchmarks/rejected_calls.py --quick    # fewer, shorter batches
"""

# Annotations are evaluated eagerly here: pydantic reads the local classes.
import argparse
import gc
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from call_overhead import Priority, Runner, measure
from goals import status

#: The goals, as ratios.
MAX_VS_PYDANTIC: Final = 3.0
MAX_VS_ACCEPTED: Final = 20.0
#: Issue 17's tighter bound: a refusal at most this many accepted calls of the same size.
MAX_VS_ACCEPTED_17: Final = 3.0


@dataclass
class Workload:
    """A tool and two calls of about the same size: one it accepts, one it refuses."""

    name: str
    tool: str
    what: str
    accepted: dict[str, Any]
    rejected: dict[str, Any]
    #: The rejected call's text when it is not ``json.dumps(rejected)`` (invalid JSON).
    rejected_text: str | None = None

    def texts(self) -> tuple[str, str]:
        """The accepted call's JSON text and the rejected one's."""
        accepted = json.dumps(self.accepted)
        rejected = json.dumps(self.rejected) if self.rejected_text is None else self.rejected_text
        return accepted, rejected


def _person(i: int) -> dict[str, Any]:
    return {"name": f"p{i}", "age": i % 90, "email": None}


#: About 1.6 KB of source code, as a model writes a file: colons, quotes, escapes, newlines.
_CODE = "\n".join(
    f'def handler_{i}(request: dict[str, str]) -> str:\n    """Route {i}: see https://example.com/{i}."""\n'
    f'    return request.get("path", "/") + "\\t{i}"'
    for i in range(12)
)


def workloads() -> list[Workload]:
    assign = {
        "task_id": "T-1",
        "priority": "high",
        "tags": ["a", "b", "c", "d", "e"],
        "owner": {"name": "Ana", "age": 34},
    }
    ints = list(range(1_000))
    return [
        Workload("R1", "word_count", "a number for a string", {"text": "one"}, {"text": 5}),
        Workload(
            "R2",
            "assign",
            "wrong enum, item and nested field",
            assign,
            {
                **assign,
                "priority": "urgent",
                "tags": ["a", 2, "c", "d", "e"],
                "owner": {"name": "Ana", "age": "34"},
            },
        ),
        Workload(
            "R3",
            "assign",
            "a required key missing, an unknown key",
            assign,
            {**{k: v for k, v in assign.items() if k != "owner"}, "ownr": assign["owner"]},
        ),
        Workload(
            "R4",
            "team",
            "one wrong field among 200 people",
            {"team": [_person(i) for i in range(200)]},
            {"team": [*(_person(i) for i in range(199)), {"name": "p", "age": None}]},
        ),
        Workload(
            "R5", "numbers", "1,000 ints, the last a string", {"x": ints}, {"x": [*ints, "1"]}
        ),
        Workload(
            "R6",
            "unique",
            "a set: 1,000 ints and a string (finding 1)",
            {"x": ints},
            {"x": [*ints, "1"]},
        ),
        Workload(
            "R7",
            "either",
            "a union: 1,000 strings (finding 2)",
            {"x": ints},
            {"x": [str(i) for i in ints]},
        ),
        Workload(
            "R8",
            "rows",
            "union items: 300 bad rows (finding 2)",
            {"x": [[i, i] for i in range(300)]},
            {"x": [[i, str(i)] for i in range(300)]},
        ),
        Workload(
            "R9",
            "write",
            "a 1.6 KB file, the text cut short",
            {"path": "src/app.py", "content": _CODE},
            {"path": "src/app.py", "content": _CODE},
            rejected_text=json.dumps({"path": "src/app.py", "content": _CODE})[:-1],
        ),
        Workload(
            "R10",
            "write",
            "a 1.6 KB file, the path a number",
            {"path": "src/app.py", "content": _CODE},
            {"path": 7, "content": _CODE},
        ),
        Workload(
            "R11",
            "assign",
            "every argument of the wrong type",
            assign,
            {"task_id": 1, "priority": 2, "tags": "a", "owner": [], "note": 5},
        ),
        Workload(
            "R12",
            "assign",
            "20 unknown keys: the problem cap",
            assign,
            {chr(ord("a") + i): 1 for i in range(20)},
        ),
        Workload(
            "R13",
            "assign",
            "20 wrong items: the cap, each its own reason",
            # The accepted call of the same size: the same 20 items, as the strings it wants.
            {**assign, "tags": [chr(ord("a") + i) for i in range(20)]},
            {**assign, "tags": list(range(20))},
        ),
    ]


# ---------------------------------------------------------------------------------- contenders


def typed_toolsets_tools() -> dict[str, Callable[[str], Any]]:
    import attrs

    from typed_toolsets import Toolset, tool

    @attrs.define
    class Person:
        name: str
        age: int
        email: str | None = None

    class Rejections(Toolset):
        @tool
        def word_count(self, *, text: str) -> int:
            return len(text.split())

        @tool
        def assign(
            self,
            *,
            task_id: str,
            priority: Priority,
            tags: list[str],
            owner: Person,
            note: str | None = None,
        ) -> str:
            return f"{priority.value}/{owner.name}/{tags[-1]}"

        @tool
        def team(self, *, team: list[Person]) -> int:
            return len(team)

        @tool
        def numbers(self, *, x: list[int]) -> int:
            return len(x)

        @tool
        def unique(self, *, x: set[int]) -> int:
            return len(x)

        @tool
        def either(self, *, x: list[int] | list[float] | dict[str, int] | None) -> int:
            return 0 if x is None else len(x)

        @tool
        def rows(self, *, x: list[list[int] | list[str] | None]) -> int:
            return len(x)

        @tool
        def write(self, *, path: str, content: str) -> int:
            return len(path) + len(content)

    return {t.method_name: t.dynamic_call for t in Rejections.to_tools()}


def pydantic_tools() -> dict[str, Callable[[str], Any]]:
    import pydantic
    from typing_extensions import NotRequired, TypedDict

    config = pydantic.ConfigDict(strict=True, extra="forbid")

    class Person(pydantic.BaseModel):
        model_config = config
        name: str
        age: int
        email: str | None = None

    @pydantic.with_config(config)
    class WordCount(TypedDict):
        text: str

    @pydantic.with_config(config)
    class Assign(TypedDict):
        task_id: str
        priority: Priority
        tags: list[str]
        owner: Person
        note: NotRequired[str | None]

    @pydantic.with_config(config)
    class Team(TypedDict):
        team: list[Person]

    @pydantic.with_config(config)
    class Numbers(TypedDict):
        x: list[int]

    @pydantic.with_config(config)
    class Unique(TypedDict):
        x: set[int]

    @pydantic.with_config(config)
    class Either(TypedDict):
        x: list[int] | list[float] | dict[str, int] | None

    @pydantic.with_config(config)
    class Rows(TypedDict):
        x: list[list[int] | list[str] | None]

    @pydantic.with_config(config)
    class Write(TypedDict):
        path: str
        content: str

    bodies: dict[str, tuple[Any, Callable[[Any], Any]]] = {
        "word_count": (WordCount, lambda a: len(a["text"].split())),
        "assign": (
            Assign,
            lambda a: f"{a['priority'].value}/{a['owner'].name}/{a['tags'][-1]}",
        ),
        "team": (Team, lambda a: len(a["team"])),
        "numbers": (Numbers, lambda a: len(a["x"])),
        "unique": (Unique, lambda a: len(a["x"])),
        "either": (Either, lambda a: 0 if a["x"] is None else len(a["x"])),
        "rows": (Rows, lambda a: len(a["x"])),
        "write": (Write, lambda a: len(a["path"]) + len(a["content"])),
    }

    def contender(model: Any, body: Callable[[Any], Any]) -> Callable[[str], Any]:
        adapter = pydantic.TypeAdapter(model)

        def call(text: str) -> Any:
            try:
                return body(adapter.validate_json(text))
            except pydantic.ValidationError as exc:
                return exc.errors(include_url=False)

        return call

    return {name: contender(model, body) for name, (model, body) in bodies.items()}


def _check(workload: Workload, ours: Callable[[str], Any], theirs: Callable[[str], Any]) -> None:
    accepted, rejected = workload.texts()
    answers = (ours(accepted), theirs(accepted))
    if str(answers[0]).startswith("Error: ") or isinstance(answers[1], list):
        msg = f"{workload.name}: the accepted call was refused: {str(answers)[:300]}"
        raise AssertionError(msg)
    if answers[0] != answers[1]:
        msg = f"{workload.name}: different answers to the accepted call: {answers}"
        raise AssertionError(msg)
    refusal = ours(rejected)
    if not (isinstance(refusal, str) and refusal.startswith("Error: Invalid ")):
        msg = f"{workload.name}: typed_toolsets did not refuse the call: {refusal!r}"
        raise AssertionError(msg)
    if not isinstance(theirs(rejected), list):
        msg = f"{workload.name}: pydantic did not refuse the call"
        raise AssertionError(msg)


# ---------------------------------------------------------------------------------------- main


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--quick", action="store_true", help="fewer, shorter batches")
    options = parser.parse_args()
    batches, seconds = (5, 0.02) if options.quick else (15, 0.05)

    ours, theirs = typed_toolsets_tools(), pydantic_tools()
    runner = Runner()
    rows: list[tuple[Workload, dict[str, float], dict[str, float]]] = []
    for workload in workloads():
        _check(workload, ours[workload.tool], theirs[workload.tool])
    gc.collect()
    gc.freeze()
    for workload in workloads():
        # Our accepted call is timed in the same interleaved batches as the refusals, so that
        # their ratio does not move with the machine between two measurements.
        entries = [
            ("typed_toolsets", ours[workload.tool], False),
            ("pydantic", theirs[workload.tool], False),
            ("typed_toolsets accepted", ours[workload.tool], False),
            ("pydantic accepted", theirs[workload.tool], False),
        ]
        accepted_text, rejected_text = workload.texts()
        texts = {
            "typed_toolsets": rejected_text,
            "pydantic": rejected_text,
            "typed_toolsets accepted": accepted_text,
            "pydantic accepted": accepted_text,
        }
        rejected = measure(runner, entries, texts, batches, seconds)
        accepted = {
            name: rejected.pop(f"{name} accepted") for name in ("typed_toolsets", "pydantic")
        }
        rows.append((workload, accepted, rejected))

    missed: list[str] = []
    header = (
        f"{'':4} {'rejected call':42} {'bytes':>7} {'ours us':>9} {'pydantic us':>12}"
        f" {'ratio':>6} {'ours accepted us':>17} {'rejected/accepted':>18}"
        f" {'pydantic rej/acc':>17}"
    )
    print(header)
    print("-" * len(header))
    for workload, accepted, rejected in rows:
        vs_pydantic = rejected["typed_toolsets"] / rejected["pydantic"]
        vs_accepted = rejected["typed_toolsets"] / accepted["typed_toolsets"]
        theirs_vs_accepted = rejected["pydantic"] / accepted["pydantic"]
        size = len(workload.texts()[1])
        print(
            f"{workload.name:4} {workload.what:42} {size:7} "
            f"{rejected['typed_toolsets'] / 1e3:9.1f} {rejected['pydantic'] / 1e3:12.1f} "
            f"{vs_pydantic:5.1f}x {accepted['typed_toolsets'] / 1e3:17.1f} {vs_accepted:17.1f}x"
            f" {theirs_vs_accepted:16.1f}x"
        )
        if vs_pydantic > MAX_VS_PYDANTIC:
            missed.append(f"{workload.name}: {vs_pydantic:.1f}x pydantic (goal {MAX_VS_PYDANTIC}x)")
        if vs_accepted > MAX_VS_ACCEPTED:
            missed.append(
                f"{workload.name}: {vs_accepted:.1f}x an accepted call (goal {MAX_VS_ACCEPTED}x)"
            )
        if vs_accepted > MAX_VS_ACCEPTED_17:
            missed.append(
                f"{workload.name}: {vs_accepted:.1f}x an accepted call of the tool "
                f"(issue 17's goal {MAX_VS_ACCEPTED_17}x)"
            )
    total_ours = sum(r["typed_toolsets"] for _, _, r in rows)
    total_theirs = sum(r["pydantic"] for _, _, r in rows)
    print(f"\nall rejected calls: {total_ours / total_theirs:.1f}x pydantic (sum of the medians)")
    return status(missed)


if __name__ == "__main__":
    sys.exit(main())
