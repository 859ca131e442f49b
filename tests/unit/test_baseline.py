"""ops.baseline: the Wilson interval, every module set and size played, sides that never won named."""

from __future__ import annotations

from pathlib import Path

import pytest

from ops.baseline import main, module_sets, render, run, wilson, zero_wins
from services.game.rules.ruleset import ModuleId


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
