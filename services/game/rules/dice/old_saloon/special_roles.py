"""OS3, the special roles (RULINGS-expansions §OS3): nine role cards with a once-per-game power.

Every seat holds a special card (``Seat.special``) whose base role (``BASE_ROLE_OF``) is the
seat's role. L'Ours is passive (the Sheriff's +3 life, at setup). The eight others are used at
*windows*: moments of the turn where the rules let a power act. The roles are hidden, so the
engine must never reveal who holds which card by asking:

- A window is asked (the game rests on it) whenever its power *could* be used judging only
  public facts: the cards revealed so far (used powers, the Sheriff's L'Ours, the eliminated),
  how many seats of each base role the table size deals, who is alive. It is never asked
  because of, or skipped because of, a hidden card.
- The question is addressed to the table (``Who.TABLE``), named after the player whose turn it
  is. Anyone may answer ``UseRole``; only the holder of the power that acts at that window is
  accepted, and a refusal to anyone else says the same words whatever the hidden cards are.
  Otherwise ``PassWindow`` closes it: the server sends it online after a pause of the same
  length at every window (so a pause never betrays a thinking holder), the simulation's driver
  when no bot wants to act. It is the timeout default. At a table nobody has to pass: the next
  input closes every window still open (``WindowPassed(implicit=True)``, ``decide.execute``),
  an explicit pass is still accepted.
- Using a power reveals the card (``RolePowerUsed``); Le Juge's window follows every use but
  his own; then the effect applies, unless Le Juge cancelled it (``RoleUseCancelled``).

| window (decision)                | power        | asked                                             |
|----------------------------------|--------------|---------------------------------------------------|
| role_window_start_of_turn        | Le Bien, Le Vilain | S1, before anything of the active player's turn |
| role_window_after_roll           | Le Doc       | after every roll, before its arrows (R2a)         |
| role_window_after_last_roll      | Le Joueur    | once the dice are final, before any resolution    |
| role_window_after_reveal         | Le Juge      | after every other use, before its effect          |
| role_window_before_gain          | Le Mauvais   | a step's gains are fixed and held, before applying|
| role_window_before_elimination   | Main Gauche  | a step's losses applied, eliminations held        |
| role_window_end_of_turn          | Main Droite  | after the active player's turn ends (E7)          |

Gains and eliminations are held through the engine's ``gain_life``/``apply_losses`` hooks only
when the window could be asked, so a game whose windows are all ruled out plays exactly the
base game's events.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import Any

from services.game.rules.dice import commands as cmd
from services.game.rules.dice import events as ev
from services.game.rules.dice.abilities import Ability
from services.game.rules.dice.awaiting import Awaiting, describe_with
from services.game.rules.dice.commands import PassWindow, UseRole
from services.game.rules.dice.decisions import BotHint, DecisionSpec, Who
from services.game.rules.dice.errors import IllegalCommand, InvalidSetup, MalformedCommand
from services.game.rules.dice.flow import eliminate, finish_loss_step, step_goes_on
from services.game.rules.dice.modules import RulesModule
from services.game.rules.dice.points import TurnPoint
from services.game.rules.dice.setup import roles_for
from services.game.rules.dice.state import GameState, PlayerState
from services.game.rules.dice.vocabulary import (
    ARROW,
    BASE_ROLE_OF,
    Cause,
    DieIndex,
    Face,
    GainCause,
    Phase,
    PlayerId,
    Role,
    SpecialRole,
)
from services.game.rules.ruleset import ModuleId

Emit = Callable[[ev.Event], None]
Step = Callable[[GameState, Emit], None]

L_OURS_BONUS = 3
"""L'Ours' life bonus (start and max), instead of the Sheriff's 2."""
SAVED_LIFE = 2
"""Main Gauche: the saved player stays in with this much life (capped at his max)."""


class Window(StrEnum):
    """The role windows, each its own decision (``DecisionSpec``)."""

    START_OF_TURN = "role_window_start_of_turn"
    AFTER_ROLL = "role_window_after_roll"
    AFTER_LAST_ROLL = "role_window_after_last_roll"
    AFTER_REVEAL = "role_window_after_reveal"
    BEFORE_GAIN = "role_window_before_gain"
    BEFORE_ELIMINATION = "role_window_before_elimination"
    END_OF_TURN = "role_window_end_of_turn"


POWERS: dict[Window, frozenset[SpecialRole]] = {
    Window.START_OF_TURN: frozenset({SpecialRole.LE_BIEN, SpecialRole.LE_VILAIN}),
    Window.AFTER_ROLL: frozenset({SpecialRole.LE_DOC}),
    Window.AFTER_LAST_ROLL: frozenset({SpecialRole.LE_JOUEUR}),
    Window.AFTER_REVEAL: frozenset({SpecialRole.LE_JUGE}),
    Window.BEFORE_GAIN: frozenset({SpecialRole.LE_MAUVAIS}),
    Window.BEFORE_ELIMINATION: frozenset({SpecialRole.MAIN_GAUCHE}),
    Window.END_OF_TURN: frozenset({SpecialRole.MAIN_DROITE}),
}
"""Which card's power acts at each window."""

