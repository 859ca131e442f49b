"""UA2 through the game service (in-memory store): online to the end with the server's Rage
draws from the seed (``draws-1``), audited clean, a tampered draw named by the audit; the same
inputs entered at a table by a scorekeeper give the very same game; the face-down card is its
holder's alone in the state and the events every viewer reads."""

from __future__ import annotations

import random
from collections.abc import Callable

import msgspec
import pytest

from event_store import MemoryEventStore
from services.game.application.codec import GAME_MAPPER
from services.game.application.service import GameMode, GameService, Member, NewGame, TableSeat
from services.game.application.session import GameSession, GameStatus
from services.game.audit import audit_game
from services.game.audit.draws import check_draws
from services.game.audit.report import ROLLS, passed
from services.game.audit.stream import StoredEvent
from services.game.edge.visibility import PUBLIC, Viewer, redact_event, redact_state
from services.game.fairness.draws import draw
from services.game.fairness.memory_vault import MemorySeedVault
from services.game.fairness.registry import fairness_for
from services.game.records import inputs_from_events
from services.game.rules.dice import GameStarted
from services.game.rules.dice.undead.rage import RageDrawn
from services.game.rules.ruleset import ruleset_of
from tests.unit.audit.games import numbered
from tests.unit.game.test_old_saloon_service import ORGANISER, SCOREKEEPER, _play_online, _player

RULESETS = [
    (["UA2"], 4),
    (["UA2"], 7),
    (["OS1", "OS2", "OS3", "OS4", "OS5", "UA2"], 6),
    (["UA1", "UA2"], 5),
    (["OS1", "OS2", "OS3", "OS4", "OS5", "UA1", "UA2"], 8),
    (["UA1", "UA2", "UA3"], 8),
    (["OS1", "OS4", "UA2", "UA3"], 6),
]


def test_a_new_online_game_with_rage_cards_records_the_draw_derivation() -> None:
    assert fairness_for(ruleset_of(["UA2"])).text == "deal-2 dice-2 draws-1"
    assert fairness_for(ruleset_of(["OS3", "UA2"])).text == "deal-2 dice-2 roles-os3-1 draws-1"
    assert fairness_for(ruleset_of(["OS1"])).text == "deal-2 dice-2"  # unchanged without UA2
    assert fairness_for(ruleset_of(["UA1", "UA2", "UA3"])).text == "deal-3 dice-2 draws-1"  # UA3's pool


@pytest.mark.parametrize(("modules", "players"), RULESETS, ids=[f"{' '.join(m)} {n}" for m, n in RULESETS])
async def test_cards_tokens_and_throws_are_drawn_from_the_seed_audited_and_entered_again_at_a_table(
    modules: list[str], players: int
) -> None:
    store = MemoryEventStore(mapper=GAME_MAPPER)
    service = GameService(store, MemorySeedVault())  # type: ignore[arg-type]
    ruleset = ruleset_of(modules)
    online = await _play_online(service, ruleset, players, seed=players + len(modules), game_id="online")
    assert online.status is GameStatus.ENDED and online.game is not None
    assert online.created.derivations is not None and online.created.derivations.draws == "draws-1"
    drawn = [e for e in online.game.events if isinstance(e, RageDrawn)]
    assert drawn, "no Rage card was drawn in the whole game"
    report = await audit_game(store, "online")  # type: ignore[arg-type]
    assert report.clean, report.verdict
    assert "draws re-derived (draws-1): every card matches" in report.checks[3].detail

    started = online.game.events[0]
    assert isinstance(started, GameStarted)
    seats = tuple(
        TableSeat(
            member_id=online.seat_members[s.player],
            name=s.player,
            role=s.role.value,
            character=s.character.value,
            special=None if s.special is None else s.special.value,
        )
        for s in started.seats
    )
    spec = NewGame(mode=GameMode.TABLE, player_count=players, seats=seats, ruleset=ruleset, game_id="table")
    await service.create_game(spec, command_id="create-table", actor=SCOREKEEPER)
    for n, command in enumerate(inputs_from_events(online.game.events[1:])):
        await service.play("table", command, actor=SCOREKEEPER, command_id=f"t-{n}")
    table = await service.load("table")
    assert table.status is GameStatus.ENDED and table.game is not None
    assert [msgspec.to_builtins(e) for e in table.game.events] == [
        msgspec.to_builtins(e) for e in online.game.events
    ]


