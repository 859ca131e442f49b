"""The heuristic bot's answers to Old Saloon's decisions (RULINGS-expansions §OS1–§OS5).

Each answer reads the same ``want`` table as the base game's answers (``wants``) and only what
the player may know, plus its own special role card (OS3). The policies, and why:

- ``saloon_die`` (OS1): the Coward die when hurt (life at ``LOW_LIFE`` or below, or at half its
  maximum) or holding two regular arrows or more (its beers heal, its broken arrow sheds an
  arrow); the Loudmouth die when healthy (two lives above ``LOW_LIFE``) with a player it wants
  hurt in reach and no friend it needs at 2 life or less (its double gatling would hit him);
  otherwise none (the Loudmouth's bullet and the Coward's weak faces cost more than they
  bring). José Delgado and Tequila Joe add their own die to five base dice, so they take it
  (José leaves his Loudmouth at 2 life or less).
- ``arrow_token`` and Bart Cassidy's ``chief`` option (OS2): the Chief's Arrow counts two in
  the Indian attack, and its holder loses nothing if he alone holds the most. Taken when,
  with it (counted two), this player would hold strictly more than anyone, with a lead of more
  than one while over two arrows remain in the pile and more than two while over five remain
  (others have time to catch up); a regular arrow otherwise.
- ``broken_arrow_target`` (OS1): this player's own arrow, else the friendliest holder's (the
  lowest ``want``; most arrows among equals): never relieve an enemy by choice.
- ``ghost_give`` (OS5): a harmful token (dynamite, arrows) to the player most wanted hurt, or a
  helpful one (beer to a hurt friend, a shot or gatling to a friend), whichever is worth more;
  the x2 token when it may (twice the effect).
- Apache Kid (OS4) seizes the Chief's Arrow when with it he would hold the most (as above), or
  to strip it from an enemy it spares; Molly Stark takes a loss in the place of a player whose
  fall loses her the game, when he is at 2 life or less and she above ``LOW_LIFE``; Elena
  Fuente gives an arrow by her decision's hint (to the player most wanted hurt).
- The special roles' windows (OS3): each is asked of the table; only this player's own unused
  card is read, and it acts only when clearly good for its side (see ``_use_role``).

A decision none of these knows is answered by its ``BotHint`` (``heuristic._answer_by_hint``).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from services.game.bots.view import PlayerView
from services.game.bots.wants import LOW_LIFE, STRONG_FRIEND, wants
from services.game.rules.dice import Awaiting, ChooseTarget, GameCommand, PlayerId, PlayerState
from services.game.rules.dice.commands import ChooseSaloonDie, Decline, SeizeChiefArrow, TakeArrow, TakeLoss
from services.game.rules.dice.old_saloon.saloon_dice import ADDS_SALOON_DIE
from services.game.rules.dice.vocabulary import Face

Answer = Callable[[PlayerView, Awaiting, random.Random], GameCommand]

LOUDMOUTH, COWARD = "loudmouth", "coward"

_HARM = {Face.DYNAMITE: 1.3, Face.ARROW: 1.0}
"""Ghost tokens that hurt their holder (a preset die is never rerolled), by how much."""
_HELP = {Face.BEER: 1.0, Face.SHOOT1: 0.5, Face.SHOOT2: 0.5, Face.GATLING: 0.4}
"""Ghost tokens that help their holder: a beer, or a shot he aims himself."""
_PRIME_TARGET = 10.0
"""A ``want`` this high: the player whose fall wins (the Sheriff, for an outlaw)."""


def _hurt(me: PlayerState) -> bool:
    return me.life <= LOW_LIFE or 2 * me.life <= me.max_life


def _answer_saloon_die(view: PlayerView, q: Awaiting, rng: random.Random) -> GameCommand:
    me = view.me
    added = ADDS_SALOON_DIE.get(me.character.id)
    if added == COWARD or (added == LOUDMOUTH and me.life > 2):
        return ChooseSaloonDie(player=q.player, die=added)
    if _hurt(me) or view.state.regular_arrows(me) >= 2:
        return ChooseSaloonDie(player=q.player, die=COWARD)
    if me.life >= LOW_LIFE + 2 and _wants_damage(view):
        return ChooseSaloonDie(player=q.player, die=LOUDMOUTH)
    return ChooseSaloonDie(player=q.player)


def _wants_damage(view: PlayerView) -> bool:
    """A player this one wants hurt is in reach, and no friend it needs is at 2 life or less."""
    want = wants(view)
    by_id = view.state.by_id
    if any(w <= STRONG_FRIEND and by_id[pid].life <= 2 for pid, w in want.items()):
        return False
    reach = view.reach(Face.SHOOT1) | view.reach(Face.SHOOT2)
    return any(want[p.id] > 0 and view.distance_to(p) in reach for p in view.others())


def take_chief(view: PlayerView, count: int = 1) -> bool:
    """Whether to take the Chief's Arrow as the first of ``count`` arrows from the pile."""
    state = view.state
    mine = view.me.arrows + count + 1  # the Chief's counts two
    others = max((p.arrows + (state.chief_holder == p.id) for p in view.others()), default=0)
    left = state.arrow_pile - count
    # the more arrows still to come, the bigger the lead it needs to stay the sole most
    margin = 2 if left > 5 else 1 if left > 2 else 0
    return mine > others + margin


