"""What happens next in a game at rest or between automatic steps.

``next_move(state)`` is a pure function of the state: either the automatic events that follow
(drawing owed cards, flipping for a draw!, the steps of a resolution, the turn's phases) or the
one question the game awaits. ``advance`` applies automatic events until a question is reached.
"""

from __future__ import annotations

from collections.abc import Callable

from services.game.rules.cards import events as ev
from services.game.rules.cards.awaiting import Awaiting
from services.game.rules.cards.deck import ALL_CARDS, explodes, is_heart, is_red, name_of
from services.game.rules.cards.outcome import game_result
from services.game.rules.cards.state import GameState, PlayerState, Resolution
from services.game.rules.cards.vocabulary import (
    TABLE,
    CardId,
    CardName,
    Cause,
    CharacterId,
    CheckReason,
    Decision,
    DrawReason,
    Phase,
    PlayerId,
    Role,
    Window,
)

Move = list[ev.Event] | Awaiting | None


def advance(state: GameState, emit: Callable[[ev.Event], None]) -> Awaiting | None:
    while True:
        move = next_move(state)
        if move is None or isinstance(move, Awaiting):
            return move
        for event in move:
            emit(event)


def _name_top(seen_by: PlayerId | None) -> Awaiting:
    """A deck shuffled in an unknown order (a table game): the table names the next card as it
    is taken; ``seen_by`` is who sees it (None: it is turned face up)."""
    return Awaiting(player=TABLE, decision=Decision.TOP_CARD, from_player=seen_by)


def _deal_order(state: GameState) -> list[PlayerId]:
    """Who receives each card of the deal: one at a time clockwise from the Sheriff."""
    sheriff = next(p for p in state.players if p.role is Role.SHERIFF)
    order = state.clockwise_from(sheriff.id)
    return [p.id for r in range(max(p.life for p in order)) for p in order if r < p.life]


def _shuffle_question(state: GameState) -> Awaiting:
    return Awaiting(player=TABLE, decision=Decision.SHUFFLE, cards=tuple(state.reshuffled()))


_SERVES_A_DRAW = frozenset({Decision.SHUFFLE, Decision.TOP_CARD, Decision.RANDOM_CARD})
"""The table's answers that are part of the command that asked them (online they are answered in
the same append): not a stable point for Suzy Lafayette. A shuffle or a named top card makes a
card available; a card taken at random from a hand finishes the command that takes it (her last
card a Panic! on a hand: she draws after the stolen card reaches her, as on a card in play)."""


def next_move(state: GameState) -> Move:
    if state.phase is Phase.OVER:
        return None
    move = _move(state)
    # an automatic pass answers a question the engine would otherwise ask: a stable point too,
    # so Suzy draws first and may use the card (her first Missed! against Slab, a Beer in a
    # dying window that needs two)
    asks = isinstance(move, Awaiting) and move.decision not in _SERVES_A_DRAW
    passes = isinstance(move, list) and bool(move) and isinstance(move[0], ev.Passed) and move[0].automatic
    if (asks or passes) and state.dealt:
        # Suzy Lafayette: at every stable point, a living Suzy with no card draws one
        for p in state.players:
            if (
                p.alive
                and p.character is CharacterId.SUZY_LAFAYETTE
                and not p.hand
                and (state.deck or state.pool or state.discard)
                and not any(owed[0] == p.id for owed in state.owed)
                and not (state.res is not None and p.id in state.res.doomed)
            ):
                return [ev.DrawsOwed(player=p.id, count=1, reason=DrawReason.SUZY_LAFAYETTE)]
    return move


