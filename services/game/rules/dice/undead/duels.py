"""UA1, Look Me in the Eyes: the Duel dice, whiskey, duels and the Duel Wound tokens
(RULINGS-expansions §UA1, §2 P1–P6/E3; rulings in docs/rulings.md "Duels").

- **Dice**: two base dice are replaced by the two Duel dice for the whole game (``hand``: 3 base
  + 2 Duel; OS1's Saloon die then replaces a base die). The Duel die shows ``arrow``,
  ``dynamite``, ``gatling``, ``whiskey``, ``duel``, ``duel``.
- **Wound tokens**: 15, face up once drawn (3 ``beer``, 5 ``shoot1``, 5 ``shoot2``, 2
  ``dynamite``). A draw is random (``wound_draw``, answered by ``DrawCard`` with the token's
  symbol); a player already holding that symbol puts it back and takes nothing. During the
  holder's turn a ``shoot1``/``shoot2``/``beer`` token cancels one identical symbol of his final
  dice (after the whiskeys, before the shots: ``WoundsApplied``); the ``dynamite`` token is one
  more ``dynamite`` from the first roll on (a preset die of kind ``wound``). At the end of the
  holder's turn every token he holds goes back (``WoundsReturned``), as at his elimination.
- **Whiskey** (P2): each ``whiskey`` gives the active player 1 life, then he discards a token of
  his choice (``whiskey_discard`` when he holds two kinds or more), or, holding none, draws a
  Rage card at once (``WhiskeyRage``: UA2's draw, asked at once).
- **Duels** (P6): each ``duel`` symbol, one at a time, the active player names a living player
  not yet challenged this turn (``duel_target``); the roll-off is a series of random throws of a
  Duel die (``duel_throw``, answered by ``DrawCard`` with the face), the target first: the first
  who fails to throw ``duel`` loses 1 life (the other duelist is the source: ``Cause.DUEL``) and,
  if still alive, draws a wound token. No one left to challenge: the other duels are unused.
- **Sean Mallory** (UA3): once per turn, in a duel on his own turn, a throw of his that would
  lose the duel is held (``DuelThrowHeld``) and he may throw it again (``sean_reroll``:
  ``p3 reroll-throw`` or ``p3 decline``); the new throw stands. Never in the rolling phase.
- **Zombies** (UA4): a plain zombie rolls 3 base dice, no Duel die; he is never challenged (he
  has no Duel die to throw) and never takes a wound token.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType

from services.game.rules.dice import commands as cmd
from services.game.rules.dice import events as ev
from services.game.rules.dice.abilities import Ability, gain_life
from services.game.rules.dice.awaiting import Awaiting
from services.game.rules.dice.decisions import BotHint, DecisionSpec, Who
from services.game.rules.dice.errors import IllegalCommand
from services.game.rules.dice.flow import apply_losses, clockwise_from
from services.game.rules.dice.kinds import BASE, DieKind, die_kind
from services.game.rules.dice.modules import Handler, RulesModule
from services.game.rules.dice.points import TurnPoint
from services.game.rules.dice.state import BatchKind, DamageBatch, GameState, PlayerState, TurnState
from services.game.rules.dice.undead.draws import DRAWN, DRAWS, Draw
from services.game.rules.dice.vocabulary import (
    ARROW,
    BEER,
    DYNAMITE,
    GATLING,
    SHOOT1,
    SHOOT2,
    Cause,
    CharacterId,
    Face,
    GainCause,
    PlayerId,
)
from services.game.rules.ruleset import ModuleId

Emit = Callable[[ev.Event], None]
Step = Callable[[GameState, Emit], None]

WHISKEY, DUEL = Face.WHISKEY, Face.DUEL
DUEL_DIE = die_kind("duel", (ARROW, DYNAMITE, GATLING, WHISKEY, DUEL, DUEL))
"""The Duel die (§1): ``duel`` twice."""
WOUND = die_kind("wound", (DYNAMITE,))
"""The ``dynamite`` wound token as a die of its own kind: one more dynamite, never rolled."""
DUEL_HAND: tuple[DieKind, ...] = (BASE, BASE, BASE, DUEL_DIE, DUEL_DIE)
ZOMBIE_HAND: tuple[DieKind, ...] = (BASE, BASE, BASE)
"""A plain zombie's dice (UA4 [O]): 3 base dice, never a Duel die."""
SEAN_MALLORY = CharacterId.SEAN_MALLORY

