"""UA3, A New Posse in Town (RULINGS-expansions §UA3; rulings in docs/rulings.md, UA3 table).

Eight characters, each data plus an ``abilities.Ability``, as the base game's and OS4's. Pool
rules (§UA3, ``ruleset.CHARACTER_NEEDS``): Herb Hunter and Sean Mallory need UA1, Pat Brennan and
Pixie Pete need UA2; without that module they are not dealt (``Rules.left_out``). Greg Digger,
Sam the Healer, Belle Star and Chuck Wengam need nothing (the seed's texts, §9).

- Greg Digger (``after_beers``, data version ``characters-ua3 ua3-2``): each ``beer`` symbol he
  resolves heals twice. The first heal goes to the beer's target as a base beer's (the beers are
  poured together, as the base rule pours them); then, per beer symbol in die order, he names the
  player who gets the second heal of 1 (``greg_heal``: ``p2 target p4`` or ``p2 decline``; the
  default, at a timeout, is ``decline``: no second heal, RULINGS-expansions §7). Any living
  player, himself allowed; never an eliminated player, never a plain zombie (UA4: a zombie never
  gains life). A Jesse Jones gains 1 from each (they are Greg's beers, not Jesse's). Games
  recorded with ``ua3-1`` replay with that version's Greg (``UA3_1``): no question, both heals to
  the beer's target as one gain of up to 2 (``own_beer`` + ``others_beer``).
- Herb Hunter (``end_of_turn``, E2): every other living player who lost 2 or more life (gross)
  during Herb's turn owes a wound token (UA1's ``WoundOwed``; drawn at random, one each).
- Sam the Healer (``after_shots``): per ``shoot1`` symbol he used in the shots step, may make one
  living player (himself allowed) gain 1 (``sam_heal``: ``p1 target p3`` or ``p1 decline``).
- Belle Star (``after_roll``, R2e): after each roll, while D < 3, may turn one ``dynamite`` die
  to ``beer`` (``belle_convert``: ``p1 set 2 beer`` or ``p1 decline``), once per roll.
- Chuck Wengam (``after_roll``): once per turn, after any roll's effects, may pay 1 life (no
  source, cause ``price``; never his last) to set one of his dice to a face of that die
  (``chuck_set``: ``p1 set 2 gatling``); the new face acts as rolled.
- Pat Brennan (``start_of_turn``, S2): may move one face-down Rage card from one living player to
  another (``pat_move``: ``p1 move-rage p3 p1 0`` or ``p1 decline``); the card's id is never
  named, so it stays as hidden as when drawn.
- Pixie Pete: each Rage card he must draw, he draws two and keeps one (``pixie_keep``); the
  draws belong to UA2's deck, so his rule lives there (``rage.draws_two``, ``RageKept``).
- Sean Mallory: once per turn, in a duel on his own turn, may throw his losing roll-off throw
  again (``sean_reroll``); the roll-off belongs to UA1, so his rule lives there
  (``duels.may_reroll``).
- Zombies (UA4): a plain zombie is never Pat Brennan's taker and never owes Herb Hunter's wound
  token (zombies take no Rage cards or wound tokens).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from enum import StrEnum
from types import MappingProxyType

from services.game.rules.dice import commands as cmd
from services.game.rules.dice import events as ev
from services.game.rules.dice.abilities import BASE_RULES, Ability, gain_life
from services.game.rules.dice.awaiting import Awaiting
from services.game.rules.dice.characters import Character
from services.game.rules.dice.decisions import BotHint, DecisionSpec, Who, living_target
from services.game.rules.dice.errors import IllegalCommand
from services.game.rules.dice.flow import apply_losses, clockwise_from
from services.game.rules.dice.modules import Handler, RulesModule
from services.game.rules.dice.points import TurnPoint
from services.game.rules.dice.state import GameState, PlayerState, TurnState
from services.game.rules.dice.undead.duels import WoundOwed
from services.game.rules.dice.vocabulary import Cause, CharacterId, Face, GainCause, PlayerId
from services.game.rules.ruleset import ModuleId

Emit = Callable[[ev.Event], None]


class PosseDecision(StrEnum):
    SAM_HEAL = "sam_heal"
    BELLE_CONVERT = "belle_convert"
    CHUCK_SET = "chuck_set"
    PAT_MOVE = "pat_move"
    GREG_HEAL = "greg_heal"


SAM_HEAL = PosseDecision.SAM_HEAL
BELLE_CONVERT = PosseDecision.BELLE_CONVERT
CHUCK_SET = PosseDecision.CHUCK_SET
PAT_MOVE = PosseDecision.PAT_MOVE
GREG_HEAL = PosseDecision.GREG_HEAL
CHUCK_USED = "chuck_wengam"
"""``TurnState.decided``: Chuck Wengam set a die this turn."""
_NOT_DICE = ("rage", "wound")
"""Undead or Alive's symbols beside the dice (a revealed Rage card's, the dynamite wound token):
never changed (§0 "Results")."""
_SAM_KEY = "sam_heal@"
"""``TurnState.decided``: one key per ``shoot1`` symbol Sam has answered for (``sam_heal@0``…)."""
_GREG_KEY = "greg_heal@"
"""``TurnState.decided``: one key per ``beer`` symbol Greg has named a second heal for."""


# --- events --------------------------------------------------------------------------------------


class ShotHealed(ev.Event, frozen=True, kw_only=True):
    """Sam the Healer: for one ``shoot1`` he used, ``target`` gains 1 (the ``LifeGained``
    follows unless he is at his maximum)."""

    player: PlayerId
    target: PlayerId


class ShotHealDeclined(ev.Event, frozen=True, kw_only=True):
    """Sam the Healer heals nobody for one ``shoot1`` he used."""

    player: PlayerId


class SecondHealGiven(ev.Event, frozen=True, kw_only=True):
    """Greg Digger (``ua3-2``): the second heal of the beer on die ``die`` goes to ``target``
    (the ``LifeGained`` of 1, cause ``beer``, follows unless he is at his maximum)."""

    player: PlayerId
    target: PlayerId
    die: int


class SecondHealDeclined(ev.Event, frozen=True, kw_only=True):
    """Greg Digger gives the second heal of the beer on die ``die`` to nobody."""

    player: PlayerId
    die: int


class DynamiteConverted(ev.Event, frozen=True, kw_only=True):
    """Belle Star turned her die ``die`` from ``dynamite`` to ``beer`` after this roll."""

    player: PlayerId
    die: int


class ConvertDeclined(ev.Event, frozen=True, kw_only=True):
    """Belle Star keeps this roll's dynamite as they are."""

    player: PlayerId


