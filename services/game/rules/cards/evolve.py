"""evolve(state, event): fold one event into the state, in place. fold(events): the whole game.

Nothing here decides anything: every choice and every random input is already in the event.
"""

from __future__ import annotations

from collections.abc import Iterable

from services.game.rules.cards import events as ev
from services.game.rules.cards.deck import ALL_CARDS, WEAPON_RANGE, name_of
from services.game.rules.cards.position import place
from services.game.rules.cards.setup import starting_life
from services.game.rules.cards.state import Check, GameState, PlayerState, Resolution
from services.game.rules.cards.vocabulary import (
    CardId,
    CardName,
    CharacterId,
    CheckReason,
    DrawReason,
    Phase,
    Window,
)

_SHOT_NAMES = (CardName.BANG, CardName.GATLING)


def initial_state(started: ev.GameStarted) -> GameState:
    players = [
        PlayerState(
            id=s.player,
            seat=i,
            role=s.role,
            character=s.character,
            life=starting_life(s.role, s.character),
            max_life=starting_life(s.role, s.character),
        )
        for i, s in enumerate(started.seats)
    ]
    state = GameState(players=players, eight_players=started.eight_players, version=1)
    if started.position is not None:
        place(state, started.position)
    return state


def fold(events: Iterable[ev.Event]) -> GameState:
    it = iter(events)
    first = next(it)
    assert isinstance(first, ev.GameStarted), "a game's first event is GameStarted"
    state = initial_state(first)
    for event in it:
        evolve(state, event)
    return state


def _remove(state: GameState, owner: PlayerState, card: CardId) -> None:
    if card in owner.hand:
        owner.hand.remove(card)
    else:
        owner.in_play.remove(card)


def _take_top(state: GameState, from_discard: bool) -> CardId:
    return state.discard.pop() if from_discard else state.deck.pop(0)


def _owe(state: GameState, count: int) -> None:
    pid, left, reason = state.owed[0]
    if left - count <= 0:
        state.owed.pop(0)
    else:
        state.owed[0] = (pid, left - count, reason)


def _next_responder(res: Resolution) -> None:
    res.responders.pop(0)
    res.got = 0
    res.barrels_used = []
    res.jourdonnais_used = False


