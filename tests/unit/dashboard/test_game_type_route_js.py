"""The router's choice between the dice and the card views (services/dashboard/static/js/cards/route.js)
under node. The game's type is read before the page is drawn; a read answered with a server
error, or not answered at all, was taken for a dice game, and a card game was then drawn by the
dice views until the page was reloaded. Such a read is now shown with a retry; a game the API
refuses to show (404) still goes to the dice page, which says why."""

from __future__ import annotations

from pathlib import Path

from tests.unit.dashboard.node import run_harness

HARNESS = Path(__file__).with_name("game_type_route.mjs")


def test_a_server_error_or_no_answer_is_not_taken_for_a_dice_game() -> None:
    answers = run_harness(HARNESS)
    for case, words in (("serverError", "HTTP 503 here"), ("offline", "the server did not answer")):
        first = answers[case]["first"]
        assert first["drawn"] == [], case
        assert "Could not load the game." in first["said"] and words in first["said"], case
        # its retry reads the type again: the card game is drawn by the card views
        assert answers[case]["retried"] and answers[case]["drawn"] == ["cards"], case


def test_an_unknown_game_goes_to_the_dice_page_and_a_card_game_to_the_card_views() -> None:
    answers = run_harness(HARNESS)
    assert answers["unknown"]["drawn"] == ["dice"]
    assert answers["cards"]["drawn"] == ["cards"]


def test_a_scheduled_game_not_created_yet_opens_its_tables_schedule_page() -> None:
    """The "Keep score" of a league table game nobody started yet used to say "no game 'g-…'"
    with a Try again that never worked: the game id's schedule names its table's page."""
    answers = run_harness(HARNESS)
    scheduled = answers["scheduled"]
    assert scheduled["drawn"] == []
    assert scheduled["moved"] == ["#/league/l1/start?tournament=t+1&round=2&table=3"]
    assert answers["unknown"]["moved"] == []  # no league scheduled it: the dice page says why