class DieBought(ev.Event, frozen=True, kw_only=True):
    """Chuck Wengam paid 1 life (the ``LifeLost`` follows, cause ``price``) to set his die
    ``die`` to ``face``; it acts as rolled now."""

    player: PlayerId
    die: int
    face: Face


class DieNotBought(ev.Event, frozen=True, kw_only=True):
    """Chuck Wengam leaves this roll's dice as they are."""

    player: PlayerId


class RageMoved(ev.Event, frozen=True, kw_only=True):
    """Pat Brennan moved one face-down Rage card (``giver``'s card ``slot``) to ``taker``; it
    stays face down, and which card it is stays hidden as when it was drawn."""

    player: PlayerId
    giver: PlayerId
    taker: PlayerId
    slot: int


class RageMoveDeclined(ev.Event, frozen=True, kw_only=True):
    """Pat Brennan moves no Rage card this turn."""

    player: PlayerId


# --- the characters' hooks ------------------------------------------------------------------------


def shoot1_used(t: TurnState) -> int:
    """The ``shoot1`` symbols aimed this turn (a ``shoot1x2``'s two count two; Rage ``shoot1``
    symbols count; a cancelled one was never aimed)."""
    dice = t.dice
    first = sum(1 for die in t.targets if dice[die] in (Face.SHOOT1, Face.SHOOT1X2))
    return first + sum(1 for die in t.second_targets if dice[die] is Face.SHOOT1X2)


