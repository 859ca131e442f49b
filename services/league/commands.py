"""What organisers ask for: imperative msgspec Structs, one per change. ``str(command)`` is the
compact form used in logs and errors."""

from __future__ import annotations

import msgspec

from services.game.results import GameType
from services.league.result_sheet import ResultSheet
from services.league.vocabulary import DEFAULT_DECISION_SECONDS, MEMBERS_ONLY, PointsScheme, SeatingPolicy


class LeagueCommand(msgspec.Struct, frozen=True, kw_only=True):
    def __str__(self) -> str:
        fields = " ".join(f"{name}={getattr(self, name)!r}" for name in self.__struct_fields__)
        return f"{type(self).__name__}({fields})"


# --- to a club ----------------------------------------------------------------------------


class FoundClub(LeagueCommand, frozen=True, kw_only=True):
    club_id: str
    name: str


class RegisterPlayer(LeagueCommand, frozen=True, kw_only=True):
    club_id: str
    member_id: str
    name: str


ClubCommand = FoundClub | RegisterPlayer


# --- to a league --------------------------------------------------------------------------


class FoundLeague(LeagueCommand, frozen=True, kw_only=True):
    league_id: str
    club_id: str
    name: str
    points: PointsScheme = PointsScheme()
    seating: SeatingPolicy = SeatingPolicy()
    game_type: str = GameType.DICE.value
    """``dice`` or ``cards``."""
    visibility: str = MEMBERS_ONLY
    """``public`` or ``members`` (its club's members only)."""
    decision_seconds: int = DEFAULT_DECISION_SECONDS
    """Each decision's time in the league's online games."""


class SetLeagueVisibility(LeagueCommand, frozen=True, kw_only=True):
    """Make the league readable by anyone (``public``) or by its club's members only
    (``members``)."""

    league_id: str
    visibility: str
    changed_by: str | None = None


class OpenSeason(LeagueCommand, frozen=True, kw_only=True):
    league_id: str
    season_id: str
    name: str
    points: PointsScheme | None = None
    """None: the league's scheme."""


class EnrollPlayer(LeagueCommand, frozen=True, kw_only=True):
    """Enter a club member into a season (the service checks the club knows them)."""

    league_id: str
    season_id: str
    member_id: str


class EnrollPlayers(LeagueCommand, frozen=True, kw_only=True):
    """Enter several club members at once: all of them, or (refused) none."""

    league_id: str
    season_id: str
    member_ids: tuple[str, ...]


class OpenTournament(LeagueCommand, frozen=True, kw_only=True):
    league_id: str
    season_id: str
    tournament_id: str
    name: str
    seating: SeatingPolicy | None = None
    """None: the league's policy."""


class SeatRound(LeagueCommand, frozen=True, kw_only=True):
    league_id: str
    tournament_id: str
    round: int
    seed: str
    entrants: tuple[str, ...] | None = None
    """None: everyone enrolled in the season."""
    scores: dict[str, float] = {}
    """Current scores for the Swiss grouping; a missing entrant counts 0."""
    tables: tuple[tuple[str, ...], ...] | None = None
    """The organiser's own tables instead of the computed ones (the Sheriff still comes from
    the rotation); entrants not seated at any of them have a bye."""


class ScheduleGame(LeagueCommand, frozen=True, kw_only=True):
    league_id: str
    tournament_id: str
    round: int
    table: int
    game_id: str
    mode: str | None = None
    """``online`` or ``table`` (None: an operator's script that creates the game itself)."""
    scorekeeper: str | None = None
    """A table game's scorekeeper (account id); online games have none."""
    scheduled_by: str | None = None
    starts_at: str | None = None
    """When the table plays, ISO 8601 with its UTC offset (None: not said)."""
    ruleset: str | None = None
    """The rules the game is played with, as ``Ruleset.text`` (``dice OS1 OS2``, ``cards
    eight_players``); None: the league's base game."""
    decision_timeout_seconds: int | None = None
    """The decision timer: seconds a decision may wait before its default (None: no timer)."""


class RecordForfeit(LeagueCommand, frozen=True, kw_only=True):
    league_id: str
    tournament_id: str
    round: int
    table: int
    member_id: str
    kind: str = "forfeit"
    """``forfeit`` or ``no-show``."""
    reason: str = ""
    recorded_by: str | None = None


class CloseRound(LeagueCommand, frozen=True, kw_only=True):
    league_id: str
    tournament_id: str
    round: int
    closed_by: str | None = None


class VoidGame(LeagueCommand, frozen=True, kw_only=True):
    league_id: str
    game_id: str
    reason: str
    voided_by: str


class RecordResultSheet(LeagueCommand, frozen=True, kw_only=True):
    """The sheet of a scheduled card game played entirely on cardboard (its scorekeeper, or a
    referee, organiser or admin of the club, enters it)."""

    league_id: str
    tournament_id: str
    round: int
    table: int
    game_id: str
    sheet: ResultSheet
    recorded_by: str | None = None


class CloseSeason(LeagueCommand, frozen=True, kw_only=True):
    league_id: str
    season_id: str


LeagueAggregateCommand = (
    FoundLeague
    | SetLeagueVisibility
    | OpenSeason
    | EnrollPlayer
    | EnrollPlayers
    | OpenTournament
    | SeatRound
    | ScheduleGame
    | CloseSeason
    | RecordForfeit
    | CloseRound
    | VoidGame
    | RecordResultSheet
)