def _answer_arrow_token(view: PlayerView, q: Awaiting, rng: random.Random) -> GameCommand:
    return TakeArrow(player=q.player, chief=take_chief(view))


def _answer_broken_arrow(view: PlayerView, q: Awaiting, rng: random.Random) -> GameCommand:
    state = view.state
    spec = state.rules.decisions[q.decision]
    holders = [c for c in spec.generate(state, q) if isinstance(c, ChooseTarget)]
    if any(c.target == q.player for c in holders):
        return ChooseTarget(player=q.player, target=q.player)
    want = wants(view)
    by_id = state.by_id
    return min(holders, key=lambda c: (want.get(c.target, 0.0), -by_id[c.target].arrows))


def _answer_ghost_give(view: PlayerView, q: Awaiting, rng: random.Random) -> GameCommand:
    state = view.state
    spec = state.rules.decisions[q.decision]
    want = wants(view)
    by_id = state.by_id
    best: tuple[float, GameCommand] | None = None
    for command in spec.generate(state, q):
        face: Face = command.face  # type: ignore[union-attr]
        target = by_id[command.target]  # type: ignore[union-attr]
        w = want.get(target.id, 0.0)
        if face in _HARM:
            value = _HARM[face] * w
        else:
            value = -_HELP.get(face, 0.0) * w
            if face is Face.BEER and target.life >= target.max_life:
                value *= 0.1
        value *= 2 if command.x2 else 1  # type: ignore[union-attr]
        if best is None or value > best[0]:
            best = (value, command)
    assert best is not None, "the engine asks for a gift only when one can be given"
    return best[1]


# --- OS4: the characters' options -----------------------------------------------------------------


def _answer_apache(view: PlayerView, q: Awaiting, rng: random.Random) -> GameCommand:
    """Apache Kid seizes the Chief's Arrow when with it he would hold the most (as
    ``take_chief``, its holder losing it), or to strip an enemy who alone holds the most."""
    state = view.state
    holder = state.chief_holder
    me = view.me
    worth = {p.id: p.arrows + (p.id == holder) for p in view.others()}
    if holder is not None and holder in worth:
        worth[holder] -= 2  # the Chief's leaves him, counted two
    mine = me.arrows + 2
    left = state.arrow_pile
    margin = 2 if left > 5 else 1 if left > 2 else 0
    spared_enemy = (
        holder is not None
        and holder != me.id
        and wants(view).get(holder, 0.0) > 0
        and all(n < state.by_id[holder].arrows + 1 for pid, n in _worth(view).items() if pid != holder)
    )
    if mine > max(worth.values(), default=0) + margin or spared_enemy:
        return SeizeChiefArrow(player=q.player)
    return Decline(player=q.player)


def _worth(view: PlayerView) -> dict[PlayerId, int]:
    """What each living player's arrows count in an Indian attack now (the Chief's two)."""
    holder = view.state.chief_holder
    return {p.id: p.arrows + (p.id == holder) for p in view.living}


def _answer_molly(view: PlayerView, q: Awaiting, rng: random.Random) -> GameCommand:
    """Molly Stark takes a loss in the place of a player whose fall loses her the game, when it
    could eliminate him and she has life to spare."""
    state = view.state
    spec = state.rules.decisions[q.decision]
    me = view.me
    want = wants(view)
    for c in spec.generate(state, q):
        if isinstance(c, TakeLoss):
            target = state.by_id[c.target]
            if want.get(target.id, 0.0) <= STRONG_FRIEND and target.life <= 2 and me.life > LOW_LIFE:
                return c
    return Decline(player=q.player)


# --- OS3: the special roles' windows -------------------------------------------------------------


def _answer_window(view: PlayerView, q: Awaiting, rng: random.Random) -> GameCommand:
    """A role window, asked of ``q.player``'s seat: one of its own uses when ``_use_role`` says
    so, else the window's pass (the driver passes it for the table when nobody acts)."""
    state = view.state
    spec = state.rules.decisions[q.decision]
    uses = [c for c in spec.generate(state, q) if c.player == q.player and hasattr(c, "role")]
    chosen = _use_role(view, q, uses) if uses else None
    if chosen is not None:
        return chosen
    default = spec.timeout(state, q)
    assert default is not None
    return default


