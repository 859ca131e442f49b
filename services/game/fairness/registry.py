"""Version name → algorithm, for every derivation from an online game's seed.

A game records the versions it uses (``GameCreated.fairness``); the service derives with them
and the audit re-derives with them, whatever versions new games use by then. Adding a
derivation — ``dice-2`` with die kinds (base, loudmouth, coward, duel; one face table each),
``rage-1`` card draws, deck shuffles, the special-role deal — is a new entry here (and, for a
new kind, a new ``Fairness`` field), never an edit of an existing one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType

from services.game.fairness import deal as deal_1
from services.game.fairness import dice as dice_1
from services.game.fairness.versions import DEAL_1, DICE_1, Fairness
from services.game.rules.dice import Seat


class DerivationKind(StrEnum):
    """What a derivation makes. Later: ``draws`` (cards from a deck, e.g. Rage), ``shuffles``
    (a deck's order), ``special_roles`` (the OS3 deal)."""

    DEAL = "deal"
    DICE = "dice"


class UnknownDerivation(LookupError):
    """A game names a derivation version this server does not have."""

    def __init__(self, kind: DerivationKind, version: str) -> None:
        self.kind, self.version = kind, version
        known = ", ".join(sorted(v for v, d in DERIVATIONS.items() if d.kind is kind))
        super().__init__(f"unknown {kind.value} derivation {version!r} (known: {known})")


DealFunction = Callable[[bytes, Sequence[str], str | None], tuple[list[str], list[Seat]]]
DiceFactory = Callable[[bytes], dice_1.SeededDice]


@dataclass(frozen=True, slots=True)
class Derivation:
    version: str
    kind: DerivationKind
    tables: Mapping[str, tuple[str, ...]]
    """The ordered tables the algorithm reads, by name (what the registry test pins)."""


@dataclass(frozen=True, slots=True)
class DealDerivation(Derivation):
    deal: DealFunction
    """(seed, members in join order, the fixed Sheriff or None) → (members by seat, seats)."""


@dataclass(frozen=True, slots=True)
class DiceDerivation(Derivation):
    dice: DiceFactory
    """seed → the face stream (``roll(count)``; ``dice-1`` has one die kind, ``base``)."""


def _deal_tables() -> dict[str, tuple[str, ...]]:
    tables = {"characters": deal_1.DEAL_1_CHARACTERS}
    tables.update({f"roles-{n}": table for n, table in deal_1.DEAL_1_ROLES.items()})
    return tables


DERIVATIONS: Mapping[str, Derivation] = MappingProxyType(
    {
        DEAL_1: DealDerivation(DEAL_1, DerivationKind.DEAL, MappingProxyType(_deal_tables()), deal_1.deal),
        DICE_1: DiceDerivation(
            DICE_1, DerivationKind.DICE, MappingProxyType({"base": dice_1.DICE_1_FACES}), dice_1.SeededDice
        ),
    }
)

CURRENT = Fairness(deal=DEAL_1, dice=DICE_1)
"""The versions a new online game records."""


def deal_derivation(version: str) -> DealDerivation:
    found = DERIVATIONS.get(version)
    if not isinstance(found, DealDerivation):
        raise UnknownDerivation(DerivationKind.DEAL, version)
    return found


def dice_derivation(version: str) -> DiceDerivation:
    found = DERIVATIONS.get(version)
    if not isinstance(found, DiceDerivation):
        raise UnknownDerivation(DerivationKind.DICE, version)
    return found


def check_fairness(fairness: Fairness) -> None:
    """Raise ``UnknownDerivation`` unless this server has every version ``fairness`` names."""
    deal_derivation(fairness.deal)
    dice_derivation(fairness.dice)