CARDS_OF: dict[Role, tuple[SpecialRole, ...]] = {
    role: tuple(card for card, base in BASE_ROLE_OF.items() if base is role) for role in Role
}


# --- commands ------------------------------------------------------------------------------------


COMMANDS: tuple[type[cmd.Command], ...] = (UseRole, PassWindow)


# --- events (public: a card is hidden until used or until its holder is eliminated) -------------


class RolePowerUsed(ev.Event, frozen=True, kw_only=True):
    """``player`` revealed ``role`` to use its power at ``window`` (spent, even if cancelled)."""

    player: PlayerId
    role: SpecialRole
    window: str
    target: PlayerId | None = None
    other: PlayerId | None = None
    die: DieIndex | None = None
    face: Face | None = None


class RoleUseCancelled(ev.Event, frozen=True, kw_only=True):
    """Le Juge (``player``, revealed and spent) cancelled ``cancelled``'s use: no effect."""

    player: PlayerId
    cancelled: PlayerId


class WindowPassed(ev.Event, frozen=True, kw_only=True, omit_defaults=True):
    """The window ``window`` addressed to ``player`` closed unused. ``implicit``: closed by the
    next input, nobody having passed it (a table game's entry, §0 "May"); not an input itself."""

    window: str
    player: PlayerId
    implicit: bool = False


class SheriffChanged(ev.Event, frozen=True, kw_only=True):
    """Le Bien became the Sheriff; the old Sheriff is a Deputy. Life and max are unchanged."""

    player: PlayerId
    previous: PlayerId


class ArrowsSwapped(ev.Event, frozen=True, kw_only=True):
    """Le Vilain (``player``) swapped all arrows of ``first`` and ``second``."""

    player: PlayerId
    first: PlayerId
    second: PlayerId


class DieFaceSet(ev.Event, frozen=True, kw_only=True):
    """Le Doc (``player``) set the active player's die to ``face``; it acts as rolled now."""

    player: PlayerId
    die: DieIndex
    face: Face


class RerollForced(ev.Event, frozen=True, kw_only=True):
    """Le Joueur (``player``): ``target`` rerolls ``dice`` and that roll is his last."""

    player: PlayerId
    target: PlayerId
    dice: tuple[DieIndex, ...]


class GainHeld(ev.Event, frozen=True, kw_only=True):
    """A gain of life, fixed and held until Le Mauvais' window closes."""

    player: PlayerId
    amount: int
    cause: GainCause
    source: PlayerId | None = None


class GainCancelled(ev.Event, frozen=True, kw_only=True):
    """Le Mauvais (``player``) cancelled every held gain of ``target``."""

    player: PlayerId
    target: PlayerId


class GainsReleased(ev.Event, frozen=True, kw_only=True):
    """Le Mauvais' window closed: the held gains apply now (``LifeGained`` follow)."""


class EliminationsHeld(ev.Event, frozen=True, kw_only=True):
    """A step's losses are applied; ``players`` (at 0 life) await Main Gauche's window."""

    source: PlayerId | None
    players: tuple[PlayerId, ...]
    causes: tuple[Cause, ...]


class EliminationPrevented(ev.Event, frozen=True, kw_only=True):
    """Main Gauche (``player``) saved ``target``: he stays in with ``life``. Not a gain."""

    player: PlayerId
    target: PlayerId
    life: int


class EliminationsReleased(ev.Event, frozen=True, kw_only=True):
    """Main Gauche's window closed: the held eliminations are processed now."""


class ExtraTurnGranted(ev.Event, frozen=True, kw_only=True):
    player: PlayerId


class ExtraTurnTaken(ev.Event, frozen=True, kw_only=True):
    """La Main Droite's extra turn starts (``TurnStarted`` follows, for the same player)."""

    player: PlayerId


EVENTS: tuple[type[ev.Event], ...] = (
    RolePowerUsed,
    RoleUseCancelled,
    WindowPassed,
    SheriffChanged,
    ArrowsSwapped,
    DieFaceSet,
    RerollForced,
    GainHeld,
    GainCancelled,
    GainsReleased,
    EliminationsHeld,
    EliminationPrevented,
    EliminationsReleased,
    ExtraTurnGranted,
    ExtraTurnTaken,
)


# --- state -------------------------------------------------------------------------------------


