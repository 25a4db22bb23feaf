"""The security headers on every answer: a Content-Security-Policy that allows only the app's
own scripts and styles (no inline script, no framing), and no sniffing, caching or referrers
to other sites (the editor's own requests keep their ``Origin``, which its CSRF check reads:
under ``no-referrer`` a browser sends ``Origin: null`` even to the same site)."""

from __future__ import annotations

from starlette.responses import Response

__all__ = ["CONTENT_SECURITY_POLICY", "SECURITY_HEADERS", "secure"]

CONTENT_SECURITY_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-store",
}


def secure(response: Response) -> Response:
    """``response`` with the security headers (those it sets itself kept)."""
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
    return response
