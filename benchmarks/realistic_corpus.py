"""What models really send: a realistic corpus, typed_toolsets beside pydantic and msgspec.

Five tools whose arguments look like real tool calls (full of colons: URLs, times, ISO
datetimes, "Note:", code, ``mailto:``):

- ``web_fetch``: a URL, a method, headers (one a UUID), a timeout, sometimes a body;
- ``calendar_event``: a title, RFC 3339 start and end (``Z`` or an offset), attendees (structs),
  a location, reminders, an event UUID;
- ``file_write``: a path and source code (one payload carries a 108 KB file), a mode;
- ``search``: a query and a filters struct (site, a date, languages, a result count), a page;
- ``sql``: a query, positional parameters of mixed JSON types, a database, a flag.

1,000 payloads (200 per tool), generated with a fixed seed, are called as JSON text and as
already-parsed dicts (what several SDKs hand over), through ``dynamic_call``, beside pydantic
``TypeAdapter`` (strict, extra forbidden; its date, time and UUID fields accept strings in
Python mode too, as JSON mode does) and msgspec (``forbid_unknown_fields``, strict), each
followed by the same call of the tool's body. All contenders run in one process; every round
times each contender once over the whole corpus, contenders interleaved, and the figures are the
median over the rounds, with the spread (lowest and highest round) beside it. GC stays on, with
everything alive before timing frozen.

Also measured: RFC 3339 date-times, dates, times and UUIDs per value (64 per call); one large
string per byte (10 KB, 108 KB and 900 KB, one colon each); a call whose text the fast path
cannot vouch for (a colon and an escaped colon in a string); and, for information, a rejected
call (a wrong type at a path).

Goals (the script exits 1 when one is missed): the corpus at most 1.0 x pydantic as the ratio
of corpus totals, as text and as dicts; date-times, dates, times and UUIDs at most 1.5 x pydantic
per value; large strings at most 2.0 x pydantic per byte and linear (900 KB within 30% of 108 KB
per byte).

Usage::

    pip install -e . -r benchmarks/requirements.txt
    python benchmarks/realistic_corpus.py            # about a minute
    python benchmarks/realistic_corpus.py --quick    # fewer rounds
"""

# Annotations are evaluated eagerly here: pydantic and msgspec read the local classes.
import argparse
import enum
import gc
import json
import random
import statistics
import sys
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from datetime import time as dtime
from typing import Any, Literal

import attrs
from goals import check, status

Call = Callable[[Any], Any]
#: The second argument of `Contender.make`: the call reads JSON text (else an already-parsed dict).
AS_TEXT = True

# ------------------------------------------------------------------------------------- the tools


class Method(enum.Enum):
    GET = "GET"
    POST = "POST"
    PUT = "PUT"
    DELETE = "DELETE"


@attrs.frozen
class Attendee:
    email: str
    name: str | None = None
    optional: bool = False


@attrs.frozen
class Filters:
    site: str | None = None
    after: date | None = None
    languages: list[str] = attrs.Factory(list)
    max_results: int = 10


Scalar = str | int | float | bool | None


# The bodies do O(1) work and touch what was structured, so growth is the contender's own.
def web_fetch(
    url: str,
    method: Method = Method.GET,
    headers: dict[str, str] | None = None,
    timeout: float = 30.0,
    body: str | None = None,
) -> str:
    return f"{method.value} {url[:8]} {len(headers or {})}"


def calendar_event(
    title: str,
    start: datetime,
    end: datetime,
    event_id: uuid.UUID,
    attendees: list[Any],
    location: str | None = None,
    reminders: list[int] | None = None,
) -> str:
    return f"{start.year}:{len(attendees)}:{event_id.version}"


def file_write(
    path: str, content: str, mode: Literal["w", "a"] = "w", encoding: str = "utf-8"
) -> int:
    return len(content)


def search(query: str, filters: Any = None, page: int = 1) -> str:
    return f"{query[:4]}:{page}"


