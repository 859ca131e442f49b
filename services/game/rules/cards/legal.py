"""The legal commands of a game at rest, as a lazy collection.

``command in legal_commands(state)`` checks one command without listing any; iterating lists
them. A shuffle's orders are not listed (any permutation of the cards is legal): iterating
yields one, the cards as asked; a bot or a test supplies its own order.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from services.game.rules.cards import commands as cmd
from services.game.rules.cards.awaiting import Awaiting
from services.game.rules.cards.decide import awaiting, respond
from services.game.rules.cards.deck import name_of
from services.game.rules.cards.errors import RuleError
from services.game.rules.cards.state import GameState
from services.game.rules.cards.vocabulary import CardName, CharacterId, Decision


class LegalCommands:
    def __init__(self, state: GameState) -> None:
        self._state = state
        self.question: Awaiting | None = awaiting(state)

    def __contains__(self, command: object) -> bool:
        if self.question is None or not isinstance(command, cmd.Command):
            return False
        try:
            respond(self._state, command, self.question)
        except RuleError:
            return False
        return True

    def __iter__(self) -> Iterator[cmd.Command]:
        if self.question is None:
            return iter(())
        return (c for c in _candidates(self._state, self.question) if c in self)

    def __bool__(self) -> bool:
        return self.question is not None


def legal_commands(state: GameState) -> LegalCommands:
    return LegalCommands(state)


def _candidates(state: GameState, q: Awaiting) -> Iterator[cmd.Command]:
    pid, d = q.player, q.decision
    if d is Decision.SHUFFLE:
        yield cmd.ShuffleDeck(player=pid, order=q.cards)
        return
    if d is Decision.TOP_CARD:
        for c in state.pool:
            yield cmd.NameTopCard(player=pid, card=c)
        return
    if d is Decision.RANDOM_CARD:
        assert q.from_player is not None
        for c in state.player(q.from_player).hand:
            yield cmd.PickRandomCard(player=pid, card=c)
        return
    if d is Decision.DRAW_SOURCE:
        yield cmd.ChooseDrawSource(player=pid)
        yield cmd.ChooseDrawSource(player=pid, from_discard=True)
        for other in state.living():
            yield cmd.ChooseDrawSource(player=pid, from_player=other.id)
        return
    if d is Decision.KIT_RETURN:
        for c in state.kit:
            yield cmd.KitReturn(player=pid, card=c)
        return
    if d is Decision.DRAW_RESULT:
        for c in q.cards:
            yield cmd.ChooseDrawResult(player=pid, card=c)
        return
    if d is Decision.DISCARD_ORDER:
        me = state.player(pid)
        yield cmd.OrderDiscards(player=pid, cards=(*me.in_play, *me.hand))
        yield cmd.OrderDiscards(player=pid, cards=tuple(reversed((*me.in_play, *me.hand))))
        return
    if d is Decision.STORE_PICK:
        for c in state.store:
            yield cmd.PickStoreCard(player=pid, card=c)
        return
    me = state.player(pid)
    if me.character is CharacterId.SID_KETCHUM:
        for a, b in combinations(me.hand, 2):
            yield cmd.UseSidKetchum(player=pid, cards=(a, b))
    if d is Decision.DISCARD:
        for cards in combinations(me.hand, q.count):
            yield cmd.Discard(player=pid, cards=cards)
        return
    if d is Decision.PLAY:
        yield cmd.EndPlay(player=pid)
        for c in me.hand:
            yield cmd.PlayCard(player=pid, card=c)
            for t in state.living():
                yield cmd.PlayCard(player=pid, card=c, target=t.id)
                if name_of(c) in (CardName.PANIC, CardName.CAT_BALOU):
                    for x in t.in_play:
                        yield cmd.PlayCard(player=pid, card=c, target=t.id, target_card=x)
        return
    # response windows and the dying window
    yield cmd.Pass(player=pid)
    for c in me.hand:
        yield cmd.Respond(player=pid, card=c)
    if d is Decision.RESPOND_SHOT:
        yield cmd.UseBarrel(player=pid)
        for c in me.in_play:
            yield cmd.UseBarrel(player=pid, card=c)
