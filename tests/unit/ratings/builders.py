"""Small hand-made games for the ratings tests."""

from __future__ import annotations

from collections.abc import Sequence

from services.game.results import BASE_RULESET, Role, Side
from services.ratings.outcome import GameOutcome, LeaguePlayerId, SeatResult, side_of

SHERIFF, DEPUTY, OUTLAW, RENEGADE = Role.SHERIFF, Role.DEPUTY, Role.OUTLAW, Role.RENEGADE


def game(seats: Sequence[tuple[str, Role]], winner: Side | None, game_id: str = "g",
         renegade_winner: str | None = None, ruleset: str = BASE_RULESET) -> GameOutcome:
    """A game where the faction of kind ``winner`` won (``renegade_winner`` picks one of two)."""
    n = len(seats)
    results = []
    for player, role in seats:
        side = side_of(role, n)
        won = side is winner and (side is not Side.RENEGADE or renegade_winner in (None, player))
        results.append(SeatResult(player=LeaguePlayerId(player), role=role, side=side, won=won))
    return GameOutcome(game_id=game_id, seats=tuple(results), ruleset=ruleset)


FIVE = [("ann", SHERIFF), ("bob", DEPUTY), ("cat", OUTLAW), ("dan", OUTLAW), ("eve", RENEGADE)]