def sql(
    query: str,
    params: list[Scalar] | None = None,
    database: str = "main",
    read_only: bool = True,
) -> int:
    return len(params or ())


BODIES: dict[str, Callable[..., Any]] = {
    "web_fetch": web_fetch,
    "calendar_event": calendar_event,
    "file_write": file_write,
    "search": search,
    "sql": sql,
}


def typed_toolsets_tools() -> dict[str, Any]:
    from typed_toolsets import Toolset, tool

    class RealisticToolset(Toolset):
        toolset_name = "real"

        @tool
        def web_fetch(
            self,
            *,
            url: str,
            method: Method = Method.GET,
            headers: dict[str, str] | None = None,
            timeout: float = 30.0,
            body: str | None = None,
        ) -> str:
            return web_fetch(url, method, headers, timeout, body)

        @tool
        def calendar_event(
            self,
            *,
            title: str,
            start: datetime,
            end: datetime,
            event_id: uuid.UUID,
            attendees: list[Attendee],
            location: str | None = None,
            reminders: list[int] | None = None,
        ) -> str:
            return calendar_event(title, start, end, event_id, attendees, location, reminders)

        @tool
        def file_write(
            self, *, path: str, content: str, mode: Literal["w", "a"] = "w", encoding: str = "utf-8"
        ) -> int:
            return file_write(path, content, mode, encoding)

        @tool
        def search(self, *, query: str, filters: Filters | None = None, page: int = 1) -> str:
            return search(query, filters, page)

        @tool
        def sql(
            self,
            *,
            query: str,
            params: list[str | int | float | bool | None] | None = None,
            database: str = "main",
            read_only: bool = True,
        ) -> int:
            return sql(query, params, database, read_only)

        @tool
        def datetimes(self, *, values: list[datetime]) -> int:
            return len(values)

        @tool
        def dates(self, *, values: list[date]) -> int:
            return len(values)

        @tool
        def times(self, *, values: list[dtime]) -> int:
            return len(values)

        @tool
        def uuids(self, *, values: list[uuid.UUID]) -> int:
            return len(values)

    return {t.method_name: t for t in RealisticToolset.to_tools()}


def pydantic_adapters() -> dict[str, Any]:
    from typing import Annotated

    import pydantic
    from pydantic import ConfigDict, Strict
    from typing_extensions import NotRequired, TypedDict

    strict = ConfigDict(strict=True, extra="forbid")
    # Strict Python mode wants datetime objects; JSON mode reads strings. The corpus holds
    # strings in both forms, as a model sends them.
    dt_ = Annotated[datetime, Strict(strict=False)]
    day_ = Annotated[date, Strict(strict=False)]
    tm_ = Annotated[dtime, Strict(strict=False)]
    uid_ = Annotated[uuid.UUID, Strict(strict=False)]
    meth_ = Annotated[Method, Strict(strict=False)]

    class AttendeeModel(pydantic.BaseModel):
        model_config = strict
        email: str
        name: str | None = None
        optional: bool = False

    class FiltersModel(pydantic.BaseModel):
        model_config = strict
        site: str | None = None
        after: day_ | None = None
        languages: list[str] = []
        max_results: int = 10

    class WebFetch(TypedDict):
        __pydantic_config__ = strict  # type: ignore[misc]
        url: str
        method: NotRequired[meth_]
        headers: NotRequired[dict[str, str] | None]
        timeout: NotRequired[float]
        body: NotRequired[str | None]

    class CalendarEvent(TypedDict):
        __pydantic_config__ = strict  # type: ignore[misc]
        title: str
        start: dt_
        end: dt_
        event_id: uid_
        attendees: list[AttendeeModel]
        location: NotRequired[str | None]
        reminders: NotRequired[list[int] | None]

    class FileWrite(TypedDict):
        __pydantic_config__ = strict  # type: ignore[misc]
        path: str
        content: str
        mode: NotRequired[Literal["w", "a"]]
        encoding: NotRequired[str]

    class Search(TypedDict):
        __pydantic_config__ = strict  # type: ignore[misc]
        query: str
        filters: NotRequired[FiltersModel | None]
        page: NotRequired[int]

    class Sql(TypedDict):
        __pydantic_config__ = strict  # type: ignore[misc]
        query: str
        params: NotRequired[list[str | int | float | bool | None] | None]
        database: NotRequired[str]
        read_only: NotRequired[bool]

    def values_of(kind: Any) -> Any:
        class Values(TypedDict):
            __pydantic_config__ = strict  # type: ignore[misc]
            values: list[kind]  # type: ignore[valid-type]

        return Values

    types = {
        "web_fetch": WebFetch,
        "calendar_event": CalendarEvent,
        "file_write": FileWrite,
        "search": Search,
        "sql": Sql,
        "datetimes": values_of(dt_),
        "dates": values_of(day_),
        "times": values_of(tm_),
        "uuids": values_of(uid_),
    }
    return {name: pydantic.TypeAdapter(kind) for name, kind in types.items()}


