"""League facts, in the past tense. A club's and a league's state are folds of these.

Streams: ``club-<club_id>`` holds ``ClubFounded`` and ``PlayerRegistered``; ``league-<league_id>``
holds everything about the league's seasons, tournaments and rounds. Every event is a msgspec
Struct in one tagged union (tag field ``type`` = class name, as the game's events), stored
through ``LEAGUE_MAPPER``.
"""

from __future__ import annotations

from typing import ClassVar

import msgspec

from event_store import Mapper
from services.game.results import GameResult, GameType
from services.league.vocabulary import DEFAULT_DECISION_SECONDS, MEMBERS_ONLY, PointsScheme, SeatingPolicy


class LeagueEvent(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag=True):
    VERSION: ClassVar[int] = 1


# --- club-<id> ----------------------------------------------------------------------------


class ClubFounded(LeagueEvent, frozen=True, kw_only=True):
    club_id: str
    name: str


class PlayerRegistered(LeagueEvent, frozen=True, kw_only=True):
    """A member joined the club; ``member_id`` is who they are in every game and season."""

    club_id: str
    member_id: str
    name: str


# --- league-<id> --------------------------------------------------------------------------


class LeagueFounded(LeagueEvent, frozen=True, kw_only=True):
    league_id: str
    club_id: str
    name: str
    points: PointsScheme
    seating: SeatingPolicy
    game_type: str = GameType.DICE.value
    """``dice`` or ``cards``: every game of the league is of this type. Leagues founded before
    the card game existed played dice."""
    visibility: str = MEMBERS_ONLY
    """``public`` or ``members`` (services/league/visibility.py). Leagues founded before the
    setting existed are members-only."""
    decision_seconds: int = DEFAULT_DECISION_SECONDS
    """Each decision's time in the league's online games (the schedule's ``options`` may set
    another for one game). Leagues founded before the setting existed have the default: 24 hours."""


class LeagueVisibilityChanged(LeagueEvent, frozen=True, kw_only=True):
    """The league became readable by anyone (``public``) or by its club's members only
    (``members``)."""

    league_id: str
    visibility: str
    changed_by: str | None = None


class SeasonOpened(LeagueEvent, frozen=True, kw_only=True):
    league_id: str
    season_id: str
    name: str
    points: PointsScheme
    """The scheme every game of this season is scored with (the league's, unless overridden)."""


class PlayerEnrolled(LeagueEvent, frozen=True, kw_only=True):
    league_id: str
    season_id: str
    member_id: str


class TournamentOpened(LeagueEvent, frozen=True, kw_only=True):
    league_id: str
    season_id: str
    tournament_id: str
    name: str
    seating: SeatingPolicy


class SeatedTable(msgspec.Struct, frozen=True, kw_only=True):
    table: int
    """1, 2, … within the round."""
    members: tuple[str, ...]
    sheriff: str | None
    """Who the rotation makes Sheriff; None at a three-player table (it has no Sheriff)."""


class RoundSeated(LeagueEvent, frozen=True, kw_only=True):
    """The seating of one round, with the inputs it was computed from (re-checkable: the
    same inputs and the season's earlier rounds give the same tables)."""

    league_id: str
    season_id: str
    tournament_id: str
    round: int
    seed: str
    tables: tuple[SeatedTable, ...]
    byes: tuple[str, ...] = ()
    scores: dict[str, float] = {}
    """Each entrant's score the Swiss grouping used (from the standings when seated)."""


class GameScheduled(LeagueEvent, frozen=True, kw_only=True):
    """The organiser scheduled the game a seated table plays: its id is reserved for that table
    from now on (``league_game_reservations``), and only a game created for that table, with
    those members in those seats, counts for the league (services/league/integrity.py)."""

    league_id: str
    tournament_id: str
    round: int
    table: int
    game_id: str
    mode: str | None = None
    """``online`` or ``table``; None in events recorded before scheduling was public."""
    scorekeeper: str | None = None
    """A table game's scorekeeper (account id), who alone enters its dice and decisions."""
    scheduled_by: str | None = None
    """The organiser's account id (None: an operator's script, before accounts)."""
    starts_at: str | None = None
    """When the table plays, ISO 8601 with its UTC offset (None: not said, or scheduled before
    the schedule said when)."""
    ruleset: str | None = None
    """The rules its game is played with (``Ruleset.text``: ``dice OS1``); None: the league's
    base game, or scheduled before the schedule named a ruleset."""
    decision_timeout_seconds: int | None = None
    """The decision timer in seconds (None: none)."""


class ForfeitRecorded(LeagueEvent, frozen=True, kw_only=True):
    """A seated member forfeited their table, or did not show up: they score a loss with no
    points in the round (docs/league.md, "Forfeits and no-shows")."""

    league_id: str
    tournament_id: str
    round: int
    table: int
    member_id: str
    kind: str
    """``forfeit`` or ``no-show``."""
    reason: str = ""
    recorded_by: str | None = None


class RoundClosed(LeagueEvent, frozen=True, kw_only=True):
    """The round's schedule is final: nothing more is scheduled, forfeited or seated in it."""

    league_id: str
    tournament_id: str
    round: int
    closed_by: str | None = None


class GameVoided(LeagueEvent, frozen=True, kw_only=True):
    """A referee or organiser voided one of the league's games: it no longer counts for
    standings or ratings, whatever it recorded. The game's own stream is untouched."""

    league_id: str
    game_id: str
    reason: str
    voided_by: str


class ResultSheetRecorded(LeagueEvent, frozen=True, kw_only=True):
    """A card game played entirely on cardboard, known only from the sheet its table wrote down
    and the league checked (services/league/result_sheet.py). It counts for standings and
    ratings like a finished game, and there is nothing to replay: ``replayable`` is false."""

    league_id: str
    season_id: str
    tournament_id: str
    round: int
    table: int
    game_id: str
    result: GameResult
    """The neutral result (seats ``p1``… in the sheet's order), as an engine would report it."""
    characters: tuple[str, ...]
    """Each seat's character, in seat order."""
    recorded_by: str | None = None
    replayable: bool = False


class SeasonClosed(LeagueEvent, frozen=True, kw_only=True):
    league_id: str
    season_id: str


CLUB_EVENTS: tuple[type[LeagueEvent], ...] = (ClubFounded, PlayerRegistered)
LEAGUE_EVENTS: tuple[type[LeagueEvent], ...] = (
    LeagueFounded,
    SeasonOpened,
    PlayerEnrolled,
    TournamentOpened,
    RoundSeated,
    GameScheduled,
    SeasonClosed,
    ForfeitRecorded,
    RoundClosed,
    GameVoided,
    ResultSheetRecorded,
    LeagueVisibilityChanged,
)

LEAGUE_MAPPER = Mapper()
for _cls in (*CLUB_EVENTS, *LEAGUE_EVENTS):
    LEAGUE_MAPPER.register(_cls, schema_version=_cls.VERSION)
