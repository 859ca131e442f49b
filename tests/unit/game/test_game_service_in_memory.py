"""The real game service on the in-memory event store and seed vault: no PostgreSQL. Games are
dealt, rolled, played to their end, retried, raced by two server processes and audited clean."""

from __future__ import annotations

import asyncio
import hashlib
import random

import pytest

from event_store import MemoryEventStore
from services.game.application.codec import GAME_MAPPER
from services.game.application.errors import CommandIdReused
from services.game.application.lifecycle import GameMode
from services.game.application.service import Actor, ActorKind, GameService, Member, NewGame, derived_game_id
from services.game.application.session import GameSession, GameStatus
from services.game.audit import audit_game
from services.game.fairness.memory_vault import MemorySeedVault
from services.game.rules.dice import Decision, IllegalCommand, NotAwaited, PlayerId, StopRolling

ORGANISER = Actor(kind=ActorKind.ORGANISER, id="club-organiser")
MEMBERS = tuple(Member(member_id=f"m{i}", name=f"Player {i}") for i in range(1, 6))


@pytest.fixture
def store() -> MemoryEventStore:
    return MemoryEventStore(mapper=GAME_MAPPER)


@pytest.fixture
def seeds() -> MemorySeedVault:
    return MemorySeedVault()


@pytest.fixture
def game_service(store: MemoryEventStore, seeds: MemorySeedVault) -> GameService:
    return GameService(store, seeds)  # type: ignore[arg-type]


def player(session: GameSession, seat: str) -> Actor:
    return Actor(kind=ActorKind.PLAYER, id=session.seat_members[PlayerId(seat)])


async def test_an_online_game_plays_to_its_end_and_audits_clean(
    game_service: GameService, store: MemoryEventStore
) -> None:
    session = await game_service.create_game(
        NewGame(mode=GameMode.ONLINE, player_count=5, members=MEMBERS), command_id="create-1", actor=ORGANISER
    )
    rng = random.Random(3)
    for n in range(5_000):
        session = await game_service.load(session.game_id)
        if session.status is not GameStatus.ONGOING:
            break
        assert session.game is not None
        question = session.game.awaiting
        assert question is not None and question.decision is not Decision.ROLL  # the server rolls
        command = rng.choice(list(session.game.legal_commands()))
        await game_service.play(
            session.game_id, command, actor=player(session, question.player), command_id=f"c{n}"
        )
    assert session.status is GameStatus.ENDED
    assert session.seed_revealed is not None
    assert hashlib.sha256(bytes.fromhex(session.seed_revealed)).hexdigest() == session.created.seed_commitment
    stored = await store.read_stream(f"game-{session.game_id}")
    assert [r.type for r in stored[-2:]] == ["GameEnded", "SeedRevealed"]

    report = await audit_game(store, session.game_id)  # type: ignore[arg-type]
    assert report.clean, report.verdict
    assert report.events_checked == len(stored) and report.rolls_checked > 0


async def test_a_command_sent_twice_plays_once_and_a_reused_id_is_refused(game_service: GameService) -> None:
    spec = NewGame(mode=GameMode.ONLINE, player_count=4, members=MEMBERS[:4])
    session = await game_service.create_game(spec, command_id="c", actor=ORGANISER)
    again = await game_service.create_game(spec, command_id="c", actor=ORGANISER)
    assert (again.game_id, again.version) == (session.game_id, session.version)
    assert again.created == session.created  # the same seed commitment: the vault kept one seed
    assert session.game is not None and session.game.awaiting is not None
    question = session.game.awaiting
    command = next(iter(session.game.legal_commands()))
    actor = player(session, question.player)
    first = await game_service.play(session.game_id, command, actor=actor, command_id="once")
    game_service.forget(session.game_id)  # a fresh process sees the same thing
    retried = await game_service.play(session.game_id, command, actor=actor, command_id="once")
    assert retried.duplicate and not first.duplicate
    assert (retried.events, retried.version) == (first.events, first.version)
    with pytest.raises(CommandIdReused):
        other = NewGame(mode=GameMode.ONLINE, player_count=3, members=MEMBERS[:3])
        await game_service.create_game(other, command_id="c", actor=ORGANISER)


async def test_two_server_processes_racing_on_one_game_play_each_decision_once(
    store: MemoryEventStore, seeds: MemorySeedVault
) -> None:
    # Two services with caches of their own over one store and vault, as two API processes.
    first, second = GameService(store, seeds), GameService(store, seeds)  # type: ignore[arg-type]
    spec = NewGame(mode=GameMode.ONLINE, player_count=4, members=MEMBERS[:4])
    # a seed whose deal and first roll ask the Sheriff to reroll or stop (a random one may open
    # on three dynamite, a heal or a beer, where "stop" is no answer)
    await seeds.keep(derived_game_id(ORGANISER, "race"), bytes(32))
    created = await asyncio.gather(
        first.create_game(spec, command_id="race", actor=ORGANISER),
        second.create_game(spec, command_id="race", actor=ORGANISER),
    )
    assert created[0].game_id == created[1].game_id and created[0].version == created[1].version
    game_id = created[0].game_id
    session = await first.load(game_id)
    assert session.game is not None and session.game.awaiting is not None
    question = session.game.awaiting
    actor = player(session, question.player)
    assert question.decision is Decision.REROLL_OR_STOP
    stop = StopRolling(player=question.player)
    services = [first, second, first, second]
    results = await asyncio.gather(
        *(service.play(game_id, stop, actor=actor, command_id=f"s{i}") for i, service in enumerate(services)),
        return_exceptions=True,
    )
    wins = [r for r in results if not isinstance(r, BaseException)]
    assert len(wins) == 1, results
    assert all(isinstance(r, NotAwaited | IllegalCommand) for r in results if isinstance(r, BaseException))
    # one creation, one stop: the store holds each once and its chain verifies
    stored = await store.read_stream(f"game-{game_id}")
    assert [r.type for r in stored].count("GameCreated") == 1
    assert len({r.metadata.command_id for r in stored} & {"s0", "s1", "s2", "s3"}) == 1
    assert (await first.load(game_id)).version == (await second.load(game_id)).version == len(stored)
    assert (await store.verify_stream(f"game-{game_id}")).ok
