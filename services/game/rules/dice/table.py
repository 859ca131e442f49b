"""Seats and distance: who a shoot die can reach.

Distance counts living players only: the smaller of the two seat counts around the table.
"""

from __future__ import annotations

from services.game.rules.dice.state import GameState, PlayerState
from services.game.rules.dice.vocabulary import SHOOT1, SHOOT2, Face


def distance(state: GameState, a: PlayerState, b: PlayerState) -> int:
    living = [p.seat for p in state.players if p.alive]
    i, j = living.index(a.seat), living.index(b.seat)
    d = abs(i - j)
    return min(d, len(living) - d)


def reach(state: GameState, shooter: PlayerState, face: Face) -> frozenset[int]:
    """Distances a die used as ``face`` reaches. With 2 or 3 alive a shoot2 acts as a shoot1."""
    return reach_among(len([p for p in state.players if p.alive]), shooter, face)


def reach_among(living: int, shooter: PlayerState, face: Face) -> frozenset[int]:
    """``reach`` for a caller that already knows how many players are alive."""
    # module constants, not ``Face.SHOOT2``: an enum attribute read costs several times as much
    # on Python 3.11, and bots ask this for every die and target they weigh
    if face is SHOOT2 and living <= 3:
        face = SHOOT1
    return shooter.character.reach[face]


def next_playing_seat(state: GameState, after_seat: int) -> PlayerState:
    """The next seat clockwise that takes a turn: a living player (a zombie too, UA4), the Ghost
    (OS5), or, with UA4 before an outbreak, an eliminated player (his Boneyard turn)."""
    n = len(state.players)
    b = state.boneyard
    boneyard_turns = b is not None and b.outbreak_turn is None
    for step in range(1, n + 1):
        p = state.players[(after_seat + step) % n]
        if p.alive or p.ghost or boneyard_turns:
            return p
    raise LookupError("no living player")
