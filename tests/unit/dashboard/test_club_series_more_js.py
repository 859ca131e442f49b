"""A club's list of legacy series (services/dashboard/static/js/views/series/club-series.js) under
node: the "More series" button's read failing was swallowed (nothing said, an unhandled
rejection), and a second click while a page was being read added that page's series twice. The
failure is now said beside the button, which stays for another try, and the button is disabled
while its page is read."""

from __future__ import annotations

from pathlib import Path

from tests.unit.dashboard.node import run_harness

HARNESS = Path(__file__).with_name("club_series_more.mjs")


def test_more_series_says_a_failed_read_and_adds_a_page_once() -> None:
    answers = run_harness(HARNESS)
    assert answers["failed"] == {"said": True, "button": True, "listed": ["a"]}
    assert answers["listed"] == ["a", "b"]
