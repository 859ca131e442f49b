"""The base game's events for fixed seeds, fingerprinted: a refactor of the engine, the bots'
inputs or the online derivations (deal-1, dice-1) that changes a single event, face or seat
changes this hash.

200 heuristic-bot games at 3 to 8 players. Even games are dealt and rolled as an online game is
(the ``deal-1`` deal and ``dice-1`` faces of a fixed seed), odd games as ``bang-league simulate``
deals and rolls them (``simulation.game_seeds``). The hash is SHA-256 over, per game, the seat
order, then every event as canonical JSON (keys sorted), each followed by a newline.

If this fails, the base game changed: find out why before touching the constant. It may change
only by a deliberate, announced change of the base rules (and then every stored game would need
an audit under a new ruleset version).
"""

from __future__ import annotations

import hashlib
import random

import msgspec

from services.game.bots import HeuristicBot
from services.game.fairness.deal import deal as online_deal
from services.game.fairness.dice import SeededDice
from services.game.simulation import deal as simulation_deal
from services.game.simulation import game_seeds, play_game

GAMES = 200
FINGERPRINT = "359074fbc4b91d79bcb8d90e56c376c1f80f82d3dd70b8209679c9571ec6f25b"


def fingerprint(games: int = GAMES) -> tuple[str, int]:
    """(the hash, how many events it covers)."""
    digest = hashlib.sha256()
    events = 0
    for index in range(games):
        players = 3 + index % 6
        if index % 2 == 0:
            seed = hashlib.sha256(f"bang-league-fingerprint:{index}".encode()).digest()
            members = [f"m{k}" for k in range(1, players + 1)]
            seated, seats = online_deal(seed, members)
            rng, dice = random.Random(index), SeededDice(seed)
        else:
            rng, dice = game_seeds(20260101, index)
            seats = simulation_deal(players, rng)
            seated = [s.player for s in seats]
        digest.update(msgspec.json.encode(seated, order="sorted") + b"\n")
        game = play_game(seats, HeuristicBot(), dice, rng)
        for event in game.events:
            digest.update(msgspec.json.encode(event, order="sorted") + b"\n")
        events += len(game.events)
    return digest.hexdigest(), events


def test_the_base_game_events_for_fixed_seeds_are_unchanged() -> None:
    value, events = fingerprint()
    assert events > 10_000
    assert value == FINGERPRINT
