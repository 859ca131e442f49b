"""``HeuristicBot``: plays its role with simple, readable rules of thumb.

Everything it decides comes from one table, ``want`` (``wants.py``): for each other living
player, how much this player wants them hurt (> 0) or helped (< 0), worked out from what the
player may know (``PlayerView``). Targets, beers, rerolls and the characters' options all follow
from that table and from the player's own life; Old Saloon's decisions have their own answers
(``old_saloon.py``), and any other declared decision is answered by its spec's ``BotHint``.

Undead or Alive's zombies (UA4): after an outbreak ``want`` is by side (the survivors against the
zombies and their Master, ``wants.py``); a shot forced onto one's own side goes to the teammate
with most life, and a gatling is kept only when it hits more foes than teammates. A zombie gains
no life: he keeps no beer for himself and pours his beers for his hurt Master (else on himself,
wasted). Before an outbreak, once one more fall may start it (``wants.boneyard_near``), the law
and the outlaws do not finish off a player whose fall would not win them the game (it would
only feed the Boneyard and add a zombie) while they can hurt another; the renegade does.

``care`` is the probability that a decision is made this way rather than uniformly at random
(``RandomBot``), so a bot's strength is a known dial for rating experiments.
"""

from __future__ import annotations

import random

from services.game.bots.base import split_game
from services.game.bots.old_saloon import MODULE_ANSWERS, Answer, take_chief
from services.game.bots.random_bot import random_command
from services.game.bots.undead import UNDEAD_ANSWERS
from services.game.bots.view import Knowledge, PlayerView, shot_options
from services.game.bots.wants import (
    LOW_LIFE,
    STRONG_FRIEND,
    boneyard_near,
    fall_wins,
    friend_to_heal,
    heal_target,
    wants,
)
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
)
from services.game.rules.dice.decisions import BotHint, first_legal
from services.game.rules.dice.events import Event
from services.game.rules.dice.flow import shot_damage
from services.game.rules.dice.kinds import BASE_HAND
from services.game.rules.dice.vocabulary import (
    ANY_BEER_FACES,
    BEER,
    DOUBLE_FACES,
    DYNAMITE,
    GATLING,
    SHOOT1,
    SHOOT2,
)


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


# --- answers ----------------------------------------------------------------------------------


def _answer_heal(view: PlayerView, q: Awaiting, rng: random.Random) -> GameCommand:
    return ChooseTarget(player=q.player, target=heal_target(view).id)


def _answer_beer(view: PlayerView, q: Awaiting, rng: random.Random) -> GameCommand:
    return ChooseTarget(player=q.player, die=q.dice[0], target=heal_target(view).id)


def _answer_reroll(view: PlayerView, q: Awaiting, rng: random.Random) -> GameCommand:
    me = view.me
    ch = me.character
    t = view.state.turn
    assert t is not None
    dice = t.dice
    if not ch.rerolls_dynamite and dice.count(DYNAMITE) >= 2 and me.life <= LOW_LIFE:
        return StopRolling(player=q.player)  # a third dynamite would cost a life we lack
    want = wants(view)
    aims = [view.distance_to(p) for p in view.others() if want[p.id] > 0]  # players it wants hurt
    reachable: dict[Face, bool] = {}
    for face in (SHOOT1, SHOOT2):  # constants: an enum member's read is slow on Python 3.11
        reach = view.reach(face)
        reachable[face] = any(d in reach for d in aims)
    if ch.swaps_shoot_faces:
        either = reachable[SHOOT1] or reachable[SHOOT2]
        reachable = {SHOOT1: either, SHOOT2: either}
    friend = friend_to_heal(view, want)
    own = 0 if me.zombie_since is not None else me.max_life - me.life  # a zombie gains no life (UA4)
    beers_wanted = own + (0 if friend is None else friend.max_life - friend.life)
    if ch.doubles_shot_with_beer:
        beers_wanted += 1
    gatlings = dice.count(GATLING)
    doubles = t.kinds is not BASE_HAND  # a Saloon die may show two symbols (OS1)
    if doubles:
        gatlings += dice.count(Face.GATLINGX2)
    keep_gatlings = gatlings >= ch.gatling_threshold - 1 or (
        ch.removes_arrow_per_gatling_face and me.arrows > 0
    )
    if keep_gatlings and any(
        w <= STRONG_FRIEND and view.state.by_id[pid].life <= 1 for pid, w in want.items()
    ):
        keep_gatlings = False  # the gatling would finish off the player we need
    if keep_gatlings and view.state.outbreak:
        # UA4: a gatling hits every other seat in play, teammates too: worth it only when it
        # hits more of the other side than of this player's own
        foes = sum(1 for w in want.values() if w > 0)
        keep_gatlings = 2 * foes > len(want)
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
        elif doubles and face in DOUBLE_FACES:
            keep, beers_kept = _keep_double(face, reachable, keep_gatlings, beers_kept, beers_wanted)
        else:
            # arrows (already taken), bullets and broken arrows (they acted when rolled) and,
            # for Black Jack, dynamite
            keep = False
        if not keep:
            reroll.append(i)
    if not reroll:
        return StopRolling(player=q.player)
    return Reroll(player=q.player, dice=tuple(reroll))


def _keep_double(
    face: Face, reachable: dict[Face, bool], keep_gatlings: bool, beers_kept: int, beers_wanted: int
) -> tuple[bool, int]:
    """Whether to keep a double face (OS1), read as its two symbols; the beers kept after it."""
    if face is Face.SHOOT1X2:
        return reachable[Face.SHOOT1], beers_kept
    if face is Face.SHOOT2X2:
        return reachable[Face.SHOOT2], beers_kept
    if face is Face.BEERX2:
        keep = beers_kept < beers_wanted
        return keep, beers_kept + 2 * keep
    return keep_gatlings, beers_kept  # gatlingx2


