"""ops.baseline: the Wilson interval, every module set and size played, sides that never won named."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from ops.baseline import (
    UNDEAD_SIZES,
    Cell,
    Rare,
    cannot_win,
    look_on,
    main,
    module_sets,
    play_for,
    play_one,
    rare_sides,
    render,
    render_undead,
    run,
    undead_sets,
    undead_zero_wins,
    wilson,
    zero_wins,
)
from services.game.bots import HeuristicBot
from services.game.rules.dice import Game, PlayerId, Role, Seat, Side, parse_command
from services.game.rules.dice.characters import CharacterId
from services.game.rules.dice.events import PlayerPosition, Position
from services.game.rules.dice.modules import rules_for
from services.game.rules.dice.undead.zombies import BoneyardRevealed
from services.game.rules.ruleset import ModuleId, ruleset_of
from services.game.simulation import SimulationReport, simulate


def test_the_wilson_interval_stays_inside_0_1_and_is_above_0_for_a_side_that_never_won() -> None:
    low, high = wilson(0, 100)
    assert low == 0.0 and 0.0 < high < 0.05
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-3) and high == pytest.approx(0.5962, abs=1e-3)
    assert wilson(100, 100)[1] == 1.0


def test_every_subset_of_the_modules_is_played() -> None:
    sets = list(module_sets([ModuleId.OS2, ModuleId.OS1]))
    assert sets == [(), (ModuleId.OS1,), (ModuleId.OS2,), (ModuleId.OS1, ModuleId.OS2)]


def test_a_run_covers_the_allowed_sizes_and_names_the_sides_that_never_won(tmp_path: Path) -> None:
    cells = run(1, 5, [ModuleId.OS5], echo=False)
    # the base game at 4-8 players, the Ghost only from 5
    assert [(c.ruleset.text, c.players) for c in cells] == [
        *(("dice", n) for n in range(4, 9)),
        *(("dice OS5", n) for n in range(5, 9)),
    ]
    zeros = zero_wins(cells)
    assert len(zeros) == 2 * len(cells)  # one game each: two of the three sides never won
    page = render(cells, 1, 5, [ModuleId.OS5], 1.0)
    assert "Sides that never won in 1 games" in page and "## OS5 (`dice OS5`)" in page
    assert "--games 1 --seed 5" in page
    out = tmp_path / "baselines.md"
    assert main(["--games", "1", "--seed", "5", "--rare-cap", "0", "--out", str(out)]) == 1
    assert out.read_text().startswith("# Baselines")


def test_the_undead_sets_are_every_allowed_one_alone_and_with_old_saloon() -> None:
    os_, ua = [ModuleId.OS1, ModuleId.OS5], [ModuleId.UA1, ModuleId.UA2, ModuleId.UA4, ModuleId.UA5]
    sets = [" ".join(s) for s in undead_sets([*os_, *ua])]
    alone = ["UA2", "UA4", "UA1 UA2", "UA2 UA4", "UA1 UA2 UA4"]  # UA1 needs UA2; UA5 adds no game
    assert sets == [*alone, *(f"OS1 OS5 {s}" for s in alone)]
    assert [" ".join(s) for s in undead_sets([ModuleId.UA2])] == ["UA2"]  # no Old Saloon: alone only


def test_an_undead_run_covers_3_to_8_players_where_allowed_and_its_page_shows_every_side(
    tmp_path: Path,
) -> None:
    sets = [(ModuleId.UA2,), (ModuleId.OS5, ModuleId.UA2)]
    cells = run(2, 7, [], echo=False, sets=sets, sizes=UNDEAD_SIZES)
    assert [(c.ruleset.text, c.players) for c in cells] == [
        *(("dice UA2", n) for n in range(3, 9)),
        *(("dice OS5 UA2", n) for n in range(5, 9)),  # the Ghost from 5
    ]
    page = render_undead(cells, 2, 7, [ModuleId.OS5, ModuleId.UA2, ModuleId.UA5], 1.0)
    assert "## UA2 (`dice UA2`)" in page and "## OS5 + UA2 (`dice OS5 UA2`)" in page
    assert "| players | games | law / deputy | outlaws / outlaw | renegade | none | avg turns |" in page
    assert "zombies" not in page.split("## UA2")[1]  # no zombie columns without UA4
    assert "Not in a set of its own: UA5" in page and "--undead --games 2 --seed 7" in page
    # a 3-player row counts the deputy under the law and the outlaw under the outlaws
    three = next(c for c in cells if c.players == 3)
    row = next(line for line in page.splitlines() if line.startswith("| 3 | 2 |"))
    law = three.report.wins["deputy"]
    assert row.split(" | ")[2].startswith(f"{law / 2:.1%}")
    # "none" never counts as a side that never won
    assert all(not z.endswith(": none") for z in undead_zero_wins(cells))


def test_an_undead_page_with_zombies_shows_their_sides_and_the_outbreak_rate(tmp_path: Path) -> None:
    ua4 = ruleset_of(["UA4"])
    report = SimulationReport(games=4, players=6, seed=0, bot="heuristic", ruleset=ua4.text)
    report.finished, report.turns, report.outbreaks = 4, 80, 3
    report.wins = {"law": 1, "outlaws": 0, "renegade": 0, "survivors": 1, "zombies": 2}
    page = render_undead([Cell(ua4, 6, report)], 4, 0, [ModuleId.UA4], 1.0)
    header = "| outlaws / outlaw | renegade | zombies | survivors | none | outbreaks | avg turns |"
    assert header in page
    row = next(line for line in page.splitlines() if line.startswith("| 6 | 4 |"))
    cells = row.strip("| ").split(" | ")
    assert cells[5].startswith("50.0%") and cells[6].startswith("25.0%") and cells[8].startswith("75.0%")
    assert cells[-1] == "20.0"
    # with UA4 a base side that never won is a finding, apart from the failures
    assert undead_zero_wins([Cell(ua4, 6, report)]) == []
    zeros = undead_zero_wins([Cell(ua4, 6, report)], zombies=True)
    assert zeros == ["dice UA4, 6 players: outlaws", "dice UA4, 6 players: renegade"]
    assert (
        "**With UA4, sides that never won in 4 games**" in page and "dice UA4, 6 players: renegade." in page
    )


def test_the_undead_command_writes_its_page(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import ops.baseline as baseline

    monkeypatch.setattr(baseline, "undead_sets", lambda modules: [(ModuleId.UA2,)])
    monkeypatch.setattr(baseline, "UNDEAD_SIZES", range(4, 6))
    out = tmp_path / "undead.md"
    status = main(["--undead", "--games", "3", "--seed", "2", "--rare-cap", "0", "--out", str(out)])
    page = out.read_text()
    assert page.startswith("# Baselines: Undead or Alive") and "## UA2 (`dice UA2`)" in page
    assert "| 4 | 3 |" in page and "| 5 | 3 |" in page and "| 3 | 3 |" not in page
    assert status == (1 if "Sides that never won" in page else 0)


# --- the rare sides pass --------------------------------------------------------------------------


def test_the_rare_pass_plays_the_very_games_simulate_plays() -> None:
    ua4 = ruleset_of(["UA4"])
    report = simulate(6, 5, 11, HeuristicBot, ruleset=ua4)
    sides = [play_one(ua4, 5, 11, index)[0] for index in range(6)]
    assert {side: sides.count(side) for side in report.wins} == report.wins


def test_a_side_that_never_won_is_looked_for_further_on_in_its_seed_stream() -> None:
    ua4 = ruleset_of(["UA4"])
    report = simulate(2, 4, 3, HeuristicBot, ruleset=ua4)
    zero = sorted(side for side, n in report.wins.items() if n == 0)
    report.wins["nobody"] = 0  # a side no game names: never found, the pass stops at the cap
    rares = rare_sides([Cell(ua4, 4, report)], 3, cap=40, echo=False)
    assert [r.side for r in rares] == sorted([*zero, "nobody"])
    winners = [play_one(ua4, 4, 3, index)[0] for index in range(40)]
    for rare in rares:
        assert rare.played == 40  # "nobody" keeps the pass going to the cap
        if rare.side in winners:
            assert rare.first == winners.index(rare.side) + 1 > 2  # numbered from 1, after the 2
            assert rare.how.startswith("turn ") and "fell in it" in rare.how and "showing" in rare.how
            assert rare.finding().endswith(f"{rare.side} first won in game {rare.first} of 40")
        else:
            assert (
                rare.first is None
                and f"{rare.side} never won in 40 games (win rate below 8.762% at 95%)" in rare.finding()
            )
    assert any(r.first is not None for r in rares)


def test_the_rare_pass_stops_once_every_missing_side_has_won() -> None:
    ua4 = ruleset_of(["UA4"])
    report = simulate(1, 4, 3, HeuristicBot, ruleset=ua4)
    rares = rare_sides([Cell(ua4, 4, report)], 3, cap=2_000, echo=False)
    assert rares and all(r.first is not None for r in rares)
    assert rares[0].played == max(r.first or 0 for r in rares) < 2_000


def test_a_search_taken_up_where_another_stopped_finds_the_games_the_rare_pass_finds(
    capsys: pytest.CaptureFixture[str],
) -> None:
    ua4 = ruleset_of(["UA4"])
    report = simulate(1, 4, 3, HeuristicBot, ruleset=ua4)
    rares = rare_sides([Cell(ua4, 4, report)], 3, cap=2_000, echo=False)
    assert rares
    for rare in rares:
        assert rare.first is not None
        # from the page's games on, and from just before its first win: the same game, the same words
        assert look_on(ua4, 4, rare.side, 3, 1, 2_000) == (rare.first, rare.how)
        assert look_on(ua4, 4, rare.side, 3, rare.first - 1, rare.first) == (rare.first, rare.how)
        # from just after it, that game is not looked at again
        later = look_on(ua4, 4, rare.side, 3, rare.first, rare.first + 1)
        assert later is None or later[0] == rare.first + 1
    side = rares[0]
    assert main(["--look-on", f"UA4:4:{side.side}", "--seed", "3", "--from", "1", "--rare-cap", "2000"]) == 0
    assert f"{side.side} first won in game {side.first:,}: {side.how}" in capsys.readouterr().out
    assert main(["--look-on", "UA4:4:nobody", "--seed", "3", "--rare-cap", "5"]) == 1
    assert "nobody never won" in capsys.readouterr().out
    assert main(["--look-on", "UA4 and more", "--rare-cap", "5"]) == 2


def test_the_page_shows_each_rare_side_and_the_ones_never_found() -> None:
    ua4 = ruleset_of(["UA4"])
    report = SimulationReport(games=2, players=8, seed=0, bot="heuristic", ruleset=ua4.text)
    report.finished, report.turns, report.outbreaks = 2, 60, 2
    report.wins = {"law": 0, "outlaws": 0, "renegade": 0, "survivors": 1, "zombies": 1}
    rares = [
        Rare(ua4, 8, "law", 312, 5_000, "turn 30: 2 fell in it (shoot1 x2), 3 hands showing"),
        Rare(ua4, 8, "outlaws", 17, 5_000, "turn 12: 1 fell in it (shoot2), 0 hands showing"),
        Rare(ua4, 8, "renegade", None, 5_000),
    ]
    page = render_undead([Cell(ua4, 8, report)], 2, 0, [ModuleId.UA4], 1.0, rares, 9.0, 5_000)
    assert "## Rare sides" in page and "--rare-cap 5000" in page
    assert "| UA4 | 8 | law | 0 | 312 | 5,000 | turn 30: 2 fell in it (shoot1 x2), 3 hands showing |" in page
    assert "| UA4 | 8 | renegade | 0 | never | 5,000 | — |" in page
    assert "**Never won within the cap:** dice UA4, 8 players: renegade never won in 5,000 games (" in page
    assert "Each is looked for further on under *Rare sides*" in page
    assert "**What the bots do, by side**" in page and "**With UA4**" in page
    rares[2] = Rare(ua4, 8, "renegade", 4_321, 5_000, "turn 40: 3 fell in it (indian_attack x3)")
    page = render_undead([Cell(ua4, 8, report)], 2, 0, [ModuleId.UA4], 1.0, rares, 9.0, 5_000)
    assert "Every one of these sides won within 5,000 games of its cell's stream." in page


def test_a_run_fails_only_for_a_side_never_found_within_the_cap(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import ops.baseline as baseline

    monkeypatch.setattr(baseline, "undead_sets", lambda modules: [(ModuleId.UA4,)])
    monkeypatch.setattr(baseline, "UNDEAD_SIZES", range(4, 5))
    out = tmp_path / "undead.md"
    # two games leave sides that never won; 2,000 games of the 4-player stream find them all
    assert main(["--undead", "--games", "2", "--seed", "3", "--rare-cap", "2000", "--out", str(out)]) == 0
    page = out.read_text()
    assert "## Rare sides" in page and "| never |" not in page
    # with a cap of 3 games some of them stay unfound: the run fails and says so
    assert main(["--undead", "--games", "2", "--seed", "3", "--rare-cap", "3", "--out", str(out)]) == 1
    assert "**Never won within the cap:**" in out.read_text()


def test_a_renegade_can_win_an_8_player_ua4_game_before_any_outbreak() -> None:
    """The rare sides pass may find no renegade win at 8 players with UA4: the rules still allow
    one. Every other player at 1 life, the renegade's gatling takes them all at once: the game
    ends at once, before any fallen player reveals a Boneyard card."""
    roles = [Role.RENEGADE, Role.SHERIFF, Role.DEPUTY, Role.DEPUTY, Role.OUTLAW, Role.OUTLAW, Role.OUTLAW]
    characters = [
        CharacterId.SUZY_LAFAYETTE,
        CharacterId.WILLY_THE_KID,
        CharacterId.EL_GRINGO,
        CharacterId.JESSE_JONES,
        CharacterId.PEDRO_RAMIREZ,
        CharacterId.ROSE_DOOLAN,
        CharacterId.BLACK_JACK,
        CharacterId.KIT_CARLSON,
    ]
    seats = [
        Seat(player=PlayerId(f"p{i + 1}"), role=role, character=ch)
        for i, (role, ch) in enumerate(zip([*roles, Role.RENEGADE], characters, strict=True))
    ]
    others = tuple(PlayerPosition(player=PlayerId(f"p{i}"), life=1) for i in range(2, 9))
    game = Game.start(
        seats, Position(players=others, active_player=PlayerId("p1")), rules_for([ModuleId.UA4])
    )
    game.play(parse_command("p1 roll gatling gatling gatling arrow dynamite"))
    game.play(parse_command("p1 stop"))
    result = game.result
    assert result is not None and result.winning_side is Side.RENEGADE and result.winners == ("p1",)
    assert result.outbreak_turn is msgspec.UNSET
    assert not any(isinstance(e, BoneyardRevealed) for e in game.events)


def test_a_rare_sides_game_stops_once_the_sides_looked_for_cannot_win_it() -> None:
    ua4 = ruleset_of(["UA4"])
    stopped = 0
    for index in range(12):
        side, full = play_one(ua4, 6, 5, index)
        cut = play_for(ua4, 6, 5, index, ["renegade", "law"])
        if cut is None:  # stopped: neither side won the full game, and neither could any more
            stopped += 1
            assert side not in ("renegade", "law")
            state = full.state
            assert state.outbreak or not any(p.role is Role.RENEGADE for p in state.players if p.alive)
        else:  # played out: the very game
            assert cut[0] == side and cut[1].events == full.events
    assert stopped >= 3
    # the zombies' sides and the outlaws (who win when the Sheriff falls, outlaws alive or not)
    # are never given up before an outbreak
    state = play_one(ua4, 6, 5, 0)[1].state.clone()
    b = state.boneyard
    assert b is not None
    b.outbreak_turn = None
    for side in ("zombies", "survivors", "outlaws", "law"):
        assert not cannot_win(state, side)
    b.outbreak_turn = 3
    assert cannot_win(state, "law") and cannot_win(state, "renegade") and not cannot_win(state, "zombies")
