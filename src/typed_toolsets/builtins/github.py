"""The implementation of `typed_toolsets.github` (documented there)."""

from __future__ import annotations

import functools
import json
import math
import re
import signal
from collections.abc import Callable, Mapping, Sequence
from json import JSONDecodeError
from types import MappingProxyType
from typing import Annotated, Final

import attrs
from annotated_types import Ge, Le, MaxLen

from typed_toolsets import ToolAnnotations, Toolset, tool
from typed_toolsets._public import public_in
from typed_toolsets.definition.validators import positive_int, positive_seconds
from typed_toolsets.rules.controls import escape_controls
from typed_toolsets.rules.sendable import not_finite, too_large, valid_text

from .exceptions import (
    BuiltinToolError,
    InputTooLargeError,
    InvalidArgumentError,
    OutputTooLargeError,
    ProgramFailedError,
    ProgramNotFoundError,
    ProgramTimeoutError,
)
from .github_args import (
    DEFAULT_HOST,
    MAX_ENDPOINT_CHARS,
    MAX_FIELDS,
    MAX_LABELS,
    MAX_LIMIT,
    MAX_NUMBER,
    MAX_VALUE_CHARS,
    IssueState,
    PRState,
    api_arguments,
    check_hostname,
    check_method,
    gh_environment,
    issue_list_arguments,
    issue_view_arguments,
    pr_list_arguments,
    pr_view_arguments,
    traffic_arguments,
)
from .github_formats import (
    format_issue,
    format_issue_list,
    format_pr,
    format_pr_list,
    format_traffic,
)
from .outputs import cap_answer, decode_output, redact, redact_cut_end
from .process import ProcessResult
from .programs import failure_line, first_line, run_program

__all__ = [
    "BuiltinToolError",
    "GitHubCLIToolset",
    "InputTooLargeError",
    "InvalidArgumentError",
    "IssueState",
    "OutputTooLargeError",
    "PRState",
    "ProgramFailedError",
    "ProgramNotFoundError",
    "ProgramTimeoutError",
]

Limit = Annotated[int, Ge(1), Le(MAX_LIMIT)]
Number = Annotated[int, Ge(1), Le(MAX_NUMBER)]
Repo = Annotated[str, MaxLen(141)]
Login = Annotated[str, MaxLen(100)]
Labels = Annotated[Sequence[Annotated[str, MaxLen(100)]], MaxLen(MAX_LABELS)]
# Bounded in the schema too (security.md JSON-7), so a model is told in the arguments' terms;
# a key's own rule (a query parameter's name) stays `check_fields`'s.
Fields = Annotated[Mapping[str, Annotated[str, MaxLen(MAX_VALUE_CHARS)]], MaxLen(MAX_FIELDS)]

_NO_FIELDS: Final[Fields] = MappingProxyType({})
_INSTALL: Final = "install the GitHub CLI (Debian/Ubuntu: apt-get install gh)"
_TIMEOUT_HINT: Final = "try again later, or ask for fewer results"
_GET_ONLY: Final = "Error: Only GET requests are allowed for read-only access"


class _NotFiniteError(ValueError):
    """gh's JSON holds ``NaN``, ``Infinity`` or a number past a float's range."""


def _reject_constant(name: str) -> object:
    raise _NotFiniteError(not_finite(name))


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        msg = f"{too_large(text)} to read (past 1.8e308)"
        raise _NotFiniteError(msg)
    return value


#: Reads gh's JSON as JSON is: Python's parser takes ``NaN`` and ``Infinity`` (and reads ``1e400``
#: as infinity), which the formats would show as ``nan`` and ``inf``, and ``json.dumps`` as
#: ``NaN``, which is no JSON.
_DECODER: Final = json.JSONDecoder(parse_constant=_reject_constant, parse_float=_finite_float)


def _valid_hostname(_instance: object, _attribute: attrs.Attribute[str], value: str) -> None:
    check_hostname(value)


@attrs.frozen
class _Query:
    """One of the seed's gh tools that print JSON: its failure strings and its output format.

    Attributes:
        failed: Prefix of gh's own failure message (``Failed to list issues``).
        parsed: What the JSON is, in the parse-failure string (``issues data``).
        error: Prefix of a formatting failure (``Error listing issues``).
        render: The seed's output format for the parsed JSON.
        hint: The advice of the note on an answer cut at the cap, with its leading ``; ``
            (none for one issue or pull request, whose answer fewer results cannot shorten).
        too_large: The advice when gh's JSON itself was cut at the cap, with its leading ``; ``.
    """

    failed: str
    parsed: str
    error: str
    render: Callable[[object], str]
    hint: str
    too_large: str