def msgspec_types() -> dict[str, Any]:
    import msgspec

    class AttendeeS(msgspec.Struct, forbid_unknown_fields=True):
        email: str
        name: str | None = None
        optional: bool = False

    class FiltersS(msgspec.Struct, forbid_unknown_fields=True):
        site: str | None = None
        after: date | None = None
        languages: list[str] = msgspec.field(default_factory=list)
        max_results: int = 10

    class WebFetchS(msgspec.Struct, forbid_unknown_fields=True):
        url: str
        method: Method = Method.GET
        headers: dict[str, str] | None = None
        timeout: float = 30.0
        body: str | None = None

    class CalendarEventS(msgspec.Struct, forbid_unknown_fields=True):
        title: str
        start: datetime
        end: datetime
        event_id: uuid.UUID
        attendees: list[AttendeeS]
        location: str | None = None
        reminders: list[int] | None = None

    class FileWriteS(msgspec.Struct, forbid_unknown_fields=True):
        path: str
        content: str
        mode: Literal["w", "a"] = "w"
        encoding: str = "utf-8"

    class SearchS(msgspec.Struct, forbid_unknown_fields=True):
        query: str
        filters: FiltersS | None = None
        page: int = 1

    class SqlS(msgspec.Struct, forbid_unknown_fields=True):
        query: str
        params: list[str | int | float | bool | None] | None = None
        database: str = "main"
        read_only: bool = True

    def values_of(kind: Any) -> Any:
        class ValuesS(msgspec.Struct, forbid_unknown_fields=True):
            values: list[kind]  # type: ignore[valid-type]

        return ValuesS

    return {
        "web_fetch": WebFetchS,
        "calendar_event": CalendarEventS,
        "file_write": FileWriteS,
        "search": SearchS,
        "sql": SqlS,
        "datetimes": values_of(datetime),
        "dates": values_of(date),
        "times": values_of(dtime),
        "uuids": values_of(uuid.UUID),
    }


def _count_body(values: list[Any]) -> int:
    return len(values)


def body_of(name: str) -> Callable[..., Any]:
    return BODIES.get(name, _count_body)


# ------------------------------------------------------------------------------------ contenders


@dataclass
class Contender:
    name: str
    make: Callable[[str, bool], Call]  # (tool, text input?) -> call


def make_ours(tools: dict[str, Any]) -> Callable[[str, bool], Call]:
    def make(tool: str, _text: bool) -> Call:
        return tools[tool].dynamic_call

    return make


def make_pydantic(adapters: dict[str, Any]) -> Callable[[str, bool], Call]:
    def make(tool: str, text: bool) -> Call:
        adapter = adapters[tool]
        body = body_of(tool)
        validate = adapter.validate_json if text else adapter.validate_python

        def call(arguments: Any) -> Any:
            return body(**validate(arguments))

        return call

    return make