@dataclass(slots=True)
class SpecialRoles:
    """``GameState.special``: the cards and what the table knows of them."""

    cards: dict[PlayerId, SpecialRole]
    """The truth, hidden: every seat's card."""
    dealt: dict[Role, int]
    """Seats of each base role (public: the table size says)."""
    revealed: dict[PlayerId, SpecialRole] = field(default_factory=dict)
    """Cards face up: L'Ours from the start, every card used. (The eliminated show theirs too:
    ``known``.)"""
    used: set[PlayerId] = field(default_factory=set)
    done: set[str] = field(default_factory=set)
    """Windows of the turn points already closed (``window_key``)."""
    pending: RolePowerUsed | None = None
    """A use revealed, before its effect (Le Juge's window)."""
    judge_passed: bool = False
    held_gains: list[GainHeld] = field(default_factory=list)
    gains_closed: bool = False
    cancelled: PlayerId | None = None
    held: EliminationsHeld | None = None
    elims_closed: bool = False
    extra_turn: PlayerId | None = None

    def clone(self) -> SpecialRoles:
        return SpecialRoles(
            dict(self.cards),
            dict(self.dealt),
            dict(self.revealed),
            set(self.used),
            set(self.done),
            self.pending,
            self.judge_passed,
            list(self.held_gains),
            self.gains_closed,
            self.cancelled,
            self.held,
            self.elims_closed,
            self.extra_turn,
        )


def roles_state(s: GameState) -> SpecialRoles:
    sr = s.special
    assert sr is not None, "a game without OS3"
    return sr


def known(s: GameState, sr: SpecialRoles) -> dict[PlayerId, SpecialRole]:
    """Cards the whole table has seen: the revealed ones and those of the eliminated."""
    public = dict(sr.revealed)
    for p in s.players:
        if not p.alive:
            public[p.id] = sr.cards[p.id]
    return public


def could_hold(
    s: GameState, card: SpecialRole, exclude: PlayerId | None = None, only: PlayerId | None = None
) -> bool:
    """Whether, judging only public facts, a living player whose card is not known (not
    ``exclude``; only ``only`` if given) could hold ``card``. Never reads a hidden card."""
    sr = roles_state(s)
    public = known(s, sr)
    if card in public.values():
        return False
    base = BASE_ROLE_OF[card]
    if sr.dealt.get(base, 0) - sum(1 for c in public.values() if BASE_ROLE_OF[c] is base) <= 0:
        return False
    return any(
        p.alive and p.id not in public and p.id != exclude and (only is None or p.id == only)
        for p in s.players
    )


def window_key(s: GameState, window: str) -> str:
    """The turn point a window of the turn belongs to: passed once, never asked again."""
    if window == Window.END_OF_TURN:
        return f"E:{s.last_turn_number}"
    t = s.turn
    assert t is not None
    if window == Window.START_OF_TURN:
        return f"S:{t.number}"
    if window == Window.AFTER_ROLL:
        return f"R:{t.number}:{t.rolls_used}"
    return f"L:{t.number}"


def addressee(s: GameState) -> PlayerId:
    """Whom a window's question names: the player whose turn it is (or just was)."""
    if s.turn is not None:
        return s.turn.player
    return s.players[s.last_active_seat].id


# --- setup --------------------------------------------------------------------------------------


def check_seats(seats: Sequence[ev.Seat]) -> None:
    for n, seat in enumerate(seats):
        if seat.special is None:
            raise InvalidSetup(
                f"with the special roles (OS3) every seat needs one: seat {n} ({seat.player}) has none"
            )
        if BASE_ROLE_OF[seat.special] is not seat.role:
            raise InvalidSetup(
                f"seat {n} ({seat.player}): {seat.special} is a {BASE_ROLE_OF[seat.special]} card, "
                f"not a {seat.role} one"
            )
    specials = [s.special for s in seats]
    if len(set(specials)) != len(specials):
        raise InvalidSetup("every special role card is dealt once: two seats hold the same card")


def on_start(s: GameState, started: ev.GameStarted) -> None:
    cards = {seat.player: seat.special for seat in started.seats if seat.special is not None}
    dealt: dict[Role, int] = {}
    for role in roles_for(len(started.seats)):
        dealt[role] = dealt.get(role, 0) + 1
    sr = SpecialRoles(cards, dealt)
    for p in s.players:
        if cards[p.id] is SpecialRole.L_OURS:
            sr.revealed[p.id] = SpecialRole.L_OURS  # the Sheriff is public, and his card with him
            bonus = L_OURS_BONUS - 2  # on top of the base Sheriff's +2
            p.max_life += bonus
            position = started.position
            if position is None or all(pp.player != p.id for pp in position.players):  # else as given
                p.life += bonus
    s.special = sr


# --- the flow: what is open, asked before anything else ---------------------------------------------


