"""A schedule's fingerprint (what a retry is compared with) is what it was before a schedule
could say when and how its table plays, as long as it says none of it: a command stored before
is still a retry of itself; one that says it is another command."""

from __future__ import annotations

from services.league.commands import ScheduleGame
from services.league.service import fingerprint
from services.runtime.idempotency import command_fingerprint

BEFORE = {
    "league_id": "l", "tournament_id": "t", "round": 1, "table": 2, "game_id": "g-1", "mode": "table",
    "scorekeeper": "kim", "scheduled_by": "olga",
}  # fmt: skip
"""A schedule as its command was fingerprinted before the new fields existed."""


def test_a_schedule_that_says_nothing_new_keeps_its_fingerprint() -> None:
    command = ScheduleGame(**BEFORE)  # type: ignore[arg-type]
    assert fingerprint(command, "account:olga", None) == command_fingerprint(
        "ScheduleGame", BEFORE, "account:olga"
    )


def test_a_schedule_that_says_when_is_another_command() -> None:
    plain = ScheduleGame(**BEFORE)  # type: ignore[arg-type]
    dated = ScheduleGame(**BEFORE, starts_at="2026-12-01T19:30:00+01:00")  # type: ignore[arg-type]
    timed = ScheduleGame(**BEFORE, decision_timeout_seconds=60)  # type: ignore[arg-type]
    prints = {fingerprint(c, "account:olga", None) for c in (plain, dated, timed)}
    assert len(prints) == 3
