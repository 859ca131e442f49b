"""Every decision of the game, declared once: a ``DecisionSpec`` per ``Decision``.

A spec says who decides and at which point of the turn, which commands answer it, how an
answer is checked (every refusal before anything is emitted) and what it emits, the legal
answers (generated lazily), the answer played when the player's time is up, and a hint for
bots. ``decide``, ``legal``, the service's timeouts and the bots read the spec; ``flow`` asks
the question (an ``Awaiting``) at the spec's point. An expansion adds a decision by adding a
spec to its module (``modules.RulesModule.decisions``), not by editing those five places.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType

from services.game.rules.dice import commands as cmd
from services.game.rules.dice import events as ev
from services.game.rules.dice.abilities import gain_life
from services.game.rules.dice.awaiting import Awaiting, Decision, describe_with
from services.game.rules.dice.errors import IllegalCommand, MalformedCommand, RuleError
from services.game.rules.dice.flow import take_arrow
from services.game.rules.dice.kinds import BASE_HAND
from services.game.rules.dice.points import TurnPoint
from services.game.rules.dice.state import GameState, TurnState
from services.game.rules.dice.table import distance, reach
from services.game.rules.dice.vocabulary import (
    ANY_BEER_FACES,
    ANY_SHOOT_FACES,
    BASE_FACES,
    DOUBLE_FACES,
    ArrowReason,
    Face,
    GainCause,
    RollingEnd,
)

Emit = Callable[[ev.Event], None]
Check = Callable[[GameState, Awaiting, cmd.Command], None]
"""Raise the ``RuleError`` the answer deserves; return if it is legal."""
Respond = Callable[[GameState, Awaiting, cmd.Command, Emit], None]
"""Emit the events of a checked answer (``flow.advance`` then takes the automatic steps)."""
Generate = Callable[[GameState, Awaiting], Iterator[cmd.GameCommand]]
"""Every legal answer, lazily."""
Default = Callable[[GameState, Awaiting], "cmd.GameCommand | None"]
"""The answer played when the player's time is up; None: no default (the dice)."""


class Who(StrEnum):
    ACTIVE = "active"
    """The player whose turn it is."""
    OWNER = "owner"
    """The holder of the ability, whoever's turn it is (Bart Cassidy, Pedro Ramirez)."""
    DICE = "dice"
    """Not a player's choice: the server's generator or the table's scorekeeper."""
    TABLE = "table"
    """Anyone at the table (OS3's hidden-role windows): a holder's ``UseRole`` answers it, else
    the server (after a uniform pause) or the scorekeeper passes it for ``Awaiting.player``."""


class BotHint(StrEnum):
    """What a bot that has no answer of its own should aim for (a new module's decision is
    played sensibly before any bot learns it)."""

    ROLL = "roll"  # never answered by a bot: the dice come from a DiceSource
    KEEP = "keep"  # which dice to keep
    HURT = "hurt"  # aim at a player the bot wants hurt
    HELP = "help"  # aim at a player the bot wants helped (or itself)
    DECLINE = "decline"  # an optional ability; declining is always safe


@dataclass(frozen=True, slots=True)
class DecisionSpec:
    decision: StrEnum
    """A base ``Decision`` or a module's decision name."""
    who: Who
    point: TurnPoint
    """The point of the turn where ``flow`` asks it."""
    what: str
    """For ``Awaiting.describe``: "p1 to <what>"."""
    accepts: tuple[type[cmd.Command], ...]
    check: Check
    respond: Respond
    generate: Generate
    timeout: Default
    bot_hint: BotHint
    optional: bool = False
    """A "may": a ``Decline`` answers it."""
    lapse: Respond | None = None
    """A question open to the table (``Who.TABLE``) that nobody has to answer: emits its close,
    unused, when the next input passes it (``decide.execute``'s implicit passes). The command
    given is the question's pass (``timeout``)."""


# --- shared checks ---------------------------------------------------------------------------




def _turn(state: GameState) -> TurnState:
    assert state.turn is not None
    return state.turn


