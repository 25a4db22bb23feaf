"""The names the editor answers to, and the origins its forms may come from.

DNS rebinding points a name a hostile page controls at the editor's address: the browser then
takes the editor for that page's own site, and its requests carry ``Host: evil.example``. The
editor answers only requests whose ``Host`` names an address it listens on (or a name given
with ``--allowed-host``) and refuses the rest (421) before any session or CSRF token is made.

A request that may change something must also come from one of the editor's own pages: its
``Origin`` (or, without one, its ``Referer``) names the host the request was sent to (see
:func:`._csrf.protected`, which checks it before the CSRF token).
"""

from __future__ import annotations

import ipaddress
from collections.abc import Collection
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from ._headers import SECURITY_HEADERS

__all__ = ["HostGuard", "foreign_origin", "split_host"]

_LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
_WILDCARDS = frozenset({"", "0.0.0.0", "::"})
_DEFAULT_PORTS = {"http": 80, "https": 443}


def split_host(netloc: str) -> tuple[str, str]:
    """``netloc`` (``name``, ``name:port``, ``[v6]:port``) as its lower-case name (IPv6
    without brackets) and its port as given ("" when none is)."""
    netloc = netloc.strip().lower()
    if netloc.startswith("["):
        name, _, rest = netloc[1:].partition("]")
        return name, rest.removeprefix(":")
    if netloc.count(":") == 1:
        name, _, port = netloc.partition(":")
        return name, port
    return netloc, ""  # a name without a port, or a bare IPv6 address


def _port(given: str, scheme: str) -> int | None:
    """A port as given, else the scheme's default; None when it is not a number."""
    if not given:
        return _DEFAULT_PORTS.get(scheme)
    return int(given) if given.isdigit() else None


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def _is_loopback(name: str) -> bool:
    return name == "localhost" or (_is_ip(name) and ipaddress.ip_address(name).is_loopback)


class HostGuard:
    """ASGI middleware: refuses (421) an HTTP request whose ``Host`` is not one the editor
    answers to: the address it is bound to (``bind_host``) or the address the connection
    arrived at, with the port it arrived at; for a loopback address also ``localhost``,
    ``127.0.0.1`` and ``[::1]``; bound to every address (``0.0.0.0``, ``::``), any IP
    address (a rebinding page always names a host by name). A name in ``allowed`` (a reverse
    proxy's, say) is answered on any port; ``NAME:PORT`` there, on that port only."""

    def __init__(self, app: ASGIApp, bind_host: str, allowed: Collection[str] = ()) -> None:
        self.app = app
        self.bind_host = bind_host.strip("[]").lower()
        self.allowed = frozenset(split_host(name) for name in allowed)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and not self.answers(scope):
            host = Headers(scope=scope).get("host", "")
            message = (
                f"misdirected request: this editor does not answer to the host {host!r}; "
                "open it by the address it listens on, or start it with --allowed-host NAME"
            )
            response = PlainTextResponse(message, 421, headers=SECURITY_HEADERS)
            await response(scope, receive, send)
            return
        await self.app(scope, receive, send)

    def answers(self, scope: Scope) -> bool:
        """Whether the request's ``Host`` names the editor."""
        host = Headers(scope=scope).get("host")
        if host is None:
            return False
        scheme = scope.get("scheme", "http")
        name, given_port = split_host(host)
        port = _port(given_port, scheme)
        if (name, "") in self.allowed or (name, str(port)) in self.allowed:
            return True
        server = scope.get("server")  # the address the connection arrived at
        if not server:
            return False
        arrived_at = (str(server[0]).lower(), server[1] or _DEFAULT_PORTS.get(scheme))
        if port is None or port != arrived_at[1]:
            return False
        ours = {self.bind_host, arrived_at[0]}
        if any(_is_loopback(address) for address in ours if address):
            ours |= _LOOPBACK_NAMES
        if self.bind_host in _WILDCARDS and _is_ip(name):
            return True
        return name in ours


def foreign_origin(headers: Headers) -> str | None:
    """The origin a state-changing request came from when it is not the host it was sent to
    (``Origin``, else ``Referer``; ``null`` for an opaque one), else None. Its host and port
    must be those of ``Host`` (a port left out is the origin's scheme's default, so that an
    editor behind a TLS proxy is its own origin). A request with neither header (a script,
    not a browser: browsers send ``Origin`` with every POST) is left to its CSRF token."""
    origin = headers.get("origin") or headers.get("referer")
    if origin is None:
        return None
    parts = urlsplit(origin)
    if parts.scheme not in _DEFAULT_PORTS or not parts.netloc:
        return origin
    name, port = split_host(parts.netloc)
    sent_to_name, sent_to_port = split_host(headers.get("host", ""))
    same = name == sent_to_name and _port(port, parts.scheme) == _port(sent_to_port, parts.scheme)
    return None if same else origin