WOUND_DECK = "wound-tokens-ua1-1"
"""The wound tokens' deck name for the draw derivation (the ruleset's ``wound-tokens: ua1-1``)."""
WOUND_TOKENS: tuple[tuple[Face, int], ...] = ((BEER, 3), (SHOOT1, 5), (SHOOT2, 5), (DYNAMITE, 2))
"""The 15 Duel Wound tokens by symbol, in the order a draw lists them (§UA1 [O])."""
DUEL_THROWS = "duel-die-ua1-1"
"""The roll-off throws' deck name: a throw is a draw among the Duel die's six faces."""
DUEL_FACES: tuple[str, ...] = tuple(f.value for f in DUEL_DIE.faces)
CANCELS = (SHOOT1, SHOOT2, BEER)
"""The tokens that cancel an identical symbol of the holder's final dice."""


class DuelDecision(StrEnum):
    WOUND_DRAW = "wound_draw"
    WHISKEY_DISCARD = "whiskey_discard"
    DUEL_TARGET = "duel_target"
    DUEL_THROW = "duel_throw"
    SEAN_REROLL = "sean_reroll"


SEAN_REROLL = DuelDecision.SEAN_REROLL
WOUND_DRAW, WHISKEY_DISCARD = DuelDecision.WOUND_DRAW, DuelDecision.WHISKEY_DISCARD
DUEL_TARGET, DUEL_THROW = DuelDecision.DUEL_TARGET, DuelDecision.DUEL_THROW


# --- the state ------------------------------------------------------------------------------------


@dataclass(slots=True)
class DuelState:
    pile: dict[Face, int]
    """Wound tokens face down, by symbol."""
    held: dict[PlayerId, list[Face]] = field(default_factory=dict)
    """Each player's wound tokens, face up (one of each symbol at most)."""
    owed: list[PlayerId] = field(default_factory=list)
    """Wound tokens owed (duel losers), drawn one at a time."""
    wound_draws: int = 0
    throws: int = 0
    turn: int = 0
    """The turn the fields below are about (they start afresh each turn)."""
    whiskeys: int = 0
    discard_due: bool = False
    """A whiskey was drunk and its discard (or Rage draw) is still to come."""
    applied: bool = False
    duels_used: int = 0
    challenged: list[PlayerId] = field(default_factory=list)
    thrower: PlayerId | None = None
    """In a duel: who throws next (None: no duel on)."""
    dynamite_set: bool = False
    loser: PlayerId | None = None
    """A duel's loser whose loss waits for his own answer (Bart Cassidy's arrows instead)."""
    winner: PlayerId | None = None
    throw_held: bool = False
    """Sean Mallory's losing throw waits for his answer (``sean_reroll``)."""
    rerolled: bool = False
    """Sean Mallory threw again this turn (once per turn)."""

    @classmethod
    def new(cls) -> DuelState:
        return cls(dict(WOUND_TOKENS))

    def clone(self) -> DuelState:
        return DuelState(
            dict(self.pile),
            {p: list(h) for p, h in self.held.items()},
            list(self.owed),
            self.wound_draws,
            self.throws,
            self.turn,
            self.whiskeys,
            self.discard_due,
            self.applied,
            self.duels_used,
            list(self.challenged),
            self.thrower,
            self.dynamite_set,
            self.loser,
            self.winner,
            self.throw_held,
            self.rerolled,
        )

    def at(self, turn: int) -> DuelState:
        """These fields for ``turn``, reset if they were another turn's."""
        if self.turn != turn:
            self.turn, self.whiskeys, self.discard_due, self.applied = turn, 0, False, False
            self.duels_used, self.challenged, self.thrower, self.dynamite_set = 0, [], None, False
            self.loser = self.winner = None
            self.throw_held = self.rerolled = False
        return self

    def now(self, turn: int) -> DuelState:
        """Read-only: these fields as they stand in ``turn`` (fresh ones when they are another
        turn's), without changing the state (the rules' questions never change it)."""
        if self.turn == turn:
            return self
        return DuelState(self.pile, self.held, self.owed, self.wound_draws, self.throws, turn)

    def tokens(self) -> tuple[str, ...]:
        """The tokens face down, in ``WOUND_TOKENS`` order, each as often as it is there."""
        return tuple(f.value for f, _ in WOUND_TOKENS for _ in range(self.pile.get(f, 0)))


