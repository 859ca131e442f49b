"""Positions of any point a game reaches: a state written as a ``Position`` and set up from one.

A position is what a table holds at a stable point (the game awaits an input): life, arrows and
the turn as in the base game, and what the expansions and the middle of a turn add — wound
tokens, Rage cards, the Ghost and his tokens, the Boneyard and the outbreak, the special role
cards revealed or used and the windows closed, held losses, a turn part-way through its
resolution. ``position_of`` writes the state of any game in progress as one; ``initial_state``
(``evolve``) sets the state up again from it with ``apply_position``, so a game started from a
written position plays on exactly as the original (the property test in
``tests/unit/rules/test_positions.py``). ``setup._check_position`` refuses, in words, what the
rules do not allow.

What a table cannot see is never needed: a draw's input names the card drawn, so a deck's
face-down pile is simply every card of the deck placed nowhere else (held, discarded, face up).
The writer writes only what differs from the defaults: a base-game position at the start of a
turn is as short as it always was.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from services.game.rules.dice import events as ev
from services.game.rules.dice.errors import InvalidSetup
from services.game.rules.dice.kinds import BASE_HAND, ZOMBIE_HAND, DieKind
from services.game.rules.dice.modules import Rules
from services.game.rules.dice.state import DamageBatch, GameState, HeldLosses, PlayerState, TurnState
from services.game.rules.dice.vocabulary import Face, Phase, PlayerId, Role, SpecialRole
from services.game.rules.ruleset import MODULES, ModuleId

STEPS = ("dynamite", "shots", "beers", "gatling")
"""The resolving steps a turn marks done (``TurnPosition.steps_done``), in their order."""


# --- the state written as a position ---------------------------------------------------------


def position_of(state: GameState, seats: Sequence[ev.Seat]) -> ev.Position:
    """The position of ``state`` (a game of these seats, in progress and awaiting an input).
    Raises ``InvalidSetup`` for a game that is over: it has no continuation to start from."""
    if state.is_over:
        raise InvalidSetup("the game is over: a finished game is not a position to play on")
    fresh = _fresh_lives(state, seats)
    players = tuple(pp for p in state.players if (pp := _player_position(state, p, fresh[p.id])) is not None)
    t = state.turn
    fields: dict[str, object] = {}
    if t is not None:
        fields.update(
            active_player=t.player,
            turn=t.number,
            in_turn=_turn_position(state, t),
        )
        if any(f is not None for f in t.dice):
            fields.update(dice=tuple(t.dice), rolls_used=t.rolls_used)
    elif state.last_turn_number > 0:
        fields.update(
            active_player=state.players[state.last_active_seat].id,
            turn=state.last_turn_number,
            turn_ended=True,
        )
    if state.held is not None:
        h = state.held
        fields["held_losses"] = ev.HeldLossesPosition(
            step=h.kind,
            source=h.source,
            hits=tuple(ev.Hit(player=p, amount=a, cause=c, die=d) for p, a, c, d in h.hits),
            answers=dict(h.answers),
        )
    for seat in seats:
        if seat.role is Role.SHERIFF and state.by_id[seat.player].role is not Role.SHERIFF:
            fields["sheriff"] = next(p.id for p in state.players if p.role is Role.SHERIFF)
    _special_roles(state, fields)
    _wounds(state, fields)
    _rage(state, fields)
    _boneyard(state, fields)
    return ev.Position(players=players, chief_holder=state.chief_holder, **fields)  # type: ignore[arg-type]


def _fresh_lives(state: GameState, seats: Sequence[ev.Seat]) -> dict[PlayerId, int]:
    """Each player's life when not listed in a position: his full starting life."""
    lives: dict[PlayerId, int] = {}
    specials = {s.player: s.special for s in seats}
    for seat in seats:
        ch = state.rules.characters.get(seat.character) or state.by_id[seat.player].character
        bonus = 2 if seat.role is Role.SHERIFF and not state.three_player else 0
        if specials[seat.player] is SpecialRole.L_OURS:
            bonus += 1  # L'Ours' +3 instead of the Sheriff's +2
        lives[seat.player] = ch.life + bonus + seat.legacy_bonus
    return lives


