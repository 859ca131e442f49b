"""How uvicorn runs the API: the one set of server options, for ``bang-league api`` and the tests.

- **Who the client is.** uvicorn by default believes ``X-Forwarded-For`` from 127.0.0.1, so any
  local process (or anything a local proxy passes through unchanged) could pick the address it is
  rate-limited by. Here it is believed only from the proxies the operator lists
  (``BANG_TRUSTED_PROXIES``, ``ServerSettings.trusted_proxies``), by uvicorn's own
  ``ProxyHeadersMiddleware``; with none listed the header is ignored and the connection's address
  is the client's.
- **Half-sent requests.** uvicorn has no timeout for reading a request's headers
  (``timeout_keep_alive`` runs only between requests, and stops at the next request's first
  byte), so a client that sends its headers a byte at a time, or never finishes them, holds a
  connection for ever. ``HeaderTimeoutProtocol`` is uvicorn's own httptools protocol with one
  timer: armed when the connection opens and when a request's first byte arrives, cleared when
  its headers are complete; when it fires the connection is answered 408 and closed. A body sent
  slowly is the handler's to wait for (its size is bounded: ``request_max_body_size``).
"""

from __future__ import annotations

import asyncio
import functools
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from services.api.settings import ServerSettings

_TIMED_OUT = b"The request's headers were not received in time."
_REQUEST_TIMEOUT = (
    b"HTTP/1.1 408 Request Timeout\r\n"
    b"content-type: text/plain; charset=utf-8\r\n"
    b"content-length: " + str(len(_TIMED_OUT)).encode() + b"\r\n"
    b"connection: close\r\n\r\n" + _TIMED_OUT
)


class HeaderTimeoutProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol, closing a connection whose request headers take longer
    than ``header_timeout`` seconds."""

    def __init__(self, *args: Any, header_timeout: float, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.header_timeout = header_timeout
        self._header_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if self._header_timer is None:
            self._arm()

    def on_headers_complete(self) -> None:
        self._disarm()
        super().on_headers_complete()

    def _arm(self) -> None:
        self._header_timer = self.loop.call_later(self.header_timeout, self._headers_timed_out)

    def _disarm(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _headers_timed_out(self) -> None:
        self._header_timer = None
        if self.transport.is_closing():
            return
        if self.cycle is None or self.cycle.response_complete:  # no answer of ours is being sent
            self.transport.write(_REQUEST_TIMEOUT)
        self.transport.close()


def uvicorn_options(server: ServerSettings) -> dict[str, Any]:
    """The keyword arguments ``uvicorn.run`` / ``uvicorn.Config`` take for these settings (a
    picklable protocol factory: ``--workers`` starts processes that unpickle it)."""
    trusted = list(server.trusted_proxies)
    return {
        "http": functools.partial(HeaderTimeoutProtocol, header_timeout=server.header_timeout),
        "proxy_headers": bool(trusted),
        "forwarded_allow_ips": trusted or None,
    }