def _answered(t: TurnState) -> int:
    return sum(1 for key in t.decided if key.startswith(_SAM_KEY))


def _sam_the_healer(s: GameState, t: TurnState, owner: PlayerState) -> Awaiting | None:
    """After the shots: one question per ``shoot1`` symbol used, while he is in the game."""
    if not owner.alive or _answered(t) >= shoot1_used(t):
        return None
    return Awaiting(player=owner.id, decision=SAM_HEAL)


def _belle_key(t: TurnState) -> str:
    return f"{BELLE_CONVERT}@{t.rolls_used}"


def convertible(t: TurnState) -> tuple[int, ...]:
    """Belle Star's dice she may turn to ``beer`` now: those showing ``dynamite`` whose kind has a
    ``beer`` face (base, Coward; not a Loudmouth or Duel die, not a Rage symbol or the dynamite
    token), while D < 3."""
    if t.count(Face.DYNAMITE) >= 3:
        return ()
    kinds = t.kinds
    return tuple(
        i
        for i, f in enumerate(t.dice)
        if f is Face.DYNAMITE and kinds[i].name not in _NOT_DICE and Face.BEER in kinds[i].faces
    )


def _belle_star(s: GameState, t: TurnState, owner: PlayerState) -> Awaiting | None:
    """R2e: after each roll, while D < 3, may change one ``dynamite`` die to ``beer`` (asked
    once per roll)."""
    if t.rolls_used == 0 or _belle_key(t) in t.decided:
        return None
    dice = convertible(t)
    if not dice:
        return None
    return Awaiting(player=owner.id, decision=BELLE_CONVERT, dice=dice)


def _chuck_key(t: TurnState) -> str:
    return f"{CHUCK_SET}@{t.rolls_used}"


def settable(t: TurnState) -> tuple[int, ...]:
    """Chuck Wengam's dice he may set now: any die of his hand (not a Rage symbol, the dynamite
    token or a Ghost-preset die), but not one showing ``dynamite`` while D >= 3."""
    three = t.count(Face.DYNAMITE) >= 3
    return tuple(
        i
        for i, f in enumerate(t.dice)
        if f is not None
        and t.kinds[i].name not in _NOT_DICE
        and i not in t.preset
        and not (three and f is Face.DYNAMITE)
    )


def _chuck_wengam(s: GameState, t: TurnState, owner: PlayerState) -> Awaiting | None:
    """Once per turn, after any roll's effects: may pay 1 life (never his last, ruling) to set one
    of his dice to a face of that die (asked once per roll until he does)."""
    if t.rolls_used == 0 or CHUCK_USED in t.decided or _chuck_key(t) in t.decided or owner.life < 2:
        return None
    dice = settable(t)
    if not dice:
        return None
    return Awaiting(player=owner.id, decision=CHUCK_SET, dice=dice)


def _takers(s: GameState, giver: PlayerId) -> list[PlayerState]:
    return [p for p in s.players if p.alive and not p.zombie and p.id != giver]


def _pat_brennan(s: GameState, t: TurnState, owner: PlayerState) -> Awaiting | None:
    """S2: at the start of his turn, may move one Rage card from one player to another (himself
    allowed either way); asked once, when someone holds one."""
    rage = s.rage
    if rage is None or t.rolls_used or PAT_MOVE in t.decided:
        return None
    if not any(cards and s.by_id[p].alive for p, cards in rage.hands.items()):
        return None
    return Awaiting(player=owner.id, decision=PAT_MOVE)


def beer_symbols(t: TurnState) -> tuple[int, ...]:
    """The die of each ``beer`` symbol poured this turn, in die order (a ``beerx2`` aimed twice
    appears twice; a beer spent by Slab or cancelled by a wound token was never poured)."""
    targets, seconds = t.targets, t.second_targets
    dice = [die for die in t.beer_dice() if die in targets]
    dice += [die for die in t.beer_dice() if die in seconds]
    return tuple(sorted(dice))


