"""An honest evaluation: predict every game before learning from it, against baselines.

A *league* is a sequence of finished games plus every player's true strength. Each model sees
the games in order, predicts the winning faction's probability from the table alone, is scored
on that prediction, and only then learns the result — so no model ever scores a game it has
already seen. All models see exactly the same games (played once, kept in memory).

Leagues come from two sources:

* ``bot_league`` — real games of the rules engine played by ``HeuristicBot``s whose ``care``
  (the probability that a decision is the heuristic one rather than random) is the true
  strength. This is the evaluation that counts.
* ``synthetic_league`` — results drawn from the rating model's own assumptions; useful to check
  the fitting, flattering to the model, and always labelled as such.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from services.game.results import BASE_RULESET
from services.ratings import metrics
from services.ratings.baselines import BaseRate, Elo, OpenSkill, Oracle, Predictor, team_elo
from services.ratings.model import RatingConfig
from services.ratings.outcome import GameOutcome, LeaguePlayerId, from_finish
from services.ratings.synthetic import generate, player_name, spread_strengths

MODELS = ("model", "base_rate", "team_elo", "openskill", "oracle")


class League(msgspec.Struct, frozen=True, kw_only=True):
    source: str
    """``bots`` or ``synthetic``."""
    games: tuple[GameOutcome, ...]
    truth: dict[LeaguePlayerId, float]
    seconds: float = 0.0
    """Time it took to play (or draw) the games."""


def synthetic_league(players: int = 36, games: int = 1500, seed: int = 1) -> League:
    """Results drawn from the model's assumptions, true strengths spread over 400 Elo points."""
    started = time.perf_counter()
    truth = spread_strengths(players)
    outcomes = generate(truth, games, seed)
    return League(source="synthetic", games=tuple(outcomes), truth=truth,
                  seconds=time.perf_counter() - started)


def bot_league(
    players: int = 36, games: int = 1500, seed: int = 1, table_sizes: Sequence[int] = (4, 5, 6, 7, 8)
) -> League:
    """Real engine games between heuristic bots with care levels spread evenly over [0, 1].

    Each game draws a table size, then that many players from the pool, deals the roles with
    the simulation's ``deal`` and plays with the simulation's seeded generator and dice for
    game ``g`` of run ``seed``, so the league is the same every run.
    """
    # imported here so the synthetic path and the models work without the bot package
    from services.game.bots import HeuristicBot
    from services.game.results.decoder import dice_finish
    from services.game.simulation import deal, game_seeds, play_game

    started = time.perf_counter()
    truth = {player_name(i): i / (players - 1) for i in range(players)}
    pool = sorted(truth)
    # who sits down is drawn from its own generator; each game's deal, bot coin flips and dice
    # come from the simulation's per-game seeds, so one game can be replayed on its own
    league_rng = random.Random(f"ratings-league:{seed}")
    outcomes = []
    for g in range(games):
        n = league_rng.choice(list(table_sizes))
        chosen = league_rng.sample(pool, n)
        rng, dice = game_seeds(seed, g)
        seats = deal(n, rng)
        league_ids: dict[str, LeaguePlayerId] = {seat.player: chosen[i] for i, seat in enumerate(seats)}
        bots = {seat.player: HeuristicBot(care=truth[league_ids[seat.player]]) for seat in seats}
        ended = play_game(seats, bots, dice, rng).result
        if ended is None:
            raise RuntimeError(f"bot game {g} did not end")
        outcomes.append(from_finish(dice_finish(ended), league_ids, game_id=f"bots-{seed}-{g}"))
    return League(source="bots", games=tuple(outcomes), truth=truth, seconds=time.perf_counter() - started)


def evaluate(league: League, config: RatingConfig | None = None) -> dict[str, Any]:
    """Every model's scores on the league (see the module docstring); JSON-ready."""
    started = time.perf_counter()
    games = league.games
    model = Elo(config)
    team = team_elo()
    openskill = OpenSkill()
    online: dict[str, Predictor] = {
        "model": model, "base_rate": BaseRate(), "team_elo": team, "openskill": openskill,
    }
    # the oracle is cross-fitted: the one that predicts the even games learned from the odd ones
    oracles = (
        Oracle(league.truth, games[1::2]),
        Oracle(league.truth, games[0::2]),
    )
    names = (*MODELS, "openskill_raw")
    predictions: dict[str, list[list[float]]] = {name: [] for name in names}
    winners: list[int] = []
    for index, outcome in enumerate(games):
        table = outcome.table
        current = {name: p.predict(table) for name, p in online.items()}
        current["openskill_raw"] = openskill.raw_predict(table)
        current["oracle"] = oracles[index % 2].predict(table)
        if outcome.winner is not None:
            winners.append(outcome.winner)
            for name in names:
                predictions[name].append(current[name])
        for p in online.values():
            p.observe(outcome)
    half = len(winners) // 2

    def score(fn: Any, start: int = 0) -> dict[str, float]:
        return {name: round(fn(predictions[name][start:], winners[start:]), 4) for name in names}

    truth = league.truth
    players = sorted(truth)

    def rho(ratings: Mapping[LeaguePlayerId, float]) -> float:
        return round(metrics.spearman([ratings.get(p, 0.0) for p in players], [truth[p] for p in players]), 4)

    return {
        "source": league.source,
        "games": len(games),
        "scored_games": len(winners),
        "players": len(players),
        "log_loss": score(metrics.log_loss),
        "brier": score(metrics.brier),
        "accuracy": score(metrics.accuracy),
        "log_loss_second_half": score(metrics.log_loss, half),
        "spearman": {
            "model": rho(model.ratings()),
            "team_elo": rho(team.ratings()),
            "openskill": rho(openskill.ratings()),
        },
        # the leagues evaluated are base games, so the base ruleset's offsets are all there is
        "offsets": {
            str(n): {k.value: round(v, 1) for k, v in kinds.items()}
            for n, kinds in model.book.offsets.normalised().get(BASE_RULESET, {}).items()
        },
        "side_win_rates": _side_win_rates(games),
        "seconds": {"play": round(league.seconds, 2), "evaluate": round(time.perf_counter() - started, 2)},
    }


def _side_win_rates(games: Sequence[GameOutcome]) -> dict[str, dict[str, float]]:
    """How often each kind of faction won, per table size (context for the offsets)."""
    counts: dict[int, dict[str, int]] = {}
    totals: dict[int, int] = {}
    for o in games:
        totals[o.players] = totals.get(o.players, 0) + 1
        w = o.winner
        key = "none" if w is None else o.factions()[w].kind.value
        by_kind = counts.setdefault(o.players, {})
        by_kind[key] = by_kind.get(key, 0) + 1
    return {
        str(n): {k: round(c / totals[n], 3) for k, c in sorted(counts[n].items())} for n in sorted(counts)
    }
