"""Synthetic leagues whose results follow a known model: for tests and a quick sanity check.

Each player has a true strength on the Elo scale; each (table size, faction kind) a true
offset. A game deals roles at random and draws the winner from exactly the softmax the rating
model assumes (mean member strength + offset). This is the model's home ground — it shows that
the fitting recovers what it should, not how well it describes real play (the bot evaluation
in ``evaluation.py`` does that).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from services.game.results import BASE_RULESET, ROLES_BY_PLAYER_COUNT, Side
from services.ratings.model import win_probabilities
from services.ratings.outcome import GameOutcome, LeaguePlayerId, SeatResult, factions_of, side_of

TRUE_OFFSETS: dict[tuple[int, Side], float] = {
    # plausible shapes: the Law strong at small tables, the lone Renegade rarely winning
    (3, Side.DEPUTY): 40.0, (3, Side.OUTLAW): 0.0, (3, Side.RENEGADE): -40.0,
    (4, Side.LAW): 150.0, (4, Side.OUTLAWS): 50.0, (4, Side.RENEGADE): -200.0,
    (5, Side.LAW): 120.0, (5, Side.OUTLAWS): 80.0, (5, Side.RENEGADE): -200.0,
    (6, Side.LAW): 60.0, (6, Side.OUTLAWS): 140.0, (6, Side.RENEGADE): -200.0,
    (7, Side.LAW): 120.0, (7, Side.OUTLAWS): 90.0, (7, Side.RENEGADE): -210.0,
    (8, Side.LAW): 150.0, (8, Side.OUTLAWS): 110.0, (8, Side.RENEGADE): -260.0,
}


def player_name(i: int) -> LeaguePlayerId:
    return LeaguePlayerId(f"player-{i:03d}")


def generate(
    strengths: Mapping[LeaguePlayerId, float],
    games: int,
    seed: int,
    table_sizes: Sequence[int] = (4, 5, 6, 7, 8),
    offsets: Mapping[tuple[int, Side], float] = TRUE_OFFSETS,
    ruleset: str = BASE_RULESET,
) -> list[GameOutcome]:
    """``games`` results drawn from the model with these true strengths and offsets, played
    under ``ruleset`` (whose offsets these are)."""
    rng = random.Random(seed)
    pool = sorted(strengths)
    outcomes = []
    for g in range(games):
        n = rng.choice(list(table_sizes))
        players = rng.sample(pool, n)
        roles = list(ROLES_BY_PLAYER_COUNT[n])
        rng.shuffle(roles)
        factions = factions_of(tuple(roles))
        s = [
            sum(strengths[players[i]] for i in f.seats) / f.size + offsets[(n, f.kind)] for f in factions
        ]
        winner = rng.choices(range(len(factions)), weights=win_probabilities(s))[0]
        won = set(factions[winner].seats)
        seats = tuple(
            SeatResult(player=players[i], role=roles[i], side=side_of(roles[i], n), won=i in won)
            for i in range(n)
        )
        outcomes.append(GameOutcome(game_id=f"synthetic-{seed}-{g}", seats=seats, ruleset=ruleset))
    return outcomes


def spread_strengths(players: int, spread: float = 400.0) -> dict[LeaguePlayerId, float]:
    """Players with true strengths evenly spaced over ``[-spread/2, spread/2]`` Elo points."""
    return {player_name(i): -spread / 2 + spread * i / (players - 1) for i in range(players)}