def duels_of(s: GameState) -> DuelState:
    state = s.duels
    assert state is not None, "the game has no duels (UA1)"
    return state


# --- events ---------------------------------------------------------------------------------------


class WoundDrawn(ev.Event, frozen=True, kw_only=True):
    """``player`` drew the wound token ``card`` (its symbol); ``kept`` False when he held that
    symbol already and put it back."""

    player: PlayerId
    card: Face
    kept: bool = True


class WoundOwed(ev.Event, frozen=True, kw_only=True):
    """``player`` lost a duel and must draw a wound token."""

    player: PlayerId


class WhiskeyRage(ev.Event, frozen=True, kw_only=True):
    """A whiskey of ``player``, who holds no wound token: he draws a Rage card at once (UA2)."""

    player: PlayerId


class WoundsReturned(ev.Event, frozen=True, kw_only=True):
    """``player``'s wound tokens went back into the pile (end of his turn, or his elimination)."""

    player: PlayerId
    tokens: tuple[Face, ...]


class WoundDynamiteSet(ev.Event, frozen=True, kw_only=True):
    """At the start of his turn, ``player``'s ``dynamite`` token counts as one more dynamite."""

    player: PlayerId


class WhiskeyDrunk(ev.Event, frozen=True, kw_only=True):
    """A ``whiskey`` of ``player``'s dice resolved (its heal follows as ``LifeGained``)."""

    player: PlayerId


class WoundDiscarded(ev.Event, frozen=True, kw_only=True):
    """After a whiskey, ``player`` put his ``token`` back into the pile; ``chosen``: among two
    kinds or more (his decision), else his only kind."""

    player: PlayerId
    token: Face
    chosen: bool = False


class WoundsApplied(ev.Event, frozen=True, kw_only=True):
    """``player``'s wound tokens cancelled the symbols of these dice (P3/P4)."""

    player: PlayerId
    dice: tuple[int, ...]


class DuelChallenged(ev.Event, frozen=True, kw_only=True):
    player: PlayerId
    target: PlayerId


class DuelThrown(ev.Event, frozen=True, kw_only=True):
    """A roll-off throw of a Duel die by ``player``."""

    player: PlayerId
    face: Face


class DuelLost(ev.Event, frozen=True, kw_only=True):
    """``player`` failed to throw ``duel`` first: he loses the duel to ``winner``."""

    player: PlayerId
    winner: PlayerId


class DuelLossSettled(ev.Event, frozen=True, kw_only=True):
    """The duel's loss of ``player`` applies now (what Bart Cassidy took as arrows excepted)."""

    player: PlayerId


class DuelThrowHeld(ev.Event, frozen=True, kw_only=True):
    """Sean Mallory's throw just made would lose the duel: he may throw it again first."""

    player: PlayerId


class DuelThrowRerolled(ev.Event, frozen=True, kw_only=True):
    """Sean Mallory throws again (his once a turn); the new throw stands."""

    player: PlayerId


class DuelThrowKept(ev.Event, frozen=True, kw_only=True):
    """Sean Mallory lets his throw stand (the duel's loss follows)."""

    player: PlayerId