def _use_role(view: PlayerView, q: Awaiting, uses: list[GameCommand]) -> GameCommand | None:
    """The use of this player's card worth playing now, if any. Each power is used when it is
    clearly good for its side, read from public facts and this player's own card only."""
    state = view.state
    me = view.me
    want = wants(view)
    by_id = state.by_id
    role = str(uses[0].role)  # type: ignore[attr-defined]
    t = state.turn
    if role == "le_bien":  # become the Sheriff: when he is about to fall and this deputy is not
        sheriff = view.sheriff
        if sheriff is not None and sheriff.life <= 2 and me.life >= sheriff.life + 3:
            return uses[0]
        return None
    if role == "le_vilain":  # swap arrows: hand this player's arrows to the enemy with fewest
        best: tuple[int, GameCommand] | None = None
        for c in uses:
            pair = {c.target, c.other}  # type: ignore[attr-defined]
            if me.id not in pair:
                continue
            (other,) = pair - {me.id}
            gain = me.arrows - by_id[other].arrows
            if want.get(other, 0.0) > 0 and gain >= 2 and (best is None or gain > best[0]):
                best = (gain, c)
        return None if best is None else best[1]
    if role == "le_doc" and t is not None:
        return _doc(view, uses, want)
    if role == "le_joueur" and t is not None:  # an enemy's strong final roll: make him reroll it
        active = by_id[t.player]
        return uses[0] if want.get(active.id, 0.0) > 0 and _strong_roll(view, active) else None
    if role == "le_juge":  # cancel a power of the other sides (the card used is revealed)
        pending = getattr(state.special, "pending", None)
        if pending is None:
            return None
        revealed = str(pending.role)
        others_side = revealed in ("le_joueur", "le_mauvais", "le_vilain", "main_droite")
        saves_enemy = revealed == "main_gauche" and want.get(pending.target, 0.0) > 0
        return uses[0] if others_side or saves_enemy else None
    if role == "le_mauvais":  # cancel the gain of the player most wanted hurt
        for c in sorted(uses, key=lambda c: -want.get(c.target, 0.0)):  # type: ignore[attr-defined]
            target = by_id[c.target]  # type: ignore[attr-defined]
            w = want.get(target.id, 0.0)
            if w >= _PRIME_TARGET or (w > 0 and target.life <= 2):
                return c
        return None
    if role == "main_gauche":  # save oneself, or a player whose fall loses this player the game
        for c in uses:
            target = c.target  # type: ignore[attr-defined]
            if target == me.id or want.get(target, 0.0) <= STRONG_FRIEND:
                return c
        return None
    if role == "main_droite":  # an extra turn when the end is near or a kill is close
        if len(view.living) <= 3 or any(w > 0 and by_id[pid].life <= 2 for pid, w in want.items()):
            return uses[0]
        return None
    return None


def _strong_roll(view: PlayerView, active: PlayerState) -> bool:
    t = view.state.turn
    assert t is not None
    dice = t.dice
    kinds = t.kinds
    symbols = [s for i, f in enumerate(dice) if f is not None for s in kinds[i].symbols[f]]
    shots = sum(1 for s in symbols if s is Face.SHOOT1 or s is Face.SHOOT2)
    gatlings = symbols.count(Face.GATLING)
    return shots >= 3 or gatlings >= active.character.gatling_threshold


def _doc(view: PlayerView, uses: list[GameCommand], want: dict[PlayerId, float]) -> GameCommand | None:
    """Le Doc: give an enemy's roll its third dynamite, or take a dynamite from a friend's (or
    this player's own) roll when it would cost a life it can hardly spare."""
    state = view.state
    t = state.turn
    assert t is not None
    active = state.by_id[t.player]
    dynamite = t.dice.count(Face.DYNAMITE)
    w = 0.0 if active is view.me else want.get(active.id, 0.0)
    by_die = {(c.die, c.face): c for c in uses}  # type: ignore[attr-defined]
    if w > 0 and dynamite == 2:
        for i, f in enumerate(t.dice):
            if f is not None and f is not Face.DYNAMITE and (i, Face.DYNAMITE) in by_die:
                return by_die[(i, Face.DYNAMITE)]
    friendly = active is view.me or w <= -1.0
    if friendly and dynamite >= 2 and active.life <= 2:
        for i, f in enumerate(t.dice):
            if f is Face.DYNAMITE and (i, Face.BEER) in by_die:
                return by_die[(i, Face.BEER)]
    return None


def _table_answers() -> dict[str, Answer]:
    windows = (
        "start_of_turn",
        "after_roll",
        "after_last_roll",
        "after_reveal",
        "before_gain",
        "before_elimination",
        "end_of_turn",
    )
    return {f"role_window_{w}": _answer_window for w in windows}


MODULE_ANSWERS: dict[str, Answer] = {
    "saloon_die": _answer_saloon_die,
    "arrow_token": _answer_arrow_token,
    "broken_arrow_target": _answer_broken_arrow,
    "ghost_give": _answer_ghost_give,
    "apache_take_chief": _answer_apache,
    "molly_take": _answer_molly,
    **_table_answers(),
}
"""Old Saloon's decisions by name (the modules' ``DecisionSpec.decision`` values)."""

__all__ = ["MODULE_ANSWERS", "Answer", "take_chief"]