def _move(state: GameState) -> Move:
    if not state.shuffled:
        return Awaiting(player=TABLE, decision=Decision.SHUFFLE, cards=ALL_CARDS)
    if not state.dealt:
        recipients = _deal_order(state)
        if len(state.deck) < len(recipients):
            return _name_top(recipients[len(state.deck)])
        return [_deal(state)]
    if state.owed:
        pid, _, reason = state.owed[0]
        if state.deck:
            return [ev.CardDrawn(player=pid, card=state.deck[0], reason=reason)]
        if state.pool:
            return _name_top(pid)
        if state.discard:
            return _shuffle_question(state)
        return [ev.DrawsForfeited(player=pid)]
    if state.check is not None:
        return _check_move(state)
    if state.res is not None:
        return _resolution_move(state, state.res)
    if not state.active:
        opener = state.opener or next(p for p in state.players if p.role is Role.SHERIFF).id
        return [ev.TurnStarted(player=opener, turn=state.turn + 1)]
    active = state.player(state.active)
    if state.turn_over:
        nxt = state.next_living(active.id)
        return [ev.TurnStarted(player=nxt.id, turn=state.turn + 1)]
    if not active.alive:
        return [ev.TurnEnded(player=active.id)]
    if state.phase is Phase.START:
        return _start_move(state, active)
    if state.phase is Phase.DRAW:
        return _draw_move(state, active)
    if state.phase is Phase.PLAY:
        return Awaiting(player=active.id, decision=Decision.PLAY)
    # phase 3
    excess = len(active.hand) - max(active.life, 0)
    if excess > 0:
        return Awaiting(player=active.id, decision=Decision.DISCARD, count=excess)
    return [ev.TurnEnded(player=active.id)]


def _deal(state: GameState) -> ev.HandsDealt:
    sheriff = next(p for p in state.players if p.role is Role.SHERIFF)
    order = state.clockwise_from(sheriff.id)
    hands: dict[PlayerId, list[CardId]] = {p.id: [] for p in order}
    deck = iter(state.deck)
    for round_ in range(max(p.life for p in order)):
        for p in order:
            if round_ < p.life:
                hands[p.id].append(next(deck))
    return ev.HandsDealt(hands=tuple((p.id, tuple(hands[p.id])) for p in order))


def _start_move(state: GameState, active: PlayerState) -> Move:
    if not state.dynamite_checked and active.has_in_play(CardName.DYNAMITE) is not None:
        return [ev.CheckBegan(player=active.id, reason=CheckReason.DYNAMITE)]
    if not state.jail_checked and active.has_in_play(CardName.JAIL) is not None:
        return [ev.CheckBegan(player=active.id, reason=CheckReason.JAIL)]
    if state.skip_turn:
        return [ev.TurnEnded(player=active.id)]
    return [ev.PhaseBegan(player=active.id, phase=Phase.DRAW)]


def _draw_move(state: GameState, active: PlayerState) -> Move:
    pid, ch = active.id, active.character
    if state.draw_step == 0:
        if ch is CharacterId.KIT_CARLSON:
            if len(state.kit) < 3:
                if state.deck:
                    return [ev.KitLooked(player=pid, card=state.deck[0])]
                if state.pool:
                    return _name_top(pid)
                if state.discard:
                    return _shuffle_question(state)
            if len(state.kit) == 3:
                return Awaiting(player=pid, decision=Decision.KIT_RETURN)
            # fewer than 3 cards exist: he keeps them all (KitReturned needs a card to put back)
            return _kit_keeps_all(state, active)
        if ch is CharacterId.JESSE_JONES and any(p.hand for p in state.living() if p.id != pid):
            return Awaiting(player=pid, decision=Decision.DRAW_SOURCE)
        if ch is CharacterId.PEDRO_RAMIREZ and state.discard:
            return Awaiting(player=pid, decision=Decision.DRAW_SOURCE)
        return [ev.DrawsOwed(player=pid, count=2, reason=DrawReason.PHASE)]
    if state.draw_step == 1:
        assert state.draw_from is not None
        return Awaiting(player=TABLE, decision=Decision.RANDOM_CARD, from_player=state.draw_from)
    if state.draw_step == 2 and ch is CharacterId.BLACK_JACK and len(state.phase_drawn) >= 2:
        second = state.phase_drawn[1]
        shown: list[ev.Event] = [ev.CardShown(player=pid, card=second)]
        if is_red(second):
            shown.append(ev.DrawsOwed(player=pid, count=1, reason=DrawReason.BLACK_JACK))
        return shown
    return [ev.PhaseBegan(player=pid, phase=Phase.PLAY)]


def _kit_keeps_all(state: GameState, active: PlayerState) -> Move:
    # deck and discard pile together held fewer than 3 cards: he keeps what he looked at
    return [ev.KitReturned(player=active.id, card=None)]


def check_needs(state: GameState, player: PlayerId) -> int:
    return 2 if state.player(player).character is CharacterId.LUCKY_DUKE else 1


def check_success(reason: CheckReason, card: CardId | None) -> bool:
    if card is None:
        return False
    if reason is CheckReason.DYNAMITE:
        return explodes(card)
    return is_heart(card)


