"""Commands: what a player (or the table, for random inputs) asks the engine to do.

Each command has a compact text form for logs, errors and records: ``p1 play 12 p3``,
``p2 respond 30``, ``p2 pass``, ``table shuffle 5 17 ...``. Cards are named by id (``deck.DECK``).
"""

from __future__ import annotations

import msgspec

from services.game.rules.cards.errors import MalformedCommand
from services.game.rules.cards.vocabulary import CardId, PlayerId


class Command(msgspec.Struct, frozen=True, tag_field="type", tag=True, kw_only=True):
    player: PlayerId

    def __str__(self) -> str:
        return self.text()

    def text(self) -> str:
        raise TypeError(f"{type(self).__name__} has no text form")

    @staticmethod
    def parse(text: str) -> GameCommand:
        return parse_command(text)


class ShuffleDeck(Command, frozen=True, kw_only=True):
    """TABLE: the new deck's order, top card first (a permutation of the cards to shuffle); empty:
    the order is not known (a table game), each card will be named as it is taken."""

    order: tuple[CardId, ...]

    def text(self) -> str:
        return f"{self.player} shuffle {' '.join(map(str, self.order)) or 'unknown'}"


class NameTopCard(Command, frozen=True, kw_only=True):
    """TABLE: the next card of a deck shuffled in an unknown order, as it is taken."""

    card: CardId

    def text(self) -> str:
        return f"{self.player} top {self.card}"


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


class Pass(Command, frozen=True, kw_only=True, omit_defaults=True):
    """No (further) response; ``timeout``: played for the player when his time ran out."""

    timeout: bool = False

    def text(self) -> str:
        return f"{self.player} pass{' timeout' if self.timeout else ''}"


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
    | NameTopCard
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


def _card(word: str) -> CardId:
    if not word.isdigit() or not 1 <= int(word) <= 80:
        raise MalformedCommand(f"{word!r} is not a card id (1..80)")
    return CardId(int(word))


def parse_command(text: str) -> GameCommand:
    """Read a command's text form back (``str(command)``)."""
    words = text.split()
    if len(words) < 2:
        raise MalformedCommand(f"{text!r}: expected '<player> <verb> ...'")
    who, verb, args = PlayerId(words[0]), words[1], words[2:]
    try:
        if verb == "shuffle":
            if args == ["unknown"]:
                return ShuffleDeck(player=who, order=())
            return ShuffleDeck(player=who, order=tuple(_card(a) for a in args))
        if verb == "top" and len(args) == 1:
            return NameTopCard(player=who, card=_card(args[0]))
        if verb == "random" and len(args) == 1:
            return PickRandomCard(player=who, card=_card(args[0]))
        if verb == "draw-from" and len(args) == 1:
            if args[0] == "deck":
                return ChooseDrawSource(player=who)
            if args[0] == "discard":
                return ChooseDrawSource(player=who, from_discard=True)
            return ChooseDrawSource(player=who, from_player=PlayerId(args[0]))
        if verb == "kit-return" and len(args) == 1:
            return KitReturn(player=who, card=_card(args[0]))
        if verb == "draw-result" and len(args) == 1:
            return ChooseDrawResult(player=who, card=_card(args[0]))
        if verb == "play" and 1 <= len(args) <= 3:
            target = PlayerId(args[1]) if len(args) > 1 else None
            if target is not None and target.isdigit():
                raise MalformedCommand(f"{text!r}: the target comes before the card in play")
            chosen = _card(args[2]) if len(args) > 2 else None
            return PlayCard(player=who, card=_card(args[0]), target=target, target_card=chosen)
        if verb == "end" and not args:
            return EndPlay(player=who)
        if verb == "discard":
            return Discard(player=who, cards=tuple(_card(a) for a in args))
        if verb == "respond" and len(args) == 1:
            return Respond(player=who, card=_card(args[0]))
        if verb == "barrel" and len(args) == 1:
            return UseBarrel(player=who, card=None if args[0] == "jourdonnais" else _card(args[0]))
        if verb == "sid" and len(args) == 2:
            return UseSidKetchum(player=who, cards=(_card(args[0]), _card(args[1])))
        if verb == "pass" and args in ([], ["timeout"]):
            return Pass(player=who, timeout=bool(args))
        if verb == "pick" and len(args) == 1:
            return PickStoreCard(player=who, card=_card(args[0]))
        if verb == "order":
            return OrderDiscards(player=who, cards=tuple(_card(a) for a in args))
    except MalformedCommand as e:
        raise MalformedCommand(f"{text!r}: {e}") from None
    raise MalformedCommand(f"{text!r}: unknown command or wrong number of words")
