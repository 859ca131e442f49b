"""League points after an Undead or Alive outbreak (docs/rulings.md, UA4): every seat of the
winning side wins, the survivor bonus goes to seats in play at the end, the Renegade bonus (and
the Renegade-wins tie-break) to the Zombie Master's win only, never to a plain zombie who was
dealt the Renegade."""

from __future__ import annotations

from services.game.results import Role
from services.game.results.decoder import dice_finish
from services.league.facts import member_results
from services.league.points import GameOutcome, MemberResult, points_for, renegade_win
from services.league.ranking import compute_standings
from services.league.vocabulary import PointsScheme
from tests.unit.game.outbreak_ends import survivor_win, zombie_win

BONUSES = PointsScheme.with_bonuses()  # win 3, survivor +1, Renegade +1
MEMBERS = {f"p{i}": f"m{i}" for i in range(1, 6)}


def _lines(ended_game: str) -> tuple[MemberResult, ...]:
    ended = zombie_win() if ended_game == "zombies" else survivor_win()
    return member_results(dice_finish(ended).result(ended_game, MEMBERS))


def _points(ended_game: str) -> dict[str, int]:
    return {r.member_id: points_for(r, BONUSES) for r in _lines(ended_game)}


def test_a_zombie_win_pays_every_zombie_the_master_his_renegade_bonus() -> None:
    assert _points("zombies") == {
        "m1": 0,  # the Sheriff, a survivor: lost
        "m2": 3 + 1 + 1,  # the Zombie Master: won, in play, a Renegade's own win
        "m3": 3 + 1,  # a plain zombie still in play
        "m4": 0,
        "m5": 3,  # a plain zombie put out for good shares the win, without the survivor bonus
    }


def test_a_plain_zombie_dealt_the_renegade_never_gets_the_renegade_bonus() -> None:
    zombie_renegade = MemberResult(member_id="r", role=Role.RENEGADE, side="zombies", won=True, alive=True)
    assert points_for(zombie_renegade, BONUSES) == 3 + 1
    assert not renegade_win(zombie_renegade)
    # a Renegade left a survivor (eight players: the other became the Master) wins with them
    survivor = MemberResult(member_id="s", role=Role.RENEGADE, side="survivors", won=True, alive=True)
    assert points_for(survivor, BONUSES) == 3 + 1
    # the Master's win and a Renegade's own base win both count
    for side in ("zombie_master", "renegade"):
        own = MemberResult(member_id="o", role=Role.RENEGADE, side=side, won=True, alive=False)
        assert points_for(own, BONUSES) == 3 + 1 and renegade_win(own)


def test_a_survivor_win_pays_the_survivors_whatever_their_roles() -> None:
    assert _points("survivors") == {
        "m1": 3 + 1,  # the Sheriff, in play
        "m2": 0,  # the Renegade, a plain zombie: lost
        "m3": 0,
        "m4": 3,  # an Outlaw among the survivors, out before the end: shares the win
        "m5": 3 + 1,
    }


def test_standings_count_the_masters_renegade_win_only() -> None:
    outcomes = [
        GameOutcome(
            game_id=name, league_id="l", season_id="s", tournament_id="t", round=1, table=1,
            results=_lines(name),
        )
        for name in ("zombies", "survivors")
    ]
    lines = {s.member_id: s for s in compute_standings(outcomes, BONUSES)}
    assert {m: (s.points, s.wins, s.renegade_wins, s.survivals) for m, s in lines.items()} == {
        "m1": (0 + 4, 1, 0, 1),
        "m2": (5 + 0, 1, 1, 1),  # the Master's win counts; his loss as a plain zombie does not matter
        "m3": (4 + 0, 1, 0, 1),
        "m4": (0 + 3, 1, 0, 0),
        "m5": (3 + 4, 2, 0, 1),
    }
