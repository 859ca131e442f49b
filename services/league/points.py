"""Points for one player's result in one game, under a league's ``PointsScheme``.

A game's result comes from its stream: ``GameCreated.context`` says which league, season,
tournament, round and table; ``SeatsDealt`` who sat where; the engine's end, read as a neutral
``GameFinish`` (services/game/results/decoder.py), how each seat did.
"""

from __future__ import annotations

import msgspec

from services.game.results import Role
from services.league.vocabulary import PointsScheme


class MemberResult(msgspec.Struct, frozen=True, kw_only=True):
    """One member's result in one finished league game."""

    member_id: str
    role: Role
    """The base role: a special role counts as the role it stands for."""
    side: str
    won: bool
    alive: bool


class GameOutcome(msgspec.Struct, frozen=True, kw_only=True):
    """A finished league game, as the standings see it."""

    game_id: str
    league_id: str
    season_id: str | None
    tournament_id: str | None
    round: int | None
    table: int | None
    results: tuple[MemberResult, ...]

    @property
    def members(self) -> tuple[str, ...]:
        return tuple(r.member_id for r in self.results)


def points_for(result: MemberResult, scheme: PointsScheme) -> int:
    if not result.won:
        return scheme.loss
    points = scheme.win
    if result.alive:
        points += scheme.survivor_bonus
    if result.role == Role.RENEGADE:
        points += scheme.renegade_bonus
    return points