def _player_position(state: GameState, p: PlayerState, fresh: int) -> ev.PlayerPosition | None:
    extra: dict[str, object] = {}
    if not p.alive and (p.eliminated_turn or p.eliminated_by is not None or p.eliminated_cause is not None):
        extra["eliminated"] = ev.Eliminated(
            turn=p.eliminated_turn or 0, by=p.eliminated_by, cause=p.eliminated_cause
        )
    if p.ghost_since is not None:
        extra["ghost_since"] = p.ghost_since
    if p.ghost_gift:
        extra["ghost_tokens"] = p.ghost_gift
    if p.zombie_since is not None:
        extra["zombie"] = ev.ZombiePosition(since=p.zombie_since, max_life=p.max_life)
    if p.zombie_master:
        extra["zombie_master"] = True
    if state.duels is not None and state.duels.held.get(p.id):
        extra["wounds"] = tuple(state.duels.held[p.id])
    if state.rage is not None and state.rage.hands.get(p.id):
        extra["rage"] = tuple(state.rage.hands[p.id])
    sr = state.special
    if sr is not None:
        card = sr.cards.get(p.id)
        revealed, used = p.id in sr.revealed, p.id in sr.used
        if (revealed, used) != (card is SpecialRole.L_OURS, False):
            extra["special"] = ev.SpecialPosition(revealed=revealed, used=used)
    life = p.life if p.alive else 0
    if not extra and p.alive and life == fresh and not p.arrows:
        return None
    return ev.PlayerPosition(player=p.id, life=life, arrows=p.arrows, **extra)  # type: ignore[arg-type]


def _turn_position(state: GameState, t: TurnState) -> ev.TurnPosition:
    fields: dict[str, object] = {}
    zombie = state.by_id[t.player].zombie_since is not None and state.boneyard is not None
    usual = ZOMBIE_HAND if zombie else BASE_HAND
    if t.kinds != usual:
        fields["hand"] = tuple(k.name for k in t.kinds)
    if t.pending_roll is not None:
        fields["to_roll"] = t.pending_roll
    if t.phase is Phase.RESOLVING:
        fields["dice_final"] = True
    for name, value in (
        ("arrows_to_take", t.roll_arrows_left),
        ("broken_arrows_to_act", t.roll_broken_left),
        ("bullets_to_act", t.roll_bullets_left),
        ("rolled", t.rolled),
        ("preset", t.preset),
        ("cancelled", t.cancelled),
    ):
        if value:
            fields[name] = value
    if t.targets:
        fields["targets"] = _aims(t.targets)
    if t.second_targets:
        fields["second_targets"] = _aims(t.second_targets)
    if t.doubled is not None:
        fields["doubled"] = ev.DoubledShot(shot_die=t.doubled[0], beer_die=t.doubled[1])
    if t.decided:
        fields["answered"] = tuple(sorted(t.decided))
    if t.arrows_instead:
        fields["arrows_instead"] = tuple(
            ev.ArrowsInstead(step=key.partition(":")[0], player=PlayerId(key.partition(":")[2]), count=n)
            for key, n in sorted(t.arrows_instead.items())
        )
    done = (t.dynamite_done, t.shots_done, t.beers_done, t.gatling_done)
    if any(done):
        fields["steps_done"] = tuple(step for step, flag in zip(STEPS, done, strict=True) if flag)
    b = t.batch
    if b is not None:
        fields["batch"] = ev.LossBatch(
            step=b.kind,
            source=b.source,
            lost=dict(b.lost),
            discards_answered=tuple(sorted(b.discard_decided)),
            hit_backs=b.hit_backs_given,
        )
    return ev.TurnPosition(**fields)  # type: ignore[arg-type]


def _aims(aims: dict[int, tuple[PlayerId, Face]]) -> tuple[ev.Aim, ...]:
    return tuple(ev.Aim(die=die, target=target, face=face) for die, (target, face) in sorted(aims.items()))


def _window_turn(key: str) -> int:
    return int(key.split(":")[1])


def _special_roles(state: GameState, fields: dict[str, object]) -> None:
    sr = state.special
    if sr is None:
        return
    closed = tuple(sorted(k for k in sr.done if _window_turn(k) >= state.last_turn_number))
    pending = None
    if sr.pending is not None:
        u = sr.pending
        pending = ev.PowerUse(
            player=u.player,
            role=u.role,
            window=u.window,
            target=u.target,
            other=u.other,
            die=u.die,
            face=u.face,
        )
    held = None
    if sr.held is not None:
        held = ev.HeldEliminations(source=sr.held.source, players=sr.held.players, causes=sr.held.causes)
    written = ev.SpecialRolesPosition(
        windows_closed=closed,
        pending=pending,
        judge_passed=sr.judge_passed,
        held_gains=tuple(
            ev.HeldGain(player=g.player, amount=g.amount, cause=g.cause, source=g.source)
            for g in sr.held_gains
        ),
        gains_closed=sr.gains_closed,
        gains_cancelled_of=sr.cancelled,
        held_eliminations=held,
        eliminations_closed=sr.elims_closed,
        extra_turn=sr.extra_turn,
    )
    if written != ev.SpecialRolesPosition():
        fields["special_roles"] = written


