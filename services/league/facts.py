"""Reading league facts out of recorded events: the one decoder the projection, the from-scratch
recomputation and the audits share, so they cannot disagree on what a game's result was. Game
events go through the game service's result decoder (services/game/results/decoder.py), which
ratings read too; the league never sees an engine's events.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from event_store import RecordedEvent
from services.game.application.lifecycle import GameContext, GameCreated, PlayerJoined, SeatsDealt
from services.game.results import GameFinish, GameResult
from services.game.results.decoder import GameFact, decode_game_fact, seat_members
from services.league.events import (
    LEAGUE_MAPPER,
    ForfeitRecorded,
    GameScheduled,
    GameVoided,
    LeagueEvent,
    PlayerEnrolled,
    ResultSheetRecorded,
    RoundClosed,
    RoundSeated,
    SeasonOpened,
    TournamentOpened,
)
from services.league.points import GameOutcome, MemberResult
from services.league.vocabulary import PointsScheme


def game_id_of(event: RecordedEvent) -> str:
    return event.stream.split("-", 1)[1]


def decode_game_event(event: RecordedEvent) -> GameFact | None:
    """A game event as the league reads it (the game service's one decoder of results)."""
    return decode_game_fact(event)


def decode_league_event(event: RecordedEvent) -> LeagueEvent:
    return LEAGUE_MAPPER.to_domain(event)  # type: ignore[return-value]


def seat_map(seats: SeatsDealt) -> dict[str, str]:
    """Seat id (p1…) → member id."""
    return seat_members(seats)


def member_results(result: GameResult) -> tuple[MemberResult, ...]:
    """Each seat's line for the standings; a special role counts as its base role."""
    return tuple(
        MemberResult(member_id=s.member_id, role=s.base_role, side=s.side, won=s.won, alive=s.alive)
        for s in result.seats
    )


@dataclass(frozen=True, slots=True)
class Forfeit:
    league_id: str
    season_id: str
    """The tournament's season (``""`` if the tournament is unknown, as the projection keys it)."""
    tournament_id: str
    round: int
    table: int
    member_id: str
    kind: str


@dataclass(frozen=True, slots=True)
class Schedule:
    """Where a league scheduled a game: the context a game needs to count for that league."""

    tournament_id: str
    round: int
    table: int
    season_id: str | None
    """The tournament's season when the game was scheduled (None: the tournament is unknown)."""


@dataclass(slots=True)
class LeagueHistory:
    """Every finished game, bye, forfeit, season scheme and enrolment of the leagues in some
    events, and what decides whether a finished game counts (docs/league.md, "Integrity"): its
    league scheduled it at the tournament, round and table its context names (whether before
    or after the game was created), and did not void it."""

    byes: list[tuple[str, str, str | None]] = field(default_factory=list)
    """(league id, member id, season id), once per bye."""
    tournament_byes: list[tuple[str, str, str, str]] = field(default_factory=list)
    """(league id, tournament id, member id, season id), once per bye."""
    forfeits: list[Forfeit] = field(default_factory=list)
    schemes: dict[tuple[str, str | None], PointsScheme] = field(default_factory=dict)
    entrants: dict[tuple[str, str], list[str]] = field(default_factory=dict)
    closed_rounds: set[tuple[str, str, int]] = field(default_factory=set)
    """(league id, tournament id, round) of every closed round."""
    _tournaments: dict[tuple[str, str], str] = field(default_factory=dict)
    _tables: dict[tuple[str, str, int, int], list[str]] = field(default_factory=dict)
    """(league, tournament, round, table) → the seated members, sorted."""
    _schedules: dict[tuple[str, str], Schedule] = field(default_factory=dict)
    _voided: set[tuple[str, str]] = field(default_factory=set)
    _forfeited: set[tuple[str, str, int, str]] = field(default_factory=set)
    _contexts: dict[str, GameContext] = field(default_factory=dict)
    _seats: dict[str, dict[str, str]] = field(default_factory=dict)
    _finished: list[GameOutcome] = field(default_factory=list)
    _sheets: set[str] = field(default_factory=set)
    """Games known from a result sheet: their own stream, if any, is not read."""

    def add(self, event: RecordedEvent) -> None:
        if event.category == "league":
            self._add_league(decode_league_event(event))
        elif event.category == "game":
            self._add_game(event)

    def _add_league(self, fact: LeagueEvent) -> None:
        match fact:
            case SeasonOpened():
                self.schemes[(fact.league_id, fact.season_id)] = fact.points
            case PlayerEnrolled():
                self.entrants.setdefault((fact.league_id, fact.season_id), []).append(fact.member_id)
            case TournamentOpened():
                self._tournaments.setdefault((fact.league_id, fact.tournament_id), fact.season_id)
            case RoundSeated():
                self.byes += [(fact.league_id, member, fact.season_id) for member in fact.byes]
                for table in fact.tables:
                    key = (fact.league_id, fact.tournament_id, fact.round, table.table)
                    self._tables.setdefault(key, sorted(table.members))
                self.tournament_byes += [
                    (fact.league_id, fact.tournament_id, member, fact.season_id) for member in fact.byes
                ]
            case GameScheduled():
                # the first schedule of a game id in a league holds (the league refuses a second)
                self._schedules.setdefault(
                    (fact.league_id, fact.game_id),
                    Schedule(
                        tournament_id=fact.tournament_id,
                        round=fact.round,
                        table=fact.table,
                        season_id=self._tournaments.get((fact.league_id, fact.tournament_id)),
                    ),
                )
            case ForfeitRecorded():
                key = (fact.league_id, fact.tournament_id, fact.round, fact.member_id)
                if key not in self._forfeited:  # once per member and round, as the projection
                    self._forfeited.add(key)
                    self.forfeits.append(
                        Forfeit(
                            league_id=fact.league_id,
                            season_id=self._tournaments.get((fact.league_id, fact.tournament_id), ""),
                            tournament_id=fact.tournament_id,
                            round=fact.round,
                            table=fact.table,
                            member_id=fact.member_id,
                            kind=fact.kind,
                        )
                    )
            case RoundClosed():
                self.closed_rounds.add((fact.league_id, fact.tournament_id, fact.round))
            case GameVoided():
                self._voided.add((fact.league_id, fact.game_id))
            case ResultSheetRecorded() if fact.game_id not in self._contexts:
                # the projection's rule: a game known from its own stream keeps its result
                self._sheets.add(fact.game_id)
                self._contexts[fact.game_id] = GameContext(
                    league_id=fact.league_id,
                    season_id=fact.season_id,
                    tournament_id=fact.tournament_id,
                    round=fact.round,
                    table=fact.table,
                )
                self._finished.append(
                    GameOutcome(
                        game_id=fact.game_id,
                        league_id=fact.league_id,
                        season_id=fact.season_id,
                        tournament_id=fact.tournament_id,
                        round=fact.round,
                        table=fact.table,
                        results=member_results(fact.result),
                    )
                )

    def _add_game(self, event: RecordedEvent) -> None:
        fact = decode_game_event(event)
        game_id = game_id_of(event)
        if game_id in self._sheets:
            return
        match fact:
            case GameCreated(context=context) if context.league_id is not None:
                self._contexts[game_id] = context
            case SeatsDealt() if game_id in self._contexts:
                self._seats[game_id] = seat_map(fact)
            case PlayerJoined(player=player) if game_id in self._contexts and player is not None:
                self._seats.setdefault(game_id, {})[player] = fact.member_id
            case GameFinish() if game_id in self._contexts:
                context = self._contexts[game_id]
                assert context.league_id is not None
                self._finished.append(
                    GameOutcome(
                        game_id=game_id,
                        league_id=context.league_id,
                        season_id=context.season_id,
                        tournament_id=context.tournament_id,
                        round=context.round,
                        table=context.table,
                        results=member_results(fact.result(game_id, self._seats[game_id])),
                    )
                )

    def scheduled(self, outcome: GameOutcome) -> bool:
        """Whether the game's league scheduled it where its context says it was played, and
        it seated exactly the members seated at that table."""
        schedule = self._schedules.get((outcome.league_id, outcome.game_id))
        if schedule is None or schedule.season_id is None:
            return False
        where = (schedule.tournament_id, schedule.round, schedule.table, schedule.season_id)
        if where != (outcome.tournament_id, outcome.round, outcome.table, outcome.season_id):
            return False
        table = (outcome.league_id, schedule.tournament_id, schedule.round, schedule.table)
        return self._tables.get(table) == sorted(outcome.members)

    def voided(self, outcome: GameOutcome) -> bool:
        return (outcome.league_id, outcome.game_id) in self._voided

    @property
    def finished(self) -> list[GameOutcome]:
        """Every finished game that claims a league, counted or not."""
        return list(self._finished)

    @property
    def outcomes(self) -> list[GameOutcome]:
        """The finished games that count: scheduled by their league there, and not voided."""
        return [o for o in self._finished if self.scheduled(o) and not self.voided(o)]

    def scheme(self, league_id: str, season_id: str | None) -> PointsScheme:
        return self.schemes.get((league_id, season_id), PointsScheme())
