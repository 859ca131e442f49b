"""OS4, A Posse of New Characters (RULINGS-expansions §OS4; rulings in docs/rulings.md).

Eight characters, each data plus an ``abilities.Ability``, as the base game's:

- José Delgado and Tequila Joe add their Saloon die to the five base dice (OS1's hand,
  ``saloon_dice.ADDS_SALOON_DIE``); without OS1 they are not dealt.
- Apache Kid (``roll_arrow``): per ``arrow`` face of his own rolls, may take the Chief's Arrow from
  its holder instead of a token from the pile (``ChiefArrowSeized``); without OS2 not dealt.
- Bill Noface (``roll_arrow`` + ``after_rolling``): his arrow faces wait (``ArrowsHeldBack``) and
  only his final dice's take tokens, once rolling is over (``FinalArrowsDue``).
- Elena Fuente (``roll_arrow``): per roll with arrows, may give one of its tokens to another
  living player (``ArrowGiven``); it still leaves the pile and may bring the attack.
- Vera Custer (``own_loss``): all the shots hitting her in a shots step cost one life less.
- Doc Holyday (``after_shots``): using three or more shot symbols in the shots step heals him 2.
- Molly Stark (``others_loss``): may lose in another's place the life he must lose in a step.

Vera's and Molly's hooks are read by this module's ``LossRule``, which sees every step's losses
before they apply (``flow.apply_losses``): it takes off what a target's own rule spares him, then,
when a living Molly could take one of them, holds the whole step back (``LossesHeld`` →
``GameState.held``) and asks her about each loss in turn, clockwise from the active player. Her
last answer releases the step: the losses apply (hers instead of the target's where she took
them, keeping their source and cause), then what the step had left to do (the gatling's and the
attack's arrows back to the pile). A target with an option of his own before the step (Bart
Cassidy) is asked about after Molly, at that point: ``LossRule.first``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from enum import StrEnum
from types import MappingProxyType

import msgspec

from services.game.rules.dice import commands as cmd
from services.game.rules.dice import events as ev
from services.game.rules.dice.abilities import BASE_RULES, Ability, gain_life
from services.game.rules.dice.awaiting import Awaiting
from services.game.rules.dice.characters import Character
from services.game.rules.dice.decisions import BotHint, DecisionSpec, Who, living_target
from services.game.rules.dice.errors import IllegalCommand
from services.game.rules.dice.flow import (
    Move,
    arrow_move,
    clockwise_from,
    finish_loss_step,
    gatling_victims,
    settle_losses,
    shot_damage,
    step_goes_on,
    take_arrow,
)
from services.game.rules.dice.modules import Handler, Loss, LossRule, RulesModule
from services.game.rules.dice.points import TurnPoint
from services.game.rules.dice.state import BatchKind, GameState, HeldLosses, PlayerState, TurnState
from services.game.rules.dice.vocabulary import (
    ANY_SHOOT_FACES,
    ARROW,
    ArrowReason,
    Cause,
    CharacterId,
    DieIndex,
    GainCause,
    PlayerId,
)
from services.game.rules.ruleset import ModuleId

Emit = Callable[[ev.Event], None]
Step = Callable[[GameState, Emit], None]

INDIAN_ATTACK = Cause.INDIAN_ATTACK.value
"""The kind of an Indian attack's losses (the dice steps' kinds are ``BatchKind``'s)."""


class PosseDecision(StrEnum):
    APACHE_TAKE_CHIEF = "apache_take_chief"
    ELENA_GIVE = "elena_give"
    MOLLY_TAKE = "molly_take"


APACHE_TAKE_CHIEF = PosseDecision.APACHE_TAKE_CHIEF
ELENA_GIVE = PosseDecision.ELENA_GIVE
MOLLY_TAKE = PosseDecision.MOLLY_TAKE
BILL_DONE = "bill_noface"
"""``TurnState.decided``: Bill Noface's final arrows are due (or taken)."""
DOC_DONE = "doc_holyday"
"""``TurnState.decided``: Doc Holyday's shots have healed him this step."""


# --- events --------------------------------------------------------------------------------------


class ArrowsHeldBack(ev.Event, frozen=True, kw_only=True):
    """Bill Noface: the ``count`` arrow faces of this roll take nothing now."""

    player: PlayerId
    count: int


class FinalArrowsDue(ev.Event, frozen=True, kw_only=True):
    """Bill Noface: rolling is over; the ``count`` arrow faces of his final dice take tokens now."""

    player: PlayerId
    count: int


