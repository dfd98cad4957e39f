"""GitHubCLIToolset: the seed's tools, parameters and formats, against a stand-in ``gh``.

The stand-in (tests/fixtures/fake_gh.py, first on PATH) records each argument vector and prints
canned JSON. The recorded seed calls (shared/recordings/dsprb-toolsets.json) are replayed: the
canned JSON for each is derived from the recorded output, and the formatted result must equal
the recording. The seed bugs are checked fixed (GH: no ``--repo`` on ``gh api``, traffic stays
GET, truthful ``mergeable``, GET-only API requests). Tests marked ``real_gh`` run Debian's gh
(unauthenticated, offline): our argument vectors must parse.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from typed_toolsets import ToolProxy
from typed_toolsets.builtins import github as github_module
from typed_toolsets.builtins import github_args
from typed_toolsets.builtins.github_args import (
    ISSUE_FIELDS,
    ISSUE_LIST_FIELDS,
    PR_FIELDS,
    PR_LIST_FIELDS,
    REST_ROOTS,
    api_arguments,
    gh_environment,
    issue_list_arguments,
    issue_view_arguments,
    pr_list_arguments,
    pr_view_arguments,
    traffic_arguments,
)
from typed_toolsets.builtins.process import ProcessResult
from typed_toolsets.github import (
    GitHubCLIToolset,
    InvalidArgumentError,
    IssueState,
    OutputTooLargeError,
    ProgramFailedError,
    ProgramNotFoundError,
    ProgramTimeoutError,
    PRState,
)

RECORDINGS_CANDIDATES = [
    Path(__file__).resolve().parents[2] / "shared" / "recordings" / "dsprb-toolsets.json",
    Path(__file__).resolve().parents[1] / "shared" / "recordings" / "dsprb-toolsets.json",
]
RECORDINGS = next((p for p in RECORDINGS_CANDIDATES if p.exists()), None)


def _cut_at_cap(
    monkeypatch: pytest.MonkeyPatch, returncode: int, *, stdout: bytes, stderr: bytes
) -> None:
    """gh's runs end at the output cap with this output (built here: no race with gh's exit)."""
    cut = ProcessResult(
        returncode=returncode, stdout=stdout, stderr=stderr, ended_by="output_cap", duration=0.1
    )
    monkeypatch.setattr(github_module, "run_program", lambda *args, **kwargs: cut)


def _recorded(tool: str) -> list[dict[str, Any]]:
    if RECORDINGS is None:
        pytest.skip("shared/recordings/dsprb-toolsets.json is not beside the repository")
    cases = json.loads(RECORDINGS.read_text())["cases"]
    return [case for case in cases if case["tool"] == tool]


def _tools(**config: Any) -> dict[str, ToolProxy]:
    toolset = GitHubCLIToolset(**config)
    return {proxy.name: proxy for proxy in toolset.to_tools()}


# -------------------------------------------------------------- seed text -> gh JSON (inverse)


def _issues_json(text: str) -> list[dict[str, Any]]:
    """The JSON that ``gh issue list --json ...`` returned for a recorded seed output."""
    issues: list[dict[str, Any]] = []
    for block in text.split("\n", 1)[1].split("\n\n"):
        if not block:
            continue
        head, *rest = block.split("\n")
        number, _, remainder = head[1:].partition(": ")
        title, _, state = remainder.rpartition(" (")
        issue: dict[str, Any] = {
            "number": int(number),
            "title": title,
            "state": state[:-1],
            "labels": [],
            "assignees": [],
        }
        for line in rest:
            key, _, value = line.strip().partition(": ")
            if key == "Labels":
                issue["labels"] = [{"name": name, "color": "ededed"} for name in value.split(", ")]
            elif key == "Assignees":
                issue["assignees"] = [{"login": login, "id": "x"} for login in value.split(", ")]
            elif key == "URL":
                issue["url"] = value
        issues.append(issue)
    return issues


def _prs_json(text: str) -> list[dict[str, Any]]:
    """The JSON that ``gh pr list --json ...`` returned for a recorded seed output."""
    prs: list[dict[str, Any]] = []
    for block in text.split("\n", 1)[1].split("\n\n"):
        if not block:
            continue
        head, branches, url = block.strip("\n").split("\n")
        number, _, remainder = head[1:].partition(": ")
        title, _, state = remainder.rpartition(" (")
        head_ref, _, base_ref = branches.strip().partition(" → ")
        prs.append(
            {
                "number": int(number),
                "title": title,
                "state": state[:-1],
                "headRefName": head_ref,
                "baseRefName": base_ref,
                "url": url.strip()[len("URL: ") :],
            }
        )
    return prs


# --------------------------------------------------------------------------------- exports


def test_exports_names_descriptions_and_required() -> None:
    tools = GitHubCLIToolset.to_tools()
    assert [(t.name, t.description) for t in tools] == [
        ("github_list_issues", "List GitHub issues with optional filters"),
        ("github_list_prs", "List GitHub pull requests with optional filters"),
        ("github_get_issue", "Get details of a specific GitHub issue"),
        ("github_get_pr", "Get details of a specific GitHub pull request"),
        ("github_api_request", "Make an arbitrary GitHub API request"),
        ("github_traffic_views", "Get repository traffic views (last 14 days by default)"),
        ("github_traffic_clones", "Get repository traffic clones (last 14 days by default)"),
    ]
    params = {t.name: t.parameters for t in tools}
    assert {name: p["required"] for name, p in params.items()} == {
        "github_list_issues": [],
        "github_list_prs": [],
        "github_get_issue": ["issue_number"],
        "github_get_pr": ["pr_number"],
        "github_api_request": ["endpoint"],
        "github_traffic_views": ["repo"],
        "github_traffic_clones": ["repo"],
    }
    issues = params["github_list_issues"]["properties"]
    assert list(issues) == ["state", "labels", "assignee", "repo", "limit"]
    assert issues["state"]["enum"] == ["open", "closed", "all"]
    assert issues["state"]["default"] == "open"
    assert issues["labels"]["type"] == "array"
    assert issues["labels"]["default"] == []
    assert issues["limit"]["default"] == 20
    assert issues["assignee"]["default"] is None
    prs = params["github_list_prs"]["properties"]
    assert list(prs) == ["state", "author", "base", "repo", "limit"]
    assert prs["state"]["enum"] == ["open", "closed", "merged", "all"]
    api = params["github_api_request"]["properties"]
    assert list(api) == ["endpoint", "method", "fields", "repo"]
    assert (api["method"]["default"], api["fields"]["default"]) == ("GET", {})
    assert list(params["github_traffic_views"]["properties"]) == ["repo", "per"]


def test_import_typed_toolsets_does_not_load_github() -> None:
    code = (
        "import sys, typed_toolsets; typed_toolsets.Toolset; "
        "assert 'typed_toolsets.github' not in sys.modules; "
        "assert 'typed_toolsets.text' not in sys.modules; print('ok')"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.stdout.strip() == "ok", done.stderr


# ----------------------------------------------------------------------- recorded seed calls


def test_recorded_list_issues(fake_gh: Any) -> None:
    cases = _recorded("github_list_issues")
    assert len(cases) == 3
    tools = _tools()
    for case in cases:
        fake_gh.reply(
            "issue",
            "list",
            f"--limit={case['input'].get('limit', 20)}",
            *[f"--label={label}" for label in case["input"].get("labels", [])],
            stdout=json.dumps(_issues_json(case["output"])),
        )
        assert tools["github_list_issues"].dynamic_call(case["input"]) == case["output"]
    assert fake_gh.argvs()[0] == [
        "issue",
        "list",
        f"--json={ISSUE_LIST_FIELDS}",
        "--state=open",
        "--limit=5",
        "--repo=microsoft/vscode",
    ]
    assert "--label=bug" in fake_gh.argvs()[2]


def test_recorded_list_prs(fake_gh: Any) -> None:
    (case,) = _recorded("github_list_prs")
    fake_gh.reply("pr", "list", stdout=json.dumps(_prs_json(case["output"])))
    assert _tools()["github_list_prs"].dynamic_call(case["input"]) == case["output"]
    assert fake_gh.argvs() == [
        [
            "pr",
            "list",
            f"--json={PR_LIST_FIELDS}",
            "--state=open",
            "--limit=20",
            "--repo=microsoft/vscode",
        ]
    ]


def test_recorded_get_issue_and_failure(fake_gh: Any) -> None:
    found, missing = _recorded("github_get_issue")
    body = found["output"].split("\nBody:\n", 1)[1]
    issue = {
        "number": 123,
        "title": "Improve the explorer view to match full VS design",
        "state": "CLOSED",
        "labels": [{"name": "feature-request"}],
        "assignees": [{"login": "bpasero"}],
        "url": "https://github.com/microsoft/vscode/issues/123",
        "body": body,
    }
    fake_gh.reply("123", stdout=json.dumps(issue))
    message = missing["output"].removeprefix("Failed to get issue: ")
    fake_gh.reply("999999", stderr=message, exit=1)
    tools = _tools()
    assert tools["github_get_issue"].dynamic_call(found["input"]) == found["output"]
    assert tools["github_get_issue"].dynamic_call(missing["input"]) == missing["output"]
    assert fake_gh.argvs()[0] == [
        "issue",
        "view",
        f"--json={ISSUE_FIELDS}",
        "--repo=microsoft/vscode",
        "--",
        "123",
    ]


def test_recorded_get_pr_failure(fake_gh: Any) -> None:
    (case,) = _recorded("github_get_pr")
    fake_gh.reply("456", stderr=case["output"].removeprefix("Failed to get pull request: "), exit=1)
    assert _tools()["github_get_pr"].dynamic_call(case["input"]) == case["output"]
    assert fake_gh.argvs() == [
        ["pr", "view", f"--json={PR_FIELDS}", "--repo=microsoft/vscode", "--", "456"]
    ]


def test_recorded_api_requests_and_the_repo_bug_fixed(fake_gh: Any) -> None:
    with_repo, without_repo, plain = _recorded("github_api_request")
    body = without_repo["output"]
    fake_gh.reply("repos/microsoft/vscode", stdout=plain["output"])
    fake_gh.reply("repos/microsoft/vscode", "--raw-field=stars=true", stdout=body)
    tools = _tools()
    assert tools["github_api_request"].dynamic_call(without_repo["input"]) == body
    assert tools["github_api_request"].dynamic_call(plain["input"]) == plain["output"]
    # The seed answered "unknown flag: --repo" here; we send no --repo, so gh returns the body.
    assert "unknown flag" in with_repo["output"]
    assert tools["github_api_request"].dynamic_call(with_repo["input"]) == body
    argvs = fake_gh.argvs()
    assert argvs[0] == [
        "api",
        "--method=GET",
        "--raw-field=stars=true",
        "--raw-field=forks=true",
        "--raw-field=description=true",
        "--",
        "repos/microsoft/vscode",
    ]
    assert argvs[1] == ["api", "--method=GET", "--", "repos/microsoft/vscode"]
    assert argvs[2] == argvs[0]
    assert not any(arg.startswith("--repo") for argv in argvs for arg in argv)


# ------------------------------------------------------------------------------ formats


def test_issue_list_formats_and_empty(fake_gh: Any) -> None:
    issues = [
        {"number": 1, "title": "A", "state": "OPEN", "labels": [], "assignees": [], "url": "u1"},
        {
            "number": 2,
            "title": None,
            "state": "CLOSED",
            "labels": [{"name": "x"}, {"name": "y"}],
            "assignees": None,
            "url": "u2",
        },
    ]
    fake_gh.reply("--state=all", stdout=json.dumps(issues))
    fake_gh.reply("--state=closed", stdout="[]")
    tools = _tools()
    assert tools["github_list_issues"].dynamic_call({"state": "all"}) == (
        "Found 2 issue(s):\n#1: A (OPEN)\n  URL: u1\n\n#2:  (CLOSED)\n  Labels: x, y\n  URL: u2\n"
    )
    assert tools["github_list_issues"].dynamic_call({"state": "closed"}) == "No issues found"


def test_a_label_with_a_comma_or_quote_reaches_gh_as_one_label(fake_gh: Any) -> None:
    # gh reads --label's value as a CSV record: unquoted, "needs triage, p1" was two labels
    # (gh filtered by "needs triage" and by " p1"), and 'say "hi"' made gh refuse the flag.
    fake_gh.reply("issue", "list", stdout="[]")
    labels = ["needs triage, p1", 'say "hi"', "bug"]
    assert _tools()["github_list_issues"].dynamic_call({"labels": labels}) == "No issues found"
    assert fake_gh.argvs()[0][5:] == [
        '--label="needs triage, p1"',
        '--label="say ""hi"""',
        "--label=bug",
    ]


