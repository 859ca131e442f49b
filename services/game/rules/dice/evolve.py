"""evolve(state, event): apply one fact to the state. The only place state changes.

Nothing here decides anything: every rule was applied when the event was produced
(see ``flow``/``decide``). ``fold`` rebuilds a state from scratch.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from services.game.rules.dice import events as ev
from services.game.rules.dice.errors import InvalidSetup
from services.game.rules.dice.kinds import BASE_HAND, ZOMBIE_HAND
from services.game.rules.dice.modules import BASE_GAME_RULES, Rules
from services.game.rules.dice.positions import apply_position
from services.game.rules.dice.state import (
    BatchKind,
    DamageBatch,
    GameState,
    PlayerState,
    TurnState,
)
from services.game.rules.dice.vocabulary import (
    ARROW,
    DOUBLE_FACES,
    ArrowReason,
    Cause,
    Face,
    GainCause,
    Phase,
    Role,
)


def initial_state(started: ev.GameStarted, rules: Rules = BASE_GAME_RULES) -> GameState:
    """The state ``started`` sets up, played with ``rules`` (the base game unless a module is on)."""
    three = len(started.seats) == 3
    characters = rules.characters
    players = []
    for seat, s in enumerate(started.seats):
        ch = characters[s.character]
        life = ch.life + (2 if s.role is Role.SHERIFF and not three else 0)
        players.append(PlayerState(s.player, seat, s.role, ch, life, life))
    state = GameState(players, started.arrow_pile, started.arrow_pile, three, rules)
    state.chief_in_pile = rules.arrow_choice is not None
    pos = started.position
    if pos is not None:
        for pp in pos.players:
            p = state.by_id.get(pp.player)
            if p is None:
                raise InvalidSetup(f"position names {pp.player}, who has no seat")
            p.life, p.arrows = pp.life, pp.arrows
            if pp.life <= 0:
                p.alive, p.life, p.eliminated_turn = False, 0, 0
        state.arrow_total = started.arrow_pile + sum(p.arrows for p in players)
        if pos.chief_holder is not None:
            state.chief_holder, state.chief_in_pile = pos.chief_holder, False
        if pos.active_player is not None:
            active = state.by_id[pos.active_player]
            state.last_active_seat = active.seat - 1
            state.last_turn_number = pos.turn - 1
            if pos.dice is not None:
                state.turn = TurnState(
                    active.id,
                    pos.turn,
                    dice=list(pos.dice),
                    rolls_used=pos.rolls_used,
                    pending_roll=None,
                )
                state.last_active_seat = active.seat
                state.last_turn_number = pos.turn
    if pos is None or pos.active_player is None:
        first_role = Role.DEPUTY if three else Role.SHERIFF
        first = next(p for p in players if p.role is first_role)
        state.last_active_seat = first.seat - 1
    for start in rules.starts:
        start(state, started)
    if pos is not None:
        apply_position(state, pos)  # what the expansions and the middle of a turn hold
    state.version = 1
    return state


def evolve(state: GameState, event: ev.Event) -> None:
    try:
        handler = _HANDLERS[type(event)]
    except KeyError:  # an event a module of this game declares
        handler = state.rules.handlers[type(event)]
    handler(state, event)
    state.version += 1


def fold(events: Iterable[ev.Event], rules: Rules = BASE_GAME_RULES) -> GameState:
    it = iter(events)
    first = next(it)
    if not isinstance(first, ev.GameStarted):
        raise InvalidSetup(f"a game's first event must be GameStarted, not {type(first).__name__}")
    state = initial_state(first, rules)
    for e in it:
        evolve(state, e)
    return state


def _turn(s: GameState) -> TurnState:
    assert s.turn is not None, "event outside a turn"
    return s.turn


def _game_started(s: GameState, e: ev.GameStarted) -> None:
    raise InvalidSetup("GameStarted can only be the first event")


def _turn_started(s: GameState, e: ev.TurnStarted) -> None:
    s.turn = t = TurnState(e.player, e.turn)
    if s.boneyard is not None and s.by_id[e.player].zombie_since is not None:
        set_zombie_hand(t)  # UA4: a zombie rolls three base dice, whatever the modules
    elif s.rules.hand is not None:  # a module's hand of dice (the base game: five base dice)
        t.kinds = s.rules.dice_for(s, s.by_id[e.player])
        t.dice = [None] * len(t.kinds)
        t.pending_roll = tuple(range(len(t.kinds)))
    s.last_active_seat = s.by_id[e.player].seat
    s.last_turn_number = e.turn


def _target_chosen(s: GameState, e: ev.TargetChosen) -> None:
    t = _turn(s)
    if e.die is None:
        t.decided.add("turn_start_heal")
    else:
        face = e.as_face or t.dice[e.die]
        assert face is not None
        if t.kinds is BASE_HAND:
            t.targets[e.die] = (e.target, face)
            return
        if face in DOUBLE_FACES:  # a double aims one symbol at a time: the face's own symbol
            face = t.kinds[e.die].symbols[face][0]
        if e.die in t.targets:  # the second symbol of a double
            t.second_targets[e.die] = (e.target, face)
        else:
            t.targets[e.die] = (e.target, face)


def _reroll_chosen(s: GameState, e: ev.RerollChosen) -> None:
    _turn(s).pending_roll = e.dice


def _dice_rolled(s: GameState, e: ev.DiceRolled) -> None:
    t = _turn(s)
    for i, f in zip(e.dice, e.faces, strict=True):
        t.dice[i] = f
    t.rolls_used = e.roll
    t.pending_roll = None
    t.rolled = e.dice
    t.roll_arrows_left = e.faces.count(ARROW)
    if t.kinds is not BASE_HAND or t.preset:  # a module's dice (the base game never comes here)
        _module_dice_rolled(s, t, e)


def set_zombie_hand(t: TurnState) -> None:
    """UA4: a zombie's turn rolls three base dice (RULINGS-expansions §1), none rolled yet."""
    t.kinds = ZOMBIE_HAND
    t.dice = [None] * len(ZOMBIE_HAND)
    t.pending_roll = tuple(range(len(ZOMBIE_HAND)))


