"""What the editor is started with: its clusters, where it listens, who may use it."""

from __future__ import annotations

import ipaddress
import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from ..connect import Connection
from ._auth import Authenticator

__all__ = ["DEFAULT_LIVE_INTERVAL", "WebSettings", "is_loopback"]

#: Seconds between two reads of a cluster for its live page, unless told otherwise.
DEFAULT_LIVE_INTERVAL = 5.0


def is_loopback(host: str) -> bool:
    """Whether ``host`` is reachable only from this machine (127.0.0.0/8, ::1, localhost)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


@dataclass(frozen=True)
class WebSettings:
    """The editor's settings.

    Attributes:
        clusters: the clusters it shows, by name (in the order given).
        allow_writes: whether changes may be sent at all; without it the editor is read-only.
        host, port: where it listens.
        auth: how users log in; None only when bound to a loopback address.
        journal: the journal's SQLite file, where every apply is recorded and the history
            page reads; None: :func:`kafka_config_admin.journal.journal_path`'s choice (the
            ``KAFKA_CONFIG_ADMIN_JOURNAL`` variable, else the XDG data directory), made when
            used.
        live_interval: seconds within which a change made on a cluster shows on its live
            page (the cluster is read a little more often: see :mod:`._live`).
        live_max_per_poll: at most this many resources described by each read of a live
            page, in turn (:class:`~kafka_config_admin.feed.ReadRotation`): a change then
            shows within ``ceil(resources / live_max_per_poll)`` intervals; None: every
            resource at every read.
        session_minutes: how long a session lasts without a request.
        timeout: seconds each call to a cluster may take; None: each cluster's own
            (``Connection.timeout``, which a clusters file may set).
        page_size: topics per page of the topic list.
        allowed_hosts: more names the editor answers to in a request's ``Host`` (a reverse
            proxy's), besides the address it listens on (see :mod:`._hosts`).
    """

    clusters: Mapping[str, Connection]
    allow_writes: bool = False
    host: str = "127.0.0.1"
    port: int = 8080
    auth: Authenticator | None = None
    journal: Path | None = None
    live_interval: float = DEFAULT_LIVE_INTERVAL
    live_max_per_poll: int | None = None
    session_minutes: float = 30.0
    timeout: float | None = None
    page_size: int = 100
    allowed_hosts: tuple[str, ...] = ()

    def problem(self) -> str | None:
        """Why the editor must not start with these settings, or None."""
        if not 0 < self.live_interval < math.inf:
            return (
                f"the live page's poll interval must be a finite number above 0 s, "
                f"not {self.live_interval}"
            )
        bound = self.live_max_per_poll
        if bound is not None and (
            isinstance(bound, bool) or not isinstance(bound, int) or bound < 1
        ):
            return (
                f"the live page's resources read per poll must be a positive integer, not {bound!r}"
            )
        if not self.clusters:
            return "no cluster to show: give --bootstrap-server or a clusters file"
        if self.auth is None and not is_loopback(self.host):
            return (
                f"refusing to listen on {self.host} without authentication: give "
                "--password-hash-env/--password-hash-file or --trust-proxy-user-header "
                "(or listen on 127.0.0.1)"
            )
        return None