def _check_move(state: GameState) -> Move:
    check = state.check
    assert check is not None
    needed = check_needs(state, check.player)
    if len(check.flips) < needed:
        if state.deck:
            return [ev.CardFlipped(player=check.player, card=state.deck[0])]
        if state.pool:
            return _name_top(None)
        if state.discard and not (check.flips and len(state.discard) == len(check.flips)):
            return _shuffle_question(state)
    if len(check.flips) >= 2:
        return Awaiting(player=check.player, decision=Decision.DRAW_RESULT, cards=tuple(check.flips))
    card = check.flips[0] if check.flips else None
    return resolve_check(state, card)


def resolve_check(state: GameState, card: CardId | None) -> list[ev.Event]:
    check = state.check
    assert check is not None
    success = check_success(check.reason, card)
    out: list[ev.Event] = [
        ev.CheckResolved(player=check.player, reason=check.reason, card=card, success=success)
    ]
    if check.reason is CheckReason.DYNAMITE:
        if success:
            out.append(ev.LifeLost(player=check.player, amount=3, source=None))
        else:
            others = state.clockwise_from(check.player, include=False)
            if others:
                out.append(ev.DynamitePassed(player=check.player, to=others[0].id))
    return out


# --- a resolution -----------------------------------------------------------------------------


def _resolution_move(state: GameState, res: Resolution) -> Move:
    if not res.resolved:
        return _effect_move(state, res)
    # dying windows, in order from the active player clockwise
    for p in _order(state):
        if p.life <= 0 and p.id not in res.doomed:
            if _dying_has_no_option(state, p):
                return [ev.Passed(player=p.id, automatic=True)]
            return Awaiting(player=p.id, decision=Decision.DYING, count=1 - p.life)
    # eliminations, each complete
    for pid in res.doomed:
        p = state.player(pid)
        if p.alive:
            if asks_discard_order(state, p):
                return Awaiting(player=p.id, decision=Decision.DISCARD_ORDER)
            return eliminate(state, res, p)
    if res.doomed:
        result = game_result(state)
        if result is not None:
            return [result]
    # deferred triggers of survivors
    trigger = pending_trigger(state, res)
    if trigger is not None:
        p, source = trigger
        if source is None:
            return [ev.DrawsOwed(player=p.id, count=res.lost[p.id], reason=DrawReason.BART_CASSIDY)]
        return Awaiting(player=TABLE, decision=Decision.RANDOM_CARD, from_player=source.id)
    return [ev.ResolutionEnded()]


def pending_trigger(state: GameState, res: Resolution) -> tuple[PlayerState, PlayerState | None] | None:
    """The next deferred trigger: (Bart Cassidy, None) or (El Gringo, the hand he takes from)."""
    for p in _order(state):
        if res.lost.get(p.id, 0) <= 0 or p.id in res.triggered:
            continue
        if p.character is CharacterId.BART_CASSIDY:
            return p, None
        if p.character is CharacterId.EL_GRINGO and res.source is not None and res.source != p.id:
            source = state.player(res.source)
            if source.hand:
                return p, source
    return None


def _order(state: GameState) -> list[PlayerState]:
    return (
        state.clockwise_from(state.active)
        if state.player(state.active).alive
        else [p for p in state.clockwise_from(state.active, include=False)]
    )


def _dying_has_no_option(state: GameState, p: PlayerState) -> bool:
    if not p.hand:
        return True
    two_left = len(state.living()) <= 2
    sid = p.character is CharacterId.SID_KETCHUM and len(p.hand) >= 2
    return two_left and not sid


def _vulture(state: GameState, p: PlayerState) -> PlayerState | None:
    """A living Vulture Sam who is not himself at 0 or less takes ``p``'s cards."""
    return next(
        (
            q
            for q in state.clockwise_from(p.id, include=False)
            if q.character is CharacterId.VULTURE_SAM and q.life > 0
        ),
        None,
    )


def asks_discard_order(state: GameState, p: PlayerState) -> bool:
    """FAQ Q07, reduced (ruling): the eliminated player orders his discards only when it can
    matter, i.e. a living Pedro Ramirez may take the top card, and there are 2 cards or more."""
    return (
        p.card_count >= 2
        and _vulture(state, p) is None
        and any(q.character is CharacterId.PEDRO_RAMIREZ and q.id != p.id for q in state.living())
    )


