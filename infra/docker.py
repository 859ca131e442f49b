"""Is a Docker engine answering? Asked quickly, so a machine without one never hangs."""

from __future__ import annotations

import socket
from urllib.parse import urlsplit

DEFAULT_DOCKER_SOCKET = "/var/run/docker.sock"
_PING = b"GET /_ping HTTP/1.0\r\nHost: docker\r\n\r\n"


def docker_engine_answers(host: str | None = None, timeout: float = 0.5) -> bool:
    """True when the engine at `host` (a `DOCKER_HOST` value, default the local socket)
    answers `GET /_ping` with HTTP 200 within `timeout` seconds.

    Speaks HTTP over a raw socket instead of using the docker SDK because the SDK's client
    retries and waits far longer than a start-up probe should.
    """
    target = host or f"unix://{DEFAULT_DOCKER_SOCKET}"
    parts = urlsplit(target)
    try:
        if parts.scheme == "unix":
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.settimeout(timeout)
            sock.connect(parts.path)
        elif parts.scheme in {"tcp", "http"}:
            sock = socket.create_connection(
                (parts.hostname or "localhost", parts.port or 2375), timeout=timeout
            )
        else:  # ssh://, npipe:// and TLS engines: not worth probing by hand, use embedded
            return False
        with sock:
            sock.sendall(_PING)
            reply = sock.recv(64)
    except OSError:
        return False
    return reply.startswith(b"HTTP/1.") and b" 200 " in reply[:16]
