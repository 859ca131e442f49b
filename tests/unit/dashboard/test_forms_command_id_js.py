"""An organise form's command id (services/dashboard/static/js/views/organise/forms.js) under node:
pressed again after a failure it retries the same command id, as a lost answer's retry must; but
after the API's 409 ``command-id-reused`` (the id was stored for what the form held before its
answer was lost, and the form was changed since) it kept the spent id, so every press was
refused again. It now sends what it holds under a new id."""

from __future__ import annotations

from pathlib import Path

from tests.unit.dashboard.node import run_harness

HARNESS = Path(__file__).with_name("forms_command_id.mjs")


def test_a_form_retries_its_command_id_and_takes_a_new_one_once_it_is_spent() -> None:
    answers = run_harness(HARNESS)
    first, retried, renewed = answers["sent"]
    assert retried == first  # after a 503: the same command again
    assert renewed != retried  # after command-id-reused: a new command
