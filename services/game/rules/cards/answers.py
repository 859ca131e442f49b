"""The input that answered a question, read back off the events it left: each decision leaves
an event naming the choice (a shuffle's order in ``DeckShuffled``, a card played in
``CardPlayed``, a pass in ``Passed``). One reader for the engine adapter's ``input_at`` (a
take-back's refold) and the record writer (``records/cards/writer.py``)."""

from __future__ import annotations

from collections.abc import Sequence

from services.game.rules.cards import commands as cmd
from services.game.rules.cards import events as ev
from services.game.rules.cards.awaiting import Awaiting
from services.game.rules.cards.state import GameState
from services.game.rules.cards.vocabulary import TABLE, CardId, CheckReason, Decision


def answer_of(q: Awaiting, events: Sequence[object], n: int, state: GameState) -> cmd.GameCommand | None:
    """The command that answered ``q`` with ``events[n:]`` (their first events), or None when
    they answer nothing ``q`` asks: each decision leaves an event naming the choice."""
    e = events[n]
    who = q.player
    d = q.decision
    if d is Decision.SHUFFLE:
        return cmd.ShuffleDeck(player=TABLE, order=e.order) if isinstance(e, ev.DeckShuffled) else None
    if d is Decision.TOP_CARD:
        return cmd.NameTopCard(player=TABLE, card=e.card) if isinstance(e, ev.TopCardNamed) else None
    if d is Decision.RANDOM_CARD:
        if isinstance(e, ev.CardTaken | ev.CardDiscarded):
            return cmd.PickRandomCard(player=TABLE, card=e.card)
        return None
    if isinstance(e, ev.SidKetchumHealed) and e.player == who:
        return cmd.UseSidKetchum(player=who, cards=e.cards)
    if d is Decision.DRAW_SOURCE and isinstance(e, ev.DrawSourceChosen):
        return cmd.ChooseDrawSource(player=who, from_player=e.from_player, from_discard=e.from_discard)
    if d is Decision.KIT_RETURN and isinstance(e, ev.KitReturned) and e.card is not None:
        return cmd.KitReturn(player=who, card=e.card)
    if d is Decision.DRAW_RESULT and isinstance(e, ev.CheckResolved) and e.card is not None:
        return cmd.ChooseDrawResult(player=who, card=e.card)
    if d is Decision.STORE_PICK and isinstance(e, ev.StoreCardPicked):
        return cmd.PickStoreCard(player=who, card=e.card)
    if d is Decision.DISCARD:
        cards: list[CardId] = []
        for x in events[n:]:
            if not (isinstance(x, ev.CardDiscarded) and x.player == who) or len(cards) == q.count:
                break
            cards.append(x.card)
        return cmd.Discard(player=who, cards=tuple(cards)) if cards else None
    if d is Decision.DISCARD_ORDER:
        # the elimination comes first (his role shown), then his cards go to the pile in his order
        count = state.player(who).card_count
        order = [x.card for x in events[n:] if isinstance(x, ev.CardDiscarded) and x.player == who]
        return cmd.OrderDiscards(player=who, cards=tuple(order[:count])) if order else None
    if d is Decision.PLAY:
        if isinstance(e, ev.PlayEnded):
            return cmd.EndPlay(player=who)
        # a new weapon first discards the old one: the play is the event after it
        played = events[n + 1] if isinstance(e, ev.CardDiscarded) and n + 1 < len(events) else e
        if not isinstance(played, ev.CardPlayed):
            return None
        return cmd.PlayCard(
            player=who, card=played.card, target=played.target, target_card=played.target_card
        )
    if isinstance(e, ev.Responded):
        return cmd.Respond(player=who, card=e.card)
    if isinstance(e, ev.Passed) and not e.automatic:
        return cmd.Pass(player=who, timeout=e.timeout)
    if isinstance(e, ev.CheckBegan) and e.reason in (CheckReason.BARREL, CheckReason.JOURDONNAIS):
        return cmd.UseBarrel(player=who, card=e.barrel)
    return None
