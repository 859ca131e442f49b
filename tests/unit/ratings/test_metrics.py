from __future__ import annotations

import math

import pytest

from services.ratings import metrics

PREDICTIONS = [[0.5, 0.25, 0.25], [0.1, 0.6, 0.2, 0.1]]
WINNERS = [0, 2]


def test_log_loss_by_hand() -> None:
    assert metrics.log_loss(PREDICTIONS, WINNERS) == pytest.approx((math.log(2) + math.log(5)) / 2)
    assert metrics.log_loss([[0.0, 1.0]], [0]) == pytest.approx(-math.log(1e-15))  # floored, finite


def test_brier_by_hand() -> None:
    first = 0.25 + 0.0625 + 0.0625
    second = 0.01 + 0.36 + 0.64 + 0.01
    assert metrics.brier(PREDICTIONS, WINNERS) == pytest.approx((first + second) / 2)


def test_accuracy_by_hand_with_ties_to_the_first() -> None:
    assert metrics.accuracy(PREDICTIONS, WINNERS) == 0.5
    assert metrics.accuracy([[0.4, 0.4, 0.2]], [0]) == 1.0
    assert metrics.accuracy([[0.4, 0.4, 0.2]], [1]) == 0.0


def test_ranks_share_ties() -> None:
    assert metrics.ranks([10.0, 30.0, 20.0, 30.0]) == [1.0, 3.5, 2.0, 3.5]


def test_spearman_by_hand() -> None:
    assert metrics.spearman([1, 2, 3, 4], [10, 20, 30, 40]) == pytest.approx(1.0)
    assert metrics.spearman([1, 2, 3, 4], [4, 3, 2, 1]) == pytest.approx(-1.0)
    # d = (0, 0, 1, -1): rho = 1 - 6 * 2 / (4 * 15) = 0.8
    assert metrics.spearman([1, 2, 3, 4], [1, 2, 4, 3]) == pytest.approx(0.8)


def test_metrics_refuse_mismatched_or_empty_input() -> None:
    with pytest.raises(ValueError):
        metrics.log_loss([], [])
    with pytest.raises(ValueError):
        metrics.brier(PREDICTIONS, [0])
    with pytest.raises(ValueError):
        metrics.spearman([1, 1], [1, 2])