def _module_dice_rolled(s: GameState, t: TurnState, e: ev.DiceRolled) -> None:
    if t.kinds is ZOMBIE_HAND:  # UA4: a zombie's arrow faces take no token
        t.roll_arrows_left = 0
        return
    if t.kinds is not BASE_HAND:  # the Saloon dice's faces that act on the roll (OS1)
        t.roll_broken_left = e.faces.count(Face.BROKEN_ARROW)
        t.roll_bullets_left = e.faces.count(Face.BULLET)
    if t.preset and e.roll == 1:  # Ghost-preset dice act as rolled with the first roll (OS5)
        t.roll_arrows_left += sum(1 for i in t.preset if t.dice[i] is ARROW)


def _dice_finalized(s: GameState, e: ev.DiceFinalized) -> None:
    _turn(s).phase = Phase.RESOLVING


def _arrow_taken(s: GameState, e: ev.ArrowTaken | ev.ChiefArrowTaken) -> None:
    s.arrow_pile -= 1
    s.by_id[e.player].arrows += 1
    t = s.turn
    if t is None:
        return
    if e.reason is ArrowReason.ROLL:
        t.roll_arrows_left -= 1
    elif e.reason is ArrowReason.RAGE and s.rage is not None:
        s.rage.arrows_left -= 1
    elif e.reason is ArrowReason.HIT_BACK and t.batch is not None:
        t.batch.hit_backs_given += 1


def _chief_arrow_taken(s: GameState, e: ev.ChiefArrowTaken) -> None:
    _arrow_taken(s, e)  # the same move of one token, plus who holds it
    s.chief_holder, s.chief_in_pile = e.player, False


def _chief_back_if(s: GameState, player: str, kept: int) -> None:
    """Tokens leave ``player`` regular ones first (a ruling, docs/rulings.md): the Chief's Arrow
    goes back to the pile only with his last token (``kept`` tokens stay)."""
    if s.chief_holder == player and kept == 0:
        s.chief_holder, s.chief_in_pile = None, True


def _arrows_returned(s: GameState, e: ev.ArrowsReturned) -> None:
    if s.chief_holder is not None:
        _chief_back_if(s, e.player, s.by_id[e.player].arrows - e.count)
    s.by_id[e.player].arrows -= e.count
    s.arrow_pile += e.count
    if e.reason is ArrowReason.DISCARD_ON_LOSS and s.turn and s.turn.batch:
        s.turn.batch.discard_decided.add(e.player)


def _indians_attacked(s: GameState, e: ev.IndiansAttacked) -> None:
    pass  # the losses follow as LifeLost events


def _all_arrows_returned(s: GameState, e: ev.AllArrowsReturned) -> None:
    for p in s.players:
        p.arrows = 0
    s.arrow_pile = s.arrow_total
    if s.chief_holder is not None:
        s.chief_holder, s.chief_in_pile = None, True


def _dynamite_exploded(s: GameState, e: ev.DynamiteExploded) -> None:
    t = _turn(s)
    t.dynamite_done = True
    t.batch = DamageBatch(BatchKind.DYNAMITE, None)