def _interrupt(s: GameState) -> Awaiting | Step | None:
    sr = s.special
    if sr is None:
        return None
    if sr.pending is not None:
        if not sr.judge_passed and could_hold(s, SpecialRole.LE_JUGE, exclude=sr.pending.player):
            return Awaiting(player=addressee(s), decision=Window.AFTER_REVEAL)
        return _apply_pending
    if sr.held is not None:
        if not sr.elims_closed and could_hold(s, SpecialRole.MAIN_GAUCHE):
            return Awaiting(player=addressee(s), decision=Window.BEFORE_ELIMINATION)
        return _finish_eliminations
    if sr.held_gains:
        if not sr.gains_closed and could_hold(s, SpecialRole.LE_MAUVAIS):
            return Awaiting(player=addressee(s), decision=Window.BEFORE_GAIN)
        return release_gains
    t = s.turn
    if t is None:
        if s.boneyard is not None:  # UA4's reveals at the end of the turn (E6) come before E7
            from services.game.rules.dice.undead.zombies import owed_between_turns

            if owed_between_turns(s):
                return None
        if sr.extra_turn is not None:
            return _take_extra_turn
        if s.last_turn_number >= 1:
            last = s.players[s.last_active_seat]
            if (
                last.alive
                and window_key(s, Window.END_OF_TURN) not in sr.done
                and could_hold(s, SpecialRole.MAIN_DROITE, only=last.id)
            ):
                return Awaiting(player=last.id, decision=Window.END_OF_TURN)
        return None
    active = s.by_id[t.player]
    if not active.alive:
        return None
    if t.phase is Phase.ROLLING:
        if t.rolls_used == 0:
            if window_key(s, Window.START_OF_TURN) not in sr.done and (
                could_hold(s, SpecialRole.LE_BIEN, only=active.id)
                or could_hold(s, SpecialRole.LE_VILAIN, only=active.id)
            ):
                return Awaiting(player=active.id, decision=Window.START_OF_TURN)
        elif (
            t.pending_roll is None
            and window_key(s, Window.AFTER_ROLL) not in sr.done
            and could_hold(s, SpecialRole.LE_DOC)
        ):
            return Awaiting(player=active.id, decision=Window.AFTER_ROLL, dice=tuple(range(len(t.dice))))
    elif window_key(s, Window.AFTER_LAST_ROLL) not in sr.done and could_hold(
        s, SpecialRole.LE_JOUEUR, exclude=active.id
    ):
        return Awaiting(player=active.id, decision=Window.AFTER_LAST_ROLL)
    return None


def _apply_pending(s: GameState, emit: Emit) -> None:
    use = roles_state(s).pending
    assert use is not None
    role = use.role
    if role is SpecialRole.LE_BIEN:
        sheriff = next(p for p in s.players if p.role is Role.SHERIFF)
        emit(SheriffChanged(player=use.player, previous=sheriff.id))
    elif role is SpecialRole.LE_VILAIN:
        assert use.target is not None and use.other is not None
        emit(ArrowsSwapped(player=use.player, first=use.target, second=use.other))
    elif role is SpecialRole.LE_DOC:
        assert use.die is not None and use.face is not None
        emit(DieFaceSet(player=use.player, die=use.die, face=use.face))
    elif role is SpecialRole.LE_JOUEUR:
        t = s.turn
        assert t is not None
        emit(RerollForced(player=use.player, target=t.player, dice=forced_dice(s)))
    elif role is SpecialRole.LE_MAUVAIS:
        assert use.target is not None
        emit(GainCancelled(player=use.player, target=use.target))
    elif role is SpecialRole.MAIN_DROITE:
        emit(ExtraTurnGranted(player=use.player))
    else:
        assert role is SpecialRole.MAIN_GAUCHE and use.target is not None
        saved = s.by_id[use.target]
        emit(EliminationPrevented(player=use.player, target=saved.id, life=min(SAVED_LIFE, saved.max_life)))


def forced_dice(s: GameState) -> tuple[DieIndex, ...]:
    """Le Joueur's reroll: every die of the active player (Ghost-preset dice excepted, OS5)."""
    t = s.turn
    assert t is not None
    return tuple([i for i in range(len(t.dice)) if i not in t.preset])


def _finish_eliminations(s: GameState, emit: Emit) -> None:
    held = roles_state(s).held
    assert held is not None
    emit(EliminationsReleased())
    eliminate(s, dict(zip(held.players, held.causes, strict=True)), held.source, emit)
    # the rest of the step that held them (the gatling's or the Indian attack's arrow return),
    # after its eliminations and the end check as in every module set; never once it is over
    step = set(held.causes)
    if len(step) == 1 and step_goes_on(s):
        finish_loss_step(s, step.pop(), emit)


def release_gains(s: GameState, emit: Emit) -> None:
    sr = roles_state(s)
    gains, cancelled = list(sr.held_gains), sr.cancelled
    emit(GainsReleased())
    for g in gains:
        p = s.by_id[g.player]
        amount = 0 if g.player == cancelled or not p.alive else min(g.amount, p.max_life - p.life)
        if amount or g.cause is GainCause.BEER:  # a beer is always recorded, even healing 0
            emit(ev.LifeGained(player=g.player, amount=amount, cause=g.cause, source=g.source))


