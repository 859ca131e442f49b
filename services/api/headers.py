"""The security headers every HTTP answer of the API carries, set in one place (litestar's
``before_send``, so 404s, 429s and 500s answered before any handler carry them too).

- ``Content-Security-Policy``: the pages (the dashboard, Swagger UI, GraphiQL) load scripts,
  styles, fonts and images from the API itself and talk only to it (``connect-src 'self'``:
  fetches and the GraphQL WebSocket); no inline script or style, no ``eval``, no plugins, no
  ``<base>`` elsewhere, no form posting elsewhere. ``data:`` images and fonts: Swagger UI and
  GraphiQL draw their icons from ``data:`` URLs in their style sheets. Every page of ours keeps
  to it: scripts are files (``<script src>``), event handlers are added from those scripts, and a
  computed style is set through the CSSOM (``element.style``), which the policy allows.
- ``frame-ancestors 'none'`` and ``X-Frame-Options: DENY``: no page of the API is shown inside
  another site's frame (a scorekeeper's buttons under a stranger's overlay).
- ``X-Content-Type-Options: nosniff``: a file is what its ``Content-Type`` says (a game record
  or a name served as text is never run as a script).
- ``Referrer-Policy: no-referrer``: a page's address (a game id) is not sent to other sites.

A handler that sets one of these itself keeps its own value: the Scalar page's answer alone
allows inline styles (``SCALAR_CONTENT_SECURITY_POLICY``).
"""

from __future__ import annotations

from litestar.datastructures import MutableScopeHeaders
from litestar.types import Message, Scope

_POLICY: dict[str, str] = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self' data:",
    "font-src": "'self' data:",
    "connect-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'self'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}


def _policy(directives: dict[str, str]) -> str:
    return "; ".join(f"{name} {value}" for name, value in directives.items())


CONTENT_SECURITY_POLICY = _policy(_POLICY)

SCALAR_CONTENT_SECURITY_POLICY = _policy(_POLICY | {"style-src": "'self' 'unsafe-inline'"})
"""The Scalar page's own answer only (services/api/explorers.py): Scalar's bundle puts its style
sheet in a ``<style>`` element and sets ``style`` attributes. Scripts are as strict as anywhere."""

SECURITY_HEADERS: dict[str, str] = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


async def add_security_headers(message: Message, scope: Scope) -> None:
    """``before_send``: the headers above on the start of every HTTP answer."""
    if message["type"] != "http.response.start":
        return
    headers = MutableScopeHeaders.from_message(message)
    for name, value in SECURITY_HEADERS.items():
        if name not in headers:
            headers[name] = value
