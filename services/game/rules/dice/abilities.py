"""Abilities: what a character's text changes in the turn, as hooks at named points.

The base rules are the turn itself (``flow``); an ``Ability`` lists the hooks a character's
text adds, one field per point of the turn (``points.TurnPoint``), None where the character
follows the base rule. ``flow`` calls the hook at its point and never asks whose character it
is, as python-chess's variant boards override the methods whose rules differ. A character is
data (``characters.Character``: life, rerolls, reach, …) plus one ``Ability``; an expansion's
character is a new record with its own hooks, and a new point of the turn is a new field.

Hooks answer with what the rules need at that point: a question (``Awaiting``) for a "may",
events through ``emit`` for an automatic effect, or a number. Conditions that belong to the
character (Sid asks once per turn, Bart never takes the last arrow) live in the hook.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING

from services.game.rules.dice import events as ev
from services.game.rules.dice.awaiting import Awaiting, Decision
from services.game.rules.dice.vocabulary import (
    DYNAMITE,
    SHOOT1,
    SHOOT2,
    Cause,
    DieIndex,
    Face,
    GainCause,
    PlayerId,
)

if TYPE_CHECKING:
    from services.game.rules.dice.state import DamageBatch, FinalDice, GameState, PlayerState, TurnState

Emit = Callable[[ev.Event], None]
Step = Callable[["GameState", Emit], None]
"""An automatic step of the turn (``flow``): it emits the events of one rule."""

StartOfTurn = Callable[["GameState", "TurnState", "PlayerState"], Awaiting | None]
"""``TurnPoint.START_OF_TURN``, the active player's: a question before the first roll."""
AfterRoll = Callable[["GameState", "TurnState", "PlayerState"], "Awaiting | Step | None"]
"""``TurnPoint.AFTER_ROLL``, a module's: after each roll's arrows, the roll's other effects
(OS1's ``broken_arrow`` and ``bullet``), one question or step at a time; None once done."""
Rerollable = Callable[["TurnState"], tuple[DieIndex, ...]]
"""``TurnPoint.ON_KEEP``: the dice the active player may reroll (base: all but dynamite)."""
BeforeShots = Callable[["GameState", "TurnState", "PlayerState", "FinalDice"], Awaiting | None]
"""``TurnPoint.ON_RESOLVE_SHOTS``, the active player's: a question before any shot target."""
OwnBeer = Callable[["PlayerState"], int]
"""``TurnPoint.ON_RESOLVE_BEERS``: life each beer the active player gives himself heals,
judged once when the beers start (base: 1)."""
AfterGatling = Callable[["GameState", "TurnState", "PlayerState", int], Awaiting | None]
"""``TurnPoint.ON_RESOLVE_GATLING``, after the gatling step: a question about the
``gatling`` symbols shown (fired or not)."""
OnDamage = Callable[["GameState", str, "PlayerState", int], Awaiting | None]
"""``TurnPoint.ON_DAMAGE``: before a step's losses from a player apply, a question to a player
about to lose ``amount`` (the step named by its batch kind)."""
AfterDamage = Callable[["GameState", "DamageBatch", "PlayerState", int], Awaiting | None]
"""``TurnPoint.AFTER_DAMAGE``: after a step's losses, a question to a survivor who lost
``amount`` in it."""
HitBack = Callable[["DamageBatch", "PlayerState"], int]
"""``TurnPoint.AFTER_DAMAGE``, after the questions: arrows the step's source takes because it
hit this (living) player."""
OnElimination = Callable[["GameState", "PlayerState", Sequence["PlayerState"], Emit], None]
"""``TurnPoint.ON_ELIMINATION``: a living player's effect when others are eliminated together,
before the end of the game is checked."""
EndOfTurn = Callable[["GameState", "TurnState", "PlayerState", Emit], None]
"""``TurnPoint.END_OF_TURN``, the active player's, if still alive."""
BeforeFirstRoll = Callable[["GameState", "TurnState", "PlayerState"], Step | None]
"""``TurnPoint.START_OF_TURN``, a module's, after the start-of-turn questions: a step that sets
dice before the first roll (OS5's Ghost-preset dice), None when there is nothing to set."""
Reveal = Callable[["GameState", "TurnState", "PlayerState"], "Awaiting | Step | None"]
"""A module's step at the end of the start of turn (UA2's Rage reveal, S4); None once done."""
EliminatedTurn = Callable[["GameState", "TurnState", "PlayerState"], Awaiting | Step | None]
"""``TurnPoint.ELIMINATED_TURN``, a module's: the next question or step of the turn of a seat
that is not alive (OS5's Ghost); None ends that turn."""
Interrupt = Callable[["GameState"], "Awaiting | Callable[[GameState, Emit], None] | None"]
"""A module's rule, asked before anything else at every step of the game (``flow.next_move``):
a question or an automatic step when the module has something open (OS3's role windows)."""
HoldGain = Callable[["GameState", ev.LifeGained, Emit], bool]
"""Before a gain of life applies: True when the module holds it to apply later (OS3's Le
Mauvais window), having recorded it with its own event."""
HoldEliminations = Callable[["GameState", dict[PlayerId, Cause], "PlayerId | None", Emit], bool]
"""After a step's losses, before the players at 0 life (player → cause) are eliminated: True
when the module holds the eliminations to finish later (OS3's Main Gauche window)."""
RollArrow = Callable[["GameState", "TurnState", "PlayerState"], Awaiting | Step | None]
"""``TurnPoint.ON_RESOLVE_ARROWS``, the active player's: before each of a roll's ``arrow`` faces
takes its token, a question or step instead (OS4: Elena Fuente's gift, Apache Kid's seizure of
the Chief's Arrow, Bill Noface's wait); None: the base rule, a token from the pile."""
ResolvingStep = Callable[["GameState", "TurnState", "PlayerState"], Awaiting | Step | None]
"""``TurnPoint.AFTER_ROLLING`` / ``TurnPoint.AFTER_SHOTS``, the active player's: his own question
or step at that point of the resolution (OS4: Bill Noface's arrows, Doc Holyday's heal); None
once there is nothing (left) to do."""
OwnLoss = Callable[[str, int], int]
"""``TurnPoint.ON_DAMAGE``, of a player about to lose ``amount`` life in a step (named by its
batch kind, or ``indian_attack``): what it costs him (OS4's Vera Custer: one less to shots).
Read by the module that brings the character (``modules.LossRule``)."""
OthersLoss = Callable[["GameState", "PlayerState", "PlayerState", int, int], Awaiting | None]
"""``TurnPoint.ON_DAMAGE``, of a player (owner) when another (target) must lose ``amount``
life in a step and the owner could still lose ``room`` more in it: the owner's question (OS4's
Molly Stark may lose it in his place). Read by the module that brings the character."""

