"""Taking back an entry at a table, on the in-memory store: the fold is the engine's fold of the
entries that stand, the ruling's limits hold, and an audit tells a legal take-back (clean, "entry N
taken back") from one written behind the service's back."""

from __future__ import annotations

import pytest

from event_store import EventMetadata, MemoryEventStore
from services.game.application.codec import GAME_MAPPER, game_stream
from services.game.application.corrections import (
    GAME_OVER,
    NOTHING_IN_THIS_TURN,
    TakeBack,
    TakeBackRefused,
    parse_take_back,
    take_back_offer,
)
from services.game.application.errors import NotAllowed
from services.game.application.lifecycle import EntryTakenBack, GameMode
from services.game.application.service import Actor, ActorKind, GameService, Member, NewGame, TableSeat
from services.game.application.session import GameSession
from services.game.audit import audit_game
from services.game.engines import engine_for
from services.game.fairness.memory_vault import MemorySeedVault
from services.game.rules.dice import parse_command
from services.game.rules.ruleset import BASE_DICE

SCOREKEEPER = Actor(kind=ActorKind.ORGANISER, id="scorekeeper")
SEATS = tuple(
    TableSeat(member_id=f"m{i}", name=f"Player {i}", role=role, character=character)
    for i, (role, character) in enumerate(
        [("sheriff", "jourdonnais"), ("outlaw", "willy_the_kid"), ("outlaw", "paul_regret"),
         ("renegade", "lucky_duke")]
    )
)  # fmt: skip
TURN_1 = ["p1 roll shoot1 shoot1 arrow dynamite dynamite", "p1 reroll 0 1", "p1 roll dynamite gatling"]
TURN_2 = ["p2 roll shoot1 shoot1 shoot1 beer beer", "p2 stop", "p2 target 0 p3"]


@pytest.fixture
def store() -> MemoryEventStore:
    return MemoryEventStore(mapper=GAME_MAPPER)


@pytest.fixture
def service(store: MemoryEventStore) -> GameService:
    return GameService(store, MemorySeedVault())  # type: ignore[arg-type]


async def table(service: GameService, game_id: str, entries: list[str]) -> GameSession:
    spec = NewGame(mode=GameMode.TABLE, player_count=4, seats=SEATS, game_id=game_id)
    session = await service.create_game(spec, command_id=f"create-{game_id}", actor=SCOREKEEPER)
    for n, entry in enumerate(entries):
        await service.play(game_id, parse_command(entry), actor=SCOREKEEPER, command_id=f"{game_id}/{n}")
    return await service.load(session.game_id)


async def undo(service: GameService, game_id: str, command_id: str) -> EntryTakenBack:
    outcome = await service.play(game_id, TakeBack(), actor=SCOREKEEPER, command_id=command_id)
    (event,) = outcome.events
    assert isinstance(event, EntryTakenBack)
    return event


def test_the_command_is_read_in_its_text_form_and_as_an_object() -> None:
    assert parse_take_back("takeback") == parse_take_back(" TakeBack ") == TakeBack()
    assert parse_take_back({"type": "TakeBack"}) == TakeBack()
    assert parse_take_back("p1 stop") is None and parse_take_back({"type": "StopRolling"}) is None
    with pytest.raises(ValueError, match="player"):
        parse_take_back({"type": "TakeBack", "player": "p1"})
    assert str(TakeBack()) == "takeback"


async def test_the_fold_is_the_engines_fold_of_the_entries_that_stand(
    service: GameService, store: MemoryEventStore
) -> None:
    await table(service, "corrected", TURN_1 + TURN_2)
    taken = await undo(service, "corrected", "undo-target")
    assert taken.command == "p2 target 0 p3" and taken.from_version == taken.to_version
    await service.play("corrected", parse_command("p2 target 0 p1"), actor=SCOREKEEPER, command_id="fixed")
    never = await table(service, "never", [*TURN_1, *TURN_2[:-1], "p2 target 0 p1"])

    service.forget("corrected")  # folded afresh from the store, not from the cached session
    corrected = await service.load("corrected")
    assert corrected.game is not None and never.game is not None
    assert corrected.game.events == never.game.events
    engine = engine_for(BASE_DICE)
    view = engine.view(corrected.game, lambda seat: True)
    assert view == engine.view(engine.replay(never.game.events), lambda seat: True)
    # the stream keeps the taken-back entry; the fold does not
    stored = [r.type for r in await store.read_stream(game_stream("corrected"))]
    assert stored.count("TargetChosen") == 2 and "EntryTakenBack" in stored


