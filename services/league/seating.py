"""Seating a round: who plays at which table, who is Sheriff, who sits out. Pure and seeded.

The same entrants, scores, history, policy and seed always give the same seating. In order:

1. **Table sizes** (``plan_tables``): the fewest byes that leave a number of players the
   allowed sizes can add up to, then the sizes closest to the preferred one (least sum of
   squared differences; on a tie, more tables).
2. **Byes** go to the entrants with the fewest byes so far (so nobody gets a second before
   everyone had one), then the lowest score (as in a Swiss), then a seeded draw.
3. **Swiss grouping**: the players sorted by score (ties drawn) fill the tables in order, so
   table 1 holds the leaders. A local search then swaps players between nearby tables while
   that lowers the cost: repeat table-mates first (each earlier meeting of a pair at the same
   table costs ``REPEAT_COST``), then the spread of scores within a table.
4. **Sheriff rotation**, like colours in chess pairings: each player's Sheriff "debt" is the
   share they could expect so far (the sum of 1/size over their games at tables with a
   Sheriff, this one included) minus the times they were Sheriff. Each table's Sheriff is its
   player with the largest debt. Three-player tables have no Sheriff (the rules deal Deputy,
   Outlaw, Renegade). The other roles stay secret: the game server deals them from its seed.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from services.game.results import has_sheriff as has_sheriff  # league.py and tests read it here
from services.league.errors import InvalidCommand, PlayerSeatedTwice
from services.league.vocabulary import SeatingPolicy

REPEAT_COST = 1000.0
"""Per earlier meeting of a pair: far above any score spread, so repeats go first."""
SCORE_SPREAD_COST = 1.0
"""Per squared point of a player's distance from their table's mean score."""
SHERIFF_CLASH_COST = 200.0
"""Per unit of debt of the second-most-owed player at a table: two players owed the badge at
one table means one of them waits, so the search gently spreads them apart."""
SHERIFF_OVERDUE_COST = 100_000.0
"""Per unit beyond ``OVERDUE_DEBT`` of the second-most-owed player's debt, and per unit below
zero of the most-owed one's: these would push someone's Sheriff count more than one away
from their share, so they outweigh even repeat table-mates."""
OVERDUE_DEBT = 0.7
SWAP_WINDOW = 3
"""Swaps are tried between tables at most this far apart: a Swiss keeps groups near their
score band, and it keeps the search linear in the number of tables."""
MAX_PASSES = 40

Scorer = Callable[[str], float]


def pair(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a < b else (b, a)


@dataclass(slots=True)
class SeatingHistory:
    """What a season's earlier rounds tell the next seating. Built by ``record``."""

    met: dict[tuple[str, str], int] = field(default_factory=dict)
    sheriffs: dict[str, int] = field(default_factory=dict)
    sheriff_share: dict[str, float] = field(default_factory=dict)
    """Expected Sheriff games so far: the sum of 1/size over games at tables with a Sheriff."""
    byes: dict[str, int] = field(default_factory=dict)

    def record(self, tables: Iterable[tuple[Sequence[str], str | None]], byes: Iterable[str]) -> None:
        """Add a seated round: (members, sheriff) per table, and its byes."""
        for members, sheriff in tables:
            for a, b in itertools.combinations(members, 2):
                key = pair(a, b)
                self.met[key] = self.met.get(key, 0) + 1
            if has_sheriff(len(members)):
                for member in members:
                    self.sheriff_share[member] = self.sheriff_share.get(member, 0.0) + 1 / len(members)
            if sheriff is not None:
                self.sheriffs[sheriff] = self.sheriffs.get(sheriff, 0) + 1
        for member in byes:
            self.byes[member] = self.byes.get(member, 0) + 1

    def sheriff_debt(self, member: str, table_size: int) -> float:
        """Share expected after a game at a table of ``table_size``, minus Sheriff games had."""
        upcoming = 1 / table_size if has_sheriff(table_size) else 0.0
        return self.sheriff_share.get(member, 0.0) + upcoming - self.sheriffs.get(member, 0)

    def repeat_pairs(self, tables: Iterable[Sequence[str]]) -> int:
        """How many pairs at these tables already shared a table (each earlier meeting counts)."""
        return sum(
            self.met.get(pair(a, b), 0) for members in tables for a, b in itertools.combinations(members, 2)
        )


@dataclass(frozen=True, slots=True)
class Table:
    number: int
    members: tuple[str, ...]
    sheriff: str | None


@dataclass(frozen=True, slots=True)
class Seating:
    tables: tuple[Table, ...]
    byes: tuple[str, ...]

    @property
    def seated(self) -> list[str]:
        return [m for t in self.tables for m in t.members]