class DuelsUnused(ev.Event, frozen=True, kw_only=True):
    """``player``'s other ``duel`` symbols found nobody left to challenge."""

    player: PlayerId


EVENTS: tuple[type[ev.Event], ...] = (
    WoundDrawn,
    WhiskeyRage,
    WoundOwed,
    WoundsReturned,
    WoundDynamiteSet,
    WhiskeyDrunk,
    WoundDiscarded,
    WoundsApplied,
    DuelChallenged,
    DuelThrown,
    DuelLost,
    DuelLossSettled,
    DuelsUnused,
    DuelThrowHeld,
    DuelThrowRerolled,
    DuelThrowKept,
)


def _turn(s: GameState) -> tuple[TurnState, DuelState]:
    t = s.turn
    assert t is not None
    return t, duels_of(s).at(t.number)


def _wound_drawn(s: GameState, e: WoundDrawn) -> None:
    d = duels_of(s)
    d.owed.pop(0)
    d.wound_draws += 1
    if e.kept:
        d.pile[e.card] -= 1
        d.held.setdefault(e.player, []).append(e.card)


def _wound_owed(s: GameState, e: WoundOwed) -> None:
    duels_of(s).owed.append(e.player)


def _wounds_returned(s: GameState, e: WoundsReturned) -> None:
    d = duels_of(s)
    for token in d.held.pop(e.player, []):
        d.pile[token] += 1
    d.owed = [p for p in d.owed if p != e.player]


def _dynamite_set(s: GameState, e: WoundDynamiteSet) -> None:
    t, d = _turn(s)
    d.dynamite_set = True
    first = len(t.dice)
    t.kinds = (*t.kinds, WOUND)
    t.dice = [*t.dice, DYNAMITE]
    t.preset = (*t.preset, first)


def _whiskey_drunk(s: GameState, e: WhiskeyDrunk) -> None:
    _, d = _turn(s)
    d.whiskeys += 1
    d.discard_due = True


def _wound_discarded(s: GameState, e: WoundDiscarded) -> None:
    d = duels_of(s)
    d.held[e.player].remove(e.token)
    d.pile[e.token] += 1
    if s.turn is not None:
        d.at(s.turn.number).discard_due = False


def _whiskey_rage(s: GameState, e: WhiskeyRage) -> None:
    _, d = _turn(s)
    d.discard_due = False
    rage = s.rage
    if rage is not None and not s.by_id[e.player].zombie and (rage.pile or rage.discard):
        rage.owed_now.append(e.player)  # UA2 asks the draw at once


def _wounds_applied(s: GameState, e: WoundsApplied) -> None:
    t, d = _turn(s)
    d.applied = True
    t.cancelled = e.dice
    t.final = None  # worked out again without the cancelled dice


def _challenged(s: GameState, e: DuelChallenged) -> None:
    _, d = _turn(s)
    d.duels_used += 1
    d.challenged.append(e.target)
    d.thrower = e.target


def _thrown(s: GameState, e: DuelThrown) -> None:
    t, d = _turn(s)
    d.throws += 1
    if e.face is DUEL:  # back to the other duelist
        d.thrower = t.player if e.player != t.player else d.challenged[-1]


def _lost(s: GameState, e: DuelLost) -> None:
    t, d = _turn(s)
    d.thrower = None
    d.loser, d.winner = e.player, e.winner
    t.batch = DamageBatch(BatchKind.DUEL, e.winner)


def _settled(s: GameState, e: DuelLossSettled) -> None:
    _, d = _turn(s)
    d.loser = d.winner = None


def _unused(s: GameState, e: DuelsUnused) -> None:
    _, d = _turn(s)
    d.duels_used = 99


def _throw_held(s: GameState, e: DuelThrowHeld) -> None:
    _, d = _turn(s)
    d.throw_held = True


def _throw_rerolled(s: GameState, e: DuelThrowRerolled) -> None:
    _, d = _turn(s)
    d.throw_held, d.rerolled = False, True  # he throws next again