class ChiefArrowSeized(ev.Event, frozen=True, kw_only=True):
    """Apache Kid took the Chief's Arrow from ``holder`` for one arrow face (the pile untouched)."""

    player: PlayerId
    holder: PlayerId


class ArrowGiven(ev.Event, frozen=True, kw_only=True):
    """Elena Fuente gave one token of this roll's arrows to ``target`` (``chief``: she chose the
    Chief's Arrow); his ``ArrowTaken`` or ``ChiefArrowTaken`` follows."""

    player: PlayerId
    target: PlayerId
    chief: bool = False


class PowerDeclined(ev.Event, frozen=True, kw_only=True):
    """An OS4 "may" answered no for the occasion at hand: Elena keeps this roll's arrows, Apache
    Kid takes this arrow face's token from the pile."""

    player: PlayerId
    decision: str


class ShotsRewarded(ev.Event, frozen=True, kw_only=True):
    """Doc Holyday used three or more shot symbols: he gains 2 life (the ``LifeGained`` follows
    unless he is at his maximum)."""

    player: PlayerId


class HeldLoss(msgspec.Struct, frozen=True, kw_only=True):
    """One hit of a held step: ``player`` must lose ``amount`` life to ``cause``."""

    player: PlayerId
    amount: int
    cause: Cause
    die: DieIndex | None = None


class LossesHeld(ev.Event, frozen=True, kw_only=True):
    """A step's losses (its ``kind``) wait before they apply: Molly Stark may take some of them."""

    kind: str
    source: PlayerId | None = None
    losses: tuple[HeldLoss, ...]


class LossTakenOver(ev.Event, frozen=True, kw_only=True):
    """Molly Stark (``player``) loses in ``target``'s place what he must lose in this step."""

    player: PlayerId
    target: PlayerId


class LossLeft(ev.Event, frozen=True, kw_only=True):
    """Molly Stark (``player``) leaves ``target`` his loss of this step."""

    player: PlayerId
    target: PlayerId


EVENTS: tuple[type[ev.Event], ...] = (
    ArrowsHeldBack,
    FinalArrowsDue,
    ChiefArrowSeized,
    ArrowGiven,
    PowerDeclined,
    ShotsRewarded,
    LossesHeld,
    LossTakenOver,
    LossLeft,
)


# --- the characters' hooks ------------------------------------------------------------------------


def occasion(t: TurnState, decision: str) -> str:
    """The ``TurnState.decided`` key of one occasion of a per-roll or per-face decision: Elena
    answers once per roll, Apache Kid once per arrow face of a roll."""
    if decision == APACHE_TAKE_CHIEF:
        return f"{decision}@{t.rolls_used}.{t.roll_arrows_left}"
    return f"{decision}@{t.rolls_used}"


def _apache_kid(s: GameState, t: TurnState, owner: PlayerState) -> Awaiting | None:
    """Per arrow face: may take the Chief's Arrow from another player who holds it."""
    holder = s.chief_holder
    if holder is None or holder == owner.id or occasion(t, APACHE_TAKE_CHIEF) in t.decided:
        return None
    return Awaiting(player=owner.id, decision=APACHE_TAKE_CHIEF)


def _elena_fuente(s: GameState, t: TurnState, owner: PlayerState) -> Awaiting | None:
    """Per roll with arrows, before its first token: may give one of them to another player."""
    if occasion(t, ELENA_GIVE) in t.decided:
        return None
    return Awaiting(player=owner.id, decision=ELENA_GIVE, max_count=t.roll_arrows_left)


def _bill_noface_waits(s: GameState, t: TurnState, owner: PlayerState) -> Step:
    """His arrow faces take nothing while he rolls."""
    event = ArrowsHeldBack(player=owner.id, count=t.roll_arrows_left)
    return lambda s, emit: emit(event)


def _take_own_arrow(s: GameState, emit: Emit) -> None:
    assert s.turn is not None
    take_arrow(s, s.turn.player, ArrowReason.ROLL, emit)


def _bill_noface_takes(s: GameState, t: TurnState, owner: PlayerState) -> Move:
    """Once rolling is over, the arrow faces of his final dice take their tokens, one at a time."""
    if BILL_DONE not in t.decided:
        count = t.count(ARROW)
        if not count:
            return None
        event = FinalArrowsDue(player=owner.id, count=count)
        return lambda s, emit: emit(event)
    if t.roll_arrows_left > 0:
        return arrow_move(s, owner.id, _take_own_arrow)
    return None


