"""Stream names: `<category>-<id>`, e.g. `game-42`, `league-spring_2025`."""

from __future__ import annotations

import re

from event_store.errors import InvalidStreamName

STREAM_NAME_PATTERN = re.compile(r"^[a-z][a-z0-9_]*-[A-Za-z0-9_.:-]+$")
CATEGORY_PATTERN = re.compile(r"^[a-z][a-z0-9_]*$")
MAX_STREAM_NAME_LENGTH = 200


def validate_stream_name(name: str) -> str:
    """Return `name` unchanged if it is an allowed stream name, else raise InvalidStreamName."""
    if not isinstance(name, str):
        raise InvalidStreamName(repr(name), "a stream name is a string")
    if len(name) > MAX_STREAM_NAME_LENGTH:
        raise InvalidStreamName(name, f"longer than {MAX_STREAM_NAME_LENGTH} characters")
    if not STREAM_NAME_PATTERN.fullmatch(name):
        raise InvalidStreamName(
            name, "expected '<category>-<id>' matching " + STREAM_NAME_PATTERN.pattern
        )
    return name


def category_of(name: str) -> str:
    """The part before the first `-`: `game-42` → `game`."""
    return validate_stream_name(name).split("-", 1)[0]


def validate_category(category: str) -> str:
    if not CATEGORY_PATTERN.fullmatch(category):
        raise InvalidStreamName(category, "a category matches " + CATEGORY_PATTERN.pattern)
    return category
