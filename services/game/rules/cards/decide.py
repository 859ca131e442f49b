"""decide(state, command) -> events: check a command against the rules and say what follows.

The command is checked completely before anything is emitted, so a refused command changes
nothing. Its events are applied to a working state as they are emitted (``evolve``), then the
automatic steps run (``flow.advance``) until the next question: "the state is the fold of the
events" holds by construction.
"""

from __future__ import annotations

from collections import Counter

from services.game.rules.cards import commands as cmd
from services.game.rules.cards import events as ev
from services.game.rules.cards.awaiting import Awaiting
from services.game.rules.cards.deck import CARDS, WEAPON_RANGE, card, name_of
from services.game.rules.cards.distance import distance, in_range
from services.game.rules.cards.errors import GameOver, IllegalCommand, NotAwaited
from services.game.rules.cards.evolve import evolve
from services.game.rules.cards.flow import advance, eliminate, hit, next_move, pending_trigger, resolve_check
from services.game.rules.cards.state import GameState, PlayerState
from services.game.rules.cards.vocabulary import (
    CardId,
    CardName,
    CharacterId,
    CheckReason,
    Decision,
    DrawReason,
    Role,
)

_ACCEPTS: dict[Decision, tuple[type[cmd.Command], ...]] = {
    Decision.SHUFFLE: (cmd.ShuffleDeck,),
    Decision.RANDOM_CARD: (cmd.PickRandomCard,),
    Decision.TOP_CARD: (cmd.NameTopCard,),
    Decision.DRAW_SOURCE: (cmd.ChooseDrawSource,),
    Decision.KIT_RETURN: (cmd.KitReturn,),
    Decision.DRAW_RESULT: (cmd.ChooseDrawResult,),
    Decision.PLAY: (cmd.PlayCard, cmd.EndPlay, cmd.UseSidKetchum),
    Decision.DISCARD: (cmd.Discard, cmd.UseSidKetchum),
    Decision.RESPOND_SHOT: (cmd.Respond, cmd.UseBarrel, cmd.UseSidKetchum, cmd.Pass),
    Decision.RESPOND_INDIANS: (cmd.Respond, cmd.UseSidKetchum, cmd.Pass),
    Decision.RESPOND_DUEL: (cmd.Respond, cmd.UseSidKetchum, cmd.Pass),
    Decision.DYING: (cmd.Respond, cmd.UseSidKetchum, cmd.Pass),
    Decision.STORE_PICK: (cmd.PickStoreCard,),
    Decision.DISCARD_ORDER: (cmd.OrderDiscards,),
}


def awaiting(state: GameState) -> Awaiting | None:
    """The open question of a game at rest, or None once it is over."""
    move = next_move(state)
    if move is None or isinstance(move, Awaiting):
        return move
    raise AssertionError("state is between automatic steps; only a resting state is awaited")


def decide(state: GameState, command: cmd.Command) -> list[ev.Event]:
    """The events ``command`` produces. ``state`` is not modified."""
    return execute(state.clone(), command)


def execute(state: GameState, command: cmd.Command) -> list[ev.Event]:
    """Like ``decide`` but folds the events into ``state``."""
    answer = respond(state, command)
    produced: list[ev.Event] = []

    def emit(event: ev.Event) -> None:
        evolve(state, event)
        produced.append(event)

    for event in answer:
        emit(event)
    advance(state, emit)
    return produced


def respond(state: GameState, command: cmd.Command, question: Awaiting | None = None) -> list[ev.Event]:
    """Raise the RuleError ``command`` deserves, or return the events it causes directly.
    ``question``: the state's open question when the caller already has it."""
    if state.is_over:
        raise GameOver(f"the game is over; {command} cannot be played")
    q = question or awaiting(state)
    assert q is not None
    if command.player != q.player:
        raise NotAwaited(f"{_not_awaited(state, command.player)}: the game awaits {q.describe()}")
    if not isinstance(command, _ACCEPTS[q.decision]):
        raise NotAwaited(f"'{command}' does not answer the open question: {q.describe()}")
    return _answer(state, q, command)


