"""The turn, step by step: what happens next from any state.

``next_move(state)`` is the single answer to "what now?": either the open question
(an ``Awaiting``), or an automatic step to take (a function that emits events), or None when
the game is over. ``advance`` takes automatic steps until a decision is needed. Because the
answer is computed from the state alone, a state rebuilt from events resumes exactly where
the live game stood.

Order of a turn (RULINGS.md): start-of-turn heal → roll, taking each roll's arrows at once →
rerolls → dynamite → shots (all at once) → beers → gatling → arrow removal → end-of-turn heal.
"""

from __future__ import annotations

from collections.abc import Callable

from services.game.rules.dice import events as ev
from services.game.rules.dice.awaiting import Awaiting, Decision
from services.game.rules.dice.outcome import check_end
from services.game.rules.dice.state import BatchKind, DamageBatch, GameState, PlayerState, TurnState
from services.game.rules.dice.table import next_living_seat
from services.game.rules.dice.vocabulary import (
    DYNAMITE,
    SHOOT_FACES,
    ArrowReason,
    Cause,
    DieIndex,
    Face,
    GainCause,
    Phase,
    PlayerId,
    RollingEnd,
)

Emit = Callable[[ev.Event], None]
Step = Callable[[GameState, Emit], None]
Move = Awaiting | Step | None

Hit = tuple[PlayerId, int, Cause, DieIndex | None]
"""(target, life to lose, cause, die)."""

SHOT_CAUSE = {Face.SHOOT1: Cause.SHOOT1, Face.SHOOT2: Cause.SHOOT2}
"""The cause of a loss to a die used as this face."""


def advance(state: GameState, emit: Emit) -> Awaiting | None:
    """Take automatic steps until the game awaits a decision (returned) or is over (None)."""
    while True:
        move = next_move(state)
        if move is None or isinstance(move, Awaiting):
            state.resting = (state.version, move)
            return move
        move(state, emit)


def next_move(s: GameState) -> Move:
    if s.phase is Phase.OVER:
        return None
    t = s.turn
    if t is None:
        return _start_next_turn
    active = s.by_id[t.player]
    if not active.alive:
        return _end_turn
    if t.phase is Phase.ROLLING:
        return _rolling_move(s, t, active)
    return _resolving_move(s, t, active)


# --- rolling ----------------------------------------------------------------------------------


def _rolling_move(s: GameState, t: TurnState, active: PlayerState) -> Move:
    ch = active.character
    if ch.heals_at_turn_start and t.rolls_used == 0 and "turn_start_heal" not in t.decided:
        return Awaiting(player=active.id, decision=Decision.TURN_START_HEAL)
    if t.pending_roll is not None:
        return Awaiting(player=active.id, decision=Decision.ROLL, dice=t.pending_roll)
    if t.roll_arrows_left > 0:
        return _take_roll_arrow
    if t.count(DYNAMITE) >= 3:
        return _finalize(RollingEnd.THREE_DYNAMITE)
    max_rolls = 1 + ch.rerolls
    if t.rolls_used >= max_rolls:
        return _finalize(RollingEnd.NO_REROLLS_LEFT)
    return Awaiting(
        player=active.id,
        decision=Decision.REROLL_OR_STOP,
        dice=rerollable_dice(t, active),
        rolls_left=max_rolls - t.rolls_used,
    )


def rerollable_dice(t: TurnState, active: PlayerState) -> tuple[DieIndex, ...]:
    if active.character.rerolls_dynamite:
        return tuple(range(len(t.dice)))
    return tuple([i for i, f in enumerate(t.dice) if f is not DYNAMITE])


def _take_roll_arrow(s: GameState, emit: Emit) -> None:
    assert s.turn is not None
    take_arrow(s, s.turn.player, ArrowReason.ROLL, emit)


def _finalize(reason: RollingEnd) -> Step:
    def finalize(s: GameState, emit: Emit) -> None:
        assert s.turn is not None
        emit(ev.DiceFinalized(player=s.turn.player, faces=tuple(s.turn.faces()), reason=reason))

    return finalize


# --- resolving --------------------------------------------------------------------------------