def _greg_answered(t: TurnState) -> int:
    return sum(1 for key in t.decided if key.startswith(_GREG_KEY))


def _greg_digger(s: GameState, t: TurnState, owner: PlayerState) -> Awaiting | None:
    """Once the beers are poured (each first heal as a base beer's): one question per ``beer``
    symbol, in die order, for its second heal, while he is in the game."""
    if not owner.alive:
        return None
    symbols = beer_symbols(t)
    answered = _greg_answered(t)
    if answered >= len(symbols):
        return None
    return Awaiting(player=owner.id, decision=GREG_HEAL, dice=(symbols[answered],))


def _two_heals(owner: PlayerState) -> int:
    """``ua3-1``: each beer of Greg's heals its target 2."""
    return 2


def _herb_hunter(s: GameState, t: TurnState, owner: PlayerState, emit: Emit) -> None:
    """E2: each other living player who lost 2 or more this turn owes a wound token."""
    rage, duels = s.rage, s.duels
    if rage is None or duels is None or rage.lost_turn != t.number:
        return
    for p in clockwise_from(s, owner):
        if p.id != owner.id and p.alive and not p.zombie and rage.lost.get(p.id, 0) >= 2:
            emit(WoundOwed(player=p.id))


# --- decisions ------------------------------------------------------------------------------------


def _decline(s: GameState, q: Awaiting) -> cmd.GameCommand | None:
    return cmd.Decline(player=q.player)


def _check_heal(s: GameState, q: Awaiting, c: cmd.Command) -> None:
    if isinstance(c, cmd.Decline):
        return
    assert isinstance(c, cmd.ChooseTarget)
    if c.die is not None or c.as_face is not None:
        raise IllegalCommand(
            f"'{c}': Sam the Healer names a player only (e.g. '{c.player} target {c.target}')"
        )
    living_target(s, c.target)


def _respond_heal(s: GameState, q: Awaiting, c: cmd.Command, emit: Emit) -> None:
    if isinstance(c, cmd.Decline):
        emit(ShotHealDeclined(player=c.player))
        return
    assert isinstance(c, cmd.ChooseTarget)
    emit(ShotHealed(player=c.player, target=c.target))
    target = s.by_id[c.target]
    if target.life < target.max_life:
        gained = ev.LifeGained(player=target.id, amount=1, cause=GainCause.SHOT_HEAL, source=c.player)
        gain_life(s, gained, emit)


def _generate_heal(s: GameState, q: Awaiting) -> Iterator[cmd.GameCommand]:
    yield cmd.Decline(player=q.player)
    for p in clockwise_from(s, s.by_id[q.player]):
        if p.alive:
            yield cmd.ChooseTarget(player=q.player, target=p.id)


def _check_second_heal(s: GameState, q: Awaiting, c: cmd.Command) -> None:
    if isinstance(c, cmd.Decline):
        return
    assert isinstance(c, cmd.ChooseTarget)
    if c.die is not None or c.as_face is not None:
        raise IllegalCommand(
            f"'{c}': Greg Digger names a player only (e.g. '{c.player} target {c.target}')"
        )
    living_target(s, c.target)
    if s.by_id[c.target].zombie:
        raise IllegalCommand(
            f"'{c}': {c.target} is a zombie and never gains life; to give no second heal, decline"
        )


def _respond_second_heal(s: GameState, q: Awaiting, c: cmd.Command, emit: Emit) -> None:
    die = q.dice[0]
    if isinstance(c, cmd.Decline):
        emit(SecondHealDeclined(player=c.player, die=die))
        return
    assert isinstance(c, cmd.ChooseTarget)
    emit(SecondHealGiven(player=c.player, target=c.target, die=die))
    target = s.by_id[c.target]
    if target.life < target.max_life:
        gained = ev.LifeGained(player=target.id, amount=1, cause=GainCause.BEER, source=c.player)
        gain_life(s, gained, emit)


