"""What a heuristic player wants: the ``want`` table every heuristic answer reads.

For each other living player, how much this player wants them hurt (> 0) or helped (< 0), worked
out from what the player may know (``PlayerView``): outlaws go for the Sheriff, deputies and the
Sheriff for whoever has been shooting the Sheriff (and away from whoever defends him), the
renegade props up the weaker side and keeps the Sheriff for last. Shared by the base game's
answers (``heuristic``) and the expansions' (``old_saloon``, ``undead``).

Undead or Alive's outbreak (UA4) replaces the roles by two public sides: the zombies with their
Zombie Master, and the survivors (every other seat, the law and the outlaws alike). From the
outbreak on a player wants every seat of the other side hurt (``FOE``) and every seat of his own
helped (``STRONG_FRIEND``), whatever the roles were.
"""

from __future__ import annotations

from services.game.bots.view import PlayerView
from services.game.rules.dice import PlayerId, PlayerState, Role, roles_for
from services.game.rules.dice.outcome import THREE_PLAYER_PREY

STRONG_FRIEND = -10.0
"""A ``want`` at or below this marks a player whose death loses this player the game (after a
zombie outbreak: a player of this player's own side)."""
FOE = 5.0
"""After a zombie outbreak (UA4): how much a player wants each seat of the other side hurt."""

_SHERIFF_FOR_OUTLAW = 10.0
_PREY = 10.0
_DEFENDER_WEIGHT = 0.5  # shots at the Sheriff's attackers count half against suspicion
LOW_LIFE = 3  # at or below: heal first, fear a third dynamite


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


def zombie_side(p: PlayerState) -> bool:
    """UA4, after the outbreak: whether ``p`` plays for the zombies (a zombie or the Zombie
    Master; public since ``OutbreakBegan`` names them) rather than with the survivors."""
    return p.zombie_since is not None or p.zombie_master


def _work_out_wants(view: PlayerView) -> dict[PlayerId, float]:
    me = view.me
    others = view.others()
    if view.state.outbreak:  # UA4: two sides, public; the roles no longer matter
        mine = zombie_side(me)
        return {p.id: STRONG_FRIEND if zombie_side(p) is mine else FOE for p in others}
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
    help_law = outlaws >= law or sheriff.life <= LOW_LIFE
    out: dict[PlayerId, float] = {}
    for p in others:
        if p is sheriff:
            out[p.id] = -20.0
        elif help_law:
            out[p.id] = sus.get(p.id, 0.0) + 0.5
        else:
            out[p.id] = 0.5 - sus.get(p.id, 0.0)
    return out


def boneyard_near(view: PlayerView) -> bool:
    """UA4, before the outbreak: whether one more elimination may start it at the end of this
    turn. The fallen player's reveal shows up to 2 hands and the players alive drop by one, so
    the outbreak may come once the hands showing reach the players alive less 2 (at once when
    it is already triggered)."""
    b = view.state.boneyard
    if b is None or b.outbreak_turn is not None:
        return False
    return b.triggered_turn is not None or b.hands_showing + 2 >= len(view.living)


def fall_wins(view: PlayerView, target: PlayerState, want: dict[PlayerId, float]) -> bool:
    """Before a zombie outbreak (UA4): whether ``target``'s elimination alone would win this
    player's side the game (nothing is revealed then): the Sheriff's for an outlaw, and for a
    renegade once they are the last two; for the law, the last outlaw or renegade standing,
    which is ``target`` when every other living player is known to be law, or when the law
    player takes him for it (the one it most wants hurt)."""
    role = view.me.role
    sheriff = view.sheriff
    if role is Role.OUTLAW:
        return target is sheriff
    if role is Role.RENEGADE:
        return target is sheriff and len(view.living) == 2
    if target is sheriff:
        return False
    roles = roles_for(len(view.state.players))
    enemies = roles.count(Role.OUTLAW) + roles.count(Role.RENEGADE)
    enemies -= view.known_dead(Role.OUTLAW) + view.known_dead(Role.RENEGADE)
    if enemies != 1:
        return False
    deputies = roles.count(Role.DEPUTY) - view.known_dead(Role.DEPUTY) - (role is Role.DEPUTY)
    return deputies == 0 or want.get(target.id, 0.0) >= max(want.values())


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


def friend_to_heal(view: PlayerView, want: dict[PlayerId, float]) -> PlayerState | None:
    """The hurt player this one most needs alive, if any (never a zombie: he gains no life)."""
    best: PlayerState | None = None
    for p in view.others():
        if (
            p.life < p.max_life
            and want.get(p.id, 0.0) <= -1.0
            and p.zombie_since is None
            and (best is None or (want[p.id], p.life) < (want[best.id], best.life))
        ):
            best = p
    return best


def heal_target(view: PlayerView) -> PlayerState:
    """Who this player's heal goes to: himself when low, else the friend most in need. A zombie
    (UA4) gains no life: his heals go to his Zombie Master when he is hurt, else are wasted on
    himself, never given to a survivor."""
    me = view.me
    hurt = me.life < me.max_life and me.zombie_since is None
    if hurt and me.life <= max(LOW_LIFE, me.max_life // 2):
        return me
    friend = friend_to_heal(view, wants(view))
    if friend is not None and (friend.life <= 4 or not hurt):
        return friend
    return me  # hurt or not: never a beer for someone who might be an enemy
