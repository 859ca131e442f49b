"""decide(state, command) -> events: check a command against the rules and say what follows.

The command is checked completely before anything is emitted, so a refused command changes
nothing. Its events are then produced by applying each to a working state as it is emitted
(``evolve``), which keeps "the state is the fold of the events" true by construction.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from services.game.rules.dice import commands as cmd
from services.game.rules.dice import events as ev
from services.game.rules.dice.awaiting import Awaiting, Decision
from services.game.rules.dice.errors import GameOver, IllegalCommand, MalformedCommand, NotAwaited
from services.game.rules.dice.evolve import evolve
from services.game.rules.dice.flow import advance, next_move, take_arrow
from services.game.rules.dice.state import GameState, TurnState
from services.game.rules.dice.table import distance, reach
from services.game.rules.dice.vocabulary import (
    SHOOT_FACES,
    ArrowReason,
    Face,
    GainCause,
    Phase,
    RollingEnd,
)

_ACCEPTS: dict[Decision, tuple[type[cmd.Command], ...]] = {
    Decision.TURN_START_HEAL: (cmd.ChooseTarget,),
    Decision.ROLL: (cmd.RollDice,),
    Decision.REROLL_OR_STOP: (cmd.Reroll, cmd.StopRolling),
    Decision.DOUBLE_SHOT: (cmd.DoubleShot, cmd.Decline),
    Decision.SHOT_TARGET: (cmd.ChooseTarget,),
    Decision.ARROWS_INSTEAD: (cmd.TakeArrowsInstead, cmd.Decline),
    Decision.DISCARD_ARROWS: (cmd.DiscardArrows, cmd.Decline),
    Decision.BEER_TARGET: (cmd.ChooseTarget,),
    Decision.REMOVE_ARROWS: (cmd.RemoveArrows, cmd.Decline),
}


def awaiting(state: GameState) -> Awaiting | None:
    """The open question of a game at rest, or None once it is over."""
    resting = state.resting
    if resting is not None and resting[0] == state.version:
        return resting[1]  # advance() already worked it out for this very state
    move = next_move(state)
    if move is None or isinstance(move, Awaiting):
        return move
    raise AssertionError("state is between automatic steps; only a resting state is awaited")


def decide(state: GameState, command: cmd.GameCommand) -> list[ev.Event]:
    """The events ``command`` produces. ``state`` is not modified."""
    return execute(state.clone(), command)


def execute(state: GameState, command: cmd.GameCommand) -> list[ev.Event]:
    """Like ``decide`` but folds the events into ``state`` (faster: no copy)."""
    question = check(state, command)
    produced: list[ev.Event] = []

    def emit(event: ev.Event) -> None:
        evolve(state, event)
        produced.append(event)

    _RESPOND[question.decision](state, question, command, emit)
    advance(state, emit)
    return produced


def check(state: GameState, command: cmd.GameCommand) -> Awaiting:
    """Raise the RuleError that ``command`` deserves, or return the question it answers."""
    if state.phase is Phase.OVER:
        raise GameOver(f"the game is over; {command} cannot be played")
    question = awaiting(state)
    assert question is not None
    if command.player != question.player:
        raise NotAwaited(f"{command.player} cannot act now: the game awaits {question.describe()}")
    if not isinstance(command, _ACCEPTS[question.decision]):
        raise NotAwaited(f"'{command}' does not answer the open question: {question.describe()}")
    _CHECK[question.decision](state, question, command)
    return question


# --- checks ------------------------------------------------------------------------------------


def _turn(state: GameState) -> TurnState:
    assert state.turn is not None
    return state.turn


def _living_target(state: GameState, target: str) -> None:
    p = state.by_id.get(target)  # type: ignore[call-overload]
    if p is None:
        raise IllegalCommand(f"{target} is not a player in this game")
    if not p.alive:
        raise IllegalCommand(f"{target} has been eliminated and cannot be targeted")


def _check_heal(state: GameState, q: Awaiting, c: cmd.Command) -> None:
    assert isinstance(c, cmd.ChooseTarget)
    if c.die is not None or c.as_face is not None:
        raise MalformedCommand(f"'{c}': the turn-start heal names only a player, no die")
    _living_target(state, c.target)


def _check_roll(state: GameState, q: Awaiting, c: cmd.Command) -> None:
    assert isinstance(c, cmd.RollDice)
    if len(c.faces) != len(q.dice):
        dice = ", ".join(map(str, q.dice))
        raise MalformedCommand(f"{q.player} must roll {len(q.dice)} dice ({dice}); got {len(c.faces)} faces")
    for f in c.faces:
        if not isinstance(f, Face):
            raise MalformedCommand(f"{f!r} is not a die face")


def _check_reroll(state: GameState, q: Awaiting, c: cmd.Command) -> None:
    if isinstance(c, cmd.StopRolling):
        return
    assert isinstance(c, cmd.Reroll)
    t = _turn(state)
    if not c.dice:
        raise MalformedCommand("a reroll names at least one die; to keep the dice, stop")
    if len(set(c.dice)) != len(c.dice):
        raise MalformedCommand(f"'{c}' names a die twice")
    for i in c.dice:
        if not 0 <= i < len(t.dice):
            raise MalformedCommand(f"there is no die {i}; dice are 0 to {len(t.dice) - 1}")
        if i not in q.dice:
            raise IllegalCommand(f"die {i} shows {t.dice[i]} and cannot be rerolled")


def _check_double(state: GameState, q: Awaiting, c: cmd.Command) -> None:
    if isinstance(c, cmd.Decline):
        return
    assert isinstance(c, cmd.DoubleShot)
    t = _turn(state)
    _die_in_range(t, c.shot_die)
    _die_in_range(t, c.beer_die)
    if t.dice[c.shot_die] not in SHOOT_FACES:
        raise IllegalCommand(f"die {c.shot_die} shows {t.dice[c.shot_die]}, not a shoot1 or shoot2")
    if t.dice[c.beer_die] is not Face.BEER:
        raise IllegalCommand(f"die {c.beer_die} shows {t.dice[c.beer_die]}, not a beer")


def _die_in_range(t: TurnState, die: int | None) -> int:
    if die is None:
        raise MalformedCommand("this target needs a die number")
    if not 0 <= die < len(t.dice):
        raise MalformedCommand(f"there is no die {die}; dice are 0 to {len(t.dice) - 1}")
    return die


def _check_shot_target(state: GameState, q: Awaiting, c: cmd.Command) -> None:
    assert isinstance(c, cmd.ChooseTarget)
    t = _turn(state)
    die = _die_in_range(t, c.die)
    if die not in q.dice:
        what = "already has a target" if die in t.targets else f"shows {t.dice[die]}"
        raise IllegalCommand(f"die {die} {what}; dice awaiting a shot target: {_dice(q)}")
    shooter = state.by_id[t.player]
    face = t.dice[die]
    assert face is not None
    if c.as_face is not None and c.as_face is not face:
        if not shooter.character.swaps_shoot_faces or c.as_face not in SHOOT_FACES:
            raise IllegalCommand(f"die {die} is a {face}; only Calamity Janet may use it as another")
        face = c.as_face
    _living_target(state, c.target)
    if c.target == shooter.id:
        raise IllegalCommand(f"{shooter.id} cannot shoot themselves")
    d = distance(state, shooter, state.by_id[c.target])
    allowed = reach(state, shooter, face)
    if d not in allowed:
        reach_text = " or ".join(map(str, sorted(allowed)))
        raise IllegalCommand(f"{c.target} is at distance {d}; a {face} reaches distance {reach_text}")


def _check_beer_target(state: GameState, q: Awaiting, c: cmd.Command) -> None:
    assert isinstance(c, cmd.ChooseTarget)
    t = _turn(state)
    die = _die_in_range(t, c.die)
    if die not in q.dice:
        raise IllegalCommand(f"die {die} is not a beer awaiting a target; beers awaiting: {_dice(q)}")
    if c.as_face is not None:
        raise MalformedCommand("a beer cannot be used as another face")
    _living_target(state, c.target)


def _check_count(state: GameState, q: Awaiting, c: cmd.Command) -> None:
    if isinstance(c, cmd.Decline):
        return
    assert isinstance(c, cmd.TakeArrowsInstead | cmd.DiscardArrows)
    if not 1 <= c.count <= q.max_count:
        raise IllegalCommand(f"'{c}': the count must be from 1 to {q.max_count}")


def _check_remove(state: GameState, q: Awaiting, c: cmd.Command) -> None:
    if isinstance(c, cmd.Decline):
        return
    assert isinstance(c, cmd.RemoveArrows)
    if not 1 <= len(c.from_players) <= q.max_count:
        raise IllegalCommand(f"'{c}': name 1 to {q.max_count} arrows (one per gatling face)")
    for pid, n in Counter(c.from_players).items():
        _living_target(state, pid)
        held = state.by_id[pid].arrows
        if n > held:
            raise IllegalCommand(f"{pid} holds {held} arrow(s); cannot return {n}")


def _dice(q: Awaiting) -> str:
    return ", ".join(map(str, q.dice)) or "none"


_CHECK: dict[Decision, Callable[[GameState, Awaiting, cmd.Command], None]] = {
    Decision.TURN_START_HEAL: _check_heal,
    Decision.ROLL: _check_roll,
    Decision.REROLL_OR_STOP: _check_reroll,
    Decision.DOUBLE_SHOT: _check_double,
    Decision.SHOT_TARGET: _check_shot_target,
    Decision.ARROWS_INSTEAD: _check_count,
    Decision.DISCARD_ARROWS: _check_count,
    Decision.BEER_TARGET: _check_beer_target,
    Decision.REMOVE_ARROWS: _check_remove,
}


# --- responses (the command is legal) -------------------------------------------------------

Emit = Callable[[ev.Event], None]


def _respond_heal(s: GameState, q: Awaiting, c: cmd.Command, emit: Emit) -> None:
    assert isinstance(c, cmd.ChooseTarget)
    emit(ev.TargetChosen(player=c.player, target=c.target))
    target = s.by_id[c.target]
    gained = min(1, target.max_life - target.life)
    if gained:
        emit(ev.LifeGained(player=target.id, amount=gained, cause=GainCause.TURN_START_HEAL, source=c.player))


def _respond_roll(s: GameState, q: Awaiting, c: cmd.Command, emit: Emit) -> None:
    assert isinstance(c, cmd.RollDice)
    t = _turn(s)
    emit(ev.DiceRolled(player=c.player, roll=t.rolls_used + 1, dice=q.dice, faces=c.faces))


def _respond_reroll(s: GameState, q: Awaiting, c: cmd.Command, emit: Emit) -> None:
    t = _turn(s)
    if isinstance(c, cmd.StopRolling):
        emit(ev.DiceFinalized(player=c.player, faces=tuple(t.faces()), reason=RollingEnd.STOPPED))
    else:
        assert isinstance(c, cmd.Reroll)
        emit(ev.RerollChosen(player=c.player, dice=tuple(sorted(c.dice))))


def _respond_double(s: GameState, q: Awaiting, c: cmd.Command, emit: Emit) -> None:
    if isinstance(c, cmd.Decline):
        emit(ev.AbilityDeclined(player=c.player, decision=q.decision.value))
    else:
        assert isinstance(c, cmd.DoubleShot)
        emit(ev.ShotDoubled(player=c.player, shot_die=c.shot_die, beer_die=c.beer_die))


def _respond_target(s: GameState, q: Awaiting, c: cmd.Command, emit: Emit) -> None:
    assert isinstance(c, cmd.ChooseTarget)
    emit(ev.TargetChosen(player=c.player, target=c.target, die=c.die, as_face=c.as_face))


def _respond_arrows_instead(s: GameState, q: Awaiting, c: cmd.Command, emit: Emit) -> None:
    t = _turn(s)
    step = "gatling" if t.shots_done or not t.shoot_dice() else "shots"
    if isinstance(c, cmd.Decline):
        count = 0
    else:
        assert isinstance(c, cmd.TakeArrowsInstead)
        count = c.count
    emit(ev.ArrowsInsteadChosen(player=c.player, count=count, step=step))
    for _ in range(count):
        take_arrow(s, c.player, ArrowReason.INSTEAD_OF_LIFE, emit)


def _respond_discard(s: GameState, q: Awaiting, c: cmd.Command, emit: Emit) -> None:
    if isinstance(c, cmd.Decline):
        emit(ev.AbilityDeclined(player=c.player, decision=q.decision.value))
    else:
        assert isinstance(c, cmd.DiscardArrows)
        emit(ev.ArrowsReturned(player=c.player, count=c.count, reason=ArrowReason.DISCARD_ON_LOSS))


def _respond_remove(s: GameState, q: Awaiting, c: cmd.Command, emit: Emit) -> None:
    if isinstance(c, cmd.Decline):
        emit(ev.AbilityDeclined(player=c.player, decision=q.decision.value))
    else:
        assert isinstance(c, cmd.RemoveArrows)
        emit(ev.ArrowsRemoved(player=c.player, from_players=c.from_players))


_RESPOND: dict[Decision, Callable[[GameState, Awaiting, cmd.Command, Emit], None]] = {
    Decision.TURN_START_HEAL: _respond_heal,
    Decision.ROLL: _respond_roll,
    Decision.REROLL_OR_STOP: _respond_reroll,
    Decision.DOUBLE_SHOT: _respond_double,
    Decision.SHOT_TARGET: _respond_target,
    Decision.ARROWS_INSTEAD: _respond_arrows_instead,
    Decision.DISCARD_ARROWS: _respond_discard,
    Decision.BEER_TARGET: _respond_target,
    Decision.REMOVE_ARROWS: _respond_remove,
}
