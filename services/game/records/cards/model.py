"""``CardRecord``: one game of BANG! (the card game) as data — its setup and every input in order.

As for the dice game, the record holds the engine's own values (``Seat``, ``Position``, the
commands) plus what a club or an audit adds (options, metadata); ``reader`` and ``writer`` know
the JSON and the commands' text form.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Final

import msgspec

from services.game.records.model import RecordMeta
from services.game.rules.cards import GameCommand, Seat
from services.game.rules.cards.events import Position
from services.game.rules.cards.vocabulary import CardId
from services.game.rules.ruleset import CARDS_DATA, CardOption, GameType, Ruleset, ruleset_of

CARDS_FORMAT: Final = "bang-cards-record"
"""A card game's ``format``: a sibling of ``bang-dice-record``, so a reader that knows only one
of them refuses the other by its first field instead of misreading it."""
CARDS_VERSION: Final = 1
GAME_TYPE: Final = "cards"
"""The ``game_type`` a card record carries (the ruleset's game type)."""

CARD_DATA: Mapping[str, str] = CARDS_DATA
"""The data tables of the base card game and their versions (``ruleset.CARDS_DATA``): the 16
characters and the 80 cards of ``card-deck.md`` (ids 1..80 in its row order)."""
EIGHT_PLAYERS: Final = "eight_players"
"""The ruleset's one recorded option (``ruleset.CardOption``): 8 players with two Renegades."""


class DeckSource(StrEnum):
    """Where the shuffles and random picks came from. Either way they are data in the record."""

    TABLE = "table"  # real cards at a club's table, entered by a scorekeeper
    SEEDED = "seeded"  # the server's seeded generator


class CardOptions(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    deck: DeckSource = DeckSource.TABLE
    seed_commitment: str | None = None
    """SHA-256 of the seed in hex, published before a seeded game."""
    seed: str | None = None
    """The seed in hex, revealed when the game ends."""
    fairness: dict[str, str] | None = None
    """A seeded game's derivation versions (kind → version), to re-derive its shuffles with."""


class CardRecord(msgspec.Struct, frozen=True, kw_only=True):
    seats: tuple[Seat, ...]
    """Clockwise from the first seat."""
    eight_players: bool = False
    """The recorded 8-player option (two Renegades, Dodge City's role set, the base deck)."""
    deck: tuple[CardId, ...] | None = None
    """The first shuffle, top card first (all 80 cards); ``()``: a table game's deck shuffled in
    an order nobody knows; None: the record starts from ``position``."""
    position: Position | None = None
    inputs: tuple[GameCommand, ...] = ()
    """Every input after the first shuffle, TABLE's included, in the order played."""
    options: CardOptions = CardOptions()
    meta: RecordMeta = RecordMeta()
    data: dict[str, str] = msgspec.field(default_factory=lambda: dict(CARD_DATA))
    """Data table → version (``CARD_DATA``)."""

    @property
    def ruleset(self) -> Ruleset:
        """The game's ruleset as the service records it (``cards``, ``cards eight_players``)."""
        played = ruleset_of([CardOption.EIGHT_PLAYERS] if self.eight_players else [], GameType.CARDS)
        return msgspec.structs.replace(played, data=dict(self.data))