def make_msgspec(types: dict[str, Any]) -> Callable[[str, bool], Call]:
    import msgspec

    def make(tool: str, text: bool) -> Call:
        kind = types[tool]
        body = body_of(tool)
        fields = kind.__struct_fields__
        if text:
            decode = msgspec.json.Decoder(kind, strict=True).decode
        else:

            def decode(arguments: Any) -> Any:
                return msgspec.convert(arguments, kind, strict=True)

        def call(arguments: Any) -> Any:
            value = decode(arguments)
            return body(**{name: getattr(value, name) for name in fields})

        return call

    return make


def contenders() -> tuple[list[Contender], list[str]]:
    found = [Contender("typed_toolsets", make_ours(typed_toolsets_tools()))]
    missing: list[str] = []
    try:
        found.append(Contender("pydantic", make_pydantic(pydantic_adapters())))
    except ImportError as exc:
        missing.append(f"pydantic: {exc}")
    try:
        found.append(Contender("msgspec", make_msgspec(msgspec_types())))
    except ImportError as exc:
        missing.append(f"msgspec: {exc}")
    return found, missing


# ---------------------------------------------------------------------------------- the corpus

WORDS = [
    "alpha",
    "beta",
    "gamma",
    "delta",
    "report",
    "quarterly",
    "sales",
    "revenue",
    "growth",
    "plan",
    "review",
    "team",
    "project",
    "deploy",
    "service",
    "latency",
    "error",
    "budget",
    "customer",
    "invoice",
    "shipping",
    "order",
    "status",
    "draft",
    "final",
    "meeting",
    "notes",
    "action",
    "items",
    "python",
    "asyncio",
    "tutorial",
    "schema",
    "migration",
    "index",
    "cache",
]
OFFSETS = ["Z", "+02:00", "-05:00", "+05:30", "Z", "+00:00"]


def _words(rng: random.Random, count: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(count))


def _moment(rng: random.Random) -> datetime:
    return datetime(2025, 1, 1) + timedelta(minutes=rng.randrange(0, 365 * 24 * 60, 15))


def _rfc3339(moment: datetime, offset: str, *, fraction: bool) -> str:
    text = moment.strftime("%Y-%m-%dT%H:%M:%S")
    if fraction:
        text += f".{moment.microsecond or 250:06d}"[:4]
    return text + offset


def _web_fetch(rng: random.Random, i: int) -> dict[str, Any]:
    args: dict[str, Any] = {
        "url": f"https://api.example.com/v{rng.randint(1, 3)}/{rng.choice(WORDS)}/{i}"
        f"?q={rng.choice(WORDS)}&page={rng.randint(1, 9)}",
    }
    if rng.random() < 0.7:
        args["headers"] = {
            "Accept": "application/json",
            "Authorization": f"Bearer tok_{rng.getrandbits(64):016x}",
            "X-Request-Id": str(uuid.UUID(int=rng.getrandbits(128))),
        }
    if rng.random() < 0.5:
        args["method"] = rng.choice(["GET", "POST", "PUT", "DELETE"])
    if rng.random() < 0.3:
        args["timeout"] = rng.choice([5.0, 10.0, 12.5, 60.0])
    if args.get("method") in ("POST", "PUT"):
        args["body"] = json.dumps({"name": _words(rng, 2), "count": rng.randint(0, 99)})
    return args


def _calendar_event(rng: random.Random, _i: int) -> dict[str, Any]:
    start = _moment(rng)
    offset = rng.choice(OFFSETS)
    title = _words(rng, 3).capitalize()
    if rng.random() < 0.4:
        title = "Sync: " + title
    args: dict[str, Any] = {
        "title": title,
        "start": _rfc3339(start, offset, fraction=rng.random() < 0.2),
        "end": _rfc3339(
            start + timedelta(minutes=rng.choice([30, 45, 60, 90])), offset, fraction=False
        ),
        "event_id": str(uuid.UUID(int=rng.getrandbits(128))),
        "attendees": [
            {"email": f"{rng.choice(WORDS)}{k}@example.com", "name": rng.choice(WORDS).title()}
            | ({"optional": True} if rng.random() < 0.3 else {})
            for k in range(rng.randint(1, 6))
        ],
    }
    if rng.random() < 0.6:
        args["location"] = rng.choice(
            ["Room 4B", "https://meet.example.com/abc-defg-hij", "Cafe on 5th", "mailto:desk@x.io"]
        )
    if rng.random() < 0.5:
        args["reminders"] = rng.sample([5, 10, 15, 30, 60, 1440], rng.randint(1, 3))
    return args


