"""`bang-league bench ratings`: how well the ratings predict bot games, against baselines.

A league of 36 heuristic bots with care levels spread evenly over [0, 1] plays 3000 engine
games at tables of 4 to 8 drawn at random. Every model predicts each game before it learns
the result; the figures are log loss (primary), Brier score, accuracy of the predicted winning
faction, and the Spearman correlation of final ratings with the bots' true care. Anchors in the
same run: the side's base rate, plain team Elo, OpenSkill (Plackett–Luce) and an oracle that
knows the true care (see services/ratings/evaluation.py and docs/ratings.md).

``python -m ops.bench.ratings --synthetic`` runs the same evaluation on results drawn from the
model's own assumptions instead of bot games (a check of the fitting, not of the model).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from services.ratings.evaluation import MODELS, bot_league, evaluate, synthetic_league

GAMES = 3000
PLAYERS = 36
SEED = 1
"""The reported seed; the model's constants were chosen on seed 2, so this run is held out."""


def run(source: str = "bots", games: int = GAMES, players: int = PLAYERS, seed: int = SEED) -> dict[str, Any]:
    """Play (or draw) the league once and score every model on it; JSON-ready."""
    if source == "bots":
        league = bot_league(players=players, games=games, seed=seed)
    elif source == "synthetic":
        league = synthetic_league(players=players, games=games, seed=seed)
    else:
        raise ValueError(f"source is 'bots' or 'synthetic', not {source!r}")
    result = evaluate(league)
    # the JSON contract: `spearman` is the model's rank correlation, a number; every model's
    # (those that rate players) is in `spearman_by_model`
    result["spearman_by_model"] = result.pop("spearman")
    result["spearman"] = result["spearman_by_model"]["model"]
    result["seed"] = seed
    return result


def render(result: dict[str, Any]) -> Group:
    title = f"ratings: {result['games']} {result['source']} games, {result['players']} players"
    table = Table(title=title)
    table.add_column("model")
    for column in ("log loss", "2nd half", "Brier", "accuracy", "Spearman"):
        table.add_column(column, justify="right")
    for name in (*MODELS, "openskill_raw"):
        rho = result["spearman_by_model"].get(name)
        table.add_row(
            name,
            f"{result['log_loss'][name]:.4f}",
            f"{result['log_loss_second_half'][name]:.4f}",
            f"{result['brier'][name]:.4f}",
            f"{result['accuracy'][name]:.3f}",
            "" if rho is None else f"{rho:.3f}",
        )
    ll = result["log_loss"]
    note = Text(
        f"log loss: model beats base rate by {ll['base_rate'] - ll['model']:.4f} and team Elo by "
        f"{ll['team_elo'] - ll['model']:.4f}; the oracle is {ll['model'] - ll['oracle']:.4f} better. "
        f"Played in {result['seconds']['play']:.1f} s, rated in {result['seconds']['evaluate']:.1f} s."
    )
    return Group(table, note)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--synthetic", action="store_true", help="model-drawn results, not bot games")
    parser.add_argument("--games", type=int, default=GAMES)
    parser.add_argument("--players", type=int, default=PLAYERS)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = run("synthetic" if args.synthetic else "bots", args.games, args.players, args.seed)
    if args.json:
        print(json.dumps(result, indent=2, sort_keys=True))
    else:
        Console().print(render(result))


if __name__ == "__main__":
    main()
