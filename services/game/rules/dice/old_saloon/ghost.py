"""OS5, the Ghost (RULINGS-expansions §OS5, §2 T2/S5/R1/R3/E5, §6; rulings in docs/rulings.md).

The first player eliminated, never the Sheriff, becomes the Ghost (``BecameGhost``): a seat that
is not alive for any rule (distances, targets, arrows, the end of the game) but keeps its turn in
seat order. A Ghost turn is one roll of two base dice (the ``roll`` decision, faces as data), then
``ghost_give``: one Ghost token of a face shown, x2 too when both dice show it, to a living
player (``GhostTokenGiven``). At the start of that player's next turn the token sets one base die
(two with x2) to its face (``GhostDiceSet``): those dice are never rolled nor rerolled
(``TurnState.preset``) and act as rolled with the first roll. The tokens come back at the end of
that turn, or at once when their holder is eliminated (``GhostTokensReturned``).

The module adds no hand of dice (OS1 owns that seam): a Ghost turn rolls dice 0 and 1 of the
seat's hand, which are base dice in every hand (§1), and the preset dice are the lowest base dice.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from enum import StrEnum
from types import MappingProxyType

from services.game.rules.dice import commands as cmd
from services.game.rules.dice import events as ev
from services.game.rules.dice.abilities import Ability
from services.game.rules.dice.awaiting import Awaiting, Decision
from services.game.rules.dice.commands import GhostGive
from services.game.rules.dice.decisions import BotHint, DecisionSpec, Who
from services.game.rules.dice.errors import IllegalCommand, MalformedCommand
from services.game.rules.dice.flow import clockwise_from
from services.game.rules.dice.kinds import BASE
from services.game.rules.dice.modules import Handler, RulesModule
from services.game.rules.dice.points import TurnPoint
from services.game.rules.dice.state import GameState, PlayerState, TurnState
from services.game.rules.dice.vocabulary import (
    ARROW,
    BEER,
    DYNAMITE,
    GATLING,
    SHOOT1,
    SHOOT2,
    DieIndex,
    Face,
    PlayerId,
    Role,
)
from services.game.rules.ruleset import ModuleId

Emit = Callable[[ev.Event], None]
Step = Callable[[GameState, Emit], None]

class GhostDecision(StrEnum):
    GHOST_GIVE = "ghost_give"


GHOST_GIVE = GhostDecision.GHOST_GIVE
"""The Ghost's decision."""

GHOST_DICE: tuple[DieIndex, ...] = (0, 1)
"""The two base dice a Ghost turn rolls: the first two of any hand are base dice (§1)."""

TOKEN_FACES: tuple[Face, ...] = (SHOOT1, SHOOT2, ARROW, GATLING, DYNAMITE, BEER)
"""The six face tokens, in the order of the components list; the seventh token is x2."""

_HARSHEST_FIRST: tuple[Face, ...] = (DYNAMITE, ARROW, GATLING, SHOOT2, SHOOT1, BEER)
"""The order the legal gifts are listed in: a bot aiming a gift at a player it wants hurt (the
decision's ``BotHint.HURT``) takes the first one listed for that player."""
_MILDEST_FIRST: tuple[Face, ...] = (BEER, SHOOT1, SHOOT2, GATLING, ARROW, DYNAMITE)
"""The order the timeout default picks a face in: the least eventful gift first."""


# --- the command and the events ------------------------------------------------------------------


class BecameGhost(ev.Event, frozen=True, kw_only=True):
    """The first eliminated player who is not the Sheriff becomes the Ghost (in ``turn``)."""

    player: PlayerId
    turn: int


class GhostTokenGiven(ev.Event, frozen=True, kw_only=True):
    """The Ghost (``player``) gave the ``face`` token, and the x2 token with ``x2``, to ``target``."""

    player: PlayerId
    target: PlayerId
    face: Face
    x2: bool = False


class GhostDiceSet(ev.Event, frozen=True, kw_only=True):
    """At the start of his turn, ``player``'s Ghost tokens set these dice to ``face``."""

    player: PlayerId
    dice: tuple[DieIndex, ...]
    face: Face


class GhostTokensReturned(ev.Event, frozen=True, kw_only=True):
    """``player``'s Ghost tokens went back to the Ghost (end of his turn, or his elimination)."""

    player: PlayerId