def _generate_second_heal(s: GameState, q: Awaiting) -> Iterator[cmd.GameCommand]:
    yield cmd.Decline(player=q.player)
    for p in clockwise_from(s, s.by_id[q.player]):
        if p.alive and not p.zombie:
            yield cmd.ChooseTarget(player=q.player, target=p.id)


def _check_convert(s: GameState, q: Awaiting, c: cmd.Command) -> None:
    if isinstance(c, cmd.Decline):
        return
    assert isinstance(c, cmd.SetDie) and s.turn is not None
    if c.face is not Face.BEER:
        raise IllegalCommand(f"'{c}': Belle Star turns a dynamite into a beer only")
    if c.die not in q.dice:
        shown = " ".join(str(d + 1) for d in q.dice)
        raise IllegalCommand(f"'{c}': die {c.die + 1} is not a dynamite she may change (dice {shown})")


def _respond_convert(s: GameState, q: Awaiting, c: cmd.Command, emit: Emit) -> None:
    if isinstance(c, cmd.Decline):
        emit(ConvertDeclined(player=c.player))
        return
    assert isinstance(c, cmd.SetDie)
    emit(DynamiteConverted(player=c.player, die=c.die))


def _generate_convert(s: GameState, q: Awaiting) -> Iterator[cmd.GameCommand]:
    yield cmd.Decline(player=q.player)
    for die in q.dice:
        yield cmd.SetDie(player=q.player, die=die, face=Face.BEER)


def _check_set(s: GameState, q: Awaiting, c: cmd.Command) -> None:
    if isinstance(c, cmd.Decline):
        return
    assert isinstance(c, cmd.SetDie) and s.turn is not None
    t = s.turn
    if c.die not in q.dice:
        shown = " ".join(str(d + 1) for d in q.dice)
        raise IllegalCommand(f"'{c}': Chuck Wengam may set one of the dice {shown}, not die {c.die + 1}")
    kind = t.kinds[c.die]
    if c.face not in kind.faces:
        raise IllegalCommand(f"'{c}': the {kind.name} die has no {c.face} face")
    if c.face is t.dice[c.die]:
        raise IllegalCommand(f"'{c}': die {c.die + 1} shows {c.face} already")


def _respond_set(s: GameState, q: Awaiting, c: cmd.Command, emit: Emit) -> None:
    if isinstance(c, cmd.Decline):
        emit(DieNotBought(player=c.player))
        return
    assert isinstance(c, cmd.SetDie)
    emit(DieBought(player=c.player, die=c.die, face=c.face))
    apply_losses(s, [(c.player, 1, Cause.PRICE, None)], None, emit)


def _generate_set(s: GameState, q: Awaiting) -> Iterator[cmd.GameCommand]:
    yield cmd.Decline(player=q.player)
    t = s.turn
    assert t is not None
    for die in q.dice:
        for face in dict.fromkeys(t.kinds[die].faces):
            if face is not t.dice[die]:
                yield cmd.SetDie(player=q.player, die=die, face=face)


def _check_move(s: GameState, q: Awaiting, c: cmd.Command) -> None:
    if isinstance(c, cmd.Decline):
        return
    assert isinstance(c, cmd.MoveRage)
    living_target(s, c.giver)
    living_target(s, c.taker)
    if c.giver == c.taker:
        raise IllegalCommand(f"'{c}': the card goes from one player to another")
    if s.by_id[c.taker].zombie:
        raise IllegalCommand(f"'{c}': {c.taker} is a zombie and takes no Rage card")
    held = len(s.rage.hands.get(c.giver, ())) if s.rage is not None else 0
    if not 0 <= c.slot < held:
        raise IllegalCommand(f"'{c}': {c.giver} holds {held} Rage card(s), no card {c.slot}")


def _respond_move(s: GameState, q: Awaiting, c: cmd.Command, emit: Emit) -> None:
    if isinstance(c, cmd.Decline):
        emit(RageMoveDeclined(player=c.player))
        return
    assert isinstance(c, cmd.MoveRage)
    emit(RageMoved(player=c.player, giver=c.giver, taker=c.taker, slot=c.slot))


