"""Validated argument vectors and the allow-listed environment for the ``gh`` program.

Nothing a model sends reaches ``gh`` unchecked. Each value is validated for what it is (a
repository is ``owner/name``, an issue number a positive 32-bit integer, an API endpoint a
relative path checked segment by segment) and then placed where it can only be a value:

- subcommands are fixed (``issue list``, ``issue view``, ``pr list``, ``pr view``, ``api``);
  there is no passthrough of arguments, subcommands or aliases;
- option values use the attached form ``--label=VALUE``, so a value starting with ``-`` cannot
  become an option; positionals (issue numbers, the endpoint) come after ``--``;
- API fields are raw fields (``--raw-field``, gh's ``-f``), never ``-F``/``--field``, which
  reads ``@file`` from disk; requests are always ``--method=GET``; a field name is letters,
  digits, ``-``, ``_`` and ``.`` (gh reads ``[`` and ``]`` as nested or array parameters, which
  make it panic on a GET);
- an endpoint is a REST API path: its first segment is one of GitHub's REST resources
  (`REST_ROOTS`; never ``graphql``, where gh would send the ``query`` field, possibly a
  mutation, with the user's token), with no scheme or host (no ``:`` in its first segment, no
  empty segment, so no ``//host``), no ``..``, ``?``, ``#`` or ``%``, and no segment starting
  with ``-``.

The environment is built from an allow-list (`gh_environment`): only the token for the
configured host travels, so an enterprise token can never be sent to github.com or elsewhere.
"""

from __future__ import annotations

import enum
import os
import re
import unicodedata
from collections.abc import Mapping, Sequence
from typing import Final, cast

from typed_toolsets._public import public_in

from .exceptions import InputTooLargeError, InvalidArgumentError
from .inputs import check_int
from .programs import caller_path

__all__ = [
    "DEFAULT_HOST",
    "ISSUE_FIELDS",
    "ISSUE_LIST_FIELDS",
    "MAX_FIELDS",
    "MAX_NUMBER",
    "MAX_VALUE_CHARS",
    "PR_FIELDS",
    "PR_LIST_FIELDS",
    "REST_ROOTS",
    "IssueState",
    "PRState",
    "api_arguments",
    "check_hostname",
    "check_method",
    "gh_environment",
    "issue_list_arguments",
    "issue_view_arguments",
    "pr_list_arguments",
    "pr_view_arguments",
    "traffic_arguments",
]

DEFAULT_HOST: Final = "github.com"
ISSUE_LIST_FIELDS: Final = "number,title,state,labels,assignees,url"
PR_LIST_FIELDS: Final = "number,title,state,baseRefName,headRefName,url"
ISSUE_FIELDS: Final = "number,title,state,body,labels,assignees,url"
PR_FIELDS: Final = "number,title,state,body,baseRefName,headRefName,mergeable,url"

#: Issue and pull request numbers are positive 32-bit integers on GitHub.
MAX_NUMBER: Final = 2**31 - 1
MAX_LIMIT: Final = 1000
MAX_LABELS: Final = 20
MAX_FIELDS: Final = 50
MAX_VALUE_CHARS: Final = 4096
MAX_ENDPOINT_CHARS: Final = 2048

