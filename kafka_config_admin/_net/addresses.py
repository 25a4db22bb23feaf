"""Bootstrap server addresses checked as the resolver will read them, before any connection.

Python hands a host name to the resolver through the IDNA codec, which refuses an empty label
(``a..b``) and a label of more than 63 characters; a port is 1-65535. A server is refused here
only for what the resolver or the socket would certainly refuse, with a short message (the
address shortened, never echoed whole); a name that merely does not resolve is the connection's
to say.
"""

from __future__ import annotations

import ipaddress

from .._exceptions import InvalidArgumentError
from .._models.validation import shorten

__all__ = ["check_bootstrap_server"]

#: The longest label of a host name (RFC 1035) that Python's IDNA codec passes on.
MAX_LABEL = 63


def check_bootstrap_server(server: str) -> None:
    """``host:port`` (``[v6]:port`` too); a missing port means Kafka's default 9092.

    Raises :class:`InvalidArgumentError` naming the server (shortened) and what is wrong.
    """
    if any(char.isspace() for char in server) or not server.isascii():
        raise _refused(server, "a host name has no spaces and only ASCII characters")
    host, colon, port = server.rpartition(":")
    if not colon:
        host, port = server, "9092"  # no port: Kafka's default
    elif ":" in host and not host.endswith("]"):
        return  # a bare IPv6 address: aiokafka adds the default port
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise _refused(server, f"the port {shorten(port, 20)} is not a number 1-65535")
    if host.startswith("["):
        _check_ipv6(server, host)
        return
    problem = _host_name_problem(host)
    if problem is not None:
        raise _refused(server, problem)


def _check_ipv6(server: str, host: str) -> None:
    try:
        ipaddress.IPv6Address(host[1:-1])
    except ValueError:
        raise _refused(server, f"{shorten(host, 40)} is not an IPv6 address") from None


def _host_name_problem(host: str) -> str | None:
    """What the resolver would refuse in ``host``, else None."""
    if not host:
        return "the host is empty"
    for label in host.removesuffix(".").split("."):
        if not label:
            return "the host name has an empty label (two dots in a row, or a leading dot)"
        if len(label) > MAX_LABEL:
            return (
                f"the label {shorten(label, 20)} of the host name is longer than {MAX_LABEL} "
                "characters"
            )
    return None


def _refused(server: str, why: str) -> InvalidArgumentError:
    return InvalidArgumentError(f"bootstrap server {shorten(server)} is not host:port: {why}")