_FEWER: Final = "; ask for fewer results"
_WEEKLY: Final = '; ask for weekly counts (`per`: "week")'


def _one(what: str, endpoint: str) -> str:
    """The advice when gh's JSON of one issue or pull request (*what*) is past the cap."""
    return (
        f"; this one {what} is larger than that, so fewer results cannot help: "
        f"github_api_request with the endpoint '{endpoint}' shows its first part"
    )


def _traffic_query(kind: str) -> _Query:
    return _Query(
        f"Failed to fetch traffic {kind}",
        "traffic data",
        f"Error fetching traffic {kind}",
        functools.partial(format_traffic, label=kind.capitalize()),
        _WEEKLY,
        _WEEKLY,
    )


_ISSUES: Final = _Query(
    "Failed to list issues",
    "issues data",
    "Error listing issues",
    format_issue_list,
    _FEWER,
    _FEWER,
)
_PRS: Final = _Query(
    "Failed to list pull requests",
    "pull requests data",
    "Error listing pull requests",
    format_pr_list,
    _FEWER,
    _FEWER,
)
_ISSUE: Final = _Query(
    "Failed to get issue",
    "issue details",
    "Error getting issue",
    format_issue,
    "",
    _one("issue", "repos/OWNER/NAME/issues/NUMBER"),
)
_PR: Final = _Query(
    "Failed to get pull request",
    "pull request details",
    "Error getting pull request",
    format_pr,
    "",
    _one("pull request", "repos/OWNER/NAME/pulls/NUMBER"),
)
_VIEWS: Final = _traffic_query("views")
_CLONES: Final = _traffic_query("clones")


def _crashed(result: ProcessResult, named: str | None) -> bool:
    """Whether gh died of a signal it was not sent by us, or of a Go panic or fatal error.

    *named* is `_crash_named` of its stderr.

    Go prints ``panic: ...`` or ``fatal error: ...`` and then a dump of every goroutine's stack
    (exit status 2); gh's ordinary failures (exit 1, 4) are one message from GitHub or gh.
    """
    if result.returncode < 0:
        return result.ended_by == "exit"
    return named is not None and b"goroutine " in result.stderr


def _uncut_secrets(result: ProcessResult, secrets: list[str]) -> tuple[bytes, bytes]:
    """Gh's stdout and stderr, what is left of a token where they were cut at the cap redacted.

    A token cut in two is no longer found whole by `redact`. Not applied to the result itself:
    whether gh was writing its error is told by the lengths of what it wrote.
    """
    if not result.truncated:
        return result.stdout, result.stderr
    return redact_cut_end(result.stdout, secrets), redact_cut_end(result.stderr, secrets)


#: How Go begins the report of a crash, on a line of its own: a panic, a fatal error, or a
#: signal it dies of with a dump (``SIGQUIT: quit``, then ``PC=`` and the goroutines).
_CRASHES: Final = (b"panic: ", b"fatal error: ")
_SIGNAL_DUMP: Final = re.compile(rb"SIG(?:QUIT|ABRT|SEGV|BUS|FPE|ILL|TRAP|SYS): ")


def _crash_named(stderr: bytes) -> str | None:
    """The line of *stderr* that says why Go crashed (``panic: ...``), if it has one."""
    for line in stderr.split(b"\n"):
        if line.startswith(_CRASHES) or _SIGNAL_DUMP.match(line):
            return decode_output(line)
    return None


# ------------------------------------------------------------------------------------ toolset


