"""The log redaction processor (services/runtime/logging.py) against the shapes hidden data has
in this code base: game events are msgspec Structs (a ``GameStarted`` carries every role), a
request's ``Authorization`` header carries a bearer token, a created game's answer carries
``player_tokens``. ``redact_hidden`` only looks at mapping keys named ``seed``/``role``/
``roles``/``token``, so these pass through. No database: these run in milliseconds."""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator

import pytest
import structlog

from services.game.rules.dice import GameStarted, Role, Seat
from services.game.rules.dice.characters import CHARACTERS
from services.runtime.logging import configure_logging, get_logger

TOKEN = "pL4y3r-t0k3n-0f-m2-xxxxxxxxxxxxxxxxxxxxxxxx"
SEED = "5eed" * 16
_TOUCHED = ("", "uvicorn", "uvicorn.error", "uvicorn.access", "celery", "celery.task", "litestar")
"""The loggers ``configure_logging`` rewires; put back as they were after each test."""


@pytest.fixture
def captured() -> Iterator[io.StringIO]:
    stream = io.StringIO()
    loggers = [logging.getLogger(name) for name in _TOUCHED]
    saved = [(lg, lg.handlers[:], lg.level, lg.propagate) for lg in loggers]
    configure_logging("test", stream=stream)
    try:
        yield stream
    finally:
        for logger, handlers, level, propagate in saved:
            logger.handlers[:] = handlers
            logger.setLevel(level)
            logger.propagate = propagate
        structlog.reset_defaults()


def _started() -> GameStarted:
    roles = (Role.SHERIFF, Role.RENEGADE, Role.OUTLAW, Role.OUTLAW, Role.DEPUTY)
    return GameStarted(
        seats=tuple(
            Seat(player=f"p{i + 1}", role=r, character=c)  # type: ignore[arg-type]
            for i, (r, c) in enumerate(zip(roles, list(CHARACTERS), strict=False))
        )
    )


def test_an_event_struct_in_a_log_line_shows_no_role(captured: io.StringIO) -> None:
    get_logger("bang.test").info("game started", started=_started())
    logging.getLogger("bang.stdlib").warning("appended", extra={"events": [_started()]})
    out = captured.getvalue()
    for role in ("renegade", "outlaw", "deputy"):
        assert role not in out.lower(), f"a GameStarted struct was rendered with its roles: {out[:500]}"


def test_bearer_tokens_under_their_usual_names_are_redacted(captured: io.StringIO) -> None:
    log = get_logger("bang.test")
    log.info("request", headers={"Authorization": f"Bearer {TOKEN}"})
    log.info("created", player_tokens={"m2": TOKEN})
    log.info("connection", connection_params={"authorization": f"Bearer {TOKEN}"})
    assert TOKEN not in captured.getvalue(), captured.getvalue()


def test_secret_keys_are_redacted_at_any_depth(captured: io.StringIO) -> None:
    """What the processor does guarantee today (documented here as the baseline)."""
    get_logger("bang.test").info(
        "dealt", seats=[{"player": "p2", "role": "outlaw"}], seed=bytes.fromhex(SEED)
    )
    out = captured.getvalue()
    assert "outlaw" not in out and SEED not in out