_ALNUM: Final = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
_OWNER_CHARS: Final = _ALNUM | {"-"}
_NAME_CHARS: Final = _ALNUM | set("-._")
_LOGIN_CHARS: Final = _ALNUM | set("-_")
# No '[' or ']': gh reads "a[b]" and "a[]" as nested and array parameters (and panics on a GET).
# No '=': gh splits "--raw-field=KEY=VALUE" at the first '='.
_KEY_CHARS: Final = _ALNUM | set("-_.")
# RFC 3986 unreserved characters plus the few other characters GitHub paths use (compare views
# use ':', refs '+' and '='); '%' is out, so nothing can be smuggled percent-encoded.
_SEGMENT_CHARS: Final = _ALNUM | set("-._~:+,=")
# gh also fills its older spelling, ":owner", ":repo" and ":branch", and does so anywhere in
# the path (its pattern is `:(owner|repo|branch)\b`, not only a whole segment).
_PLACEHOLDERS: Final = frozenset({"{owner}", "{repo}", "{branch}", ":owner", ":repo", ":branch"})
_BRANCH_PLACEHOLDERS: Final = frozenset({"{branch}", ":branch"})
_EMBEDDED_PLACEHOLDER: Final = re.compile(r":(owner|repo|branch)\b", re.ASCII)
#: The first path segments of GitHub's REST API: github.com's (as listed by GitHub's OpenAPI
#: description), plus those only GitHub Enterprise Server or Cloud serve (``admin``,
#: ``enterprise``, ``manage``, ``scim``) and older ones still answered (``teams``, ``projects``).
#: ``graphql`` is not among them: that path is the GraphQL API.
REST_ROOTS: Final = frozenset(
    {
        "admin",
        "advisories",
        "app",
        "app-manifests",
        "applications",
        "apps",
        "assignments",
        "classrooms",
        "codes_of_conduct",
        "credentials",
        "emojis",
        "enterprise",
        "enterprises",
        "events",
        "feeds",
        "gists",
        "gitignore",
        "installation",
        "issues",
        "licenses",
        "manage",
        "markdown",
        "marketplace_listing",
        "meta",
        "networks",
        "notifications",
        "octocat",
        "organizations",
        "orgs",
        "projects",
        "rate_limit",
        "repos",
        "repositories",
        "scim",
        "search",
        "teams",
        "user",
        "users",
        "versions",
        "zen",
    }
)
_HOSTNAME_CHARS: Final = _ALNUM | set("-.")
#: Tokens gh reads, by host kind, in gh's own order of precedence.
_GITHUB_TOKENS: Final = ("GH_TOKEN", "GITHUB_TOKEN")
_ENTERPRISE_TOKENS: Final = ("GH_ENTERPRISE_TOKEN", "GITHUB_ENTERPRISE_TOKEN")
#: GitHub's local development host, and the domain of GitHub's tenancy instances (GHE.com):
#: with github.com, the hosts gh does not count as enterprise servers (go-gh's IsEnterprise).
_LOCAL_HOST: Final = "github.localhost"
_TENANCY_DOMAIN: Final = ".ghe.com"


@public_in("typed_toolsets.github")
class IssueState(enum.Enum):
    """Which issues to list by state."""

    OPEN = "open"
    CLOSED = "closed"
    ALL = "all"


@public_in("typed_toolsets.github")
class PRState(enum.Enum):
    """Which pull requests to list by state."""

    OPEN = "open"
    CLOSED = "closed"
    MERGED = "merged"
    ALL = "all"


def _has_control(value: str) -> bool:
    return any(ord(c) < 0x20 or 0x7F <= ord(c) < 0xA0 for c in value)


def _string(value: object, name: str, *, max_chars: int, allow_empty: bool = False) -> str:
    if not isinstance(value, str):
        msg = f"`{name}` must be a string, not {type(value).__name__}"
        raise InvalidArgumentError(msg)
    if not value and not allow_empty:
        msg = f"`{name}` must not be empty"
        raise InvalidArgumentError(msg)
    if len(value) > max_chars:
        msg = f"`{name}` is {len(value):,} characters; the limit is {max_chars:,}"
        raise InputTooLargeError(msg)
    if "\x00" in value:
        msg = f"`{name}` contains a NUL character"
        raise InvalidArgumentError(msg)
    _check_encodable(value, name)
    return value


def check_method(method: object) -> str:
    """*method*, the HTTP method of an API request, checked as the other arguments are.

    Raises:
        InvalidArgumentError: It is not a string (the direct call's ``method=None`` raised
            Python's AttributeError), or it holds a NUL.
    """
    return _string(method, "method", max_chars=16)


def _check_encodable(value: str, name: str) -> None:
    # A lone surrogate cannot be passed as an argument (or would reach gh as invalid UTF-8).
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        msg = f"`{name}` is not valid Unicode: it contains a lone surrogate at index {exc.start}"
        raise InvalidArgumentError(msg) from None


def _enum_value(value: object, enum_type: type[IssueState] | type[PRState], name: str) -> str:
    try:
        return str(enum_type(value).value)
    except ValueError:
        allowed = ", ".join(repr(member.value) for member in enum_type)
        msg = f"`{name}` must be one of {allowed} (got {value!r})"
        raise InvalidArgumentError(msg) from None


