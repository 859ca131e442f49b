"""Who must decide what: the one open question of a game at rest."""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Protocol

import msgspec

from services.game.rules.dice.vocabulary import DieIndex, PlayerId


class Decision(StrEnum):
    """The base game's decisions; each is declared once, by its ``decisions.DecisionSpec``.
    A module names its own decisions in its own ``StrEnum`` (``old_saloon``), so a question's
    decision is any ``StrEnum`` member, read by its value."""

    TURN_START_HEAL = "turn_start_heal"  # Sid Ketchum: who gains 1 life
    ROLL = "roll"  # the dice: faces for the dice listed
    REROLL_OR_STOP = "reroll_or_stop"
    DOUBLE_SHOT = "double_shot"  # Slab the Killer, optional
    SHOT_TARGET = "shot_target"
    ARROWS_INSTEAD = "arrows_instead"  # Bart Cassidy, optional
    DISCARD_ARROWS = "discard_arrows"  # Pedro Ramirez, optional
    BEER_TARGET = "beer_target"
    REMOVE_ARROWS = "remove_arrows"  # Kit Carlson, optional


class _Declared(Protocol):
    @property
    def what(self) -> str: ...

    @property
    def optional(self) -> bool: ...


_DECLARED: dict[str, _Declared] = {}
"""Decision → its spec (``decisions.DECISIONS``), for the two readings an ``Awaiting`` gives of
itself; filled by ``describe_with`` when the specs are declared."""


def describe_with(specs: Mapping[str, _Declared]) -> None:
    _DECLARED.update(specs)


class Awaiting(msgspec.Struct, frozen=True, kw_only=True):
    player: PlayerId
    decision: StrEnum
    """A ``Decision`` of the base game or a module's own decision name."""
    dice: tuple[DieIndex, ...] = ()
    """The dice concerned: to roll, to aim, or that may be rerolled."""
    max_count: int = 0
    """For counted decisions: the most arrows that may be taken, discarded or removed."""
    rolls_left: int = 0

    @property
    def optional(self) -> bool:
        return _DECLARED[self.decision].optional

    def describe(self) -> str:
        dice = f" (dice {', '.join(str(d + 1) for d in self.dice)})" if self.dice else ""
        return f"{self.player} to {_DECLARED[self.decision].what}{dice}"