def living_target(state: GameState, target: str) -> None:
    p = state.by_id.get(target)  # type: ignore[call-overload]
    if p is None:
        raise IllegalCommand(f"{target} is not a player in this game")
    if not p.alive:
        raise IllegalCommand(f"{target} has been eliminated and cannot be targeted")



# --- the decisions, one section each ----------------------------------------------------------

def _die_in_range(t: TurnState, die: int | None) -> int:
    if die is None:
        raise MalformedCommand("this target needs a die number")
    if not 0 <= die < len(t.dice):
        raise MalformedCommand(f"there is no die {die + 1}; dice are 1 to {len(t.dice)}")
    return die


def symbol_of(t: TurnState, die: int) -> Face:
    """The symbol a die's face aims: the face itself, or one of a double's two equal symbols."""
    face = t.dice[die]
    assert face is not None
    return t.kinds[die].symbols[face][0] if face in DOUBLE_FACES else face


def _dice(q: Awaiting) -> str:
    return ", ".join(str(d + 1) for d in q.dice) or "none"


def _decline(s: GameState, q: Awaiting) -> cmd.GameCommand | None:
    return cmd.Decline(player=q.player)


def _respond_declinable(
    then: Callable[[GameState, Awaiting, cmd.Command, Emit], None],
) -> Respond:
    """An optional decision: a ``Decline`` is recorded as ``AbilityDeclined``."""

    def respond(s: GameState, q: Awaiting, c: cmd.Command, emit: Emit) -> None:
        if isinstance(c, cmd.Decline):
            emit(ev.AbilityDeclined(player=c.player, decision=str(q.decision)))
        else:
            then(s, q, c, emit)

    return respond


# --- turn_start_heal: Sid Ketchum names who gains 1 life -------------------------------------


def _check_heal(state: GameState, q: Awaiting, c: cmd.Command) -> None:
    assert isinstance(c, cmd.ChooseTarget)
    if c.die is not None or c.as_face is not None:
        raise MalformedCommand(f"'{c}': the turn-start heal names only a player, no die")
    living_target(state, c.target)


def _respond_heal(s: GameState, q: Awaiting, c: cmd.Command, emit: Emit) -> None:
    assert isinstance(c, cmd.ChooseTarget)
    emit(ev.TargetChosen(player=c.player, target=c.target))
    target = s.by_id[c.target]
    gained = min(1, target.max_life - target.life)
    if gained:
        cause = GainCause.TURN_START_HEAL
        gain_life(s, ev.LifeGained(player=target.id, amount=gained, cause=cause, source=c.player), emit)


def _generate_heal(s: GameState, q: Awaiting) -> Iterator[cmd.GameCommand]:
    for p in s.living():
        yield cmd.ChooseTarget(player=q.player, target=p.id)


def _timeout_heal(s: GameState, q: Awaiting) -> cmd.GameCommand | None:
    return cmd.ChooseTarget(player=q.player, target=q.player)


# --- roll: the faces of the dice listed ------------------------------------------------------


_FACE_TYPE = frozenset({Face})


def _check_roll(state: GameState, q: Awaiting, c: cmd.Command) -> None:
    assert isinstance(c, cmd.RollDice)
    if len(c.faces) != len(q.dice):
        dice = ", ".join(str(d + 1) for d in q.dice)
        raise MalformedCommand(f"{q.player} must roll {len(q.dice)} dice ({dice}); got {len(c.faces)} faces")
    kinds = _turn(state).kinds
    if kinds is BASE_HAND:
        # the usual roll, checked in C rather than per die (``bench engine``): every value a
        # ``Face`` (a plain "beer" equals Face.BEER in a set, so the type is checked too) and
        # a base die's face
        try:
            if BASE_FACES.issuperset(c.faces) and _FACE_TYPE.issuperset(map(type, c.faces)):
                return
        except TypeError:  # an unhashable value: the per-die checks below name it
            pass
    for f in c.faces:
        if not isinstance(f, Face):
            raise MalformedCommand(f"{f!r} is not a die face")
    if kinds is BASE_HAND:
        if not BASE_FACES.issuperset(c.faces):  # one check in C for the usual roll
            die, f = next((d, f) for d, f in zip(q.dice, c.faces, strict=True) if f not in BASE_FACES)
            raise IllegalCommand(f"die {die + 1} is a base die and has no {f} face")
    else:
        for die, f in zip(q.dice, c.faces, strict=True):
            kind = kinds[die]
            if f not in kind.faces:
                raise IllegalCommand(f"die {die + 1} is a {kind.name} die and has no {f} face")