def shot_symbols_used(t: TurnState) -> int:
    """The shot symbols aimed this turn: a double's two count two."""
    dice = t.dice
    first = sum(1 for die in t.targets if dice[die] in ANY_SHOOT_FACES)
    return first + sum(1 for die in t.second_targets if dice[die] in ANY_SHOOT_FACES)


def _doc_holyday(s: GameState, t: TurnState, owner: PlayerState) -> Step | None:
    """After the shots: three or more shot symbols used heal him 2, once."""
    if DOC_DONE in t.decided or shot_symbols_used(t) < 3:
        return None
    return _doc_heals


def _doc_heals(s: GameState, emit: Emit) -> None:
    assert s.turn is not None
    doc = s.by_id[s.turn.player]
    emit(ShotsRewarded(player=doc.id))
    gained = min(2, doc.max_life - doc.life)
    if gained:
        # through gain_life: OS3's Le Mauvais may cancel it like any gain
        gain_life(s, ev.LifeGained(player=doc.id, amount=gained, cause=GainCause.THREE_SHOTS_HEAL), emit)


def _vera_custer(kind: str, amount: int) -> int:
    """All the shot symbols hitting her in one shots step cost one life less."""
    return max(amount - 1, 0) if kind == BatchKind.SHOTS else amount


def _molly_stark(
    s: GameState, owner: PlayerState, target: PlayerState, amount: int, room: int
) -> Awaiting | None:
    """May lose another's loss in his place, never more life than she has left in the step."""
    if owner is target or not owner.alive or not 1 <= amount <= room:
        return None
    return Awaiting(player=owner.id, decision=MOLLY_TAKE, max_count=amount)


# --- losses: what a target's rule spares him, then Molly's offers ----------------------------------


def step_kind(hits: list[Loss]) -> str:
    cause = hits[0][2]
    return BatchKind.SHOTS if cause is Cause.SHOOT1 or cause is Cause.SHOOT2 else cause.value


def _taker(s: GameState) -> PlayerState | None:
    """The living player who may take others' losses (Molly Stark), if any."""
    for p in s.players:
        if p.alive and p.character.ability.others_loss is not None:
            return p
    return None


def _own_losses(s: GameState, kind: str, hits: list[Loss]) -> list[Loss]:
    """Each target's own rule about what the step costs him (Vera Custer), on his total."""
    by_id = s.by_id
    if not any(by_id[h[0]].character.ability.own_loss for h in hits):
        return hits
    totals: dict[PlayerId, int] = {}
    for target, amount, _cause, _die in hits:
        totals[target] = totals.get(target, 0) + amount
    spare: dict[PlayerId, int] = {}
    for target, total in totals.items():
        own_loss = by_id[target].character.ability.own_loss
        if own_loss is not None:
            spare[target] = total - own_loss(kind, total)
    out: list[Loss] = []
    for target, amount, cause, die in hits:
        spared = min(spare.get(target, 0), amount)
        if spared:
            spare[target] -= spared
            amount -= spared
        if amount:
            out.append((target, amount, cause, die))
    return out


def _taken_key(kind: str, target: PlayerId) -> str:
    return f"{MOLLY_TAKE}:{kind}:{target}"


def _left_key(kind: str, target: PlayerId) -> str:
    return f"{MOLLY_TAKE}-left:{kind}:{target}"


def _held_offer(s: GameState, held: HeldLosses) -> tuple[PlayerId, Awaiting] | None:
    """The next loss of a held step Molly may take: (its target, her question), in turn
    clockwise from the active player; None once none is left."""
    taker = _taker(s)
    t = s.turn
    if taker is None or t is None:
        return None
    offer = taker.character.ability.others_loss
    assert offer is not None
    totals: dict[PlayerId, int] = {}
    for target, amount, _cause, _die in held.hits:
        totals[target] = totals.get(target, 0) + amount
    committed = totals.get(taker.id, 0) + sum(totals.get(x, 0) for x, took in held.answers.items() if took)
    room = taker.life - committed
    for p in clockwise_from(s, s.by_id[t.player]):
        amount = totals.get(p.id, 0)
        if not amount or p.id in held.answers or _left_key(held.kind, p.id) in t.decided:
            continue
        question = offer(s, taker, p, amount, room)
        if question is not None:
            return p.id, question
    return None


