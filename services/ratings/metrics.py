"""Scores of probabilistic predictions of multi-faction games, and a rank correlation.

Each game contributes one prediction: a probability per faction (summing to 1) and the index
of the faction that won. Games nobody won are not scored (there is no winner to predict).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

_FLOOR = 1e-15  # a probability of exactly 0 for the winner would make the log loss infinite


def log_loss(predictions: Sequence[Sequence[float]], winners: Sequence[int]) -> float:
    """Mean of -ln P(winner), in nats. 0 is perfect; uniform over m factions scores ln m."""
    _check(predictions, winners)
    return sum(-math.log(max(p[w], _FLOOR)) for p, w in zip(predictions, winners, strict=True)) / len(
        winners
    )


def brier(predictions: Sequence[Sequence[float]], winners: Sequence[int]) -> float:
    """Mean over games of Σ_f (P(f) - [f won])²: the multi-class Brier score, 0 to 2."""
    _check(predictions, winners)
    total = 0.0
    for p, w in zip(predictions, winners, strict=True):
        total += sum((q - (1.0 if i == w else 0.0)) ** 2 for i, q in enumerate(p))
    return total / len(winners)


def accuracy(predictions: Sequence[Sequence[float]], winners: Sequence[int]) -> float:
    """Share of games whose most likely faction won (a tie goes to the first faction listed)."""
    _check(predictions, winners)
    hits = sum(max(range(len(p)), key=lambda i: (p[i], -i)) == w for p, w in zip(predictions, winners,
                                                                                    strict=True))
    return hits / len(winners)


def ranks(values: Sequence[float]) -> list[float]:
    """1-based ranks, ties sharing the mean of their ranks."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    result = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        mean_rank = (start + end) / 2 + 1
        for j in range(start, end + 1):
            result[order[j]] = mean_rank
        start = end + 1
    return result


def pearson(xs: Sequence[float], ys: Sequence[float]) -> float:
    if len(xs) != len(ys) or len(xs) < 2:
        raise ValueError("correlation needs two equally long series of at least 2 values")
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    if sxx == 0 or syy == 0:
        raise ValueError("correlation is undefined for a constant series")
    return sxy / math.sqrt(sxx * syy)


def spearman(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Spearman's rho: the Pearson correlation of the ranks (ties get mean ranks)."""
    return pearson(ranks(xs), ranks(ys))


def _check(predictions: Sequence[Sequence[float]], winners: Sequence[int]) -> None:
    if len(predictions) != len(winners) or not winners:
        raise ValueError("need one prediction per scored game, and at least one game")