def test_pr_list_empty_and_parse_failures(fake_gh: Any) -> None:
    fake_gh.reply("pr", "list", stdout="[]")
    fake_gh.reply("issue", "list", stdout="not json")
    fake_gh.reply("pr", "view", stdout='{"number": 1')
    fake_gh.reply("issue", "view", stdout="[1, 2]")
    tools = _tools()
    assert tools["github_list_prs"].dynamic_call({}) == "No pull requests found"
    assert (
        tools["github_list_issues"]
        .dynamic_call({})
        .startswith("Failed to parse issues data: Expecting value")
    )
    assert (
        tools["github_get_pr"]
        .dynamic_call({"pr_number": 1})
        .startswith("Failed to parse pull request details: ")
    )
    assert tools["github_get_issue"].dynamic_call({"issue_number": 1}) == (
        "Error getting issue: gh did not return an object"
    )


@pytest.mark.parametrize(
    ("tool", "arguments", "stdout", "message"),
    [
        (
            "github_list_issues",
            {},
            '[{"number": 1, "labels": {"name": "bug"}}]',
            "Error listing issues: gh returned an object where an array of 'name' entries belongs",
        ),
        (
            "github_get_issue",
            {"issue_number": 1},
            '{"number": 1, "assignees": "octocat"}',
            "Error getting issue: gh returned a string where an array of 'login' entries belongs",
        ),
        (
            "github_traffic_views",
            {"repo": "o/r"},
            '{"count": 1, "views": {"count": 1}}',
            (
                "Error fetching traffic views: gh returned an object for the views series, not "
                "an array"
            ),
        ),
        # Before: "Issue #nan: ...", "Views: inf total ...", and "Labels: {"a": NaN}", no JSON.
        (
            "github_get_issue",
            {"issue_number": 1},
            '{"number": NaN, "title": "t"}',
            "Failed to parse issue details: NaN is not valid JSON (numbers must be finite)",
        ),
        (
            "github_get_issue",
            {"issue_number": 1},
            '{"number": 1, "labels": [{"name": {"a": -Infinity}}]}',
            "Failed to parse issue details: -Infinity is not valid JSON (numbers must be finite)",
        ),
        (
            "github_traffic_views",
            {"repo": "o/r"},
            '{"count": 1e400, "views": []}',
            "Failed to parse traffic data: the number 1e400 is too large to read (past 1.8e308)",
        ),
        pytest.param(
            "github_list_prs",
            {},
            '[{"number": ' + "9" * 5000 + "}]",
            "Failed to parse pull requests data: a number has too many digits to read",
            marks=pytest.mark.skipif(
                not hasattr(sys, "get_int_max_str_digits"), reason="no digit limit before 3.11"
            ),
        ),
    ],
)
def test_malformed_json_from_gh_is_described_in_json_terms(
    fake_gh: Any, tool: str, arguments: dict[str, Any], stdout: str, message: str
) -> None:
    # Before: "got dict", "gh returned dict for the views series, not a list", and for a long
    # number Python's "... use sys.set_int_max_str_digits() to increase the limit".
    fake_gh.default(stdout=stdout, exit=0)
    assert _tools()[tool].dynamic_call(arguments) == message


def test_a_lone_surrogate_in_ghs_json_is_shown_as_a_replacement_character(fake_gh: Any) -> None:
    # Before: the answer held U+D800 itself, text with no UTF-8 form (print() raised
    # UnicodeEncodeError), also inside the JSON of a value the format writes out.
    issue = (
        '{"number": 1, "title": "a\\ud800b", "state": "OPEN", "labels": [{"name": ["\\udc00"]}]}'
    )
    fake_gh.reply("issue", "view", stdout=issue)
    output = _tools()["github_get_issue"].dynamic_call({"issue_number": 1})
    assert output.startswith('Issue #1: a\ufffdb\nState: OPEN\nLabels: ["\ufffd"]\n')
    output.encode("utf-8")  # raises UnicodeEncodeError if a lone surrogate is left