CODE = '''def {name}(items, limit={limit}):
    """Return the first {limit} {word} items."""
    result = {{"count": 0, "items": []}}
    for item in items[:limit]:
        if item.get("{word}"):
            result["items"].append(item)
            result["count"] += 1
    return result

'''
PROSE = "The {word} report is ready for review by the {other} team before the release.\n"


def _file_write(rng: random.Random, i: int) -> dict[str, Any]:
    if rng.random() < 0.75:
        content = "".join(
            CODE.format(
                name=f"{rng.choice(WORDS)}_{k}", limit=rng.randint(2, 50), word=rng.choice(WORDS)
            )
            for k in range(rng.randint(1, 8))
        )
        path = f"src/pkg/{rng.choice(WORDS)}_{i}.py"
    else:
        content = "".join(
            PROSE.format(word=rng.choice(WORDS), other=rng.choice(WORDS))
            for _ in range(rng.randint(2, 30))
        )
        path = f"notes/{rng.choice(WORDS)}_{i}.txt"
    args: dict[str, Any] = {"path": path, "content": content}
    if rng.random() < 0.2:
        args["mode"] = "a"
    return args


def _search(rng: random.Random, _i: int) -> dict[str, Any]:
    query = _words(rng, rng.randint(2, 6))
    if rng.random() < 0.2:
        query = "site:docs.python.org " + query
    args: dict[str, Any] = {"query": query}
    if rng.random() < 0.7:
        filters: dict[str, Any] = {
            "languages": rng.sample(["en", "de", "fr", "ja"], rng.randint(1, 2))
        }
        if rng.random() < 0.5:
            filters["site"] = rng.choice(["docs.python.org", "stackoverflow.com", "github.com"])
        if rng.random() < 0.5:
            filters["after"] = _moment(rng).date().isoformat()
        if rng.random() < 0.5:
            filters["max_results"] = rng.choice([5, 10, 20, 50])
        args["filters"] = filters
    if rng.random() < 0.3:
        args["page"] = rng.randint(2, 5)
    return args


def _sql(rng: random.Random, _i: int) -> dict[str, Any]:
    table = rng.choice(["users", "orders", "invoices", "events"])
    args: dict[str, Any] = {
        "query": f"SELECT id, name, created_at FROM {table} WHERE status = ? AND created_at > ? "
        f"ORDER BY created_at DESC LIMIT {rng.randint(1, 100)}",
        "params": [rng.choice(["active", "pending", "closed"]), _moment(rng).date().isoformat()],
    }
    if rng.random() < 0.3:
        args["query"] = f"SELECT * FROM {table} WHERE id = :id AND owner = :owner"
        args["params"] = [rng.randint(1, 10**6), rng.choice(WORDS), rng.random() < 0.5, None, 2.5]
    if rng.random() < 0.3:
        args["database"] = rng.choice(["analytics", "replica"])
    if rng.random() < 0.2:
        args["read_only"] = False
    return args


GENERATORS: dict[str, Callable[[random.Random, int], dict[str, Any]]] = {
    "web_fetch": _web_fetch,
    "calendar_event": _calendar_event,
    "file_write": _file_write,
    "search": _search,
    "sql": _sql,
}
TOOLS = tuple(GENERATORS)


def corpus(per_tool: int = 200, seed: int = 15) -> dict[str, list[dict[str, Any]]]:
    rng = random.Random(seed)
    payloads = {name: [make(rng, i) for i in range(per_tool)] for name, make in GENERATORS.items()}
    # One large file with a single colon, as the issue measured.
    payloads["file_write"][-1] = {"path": "data/big.txt", "content": big_string(108_000)}
    return payloads


