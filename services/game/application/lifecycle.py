"""A game's life around the rules: created, players join, the seed is revealed at the end.

These events share the game's stream (``game-<id>``) with the engine's events. They are the
service's facts, not the rules': the engine never sees them.

Stream layout of an online game::

    GameCreated (seed commitment) → PlayerJoined × n → GameStarted (dealt from the seed)
    → … engine events … → GameEnded → SeedRevealed

A table game has no seed: GameCreated → PlayerJoined × n → GameStarted (seats as the
organiser entered them) → … → GameEnded.
"""

from __future__ import annotations

from enum import StrEnum
from typing import ClassVar

import msgspec

from services.game.fairness.versions import FAIRNESS_V1, Fairness
from services.game.rules.ruleset import BASE_DICE, GameType, Ruleset


class GameMode(StrEnum):
    ONLINE = "online"
    """The server rolls the dice from a seeded generator whose commitment is published."""
    TABLE = "table"
    """A scorekeeper enters the faces and decisions of a game played with physical dice."""


class GameContext(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """Where a game belongs in a league, if anywhere."""

    league_id: str | None = None
    season_id: str | None = None
    tournament_id: str | None = None
    round: int | None = None
    table: int | None = None
    series_id: str | None = None
    """UA5: the legacy series the game is a game of (``services/game/application/series.py``)."""
    previous_game_id: str | None = None
    """UA5: the series' game before this one, whose result and decisions set this one up."""


DEFAULT_ROLE_WINDOW_SECONDS = 3
"""How long an online game leaves a question open to the table (OS3's role windows) when its
creator did not say."""


class GameOptions(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    decision_timeout_seconds: int | None = None
    """After this long without an event, the awaited decision gets its documented default."""
    role_window_seconds: int | None = None
    """Online: how long every question open to the table (OS3's role windows) stays open before
    the server closes it unused. The same at every window, whoever could act, so the pause tells
    nobody who holds a power. None: ``DEFAULT_ROLE_WINDOW_SECONDS``."""

    def limit_for(self, table: bool) -> int | None:
        """The seconds a question may stay unanswered: the uniform pause for a question open to
        the table, else the decision time limit (None: no limit)."""
        if table:
            return self.role_window_seconds or DEFAULT_ROLE_WINDOW_SECONDS
        return self.decision_timeout_seconds


class LifecycleEvent(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag=True):
    VERSION: ClassVar[int] = 1


class GameCreated(LifecycleEvent, frozen=True, kw_only=True):
    game_id: str
    mode: GameMode
    player_count: int
    seed_commitment: str | None = None
    """sha256(seed) in hex, online games only: published now, the seed is revealed at the end."""
    options: GameOptions = GameOptions()
    context: GameContext = GameContext()
    sheriff_member: str | None = None
    """A league's Sheriff rotation may fix who is Sheriff; the other roles are dealt at random."""
    created_by: str | None = None
    ruleset: Ruleset = BASE_DICE
    """The game type, modules and data versions the game is played with. Absent from games
    created before rulesets were recorded: those are the base dice game."""
    fairness: Fairness | None = FAIRNESS_V1
    """Online games: the versions of the derivations from the seed (deal, dice). None for a
    table game. Absent from games created before versions were recorded: ``deal-1``/``dice-1``."""

    @property
    def game_type(self) -> GameType:
        return self.ruleset.game_type

    @property
    def derivations(self) -> Fairness | None:
        """The derivations an audit re-derives with: an online game's, None for a table game
        (whose old events decode with the default but have no seed)."""
        return self.fairness if self.mode is GameMode.ONLINE else None


class PlayerJoined(LifecycleEvent, frozen=True, kw_only=True):
    member_id: str
    """The player's identity across games and seasons (league player id)."""
    name: str
    player: str | None = None
    """The seat id in this game (p1…), known once the seats are dealt; None while in the lobby."""


class SeatsDealt(LifecycleEvent, frozen=True, kw_only=True):
    """Who sits where: member → seat id, clockwise. Roles and characters are in GameStarted."""

    members: tuple[str, ...]
    """``members[i]`` plays seat ``p{i+1}``."""


class SeedRevealed(LifecycleEvent, frozen=True, kw_only=True):
    seed: str
    """The dice seed in hex; sha256 of its bytes equals GameCreated.seed_commitment."""


class DecisionTimedOut(LifecycleEvent, frozen=True, kw_only=True):
    """The awaited player did not decide in time; ``applied`` (a command's text form) was
    played for them and its events follow."""

    player: str
    decision: str
    applied: str


class GameAbandoned(LifecycleEvent, frozen=True, kw_only=True):
    """An organiser stopped a game that will not be finished; it has no result."""

    reason: str


class EntryTakenBack(LifecycleEvent, frozen=True, kw_only=True):
    """A table game's scorekeeper took back a mistaken entry (docs/rulings.md, "Taking back an
    entry at a table"): the events one command appended, ``from_version`` to ``to_version``,
    no longer count. Nothing is edited: the game is the fold of the entries not taken back
    (``services/game/application/corrections.py``)."""

    from_version: int
    to_version: int
    command: str
    """The entry as it was entered, in its text form (``p2 reroll 0 2``)."""


class SeatReplaced(LifecycleEvent, frozen=True, kw_only=True):
    """An organiser (or the league's referee) gave a seat of an ongoing game to somebody else:
    from the next event on, ``member_id`` plays ``player`` (sees its role and hand, makes its
    decisions) and ``replaced`` no longer does. ``member_id`` None: a bot plays the seat (the
    server's heuristic bot, ``services/game/bots``), and its moves are the server's. The rules
    never see this: the seat, its role and its hand stay what they were."""

    player: str
    """The seat (``p2``)."""
    replaced: str
    """The member who held the seat until now; empty when a bot did."""
    member_id: str | None
    """The substitute; None for a bot."""
    name: str
    """The substitute's display name (a bot's: ``Bot``)."""
    reason: str = ""
    by: str | None = None
    """The account that replaced the seat."""
    turn: int = 0
    """The turn the game was in when the seat changed hands (the engine's turn number): who
    played which turns is read from the replacements in order."""


BOT_NAME = "Bot"
"""How a bot that took over a seat is named on every page."""


LIFECYCLE_EVENTS: tuple[type[LifecycleEvent], ...] = (
    GameCreated,
    PlayerJoined,
    SeatsDealt,
    SeedRevealed,
    DecisionTimedOut,
    GameAbandoned,
    EntryTakenBack,
    SeatReplaced,
)


def seat_id(index: int) -> str:
    return f"p{index + 1}"


__all__ = [
    "BOT_NAME",
    "LIFECYCLE_EVENTS",
    "DecisionTimedOut",
    "EntryTakenBack",
    "GameAbandoned",
    "GameContext",
    "GameCreated",
    "GameMode",
    "GameOptions",
    "PlayerJoined",
    "SeatReplaced",
    "SeatsDealt",
    "SeedRevealed",
    "seat_id",
]
