"""Ratings: Elo for BANG! The Dice Game's factions, per role, with fitted side offsets.

Pure functions of game results (no I/O). A consumer converts each finished game's neutral
result (services/game/results/__init__.py) with ``from_result`` (or ``from_finish``), feeds it to
``RatingBook.apply`` in the global order of games, and persists the book with ``to_json`` /
``RatingBook.from_json``; see docs/ratings.md.
"""

from services.ratings.model import (
    HistoryPoint,
    PlayerRating,
    RatingBook,
    RatingChange,
    RatingConfig,
    RoleRating,
    rebuild,
)
from services.ratings.outcome import (
    Faction,
    GameOutcome,
    InvalidOutcome,
    LeaguePlayerId,
    SeatResult,
    Table,
    TableSeat,
    from_finish,
    from_result,
)

__all__ = [
    "Faction",
    "GameOutcome",
    "HistoryPoint",
    "InvalidOutcome",
    "LeaguePlayerId",
    "PlayerRating",
    "RatingBook",
    "RatingChange",
    "RatingConfig",
    "RoleRating",
    "SeatResult",
    "Table",
    "TableSeat",
    "from_finish",
    "from_result",
    "rebuild",
]
