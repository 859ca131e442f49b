"""``HeuristicBot``: plays its role with simple, readable rules of thumb.

Everything it decides comes from one table, ``want``: for each other living player, how much
this player wants them hurt (> 0) or helped (< 0), worked out from what the player may know
(``PlayerView``): outlaws go for the Sheriff, deputies and the Sheriff for whoever has been
shooting the Sheriff (and away from whoever defends him), the renegade props up the weaker side
and keeps the Sheriff for last. Targets, beers, rerolls and the characters' options all follow
from that table and from the player's own life.

``care`` is the probability that a decision is made this way rather than uniformly at random
(``RandomBot``), so a bot's strength is a known dial for rating experiments.
"""

from __future__ import annotations

import random

from services.game.bots.base import split_game
from services.game.bots.random_bot import random_command
from services.game.bots.view import Knowledge, PlayerView, shot_options
from services.game.rules.dice import (
    Awaiting,
    ChooseTarget,
    Decision,
    Decline,
    DiscardArrows,
    DoubleShot,
    Face,
    Game,
    GameCommand,
    GameState,
    PlayerId,
    PlayerState,
    RemoveArrows,
    Reroll,
    Role,
    StopRolling,
    TakeArrowsInstead,
    roles_for,
)
from services.game.rules.dice.decisions import BotHint, first_legal
from services.game.rules.dice.events import Event
from services.game.rules.dice.outcome import THREE_PLAYER_PREY
from services.game.rules.dice.vocabulary import BEER, GATLING, SHOOT1, SHOOT2

STRONG_FRIEND = -10.0
"""A ``want`` at or below this marks a player whose death loses this player the game."""

_SHERIFF_FOR_OUTLAW = 10.0
_PREY = 10.0
_DEFENDER_WEIGHT = 0.5  # shots at the Sheriff's attackers count half against suspicion
_LOW_LIFE = 3  # at or below: heal first, fear a third dynamite


class HeuristicBot:
    __slots__ = ("_knowledge", "care")

    def __init__(self, care: float = 1.0) -> None:
        if not 0.0 <= care <= 1.0:
            raise ValueError(f"care is a probability, not {care}")
        self.care = care
        self._knowledge = Knowledge()

    def __repr__(self) -> str:
        return f"HeuristicBot(care={self.care})"

    def choose(self, game: Game | GameState, question: Awaiting, rng: random.Random) -> GameCommand:
        state, events = split_game(game)
        if self.care < 1.0 and rng.random() >= self.care:
            return random_command(state, question, rng)
        view = PlayerView(state, question.player, self._knowledge_of(events))
        answer = _ANSWER.get(question.decision)
        if answer is None:  # a decision with no rule of its own here: its spec's hint
            return _answer_by_hint(view, question, rng)
        return answer(view, question, rng)

    def _knowledge_of(self, events: list[Event] | None) -> Knowledge:
        # one bot object may sit in several seats, or move on to another game: the public
        # history is the same for every seat, so it is kept per events list
        if self._knowledge.events is not events:
            self._knowledge = Knowledge(events)
        return self._knowledge.catch_up()


# --- what this player wants ---------------------------------------------------------------------


def wants(view: PlayerView) -> dict[PlayerId, float]:
    """Other living player → how much this player wants them hurt (> 0) or helped (< 0).

    Asked at almost every decision and unchanged most of a turn: kept until what it reads changes
    (``PlayerView.cached_wants``). The table is shared: do not modify it."""
    cached = view.cached_wants()
    if cached is not None:
        return cached
    table = _work_out_wants(view)
    view.cache_wants(table)
    return table


def _work_out_wants(view: PlayerView) -> dict[PlayerId, float]:
    me = view.me
    others = view.others()
    if view.three_player:
        prey = THREE_PLAYER_PREY[me.role]
        # the prey's fall wins outright; the other one only has to go eventually
        return {p.id: _PREY if view.role_of(p) is prey else 2.0 for p in others}
    sheriff = view.sheriff
    assert sheriff is not None
    sus = suspicion(view)
    role = me.role
    if role is Role.SHERIFF:
        return {p.id: sus.get(p.id, 0.0) for p in others}
    if role is Role.DEPUTY:
        return {p.id: -100.0 if p is sheriff else sus.get(p.id, 0.0) + 0.5 for p in others}
    if role is Role.OUTLAW:
        return {p.id: _SHERIFF_FOR_OUTLAW if p is sheriff else -sus.get(p.id, 0.0) for p in others}
    # renegade: the Sheriff must be the last to fall, and only by the renegade's hand
    if len(view.living) == 2:
        return {p.id: 10.0 for p in others}
    roles = roles_for(len(view.state.players))
    outlaws = roles.count(Role.OUTLAW) - view.known_dead(Role.OUTLAW)
    law = 1 + roles.count(Role.DEPUTY) - view.known_dead(Role.DEPUTY)
    help_law = outlaws >= law or sheriff.life <= _LOW_LIFE
    out: dict[PlayerId, float] = {}
    for p in others:
        if p is sheriff:
            out[p.id] = -20.0
        elif help_law:
            out[p.id] = sus.get(p.id, 0.0) + 0.5
        else:
            out[p.id] = 0.5 - sus.get(p.id, 0.0)
    return out