def _hold(s: GameState, hits: list[Loss], source: PlayerId | None, emit: Emit) -> list[Loss] | None:
    """``LossRule.hold``: the losses less what their targets' rules spare, with Molly's earlier
    answers (before a target's own option) applied; held back if she may take one of them."""
    if not hits:
        return hits
    kind = step_kind(hits)
    hits = _own_losses(s, kind, hits)
    taker = _taker(s)
    t = s.turn
    if taker is None or t is None or not hits:
        return hits
    decided = t.decided
    hits = [
        (taker.id if _taken_key(kind, target) in decided else target, amount, cause, die)
        for target, amount, cause, die in hits
    ]
    if _held_offer(s, HeldLosses(kind, source, hits)) is None:
        return hits
    emit(
        LossesHeld(
            kind=kind,
            source=source,
            losses=tuple(HeldLoss(player=p, amount=n, cause=c, die=d) for p, n, c, d in hits),
        )
    )
    return None


def _held_question(s: GameState) -> Awaiting | Step:
    """``LossRule.held``: Molly's next question (there is one while losses are held)."""
    assert s.held is not None
    offer = _held_offer(s, s.held)
    assert offer is not None, "losses are held only while a question about them is open"
    return offer[1]


def _planned(s: GameState) -> tuple[str, dict[PlayerId, int]]:
    """The step whose losses are planned before it fires (shots, else the gatling) and its plan:
    as ``flow`` asks Bart Cassidy about it."""
    t = s.turn
    assert t is not None
    if t.shots_done or not t.final_dice().shoot:
        return BatchKind.GATLING, {p.id: 1 for p in gatling_victims(s, s.by_id[t.player])}
    return BatchKind.SHOTS, shot_damage(t)


def _first(
    s: GameState, kind: str, target: PlayerState, amount: int, planned: Mapping[PlayerId, int]
) -> Awaiting | None:
    """``LossRule.first``: before a target's own option about a planned loss (Bart Cassidy),
    Molly's question about it."""
    t = s.turn
    taker = _taker(s)
    if taker is None or t is None:
        return None
    if _taken_key(kind, target.id) in t.decided or _left_key(kind, target.id) in t.decided:
        return None
    own_loss = target.character.ability.own_loss
    if own_loss is not None:
        amount = own_loss(kind, amount)
    offer = taker.character.ability.others_loss
    assert offer is not None
    return offer(s, taker, target, amount, taker.life - planned.get(taker.id, 0))


def offered(s: GameState) -> PlayerId | None:
    """Whose loss Molly is being asked about (the question must be open)."""
    if s.held is not None:
        found = _held_offer(s, s.held)
        return None if found is None else found[0]
    t = s.turn
    assert t is not None
    kind, planned = _planned(s)
    for p in clockwise_from(s, s.by_id[t.player]):
        damage = planned.get(p.id, 0)
        on_damage = p.character.ability.on_damage
        if damage and p.alive and on_damage is not None:
            if _first(s, kind, p, damage, planned) is not None:
                return p.id
            if on_damage(s, kind, p, damage) is not None:
                return None
    return None


def _release(s: GameState, held: HeldLosses, emit: Emit) -> None:
    """Every answer is in: the held losses apply, Molly's instead of those she took, then the
    rest of the step that held them."""
    taker = _taker(s)
    hits: list[Loss] = [
        (taker.id if taker is not None and held.answers.get(target) else target, amount, cause, die)
        for target, amount, cause, die in held.hits
    ]
    settle_losses(s, hits, held.source, emit)
    if not step_goes_on(s):  # over, or its eliminations held in turn (OS3): they finish it
        return
    if held.kind == INDIAN_ATTACK:
        finish_loss_step(s, Cause.INDIAN_ATTACK, emit)
    elif held.kind == BatchKind.GATLING:
        finish_loss_step(s, Cause.GATLING, emit)


LOSSES = LossRule(hold=_hold, held=_held_question, first=_first)


# --- decisions ----------------------------------------------------------------------------------------


def _decline(s: GameState, q: Awaiting) -> cmd.GameCommand | None:
    return cmd.Decline(player=q.player)


def _check_nothing(s: GameState, q: Awaiting, c: cmd.Command) -> None:
    assert isinstance(c, cmd.SeizeChiefArrow | cmd.Decline)


