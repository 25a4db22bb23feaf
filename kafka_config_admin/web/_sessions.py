"""Sessions kept on the server: a random id in a cookie, the user, the CSRF token, and the
edits not yet applied. A session ends after a while without requests (and at logout).

Edits stay on the server, never in the cookie: a bulk edit of thousands of topics does not
fit one, and what the browser holds it could change.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from ..desired import Plan
from ..state import DesiredState
from ._edits import Edits

__all__ = ["COOKIE", "Session", "SessionStore"]

COOKIE = "kca_session"
#: Sessions kept at most: every browser without a cookie gets one (its page needs a CSRF
#: token), so a flood of cookieless requests must not grow the store without end.
MAX_SESSIONS = 10_000
#: Plans kept per cluster and session, as shown (tabs open on older ones: reload them).
SHOWN_PLANS = 8


@dataclass
class Session:
    """One browser's session."""

    id: str
    csrf_token: str
    last_seen: float
    user: str | None = None
    #: Pending edits per cluster name.
    edits: dict[str, Edits] = field(default_factory=dict)
    #: The plans shown lately per cluster, by digest: an apply applies the one its page
    #: showed, and only when the pending edits still make it (several tabs, one session).
    shown: dict[str, dict[str, Plan]] = field(default_factory=dict)
    #: The desired-state file last planned per cluster, with its plan as shown.
    files: dict[str, tuple[DesiredState, Plan]] = field(default_factory=dict)
    #: What the next full page of a cluster says first, once (what a bulk pattern matched).
    notices: dict[str, str] = field(default_factory=dict)

    def edits_of(self, cluster: str) -> Edits:
        """The pending edits for ``cluster`` (made empty on first use)."""
        return self.edits.setdefault(cluster, Edits())

    def remember_plan(self, cluster: str, plan: Plan) -> None:
        """Keep ``plan`` as shown on a page of ``cluster`` (the latest few are kept)."""
        shown = self.shown.setdefault(cluster, {})
        digest = plan.digest  # computed once: a sensitive value is sealed slowly on purpose
        shown.pop(digest, None)
        shown[digest] = plan
        while len(shown) > SHOWN_PLANS:
            del shown[next(iter(shown))]

    def shown_plan(self, cluster: str, digest: str) -> Plan | None:
        """The plan of ``cluster`` a page showed with this digest, if it is still kept."""
        return self.shown.get(cluster, {}).get(digest)


class SessionStore:
    """Every live session, by id; idle ones expire."""

    def __init__(
        self,
        idle_seconds: float,
        clock: Callable[[], float] = time.monotonic,
        *,
        max_sessions: int = MAX_SESSIONS,
    ) -> None:
        self._sessions: dict[str, Session] = {}
        self._idle = idle_seconds
        self._clock = clock
        self._max = max_sessions

    def __len__(self) -> int:
        return len(self._sessions)

    def get(self, session_id: str | None) -> Session | None:
        """The live session with this id (its idle time starts again), or None."""
        now = self._clock()
        self._expire(now)
        session = self._sessions.get(session_id or "")
        if session is not None:
            session.last_seen = now
        return session

    def new(self) -> Session:
        """A fresh session with its own id and CSRF token (when the store is full, the idlest
        session that holds nothing, no user and no edits, makes room; else the idlest)."""
        if len(self._sessions) >= self._max:
            self._expire(self._clock())
        if len(self._sessions) >= self._max:
            sessions = self._sessions.values()
            empty = [s for s in sessions if s.user is None and not any(s.edits.values())]
            self.end(min(empty or sessions, key=lambda s: s.last_seen))
        session = Session(
            id=secrets.token_urlsafe(32),
            csrf_token=secrets.token_urlsafe(32),
            last_seen=self._clock(),
        )
        self._sessions[session.id] = session
        return session

    def end(self, session: Session) -> None:
        """Forget a session (logout)."""
        self._sessions.pop(session.id, None)

    def _expire(self, now: float) -> None:
        for session_id in [
            key for key, session in self._sessions.items() if now - session.last_seen > self._idle
        ]:
            del self._sessions[session_id]
