"""Structured JSON logs for every bang-league process, with hidden information kept out.

`configure_logging()` routes both structlog and the standard library (uvicorn, Celery, the
event store's `logging` calls) through one processor chain that ends in a JSON line per
event. Context bound with `bind_game(...)` (contextvars, so it follows an asyncio task and
never leaks to another request) is merged into every line logged inside it.

Hidden information must never reach a log line: `redact_hidden` replaces the value of any key
named like a secret (`seed`, `role`, `roles`, `token`, at any depth) before rendering. It runs
last before the renderer, so context, `extra=` fields and event dicts are all covered.
"""

from __future__ import annotations

import contextlib
import logging
import sys
from collections.abc import Iterator, Mapping, MutableMapping
from typing import Any, TextIO

import msgspec
import structlog
from structlog.typing import EventDict, Processor, WrappedLogger

HIDDEN_KEYS = frozenset({"seed", "role", "roles", "token", "authorization"})
REDACTED = "[redacted]"


def _is_hidden(key: object) -> bool:
    if not isinstance(key, str):
        return False
    key = key.lower()
    # player_tokens, access_token, …: any key naming tokens carries credentials
    return key in HIDDEN_KEYS or key.endswith(("token", "tokens"))


def _scrub(value: Any) -> Any:
    if isinstance(value, msgspec.Struct):
        value = msgspec.to_builtins(value)  # an event logged whole: look inside it too
    if isinstance(value, Mapping):
        return {k: REDACTED if _is_hidden(k) else _scrub(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_scrub(v) for v in value]
    return value


def redact_hidden(_logger: WrappedLogger, _method: str, event_dict: EventDict) -> EventDict:
    """structlog processor: the value of every hidden key, at any nesting depth, redacted."""
    return {k: REDACTED if _is_hidden(k) else _scrub(v) for k, v in event_dict.items()}


def _drop_color_message(_logger: WrappedLogger, _method: str, event_dict: EventDict) -> EventDict:
    # uvicorn duplicates every message with ANSI colours under this key
    event_dict.pop("color_message", None)
    return event_dict


def _shared_processors() -> list[Processor]:
    return [
        structlog.contextvars.merge_contextvars,
        structlog.stdlib.add_log_level,
        structlog.stdlib.add_logger_name,
        structlog.stdlib.ExtraAdder(),
        structlog.processors.TimeStamper(fmt="iso", utc=True),
        _drop_color_message,
    ]


def configure_logging(process: str, *, level: str | int = "INFO", stream: TextIO | None = None) -> None:
    """JSON lines on `stream` (stderr by default) for structlog and stdlib loggers alike;
    every line carries `process` (api, worker, consumer, supervisor, …)."""
    shared = _shared_processors()
    structlog.configure(
        processors=[
            *shared,
            structlog.processors.StackInfoRenderer(),
            structlog.stdlib.ProcessorFormatter.wrap_for_formatter,
        ],
        logger_factory=structlog.stdlib.LoggerFactory(),
        wrapper_class=structlog.stdlib.BoundLogger,
        cache_logger_on_first_use=False,
    )
    formatter = structlog.stdlib.ProcessorFormatter(
        foreign_pre_chain=shared,
        processors=[
            structlog.stdlib.ProcessorFormatter.remove_processors_meta,
            structlog.processors.format_exc_info,
            _add_process(process),
            redact_hidden,
            structlog.processors.JSONRenderer(sort_keys=True, default=str),
        ],
    )
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(formatter)
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    # uvicorn, Celery and litestar install handlers of their own; make them propagate to ours
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access", "celery", "celery.task", "litestar"):
        named = logging.getLogger(name)
        named.handlers[:] = []
        named.propagate = True


def _add_process(process: str) -> Processor:
    def add(_logger: WrappedLogger, _method: str, event_dict: MutableMapping[str, Any]) -> EventDict:
        event_dict.setdefault("process", process)
        return dict(event_dict)

    return add


def get_logger(name: str | None = None) -> structlog.stdlib.BoundLogger:
    return structlog.stdlib.get_logger(name)


@contextlib.contextmanager
def bind_game(game_id: str | None = None, command_id: str | None = None, **more: Any) -> Iterator[None]:
    """Every log line inside the block carries `game_id` and `command_id` (those given):

    with bind_game(game_id, command_id):
        outcome = await service.play(...)
    """
    fields = {
        k: v for k, v in {"game_id": game_id, "command_id": command_id, **more}.items() if v is not None
    }
    with structlog.contextvars.bound_contextvars(**fields):
        yield