def _throw_kept(s: GameState, e: DuelThrowKept) -> None:
    _, d = _turn(s)
    d.throw_held = False


_HANDLERS: dict[type[ev.Event], Handler] = {
    WoundDrawn: _wound_drawn,
    WoundOwed: _wound_owed,
    WhiskeyRage: _whiskey_rage,
    WoundsReturned: _wounds_returned,
    WoundDynamiteSet: _dynamite_set,
    WhiskeyDrunk: _whiskey_drunk,
    WoundDiscarded: _wound_discarded,
    WoundsApplied: _wounds_applied,
    DuelChallenged: _challenged,
    DuelThrown: _thrown,
    DuelLost: _lost,
    DuelLossSettled: _settled,
    DuelsUnused: _unused,
    DuelThrowHeld: _throw_held,
    DuelThrowRerolled: _throw_rerolled,
    DuelThrowKept: _throw_kept,
}


# --- hooks ----------------------------------------------------------------------------------------


def _hand(s: GameState, p: PlayerState) -> tuple[DieKind, ...]:
    return ZOMBIE_HAND if p.zombie else DUEL_HAND


def _start(s: GameState, started: ev.GameStarted) -> None:
    s.duels = DuelState.new()


def _interrupt(s: GameState) -> Awaiting | Step | None:
    """A wound token owed (a duel's loser) is drawn before anything else."""
    d = s.duels
    if d is None or not d.owed:
        return None
    player = d.owed[0]
    if not s.by_id[player].alive or s.by_id[player].zombie or not d.tokens():
        return None  # never owed so (``_respond_throw``): out of the game, or the pile empty
    return Awaiting(player=player, decision=WOUND_DRAW)


def _reveal(s: GameState, t: TurnState, active: PlayerState) -> Step | None:
    """S: the active player's ``dynamite`` token counts as one more dynamite from the start."""
    d = duels_of(s).now(t.number) if s.duels is not None else None
    if d is None or d.dynamite_set or DYNAMITE not in d.held.get(active.id, ()):
        return None
    event = WoundDynamiteSet(player=active.id)
    return lambda s, emit: emit(event)


def _symbols(t: TurnState, face: Face) -> list[int]:
    """The final dice (not a Rage card's or a token's) showing ``face``."""
    return [i for i, f in enumerate(t.dice) if f is face and t.kinds[i].name not in ("rage", "wound")]


def _after_dynamite(s: GameState, t: TurnState, active: PlayerState) -> Awaiting | Step | None:
    """P2: each whiskey (a heal, then a discard or a Rage draw); then the tokens' cancellations."""
    d = duels_of(s).now(t.number)
    if d.discard_due:
        held = d.held.get(active.id, [])
        if not held:
            owed = WhiskeyRage(player=active.id)
            return lambda s, emit: emit(owed)
        if len(set(held)) == 1:
            discard = WoundDiscarded(player=active.id, token=held[0])
            return lambda s, emit: emit(discard)
        return Awaiting(player=active.id, decision=WHISKEY_DISCARD)
    if d.whiskeys < len(_symbols(t, WHISKEY)):
        return _drink
    if not d.applied and not (t.shots_done or t.beers_done or t.gatling_done or d.duels_used):
        held = [tok for tok in d.held.get(active.id, []) if tok in CANCELS]
        if held:
            cancelled: list[int] = []
            for token in held:
                dice = [i for i in _symbols(t, token) if i not in cancelled]
                if dice:
                    cancelled.append(dice[-1])
            applied = WoundsApplied(player=active.id, dice=tuple(sorted(cancelled)))
            return lambda s, emit: emit(applied)
    return None


def _drink(s: GameState, emit: Emit) -> None:
    t = s.turn
    assert t is not None
    active = s.by_id[t.player]
    emit(WhiskeyDrunk(player=active.id))
    gained = min(1, active.max_life - active.life)
    gain_life(s, ev.LifeGained(player=active.id, amount=gained, cause=GainCause.WHISKEY), emit)


