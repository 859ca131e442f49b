"""The card game's events in a referee's words: every event type has words of its own, and a
card the rules show only to some players is never named (an audit may run on a game in
progress and be read by anybody)."""

from __future__ import annotations

from services.game.audit.card_words import card_words
from services.game.audit.words import referee_words
from services.game.engines import engine_for
from services.game.rules.cards import EVENT_TYPES
from services.game.rules.cards import events as ev
from services.game.rules.cards.deck import card as card_of
from services.game.rules.cards.visibility import audience
from services.game.rules.ruleset import parse_ruleset
from tests.unit.game.test_card_engine import play_out

CARDS = parse_ruleset("cards")


def _cards_named(event: ev.Event) -> list[int]:
    named = [getattr(event, "card", None), *getattr(event, "order", ())]
    if isinstance(event, ev.HandsDealt):
        named += [c for _, hand in event.hands for c in hand]
    return [c for c in named if isinstance(c, int)]


def test_every_card_event_in_random_games_has_words_that_hide_what_is_private() -> None:
    engine = engine_for(CARDS)
    seen: set[str] = set()
    for n in range(6):
        game = play_out(engine, bytes([n]) * 32, 4 + n % 4, n)  # type: ignore[arg-type]
        for event in game.events:  # type: ignore[attr-defined]
            words = referee_words(event)
            assert words == card_words(event)
            assert words != type(event).__name__, f"no words for {type(event).__name__}"
            seen.add(type(event).__name__)
            if audience(event) is not None:
                for c in _cards_named(event):
                    assert card_of(c).text not in words, words
            if isinstance(event, ev.GameStarted):
                assert not any(r in words for r in ("sheriff", "outlaw", "renegade", "deputy"))
    # the rare ones the random games may not reach still have words
    for event in (
        ev.DeckShuffled(order=()),
        ev.TopCardNamed(card=5, seen_by="p1"),
        ev.TopCardNamed(card=5),
        ev.DrawsForfeited(player="p1"),
        ev.KitLooked(player="p1", card=7),
        ev.KitReturned(player="p1", card=7),
        ev.DrawSourceChosen(player="p1", from_discard=True),
    ):
        words = card_words(event)
        assert words is not None and words != type(event).__name__
        seen.add(type(event).__name__)
        if audience(event) is not None:
            assert card_of(getattr(event, "card", 1) or 1).text not in words
    assert card_words(ev.KitLooked(player="p1", card=7)) == "p1 looked at the deck's top card"
    assert card_words(ev.TopCardNamed(card=5)) == f"the deck's next card, {card_of(5).text}, was turned up"
    missing = {cls.__name__ for cls in EVENT_TYPES} - seen
    assert not missing, missing
