"""Structured logs: JSON lines, context bound per game and command, hidden information never
printed."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator

import pytest

from services.runtime.logging import REDACTED, bind_game, configure_logging, get_logger, redact_hidden


@pytest.fixture
def captured() -> Iterator[io.StringIO]:
    stream = io.StringIO()
    root = logging.getLogger()
    saved = root.handlers[:], root.level
    configure_logging("test", stream=stream)
    yield stream
    root.handlers[:], level = saved
    root.setLevel(level)


def lines(stream: io.StringIO) -> list[dict[str, object]]:
    return [json.loads(line) for line in stream.getvalue().splitlines()]


def test_redact_hidden_replaces_secret_keys_at_any_depth() -> None:
    event = {
        "event": "dealt",
        "seed": "ab12",
        "Token": "secret",
        "players": [{"id": "p1", "role": "sheriff"}, {"id": "p2", "roles": ["outlaw"]}],
        "nested": {"deeper": {"seed": "cd34", "life": 8}},
    }
    out = redact_hidden(None, "info", event)
    assert out == {
        "event": "dealt",
        "seed": REDACTED,
        "Token": REDACTED,
        "players": [{"id": "p1", "role": REDACTED}, {"id": "p2", "roles": REDACTED}],
        "nested": {"deeper": {"seed": REDACTED, "life": 8}},
    }


def test_structlog_lines_are_json_with_bound_game_and_no_secrets(captured: io.StringIO) -> None:
    log = get_logger("bang.test")
    with bind_game("g-1", "cmd-7"):
        log.info("command applied", seed="00ff", role="renegade", version=3)
    log.info("outside")
    inside, outside = lines(captured)
    assert inside["game_id"] == "g-1" and inside["command_id"] == "cmd-7"
    assert inside["seed"] == REDACTED and inside["role"] == REDACTED and inside["version"] == 3
    assert inside["process"] == "test" and inside["level"] == "info"
    assert "game_id" not in outside
    assert "00ff" not in captured.getvalue() and "renegade" not in captured.getvalue()


def test_stdlib_loggers_go_through_the_same_redaction(captured: io.StringIO) -> None:
    with bind_game(game_id="g-2"):
        logging.getLogger("uvicorn.error").warning("hello", extra={"token": "tok-123", "roles": ["deputy"]})
    (line,) = lines(captured)
    assert line["event"] == "hello" and line["game_id"] == "g-2"
    assert line["token"] == REDACTED and line["roles"] == REDACTED
    assert "tok-123" not in captured.getvalue()