def eliminate(
    state: GameState, res: Resolution, p: PlayerState, order: tuple[CardId, ...] | None = None
) -> list[ev.Event]:
    """The whole elimination: the role revealed, the cards (to Vulture Sam, or discarded in
    ``order``, by default in play in the order played then the hand), the reward or penalty."""
    by = res.source if res.source is not None and res.source != p.id else None
    cause = Cause.DYNAMITE if res.name is None else (Cause.SELF if by is None else Cause.CARD)
    out: list[ev.Event] = [ev.PlayerEliminated(player=p.id, role=p.role, by=by, cause=cause)]
    cards = list(order) if order is not None else [*p.in_play, *p.hand]
    vulture = _vulture(state, p)
    if vulture is not None:
        out += [
            ev.CardTaken(player=vulture.id, from_player=p.id, card=c, hand_card=c in p.hand) for c in cards
        ]
    else:
        out += [ev.CardDiscarded(player=p.id, card=c) for c in cards]
    if by is not None:
        killer = state.player(by)
        if killer.alive and p.role is Role.OUTLAW:
            out.append(ev.DrawsOwed(player=by, count=3, reason=DrawReason.REWARD))
        elif killer.alive and killer.role is Role.SHERIFF and p.role is Role.DEPUTY:
            taken = cards if vulture is killer else []
            out += [ev.CardDiscarded(player=by, card=c) for c in [*killer.in_play, *killer.hand, *taken]]
    return out


def _effect_move(state: GameState, res: Resolution) -> Move:
    name = res.name
    if res.window is not None and res.responders:
        who = state.player(res.responders[0])
        if res.window is Window.SHOT:
            if not who.hand and not _unused_barrel_draws(who, res):
                return [ev.Passed(player=who.id, automatic=True), *hit(state, res, who.id)]
            return Awaiting(player=who.id, decision=Decision.RESPOND_SHOT, count=res.need - res.got)
        if not who.hand:
            return [ev.Passed(player=who.id, automatic=True), *hit(state, res, who.id)]
        decision = Decision.RESPOND_INDIANS if res.window is Window.INDIANS else Decision.RESPOND_DUEL
        return Awaiting(player=who.id, decision=decision)
    assert res.card is not None and res.source is not None
    source = state.player(res.source)
    if not res.effect_done:
        if name is CardName.BEER:
            if len(state.living()) > 2 and source.life < source.max_life:
                return [ev.LifeGained(player=source.id, amount=1), ev.CardResolved(card=res.card)]
        elif name is CardName.SALOON:
            gains: list[ev.Event] = [
                ev.LifeGained(player=p.id, amount=1) for p in _order(state) if p.life < p.max_life
            ]
            return [*gains, ev.CardResolved(card=res.card)]
        elif name is CardName.STAGECOACH:
            return [ev.DrawsOwed(player=source.id, count=2, reason=DrawReason.STAGECOACH)]
        elif name is CardName.WELLS_FARGO:
            return [ev.DrawsOwed(player=source.id, count=3, reason=DrawReason.WELLS_FARGO)]
        elif name in (CardName.PANIC, CardName.CAT_BALOU):
            assert res.target is not None
            if res.target_card is None:
                return Awaiting(player=TABLE, decision=Decision.RANDOM_CARD, from_player=res.target)
            if name is CardName.PANIC:
                return [ev.CardTaken(player=source.id, from_player=res.target, card=res.target_card)]
            return [ev.CardDiscarded(player=res.target, card=res.target_card)]
        elif name is CardName.GENERAL_STORE:
            if res.revealed < res.store_size:
                if state.deck:
                    return [ev.StoreCardRevealed(card=state.deck[0])]
                if state.pool:
                    return _name_top(None)
                if state.discard:
                    return _shuffle_question(state)
            if res.responders and state.store:
                if len(state.store) == 1:
                    return [ev.StoreCardPicked(player=res.responders[0], card=state.store[0])]
                return Awaiting(player=res.responders[0], decision=Decision.STORE_PICK)
    return [ev.CardResolved(card=res.card)]


def _unused_barrel_draws(p: PlayerState, res: Resolution) -> bool:
    if p.character is CharacterId.JOURDONNAIS and not res.jourdonnais_used:
        return True
    return any(name_of(c) is CardName.BARREL and c not in res.barrels_used for c in p.in_play)


def hit(state: GameState, res: Resolution, pid: PlayerId) -> list[ev.Event]:
    """The consequence of a ``Pass`` in a response window: 1 life lost."""
    source = res.source if res.source != pid else None
    return [ev.LifeLost(player=pid, amount=1, source=source)]