def _wounds(state: GameState, fields: dict[str, object]) -> None:
    d = state.duels
    if d is None:
        return
    now: dict[str, object] = {}
    t = state.turn
    if t is not None and d.turn == t.number:
        now = {
            "whiskeys": d.whiskeys,
            "discard_due": d.discard_due,
            "applied": d.applied,
            "duels_used": d.duels_used,
            "challenged": tuple(d.challenged),
            "thrower": d.thrower,
            "dynamite_set": d.dynamite_set,
            "loser": d.loser,
            "winner": d.winner,
            "throw_held": d.throw_held,
            "rerolled": d.rerolled,
        }
    written = ev.WoundsPosition(owed=tuple(d.owed), draws=d.wound_draws, throws=d.throws, **now)  # type: ignore[arg-type]
    if written != ev.WoundsPosition():
        fields["wound_tokens"] = written


def _rage(state: GameState, fields: dict[str, object]) -> None:
    r = state.rage
    if r is None:
        return
    this_turn = r.lost_turn == state.last_turn_number
    t = state.turn
    written = ev.RagePosition(
        discard=tuple(r.discard),
        lost=dict(r.lost) if this_turn else {},
        drawn=tuple(sorted(r.drawn)) if this_turn else (),
        revealed=t is not None and r.revealed_turn == t.number,
        arrows_to_take=r.arrows_left,
        draws=r.draws,
        owed_now=tuple(r.owed_now),
        pair=tuple(r.pair),
    )
    if written != ev.RagePosition():
        fields["rage_deck"] = written


def _boneyard(state: GameState, fields: dict[str, object]) -> None:
    b = state.boneyard
    if b is None:
        return
    written = ev.BoneyardPosition(
        shown=tuple(b.shown),
        reveals=tuple(
            ev.Reveal(turn=turn, player=player)
            for turn, player in sorted(b.revealed)
            if turn >= state.last_turn_number
        ),
        blocked_turn=b.blocked_turn,
        triggered_turn=b.triggered_turn,
        outbreak_turn=b.outbreak_turn,
        draws=b.draws,
    )
    if written != ev.BoneyardPosition():
        fields["boneyard"] = written


# --- a position set up as a state --------------------------------------------------------------


def apply_position(state: GameState, pos: ev.Position) -> None:
    """Complete the state ``initial_state`` set up from ``pos`` with what only the expansions and
    the middle of a turn hold (after the modules' own start: their states exist)."""
    for pp in pos.players:
        _apply_player(state, state.by_id[pp.player], pp)
    if pos.sheriff:
        for p in state.players:
            if p.role is Role.SHERIFF:
                p.role = Role.DEPUTY
        state.by_id[pos.sheriff].role = Role.SHERIFF
    if pos.turn_ended and pos.active_player is not None:
        state.turn = None
        state.last_active_seat = state.by_id[pos.active_player].seat
        state.last_turn_number = pos.turn
    if pos.in_turn and pos.active_player is not None:
        _apply_turn(state, pos, pos.in_turn)
    if pos.held_losses:
        h = pos.held_losses
        state.held = HeldLosses(
            h.step, h.source, [(x.player, x.amount, x.cause, x.die) for x in h.hits], dict(h.answers)
        )
    _apply_special_roles(state, pos)
    _apply_wounds(state, pos)
    _apply_rage(state, pos)
    _apply_boneyard(state, pos)
    # characters may have changed (zombies): who answers a loss is known again
    state.reactors = frozenset(p.id for p in state.players if p.character.ability.reacts_to_loss)
    state.damage_askers = frozenset(p.id for p in state.players if p.character.ability.on_damage)


def _apply_player(state: GameState, p: PlayerState, pp: ev.PlayerPosition) -> None:
    if pp.eliminated and pp.life == 0:
        p.eliminated_turn, p.eliminated_by, p.eliminated_cause = (
            pp.eliminated.turn,
            pp.eliminated.by,
            pp.eliminated.cause,
        )
    if pp.ghost_since:
        p.ghost_since = pp.ghost_since
    if pp.ghost_tokens:
        p.ghost_gift = pp.ghost_tokens
    if pp.zombie:
        from services.game.rules.dice.undead.zombies import zombie_character

        p.zombie_since, p.max_life = pp.zombie.since, pp.zombie.max_life
        p.character = zombie_character(p.character)
    if pp.zombie_master:
        p.zombie_master = True
    if pp.wounds and state.duels is not None:
        state.duels.held[p.id] = list(pp.wounds)
        for face in pp.wounds:
            state.duels.pile[face] -= 1
    if pp.rage and state.rage is not None:
        state.rage.hands[p.id] = list(pp.rage)
    if pp.special and state.special is not None:
        sr = state.special
        if pp.special.revealed:
            sr.revealed[p.id] = sr.cards[p.id]
        else:
            sr.revealed.pop(p.id, None)
        if pp.special.used:
            sr.used.add(p.id)