def check_repo(value: object, name: str = "repo") -> str:
    """A repository as ``OWNER/NAME`` on the configured host (no host part, no ``..``).

    Raises:
        InvalidArgumentError: Not of that form.
    """
    repo = _string(value, name, max_chars=141)
    owner, slash, repo_name = repo.partition("/")
    shape = (
        f"`{name}` must be OWNER/NAME, like 'octocat/hello-world': an owner of up to 39 "
        "letters, digits or '-', and a name of up to 100 letters, digits, '-', '_' or '.'"
    )
    if (
        not slash
        or not 1 <= len(owner) <= 39
        or not 1 <= len(repo_name) <= 100
        or not set(owner) <= _OWNER_CHARS
        or not set(repo_name) <= _NAME_CHARS
    ):
        msg = f"{shape} (got {repo!r})"
        raise InvalidArgumentError(msg)
    if owner.startswith("-") or repo_name.startswith("-") or repo_name in (".", ".."):
        msg = f"{shape}, not starting with '-' and not '.' or '..' (got {repo!r})"
        raise InvalidArgumentError(msg)
    return repo


def _check_login(value: object, name: str) -> str:
    """A GitHub login: ``octocat``, ``@me``, ``dependabot[bot]`` or ``app/dependabot``."""
    login = _string(value, name, max_chars=100)
    if login == "@me":
        return login
    core = login
    if login.startswith("app/"):
        core = login[len("app/") :]
    elif login.endswith("[bot]"):
        core = login[: -len("[bot]")]
    if not 1 <= len(core) <= 39 or core.startswith("-") or not set(core) <= _LOGIN_CHARS:
        msg = (
            f"`{name}` must be a GitHub login such as 'octocat', '@me', 'dependabot[bot]' or "
            f"'app/dependabot' (letters, digits, '-' and '_', not starting with '-'); "
            f"got {login!r}"
        )
        raise InvalidArgumentError(msg)
    return login


def _check_branch(value: object, name: str) -> str:
    branch = _string(value, name, max_chars=255)
    if (
        branch.startswith("-")
        or ".." in branch
        or _has_control(branch)
        or any(c in branch for c in " ~^:?*[\\")
    ):
        msg = (
            f"`{name}` must be a branch name (no spaces, control characters, '..', or any of "
            f"~ ^ : ? * [ \\, and not starting with '-'); got {branch!r}"
        )
        raise InvalidArgumentError(msg)
    return branch


def _check_labels(value: object) -> list[str]:
    if not isinstance(value, (list, tuple)):
        msg = f"`labels` must be a list of strings, not {type(value).__name__}"
        raise InvalidArgumentError(msg)
    items = cast("Sequence[object]", value)
    if len(items) > MAX_LABELS:
        msg = f"`labels` has {len(items)} entries; the limit is {MAX_LABELS}"
        raise InputTooLargeError(msg)
    labels: list[str] = []
    for index, label in enumerate(items):
        text = _string(label, f"labels[{index}]", max_chars=100)
        if _has_control(text):
            msg = f"`labels[{index}]` contains a control character"
            raise InvalidArgumentError(msg)
        labels.append(text)
    return labels


def _label_option(label: str) -> str:
    """``--label=VALUE`` for one label, quoted as gh's string-slice flags read their value.

    gh reads the value of ``--label`` as one CSV record: a comma would split one label in two
    (``a,b`` filters by ``a`` and by ``b``), and a ``"`` makes gh refuse the flag. A label with
    either is written as one quoted CSV field, its ``"`` doubled.
    """
    if "," in label or '"' in label:
        label = '"' + label.replace('"', '""') + '"'
    return f"--label={label}"


def _check_number(value: object, name: str) -> str:
    return str(check_int(value, name=name, low=1, high=MAX_NUMBER))


def _check_limit(value: object) -> str:
    return str(check_int(value, name="limit", low=1, high=MAX_LIMIT))


def _repo_option(repo: object) -> list[str]:
    return [] if repo is None else [f"--repo={check_repo(repo)}"]