def plan_tables(players: int, policy: SeatingPolicy) -> tuple[list[int], int]:
    """(table sizes, number of byes) for ``players`` entrants; sizes largest first."""
    sizes = policy.allowed_sizes
    preferred = policy.preferred_size
    # best[t] = (squared deviation, -tables, sizes) of the best way to seat exactly t players
    best: list[tuple[float, int, tuple[int, ...]] | None] = [None] * (players + 1)
    best[0] = (0.0, 0, ())
    for total in range(1, players + 1):
        for size in sizes:
            previous = best[total - size] if total >= size else None
            if previous is None:
                continue
            candidate = (
                previous[0] + (size - preferred) ** 2,
                previous[1] - 1,
                tuple(sorted((*previous[2], size), reverse=True)),
            )
            current = best[total]
            if current is None or candidate < current:
                best[total] = candidate
    for byes in range(players + 1):
        plan = best[players - byes]
        if plan is not None:
            return list(plan[2]), byes
    raise AssertionError("unreachable: zero players always fit")


def seat_round(
    entrants: Sequence[str],
    *,
    scores: Mapping[str, float],
    history: SeatingHistory,
    policy: SeatingPolicy,
    seed: str,
) -> Seating:
    """Seat ``entrants`` for one round (see the module docstring for the rules).

    Raises PlayerSeatedTwice when an entrant is listed twice, InvalidCommand for no entrants.
    """
    if not entrants:
        raise InvalidCommand("a round needs entrants")
    seen: set[str] = set()
    for member in entrants:
        if member in seen:
            raise PlayerSeatedTwice(member)
        seen.add(member)
    rng = random.Random(f"bang-league-seating:{seed}")
    draw = {member: rng.random() for member in sorted(entrants)}

    def score(member: str) -> float:
        return float(scores.get(member, 0.0))

    sizes, bye_count = plan_tables(len(entrants), policy)
    by_bye_priority = sorted(entrants, key=lambda m: (history.byes.get(m, 0), score(m), draw[m]))
    byes = by_bye_priority[:bye_count]
    playing = sorted(by_bye_priority[bye_count:], key=lambda m: (-score(m), draw[m]))

    tables: list[list[str]] = []
    start = 0
    for size in sizes:
        tables.append(playing[start : start + size])
        start += size
    _improve(tables, score, history)

    seated = []
    for number, members in enumerate(tables, start=1):
        ordered = tuple(sorted(members, key=lambda m: (-score(m), draw[m])))
        seated.append(Table(number, ordered, pick_sheriff(ordered, history, draw)))
    return Seating(tuple(seated), tuple(sorted(byes)))


def pick_sheriff(
    members: Sequence[str], history: SeatingHistory, draw: Mapping[str, float] | None = None
) -> str | None:
    """The table's most-owed player (see the module docstring); None at a three-player table."""
    if not has_sheriff(len(members)):
        return None
    size = len(members)
    return max(
        members,
        key=lambda m: (
            round(history.sheriff_debt(m, size), 9),
            -history.sheriffs.get(m, 0),
            draw[m] if draw else 0.0,
            m,
        ),
    )


def _table_cost(members: Sequence[str], score: Scorer, history: SeatingHistory) -> float:
    repeats = sum(history.met.get(pair(a, b), 0) for a, b in itertools.combinations(members, 2))
    values = [score(m) for m in members]
    mean = sum(values) / len(values)
    spread = sum((v - mean) ** 2 for v in values)
    clash = 0.0
    if has_sheriff(len(members)):
        debts = sorted((history.sheriff_debt(m, len(members)) for m in members), reverse=True)
        clash = SHERIFF_CLASH_COST * max(debts[1], 0.0) + SHERIFF_OVERDUE_COST * (
            max(debts[1] - OVERDUE_DEBT, 0.0) + max(-debts[0], 0.0)
        )
    return REPEAT_COST * repeats + SCORE_SPREAD_COST * spread + clash


def _improve(tables: list[list[str]], score: Scorer, history: SeatingHistory) -> None:
    """First-improvement hill climbing over swaps between tables near each other."""
    costs = [_table_cost(t, score, history) for t in tables]
    for _ in range(MAX_PASSES):
        improved = False
        for i, j in _nearby_pairs(len(tables)):
            a_table, b_table = tables[i], tables[j]
            for x, y in itertools.product(range(len(a_table)), range(len(b_table))):
                a_new = [*a_table[:x], b_table[y], *a_table[x + 1 :]]
                b_new = [*b_table[:y], a_table[x], *b_table[y + 1 :]]
                a_cost = _table_cost(a_new, score, history)
                b_cost = _table_cost(b_new, score, history)
                if a_cost + b_cost < costs[i] + costs[j] - 1e-9:
                    tables[i], tables[j] = a_table, b_table = a_new, b_new
                    costs[i], costs[j] = a_cost, b_cost
                    improved = True
        if not improved:
            return


def _nearby_pairs(count: int) -> list[tuple[int, int]]:
    return [(i, j) for i in range(count) for j in range(i + 1, min(count, i + SWAP_WINDOW + 1))]