NO_SHOT_SWAPS: Mapping[Face, tuple[Face, ...]] = MappingProxyType({})


@dataclass(frozen=True, slots=True)
class Ability:
    """The hooks one character adds to the turn; None (or empty) where the base rule holds."""

    start_of_turn: StartOfTurn | None = None
    choose_dice: StartOfTurn | None = None
    """``TurnPoint.CHOOSE_DICE``, a module's: after every start-of-turn rule, the dice of the
    turn (OS1's Saloon die choice)."""
    after_roll: AfterRoll | None = None
    on_keep: Rerollable | None = None
    shot_used_as: Mapping[Face, tuple[Face, ...]] = field(default_factory=lambda: NO_SHOT_SWAPS)
    """``TurnPoint.ON_RESOLVE_SHOTS``: the other faces a shoot face may be used as (data: who
    may aim it where follows from the reach of the face used)."""
    before_shots: BeforeShots | None = None
    own_beer: OwnBeer | None = None
    others_beer: OwnBeer | None = None
    """``TurnPoint.ON_RESOLVE_BEERS``: life each beer the active player gives another heals
    (base: 1; UA3's Greg Digger under ``characters-ua3 ua3-1``: 2)."""
    after_beers: ResolvingStep | None = None
    """``TurnPoint.AFTER_BEERS``, the active player's: his own question or step once the beers
    are poured (UA3's Greg Digger, ``ua3-2``: a second heal per beer); None once done."""
    after_gatling: AfterGatling | None = None
    on_damage: OnDamage | None = None
    after_damage: AfterDamage | None = None
    hit_back: HitBack | None = None
    on_elimination: OnElimination | None = None
    end_of_turn: EndOfTurn | None = None
    reacts_to_loss: bool = field(init=False, default=False)
    """Answers a loss of life once it applies (``TurnPoint.AFTER_DAMAGE``): asked after every
    step, so worked out once."""
    before_first_roll: BeforeFirstRoll | None = None
    after_dynamite: Reveal | None = None
    """``TurnPoint.ON_RESOLVE_DYNAMITE``, a module's, once the dynamite is resolved and before the
    shots: a question or step (UA1: each ``whiskey``, then the wound tokens' cancellations)."""
    after_resolving: Reveal | None = None
    """``TurnPoint.END_OF_TURN``, a module's, once every symbol of the dice is resolved and
    before the end of the turn: a question or step (UA1's duels)."""
    reveal: Reveal | None = None
    """``TurnPoint.START_OF_TURN``, a module's, after every start-of-turn ability and before
    the dice are chosen: a question or step (UA2: the Rage cards revealed, their arrows)."""
    eliminated_turn: EliminatedTurn | None = None
    # Rule hooks of modules only (``RulesModule.hooks``); no character sets them.
    interrupt: Interrupt | None = None
    hold_gain: HoldGain | None = None
    hold_eliminations: HoldEliminations | None = None
    roll_arrow: RollArrow | None = None
    after_rolling: ResolvingStep | None = None
    after_shots: ResolvingStep | None = None
    own_loss: OwnLoss | None = None
    others_loss: OthersLoss | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "reacts_to_loss", self.after_damage is not None or self.hit_back is not None)


BASE_RULES = Ability()
"""No hook: the base rule at every point."""