def issue_list_arguments(
    *, state: object, labels: object, assignee: object, repo: object, limit: object
) -> list[str]:
    """``gh issue list`` (argv[1:]) with the seed's fields and options, validated."""
    arguments = [
        "issue",
        "list",
        f"--json={ISSUE_LIST_FIELDS}",
        f"--state={_enum_value(state, IssueState, 'state')}",
        f"--limit={_check_limit(limit)}",
    ]
    arguments += [_label_option(label) for label in _check_labels(labels)]
    if assignee is not None:
        arguments.append(f"--assignee={_check_login(assignee, 'assignee')}")
    return arguments + _repo_option(repo)


def pr_list_arguments(
    *, state: object, author: object, base: object, repo: object, limit: object
) -> list[str]:
    """``gh pr list`` (argv[1:]) with the seed's fields and options, validated."""
    arguments = [
        "pr",
        "list",
        f"--json={PR_LIST_FIELDS}",
        f"--state={_enum_value(state, PRState, 'state')}",
        f"--limit={_check_limit(limit)}",
    ]
    if author is not None:
        arguments.append(f"--author={_check_login(author, 'author')}")
    if base is not None:
        arguments.append(f"--base={_check_branch(base, 'base')}")
    return arguments + _repo_option(repo)


def issue_view_arguments(*, number: object, repo: object) -> list[str]:
    """``gh issue view`` (argv[1:]): the number is a positional after ``--``."""
    number_text = _check_number(number, "issue_number")
    return ["issue", "view", f"--json={ISSUE_FIELDS}", *_repo_option(repo), "--", number_text]


def pr_view_arguments(*, number: object, repo: object) -> list[str]:
    """``gh pr view`` (argv[1:]): the number is a positional after ``--``."""
    number_text = _check_number(number, "pr_number")
    return ["pr", "view", f"--json={PR_FIELDS}", *_repo_option(repo), "--", number_text]


def check_endpoint(value: object, repo: str | None) -> str:
    """A relative REST path, checked segment by segment; ``{owner}``/``{repo}`` filled from *repo*.

    A leading ``/`` is accepted and dropped. The first segment must be a REST resource
    (`REST_ROOTS`). With *repo*, the placeholders ``{owner}`` and ``{repo}`` (or gh's older
    ``:owner`` and ``:repo``) are replaced by its parts, and ``{branch}`` (``:branch``) is
    refused: gh would fill it with the branch checked out in the working directory, not one of
    *repo*. Without *repo*, gh fills all three from the git repository of the working directory.

    Raises:
        InvalidArgumentError: The endpoint is not such a path.
    """
    endpoint = _string(value, "endpoint", max_chars=MAX_ENDPOINT_CHARS)
    path = endpoint[1:] if endpoint.startswith("/") else endpoint
    segments = path.split("/")
    if repo is not None:
        owner, _, name = repo.partition("/")
        filled = {"{owner}": owner, "{repo}": name, ":owner": owner, ":repo": name}
        segments = [filled.get(segment, segment) for segment in segments]
    if len(segments) > 32:
        msg = f"`endpoint` has {len(segments)} path segments; the limit is 32"
        raise InputTooLargeError(msg)
    for index, segment in enumerate(segments):
        problem = _segment_problem(segment, first=index == 0, repo=repo)
        if problem is not None:
            msg = (
                f"`endpoint` must be a GitHub REST API path such as 'repos/OWNER/NAME/issues' "
                f"(no scheme or host, no query string: pass query parameters in `fields`); "
                f"segment {index + 1} ({segment!r}) {problem}"
            )
            raise InvalidArgumentError(msg)
    # After filling: a placeholder must not turn into (or stand for) the GraphQL endpoint.
    _check_rest_root(segments[0])
    return "/".join(segments)


def _check_rest_root(root: str) -> None:
    if root.lower() == "graphql":
        msg = (
            "`endpoint` 'graphql' is GitHub's GraphQL API, where gh sends the `query` field (which "
            "can be a mutation) with your token; this read-only tool only sends GET requests to "
            "the REST API: use a REST path such as 'repos/OWNER/NAME/issues'"
        )
        raise InvalidArgumentError(msg)
    if root not in REST_ROOTS:
        msg = (
            f"`endpoint` must be a GitHub REST API path such as 'repos/OWNER/NAME/issues'; its "
            f"first segment {root!r} is not a REST resource (one of: "
            f"{', '.join(sorted(REST_ROOTS))})"
        )
        raise InvalidArgumentError(msg)


