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
from services.game.rules.dice.abilities import Ability, base_rerollable, gain_life
from services.game.rules.dice.awaiting import Awaiting, Decision
from services.game.rules.dice.outcome import check_end
from services.game.rules.dice.state import BatchKind, DamageBatch, GameState, PlayerState, TurnState
from services.game.rules.dice.table import next_playing_seat
from services.game.rules.dice.vocabulary import (
    ANY_SHOOT_FACES,
    DYNAMITE,
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

# Enum members the steps read at every command, as module constants: on Python 3.11 reading
# an enum member (``Phase.OVER``) goes through the enum class, ten times a constant's read
_OVER, _ROLLING = Phase.OVER, Phase.ROLLING
_ROLL, _REROLL_OR_STOP = Decision.ROLL, Decision.REROLL_OR_STOP
_SHOT_TARGET, _BEER_TARGET = Decision.SHOT_TARGET, Decision.BEER_TARGET
_GATLING_CAUSE = Cause.GATLING
_ROLL_ARROW, _BEER_GAIN = ArrowReason.ROLL, GainCause.BEER

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
    if s.phase is _OVER:
        return None
    hooks = s.rules.hooks
    if hooks:  # a module's open business first (none in the base game)
        for rule in hooks:
            if rule.interrupt is not None:
                move = rule.interrupt(s)
                if move is not None:
                    return move
    t = s.turn
    if t is None:
        return _start_next_turn
    if s.held is not None:  # a step's losses wait for answers (OS4's Molly Stark)
        assert s.rules.losses is not None
        return s.rules.losses.held(s)
    active = s.by_id[t.player]
    if not active.alive:
        for rule in hooks:  # a seat out of play that keeps its turn (OS5's Ghost)
            if rule.eliminated_turn is not None:
                move = rule.eliminated_turn(s, t, active)
                if move is not None:
                    return move
        return _end_turn
    if t.phase is _ROLLING:
        return _rolling_move(s, t, active, hooks)
    return _resolving_move(s, t, active)


# --- rolling ----------------------------------------------------------------------------------


def _rolling_move(s: GameState, t: TurnState, active: PlayerState, hooks: tuple[Ability, ...]) -> Move:
    ch = active.character
    ability = ch.ability
    first = t.rolls_used == 0
    if first and hooks and active.zombie_since is not None:
        first = False  # UA4: a plain zombie has no card, token, power or Saloon die to start with
    if first and hooks:
        for rule in hooks:  # the modules' own start of turn (none in the base game)
            if rule.start_of_turn is not None:
                question = rule.start_of_turn(s, t, active)
                if question is not None:
                    return question
    start = ability.start_of_turn
    if start is not None:
        question = start(s, t, active)
        if question is not None:
            return question
    if first and hooks:
        for rule in hooks:  # cards revealed at the start of the turn (UA2's Rage, S4)
            if rule.reveal is not None:
                move = rule.reveal(s, t, active)
                if move is not None:
                    return move
        for rule in hooks:  # the dice of the turn (OS1's Saloon die), last before rolling
            if rule.choose_dice is not None:
                question = rule.choose_dice(s, t, active)
                if question is not None:
                    return question
        for rule in hooks:  # dice set before the first roll (OS5's Ghost-preset dice)
            if rule.before_first_roll is not None:
                step = rule.before_first_roll(s, t, active)
                if step is not None:
                    return step
    if t.pending_roll is not None:
        return Awaiting(player=active.id, decision=_ROLL, dice=t.pending_roll)
    if t.roll_arrows_left > 0:
        roll_arrow = ability.roll_arrow
        if roll_arrow is not None:  # the roller's own rule for his arrow faces (OS4)
            move = roll_arrow(s, t, active)
            if move is not None:
                return move
        if s.rules.arrow_choice is None:
            return _take_roll_arrow
        return arrow_move(s, active.id, _take_roll_arrow)
    if hooks:
        if t.batch is not None:  # a loss while rolling (OS1's bullet): the reactions to it first
            reaction = _batch_reaction(s, t.batch, active)
            if reaction is not None:
                return reaction
        for rule in hooks:  # the modules' effects of each roll (OS1's broken arrows, bullets)
            if rule.after_roll is not None:
                move = rule.after_roll(s, t, active)
                if move is not None:
                    return move
    own_after_roll = ability.after_roll
    if own_after_roll is not None:  # the roller's own rule after each roll (UA3's Belle Star)
        move = own_after_roll(s, t, active)
        if move is not None:
            return move
    if t.count(DYNAMITE) >= 3:
        return _finalize_three_dynamite
    max_rolls = 1 + ch.rerolls
    if t.rolls_used >= max_rolls:
        return _finalize_no_rerolls_left
    rerollable = (ability.on_keep or base_rerollable)(t)
    if t.preset:  # a Ghost-preset die is never rerolled, whatever the character (OS5)
        rerollable = tuple([i for i in rerollable if i not in t.preset])
    return Awaiting(
        player=active.id,
        decision=_REROLL_OR_STOP,
        dice=rerollable,
        rolls_left=max_rolls - t.rolls_used,
    )


def arrow_move(s: GameState, taker: PlayerId, take: Step) -> Move:
    """Taking one arrow from the pile: the token chosen first when a module offers a choice
    (OS2: the Chief's Arrow or a regular one), else ``take``."""
    choice = s.rules.arrow_choice
    if choice is not None:
        question = choice(s, taker)
        if question is not None:
            return question
    return take


def _take_roll_arrow(s: GameState, emit: Emit) -> None:
    assert s.turn is not None
    take_arrow(s, s.turn.player, _ROLL_ARROW, emit)


def _finalize(reason: RollingEnd) -> Step:
    def finalize(s: GameState, emit: Emit) -> None:
        assert s.turn is not None
        emit(ev.DiceFinalized(player=s.turn.player, faces=tuple(s.turn.faces()), reason=reason))

    return finalize


# made once: the rolling steps ask for them at the end of every turn's rolls
_finalize_three_dynamite = _finalize(RollingEnd.THREE_DYNAMITE)
_finalize_no_rerolls_left = _finalize(RollingEnd.NO_REROLLS_LEFT)


# --- resolving --------------------------------------------------------------------------------


def _resolving_move(s: GameState, t: TurnState, active: PlayerState) -> Move:
    ch = active.character
    ability = ch.ability
    final = t.final_dice()
    if t.batch is not None:
        reaction = _batch_reaction(s, t.batch, active)
        if reaction is not None:
            return reaction
    after_rolling = ability.after_rolling
    if after_rolling is not None:  # the roller's own step once rolling is over (OS4's Bill Noface)
        move = after_rolling(s, t, active)
        if move is not None:
            return move
    if final.dynamite >= 3 and not t.dynamite_done:
        return _explode_dynamite
    hooks = s.rules.hooks
    for rule in hooks:  # a module's steps between dynamite and shots (UA1's whiskey, wounds)
        if rule.after_dynamite is not None:
            move = rule.after_dynamite(s, t, active)
            if move is not None:
                return move
    # once fired, every shoot die had its target (and Slab had answered): nothing left to ask
    shoot = final.shoot
    if shoot and not t.shots_done:
        before_shots = ability.before_shots
        if before_shots is not None:
            question = before_shots(s, t, active, final)
            if question is not None:
                return question
        untargeted = tuple([i for i in shoot if i not in t.targets])
        if final.doubles:
            untargeted = _with_second_symbols(t, untargeted, shoot, final.doubles)
        if untargeted:
            return Awaiting(player=active.id, decision=_SHOT_TARGET, dice=untargeted)
        return _arrows_instead_question(s, BatchKind.SHOTS, shot_damage(t)) or _fire_shots
    after_shots = ability.after_shots
    if after_shots is not None and t.shots_done:  # the shooter's own step after the shots (OS4)
        move = after_shots(s, t, active)
        if move is not None:
            return move
    # likewise once poured, every beer had its target
    if not t.beers_done:
        beers = t.beer_dice()
        if beers:
            untargeted = tuple([i for i in beers if i not in t.targets])
            if final.doubles:
                untargeted = _with_second_symbols(t, untargeted, beers, final.doubles)
            if untargeted:
                return Awaiting(player=active.id, decision=_BEER_TARGET, dice=untargeted)
            return _pour_beers
    else:
        after_beers = ability.after_beers
        if after_beers is not None:  # the pourer's own step after the beers (UA3's Greg Digger)
            move = after_beers(s, t, active)
            if move is not None:
                return move
    gatlings = final.gatling
    if gatlings >= ch.gatling_threshold and not t.gatling_done:
        planned = {p.id: 1 for p in gatling_victims(s, active)}
        return _arrows_instead_question(s, BatchKind.GATLING, planned) or _fire_gatling
    after_gatling = ability.after_gatling
    if gatlings and after_gatling is not None:
        question = after_gatling(s, t, active, gatlings)
        if question is not None:
            return question
    for rule in hooks:  # a module's last steps of the resolution (UA1's duels)
        if rule.after_resolving is not None:
            move = rule.after_resolving(s, t, active)
            if move is not None:
                return move
    return _end_of_turn


def _with_second_symbols(
    t: TurnState, untargeted: tuple[DieIndex, ...], dice: tuple[DieIndex, ...], doubles: tuple[DieIndex, ...]
) -> tuple[DieIndex, ...]:
    """``untargeted`` plus the double dice among ``dice`` whose second symbol has no target yet
    (a beer half spent by Slab leaves one symbol to aim)."""
    spent = t.doubled[1] if t.doubled is not None else None
    seconds = [
        i for i in doubles if i in dice and i in t.targets and i not in t.second_targets and i != spent
    ]
    return tuple(sorted((*untargeted, *seconds))) if seconds else untargeted


def shot_damage(t: TurnState) -> dict[PlayerId, int]:
    planned: dict[PlayerId, int] = {}
    for die, (target, _face) in t.targets.items():
        if t.dice[die] in ANY_SHOOT_FACES:
            planned[target] = planned.get(target, 0) + shot_amount(t, die)
    for die, (target, _face) in t.second_targets.items():
        if t.dice[die] in ANY_SHOOT_FACES:
            planned[target] = planned.get(target, 0) + 1
    return planned


def shot_amount(t: TurnState, die: DieIndex) -> int:
    """The first symbol of ``die``: 2 when Slab doubled it (a double's second symbol is 1)."""
    return 2 if t.doubled is not None and t.doubled[0] == die else 1


def gatling_victims(s: GameState, active: PlayerState) -> list[PlayerState]:
    return [
        p
        for p in clockwise_from(s, active)
        if p is not active and p.alive and _GATLING_CAUSE not in p.character.immune_to
    ]


def clockwise_from(s: GameState, first: PlayerState) -> list[PlayerState]:
    return s.players[first.seat :] + s.players[: first.seat]


def _arrows_instead_question(s: GameState, kind: str, planned: dict[PlayerId, int]) -> Awaiting | None:
    """``TurnPoint.ON_DAMAGE``: before losses from a player apply, each player about to lose
    life whose ability answers them (Bart Cassidy), clockwise from the active player."""
    t = s.turn
    assert t is not None
    if s.damage_askers.isdisjoint(planned):
        return None  # the usual case, answered without walking the table
    for p in clockwise_from(s, s.by_id[t.player]):
        damage = planned.get(p.id, 0)
        on_damage = p.character.ability.on_damage
        if damage and p.alive and on_damage is not None:
            losses = s.rules.losses
            if losses is not None:  # a module's question about his loss comes first (OS4)
                question = losses.first(s, kind, p, damage, planned)
                if question is not None:
                    return question
            question = on_damage(s, kind, p, damage)
            if question is not None:
                return question
    return None


def _batch_reaction(s: GameState, batch: DamageBatch, active: PlayerState) -> Move:
    """``TurnPoint.AFTER_DAMAGE``: the survivors' questions (Pedro Ramirez's discards), then
    the arrows the step's source takes for whom it hit (El Gringo)."""
    # A batch stays open until the next one or the turn's end and this runs after every step:
    # mostly nobody who lost life reacts, found without the table
    if s.reactors.isdisjoint(batch.lost):
        return None
    order = clockwise_from(s, active)
    for p in order:
        lost = batch.lost.get(p.id, 0)
        after_damage = p.character.ability.after_damage
        if lost and p.alive and after_damage is not None:
            question = after_damage(s, batch, p, lost)
            if question is not None:
                return question
    if batch.source is not None and s.by_id[batch.source].zombie_since is None:  # UA4: no arrows
        owed = 0
        for p in order:
            hit_back = p.character.ability.hit_back
            if hit_back is not None and p.alive:
                owed += hit_back(batch, p)
        if batch.hit_backs_given < owed:
            shooter = batch.source
            return arrow_move(s, shooter, lambda s, emit: take_arrow(s, shooter, ArrowReason.HIT_BACK, emit))
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
        _aim_shot(t, die, t.targets[die], shot_amount(t, die), avoided, hits)
    for die in sorted(t.second_targets):  # the second symbols of double faces (OS1)
        _aim_shot(t, die, t.second_targets[die], 1, avoided, hits)
    apply_losses(s, hits, t.player, emit)


def _aim_shot(
    t: TurnState,
    die: DieIndex,
    aim: tuple[PlayerId, Face],
    amount: int,
    avoided: dict[str, int],
    hits: list[Hit],
) -> None:
    """One aimed symbol's hit, less what Bart Cassidy took as arrows instead."""
    if t.dice[die] not in ANY_SHOOT_FACES:
        return  # a beer's aim
    target, face = aim
    spared = min(avoided.get(target, 0), amount)
    if spared:
        avoided[target] -= spared
        amount -= spared
    if amount:
        hits.append((target, amount, SHOT_CAUSE[face], die))


def _pour_beers(s: GameState, emit: Emit) -> None:
    t = s.turn
    assert t is not None
    active = s.by_id[t.player]
    own_beer = active.character.ability.own_beer
    # judged now, when the beers start to resolve, for every beer of the turn (Jesse Jones)
    self_heal = 1 if own_beer is None else own_beer(active)
    others_beer = active.character.ability.others_beer
    other_heal = 1 if others_beer is None else others_beer(active)
    beers = t.beer_dice()
    targets = t.targets
    aimed = [targets[die][0] for die in beers]
    seconds = t.second_targets
    if seconds:  # the second symbols of double beers (OS1)
        aimed += [seconds[die][0] for die in beers if die in seconds]
    for target_id in aimed:
        target = s.by_id[target_id]
        heal = self_heal if target is active else other_heal
        gain_life(
            s,
            ev.LifeGained(
                player=target.id,
                amount=min(heal, target.max_life - target.life),
                cause=_BEER_GAIN,
                source=active.id,
            ),
            emit,
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
    if step_goes_on(s):
        finish_loss_step(s, _GATLING_CAUSE, emit)


def _end_of_turn(s: GameState, emit: Emit) -> None:
    t = s.turn
    assert t is not None
    active = s.by_id[t.player]
    end_of_turn = active.character.ability.end_of_turn
    if end_of_turn is not None:
        end_of_turn(s, t, active, emit)
    for rule in s.rules.hooks:
        if rule.end_of_turn is not None:
            rule.end_of_turn(s, t, active, emit)
    emit(ev.TurnEnded(player=active.id))


def _end_turn(s: GameState, emit: Emit) -> None:
    assert s.turn is not None
    emit(ev.TurnEnded(player=s.turn.player))


def _start_next_turn(s: GameState, emit: Emit) -> None:
    player = next_playing_seat(s, s.last_active_seat)
    emit(ev.TurnStarted(player=player.id, turn=s.last_turn_number + 1))


# --- arrows, losses, eliminations ---------------------------------------------------------------


def take_arrow(
    s: GameState, player: PlayerId, reason: ArrowReason, emit: Emit, *, chief: bool = False
) -> None:
    """``player`` takes one token from the pile: the Chief's Arrow when ``chief`` or when it is
    the pile's last token (OS2), else a regular one. Taking the last token brings the attack."""
    if chief or (s.chief_in_pile and s.arrow_pile == 1):
        emit(ev.ChiefArrowTaken(player=player, reason=reason))
    else:
        emit(ev.ArrowTaken(player=player, reason=reason))
    if s.arrow_pile == 0:
        _indian_attack(s, emit)


def _indian_attack(s: GameState, emit: Emit) -> None:
    emit(ev.IndiansAttacked())
    hits: list[Hit] = []
    worth = {p.id: p.arrows for p in s.players if p.alive and p.arrows}
    spared = None
    holder = s.chief_holder
    if holder is not None and holder in worth:
        # OS2: the Chief's Arrow counts two; its holder loses nothing if he alone has the most
        worth[holder] += 1
        if all(n < worth[holder] for pid, n in worth.items() if pid != holder):
            spared = holder
    for p in s.players:
        if p.id in worth and p.id != spared:
            cap = p.character.max_loss_per_indian_attack
            lost = worth[p.id] if cap is None else min(cap, worth[p.id])
            hits.append((p.id, lost, Cause.INDIAN_ATTACK, None))
    apply_losses(s, hits, None, emit)
    if step_goes_on(s):
        finish_loss_step(s, Cause.INDIAN_ATTACK, emit)


def step_goes_on(s: GameState) -> bool:
    """Whether the step whose losses were just applied goes on at once: its eliminations and
    the end of the game are settled (RULINGS: "a game-ending gatling returns no arrows") and no
    module holds its losses (OS4's Molly Stark) or its eliminations (OS3's Main Gauche). A held
    step goes on once they are settled (``finish_loss_step``), never when the game has ended."""
    if s.phase is _OVER or s.held is not None:
        return False
    special = s.special
    return special is None or special.held is None


def finish_loss_step(s: GameState, cause: Cause, emit: Emit) -> None:
    """What a loss event does after its eliminations, when the game goes on: the gatling's
    shooter returns all his arrows; after the Indian attack every arrow returns to the pile.
    The same in every module set, whoever held the step (RULINGS, "Damage, elimination")."""
    if cause is Cause.INDIAN_ATTACK:
        emit(ev.AllArrowsReturned())
    elif cause is _GATLING_CAUSE:
        assert s.turn is not None
        active = s.by_id[s.turn.player]
        if active.arrows:
            emit(ev.ArrowsReturned(player=active.id, count=active.arrows, reason=ArrowReason.GATLING))


def apply_losses(s: GameState, hits: list[Hit], source: PlayerId | None, emit: Emit) -> None:
    """Apply simultaneous losses in full, then eliminate everyone at 0 together, then reward
    Vulture Sam, then check the end of the game. A module may change the losses first or hold
    them back for questions (``modules.LossRule``: OS4); it settles them later."""
    losses = s.rules.losses
    if losses is not None:
        now = losses.hold(s, hits, source, emit)
        if now is None:
            return
        hits = now
    settle_losses(s, hits, source, emit)


def settle_losses(s: GameState, hits: list[Hit], source: PlayerId | None, emit: Emit) -> None:
    """``apply_losses`` once every rule about the amounts and who loses them has had its say."""
    fatal: dict[PlayerId, Cause] = {}
    for target, amount, cause, die in hits:
        p = s.by_id[target]
        lost = min(amount, p.life)
        if lost:
            emit(ev.LifeLost(player=target, amount=lost, source=source, cause=cause, die=die))
            if p.life == 0:
                fatal[target] = cause
    if not fatal:
        return
    for rule in s.rules.hooks:  # a module may hold the eliminations for a window (OS3)
        if rule.hold_eliminations is not None and rule.hold_eliminations(s, fatal, source, emit):
            return
    eliminate(s, fatal, source, emit)


def eliminate(s: GameState, fatal: dict[PlayerId, Cause], source: PlayerId | None, emit: Emit) -> None:
    """Eliminate every living player at 0 life together (``fatal``: the cause of each one's
    last loss), then reward Vulture Sam, then check the end of the game."""
    eliminated = [p for p in s.players if p.alive and p.life <= 0]
    if not eliminated:
        return
    # counted only now that someone falls: losing life does not change who is alive
    alive_before = sum(1 for p in s.players if p.alive)
    turn = s.turn.number if s.turn is not None else s.last_turn_number
    for p in eliminated:
        emit(ev.PlayerEliminated(player=p.id, role=p.role, source=source, cause=fatal[p.id], turn=turn))
    for p in s.players:
        on_elimination = p.character.ability.on_elimination
        if on_elimination is not None and p.alive:
            on_elimination(s, p, eliminated, emit)
    if s.rules.hooks and s.turn is not None:
        active = s.by_id[s.turn.player]
        for rule in s.rules.hooks:  # the modules' own (OS5: the first eliminated becomes the Ghost)
            if rule.on_elimination is not None:
                rule.on_elimination(s, active, eliminated, emit)
    ended = check_end(s, eliminated, source, alive_before)
    if ended is not None:
        special = s.special
        if special is not None and special.held_gains:
            # OS3: no window opens once the game is decided; a gain held in the step that ends it
            # (Vulture Sam's reward) applies as in every module set, before the end
            from services.game.rules.dice.old_saloon.special_roles import release_gains

            release_gains(s, emit)
        emit(ended)
