"""Setting up a card game: roles for 4–7 players (8 with two Renegades, a recorded option),
starting life, and the checks a set of seats must pass.

Dealing roles and characters is random and happens outside the engine; the deck's first shuffle
is the engine's first random input (``Decision.SHUFFLE``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from services.game.rules.cards.errors import InvalidSetup
from services.game.rules.cards.events import GameStarted, Seat
from services.game.rules.cards.vocabulary import BULLETS, CharacterId, Role

SHERIFF, DEPUTY, OUTLAW, RENEGADE = Role.SHERIFF, Role.DEPUTY, Role.OUTLAW, Role.RENEGADE

ROLES_BY_PLAYER_COUNT: dict[int, tuple[Role, ...]] = {
    4: (SHERIFF, RENEGADE, OUTLAW, OUTLAW),
    5: (SHERIFF, RENEGADE, OUTLAW, OUTLAW, DEPUTY),
    6: (SHERIFF, RENEGADE, OUTLAW, OUTLAW, OUTLAW, DEPUTY),
    7: (SHERIFF, RENEGADE, OUTLAW, OUTLAW, OUTLAW, DEPUTY, DEPUTY),
}
EIGHT_PLAYER_ROLES: tuple[Role, ...] = (SHERIFF, RENEGADE, RENEGADE, OUTLAW, OUTLAW, OUTLAW, DEPUTY, DEPUTY)
"""Dodge City's 8-role set, allowed with the base deck as a game option."""


def roles_for(player_count: int, *, eight_players: bool = False) -> tuple[Role, ...]:
    if player_count == 8 and eight_players:
        return EIGHT_PLAYER_ROLES
    if player_count == 8:
        raise InvalidSetup("8 players need the recorded option eight_players (two Renegades)")
    try:
        return ROLES_BY_PLAYER_COUNT[player_count]
    except KeyError:
        raise InvalidSetup(f"BANG! is for 4 to 7 players (8 as an option), not {player_count}") from None


def starting_life(role: Role, character: CharacterId) -> int:
    return BULLETS[character] + (role is SHERIFF)


def new_game(seats: Sequence[Seat], *, eight_players: bool = False) -> GameStarted:
    """The first event of a game with these seats (clockwise), checked against the rules."""
    n = len(seats)
    if eight_players and n != 8:
        raise InvalidSetup("the eight_players option is for 8 players")
    expected = Counter(roles_for(n, eight_players=eight_players))
    if Counter(s.role for s in seats) != expected:
        table = ", ".join(f"{count} {role}" for role, count in sorted(expected.items()))
        raise InvalidSetup(f"{n} players take exactly these roles: {table}")
    if len({s.player for s in seats}) != n:
        raise InvalidSetup("every seat needs a different player id")
    if any(s.player == "table" for s in seats):
        raise InvalidSetup("'table' is not a player id: it names the random inputs")
    if len({s.character for s in seats}) != n:
        raise InvalidSetup("every player needs a different character")
    return GameStarted(seats=tuple(seats), eight_players=eight_players)
