"""The dashboard's REST reader (services/dashboard/static/js/api.js) and session store
(session.js) under node: a page left while an answer's body was still arriving must not read
that answer as ``null``. It once did, the sign-in page's GET /me then stored a null account,
and the next page drawn for a signed-in person failed on it (a seat page stuck on "Loading the
game…" in the browser tests, whenever the test moved on before /me's body had arrived)."""

from __future__ import annotations

from pathlib import Path

from tests.unit.dashboard.node import run_harness

HARNESS = Path(__file__).with_name("api.mjs")


def test_an_answer_aborted_mid_body_is_an_abort_not_a_null_answer() -> None:
    answers = run_harness(HARNESS)
    assert answers["json"] == {"resolved": {"account_id": "acc-1"}}
    assert answers["aborted"] == {"rejected": "AbortError"}
    # a body the page cannot read, with the page still there, stays an empty answer as before
    assert answers["garbled"] == {"resolved": None}


def test_the_stored_account_is_replaced_only_by_an_account() -> None:
    ann = {"account_id": "acc-1", "display_name": "Ann"}
    assert run_harness(HARNESS)["kept"] == [ann, ann, ann, {"account_id": "acc-1", "display_name": "Ann B"}]