def evolve(state: GameState, event: ev.Event) -> None:
    state.version += 1
    res = state.res
    if isinstance(event, ev.DeckShuffled):
        shuffled = state.reshuffled() if state.shuffled else list(ALL_CARDS)
        if state.shuffled:
            state.discard = [c for c in state.discard if c not in shuffled]
        state.shuffled = True
        state.deck = list(event.order)
        state.pool = [] if event.order else sorted(shuffled)
    elif isinstance(event, ev.TopCardNamed):
        state.pool.remove(event.card)
        state.deck.append(event.card)
    elif isinstance(event, ev.HandsDealt):
        for pid, cards in event.hands:
            state.player(pid).hand.extend(cards)
            for c in cards:
                state.deck.remove(c)
        state.dealt = True
    elif isinstance(event, ev.CardDrawn):
        card = _take_top(state, event.from_discard)
        assert card == event.card, f"{event.card} is not on top"
        state.player(event.player).hand.append(card)
        if event.reason is DrawReason.PHASE:
            state.phase_drawn.append(card)
        if state.owed and not event.from_discard:
            _owe(state, 1)
    elif isinstance(event, ev.DrawsOwed):
        state.owed.append((event.player, event.count, event.reason))
        if event.reason is DrawReason.PHASE:
            state.draw_step = 2
        if res is not None and event.reason in (DrawReason.STAGECOACH, DrawReason.WELLS_FARGO):
            res.effect_done = True
        if res is not None and event.reason is DrawReason.BART_CASSIDY:
            res.triggered.append(event.player)
    elif isinstance(event, ev.DrawsForfeited):
        state.owed.pop(0)
    elif isinstance(event, ev.TurnStarted):
        state.turn = event.turn
        state.active = event.player
        state.phase = Phase.START
        state.dynamite_checked = state.jail_checked = state.skip_turn = state.turn_over = False
        state.bangs_played = 0
    elif isinstance(event, ev.PhaseBegan):
        state.phase = event.phase
        if event.phase is Phase.DRAW:
            state.draw_step = 0
            state.draw_from = None
            state.phase_drawn = []
    elif isinstance(event, ev.DrawSourceChosen):
        if event.from_player is not None:
            state.draw_from = event.from_player
            state.draw_step = 1
        elif event.from_discard:
            card = state.discard.pop()
            state.player(event.player).hand.append(card)
            state.phase_drawn.append(card)
    elif isinstance(event, ev.KitLooked):
        state.kit.append(state.deck.pop(0))
    elif isinstance(event, ev.KitReturned):
        kit = state.player(event.player)
        if event.card is not None:
            state.deck.insert(0, event.card)
            state.kit.remove(event.card)
        kit.hand.extend(state.kit)
        state.kit.clear()
        state.draw_step = 3
    elif isinstance(event, ev.CardShown):
        state.draw_step = 3
    elif isinstance(event, ev.CheckBegan):
        state.check = Check(event.player, event.reason, event.barrel)
        if res is not None:
            if event.barrel is not None:
                res.barrels_used.append(event.barrel)
            elif event.reason is CheckReason.JOURDONNAIS:
                res.jourdonnais_used = True
    elif isinstance(event, ev.CardFlipped):
        assert state.check is not None
        state.check.flips.append(state.deck.pop(0))
        state.discard.append(event.card)
    elif isinstance(event, ev.CheckResolved):
        state.check = None
        owner = state.player(event.player)
        if event.reason is CheckReason.DYNAMITE:
            state.dynamite_checked = True
            if event.success:
                dyn = owner.has_in_play(CardName.DYNAMITE)
                assert dyn is not None
                owner.in_play.remove(dyn)
                state.discard.append(dyn)
                state.res = Resolution(source=None, card=None, name=None, resolved=True)
        elif event.reason is CheckReason.JAIL:
            state.jail_checked = True
            jail = owner.has_in_play(CardName.JAIL)
            assert jail is not None
            owner.in_play.remove(jail)
            state.discard.append(jail)
            state.skip_turn = not event.success
        elif res is not None and event.success:
            res.got += 1
            if res.got >= res.need:
                _next_responder(res)
    elif isinstance(event, ev.DynamitePassed):
        giver = state.player(event.player)
        dyn = giver.has_in_play(CardName.DYNAMITE)
        assert dyn is not None
        giver.in_play.remove(dyn)
        state.player(event.to).in_play.append(dyn)
    elif isinstance(event, ev.CardPlayed):
        _played(state, event)
    elif isinstance(event, ev.Responded):
        p = state.player(event.player)
        p.hand.remove(event.card)
        state.discard.append(event.card)
        if res is not None and not res.resolved:
            if res.window is Window.SHOT:
                res.got += 1
                if res.got >= res.need:
                    _next_responder(res)
            elif res.window is Window.INDIANS:
                _next_responder(res)
            elif res.window is Window.DUEL and res.duel is not None:
                a, b = res.duel
                res.responders = [b if event.player == a else a]
    elif isinstance(event, ev.Passed):
        if res is not None and not res.resolved:
            if res.window is Window.DUEL:
                res.responders = []
            else:
                _next_responder(res)
        elif res is not None:
            res.doomed.append(event.player)
    elif isinstance(event, ev.SidKetchumHealed):
        p = state.player(event.player)
        for c in event.cards:
            p.hand.remove(c)
            state.discard.append(c)
        p.life += 1
    elif isinstance(event, ev.CardDiscarded):
        _remove(state, state.player(event.player), event.card)
        state.discard.append(event.card)
        if res is not None and not res.resolved and res.name is CardName.CAT_BALOU:
            res.effect_done = True
    elif isinstance(event, ev.CardTaken):
        _remove(state, state.player(event.from_player), event.card)
        state.player(event.player).hand.append(event.card)
        if state.phase is Phase.DRAW and state.draw_step == 1 and res is None:
            state.phase_drawn.append(event.card)
            state.draw_step = 2
        if res is not None and not res.resolved and res.name is CardName.PANIC:
            res.effect_done = True
        if res is not None and res.resolved and event.random:
            res.triggered.append(event.player)
    elif isinstance(event, ev.StoreCardRevealed):
        state.store.append(state.deck.pop(0))
        assert res is not None
        res.revealed += 1
    elif isinstance(event, ev.StoreCardPicked):
        state.store.remove(event.card)
        state.player(event.player).hand.append(event.card)
        assert res is not None
        res.responders.remove(event.player)
    elif isinstance(event, ev.CardResolved):
        assert res is not None
        if event.card is not None:
            state.discard.append(event.card)
        res.resolved = True
        res.responders = []
    elif isinstance(event, ev.LifeLost):
        p = state.player(event.player)
        p.life -= event.amount
        if res is not None:
            res.lost[p.id] = res.lost.get(p.id, 0) + event.amount
    elif isinstance(event, ev.LifeGained):
        p = state.player(event.player)
        p.life = min(p.max_life, p.life + event.amount)
    elif isinstance(event, ev.PlayEnded):
        state.phase = Phase.DISCARD
    elif isinstance(event, ev.PlayerEliminated):
        p = state.player(event.player)
        p.alive = False
        p.eliminated_by = event.by
        p.eliminated_cause = event.cause
        p.eliminated_turn = state.turn
    elif isinstance(event, ev.ResolutionEnded):
        state.res = None
    elif isinstance(event, ev.TurnEnded):
        state.turn_over = True
    elif isinstance(event, ev.GameEnded):
        state.phase = Phase.OVER
        state.result = event
    elif isinstance(event, ev.GameStarted):
        raise AssertionError("GameStarted only opens a game")


def _played(state: GameState, event: ev.CardPlayed) -> None:
    p = state.player(event.player)
    p.hand.remove(event.card)
    name = name_of(event.card)
    if name in WEAPON_RANGE or name in (
        CardName.BARREL,
        CardName.SCOPE,
        CardName.MUSTANG,
        CardName.DYNAMITE,
    ):
        p.in_play.append(event.card)
        return
    if name is CardName.JAIL:
        assert event.target is not None
        state.player(event.target).in_play.append(event.card)
        return
    res = Resolution(
        source=p.id, card=event.card, name=name, target=event.target, target_card=event.target_card
    )
    if name is CardName.BANG or event.as_bang:
        state.bangs_played += 1
    if name is CardName.BANG or name is CardName.MISSED:  # Calamity's Missed! as BANG!
        assert event.target is not None
        res.window = Window.SHOT
        res.responders = [event.target]
        res.need = 2 if p.character is CharacterId.SLAB_THE_KILLER else 1
    elif name is CardName.GATLING or name is CardName.INDIANS:
        res.window = Window.SHOT if name is CardName.GATLING else Window.INDIANS
        res.responders = [q.id for q in state.clockwise_from(p.id, include=False)]
    elif name is CardName.DUEL:
        assert event.target is not None
        res.window = Window.DUEL
        res.duel = (p.id, event.target)
        res.responders = [event.target]
    elif name is CardName.GENERAL_STORE:
        pickers = [q.id for q in state.clockwise_from(p.id)]
        res.store_size = len(pickers)
        res.responders = pickers
    state.res = res
