"""``bench engine --game cards``: its figures and their anchor (speed itself is never asserted)."""

from __future__ import annotations

import pytest
import typer
from typer.testing import CliRunner

from bang_cli.bench import bench
from ops.bench import _engine_cards, engine


def test_the_card_figures_stand_beside_the_dice_anchor(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_engine_cards, "PLAYER_COUNTS", (4, 7))
    monkeypatch.setattr(_engine_cards, "MIN_GAMES", 2)
    result = _engine_cards.run(0.01, dice_games_per_second=100.0, calibration=10.0)
    gps, ratio = result["games_per_second"], result["ratio_to_dice_5p"]
    assert isinstance(gps, dict) and isinstance(ratio, dict)
    assert set(gps) == set(ratio) == {"4", "7"}
    for key, value in gps.items():
        assert value > 0 and ratio[key] == pytest.approx(value / 100.0, abs=0.01)
    assert result["dice_5p_games_per_second"] == 100.0
    played = result["games_played"]
    assert isinstance(played, dict) and all(n >= 2 for n in played.values())
    assert engine.render(result) is not None  # the card table, not the dice one


def test_the_cli_passes_game_only_to_a_benchmark_that_takes_it() -> None:
    app = typer.Typer()
    app.command()(bench)
    refused = CliRunner().invoke(app, ["ratings", "--game", "cards"])
    assert refused.exit_code != 0 and "does not take --game" in refused.output
    unknown = CliRunner().invoke(app, ["engine", "--game", "chess"])
    assert unknown.exit_code != 0 and "unknown game type" in unknown.output
