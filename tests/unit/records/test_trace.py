"""Every event type has its own readable line."""

from __future__ import annotations

import random
from collections.abc import Iterable

from services.game.records import read_record, replay_record, trace_line
from services.game.rules.dice import EVENT_TYPES, Event
from services.game.rules.ruleset import ModuleId
from tests.scenarios.runner import load, scenario_files
from tests.unit.records.test_roundtrip import play_random
from tests.unit.rules.modular_play import playable_modules, random_game, random_module_set


def test_every_event_type_is_described() -> None:
    seen: dict[str, str] = {}
    games = [play_random(3 + seed % 6, 5000 + seed)[0] for seed in range(60)]
    for seed in range(12):  # and with every module the engine plays, for the modules' events
        players = 5 + seed % 4
        for game, _command in random_game(players, seed, playable_modules(players)):  # noqa: B007
            pass
        games.append(game)
    for seed in (8, 13, 18):  # OS4 with doubles: Doc Holyday's heal for three shots is rare
        for game, _command in random_game(6, seed, (ModuleId.OS1, ModuleId.OS2, ModuleId.OS4)):  # noqa: B007
            pass
        games.append(game)
    # UA1 at three players: a second duel symbol finds nobody left to challenge (DuelsUnused)
    for game, _command in random_game(3, 1, (ModuleId.UA1, ModuleId.UA2)):  # noqa: B007
        pass
    games.append(game)
    # and the scenario records, which play the rare choices on purpose (Bart takes the Chief's)
    for path in scenario_files():
        record, expect = load(path)
        if "error" not in expect:
            games.append(replay_record(read_record(record)))
    for game in games:
        _describe(game.events, seen)
    # rare events (Le Bien's swap) may be missing from these: random module sets until all are seen
    rng = random.Random(7)
    for seed in range(400):
        if set(seen) >= set(EVENT_TYPES):
            break
        players = 4 + seed % 5
        for game, _command in random_game(players, 9000 + seed, random_module_set(rng, players)):  # noqa: B007
            pass
        _describe(game.events, seen)
    # every event the engine can produce appears in these games
    assert set(seen) == set(EVENT_TYPES), set(EVENT_TYPES) - set(seen)


def _describe(events: Iterable[Event], seen: dict[str, str]) -> None:
    for event in events:
        line = trace_line(event)
        assert line and line != type(event).__name__, event
        seen.setdefault(type(event).__name__, line)
