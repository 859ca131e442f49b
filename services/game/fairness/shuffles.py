"""``shuffles-1``: the card game's random inputs from an online game's seed.

The card engine asks ``TABLE`` for two kinds of random input (``engines/cards.py``'s
``RandomNeed``): the order of a new deck (the first deck of 80 cards, and every reshuffle of the
discard pile) and the card taken at random from a hand (Panic!, Cat Balou, Jesse Jones, El
Gringo). ``shuffles-1`` answers both from the seed, so anyone holding the revealed seed and the
game's events re-derives every one. Exactly:

1. ``k`` is the number of the game's card events recorded before the answer, ``GameStarted``
   being the first (the events of the ``cards.`` stored types, in stream order). Each input
   reads its own byte stream ``streams.ByteStream(seed, label)`` with
   ``label = b"shuffles-1:deck:" + k.to_bytes(8, "big")`` for a deck and
   ``label = b"shuffles-1:pick:" + k.to_bytes(8, "big")`` for a pick: for counter = 0, 1, …
   the block ``HMAC-SHA256(key=seed, msg=label + counter.to_bytes(8, "big"))``, blocks in order.
2. A deck: the cards to shuffle (all 80 card ids at the start, else the discard pile's), sorted
   by id ascending, then a Fisher–Yates shuffle from the end (``streams``: for i from n-1 down
   to 1, swap i with ``below(i + 1)``); the result is the new deck, top card first.
3. A pick: the hand's card ids sorted ascending, ``i = below(len(hand))``; the card taken is
   ``hand[i]``.

``below(k)``: 4 bytes big-endian ``x``, rejected while ``x >= (2**32 // k) * k``, else
``x % k``. Card ids are ``rules/cards/deck.py``'s (``deck-1``: 1..80 in ``card-deck.md`` row
order). The sorting makes an input depend on which cards there are, never on the order the
engine keeps them in (a hand's order is nobody else's business).
"""

from __future__ import annotations

from collections.abc import Sequence

from services.game.fairness.streams import ByteStream
from services.game.fairness.versions import SHUFFLES_1

SHUFFLES_LABEL = SHUFFLES_1.encode() + b":"


def shuffle_label(kind: str, at: int) -> bytes:
    """The stream label of the input (``deck`` or ``pick``) that follows the game's ``at``-th
    card event."""
    if kind not in ("deck", "pick"):
        raise ValueError(f"{SHUFFLES_1} derives decks and picks, not {kind!r}")
    if at < 1:
        raise ValueError(f"an input follows GameStarted at least (event 1), not event {at}")
    return SHUFFLES_LABEL + kind.encode() + b":" + at.to_bytes(8, "big")


def shuffle(seed: bytes, at: int, cards: Sequence[int]) -> tuple[int, ...]:
    """The new deck (top card first) of ``cards``, following the game's ``at``-th card event."""
    if not cards:
        raise ValueError(f"{SHUFFLES_1}: the deck after event {at} has no card to shuffle")
    return tuple(ByteStream(seed, shuffle_label("deck", at)).shuffle(sorted(cards)))


def pick(seed: bytes, at: int, hand: Sequence[int]) -> int:
    """The card taken at random from ``hand``, following the game's ``at``-th card event."""
    if not hand:
        raise ValueError(f"{SHUFFLES_1}: the hand after event {at} has no card to take")
    ordered = sorted(hand)
    return ordered[ByteStream(seed, shuffle_label("pick", at)).below(len(ordered))]