def _kinds(state: GameState, names: Sequence[str]) -> tuple[DieKind, ...]:
    kinds = tuple(state.rules.die_kinds[n] for n in names)
    if kinds == BASE_HAND:
        return BASE_HAND  # the very tuple: the engine tells the base hand by identity
    if kinds == ZOMBIE_HAND:
        return ZOMBIE_HAND
    return kinds


def _apply_turn(state: GameState, pos: ev.Position, tp: ev.TurnPosition) -> None:
    active = state.by_id[pos.active_player]  # type: ignore[index]
    zombie = active.zombie_since is not None and state.boneyard is not None
    kinds = _kinds(state, tp.hand) if tp.hand else (ZOMBIE_HAND if zombie else BASE_HAND)
    dice: list[Face | None] = list(pos.dice) if pos.dice is not None else [None] * len(kinds)
    t = TurnState(
        active.id,
        pos.turn,
        phase=Phase.RESOLVING if tp.dice_final else Phase.ROLLING,
        dice=dice,
        rolls_used=pos.rolls_used if pos.dice is not None else 0,
        pending_roll=tp.to_roll,
        roll_arrows_left=tp.arrows_to_take,
        targets={a.die: (a.target, a.face) for a in tp.targets},
        doubled=None if tp.doubled is None else (tp.doubled.shot_die, tp.doubled.beer_die),
        decided=set(tp.answered),
        arrows_instead={f"{a.step}:{a.player}": a.count for a in tp.arrows_instead},
        dynamite_done="dynamite" in tp.steps_done,
        shots_done="shots" in tp.steps_done,
        beers_done="beers" in tp.steps_done,
        gatling_done="gatling" in tp.steps_done,
        kinds=kinds,
        second_targets={a.die: (a.target, a.face) for a in tp.second_targets},
        roll_broken_left=tp.broken_arrows_to_act,
        roll_bullets_left=tp.bullets_to_act,
        preset=tp.preset,
        rolled=tp.rolled,
        cancelled=tp.cancelled,
    )
    b = tp.batch
    if b is not None:
        t.batch = DamageBatch(b.step, b.source, dict(b.lost), set(b.discards_answered), b.hit_backs)
    state.turn = t
    state.last_active_seat = active.seat
    state.last_turn_number = pos.turn


def _apply_special_roles(state: GameState, pos: ev.Position) -> None:
    sr, sp = state.special, pos.special_roles
    if sr is None or not sp:
        return
    from services.game.rules.dice.old_saloon import special_roles as os3

    sr.done = set(sp.windows_closed)
    if sp.pending is not None:
        u = sp.pending
        sr.pending = os3.RolePowerUsed(
            player=u.player,
            role=u.role,
            window=u.window,
            target=u.target,
            other=u.other,
            die=u.die,
            face=u.face,
        )
    sr.judge_passed = sp.judge_passed
    sr.held_gains = [
        os3.GainHeld(player=g.player, amount=g.amount, cause=g.cause, source=g.source) for g in sp.held_gains
    ]
    sr.gains_closed = sp.gains_closed
    sr.cancelled = sp.gains_cancelled_of
    if sp.held_eliminations is not None:
        h = sp.held_eliminations
        sr.held = os3.EliminationsHeld(source=h.source, players=h.players, causes=h.causes)
        for pid in h.players:  # at 0 life, still in until the window closes
            p = state.by_id[pid]
            p.alive, p.eliminated_turn = True, None
    sr.elims_closed = sp.eliminations_closed
    sr.extra_turn = sp.extra_turn


def _apply_wounds(state: GameState, pos: ev.Position) -> None:
    d, w = state.duels, pos.wound_tokens
    if d is None or not w:
        return
    d.owed, d.wound_draws, d.throws = list(w.owed), w.draws, w.throws
    if state.turn is not None:
        d.turn = state.turn.number
        d.whiskeys, d.discard_due, d.applied, d.duels_used = (
            w.whiskeys,
            w.discard_due,
            w.applied,
            w.duels_used,
        )
        d.challenged, d.thrower, d.dynamite_set = list(w.challenged), w.thrower, w.dynamite_set
        d.loser, d.winner, d.throw_held, d.rerolled = w.loser, w.winner, w.throw_held, w.rerolled


