r"""`GitHubCLIToolset`: DSPy.rb's read-only GitHub tools (the seed), run safely through ``gh``.

Import it by name (``import typed_toolsets`` does not load it)::

    from typed_toolsets.github import GitHubCLIToolset

    tools = GitHubCLIToolset.to_tools()          # or GitHubCLIToolset(timeout=30).to_tools()

The seven tools, their names, descriptions, parameters, enums, defaults and output formats are
the seed's (DSPy.rb ``GitHubCLIToolset``). They run the ``gh`` program (found with
`shutil.which` on the caller's ``PATH`` at each call, authenticated as gh itself is), never a
shell, with validated argument vectors (see `typed_toolsets.builtins.github_args`), an allow-listed
environment that carries only the token for the configured host, a deadline (`timeout`) that
kills gh's whole process group, and a cap on its output (`max_output_bytes`).

Fixed seed bugs: ``github_api_request`` sends no ``--repo`` (``gh api`` has no such flag; the
seed's calls with a repo failed with "unknown flag"); ``repo`` fills the endpoint's ``{owner}``
and ``{repo}`` placeholders instead. ``github_traffic_views``/``_clones`` stay GET when ``per``
is given (the seed's ``-f`` without ``--method GET`` made gh POST). ``github_get_pr`` reports
``Mergeable`` truthfully: gh answers ``MERGEABLE``, ``CONFLICTING`` or ``UNKNOWN``, shown as
``Yes``, ``No`` and ``Unknown`` (the seed said ``Yes`` for all three). ``github_api_request``
only ever sends GET.

Errors. Outputs and the seed's failure strings are returned as strings: ``Failed to list
issues: <gh's message>``, ``Failed to parse issues data: ...``, ``Error: Only GET requests are
allowed for read-only access``. Problems the seed had no answer for are raised as
`BuiltinToolError` subclasses (the model-facing call turns them into ``Error: Tool
'github_get_issue' failed: <Class>: <message>``): `InvalidArgumentError` (a repo, endpoint,
number or field that fails validation, before gh runs), `ProgramNotFoundError` (no gh),
`ProgramTimeoutError` (deadline), `OutputTooLargeError` (JSON cut at the output cap),
`ProgramFailedError` (gh crashed: one line with its exit status, never its goroutine dump).
Control characters from GitHub content are shown as ``\xNN`` and the token never appears in
any text.

Known limit: gh stores tokens in the system keyring in recent versions, which the allow-listed
environment cannot reach; set ``GH_TOKEN`` (or ``GH_ENTERPRISE_TOKEN``) in the environment of
the calling process, or point ``GH_CONFIG_DIR`` at a config holding the token.
"""

from __future__ import annotations

from typed_toolsets.builtins.github import *  # noqa: F403 - the public names, listed in __all__
from typed_toolsets.builtins.github import __all__ as __all__
