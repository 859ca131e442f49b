"""What is played for an awaited player whose time is up online, decision by decision.

The default is always legal and never uses hidden information in a way a player could not
have chosen: a window's ``Pass`` (recorded with ``timeout``), the end of phase 2, the deck in
phase 1, and in phase 3 the most recently taken cards. ``TABLE``'s random inputs never time
out (the server answers them at once), so they have no default.
"""

from __future__ import annotations

from services.game.rules.cards import commands as cmd
from services.game.rules.cards.decide import awaiting
from services.game.rules.cards.state import GameState
from services.game.rules.cards.vocabulary import TABLE, Decision

OPTIONAL: frozenset[Decision] = frozenset(
    {
        Decision.PLAY,
        Decision.RESPOND_SHOT,
        Decision.RESPOND_INDIANS,
        Decision.RESPOND_DUEL,
        Decision.DYING,
        Decision.DRAW_SOURCE,
    }
)
"""Decisions a player may decline (pass, end play, take from the deck)."""


def timeout_command(state: GameState) -> cmd.Command | None:
    q = awaiting(state)
    if q is None or q.player == TABLE:
        return None
    me = state.player(q.player)
    d = q.decision
    if d in (Decision.RESPOND_SHOT, Decision.RESPOND_INDIANS, Decision.RESPOND_DUEL, Decision.DYING):
        return cmd.Pass(player=me.id, timeout=True)
    if d is Decision.PLAY:
        return cmd.EndPlay(player=me.id)
    if d is Decision.DISCARD:
        return cmd.Discard(player=me.id, cards=tuple(me.hand[-q.count :]))
    if d is Decision.DRAW_SOURCE:
        return cmd.ChooseDrawSource(player=me.id)
    if d is Decision.KIT_RETURN:
        return cmd.KitReturn(player=me.id, card=state.kit[-1])
    if d is Decision.DRAW_RESULT:
        return cmd.ChooseDrawResult(player=me.id, card=q.cards[0])
    if d is Decision.STORE_PICK:
        return cmd.PickStoreCard(player=me.id, card=state.store[0])
    if d is Decision.DISCARD_ORDER:
        return cmd.OrderDiscards(player=me.id, cards=(*me.in_play, *me.hand))
    raise AssertionError(f"no timeout default for {d}")