def _respond_apache(s: GameState, q: Awaiting, c: cmd.Command, emit: Emit) -> None:
    if isinstance(c, cmd.Decline):
        emit(PowerDeclined(player=c.player, decision=APACHE_TAKE_CHIEF))
        return
    assert s.chief_holder is not None
    emit(ChiefArrowSeized(player=c.player, holder=s.chief_holder))


def _generate_apache(s: GameState, q: Awaiting) -> Iterator[cmd.GameCommand]:
    yield cmd.Decline(player=q.player)
    yield cmd.SeizeChiefArrow(player=q.player)


def _check_give(s: GameState, q: Awaiting, c: cmd.Command) -> None:
    if isinstance(c, cmd.Decline):
        return
    assert isinstance(c, cmd.GiveArrow)
    living_target(s, c.target)
    if c.target == c.player:
        raise IllegalCommand(f"{c.player} gives the arrow to another player, not to herself")
    if s.by_id[c.target].zombie:  # UA4
        raise IllegalCommand(f"{c.target} is a zombie and takes no arrows")
    if c.chief and not s.chief_in_pile:
        raise IllegalCommand(f"'{c}': the Chief's Arrow is not in the pile")


def _respond_give(s: GameState, q: Awaiting, c: cmd.Command, emit: Emit) -> None:
    if isinstance(c, cmd.Decline):
        emit(PowerDeclined(player=c.player, decision=ELENA_GIVE))
        return
    assert isinstance(c, cmd.GiveArrow)
    emit(ArrowGiven(player=c.player, target=c.target, chief=c.chief))
    take_arrow(s, c.target, ArrowReason.ROLL, emit, chief=c.chief)


def _generate_give(s: GameState, q: Awaiting) -> Iterator[cmd.GameCommand]:
    yield cmd.Decline(player=q.player)
    chief = s.chief_in_pile and s.arrow_pile > 1
    for p in clockwise_from(s, s.by_id[q.player]):
        if p.alive and p.id != q.player and not p.zombie:  # UA4: a zombie takes no arrows
            yield cmd.GiveArrow(player=q.player, target=p.id)
            if chief:
                yield cmd.GiveArrow(player=q.player, target=p.id, chief=True)


def _check_take(s: GameState, q: Awaiting, c: cmd.Command) -> None:
    if isinstance(c, cmd.Decline):
        return
    assert isinstance(c, cmd.TakeLoss)
    target = offered(s)
    if c.target != target:
        raise IllegalCommand(f"'{c}': the loss {c.player} may take now is {target}'s")


def _respond_take(s: GameState, q: Awaiting, c: cmd.Command, emit: Emit) -> None:
    target = offered(s)
    assert target is not None
    held = s.held
    if isinstance(c, cmd.Decline):
        emit(LossLeft(player=c.player, target=target))
    else:
        emit(LossTakenOver(player=c.player, target=target))
    if held is not None and s.held is None:  # that was the last answer: the step goes on
        _release(s, held, emit)


def _generate_take(s: GameState, q: Awaiting) -> Iterator[cmd.GameCommand]:
    yield cmd.Decline(player=q.player)
    target = offered(s)
    if target is not None:
        yield cmd.TakeLoss(player=q.player, target=target)


DECISIONS: tuple[DecisionSpec, ...] = (
    DecisionSpec(
        APACHE_TAKE_CHIEF,
        Who.ACTIVE,
        TurnPoint.ON_RESOLVE_ARROWS,
        "decide whether to take the Chief's Arrow from its holder for this arrow",
        (cmd.SeizeChiefArrow, cmd.Decline),
        _check_nothing,
        _respond_apache,
        _generate_apache,
        _decline,
        BotHint.DECLINE,
        optional=True,
    ),
    DecisionSpec(
        ELENA_GIVE,
        Who.ACTIVE,
        TurnPoint.ON_RESOLVE_ARROWS,
        "decide whether to give one of this roll's arrows to another player",
        (cmd.GiveArrow, cmd.Decline),
        _check_give,
        _respond_give,
        _generate_give,
        _decline,
        BotHint.HURT,
        optional=True,
    ),
    DecisionSpec(
        MOLLY_TAKE,
        Who.OWNER,
        TurnPoint.ON_DAMAGE,
        "decide whether to lose another player's life in his place",
        (cmd.TakeLoss, cmd.Decline),
        _check_take,
        _respond_take,
        _generate_take,
        _decline,
        BotHint.DECLINE,
        optional=True,
    ),
)


# --- the state changes ------------------------------------------------------------------------------


def _turn(s: GameState) -> TurnState:
    assert s.turn is not None
    return s.turn


