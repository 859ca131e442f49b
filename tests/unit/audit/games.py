"""Game streams built in memory exactly as the game service stores them, for audit tests."""

from __future__ import annotations

import random
from collections.abc import Callable

import msgspec

from event_store import VerificationReport
from services.game.application.lifecycle import (
    GameCreated,
    GameMode,
    PlayerJoined,
    SeatsDealt,
    SeedRevealed,
    seat_id,
)
from services.game.audit.stream import StoredEvent
from services.game.fairness.deal import deal
from services.game.fairness.dice import SeededDice, commitment
from services.game.rules.dice import (
    CharacterId,
    Decision,
    Game,
    GameCommand,
    Role,
    RollDice,
    Seat,
    parse_command,
)

SEED = bytes(range(32))


def intact(events: list[msgspec.Struct]) -> VerificationReport:
    """What ``verify_stream`` says of an untouched chain, or of one a forger recomputed."""
    return VerificationReport(streams_checked=1, events_checked=len(events))


Choose = Callable[[Game], GameCommand]


def numbered(events: list[msgspec.Struct]) -> list[StoredEvent]:
    return [StoredEvent(n, e) for n, e in enumerate(events, start=1)]


def random_choice(rng: random.Random) -> Choose:
    return lambda game: rng.choice(list(game.legal_commands()))


def online_game(
    players: int = 5, *, rng_seed: int = 1, seed: bytes = SEED, stop_after: int | None = None
) -> list[msgspec.Struct]:
    """An online game's whole stream: created, joined, dealt and rolled from ``seed``, decisions
    drawn at random; played to the end (then the seed is revealed) or for ``stop_after``
    decisions (an ongoing game)."""
    members = [f"m{i}" for i in range(1, players + 1)]
    events: list[msgspec.Struct] = [
        GameCreated(
            game_id="g1", mode=GameMode.ONLINE, player_count=players, seed_commitment=commitment(seed)
        )
    ]
    events += [PlayerJoined(member_id=m, name=m.upper()) for m in members]
    seated, seats = deal(seed, members)
    events.append(SeatsDealt(members=tuple(seated)))
    game = _play(Game.start(seats), SeededDice(seed), random_choice(random.Random(rng_seed)), stop_after)
    events += game.events
    if game.is_over:
        events.append(SeedRevealed(seed=seed.hex()))
    return events


def table_game(inputs: list[str], seats: list[Seat] | None = None) -> list[msgspec.Struct]:
    """A table game's stream: seated by its organiser, then ``inputs`` (text form) played."""
    seats = seats or TABLE_SEATS
    events: list[msgspec.Struct] = [GameCreated(game_id="t1", mode=GameMode.TABLE, player_count=len(seats))]
    events += [PlayerJoined(member_id=f"m{i}", name=f"M{i}", player=seat_id(i)) for i in range(len(seats))]
    events.append(SeatsDealt(members=tuple(f"m{i}" for i in range(len(seats)))))
    game = Game.start(seats)
    for text in inputs:
        game.play(parse_command(text))
    return events + game.events


TABLE_SEATS = [
    Seat(player=seat_id(0), role=Role.SHERIFF, character=CharacterId.PAUL_REGRET),
    Seat(player=seat_id(1), role=Role.OUTLAW, character=CharacterId.EL_GRINGO),
    Seat(player=seat_id(2), role=Role.OUTLAW, character=CharacterId.BLACK_JACK),
    Seat(player=seat_id(3), role=Role.RENEGADE, character=CharacterId.LUCKY_DUKE),
]


def _play(game: Game, dice: SeededDice, choose: Choose, stop_after: int | None) -> Game:
    decisions = 0
    while not game.is_over:
        question = game.awaiting
        assert question is not None
        if question.decision is Decision.ROLL:
            game.play(RollDice(player=question.player, faces=dice.roll(len(question.dice))))
            continue
        if stop_after is not None and decisions >= stop_after:
            break
        command = choose(game)
        game.play(command)
        decisions += 1
    return game
