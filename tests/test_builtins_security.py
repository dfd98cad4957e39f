"""The built-in toolsets against research/security.md: requirement IDs and the payload corpus.

Every payload of section 8 (pattern slot, path slot, gh values) is thrown at every string
parameter of every tool, through the model-facing call, in a sandbox holding canary files. The
oracle: no canary or marker file appears, the sandbox tree is unchanged, no secret or
``root:x:0:0`` appears in any result, no call raises or outlives its deadline, and no temporary
file, fd or child process is left (the ``no_leaks`` fixture). The stand-in gh answers every call.

Requirement IDs covered here: ARGV-1..ARGV-7, ENV-1, ENV-2, GH-1..GH-3, TMP-1, JSON-8, AG-1 (in fact;
see `test_AG_1_...`), FZ-2. The others are in test_process.py (DL-*, OUT-1, OUT-2),
test_regex.py (RE-1, RE-2) and test_text.py (RE-3, RE-4, DL-2, OUT-3, OUT-4, TXT-1).
"""

from __future__ import annotations

import ast
import contextlib
import hashlib
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema

import typed_toolsets
from typed_toolsets import ToolProxy, ToolResult
from typed_toolsets.builtins import exceptions
from typed_toolsets.builtins.github_args import (
    api_arguments,
    issue_list_arguments,
    issue_view_arguments,
    pr_list_arguments,
    pr_view_arguments,
    traffic_arguments,
)
from typed_toolsets.builtins.outputs import escape_controls
from typed_toolsets.builtins.text import _grep_arguments, _rg_arguments
from typed_toolsets.github import GitHubCLIToolset
from typed_toolsets.text import TextProcessingToolset

SRC = Path(__file__).resolve().parents[1] / "src" / "typed_toolsets"

# ----------------------------------------------------------------- corpus (security.md §8)

PATTERN_PAYLOADS = [
    "--pre=sh", "--pre=rm", "--pre=/bin/sh", "--pre-glob=*", "--hostname-bin=sh", "-z",
    "--search-zip", "--file=/etc/passwd", "-f/proc/self/environ", "--ignore-file=/etc/shadow",
    "--exclude-from=/etc/passwd", "--include=*", "--files", "-uuu", "-L", "-R", "--passthru",
    "-v", "-e", "--", "-", "-A999999999", "--debug", "-P",
    "",
    "zzz\n",
    "a\x00b",
    "\ud800",
    "a" * 131072,
    r"^(a|aa)+\1$",
    "(a+)+$", "(.*,){11}P",
    r"[\s\S]{100000}",
    "$(touch /tmp/PWNED_SUBST)", ";touch /tmp/PWNED_SEMI", "`id`", "|id", "'; rm -rf ~; '",
    "\u202e--pre=sh",
    "\uff0d\uff0dpre=sh",
]  # fmt: skip
PATH_PAYLOADS = [
    "--pre=sh", "-", "../", "../../../../etc/passwd", "/etc/passwd", "/proc/self/environ",
    "/dev/zero", "work/fifo", "work/etc_link", "work/etc_link/passwd", "~/.ssh/id_rsa", "*",
    "work/../secret.txt", "work/\x00", "", ".", "work",
]  # fmt: skip
GH_PAYLOADS = [
    "--repo=attacker/x", "--web", "1 --web", "../../../../user", "1/comments",
    "https://evil.example/collect", "--hostname=evil.example", "@/etc/passwd", "@secret.txt",
    "!touch /tmp/PWNED_ALIAS", "-F", "--input=/etc/passwd", "owner/repo;id", "owner/../../repo",
    "evil.example/o/r",
]  # fmt: skip
CORPUS = list(dict.fromkeys(PATTERN_PAYLOADS + PATH_PAYLOADS + GH_PAYLOADS))

CANARIES = [
    Path("/tmp/PWNED_SUBST"),
    Path("/tmp/PWNED_SEMI"),
    Path("/tmp/PWNED_ALIAS"),
    Path("/tmp/p"),
]
SENTINEL = "ghp_SENTINEL0123456789abcdefSECRET"
SEARCH_TEXT = "zzz\nall lines\n-v\nroot entry\n"

