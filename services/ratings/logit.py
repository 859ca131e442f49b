"""A small maximum-likelihood fit of a conditional (multinomial) logit, in pure Python.

Each game is a choice among its factions: faction ``f`` has features ``x_f`` (a sparse mapping
from parameter name to value) and wins with probability ``exp(θ·x_f) / Σ_g exp(θ·x_g)``. The
fit maximises the log-likelihood minus a small ridge penalty ``ridge/2 · |θ|²`` (which also
pins down parameters a softmax cannot identify, such as a constant added to every faction) by
Newton's method. A few dozen parameters and a few thousand games fit in well under a second.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence

Features = Mapping[Hashable, float]


class Choice:
    """One game: the factions' features and the index of the faction that won."""

    __slots__ = ("factions", "winner")

    def __init__(self, factions: Sequence[Features], winner: int) -> None:
        self.factions = factions
        self.winner = winner


def probabilities(theta: Mapping[Hashable, float], factions: Sequence[Features]) -> list[float]:
    scores = [sum(theta.get(k, 0.0) * v for k, v in x.items()) for x in factions]
    top = max(scores)
    weights = [math.exp(s - top) for s in scores]
    total = sum(weights)
    return [w / total for w in weights]


def fit(choices: Sequence[Choice], ridge: float = 1e-2, iterations: int = 30) -> dict[Hashable, float]:
    """The penalised maximum-likelihood θ (parameters never seen in a feature stay absent)."""
    names = list(dict.fromkeys(k for c in choices for x in c.factions for k in x))
    index = {k: i for i, k in enumerate(names)}
    m = len(names)
    theta = [0.0] * m
    for _ in range(iterations):
        grad = [-ridge * t for t in theta]
        hess = [[(ridge if i == j else 0.0) for j in range(m)] for i in range(m)]
        current = dict(zip(names, theta, strict=True))
        for c in choices:
            p = probabilities(current, c.factions)
            mean: dict[int, float] = {}
            for pf, x in zip(p, c.factions, strict=True):
                for k, v in x.items():
                    mean[index[k]] = mean.get(index[k], 0.0) + pf * v
            for k, v in c.factions[c.winner].items():
                grad[index[k]] += v
            for i, v in mean.items():
                grad[i] -= v
            # Fisher information of one choice: the covariance of x under p
            for pf, x in zip(p, c.factions, strict=True):
                centred = {index[k]: v for k, v in x.items()}
                for i in mean:
                    centred[i] = centred.get(i, 0.0) - mean[i]
                for i, vi in centred.items():
                    row = hess[i]
                    for j, vj in centred.items():
                        row[j] += pf * vi * vj
        step = _solve(hess, grad)
        theta = [t + s for t, s in zip(theta, step, strict=True)]
        if max((abs(s) for s in step), default=0.0) < 1e-9:
            break
    return dict(zip(names, theta, strict=True))


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Solve a·x = b for a symmetric positive definite ``a`` (Gaussian elimination, pivoting)."""
    n = len(b)
    rows = [[*a[i], b[i]] for i in range(n)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        p = rows[col][col]
        for r in range(col + 1, n):
            factor = rows[r][col] / p
            if factor:
                rr, rc = rows[r], rows[col]
                for j in range(col, n + 1):
                    rr[j] -= factor * rc[j]
    x = [0.0] * n
    for i in range(n - 1, -1, -1):
        x[i] = (rows[i][n] - sum(rows[i][j] * x[j] for j in range(i + 1, n))) / rows[i][i]
    return x
