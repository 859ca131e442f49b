"""Standings: totals per member, ranked by the documented tie-break order. Pure.

The order (docs/league.md, "Tie-breaks"):

1. more points;
2. higher Buchholz: for each game played, the mean points of its other players, summed
   (meeting strong opponents is worth something, as in a chess Swiss);
3. better head-to-head among the players still tied: wins in the games shared with each of
   them minus their wins in those games, summed;
4. more wins as Renegade (the hardest win);
5. fewer forfeits (of two players level on everything else, the one who showed up);
6. fewer games (the same points in fewer games; a forfeit counts as a game, lost);
7. member id, so the order is total and stable.

``compute_standings`` recomputes everything from scratch from game outcomes and byes; the
projection keeps the same totals in tables and ranks them with ``rank`` too, so both agree.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from services.game.results import Role
from services.league.points import GameOutcome, MemberResult, points_for, renegade_win
from services.league.vocabulary import PointsScheme


@dataclass(slots=True)
class Totals:
    member_id: str
    points: int = 0
    games: int = 0
    wins: int = 0
    renegade_wins: int = 0
    survivals: int = 0
    sheriff_games: int = 0
    byes: int = 0
    forfeits: int = 0
    """Forfeits and no-shows: each is also one game, lost, with no points."""


@dataclass(frozen=True, slots=True)
class Standing:
    rank: int
    member_id: str
    points: int
    games: int
    wins: int
    renegade_wins: int
    survivals: int
    sheriff_games: int
    byes: int
    buchholz: float
    head_to_head: int = 0
    """The tie-break value among the players tied with this one on points and Buchholz."""
    forfeits: int = 0


@dataclass(slots=True)
class Meetings:
    """Who played with whom, for Buchholz and head-to-head."""

    tables: list[tuple[str, ...]] = field(default_factory=list)
    """The members of every game played, one tuple per game."""
    wins_together: dict[tuple[str, str], int] = field(default_factory=dict)
    """(a, b) → games a won among those a and b played together."""

    def add_game(self, members: Sequence[str], winners: Iterable[str]) -> None:
        self.tables.append(tuple(members))
        won = set(winners)
        for a, b in itertools.permutations(members, 2):
            if a in won:
                self.wins_together[(a, b)] = self.wins_together.get((a, b), 0) + 1


def add_result(totals: Totals, result: MemberResult, points: int) -> None:
    totals.points += points
    totals.games += 1
    totals.wins += int(result.won)
    # a Renegade's own win only: alone, or as the Zombie Master (points.renegade_win)
    totals.renegade_wins += int(renegade_win(result))
    totals.survivals += int(result.alive)
    totals.sheriff_games += int(result.role == Role.SHERIFF)


def add_forfeit(totals: Totals) -> None:
    """A forfeit or no-show: a game lost with no points, and no meeting (it adds nothing to
    anyone's Buchholz or head-to-head: nobody was played)."""
    totals.games += 1
    totals.forfeits += 1


def rank(totals: Mapping[str, Totals], meetings: Meetings) -> list[Standing]:
    """Rank members by the tie-break order of the module docstring."""
    buchholz = dict.fromkeys(totals, 0.0)
    for members in meetings.tables:
        for member in members:
            others = [totals[o].points for o in members if o != member and o in totals]
            if member in buchholz and others:
                buchholz[member] += sum(others) / len(others)
    buchholz = {m: round(value, 6) for m, value in buchholz.items()}

    by_score = sorted(totals.values(), key=lambda t: (-t.points, -buchholz[t.member_id]))
    ordered: list[Standing] = []
    for _, group in itertools.groupby(by_score, key=lambda t: (t.points, buchholz[t.member_id])):
        tied = list(group)
        names = [t.member_id for t in tied]
        lines = [
            Standing(
                rank=0,
                member_id=t.member_id,
                points=t.points,
                games=t.games,
                wins=t.wins,
                renegade_wins=t.renegade_wins,
                survivals=t.survivals,
                sheriff_games=t.sheriff_games,
                byes=t.byes,
                buchholz=buchholz[t.member_id],
                head_to_head=_head_to_head(t.member_id, names, meetings) if len(tied) > 1 else 0,
                forfeits=t.forfeits,
            )
            for t in tied
        ]
        lines.sort(key=lambda s: (-s.head_to_head, -s.renegade_wins, s.forfeits, s.games, s.member_id))
        ordered.extend(lines)
    return [replace(line, rank=index) for index, line in enumerate(ordered, start=1)]


def _head_to_head(member: str, tied: Sequence[str], meetings: Meetings) -> int:
    wins = meetings.wins_together
    return sum(
        wins.get((member, other), 0) - wins.get((other, member), 0) for other in tied if other != member
    )


def compute_standings(
    outcomes: Iterable[GameOutcome],
    scheme: PointsScheme | Mapping[str | None, PointsScheme],
    *,
    byes: Iterable[tuple[str, str | None]] = (),
    entrants: Iterable[str] = (),
    forfeits: Iterable[str] = (),
) -> list[Standing]:
    """Standings from scratch. ``scheme`` is one scheme, or one per season id; ``byes`` lists
    (member, season id) once per bye had; ``entrants`` adds members who have not played;
    ``forfeits`` lists a member once per forfeit or no-show."""

    def scheme_of(season_id: str | None) -> PointsScheme:
        return scheme if isinstance(scheme, PointsScheme) else scheme[season_id]

    totals: dict[str, Totals] = {m: Totals(m) for m in entrants}
    meetings = Meetings()
    for outcome in outcomes:
        for result in outcome.results:
            line = totals.setdefault(result.member_id, Totals(result.member_id))
            points = points_for(result, scheme_of(outcome.season_id))
            add_result(line, result, points)
        meetings.add_game(outcome.members, [r.member_id for r in outcome.results if r.won])
    for member, season_id in byes:
        line = totals.setdefault(member, Totals(member))
        line.byes += 1
        line.points += scheme_of(season_id).bye
    for member in forfeits:
        add_forfeit(totals.setdefault(member, Totals(member)))
    return rank(totals, meetings)