def _take_extra_turn(s: GameState, emit: Emit) -> None:
    player = roles_state(s).extra_turn
    assert player is not None
    emit(ExtraTurnTaken(player=player))
    if s.by_id[player].alive:
        emit(ev.TurnStarted(player=player, turn=s.last_turn_number + 1))


def _hold_gain(s: GameState, gained: ev.LifeGained, emit: Emit) -> bool:
    if s.by_id[gained.player].zombie or not could_hold(s, SpecialRole.LE_MAUVAIS):
        return False  # UA4: a zombie gains nothing, there is nothing to cancel
    emit(GainHeld(player=gained.player, amount=gained.amount, cause=gained.cause, source=gained.source))
    return True


def _hold_eliminations(
    s: GameState, fatal: dict[PlayerId, Cause], source: PlayerId | None, emit: Emit
) -> bool:
    if not could_hold(s, SpecialRole.MAIN_GAUCHE) or all(s.by_id[p].zombie for p in fatal):
        return False  # UA4: Main Gauche never saves a zombie
    players = tuple(fatal)
    emit(EliminationsHeld(source=source, players=players, causes=tuple(fatal[p] for p in players)))
    return True


# --- the windows' answers ---------------------------------------------------------------------------


def _refuse_power(c: cmd.Command) -> IllegalCommand:
    """The one refusal a player gets for a power he cannot use now: it depends only on his own
    card and on public facts, never on who else holds what."""
    return IllegalCommand(f"{c.player} has no special role power that can act at this window")


def _check_window(s: GameState, q: Awaiting, c: cmd.Command) -> None:
    if isinstance(c, PassWindow):
        if c.player != q.player:
            raise IllegalCommand(f"only the server or the scorekeeper passes this window (as {q.player})")
        return
    assert isinstance(c, UseRole)
    sr = roles_state(s)
    user = s.by_id.get(c.player)
    if user is None:
        raise IllegalCommand(f"{c.player} is not a player in this game")
    card = sr.cards[user.id]
    if (
        c.role is not card
        or card not in POWERS[Window(q.decision)]
        or user.id in sr.used
        or not user.alive
        or not _holder_fits(s, q, user)
    ):
        raise _refuse_power(c)
    _check_params(s, q, c)


def _holder_fits(s: GameState, q: Awaiting, user: PlayerState) -> bool:
    """The holder's own condition at this window (whose turn it is, who used the power)."""
    t = s.turn
    match q.decision:
        case Window.START_OF_TURN | Window.END_OF_TURN:
            return user.id == q.player
        case Window.AFTER_LAST_ROLL:
            return t is not None and user.id != t.player
        case Window.AFTER_REVEAL:
            pending = roles_state(s).pending
            return pending is not None and pending.player != user.id
    return True


def _check_params(s: GameState, q: Awaiting, c: UseRole) -> None:
    role = c.role
    extra = {
        "target": c.target is not None,
        "other": c.other is not None,
        "die": c.die is not None,
        "face": c.face is not None,
    }
    wanted: set[str] = set()
    if role is SpecialRole.LE_VILAIN:
        wanted = {"target", "other"}
    elif role is SpecialRole.LE_DOC:
        wanted = {"die", "face"}
    elif role in (SpecialRole.LE_MAUVAIS, SpecialRole.MAIN_GAUCHE):
        wanted = {"target"}
    given = {k for k, v in extra.items() if v}
    if given != wanted:
        names = " and ".join(sorted(wanted)) or "nothing"
        raise MalformedCommand(f"'{c}': {role} takes {names}")
    if role is SpecialRole.LE_VILAIN:
        assert c.target is not None and c.other is not None
        for pid in (c.target, c.other):
            _living(s, pid)
            if s.by_id[pid].zombie:
                raise IllegalCommand(f"'{c}': {pid} is a zombie and takes no arrows")
        if c.target == c.other:
            raise IllegalCommand(f"'{c}': Le Vilain swaps the arrows of two different players")
    elif role is SpecialRole.LE_DOC:
        t = s.turn
        assert t is not None and c.die is not None and c.face is not None
        if not 0 <= c.die < len(t.dice):
            raise MalformedCommand(f"there is no die {c.die + 1}; dice are 1 to {len(t.dice)}")
        kind = t.kinds[c.die]
        if kind.name in _NOT_DICE:
            raise IllegalCommand(
                f"die {c.die + 1} is a {_NOT_DICE[kind.name]}, not a die: it cannot be changed"
            )
        if c.face not in kind.faces:
            raise IllegalCommand(f"die {c.die + 1} is a {kind.name} die and has no {c.face} face")
    elif role is SpecialRole.LE_MAUVAIS:
        assert c.target is not None
        if c.target not in {g.player for g in roles_state(s).held_gains}:
            raise IllegalCommand(f"'{c}': {c.target} is not about to gain life")
    elif role is SpecialRole.MAIN_GAUCHE:
        assert c.target is not None
        held = roles_state(s).held
        p = s.by_id.get(c.target)
        if held is None or p is None or not p.alive or p.life > 0:
            raise IllegalCommand(f"'{c}': {c.target} is not about to be eliminated")
        if p.zombie:
            raise IllegalCommand(f"'{c}': {c.target} is a zombie: Main Gauche never saves a zombie")


