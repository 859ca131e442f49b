"""One readable line per card-game event, for ``rules run --trace`` and scenario expectations.

Stable (scenarios match them exactly), short, cards by their text (``bang:AS``, ``missed:2S``):
``p1 plays bang:AS at p3``, ``p3 responds missed:2S``, ``p3 lost 1 life (from p1)``. The lines
name every card an event names: a trace is a referee's view, not a player's (``visibility``).
"""

from __future__ import annotations

from services.game.rules.cards import events as ev
from services.game.rules.cards.deck import card
from services.game.rules.cards.vocabulary import CardId, CheckReason, Phase, Side


def _c(card_id: CardId | None) -> str:
    return "nothing" if card_id is None else card(card_id).text


_PHASE = {
    Phase.START: "turn under way (its start: Dynamite, Jail)",
    Phase.DRAW: "phase 1 under way",
    Phase.PLAY: "phase 2 under way",
    Phase.DISCARD: "phase 3 under way",
}


def card_trace_line(event: ev.Event) -> str:
    match event:
        case ev.GameStarted(seats=seats, eight_players=eight, position=position):
            table = ", ".join(f"{s.player} {s.role} {s.character}" for s in seats)
            extra = "; eight players" if eight else ""
            if position is not None:
                under_way = "to start" if position.phase is None else f"'s {_PHASE[position.phase]}"
                sep = " " if position.phase is None else ""
                extra += f"; from a position: turn {position.turn}, {position.active}{sep}{under_way}"
            if position is not None and position.pool:
                top = len(position.deck)
                extra += "; deck order unknown" + (f" below its top {top} card(s)" if top else "")
            return f"game started: {table}{extra}"
        case ev.DeckShuffled(order=order):
            return f"deck shuffled ({len(order)} cards)" if order else "deck shuffled (order unknown)"
        case ev.TopCardNamed(card=c, seen_by=seen_by):
            return f"next card {_c(c)}" + (f" (seen by {seen_by})" if seen_by else " (face up)")
        case ev.HandsDealt(hands=hands):
            return "hands dealt: " + ", ".join(f"{p} {len(cards)}" for p, cards in hands)
        case ev.CardDrawn(player=p, card=c, reason=reason, from_discard=from_discard, shown=shown):
            where = " from the discard pile" if from_discard else ""
            return f"{p} draws {_c(c)}{where} ({reason}{', shown' if shown else ''})"
        case ev.DrawsOwed(player=p, count=n, reason=reason):
            return f"{p} is owed {n} card{'s' if n != 1 else ''} ({reason})"
        case ev.DrawsForfeited(player=p):
            return f"{p} gets no more cards: deck and discard pile are empty"
        case ev.TurnStarted(player=p, turn=n):
            return f"turn {n}: {p}"
        case ev.PhaseBegan(player=p, phase=phase):
            return f"{p} phase {phase}"
        case ev.DrawSourceChosen(player=p, from_player=other, from_discard=from_discard):
            where = other or ("the discard pile" if from_discard else "the deck")
            return f"{p} draws first from {where}"
        case ev.KitLooked(player=p, card=c):
            return f"{p} looks at {_c(c)}"
        case ev.KitReturned(player=p, card=c):
            return f"{p} puts back {_c(c)}"
        case ev.CardShown(player=p, card=c):
            return f"{p} shows {_c(c)}"
        case ev.CheckBegan(player=p, reason=reason):
            return f"{p} draw! ({reason})"
        case ev.CardFlipped(player=p, card=c):
            return f"{p} flips {_c(c)}"
        case ev.CheckResolved(player=p, reason=CheckReason.DYNAMITE, card=c, success=exploded):
            return f"{p} draw! dynamite: {_c(c)}, {'explodes' if exploded else 'does not explode'}"
        case ev.CheckResolved(player=p, reason=reason, card=c, success=success):
            return f"{p} draw! {reason}: {_c(c)}, {'success' if success else 'failure'}"
        case ev.DynamitePassed(player=p, to=to):
            return f"dynamite passes from {p} to {to}"
        case ev.CardPlayed(player=p, card=c, target=target, target_card=chosen, as_bang=as_bang):
            text = f"{p} plays {_c(c)}{' as BANG!' if as_bang else ''}"
            if target is not None:
                text += f" at {target}"
            if chosen is not None:
                text += f" ({_c(chosen)})"
            return text
        case ev.Responded(player=p, card=c):
            return f"{p} responds {_c(c)}"
        case ev.Passed(player=p, automatic=automatic, timeout=timeout):
            return f"{p} passes" + (" (automatic)" if automatic else "") + (" (timeout)" if timeout else "")
        case ev.SidKetchumHealed(player=p, cards=(a, b)):
            return f"{p} discards {_c(a)} {_c(b)} to heal (Sid Ketchum)"
        case ev.CardDiscarded(player=p, card=c):
            return f"{p} discards {_c(c)}"
        case ev.CardTaken(player=p, from_player=other, card=c, random=random):
            return f"{p} takes {_c(c)} from {other}{' at random' if random else ''}"
        case ev.StoreCardRevealed(card=c):
            return f"general store: {_c(c)}"
        case ev.StoreCardPicked(player=p, card=c):
            return f"{p} picks {_c(c)}"
        case ev.CardResolved(card=c):
            return f"{_c(c) if c is not None else 'dynamite'} resolved"
        case ev.LifeLost(player=p, amount=n, source=source):
            return f"{p} lost {n} life ({'from ' + source if source else 'no source'})"
        case ev.LifeGained(player=p, amount=n):
            return f"{p} gained {n} life"
        case ev.PlayEnded(player=p):
            return f"{p} ends play"
        case ev.PlayerEliminated(player=p, role=role, by=by, cause=cause):
            return f"{p} ({role}) eliminated by {by or cause}"
        case ev.ResolutionEnded():
            return "resolution ended"
        case ev.TurnEnded(player=p):
            return f"{p} ends the turn"
        case ev.GameEnded(winner=side, results=results):
            verb = "win" if side is Side.OUTLAWS else "wins"
            winners = " ".join(r.player for r in results if r.won)
            return f"game over: {side} {verb} ({winners})"
    return type(event).__name__  # an event type added later still gets a line
