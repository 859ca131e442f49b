"""The card game's scorekeeper page (services/dashboard/static/js/cards/entry.js) under node: it
reads the game again on every live event, and two reads under way at once may answer out of
order. The older answer replaced the newer game on the page (its next entry was then made on a
version already gone, and refused); it is now dropped, as the dice scorekeeper page does."""

from __future__ import annotations

from pathlib import Path

from tests.unit.dashboard.node import run_harness

HARNESS = Path(__file__).with_name("card_entry.mjs")


def test_an_older_read_answering_last_does_not_replace_the_newer_game() -> None:
    answers = run_harness(HARNESS)
    assert answers["reads"] == 2
    assert answers["afterNewer"] == ["7"]
    assert answers["afterOlder"] == ["7"]