def _not_awaited(state: GameState, player: str) -> str:
    """Why ``player``, not the one awaited, cannot act: the rule a referee would quote."""
    p = next((x for x in state.players if x.id == player), None)
    if p is None:
        return f"{player} is not a player in this game"
    if not p.alive:
        return f"{player} has been eliminated and takes no further part in the game"
    return f"{player} cannot act now"


def _illegal(why: str) -> IllegalCommand:
    return IllegalCommand(why)


def _answer(state: GameState, q: Awaiting, c: cmd.Command) -> list[ev.Event]:
    d = q.decision
    if isinstance(c, cmd.ShuffleDeck):
        if c.order and Counter(c.order) != Counter(q.cards):
            raise _illegal("a shuffle orders exactly the cards to shuffle, each once (or none: unknown)")
        return [ev.DeckShuffled(order=c.order)]
    if isinstance(c, cmd.NameTopCard):
        if c.card not in state.pool:
            raise _illegal(f"{card_text(c.card)} is not in the deck: {_seen_where(state, c.card)}")
        return [ev.TopCardNamed(card=c.card, seen_by=q.from_player)]
    if isinstance(c, cmd.PickRandomCard):
        return _random_card(state, q, c.card)
    if isinstance(c, cmd.UseSidKetchum):
        return [_sid(state, c)]
    if isinstance(c, cmd.ChooseDrawSource):
        return _draw_source(state, c)
    if isinstance(c, cmd.KitReturn):
        if c.card not in state.kit:
            raise _illegal("Kit Carlson puts back one of the three cards he looked at")
        return [ev.KitReturned(player=c.player, card=c.card)]
    if isinstance(c, cmd.ChooseDrawResult):
        if c.card not in q.cards:
            raise _illegal("the result is one of the two flipped cards")
        return resolve_check(state, c.card)
    if isinstance(c, cmd.PlayCard):
        return play_card(state, c)
    if isinstance(c, cmd.EndPlay):
        return [ev.PlayEnded(player=c.player)]
    if isinstance(c, cmd.Discard):
        hand = state.player(c.player).hand
        if len(set(c.cards)) != len(c.cards) or any(x not in hand for x in c.cards):
            raise _illegal("discard distinct cards from your hand")
        if len(c.cards) != q.count:
            raise _illegal(f"discard exactly {q.count} card(s) down to your hand limit")
        return [ev.CardDiscarded(player=c.player, card=x) for x in c.cards]
    if isinstance(c, cmd.PickStoreCard):
        if c.card not in state.store:
            raise _illegal("pick one of the General Store's cards")
        return [ev.StoreCardPicked(player=c.player, card=c.card)]
    res = state.res
    assert res is not None
    p = state.player(c.player)
    if isinstance(c, cmd.OrderDiscards):
        if Counter(c.cards) != Counter([*p.in_play, *p.hand]):
            raise _illegal("order every card of your hand and in play, each once")
        return eliminate(state, res, p, c.cards)
    if isinstance(c, cmd.Pass):
        passed = ev.Passed(player=p.id, timeout=c.timeout)
        if d is Decision.DYING:
            return [passed]
        return [passed, *hit(state, res, p.id)]
    if isinstance(c, cmd.UseBarrel):
        if c.card is None:
            if p.character is not CharacterId.JOURDONNAIS or res.jourdonnais_used:
                raise _illegal("only Jourdonnais draws! without a Barrel, once per shot")
            return [ev.CheckBegan(player=p.id, reason=CheckReason.JOURDONNAIS)]
        if c.card not in p.in_play or name_of(c.card) is not CardName.BARREL or c.card in res.barrels_used:
            raise _illegal("draw! with a Barrel you have in play, once per shot")
        return [ev.CheckBegan(player=p.id, reason=CheckReason.BARREL, barrel=c.card)]
    assert isinstance(c, cmd.Respond)
    if c.card not in p.hand:
        raise _illegal("respond with a card from your hand")
    name = name_of(c.card)
    calamity = p.character is CharacterId.CALAMITY_JANET
    if d is Decision.DYING:
        if name is not CardName.BEER:
            raise _illegal("only a Beer saves a dying player")
        if len(state.living()) <= 2:
            raise _illegal("a Beer has no effect with 2 players left")
        return [ev.Responded(player=p.id, card=c.card), ev.LifeGained(player=p.id, amount=1)]
    wanted = CardName.MISSED if d is Decision.RESPOND_SHOT else CardName.BANG
    if name is not wanted and not (calamity and name in (CardName.BANG, CardName.MISSED)):
        raise _illegal(f"answer with a {wanted} card")
    return [ev.Responded(player=p.id, card=c.card)]