def _segment_problem(segment: str, *, first: bool, repo: str | None) -> str | None:
    if segment in _BRANCH_PLACEHOLDERS and repo is not None:
        return (
            f"is a placeholder which gh would fill with the branch checked out in the working "
            f"directory, not a branch of {repo!r}: write the branch name instead"
        )
    if segment in _PLACEHOLDERS:
        return None
    if not segment:
        return "is empty (no '//' and no trailing '/')"
    if segment in (".", ".."):
        return "is a relative step ('.' or '..')"
    if segment.startswith("-"):
        return "starts with '-'"
    if first and ":" in segment:
        return "contains ':' (a scheme or host is not allowed)"
    embedded = _EMBEDDED_PLACEHOLDER.search(segment)
    if embedded is not None:
        return (
            f"contains {embedded.group()!r}, which gh would replace with a value from the working "
            "directory's git repository (a placeholder must be a whole segment)"
        )
    bad = sorted(c for c in set(segment) - _SEGMENT_CHARS if not _named_character(c))
    if bad:
        shown = " ".join(repr(c) for c in bad[:5])
        return (
            f"contains {shown}; allowed are letters, digits, spaces and - . _ ~ : + , = @ ! ( ) "
            "(gh encodes them)"
        )
    if segment != segment.strip(" "):
        return "starts or ends with a space"
    return None


def _named_character(c: str) -> bool:
    """Whether *c* may be in a file or ref name that gh percent-encodes for the path.

    Letters, digits and marks of any script (``café.md``), a space, and ``@ ! ( )``: a file's
    path through the contents API (the seed passed them; refused, such a file could not be
    read at all). Not ``%`` (nothing is sent already encoded), controls, format characters
    (bidi) or anything that ends a path (``?``, ``#``).
    """
    if c in _NAME_PUNCTUATION:
        return True
    return not c.isascii() and unicodedata.category(c)[0] in "LNM"


_NAME_PUNCTUATION: Final = frozenset(" @!()")


def _check_fields(value: object) -> list[tuple[str, str]]:
    if not isinstance(value, Mapping):
        msg = f"`fields` must be an object of string values, not {type(value).__name__}"
        raise InvalidArgumentError(msg)
    fields = cast("Mapping[object, object]", value)
    if len(fields) > MAX_FIELDS:
        msg = f"`fields` has {len(fields)} entries; the limit is {MAX_FIELDS}"
        raise InputTooLargeError(msg)
    checked: list[tuple[str, str]] = []
    for key, item in fields.items():
        name = _string(key, "fields key", max_chars=100)
        if name.startswith("-") or not set(name) <= _KEY_CHARS:
            msg = (
                f"`fields` key {name!r} must be a query parameter name: letters, digits, '-', "
                "'_' and '.', not starting with '-' (gh would read '[', ']' or '=' in a name "
                "as syntax, not as part of it)"
            )
            raise InvalidArgumentError(msg)
        where = f"fields[{name!r}]"
        checked.append((name, _string(item, where, max_chars=MAX_VALUE_CHARS, allow_empty=True)))
    return checked


def api_arguments(*, endpoint: object, fields: object, repo: object) -> list[str]:
    """``gh api`` (argv[1:]): GET only, raw fields only, the endpoint after ``--``.

    There is no ``--repo`` (``gh api`` has none; the seed's was an "unknown flag" error):
    *repo* fills the endpoint's ``{owner}``/``{repo}`` placeholders instead.
    """
    repo_text = None if repo is None else check_repo(repo)
    path = check_endpoint(endpoint, repo_text)
    raw_fields = [f"--raw-field={key}={value}" for key, value in _check_fields(fields)]
    return ["api", "--method=GET", *raw_fields, "--", path]


