"""OS1, The Loudmouth and the Coward (RULINGS-expansions §OS1).

Before rolling, the active player may take one Saloon die, rolled instead of a base die (José
Delgado and Tequila Joe add theirs, OS4). Its ``broken_arrow`` and ``bullet`` faces act right
after each roll's arrows; its double faces (``shoot1x2``, ``shoot2x2``, ``beerx2``,
``gatlingx2``) are two symbols each, aimed and used on their own (``flow`` counts symbols).
"""

from __future__ import annotations

from collections.abc import Iterator
from enum import StrEnum
from types import MappingProxyType

from services.game.rules.dice import commands as cmd
from services.game.rules.dice import events as ev
from services.game.rules.dice.abilities import Ability, Emit, Step
from services.game.rules.dice.awaiting import Awaiting
from services.game.rules.dice.decisions import BotHint, DecisionSpec, Who, living_target
from services.game.rules.dice.errors import IllegalCommand, MalformedCommand
from services.game.rules.dice.flow import apply_losses, clockwise_from
from services.game.rules.dice.kinds import BASE, COWARD, LOUDMOUTH, DieKind
from services.game.rules.dice.modules import RulesModule
from services.game.rules.dice.points import TurnPoint
from services.game.rules.dice.state import BatchKind, DamageBatch, GameState, PlayerState, TurnState
from services.game.rules.dice.vocabulary import Cause, CharacterId, PlayerId
from services.game.rules.ruleset import ModuleId

SALOON_DICE: MappingProxyType[str, DieKind] = MappingProxyType({k.name: k for k in (LOUDMOUTH, COWARD)})

ADDS_SALOON_DIE: MappingProxyType[CharacterId, str] = MappingProxyType(
    {CharacterId.JOSE_DELGADO: LOUDMOUTH.name, CharacterId.TEQUILA_JOE: COWARD.name}
)
"""OS4: the Saloon die a character rolls in addition to the five base dice (6 dice)."""


class SaloonDecision(StrEnum):
    SALOON_DIE = "saloon_die"
    BROKEN_ARROW_TARGET = "broken_arrow_target"


# --- events ------------------------------------------------------------------------------------


class SaloonDieChosen(ev.Event, frozen=True, kw_only=True):
    """The dice of the turn: ``die`` (``loudmouth``/``coward``) is rolled as the last die, or
    None: five base dice."""

    player: PlayerId
    die: str | None = None


class BrokenArrowUsed(ev.Event, frozen=True, kw_only=True):
    """A ``broken_arrow`` face acted: ``target`` returned one regular arrow (None: nobody held
    one, no effect)."""

    player: PlayerId
    target: PlayerId | None = None


class BulletHit(ev.Event, frozen=True, kw_only=True):
    """A ``bullet`` face acted: its roller loses 1 life (no source), as the LifeLost after it."""

    player: PlayerId


def hand_with(player: PlayerState, die: str | None) -> tuple[DieKind, ...]:
    """The dice a player rolls with the Saloon die ``die`` (or none): it takes a base die's place,
    last in the hand, unless his character adds it."""
    if die is None:
        return (BASE,) * 5
    base = 5 if ADDS_SALOON_DIE.get(player.character.id) == die else 4
    return (BASE,) * base + (SALOON_DICE[die],)


_PRESET_KINDS = frozenset({"rage", "wound"})


def _with_saloon_die(player: PlayerState, die: str, kinds: tuple[DieKind, ...]) -> tuple[DieKind, ...]:
    """The turn's hand with the Saloon die ``die``: in place of the last base die (UA1's hand
    keeps its Duel dice: 2 base + 2 Duel + the Saloon die), or added when the character adds
    it; the base game's hand gives ``hand_with``'s."""
    rolled = [k for k in kinds if k.name not in _PRESET_KINDS]
    if ADDS_SALOON_DIE.get(player.character.id) != die:
        last_base = max(i for i, k in enumerate(rolled) if k.name == BASE.name)
        rolled.pop(last_base)
    return (*rolled, SALOON_DICE[die])


def _saloon_die_chosen(s: GameState, e: SaloonDieChosen) -> None:
    t = s.turn
    assert t is not None
    t.decided.add(SaloonDecision.SALOON_DIE)
    if e.die is not None:
        hand = _with_saloon_die(s.by_id[e.player], e.die, t.kinds)
        # preset dice set before the choice stay, after the hand: the symbols of revealed Rage
        # cards (UA2, S4), a dynamite wound token (UA1)
        kept = [(k, f) for k, f in zip(t.kinds, t.dice, strict=True) if k.name in _PRESET_KINDS]
        t.kinds = (*hand, *(k for k, _ in kept))
        t.dice = [*([None] * len(hand)), *(f for _, f in kept)]
        t.pending_roll = tuple(range(len(hand)))
        t.preset = tuple(range(len(hand), len(t.kinds)))


def _broken_arrow_used(s: GameState, e: BrokenArrowUsed) -> None:
    t = s.turn
    assert t is not None
    t.roll_broken_left -= 1
    if e.target is not None:
        s.by_id[e.target].arrows -= 1
        s.arrow_pile += 1


