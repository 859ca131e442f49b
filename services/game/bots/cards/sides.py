"""Who is whose enemy, as one seat can judge it from public information.

The evidence is who aimed hostile cards at whom (``view.Knowledge``): shooting at the Sheriff,
or at the revealed Deputies, marks an Outlaw; shooting at those who shot the Sheriff, or at the
revealed Outlaws, marks the Law; the Sheriff's own targets are suspects. The prior is the roles
still hidden among the living (``SeatView.roles_left``). A score above 0 means "shoot him".
"""

from __future__ import annotations

from services.game.bots.cards.view import SeatView, Seen
from services.game.rules.cards.vocabulary import PlayerId, Role

_PRIOR_BAR = 0.55
"""The share of enemies among the hidden roles above which the Law shoots an unknown player."""
_CAUTIOUS_BAR = 0.75
"""The Outlaws and the Renegade shoot an unknown player only on surer odds: an Outlaw keeps his
BANG!s for the Sheriff and spares his partners, the Renegade keeps out of the fight while
Outlaws live."""
_EVIDENCE = 0.8
_RETALIATION = 0.3
NEVER = -5.0
"""The score of a player one must not harm (the Sheriff, for his Deputies and a Renegade who
still needs him)."""


def anti_law(view: SeatView, p: PlayerId) -> float:
    """How much ``p``'s public acts side him against the Sheriff (negative: with him)."""
    hostile = view.knowledge.hostile
    if not hostile:
        return 0.0
    sheriff = view.sheriff_id
    score = 2.0 * hostile[(p, sheriff)] + 0.5 * hostile[(sheriff, p)]
    for q in view.players:
        if q.id == p:
            continue
        if q.role is Role.DEPUTY and not q.alive:
            score += hostile[(p, q.id)]
        elif q.role is Role.OUTLAW and not q.alive:
            score -= hostile[(p, q.id)]
        elif q.id != sheriff and hostile[(q.id, sheriff)] > 0:
            score -= 0.5 * hostile[(p, q.id)]
    return score


def outlaws_left(view: SeatView) -> int:
    return view.roles_left()[Role.OUTLAW]


def enemy_scores(view: SeatView) -> dict[PlayerId, float]:
    """Each other living player's score: above 0 an enemy to attack, the higher the surer."""
    cached = view.cache.get("enemy_scores")
    if isinstance(cached, dict):
        return cached
    # the scores change only with the viewer, the hostile acts, who is alive and the Sheriff's life
    key = (view.me.id, view.knowledge.facts, view.alive_key(), view.sheriff_life)
    known = view.knowledge.memo.get(key)
    if isinstance(known, dict):
        view.cache["enemy_scores"] = known
        return known
    me = view.me
    role = me.role
    left = view.roles_left()
    hidden = max(1, sum(left.values()))
    hostile = view.knowledge.hostile
    scores: dict[PlayerId, float] = {}
    renegade_alone = role is Role.RENEGADE and left[Role.OUTLAW] == 0
    others = view.others()
    for p in others:
        back = _RETALIATION * hostile[(p.id, me.id)]
        if renegade_alone:
            # only the Law is left: the Deputies first, the Sheriff last
            last_two = len(others) == 1
            scores[p.id] = 1.0 + back if p.role is not Role.SHERIFF or last_two else -0.5
            continue
        if p.role is Role.SHERIFF:
            scores[p.id] = 3.0 if role is Role.OUTLAW else NEVER
            continue
        evidence = _EVIDENCE * anti_law(view, p.id)
        if role is Role.OUTLAW:
            share = (left[Role.DEPUTY] + left[Role.RENEGADE]) / hidden
            scores[p.id] = share - _CAUTIOUS_BAR - evidence + back
        elif role is Role.RENEGADE and law_ahead(view):
            # keep the sides even: thin the Law (the Deputies, never the Sheriff)
            scores[p.id] = left[Role.DEPUTY] / hidden - _CAUTIOUS_BAR - evidence + back
        elif role is Role.RENEGADE:
            scores[p.id] = left[Role.OUTLAW] / hidden - _CAUTIOUS_BAR + evidence + back
        else:
            scores[p.id] = 1.0 - left[Role.DEPUTY] / hidden - _PRIOR_BAR + evidence + back
    view.cache["enemy_scores"] = view.knowledge.memo[key] = scores
    return scores


def law_ahead(view: SeatView) -> bool:
    """The Law is not in danger: the Sheriff at 3 life or more and at least as many guns on his
    side as the Outlaws have (a Renegade then keeps the balance by thinning the Law)."""
    left = view.roles_left()
    return view.sheriff_life >= 3 and 1 + left[Role.DEPUTY] >= left[Role.OUTLAW]


def protects_sheriff(view: SeatView) -> bool:
    """The Deputies, and a Renegade while Outlaws live, must not let the Sheriff die."""
    role = view.me.role
    return role is Role.DEPUTY or (role is Role.RENEGADE and outlaws_left(view) > 0)


def sheriff_fragile(view: SeatView) -> bool:
    """An area attack (Gatling, Indians!) could kill the Sheriff now."""
    sheriff: Seen = view.sheriff()
    return sheriff.alive and sheriff.id != view.me.id and sheriff.life <= 1
