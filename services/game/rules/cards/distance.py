"""Distance and reach: seats between living players, Mustang/Paul Regret, Scope/Rose Doolan,
and weapon range. dist(A→B) = max(1, seats(A,B) + M(B) − K(A)); it is not symmetric."""

from __future__ import annotations

from services.game.rules.cards.deck import COLT_RANGE, WEAPON_RANGE, name_of
from services.game.rules.cards.state import GameState, PlayerState
from services.game.rules.cards.vocabulary import CardName, CharacterId, PlayerId


def seats_between(state: GameState, a: PlayerId, b: PlayerId) -> int:
    """The smaller of the clockwise and counter-clockwise step counts, living players only."""
    living = [p.id for p in state.players if p.alive or p.id in (a, b)]
    i, j = living.index(a), living.index(b)
    steps = (j - i) % len(living)
    return min(steps, len(living) - steps)


def mustang_bonus(p: PlayerState) -> int:
    return (p.has_in_play(CardName.MUSTANG) is not None) + (p.character is CharacterId.PAUL_REGRET)


def scope_bonus(p: PlayerState) -> int:
    return (p.has_in_play(CardName.SCOPE) is not None) + (p.character is CharacterId.ROSE_DOOLAN)


def distance(state: GameState, a: PlayerId, b: PlayerId) -> int:
    if a == b:
        return 0
    pa, pb = state.player(a), state.player(b)
    return max(1, seats_between(state, a, b) + mustang_bonus(pb) - scope_bonus(pa))


def weapon_range(p: PlayerState) -> int:
    for c in p.in_play:
        r = WEAPON_RANGE.get(name_of(c))
        if r is not None:
            return r
    return COLT_RANGE


def in_range(state: GameState, a: PlayerId, b: PlayerId) -> bool:
    """Can ``a`` shoot ``b`` with a BANG!?"""
    return a != b and distance(state, a, b) <= weapon_range(state.player(a))