@public_in("typed_toolsets.github")
@attrs.define
class GitHubCLIToolset(Toolset):
    """Read-only GitHub tools (issues, pull requests, API GET requests, traffic) through ``gh``.

    Attributes:
        timeout: Seconds gh may run before its process group is killed.
        max_output_bytes: Cap on what gh may print (stdout and stderr together), and on the
            answer as returned (escaped; a failure's ``Failed to ...: `` prefix on top).
        hostname: The GitHub host requests go to (gh gets it as ``GH_HOST``, github.com too);
            only the token for this host is passed to gh (``GH_TOKEN``/``GITHUB_TOKEN`` for
            github.com, github.localhost and a GHE.com tenancy, ``*.ghe.com``;
            ``GH_ENTERPRISE_TOKEN`` or ``GITHUB_ENTERPRISE_TOKEN`` for any other).
    """

    toolset_name = "github"
    tool_annotations = ToolAnnotations(read_only_hint=True, open_world_hint=True)
    exports = (
        tool("list_issues", description="List GitHub issues with optional filters"),
        tool("list_prs", description="List GitHub pull requests with optional filters"),
        tool("get_issue", description="Get details of a specific GitHub issue"),
        tool("get_pr", description="Get details of a specific GitHub pull request"),
        tool("api_request", description="Make an arbitrary GitHub API request"),
        tool(
            "traffic_views",
            description="Get repository traffic views (last 14 days by default)",
        ),
        tool(
            "traffic_clones",
            description="Get repository traffic clones (last 14 days by default)",
        ),
    )

    timeout: float = attrs.field(default=30.0, validator=positive_seconds)
    max_output_bytes: int = attrs.field(default=1_000_000, validator=positive_int)
    hostname: str = attrs.field(default=DEFAULT_HOST, validator=_valid_hostname)

    def _gh(self, arguments: list[str]) -> tuple[ProcessResult, list[str]]:
        env, secrets = gh_environment(check_hostname(self.hostname))
        result = run_program(
            "gh",
            arguments,
            env=env,
            input_bytes=None,
            timeout=self.timeout,
            max_output_bytes=self.max_output_bytes,
            install_hint=_INSTALL,
            timeout_hint=_TIMEOUT_HINT,
        )
        return result, secrets

    def _failure(self, result: ProcessResult, secrets: list[str]) -> str | None:
        """The message of a failed gh run (the seed's merged output), or None when it succeeded.

        A run cut at the output cap succeeded as far as it went (gh exited 0 first, or we killed
        it there): `_query` and `api_request` say it was cut. Unless gh had written more to
        stderr than to stdout: then it was writing its error, which is the answer, cut.

        Raises:
            ProgramFailedError: gh crashed; the message is one line with its exit status.
        """
        if result.returncode == 0:
            return None  # a whole result, or one cut at the cap (the callers say which)
        killed_at_cap = result.truncated and result.returncode == -signal.SIGKILL
        if killed_at_cap and len(result.stderr) <= len(result.stdout):
            # Killed by us at the cap while printing: a cut result, not a failure of gh, even
            # if gh also wrote to stderr (a warning, a progress line).
            return None
        # Killed at the cap while writing mostly to stderr: gh's error (or crash), not a result.
        stdout, stderr = _uncut_secrets(result, secrets)
        crash = _crash_named(stderr)
        if killed_at_cap and crash is not None:
            # Redacted before the line is cut: a token cut in two would no longer be found.
            line = f"gh failed: {first_line(redact(crash, secrets))}"
        elif _crashed(result, crash):
            # What gh said on stderr, only: its stdout is the result it was printing (a crash
            # quoted the first line of GitHub's data as its reason).
            printed = decode_output(stderr) if crash is None else crash
            line = failure_line("gh", result, redact(printed, secrets))
        else:
            text = (stdout + stderr).decode("utf-8", "replace")
            if not text.strip():
                # The seed's answer would end at its colon: the status is all there is to tell.
                return failure_line("gh", result)
            return self._render(text, secrets, "gh's output", cut=result.truncated)
        msg = redact(f"{line} (gh crashed; its crash report is not shown)", secrets)
        raise ProgramFailedError(msg)

    def _render(
        self,
        text: str,
        secrets: list[str],
        what: str,
        hint: str = "",
        *,
        cut: bool = False,
        json: bool = False,
    ) -> str:
        r"""*text* escaped, its secrets redacted, within `max_output_bytes` or cut with a note.

        Capped as returned, like a text tool's answer: escaping writes a control byte as four
        characters, and a format spells out more than gh's JSON held. Redacting comes first, so
        that a cut cannot leave part of a token. A lone surrogate (a ``\ud800`` escape in gh's
        JSON) is shown as U+FFFD, as an undecodable byte is: the answer is always UTF-8 text.

        Args:
            text: What gh printed, decoded, or the seed's format of it.
            secrets: Token values to redact.
            what: What the note says was too long (``the response``).
            hint: The note's advice, with its leading ``; ``.
            cut: gh's output was already cut at the cap: add the note even if the text fits.
            json: *text* is gh's JSON: control characters are escaped as JSON escapes them.
        """
        note = f"[truncated: {what} exceeded {self.max_output_bytes:,} bytes{hint}]"
        answer = redact(escape_controls(valid_text(text), json=json), secrets)
        return cap_answer(answer, max_bytes=self.max_output_bytes, note=note, cut=cut)

    def _query(self, arguments: list[str], query: _Query) -> str:
        """Run gh for JSON and answer as the seed does: its format, or its failure strings."""
        result, secrets = self._gh(arguments)
        failure = self._failure(result, secrets)
        if failure is not None:
            return f"{query.failed}: {failure}"
        if result.truncated:
            msg = (
                f"gh printed more than the {self.max_output_bytes:,}-byte output cap "
                f"({query.parsed}){query.too_large}"
            )
            raise OutputTooLargeError(msg)
        try:
            data = _DECODER.decode(result.stdout.decode("utf-8", "replace"))
        except RecursionError:  # its message speaks of Python's stack, not of the JSON
            return f"Failed to parse {query.parsed}: the JSON is nested too deeply"
        except (JSONDecodeError, _NotFiniteError) as exc:
            return f"Failed to parse {query.parsed}: {exc}"
        except ValueError:  # int() past the interpreter's digit limit: it names sys settings
            return f"Failed to parse {query.parsed}: a number has too many digits to read"
        try:
            return self._render(query.render(data), secrets, "the answer", query.hint)
        except TypeError as exc:
            return f"{query.error}: {exc}"

    def list_issues(
        self,
        *,
        state: IssueState = IssueState.OPEN,
        labels: Labels = (),
        assignee: Login | None = None,
        repo: Repo | None = None,
        limit: Limit = 20,
    ) -> str:
        """List issues.

        Args:
            state: Which issues to list: open, closed or all.
            labels: Only issues with all of these labels.
            assignee: Only issues assigned to this login ("@me" for yourself).
            repo: The repository as OWNER/NAME; default: the one of the working directory.
            limit: The most issues to list (1 to 1000).
        """
        arguments = issue_list_arguments(
            state=state, labels=labels, assignee=assignee, repo=repo, limit=limit
        )
        return self._query(arguments, _ISSUES)

    def list_prs(
        self,
        *,
        state: PRState = PRState.OPEN,
        author: Login | None = None,
        base: Annotated[str, MaxLen(255)] | None = None,
        repo: Repo | None = None,
        limit: Limit = 20,
    ) -> str:
        """List pull requests.

        Args:
            state: Which pull requests to list: open, closed, merged or all.
            author: Only pull requests opened by this login ("@me" for yourself).
            base: Only pull requests into this base branch.
            repo: The repository as OWNER/NAME; default: the one of the working directory.
            limit: The most pull requests to list (1 to 1000).
        """
        arguments = pr_list_arguments(state=state, author=author, base=base, repo=repo, limit=limit)
        return self._query(arguments, _PRS)

    def get_issue(self, *, issue_number: Number, repo: Repo | None = None) -> str:
        """Show one issue with its body.

        Args:
            issue_number: The issue number.
            repo: The repository as OWNER/NAME; default: the one of the working directory.
        """
        return self._query(issue_view_arguments(number=issue_number, repo=repo), _ISSUE)

    def get_pr(self, *, pr_number: Number, repo: Repo | None = None) -> str:
        """Show one pull request with its branches, mergeability and body.

        Args:
            pr_number: The pull request number.
            repo: The repository as OWNER/NAME; default: the one of the working directory.
        """
        return self._query(pr_view_arguments(number=pr_number, repo=repo), _PR)

    def api_request(
        self,
        *,
        endpoint: Annotated[str, MaxLen(MAX_ENDPOINT_CHARS)],
        method: Annotated[str, MaxLen(16)] = "GET",
        fields: Fields = _NO_FIELDS,
        repo: Repo | None = None,
    ) -> str:
        """Send a GET request to the GitHub REST API and return the response body.

        Args:
            endpoint: A REST path such as repos/OWNER/NAME/issues (a leading / is fine);
                {owner} and {repo} are filled from repo. No query string: use fields.
            method: The HTTP method; only GET is allowed.
            fields: Query parameters, as names and string values.
            repo: OWNER/NAME used for the {owner} and {repo} placeholders of the endpoint.
        """
        if check_method(method).upper() != "GET":
            return _GET_ONLY
        result, secrets = self._gh(api_arguments(endpoint=endpoint, fields=fields, repo=repo))
        failure = self._failure(result, secrets)
        if failure is not None:
            return f"API request failed: {failure}"
        return self._render(
            _uncut_secrets(result, secrets)[0].decode("utf-8", "replace"),
            secrets,
            "the response",
            "; ask for less (for example per_page in fields)",
            cut=result.truncated,
            json=True,
        )

    def traffic_views(self, *, repo: Repo, per: Annotated[str, MaxLen(8)] | None = None) -> str:
        """Show a repository's page views (needs push access to the repository).

        Args:
            repo: The repository as OWNER/NAME.
            per: Group the counts by "day" (the default) or "week".
        """
        return self._query(traffic_arguments(repo=repo, kind="views", per=per), _VIEWS)

    def traffic_clones(self, *, repo: Repo, per: Annotated[str, MaxLen(8)] | None = None) -> str:
        """Show a repository's clones (needs push access to the repository).

        Args:
            repo: The repository as OWNER/NAME.
            per: Group the counts by "day" (the default) or "week".
        """
        return self._query(traffic_arguments(repo=repo, kind="clones", per=per), _CLONES)
