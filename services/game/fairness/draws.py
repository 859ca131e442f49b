"""``draws-1``: cards drawn at random from a deck (UA2's Rage cards), from the game's seed.

A draw is one card among the cards there to be drawn at that moment, which the engine lists
in the deck's own order (``RandomNeed.cards``: for Rage, the draw pile, or every discard when
the pile is empty, as in ``rage-1``'s table order r01 … r18). Drawing uniformly among the cards
left is the same as dealing from a shuffled deck, and needs no deck order to be kept. Exactly,
for the ``n``-th draw from deck ``D`` in the game (``n`` = 0, 1, …, counted per deck):

1. Byte stream ``streams.ByteStream(seed, label)`` with
   ``label = b"draws-1:" + D.encode() + b":" + n.to_bytes(8, "big")``: for counter = 0, 1, …
   the block ``HMAC-SHA256(key=seed, msg=label + counter.to_bytes(8, "big"))``, blocks in order.
   Each draw reads its own stream, so a draw depends on the seed, the deck, its number and the
   cards it is among, never on how many bytes earlier draws used.
2. ``i = below(len(cards))`` (``streams``: 4 bytes big-endian ``x``, rejected while
   ``x >= (2**32 // k) * k``, else ``x % k``); the card drawn is ``cards[i]``.

The deck's name is the data version the ruleset records (``rage-deck: rage-1``), so a club's
own deck version draws from its own streams.
"""

from __future__ import annotations

from collections.abc import Sequence

from services.game.fairness.streams import ByteStream
from services.game.fairness.versions import DRAWS_1

DRAWS_LABEL = DRAWS_1.encode() + b":"


def draw_label(deck: str, number: int) -> bytes:
    """The stream label of the ``number``-th draw (from 0) from ``deck``."""
    if number < 0:
        raise ValueError(f"draw number {number} is negative")
    return DRAWS_LABEL + deck.encode() + b":" + number.to_bytes(8, "big")


def draw(seed: bytes, deck: str, number: int, cards: Sequence[str]) -> str:
    """The card drawn by ``draws-1``: the ``number``-th draw from ``deck``, among ``cards``."""
    if not cards:
        raise ValueError(f"{DRAWS_1}: draw {number} from {deck} has no card to draw")
    return cards[ByteStream(seed, draw_label(deck, number)).below(len(cards))]