def _shot_doubled(s: GameState, e: ev.ShotDoubled) -> None:
    t = _turn(s)
    t.doubled = (e.shot_die, e.beer_die)
    t.decided.add("double_shot")


def _ability_declined(s: GameState, e: ev.AbilityDeclined) -> None:
    t = _turn(s)
    if e.decision == "discard_arrows":
        assert t.batch is not None
        t.batch.discard_decided.add(e.player)
    else:
        t.decided.add(e.decision)


def _arrows_instead_chosen(s: GameState, e: ev.ArrowsInsteadChosen | ev.ChiefArrowsInsteadChosen) -> None:
    _turn(s).arrows_instead[f"{e.step}:{e.player}"] = e.count


def _shots_fired(s: GameState, e: ev.ShotsFired) -> None:
    t = _turn(s)
    t.shots_done = True
    t.batch = DamageBatch(BatchKind.SHOTS, e.player)


def _gatling_fired(s: GameState, e: ev.GatlingFired) -> None:
    t = _turn(s)
    t.gatling_done = True
    t.batch = DamageBatch(BatchKind.GATLING, e.player)


# read for every loss and gain of life: constants (an enum member's read is slow on Python 3.11)
_INDIAN_ATTACK, _BEER_GAIN = Cause.INDIAN_ATTACK, GainCause.BEER


def _life_lost(s: GameState, e: ev.LifeLost) -> None:
    s.by_id[e.player].life -= e.amount
    t = s.turn
    if s.rage is not None:  # the turn's gross loss (UA2's Rage draws)
        s.rage.note_loss(e.player, e.amount, s.last_turn_number)
    if t is not None and t.batch is not None and e.cause is not _INDIAN_ATTACK:
        t.batch.lost[e.player] = t.batch.lost.get(e.player, 0) + e.amount


def _life_gained(s: GameState, e: ev.LifeGained) -> None:
    s.by_id[e.player].life += e.amount
    if e.cause is _BEER_GAIN and s.turn is not None:
        s.turn.beers_done = True


def _arrows_removed(s: GameState, e: ev.ArrowsRemoved) -> None:
    for pid in e.from_players:
        if s.chief_holder is not None:
            _chief_back_if(s, pid, s.by_id[pid].arrows - 1)
        s.by_id[pid].arrows -= 1
        s.arrow_pile += 1
    _turn(s).decided.add("remove_arrows")


def _player_eliminated(s: GameState, e: ev.PlayerEliminated) -> None:
    p = s.by_id[e.player]
    p.alive = False
    p.life = 0
    if s.chief_holder == p.id:
        s.chief_holder, s.chief_in_pile = None, True
    s.arrow_pile += p.arrows
    p.arrows = 0
    p.eliminated_by, p.eliminated_cause, p.eliminated_turn = e.source, e.cause, e.turn


def _turn_ended(s: GameState, e: ev.TurnEnded) -> None:
    s.turn = None


def _game_ended(s: GameState, e: ev.GameEnded) -> None:
    s.phase = Phase.OVER
    s.result = e


# Each handler takes its own event class; the table is what ties the two together.
_HANDLERS: dict[type[ev.Event], Callable[[GameState, Any], None]] = {
    ev.GameStarted: _game_started,
    ev.TurnStarted: _turn_started,
    ev.TargetChosen: _target_chosen,
    ev.RerollChosen: _reroll_chosen,
    ev.DiceRolled: _dice_rolled,
    ev.DiceFinalized: _dice_finalized,
    ev.ArrowTaken: _arrow_taken,
    ev.ChiefArrowTaken: _chief_arrow_taken,
    ev.ArrowsReturned: _arrows_returned,
    ev.IndiansAttacked: _indians_attacked,
    ev.AllArrowsReturned: _all_arrows_returned,
    ev.DynamiteExploded: _dynamite_exploded,
    ev.ShotDoubled: _shot_doubled,
    ev.AbilityDeclined: _ability_declined,
    ev.ArrowsInsteadChosen: _arrows_instead_chosen,
    ev.ChiefArrowsInsteadChosen: _arrows_instead_chosen,
    ev.ShotsFired: _shots_fired,
    ev.GatlingFired: _gatling_fired,
    ev.LifeLost: _life_lost,
    ev.LifeGained: _life_gained,
    ev.ArrowsRemoved: _arrows_removed,
    ev.PlayerEliminated: _player_eliminated,
    ev.TurnEnded: _turn_ended,
    ev.GameEnded: _game_ended,
}