def _bullet_hit(s: GameState, e: BulletHit) -> None:
    t = s.turn
    assert t is not None
    t.roll_bullets_left -= 1
    t.batch = DamageBatch(BatchKind.BULLET, None)


# --- hooks ---------------------------------------------------------------------------------------


def _choose_dice(s: GameState, t: TurnState, active: PlayerState) -> Awaiting | None:
    if SaloonDecision.SALOON_DIE not in t.decided:
        return Awaiting(player=active.id, decision=SaloonDecision.SALOON_DIE)
    return None


def arrow_holders(s: GameState) -> list[PlayerState]:
    """Living players holding a regular arrow (a broken arrow never takes the Chief's), clockwise
    from the active player."""
    assert s.turn is not None
    return [p for p in clockwise_from(s, s.by_id[s.turn.player]) if p.alive and s.regular_arrows(p)]


def _after_roll(s: GameState, t: TurnState, active: PlayerState) -> Awaiting | Step | None:
    if t.roll_broken_left:
        if arrow_holders(s):
            return Awaiting(player=active.id, decision=SaloonDecision.BROKEN_ARROW_TARGET)
        return _no_arrow_to_break
    if t.roll_bullets_left:
        return _bullet
    return None


def _no_arrow_to_break(s: GameState, emit: Emit) -> None:
    assert s.turn is not None
    emit(BrokenArrowUsed(player=s.turn.player))


def _bullet(s: GameState, emit: Emit) -> None:
    assert s.turn is not None
    player = s.turn.player
    emit(BulletHit(player=player))
    apply_losses(s, [(player, 1, Cause.BULLET, None)], None, emit)


# --- decisions -----------------------------------------------------------------------------------


def _check_saloon(s: GameState, q: Awaiting, c: cmd.Command) -> None:
    assert isinstance(c, cmd.ChooseSaloonDie)
    if c.die is not None and c.die not in SALOON_DICE:
        raise MalformedCommand(f"'{c}': the Saloon dice are loudmouth and coward (or none)")


def _respond_saloon(s: GameState, q: Awaiting, c: cmd.Command, emit: Emit) -> None:
    assert isinstance(c, cmd.ChooseSaloonDie)
    emit(SaloonDieChosen(player=c.player, die=c.die))


def _generate_saloon(s: GameState, q: Awaiting) -> Iterator[cmd.GameCommand]:
    yield cmd.ChooseSaloonDie(player=q.player)
    for die in SALOON_DICE:
        yield cmd.ChooseSaloonDie(player=q.player, die=die)


def _timeout_saloon(s: GameState, q: Awaiting) -> cmd.GameCommand | None:
    return cmd.ChooseSaloonDie(player=q.player)


def _check_broken(s: GameState, q: Awaiting, c: cmd.Command) -> None:
    assert isinstance(c, cmd.ChooseTarget)
    if c.die is not None or c.as_face is not None:
        raise MalformedCommand(f"'{c}': a broken arrow names only a player, no die")
    living_target(s, c.target)
    if not s.regular_arrows(s.by_id[c.target]):
        raise IllegalCommand(f"{c.target} holds no regular arrow to return")


def _respond_broken(s: GameState, q: Awaiting, c: cmd.Command, emit: Emit) -> None:
    assert isinstance(c, cmd.ChooseTarget)
    emit(BrokenArrowUsed(player=c.player, target=c.target))


def _generate_broken(s: GameState, q: Awaiting) -> Iterator[cmd.GameCommand]:
    for p in arrow_holders(s):
        yield cmd.ChooseTarget(player=q.player, target=p.id)


def _timeout_broken(s: GameState, q: Awaiting) -> cmd.GameCommand | None:
    """The roller's own arrow if he holds one, else the first holder clockwise."""
    return cmd.ChooseTarget(player=q.player, target=arrow_holders(s)[0].id)


OS1 = RulesModule(
    id=ModuleId.OS1,
    die_kinds=(LOUDMOUTH, COWARD),
    decisions=(
        DecisionSpec(
            SaloonDecision.SALOON_DIE,
            Who.ACTIVE,
            TurnPoint.CHOOSE_DICE,
            "choose a Saloon die (loudmouth, coward or none)",
            (cmd.ChooseSaloonDie,),
            _check_saloon,
            _respond_saloon,
            _generate_saloon,
            _timeout_saloon,
            BotHint.DECLINE,
        ),
        DecisionSpec(
            SaloonDecision.BROKEN_ARROW_TARGET,
            Who.ACTIVE,
            TurnPoint.AFTER_ROLL,
            "choose who returns an arrow for a broken arrow",
            (cmd.ChooseTarget,),
            _check_broken,
            _respond_broken,
            _generate_broken,
            _timeout_broken,
            BotHint.HELP,
        ),
    ),
    hooks=Ability(choose_dice=_choose_dice, after_roll=_after_roll),
    events=MappingProxyType(
        {SaloonDieChosen: _saloon_die_chosen, BrokenArrowUsed: _broken_arrow_used, BulletHit: _bullet_hit}
    ),
)
