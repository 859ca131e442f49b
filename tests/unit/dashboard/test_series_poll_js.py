"""The legacy series page (services/dashboard/static/js/views/series/series.js) under node: it
reads the series again every few seconds, and a slow read could answer after a newer one (the
next poll, or the reload after a decision). The older series then replaced the newer on the page
(a question already answered came back, with controls); it is now dropped."""

from __future__ import annotations

from pathlib import Path

from tests.unit.dashboard.node import run_harness

HARNESS = Path(__file__).with_name("series_poll.mjs")


def test_an_older_read_of_the_series_answering_last_does_not_replace_the_newer() -> None:
    answers = run_harness(HARNESS)
    assert answers["first"] == ["1"]
    assert answers["newer"] == ["2"]
    assert answers["afterOlder"] == ["2"]
