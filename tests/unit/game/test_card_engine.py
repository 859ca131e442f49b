"""The card game behind the neutral interface: ``engine_for(cards)`` plays whole games with the
random inputs of ``shuffles-1`` from a seed, every event survives the game codec under its
``cards.`` stored name, the result is neutral, and the views hide what the rules hide."""

from __future__ import annotations

import math
import random
from datetime import UTC, datetime

import msgspec
import pytest

from event_store import RecordedEvent
from event_store.records import EventMetadata
from services.game.application.codec import GAME_MAPPER
from services.game.engines import ENDING_TYPES, ENGINE_EVENT_TYPES, OPENING_TYPES, engine_for, stored_type
from services.game.engines.cards import CardEngine
from services.game.fairness.deal import DEAL_1_CHARACTERS, deal
from services.game.fairness.registry import fairness_for, shuffle_derivation
from services.game.results import FinishKind, Side
from services.game.rules.cards import CharacterId, Decision
from services.game.rules.cards import commands as cmd
from services.game.rules.cards.vocabulary import TABLE
from services.game.rules.ruleset import RulesetError, parse_ruleset, refusal

CARDS = parse_ruleset("cards")
EIGHT = parse_ruleset("cards eight_players")
NOW = datetime(2026, 1, 1, tzinfo=UTC)


def play_out(engine: CardEngine, seed: bytes, players: int, choice_seed: int) -> object:
    """A whole game: seats by ``deal-1``, randomness by ``shuffles-1``, decisions by a seeded
    generator choosing among the legal commands."""
    _, seats = deal(seed, [f"m{i}" for i in range(players)])
    game = engine.start(seats)
    derivation = shuffle_derivation("shuffles-1")
    rng = random.Random(choice_seed)
    for _ in range(4000):
        if game.is_over:
            return game
        need = engine.random_need(game)
        if need is not None:
            if need.shuffle:
                values: tuple[int, ...] = derivation.shuffle(seed, need.draw, [int(c) for c in need.shuffle])
            else:
                values = (derivation.pick(seed, need.draw, [int(c) for c in need.pick]),)
            engine.play(game, engine.supply(game, need, values))
            continue
        q = engine.question(game)
        assert q is not None and not q.random
        hand = game.state.player(q.player).hand
        if q.decision == "discard" and math.comb(len(hand), q.detail["count"]) > 50:
            command: cmd.Command = cmd.Discard(
                player=q.player, cards=tuple(rng.sample(hand, q.detail["count"]))
            )
        else:
            options = list(engine.legal_commands(game))
            if q.decision == "play" and len(options) > 1 and rng.random() < 0.8:
                options = [o for o in options if not isinstance(o, cmd.EndPlay)]
            command = rng.choice(options)
        engine.play(game, command)
    raise AssertionError("the game did not end")


def test_the_card_ruleset_reads_back_and_refuses_what_is_not_a_card_game() -> None:
    assert CARDS.text == "cards" and EIGHT.text == "cards eight_players"
    assert parse_ruleset(EIGHT.text) == EIGHT
    assert refusal(CARDS, 4) is None and refusal(CARDS, 7) is None and refusal(EIGHT, 8) is None
    assert "two Renegades" in (refusal(CARDS, 8) or "")
    assert refusal(EIGHT, 7) == "the option eight_players is for 8 players, not 7"
    assert "4 to 7 players" in (refusal(CARDS, 3) or "")
    with pytest.raises(RulesetError, match="no module or option 'OS1'"):
        parse_ruleset("cards OS1")
    # a dice game's stored ruleset is unchanged by the card game's options field
    assert msgspec.json.encode(parse_ruleset("dice")) == (
        b'{"game_type":"dice","modules":[],"data":{"characters":"dice-base-1","dice":"dice-base-1"}}'
    )


def test_engine_for_cards_is_the_card_engine_and_its_events_are_stored_as_cards_types() -> None:
    engine = engine_for(CARDS)
    assert isinstance(engine, CardEngine) and engine_for(CARDS) is engine
    assert engine_for(EIGHT) is not engine and engine_for(EIGHT).eight_players  # type: ignore[attr-defined]
    assert "cards.GameStarted" in OPENING_TYPES and "GameStarted" in OPENING_TYPES
    assert "cards.GameEnded" in ENDING_TYPES and "GameEnded" in ENDING_TYPES
    assert ENGINE_EVENT_TYPES["GameStarted"] is not ENGINE_EVENT_TYPES["cards.GameStarted"]
    # the card game's characters are deal-1's table, by name
    assert sorted(DEAL_1_CHARACTERS) == sorted(c.value for c in CharacterId)
    assert fairness_for(CARDS).text == "deal-1 dice-1 shuffles-1"