def _best_shot(
    view: PlayerView, die: int, want: dict[PlayerId, float], rng: random.Random
) -> tuple[float, PlayerState, Face | None]:
    state = view.state
    boneyard = state.boneyard  # UA4 (None otherwise: the base game reads nothing more)
    outbreak = boneyard is not None and boneyard.outbreak_turn is not None
    # UA4 before the outbreak: a fall that does not win the game feeds the Boneyard (the outbreak
    # nearer, a zombie more against the survivors): near it, the law and the outlaws hurt without
    # killing when they can; the renegade, the Zombie Master to be, does not mind
    feeding = boneyard is not None and not outbreak and view.me.role is not _RENEGADE and boneyard_near(view)
    planned = shot_damage(state.turn) if feeding else None  # type: ignore[arg-type]
    best: tuple[float, PlayerState, Face | None] | None = None
    for p, as_face in shot_options(view, die):
        w = want[p.id]
        if w > 0:
            # among equals prefer the weaker target (a kill), then chance
            score = w - 0.01 * p.life + 0.001 * rng.random()
            if planned is not None and planned.get(p.id, 0) + 1 >= p.life and not fall_wins(view, p, want):
                score = _FEEDS_BONEYARD + 0.001 * score  # still better than a friend or nobody
        elif outbreak:  # a teammate hit anyway: the one with most life to spare
            score = w + 0.01 * p.life + 0.001 * rng.random()
        else:
            score = w + 0.001 * rng.random()
        if best is None or score > best[0]:
            best = (score, p, as_face)
    assert best is not None, "the engine only asks for a target when one is in reach"
    return best


_RENEGADE = Role.RENEGADE  # a constant: an enum member's read is slow on Python 3.11
_FEEDS_BONEYARD = 0.05
"""UA4 before the outbreak, near it: the score of a shot that would eliminate a player whose fall
does not win the game (just above indifference: better than a shot at a friend)."""


def _answer_shot(view: PlayerView, q: Awaiting, rng: random.Random) -> GameCommand:
    die = q.dice[0]
    want = wants(view)
    t = view.state.turn
    assert t is not None
    if die in t.targets:  # a double's second symbol (OS1): split it off a target it would overkill
        want = _after_planned_shots(view, want)
    _score, target, as_face = _best_shot(view, die, want, rng)
    return ChooseTarget(player=q.player, die=die, target=target.id, as_face=as_face)


def _after_planned_shots(view: PlayerView, want: dict[PlayerId, float]) -> dict[PlayerId, float]:
    """``want`` with the players the aimed dice already shoot dead this turn just below
    indifference: a shot wasted on them is worth less than one at anybody not a friend."""
    planned = shot_damage(view.state.turn)  # type: ignore[arg-type]
    by_id = view.state.by_id
    return {pid: -0.01 if w > 0 and planned.get(pid, 0) >= by_id[pid].life else w for pid, w in want.items()}


def _answer_double(view: PlayerView, q: Awaiting, rng: random.Random) -> GameCommand:
    me = view.me
    t = view.state.turn
    assert t is not None
    beers = [i for i in q.dice if t.dice[i] in ANY_BEER_FACES]
    shots = [i for i in q.dice if t.dice[i] not in ANY_BEER_FACES]
    if not beers or (me.life <= LOW_LIFE and me.life < me.max_life):
        return Decline(player=q.player)  # the beer is worth more as a life
    want = wants(view)
    score, die = max((_best_shot(view, i, want, rng)[0], i) for i in shots)
    if score <= 0:
        return Decline(player=q.player)
    return DoubleShot(player=q.player, shot_die=die, beer_die=beers[0])


def _answer_arrows_instead(view: PlayerView, q: Awaiting, rng: random.Random) -> GameCommand:
    me = view.me
    state = view.state
    # a loss that would eliminate: take every arrow (they are later trouble); otherwise only
    # as many as an Indian attack would still leave a life for (the Chief's Arrow counts two)
    held = me.arrows + (state.chief_holder == me.id)
    lethal = q.max_count >= me.life
    count = q.max_count if lethal else min(q.max_count, max(0, me.life - 1 - held))
    if not count:
        return Decline(player=q.player)
    if state.chief_in_pile and take_chief(view, count):
        return TakeArrowsInstead(player=q.player, count=count, chief=True)
    return TakeArrowsInstead(player=q.player, count=count)


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
    """Any declared decision with no rule here (``DecisionSpec.bot_hint``): HURT aims at the
    player most wanted hurt among the legal answers, HELP at this player or the friend to
    heal (else the least wanted hurt); otherwise the decision's timeout default, its safe
    answer. A question to the whole table is answered for ``q.player``'s seat only."""
    spec = view.state.rules.decisions[q.decision]
    hint = spec.bot_hint
    if hint is BotHint.HURT or hint is BotHint.HELP:
        want = wants(view)
        helped = heal_target(view).id if hint is BotHint.HELP else None
        sign = -1.0 if hint is BotHint.HELP else 1.0
        best: tuple[float, GameCommand] | None = None
        for command in spec.generate(view.state, q):
            target = getattr(command, "target", None)
            if target is None or command.player != q.player:
                continue
            if target == helped:
                score = 1000.0
            elif target == q.player:
                score = 500.0 if hint is BotHint.HELP else -1000.0
            else:
                score = sign * want.get(target, 0.0)
            if best is None or score > best[0]:
                best = (score, command)
        if best is not None:
            return best[1]
    default = spec.timeout(view.state, q)
    return default if default is not None else first_legal(view.state, q)


_ANSWER: dict[str, Answer] = {
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
_ANSWER.update(MODULE_ANSWERS)
_ANSWER.update(UNDEAD_ANSWERS)
