"""Offsets per (ruleset, table size, faction kind): the home advantage of BANG!'s asymmetric sides.

At a given table size one side simply wins more often (the Law at 4 players, say, or the lone
Renegade almost never). Elo handles home advantage by adding a constant to the home side's
rating; we add ``offset(ruleset, n, kind)`` to a faction's strength. The offsets are learned
from the results, not guessed, separately for each ruleset (module set).

Fitting: each offset is a single logit-scale parameter, and we fit it online by a diagonal
Newton (Fisher scoring) step after every game:

    value += (400 / ln 10) * (actual - expected) / (prior_games + information)

where ``information`` accumulates ``expected * (1 - expected)`` (the Fisher information of a
win/loss at that probability) and ``prior_games`` is a prior that holds the offset at its
starting value (0; for a new module set, the base game's) until some games have been seen.
For a fixed field of players this is the stochastic-approximation form of the
maximum-likelihood fit (the estimate of a logit mean); it costs O(1) per game,
keeps the state small, and is deterministic, so a rebuild reproduces it exactly.
``information`` is capped at ``memory_games`` so the offsets keep following the players'
ratings as those move, instead of freezing after the first thousand games.

Only differences between the offsets at one table size matter (a softmax does not change if
every faction gains the same constant); ``normalised`` reports them centred on the mean of the
factions at the table (per ruleset), which is how they should be read. An Undead or Alive
ruleset has two contests at one table size: the base factions' (no outbreak) and, after an
outbreak, ``survivors`` against ``zombies``; each is centred on its own mean.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import msgspec

from services.game.results import ROLES_BY_PLAYER_COUNT, Side, base_ruleset_of
from services.ratings.outcome import factions_of

OUTBREAK_KINDS = (Side.SURVIVORS, Side.ZOMBIES)
"""The factions of an Undead or Alive game after an outbreak (``outcome.outbreak_factions``)."""

ELO_PER_NAT = 400 / math.log(10)
"""Elo points per unit of natural-log odds (the Elo scale is base-10 logits × 400)."""


class OffsetCell(msgspec.Struct, kw_only=True):
    value: float = 0.0
    information: float = 0.0
    games: int = 0


class OffsetTable(msgspec.Struct, kw_only=True):
    """Offsets in Elo points, ``cells[ruleset][players][kind]``.

    Every module set changes how often each side wins (new dice, powers, a Ghost that keeps
    playing for its side), so a ruleset has offsets of its own and a game moves only those of
    its own ruleset. A ruleset's first game finds no cells: they
    start from the values its game type's base ruleset has then at that table size (``dice``
    for ``dice OS1 OS3``; 0 if it has none either), with no information, so a new module set
    is first predicted like the base game, and its own results take over within a few dozen
    games at the base offsets' learning rate.
    """

    prior_games: float = 2.0
    memory_games: float = 400.0
    cells: dict[str, dict[int, dict[Side, OffsetCell]]] = msgspec.field(default_factory=dict)

    def offset(self, ruleset: str, players: int, kind: Side) -> float:
        cell = self.cells.get(ruleset, {}).get(players, {}).get(kind)
        return self._start(ruleset, players, kind) if cell is None else cell.value

    def _start(self, ruleset: str, players: int, kind: Side) -> float:
        """Where a cell of ``ruleset`` not seen yet starts: the base ruleset's value now."""
        base = base_ruleset_of(ruleset)
        if base == ruleset:
            return 0.0
        cell = self.cells.get(base, {}).get(players, {}).get(kind)
        return 0.0 if cell is None else cell.value

    def update(self, ruleset: str, players: int, kinds: Sequence[Side], expected: Sequence[float],
               actual: Sequence[float]) -> None:
        """One game of ``ruleset`` at a table of ``players``: per faction its kind, predicted
        and actual score. Only that ruleset's cells move."""
        by_kind = self.cells.setdefault(ruleset, {}).setdefault(players, {})
        # accumulate first, then step: two Renegade factions at one table share one offset and
        # must both see the value from before this game
        steps: dict[Side, float] = {}
        for kind, e, a in zip(kinds, expected, actual, strict=True):
            cell = by_kind.get(kind)
            if cell is None:
                cell = by_kind[kind] = OffsetCell(value=self._start(ruleset, players, kind))
            cell.information = min(cell.information + e * (1 - e), self.memory_games)
            steps[kind] = steps.get(kind, 0.0) + (a - e)
        for kind, residual in steps.items():
            cell = by_kind[kind]
            cell.games += 1
            cell.value += ELO_PER_NAT * residual / (self.prior_games + cell.information)

    def normalised(self) -> dict[str, dict[int, dict[Side, float]]]:
        """Offsets centred per ruleset and table size (mean over the factions at that table = 0);
        after an outbreak the survivors and the zombies are centred on their own mean."""
        result: dict[str, dict[int, dict[Side, float]]] = {}
        for ruleset in sorted(self.cells):
            by_size = result[ruleset] = {}
            for players in sorted(self.cells[ruleset]):
                contests = [[f.kind for f in factions_of(ROLES_BY_PLAYER_COUNT[players])]]
                if self.cells[ruleset][players].keys() & set(OUTBREAK_KINDS):
                    contests.append(list(OUTBREAK_KINDS))
                centred = by_size[players] = {}
                for kinds in contests:
                    mean = sum(self.offset(ruleset, players, k) for k in kinds) / len(kinds)
                    centred.update({k: self.offset(ruleset, players, k) - mean for k in dict.fromkeys(kinds)})
        return result
