"""ops.baseline: the Wilson interval, every module set and size played, sides that never won named."""

from __future__ import annotations

from pathlib import Path

import pytest

from ops.baseline import (
    UNDEAD_SIZES,
    Cell,
    main,
    module_sets,
    render,
    render_undead,
    run,
    undead_sets,
    undead_zero_wins,
    wilson,
    zero_wins,
)
from services.game.rules.ruleset import ModuleId, ruleset_of
from services.game.simulation import SimulationReport


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
    assert "Sides that never won in this run" in page and "## OS5 (`dice OS5`)" in page
    assert "--games 1 --seed 5" in page
    out = tmp_path / "baselines.md"
    assert main(["--games", "1", "--seed", "5", "--out", str(out)]) == 1
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
    assert "**With UA4, base sides that never won**" in page and "dice UA4, 6 players: renegade." in page


def test_the_undead_command_writes_its_page(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import ops.baseline as baseline

    monkeypatch.setattr(baseline, "undead_sets", lambda modules: [(ModuleId.UA2,)])
    monkeypatch.setattr(baseline, "UNDEAD_SIZES", range(4, 6))
    out = tmp_path / "undead.md"
    status = main(["--undead", "--games", "3", "--seed", "2", "--out", str(out)])
    page = out.read_text()
    assert page.startswith("# Baselines: Undead or Alive") and "## UA2 (`dice UA2`)" in page
    assert "| 4 | 3 |" in page and "| 5 | 3 |" in page and "| 3 | 3 |" not in page
    assert status == (1 if "Sides that never won" in page else 0)