def _apply_rage(state: GameState, pos: ev.Position) -> None:
    r = state.rage
    if r is None:
        return
    rp = pos.rage_deck or ev.RagePosition()
    placed = {c for hand in r.hands.values() for c in hand} | set(rp.discard)
    r.pile = [c for c in r.order if c not in placed]
    r.discard = list(rp.discard)
    r.lost, r.drawn, r.lost_turn = dict(rp.lost), set(rp.drawn), state.last_turn_number
    r.revealed_turn = state.turn.number if rp.revealed and state.turn is not None else 0
    r.arrows_left, r.draws = rp.arrows_to_take, rp.draws
    r.owed_now, r.pair = list(rp.owed_now), list(rp.pair)


def _apply_boneyard(state: GameState, pos: ev.Position) -> None:
    b, bp = state.boneyard, pos.boneyard
    if b is None or not bp:
        return
    if bp.outbreak_turn is not None:
        b.removed, b.pile, b.shown = list(b.order), [], []
    else:
        b.shown = list(bp.shown)
        b.pile = [c for c in b.order if c not in bp.shown]
    b.revealed = {(r.turn, r.player) for r in bp.reveals}
    b.blocked_turn, b.triggered_turn, b.outbreak_turn, b.draws = (
        bp.blocked_turn,
        bp.triggered_turn,
        bp.outbreak_turn,
        bp.draws,
    )


# --- the rules a position must keep ----------------------------------------------------------------


