"""Everything the league domain refuses, split by cause. Each refusal changes nothing.

LeagueError
├── InvalidCommand          malformed input: a bad id, size or points table
├── UnknownEntity           the club, league, season, tournament or player does not exist
│   └── UnknownPlayer
├── AlreadyExists           founding, opening or registering something twice
└── InvalidTransition       the command does not fit the current state
    ├── SeasonAlreadyClosed the season is closed (closing it again, seating in it, …)
    ├── RoundAlreadySeated
    ├── RoundClosedAlready  nothing more is scheduled or forfeited in a closed round
    ├── PlayerSeatedTwice   one player in two tables, or twice at one table
    ├── GameNotScheduled    a game claims a league table that scheduled no such game
    └── ScheduleMismatch    a scheduled game created with other members, seats or mode
"""

from __future__ import annotations


class LeagueError(Exception):
    """Base of every error of the league domain."""


class LeagueNotFound(LeagueError, LookupError):
    """No league has the id a read names (404 ``league-not-found``; the league's readers and the
    directory both say it)."""

    def __init__(self, league_id: str) -> None:
        super().__init__(f"no league has the id {league_id!r}")
        self.field = "league_id"


class InvalidCommand(LeagueError, ValueError):
    """The command is malformed whatever the state."""


class UnknownEntity(LeagueError, LookupError):
    def __init__(self, kind: str, key: str) -> None:
        self.kind = kind
        self.key = key
        super().__init__(f"unknown {kind} {key!r}")


class UnknownPlayer(UnknownEntity):
    def __init__(self, member_id: str, where: str) -> None:
        self.member_id = member_id
        super().__init__("player", member_id)
        self.args = (f"unknown player {member_id!r} in {where}",)


class AlreadyExists(LeagueError):
    def __init__(self, kind: str, key: str) -> None:
        self.kind = kind
        self.key = key
        super().__init__(f"{kind} {key!r} exists already")


class InvalidTransition(LeagueError):
    """The command is well formed but does not fit the aggregate's current state."""


class SeasonAlreadyClosed(InvalidTransition):
    def __init__(self, season_id: str) -> None:
        self.season_id = season_id
        super().__init__(f"season {season_id!r} is closed")


class RoundAlreadySeated(InvalidTransition):
    def __init__(self, tournament_id: str, round_number: int) -> None:
        self.tournament_id = tournament_id
        self.round_number = round_number
        super().__init__(f"round {round_number} of tournament {tournament_id!r} is seated already")


class PlayerSeatedTwice(InvalidTransition):
    def __init__(self, member_id: str) -> None:
        self.member_id = member_id
        super().__init__(f"player {member_id!r} would sit at two tables (or twice at one)")


class GameNotScheduled(InvalidTransition):
    """A game claims a league table that scheduled no such game (or a reserved id is used
    for something else): the integrity rule of docs/league.md."""


class ScheduleMismatch(InvalidTransition):
    """A game created for a scheduled table differs from the schedule (members, seats, mode,
    context); the message names each difference."""


class RoundClosedAlready(InvalidTransition):
    def __init__(self, tournament_id: str, round_number: int) -> None:
        self.tournament_id = tournament_id
        self.round_number = round_number
        super().__init__(f"round {round_number} of tournament {tournament_id!r} is closed")