#: Per tool: the arguments of a harmless call, and the string slots the corpus is thrown at.
TEXT_CALLS: dict[str, tuple[dict[str, Any], list[str]]] = {
    "text_grep": ({"text": SEARCH_TEXT, "pattern": "all"}, ["pattern", "text"]),
    "text_wc": ({"text": SEARCH_TEXT}, ["text"]),
    "text_rg": ({"text": SEARCH_TEXT, "pattern": "all"}, ["pattern", "text"]),
    "text_extract_lines": ({"text": SEARCH_TEXT, "start_line": 1, "end_line": 0}, ["text"]),
    "text_filter_lines": ({"text": SEARCH_TEXT, "pattern": "all"}, ["pattern", "text"]),
    "text_unique_lines": ({"text": SEARCH_TEXT}, ["text"]),
    "text_sort_lines": ({"text": SEARCH_TEXT, "numeric": True}, ["text"]),
    "text_summarize_text": ({"text": SEARCH_TEXT}, ["text"]),
}
GH_CALLS: dict[str, tuple[dict[str, Any], list[str]]] = {
    "github_list_issues": ({"repo": "o/r"}, ["labels[]", "assignee", "repo"]),
    "github_list_prs": ({"repo": "o/r"}, ["author", "base", "repo"]),
    "github_get_issue": ({"issue_number": 1}, ["repo"]),
    "github_get_pr": ({"pr_number": 1}, ["repo"]),
    "github_api_request": (
        {"endpoint": "repos/o/r"},
        ["endpoint", "method", "fields{}", "fields[]", "repo"],
    ),
    "github_traffic_views": ({"repo": "o/r"}, ["repo", "per"]),
    "github_traffic_clones": ({"repo": "o/r"}, ["repo", "per"]),
}
#: What may stand before "--" in a gh argument vector: the fixed subcommands and, for values,
#: only these attached options.
GH_SUBCOMMANDS = [["issue", "list"], ["issue", "view"], ["pr", "list"], ["pr", "view"], ["api"]]
GH_OPTIONS = (
    "--json=",
    "--state=",
    "--limit=",
    "--label=",
    "--assignee=",
    "--author=",
    "--base=",
    "--repo=",
    "--raw-field=",
)


def _with(arguments: dict[str, Any], slot: str, payload: str) -> dict[str, Any]:
    updated = dict(arguments)
    if slot == "labels[]":
        updated["labels"] = ["ok", payload]
    elif slot == "fields{}":
        updated["fields"] = {payload: "v"}
    elif slot == "fields[]":
        updated["fields"] = {"q": payload}
    else:
        updated[slot] = payload
    return updated


def _tree_digest(root: Path) -> dict[str, str]:
    """Every entry under *root*: type plus content (files) or target (links); FIFOs not opened."""
    digest: dict[str, str] = {}
    for path in sorted(root.rglob("*")):
        info = path.lstat()
        name = str(path.relative_to(root))
        if stat.S_ISLNK(info.st_mode):
            digest[name] = "link:" + os.readlink(path)
        elif stat.S_ISREG(info.st_mode):
            digest[name] = "file:" + hashlib.sha256(path.read_bytes()).hexdigest()
        else:
            digest[name] = f"mode:{stat.S_IFMT(info.st_mode)}"
    return digest


