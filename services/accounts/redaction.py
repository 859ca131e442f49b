"""An invite's secret is in its URL (``POST /accounts/invites/{token}/accept``), and an access
log line carries the path: until the invite is used, whoever reads the log could use it. So the
access log's records have that segment replaced before any handler formats them (the runtime's
JSON logging redacts keys named like tokens, not the text of a path)."""

from __future__ import annotations

import logging
import re

ACCESS_LOGGER = "uvicorn.access"
_INVITE_PATH = re.compile(r"(/accounts/invites/)[^/?\s]+")
REDACTED = r"\1[redacted]"


def redact_invite_paths(text: str) -> str:
    return _INVITE_PATH.sub(REDACTED, text)


class InvitePathFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(redact_invite_paths(a) if isinstance(a, str) else a for a in record.args)
        if isinstance(record.msg, str):
            record.msg = redact_invite_paths(record.msg)
        return True