def gain_life(s: GameState, gained: ev.LifeGained, emit: Emit) -> None:
    """Every gain of life goes through here: a module may hold it for a window first (OS3's
    Le Mauvais) and apply it later; the base game emits it at once."""
    hooks = s.rules.hooks
    if hooks:
        for rule in hooks:
            if rule.hold_gain is not None and rule.hold_gain(s, gained, emit):
                return
    emit(gained)


# --- the base game's characters ------------------------------------------------------------------


def _sid_ketchum(s: GameState, t: TurnState, owner: PlayerState) -> Awaiting | None:
    """At the start of his turn, a living player of his choice gains 1 life (asked once)."""
    if t.rolls_used == 0 and "turn_start_heal" not in t.decided:
        return Awaiting(player=owner.id, decision=Decision.TURN_START_HEAL)
    return None


def _black_jack(t: TurnState) -> tuple[DieIndex, ...]:
    """May reroll dynamite too (three dynamite end the rolling before this is asked)."""
    return tuple(range(len(t.dice)))


def _slab_the_killer(s: GameState, t: TurnState, owner: PlayerState, final: FinalDice) -> Awaiting | None:
    """Once per turn, may spend a beer to double a shot: asked before any target."""
    if "double_shot" not in t.decided and final.beer:
        return Awaiting(player=owner.id, decision=Decision.DOUBLE_SHOT, dice=final.shoot + final.beer)
    return None


def _jesse_jones(owner: PlayerState) -> int:
    """At 4 life or less when the beers start, each beer he gives himself heals 2."""
    return 2 if owner.life <= 4 else 1


def _kit_carlson(s: GameState, t: TurnState, owner: PlayerState, gatlings: int) -> Awaiting | None:
    """Per gatling symbol, may make a player return an arrow: asked once, if anyone holds one."""
    if "remove_arrows" not in t.decided and any(p.arrows for p in s.players if p.alive):
        return Awaiting(player=owner.id, decision=Decision.REMOVE_ARROWS, max_count=gatlings)
    return None


def _bart_cassidy(s: GameState, kind: str, owner: PlayerState, amount: int) -> Awaiting | None:
    """May take arrows instead of losing life to a player; never the pile's last arrow."""
    t = s.turn
    assert t is not None
    if s.arrow_pile <= 1 or f"{kind}:{owner.id}" in t.arrows_instead:
        return None
    most = min(amount, s.arrow_pile - 1)
    return Awaiting(player=owner.id, decision=Decision.ARROWS_INSTEAD, max_count=most)


def _pedro_ramirez(s: GameState, batch: DamageBatch, owner: PlayerState, lost: int) -> Awaiting | None:
    """After a step's losses, may return one of his arrows per life lost."""
    if owner.arrows and owner.id not in batch.discard_decided:
        return Awaiting(player=owner.id, decision=Decision.DISCARD_ARROWS, max_count=min(lost, owner.arrows))
    return None


def _el_gringo(batch: DamageBatch, owner: PlayerState) -> int:
    """Each step in which another player makes him lose life, that player takes an arrow."""
    return 1 if owner.id != batch.source and batch.lost.get(owner.id, 0) else 0


def _vulture_sam(s: GameState, owner: PlayerState, eliminated: Sequence[PlayerState], emit: Emit) -> None:
    """Gains 2 life per other player eliminated."""
    for _ in eliminated:
        gained = min(2, owner.max_life - owner.life)
        if gained:
            reward = ev.LifeGained(player=owner.id, amount=gained, cause=GainCause.ELIMINATION_REWARD)
            gain_life(s, reward, emit)


def _suzy_lafayette(s: GameState, t: TurnState, owner: PlayerState, emit: Emit) -> None:
    """Gains 2 life at the end of her turn if her final dice show no shoot1 or shoot2 (a
    revealed Rage card's shots are not dice: they do not count, UA2)."""
    if not [i for i in t.final_dice().shoot if t.kinds[i].name != "rage"]:
        gained = min(2, owner.max_life - owner.life)
        if gained:
            heal = ev.LifeGained(player=owner.id, amount=gained, cause=GainCause.END_OF_TURN_HEAL)
            gain_life(s, heal, emit)


SID_KETCHUM = Ability(start_of_turn=_sid_ketchum)
BLACK_JACK = Ability(on_keep=_black_jack)
CALAMITY_JANET = Ability(shot_used_as=MappingProxyType({SHOOT1: (SHOOT2,), SHOOT2: (SHOOT1,)}))
SLAB_THE_KILLER = Ability(before_shots=_slab_the_killer)
JESSE_JONES = Ability(own_beer=_jesse_jones)
KIT_CARLSON = Ability(after_gatling=_kit_carlson)
BART_CASSIDY = Ability(on_damage=_bart_cassidy)
PEDRO_RAMIREZ = Ability(after_damage=_pedro_ramirez)
EL_GRINGO = Ability(hit_back=_el_gringo)
VULTURE_SAM = Ability(on_elimination=_vulture_sam)
SUZY_LAFAYETTE = Ability(end_of_turn=_suzy_lafayette)


def base_rerollable(t: TurnState) -> tuple[DieIndex, ...]:
    """The base rule at ``TurnPoint.ON_KEEP``: every die not showing dynamite."""
    return tuple([i for i, f in enumerate(t.dice) if f is not DYNAMITE])