def card_text(c: CardId) -> str:
    return f"{card(c).text} (card {c})" if c in CARDS else f"{c} (no such card)"


def _seen_where(state: GameState, c: CardId) -> str:
    """Where a card named as the deck's next one lies instead, in words any seat may read: a
    public place by name, a hidden one (a hand, Kit Carlson's look, the deck's known top) only
    as "seen already" (a refusal must not tell where a hidden card lies)."""
    if c in state.discard:
        return "it lies on the discard pile"
    if c in state.store:
        return "it lies face up in the General Store"
    if state.res is not None and state.res.card == c and not state.res.resolved:
        return "it is the card being played"
    owner = next((p for p in state.players if c in p.in_play), None)
    if owner is not None:
        return f"it is in play in front of {owner.id}"
    if c in CARDS:
        return "it has been seen already, it is no longer among the deck's unseen cards"
    return "cards are 1 to 80"


def _sid(state: GameState, c: cmd.UseSidKetchum) -> ev.Event:
    p = state.player(c.player)
    if p.character is not CharacterId.SID_KETCHUM:
        raise _illegal("only Sid Ketchum discards 2 cards to regain a life point")
    a, b = c.cards
    if a == b or a not in p.hand or b not in p.hand:
        raise _illegal("Sid Ketchum discards two different cards from his hand")
    if p.life >= p.max_life:
        raise _illegal("Sid Ketchum is at full life")
    return ev.SidKetchumHealed(player=p.id, cards=(a, b))


def _random_card(state: GameState, q: Awaiting, card: CardId) -> list[ev.Event]:
    assert q.from_player is not None
    victim = state.player(q.from_player)
    if card not in victim.hand:
        raise _illegal(f"the random card comes from {victim.id}'s hand")
    res = state.res
    if res is None:  # Jesse Jones' first card
        return [
            ev.CardTaken(player=state.active, from_player=victim.id, card=card, random=True, hand_card=True),
            ev.DrawsOwed(player=state.active, count=1, reason=DrawReason.PHASE),
        ]
    if not res.resolved:
        assert res.source is not None
        if res.name is CardName.PANIC:
            return [
                ev.CardTaken(player=res.source, from_player=victim.id, card=card, random=True, hand_card=True)
            ]
        return [ev.CardDiscarded(player=victim.id, card=card)]
    trigger = pending_trigger(state, res)
    assert trigger is not None
    return [ev.CardTaken(player=trigger[0].id, from_player=victim.id, card=card, random=True, hand_card=True)]


def _draw_source(state: GameState, c: cmd.ChooseDrawSource) -> list[ev.Event]:
    p = state.player(c.player)
    if c.from_player is not None:
        if p.character is not CharacterId.JESSE_JONES:
            raise _illegal("only Jesse Jones draws from another player's hand")
        other = next((x for x in state.living() if x.id == c.from_player), None)
        if other is None or other.id == p.id or not other.hand:
            raise _illegal("take from another living player who has cards in hand")
        return [ev.DrawSourceChosen(player=p.id, from_player=other.id)]
    if c.from_discard:
        if p.character is not CharacterId.PEDRO_RAMIREZ or not state.discard:
            raise _illegal("only Pedro Ramirez draws from the discard pile, when it has a card")
        return [
            ev.DrawSourceChosen(player=p.id, from_discard=True),
            ev.DrawsOwed(player=p.id, count=1, reason=DrawReason.PHASE),
        ]
    return [ev.DrawSourceChosen(player=p.id), ev.DrawsOwed(player=p.id, count=2, reason=DrawReason.PHASE)]