def _respond_roll(s: GameState, q: Awaiting, c: cmd.Command, emit: Emit) -> None:
    assert isinstance(c, cmd.RollDice)
    t = _turn(s)
    emit(ev.DiceRolled(player=c.player, roll=t.rolls_used + 1, dice=q.dice, faces=c.faces))


def _generate_roll(s: GameState, q: Awaiting) -> Iterator[cmd.GameCommand]:
    kinds = _turn(s).kinds
    for faces in itertools.product(*(kinds[die].faces for die in q.dice)):
        yield cmd.RollDice(player=q.player, faces=faces)


def _no_default(s: GameState, q: Awaiting) -> cmd.GameCommand | None:
    return None  # online games roll on the server, table games wait for the scorekeeper


# --- reroll_or_stop --------------------------------------------------------------------------


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
            raise MalformedCommand(f"there is no die {i + 1}; dice are 1 to {len(t.dice)}")
        if i not in q.dice:
            why = "was set by a Ghost token" if i in t.preset else f"shows {t.dice[i]}"
            raise IllegalCommand(f"die {i + 1} {why} and cannot be rerolled")


def _respond_reroll(s: GameState, q: Awaiting, c: cmd.Command, emit: Emit) -> None:
    t = _turn(s)
    if isinstance(c, cmd.StopRolling):
        emit(ev.DiceFinalized(player=c.player, faces=tuple(t.faces()), reason=RollingEnd.STOPPED))
    else:
        assert isinstance(c, cmd.Reroll)
        emit(ev.RerollChosen(player=c.player, dice=tuple(sorted(c.dice))))


def _generate_reroll(s: GameState, q: Awaiting) -> Iterator[cmd.GameCommand]:
    yield cmd.StopRolling(player=q.player)
    for k in range(1, len(q.dice) + 1):
        for dice in itertools.combinations(q.dice, k):
            yield cmd.Reroll(player=q.player, dice=dice)


def _timeout_stop(s: GameState, q: Awaiting) -> cmd.GameCommand | None:
    return cmd.StopRolling(player=q.player)


# --- double_shot: Slab the Killer may spend a beer to double a shot ---------------------------


def _check_double(state: GameState, q: Awaiting, c: cmd.Command) -> None:
    if isinstance(c, cmd.Decline):
        return
    assert isinstance(c, cmd.DoubleShot)
    t = _turn(state)
    _die_in_range(t, c.shot_die)
    _die_in_range(t, c.beer_die)
    if t.dice[c.shot_die] not in ANY_SHOOT_FACES:
        raise IllegalCommand(f"die {c.shot_die + 1} shows {t.dice[c.shot_die]}, not a shoot1 or shoot2")
    if t.dice[c.beer_die] not in ANY_BEER_FACES:
        raise IllegalCommand(f"die {c.beer_die + 1} shows {t.dice[c.beer_die]}, not a beer")


def _double(s: GameState, q: Awaiting, c: cmd.Command, emit: Emit) -> None:
    assert isinstance(c, cmd.DoubleShot)
    emit(ev.ShotDoubled(player=c.player, shot_die=c.shot_die, beer_die=c.beer_die))


def _generate_double(s: GameState, q: Awaiting) -> Iterator[cmd.GameCommand]:
    yield cmd.Decline(player=q.player)
    dice = _turn(s).dice
    for shot in q.dice:
        for beer in q.dice:
            if dice[shot] in ANY_SHOOT_FACES and dice[beer] in ANY_BEER_FACES:
                yield cmd.DoubleShot(player=q.player, shot_die=shot, beer_die=beer)


# --- shot_target ------------------------------------------------------------------------------


