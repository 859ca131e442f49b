"""The legacy series page's decision controls (services/dashboard/static/js/views/series/decide.js)
under node: once the API stored a decision, the controls come back even when the page could not
read the series again. They stayed disabled for good, and the page's poll, which waits while
they are disabled (a decision being sent), never redrew it: the page was stuck on the answered
question."""

from __future__ import annotations

from pathlib import Path

from tests.unit.dashboard.node import run_harness

HARNESS = Path(__file__).with_name("series_decide.mjs")


def test_a_stored_decision_leaves_the_controls_usable_when_the_series_cannot_be_read_again() -> None:
    answers = run_harness(HARNESS)
    unread = answers["storedUnread"]
    assert unread["posts"] == 1
    assert unread["during"] == [True, True]  # disabled while the decision is sent
    assert unread["after"] == [False, False]
    assert "Recorded" in unread["said"]


def test_a_stored_or_refused_decision_enables_the_controls_again() -> None:
    answers = run_harness(HARNESS)
    assert answers["stored"]["after"] == [False, False]
    refused = answers["refused"]
    assert refused["after"] == [False, False]
    assert "not your question" in refused["said"]  # the API's words
