"""The words of a league: who plays, where, and the organiser's policies.

Ids are plain strings used in stream names (``league-<id>``), so they follow the store's
stream-id alphabet; ``MemberId`` is the player's identity across games and seasons.
"""

from __future__ import annotations

import re
from typing import NewType

import msgspec

from services.game.results import GameType
from services.league.errors import InvalidCommand

MemberId = NewType("MemberId", str)
ClubId = NewType("ClubId", str)
LeagueId = NewType("LeagueId", str)
SeasonId = NewType("SeasonId", str)
TournamentId = NewType("TournamentId", str)

_ID = re.compile(r"^[A-Za-z0-9_.:]{1,80}$")
# No '-' in ids: the store splits a stream name at its first '-' into category and id, and a
# game id built from league ids (``<tournament>.r1.t2``) must stay readable.

MIN_TABLE, MAX_TABLE = 3, 8
"""A BANG! table seats 3 to 8 players (``ROLES_BY_PLAYER_COUNT`` in services/game/results/__init__.py)."""

GAME_TYPES = (GameType.DICE.value, GameType.CARDS.value)
"""What a league plays: BANG! The Dice Game or the original card game, never both, since their
standings and ratings are kept apart."""

TABLE_SIZES: dict[str, tuple[int, int]] = {GameType.DICE.value: (3, 8), GameType.CARDS.value: (4, 8)}
"""The table sizes of each game type: the dice game seats 3 to 8; the card game 4 to 7, and 8
with the two-Renegade role set (../shared/rules/RULINGS-cards.md, "Setup")."""


def check_game_type(value: str) -> str:
    if value not in GAME_TYPES:
        raise InvalidCommand(f"a league plays {' or '.join(GAME_TYPES)}, not {value!r}")
    return value


PUBLIC, MEMBERS_ONLY = "public", "members"
VISIBILITIES = (PUBLIC, MEMBERS_ONLY)
"""Who may read a league (services/league/visibility.py): anyone, signed in or not (``public``),
or the members of its club only (``members``, the default: a league founded before the setting
existed is members-only)."""


DEFAULT_DECISION_SECONDS = 24 * 60 * 60
"""A league's online games give each decision this long (24 hours: correspondence play, one
move a day at least) unless the league or the schedule says otherwise; past it the decision's
documented default is played (docs/game-service.md, "Timeouts")."""
MAX_DECISION_SECONDS = 14 * 24 * 60 * 60


def check_decision_seconds(value: int) -> int:
    if not 1 <= value <= MAX_DECISION_SECONDS:
        raise InvalidCommand(
            f"`decision_seconds`: a decision's time is 1 second to 14 days ({MAX_DECISION_SECONDS} s), "
            f"not {value}"
        )
    return value


def check_visibility(value: str) -> str:
    if value not in VISIBILITIES:
        raise InvalidCommand(
            f"`visibility`: a league is {PUBLIC!r} (anyone may read it) or {MEMBERS_ONLY!r} "
            f"(its club's members only), not {value!r}"
        )
    return value


def check_table_size(size: int, game_type: str = GameType.DICE.value) -> int:
    low, high = TABLE_SIZES[game_type]
    if not low <= size <= high:
        raise InvalidCommand(f"a {game_type} table seats {low} to {high} players, not {size}")
    return size


def check_id(kind: str, value: str) -> str:
    if not _ID.fullmatch(value):
        raise InvalidCommand(f"{kind} {value!r} must be 1-80 characters of A-Z a-z 0-9 _ . :")
    return value


class PointsScheme(msgspec.Struct, frozen=True, kw_only=True):
    """Points a player earns per game, and for a bye. See docs/league.md, "Points".

    The default is plain 3 for a win, 0 for a loss; ``PointsScheme.with_bonuses()`` is the
    documented optional scheme (+1 for surviving on a winning side, +1 for a Renegade win).
    """

    win: int = 3
    loss: int = 0
    survivor_bonus: int = 0
    """Added for a winner still alive at the end: winning while carrying the side is harder."""
    renegade_bonus: int = 0
    """Added for a Renegade win: one player alone against everyone, the rarest result."""
    bye: int = 1
    """A bye is worth about an average game (roughly two winners in five players × 3 points)
    so that sitting out neither rewards nor punishes the player."""

    @classmethod
    def with_bonuses(cls) -> PointsScheme:
        return cls(survivor_bonus=1, renegade_bonus=1)

    def validate(self) -> PointsScheme:
        values = (self.win, self.loss, self.survivor_bonus, self.renegade_bonus, self.bye)
        if min(values) < 0 or self.win < self.loss:
            raise InvalidCommand(f"points must be non-negative with win >= loss: {self}")
        return self


class SeatingPolicy(msgspec.Struct, frozen=True, kw_only=True):
    """How an organiser likes tables: the allowed sizes and the size to aim for."""

    allowed_sizes: tuple[int, ...] = (4, 5, 6, 7)
    preferred_size: int = 5

    def validate(self, game_type: str = GameType.DICE.value) -> SeatingPolicy:
        sizes = self.allowed_sizes
        low, high = TABLE_SIZES[game_type]
        if not sizes or any(not low <= s <= high for s in sizes):
            raise InvalidCommand(f"{game_type} table sizes must lie in {low}..{high}: {sizes}")
        if len(set(sizes)) != len(sizes) or list(sizes) != sorted(sizes):
            raise InvalidCommand(f"allowed table sizes must be distinct and ascending: {sizes}")
        if self.preferred_size not in sizes:
            raise InvalidCommand(f"the preferred size {self.preferred_size} is not allowed: {sizes}")
        return self