def _eligible(s: GameState, t: TurnState, active: PlayerState) -> list[PlayerState]:
    d = duels_of(s).now(t.number)
    return [
        p
        for p in clockwise_from(s, active)
        if p is not active and p.alive and not p.zombie and p.id not in d.challenged
    ]


def _after_resolving(s: GameState, t: TurnState, active: PlayerState) -> Awaiting | Step | None:
    """P6: the duels, one ``duel`` symbol at a time."""
    d = duels_of(s).now(t.number)
    if d.loser is not None:  # the loss of the duel just lost: the loser's answer first
        loser = s.by_id[d.loser]
        on_damage = loser.character.ability.on_damage
        if on_damage is not None and loser.alive:
            question = on_damage(s, BatchKind.DUEL, loser, 1)
            if question is not None:
                return question
        return _settle(loser.id, d.winner)
    if d.throw_held:  # Sean Mallory's losing throw: may he throw it again?
        return Awaiting(player=active.id, decision=SEAN_REROLL)
    if d.thrower is not None:
        return Awaiting(player=d.thrower, decision=DUEL_THROW)
    if d.duels_used >= len(_symbols(t, DUEL)):
        return None
    if not _eligible(s, t, active):
        unused = DuelsUnused(player=active.id)
        return lambda s, emit: emit(unused)
    return Awaiting(player=active.id, decision=DUEL_TARGET)


def _end_of_turn(s: GameState, t: TurnState, active: PlayerState, emit: Emit) -> None:
    """E3: every wound token of the active player goes back into the pile."""
    held = duels_of(s).held.get(active.id)
    if held:
        emit(WoundsReturned(player=active.id, tokens=tuple(held)))


def _on_elimination(s: GameState, active: PlayerState, eliminated: Sequence[PlayerState], emit: Emit) -> None:
    d = duels_of(s)
    for p in eliminated:
        if d.held.get(p.id) or p.id in d.owed:
            emit(WoundsReturned(player=p.id, tokens=tuple(d.held.get(p.id, ()))))


# --- the decisions --------------------------------------------------------------------------------


def _check_wound(s: GameState, q: Awaiting, c: cmd.Command) -> None:
    assert isinstance(c, cmd.DrawCard)
    there = duels_of(s).tokens()
    if c.card not in there:
        known = ", ".join(f.value for f, _ in WOUND_TOKENS)
        if c.card not in known.split(", "):
            raise IllegalCommand(f"{c.card} is not a wound token ({known})")
        raise IllegalCommand(f"no {c.card} wound token is left in the pile")


def _respond_wound(s: GameState, q: Awaiting, c: cmd.Command, emit: Emit) -> None:
    assert isinstance(c, cmd.DrawCard)
    token = Face(c.card)
    kept = token not in duels_of(s).held.get(q.player, [])
    emit(WoundDrawn(player=q.player, card=token, kept=kept))


def _generate_wound(s: GameState, q: Awaiting) -> Iterator[cmd.GameCommand]:
    for token in dict.fromkeys(duels_of(s).tokens()):
        yield cmd.DrawCard(player=q.player, card=token)


def _check_throw(s: GameState, q: Awaiting, c: cmd.Command) -> None:
    assert isinstance(c, cmd.DrawCard)
    if c.card not in DUEL_FACES:
        raise IllegalCommand(f"a Duel die shows {', '.join(dict.fromkeys(DUEL_FACES))}, not {c.card}")


def _respond_throw(s: GameState, q: Awaiting, c: cmd.Command, emit: Emit) -> None:
    assert isinstance(c, cmd.DrawCard) and s.turn is not None
    t = s.turn
    face = Face(c.card)
    emit(DuelThrown(player=q.player, face=face))
    if face is DUEL:
        return
    d = duels_of(s).now(t.number)
    if may_reroll(s, t, d, q.player):
        emit(DuelThrowHeld(player=q.player))
        return
    winner = d.challenged[-1] if q.player == t.player else t.player
    emit(DuelLost(player=q.player, winner=PlayerId(winner)))  # the loss follows (``_settle``)