async def test_newest_first_within_the_turn_and_never_across_a_started_one(service: GameService) -> None:
    session = await table(service, "limits", TURN_1)
    assert take_back_offer(session) == {"command": "p1 roll dynamite gatling", "from_version": 12}
    assert (await undo(service, "limits", "u1")).command == "p1 roll dynamite gatling"
    assert (await undo(service, "limits", "u2")).command == "p1 reroll 0 1"
    session = await service.load("limits")
    assert session.game is not None and session.game.awaiting is not None
    assert session.game.awaiting.decision.value == "reroll_or_stop"
    for n, entry in enumerate(TURN_1[1:] + TURN_2[:1]):
        await service.play("limits", parse_command(entry), actor=SCOREKEEPER, command_id=f"again-{n}")
    assert (await undo(service, "limits", "u3")).command == TURN_2[0]
    with pytest.raises(TakeBackRefused, match=f"^{NOTHING_IN_THIS_TURN}: turn 2 has started"):
        await undo(service, "limits", "u4")
    assert take_back_offer(await service.load("limits")) is None


async def test_only_whoever_enters_and_never_online_or_after_the_end(service: GameService) -> None:
    await table(service, "who", TURN_1[:1])
    player = Actor(kind=ActorKind.PLAYER, id="m1")
    with pytest.raises(NotAllowed):
        await service.play("who", TakeBack(), actor=player, command_id="by-a-player")

    members = tuple(Member(member_id=f"m{i}", name=f"Player {i}") for i in range(4))
    online = await service.create_game(
        NewGame(mode=GameMode.ONLINE, player_count=4, members=members), command_id="o", actor=SCOREKEEPER
    )
    assert online.game is not None and online.game.awaiting is not None
    seated = Actor(kind=ActorKind.PLAYER, id=online.seat_members[online.game.awaiting.player])
    with pytest.raises(TakeBackRefused, match="online game"):
        await service.play(online.game_id, TakeBack(), actor=seated, command_id="online-undo")
    with pytest.raises(NotAllowed):
        await service.play(online.game_id, TakeBack(), actor=SCOREKEEPER, command_id="organiser-undo")
    with pytest.raises(NotAllowed):
        await service.play(online.game_id, TakeBack(), actor=Actor(kind=ActorKind.PLAYER, id="x"),
                           command_id="stranger-undo")  # fmt: skip

    # a game played to its end by the engine's first legal choices and fixed dice
    session = await table(service, "over", [])
    for n in range(2_000):
        game = session.game
        assert game is not None
        if game.is_over:
            break
        question = game.awaiting
        assert question is not None
        if question.decision.value == "roll":
            command = parse_command(f"{question.player} roll " + " ".join(["gatling"] * len(question.dice)))
        else:
            command = next(iter(game.legal_commands()))
        await service.play("over", command, actor=SCOREKEEPER, command_id=f"over-{n}")
        session = await service.load("over")
    assert session.game is not None and session.game.is_over
    with pytest.raises(TakeBackRefused, match=f"^{GAME_OVER}$"):
        await undo(service, "over", "too-late")


async def write_behind(store: MemoryEventStore, game_id: str, event: EntryTakenBack) -> None:
    """A take-back appended straight to the store, past the service and its ruling."""
    version = await store.stream_version(game_stream(game_id))
    metadata = EventMetadata(command_id="behind", actor="organiser:scorekeeper")
    await store.append(
        game_stream(game_id), [GAME_MAPPER.to_new_event(event, metadata=metadata)], expected_version=version
    )


async def test_an_audit_reads_take_backs_as_history_and_names_those_the_ruling_refuses(
    service: GameService, store: MemoryEventStore
) -> None:
    await table(service, "audited", TURN_1 + TURN_2[:1])
    taken = await undo(service, "audited", "undo-roll")
    report = await audit_game(store, "audited")  # type: ignore[arg-type]
    assert report.clean, report.verdict
    assert "entry 18 taken back (p2 roll shoot1 shoot1 shoot1 beer beer)" in report.checks[4].detail
    assert taken.from_version == 18

    # behind the service's back: p1's last entry, though p2's turn had started
    await write_behind(store, "audited", EntryTakenBack(from_version=12, to_version=17, command="p1 roll"))
    report = await audit_game(store, "audited")  # type: ignore[arg-type]
    assert not report.clean
    assert report.first_divergence == "event 20: it takes back an entry of turn 1 after turn 2 had started"

    # an entry that is not the latest standing, and half an entry
    await table(service, "rogue", TURN_1[:2])
    await write_behind(store, "rogue", EntryTakenBack(from_version=9, to_version=10, command="p1 roll"))
    report = await audit_game(store, "rogue")  # type: ignore[arg-type]
    assert report.first_divergence == "event 12: it takes back events 9 to 10, but a later entry stands"
    await table(service, "half", TURN_1[:1])
    await write_behind(store, "half", EntryTakenBack(from_version=10, to_version=10, command="p1 roll"))
    report = await audit_game(store, "half")  # type: ignore[arg-type]
    assert report.first_divergence == "event 11: events 10 to 10 are not the events of one entry"