def check_expansions(seats: Sequence[ev.Seat], pos: ev.Position, rules: Rules) -> None:
    """Refuse, naming the player and the rule, what the expansions' fields of ``pos`` state
    that no game of ``rules`` can reach (``setup._check_position`` checks the base game's)."""
    modules = set(rules.modules)
    by_id = {s.player: s for s in seats}

    def needs(module: ModuleId, what: str) -> None:
        if module not in modules:
            raise InvalidSetup(f"{what}, but {module} ({MODULES[module].short}) is not played")

    bp = pos.boneyard or ev.BoneyardPosition()
    outbreak = bp.outbreak_turn
    sp = pos.special_roles
    held_elims = set(sp.held_eliminations.players) if sp and sp.held_eliminations else set()
    ghosts = [pp.player for pp in pos.players if pp.ghost_since]
    if len(ghosts) > 1:
        raise InvalidSetup(f"{ghosts[0]} and {ghosts[1]} cannot both be the Ghost: there is one Ghost")
    given: dict[str, PlayerId] = {}
    wounds_out: dict[Face, int] = {}
    rage_held: dict[str, PlayerId] = {}
    for pp in pos.players:
        seat = by_id[pp.player]
        if pp.eliminated and pp.life > 0 and pp.player not in held_elims:
            raise InvalidSetup(
                f"{pp.player} has {pp.life} life: only a player at 0 life can have been eliminated"
            )
        if pp.ghost_since:
            needs(ModuleId.OS5, f"{pp.player} is the Ghost")
            if pp.life > 0:
                raise InvalidSetup(
                    f"{pp.player} is the Ghost, so he is eliminated: his life is 0, not {pp.life}"
                )
            if pp.zombie:
                raise InvalidSetup(
                    f"{pp.player} cannot be the Ghost and a zombie: the outbreak ends the Ghost"
                )
        if pp.ghost_tokens:
            needs(ModuleId.OS5, f"{pp.player} holds Ghost tokens")
            tokens = pp.ghost_tokens
            if len(tokens) > 2 or (len(tokens) == 2 and tokens[0] != tokens[1]):
                raise InvalidSetup(
                    f"{pp.player} holds one Ghost token (two of one face with the x2 token), "
                    f"not {', '.join(tokens)}"
                )
            if not ghosts:
                raise InvalidSetup(f"{pp.player} holds a Ghost token, but no player is the Ghost")
            if tokens[0] not in _GHOST_FACES:
                raise InvalidSetup(f"{pp.player}: there is no {tokens[0]} Ghost token")
            if tokens[0] in given or (len(tokens) == 2 and "x2" in given):
                raise InvalidSetup(
                    f"{pp.player} and {given.get(tokens[0]) or given['x2']} hold the same Ghost token"
                )
            given[tokens[0]] = pp.player
            if len(tokens) == 2:
                given["x2"] = pp.player
        if pp.zombie:
            needs(ModuleId.UA4, f"{pp.player} is a zombie")
            if outbreak is None:
                raise InvalidSetup(
                    f"{pp.player} is a zombie, but no outbreak has happened (boneyard.outbreak_turn)"
                )
            if pp.zombie.since != outbreak:
                raise InvalidSetup(
                    f"{pp.player} became a zombie at the outbreak, in turn {outbreak}, not {pp.zombie.since}"
                )
            if not 0 <= pp.life <= pp.zombie.max_life:
                raise InvalidSetup(
                    f"{pp.player} is a zombie of {pp.zombie.max_life} life: he cannot have {pp.life}"
                )
        if pp.zombie_master:
            needs(ModuleId.UA4, f"{pp.player} is the Zombie Master")
            if outbreak is None:
                raise InvalidSetup(f"{pp.player} is the Zombie Master, but no outbreak has happened")
            if seat.role is not Role.RENEGADE or pp.zombie:
                raise InvalidSetup(
                    f"{pp.player} cannot be the Zombie Master: only a living Renegade becomes him"
                )
        if pp.wounds:
            needs(ModuleId.UA1, f"{pp.player} holds wound tokens")
            if len(set(pp.wounds)) != len(pp.wounds):
                raise InvalidSetup(
                    f"{pp.player} holds two wound tokens of one symbol: he puts the second back"
                )
            for face in pp.wounds:
                if face not in _WOUNDS:
                    raise InvalidSetup(f"{pp.player}: there is no {face} wound token")
                wounds_out[face] = wounds_out.get(face, 0) + 1
                if wounds_out[face] > _WOUNDS[face]:
                    raise InvalidSetup(
                        f"players hold {wounds_out[face]} {face} wound tokens; there are {_WOUNDS[face]}"
                    )
            if pp.life == 0 and pp.player not in held_elims:
                raise InvalidSetup(f"{pp.player} is eliminated: his wound tokens went back into the pile")
        if pp.rage:
            needs(ModuleId.UA2, f"{pp.player} holds Rage cards")
            for card in pp.rage:
                _rage_card(card, pp.player)
                if card in rage_held:
                    raise InvalidSetup(
                        f"the Rage card {card} is held twice ({rage_held[card]} and {pp.player})"
                    )
                rage_held[card] = pp.player
            if pp.life == 0 and pp.player not in held_elims:
                raise InvalidSetup(f"{pp.player} is eliminated: his Rage cards went to the discards")
        if pp.special:
            needs(ModuleId.OS3, f"{pp.player}'s special role is revealed or used")
            if pp.special.used and not pp.special.revealed:
                raise InvalidSetup(f"{pp.player} used his special role, so it is revealed")
            if seat.special is SpecialRole.L_OURS and not pp.special.revealed:
                raise InvalidSetup(f"{pp.player} holds L'Ours, which is always face up")
    if pos.sheriff:
        needs(ModuleId.OS3, f"{pos.sheriff} became the Sheriff")
        bien = by_id.get(pos.sheriff)
        if bien is None or bien.special is not SpecialRole.LE_BIEN:
            raise InvalidSetup(f"{pos.sheriff} became the Sheriff: only Le Bien's holder does, by using it")
    if pos.special_roles:
        needs(ModuleId.OS3, "the position states special role windows")
    if pos.held_losses:
        needs(ModuleId.OS4, "the position holds a step's losses back")
    if pos.wound_tokens:
        needs(ModuleId.UA1, "the position states the duels")
    if pos.rage_deck:
        needs(ModuleId.UA2, "the position states the Rage deck")
        for card in pos.rage_deck.discard:
            _rage_card(card, None)
            if card in rage_held:
                raise InvalidSetup(f"the Rage card {card} is both held by {rage_held[card]} and discarded")
        if len(set(pos.rage_deck.discard)) != len(pos.rage_deck.discard):
            raise InvalidSetup("a Rage card is discarded twice")
    if pos.boneyard:
        needs(ModuleId.UA4, "the position states the Boneyard")
        if outbreak is not None and bp.shown:
            raise InvalidSetup("after the outbreak the Boneyard is out of the game: no card is face up")
        cards = {c for c, _ in _boneyard_cards()}
        for card in bp.shown:
            if card not in cards:
                raise InvalidSetup(f"{card} is not a Boneyard card ({', '.join(sorted(cards))})")
        if len(set(bp.shown)) != len(bp.shown):
            raise InvalidSetup("a Boneyard card is face up twice")
        if outbreak is not None and outbreak > pos.turn:
            raise InvalidSetup(f"the outbreak of turn {outbreak} is after the position's turn {pos.turn}")
    for who, what in _players_named(pos):
        _seated(by_id, who, what)
    if sp:
        for key in sp.windows_closed:
            if not _WINDOW_KEY.fullmatch(key):
                raise InvalidSetup(
                    f"{key!r} is not a window of a turn (S:<turn>, R:<turn>:<roll>, L:<turn>, E:<turn>)"
                )
        if sp.pending is not None and sp.pending.window not in _windows():
            raise InvalidSetup(
                f"{sp.pending.window!r} is not a role window ({', '.join(sorted(_windows()))})"
            )
    if pos.held_losses and pos.held_losses.step not in (*BATCH_STEPS, "indian_attack"):
        raise InvalidSetup(f"{pos.held_losses.step!r} is not a step whose losses can be held")
    if pos.held_losses and not pos.held_losses.hits:
        raise InvalidSetup("held losses hold at least one player's loss")
    if sp and sp.pending is not None and sp.pending.die is not None:
        dice = len(pos.dice) if pos.dice is not None and pos.in_turn else 0
        if not 0 <= sp.pending.die < dice:
            raise InvalidSetup(
                f"{sp.pending.player}'s power names die {sp.pending.die}, which the turn does not show"
            )
    w = pos.wound_tokens or None
    if w is not None and (w.thrower is not None or w.loser is not None) and not w.challenged:
        raise InvalidSetup("a duel under way (thrower, loser) names the player challenged")
    if pos.rage_deck and pos.rage_deck.pair:
        pair = list(pos.rage_deck.pair)
        if not any(list(pp.rage or ())[-len(pair) :] == pair for pp in pos.players):
            raise InvalidSetup(
                "Pixie Pete's pair of Rage cards are the last cards he drew: list them last in his rage"
            )
    if pos.turn_ended and pos.in_turn:
        raise InvalidSetup("a turn is either over (turn_ended) or in progress (in_turn), not both")
    if (pos.turn_ended or pos.in_turn) and pos.active_player is None:
        raise InvalidSetup("a turn in progress or just over needs its active player")
    if pos.turn_ended and pos.dice is not None:
        raise InvalidSetup("a turn that is over has no dice left to play")
    if pos.in_turn:
        _check_turn(by_id, pos, pos.in_turn, rules)
    elif pos.dice is not None and any(f is None for f in pos.dice):
        raise InvalidSetup("a die not rolled yet (null) needs the turn in progress (in_turn)")


