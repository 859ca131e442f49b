"""Card records from a mid-turn position, a deck in unknown order, and a record restated from
one of its resting points (issue 21 item 6): written from any resting point and read back
identical; the schema accepts what the reader reads; faults named by their JSON path; a record
restated with the deck's order forgotten plays the same game, its cards named as they are
taken; ``bang-league rules position`` prints it."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from typer.testing import CliRunner

from bang_cli.rules import ERROR_EXIT, app
from services.game.records import MalformedRecord
from services.game.records.cards import (
    CardRecord,
    read_card_record,
    replay_card_record,
    restate_card_record,
    write_card_record,
)
from services.game.rules.cards import commands as cmd
from services.game.rules.cards import events as ev
from services.game.rules.cards.game import Game
from services.game.rules.cards.position import forget_order, position_of
from services.game.rules.cards.vocabulary import Decision, Phase
from tests.unit.game.cards.test_properties import random_game

SCHEMA = json.loads((Path(__file__).parents[3] / "docs" / "card-records.schema.json").read_text())
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
SEATS = [
    {"player": "p1", "role": "sheriff", "character": "sid_ketchum"},
    {"player": "p2", "role": "outlaw", "character": "kit_carlson"},
    {"player": "p3", "role": "renegade", "character": "jesse_jones"},
    {"player": "p4", "role": "outlaw", "character": "lucky_duke"},
]
MID_TURN = {
    "players": [
        {"player": "p1", "life": 3, "hand": [26, 38]},
        {"player": "p2", "life": 2, "hand": [44], "in_play": [75]},
        {"player": "p3", "life": 1, "hand": [27, 58]},
        {"player": "p4", "life": 0, "eliminated_by": "p1", "eliminated_turn": 5},
    ],
    "deck": "unknown",
    "discard": [61, 54],
    "active_player": "p2",
    "turn": 9,
    "phase": "play",
    "bangs_played": 1,
    "resolving": {"card": 3, "target": "p3", "responders": ["p3"]},
}
"""docs/game-records.md's example: p2's BANG! at p3, who has to answer; the deck unknown."""


def _record(position: dict[str, Any], inputs: list[str] | None = None) -> dict[str, Any]:
    return {
        "format": "bang-cards-record",
        "version": 1,
        "game_type": "cards",
        "ruleset": {"modules": []},
        "seats": SEATS,
        "position": position,
        "inputs": inputs or [],
    }


def test_the_documented_mid_turn_position_plays_on_with_each_card_named() -> None:
    data = _record(MID_TURN, ["p3 respond 27", "p2 end", "p3 draw-from deck", "table top 40", "table top 12"])
    assert not list(VALIDATOR.iter_errors(data))
    record = read_card_record(data)
    assert record.position is not None and record.position.phase is Phase.PLAY
    assert len(record.position.pool) == 80 - 9 and not record.position.deck
    game = replay_card_record(record)
    s = game.state
    assert s.active == "p3" and s.phase is Phase.PLAY and {40, 12} <= set(s.player("p3").hand)
    assert s.player("p3").life == 1  # the Missed! answered the BANG!
    # the record's own words come back: written, read again, the same
    assert read_card_record(write_card_record(record)) == record
    assert json.loads(write_card_record(record))["position"] == MID_TURN


def test_how_players_went_out_before_the_position_reaches_the_result() -> None:
    position = {
        "players": [
            {"player": "p1", "life": 3, "hand": [26]},
            {"player": "p2", "life": 0, "eliminated_by": "p1", "eliminated_turn": 5},
            {"player": "p3", "life": -1, "eliminated_by": "dynamite", "eliminated_turn": 7},
            {"player": "p4", "life": 1, "hand": [58]},
        ],
        "deck": "unknown",
        "turn": 9,
        "phase": "play",
        "bangs_played": 1,
        "resolving": {"card": 3, "target": "p4", "responders": ["p4"]},
    }
    # p4 (the last Outlaw) is hit and out; the Sheriff's reward is drawn, then the Law wins
    inputs = ["p4 pass", "table top 40", "table top 41", "table top 42"]
    game = replay_card_record(read_card_record(_record(position, inputs)))
    assert game.result is not None and game.result.winner == "law"
    out = {r.player: (r.eliminated_by, r.eliminated_turn) for r in game.result.results if not r.alive}
    assert out == {"p2": ("p1", 5), "p3": ("dynamite", 7), "p4": ("p1", 9)}


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (
            {"deck": "shuffled"},
            "`$.position.deck` is the deck's top card ids, top first, or 'unknown', got 'shuffled'",
        ),
        ({"deck_rest": "id_order"}, "`$.position.deck` 'unknown' leaves the whole deck's order unknown"),
        (
            {"players": [{"player": "p4", "life": 0, "eliminated_by": "nobody"}]},
            "`$.position.players[0].eliminated_by` is a seated player, 'dynamite' or 'self', got 'nobody'",
        ),
        ({"phase": "lunch"}, "`$.position.phase`"),
        (
            {"resolving": {"card": 3, "target": "p3", "responders": ["p1"]}},
            "setup: bang:2D (card 3) could not be awaiting p1",
        ),
        ({"kit": [80]}, "setup: only Kit Carlson, at the beginning of his phase 1"),
        ({"general_store": [3]}, "record: `$.position` places card 3 (bang:2D) twice"),
        ({"players": [{"player": "p1", "life": -3}]}, "`$.position.players[0].life`"),
    ],
)
def test_a_position_is_refused_naming_where_and_why(change: dict[str, Any], words: str) -> None:
    with pytest.raises(MalformedRecord) as refused:
        read_card_record(_record({**MID_TURN, **change}))
    assert words in str(refused.value)


def test_positions_written_at_random_resting_points_read_back_identical_and_fit_the_schema() -> None:
    rng = random.Random(21)
    written = 0
    for seed in range(8):
        n = 4 + seed % 5
        log: list[cmd.Command] = []
        game, _ = random_game(900 + seed, n, log, unknown_order=seed % 2 == 1)
        started = game.events[0]
        assert isinstance(started, ev.GameStarted)
        g = Game.start(list(started.seats), eight_players=n == 8)
        for command in log:
            g.play(command)
            if g.is_over or not g.state.active or rng.random() > 0.1:
                continue
            position = position_of(g.state)
            for p in (position, forget_order(position), forget_order(position, keep=1)):
                record = CardRecord(seats=started.seats, eight_players=n == 8, position=p)
                text = write_card_record(record)
                assert read_card_record(text).position == p
                if written % 6 == 0:  # the schema's validator is slow: a sample of them
                    assert not list(VALIDATOR.iter_errors(json.loads(text))), text
                written += 1
    assert written > 150


def test_a_record_restated_with_the_deck_unknown_plays_the_same_game() -> None:
    for seed in range(4):
        n = 4 + seed
        log: list[cmd.Command] = []
        game, _ = random_game(40 + seed, n, log)
        started = game.events[0]
        assert isinstance(started, ev.GameStarted)
        shuffle = log[0]
        assert isinstance(shuffle, cmd.ShuffleDeck)
        record = CardRecord(
            seats=started.seats, eight_players=n == 8, deck=shuffle.order, inputs=tuple(log[1:])
        )
        at = len(record.inputs) // 2
        restated = restate_card_record(record, at, unknown_deck=True)
        assert restated.deck is None and restated.position is not None and restated.position.pool
        named = [c for c in restated.inputs if isinstance(c, cmd.NameTopCard)]
        assert named and len(restated.inputs) == len(record.inputs) - at + len(named)
        again = replay_card_record(read_card_record(write_card_record(restated)))
        original = replay_card_record(record)
        assert again.result == original.result
        assert [e for e in again.events[1:] if not isinstance(e, ev.TopCardNamed)] == original.events[
            len(original.events) - len(again.events[1:]) + len(named) :
        ]


def test_a_record_is_restated_only_from_a_resting_point_of_a_turn() -> None:
    record = read_card_record(_record(MID_TURN, ["p3 respond 27"]))
    with pytest.raises(MalformedRecord, match="it has 1 inputs; a position after 2 is not in it"):
        restate_card_record(record, 2)


def test_rules_position_prints_the_record_restated(tmp_path: Path) -> None:
    file = tmp_path / "game.json"
    file.write_text(
        json.dumps(_record(MID_TURN, ["p3 respond 27", "p2 end", "p3 draw-from deck", "table top 40"]))
    )
    result = CliRunner().invoke(app, ["position", str(file), "--at", "2"])
    assert result.exit_code == 0, result.output
    restated = json.loads(result.output)
    assert restated["position"]["active_player"] == "p3" and restated["position"]["phase"] == "draw"
    assert restated["inputs"] == ["p3 draw-from deck", "table top 40"]
    assert read_card_record(restated).position is not None
    refused = CliRunner().invoke(app, ["position", str(file), "--at", "9"])
    assert refused.exit_code == ERROR_EXIT and "a position after 9 is not in it" in refused.output


def test_the_question_after_a_restated_position_is_the_tables_next_card() -> None:
    record = read_card_record(_record(MID_TURN, ["p3 respond 27", "p2 end", "p3 draw-from deck"]))
    game = replay_card_record(record)
    q = game.awaiting
    assert q is not None and q.decision is Decision.TOP_CARD and q.from_player == "p3"
