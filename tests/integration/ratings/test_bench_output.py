"""`bang-league bench ratings --json` keeps its contract: `spearman` is the model's number."""

from __future__ import annotations

import json

from rich.console import Console

from ops.bench import ratings as ratings_bench


def test_spearman_is_the_model_s_number_and_every_model_s_is_beside_it() -> None:
    result = ratings_bench.run("synthetic", games=60, players=10, seed=2)
    by_model = result["spearman_by_model"]
    assert isinstance(result["spearman"], float) and result["spearman"] == by_model["model"]
    assert {"model", "team_elo", "openskill"} <= set(by_model)
    assert json.loads(json.dumps(result))["spearman"] == result["spearman"]
    console = Console(file=None, record=True, width=120)
    console.print(ratings_bench.render(result))
    assert f"{by_model['team_elo']:.3f}" in console.export_text()
