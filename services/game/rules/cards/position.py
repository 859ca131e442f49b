"""A position and a state at rest, both ways: ``place`` puts a ``Position`` into a fresh state
(``evolve.initial_state``), ``position_of`` writes the state a game rests in as a ``Position``.

Every stable point (the engine awaits an input) can be written: the turn's beginning as before,
or mid-turn with whatever the engine keeps for it (phase 1's progress, the BANG!s played, a
draw! under way, a card resolving with its responses, dying windows and triggers, the General
Store's cards, Kit Carlson's look, cards still owed). ``place(position_of(s))`` gives ``s``
again (but for ``version``), so a game started there goes on exactly as ``s`` would.
``forget_order`` turns the deck's known order into an unknown one (a table that never knew it).
"""

from __future__ import annotations

import msgspec

from services.game.rules.cards import events as ev
from services.game.rules.cards.deck import name_of
from services.game.rules.cards.state import Check, GameState, Resolution
from services.game.rules.cards.vocabulary import CardId, CardName, CharacterId, Phase, Window

_WINDOWS: dict[CardName, Window] = {
    CardName.BANG: Window.SHOT,
    CardName.MISSED: Window.SHOT,  # Calamity Janet's Missed! played as a BANG!
    CardName.GATLING: Window.SHOT,
    CardName.INDIANS: Window.INDIANS,
    CardName.DUEL: Window.DUEL,
}


def place(state: GameState, position: ev.Position) -> None:
    """Put ``position`` into a state fresh from its seats (full life, no card)."""
    for pp in position.players:
        p = state.player(pp.player)
        p.life, p.hand, p.in_play, p.alive = pp.life, list(pp.hand), list(pp.in_play), pp.alive
        p.eliminated_by, p.eliminated_cause, p.eliminated_turn = (
            pp.eliminated_by,
            pp.eliminated_cause,
            pp.eliminated_turn,
        )
    state.deck, state.pool, state.discard = list(position.deck), list(position.pool), list(position.discard)
    state.shuffled = state.dealt = True
    state.opener = position.active
    if position.phase is None:  # the turn starts: TurnStarted follows
        state.turn = position.turn - 1
        return
    state.active, state.turn, state.phase = position.active, position.turn, position.phase
    state.dynamite_checked, state.jail_checked = position.dynamite_checked, position.jail_checked
    state.skip_turn = position.skip_turn
    state.draw_step, state.draw_from = position.draw_step, position.draw_from
    state.phase_drawn = list(position.drawn)
    state.bangs_played = position.bangs_played
    state.kit, state.store = list(position.kit), list(position.store)
    state.owed = [(o.player, o.count, o.reason) for o in position.owed]
    if position.check is not None:
        c = position.check
        state.check = Check(player=c.player, reason=c.reason, barrel=c.barrel, flips=list(c.flips))
    if position.resolving is not None:
        state.res = resolution(state, position.resolving)


def resolution(state: GameState, r: ev.ResolutionPosition) -> Resolution:
    """The engine's ``Resolution`` for ``r``: what the position leaves implied follows from the
    card and its player (``state``'s players already placed)."""
    name = None if r.card is None else name_of(r.card)
    window = None if name is None else _WINDOWS.get(name)
    source = None if r.player is None else state.player(r.player)
    slab = source is not None and source.character is CharacterId.SLAB_THE_KILLER
    store_size = r.store_size if r.store_size is not None else len(state.living())
    revealed = r.revealed
    if revealed is None:
        revealed = len(state.store) + store_size - len(r.responders) if name is CardName.GENERAL_STORE else 0
    return Resolution(
        source=r.player,
        card=r.card,
        name=name,
        target=r.target,
        target_card=r.target_card,
        window=window,
        responders=list(r.responders),
        need=2 if slab and name in (CardName.BANG, CardName.MISSED) else 1,
        got=r.got,
        barrels_used=list(r.barrels_used),
        jourdonnais_used=r.jourdonnais_used,
        duel=(r.player, r.target) if name is CardName.DUEL and r.player and r.target else None,
        effect_done=r.effect_done,
        store_size=store_size if name is CardName.GENERAL_STORE else 0,
        revealed=revealed,
        resolved=r.resolved,
        lost=dict(r.lost),
        doomed=list(r.doomed),
        triggered=list(r.triggered),
    )


def position_of(state: GameState) -> ev.Position:
    """The position of a game at rest after its deal, mid-turn: ``place`` gives the state back.
    What the turn no longer uses is left out (phase 1's progress after phase 1, the start's
    draw! checks after the start): the engine resets it before it is read again."""
    if not state.dealt or not state.active:
        raise ValueError("a position is written once the cards are dealt and a turn has started")
    if state.is_over:
        raise ValueError("the game is over: a finished game is no position to start from")
    players = tuple(
        ev.PlayerPosition(
            player=p.id,
            life=p.life,
            hand=tuple(p.hand),
            in_play=tuple(p.in_play),
            alive=p.alive,
            eliminated_by=p.eliminated_by,
            eliminated_cause=p.eliminated_cause,
            eliminated_turn=p.eliminated_turn,
        )
        for p in state.players
        if not (p.alive and p.life == p.max_life and not p.hand and not p.in_play)
    )
    check = None
    if state.check is not None:
        c = state.check
        check = ev.CheckPosition(player=c.player, reason=c.reason, barrel=c.barrel, flips=tuple(c.flips))
    res = None
    if state.res is not None:
        r = state.res
        res = ev.ResolutionPosition(
            player=r.source,
            card=r.card,
            target=r.target,
            target_card=r.target_card,
            responders=tuple(r.responders),
            got=r.got,
            barrels_used=tuple(r.barrels_used),
            jourdonnais_used=r.jourdonnais_used,
            effect_done=r.effect_done,
            store_size=r.store_size if r.name is CardName.GENERAL_STORE else None,
            revealed=r.revealed if r.name is CardName.GENERAL_STORE else None,
            resolved=r.resolved,
            lost=tuple(r.lost.items()),
            doomed=tuple(r.doomed),
            triggered=tuple(r.triggered),
        )
    start, draw = state.phase is Phase.START, state.phase is Phase.DRAW
    return ev.Position(
        players=players,
        deck=tuple(state.deck),
        discard=tuple(state.discard),
        active=state.active,
        turn=state.turn,
        pool=tuple(state.pool),
        phase=state.phase,
        dynamite_checked=start and state.dynamite_checked,
        jail_checked=start and state.jail_checked,
        skip_turn=start and state.skip_turn,
        draw_step=state.draw_step if draw else 0,
        draw_from=state.draw_from if draw else None,
        drawn=tuple(state.phase_drawn) if draw else (),
        bangs_played=state.bangs_played,
        kit=tuple(state.kit),
        store=tuple(state.store),
        owed=tuple(ev.OwedPosition(player=p, count=n, reason=why) for p, n, why in state.owed),
        check=check,
        resolving=res,
    )


def forget_order(position: ev.Position, *, keep: int = 0) -> ev.Position:
    """The same position with the deck's order unknown below its top ``keep`` cards: its
    content stays, the table names each card as it is taken."""
    known = position.deck[:keep]
    unknown = sorted([*position.deck[keep:], *position.pool])
    return msgspec.structs.replace(position, deck=known, pool=tuple(CardId(c) for c in unknown))
