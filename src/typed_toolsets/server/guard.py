"""Who may call the HTTP server: loopback binding, the ``Host`` check and the bearer token.

- With a bearer token, every request must carry ``Authorization: Bearer <token>`` (compared in
  constant time); any other gets 401 before anything else runs.
- Without one, the server is for this machine only: `check_bind` refuses to bind anywhere but
  loopback, and the app answers only requests whose ``Host`` (and ``Origin``, when sent) is a
  loopback name, so a web page cannot reach it through DNS rebinding.
"""

from __future__ import annotations

import hmac
import ipaddress
from collections.abc import Sequence
from typing import Final

from mcp.server.transport_security import TransportSecuritySettings
from starlette.responses import JSONResponse, PlainTextResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from typed_toolsets._public import public_in

__all__ = [
    "LOOPBACK_HOSTS",
    "BearerAuth",
    "HostCheck",
    "check_bind",
    "is_loopback",
    "transport_security",
]

#: The ``Host`` values a server without a token answers (any port): loopback names only.
LOOPBACK_HOSTS: Final = ("127.0.0.1", "localhost", "[::1]")


def is_loopback(host: str) -> bool:
    """Whether binding to *host* keeps the server on this machine (``localhost``, 127/8, ::1)."""
    if _host_name(host) == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def token_problem(token: str) -> str | None:
    """Why *token* cannot be the bearer token, if it cannot (the words follow "the token ").

    No client can send one with a line break, a character outside printable ASCII, or spaces at
    its ends (a header ends at a line break, and its value is trimmed): the server would refuse
    every request.
    """
    if not token:
        return "is empty; set it to a long random string"
    if not (token.isascii() and token.isprintable() and token == token.strip()):
        return (
            "has spaces at its ends, a line break or another character an Authorization header "
            "cannot carry; use printable ASCII (a token read from a file keeps its final line "
            "break: strip it)"
        )
    return None


def check_token(token: str | None) -> None:
    """Refuse a bearer token no client can send (see `token_problem`).

    Raises:
        ValueError: It cannot be the token; the message says why.
    """
    problem = None if token is None else token_problem(token)
    if problem is not None:
        msg = f"the bearer token {problem}"
        raise ValueError(msg)


def check_bind(host: str, token: str | None) -> None:
    """Refuse to serve beyond loopback without a bearer token.

    Raises:
        ValueError: *host* is empty; it is not a loopback address and there is no token, or a
            loopback address the ``Host`` check does not answer (`LOOPBACK_HOSTS`); or the token
            is one no client can send (`token_problem`).
    """
    check_token(token)
    if not host.strip():
        # It read "binding to  would let anyone ..."; no address is bound by that name.
        msg = f"the host {host!r} names no address; give one (127.0.0.1 for this machine only)"
        raise ValueError(msg)
    if token is None and not is_loopback(host):
        msg = (
            f"binding to {host} would let anyone who can reach it run the tools; serve on "
            "127.0.0.1 (the default), or require a bearer token (token=... from Python; "
            "--token-env NAME on the command line, with the token in that environment variable)"
        )
        raise ValueError(msg)
    if token is None and _host_name(host) not in LOOPBACK_HOSTS:
        # Another loopback address (127.0.0.2): every request to it would get 421 from the
        # Host check, which answers only the names it can list.
        names = ", ".join(LOOPBACK_HOSTS)
        msg = (
            f"without a token the server answers only requests addressed to {names}, so it "
            f"cannot serve on {host}; serve on 127.0.0.1 (the default)"
        )
        raise ValueError(msg)


def _host_name(host: str) -> str:
    """*host* as a ``Host`` header names it (an IPv6 address in brackets).

    A name is case-insensitive and may end in the root's dot (``LOCALHOST``, ``localhost.``):
    the resolver binds those to the same address, and clients name it ``localhost``.
    """
    bare = host.strip("[]")
    return f"[{bare}]" if ":" in bare else bare.lower().rstrip(".")


# ------------------------------------------------------------------------------- bearer token