def may_reroll(s: GameState, t: TurnState, d: DuelState, thrower: PlayerId) -> bool:
    """Sean Mallory may throw again: his own throw, on his own turn, once a turn (a plain
    zombie has no ability)."""
    if thrower != t.player or d.rerolled:
        return False
    p = s.by_id[thrower]
    return p.character.id is SEAN_MALLORY and not p.zombie


def _settle(loser: PlayerId, winner: PlayerId | None) -> Step:
    """The duel's loser loses 1 (less what Bart Cassidy took as arrows instead), then, still in,
    draws a wound token (an empty pile gives nothing, ruling)."""

    def step(s: GameState, emit: Emit) -> None:
        assert s.turn is not None
        emit(DuelLossSettled(player=loser))
        amount = 1 - s.turn.arrows_instead.get(f"{BatchKind.DUEL}:{loser}", 0)
        if amount > 0:
            apply_losses(s, [(loser, amount, Cause.DUEL, None)], winner, emit)
        p = s.by_id[loser]
        if p.alive and not p.zombie and not s.is_over and duels_of(s).tokens():
            emit(WoundOwed(player=loser))

    return step


def _generate_throw(s: GameState, q: Awaiting) -> Iterator[cmd.GameCommand]:
    for face in dict.fromkeys(DUEL_FACES):
        yield cmd.DrawCard(player=q.player, card=face)


def _check_target(s: GameState, q: Awaiting, c: cmd.Command) -> None:
    assert isinstance(c, cmd.ChooseTarget) and s.turn is not None
    if c.die is not None:
        raise IllegalCommand("a duel names a player, not a die")
    eligible = [p.id for p in _eligible(s, s.turn, s.by_id[s.turn.player])]
    if c.target not in eligible:
        raise IllegalCommand(
            f"{c.target} cannot be challenged (one duel per player per turn, living players only; "
            f"may be: {', '.join(eligible)})"
        )


def _respond_target(s: GameState, q: Awaiting, c: cmd.Command, emit: Emit) -> None:
    assert isinstance(c, cmd.ChooseTarget)
    emit(DuelChallenged(player=q.player, target=c.target))


def _generate_target(s: GameState, q: Awaiting) -> Iterator[cmd.GameCommand]:
    assert s.turn is not None
    for p in _eligible(s, s.turn, s.by_id[s.turn.player]):
        yield cmd.ChooseTarget(player=q.player, target=p.id)


def _timeout_target(s: GameState, q: Awaiting) -> cmd.GameCommand | None:
    return next(_generate_target(s, q), None)


def _check_discard(s: GameState, q: Awaiting, c: cmd.Command) -> None:
    assert isinstance(c, cmd.DiscardWound)
    held = duels_of(s).held.get(q.player, [])
    if c.token not in held:
        raise IllegalCommand(f"{q.player} holds no {c.token} wound token (holds: {', '.join(held)})")


def _respond_discard(s: GameState, q: Awaiting, c: cmd.Command, emit: Emit) -> None:
    assert isinstance(c, cmd.DiscardWound)
    emit(WoundDiscarded(player=q.player, token=Face(c.token), chosen=True))


def _generate_discard(s: GameState, q: Awaiting) -> Iterator[cmd.GameCommand]:
    for token in duels_of(s).held.get(q.player, []):
        yield cmd.DiscardWound(player=q.player, token=token)


def _timeout_discard(s: GameState, q: Awaiting) -> cmd.GameCommand | None:
    """The token that would cancel a symbol of his dice, a beer's first; else the first held."""
    assert s.turn is not None
    held = duels_of(s).held.get(q.player, [])
    for token in (BEER, SHOOT1, SHOOT2):
        if token in held and _symbols(s.turn, token):
            return cmd.DiscardWound(player=q.player, token=token)
    return cmd.DiscardWound(player=q.player, token=held[0])