def _check_shot_target(state: GameState, q: Awaiting, c: cmd.Command) -> None:
    assert isinstance(c, cmd.ChooseTarget)
    t = _turn(state)
    die = _die_in_range(t, c.die)
    if die not in q.dice:
        what = "already has a target" if die in t.targets else f"shows {t.dice[die]}"
        raise IllegalCommand(f"die {die + 1} {what}; dice awaiting a shot target: {_dice(q)}")
    shooter = state.by_id[t.player]
    face = t.dice[die]
    assert face is not None
    if face in DOUBLE_FACES:  # the symbol a double aims
        face = t.kinds[die].symbols[face][0]
    if c.as_face is not None and c.as_face is not face:
        if c.as_face not in shooter.character.ability.shot_used_as.get(face, ()):
            raise IllegalCommand(f"die {die + 1} is a {face}; only Calamity Janet may use it as another")
        face = c.as_face
    living_target(state, c.target)
    if c.target == shooter.id:
        raise IllegalCommand(f"{shooter.id} cannot shoot themselves")
    d = distance(state, shooter, state.by_id[c.target])
    allowed = reach(state, shooter, face)
    if d not in allowed:
        reach_text = " or ".join(map(str, sorted(allowed)))
        raise IllegalCommand(f"{c.target} is at distance {d}; a {face} reaches distance {reach_text}")


def _respond_target(s: GameState, q: Awaiting, c: cmd.Command, emit: Emit) -> None:
    assert isinstance(c, cmd.ChooseTarget)
    emit(ev.TargetChosen(player=c.player, target=c.target, die=c.die, as_face=c.as_face))


def _generate_shot_target(s: GameState, q: Awaiting) -> Iterator[cmd.GameCommand]:
    t = _turn(s)
    shooter = s.by_id[q.player]
    for die in q.dice:
        face = symbol_of(t, die)
        faces = [face, *shooter.character.ability.shot_used_as.get(face, ())]
        seen: set[str] = set()
        for used in faces:
            allowed = reach(s, shooter, used)
            for p in s.living():
                if p is not shooter and p.id not in seen and distance(s, shooter, p) in allowed:
                    seen.add(p.id)
                    as_face = None if used is face else used
                    yield cmd.ChooseTarget(player=q.player, die=die, target=p.id, as_face=as_face)


def _timeout_shot_target(s: GameState, q: Awaiting) -> cmd.GameCommand | None:
    """The lowest-numbered die awaiting a target, at the first legal target clockwise."""
    die = min(q.dice)
    shooter = s.by_id[q.player]
    n = len(s.players)
    for k in range(1, n):
        command = cmd.ChooseTarget(player=q.player, die=die, target=s.players[(shooter.seat + k) % n].id)
        try:
            _check_shot_target(s, q, command)
        except RuleError:
            continue
        return command
    return None


# --- beer_target ------------------------------------------------------------------------------


def _check_beer_target(state: GameState, q: Awaiting, c: cmd.Command) -> None:
    assert isinstance(c, cmd.ChooseTarget)
    t = _turn(state)
    die = _die_in_range(t, c.die)
    if die not in q.dice:
        raise IllegalCommand(f"die {die + 1} is not a beer awaiting a target; beers awaiting: {_dice(q)}")
    if c.as_face is not None:
        raise MalformedCommand("a beer cannot be used as another face")
    living_target(state, c.target)


def _generate_beer_target(s: GameState, q: Awaiting) -> Iterator[cmd.GameCommand]:
    for die in q.dice:
        for p in s.living():
            yield cmd.ChooseTarget(player=q.player, die=die, target=p.id)


def _timeout_beer(s: GameState, q: Awaiting) -> cmd.GameCommand | None:
    return cmd.ChooseTarget(player=q.player, die=min(q.dice), target=q.player)


# --- arrows_instead (Bart Cassidy) and discard_arrows (Pedro Ramirez): counted -----------------