def suspicion(view: PlayerView) -> dict[PlayerId, float]:
    """How much each player has acted against the Sheriff: life taken from him by shots, less
    beers given him, less half the shots at his attackers (or at revealed outlaws)."""
    cached = view.cached_suspicion()
    if cached is not None:
        return cached
    sheriff = view.sheriff
    assert sheriff is not None
    sid = sheriff.id
    knowledge = view.knowledge
    attack: dict[PlayerId, float] = {}
    for (src, dst), n in knowledge.shot.items():
        if dst == sid:
            attack[src] = attack.get(src, 0.0) + n
    for (src, dst), n in knowledge.healed.items():
        if dst == sid:
            attack[src] = attack.get(src, 0.0) - n
    sus = dict(attack)
    by_id = view.state.by_id
    for (src, dst), n in knowledge.shot.items():
        if dst == sid or src == sid:
            continue
        victim = by_id[dst]
        revealed = None if victim.alive else view.role_of(victim)
        if revealed is Role.OUTLAW:
            sign = 1.0
        elif revealed is Role.DEPUTY:
            sign = -1.0
        else:
            a = attack.get(dst, 0.0)
            sign = (a > 0) - (a < 0)
        if sign:
            sus[src] = sus.get(src, 0.0) - _DEFENDER_WEIGHT * sign * n
    view.cache_suspicion(sus)
    return sus


def _friend_to_heal(view: PlayerView, want: dict[PlayerId, float]) -> PlayerState | None:
    """The hurt player this one most needs alive, if any."""
    best: PlayerState | None = None
    for p in view.others():
        if (
            p.life < p.max_life
            and want.get(p.id, 0.0) <= -1.0
            and (best is None or (want[p.id], p.life) < (want[best.id], best.life))
        ):
            best = p
    return best


# --- answers ----------------------------------------------------------------------------------


