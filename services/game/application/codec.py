"""How a game's events are stored: one Mapper for the engine's and the lifecycle's events."""

from __future__ import annotations

import re

from event_store import Mapper
from services.game.application.lifecycle import LIFECYCLE_EVENTS
from services.game.engines import ENGINE_EVENT_TYPES

GAME_CATEGORY = "game"
_GAME_ID = re.compile(r"^[A-Za-z0-9_.:-]{1,100}$")


def build_mapper() -> Mapper:
    mapper = Mapper()
    for name, cls in ENGINE_EVENT_TYPES.items():  # the card game's names carry ``cards.``
        mapper.register(cls, type_name=name, schema_version=cls.VERSION)
    for cls in LIFECYCLE_EVENTS:
        mapper.register(cls, schema_version=cls.VERSION)
    return mapper


GAME_MAPPER = build_mapper()


def game_stream(game_id: str) -> str:
    return f"{GAME_CATEGORY}-{game_id}"


def game_id_of(stream: str) -> str:
    return stream.split("-", 1)[1]


def is_valid_game_id(game_id: str) -> bool:
    return bool(_GAME_ID.fullmatch(game_id))  # not `match`: its `$` lets a final newline through


_SERIES_GAME_ID = re.compile(r"^([A-Za-z0-9_-]{1,60})\.g[0-9]+$")
"""A UA5 series' game id: ``<series>.g<n>`` (``series.game_id_of``; a series id as
``series._SERIES_ID`` allows)."""


def series_of_game_id(game_id: str) -> str | None:
    """The series whose game id ``game_id`` has the form of, or None."""
    found = _SERIES_GAME_ID.fullmatch(game_id)
    return None if found is None else found.group(1)
