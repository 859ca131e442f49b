"""The bounds of the clubs' inputs, as services/game/edge/bounds.py (whose patterns these are,
character for character, so the API's 400 says them in the same words; that module is a layer
above this one). A bound is what no valid request exceeds: 400 naming the field. The rules
(a name that is blank once trimmed, a role a game id cannot scope) answer 422."""

from __future__ import annotations

import re
import unicodedata
from typing import Annotated

import msgspec

from services.clubs.errors import ClubInputOutOfBounds, InvalidClubInput

MAX_ID_LENGTH = 100
MAX_NAME_LENGTH = 100
MAX_PAGE = 100
MAX_OFFSET = 1_000_000

_CONTROLS = r"\x00-\x1f\x7f-\x9f\u2028-\u202e\u2066-\u2069\ud800-\udfff"
ID_PATTERN = r"^[A-Za-z0-9_.:@-]+$(?!\n)"
GAME_ID_PATTERN = r"^[A-Za-z0-9_.:-]+$(?!\n)"
NAME_PATTERN = rf"^[^{_CONTROLS}]*$(?!\n)"
ID_RULE = "letters, digits and _ . : @ - only"
NAME_RULE = "no control characters (NUL, ESC, newlines, C1, bidi overrides or isolates)"

Identifier = Annotated[
    str, msgspec.Meta(min_length=1, max_length=MAX_ID_LENGTH, pattern=ID_PATTERN, description=ID_RULE)
]
GameId = Annotated[
    str,
    msgspec.Meta(
        min_length=1, max_length=MAX_ID_LENGTH, pattern=GAME_ID_PATTERN,
        description="letters, digits and _ . : - only",
    ),
]  # fmt: skip
Name = Annotated[
    str,
    msgspec.Meta(min_length=1, max_length=MAX_NAME_LENGTH, pattern=NAME_PATTERN, description=NAME_RULE),
]

_ID = re.compile(ID_PATTERN)


def check_id(field: str, value: str) -> str:
    """A path parameter's id, refused with 400 naming it before anything is read."""
    if not 1 <= len(value) <= MAX_ID_LENGTH:
        raise ClubInputOutOfBounds(field, f"an id has 1 to {MAX_ID_LENGTH} characters")
    if _ID.search(value) is None:
        raise ClubInputOutOfBounds(field, f"an id has {ID_RULE}")
    return value


def check_page(limit: int, offset: int) -> None:
    if not 1 <= limit <= MAX_PAGE:
        raise ClubInputOutOfBounds("limit", f"a page has 1 to {MAX_PAGE} clubs")
    if not 0 <= offset <= MAX_OFFSET:
        raise ClubInputOutOfBounds("offset", f"an offset is 0 to {MAX_OFFSET}")


def normalise_club_name(text: str, field: str = "name") -> str:
    """NFC and trimmed; blank is refused (422) — the schema already refused control characters."""
    name = unicodedata.normalize("NFC", text).strip()
    if not name:
        raise InvalidClubInput(field, "a club's name has at least one visible character")
    return name
