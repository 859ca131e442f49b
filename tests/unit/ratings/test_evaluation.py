from __future__ import annotations

import pytest

from services.ratings import metrics
from services.ratings.baselines import BaseRate, OpenSkill, Oracle, Predictor, team_elo
from services.ratings.baselines import Elo as EloPredictor
from services.ratings.evaluation import MODELS, bot_league, evaluate, synthetic_league
from services.ratings.outcome import GameOutcome


def _log_loss(predictor: Predictor, games: tuple[GameOutcome, ...]) -> float:
    predictions, winners = [], []
    for outcome in games:
        predictions.append(predictor.predict(outcome.table))
        winners.append(outcome.winner or 0)
        predictor.observe(outcome)
    return metrics.log_loss(predictions, winners)


def test_on_known_strengths_the_model_beats_base_rate_and_team_elo() -> None:
    league = synthetic_league(players=30, games=1500, seed=7)
    model = _log_loss(EloPredictor(), league.games)
    assert model < _log_loss(BaseRate(), league.games) - 0.02
    assert model < _log_loss(team_elo(), league.games) - 0.1


def test_every_prediction_is_a_distribution_over_the_factions() -> None:
    league = synthetic_league(players=12, games=60, seed=2)
    predictors: list[Predictor] = [EloPredictor(), BaseRate(), team_elo(), OpenSkill(),
                                   Oracle(league.truth, league.games)]
    for outcome in league.games:
        for p in predictors:
            probabilities = p.predict(outcome.table)
            assert len(probabilities) == len(outcome.factions())
            assert sum(probabilities) == pytest.approx(1.0)
            assert all(0 < q < 1 for q in probabilities)
            p.observe(outcome)


def test_the_oracle_fitted_on_the_model_s_own_assumptions_is_hard_to_beat() -> None:
    league = synthetic_league(players=30, games=1200, seed=4)
    result = evaluate(league)
    assert result["log_loss"]["oracle"] < result["log_loss"]["model"] < result["log_loss"]["base_rate"]


def test_bot_league_report_has_every_figure() -> None:
    league = bot_league(players=10, games=40, seed=3)
    assert league.source == "bots" and len(league.games) == 40
    result = evaluate(league)
    for figure in ("log_loss", "brier", "accuracy"):
        assert set(MODELS) <= set(result[figure])
    assert -1.0 <= result["spearman"]["model"] <= 1.0
    assert result["games"] == 40 and result["players"] == 10
