"""Card-game records (``bang-cards-record``): written from any game, read back, replayed to the
very same events; refused naming the fault; the schema and the reader agree; every event has a
trace line; ``rules run`` reads them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import msgspec
import pytest
from typer.testing import CliRunner

from bang_cli.rules import ERROR_EXIT, app
from services.game.records import IllegalInput, MalformedRecord, RecordError, read_record
from services.game.records.cards import (
    CardRecord,
    card_record_to_object,
    card_trace_line,
    read_card_record,
    replay_card_record,
    summarize_cards,
    write_card_record,
)
from services.game.records.dispatch import read_any_record, replay_any_record, summarize_any, write_any_record
from services.game.rules.cards import EVENT_TYPES, Game
from tests.scenarios.cards.runner import CARD_SCENARIOS, card_scenario_files, load
from tests.unit.game.cards.test_properties import random_game

SCHEMA = json.loads((Path(__file__).parents[3] / "docs" / "card-records.schema.json").read_text())
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


def _valid(obj: Any) -> bool:
    return not list(VALIDATOR.iter_errors(obj))


@pytest.fixture(scope="module")
def games() -> list[Game]:
    """Random legal games at 4 to 8 players, half of them table games with decks in unknown order."""
    return [random_game(500 + seed, 4 + seed % 5, unknown_order=seed % 2 == 1)[0] for seed in range(6)]


def test_a_written_game_replays_to_the_same_events_and_writes_the_same_text(games: list[Game]) -> None:
    for game in games:
        text = write_card_record(game)
        record = read_card_record(text)
        again = replay_card_record(record)
        assert again.events == game.events
        assert write_card_record(again) == text
        structured = write_card_record(game, structured=True)
        assert replay_card_record(read_card_record(structured)).events == game.events
        assert _valid(json.loads(text)) and _valid(json.loads(structured))


def test_a_table_game_records_its_unknown_deck_and_each_card_named(games: list[Game]) -> None:
    obj = json.loads(write_card_record(games[1]))
    assert obj["deck"] == "unknown"
    assert any(i.startswith("table top ") for i in obj["inputs"])
    known = json.loads(write_card_record(games[0]))["deck"]
    assert sorted(known) == list(range(1, 81))


def test_an_unfinished_game_is_a_record_too(games: list[Game]) -> None:
    """A table game entered so far writes and reads back as it stands."""
    record = read_card_record(write_card_record(games[2]))
    for cut in (0, 3, len(record.inputs) // 3, len(record.inputs) // 2):
        partial = msgspec.structs.replace(record, inputs=record.inputs[:cut])
        game = replay_card_record(partial)
        assert not game.is_over
        assert read_card_record(write_card_record(game)) == partial


def test_a_position_is_written_with_its_deck_tail_implied() -> None:
    path = CARD_SCENARIOS / "cards" / "stagecoach_draws_two.yaml"
    data, _ = load(path)
    record = read_card_record(data)
    assert record.position is not None and len(record.position.deck) == 79  # all but the hand's card
    written = json.loads(write_card_record(replay_card_record(record)))
    assert written["position"]["deck"] == [1, 2, 38, 39]
    assert "active_player" not in written["position"]  # the Sheriff's, the default
    assert read_card_record(written) == record


def test_an_illegal_input_names_its_index_and_keeps_the_game_before_it() -> None:
    data, _ = load(CARD_SCENARIOS / "cards" / "bang_one_per_turn.yaml")
    with pytest.raises(IllegalInput) as refused:
        replay_card_record(read_card_record(data))
    e = refused.value
    assert e.index == 1 and str(e).startswith("input 1 ('p1 play 4 p4'): one BANG! per turn")
    assert isinstance(e.game, Game) and e.game.state.player("p4").life == 4


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": "bang-dice-record"}, "record: `$.format` must be 'bang-cards-record'"),
        ({"version": 2}, "record: format version 2 is not supported (this reader reads 1)"),
        ({"ruleset": {"modules": ["OS1"]}}, "record: `$.ruleset.modules`: the card game has no modules"),
        ({"ruleset": {"modules": [], "data": {"deck": "deck-0"}}}, "'deck' has no version 'deck-0'"),
        ({"seats": [{"player": "p 1", "role": "sheriff", "character": "sid_ketchum"}]}, "player id 'p 1'"),
        ({"inputs": ["p1 fly"]}, "input 0 ('p1 fly'): unknown command or wrong number of words"),
        ({"inputs": [{"type": "PlayCard", "player": "p1", "card": 99}]}, "input 0 ('p1 play 99'): 99 is not"),
        ({"options": {"deck": "table", "fairness": {"shuffles": "shuffles-1"}}}, "only for a seeded deck"),
        ({"meta": {"played_at": "yesterday"}}, "`$.meta.played_at` 'yesterday' is not an ISO 8601"),
    ],
)
def test_a_malformed_record_is_refused_naming_the_fault(change: dict[str, Any], message: str) -> None:
    data, _ = load(CARD_SCENARIOS / "cards" / "bang_hits_a_player_in_range.yaml")
    data = {**data, **change}
    with pytest.raises(MalformedRecord) as refused:
        read_card_record(data)
    assert message in str(refused.value), str(refused.value)
    assert not _valid(json.loads(json.dumps(data))), "the schema accepts what the reader refuses"


def test_either_format_is_read_by_the_dispatcher_and_each_reader_refuses_the_other() -> None:
    cards, _ = load(CARD_SCENARIOS / "cards" / "bang_hits_a_player_in_range.yaml")
    assert isinstance(read_any_record(cards), CardRecord)
    dice = {
        "format": "bang-dice-record",
        "version": 1,
        "seats": [
            {"player": "p1", "role": "sheriff", "character": "paul_regret"},
            {"player": "p2", "role": "renegade", "character": "willy_the_kid"},
            {"player": "p3", "role": "outlaw", "character": "black_jack"},
            {"player": "p4", "role": "outlaw", "character": "lucky_duke"},
        ],
    }
    game = replay_any_record(read_any_record(dice))
    assert summarize_any(game)["arrow_pile"] == 9
    assert read_any_record(write_any_record(game)) == read_any_record(dice)
    record = read_any_record(cards)
    card_game = replay_any_record(record)
    assert summarize_any(card_game)["players"][1]["life"] == 3
    assert read_any_record(write_any_record(card_game, record)) == record
    with pytest.raises(MalformedRecord, match="must be 'bang-dice-record'"):
        read_record(cards)
    with pytest.raises(MalformedRecord, match="must be 'bang-cards-record'"):
        read_card_record(dice)
    with pytest.raises(MalformedRecord, match="must be one of"):
        read_any_record({**dice, "format": "pgn"})


def test_the_schema_is_valid_and_agrees_with_the_reader_on_every_card_scenario() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    for path in card_scenario_files():
        data, _ = load(path)
        data = json.loads(json.dumps(data))
        try:
            read_card_record(data)
        except RecordError as e:
            # the rules' own limits (life, cards placed twice, roles) are the reader's, not the schema's
            if not str(e).startswith(("setup:", "record: `$.position` places", "record: `$.deck` names")):
                assert not _valid(data), f"{path.name}: the reader refuses ({e}) what the schema accepts"
            continue
        errors = [f"{list(err.absolute_path)}: {err.message}" for err in VALIDATOR.iter_errors(data)]
        assert not errors, f"{path.name}: {errors}"


def test_every_event_type_has_its_own_trace_line(games: list[Game]) -> None:
    seen: dict[str, str] = {}
    replayed = [*games]
    for path in card_scenario_files():
        data, expect = load(path)
        if "error" not in expect:
            replayed.append(replay_card_record(read_card_record(data)))
    for game in replayed:
        for event in game.events:
            line = card_trace_line(event)
            assert line and line != type(event).__name__, event
            seen.setdefault(type(event).__name__, line)
    assert set(seen) == {t.__name__ for t in EVENT_TYPES}, {t.__name__ for t in EVENT_TYPES} - set(seen)


def test_the_summary_shows_a_role_only_where_the_rules_make_it_public() -> None:
    data, _ = load(CARD_SCENARIOS / "characters" / "vulture_sam_takes_the_eliminated_players_cards.yaml")
    state = summarize_cards(replay_card_record(read_card_record(data)))
    roles = {p["id"]: p["role"] for p in state["players"]}
    assert roles == {"p1": "sheriff", "p2": None, "p3": None, "p4": "outlaw"}
    assert state["awaiting"] == {"player": "p1", "decision": "play"}


runner = CliRunner()


def test_rules_run_prints_a_card_games_state(tmp_path: Path) -> None:
    data, _ = load(CARD_SCENARIOS / "rulings" / "resolution_renegade_wins_by_gatling.yaml")
    path = tmp_path / "game.json"
    path.write_text(json.dumps(card_record_to_object(read_card_record(data))))
    result = runner.invoke(app, ["run", str(path), "--json"])
    assert result.exit_code == 0, result.output
    state = json.loads(result.stdout)
    assert state["status"] == "ended" and state["winning_side"] == "renegade" and state["winners"] == ["p2"]
    p2 = next(p for p in state["players"] if p["id"] == "p2")
    assert p2 == {
        "id": "p2",
        "character": "black_jack",
        "role": "renegade",
        "life": 4,
        "max_life": 4,
        "alive": True,
        "hand": p2["hand"],
        "in_play": [],
        "won": True,
        "eliminated_by": None,
        "eliminated_turn": None,
    }
    table = runner.invoke(app, ["run", str(path), "--trace"])
    assert table.exit_code == 0 and "p2 plays gatling:10H" in table.stdout and "renegade wins" in table.stdout


def test_rules_run_refuses_an_illegal_card_input_with_exit_code_2(tmp_path: Path) -> None:
    data, _ = load(CARD_SCENARIOS / "cards" / "bang_out_of_range.yaml")
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data))
    result = runner.invoke(app, ["run", str(path), "--json"])
    assert result.exit_code == ERROR_EXIT
    assert "input 0 ('p1 play 3 p3'): p3 is out of range" in result.stderr


def test_the_one_reader_of_inputs_gives_back_every_command_played() -> None:
    """``rules/cards/answers.answer_of`` serves the record writer and the engine adapter alike:
    the inputs it reads off a random game's events are the very commands that were played."""
    from services.game.engines import cards as adapter
    from services.game.records.cards import writer
    from services.game.records.cards.writer import card_inputs_from_events
    from services.game.rules.cards.answers import answer_of

    assert adapter.answer_of is answer_of and writer.answer_of is answer_of
    for seed, players, unknown in ((31, 4, False), (32, 6, True), (33, 7, False)):
        played: list[Any] = []
        game, _ = random_game(seed, players, played, unknown_order=unknown)
        assert card_inputs_from_events(game.events) == played