def _heal_target(view: PlayerView) -> PlayerState:
    me = view.me
    hurt = me.life < me.max_life
    if hurt and me.life <= max(_LOW_LIFE, me.max_life // 2):
        return me
    friend = _friend_to_heal(view, wants(view))
    if friend is not None and (friend.life <= 4 or not hurt):
        return friend
    return me  # hurt or not: never a beer for someone who might be an enemy


def _answer_heal(view: PlayerView, q: Awaiting, rng: random.Random) -> GameCommand:
    return ChooseTarget(player=q.player, target=_heal_target(view).id)


def _answer_beer(view: PlayerView, q: Awaiting, rng: random.Random) -> GameCommand:
    return ChooseTarget(player=q.player, die=q.dice[0], target=_heal_target(view).id)


def _answer_reroll(view: PlayerView, q: Awaiting, rng: random.Random) -> GameCommand:
    me = view.me
    ch = me.character
    t = view.state.turn
    assert t is not None
    dice = t.dice
    if not ch.rerolls_dynamite and dice.count(Face.DYNAMITE) >= 2 and me.life <= _LOW_LIFE:
        return StopRolling(player=q.player)  # a third dynamite would cost a life we lack
    want = wants(view)
    aims = [view.distance_to(p) for p in view.others() if want[p.id] > 0]  # players it wants hurt
    reachable: dict[Face, bool] = {}
    for face in (Face.SHOOT1, Face.SHOOT2):
        reach = view.reach(face)
        reachable[face] = any(d in reach for d in aims)
    if ch.swaps_shoot_faces:
        either = reachable[Face.SHOOT1] or reachable[Face.SHOOT2]
        reachable = {Face.SHOOT1: either, Face.SHOOT2: either}
    friend = _friend_to_heal(view, want)
    beers_wanted = me.max_life - me.life + (0 if friend is None else friend.max_life - friend.life)
    if ch.doubles_shot_with_beer:
        beers_wanted += 1
    gatlings = dice.count(Face.GATLING)
    keep_gatlings = gatlings >= ch.gatling_threshold - 1 or (
        ch.removes_arrow_per_gatling_face and me.arrows > 0
    )
    if keep_gatlings and any(
        w <= STRONG_FRIEND and view.state.by_id[pid].life <= 1 for pid, w in want.items()
    ):
        keep_gatlings = False  # the gatling would finish off the player we need
    reroll: list[int] = []
    beers_kept = 0
    for i in q.dice:
        face = dice[i]
        if face is SHOOT1 or face is SHOOT2:
            keep = reachable[face]
        elif face is BEER:
            keep = beers_kept < beers_wanted
            beers_kept += keep
        elif face is GATLING:
            keep = keep_gatlings
        else:
            keep = False  # arrows (already taken) and, for Black Jack, dynamite
        if not keep:
            reroll.append(i)
    if not reroll:
        return StopRolling(player=q.player)
    return Reroll(player=q.player, dice=tuple(reroll))


def _best_shot(
    view: PlayerView, die: int, want: dict[PlayerId, float], rng: random.Random
) -> tuple[float, PlayerState, Face | None]:
    best: tuple[float, PlayerState, Face | None] | None = None
    for p, as_face in shot_options(view, die):
        w = want[p.id]
        # among equals prefer the weaker target (a kill), then chance
        score = w - 0.01 * p.life + 0.001 * rng.random() if w > 0 else w + 0.001 * rng.random()
        if best is None or score > best[0]:
            best = (score, p, as_face)
    assert best is not None, "the engine only asks for a target when one is in reach"
    return best


def _answer_shot(view: PlayerView, q: Awaiting, rng: random.Random) -> GameCommand:
    die = q.dice[0]
    _score, target, as_face = _best_shot(view, die, wants(view), rng)
    return ChooseTarget(player=q.player, die=die, target=target.id, as_face=as_face)


def _answer_double(view: PlayerView, q: Awaiting, rng: random.Random) -> GameCommand:
    me = view.me
    t = view.state.turn
    assert t is not None
    beers = [i for i in q.dice if t.dice[i] is Face.BEER]
    shots = [i for i in q.dice if t.dice[i] is not Face.BEER]
    if not beers or (me.life <= _LOW_LIFE and me.life < me.max_life):
        return Decline(player=q.player)  # the beer is worth more as a life
    want = wants(view)
    score, die = max((_best_shot(view, i, want, rng)[0], i) for i in shots)
    if score <= 0:
        return Decline(player=q.player)
    return DoubleShot(player=q.player, shot_die=die, beer_die=beers[0])


def _answer_arrows_instead(view: PlayerView, q: Awaiting, rng: random.Random) -> GameCommand:
    me = view.me
    # a loss that would eliminate: take every arrow (they are later trouble); otherwise only
    # as many as an Indian attack would still leave a life for
    lethal = q.max_count >= me.life
    count = q.max_count if lethal else min(q.max_count, max(0, me.life - 1 - me.arrows))
    return TakeArrowsInstead(player=q.player, count=count) if count else Decline(player=q.player)


def _answer_discard(view: PlayerView, q: Awaiting, rng: random.Random) -> GameCommand:
    return DiscardArrows(player=q.player, count=q.max_count)


def _answer_remove(view: PlayerView, q: Awaiting, rng: random.Random) -> GameCommand:
    me = view.me
    want = wants(view)
    friends = sorted(
        (p for p in view.others() if p.arrows and want.get(p.id, 0.0) <= -1.0), key=lambda p: want[p.id]
    )
    chosen: list[PlayerId] = []
    for p in (me, *friends):
        take = min(p.arrows, q.max_count - len(chosen))
        chosen.extend([p.id] * take)
    if not chosen:
        return Decline(player=q.player)  # only others' arrows left: let them face the Indians
    return RemoveArrows(player=q.player, from_players=tuple(chosen))


def _answer_roll(view: PlayerView, q: Awaiting, rng: random.Random) -> GameCommand:
    raise ValueError("bots do not roll: dice come from a DiceSource")


def _answer_by_hint(view: PlayerView, q: Awaiting, rng: random.Random) -> GameCommand:
    """Any declared decision (``DecisionSpec.bot_hint``): aim at the player most wanted hurt or
    at the one to heal; otherwise the decision's safe default."""
    spec = view.state.rules.decisions[q.decision]
    hint = spec.bot_hint
    if hint is BotHint.HURT or hint is BotHint.HELP:
        want = wants(view)
        helped = _heal_target(view).id if hint is BotHint.HELP else None
        best: tuple[float, GameCommand] | None = None
        for command in spec.generate(view.state, q):
            target = getattr(command, "target", None)
            if target is None:
                continue
            score = (1.0 if target == helped else 0.0) if helped is not None else want.get(target, 0.0)
            if best is None or score > best[0]:
                best = (score, command)
        if best is not None:
            return best[1]
    return first_legal(view.state, q)


_ANSWER = {
    Decision.TURN_START_HEAL: _answer_heal,
    Decision.ROLL: _answer_roll,
    Decision.REROLL_OR_STOP: _answer_reroll,
    Decision.DOUBLE_SHOT: _answer_double,
    Decision.SHOT_TARGET: _answer_shot,
    Decision.ARROWS_INSTEAD: _answer_arrows_instead,
    Decision.DISCARD_ARROWS: _answer_discard,
    Decision.BEER_TARGET: _answer_beer,
    Decision.REMOVE_ARROWS: _answer_remove,
}