def _check_count(state: GameState, q: Awaiting, c: cmd.Command) -> None:
    if isinstance(c, cmd.Decline):
        return
    assert isinstance(c, cmd.TakeArrowsInstead | cmd.DiscardArrows)
    if not 1 <= c.count <= q.max_count:
        raise IllegalCommand(f"'{c}': the count must be from 1 to {q.max_count}")
    if isinstance(c, cmd.TakeArrowsInstead) and c.chief and not state.chief_in_pile:
        raise IllegalCommand(f"'{c}': the Chief's Arrow is not in the pile")


def _respond_arrows_instead(s: GameState, q: Awaiting, c: cmd.Command, emit: Emit) -> None:
    t = _turn(s)
    step = "gatling" if t.shots_done or not t.final_dice().shoot else "shots"
    if s.duels is not None and s.duels.now(t.number).loser is not None:
        step = "duel"  # UA1: a duel's loss waits for it
    if isinstance(c, cmd.Decline):
        count = 0  # "no" is recorded as taking 0 arrows (docs/rulings.md)
    else:
        assert isinstance(c, cmd.TakeArrowsInstead)
        count = c.count
    chief = isinstance(c, cmd.TakeArrowsInstead) and c.chief
    if chief:
        emit(ev.ChiefArrowsInsteadChosen(player=c.player, count=count, step=step))
    else:
        emit(ev.ArrowsInsteadChosen(player=c.player, count=count, step=step))
    for n in range(count):
        take_arrow(s, c.player, ArrowReason.INSTEAD_OF_LIFE, emit, chief=chief and n == 0)


def _generate_arrows_instead(s: GameState, q: Awaiting) -> Iterator[cmd.GameCommand]:
    yield cmd.Decline(player=q.player)
    for n in range(1, q.max_count + 1):
        yield cmd.TakeArrowsInstead(player=q.player, count=n)
        if s.chief_in_pile:
            yield cmd.TakeArrowsInstead(player=q.player, count=n, chief=True)


def _discard(s: GameState, q: Awaiting, c: cmd.Command, emit: Emit) -> None:
    assert isinstance(c, cmd.DiscardArrows)
    emit(ev.ArrowsReturned(player=c.player, count=c.count, reason=ArrowReason.DISCARD_ON_LOSS))


def _generate_discard(s: GameState, q: Awaiting) -> Iterator[cmd.GameCommand]:
    yield cmd.Decline(player=q.player)
    for n in range(1, q.max_count + 1):
        yield cmd.DiscardArrows(player=q.player, count=n)


# --- remove_arrows: Kit Carlson, one arrow per gatling face ----------------------------------


def _check_remove(state: GameState, q: Awaiting, c: cmd.Command) -> None:
    if isinstance(c, cmd.Decline):
        return
    assert isinstance(c, cmd.RemoveArrows)
    if not 1 <= len(c.from_players) <= q.max_count:
        raise IllegalCommand(f"'{c}': name 1 to {q.max_count} arrows (one per gatling face)")
    for pid, n in Counter(c.from_players).items():
        living_target(state, pid)
        held = state.by_id[pid].arrows
        if n > held:
            raise IllegalCommand(f"{pid} holds {held} arrow(s); cannot return {n}")


def _remove(s: GameState, q: Awaiting, c: cmd.Command, emit: Emit) -> None:
    assert isinstance(c, cmd.RemoveArrows)
    emit(ev.ArrowsRemoved(player=c.player, from_players=c.from_players))


def _generate_remove(s: GameState, q: Awaiting) -> Iterator[cmd.GameCommand]:
    yield cmd.Decline(player=q.player)
    pool = [p.id for p in s.living() for _ in range(p.arrows)]
    seen: set[tuple[str, ...]] = set()
    for k in range(1, min(q.max_count, len(pool)) + 1):
        for combo in itertools.combinations(pool, k):
            if combo not in seen:
                seen.add(combo)
                yield cmd.RemoveArrows(player=q.player, from_players=combo)


# --- the base game's decisions -----------------------------------------------------------------

