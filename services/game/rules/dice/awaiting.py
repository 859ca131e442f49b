"""Who must decide what: the one open question of a game at rest."""

from __future__ import annotations

from enum import StrEnum

import msgspec

from services.game.rules.dice.vocabulary import DieIndex, PlayerId


class Decision(StrEnum):
    TURN_START_HEAL = "turn_start_heal"  # Sid Ketchum: who gains 1 life
    ROLL = "roll"  # the dice: faces for the dice listed
    REROLL_OR_STOP = "reroll_or_stop"
    DOUBLE_SHOT = "double_shot"  # Slab the Killer, optional
    SHOT_TARGET = "shot_target"
    ARROWS_INSTEAD = "arrows_instead"  # Bart Cassidy, optional
    DISCARD_ARROWS = "discard_arrows"  # Pedro Ramirez, optional
    BEER_TARGET = "beer_target"
    REMOVE_ARROWS = "remove_arrows"  # Kit Carlson, optional


OPTIONAL_DECISIONS = frozenset(
    {Decision.DOUBLE_SHOT, Decision.ARROWS_INSTEAD, Decision.DISCARD_ARROWS, Decision.REMOVE_ARROWS}
)

_WHAT = {
    Decision.TURN_START_HEAL: "choose who gains 1 life at the start of the turn",
    Decision.ROLL: "roll",
    Decision.REROLL_OR_STOP: "reroll or stop",
    Decision.DOUBLE_SHOT: "decide whether to spend a beer to double a shot",
    Decision.SHOT_TARGET: "choose a target for a shoot die",
    Decision.ARROWS_INSTEAD: "decide whether to take arrows instead of losing life",
    Decision.DISCARD_ARROWS: "decide whether to discard arrows for the life just lost",
    Decision.BEER_TARGET: "choose who drinks a beer",
    Decision.REMOVE_ARROWS: "decide whose arrows the gatling faces remove",
}


class Awaiting(msgspec.Struct, frozen=True, kw_only=True):
    player: PlayerId
    decision: Decision
    dice: tuple[DieIndex, ...] = ()
    """The dice concerned: to roll, to aim, or that may be rerolled."""
    max_count: int = 0
    """For counted decisions: the most arrows that may be taken, discarded or removed."""
    rolls_left: int = 0

    @property
    def optional(self) -> bool:
        return self.decision in OPTIONAL_DECISIONS

    def describe(self) -> str:
        dice = f" (dice {', '.join(map(str, self.dice))})" if self.dice else ""
        return f"{self.player} to {_WHAT[self.decision]}{dice}"
