from __future__ import annotations

import math

import pytest

from services.game.results import Side
from services.ratings.model import RatingBook, RatingConfig, rebuild, win_probabilities
from services.ratings.outcome import LeaguePlayerId
from services.ratings.synthetic import generate, spread_strengths

from .builders import DEPUTY, FIVE, OUTLAW, RENEGADE, SHERIFF, game


def test_win_probabilities_follow_the_elo_scale_and_sum_to_one() -> None:
    p = win_probabilities([1900.0, 1500.0])
    assert p[0] == pytest.approx(10 / 11)
    three = win_probabilities([1500.0, 1600.0, 1400.0])
    assert sum(three) == pytest.approx(1.0)
    assert three[1] > three[0] > three[2]
    assert sum(win_probabilities([1e6, 0.0, -1e6])) == pytest.approx(1.0)  # no overflow


def test_a_fresh_book_predicts_equal_factions_and_sums_to_one() -> None:
    book = RatingBook()
    p = book.predict(game(FIVE, Side.LAW).table)
    assert p == pytest.approx([1 / 3] * 3)


def test_winners_gain_losers_lose_and_the_table_is_zero_sum() -> None:
    book = RatingBook()
    changes = book.apply(game(FIVE, Side.OUTLAWS))
    delta = {c.player: c.rating_after - c.rating_before for c in changes}
    assert delta["cat"] > 0 and delta["dan"] > 0
    assert delta["ann"] < 0 and delta["bob"] < 0 and delta["eve"] < 0
    # every newcomer has the same K, so the points won are exactly the points lost
    assert sum(delta.values()) == pytest.approx(0.0, abs=1e-9)
    # a faction of two shares its gain: each member moves by K * (1 - 1/3) / 2
    assert delta["cat"] == pytest.approx(RatingConfig().k_provisional * (2 / 3) / 2)
    assert delta["eve"] == pytest.approx(-RatingConfig().k_provisional * (1 / 3))


def test_an_upset_moves_ratings_more_than_an_expected_win() -> None:
    book = RatingBook()
    for i in range(20):
        book.apply(game(FIVE, Side.LAW, game_id=f"g{i}"))
    expected = book.apply(game(FIVE, Side.LAW, game_id="x"))
    upset = RatingBook.from_json(book.to_json())
    upset_changes = upset.apply(game(FIVE, Side.RENEGADE, game_id="x"))
    gain = {c.player: c.rating_after - c.rating_before for c in expected}
    upset_gain = {c.player: c.rating_after - c.rating_before for c in upset_changes}
    assert upset_gain["eve"] > abs(gain["ann"])


def test_a_three_way_wipe_out_is_a_draw() -> None:
    book = RatingBook()
    changes = book.apply(game([("a", DEPUTY), ("b", OUTLAW), ("c", RENEGADE)], None))
    assert all(c.rating_after == pytest.approx(c.rating_before) for c in changes)


def test_role_rating_is_shrunk_toward_overall_with_few_games() -> None:
    config = RatingConfig(role_shrinkage=10.0)
    book = RatingBook(config=config)
    book.apply(game(FIVE, Side.LAW))
    record = book.players[LeaguePlayerId("ann")]
    deviation = record.roles[SHERIFF].deviation
    assert deviation > 0
    sheriff = next(r for r in book.rating(LeaguePlayerId("ann")).roles if r.role is SHERIFF)
    assert sheriff.rating == pytest.approx(record.rating + deviation * 1 / (1 + 10))
    assert sheriff.games == 1 and sheriff.provisional
    outlaw = next(r for r in book.rating(LeaguePlayerId("ann")).roles if r.role is OUTLAW)
    assert outlaw.rating == record.rating and outlaw.games == 0


def test_provisional_until_enough_games_overall_and_in_role() -> None:
    config = RatingConfig(provisional_games=3, role_provisional_games=2)
    book = RatingBook(config=config)
    for i in range(3):
        book.apply(game(FIVE, Side.LAW, game_id=f"g{i}"))
    ann = book.rating(LeaguePlayerId("ann"))
    assert not ann.provisional
    roles = {r.role: r for r in ann.roles}
    assert not roles[SHERIFF].provisional and roles[OUTLAW].provisional
    assert book.rating(LeaguePlayerId("nobody")).provisional


def test_history_records_every_game_per_player_and_role() -> None:
    book = RatingBook()
    book.apply(game(FIVE, Side.LAW, game_id="first"))
    swapped = [("ann", OUTLAW), ("bob", SHERIFF), ("cat", DEPUTY), ("dan", OUTLAW), ("eve", RENEGADE)]
    book.apply(game(swapped, Side.OUTLAWS, game_id="second"))
    ann = book.players[LeaguePlayerId("ann")]
    assert [(h.game, h.game_id) for h in ann.history] == [(1, "first"), (2, "second")]
    assert ann.history[-1].rating == ann.rating
    assert [h.game_id for h in ann.roles[SHERIFF].history] == ["first"]
    assert [h.game_id for h in ann.roles[OUTLAW].history] == ["second"]


def test_same_games_give_identical_books_and_json_round_trips() -> None:
    games = generate(spread_strengths(12), 300, seed=5)
    first, second = rebuild(games), rebuild(games)
    assert first.to_json() == second.to_json()
    decoded = RatingBook.from_json(first.to_json())
    assert decoded == first
    # a book restored mid-way carries on exactly as one that never stopped
    half = RatingBook.from_json(rebuild(games[:150]).to_json())
    for outcome in games[150:]:
        half.apply(outcome)
    assert half.to_json() == first.to_json()


def test_leaderboard_orders_by_rating() -> None:
    book = rebuild(generate(spread_strengths(8), 200, seed=3))
    board = book.leaderboard()
    assert [r.rating for r in board] == sorted((r.rating for r in board), reverse=True)
    assert all(math.isfinite(r.rating) for r in board)