def traffic_arguments(*, repo: object, kind: str, per: object) -> list[str]:
    """``gh api`` GET ``repos/OWNER/NAME/traffic/<kind>``, with ``per`` as a query parameter.

    The seed passed ``-f per=...`` without ``--method GET``, which makes gh send a POST.
    """
    repo_text = check_repo(repo)
    fields: dict[str, str] = {}
    if per is not None:
        if per not in ("day", "week"):
            msg = f"`per` must be 'day' or 'week' (got {per!r})"
            raise InvalidArgumentError(msg)
        fields["per"] = str(per)
    return api_arguments(endpoint=f"repos/{repo_text}/traffic/{kind}", fields=fields, repo=None)


def check_hostname(value: object) -> str:
    """A bare host name such as ``github.com`` or ``ghe.example.com``, as gh takes it.

    Lower-cased, without the trailing dot of a fully qualified name (``github.com.`` is
    github.com), and ``DEFAULT_HOST`` for any subdomain of github.com (``api.github.com``), which
    gh itself takes for github.com (so for ``github.localhost``). Another spelling of github.com
    would count as an enterprise host here and get ``GH_ENTERPRISE_TOKEN``, which gh would then
    send to github.com.

    Raises:
        ValueError: Not a host name.
    """
    if (
        not isinstance(value, str)
        or not 1 <= len(value) <= 253
        or not set(value) <= _HOSTNAME_CHARS
        or value.startswith(("-", "."))
        or ".." in value
    ):
        msg = f"`hostname` must be a host name such as 'github.com' (got {value!r})"
        raise ValueError(msg)
    host = value.lower().removesuffix(".")
    for own in (DEFAULT_HOST, _LOCAL_HOST):
        if host.endswith("." + own):
            return own
    return host


def _takes_github_token(host: str) -> bool:
    """Whether gh reads *host*'s token from ``GH_TOKEN`` (not ``GH_ENTERPRISE_TOKEN``)."""
    return host in (DEFAULT_HOST, _LOCAL_HOST) or host.endswith(_TENANCY_DOMAIN)


def gh_environment(
    hostname: str, source: Mapping[str, str] | None = None
) -> tuple[dict[str, str], list[str]]:
    """The child environment for gh, from an allow-list, and the secret values in it.

    Passed: ``PATH``; ``HOME``; ``GH_CONFIG_DIR`` (or ``$XDG_CONFIG_HOME/gh``, which is where gh
    would look); ``GH_HOST``, *hostname* (github.com too); the token for *hostname* only,
    from the variables gh reads for it (``GH_TOKEN``/``GITHUB_TOKEN`` for github.com,
    github.localhost and a GHE.com tenancy, ``GH_ENTERPRISE_TOKEN``/``GITHUB_ENTERPRISE_TOKEN``
    for an enterprise server); and
    settings that keep gh non-interactive: ``GH_PROMPT_DISABLED=1``,
    ``GH_NO_UPDATE_NOTIFIER=1``, ``GH_PAGER=cat``, ``NO_COLOR=1``. Nothing else.

    Args:
        hostname: The host requests go to (`check_hostname` form).
        source: The environment to take values from; the calling process's by default.

    Returns:
        The environment, and the token values it carries (to redact from any output).
    """
    source = os.environ if source is None else source
    env = {
        "PATH": caller_path(),
        "GH_PROMPT_DISABLED": "1",
        "GH_NO_UPDATE_NOTIFIER": "1",
        "GH_PAGER": "cat",
        "NO_COLOR": "1",
    }
    if "HOME" in source:
        env["HOME"] = source["HOME"]
    if source.get("GH_CONFIG_DIR"):
        env["GH_CONFIG_DIR"] = source["GH_CONFIG_DIR"]
    elif source.get("XDG_CONFIG_HOME"):
        env["GH_CONFIG_DIR"] = os.path.join(source["XDG_CONFIG_HOME"], "gh")
    # github.com too: without it gh picks a host itself (the only one its hosts.yml lists, the
    # working directory's git remote), and an application set up for github.com read another.
    env["GH_HOST"] = hostname
    names = _GITHUB_TOKENS if _takes_github_token(hostname) else _ENTERPRISE_TOKENS
    secrets: list[str] = []
    for name in names:
        token = source.get(name)
        if token:
            env[name] = token
            secrets.append(token)
            break
    return env, secrets