def _living(s: GameState, pid: PlayerId) -> None:
    p = s.by_id.get(pid)
    if p is None:
        raise IllegalCommand(f"{pid} is not a player in this game")
    if not p.alive:
        raise IllegalCommand(f"{pid} has been eliminated")


def _respond_window(s: GameState, q: Awaiting, c: cmd.Command, emit: Emit) -> None:
    if isinstance(c, PassWindow):
        emit(WindowPassed(window=q.decision, player=q.player))
        return
    assert isinstance(c, UseRole)
    if c.role is SpecialRole.LE_JUGE:
        pending = roles_state(s).pending
        assert pending is not None
        emit(RoleUseCancelled(player=c.player, cancelled=pending.player))
        return
    emit(
        RolePowerUsed(
            player=c.player,
            role=c.role,
            window=q.decision,
            target=c.target,
            other=c.other,
            die=c.die,
            face=c.face,
        )
    )


def _generate_window(s: GameState, q: Awaiting) -> Iterator[cmd.GameCommand]:
    """Every legal answer: the pass, then the uses of whoever holds the power (the engine
    knows; what a player may see of this list is the caller's business)."""
    yield PassWindow(player=q.player)
    yield from _uses(s, q)


def _uses(s: GameState, q: Awaiting) -> Iterator[UseRole]:
    sr = roles_state(s)
    for p in s.players:
        card = sr.cards[p.id]
        if card in POWERS[Window(q.decision)] and p.id not in sr.used and p.alive and _holder_fits(s, q, p):
            yield from _uses_of(s, q, p, card)


_NOT_DICE = {"rage": "revealed Rage card's symbol", "wound": "dynamite wound token"}
"""Undead or Alive's symbols that sit beside the dice (UA2, UA1): never changed (§0 "Results")."""


def _uses_of(s: GameState, q: Awaiting, p: PlayerState, card: SpecialRole) -> Iterator[UseRole]:
    if card is SpecialRole.LE_VILAIN:
        living = [x.id for x in s.players if x.alive and not x.zombie]  # UA4: zombies take no arrows
        for i, a in enumerate(living):
            for b in living[i + 1 :]:
                yield UseRole(player=p.id, role=card, target=a, other=b)
    elif card is SpecialRole.LE_DOC:
        t = s.turn
        assert t is not None
        for die, kind in enumerate(t.kinds):
            if kind.name in _NOT_DICE:
                continue
            for face in dict.fromkeys(kind.faces):
                yield UseRole(player=p.id, role=card, die=die, face=face)
    elif card is SpecialRole.LE_MAUVAIS:
        for pid in dict.fromkeys(g.player for g in roles_state(s).held_gains):
            yield UseRole(player=p.id, role=card, target=pid)
    elif card is SpecialRole.MAIN_GAUCHE:
        for x in s.players:
            if x.alive and x.life <= 0 and not x.zombie:
                yield UseRole(player=p.id, role=card, target=x.id)
    else:
        yield UseRole(player=p.id, role=card)


def _timeout_pass(s: GameState, q: Awaiting) -> cmd.GameCommand | None:
    return PassWindow(player=q.player)


def _lapse_window(s: GameState, q: Awaiting, c: cmd.Command, emit: Emit) -> None:
    """The next input closes the window: nobody used it (RULINGS-expansions §0, §OS3)."""
    emit(WindowPassed(window=q.decision, player=q.player, implicit=True))


_POINTS = {
    Window.START_OF_TURN: TurnPoint.START_OF_TURN,
    Window.AFTER_ROLL: TurnPoint.ROLL,
    Window.AFTER_LAST_ROLL: TurnPoint.ON_KEEP,
    Window.AFTER_REVEAL: TurnPoint.START_OF_TURN,
    Window.BEFORE_GAIN: TurnPoint.ON_RESOLVE_BEERS,
    Window.BEFORE_ELIMINATION: TurnPoint.ON_ELIMINATION,
    Window.END_OF_TURN: TurnPoint.END_OF_TURN,
}
_WHAT = {
    Window.START_OF_TURN: "see whether Le Bien or Le Vilain acts at the start of the turn",
    Window.AFTER_ROLL: "see whether Le Doc sets a die of this roll",
    Window.AFTER_LAST_ROLL: "see whether Le Joueur forces a reroll",
    Window.AFTER_REVEAL: "see whether Le Juge cancels that power",
    Window.BEFORE_GAIN: "see whether Le Mauvais cancels a gain of life",
    Window.BEFORE_ELIMINATION: "see whether La Main Gauche saves a player",
    Window.END_OF_TURN: "see whether La Main Droite takes an extra turn",
}

