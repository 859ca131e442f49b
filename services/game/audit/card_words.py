"""The card game's events in a referee's words (``referee_words`` asks here for them).

An audit may run on a game in progress, so these words name only what any viewer may see: a
card the rules show to some players only (a card drawn, dealt, taken at random from a hand,
Kit Carlson's look, a shuffle's order: ``visibility.audience``) is counted, never named; a role
only where the event reveals it to all (an elimination, the end of the game).
"""

from __future__ import annotations

import msgspec

from services.game.rules.cards import events as ev
from services.game.rules.cards.deck import card as card_of
from services.game.rules.cards.visibility import audience
from services.game.rules.cards.vocabulary import CardId


def _card(card: CardId | None) -> str:
    return "no card" if card is None else card_of(card).text


def card_words(event: msgspec.Struct) -> str | None:
    """One plain sentence (no full stop) saying what a card event records; None for any other
    event."""
    if not isinstance(event, ev.Event):
        return None
    if audience(event) is not None:  # a card some may not see: say what happened, not which
        return _private_words(event)
    match event:
        case ev.GameStarted(seats=seats, position=position):
            start = f"the card game started with {len(seats)} players"
            return start if position is None else f"{start} from a mid-game position"
        case ev.HandsDealt(hands=hands):
            return "the hands were dealt (" + ", ".join(f"{p} {len(c)}" for p, c in hands) + " cards)"
        case ev.CardDrawn(player=p, card=c, from_discard=True):
            return f"{p} took {_card(c)} from the discard pile"
        case ev.CardDrawn(player=p, card=c):
            return f"{p} drew {_card(c)}, shown to all"
        case ev.DrawsOwed(player=p, count=n, reason=reason):
            return f"{p} is to draw {n} card{'s' if n != 1 else ''} ({reason})"
        case ev.DrawsForfeited(player=p):
            return f"{p} draws nothing: the deck and the discard pile are empty"
        case ev.TurnStarted(player=p, turn=n):
            return f"{p} started turn {n}"
        case ev.PhaseBegan(player=p, phase=phase):
            return f"{p}'s {phase} phase began"
        case ev.DrawSourceChosen(player=p, from_player=other) if other is not None:
            return f"{p} chose to draw his first card from {other}'s hand"
        case ev.DrawSourceChosen(player=p, from_discard=True):
            return f"{p} chose to draw his first card from the discard pile"
        case ev.DrawSourceChosen(player=p):
            return f"{p} chose to draw from the deck"
        case ev.CardShown(player=p, card=c):
            return f"{p} showed {_card(c)}"
        case ev.CheckBegan(player=p, reason=reason):
            return f"{p} began a draw! for {reason}"
        case ev.CardFlipped(player=p, card=c):
            return f"{p} flipped {_card(c)}"
        case ev.CheckResolved(player=p, reason=reason, card=c, success=success):
            return f"{p}'s draw! for {reason} on {_card(c)} {'succeeded' if success else 'failed'}"
        case ev.DynamitePassed(player=p, to=to):
            return f"the Dynamite passed from {p} to {to}"
        case ev.CardPlayed(player=p, card=c, target=target, target_card=tc):
            on = "" if target is None else f" on {target}" + ("" if tc is None else f"'s {_card(tc)}")
            return f"{p} played {_card(c)}{on}"
        case ev.Responded(player=p, card=c):
            return f"{p} answered with {_card(c)}"
        case ev.Passed(player=p, automatic=True):
            return f"{p} passed (no other option)"
        case ev.Passed(player=p, timeout=True):
            return f"{p} passed (out of time)"
        case ev.Passed(player=p):
            return f"{p} passed"
        case ev.SidKetchumHealed(player=p, cards=(a, b)):
            return f"{p} discarded {_card(a)} and {_card(b)} to regain 1 life"
        case ev.CardDiscarded(player=p, card=c):
            return f"{p} discarded {_card(c)}"
        case ev.CardTaken(player=p, from_player=other, card=c):
            return f"{p} took {_card(c)} from {other}'s play"
        case ev.StoreCardRevealed(card=c):
            return f"{_card(c)} was turned up for the General Store"
        case ev.StoreCardPicked(player=p, card=c):
            return f"{p} took {_card(c)} from the General Store"
        case ev.CardResolved(card=c):
            return f"{_card(c)} went to the discard pile" if c is not None else "the explosion was resolved"
        case ev.LifeLost(player=p, amount=n, source=source):
            by = "" if source is None else f" to {source}"
            return f"{p} lost {n} life{by}"
        case ev.LifeGained(player=p, amount=n):
            return f"{p} regained {n} life"
        case ev.PlayEnded(player=p):
            return f"{p} ended his play"
        case ev.PlayerEliminated(player=p, role=role, by=by, cause=cause):
            who = "" if by is None else f" by {by}"
            return f"{p} ({role}) was eliminated{who} ({cause})"
        case ev.ResolutionEnded():
            return "the card's resolution ended"
        case ev.TurnEnded(player=p):
            return f"{p}'s turn ended"
        case ev.TopCardNamed(card=c):
            return f"the deck's next card, {_card(c)}, was turned up"
        case ev.GameEnded(winner=side, turn=n):
            return f"the game ended on turn {n}: the {side} won"
    return type(event).__name__


def _private_words(event: ev.Event) -> str:
    match event:
        case ev.DeckShuffled(order=order) if order:
            return f"a deck of {len(order)} cards was shuffled"
        case ev.DeckShuffled():
            return "the deck was shuffled in an order nobody knows"
        case ev.TopCardNamed(seen_by=p):
            return f"the deck's next card was named for {p}"
        case ev.CardDrawn(player=p, reason=reason):
            return f"{p} drew a card ({reason})"
        case ev.KitLooked(player=p):
            return f"{p} looked at the deck's top card"
        case ev.KitReturned(player=p):
            return f"{p} put a card back on the deck"
        case ev.CardTaken(player=p, from_player=other, random=True):
            return f"{p} took a card at random from {other}'s hand"
        case ev.CardTaken(player=p, from_player=other):
            return f"{p} took a card from {other}'s hand"
    return type(event).__name__
