"""Where `typed_toolsets.server` may bind: loopback alone without a token, and what the host check answers."""

from __future__ import annotations

import pytest

from tests.server.sample import SampleToolset
from typed_toolsets.server import asgi_app, check_bind, is_loopback
from typed_toolsets.server.http import LOOPBACK_HOSTS


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True),
        ("127.8.9.10", True),
        ("localhost", True),
        ("LOCALHOST", True),  # the resolver's names are case-insensitive
        ("localhost.", True),
        ("::1", True),
        ("[::1]", True),
        ("0.0.0.0", False),  # noqa: S104 - the address we refuse
        ("::", False),
        ("192.168.1.5", False),
        ("example.com", False),
        ("localhost.example.com", False),
    ],
)
def test_loopback(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback


def test_binding_beyond_loopback_needs_a_token() -> None:
    check_bind("127.0.0.1", None)
    check_bind("0.0.0.0", "token")  # noqa: S104
    with pytest.raises(ValueError, match=r"binding to 0\.0\.0\.0 would let anyone"):
        check_bind("0.0.0.0", None)  # noqa: S104
    with pytest.raises(ValueError, match="token is empty"):
        check_bind("127.0.0.1", "")
    # An empty host names no address (it read "binding to  would let anyone").
    for host, token in (("", None), (" ", "token")):
        with pytest.raises(ValueError) as raised:
            check_bind(host, token)
        assert str(raised.value) == (
            f"the host {host!r} names no address; give one (127.0.0.1 for this machine only)"
        )


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "::1", "[::1]", "LocalHost"])
def test_each_address_bound_without_a_token_is_one_the_host_check_answers(host: str) -> None:
    check_bind(host, None)
    name = f"[{host.strip('[]')}]" if ":" in host else host.lower()
    assert name in LOOPBACK_HOSTS


def test_another_loopback_address_needs_a_token_since_no_request_to_it_is_answered() -> None:
    with pytest.raises(ValueError, match=r"cannot serve on 127\.0\.0\.2; serve on 127\.0\.0\.1"):
        check_bind("127.0.0.2", None)
    check_bind("127.0.0.2", "token")
    with pytest.raises(ValueError, match="token is empty"):
        asgi_app(SampleToolset.to_tools(), token="")


@pytest.mark.parametrize("token", ["abc\n", " abc", "abc ", "café", "a\tb"])
def test_a_token_no_client_can_send_is_refused_from_python_too(token: str) -> None:
    # The command line refused it (--token-env); asgi_app and check_bind took it, and every
    # request was then answered 401.
    reason = (
        "the bearer token has spaces at its ends, a line break or another character an "
        "Authorization header cannot carry; use printable ASCII"
    )
    with pytest.raises(ValueError, match=reason):
        asgi_app(SampleToolset.to_tools(), token=token)
    with pytest.raises(ValueError, match=reason):
        check_bind("0.0.0.0", token)  # noqa: S104
    asgi_app(SampleToolset.to_tools(), token="a b")  # sent as it is after "Bearer "


def test_the_refusal_to_bind_names_the_python_argument_and_the_option() -> None:
    with pytest.raises(ValueError, match=r"token=\.\.\. from Python; --token-env NAME on the"):
        check_bind("0.0.0.0", None)  # noqa: S104