def test_json_nested_too_deeply_is_the_seeds_error_string_without_python_internals(
    fake_gh: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_gh.reply("issue", "list", stdout="[" * 100_000)
    tools = _tools()
    assert tools["github_list_issues"].dynamic_call({}) == (
        "Failed to parse issues data: the JSON is nested too deeply"
    )

    # A value json.loads accepted a few stack frames higher up can still be too deep to show.
    def decode(_text: str) -> object:
        title: list[object] = []
        for _ in range(100_000):
            title = [title]
        return {"number": 1, "title": title, "state": "OPEN"}

    monkeypatch.setattr(github_module, "_DECODER", SimpleNamespace(decode=decode))
    fake_gh.reply("issue", "view", stdout="{}")
    assert tools["github_get_issue"].dynamic_call({"issue_number": 1}) == (
        "Error getting issue: gh returned a value nested too deeply to show"
    )


@pytest.mark.parametrize(
    ("mergeable", "shown"),
    [
        ("MERGEABLE", "Yes"),
        ("CONFLICTING", "No"),
        ("UNKNOWN", "Unknown"),
        (None, "Unknown"),
        (True, "Yes"),
        (False, "No"),
    ],
)
def test_pr_view_reports_mergeable_truthfully(fake_gh: Any, mergeable: object, shown: str) -> None:
    pr = {
        "number": 7,
        "title": "Fix",
        "state": "OPEN",
        "body": "",
        "headRefName": "feature",
        "baseRefName": "main",
        "mergeable": mergeable,
        "url": "https://github.com/o/r/pull/7",
    }
    fake_gh.reply("pr", "view", stdout=json.dumps(pr))
    assert _tools()["github_get_pr"].dynamic_call({"pr_number": 7, "repo": "o/r"}) == (
        "Pull Request #7: Fix\nState: OPEN\nBranch: feature → main\n"
        f"Mergeable: {shown}\nURL: https://github.com/o/r/pull/7\n\nBody:\nNo description provided"
    )


def test_issue_view_without_labels_or_body(fake_gh: Any) -> None:
    issue = {"number": 3, "title": "T", "state": "OPEN", "labels": [], "assignees": [], "url": "u"}
    fake_gh.reply("issue", "view", stdout=json.dumps(issue))
    assert _tools()["github_get_issue"].dynamic_call({"issue_number": 3}) == (
        "Issue #3: T\nState: OPEN\nURL: u\n\nBody:\nNo description provided"
    )
    assert fake_gh.argvs() == [["issue", "view", f"--json={ISSUE_FIELDS}", "--", "3"]]


TRAFFIC = {
    "count": 14,
    "uniques": 3,
    "views": [
        {"timestamp": "2024-01-01T00:00:00Z", "count": 10, "uniques": 2},
        {"timestamp": "2024-01-02T00:00:00Z", "count": 4, "uniques": 1},
    ],
}


def test_traffic_views_format_and_stays_get_with_per(fake_gh: Any) -> None:
    fake_gh.reply("repos/o/r/traffic/views", stdout=json.dumps(TRAFFIC))
    tools = _tools()
    expected = (
        "Views: 14 total (3 unique) over the last 2 data points\n"
        "  2024-01-01T00:00:00Z: 10 (2 unique)\n  2024-01-02T00:00:00Z: 4 (1 unique)"
    )
    assert tools["github_traffic_views"].dynamic_call({"repo": "o/r"}) == expected
    assert tools["github_traffic_views"].dynamic_call({"repo": "o/r", "per": "week"}) == expected
    assert fake_gh.argvs() == [
        ["api", "--method=GET", "--", "repos/o/r/traffic/views"],
        ["api", "--method=GET", "--raw-field=per=week", "--", "repos/o/r/traffic/views"],
    ]


def test_traffic_clones_format_empty_series_and_failures(fake_gh: Any) -> None:
    clones = {"count": 0, "uniques": 0, "clones": []}
    fake_gh.reply("repos/o/r/traffic/clones", stdout=json.dumps(clones))
    fake_gh.reply(
        "repos/o/x/traffic/clones", stderr="gh: Must have push access (HTTP 403)\n", exit=1
    )
    tools = _tools()
    assert tools["github_traffic_clones"].dynamic_call({"repo": "o/r"}) == (
        "Clones: 0 total (0 unique) over the last 0 data points"
    )
    assert tools["github_traffic_clones"].dynamic_call({"repo": "o/x"}) == (
        "Failed to fetch traffic clones: gh: Must have push access (HTTP 403)\n"
    )
    result = tools["github_traffic_clones"].invoke({"repo": "o/r", "per": "month"})
    assert not result.ok
    assert result.error is not None
    assert "InvalidArgumentError: `per` must be 'day' or 'week'" in result.error.message


def test_api_request_is_get_only(fake_gh: Any) -> None:
    tools = _tools()
    for method in ("POST", "DELETE", "patch", "PUT", "get "):
        assert tools["github_api_request"].dynamic_call({"endpoint": "user", "method": method}) == (
            "Error: Only GET requests are allowed for read-only access"
        )
    fake_gh.reply("user", stdout="{}")
    assert tools["github_api_request"].dynamic_call({"endpoint": "user", "method": "get"}) == "{}"
    assert fake_gh.argvs() == [["api", "--method=GET", "--", "user"]]


def test_api_responses_stay_json_with_control_characters_escaped(fake_gh: Any) -> None:
    # JSON allows DEL and C1 characters raw in a string: written \x7f they made the response
    # invalid JSON; the C0 ones gh already escaped stay as gh wrote them.
    body = '{"title": "DEL\x7f NEL\x85 CSI\x9b[31m", "esc": "\\u001b[2J", "n": 1}'
    fake_gh.reply("api", stdout=body)
    response = _tools()["github_api_request"].dynamic_call({"endpoint": "repos/o/r/issues/1"})
    assert response == (
        '{"title": "DEL\\u007f NEL\\u0085 CSI\\u009b[31m", "esc": "\\u001b[2J", "n": 1}'
    )
    assert json.loads(response) == json.loads(body)


def test_api_request_fills_placeholders_from_repo(fake_gh: Any) -> None:
    fake_gh.reply("api", stdout="[]")
    tools = _tools()
    arguments = {"endpoint": "repos/{owner}/{repo}/issues", "repo": "octo/cat", "fields": {}}
    assert tools["github_api_request"].dynamic_call(arguments) == "[]"
    arguments = {"endpoint": "repos/{owner}/{repo}/branches/{branch}"}
    assert tools["github_api_request"].dynamic_call(arguments) == "[]"
    assert fake_gh.argvs() == [
        ["api", "--method=GET", "--", "repos/octo/cat/issues"],
        ["api", "--method=GET", "--", "repos/{owner}/{repo}/branches/{branch}"],
    ]


def test_api_request_fills_ghs_older_placeholders_from_repo_too(fake_gh: Any) -> None:
    # gh fills ':owner' and ':repo' as it fills '{owner}' and '{repo}': left to gh, they were
    # the working directory's repository, not the one the model named in `repo`.
    fake_gh.reply("api", stdout="[]")
    api = _tools()["github_api_request"]
    arguments = {"endpoint": "repos/:owner/:repo/issues", "repo": "octo/cat"}
    assert api.dynamic_call(arguments) == "[]"
    assert fake_gh.argvs() == [["api", "--method=GET", "--", "repos/octo/cat/issues"]]


@pytest.mark.parametrize("placeholder", ["{branch}", ":branch"])
def test_a_branch_placeholder_with_a_repo_is_refused(fake_gh: Any, placeholder: str) -> None:
    # `repo` fills {owner} and {repo}; left to gh, {branch} became the branch checked out in the
    # working directory, whatever repository `repo` named.
    fake_gh.reply("api", stdout="{}")
    message = _tools()["github_api_request"].dynamic_call(
        {"endpoint": f"repos/{{owner}}/{{repo}}/branches/{placeholder}", "repo": "octo/cat"}
    )
    assert f"segment 5 ('{placeholder}') is a placeholder which gh would fill" in message
    assert "not a branch of 'octo/cat': write the branch name instead" in message
    assert fake_gh.argvs() == []


@pytest.mark.parametrize("segment", ["x:owner", "main...fork:repo-x", "a:branch"])
def test_a_placeholder_inside_a_segment_is_refused(fake_gh: Any, segment: str) -> None:
    # gh replaces ':owner' (':repo', ':branch') anywhere in the path, from the working
    # directory's repository: it would change the path the model asked for.
    message = _tools()["github_api_request"].dynamic_call(
        {"endpoint": f"repos/octo/cat/compare/{segment}", "repo": "octo/cat"}
    )
    assert "which gh would replace with a value from the working directory" in message
    assert fake_gh.argvs() == []


def test_gh_failure_output_is_the_seed_merged_message(fake_gh: Any) -> None:
    fake_gh.reply("issue", "list", stdout="partial", stderr="gh: boom\n", exit=1)
    assert _tools()["github_list_issues"].dynamic_call({}) == (
        "Failed to list issues: partialgh: boom\n"
    )


# ------------------------------------------------------------------- direct call and errors


def test_direct_call_accepts_enum_members_and_values(fake_gh: Any) -> None:
    fake_gh.reply("issue", "list", stdout="[]")
    toolset = GitHubCLIToolset()
    assert toolset.list_issues(state=IssueState.CLOSED) == "No issues found"
    assert toolset.list_issues(state="all") == "No issues found"  # type: ignore[arg-type]
    fake_gh.reply("pr", "list", stdout="[]")
    assert toolset.list_prs(state=PRState.MERGED, limit=3) == "No pull requests found"
    assert [argv[3] for argv in fake_gh.argvs()] == [
        "--state=closed",
        "--state=all",
        "--state=merged",
    ]
    with pytest.raises(InvalidArgumentError, match="`state` must be one of"):
        toolset.list_prs(state="draft")  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="`limit` must be an integer"):
        toolset.list_prs(limit=True)
    assert len(fake_gh.argvs()) == 3


