"""The 80 cards of BANG! (4th edition base set) as data: name, suit and rank of each copy.

The table is ``shared/rules/card-deck.md``; ids 1..80 follow its rows. Ranks run 2..14 (J=11,
Q=12, K=13, A=14). A card's text form is ``name:rank+suit`` (``bang:AS``, ``missed:10C``).
"""

from __future__ import annotations

from dataclasses import dataclass

from services.game.rules.cards.vocabulary import CardId, CardName, Suit

RANK_TEXT = {11: "J", 12: "Q", 13: "K", 14: "A"}
TEXT_RANK = {v: k for k, v in RANK_TEXT.items()} | {str(n): n for n in range(2, 11)}


@dataclass(frozen=True, slots=True)
class Card:
    id: CardId
    name: CardName
    suit: Suit
    rank: int

    @property
    def text(self) -> str:
        return f"{self.name}:{RANK_TEXT.get(self.rank, str(self.rank))}{self.suit}"

    @property
    def is_blue(self) -> bool:
        return self.name in BLUE

    @property
    def is_weapon(self) -> bool:
        return self.name in WEAPON_RANGE


_COPIES: tuple[tuple[CardName, str], ...] = (
    (CardName.BANG, "AS AD 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD 2C 3C 4C 5C 6C 7C 8C 9C QH KH AH"),
    (CardName.MISSED, "2S 3S 4S 5S 6S 7S 8S 10C JC QC KC AC"),
    (CardName.BEER, "6H 7H 8H 9H 10H JH"),
    (CardName.SALOON, "5H"),
    (CardName.STAGECOACH, "9S 9S"),
    (CardName.WELLS_FARGO, "3H"),
    (CardName.GENERAL_STORE, "9C QS"),
    (CardName.PANIC, "JH QH AH 8D"),
    (CardName.CAT_BALOU, "KH 9D 10D JD"),
    (CardName.GATLING, "10H"),
    (CardName.INDIANS, "KD AD"),
    (CardName.DUEL, "QD JS 8C"),
    (CardName.BARREL, "QS KS"),
    (CardName.SCOPE, "AS"),
    (CardName.MUSTANG, "8H 9H"),
    (CardName.JAIL, "JS 10S 4H"),
    (CardName.DYNAMITE, "2H"),
    (CardName.VOLCANIC, "10S 10C"),
    (CardName.SCHOFIELD, "JC QC KS"),
    (CardName.REMINGTON, "KC"),
    (CardName.REV_CARABINE, "AC"),
    (CardName.WINCHESTER, "8S"),
)

WEAPON_RANGE: dict[CardName, int] = {
    CardName.VOLCANIC: 1,
    CardName.SCHOFIELD: 2,
    CardName.REMINGTON: 3,
    CardName.REV_CARABINE: 4,
    CardName.WINCHESTER: 5,
}
BLUE: frozenset[CardName] = frozenset(
    {CardName.BARREL, CardName.SCOPE, CardName.MUSTANG, CardName.JAIL, CardName.DYNAMITE, *WEAPON_RANGE}
)
COLT_RANGE = 1
"""The range of a player with no weapon in play (the Colt .45 printed on his board)."""


def _build() -> tuple[Card, ...]:
    cards: list[Card] = []
    for name, copies in _COPIES:
        for code in copies.split():
            cards.append(Card(CardId(len(cards) + 1), name, Suit(code[-1]), TEXT_RANK[code[:-1]]))
    return tuple(cards)


DECK: tuple[Card, ...] = _build()
CARDS: dict[CardId, Card] = {c.id: c for c in DECK}
ALL_CARDS: tuple[CardId, ...] = tuple(c.id for c in DECK)


def card(card_id: CardId) -> Card:
    return CARDS[card_id]


def name_of(card_id: CardId) -> CardName:
    return CARDS[card_id].name


def explodes(card_id: CardId) -> bool:
    """Dynamite's draw!: 2 to 9 of spades."""
    c = CARDS[card_id]
    return c.suit is Suit.SPADES and 2 <= c.rank <= 9


def is_heart(card_id: CardId) -> bool:
    return CARDS[card_id].suit is Suit.HEARTS


def is_red(card_id: CardId) -> bool:
    return CARDS[card_id].suit in (Suit.HEARTS, Suit.DIAMONDS)
