"""A record written from a live game replays to exactly that game: same events, same state."""

from __future__ import annotations

import random

import msgspec
import pytest

from services.game.records import (
    GameRecord,
    RecordMeta,
    RecordOptions,
    inputs_from_events,
    read_record,
    replay_record,
    write_record,
)
from services.game.rules.dice import Game, GameCommand
from tests.unit.rules.play import random_command, random_seats


def play_random(n: int, seed: int, stop_after: int | None = None) -> tuple[Game, list[GameCommand]]:
    """A game with random faces and random legal decisions, and the commands played."""
    rng = random.Random(seed)
    game = Game.start(random_seats(n, rng))
    played: list[GameCommand] = []
    while not game.is_over and (stop_after is None or len(played) < stop_after):
        command = random_command(game, rng)
        game.play(command)
        played.append(command)
    return game, played


CASES = [(3 + seed % 6, seed) for seed in range(36)]


@pytest.mark.parametrize(("players", "seed"), CASES)
def test_finished_game_round_trips(players: int, seed: int) -> None:
    live, played = play_random(players, seed)
    assert live.is_over
    assert inputs_from_events(live.events) == played

    text = write_record(live)
    replayed = replay_record(read_record(text))

    assert replayed.events == live.events
    assert replayed.state == live.state
    assert write_record(replayed) == text


@pytest.mark.parametrize("seed", range(12))
def test_ongoing_game_round_trips(seed: int) -> None:
    live, _ = play_random(4 + seed % 5, 1000 + seed, stop_after=7 + 11 * seed)
    text = write_record(live)
    replayed = replay_record(read_record(text))
    assert replayed.events == live.events
    assert replayed.state == live.state
    assert replayed.awaiting == live.awaiting


@pytest.mark.parametrize("seed", range(6))
def test_structured_inputs_round_trip(seed: int) -> None:
    live, _ = play_random(5, 2000 + seed)
    meta = RecordMeta(game_id=f"g{seed}", club="Saloon", played_at="2024-05-04", notes="friendly")
    options = RecordOptions()
    text = write_record(live, structured=True, meta=meta, options=options)
    record = read_record(text)
    assert record.meta == meta
    assert record == read_record(write_record(live, meta=meta))
    assert replay_record(record).events == live.events


def test_write_a_record_object() -> None:
    live, _ = play_random(4, 7)
    record = read_record(write_record(live))
    assert isinstance(record, GameRecord)
    meta = RecordMeta(notes="from the record")
    again = read_record(write_record(record, meta=meta))
    assert again == msgspec.structs.replace(record, meta=meta)


def test_events_from_replay_are_reported_in_order() -> None:
    live, _ = play_random(6, 11)
    seen: list[int] = []
    replayed = replay_record(read_record(write_record(live.events)), on_event=lambda n, e: seen.append(n))
    assert seen == list(range(len(replayed.events)))
