"""Dice by kind: a die has a kind, shows one of its kind's faces, and a face is a multiset of
symbols.

The rules count and use *symbols*, not dice (RULINGS-expansions §0): a base face is one symbol
(``shoot1`` is one ``shoot1``), an expansion's double face is two (``shoot1x2`` is two
``shoot1``, each aimed and used on its own). The base game has one kind, ``base``; the
Loudmouth, Coward and Duel dice are kinds their modules declare (``modules.RulesModule``).

Events keep naming faces (``DiceRolled.faces``): a face's symbols are a property of its kind's
table, read here, so the recorded form of the base game is untouched.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TypeAlias

from services.game.rules.dice.vocabulary import (
    ARROW,
    BEER,
    BROKEN_ARROW,
    BULLET,
    DYNAMITE,
    GATLING,
    SHOOT1,
    SHOOT2,
    Face,
)

Symbol: TypeAlias = Face
"""One symbol of a face. Every symbol is also the name of the single face that shows only it;
double faces (``shoot1x2``) are faces but never symbols."""

Symbols: TypeAlias = tuple[Symbol, ...]
"""A face's symbols as a multiset (sorted tuple; a double face repeats its symbol)."""


@dataclass(frozen=True, slots=True)
class DieKind:
    name: str
    """``base``; later ``loudmouth``, ``coward``, ``duel``."""
    faces: tuple[Face, ...]
    """The six faces, in the kind's table order (a face may repeat: the Duel die shows ``duel``
    twice); fairness derivations have their own pinned tables."""
    symbols: Mapping[Face, Symbols]
    """Face → its symbols."""

    @property
    def single_symbol(self) -> bool:
        """Every face is one symbol: counting faces is counting symbols."""
        return all(len(s) == 1 for s in self.symbols.values())

    def symbols_of(self, face: Face) -> Symbols:
        return self.symbols[face]


def die_kind(name: str, faces: tuple[Face, ...], doubles: Mapping[Face, Symbols] | None = None) -> DieKind:
    """A kind whose faces are their own single symbol, except the ``doubles`` given."""
    table: dict[Face, Symbols] = {f: (f,) for f in faces}
    table.update(doubles or {})
    return DieKind(name, faces, MappingProxyType(table))


BASE = die_kind("base", (ARROW, DYNAMITE, SHOOT1, SHOOT2, BEER, GATLING))

LOUDMOUTH = die_kind(
    "loudmouth",
    (ARROW, DYNAMITE, BULLET, Face.SHOOT1X2, Face.SHOOT2X2, Face.GATLINGX2),
    {Face.SHOOT1X2: (SHOOT1, SHOOT1), Face.SHOOT2X2: (SHOOT2, SHOOT2), Face.GATLINGX2: (GATLING, GATLING)},
)
"""OS1's Loudmouth die (RULINGS-expansions §1)."""
COWARD = die_kind(
    "coward",
    (ARROW, DYNAMITE, SHOOT1, BEER, Face.BEERX2, BROKEN_ARROW),
    {Face.BEERX2: (BEER, BEER)},
)
"""OS1's Coward die (RULINGS-expansions §1)."""

BASE_HAND: tuple[DieKind, ...] = (BASE,) * 5
"""The dice of a base-game turn: five base dice."""
ZOMBIE_HAND: tuple[DieKind, ...] = (BASE,) * 3
"""UA4: a plain zombie's turn, three base dice whatever the modules (RULINGS-expansions §1)."""

BASE_KINDS: Mapping[str, DieKind] = MappingProxyType({BASE.name: BASE})


def count_symbols(kinds: tuple[DieKind, ...], dice: list[Face | None], symbol: Symbol) -> int:
    """How many ``symbol`` the dice show, doubles counting two."""
    return sum(kinds[i].symbols[f].count(symbol) for i, f in enumerate(dice) if f is not None)
