"""A long table game (8 players, ~770 events) for the tests that need a game worth replaying."""

from __future__ import annotations

import random

from litestar import Litestar

from services.game.application.lifecycle import seat_id
from services.game.records import GameRecord, record_from_events
from services.game.rules.dice import Decision, Game, Role, RollDice, Seat
from services.game.rules.dice.characters import CHARACTERS
from services.game.rules.dice.kinds import BASE
from tests.integration.api.conftest import resources_of

ROLES = (
    Role.SHERIFF, Role.RENEGADE, Role.OUTLAW, Role.OUTLAW,
    Role.DEPUTY, Role.OUTLAW, Role.DEPUTY, Role.RENEGADE,
)  # fmt: skip
LONG_SEED = 885
"""Random dice and choices from this seed give one of the longest games of 1,000 seeds."""


def long_record(seed: int = LONG_SEED) -> GameRecord:
    rng = random.Random(seed)
    characters = rng.sample(list(CHARACTERS), len(ROLES))
    seats = zip(ROLES, characters, strict=True)
    game = Game.start([Seat(player=seat_id(i), role=r, character=c) for i, (r, c) in enumerate(seats)])
    while (question := game.awaiting) is not None:
        if question.decision is Decision.ROLL:
            faces = tuple(rng.choice(list(BASE.faces)) for _ in question.dice)
            game.play(RollDice(player=question.player, faces=faces))
        else:
            game.play(rng.choice(list(game.legal_commands())))
    return record_from_events(game.events)


async def import_long_game(app: Litestar, organiser_token: str, game_id: str) -> int:
    """Imports the long game as ``game_id``; returns its number of stored events."""
    gateway = resources_of(app).gateway
    principal = await gateway.authenticate(f"Bearer {organiser_token}")
    imported = await gateway.import_record(principal, long_record(), None, f"import-{game_id}", game_id)
    return imported.version