def _arrows_held_back(s: GameState, e: ArrowsHeldBack) -> None:
    _turn(s).roll_arrows_left = 0


def _final_arrows_due(s: GameState, e: FinalArrowsDue) -> None:
    t = _turn(s)
    t.decided.add(BILL_DONE)
    t.roll_arrows_left = e.count


def _chief_arrow_seized(s: GameState, e: ChiefArrowSeized) -> None:
    s.by_id[e.holder].arrows -= 1
    s.by_id[e.player].arrows += 1
    s.chief_holder = e.player
    _turn(s).roll_arrows_left -= 1


def _arrow_given(s: GameState, e: ArrowGiven) -> None:
    t = _turn(s)
    t.decided.add(occasion(t, ELENA_GIVE))  # the token itself moves with the next event


def _power_declined(s: GameState, e: PowerDeclined) -> None:
    t = _turn(s)
    t.decided.add(occasion(t, e.decision))


def _shots_rewarded(s: GameState, e: ShotsRewarded) -> None:
    _turn(s).decided.add(DOC_DONE)


def _losses_held(s: GameState, e: LossesHeld) -> None:
    s.held = HeldLosses(e.kind, e.source, [(h.player, h.amount, h.cause, h.die) for h in e.losses])


def _answered(s: GameState, target: PlayerId, took: bool) -> None:
    held = s.held
    if held is not None:
        held.answers[target] = took
        if _held_offer(s, held) is None:
            s.held = None  # released: its losses apply with the events that follow
        return
    # asked before the step, ahead of the target's own option (Bart Cassidy's arrows)
    t = _turn(s)
    kind, _ = _planned(s)
    if took:
        t.decided.add(_taken_key(kind, target))
        t.arrows_instead[f"{kind}:{target}"] = 0  # his own option no longer arises
    else:
        t.decided.add(_left_key(kind, target))


def _loss_taken_over(s: GameState, e: LossTakenOver) -> None:
    _answered(s, e.target, True)


def _loss_left(s: GameState, e: LossLeft) -> None:
    _answered(s, e.target, False)


_HANDLERS: dict[type[ev.Event], Handler] = {
    ArrowsHeldBack: _arrows_held_back,
    FinalArrowsDue: _final_arrows_due,
    ChiefArrowSeized: _chief_arrow_seized,
    ArrowGiven: _arrow_given,
    PowerDeclined: _power_declined,
    ShotsRewarded: _shots_rewarded,
    LossesHeld: _losses_held,
    LossTakenOver: _loss_taken_over,
    LossLeft: _loss_left,
}


# --- the characters ------------------------------------------------------------------------------------

APACHE_KID = Ability(roll_arrow=_apache_kid)
BILL_NOFACE = Ability(roll_arrow=_bill_noface_waits, after_rolling=_bill_noface_takes)
ELENA_FUENTE = Ability(roll_arrow=_elena_fuente)
VERA_CUSTER = Ability(own_loss=_vera_custer)
DOC_HOLYDAY = Ability(after_shots=_doc_holyday)
MOLLY_STARK = Ability(others_loss=_molly_stark)

CHARACTERS: tuple[Character, ...] = (
    Character(CharacterId.JOSE_DELGADO, "José Delgado", 7, ability=BASE_RULES),
    Character(CharacterId.TEQUILA_JOE, "Tequila Joe", 7, ability=BASE_RULES),
    Character(CharacterId.APACHE_KID, "Apache Kid", 9, ability=APACHE_KID),
    Character(CharacterId.BILL_NOFACE, "Bill Noface", 9, ability=BILL_NOFACE),
    Character(CharacterId.ELENA_FUENTE, "Elena Fuente", 7, ability=ELENA_FUENTE),
    Character(CharacterId.VERA_CUSTER, "Vera Custer", 7, ability=VERA_CUSTER),
    Character(CharacterId.DOC_HOLYDAY, "Doc Holyday", 8, ability=DOC_HOLYDAY),
    Character(CharacterId.MOLLY_STARK, "Molly Stark", 8, ability=MOLLY_STARK),
)
"""José Delgado's and Tequila Joe's sixth die is OS1's hand (``saloon_dice.hand_with``)."""

OS4 = RulesModule(
    ModuleId.OS4,
    characters=CHARACTERS,
    decisions=DECISIONS,
    events=MappingProxyType(_HANDLERS),
    losses=LOSSES,
)
"""OS4, A Posse of New Characters."""