def test_missing_gh_is_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(ProgramNotFoundError, match="'gh' program was not found on PATH"):
        GitHubCLIToolset().get_issue(issue_number=1)
    message = _tools()["github_get_issue"].dynamic_call({"issue_number": 1})
    assert message.startswith("Error: Tool 'github_get_issue' failed: ProgramNotFoundError:")


@pytest.mark.slow
@pytest.mark.usefixtures("no_leaks")
def test_timeout_kills_gh_and_its_children(fake_gh: Any) -> None:
    fake_gh.reply("issue", "list", sleep=30, spawn=30)
    started = time.monotonic()
    with pytest.raises(ProgramTimeoutError, match=r"gh did not finish within 0\.5 seconds"):
        GitHubCLIToolset(timeout=0.5).list_issues()
    assert time.monotonic() - started < 1.5


@pytest.mark.slow
@pytest.mark.usefixtures("no_leaks")
def test_output_cap_on_json_and_on_raw_api_output(fake_gh: Any) -> None:
    fake_gh.reply("issue", "list", flood=200_000, sleep=5)
    fake_gh.reply("api", flood=200_000, sleep=5)
    toolset = GitHubCLIToolset(max_output_bytes=50_000, timeout=5)
    started = time.monotonic()
    with pytest.raises(OutputTooLargeError, match="50,000-byte output cap"):
        toolset.list_issues()
    output = toolset.api_request(endpoint="search/issues")
    assert output.startswith("x" * 1000)
    assert "\n[truncated: the response exceeded 50,000 bytes; ask for less" in output
    assert output.endswith("(for example per_page in fields)]")
    assert len(output) < 50_000 + 200
    assert time.monotonic() - started < 3


@pytest.mark.parametrize(
    ("returncode", "stderr"),
    [
        (0, b""),  # gh printed past the cap and exited before the crossing chunk was read
        (-signal.SIGKILL, b"! warning: something gh says on the side\n"),  # we killed it
    ],
    ids=["exited-0", "killed-with-stderr"],
)
def test_a_run_cut_at_the_output_cap_is_truncated_output_not_a_gh_failure(
    monkeypatch: pytest.MonkeyPatch, returncode: int, stderr: bytes
) -> None:
    # The process result is built here, so the outcome does not depend on when gh exits
    # relative to the read that crosses the cap (that race made these "Failed to ...").
    _cut_at_cap(
        monkeypatch, returncode, stdout=b'[{"number": 1, "title": "' + b"t" * 90, stderr=stderr
    )
    # The cap (200 bytes) holds the answer: the note and part of what gh printed.
    toolset = GitHubCLIToolset(max_output_bytes=200)
    with pytest.raises(OutputTooLargeError, match="200-byte output cap"):
        toolset.list_issues()
    output = toolset.api_request(endpoint="user")
    assert output.startswith('[{"number": 1, "title": "ttt')
    assert output.endswith(
        "\n[truncated: the response exceeded 200 bytes; ask for less (for example per_page in "
        "fields)]"
    )
    assert len(output.encode()) <= 200


def test_answers_are_capped_as_returned_after_escaping_and_formatting(fake_gh: Any) -> None:
    # gh's output fits the cap, but the answer did not: each control byte is escaped as six
    # characters in the API's JSON (four in text), and the seed's format of an empty issue
    # ({}) is four times its JSON.
    fake_gh.reply("api", stdout="\x01" * 900)
    fake_gh.reply("issue", "list", stdout="[" + ", ".join(["{}"] * 200) + "]")
    fake_gh.reply("pr", "view", stdout="\x02" * 900, exit=1)
    tools = _tools(max_output_bytes=1000)
    response = tools["github_api_request"].dynamic_call({"endpoint": "user"})
    assert response.startswith("\\u0001\\u0001")
    # No escape is cut in two (the note's line break right after a whole one).
    assert response.split("\n")[0].endswith("\\u0001")
    assert response.endswith(
        "\n[truncated: the response exceeded 1,000 bytes; ask for less (for example per_page "
        "in fields)]"
    )
    assert len(response.encode()) <= 1000
    issues = tools["github_list_issues"].dynamic_call({})
    assert issues.startswith("Found 200 issue(s):\n#:  ()\n  URL: \n\n")
    assert issues.endswith("\n[truncated: the answer exceeded 1,000 bytes; ask for fewer results]")
    assert len(issues.encode()) <= 1000
    failed = tools["github_get_pr"].dynamic_call({"pr_number": 1})
    assert failed.startswith("Failed to get pull request: \\x02")
    assert failed.endswith("\n[truncated: gh's output exceeded 1,000 bytes]")
    assert len(failed.encode()) <= 1000 + len("Failed to get pull request: ")


