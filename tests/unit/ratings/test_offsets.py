from __future__ import annotations

import pytest

from services.game.results import Side
from services.ratings.model import rebuild
from services.ratings.offsets import OffsetTable
from services.ratings.synthetic import TRUE_OFFSETS, generate, spread_strengths


def _centred(players: int, kinds: dict[Side, int]) -> dict[Side, float]:
    """True offsets centred like ``OffsetTable.normalised`` (``kinds``: factions per kind)."""
    mean = sum(TRUE_OFFSETS[(players, k)] * c for k, c in kinds.items()) / sum(kinds.values())
    return {k: TRUE_OFFSETS[(players, k)] - mean for k in kinds}


@pytest.mark.parametrize("spread", [0.0, 300.0])
def test_offsets_recover_known_side_asymmetries(spread: float) -> None:
    games = generate(spread_strengths(30, spread), 4000, seed=11, table_sizes=(4, 8))
    fitted = rebuild(games).offsets.normalised()
    truth = {
        4: _centred(4, {Side.LAW: 1, Side.OUTLAWS: 1, Side.RENEGADE: 1}),
        8: _centred(8, {Side.LAW: 1, Side.OUTLAWS: 1, Side.RENEGADE: 2}),
    }
    for players, kinds in truth.items():
        for kind, value in kinds.items():
            # 2000 games per table size: about ±25 Elo of sampling noise on each offset
            assert fitted[players][kind] == pytest.approx(value, abs=40), (players, kind)


def test_an_offset_moves_toward_the_side_that_keeps_winning() -> None:
    table = OffsetTable()
    kinds = [Side.LAW, Side.OUTLAWS, Side.RENEGADE]
    for _ in range(50):
        table.update(4, kinds, [1 / 3] * 3, [1.0, 0.0, 0.0])
    normalised = table.normalised()[4]
    assert normalised[Side.LAW] > 200 > 0 > normalised[Side.OUTLAWS]
    assert table.cells[4][Side.LAW].games == 50


def test_two_renegades_at_one_table_update_one_offset_once() -> None:
    table = OffsetTable(prior_games=2.0)
    kinds = [Side.LAW, Side.OUTLAWS, Side.RENEGADE, Side.RENEGADE]
    table.update(8, kinds, [0.25] * 4, [0.0, 0.0, 1.0, 0.0])
    cell = table.cells[8][Side.RENEGADE]
    assert cell.games == 1
    assert cell.information == pytest.approx(2 * 0.25 * 0.75)
    # residuals 0.75 and -0.25 add up; one Fisher-scoring step with both renegades' information
    assert cell.value == pytest.approx(400 / 2.302585092994046 * 0.5 / (2.0 + 0.375))