@pytest.mark.parametrize("players", [4, 5, 6, 7, 8])
def test_whole_games_through_the_interface(players: int) -> None:
    engine = engine_for(EIGHT if players == 8 else CARDS)
    sides: set[str] = set()
    for n in range(4):
        seed = bytes([players, n]) * 16
        game = play_out(engine, seed, players, n)  # type: ignore[arg-type]
        events = game.events  # type: ignore[attr-defined]
        # every event through the codec and back, under its cards. name
        for i, event in enumerate(events, 1):
            new = GAME_MAPPER.to_new_event(event)
            assert new.type == stored_type(event) == "cards." + type(event).__name__
            recorded = RecordedEvent(
                stream="game-x",
                version=i,
                position=i,
                type=new.type,
                data=msgspec.json.decode(new.data),
                schema_version=new.schema_version,
                event_id=new.event_id,
                metadata=EventMetadata(),
                recorded_at=NOW,
                hash=b"",
                prev_hash=b"",
            )
            assert GAME_MAPPER.to_domain(recorded) == event
        assert engine.replay(events).state == game.state  # type: ignore[attr-defined]
        members = {s.player: f"m-{s.player}" for s in events[0].seats}
        result = engine.result(game, "g1", members)  # type: ignore[arg-type]
        assert result is not None and result.game_type == "cards" and result.ruleset == engine.ruleset.text
        assert result.finish is FinishKind.WON and result.winning_side in (
            Side.LAW,
            Side.OUTLAWS,
            Side.RENEGADE,
        )
        sides.add(result.winning_side)
        assert {s.seat for s in result.seats} == set(members)
        assert all(s.won == (s.side == result.winning_side) for s in result.seats)
        dead = {s.seat for s in result.seats if not s.alive}
        assert {e.seat for e in result.eliminations} == dead
        assert all(e.cause in ("card", "dynamite", "self") for e in result.eliminations)
        assert all((e.by is None) == (e.cause != "card") for e in result.eliminations)
    assert sides


def test_the_view_shows_a_hand_to_its_holder_only_and_shuffles_to_nobody() -> None:
    engine = engine_for(CARDS)
    _, seats = deal(b"v" * 32, ["a", "b", "c", "d"])
    game = engine.start(seats)
    need = engine.random_need(game)
    assert need is not None and len(need.shuffle) == 80 and need.draw == 1
    q = engine.question(game)
    assert q is not None and q.random and q.player == TABLE and q.decision == Decision.SHUFFLE.value
    assert engine.server_only(cmd.ShuffleDeck(player=TABLE, order=())) is not None
    order = shuffle_derivation("shuffles-1").shuffle(b"v" * 32, need.draw, range(1, 81))
    engine.play(game, engine.supply(game, need, order))
    view = engine.view(game, lambda seat: False, own=lambda seat: seat == "p2")
    hands = {p["id"]: p["hand"] for p in view["players"]}
    assert hands["p2"] is not None and len(hands["p2"]) == view["players"][1]["hand_count"] > 0
    assert all(h is None for seat, h in hands.items() if seat != "p2")
    for event in game.events:
        data = engine.redact_event(event, lambda seat: True, own=lambda seat: seat == "p2")
        if type(event).__name__ == "DeckShuffled":
            assert data["order"] == [None] * 80
        if type(event).__name__ == "HandsDealt":
            for seat, cards in data["hands"]:
                assert (None in cards) == (seat != "p2")
        if type(event).__name__ == "CardDrawn":
            assert (data["card"] is None) == (event.player != "p2")
    everything = engine.redact_event(game.events[1], lambda seat: False, own=lambda seat: True)
    assert list(everything["order"]) == list(order)


@pytest.mark.parametrize("players", [4, 5, 6, 7, 8])
def test_the_inputs_read_off_the_events_replay_every_game_exactly(players: int) -> None:
    """What the audit's replay does: at rest, read the answer off the next events
    (``input_at``), play it, and get exactly the stored events back."""
    engine = engine_for(EIGHT if players == 8 else CARDS)
    for n in range(12):
        played = play_out(engine, bytes([n, players]) * 16, players, 100 + n)
        events = played.events  # type: ignore[attr-defined]
        game = engine.restart(events[0])
        index = len(game.events)
        assert events[:index] == game.events
        while index < len(events):
            command = engine.input_at(game, events, index)
            assert command is not None, f"no input read at event {index}: {events[index]}"
            produced = engine.play(game, command)
            assert events[index : index + len(produced)] == produced, command
            index += len(produced)
        assert game.is_over and game.state == played.state  # type: ignore[attr-defined]


def test_a_timed_out_decision_is_told_to_all_without_a_private_card() -> None:
    engine = engine_for(CARDS)
    assert engine.public_text(cmd.KitReturn(player="p3", card=34)) == "p3 kit-return"
    assert engine.public_text(cmd.Discard(player="p2", cards=(12, 40))) == "p2 discard 12 40"  # face up
    assert engine.public_text(cmd.Pass(player="p1", timeout=True)) == "p1 pass timeout"


def test_an_entry_is_named_in_words_anybody_may_read() -> None:
    """A take-back (``EntryTakenBack.command``) is shown to all: each entry of random games is
    named as the command it was, except a random input's card and Kit Carlson's put-back card."""
    from services.game.engines.cards import entry_words

    engine = engine_for(CARDS)
    named = 0
    for n in range(6):
        played = play_out(engine, bytes([n, 9]) * 16, 4 + n % 4, 200 + n)
        events = played.events  # type: ignore[attr-defined]
        game = engine.restart(events[0])
        index = len(game.events)
        while index < len(events):
            command = engine.input_at(game, events, index)
            assert command is not None
            produced = engine.play(game, command)
            words = entry_words(produced)
            assert words is not None, produced[0]
            if isinstance(command, cmd.ShuffleDeck):
                assert words == f"table shuffle ({len(command.order)} cards)"
            elif isinstance(command, cmd.KitReturn):
                assert words == f"{command.player} kit-return"
            elif isinstance(command, cmd.PickRandomCard) and type(produced[0]).__name__ == "CardTaken":
                assert words == f"table random (a card of {produced[0].from_player}'s hand)"  # type: ignore[attr-defined]
            else:  # a decision, or Cat Balou's random card (discarded face up)
                assert words == str(command), (words, str(command))
                named += 1
            index += len(produced)
    assert named > 100
