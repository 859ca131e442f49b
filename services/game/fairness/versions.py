"""Which version of each seed derivation a game uses: recorded in ``GameCreated.fairness``."""

from __future__ import annotations

import msgspec

DEAL_1 = "deal-1"
DICE_1 = "dice-1"


class Fairness(msgspec.Struct, frozen=True, kw_only=True):
    """The derivations an online game's seed goes through. The defaults are the versions every
    game recorded before this field existed used, and stay so: a new version is recorded by
    name, never by changing a default.

    Later kinds join as new fields (``draws`` for card draws such as ``rage-1``, ``shuffles``
    for decks, ``special_roles`` for the special-role deal), defaulting to None: not used."""

    deal: str = DEAL_1
    """Seat order, roles and characters (``services.game.fairness.deal``)."""
    dice: str = DICE_1
    """The faces of every roll (``services.game.fairness.dice``)."""

    @property
    def text(self) -> str:
        """The compact form, e.g. ``deal-1 dice-1``."""
        return " ".join(v for v in msgspec.structs.astuple(self) if v is not None)


FAIRNESS_V1 = Fairness()
"""What a game recorded without ``fairness`` used."""