def _resolving_move(s: GameState, t: TurnState, active: PlayerState) -> Move:
    ch = active.character
    final = t.final_dice()
    if t.batch is not None:
        reaction = _batch_reaction(s, t.batch, active)
        if reaction is not None:
            return reaction
    if final.dynamite >= 3 and not t.dynamite_done:
        return _explode_dynamite
    # once fired, every shoot die had its target (and Slab had answered): nothing left to ask
    shoot = final.shoot
    if shoot and not t.shots_done:
        if ch.doubles_shot_with_beer and "double_shot" not in t.decided and final.beer:
            return Awaiting(player=active.id, decision=Decision.DOUBLE_SHOT, dice=shoot + final.beer)
        untargeted = tuple([i for i in shoot if i not in t.targets])
        if untargeted:
            return Awaiting(player=active.id, decision=Decision.SHOT_TARGET, dice=untargeted)
        return _arrows_instead_question(s, BatchKind.SHOTS, shot_damage(t)) or _fire_shots
    # likewise once poured, every beer had its target
    if not t.beers_done:
        beers = t.beer_dice()
        if beers:
            untargeted = tuple([i for i in beers if i not in t.targets])
            if untargeted:
                return Awaiting(player=active.id, decision=Decision.BEER_TARGET, dice=untargeted)
            return _pour_beers
    gatlings = final.gatling
    if gatlings >= ch.gatling_threshold and not t.gatling_done:
        planned = {p.id: 1 for p in gatling_victims(s, active)}
        return _arrows_instead_question(s, BatchKind.GATLING, planned) or _fire_gatling
    if (
        gatlings
        and ch.removes_arrow_per_gatling_face
        and "remove_arrows" not in t.decided
        and any(p.arrows for p in s.players if p.alive)
    ):
        return Awaiting(player=active.id, decision=Decision.REMOVE_ARROWS, max_count=gatlings)
    return _end_of_turn


def shot_damage(t: TurnState) -> dict[PlayerId, int]:
    planned: dict[PlayerId, int] = {}
    for die, (target, _face) in t.targets.items():
        if t.dice[die] in SHOOT_FACES:
            planned[target] = planned.get(target, 0) + shot_amount(t, die)
    return planned


def shot_amount(t: TurnState, die: DieIndex) -> int:
    return 2 if t.doubled is not None and t.doubled[0] == die else 1


def gatling_victims(s: GameState, active: PlayerState) -> list[PlayerState]:
    return [
        p
        for p in clockwise_from(s, active)
        if p is not active and p.alive and Cause.GATLING not in p.character.immune_to
    ]


def clockwise_from(s: GameState, first: PlayerState) -> list[PlayerState]:
    return s.players[first.seat :] + s.players[: first.seat]


def _arrows_instead_question(s: GameState, kind: str, planned: dict[PlayerId, int]) -> Awaiting | None:
    """Bart Cassidy: before losses from a player apply, may take arrows instead (never the last)."""
    t = s.turn
    assert t is not None
    if s.arrow_pile <= 1:
        return None
    by_id = s.by_id
    if not any(by_id[pid].character.arrow_instead_of_life for pid in planned):
        return None  # the usual case, answered without walking the table
    for p in clockwise_from(s, s.by_id[t.player]):
        damage = planned.get(p.id, 0)
        undecided = f"{kind}:{p.id}" not in t.arrows_instead
        if damage and p.alive and p.character.arrow_instead_of_life and undecided:
            return Awaiting(
                player=p.id,
                decision=Decision.ARROWS_INSTEAD,
                max_count=min(damage, s.arrow_pile - 1),
            )
    return None


def _batch_reaction(s: GameState, batch: DamageBatch, active: PlayerState) -> Move:
    """After losses apply: Pedro Ramirez's discards, then El Gringo's arrow for the shooter."""
    # both reactions answer a loss. A batch stays open until the next one or the turn's end and
    # this runs after every step: mostly nobody who lost life reacts, found without the table
    by_id = s.by_id
    if not any(by_id[pid].character.reacts_to_loss for pid in batch.lost):
        return None
    order = clockwise_from(s, active)
    for p in order:
        lost = batch.lost.get(p.id, 0)
        if (
            lost
            and p.alive
            and p.arrows
            and p.character.discards_arrow_on_loss
            and p.id not in batch.discard_decided
        ):
            return Awaiting(player=p.id, decision=Decision.DISCARD_ARROWS, max_count=min(lost, p.arrows))
    if batch.source is not None:
        hitting_back = [
            p
            for p in order
            if p.id != batch.source
            and p.alive
            and p.character.hit_back_with_arrow
            and batch.lost.get(p.id, 0)
        ]
        if batch.hit_backs_given < len(hitting_back):
            shooter = batch.source
            return lambda s, emit: take_arrow(s, shooter, ArrowReason.HIT_BACK, emit)
    return None


def _explode_dynamite(s: GameState, emit: Emit) -> None:
    assert s.turn is not None
    player = s.turn.player
    emit(ev.DynamiteExploded(player=player))
    apply_losses(s, [(player, 1, Cause.DYNAMITE, None)], None, emit)


def _fire_shots(s: GameState, emit: Emit) -> None:
    t = s.turn
    assert t is not None
    emit(ev.ShotsFired(player=t.player))
    avoided = {
        key.split(":", 1)[1]: n
        for key, n in t.arrows_instead.items()
        if key.startswith(BatchKind.SHOTS + ":")
    }
    hits: list[Hit] = []
    for die in sorted(t.targets):
        if t.dice[die] not in SHOOT_FACES:
            continue
        target, face = t.targets[die]
        amount = shot_amount(t, die)
        spared = min(avoided.get(target, 0), amount)
        if spared:
            avoided[target] -= spared
            amount -= spared
        if amount:
            hits.append((target, amount, SHOT_CAUSE[face], die))
    apply_losses(s, hits, t.player, emit)