BASE_DECISIONS: tuple[DecisionSpec, ...] = (
    DecisionSpec(
        Decision.TURN_START_HEAL,
        Who.ACTIVE,
        TurnPoint.START_OF_TURN,
        "choose who gains 1 life at the start of the turn",
        (cmd.ChooseTarget,),
        _check_heal,
        _respond_heal,
        _generate_heal,
        _timeout_heal,
        BotHint.HELP,
    ),
    DecisionSpec(
        Decision.ROLL,
        Who.DICE,
        TurnPoint.ROLL,
        "roll",
        (cmd.RollDice,),
        _check_roll,
        _respond_roll,
        _generate_roll,
        _no_default,
        BotHint.ROLL,
    ),
    DecisionSpec(
        Decision.REROLL_OR_STOP,
        Who.ACTIVE,
        TurnPoint.ON_KEEP,
        "reroll or stop",
        (cmd.Reroll, cmd.StopRolling),
        _check_reroll,
        _respond_reroll,
        _generate_reroll,
        _timeout_stop,
        BotHint.KEEP,
    ),
    DecisionSpec(
        Decision.DOUBLE_SHOT,
        Who.ACTIVE,
        TurnPoint.ON_RESOLVE_SHOTS,
        "decide whether to spend a beer to double a shot",
        (cmd.DoubleShot, cmd.Decline),
        _check_double,
        _respond_declinable(_double),
        _generate_double,
        _decline,
        BotHint.DECLINE,
        optional=True,
    ),
    DecisionSpec(
        Decision.SHOT_TARGET,
        Who.ACTIVE,
        TurnPoint.ON_RESOLVE_SHOTS,
        "choose a target for a shoot die",
        (cmd.ChooseTarget,),
        _check_shot_target,
        _respond_target,
        _generate_shot_target,
        _timeout_shot_target,
        BotHint.HURT,
    ),
    DecisionSpec(
        Decision.ARROWS_INSTEAD,
        Who.OWNER,
        TurnPoint.ON_DAMAGE,
        "decide whether to take arrows instead of losing life",
        (cmd.TakeArrowsInstead, cmd.Decline),
        _check_count,
        _respond_arrows_instead,
        _generate_arrows_instead,
        _decline,
        BotHint.DECLINE,
        optional=True,
    ),
    DecisionSpec(
        Decision.DISCARD_ARROWS,
        Who.OWNER,
        TurnPoint.AFTER_DAMAGE,
        "decide whether to discard arrows for the life just lost",
        (cmd.DiscardArrows, cmd.Decline),
        _check_count,
        _respond_declinable(_discard),
        _generate_discard,
        _decline,
        BotHint.DECLINE,
        optional=True,
    ),
    DecisionSpec(
        Decision.BEER_TARGET,
        Who.ACTIVE,
        TurnPoint.ON_RESOLVE_BEERS,
        "choose who drinks a beer",
        (cmd.ChooseTarget,),
        _check_beer_target,
        _respond_target,
        _generate_beer_target,
        _timeout_beer,
        BotHint.HELP,
    ),
    DecisionSpec(
        Decision.REMOVE_ARROWS,
        Who.ACTIVE,
        TurnPoint.ON_RESOLVE_GATLING,
        "decide whose arrows the gatling faces remove",
        (cmd.RemoveArrows, cmd.Decline),
        _check_remove,
        _respond_declinable(_remove),
        _generate_remove,
        _decline,
        BotHint.DECLINE,
        optional=True,
    ),
)

DECISIONS: Mapping[str, DecisionSpec] = MappingProxyType({spec.decision: spec for spec in BASE_DECISIONS})
"""Decision → its spec. Every ``Decision`` has exactly one (a test checks it)."""

describe_with(DECISIONS)


def spec_of(decision: str) -> DecisionSpec:
    return DECISIONS[decision]


def timeout_command(state: GameState, question: Awaiting) -> cmd.GameCommand | None:
    """The answer played for ``question``'s player when their time is up (None: no default)."""
    return state.rules.decisions[question.decision].timeout(state, question)


def first_legal(state: GameState, question: Awaiting) -> cmd.GameCommand:
    """The timeout answer, else the first legal one: what a bot with no rule of its own for a
    decision plays when the ``bot_hint`` names no target to aim for."""
    spec = state.rules.decisions[question.decision]
    return spec.timeout(state, question) or next(spec.generate(state, question))