def _check_turn(by_id: dict[PlayerId, ev.Seat], pos: ev.Position, tp: ev.TurnPosition, rules: Rules) -> None:
    for name in tp.hand:
        if name not in rules.die_kinds:
            raise InvalidSetup(f"{name!r} is not a die of this game ({', '.join(rules.die_kinds)})")
    active = next((pp for pp in pos.players if pp.player == pos.active_player), None)
    zombie = active is not None and bool(active.zombie)
    kinds = [rules.die_kinds[n] for n in tp.hand] or [rules.die_kinds["base"]] * (3 if zombie else 5)
    count = len(kinds)
    if pos.dice is not None and len(pos.dice) != count:
        raise InvalidSetup(
            f"{pos.active_player} rolls {count} dice, so the position shows {count} dice, not {len(pos.dice)}"
        )
    for n, (face, kind) in enumerate(zip(pos.dice or (), kinds, strict=False)):
        if face is not None and face not in kind.faces:
            raise InvalidSetup(f"die {n} is a {kind.name} die: it cannot show {face}")
    dice_named = [*(tp.to_roll or ()), *tp.rolled, *tp.preset, *tp.cancelled]
    dice_named += [a.die for a in (*tp.targets, *tp.second_targets)]
    for die in dice_named:
        if not 0 <= die < count:
            raise InvalidSetup(f"{pos.active_player} has dice 0 to {count - 1}: there is no die {die}")
    for a in (*tp.targets, *tp.second_targets):
        _seated(by_id, a.target, "is a target")
        if pos.dice is None or pos.dice[a.die] is None:
            raise InvalidSetup(f"die {a.die} is aimed at {a.target} but shows nothing")
    if (tp.targets or tp.steps_done) and not tp.dice_final:
        raise InvalidSetup("dice are aimed or resolved only once they are final (dice_final)")
    if tp.dice_final and (pos.dice is None or any(f is None for f in pos.dice)):
        raise InvalidSetup("final dice all show a face")
    for step in tp.steps_done:
        if step not in STEPS:
            raise InvalidSetup(f"{step!r} is not a resolving step ({', '.join(STEPS)})")
    for step in [*(a.step for a in tp.arrows_instead), *([tp.batch.step] if tp.batch else [])]:
        if step not in BATCH_STEPS:
            raise InvalidSetup(f"{step!r} is not a step that deals losses ({', '.join(BATCH_STEPS)})")
    if tp.doubled is not None and not all(0 <= d < count for d in (tp.doubled.shot_die, tp.doubled.beer_die)):
        raise InvalidSetup(f"{pos.active_player} has dice 0 to {count - 1}: a doubled shot names two of them")