def _generate_move(s: GameState, q: Awaiting) -> Iterator[cmd.GameCommand]:
    yield cmd.Decline(player=q.player)
    rage = s.rage
    assert rage is not None
    for p in s.players:
        held = len(rage.hands.get(p.id, ())) if p.alive else 0
        for slot in range(held):
            for taker in _takers(s, p.id):
                yield cmd.MoveRage(player=q.player, giver=p.id, taker=taker.id, slot=slot)


GREG_HEAL_SPEC = DecisionSpec(
    GREG_HEAL,
    Who.ACTIVE,
    TurnPoint.AFTER_BEERS,
    "choose who gets the second heal of a beer",
    (cmd.ChooseTarget, cmd.Decline),
    _check_second_heal,
    _respond_second_heal,
    _generate_second_heal,
    _decline,
    BotHint.HELP,
    optional=True,
)
"""``greg_heal`` (``ua3-2``): asked per beer symbol; the default gives no second heal
(RULINGS-expansions §7: "none (first heal as base)")."""

DECISIONS_UA3_1: tuple[DecisionSpec, ...] = (
    DecisionSpec(
        PAT_MOVE,
        Who.ACTIVE,
        TurnPoint.START_OF_TURN,
        "decide whether to move a Rage card from one player to another",
        (cmd.MoveRage, cmd.Decline),
        _check_move,
        _respond_move,
        _generate_move,
        _decline,
        BotHint.DECLINE,
        optional=True,
    ),
    DecisionSpec(
        CHUCK_SET,
        Who.ACTIVE,
        TurnPoint.AFTER_ROLL,
        "decide whether to pay 1 life to set one of his dice to a face of his choice",
        (cmd.SetDie, cmd.Decline),
        _check_set,
        _respond_set,
        _generate_set,
        _decline,
        BotHint.DECLINE,
        optional=True,
    ),
    DecisionSpec(
        BELLE_CONVERT,
        Who.ACTIVE,
        TurnPoint.AFTER_ROLL,
        "decide whether to change a dynamite die to a beer",
        (cmd.SetDie, cmd.Decline),
        _check_convert,
        _respond_convert,
        _generate_convert,
        _decline,
        BotHint.DECLINE,
        optional=True,
    ),
    DecisionSpec(
        SAM_HEAL,
        Who.ACTIVE,
        TurnPoint.AFTER_SHOTS,
        "choose a player to gain 1 life for a shoot1 used",
        (cmd.ChooseTarget, cmd.Decline),
        _check_heal,
        _respond_heal,
        _generate_heal,
        _decline,
        BotHint.HELP,
        optional=True,
    ),
)
"""UA3's decisions under ``ua3-1`` (Greg Digger asks nothing)."""

DECISIONS: tuple[DecisionSpec, ...] = (*DECISIONS_UA3_1, GREG_HEAL_SPEC)


# --- the state changes ----------------------------------------------------------------------------


def _shot_healed(s: GameState, e: ShotHealed | ShotHealDeclined) -> None:
    t = s.turn
    assert t is not None
    t.decided.add(f"{_SAM_KEY}{_answered(t)}")


def _second_heal(s: GameState, e: SecondHealGiven | SecondHealDeclined) -> None:
    t = s.turn
    assert t is not None
    t.decided.add(f"{_GREG_KEY}{_greg_answered(t)}")


def _converted(s: GameState, e: DynamiteConverted) -> None:
    t = s.turn
    assert t is not None
    t.dice[e.die] = Face.BEER
    t.decided.add(_belle_key(t))


def _convert_declined(s: GameState, e: ConvertDeclined) -> None:
    t = s.turn
    assert t is not None
    t.decided.add(_belle_key(t))


