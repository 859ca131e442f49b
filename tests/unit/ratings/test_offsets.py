from __future__ import annotations

import pytest

from services.game.results import BASE_RULESET, Side
from services.ratings.model import RatingBook, rebuild
from services.ratings.offsets import ELO_PER_NAT, OffsetTable
from services.ratings.synthetic import TRUE_OFFSETS, generate, spread_strengths

from .builders import FIVE, game

OS1 = "dice OS1"


def _centred(players: int, kinds: dict[Side, int]) -> dict[Side, float]:
    """True offsets centred like ``OffsetTable.normalised`` (``kinds``: factions per kind)."""
    mean = sum(TRUE_OFFSETS[(players, k)] * c for k, c in kinds.items()) / sum(kinds.values())
    return {k: TRUE_OFFSETS[(players, k)] - mean for k in kinds}


@pytest.mark.parametrize("spread", [0.0, 300.0])
def test_offsets_recover_known_side_asymmetries(spread: float) -> None:
    games = generate(spread_strengths(30, spread), 4000, seed=11, table_sizes=(4, 8))
    fitted = rebuild(games).offsets.normalised()[BASE_RULESET]
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
        table.update(BASE_RULESET, 4, kinds, [1 / 3] * 3, [1.0, 0.0, 0.0])
    normalised = table.normalised()[BASE_RULESET][4]
    assert normalised[Side.LAW] > 200 > 0 > normalised[Side.OUTLAWS]
    assert table.cells[BASE_RULESET][4][Side.LAW].games == 50


def test_two_renegades_at_one_table_update_one_offset_once() -> None:
    table = OffsetTable(prior_games=2.0)
    kinds = [Side.LAW, Side.OUTLAWS, Side.RENEGADE, Side.RENEGADE]
    table.update(BASE_RULESET, 8, kinds, [0.25] * 4, [0.0, 0.0, 1.0, 0.0])
    cell = table.cells[BASE_RULESET][8][Side.RENEGADE]
    assert cell.games == 1
    assert cell.information == pytest.approx(2 * 0.25 * 0.75)
    # residuals 0.75 and -0.25 add up; one Fisher-scoring step with both renegades' information
    assert cell.value == pytest.approx(400 / 2.302585092994046 * 0.5 / (2.0 + 0.375))


def test_an_old_saloon_game_leaves_the_base_game_s_offsets_alone() -> None:
    book = RatingBook()
    for i in range(30):
        book.apply(game(FIVE, Side.LAW if i % 3 else Side.OUTLAWS, game_id=f"base-{i}"))
    base_before = RatingBook.from_json(book.to_json()).offsets.cells[BASE_RULESET]
    book.apply(game(FIVE, Side.RENEGADE, game_id="os-1", ruleset=OS1))
    # bit for bit: the OS1 game's residuals moved OS1's cells only
    assert book.offsets.cells[BASE_RULESET] == base_before
    assert {k: c.games for k, c in book.offsets.cells[OS1][5].items()} == {
        Side.LAW: 1, Side.OUTLAWS: 1, Side.RENEGADE: 1,
    }
    # and the base game's next prediction is what it would have been without the OS1 game
    assert book.offsets.offset(BASE_RULESET, 5, Side.RENEGADE) == base_before[5][Side.RENEGADE].value
    assert book.offsets.offset(OS1, 5, Side.RENEGADE) > base_before[5][Side.RENEGADE].value


def test_a_ruleset_never_seen_starts_from_its_base_game_s_offsets() -> None:
    table = OffsetTable(prior_games=2.0)
    kinds = [Side.LAW, Side.OUTLAWS, Side.RENEGADE]
    for _ in range(10):
        table.update(BASE_RULESET, 5, kinds, [1 / 3] * 3, [0.0, 1.0, 0.0])
    # before its first game, an unseen module set reads as the base game at that size
    for kind in kinds:
        assert table.offset(OS1, 5, kind) == table.cells[BASE_RULESET][5][kind].value
    # a size the base game has not seen either, or another game type, starts at 0
    assert table.offset(OS1, 7, Side.LAW) == 0.0
    assert table.offset("cards", 5, Side.LAW) == 0.0
    start = table.cells[BASE_RULESET][5][Side.OUTLAWS].value
    table.update(OS1, 5, kinds, [0.5, 0.25, 0.25], [0.0, 0.0, 1.0])
    cell = table.cells[OS1][5][Side.OUTLAWS]
    # one step from the base value, with only this game's information (no borrowed certainty)
    assert cell.information == pytest.approx(0.25 * 0.75)
    assert cell.value == pytest.approx(start + ELO_PER_NAT * -0.25 / (2.0 + 0.25 * 0.75))
    assert cell.games == 1


def test_offsets_of_two_rulesets_are_fitted_apart() -> None:
    # the same players under two module sets whose sides are balanced the other way round
    swapped = {(n, k): -v for (n, k), v in TRUE_OFFSETS.items()}
    strengths = spread_strengths(30, 200.0)
    base = generate(strengths, 2000, seed=21, table_sizes=(5,))
    saloon = generate(strengths, 2000, seed=22, table_sizes=(5,), offsets=swapped, ruleset=OS1)
    interleaved = [g for pair in zip(base, saloon, strict=True) for g in pair]
    fitted = rebuild(interleaved).offsets.normalised()
    kinds = {Side.LAW: 1, Side.OUTLAWS: 1, Side.RENEGADE: 1}
    for kind, value in _centred(5, kinds).items():
        assert fitted[BASE_RULESET][5][kind] == pytest.approx(value, abs=40), kind
        assert fitted[OS1][5][kind] == pytest.approx(-value, abs=40), kind