def test_one_issue_or_pull_request_past_the_cap_is_not_told_to_ask_for_fewer_results(
    fake_gh: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Before: "; ask for fewer results" for one issue too, where no fewer results exist.
    # gh's JSON fits, the answer does not: each DEL is escaped as four characters.
    body = {"number": 1, "title": "t", "state": "OPEN", "url": "u", "body": "\x7f\x7f\n" * 200}
    fake_gh.reply("issue", "view", stdout=json.dumps(body, ensure_ascii=False))
    toolset = GitHubCLIToolset(max_output_bytes=1000)
    issue = toolset.get_issue(issue_number=1)
    assert issue.startswith("Issue #1: t\nState: OPEN\nURL: u\n\nBody:\n\\x7f\\x7f\n")
    assert issue.endswith("\n[truncated: the answer exceeded 1,000 bytes]")
    # gh's JSON itself cut at the cap: it cannot be read at all.
    _cut_at_cap(
        monkeypatch, -signal.SIGKILL, stdout=b'{"number": 1, "body": "' + b"b" * 990, stderr=b""
    )
    with pytest.raises(OutputTooLargeError) as raised:
        toolset.get_pr(pr_number=1)
    assert str(raised.value) == (
        "gh printed more than the 1,000-byte output cap (pull request details); this one pull "
        "request is larger than that, so fewer results cannot help: github_api_request with the "
        "endpoint 'repos/OWNER/NAME/pulls/NUMBER' shows its first part"
    )
    with pytest.raises(OutputTooLargeError, match=r"\(traffic data\); ask for weekly counts"):
        toolset.traffic_views(repo="o/r")


def test_gh_failing_on_its_own_with_output_past_the_cap_is_still_a_failure(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _cut_at_cap(monkeypatch, 1, stdout=b"", stderr=b"HTTP 502" + b"!" * 100)
    output = GitHubCLIToolset(max_output_bytes=100).list_issues()
    assert output.startswith("Failed to list issues: HTTP 502")
    assert output.endswith("[truncated: gh's output exceeded 100 bytes]")


def test_control_characters_from_github_are_escaped(fake_gh: Any) -> None:
    issue = {
        "number": 1,
        "title": "\x1b]0;pwned\x07\x1b[31mRED",
        "state": "OPEN",
        "body": "line\r\nnext\rover\x9b",
        "url": "u",
    }
    fake_gh.reply("issue", "view", stdout=json.dumps(issue))
    output = _tools()["github_get_issue"].dynamic_call({"issue_number": 1})
    assert "\x1b" not in output
    assert "\x07" not in output
    assert "\x9b" not in output
    assert "Issue #1: \\x1b]0;pwned\\x07\\x1b[31mRED" in output
    assert output.endswith("Body:\nline\r\nnext\\x0dover\\x9b")


# ------------------------------------------- GraphQL and other non-REST endpoints (issue 17)

MUTATION = 'mutation { deleteIssue(input: {issueId: "I_1"}) { clientMutationId } }'


@pytest.mark.parametrize("endpoint", ["graphql", "/graphql", "GraphQL", "GRAPHQL", "graphql/x"])
def test_graphql_endpoint_is_refused_before_gh_runs(fake_gh: Any, endpoint: str) -> None:
    fake_gh.default(stdout="{}")
    arguments = {"endpoint": endpoint, "fields": {"query": MUTATION}}
    result = _tools()["github_api_request"].invoke(arguments)
    assert result.error is not None
    assert result.error.kind == "execution"
    assert result.error.message.startswith(
        "Tool 'github_api_request' failed: InvalidArgumentError: `endpoint` 'graphql' is "
        "GitHub's GraphQL API, where gh sends the `query` field (which can be a mutation)"
    )
    assert "use a REST path such as 'repos/OWNER/NAME/issues'" in result.error.message
    assert fake_gh.argvs() == []


def test_a_placeholder_cannot_stand_for_the_graphql_endpoint(fake_gh: Any) -> None:
    fake_gh.default(stdout="{}")
    toolset = GitHubCLIToolset()
    with pytest.raises(InvalidArgumentError, match="'graphql' is GitHub's GraphQL API"):
        toolset.api_request(endpoint="{owner}", repo="graphql/graphql-spec")
    # Without repo, gh would fill {owner} from the working directory's repository, which could
    # be graphql/...: a placeholder is no REST resource.
    with pytest.raises(InvalidArgumentError, match=r"first segment '\{owner\}' is not a REST"):
        toolset.api_request(endpoint="{owner}/{repo}")
    assert fake_gh.argvs() == []


@pytest.mark.parametrize(
    "endpoint", ["api/graphql", "v3/repos/o/r", "etc/passwd", "Repos/o/r", "hub", "{repo}"]
)
def test_non_rest_endpoints_are_refused(endpoint: str) -> None:
    with pytest.raises(InvalidArgumentError) as info:
        api_arguments(endpoint=endpoint, fields={}, repo=None)
    assert "must be a GitHub REST API path such as 'repos/OWNER/NAME/issues'" in str(info.value)
    assert "is not a REST resource (one of: admin, advisories, app," in str(info.value)


def test_every_rest_resource_is_accepted() -> None:
    for root in sorted(REST_ROOTS):
        assert api_arguments(endpoint=f"/{root}/x", fields={}, repo=None)[-1] == f"{root}/x"
    assert {"repos", "users", "user", "orgs", "search", "rate_limit"} <= REST_ROOTS
    assert "graphql" not in REST_ROOTS


# ---------------------------------------------- field names gh misreads, and crashes (issue 17)

GO_PANIC = (
    "panic: unknown type map[bot:1]\n\n"
    "goroutine 1 [running]:\n"
    "github.com/cli/cli/v2/pkg/cmd/api.addQuery({0xc00070aab0, 0x27}, 0xc0006dd4a0)\n"
    "\tgithub.com/cli/cli/v2/pkg/cmd/api/http.go:119 +0x725\n"
    "github.com/spf13/cobra.(*Command).execute(0xc00028af00, {0xc0000dae80, 0x4, 0x4})\n"
)


@pytest.mark.parametrize("key", ["x[bot]", "a[]", "a[b][c]", "[", "a]", "a=b"])
def test_field_names_gh_would_misread_are_refused(fake_gh: Any, key: str) -> None:
    fake_gh.default(stdout="[]")
    arguments = {"endpoint": "search/issues", "fields": {key: "1"}}
    message = _tools()["github_api_request"].dynamic_call(arguments)
    assert message == (
        "Error: Tool 'github_api_request' failed: InvalidArgumentError: `fields` key "
        f"{key!r} must be a query parameter name: letters, digits, '-', '_' and '.', not "
        "starting with '-' (gh would read '[', ']' or '=' in a name as syntax, not as part of it)"
    )
    assert fake_gh.argvs() == []


def test_plain_field_names_pass(fake_gh: Any) -> None:
    fake_gh.default(stdout="[]")
    fields = {"per_page": "5", "q": "is:open label:x[bot]", "x.y": "1", "a-b": "[]"}
    arguments = {"endpoint": "search/issues", "fields": fields}
    assert _tools()["github_api_request"].dynamic_call(arguments) == "[]"
    assert fake_gh.argvs() == [
        [
            "api",
            "--method=GET",
            "--raw-field=per_page=5",
            "--raw-field=q=is:open label:x[bot]",
            "--raw-field=x.y=1",
            "--raw-field=a-b=[]",
            "--",
            "search/issues",
        ]
    ]


def test_a_gh_crash_is_one_line_with_its_exit_status(fake_gh: Any) -> None:
    fake_gh.reply("api", stderr=GO_PANIC, exit=2)
    deadlock = "fatal error: all goroutines are asleep - deadlock!\n\ngoroutine 1 [chan receive]:\n"
    fake_gh.reply("issue", "view", stdout="", stderr=deadlock + "main.main()\n" * 50, exit=2)
    tools = _tools()
    message = tools["github_api_request"].dynamic_call({"endpoint": "search/issues"})
    assert message == (
        "Error: Tool 'github_api_request' failed: ProgramFailedError: gh failed with exit "
        "status 2: panic: unknown type map[bot:1] (gh crashed; its crash report is not shown)"
    )
    message = tools["github_get_issue"].dynamic_call({"issue_number": 1})
    assert message == (
        "Error: Tool 'github_get_issue' failed: ProgramFailedError: gh failed with exit status "
        "2: fatal error: all goroutines are asleep - deadlock! (gh crashed; its crash report "
        "is not shown)"
    )
    with pytest.raises(ProgramFailedError, match=r"^gh failed with exit status 2: panic: "):
        GitHubCLIToolset().api_request(endpoint="search/issues")


def test_a_crash_quotes_the_line_naming_it_not_a_warning_before_it(fake_gh: Any) -> None:
    fake_gh.reply("api", stderr="! some warning gh prints first\n" + GO_PANIC, exit=2)
    with pytest.raises(ProgramFailedError) as info:
        GitHubCLIToolset().api_request(endpoint="search/issues")
    assert str(info.value) == (
        "gh failed with exit status 2: panic: unknown type map[bot:1] (gh crashed; its crash "
        "report is not shown)"
    )


@pytest.mark.parametrize(
    ("stderr", "answer"),
    [
        # gh's error was what passed the cap: it is the answer (cut), not a cut result.
        (
            b"gh: Bad credentials (HTTP 401)\n" + b"E" * 500,
            'Failed to list issues: {"message":"Bad credentials"}gh: Bad credentials (HTTP 401)\n',
        ),
        # A crash's report passing the cap: one line, as any crash.
        ((GO_PANIC * 10).encode(), None),
    ],
    ids=["error", "crash"],
)
def test_gh_killed_at_the_cap_while_writing_its_error_is_a_failure(
    monkeypatch: pytest.MonkeyPatch, stderr: bytes, answer: str | None
) -> None:
    # Before: a cut result, its note alone ("ask for less"): gh's error was lost.
    _cut_at_cap(
        monkeypatch, -signal.SIGKILL, stdout=b'{"message":"Bad credentials"}', stderr=stderr
    )
    toolset = GitHubCLIToolset(max_output_bytes=200)
    if answer is None:
        with pytest.raises(ProgramFailedError) as info:
            toolset.list_issues()
        assert str(info.value) == (
            "gh failed: panic: unknown type map[bot:1] (gh crashed; its crash report is not shown)"
        )
        return
    output = toolset.list_issues()
    assert output.startswith(answer)
    assert output.endswith("[truncated: gh's output exceeded 200 bytes]")


def test_gh_killed_by_a_signal_is_a_crash(fake_gh: Any) -> None:
    fake_gh.reply("pr", "view", stderr="half a messa", signal=int(signal.SIGTERM))
    with pytest.raises(ProgramFailedError) as info:
        GitHubCLIToolset().get_pr(pr_number=1)
    assert str(info.value) == (
        "gh was killed by SIGTERM: half a messa (gh crashed; its crash report is not shown)"
    )


def test_gh_killed_while_printing_its_result_does_not_quote_the_result(fake_gh: Any) -> None:
    # Its stdout was quoted as the crash's reason: the first line of GitHub's data.
    fake_gh.reply("issue", "list", stdout='[{"title": "secret plans"}]', signal=int(signal.SIGSEGV))
    with pytest.raises(ProgramFailedError) as info:
        GitHubCLIToolset().list_issues()
    assert str(info.value) == (
        "gh was killed by SIGSEGV (gh crashed; its crash report is not shown)"
    )


def test_api_request_method_of_the_wrong_type_is_an_argument_error() -> None:
    # Called directly (no schema in between), method=None raised Python's AttributeError.
    with pytest.raises(InvalidArgumentError, match="`method` must be a string, not NoneType"):
        GitHubCLIToolset().api_request(endpoint="user", method=None)  # type: ignore[arg-type]


TOKEN = "ghp_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"


@pytest.mark.parametrize(
    ("reply", "start"),
    [
        (
            {"exit": 2, "stderr": f"panic: {'x' * 270}{TOKEN}\n\ngoroutine 1 [running]:\n"},
            "gh failed",
        ),
        (
            {"signal": int(signal.SIGTERM), "stderr": f"{'x' * 280}{TOKEN} and more"},
            "gh was killed",
        ),
    ],
    ids=["panic", "signal"],
)
def test_a_crash_line_cut_short_shows_no_part_of_the_token(
    fake_gh: Any, monkeypatch: pytest.MonkeyPatch, reply: dict[str, Any], start: str
) -> None:
    # The line was cut to 300 characters before the token was looked for: its first 20 showed.
    monkeypatch.setenv("GH_TOKEN", TOKEN)
    fake_gh.reply("api", **reply)
    with pytest.raises(ProgramFailedError) as info:
        GitHubCLIToolset().api_request(endpoint="search/issues")
    message = str(info.value)
    assert message.startswith(start)
    assert message.endswith("(gh crashed; its crash report is not shown)")
    assert TOKEN[:8] not in message


def test_a_crash_line_past_the_cap_shows_no_part_of_the_token(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("GH_TOKEN", TOKEN)
    _cut_at_cap(
        monkeypatch, -signal.SIGKILL, stdout=b"", stderr=f"panic: {'x' * 270}{TOKEN}\n".encode() * 3
    )
    with pytest.raises(ProgramFailedError) as info:
        GitHubCLIToolset(max_output_bytes=200).list_issues()
    assert str(info.value).startswith("gh failed: panic: xxx")
    assert TOKEN[:8] not in str(info.value)


def test_a_token_cut_at_the_cap_leaves_no_part_of_it(monkeypatch: pytest.MonkeyPatch) -> None:
    # gh's output is cut at the cap before it is redacted: the token's first part (45 of a
    # fine-grained token's 93 characters) was no longer found, and went to the model.
    token = "github_pat_11AAAAAAA0SECRETPART" + "Z" * 62
    monkeypatch.setenv("GH_TOKEN", token)
    _cut_at_cap(monkeypatch, 1, stdout=b"", stderr=b"E" * 9920 + token.encode()[:60])
    answer = GitHubCLIToolset(max_output_bytes=10_000).list_issues()
    assert "github_pat" not in answer
    assert "E[REDACTED]\n[truncated: gh's output exceeded 10,000 bytes]" in answer


def test_redacting_a_cut_token_does_not_change_what_the_cut_run_was(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A cut result ending in a token's first part, beside a warning a little shorter than it:
    # redacted first, the result got shorter than the warning and was taken for gh's error.
    token = "github_pat_11AAAAAAA0SECRETPART" + "Z" * 62
    monkeypatch.setenv("GH_TOKEN", token)
    stdout = b'{"a":"' + b"x" * 4900 + token.encode()[:45]
    _cut_at_cap(
        monkeypatch,
        -signal.SIGKILL,
        stdout=stdout,
        stderr=b"! warning " + b"w" * (len(stdout) - 29),
    )
    answer = GitHubCLIToolset(max_output_bytes=len(stdout) * 2).api_request(endpoint="user")
    assert not answer.startswith("API request failed")
    assert "github_pat" not in answer


def test_a_token_with_a_lone_surrogate_is_redacted_as_gh_got_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    token = "ghp_abc\udcffdefghijklmnop"  # an undecodable byte in the environment
    monkeypatch.setenv("GH_TOKEN", token)
    _cut_at_cap(monkeypatch, 1, stdout=b"", stderr=b"E" * 90 + os.fsencode(token)[:12])
    answer = GitHubCLIToolset(max_output_bytes=1000).list_issues()
    assert "ghp_abc" not in answer
    assert "E[REDACTED]" in answer


def test_a_go_signal_dump_is_one_line_too(fake_gh: Any) -> None:
    # Go's dump of a death by signal starts "SIGQUIT: quit", not "panic: ": it went back whole.
    dump = "SIGQUIT: quit\nPC=0x46ce21 m=0 sigcode=0\n\ngoroutine 0 [idle]:\nruntime.futex()\n"
    fake_gh.reply("issue", "list", stderr=dump + "goroutine 5 [select]:\nmain()\n" * 30, exit=2)
    with pytest.raises(ProgramFailedError) as info:
        GitHubCLIToolset().list_issues()
    assert str(info.value) == (
        "gh failed with exit status 2: SIGQUIT: quit (gh crashed; its crash report is not shown)"
    )


def test_api_request_fields_are_bounded_in_the_schema() -> None:
    # Enforced only as the tool ran, a breach was an "execution" error the model could not
    # have avoided from the schema (security.md JSON-7).
    tool = _tools()["github_api_request"]
    fields = tool.parameters["properties"]["fields"]
    assert (fields["maxProperties"], fields["additionalProperties"]["maxLength"]) == (50, 4096)
    message = tool.dynamic_call({"endpoint": "user", "fields": {"x": "a" * 5000}})
    assert message.startswith("Error: Invalid arguments for tool 'github_api_request': fields.x: ")
    many = {f"k{i}": "v" for i in range(51)}
    message = tool.dynamic_call({"endpoint": "user", "fields": many})
    assert message.startswith("Error: Invalid arguments for tool 'github_api_request': fields: ")


def test_ordinary_gh_failures_keep_the_seed_format(fake_gh: Any) -> None:
    # "panic: " in a message from GitHub, without Go's goroutine dump, is not a crash; nor is
    # a line starting with a word like SIGNATURE beside a mention of goroutines.
    fake_gh.reply("issue", "list", stderr="SIGNATURE: mismatch (no goroutine leaked)\n", exit=1)
    assert _tools()["github_list_issues"].dynamic_call({}) == (
        "Failed to list issues: SIGNATURE: mismatch (no goroutine leaked)\n"
    )
    fake_gh.reply("issue", "view", stderr="HTTP 422: panic: not a crash\n", exit=1)
    fake_gh.reply("pr", "view", stderr="gh: cancelled\n", exit=2)
    tools = _tools()
    assert tools["github_get_issue"].dynamic_call({"issue_number": 1}) == (
        "Failed to get issue: HTTP 422: panic: not a crash\n"
    )
    assert tools["github_get_pr"].dynamic_call({"pr_number": 1}) == (
        "Failed to get pull request: gh: cancelled\n"
    )


def test_a_gh_failure_without_output_tells_its_status(fake_gh: Any) -> None:
    # The seed's answer ended at its colon ("Failed to get issue: "), telling nothing.
    fake_gh.reply("issue", "view", exit=1)
    fake_gh.reply("issue", "list", stdout=" \n", exit=4)
    fake_gh.reply("api", exit=1)
    tools = _tools()
    assert tools["github_get_issue"].dynamic_call({"issue_number": 1}) == (
        "Failed to get issue: gh failed with exit status 1"
    )
    assert tools["github_list_issues"].dynamic_call({}) == (
        "Failed to list issues: gh failed with exit status 4"
    )
    assert tools["github_api_request"].dynamic_call({"endpoint": "user"}) == (
        "API request failed: gh failed with exit status 1"
    )


# ------------------------------------------------------------------------- environment


def test_environment_allow_list_for_github_com() -> None:
    source = {
        "PATH": "/x",
        "HOME": "/home/u",
        "GH_TOKEN": "ghp_one",
        "GITHUB_TOKEN": "ghp_two",
        "GH_ENTERPRISE_TOKEN": "ent",
        "AWS_SECRET_ACCESS_KEY": "no",
        "XDG_CONFIG_HOME": "/cfg",
        "GH_DEBUG": "api",
        "GH_HOST": "evil.example",
    }
    env, secrets = gh_environment("github.com", source)
    assert set(env) == {
        "PATH",
        "HOME",
        "GH_CONFIG_DIR",
        "GH_HOST",
        "GH_TOKEN",
        "GH_PROMPT_DISABLED",
        "GH_NO_UPDATE_NOTIFIER",
        "GH_PAGER",
        "NO_COLOR",
    }
    assert env["GH_CONFIG_DIR"] == os.path.join("/cfg", "gh")
    assert env["GH_HOST"] == "github.com"  # the caller's evil.example is not taken
    assert (env["GH_TOKEN"], secrets) == ("ghp_one", ["ghp_one"])
    assert env["PATH"] == os.environ.get("PATH", os.defpath)


def test_environment_enterprise_host_gets_only_its_token() -> None:
    source = {"GH_TOKEN": "ghp_one", "GITHUB_ENTERPRISE_TOKEN": "ent", "GH_CONFIG_DIR": "/c"}
    env, secrets = gh_environment("ghe.example.com", source)
    assert env["GH_HOST"] == "ghe.example.com"
    assert env["GITHUB_ENTERPRISE_TOKEN"] == "ent"
    assert "GH_TOKEN" not in env
    assert env["GH_CONFIG_DIR"] == "/c"
    assert secrets == ["ent"]
    env, secrets = gh_environment("github.com", {"GITHUB_TOKEN": "t2", "GH_ENTERPRISE_TOKEN": "e"})
    assert (env.get("GITHUB_TOKEN"), "GH_ENTERPRISE_TOKEN" in env, secrets) == ("t2", False, ["t2"])


@pytest.mark.parametrize("hostname", ["acme.ghe.com", "github.localhost", "api.github.localhost"])
def test_hosts_gh_reads_gh_token_for_get_it_not_the_enterprise_one(hostname: str) -> None:
    # gh (go-gh's IsEnterprise) reads GH_TOKEN for a GHE.com tenancy and github.localhost: they
    # got GH_ENTERPRISE_TOKEN alone, and gh went unauthenticated.
    source = {"GITHUB_TOKEN": "ghp_two", "GH_ENTERPRISE_TOKEN": "ent"}
    env, secrets = gh_environment(github_args.check_hostname(hostname), source)
    assert env["GH_HOST"] == hostname.removeprefix("api.")
    assert (env.get("GITHUB_TOKEN"), "GH_ENTERPRISE_TOKEN" in env, secrets) == (
        "ghp_two",
        False,
        ["ghp_two"],
    )


def test_hostname_is_validated() -> None:
    with pytest.raises(ValueError, match="hostname"):
        GitHubCLIToolset(hostname="evil.example/o")
    assert GitHubCLIToolset(hostname="GHE.example.com").hostname == "GHE.example.com"


@pytest.mark.parametrize(
    "hostname", ["github.com.", "GitHub.com.", "api.github.com", "www.github.com."]
)
def test_other_spellings_of_github_com_get_its_token_not_the_enterprise_one(
    fake_gh: Any, monkeypatch: pytest.MonkeyPatch, hostname: str
) -> None:
    # Before: 'github.com.' was an enterprise host: GH_HOST=github.com. and GH_ENTERPRISE_TOKEN,
    # which gh (taking it for an enterprise host too) sent to github.com.
    monkeypatch.setenv("GH_TOKEN", "github-token")
    monkeypatch.setenv("GH_ENTERPRISE_TOKEN", "enterprise-token")
    fake_gh.reply("issue", "list", stdout="[]")
    assert GitHubCLIToolset(hostname=hostname).list_issues() == "No issues found"
    env = fake_gh.calls()[0]["env"]
    assert env["GH_TOKEN"] == "github-token"
    assert env["GH_HOST"] == "github.com"
    assert "GH_ENTERPRISE_TOKEN" not in env
    # An enterprise host keeps its name, without the trailing dot of a fully qualified one.
    assert github_args.check_hostname("GHE.example.com.") == "ghe.example.com"


# ---------------------------------------------------------------------------- real gh

REAL_GH = shutil.which("gh", path="/usr/bin:/bin:/usr/local/bin")


def _real_argvs() -> list[list[str]]:
    return [
        issue_list_arguments(
            state="closed", labels=["bug", "--web"], assignee="@me", repo="o/r", limit=50
        ),
        issue_list_arguments(state="open", labels=[], assignee=None, repo=None, limit=20),
        issue_list_arguments(
            state="all", labels=['say "hi"', "a,b"], assignee=None, repo="o/r", limit=1
        ),
        pr_list_arguments(
            state="merged", author="app/dependabot", base="main", repo="o/r", limit=1
        ),
        issue_view_arguments(number=5, repo="o/r"),
        pr_view_arguments(number=2**31 - 1, repo=None),
        api_arguments(endpoint="/repos/o/r/issues", fields={"state": "open", "q": "@x"}, repo=None),
        api_arguments(endpoint="repos/{owner}/{repo}/pulls", fields={}, repo="o/r"),
        traffic_arguments(repo="o/r", kind="views", per="day"),
        traffic_arguments(repo="o/r", kind="clones", per=None),
    ]


def _run_real_gh(arguments: list[str], home: Path, **extra_env: str) -> str:
    assert REAL_GH is not None
    env = {
        "PATH": "/usr/bin:/bin",
        "HOME": str(home),
        "GH_CONFIG_DIR": str(home / "gh-config"),
        "GH_PROMPT_DISABLED": "1",
        "GH_NO_UPDATE_NOTIFIER": "1",
        "NO_COLOR": "1",
        **extra_env,
    }
    done = subprocess.run(
        [REAL_GH, *arguments],
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
        stdin=subprocess.DEVNULL,
    )
    return done.stdout + done.stderr


@pytest.mark.skipif(REAL_GH is None, reason="Debian's gh is not installed")
def test_real_gh_rejects_an_unknown_flag_before_asking_for_auth(tmp_path: Path) -> None:
    # The oracle of the next test: flag parsing happens before the auth check.
    assert "unknown flag: --repo" in _run_real_gh(["api", "--repo=o/r", "--", "user"], tmp_path)


#: A token and an enterprise host that cannot resolve (.invalid, RFC 6761): gh gets as far as
#: building the request, and the run stays offline.
OFFLINE_HOST = {"GH_HOST": "ghe.invalid", "GH_ENTERPRISE_TOKEN": "not-a-token"}


@pytest.mark.skipif(REAL_GH is None, reason="Debian's gh is not installed")
def test_real_gh_sends_the_graphql_endpoint_to_the_graphql_api(tmp_path: Path) -> None:
    # The oracle of refusing 'graphql': gh sends the fields (a mutation) to the GraphQL API.
    output = _run_real_gh(
        ["api", "--method=GET", f"--raw-field=query={MUTATION}", "--", "graphql"],
        tmp_path,
        GH_DEBUG="api",
        **OFFLINE_HOST,
    )
    assert "Request to https://ghe.invalid/api/graphql?query=mutation" in output
    assert "Authorization: token" in output


@pytest.mark.skipif(REAL_GH is None, reason="Debian's gh is not installed")
def test_real_gh_asks_github_com_when_its_config_knows_only_another_host(tmp_path: Path) -> None:
    # Without GH_HOST, gh took the one host its hosts.yml lists: a toolset set up for
    # github.com read an enterprise server, with the user's credentials for it. A proxy that
    # refuses every connection keeps the run offline.
    config = tmp_path / "gh-config"
    config.mkdir()
    (config / "hosts.yml").write_text(
        "ghe.invalid:\n    oauth_token: not-a-token\n    user: someone\n", encoding="utf-8"
    )
    env, _ = gh_environment("github.com", {"GH_TOKEN": "not-a-token-either"})
    output = _run_real_gh(
        ["api", "--method=GET", "--", "user"],
        tmp_path,
        GH_DEBUG="api",
        HTTPS_PROXY="http://127.0.0.1:9",
        GH_HOST=env["GH_HOST"],
        GH_TOKEN=env["GH_TOKEN"],
    )
    assert "Request to https://api.github.com/user" in output
    assert "ghe.invalid" not in output


@pytest.mark.skipif(REAL_GH is None, reason="Debian's gh is not installed")
def test_real_gh_percent_encodes_a_file_name_of_any_script(tmp_path: Path) -> None:
    # The oracle of passing letters of any script, spaces and @ ! ( ) in a path segment.
    arguments = api_arguments(endpoint="repos/o/r/contents/café @(1)!.md", fields={}, repo=None)
    output = _run_real_gh(
        arguments,
        tmp_path,
        GH_DEBUG="api",
        HTTPS_PROXY="http://127.0.0.1:9",  # refuses every connection: the run stays offline
        GH_HOST="github.com",
        GH_TOKEN="not-a-token",
    )
    assert "Request to https://api.github.com/repos/o/r/contents/caf%C3%A9%20@%281%29%21.md" in (
        output
    )


@pytest.mark.skipif(REAL_GH is None, reason="Debian's gh is not installed")
def test_real_gh_fills_a_colon_placeholder_inside_a_segment(tmp_path: Path) -> None:
    # The oracle of refusing ':owner' inside a segment: gh tries to fill it from a git remote.
    arguments = ["api", "--method=GET", "--", "repos/o/r/compare/x:owner"]
    assert "unable to expand placeholder" in _run_real_gh(arguments, tmp_path, **OFFLINE_HOST)


@pytest.mark.skipif(REAL_GH is None, reason="Debian's gh is not installed")
def test_real_gh_panics_on_a_bracketed_field_name(tmp_path: Path) -> None:
    # The oracle of refusing brackets: gh reads x[bot] as a nested parameter and panics on a GET.
    arguments = ["api", "--method=GET", "--raw-field=x[bot]=1", "--", "repos/o/r"]
    output = _run_real_gh(arguments, tmp_path, **OFFLINE_HOST)
    assert output.startswith("panic: ")
    assert "goroutine 1 [running]:" in output


@pytest.mark.skipif(REAL_GH is None, reason="Debian's gh is not installed")
def test_real_gh_crash_reaches_the_model_as_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Defence in depth: were a name gh misreads to get past validation, the model would still
    # get one line, not the goroutine dump.
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("GH_CONFIG_DIR", str(tmp_path / "gh-config"))
    monkeypatch.setenv("GH_ENTERPRISE_TOKEN", OFFLINE_HOST["GH_ENTERPRISE_TOKEN"])
    # Lifts the refusal under test, so that gh itself meets the bracketed name.
    monkeypatch.setattr(github_args, "_KEY_CHARS", github_args._KEY_CHARS | {"[", "]"})
    proxy = GitHubCLIToolset(hostname="ghe.invalid").to_tools()[4]
    assert proxy.name == "github_api_request"
    message = proxy.dynamic_call({"endpoint": "repos/o/r", "fields": {"x[bot]": "1"}})
    assert message == (
        "Error: Tool 'github_api_request' failed: ProgramFailedError: gh failed with exit status "
        "2: panic: unknown type map[bot:1] (gh crashed; its crash report is not shown)"
    )


@pytest.mark.skipif(REAL_GH is None, reason="Debian's gh is not installed")
@pytest.mark.parametrize("index", range(len(_real_argvs())))
def test_real_gh_parses_our_argument_vectors(tmp_path: Path, index: int) -> None:
    output = _run_real_gh(_real_argvs()[index], tmp_path)
    lowered = output.lower()
    assert "unknown flag" not in lowered
    assert "unknown shorthand" not in lowered
    assert "accepts" not in lowered  # "accepts 1 arg(s), received 2"
    assert "invalid argument" not in lowered
    # No token: gh stops at authentication (or, if one were configured, at the network).
    assert "gh auth login" in output or "error connecting" in output, output


@pytest.mark.parametrize(
    ("login", "ok"),
    [
        ("octocat", True),
        ("octo-cat", True),
        ("@me", True),
        ("dependabot[bot]", True),
        ("app/dependabot", True),
        ("emu_user", True),
        ("-web", False),
        ("a/b", False),
        ("../", False),
        ("@octocat", False),
        ("x" * 40, False),
        ("a b", False),
        ("app/", False),
    ],
)
def test_logins_are_validated(login: str, ok: bool) -> None:
    if ok:
        assert pr_list_arguments(state="open", author=login, base=None, repo=None, limit=1)[-1] == (
            f"--author={login}"
        )
    else:
        with pytest.raises(InvalidArgumentError, match="must be a GitHub login"):
            pr_list_arguments(state="open", author=login, base=None, repo=None, limit=1)


@pytest.mark.parametrize(
    ("repo", "ok"),
    [
        ("octocat/hello-world", True),
        ("o/r.js", True),
        ("o/.github", True),
        ("o/..", False),
        ("o/.", False),
        ("-o/r", False),
        ("o/-r", False),
        ("o", False),
        ("o/r/x", False),
        ("host.example/o/r", False),
        ("o_x/r", False),
        ("o/r;id", False),
        ("o/" + "r" * 101, False),
        ("o" * 40 + "/r", False),
    ],
)
def test_repos_are_validated(repo: str, ok: bool) -> None:
    if ok:
        assert issue_view_arguments(number=1, repo=repo)[3] == f"--repo={repo}"
    else:
        with pytest.raises(InvalidArgumentError, match="OWNER/NAME"):
            issue_view_arguments(number=1, repo=repo)


@pytest.mark.parametrize(
    ("endpoint", "problem"),
    [
        ("https://evil.example/x", "scheme or host"),
        ("//evil.example/x", "is empty"),
        ("repos/o/r/", "is empty"),
        ("repos/../user", "relative step"),
        ("repos/o/r?x=1", "'?'"),
        ("repos/o/r#x", "'#'"),
        ("repos/%2e%2e/user", "'%'"),
        ("--hostname=evil.example", "starts with '-'"),
        ("repos/o/-r", "starts with '-'"),
        ("repos/o\tr", "'\\t'"),
        ("repos/o/r/contents/ a.md", "starts or ends with a space"),
        ("repos/o/r/contents/\u202ea.md", "'\\u202e'"),
        ("repos/{evil}", "'{'"),
    ],
)
def test_endpoints_are_validated_segment_by_segment(endpoint: str, problem: str) -> None:
    with pytest.raises(InvalidArgumentError) as info:
        api_arguments(endpoint=endpoint, fields={}, repo=None)
    assert problem in str(info.value)
    assert "query parameters in `fields`" in str(info.value)


@pytest.mark.parametrize(
    "path", ["café.md", "docs/über uns.md", "feat@x", "notes (1)!.txt", "日本語.md"]
)
def test_file_and_ref_names_of_any_script_are_sent_as_written(path: str) -> None:
    # They were refused (the seed passed them): such a file could not be read at all. gh
    # percent-encodes them (the real-gh test below shows how).
    endpoint = f"repos/o/r/contents/{path}"
    assert api_arguments(endpoint=endpoint, fields={}, repo=None)[-1] == endpoint