EVENTS: tuple[type[ev.Event], ...] = (BecameGhost, GhostTokenGiven, GhostDiceSet, GhostTokensReturned)
"""This module's events, for a decoder that knows the modules' events."""


# --- the state the rules read ----------------------------------------------------------------------


def token_holder(s: GameState, face: Face | None) -> PlayerState | None:
    """Who holds the ``face`` token (None: the x2 token), or None when it is with the Ghost."""
    for p in s.players:
        gift = p.ghost_gift
        if gift and (len(gift) == 2 if face is None else gift[0] is face):
            return p
    return None


def ghost_faces(t: TurnState) -> list[Face]:
    return [f for f in (t.dice[i] for i in GHOST_DICE) if f is not None]


def gifts(s: GameState, t: TurnState) -> list[Face]:
    """The faces the Ghost may give: shown on his dice, their token not out (harshest first)."""
    shown = ghost_faces(t)
    return [f for f in _HARSHEST_FIRST if f in shown and token_holder(s, f) is None]


def may_double(s: GameState, t: TurnState, face: Face) -> bool:
    return ghost_faces(t).count(face) == 2 and token_holder(s, None) is None


# --- hooks -------------------------------------------------------------------------------------------


def _ghost_turn(s: GameState, t: TurnState, seat: PlayerState) -> Awaiting | None:
    """``TurnPoint.ELIMINATED_TURN``: roll two base dice once, then give a token (if one can be)."""
    since = seat.ghost_since
    if since is None or t.number <= since:
        return None  # simply out, or eliminated during this very turn: it is over
    if t.rolls_used == 0:
        return Awaiting(player=seat.id, decision=Decision.ROLL, dice=GHOST_DICE)
    if GHOST_GIVE in t.decided or not gifts(s, t):
        return None  # no rerolls; with no token to give nothing happens
    return Awaiting(player=seat.id, decision=GHOST_GIVE, dice=GHOST_DICE)


def _set_preset_dice(s: GameState, t: TurnState, active: PlayerState) -> Step | None:
    """S5: the recipient's tokens set his lowest base dice before the first roll."""
    gift = active.ghost_gift
    if not gift or any(t.dice[i] is not None for i in range(len(t.dice)) if t.kinds[i].name == BASE.name):
        return None  # set already (only base dice are set, never a revealed Rage card's symbols)
    dice = tuple([i for i, kind in enumerate(t.kinds) if kind.name == BASE.name][: len(gift)])
    event = GhostDiceSet(player=active.id, dice=dice, face=gift[0])
    return lambda s, emit: emit(event)


def _on_elimination(s: GameState, active: PlayerState, eliminated: Sequence[PlayerState], emit: Emit) -> None:
    """Tokens held by the eliminated go back; the first eliminated non-Sheriff becomes the Ghost
    (several at once: the nearest clockwise from the active player, himself first)."""
    for p in eliminated:
        if p.ghost_gift:
            emit(GhostTokensReturned(player=p.id))
    if s.outbreak or any(p.ghost for p in s.players):
        return  # one Ghost per game; after a zombie outbreak (UA4) the eliminated are out for good
    fallen = {p.id for p in eliminated if p.role is not Role.SHERIFF}
    for p in clockwise_from(s, active):
        if p.id in fallen:
            assert s.turn is not None
            emit(BecameGhost(player=p.id, turn=s.turn.number))
            return


def _return_tokens(s: GameState, t: TurnState, active: PlayerState, emit: Emit) -> None:
    """E5: the tokens used this turn go back to the Ghost."""
    if active.ghost_gift:
        emit(GhostTokensReturned(player=active.id))


# --- ghost_give -------------------------------------------------------------------------------------


