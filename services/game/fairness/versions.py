"""Which version of each seed derivation a game uses: recorded in ``GameCreated.fairness``."""

from __future__ import annotations

import msgspec

DEAL_1 = "deal-1"
DICE_1 = "dice-1"
DEAL_2 = "deal-2"
"""``deal-1`` with the character pool of the game's ruleset (``deal_pool.py``)."""
DEAL_3 = "deal-3"
"""``deal-2`` with Undead or Alive's UA3 characters in the pool (``deal_pool_3.py``)."""
DICE_2 = "dice-2"
"""``dice-1``'s stream, each face read on the table of its die's kind (``dice_kinds.py``)."""
ROLES_OS3_1 = "roles-os3-1"
"""OS3's special-role deal (``special_roles.py``)."""
DRAWS_1 = "draws-1"
"""Cards drawn at random from a deck: UA2's Rage cards (``draws.py``)."""
SHUFFLES_1 = "shuffles-1"
"""The card game: each new deck's order and each card taken at random from a hand
(``shuffles.py``)."""
LEGACY_1 = "legacy-1"
"""UA5: the draws between two games of a legacy series, from the series' seed (``legacy.py``)."""


class Fairness(msgspec.Struct, frozen=True, kw_only=True):
    """The derivations an online game's seed goes through. The defaults are the versions every
    game recorded before this field existed used, and stay so: a new version is recorded by
    name, never by changing a default.

    Later kinds join as new fields that are left out of the stored event unless a game uses
    them (``msgspec.UNSET``), so a base game's ``GameCreated`` encodes exactly as before
    (``draws`` for card draws such as ``rage-1`` and ``shuffles`` for decks will join so)."""

    deal: str = DEAL_1
    """Seat order, roles and characters (``services.game.fairness.deal``, ``deal_pool``,
    ``deal_pool_3``)."""
    dice: str = DICE_1
    """The faces of every roll (``services.game.fairness.dice``, ``dice_kinds``)."""
    special_roles: str | msgspec.UnsetType = msgspec.UNSET
    """OS3: each seat's special role card (``services.game.fairness.special_roles``); unset
    (and not stored) for a game without special roles."""

    draws: str | msgspec.UnsetType = msgspec.UNSET
    """Cards drawn at random (UA2's Rage cards: ``services.game.fairness.draws``); unset (and
    not stored) for a game that draws none."""

    shuffles: str | msgspec.UnsetType = msgspec.UNSET
    """The card game's decks and the cards taken at random from hands
    (``services.game.fairness.shuffles``); unset (and not stored) for a dice game. A card game
    rolls no dice: its ``dice`` is the default, never read."""

    @property
    def shuffles_version(self) -> str | None:
        return self.shuffles if isinstance(self.shuffles, str) else None

    @property
    def draws_version(self) -> str | None:
        return self.draws if isinstance(self.draws, str) else None

    @property
    def special_roles_version(self) -> str | None:
        return self.special_roles if isinstance(self.special_roles, str) else None

    @property
    def text(self) -> str:
        """The compact form, e.g. ``deal-1 dice-1``, ``deal-2 dice-2 roles-os3-1``."""
        return " ".join(v for v in msgspec.structs.astuple(self) if isinstance(v, str))


FAIRNESS_V1 = Fairness()
"""What a game recorded without ``fairness`` used."""