def _no_timeout(s: GameState, q: Awaiting) -> cmd.GameCommand | None:
    return None


def _check_sean(s: GameState, q: Awaiting, c: cmd.Command) -> None:
    return  # either answer is legal while asked (``spec.accepts`` checked its kind)


def _respond_sean(s: GameState, q: Awaiting, c: cmd.Command, emit: Emit) -> None:
    if isinstance(c, cmd.RerollThrow):
        emit(DuelThrowRerolled(player=q.player))
        return
    emit(DuelThrowKept(player=q.player))
    t = s.turn
    assert t is not None
    emit(DuelLost(player=q.player, winner=duels_of(s).now(t.number).challenged[-1]))


def _generate_sean(s: GameState, q: Awaiting) -> Iterator[cmd.GameCommand]:
    yield cmd.Decline(player=q.player)
    yield cmd.RerollThrow(player=q.player)


def _decline(s: GameState, q: Awaiting) -> cmd.GameCommand | None:
    return cmd.Decline(player=q.player)


SPECS = (
    DecisionSpec(
        WOUND_DRAW,
        Who.DICE,
        TurnPoint.ON_RESOLVE_GATLING,
        "draw a wound token",
        (cmd.DrawCard,),
        _check_wound,
        _respond_wound,
        _generate_wound,
        _no_timeout,
        BotHint.ROLL,
    ),
    DecisionSpec(
        DUEL_THROW,
        Who.DICE,
        TurnPoint.ON_RESOLVE_GATLING,
        "throw a Duel die",
        (cmd.DrawCard,),
        _check_throw,
        _respond_throw,
        _generate_throw,
        _no_timeout,
        BotHint.ROLL,
    ),
    DecisionSpec(
        DUEL_TARGET,
        Who.ACTIVE,
        TurnPoint.ON_RESOLVE_GATLING,
        "challenge a player to a duel",
        (cmd.ChooseTarget,),
        _check_target,
        _respond_target,
        _generate_target,
        _timeout_target,
        BotHint.HURT,
    ),
    DecisionSpec(
        WHISKEY_DISCARD,
        Who.ACTIVE,
        TurnPoint.ON_RESOLVE_BEERS,
        "put a wound token back",
        (cmd.DiscardWound,),
        _check_discard,
        _respond_discard,
        _generate_discard,
        _timeout_discard,
        BotHint.DECLINE,
    ),
    DecisionSpec(
        SEAN_REROLL,
        Who.ACTIVE,
        TurnPoint.ON_RESOLVE_GATLING,
        "decide whether to throw his losing Duel die again",
        (cmd.RerollThrow, cmd.Decline),
        _check_sean,
        _respond_sean,
        _generate_sean,
        _decline,
        BotHint.DECLINE,
        optional=True,
    ),
)


def _wound_draw(s: GameState) -> Draw | None:
    d = s.duels
    return None if d is None else Draw(WOUND_DECK, d.tokens(), d.wound_draws)


def _throw_draw(s: GameState) -> Draw | None:
    d = s.duels
    return None if d is None else Draw(DUEL_THROWS, DUEL_FACES, d.throws)


DRAWS[WOUND_DRAW] = _wound_draw
DRAWS[DUEL_THROW] = _throw_draw
DRAWN[WoundDrawn] = lambda e: str(e.card)  # type: ignore[attr-defined]
DRAWN[DuelThrown] = lambda e: str(e.face)  # type: ignore[attr-defined]

UA1 = RulesModule(
    ModuleId.UA1,
    die_kinds=(DUEL_DIE, WOUND),
    decisions=SPECS,
    hooks=Ability(
        interrupt=_interrupt,
        reveal=_reveal,
        after_dynamite=_after_dynamite,
        after_resolving=_after_resolving,
        end_of_turn=_end_of_turn,
        on_elimination=_on_elimination,
    ),
    hand=_hand,
    events=MappingProxyType(_HANDLERS),
    on_start=_start,
)
"""UA1, the duels (3 to 8 players; needs UA2)."""
