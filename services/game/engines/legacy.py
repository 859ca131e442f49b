"""The dice engine's UA5 legacy (``rules/dice/undead/legacy.py``) as the series service reaches it:
through the engines package, like every other use of an engine outside it. A legacy plan is
always built with the rules of the series' recorded ruleset (``rules_of``)."""

from __future__ import annotations

from services.game.rules.dice.events import GameEnded
from services.game.rules.dice.modules import rules_of
from services.game.rules.dice.undead.legacy import (
    DECISIONS,
    ENTRY_KIND,
    FinishedGame,
    LegacyEntry,
    LegacyError,
    LegacyPlan,
    RolesDrawn,
    entry_text,
)
from services.game.rules.ruleset import Ruleset

__all__ = [
    "DECISIONS",
    "ENTRY_KIND",
    "FinishedGame",
    "GameEnded",
    "LegacyEntry",
    "LegacyError",
    "LegacyPlan",
    "RolesDrawn",
    "entry_text",
    "legacy_plan",
]


def legacy_plan(events: list[object], ruleset: Ruleset, entries: list[LegacyEntry]) -> LegacyPlan:
    """The plan from a finished game's engine events toward the next game of its series."""
    return LegacyPlan(FinishedGame.from_events(events), rules_of(ruleset), entries)  # type: ignore[arg-type]
