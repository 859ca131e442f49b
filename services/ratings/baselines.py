"""What the rating model is measured against, all behind one small interface.

* ``BaseRate`` — only the side: each faction's win rate at its table size under its ruleset,
  counted online.
* ``team_elo`` — the same Elo machinery with no offsets and no role ratings.
* ``OpenSkill`` — the ``openskill`` package's Plackett–Luce model on the same factions.
* ``Oracle`` — knows every player's true strength; fitted by maximum likelihood on other games.

Each predicts ``Table -> [P(faction wins)]`` in ``table.factions()`` order before seeing the
game, then ``observe``s it.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from typing import Protocol

from openskill.models import PlackettLuce, PlackettLuceRating

from services.game.results import Side
from services.ratings import logit
from services.ratings.model import RatingBook, RatingConfig
from services.ratings.outcome import GameOutcome, LeaguePlayerId, Table


class Predictor(Protocol):
    def predict(self, table: Table) -> list[float]:
        """Each faction's chance to win, in ``table.factions()`` order."""
        ...

    def observe(self, outcome: GameOutcome) -> None:
        """Learn from a finished game (after it was predicted)."""
        ...


class Elo:
    """A ``RatingBook`` as a predictor."""

    def __init__(self, config: RatingConfig | None = None) -> None:
        self.book = RatingBook(config=config or RatingConfig())

    def predict(self, table: Table) -> list[float]:
        return self.book.predict(table)

    def observe(self, outcome: GameOutcome) -> None:
        self.book.apply(outcome)

    def ratings(self) -> dict[LeaguePlayerId, float]:
        return {p: r.rating for p, r in self.book.players.items()}


def team_elo() -> Elo:
    """Plain team Elo: faction strength is the members' mean rating, nothing else."""
    return Elo(RatingConfig(fit_offsets=False, roles_in_prediction=False, keep_history=False))


class BaseRate:
    """P(faction) from how often its kind has won at this table size under these rules so far.

    Per (ruleset, table size, kind) the rate is ``(wins + a/m) / (appearances + a)`` with ``m`` factions
    at the table and ``a = 2`` pseudo-games of a uniform prior (so the first game is not a
    division by zero and early rates are not 0 or 1); the rates of a table's factions are then
    normalised to sum to 1. An 8-player table's two Renegades each count as an appearance.
    """

    PRIOR_GAMES = 2.0

    def __init__(self) -> None:
        self.wins: dict[tuple[str, int, Side], float] = {}
        self.appearances: dict[tuple[str, int, Side], int] = {}

    def rate(self, ruleset: str, players: int, kind: Side, factions: int) -> float:
        key = (ruleset, players, kind)
        a = self.PRIOR_GAMES
        return (self.wins.get(key, 0.0) + a / factions) / (self.appearances.get(key, 0) + a)

    def predict(self, table: Table) -> list[float]:
        factions = table.factions()
        rates = [self.rate(table.ruleset, table.players, f.kind, len(factions)) for f in factions]
        total = sum(rates)
        return [r / total for r in rates]

    def observe(self, outcome: GameOutcome) -> None:
        winner = outcome.winner
        for i, f in enumerate(outcome.factions()):
            key = (outcome.ruleset, outcome.players, f.kind)
            self.appearances[key] = self.appearances.get(key, 0) + 1
            if winner is None:
                self.wins[key] = self.wins.get(key, 0.0) + 1 / len(outcome.factions())
            elif i == winner:
                self.wins[key] = self.wins.get(key, 0.0) + 1


class OpenSkill:
    """OpenSkill's Plackett–Luce ratings, with a winning-faction probability derived from them.

    Updating is openskill's own: every faction is a team, ranks are 0 for the winner and 1 (a
    tie) for the rest. For the prediction, openskill's ``predict_win`` sums member means (a
    3-Outlaw team "is" three times a Renegade), which at BANG!'s uneven tables says more about
    head count than skill. So we use the Plackett–Luce form openskill rates with,
    ``P(f) ∝ exp(μ̄_f / c)`` with ``μ̄_f`` the members' mean μ and
    ``c² = Σ_f (σ̄²_f + β²)`` as in the model, times the ``BaseRate`` prior of the faction
    (which gives it the same side information as the Elo model's offsets). ``raw_predict`` is
    openskill's ``predict_win`` unchanged, reported beside it.
    """

    def __init__(self) -> None:
        self.model = PlackettLuce()
        self.players: dict[LeaguePlayerId, PlackettLuceRating] = {}
        self.base = BaseRate()

    def _rating(self, player: LeaguePlayerId) -> PlackettLuceRating:
        rating = self.players.get(player)
        if rating is None:
            rating = self.players[player] = self.model.rating(name=player)
        return rating

    def _teams(self, table: Table) -> list[list[PlackettLuceRating]]:
        return [[self._rating(table.seats[i].player) for i in f.seats] for f in table.factions()]

    def predict(self, table: Table) -> list[float]:
        teams = self._teams(table)
        prior = self.base.predict(table)
        means = [sum(p.mu for p in t) / len(t) for t in teams]
        variances = [sum(p.sigma**2 for p in t) / len(t) for t in teams]
        c = math.sqrt(sum(v + self.model.beta**2 for v in variances))
        scores = [m / c + math.log(q) for m, q in zip(means, prior, strict=True)]
        top = max(scores)
        weights = [math.exp(s - top) for s in scores]
        total = sum(weights)
        return [w / total for w in weights]

    def raw_predict(self, table: Table) -> list[float]:
        return list(self.model.predict_win(self._teams(table)))

    def observe(self, outcome: GameOutcome) -> None:
        teams = self._teams(outcome.table)
        winner = outcome.winner
        ranks = [0 if i == winner or winner is None else 1 for i in range(len(teams))]
        rated = self.model.rate(teams, ranks=ranks)
        for team, new in zip(outcome.factions(), rated, strict=True):
            for i, rating in zip(team.seats, new, strict=True):
                self.players[outcome.seats[i].player] = rating
        self.base.observe(outcome)

    def ratings(self) -> dict[LeaguePlayerId, float]:
        return {p: r.mu for p, r in self.players.items()}


class Oracle:
    """A conditional logit that knows every player's true strength.

    Faction ``f`` at a table of ``n`` scores ``offset[ruleset, n, kind] + slope[kind] · mean(truth)``
    (natural-log odds) — the same shape as the Elo model, with the true strengths in place of
    ratings and a slope per kind because a strong player may matter more on one side than on
    another. It is fitted by maximum likelihood on *other* games than those it predicts (the
    evaluation cross-fits two halves), so it is the best this family can do with perfect
    knowledge of the players — a ceiling, not a cheat. It does not learn online.
    """

    def __init__(self, truth: Mapping[LeaguePlayerId, float], training: Sequence[GameOutcome]) -> None:
        self.truth = truth
        choices = [
            logit.Choice(self._features(o.table), o.winner) for o in training if o.winner is not None
        ]
        self.theta = logit.fit(choices)

    def _features(self, table: Table) -> list[dict[Hashable, float]]:
        result: list[dict[Hashable, float]] = []
        for f in table.factions():
            mean = sum(self.truth[table.seats[i].player] for i in f.seats) / f.size
            result.append({("offset", table.ruleset, table.players, f.kind): 1.0, ("slope", f.kind): mean})
        return result

    def predict(self, table: Table) -> list[float]:
        return logit.probabilities(self.theta, self._features(table))

    def observe(self, outcome: GameOutcome) -> None:
        """The oracle's knowledge is fixed; games teach it nothing."""
