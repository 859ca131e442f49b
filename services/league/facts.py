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
from services.league.events import LEAGUE_MAPPER, LeagueEvent, PlayerEnrolled, RoundSeated, SeasonOpened
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


@dataclass(slots=True)
class LeagueHistory:
    """Every finished game, bye, season scheme and enrolment of the leagues in some events."""

    outcomes: list[GameOutcome] = field(default_factory=list)
    byes: list[tuple[str, str, str | None]] = field(default_factory=list)
    """(league id, member id, season id), once per bye."""
    schemes: dict[tuple[str, str | None], PointsScheme] = field(default_factory=dict)
    entrants: dict[tuple[str, str], list[str]] = field(default_factory=dict)
    _contexts: dict[str, GameContext] = field(default_factory=dict)
    _seats: dict[str, dict[str, str]] = field(default_factory=dict)

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
            case RoundSeated():
                self.byes += [(fact.league_id, member, fact.season_id) for member in fact.byes]

    def _add_game(self, event: RecordedEvent) -> None:
        fact = decode_game_event(event)
        game_id = game_id_of(event)
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
                self.outcomes.append(
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

    def scheme(self, league_id: str, season_id: str | None) -> PointsScheme:
        return self.schemes.get((league_id, season_id), PointsScheme())