def big_string(size: int) -> str:
    line = "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor\n"
    text = (line * (size // len(line) + 1))[: size - 20]
    return "Note: " + text + " end of file"


def has_colon_in_a_string(arguments: dict[str, Any]) -> bool:
    return ":" in json.dumps(arguments).replace('":', '"')


# -------------------------------------------------------------------------------------- timing


@dataclass
class Series:
    """Round figures (ns) of one contender on one measured thing."""

    samples: list[float] = field(default_factory=list)

    @property
    def median(self) -> float:
        return statistics.median(self.samples)

    def spread(self) -> str:
        low, high = min(self.samples), max(self.samples)
        return f"{low / self.median:.2f}-{high / self.median:.2f}"


def time_calls(call: Call, inputs: list[Any], repeat: int = 1) -> float:
    start = time.perf_counter_ns()
    for _ in range(repeat):
        for arguments in inputs:
            call(arguments)
    return (time.perf_counter_ns() - start) / repeat


def interleaved(
    entries: dict[str, tuple[Call, list[Any]]], rounds: int, repeat: int = 1
) -> dict[str, Series]:
    """Time each entry once per round, entries interleaved; ns per pass over its inputs."""
    series = {name: Series() for name in entries}
    for call, inputs in entries.values():
        time_calls(call, inputs)  # warm up: hooks, caches, first imports
    gc.collect()
    gc.freeze()
    try:
        for _ in range(rounds):
            for name, (call, inputs) in entries.items():
                series[name].samples.append(time_calls(call, inputs, repeat))
    finally:
        gc.unfreeze()
    return series


def check_agreement(found: list[Contender], tool: str, inputs: list[Any], *, text: bool) -> None:
    """Every contender accepts every payload (and ours matches pydantic's result)."""
    results: dict[str, list[Any]] = {}
    for contender in found:
        call = contender.make(tool, text)
        outcome = []
        for arguments in inputs:
            try:
                outcome.append(call(arguments))
            except Exception as exc:
                raise SystemExit(f"{contender.name} refused a {tool} payload: {exc}") from None
        results[contender.name] = outcome
    ours = results["typed_toolsets"]
    for name, outcome in results.items():
        if outcome != ours:
            raise SystemExit(f"{name} disagrees with typed_toolsets on {tool}")


# -------------------------------------------------------------------------------------- report


def ratio_cell(ours: Series, other: Series | None) -> str:
    return f"{ours.median / other.median:5.2f}" if other is not None else "  n/a"


def corpus_table(
    found: list[Contender], payloads: dict[str, list[Any]], text: bool, rounds: int
) -> dict[str, dict[str, Series]]:
    """Per tool and contender: ns per pass over the tool's payloads (rounds interleaved)."""
    form = "JSON text" if text else "dict"
    inputs = {tool: [json.dumps(p) if text else p for p in payloads[tool]] for tool in payloads}
    for tool in TOOLS:
        check_agreement(found, tool, inputs[tool], text=text)
    entries: dict[str, tuple[Call, list[Any]]] = {}
    for contender in found:
        for tool in TOOLS:
            entries[f"{contender.name}/{tool}"] = (contender.make(tool, text), inputs[tool])
    timed = interleaved(entries, rounds, repeat=10)  # ~10 ms per sample
    by: dict[str, dict[str, Series]] = {c.name: {} for c in found}
    for key, series in timed.items():
        name, tool = key.split("/")
        by[name][tool] = series
    # Corpus totals per round: the sum of the tools' figures in that round.
    for contender in found:
        rows = by[contender.name]
        total = Series([sum(rows[t].samples[r] for t in TOOLS) for r in range(rounds)])
        rows["corpus"] = total
    print(f"\nCorpus as {form}: us per payload (median of {rounds} interleaved rounds, spread)")
    header = f"{'':16}" + "".join(f"{c.name:>28}" for c in found) + "   ours/pydantic  ours/msgspec"
    print(header)
    for tool in (*TOOLS, "corpus"):
        count = sum(len(payloads[t]) for t in TOOLS) if tool == "corpus" else len(payloads[tool])
        cells = []
        for contender in found:
            series = by[contender.name][tool]
            cells.append(f"{series.median / count / 1000:10.2f} ({series.spread()})")
        ours = by["typed_toolsets"][tool]
        pyd = by.get("pydantic", {}).get(tool)
        msg = by.get("msgspec", {}).get(tool)
        print(
            f"{tool:<16}"
            + "".join(f"{c:>28}" for c in cells)
            + f"   {ratio_cell(ours, pyd):>13}  {ratio_cell(ours, msg):>12}"
        )
    return by


def per_value_table(found: list[Contender], rounds: int) -> dict[str, float]:
    """RFC 3339 and UUID strings, 64 per call: ratio to pydantic per value."""
    rng = random.Random(3)
    kinds: dict[str, list[str]] = {
        "date-time Z": [_rfc3339(_moment(rng), "Z", fraction=False) for _ in range(64)],
        "date-time +02:00": [_rfc3339(_moment(rng), "+02:00", fraction=False) for _ in range(64)],
        "date-time mixed": [
            _rfc3339(_moment(rng), rng.choice(OFFSETS), fraction=rng.random() < 0.3)
            for _ in range(64)
        ],
        "date": [_moment(rng).date().isoformat() for _ in range(64)],
        "time": [
            _rfc3339(_moment(rng), rng.choice(OFFSETS), fraction=False)[11:] for _ in range(64)
        ],
        "uuid": [str(uuid.UUID(int=rng.getrandbits(128))) for _ in range(64)],
    }
    tools = {
        "date-time Z": "datetimes",
        "date-time +02:00": "datetimes",
        "date-time mixed": "datetimes",
        "date": "dates",
        "time": "times",
        "uuid": "uuids",
    }
    ratios: dict[str, float] = {}
    print("\nRFC 3339 and UUID strings: ns per value (64 per call, JSON text), median of rounds")
    print(f"{'':20}" + "".join(f"{c.name:>22}" for c in found) + "   ours/pydantic")
    for kind, values in kinds.items():
        text = json.dumps({"values": values})
        check_agreement(found, tools[kind], [text], text=True)
        entries = {c.name: (c.make(tools[kind], AS_TEXT), [text]) for c in found}
        timed = interleaved(entries, rounds, repeat=50)
        cells = [f"{timed[c.name].median / 64:14.0f} ({timed[c.name].spread()})" for c in found]
        ratio = (
            timed["typed_toolsets"].median / timed["pydantic"].median
            if "pydantic" in timed
            else float("nan")
        )
        ratios[kind] = ratio
        print(f"{kind:<20}" + "".join(f"{c:>22}" for c in cells) + f"   {ratio:13.2f}")
    return ratios


def large_string_table(
    found: list[Contender], rounds: int
) -> tuple[dict[int, float], dict[int, float]]:
    """One large string per call: ns per byte, and the ratio to pydantic, per size."""
    per_byte: dict[int, float] = {}
    ratios: dict[int, float] = {}
    print("\nOne large string (file_write content, one colon): ns per byte, median of rounds")
    print(f"{'':12}" + "".join(f"{c.name:>22}" for c in found) + "   ours/pydantic")
    for size in (10_000, 108_000, 900_000):
        text = json.dumps({"path": "big.txt", "content": big_string(size)})
        check_agreement(found, "file_write", [text], text=True)
        entries = {c.name: (c.make("file_write", AS_TEXT), [text]) for c in found}
        repeat = max(1, 2_000_000 // size)
        timed = interleaved(entries, rounds, repeat=repeat)
        cells = [
            f"{timed[c.name].median / len(text):14.3f} ({timed[c.name].spread()})" for c in found
        ]
        ours = timed["typed_toolsets"].median
        per_byte[size] = ours / len(text)
        ratios[size] = ours / timed["pydantic"].median if "pydantic" in timed else float("nan")
        print(f"{size:>10,}  " + "".join(f"{c:>22}" for c in cells) + f"   {ratios[size]:13.2f}")
    return per_byte, ratios


def other_rows(found: list[Contender], rounds: int) -> None:
    """A call the fast path hands over, and (for information) a rejected call."""
    tools = typed_toolsets_tools()
    fetch = tools["web_fetch"]
    plain = json.dumps({"url": "https://example.com/a:b", "headers": {"X-Note": "Note: hi"}})
    escaped = plain.replace("Note:", "Note\\u003a")  # an escaped colon beside real ones
    rejected = json.dumps(
        {
            "title": "t",
            "start": "2025-01-01T10:00:00Z",
            "end": "2025-01-01T11:00:00Z",
            "event_id": str(uuid.UUID(int=5)),
            "attendees": [{"email": "a@example.com", "optional": "yes"}],
        }
    )
    entries: dict[str, tuple[Call, list[Any]]] = {
        "fast path": (fetch.dynamic_call, [plain]),
        "handed over": (fetch.dynamic_call, [escaped]),
        "rejected (ours)": (tools["calendar_event"].dynamic_call, [rejected]),
    }
    pydantic_found = [c for c in found if c.name == "pydantic"]
    if pydantic_found:
        adapter_call = pydantic_found[0].make("calendar_event", AS_TEXT)

        def refused(arguments: Any) -> Any:
            try:
                return adapter_call(arguments)
            except ValueError as exc:
                return str(exc)

        entries["rejected (pydantic)"] = (refused, [rejected])
    timed = interleaved(entries, rounds, repeat=200)
    fast, over = timed["fast path"].median, timed["handed over"].median
    print("\nOther calls: us per call, median of rounds")
    print(f"  web_fetch taken by the fast path       {fast / 1000:8.2f}")
    print(f"  web_fetch handed to the exact path     {over / 1000:8.2f}  ({over / fast:.1f} x)")
    ours = timed["rejected (ours)"].median
    line = f"  [info] rejected calendar_event (ours)  {ours / 1000:8.2f}"
    if "rejected (pydantic)" in timed:
        line += f"  ({ours / timed['rejected (pydantic)'].median:.1f} x pydantic; issue 17 owns it)"
    print(line)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer rounds")
    options = parser.parse_args()
    rounds = 7 if options.quick else 21

    found, missing = contenders()
    for line in missing:
        print(f"not measured: {line}")
    payloads = corpus()
    count = sum(len(p) for p in payloads.values())
    colons = sum(has_colon_in_a_string(p) for ps in payloads.values() for p in ps)
    print(f"{count:,} payloads, {colons / count:.0%} with a colon inside a string")

    failures: list[str] = []
    goals: list[tuple[str, float, float]] = []
    for text in (True, False):
        by = corpus_table(found, payloads, text, rounds)
        if "pydantic" in by:
            ratio = by["typed_toolsets"]["corpus"].median / by["pydantic"]["corpus"].median
            goals.append((f"corpus as {'JSON text' if text else 'dicts'}", ratio, 1.0))
    value_ratios = per_value_table(found, rounds)
    goals += [(f"{kind} per value", ratio, 1.5) for kind, ratio in value_ratios.items()]
    per_byte, byte_ratios = large_string_table(found, rounds)
    goals += [(f"large string of {size:,} B per byte", r, 2.0) for size, r in byte_ratios.items()]
    other_rows(found, rounds)

    print("\nGoals")
    for what, ratio, limit in goals:
        ok = ratio <= limit
        shown = f"{what}: {ratio:.2f} x pydantic (<= {limit})"
        check(failures, ok, shown, f"{what} is {ratio:.2f} x pydantic")
    linear = per_byte[900_000] / per_byte[108_000]
    ok = linear <= 1.3
    check(
        failures,
        ok,
        f"large strings linear: 900 KB / 108 KB per byte {linear:.2f} (<= 1.30)",
        f"large strings not linear ({linear:.2f})",
    )
    return status(failures)


if __name__ == "__main__":
    sys.exit(main())