@public_in("typed_toolsets.server")
class BearerAuth:
    """ASGI middleware: only requests with ``Authorization: Bearer <token>`` get through.

    The token is compared in constant time; a request without it gets 401 (with
    ``WWW-Authenticate: Bearer``) before the app sees it. Lifespan events pass.
    """

    def __init__(self, app: ASGIApp, *, token: str) -> None:
        if not token:
            msg = "BearerAuth needs a non-empty token"
            raise ValueError(msg)
        self._app = app
        self._token = token.encode()

    def _refusal(self, scope: Scope) -> tuple[str, str] | None:
        """None when the request carries the token, else why not and the challenge to send."""
        values = [v for k, v in scope.get("headers", ()) if k == b"authorization"]
        if not values:
            return "this server requires an Authorization: Bearer <token> header", "Bearer"
        scheme, _, credentials = values[0].partition(b" ")
        if len(values) > 1 or scheme.lower() != b"bearer":
            return "send exactly one Authorization header, of the form Bearer <token>", "Bearer"
        if not hmac.compare_digest(credentials.strip(), self._token):
            reason = "the bearer token is not the one this server was started with"
            return reason, 'Bearer error="invalid_token"'
        return None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass the request on when it carries the token, else answer 401."""
        refusal = self._refusal(scope) if scope["type"] in ("http", "websocket") else None
        if refusal is None:
            await self._app(scope, receive, send)
            return
        reason, challenge = refusal
        response = JSONResponse(
            {"error": "invalid_token", "error_description": reason},
            status_code=401,
            headers={"WWW-Authenticate": challenge},
        )
        await response(scope, receive, send)


def transport_security(
    token: str | None, allowed_hosts: Sequence[str] | None
) -> TransportSecuritySettings | None:
    """Host/Origin checks: loopback names without a token, *allowed_hosts* when given."""
    if allowed_hosts is None and token is not None:
        return None  # the token is the guard; a rebinding page cannot send it
    # In lower case, as the request's own names are compared (`HostCheck`).
    hosts = [host.lower() for host in (LOOPBACK_HOSTS if allowed_hosts is None else allowed_hosts)]
    with_ports = [h for host in hosts for h in (host, f"{host}:*")]
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=with_ports,
        allowed_origins=[f"{scheme}://{h}" for h in with_ports for scheme in ("http", "https")],
    )


# ------------------------------------------------------------------------ Host and Origin


#: The headers naming where a request is addressed: host names in them are case-insensitive.
_NAMING: Final = (b"host", b"origin")
_BAD_HOST: Final = PlainTextResponse("Invalid Host header", status_code=421)
_BAD_ORIGIN: Final = PlainTextResponse("Invalid Origin header", status_code=403)


def _admitted(value: str | None, allowed: Sequence[str]) -> bool:
    """Whether *value* is one of *allowed*, where ``name:*`` admits ``name`` on any port."""
    if value is None:
        return False
    return value in allowed or any(
        name.endswith(":*") and value.startswith(name[:-1]) for name in allowed
    )


class HostCheck:
    """ASGI middleware: the ``Host`` and ``Origin`` checks (`transport_security`), before all else.

    Outermost, before the token and the routes: a request they refuse gets 421 or 403 whatever
    its path, method or credentials, never an answer that tells a rebinding page a server is
    there (a 404, a redirect to ``/mcp``, a 401). Names are compared in lower case (a name in any
    case is the same host, RFC 3986). It writes no log line (the SDK's check logs the header as
    sent, which lets any web page write into the server's log). Lifespan events pass.
    """

    def __init__(self, app: ASGIApp, *, settings: TransportSecuritySettings | None) -> None:
        self._app = app
        self._settings = settings

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass the request on when its names are admitted, else answer 421 or 403."""
        settings = self._settings
        if settings is not None and scope["type"] in ("http", "websocket"):
            named: dict[bytes, str] = {}
            for name, value in scope.get("headers", ()):
                if name in _NAMING and name not in named:
                    named[name] = value.decode("latin-1").lower()
            if not _admitted(named.get(b"host"), settings.allowed_hosts):
                await _BAD_HOST(scope, receive, send)
                return
            origin = named.get(b"origin")
            if origin and not _admitted(origin, settings.allowed_origins):
                await _BAD_ORIGIN(scope, receive, send)
                return
        await self._app(scope, receive, send)
