"""Points for one player's result in one game, under a league's ``PointsScheme``.

A game's result comes from its stream: ``GameCreated.context`` says which league, season,
tournament, round and table; ``SeatsDealt`` who sat where; the engine's end, read as a neutral
``GameFinish`` (services/game/results/decoder.py), how each seat did.
"""

from __future__ import annotations

import msgspec

from services.game.results import Role, Side
from services.league.vocabulary import PointsScheme


class MemberResult(msgspec.Struct, frozen=True, kw_only=True):
    """One member's result in one finished league game."""

    member_id: str
    role: Role
    """The base role: a special role counts as the role it stands for."""
    side: str
    """The side at the end, as the game reported it (after an Undead or Alive outbreak:
    ``zombies``, ``zombie_master`` or ``survivors``)."""
    won: bool
    """Every seat of the winning side won, those out of play included."""
    alive: bool
    """In play at the end (a zombie still in play is)."""


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


RENEGADE_GAME_SIDES = frozenset({Side.RENEGADE.value, Side.ZOMBIE_MASTER.value})
"""The sides a Renegade plays his own game on: alone, or as the Zombie Master after an Undead or
Alive outbreak. A plain zombie dealt the Renegade, or a Renegade left a survivor, does not."""


def renegade_win(result: MemberResult) -> bool:
    """A win the Renegade bonus (and the Renegade-wins tie-break) rewards: a Renegade who won
    playing his own game (docs/rulings.md, UA4: the side is checked, not only the role)."""
    return result.won and result.role == Role.RENEGADE and result.side in RENEGADE_GAME_SIDES


def points_for(result: MemberResult, scheme: PointsScheme) -> int:
    """Win or loss; a winner in play at the end gets the survivor bonus (a zombie in play
    too), a Renegade's own win the Renegade bonus (the Zombie Master's included)."""
    if not result.won:
        return scheme.loss
    points = scheme.win
    if result.alive:
        points += scheme.survivor_bonus
    if renegade_win(result):
        points += scheme.renegade_bonus
    return points