def _check_give(state: GameState, q: Awaiting, c: cmd.Command) -> None:
    assert isinstance(c, GhostGive) and state.turn is not None
    t = state.turn
    if not isinstance(c.face, Face):
        raise MalformedCommand(f"{c.face!r} is not a die face")
    shown = ghost_faces(t)
    if c.face not in TOKEN_FACES:
        raise IllegalCommand(f"there is no {c.face} Ghost token; tokens: {', '.join(TOKEN_FACES)} and x2")
    if c.face not in shown:
        raise IllegalCommand(f"the Ghost's dice show {' and '.join(shown)}; he cannot give a {c.face} token")
    holder = token_holder(state, c.face)
    if holder is not None:
        raise IllegalCommand(f"the {c.face} Ghost token is out (with {holder.id}) until it comes back")
    if c.x2:
        if shown.count(c.face) < 2:
            raise IllegalCommand(f"the x2 token needs both Ghost dice to show {c.face}")
        holder = token_holder(state, None)
        if holder is not None:
            raise IllegalCommand(f"the x2 Ghost token is out (with {holder.id}) until it comes back")
    target = state.by_id.get(c.target)
    if target is None:
        raise IllegalCommand(f"{c.target} is not a player in this game")
    if target.id == q.player:
        raise IllegalCommand("the Ghost cannot give a Ghost token to himself")
    if not target.alive:
        raise IllegalCommand(f"{c.target} has been eliminated and cannot receive a Ghost token")


def _respond_give(s: GameState, q: Awaiting, c: cmd.Command, emit: Emit) -> None:
    assert isinstance(c, GhostGive)
    emit(GhostTokenGiven(player=c.player, target=c.target, face=c.face, x2=c.x2))


def _generate_give(s: GameState, q: Awaiting) -> Iterator[cmd.GameCommand]:
    assert s.turn is not None
    t = s.turn
    ghost = s.by_id[q.player]
    living = [p for p in clockwise_from(s, ghost) if p.alive]
    for face in gifts(s, t):
        double = may_double(s, t, face)
        for p in living:
            if double:
                yield (GhostGive(player=q.player, face=face, target=p.id, x2=True))
            yield (GhostGive(player=q.player, face=face, target=p.id))


def _timeout_give(s: GameState, q: Awaiting) -> cmd.GameCommand | None:
    """The least eventful gift: the mildest face shown, one token, to the next living player
    clockwise from the Ghost."""
    assert s.turn is not None
    possible = gifts(s, s.turn)
    face = next(f for f in _MILDEST_FIRST if f in possible)
    target = next(p for p in clockwise_from(s, s.by_id[q.player]) if p.alive)
    return (GhostGive(player=q.player, face=face, target=target.id))


GHOST_GIVE_SPEC = DecisionSpec(
    GHOST_GIVE,
    Who.ACTIVE,
    TurnPoint.ELIMINATED_TURN,
    "give a Ghost token",
    (GhostGive,),
    _check_give,
    _respond_give,
    _generate_give,
    _timeout_give,
    BotHint.HURT,
)


# --- the state changes ---------------------------------------------------------------------------------


def _became_ghost(s: GameState, e: BecameGhost) -> None:
    s.by_id[e.player].ghost_since = e.turn


def _token_given(s: GameState, e: GhostTokenGiven) -> None:
    s.by_id[e.target].ghost_gift = (e.face, e.face) if e.x2 else (e.face,)
    assert s.turn is not None
    s.turn.decided.add(GHOST_GIVE)


def _dice_set(s: GameState, e: GhostDiceSet) -> None:
    t = s.turn
    assert t is not None
    for i in e.dice:
        t.dice[i] = e.face
    t.preset = tuple(sorted({*t.preset, *e.dice}))  # UA2's Rage symbols may be preset already
    t.pending_roll = tuple([i for i in t.pending_roll or () if i not in e.dice])


def _tokens_returned(s: GameState, e: GhostTokensReturned) -> None:
    s.by_id[e.player].ghost_gift = ()


_HANDLERS: dict[type[ev.Event], Handler] = {
    BecameGhost: _became_ghost,
    GhostTokenGiven: _token_given,
    GhostDiceSet: _dice_set,
    GhostTokensReturned: _tokens_returned,
}

OS5 = RulesModule(
    ModuleId.OS5,
    decisions=(GHOST_GIVE_SPEC,),
    hooks=Ability(
        on_elimination=_on_elimination,
        end_of_turn=_return_tokens,
        before_first_roll=_set_preset_dice,
        eliminated_turn=_ghost_turn,
    ),
    events=MappingProxyType(_HANDLERS),
)
"""OS5, the Ghost (5 or more players: ``ruleset.MODULES``)."""
