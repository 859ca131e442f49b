"""Points per result and the documented tie-break order."""

from __future__ import annotations

import pytest

from services.game.results import Role
from services.league.errors import InvalidCommand
from services.league.points import GameOutcome, MemberResult, points_for
from services.league.ranking import compute_standings
from services.league.vocabulary import PointsScheme

SIDE_OF = {Role.SHERIFF: "law", Role.DEPUTY: "law", Role.OUTLAW: "outlaws", Role.RENEGADE: "renegade"}


def result(member: str, role: Role = Role.OUTLAW, *, won: bool, alive: bool = True) -> MemberResult:
    return MemberResult(member_id=member, role=role, side=SIDE_OF[role], won=won, alive=alive)


def game(game_id: str, *results: MemberResult, season: str = "s") -> GameOutcome:
    return GameOutcome(
        game_id=game_id, league_id="l", season_id=season, tournament_id="t", round=1, table=1, results=results
    )


@pytest.mark.parametrize(
    ("scheme", "line", "points"),
    [
        (PointsScheme(), result("a", won=True), 3),
        (PointsScheme(), result("a", won=False), 0),
        (PointsScheme.with_bonuses(), result("a", won=True, alive=True), 4),
        (PointsScheme.with_bonuses(), result("a", won=True, alive=False), 3),
        (PointsScheme.with_bonuses(), result("a", Role.RENEGADE, won=True, alive=True), 5),
        (PointsScheme.with_bonuses(), result("a", Role.RENEGADE, won=False), 0),
        (PointsScheme(win=2, loss=1), result("a", won=False), 1),
    ],
)
def test_points_per_result(scheme: PointsScheme, line: MemberResult, points: int) -> None:
    assert points_for(line, scheme) == points


def test_a_points_table_must_make_sense() -> None:
    with pytest.raises(InvalidCommand):
        PointsScheme(win=0, loss=1).validate()
    with pytest.raises(InvalidCommand):
        PointsScheme(bye=-1).validate()


def order(standings: list) -> list[str]:  # type: ignore[type-arg]
    return [s.member_id for s in standings]


def test_points_first_then_buchholz() -> None:
    # a and c both win once; a's opponents (b: 3 points later) are stronger than c's (d: 0)
    games = [
        game("g1", result("a", won=True), result("b", won=False), result("x", won=False)),
        game("g2", result("b", won=True), result("y", won=False), result("z", won=False)),
        game("g3", result("c", won=True), result("d", won=False), result("w", won=False)),
    ]
    standings = compute_standings(games, PointsScheme())
    assert order(standings)[:3] == ["a", "b", "c"]
    assert standings[0].buchholz > standings[2].buchholz
    assert [s.rank for s in standings] == list(range(1, len(standings) + 1))


def test_head_to_head_breaks_a_tie_on_points_and_buchholz() -> None:
    # zed beat amy at their one shared table; both have 3 points from 2 games and a Buchholz of
    # 1.5 (zed's other game was a three-player table where everyone fell at once), so the
    # head-to-head decides before the member id would
    games = [
        game("g1", result("zed", won=True), result("amy", won=False), result("c", won=False)),
        game("g2", result("amy", won=True), result("d", won=False), result("e", won=False)),
        game("g3", result("zed", won=False), result("p", won=False), result("q", won=False)),
    ]
    standings = compute_standings(games, PointsScheme())
    lines = {s.member_id: s for s in standings}
    assert (lines["zed"].points, lines["zed"].buchholz) == (lines["amy"].points, lines["amy"].buchholz)
    assert lines["zed"].games == lines["amy"].games == 2
    assert (lines["zed"].head_to_head, lines["amy"].head_to_head) == (1, -1)
    assert order(standings)[:2] == ["zed", "amy"]


def test_renegade_wins_then_fewer_games_then_member_id() -> None:
    games = [
        game("g1", result("r", Role.RENEGADE, won=True), result("p", won=False), result("q", won=False)),
        game("g2", result("o", won=True), result("p2", won=False), result("q2", won=False)),
    ]
    ranked = order(compute_standings(games, PointsScheme()))
    assert ranked.index("r") < ranked.index("o")  # same points and Buchholz: the Renegade win first
    # fewer games: s has 3 points in one game, t 3 points in two
    games = [
        game("g1", result("s", won=True), result("u", won=False), result("v", won=False)),
        game("g2", result("t", won=True), result("u2", won=False), result("v2", won=False)),
        game("g3", result("t", won=False), result("u3", won=False), result("v3", won=False)),
    ]
    ranked = order(compute_standings(games, PointsScheme()))
    assert ranked.index("s") < ranked.index("t")
    # everything equal: member id
    games = [
        game("g1", result("k2", won=True), result("n1", won=False), result("n2", won=False)),
        game("g2", result("k1", won=True), result("n3", won=False), result("n4", won=False)),
    ]
    ranked = order(compute_standings(games, PointsScheme()))
    assert ranked.index("k1") < ranked.index("k2")


def test_byes_score_the_documented_bye_points_and_entrants_appear_before_playing() -> None:
    standings = compute_standings(
        [game("g1", result("a", won=True), result("b", won=False), result("c", won=False))],
        {"s": PointsScheme(bye=2)},
        byes=[("z", "s")],
        entrants=["new"],
    )
    lines = {s.member_id: s for s in standings}
    assert lines["z"].points == 2 and lines["z"].byes == 1 and lines["z"].games == 0
    assert lines["new"].points == 0 and lines["new"].games == 0


def test_a_forfeit_is_a_lost_game_without_points_and_ranks_below_an_equal_line() -> None:
    # a loses a game worth 1 point in this scheme; b forfeits (no points at all); c and d
    # neither played nor forfeited; e forfeited and lost a game, so ends level on points with a
    games = [game("g1", result("a", won=False), result("e", won=False), result("x", won=True))]
    standings = compute_standings(
        games, PointsScheme(win=2, loss=1), entrants=["c", "d"], forfeits=["b", "e", "b"]
    )
    lines = {s.member_id: s for s in standings}
    assert (lines["b"].games, lines["b"].forfeits, lines["b"].points, lines["b"].wins) == (2, 2, 0, 0)
    assert (lines["e"].games, lines["e"].forfeits, lines["e"].points) == (2, 1, 1)
    assert lines["b"].buchholz == 0.0  # a forfeit meets nobody
    assert lines["a"].buchholz == lines["e"].buchholz  # and adds nothing to the table-mates'
    # level on points, Buchholz, head-to-head and Renegade wins: fewer forfeits first
    assert order(standings).index("a") < order(standings).index("e")
    assert order(standings)[-3:] == ["c", "d", "b"]