async def test_a_draw_that_is_not_the_seeds_is_named_by_the_audit() -> None:
    store = MemoryEventStore(mapper=GAME_MAPPER)
    service = GameService(store, MemorySeedVault())  # type: ignore[arg-type]
    ruleset = ruleset_of(["UA2"])
    online = await _play_online(service, ruleset, 4, seed=4, game_id="g")
    assert online.game is not None and online.seed_revealed is not None
    seed = bytes.fromhex(online.seed_revealed)
    engine = numbered(list(online.game.events))
    number, first = next((s.number, s.event) for s in engine if isinstance(s.event, RageDrawn))
    assert first.card == draw(seed, "rage-1", 0, tuple(f"r{i:02d}" for i in range(1, 19)))
    rolls = passed(ROLLS, "the rolls")
    assert check_draws(engine, seed, "draws-1", ruleset, rolls).passed
    forged_card = next(f"r{i:02d}" for i in range(1, 19) if f"r{i:02d}" != first.card)
    forged = [
        StoredEvent(s.number, msgspec.structs.replace(first, card=forged_card)) if s.number == number else s
        for s in engine
    ]
    check = check_draws(forged, seed, "draws-1", ruleset, rolls)
    assert not check.passed
    assert check.detail == (
        f"event {number}: {first.player} drew {forged_card} from rage-1, but the seed gives {first.card} "
        "(draws-1, draw 0 of rage-1)"
    )
    unknown = check_draws(engine, seed, "draws-9", ruleset, rolls)
    assert not unknown.passed and "unknown draws derivation 'draws-9' (known: draws-1)" in unknown.detail


async def test_only_the_holder_sees_his_face_down_card_in_the_state_and_the_events() -> None:
    store = MemoryEventStore(mapper=GAME_MAPPER)
    service = GameService(store, MemorySeedVault())  # type: ignore[arg-type]
    online = await _play_until(service, "g", _someone_holds_a_card)
    assert online.status is GameStatus.ONGOING and online.game is not None
    rage = online.game.state.rage
    assert rage is not None
    holder, cards = next((p, h) for p, h in rage.hands.items() if h)
    drawn = [e for e in online.game.events if isinstance(e, RageDrawn) and e.player == holder][-1]
    for seat, member in online.seat_members.items():
        viewer = Viewer(member_id=member)
        state = redact_state(online, viewer)
        mine = next(p for p in state["players"] if p["id"] == holder)
        event = redact_event(online, viewer, drawn)
        assert mine["rage_count"] == len(cards)
        if seat == holder:
            assert mine["rage_cards"] == cards and event["card"] == drawn.card
        else:
            assert mine["rage_cards"] is None and event["card"] is None
    assert redact_event(online, PUBLIC, drawn)["card"] is None
    assert drawn.card not in str(redact_state(online, PUBLIC))


def _someone_holds_a_card(session: GameSession) -> bool:
    game = session.game
    rage = None if game is None else game.state.rage  # type: ignore[attr-defined]
    return rage is not None and any(rage.hands.values())


async def _play_until(service: GameService, game_id: str, stop: Callable[[GameSession], bool]) -> GameSession:
    """A five-player online UA2 game, random legal moves of the seated players, until ``stop``."""
    members = tuple(Member(member_id=f"m{i}", name=f"P{i}") for i in range(1, 6))
    spec = NewGame(
        mode=GameMode.ONLINE, player_count=5, members=members, ruleset=ruleset_of(["UA2"]), game_id=game_id
    )
    session = await service.create_game(spec, command_id="create", actor=ORGANISER)
    rng = random.Random(5)
    for n in range(5_000):
        session = await service.load(game_id)
        if stop(session):
            return session
        assert session.game is not None and session.status is GameStatus.ONGOING
        question = session.engine.question(session.game)
        assert question is not None and not question.random
        command = rng.choice(list(session.engine.legal_commands(session.game)))
        await service.play(game_id, command, actor=_player(session, question.player), command_id=f"m-{n}")
    raise AssertionError("nobody held a Rage card in 5,000 moves")
