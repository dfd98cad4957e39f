"""How many requests the process's open-file limit lets the HTTP server take at once.

Each connection holds a file. Past the process's limit, uvicorn's accept loop fails with "Too
many open files" and logs it again for every connection still queued (thousands of tracebacks
a second) while the requests past its own bound wait rather than get their 503. The usual
Linux limit (1,024 files, systemd's soft default) is below what `MAX_IN_FLIGHT` connections
need with the server's own files, so `files_for` raises the soft limit toward the hard one
while the server runs, and lowers the bound to what the limit allows when the hard limit is
lower still.
"""

from __future__ import annotations

import contextlib
from collections.abc import Generator
from typing import Final

from .protocol import logger

__all__ = ["FILES_PER_REQUEST", "FILES_RESERVED", "files_for"]

#: A request's connection, and room for what its call opens (a program's pipes) meanwhile.
FILES_PER_REQUEST: Final = 2
#: The server's own files: the listening socket, stdio, the event loop's, the log's, imports.
FILES_RESERVED: Final = 64


@contextlib.contextmanager
def files_for(bound: int) -> Generator[int]:
    """Raise the open-file limit for *bound* requests at once while the context runs.

    Args:
        bound: The requests the server means to serve at once (`MAX_IN_FLIGHT`).

    Yields:
        *bound*, or fewer when the hard limit on open files cannot hold them (said in a
        warning line, with how to raise it); *bound* where there is no such limit (Windows).
        The soft limit is put back as it was when the context ends.
    """
    try:
        import resource
    except ImportError:  # Windows: no per-process limit of this kind
        yield bound
        return
    wanted = bound * FILES_PER_REQUEST + FILES_RESERVED
    before, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    soft = before
    if soft != resource.RLIM_INFINITY and soft < wanted:
        raised = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (raised, hard))
            soft = raised
        except (ValueError, OSError):  # a sandbox may refuse it: serve within the limit
            pass
    allowed = bound
    if soft != resource.RLIM_INFINITY and soft < wanted:
        allowed = max(1, (soft - FILES_RESERVED) // FILES_PER_REQUEST)
        logger.warning(
            "the process may open %d files: at most %d requests are served at once, not %d "
            "(raise its hard limit, `ulimit -Hn`, to %d or more)",
            soft,
            allowed,
            bound,
            wanted,
        )
    try:
        yield allowed
    finally:
        if soft != before:
            # Lowered again, files opened past it stay open; only new ones are refused.
            with contextlib.suppress(ValueError, OSError):
                resource.setrlimit(resource.RLIMIT_NOFILE, (before, hard))
