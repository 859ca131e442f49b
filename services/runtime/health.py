"""`/health` and `/metrics` for processes that are not web servers (consumers, workers).

A threaded HTTP server in a daemon thread: it answers even while the process's event loop is
busy with a long batch, which is the point of a liveness check. `/health` calls `check()`
(which must be cheap and thread-safe: read a snapshot, don't query) and answers 200 or 503
with its JSON; `/metrics` is this process's Prometheus registry.
"""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from services.runtime.metrics import render_metrics

HealthCheck = Callable[[], tuple[bool, dict[str, Any]]]


class HealthServer:
    def __init__(self, port: int, check: HealthCheck, host: str = "0.0.0.0") -> None:
        handler = _handler_for(check)
        self._server = ThreadingHTTPServer((host, port), handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, name="health", daemon=True)

    @property
    def port(self) -> int:
        return int(self._server.server_address[1])

    def start(self) -> HealthServer:
        self._thread.start()
        return self

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()


def _handler_for(check: HealthCheck) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            if self.path.split("?")[0] == "/metrics":
                body, content_type = render_metrics()
                self._send(200, body, content_type)
            elif self.path.split("?")[0] == "/health":
                healthy, details = check()
                body = json.dumps({"status": "ok" if healthy else "unhealthy", **details}).encode()
                self._send(200 if healthy else 503, body, "application/json")
            else:
                self._send(404, b'{"status": "not found"}', "application/json")

        def _send(self, status: int, body: bytes, content_type: str) -> None:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:
            pass  # a probe every few seconds is not worth a log line

    return Handler


def probe(url: str, timeout: float = 3.0, limit: int = 2000) -> tuple[bool, str]:
    """GET `url`: (answered 200, the first `limit` bytes it said, or why it failed)."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.status == 200, response.read(limit).decode(errors="replace")
    except urllib.error.HTTPError as error:
        return False, f"HTTP {error.code}: {error.read(limit).decode(errors='replace')}"
    except (OSError, ValueError) as error:
        return False, str(error)