@pytest.fixture
def sandbox(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A working directory with the corpus's targets: secrets, a FIFO, a link to /etc, a victim."""
    root = tmp_path / "sandbox"
    work = root / "work"
    work.mkdir(parents=True)
    (root / "secret.txt").write_text("TOPSECRET=abc123\n")
    (work / "a.txt").write_text("touch PWNED_PRE\nall lines\n")
    (work / "victim.txt").write_text("do not delete\n")
    os.mkfifo(work / "fifo")
    (work / "etc_link").symlink_to("/etc")
    monkeypatch.chdir(work)
    monkeypatch.setenv("GH_TOKEN", SENTINEL)
    monkeypatch.setenv("GH_ENTERPRISE_TOKEN", SENTINEL + "_ENTERPRISE")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", SENTINEL + "_AWS")
    for canary in CANARIES:
        canary.unlink(missing_ok=True)
    before = _tree_digest(root)
    yield root
    assert _tree_digest(root) == before, "a tool changed the sandbox (AG-1)"
    assert not (root / "PWNED_PRE").exists()
    assert not (work / "PWNED_PRE").exists()
    assert [c for c in CANARIES if c.exists()] == [], "a payload ran a command"


def _check_result(result: object, started: float, deadline: float) -> str:
    assert isinstance(result, str)
    assert time.monotonic() - started <= deadline + 0.5
    assert SENTINEL not in result
    assert "TOPSECRET" not in result
    assert "root:x:0:0" not in result
    return result


# ------------------------------------------------------------------------------- ARGV-1


def test_ARGV_1_no_shell_anywhere_in_src() -> None:
    forbidden = re.compile(r'shell\s*=\s*True|os\.system|os\.popen|"sh",\s*"-c"|\'sh\',\s*\'-c\'')
    hits = [
        f"{path.name}:{number}"
        for path in SRC.rglob("*.py")
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if forbidden.search(line)
    ]
    assert hits == []


@pytest.mark.parametrize(
    "module",
    ["builtins/regex.py", "builtins/text.py", "builtins/text_ops.py", "builtins/inputs.py"],
)
def test_RE_1_text_tools_never_import_python_re(module: str) -> None:
    tree = ast.parse((SRC / module).read_text())
    imported = {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    } | {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert not imported & {"re", "regex", "sre_compile"}


# -------------------------------------------------------------------- ARGV-2, ARGV-4, ARGV-5

FORBIDDEN_PREFIXES = (
    "--pre",
    "--hostname-bin",
    "-z",
    "--search-zip",
    "-f",
    "--file",
    "--ignore-file",
    "-L",
    "--follow",
    "-u",
    "--no-ignore",
    "-P",
    "--pcre2",
    "-R",
    "--exclude-from",
    "--dereference-recursive",
)
patterns = st.text(max_size=60) | st.sampled_from(PATTERN_PAYLOADS)


@settings(max_examples=3000)
@given(patterns, st.booleans(), st.booleans(), st.integers(min_value=0, max_value=100))
def test_ARGV_2_ARGV_4_search_argv_properties(
    pattern: str, ignore_case: bool, count_only: bool, context: int
) -> None:
    for argv in (
        _grep_arguments(pattern, ignore_case=ignore_case, count_only=count_only),
        _rg_arguments(pattern, context=context),
    ):
        at = argv.index("-e")
        assert argv[at + 1] == pattern
        assert argv[-2:] == ["--", "-"]
        others = argv[:at] + argv[at + 2 : -2]
        assert "-e" not in others
        assert "--" not in others
        assert not [a for a in others if a.startswith(FORBIDDEN_PREFIXES)]
    rg = _rg_arguments(pattern, context=context)
    assert rg[0] == "--no-config"
    assert ("--context=" + str(context) in rg) == (context > 0)


gh_text = st.text(max_size=30) | st.sampled_from(CORPUS)


def _gh_argvs(value: str) -> Iterator[list[str]]:
    """Every builder with *value* in every string slot (those that validation lets through)."""
    builders: list[Callable[[], list[str]]] = [
        lambda: issue_list_arguments(
            state="open", labels=[value], assignee=None, repo=None, limit=1
        ),
        lambda: issue_list_arguments(state="all", labels=[], assignee=value, repo=None, limit=1),
        lambda: issue_list_arguments(state="all", labels=[], assignee=None, repo=value, limit=1),
        lambda: pr_list_arguments(state="open", author=value, base=None, repo=None, limit=1),
        lambda: pr_list_arguments(state="open", author=None, base=value, repo=None, limit=1),
        lambda: issue_view_arguments(number=1, repo=value),
        lambda: pr_view_arguments(number=1, repo=value),
        lambda: api_arguments(endpoint=value, fields={}, repo=None),
        lambda: api_arguments(endpoint="user", fields={value: "v"}, repo=None),
        lambda: api_arguments(endpoint="user", fields={"q": value}, repo=None),
        lambda: api_arguments(endpoint="repos/{owner}/{repo}", fields={}, repo=value),
        lambda: traffic_arguments(repo=value, kind="views", per=None),
        lambda: traffic_arguments(repo="o/r", kind="clones", per=value),
    ]
    for build in builders:
        try:
            yield build()
        except ValueError:  # InvalidArgumentError: refused before any argv exists
            continue


def _check_gh_argv(argv: list[str]) -> None:
    """Fixed subcommand, then only allow-listed attached options, then ``-- POSITIONAL``."""
    assert any(argv[: len(prefix)] == prefix for prefix in GH_SUBCOMMANDS), argv
    words = 1 if argv[0] == "api" else 2
    takes_positional = argv[words - 1] in ("view", "api")
    if takes_positional:
        assert argv[-2] == "--", argv
        options = argv[words:-2]
    else:
        assert "--" not in argv, argv
        options = argv[words:]
    for element in options:
        assert element == "--method=GET" or element.startswith(GH_OPTIONS), (element, argv)
    if argv[0] == "api":
        assert argv[1] == "--method=GET"
        endpoint = argv[-1]
        assert not endpoint.startswith(("-", "/")), argv
        assert ".." not in endpoint.split("/")
        assert not {"?", "#", "%", " ", "@"} & set(endpoint)
        assert ":" not in endpoint.split("/")[0]


@settings(max_examples=3000, suppress_health_check=[HealthCheck.too_slow])
@given(gh_text)
def test_ARGV_4_ARGV_5_GH_1_GH_2_GH_3_gh_argv_properties(value: str) -> None:
    for argv in _gh_argvs(value):
        _check_gh_argv(argv)
        assert "-F" not in argv
        assert not [a for a in argv if a.startswith(("--field", "--input", "--hostname", "-X"))]


def _accepted(build: Callable[[str], list[str]]) -> list[str]:
    accepted = []
    for payload in CORPUS:
        try:
            build(payload)
        except ValueError:  # InvalidArgumentError
            continue
        accepted.append(payload)
    return accepted


def test_GH_2_GH_3_corpus_values_are_refused_or_inert() -> None:
    # Only names of the OWNER/NAME shape pass as a repository (no host, no '..', no ';').
    for build in (
        lambda v: issue_view_arguments(number=1, repo=v),
        lambda v: traffic_arguments(repo=v, kind="views", per=None),
        lambda v: issue_list_arguments(state="open", labels=[], assignee=None, repo=v, limit=1),
    ):
        assert _accepted(build) == ["work/fifo", "work/etc_link", "1/comments"]
    # Endpoints: only REST API paths pass, and no corpus value starts with a REST resource
    # (repos, users, ...): a scheme, a host, a leading '-', '..', spaces, shell syntax and
    # paths such as "/etc/passwd" (which gh would only ever have sent to the API host) are all
    # refused before gh runs.
    assert _accepted(lambda v: api_arguments(endpoint=v, fields={}, repo=None)) == []
    assert api_arguments(endpoint="/repos/o/r/issues/1/comments", fields={}, repo=None)[-1] == (
        "repos/o/r/issues/1/comments"
    )
    # Logins: no option, space, path traversal or shell syntax.
    logins = _accepted(
        lambda v: pr_list_arguments(state="open", author=v, base=None, repo=None, limit=1)
    )
    assert logins == ["work"]
    # Values that pass are inert: attached to their option, or a raw (never @file) field.
    argv = api_arguments(endpoint="repos/o/r/issues", fields={"body": "@/etc/passwd"}, repo=None)
    assert "--raw-field=body=@/etc/passwd" in argv
    argv = issue_list_arguments(state="open", labels=["--web"], assignee=None, repo=None, limit=1)
    assert "--label=--web" in argv
    assert "--web" not in argv


def test_GH_1_no_tool_takes_free_form_arguments() -> None:
    tools = GitHubCLIToolset.to_tools()
    names = {name for tool in tools for name in tool.parameters["properties"]}
    assert names == {
        "state",
        "labels",
        "assignee",
        "repo",
        "limit",
        "author",
        "base",
        "issue_number",
        "pr_number",
        "endpoint",
        "method",
        "fields",
        "per",
    }
    assert all(tool.parameters["additionalProperties"] is False for tool in tools)


# ------------------------------------------------------------------------------- ARGV-3


@pytest.mark.skipif(shutil.which("rg") is None, reason="ripgrep is not installed (CI installs it)")
@pytest.mark.usefixtures("no_leaks")
def test_ARGV_3_ripgrep_config_from_the_environment_is_ignored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    marker = tmp_path / "MARKER"
    hook = tmp_path / "hook.sh"
    hook.write_text(f'#!/bin/sh\ntouch {marker}\ncat "$1"\n')
    hook.chmod(0o755)
    config = tmp_path / "ripgreprc"
    config.write_text(f"--pre={hook}\n--invert-match\n")
    monkeypatch.setenv("RIPGREP_CONFIG_PATH", str(config))
    rg = TextProcessingToolset().ripgrep
    assert rg(text="keep\ndrop\n", pattern="keep") == "keep\n"
    # The oracle works: rg run directly in this environment does read the config.
    rg_path = shutil.which("rg")
    assert rg_path is not None
    direct = subprocess.run(
        [rg_path, "-e", "keep", "--", "-"], input=b"keep\ndrop\n", capture_output=True, check=False
    )
    assert direct.stdout == b"drop\n"
    assert not marker.exists()


# ------------------------------------------------------------------------------- ARGV-7


@pytest.mark.usefixtures("no_leaks")
def test_ARGV_7_tools_never_read_the_callers_stdin(fake_gh: Any) -> None:
    fake_gh.default(stdout="[]")
    code = (
        "import sys\n"
        "from typed_toolsets.text import TextProcessingToolset\n"
        "from typed_toolsets.github import GitHubCLIToolset\n"
        "t = TextProcessingToolset()\n"
        "assert t.grep(text='a', pattern='-') == \"No matches found for pattern '-'\"\n"
        "import shutil\n"
        "assert shutil.which('rg') is None or t.ripgrep(text='a', pattern='a') == 'a\\n'\n"
        "assert GitHubCLIToolset().list_issues() == 'No issues found'\n"
        "print(sys.stdin.read(), end='')\n"
    )
    line = b'{"jsonrpc":"2.0","id":1,"method":"tools/call"}\n'
    done = subprocess.run(
        [sys.executable, "-c", code], input=line, capture_output=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr.decode()
    assert done.stdout == line


# ---------------------------------------------------------------- the corpus, every tool


@pytest.mark.slow
@pytest.mark.usefixtures("no_leaks")
def test_corpus_through_every_text_tool(sandbox: Path) -> None:
    timeout = 3.0
    tools = {t.name: t for t in TextProcessingToolset(timeout=timeout).to_tools()}
    calls = 0
    for name, (arguments, slots) in TEXT_CALLS.items():
        for slot in slots:
            for payload in CORPUS:
                started = time.monotonic()
                result = tools[name].dynamic_call(_with(arguments, slot, payload))
                _check_result(result, started, timeout)
                calls += 1
    assert calls == len(CORPUS) * sum(len(slots) for _, slots in TEXT_CALLS.values())


@pytest.mark.slow
@pytest.mark.usefixtures("no_leaks")
def test_corpus_through_every_gh_tool(sandbox: Path, fake_gh: Any) -> None:
    fake_gh.default(stdout="[]")
    timeout = 10.0
    tools = {t.name: t for t in GitHubCLIToolset(timeout=timeout).to_tools()}
    for name, (arguments, slots) in GH_CALLS.items():
        for slot in slots:
            for payload in CORPUS:
                started = time.monotonic()
                result = tools[name].dynamic_call(_with(arguments, slot, payload))
                _check_result(result, started, timeout)
    argvs = fake_gh.argvs()
    assert argvs, "no payload got through to gh at all: the corpus run proved nothing"
    for argv in argvs:
        _check_gh_argv(argv)
    for call in fake_gh.calls():
        assert set(call["env"]) <= {
            "PATH",
            "HOME",
            "GH_CONFIG_DIR",
            "GH_HOST",
            "GH_TOKEN",
            "GH_PROMPT_DISABLED",
            "GH_NO_UPDATE_NOTIFIER",
            "GH_PAGER",
            "NO_COLOR",
            "LC_CTYPE",  # set by the stand-in's own Python at startup (PEP 538), not by us
        }


# ----------------------------------------------------------------------- ENV-1, ENV-2


@pytest.mark.usefixtures("no_leaks")
def test_ENV_1_gh_child_environment_is_the_allow_list(
    fake_gh: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GH_TOKEN", SENTINEL)
    monkeypatch.setenv("GH_ENTERPRISE_TOKEN", "enterprise-secret")
    monkeypatch.setenv("RIPGREP_CONFIG_PATH", "/x")
    monkeypatch.setenv("GH_HOST", "evil.example")
    monkeypatch.setenv("GH_DEBUG", "api")
    monkeypatch.delenv("GH_CONFIG_DIR", raising=False)
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    monkeypatch.setenv("HOME", "/home/someone")
    fake_gh.default(stdout="[]")
    GitHubCLIToolset().list_issues()
    (call,) = fake_gh.calls()
    env = {k: v for k, v in call["env"].items() if k != "LC_CTYPE"}
    assert env == {
        "PATH": os.environ["PATH"],
        "HOME": "/home/someone",
        "GH_HOST": "github.com",  # the configured host, not the caller's evil.example
        "GH_TOKEN": SENTINEL,
        "GH_PROMPT_DISABLED": "1",
        "GH_NO_UPDATE_NOTIFIER": "1",
        "GH_PAGER": "cat",
        "NO_COLOR": "1",
    }
    GitHubCLIToolset(hostname="ghe.example.com").list_issues()
    env = fake_gh.calls()[1]["env"]
    assert (env["GH_HOST"], env["GH_ENTERPRISE_TOKEN"]) == ("ghe.example.com", "enterprise-secret")
    assert "GH_TOKEN" not in env


@pytest.mark.usefixtures("no_leaks")
def test_ENV_2_a_leaking_gh_cannot_leak_the_token(
    fake_gh: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GH_TOKEN", SENTINEL)
    fake_gh.reply("issue", "list", echo_env=True, exit=1)
    fake_gh.reply("api", echo_env=True, exit=0)
    tools = {t.name: t for t in GitHubCLIToolset.to_tools()}
    failed = tools["github_list_issues"].dynamic_call({})
    assert failed.startswith("Failed to list issues: ")
    assert "GH_TOKEN=[REDACTED]" in failed
    assert SENTINEL not in failed
    body = tools["github_api_request"].dynamic_call({"endpoint": "user"})
    assert "GH_TOKEN=[REDACTED]" in body
    assert SENTINEL not in body


# ------------------------------------------------------------------------------- TMP-1


class _TempFileUsed(Exception):
    pass


@pytest.mark.usefixtures("no_leaks")
def test_TMP_1_no_tool_creates_a_temporary_file(
    fake_gh: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    used: list[str] = []

    def trap(name: str) -> Callable[..., Any]:
        def refuse(*args: object, **kwargs: object) -> Any:
            used.append(name)
            raise _TempFileUsed(name)

        return refuse

    for name in (
        "mkstemp",
        "mkdtemp",
        "NamedTemporaryFile",
        "TemporaryFile",
        "SpooledTemporaryFile",
        "TemporaryDirectory",
    ):
        monkeypatch.setattr(tempfile, name, trap(name))
    fake_gh.default(stdout="[]")
    results: list[ToolResult] = []
    for name, (arguments, _) in TEXT_CALLS.items():
        results.append(
            {t.name: t for t in TextProcessingToolset.to_tools()}[name].invoke(arguments)
        )
    results += [proxy.invoke(GH_CALLS[proxy.name][0]) for proxy in GitHubCLIToolset.to_tools()]
    assert used == []
    missing_rg = shutil.which("rg") is None
    failures = [
        r.error
        for r in results
        if not r.ok
        and not (
            missing_rg and r.error is not None and "'rg' program was not found" in r.error.message
        )
    ]
    assert failures == []


# ------------------------------------------------------------------------------- AG-1


@pytest.mark.usefixtures("no_leaks")
def test_AG_1_read_only_in_fact(sandbox: Path, fake_gh: Any) -> None:
    """The sandbox fixture hashes the tree before and after; a sample of payloads per tool.

    The ``readOnlyHint`` annotation itself: test_export_declarations.py
    (``test_the_built_in_toolsets_are_read_only``).
    """
    fake_gh.default(stdout="{}")
    proxies = [*TextProcessingToolset.to_tools(), *GitHubCLIToolset.to_tools()]
    calls = {**TEXT_CALLS, **GH_CALLS}
    for proxy in proxies:
        arguments, slots = calls[proxy.name]
        for payload in ("--pre=rm", "$(touch /tmp/PWNED_SUBST)", "../secret.txt", "-"):
            for slot in slots:
                started = time.monotonic()
                _check_result(proxy.dynamic_call(_with(arguments, slot, payload)), started, 10)


# ------------------------------------------------------------------------------- FZ-2


def _fuzz(proxy: ToolProxy, examples: int) -> None:
    @settings(
        max_examples=examples,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )
    @given(from_schema(proxy.parameters))
    def run(arguments: dict[str, Any]) -> None:
        result = proxy.invoke(arguments)
        assert isinstance(result, ToolResult)
        if not result.ok:
            assert result.error is not None
            assert result.error.kind in ("arguments", "execution", "limit")
            assert "Traceback" not in result.error.message
            if result.error.kind == "execution":  # the tool's own message
                assert escape_controls(result.error.message) == result.error.message
        else:
            assert isinstance(result.value, str)
            # Issue 17 (10): no raw control character in any answer (escaping changes nothing).
            assert escape_controls(result.value) == result.value

    run()


@pytest.mark.slow
@pytest.mark.parametrize("name", list(TEXT_CALLS))
def test_FZ_2_schema_generated_arguments_text(name: str) -> None:
    proxy = {t.name: t for t in TextProcessingToolset(timeout=3).to_tools()}[name]
    _fuzz(proxy, 40 if name in ("text_grep", "text_rg") else 100)


@pytest.mark.slow
@pytest.mark.parametrize("name", list(GH_CALLS))
def test_FZ_2_schema_generated_arguments_gh(name: str, fake_gh: Any) -> None:
    fake_gh.default(stdout="[]")
    proxy = {t.name: t for t in GitHubCLIToolset().to_tools()}[name]
    _fuzz(proxy, 25)
    for argv in fake_gh.argvs():
        _check_gh_argv(argv)


# ------------------------------------------------------------ JSON-8: the schemas' own lint


def _subschemas(schema: object) -> Iterator[dict[str, Any]]:
    stack = [schema]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            yield item
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def test_JSON_8_every_built_in_schema_is_linear_to_check() -> None:
    """Each pattern compiles under RE2 (linear matching); a set's array has at most 256 items."""
    import re2

    schemas: list[object] = []
    for proxy in [*TextProcessingToolset.to_tools(), *GitHubCLIToolset.to_tools()]:
        schemas += [proxy.parameters, proxy.output_schema]
        with contextlib.suppress(typed_toolsets.ExportError):  # no strict form: nothing to lint
            schemas.append(proxy.strict_parameters)
    for schema in schemas:
        for sub in _subschemas(schema):
            pattern = sub.get("pattern")
            if isinstance(pattern, str):
                re2.compile(pattern)  # raises on what RE2 cannot run in linear time
            if sub.get("uniqueItems") is True:
                assert 0 <= sub.get("maxItems", 10**9) <= 256, sub


# ------------------------------------------- DL-1 at the tool level: no leak on any ending


def _slow_program(directory: Path, name: str) -> None:
    script = directory / name
    script.write_text(
        f"#!{sys.executable} -S\n"
        "import subprocess, sys, time\n"
        "subprocess.Popen([sys.executable, '-S', '-c', 'import time; time.sleep(60.21)'])\n"
        "time.sleep(60.21)\n"
    )
    script.chmod(0o755)


@pytest.mark.slow
@pytest.mark.usefixtures("no_leaks")
@pytest.mark.parametrize("tool", ["text_grep", "text_rg", "github_list_issues"])
def test_DL_1_keyboard_interrupt_during_a_tool_call_leaves_nothing(
    tool: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import signal
    import threading

    for program in ("grep", "rg", "gh"):
        _slow_program(tmp_path, program)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    proxies = {t.name: t for t in [*TextProcessingToolset.to_tools(), *GitHubCLIToolset.to_tools()]}
    arguments = {"text": "a", "pattern": "a"} if tool.startswith("text") else {}
    main = threading.main_thread().ident
    assert main == threading.get_ident()
    timer = threading.Timer(0.5, signal.pthread_kill, (main, signal.SIGINT))
    started = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            proxies[tool].dynamic_call(arguments)
    finally:
        timer.cancel()
    assert time.monotonic() - started < 2.0


@pytest.mark.usefixtures("no_leaks")
@pytest.mark.parametrize("tool", ["text_grep", "text_rg", "github_list_issues"])
def test_DL_1_an_exception_inside_a_tool_call_leaves_nothing(
    tool: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from typed_toolsets.builtins import process as _process

    for program in ("grep", "rg", "gh"):
        _slow_program(tmp_path, program)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")

    def broken_run(self: Any, deadline: float) -> Any:
        time.sleep(0.2)  # the program and its child are running now
        raise OSError("injected failure while reading")

    monkeypatch.setattr(_process._Loop, "run", broken_run)
    proxies = {t.name: t for t in [*TextProcessingToolset.to_tools(), *GitHubCLIToolset.to_tools()]}
    arguments = {"text": "a", "pattern": "a"} if tool.startswith("text") else {}
    message = proxies[tool].dynamic_call(arguments)
    assert message == f"Error: Tool '{tool}' failed: OSError: injected failure while reading"


@pytest.mark.usefixtures("no_leaks")
@pytest.mark.parametrize("tool", ["text_grep", "text_rg", "github_list_issues"])
def test_DL_1_DL_2_a_timeout_inside_a_tool_call_leaves_nothing(
    tool: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for program in ("grep", "rg", "gh"):
        _slow_program(tmp_path, program)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    proxies = {
        t.name: t
        for t in [
            *TextProcessingToolset(timeout=0.4).to_tools(),
            *GitHubCLIToolset(timeout=0.4).to_tools(),
        ]
    }
    arguments = {"text": "a", "pattern": "a"} if tool.startswith("text") else {}
    started = time.monotonic()
    message = proxies[tool].dynamic_call(arguments)
    assert time.monotonic() - started < 1.0
    assert message.startswith(f"Error: Tool '{tool}' failed: ProgramTimeoutError: ")
    assert "within 0.4 seconds" in message


# ------------------------------------------------------------------ the public error family


def _drawn_hierarchy() -> dict[str, tuple[str | None, list[str]]]:
    """The tree in exceptions.__doc__: each class, its parent in the drawing, its extra bases."""
    doc = exceptions.__doc__ or ""
    block = doc.split("Hierarchy::\n\n", 1)[1].split("\n\n", 1)[0]
    stack: list[tuple[int, str]] = []
    drawn: dict[str, tuple[str | None, list[str]]] = {}
    for line in block.splitlines():
        found = re.search(r"(\w+Error)( \((\w+)\))?", line)
        assert found is not None, line
        column = found.start()
        while stack and stack[-1][0] >= column:
            stack.pop()
        extra = [found.group(3)] if found.group(3) else []
        drawn[found.group(1)] = (stack[-1][1] if stack else None, extra)
        stack.append((column, found.group(1)))
    return drawn


def test_the_exceptions_docstring_draws_the_real_hierarchy() -> None:
    drawn = _drawn_hierarchy()
    assert set(drawn) == {*exceptions.__all__, "TypedToolsetsError"}
    for name, (parent, extra) in drawn.items():
        cls = getattr(exceptions, name, None) or getattr(typed_toolsets, name)
        bases = [base.__name__ for base in cls.__bases__]
        assert bases == ([parent] if parent else ["Exception"]) + extra, name


def test_the_error_family_is_public_and_shared_by_the_facades() -> None:
    import typed_toolsets.github
    import typed_toolsets.text

    for name in exceptions.__all__:
        cls = getattr(exceptions, name)
        assert cls.__module__ == "typed_toolsets.builtins.exceptions"
        assert issubclass(cls, exceptions.BuiltinToolError)
        for facade in (typed_toolsets.text, typed_toolsets.github):
            assert getattr(facade, name, cls) is cls
    # Each facade re-exports every class its tools raise.
    assert {"InvalidPatternError", "ProgramFailedError"} <= set(typed_toolsets.text.__all__)
    assert {"OutputTooLargeError", "ProgramFailedError"} <= set(typed_toolsets.github.__all__)
