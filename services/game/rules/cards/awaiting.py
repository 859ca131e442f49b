"""Who must decide what: the one open question of a card game at rest.

The engine awaits one player at a time (or ``TABLE`` for a random input); ``legal.py`` lists
that player's options.
"""

from __future__ import annotations

import msgspec

from services.game.rules.cards.vocabulary import CardId, Decision, PlayerId

_WHAT: dict[Decision, str] = {
    Decision.SHUFFLE: "shuffle a new deck",
    Decision.RANDOM_CARD: "take a card at random from a hand",
    Decision.TOP_CARD: "name the deck's next card",
    Decision.DRAW_SOURCE: "choose where the first card comes from",
    Decision.KIT_RETURN: "put one of the three cards back",
    Decision.DRAW_RESULT: "choose the draw!'s result",
    Decision.PLAY: "play a card or end the turn's play",
    Decision.DISCARD: "discard down to the hand limit",
    Decision.RESPOND_SHOT: "answer a BANG!",
    Decision.RESPOND_INDIANS: "answer the Indians!",
    Decision.RESPOND_DUEL: "answer the Duel",
    Decision.DYING: "be saved or die",
    Decision.STORE_PICK: "take a card from the General Store",
    Decision.DISCARD_ORDER: "order his cards on the discard pile",
}


class Awaiting(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    player: PlayerId
    decision: Decision
    from_player: PlayerId | None = None
    """RANDOM_CARD: whose hand; TOP_CARD: who will see the card (None: everybody)."""
    cards: tuple[CardId, ...] = ()
    """SHUFFLE: the cards to shuffle (public: the discard pile); DRAW_RESULT: the flipped cards."""
    count: int = 0
    """DISCARD: how many cards; RESPOND_SHOT: Missed! effects still needed; DYING: life points
    needed to live (1 − life)."""

    def describe(self) -> str:
        return f"{self.player} to {_WHAT[self.decision]}"