DECISIONS: tuple[DecisionSpec, ...] = tuple(
    DecisionSpec(
        window,
        Who.TABLE,
        _POINTS[window],
        _WHAT[window],
        (UseRole, PassWindow),
        _check_window,
        _respond_window,
        _generate_window,
        _timeout_pass,
        BotHint.DECLINE,
        lapse=_lapse_window,
    )
    for window in Window
)
describe_with({spec.decision: spec for spec in DECISIONS})


# --- event handlers ---------------------------------------------------------------------------------


def _close(s: GameState, sr: SpecialRoles, window: str) -> None:
    if window == Window.AFTER_REVEAL:
        sr.judge_passed = True
    elif window == Window.BEFORE_GAIN:
        sr.gains_closed = True
    elif window == Window.BEFORE_ELIMINATION:
        sr.elims_closed = True
    else:
        sr.done.add(window_key(s, window))


def _window_passed(s: GameState, e: WindowPassed) -> None:
    _close(s, roles_state(s), e.window)


def _role_power_used(s: GameState, e: RolePowerUsed) -> None:
    sr = roles_state(s)
    _close(s, sr, e.window)
    sr.revealed[e.player] = e.role
    sr.used.add(e.player)
    sr.pending = e
    sr.judge_passed = False


def _role_use_cancelled(s: GameState, e: RoleUseCancelled) -> None:
    sr = roles_state(s)
    sr.revealed[e.player] = SpecialRole.LE_JUGE
    sr.used.add(e.player)
    sr.pending = None


def _effect_done(s: GameState) -> SpecialRoles:
    sr = roles_state(s)
    sr.pending = None
    return sr


def _sheriff_changed(s: GameState, e: SheriffChanged) -> None:
    _effect_done(s)
    s.by_id[e.player].role = Role.SHERIFF
    s.by_id[e.previous].role = Role.DEPUTY


def _arrows_swapped(s: GameState, e: ArrowsSwapped) -> None:
    _effect_done(s)
    a, b = s.by_id[e.first], s.by_id[e.second]
    a.arrows, b.arrows = b.arrows, a.arrows
    if s.chief_holder in (a.id, b.id):  # the Chief's Arrow goes with its holder's arrows (OS2)
        s.chief_holder = b.id if s.chief_holder == a.id else a.id


def _die_face_set(s: GameState, e: DieFaceSet) -> None:
    _effect_done(s)
    t = s.turn
    assert t is not None
    before = t.dice[e.die]
    t.dice[e.die] = e.face
    # the die acts as part of this roll: its new face's arrow now, its old one's (if rolled) never
    if before is ARROW and e.die in t.rolled:
        t.roll_arrows_left -= 1
    if e.face is ARROW:
        t.roll_arrows_left += 1
    # likewise OS1's broken arrows and bullets, which act right after the roll's arrows
    for face, counter in ((Face.BROKEN_ARROW, "roll_broken_left"), (Face.BULLET, "roll_bullets_left")):
        if before is face and e.die in t.rolled:
            setattr(t, counter, getattr(t, counter) - 1)
        if e.face is face:
            setattr(t, counter, getattr(t, counter) + 1)
    if e.die not in t.rolled:
        t.rolled = (*t.rolled, e.die)


def _reroll_forced(s: GameState, e: RerollForced) -> None:
    _effect_done(s)
    t = s.turn
    assert t is not None
    t.phase = Phase.ROLLING
    t.final = None
    t.pending_roll = e.dice
    # recorded as the turn's last roll: once it is rolled no reroll is left
    t.rolls_used = max(t.rolls_used, s.by_id[e.target].character.rerolls)


def _gain_held(s: GameState, e: GainHeld) -> None:
    roles_state(s).held_gains.append(e)


def _gain_cancelled(s: GameState, e: GainCancelled) -> None:
    _effect_done(s).cancelled = e.target


def _gains_released(s: GameState, e: GainsReleased) -> None:
    sr = roles_state(s)
    sr.held_gains, sr.gains_closed, sr.cancelled = [], False, None


def _eliminations_held(s: GameState, e: EliminationsHeld) -> None:
    sr = roles_state(s)
    sr.held, sr.elims_closed = e, False


def _elimination_prevented(s: GameState, e: EliminationPrevented) -> None:
    _effect_done(s)
    s.by_id[e.target].life = e.life


def _eliminations_released(s: GameState, e: EliminationsReleased) -> None:
    sr = roles_state(s)
    sr.held, sr.elims_closed = None, False


