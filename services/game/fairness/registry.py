"""Version name → algorithm, for every derivation from an online game's seed.

A game records the versions it uses (``GameCreated.fairness``); the service derives with them
and the audit re-derives with them, whatever versions new games use by then. Adding a
derivation (``rage-1`` card draws, deck shuffles, …) is a new entry here (and, for a new kind, a
new ``Fairness`` field), never an edit of an existing one.

- ``deal-1`` (``deal``): seats, roles, the 16 base characters. ``deal-2`` (``deal_pool``): the
  same with the character pool of the game's ruleset (OS4). ``deal-3`` (``deal_pool_3``): ``deal-2``
  with UA3's eight characters in its tables, recorded by a game whose ruleset has UA3.
- ``dice-1`` (``dice``): base dice. ``dice-2`` (``dice_kinds``): the same stream, a face table
  per die kind (base, loudmouth, coward, duel).
- ``roles-os3-1`` (``special_roles``): OS3's special role card of each seat.
- ``draws-1`` (``draws``): a card drawn at random among those left (UA2's Rage cards).
- ``shuffles-1`` (``shuffles``): the card game's decks (the first one and every reshuffle) and
  the cards taken at random from hands. A card game deals by ``deal-1`` (the card game's 16
  characters are ``deal-1``'s table, by name, and its role tables are the card game's, 8 players
  with two Renegades) and rolls no dice.
- ``legacy-1`` (``legacy``): UA5, the draws between two games of a legacy series (its own seed).

``fairness_for(ruleset)`` says which versions a new game of that ruleset records; ``deal_seats``
is the whole deal (base roles and characters, then special roles) a game's versions give, for
the service and the audit alike.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType
from typing import Protocol

import msgspec

from services.game.fairness import deal as deal_1
from services.game.fairness import deal_pool as deal_2
from services.game.fairness import deal_pool_3 as deal_3
from services.game.fairness import dice as dice_1
from services.game.fairness import dice_kinds as dice_2
from services.game.fairness import draws as draws_1
from services.game.fairness import legacy as legacy_1
from services.game.fairness import shuffles as shuffles_1
from services.game.fairness import special_roles as roles_os3_1
from services.game.fairness.versions import (
    DEAL_1,
    DEAL_2,
    DEAL_3,
    DICE_1,
    DICE_2,
    DRAWS_1,
    FAIRNESS_V1,
    LEGACY_1,
    ROLES_OS3_1,
    SHUFFLES_1,
    Fairness,
)
from services.game.rules.dice import Face, Seat
from services.game.rules.dice.undead.legacy import LegacyEntry, Question
from services.game.rules.dice.undead.rage import RAGE_DECKS
from services.game.rules.dice.undead.zombies import BONEYARD_DECKS
from services.game.rules.ruleset import BASE_DICE, CARDS_DATA, GameType, ModuleId, Ruleset


class DerivationKind(StrEnum):
    """What a derivation makes (the ``Fairness`` field naming its version). Later: ``draws``
    (cards from a deck, e.g. Rage), ``shuffles`` (a deck's order)."""

    DEAL = "deal"
    DICE = "dice"
    SPECIAL_ROLES = "special_roles"
    DRAWS = "draws"
    LEGACY = "legacy"
    """UA5: a legacy series' draws between games (recorded by the series, not by a game)."""
    SHUFFLES = "shuffles"
    """The card game's decks and random picks from a hand."""


class UnknownDerivation(LookupError):
    """A game names a derivation version this server does not have."""

    def __init__(self, kind: DerivationKind, version: str) -> None:
        self.kind, self.version = kind, version
        known = ", ".join(sorted(v for v, d in DERIVATIONS.items() if d.kind is kind))
        super().__init__(f"unknown {kind.value} derivation {version!r} (known: {known})")


class DealFunction(Protocol):
    def __call__(
        self,
        seed: bytes,
        members: Sequence[str],
        sheriff_member: str | None = None,
        ruleset: Ruleset = BASE_DICE,
    ) -> tuple[list[str], list[Seat]]: ...


class SeedDice(Protocol):
    """A derivation's face stream: a ``DiceSource`` that counts the faces it dealt."""

    faces_dealt: int

    def roll(self, count: int, kinds: Sequence[str] | None = None) -> tuple[Face, ...]: ...


DiceFactory = Callable[[bytes], SeedDice]
SpecialRolesFunction = Callable[[bytes, Sequence[Seat]], list[Seat]]
DrawFunction = Callable[[bytes, str, int, Sequence[str]], str]
LegacyDrawFunction = Callable[[bytes, int, Question], LegacyEntry]


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
    """seed → the face stream (``roll(count, kinds)``; ``dice-1`` has one die kind, ``base``)."""


@dataclass(frozen=True, slots=True)
class SpecialRolesDerivation(Derivation):
    special_roles: SpecialRolesFunction
    """(seed, the dealt seats) → the same seats, each with its special role card."""
    data: tuple[str, str]
    """The ruleset's data table (name, version) these cards are: another version is refused."""


@dataclass(frozen=True, slots=True)
class DrawDerivation(Derivation):
    draw: DrawFunction
    """(seed, deck version, the draw's number from that deck, the cards it is among in the
    deck's order) → the card drawn."""


@dataclass(frozen=True, slots=True)
class ShuffleDerivation(Derivation):
    shuffle: Callable[[bytes, int, Sequence[int]], tuple[int, ...]]
    """(seed, the number of card events before the answer, the cards) → the new deck, top first."""
    pick: Callable[[bytes, int, Sequence[int]], int]
    """(seed, the number of card events before the answer, the hand) → the card taken."""


@dataclass(frozen=True, slots=True)
class LegacyDerivation(Derivation):
    draw: LegacyDrawFunction
    """(series seed, the number of the game it sets up, the plan's question) → the entry drawn."""


def _deal_tables() -> dict[str, tuple[str, ...]]:
    tables = {"characters": deal_1.DEAL_1_CHARACTERS}
    tables.update({f"roles-{n}": table for n, table in deal_1.DEAL_1_ROLES.items()})
    return tables


def _deal_2_tables() -> dict[str, tuple[str, ...]]:
    tables = {f"{name} {version}": table for (name, version), table in deal_2.DEAL_2_CHARACTERS.items()}
    tables["table-order"] = deal_2.DEAL_2_TABLE_ORDER
    tables["pool-needs"] = tuple(f"{c} {m}" for c, m in deal_2.DEAL_2_NEEDS.items())
    tables.update({f"roles-{n}": table for n, table in deal_2.DEAL_2_ROLES.items()})
    return tables


def _deal_3_tables() -> dict[str, tuple[str, ...]]:
    tables = {f"{name} {version}": table for (name, version), table in deal_3.DEAL_3_CHARACTERS.items()}
    tables["table-order"] = deal_3.DEAL_3_TABLE_ORDER
    tables["pool-needs"] = tuple(f"{c} {m}" for c, m in deal_3.DEAL_3_NEEDS.items())
    tables.update({f"roles-{n}": table for n, table in deal_3.DEAL_3_ROLES.items()})
    return tables


def _draws_1_tables() -> dict[str, tuple[str, ...]]:
    """The decks ``draws-1`` draws from, each card as ``<id> <symbols>`` in deck order (the
    order a draw's candidates are listed in)."""
    tables = {
        deck: tuple(f"{card} {' '.join(symbols)}" for card, symbols in cards)
        for deck, cards in RAGE_DECKS.items()
    }
    # UA4's Boneyard: each card as ``<id> <hands shown>``
    for deck, hands in BONEYARD_DECKS.items():
        tables[deck] = tuple(f"{card} {n}" for card, n in hands)
    return tables


def _roles_os3_1_tables() -> dict[str, tuple[str, ...]]:
    return {"order": roles_os3_1.ROLES_OS3_1_ORDER, **roles_os3_1.ROLES_OS3_1_CARDS}


def _deal_1(
    seed: bytes, members: Sequence[str], sheriff_member: str | None = None, ruleset: Ruleset = BASE_DICE
) -> tuple[list[str], list[Seat]]:
    """``deal-1``, for a ruleset whose characters are the base game's only: the base dice game,
    or the card game (whose 16 characters bear the same names)."""
    if ruleset.game_type is GameType.CARDS:
        if ruleset.data.get("characters") != CARDS_DATA["characters"]:
            raise ValueError(f"{DEAL_1} deals the card game's characters {CARDS_DATA['characters']} only")
        return deal_1.deal(seed, members, sheriff_member)
    pool = deal_2.character_pool(ruleset)
    if pool != list(deal_1.DEAL_1_CHARACTERS):
        raise ValueError(f"{DEAL_1} deals the 16 base characters only, not the pool of {ruleset.text}")
    return deal_1.deal(seed, members, sheriff_member)


DERIVATIONS: Mapping[str, Derivation] = MappingProxyType(
    {
        DEAL_1: DealDerivation(DEAL_1, DerivationKind.DEAL, MappingProxyType(_deal_tables()), _deal_1),
        DICE_1: DiceDerivation(
            DICE_1, DerivationKind.DICE, MappingProxyType({"base": dice_1.DICE_1_FACES}), dice_1.SeededDice
        ),
        DEAL_2: DealDerivation(DEAL_2, DerivationKind.DEAL, MappingProxyType(_deal_2_tables()), deal_2.deal),
        DEAL_3: DealDerivation(DEAL_3, DerivationKind.DEAL, MappingProxyType(_deal_3_tables()), deal_3.deal),
        DICE_2: DiceDerivation(
            DICE_2, DerivationKind.DICE, MappingProxyType(dict(dice_2.DICE_2_FACES)), dice_2.KindedDice
        ),
        ROLES_OS3_1: SpecialRolesDerivation(
            ROLES_OS3_1,
            DerivationKind.SPECIAL_ROLES,
            MappingProxyType(_roles_os3_1_tables()),
            roles_os3_1.deal_special_roles,
            (roles_os3_1.DATA_TABLE, roles_os3_1.DATA_VERSION),
        ),
        DRAWS_1: DrawDerivation(
            DRAWS_1, DerivationKind.DRAWS, MappingProxyType(_draws_1_tables()), draws_1.draw
        ),
        SHUFFLES_1: ShuffleDerivation(
            SHUFFLES_1,
            DerivationKind.SHUFFLES,
            MappingProxyType({"kinds": ("deck", "pick")}),
            shuffles_1.shuffle,
            shuffles_1.pick,
        ),
        LEGACY_1: LegacyDerivation(
            LEGACY_1,
            DerivationKind.LEGACY,
            MappingProxyType({"asks": legacy_1.LEGACY_1_ASKS}),
            legacy_1.draw,
        ),
    }
)


def fairness_for(ruleset: Ruleset) -> Fairness:
    """The versions a new online game of ``ruleset`` records.

    The base game keeps ``deal-1 dice-1``: its games record, deal and roll exactly as before
    (``test_base_game_fingerprint``, ``tests/fixtures/online_game_v1.json``). A game with any
    module records ``deal-2`` (the ruleset's character pool; ``deal-3`` when it has UA3) and
    ``dice-2`` (a face table per die kind), with OS3 ``roles-os3-1`` and with UA2 or UA4
    ``draws-1``. The card game records ``deal-1`` and ``shuffles-1`` (and the unused default
    ``dice-1``)."""
    if ruleset.game_type is GameType.CARDS:
        return Fairness(deal=DEAL_1, shuffles=SHUFFLES_1)
    if ruleset.is_base:
        return FAIRNESS_V1
    fairness = Fairness(deal=DEAL_3 if ruleset.has(ModuleId.UA3) else DEAL_2, dice=DICE_2)
    if ruleset.has(ModuleId.OS3):
        fairness = msgspec.structs.replace(fairness, special_roles=ROLES_OS3_1)
    if ruleset.has(ModuleId.UA2) or ruleset.has(ModuleId.UA4):  # Rage cards, Boneyard reveals
        fairness = msgspec.structs.replace(fairness, draws=DRAWS_1)
    return fairness


CURRENT = fairness_for(BASE_DICE)
"""The versions a new base game records (``fairness_for`` for any ruleset)."""


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


def special_roles_derivation(version: str) -> SpecialRolesDerivation:
    found = DERIVATIONS.get(version)
    if not isinstance(found, SpecialRolesDerivation):
        raise UnknownDerivation(DerivationKind.SPECIAL_ROLES, version)
    return found


def draw_derivation(version: str) -> DrawDerivation:
    found = DERIVATIONS.get(version)
    if not isinstance(found, DrawDerivation):
        raise UnknownDerivation(DerivationKind.DRAWS, version)
    return found


def shuffle_derivation(version: str) -> ShuffleDerivation:
    found = DERIVATIONS.get(version)
    if not isinstance(found, ShuffleDerivation):
        raise UnknownDerivation(DerivationKind.SHUFFLES, version)
    return found


def legacy_derivation(version: str) -> LegacyDerivation:
    found = DERIVATIONS.get(version)
    if not isinstance(found, LegacyDerivation):
        raise UnknownDerivation(DerivationKind.LEGACY, version)
    return found


CURRENT_LEGACY = LEGACY_1
"""The version a new legacy series records."""


def check_fairness(fairness: Fairness) -> None:
    """Raise ``UnknownDerivation`` unless this server has every version ``fairness`` names."""
    deal_derivation(fairness.deal)
    dice_derivation(fairness.dice)
    if fairness.draws_version is not None:
        draw_derivation(fairness.draws_version)
    if fairness.special_roles_version is not None:
        special_roles_derivation(fairness.special_roles_version)
    if fairness.shuffles_version is not None:
        shuffle_derivation(fairness.shuffles_version)


def deal_seats(
    fairness: Fairness,
    seed: bytes,
    members: Sequence[str],
    sheriff_member: str | None = None,
    ruleset: Ruleset = BASE_DICE,
) -> tuple[list[str], list[Seat]]:
    """The whole deal of an online game by the versions it recorded: (members by seat, seats),
    each seat with its special role card when the ruleset has OS3. ``UnknownDerivation`` for a
    version this server lacks; ``ValueError`` (saying why) when the versions cannot deal this
    game."""
    seated, seats = deal_derivation(fairness.deal).deal(seed, members, sheriff_member, ruleset)
    return seated, with_special_roles(fairness, seed, seats, ruleset)


def with_special_roles(
    fairness: Fairness, seed: bytes, seats: Sequence[Seat], ruleset: Ruleset
) -> list[Seat]:
    """The dealt ``seats``, each with its special role card when the ruleset has OS3 (by the
    game's ``special_roles`` version); unchanged without OS3."""
    version = fairness.special_roles_version
    if not ruleset.has(ModuleId.OS3):
        if version is not None:
            raise ValueError(f"the game records the special-role deal {version}, but {ruleset} has no OS3")
        return list(seats)
    if version is None:
        raise ValueError(f"{ruleset.text} has special roles (OS3), but the game records no special-role deal")
    derivation = special_roles_derivation(version)
    table, wanted = derivation.data
    if ruleset.data.get(table) != wanted:
        raise ValueError(f"{version} deals the {table} cards {wanted}, not {ruleset.data.get(table)}")
    return derivation.special_roles(seed, seats)