def _die_bought(s: GameState, e: DieBought) -> None:
    t = s.turn
    assert t is not None
    t.decided.add(CHUCK_USED)
    before = t.dice[e.die]
    t.dice[e.die] = e.face
    # the new face acts as if rolled now: its arrow, broken arrow or bullet (ruling); the old
    # face's effects, taken at the roll, stay done
    if e.face is Face.ARROW:
        t.roll_arrows_left += 1
    for face, counter in ((Face.BROKEN_ARROW, "roll_broken_left"), (Face.BULLET, "roll_bullets_left")):
        if e.face is face:
            setattr(t, counter, getattr(t, counter) + 1)
    if before is not e.face and e.die not in t.rolled:
        t.rolled = (*t.rolled, e.die)


def _die_not_bought(s: GameState, e: DieNotBought) -> None:
    t = s.turn
    assert t is not None
    t.decided.add(_chuck_key(t))


def _rage_moved(s: GameState, e: RageMoved) -> None:
    assert s.turn is not None and s.rage is not None
    s.turn.decided.add(PAT_MOVE)
    hands = s.rage.hands
    card = hands[e.giver].pop(e.slot)
    hands.setdefault(e.taker, []).append(card)


def _rage_move_declined(s: GameState, e: RageMoveDeclined) -> None:
    assert s.turn is not None
    s.turn.decided.add(PAT_MOVE)


_HANDLERS: dict[type[ev.Event], Handler] = {
    RageMoved: _rage_moved,
    RageMoveDeclined: _rage_move_declined,
    DieBought: _die_bought,
    DieNotBought: _die_not_bought,
    ShotHealed: _shot_healed,
    ShotHealDeclined: _shot_healed,
    SecondHealGiven: _second_heal,
    SecondHealDeclined: _second_heal,
    DynamiteConverted: _converted,
    ConvertDeclined: _convert_declined,
}


# --- the characters -------------------------------------------------------------------------------

BELLE_STAR = Ability(after_roll=_belle_star)
CHUCK_WENGAM = Ability(after_roll=_chuck_wengam)
PAT_BRENNAN = Ability(start_of_turn=_pat_brennan)
GREG_DIGGER = Ability(after_beers=_greg_digger)
GREG_DIGGER_UA3_1 = Ability(own_beer=_two_heals, others_beer=_two_heals)
HERB_HUNTER = Ability(end_of_turn=_herb_hunter)
SAM_THE_HEALER = Ability(after_shots=_sam_the_healer)

CHARACTERS: tuple[Character, ...] = (
    Character(CharacterId.BELLE_STAR, "Belle Star", 8, ability=BELLE_STAR),
    Character(CharacterId.CHUCK_WENGAM, "Chuck Wengam", 8, ability=CHUCK_WENGAM),
    Character(CharacterId.GREG_DIGGER, "Greg Digger", 7, ability=GREG_DIGGER),
    Character(CharacterId.HERB_HUNTER, "Herb Hunter", 8, ability=HERB_HUNTER),
    Character(CharacterId.PAT_BRENNAN, "Pat Brennan", 8, ability=PAT_BRENNAN),
    Character(CharacterId.PIXIE_PETE, "Pixie Pete", 9, ability=BASE_RULES),
    Character(CharacterId.SAM_THE_HEALER, "Sam the Healer", 7, ability=SAM_THE_HEALER),
    Character(CharacterId.SEAN_MALLORY, "Sean Mallory", 8, ability=BASE_RULES),
)

UA3_1 = RulesModule(
    ModuleId.UA3,
    characters=tuple(
        Character(c.id, c.name, c.life, ability=GREG_DIGGER_UA3_1) if c.id is CharacterId.GREG_DIGGER else c
        for c in CHARACTERS
    ),
    decisions=DECISIONS_UA3_1,
    events=MappingProxyType(_HANDLERS),
)
"""UA3 as ``characters-ua3 ua3-1`` plays it: Greg Digger's two heals of a beer both go to its
target, as one gain of up to 2 (games recorded with that version)."""

UA3 = RulesModule(
    ModuleId.UA3,
    characters=CHARACTERS,
    decisions=DECISIONS,
    events=MappingProxyType(_HANDLERS),
    versions=MappingProxyType({("characters-ua3", "ua3-1"): UA3_1}),
)
"""UA3, A New Posse in Town (``characters-ua3 ua3-2``)."""