def _extra_turn_granted(s: GameState, e: ExtraTurnGranted) -> None:
    _effect_done(s).extra_turn = e.player


def _extra_turn_taken(s: GameState, e: ExtraTurnTaken) -> None:
    roles_state(s).extra_turn = None


_HANDLERS: dict[type[ev.Event], Callable[[GameState, Any], None]] = {
    RolePowerUsed: _role_power_used,
    RoleUseCancelled: _role_use_cancelled,
    WindowPassed: _window_passed,
    SheriffChanged: _sheriff_changed,
    ArrowsSwapped: _arrows_swapped,
    DieFaceSet: _die_face_set,
    RerollForced: _reroll_forced,
    GainHeld: _gain_held,
    GainCancelled: _gain_cancelled,
    GainsReleased: _gains_released,
    EliminationsHeld: _eliminations_held,
    EliminationPrevented: _elimination_prevented,
    EliminationsReleased: _eliminations_released,
    ExtraTurnGranted: _extra_turn_granted,
    ExtraTurnTaken: _extra_turn_taken,
}
assert set(_HANDLERS) == set(EVENTS)


OS3 = RulesModule(
    id=ModuleId.OS3,
    decisions=DECISIONS,
    hooks=Ability(interrupt=_interrupt, hold_gain=_hold_gain, hold_eliminations=_hold_eliminations),
    events=MappingProxyType(_HANDLERS),
    check_seats=check_seats,
    on_start=on_start,
)



# --- bots ----------------------------------------------------------------------------------------


def bot_use(s: GameState, q: Awaiting, player: PlayerId) -> UseRole | None:
    """Whether a bot seated as ``player`` uses its power at window ``q``, and how; None to let it
    pass. Reads only public facts and the bot's own card (never another hidden card), so a
    driver may ask every seat in turn."""
    sr = roles_state(s)
    me = s.by_id[player]
    card = sr.cards[player]
    options = [u for u in _uses(s, q) if u.player == player]
    if not options:
        return None
    sheriff = next(p for p in s.players if p.role is Role.SHERIFF)
    law = BASE_ROLE_OF[card] in (Role.SHERIFF, Role.DEPUTY)
    t = s.turn
    if card in (SpecialRole.MAIN_DROITE, SpecialRole.LE_BIEN):
        # an extra turn is always worth it; Le Bien takes the star when he is the sturdier
        return options[0] if card is SpecialRole.MAIN_DROITE or me.life > sheriff.life + 2 else None
    if card is SpecialRole.MAIN_GAUCHE:
        # himself, or the Sheriff while others live (a Renegade needs him until the end)
        for u in options:
            if u.target in (player, sheriff.id):
                return u
        return None
    if card is SpecialRole.LE_VILAIN:
        if me.arrows >= sheriff.arrows + 2 and sheriff.id != player:
            return UseRole(player=player, role=card, target=player, other=sheriff.id)
        return None
    if card is SpecialRole.LE_MAUVAIS:
        for u in options:
            if u.target == sheriff.id:
                return u
        return None
    if card is SpecialRole.LE_JOUEUR:
        if t is None or t.player != sheriff.id:
            return None
        good = sum(1 for f in t.dice if f in (Face.SHOOT1, Face.SHOOT2, Face.BEER, Face.GATLING))
        return options[0] if good >= 3 else None
    if card is SpecialRole.LE_DOC:
        if t is None or t.player not in (player, sheriff.id):
            return None
        dynamite = [
            i for i, f in enumerate(t.dice) if f is Face.DYNAMITE and t.kinds[i].name not in _NOT_DICE
        ]
        arrows = [i for i in t.rolled if t.dice[i] is Face.ARROW]
        for die in ((dynamite[:1] if len(dynamite) >= 2 else []) + arrows[:1]):
            if Face.BEER in t.kinds[die].faces:
                return UseRole(player=player, role=card, die=die, face=Face.BEER)
        return None
    assert card is SpecialRole.LE_JUGE
    pending = sr.pending
    if pending is None or not law:
        return None
    harmful = pending.role in (SpecialRole.LE_JOUEUR, SpecialRole.LE_VILAIN, SpecialRole.MAIN_DROITE) or (
        pending.role in (SpecialRole.LE_MAUVAIS,) and pending.target in (player, sheriff.id)
    )
    return options[0] if harmful else None


def window_answer(s: GameState, q: Awaiting) -> UseRole | PassWindow:
    """A simulation's answer to a window: the first seat, clockwise from the addressed one,
    whose bot wants to use its power; else the pass."""
    start = s.by_id[q.player].seat
    n = len(s.players)
    for k in range(n):
        p = s.players[(start + k) % n]
        use = bot_use(s, q, p.id)
        if use is not None:
            return use
    return PassWindow(player=q.player)