def _pour_beers(s: GameState, emit: Emit) -> None:
    t = s.turn
    assert t is not None
    active = s.by_id[t.player]
    bonus = active.character.low_life_self_beer
    # Jesse Jones: his life when the beers start to resolve decides, for every beer of the turn
    self_heal = bonus[1] if bonus is not None and active.life <= bonus[0] else 1
    for die in t.beer_dice():
        target = s.by_id[t.targets[die][0]]
        heal = self_heal if target is active else 1
        emit(
            ev.LifeGained(
                player=target.id,
                amount=min(heal, target.max_life - target.life),
                cause=GainCause.BEER,
                source=active.id,
            )
        )


def _fire_gatling(s: GameState, emit: Emit) -> None:
    t = s.turn
    assert t is not None
    active = s.by_id[t.player]
    emit(ev.GatlingFired(player=active.id))
    hits: list[Hit] = [
        (p.id, 1, Cause.GATLING, None)
        for p in gatling_victims(s, active)
        if not t.arrows_instead.get(f"{BatchKind.GATLING}:{p.id}", 0)
    ]
    apply_losses(s, hits, active.id, emit)
    if s.phase is not Phase.OVER and active.arrows:
        emit(ev.ArrowsReturned(player=active.id, count=active.arrows, reason=ArrowReason.GATLING))


def _end_of_turn(s: GameState, emit: Emit) -> None:
    t = s.turn
    assert t is not None
    active = s.by_id[t.player]
    heal = active.character.end_of_turn_heal_without_shots
    if heal and not t.final_dice().shoot:
        gained = min(heal, active.max_life - active.life)
        if gained:
            emit(ev.LifeGained(player=active.id, amount=gained, cause=GainCause.END_OF_TURN_HEAL))
    emit(ev.TurnEnded(player=active.id))


def _end_turn(s: GameState, emit: Emit) -> None:
    assert s.turn is not None
    emit(ev.TurnEnded(player=s.turn.player))


def _start_next_turn(s: GameState, emit: Emit) -> None:
    player = next_living_seat(s, s.last_active_seat)
    emit(ev.TurnStarted(player=player.id, turn=s.last_turn_number + 1))


# --- arrows, losses, eliminations ---------------------------------------------------------------


def take_arrow(s: GameState, player: PlayerId, reason: ArrowReason, emit: Emit) -> None:
    emit(ev.ArrowTaken(player=player, reason=reason))
    if s.arrow_pile == 0:
        _indian_attack(s, emit)


def _indian_attack(s: GameState, emit: Emit) -> None:
    emit(ev.IndiansAttacked())
    hits: list[Hit] = []
    for p in s.players:
        if p.alive and p.arrows:
            cap = p.character.max_loss_per_indian_attack
            lost = p.arrows if cap is None else min(cap, p.arrows)
            hits.append((p.id, lost, Cause.INDIAN_ATTACK, None))
    apply_losses(s, hits, None, emit)
    if s.phase is not Phase.OVER:
        emit(ev.AllArrowsReturned())


def apply_losses(s: GameState, hits: list[Hit], source: PlayerId | None, emit: Emit) -> None:
    """Apply simultaneous losses in full, then eliminate everyone at 0 together, then reward
    Vulture Sam, then check the end of the game."""
    fatal: dict[PlayerId, Cause] = {}
    for target, amount, cause, die in hits:
        p = s.by_id[target]
        lost = min(amount, p.life)
        if lost:
            emit(ev.LifeLost(player=target, amount=lost, source=source, cause=cause, die=die))
            if p.life == 0:
                fatal[target] = cause
    eliminated = [p for p in s.players if p.alive and p.life <= 0]
    if not eliminated:
        return
    # counted only now that someone falls: losing life does not change who is alive
    alive_before = sum(1 for p in s.players if p.alive)
    turn = s.turn.number if s.turn is not None else s.last_turn_number
    for p in eliminated:
        emit(ev.PlayerEliminated(player=p.id, role=p.role, source=source, cause=fatal[p.id], turn=turn))
    for vulture in s.players:
        reward = vulture.character.life_per_other_elimination
        if vulture.alive and reward:
            for _ in eliminated:
                gained = min(reward, vulture.max_life - vulture.life)
                if gained:
                    emit(ev.LifeGained(player=vulture.id, amount=gained, cause=GainCause.ELIMINATION_REWARD))
    ended = check_end(s, eliminated, source, alive_before)
    if ended is not None:
        emit(ended)
