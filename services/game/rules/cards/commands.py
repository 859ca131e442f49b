"""Commands: what a player (or the table, for random inputs) asks the engine to do.

Each command has a compact text form for logs, errors and records: ``p1 play 12 p3``,
``p2 respond 30``, ``p2 pass``, ``table shuffle 5 17 ...``. Cards are named by id (``deck.DECK``).
"""

from __future__ import annotations

import msgspec

from services.game.rules.cards.vocabulary import CardId, PlayerId


class Command(msgspec.Struct, frozen=True, tag_field="type", tag=True, kw_only=True):
    player: PlayerId

    def __str__(self) -> str:
        return self.text()

    def text(self) -> str:
        raise TypeError(f"{type(self).__name__} has no text form")


class ShuffleDeck(Command, frozen=True, kw_only=True):
    """TABLE: the new deck's order, top card first (a permutation of the cards to shuffle)."""

    order: tuple[CardId, ...]

    def text(self) -> str:
        return f"{self.player} shuffle {' '.join(map(str, self.order))}"


class PickRandomCard(Command, frozen=True, kw_only=True):
    """TABLE: the card taken at random from the awaited hand."""

    card: CardId

    def text(self) -> str:
        return f"{self.player} random {self.card}"


class ChooseDrawSource(Command, frozen=True, kw_only=True):
    """Jesse Jones names a player to take his first card from, Pedro Ramirez the discard pile;
    neither: the deck."""

    from_player: PlayerId | None = None
    from_discard: bool = False

    def text(self) -> str:
        where = self.from_player or ("discard" if self.from_discard else "deck")
        return f"{self.player} draw-from {where}"


class KitReturn(Command, frozen=True, kw_only=True):
    card: CardId

    def text(self) -> str:
        return f"{self.player} kit-return {self.card}"


class ChooseDrawResult(Command, frozen=True, kw_only=True):
    """Lucky Duke: which of his two flipped cards is the draw!'s result."""

    card: CardId

    def text(self) -> str:
        return f"{self.player} draw-result {self.card}"


class PlayCard(Command, frozen=True, kw_only=True):
    """Phase 2. ``target_card``: Panic!/Cat Balou on a card in play (else the hand, at random)."""

    card: CardId
    target: PlayerId | None = None
    target_card: CardId | None = None

    def text(self) -> str:
        extra = "".join(f" {x}" for x in (self.target, self.target_card) if x is not None)
        return f"{self.player} play {self.card}{extra}"


class EndPlay(Command, frozen=True, kw_only=True):
    def text(self) -> str:
        return f"{self.player} end"


class Discard(Command, frozen=True, kw_only=True):
    """Phase 3: exactly the cards above the hand limit."""

    cards: tuple[CardId, ...]

    def text(self) -> str:
        return f"{self.player} discard {' '.join(map(str, self.cards))}"


class Respond(Command, frozen=True, kw_only=True):
    """One response card: Missed! (Calamity: BANG!) to a shot, BANG! (Calamity: Missed!) to
    Indians! or in a Duel, Beer in one's own dying window."""

    card: CardId

    def text(self) -> str:
        return f"{self.player} respond {self.card}"


class UseBarrel(Command, frozen=True, kw_only=True):
    """draw! with a Barrel in play (``card``) or, ``card`` None, Jourdonnais' own ability."""

    card: CardId | None = None

    def text(self) -> str:
        return f"{self.player} barrel {self.card if self.card is not None else 'jourdonnais'}"


class UseSidKetchum(Command, frozen=True, kw_only=True):
    cards: tuple[CardId, CardId]

    def text(self) -> str:
        return f"{self.player} sid {self.cards[0]} {self.cards[1]}"


class Pass(Command, frozen=True, kw_only=True):
    def text(self) -> str:
        return f"{self.player} pass"


class PickStoreCard(Command, frozen=True, kw_only=True):
    card: CardId

    def text(self) -> str:
        return f"{self.player} pick {self.card}"


class OrderDiscards(Command, frozen=True, kw_only=True):
    """An eliminated player's cards in the order they go on the discard pile (the last one is
    the top card Pedro Ramirez may take)."""

    cards: tuple[CardId, ...]

    def text(self) -> str:
        return f"{self.player} order {' '.join(map(str, self.cards))}"


GameCommand = (
    ShuffleDeck
    | PickRandomCard
    | ChooseDrawSource
    | KitReturn
    | ChooseDrawResult
    | PlayCard
    | EndPlay
    | Discard
    | Respond
    | UseBarrel
    | UseSidKetchum
    | Pass
    | PickStoreCard
    | OrderDiscards
)