BATCH_STEPS = ("dynamite", "shots", "gatling", "bullet", "duel")
"""The steps that deal losses as one batch (``state.BatchKind``)."""
_WINDOW_KEY = re.compile(r"[SRLE]:[0-9]+(:[0-9]+)?")


def _windows() -> frozenset[str]:
    from services.game.rules.dice.old_saloon.special_roles import Window

    return frozenset(w.value for w in Window)


def _players_named(pos: ev.Position) -> list[tuple[PlayerId, str]]:
    """Every player a position's fields name beyond ``players``, with what names him."""
    named: list[tuple[PlayerId | None, str]] = []
    for pp in pos.players:
        if pp.eliminated:
            named.append((pp.eliminated.by, f"eliminated {pp.player}"))
    tp = pos.in_turn or None
    if tp is not None:
        named += [(a.player, "answered for a step") for a in tp.arrows_instead]
        if tp.batch is not None:
            named += [(tp.batch.source, "is the source of a step")]
            named += [(p, "lost life in a step") for p in (*tp.batch.lost, *tp.batch.discards_answered)]
    if pos.held_losses:
        h = pos.held_losses
        named += [(h.source, "is the source of held losses")]
        named += [(p, "has a held loss") for p in (*(x.player for x in h.hits), *h.answers)]
    sp = pos.special_roles or None
    if sp is not None:
        if sp.pending is not None:
            u = sp.pending
            named += [
                (u.player, "used a role"),
                (u.target, "is a role's target"),
                (u.other, "is a role's target"),
            ]
        named += [(g.player, "has a held gain") for g in sp.held_gains]
        named += [(g.source, "gave a held gain") for g in sp.held_gains]
        named += [(sp.gains_cancelled_of, "had his gains cancelled"), (sp.extra_turn, "has an extra turn")]
        if sp.held_eliminations is not None:
            named += [(p, "awaits his elimination") for p in sp.held_eliminations.players]
            named += [(sp.held_eliminations.source, "eliminates")]
    w = pos.wound_tokens or None
    if w is not None:
        named += [(p, "owes a wound token") for p in w.owed]
        named += [(p, "was challenged") for p in w.challenged]
        named += [(w.thrower, "throws"), (w.loser, "lost a duel"), (w.winner, "won a duel")]
    r = pos.rage_deck or None
    if r is not None:
        named += [(p, "lost life this turn") for p in r.lost]
        named += [(p, "drew a Rage card") for p in (*r.drawn, *r.owed_now)]
    b = pos.boneyard or None
    if b is not None:
        named += [(x.player, "revealed a Boneyard card") for x in b.reveals]
    return [(p, what) for p, what in named if p is not None]


def _seated(by_id: dict[PlayerId, ev.Seat], player: PlayerId, what: str) -> None:
    if player not in by_id:
        raise InvalidSetup(f"{player} {what}, but has no seat")


def _rage_card(card: str, holder: PlayerId | None) -> None:
    from services.game.rules.dice.undead.rage import RAGE_1, RAGE_DECKS

    cards = [c for c, _ in RAGE_DECKS[RAGE_1]]
    if card not in cards:
        who = f"{holder} holds " if holder else ""
        raise InvalidSetup(f"{who}{card!r}, which is not a Rage card ({cards[0]} to {cards[-1]})")


def _boneyard_cards() -> tuple[tuple[str, int], ...]:
    from services.game.rules.dice.undead.zombies import BONEYARD_1, BONEYARD_DECKS

    return BONEYARD_DECKS[BONEYARD_1]


_GHOST_FACES = frozenset({Face.SHOOT1, Face.SHOOT2, Face.ARROW, Face.GATLING, Face.DYNAMITE, Face.BEER})
_WOUNDS = {Face.BEER: 3, Face.SHOOT1: 5, Face.SHOOT2: 5, Face.DYNAMITE: 2}
"""UA1's wound tokens by symbol (``duels.WOUND_TOKENS``)."""