# --- phase 2 ------------------------------------------------------------------------------------


def can_bang(state: GameState, p: PlayerState) -> bool:
    return (
        state.bangs_played == 0
        or p.character is CharacterId.WILLY_THE_KID
        or p.has_in_play(CardName.VOLCANIC) is not None
    )


def play_card(state: GameState, c: cmd.PlayCard) -> list[ev.Event]:
    """Check a phase-2 card and return its events (the effects follow in ``flow``)."""
    p = state.player(c.player)
    if c.card not in p.hand:
        raise _illegal("play a card from your hand")
    name = name_of(c.card)
    target = None
    if c.target is not None:
        target = next((x for x in state.living() if x.id == c.target), None)
        if target is None:
            if all(x.id != c.target for x in state.players):
                raise _illegal(f"{c.target} is not a player in this game")
            raise _illegal(f"{c.target} has been eliminated and cannot be targeted")
    as_bang = name is CardName.MISSED and p.character is CharacterId.CALAMITY_JANET
    if name is CardName.MISSED and not as_bang:
        raise _illegal("a Missed! is played only in answer to a shot")
    needs_target = name in (CardName.BANG, CardName.MISSED, CardName.PANIC, CardName.CAT_BALOU) or name in (
        CardName.DUEL,
        CardName.JAIL,
    )
    if needs_target and target is None:
        raise _illegal(f"a {name} needs a target")
    if not needs_target and (c.target is not None or c.target_card is not None):
        raise _illegal(f"a {name} takes no target")
    if c.target_card is not None and name not in (CardName.PANIC, CardName.CAT_BALOU):
        raise _illegal("only Panic! and Cat Balou choose a card in play")
    played = ev.CardPlayed(
        player=p.id, card=c.card, target=c.target, target_card=c.target_card, as_bang=as_bang
    )
    if name is CardName.BANG or as_bang:
        assert target is not None
        if target.id == p.id:
            raise _illegal(f"{p.id} cannot shoot himself: a BANG! targets another player")
        if not can_bang(state, p):
            raise _illegal("one BANG! per turn (unless Volcanic or Willy the Kid)")
        if not in_range(state, p.id, target.id):
            raise _illegal(f"{target.id} is out of range")
        return [played]
    if name in (CardName.PANIC, CardName.CAT_BALOU):
        assert target is not None
        if name is CardName.PANIC and distance(state, p.id, target.id) > 1:
            raise _illegal(f"Panic! reaches distance 1; {target.id} is at {distance(state, p.id, target.id)}")
        if c.target_card is None:
            if target.id == p.id or not target.hand:
                raise _illegal("a card at random comes from another player's non-empty hand")
        elif c.target_card not in target.in_play:
            raise _illegal(f"{c.target_card} is not in play in front of {target.id}")
        return [played]
    if name is CardName.DUEL:
        assert target is not None
        if target.id == p.id:
            raise _illegal("a Duel is against another player")
        return [played]
    if name is CardName.JAIL:
        assert target is not None
        if target.role is Role.SHERIFF:
            raise _illegal("the Sheriff cannot be jailed")
        if target.has_in_play(CardName.JAIL) is not None:
            raise _illegal(f"{target.id} is already in Jail")
        return [played]
    if name in WEAPON_RANGE:
        old = next((x for x in p.in_play if name_of(x) in WEAPON_RANGE), None)
        if old is not None and name_of(old) is name:
            raise _illegal(f"you already have a {name} in play")
        return ([ev.CardDiscarded(player=p.id, card=old)] if old is not None else []) + [played]
    if name in (CardName.BARREL, CardName.SCOPE, CardName.MUSTANG, CardName.DYNAMITE):
        if p.has_in_play(name) is not None:
            raise _illegal(f"you already have a {name} in play")
        return [played]
    return [played]  # Beer, Saloon, Stagecoach, Wells Fargo, General Store, Gatling, Indians!
