"""The game service on a real PostgreSQL: online and table games, retries, refusals."""

from __future__ import annotations

import asyncio
import datetime as dt
import hashlib
import random

import pytest

from services.game.application.errors import (
    AlreadyJoined,
    CommandIdReused,
    GameFinished,
    GameNotFound,
    NotAllowed,
    StaleVersion,
)
from services.game.application.lifecycle import GameMode, GameOptions, SeedRevealed
from services.game.application.service import (
    SYSTEM,
    Actor,
    ActorKind,
    GameService,
    Member,
    NewGame,
    TableSeat,
)
from services.game.application.session import GameSession, GameStatus
from services.game.edge.visibility import PUBLIC, Viewer, redact_event, redact_state
from services.game.rules.dice import (
    CharacterId,
    ChooseTarget,
    Decision,
    GameEnded,
    IllegalCommand,
    NotAwaited,
    PlayerId,
    Role,
    RollDice,
    StopRolling,
)
from services.game.rules.dice.events import DiceRolled, TurnStarted

ORGANISER = Actor(kind=ActorKind.ORGANISER, id="club-organiser")
MEMBERS = tuple(Member(member_id=f"m{i}", name=f"Player {i}") for i in range(1, 6))


def player(session: GameSession, seat: str) -> Actor:
    return Actor(kind=ActorKind.PLAYER, id=session.seat_members[PlayerId(seat)])


async def play_out(service: GameService, game_id: str, rng: random.Random) -> GameSession:
    for n in range(5_000):
        session = await service.load(game_id)
        if session.status is not GameStatus.ONGOING:
            return session
        assert session.game is not None
        question = session.game.awaiting
        assert question is not None and question.decision is not Decision.ROLL
        command = rng.choice(list(session.game.legal_commands()))
        await service.play(game_id, command, actor=player(session, question.player), command_id=f"c{n}")
    raise AssertionError("game did not end")


async def test_an_online_game_is_dealt_rolled_by_the_server_and_reveals_its_seed(
    game_service: GameService,
) -> None:
    session = await game_service.create_game(
        NewGame(mode=GameMode.ONLINE, player_count=5, members=MEMBERS), command_id="create-1", actor=ORGANISER
    )
    assert session.status is GameStatus.ONGOING
    assert session.game is not None
    first = session.game.awaiting
    assert first is not None and first.decision is not Decision.ROLL  # the server rolled
    # the Sheriff opens the game (his first roll may end his turn at once: three dynamite, or
    # an Indian attack, so the awaited player may already be the next one)
    opening = next(e for e in session.game.events if isinstance(e, TurnStarted))
    assert session.game.state.by_id[opening.player].role is Role.SHERIFF

    final = await play_out(game_service, session.game_id, random.Random(3))
    assert final.status is GameStatus.ENDED
    assert final.seed_revealed is not None
    seed = bytes.fromhex(final.seed_revealed)
    assert hashlib.sha256(seed).hexdigest() == final.created.seed_commitment
    stored = await game_service.store.read_stream(f"game-{session.game_id}")
    assert stored[-1].type == "SeedRevealed" and stored[-2].type == "GameEnded"
    assert "SeedRevealed" not in [r.type for r in stored[:-1]]


async def test_a_lobby_fills_up_then_starts(game_service: GameService) -> None:
    session = await game_service.create_game(
        NewGame(mode=GameMode.ONLINE, player_count=3, members=MEMBERS[:1]),
        command_id="lobby",
        actor=ORGANISER,
    )
    assert session.status is GameStatus.LOBBY
    with pytest.raises(Exception, match="1 of 3 players have joined"):
        await game_service.play(
            session.game_id, StopRolling(player=PlayerId("p1")), actor=SYSTEM, command_id="too-early"
        )
    await game_service.join(session.game_id, MEMBERS[1], command_id="j2")
    with pytest.raises(AlreadyJoined):  # a retry: no second seat (and no second token upstream)
        await game_service.join(session.game_id, MEMBERS[1], command_id="j2")
    with pytest.raises(CommandIdReused):  # a known id is no credential
        await game_service.join(session.game_id, MEMBERS[2], command_id="lobby")
    started = await game_service.join(session.game_id, MEMBERS[2], command_id="j3")
    assert started.status is GameStatus.ONGOING
    assert sorted(started.seat_members.values()) == ["m1", "m2", "m3"]


async def test_the_same_command_twice_plays_once(game_service: GameService) -> None:
    session = await game_service.create_game(
        NewGame(mode=GameMode.ONLINE, player_count=4, members=MEMBERS[:4]), command_id="c", actor=ORGANISER
    )
    assert session.game is not None
    question = session.game.awaiting
    assert question is not None
    command = next(iter(session.game.legal_commands()))
    actor = player(session, question.player)
    first = await game_service.play(session.game_id, command, actor=actor, command_id="once")
    again = await game_service.play(session.game_id, command, actor=actor, command_id="once")
    assert again.duplicate and not first.duplicate
    assert again.events == first.events and again.version == first.version
    game_service.forget(session.game_id)  # a fresh process sees the same thing
    third = await game_service.play(session.game_id, command, actor=actor, command_id="once")
    assert third.events == first.events


async def test_refusals_name_the_problem_and_append_nothing(game_service: GameService) -> None:
    session = await game_service.create_game(
        NewGame(mode=GameMode.ONLINE, player_count=4, members=MEMBERS[:4]), command_id="r", actor=ORGANISER
    )
    assert session.game is not None
    question = session.game.awaiting
    assert question is not None
    version = session.version
    active = player(session, question.player)
    other_seat = next(p for p in session.seat_members if p != question.player)
    with pytest.raises(NotAllowed, match="cannot act for"):
        await game_service.play(
            session.game_id, StopRolling(player=other_seat), actor=active, command_id="x1"
        )
    with pytest.raises(NotAwaited, match="cannot act now"):
        await game_service.play(
            session.game_id,
            StopRolling(player=other_seat),
            actor=player(session, other_seat),
            command_id="x2",
        )
    with pytest.raises(NotAllowed, match="server rolls the dice"):
        dice = RollDice(player=question.player, faces=())
        await game_service.play(session.game_id, dice, actor=active, command_id="x3")
    with pytest.raises(StaleVersion, match=f"at version {version}, not 2"):
        await game_service.play(
            session.game_id,
            StopRolling(player=question.player),
            actor=active,
            command_id="x4",
            expected_version=2,
        )
    with pytest.raises(GameNotFound):
        await game_service.load("no-such-game")
    assert (await game_service.store.stream_version(f"game-{session.game_id}")) == version


async def test_concurrent_commands_for_one_decision_play_once(game_service: GameService) -> None:
    # the seed is secret and fresh: a Sheriff's first roll may already have ended his rolling
    # (three dynamite), so games are opened until one asks its Sheriff whether to roll again
    for attempt in range(20):
        session = await game_service.create_game(
            NewGame(mode=GameMode.ONLINE, player_count=4, members=MEMBERS[:4]),
            command_id=f"race-{attempt}",
            actor=ORGANISER,
        )
        assert session.game is not None
        question = session.game.awaiting
        assert question is not None
        actor = player(session, question.player)
        if question.decision is Decision.TURN_START_HEAL:  # a Sheriff dealt Sid Ketchum heals first
            heal = ChooseTarget(player=question.player, target=question.player)
            await game_service.play(session.game_id, heal, actor=actor, command_id="heal")
            session = await game_service.load(session.game_id)
            assert session.game is not None
            question = session.game.awaiting
            assert question is not None
        if question.decision is Decision.REROLL_OR_STOP:
            break
    assert question.decision is Decision.REROLL_OR_STOP
    results = await asyncio.gather(
        *[
            game_service.play(
                session.game_id, StopRolling(player=question.player), actor=actor, command_id=f"s{i}"
            )
            for i in range(4)
        ],
        return_exceptions=True,
    )
    wins = [r for r in results if not isinstance(r, BaseException)]
    assert len(wins) == 1, results
    assert all(isinstance(r, NotAwaited | IllegalCommand) for r in results if isinstance(r, BaseException))


async def test_a_table_game_takes_the_scorekeepers_dice_and_only_theirs(game_service: GameService) -> None:
    seats = (
        TableSeat(member_id="ann", name="Ann", role=Role.SHERIFF, character=CharacterId.PAUL_REGRET),
        TableSeat(member_id="bob", name="Bob", role=Role.OUTLAW, character=CharacterId.EL_GRINGO),
        TableSeat(member_id="cy", name="Cy", role=Role.OUTLAW, character=CharacterId.BLACK_JACK),
        TableSeat(member_id="dee", name="Dee", role=Role.RENEGADE, character=CharacterId.LUCKY_DUKE),
    )
    session = await game_service.create_game(
        NewGame(mode=GameMode.TABLE, player_count=4, seats=seats, game_id="club-table-1"),
        command_id="t",
        actor=ORGANISER,
    )
    assert session.created.seed_commitment is None
    faces = RollDice.parse("p1 roll beer beer beer beer beer")
    with pytest.raises(NotAllowed, match="only its scorekeeper"):
        await game_service.play(
            "club-table-1", faces, actor=Actor(kind=ActorKind.PLAYER, id="ann"), command_id="a"
        )
    outcome = await game_service.play("club-table-1", faces, actor=ORGANISER, command_id="b")
    assert isinstance(outcome.events[0], DiceRolled)
    # what Bob sees: his own role and the Sheriff's, never Cy's or Dee's
    bob = redact_state(await game_service.load("club-table-1"), Viewer(member_id="bob"))
    assert [p["role"] for p in bob["players"]] == ["sheriff", "outlaw", None, None]
    keeper = redact_state(await game_service.load("club-table-1"), Viewer(scorekeeper=True))
    assert [p["role"] for p in keeper["players"]] == ["sheriff", "outlaw", "outlaw", "renegade"]


async def test_roles_stay_hidden_in_every_event_until_the_end(game_service: GameService) -> None:
    session = await game_service.create_game(
        NewGame(mode=GameMode.ONLINE, player_count=5, members=MEMBERS), command_id="h", actor=ORGANISER
    )
    assert session.game is not None
    started = session.game.events[0]
    seen = redact_event(session, PUBLIC, started)
    roles = {s["player"]: s["role"] for s in seen["seats"]}
    assert list(roles.values()).count(None) == 4 and "sheriff" in roles.values()
    final = await play_out(game_service, session.game_id, random.Random(9))
    assert final.game is not None and isinstance(final.game.events[-1], GameEnded)
    assert None not in [s["role"] for s in redact_event(final, PUBLIC, started)["seats"]]
    with pytest.raises(GameFinished):
        await game_service.play(
            session.game_id, StopRolling(player=PlayerId("p1")), actor=SYSTEM, command_id="z"
        )


async def test_an_overdue_decision_gets_its_default_and_is_recorded(game_service: GameService) -> None:
    session = await game_service.create_game(
        NewGame(
            mode=GameMode.ONLINE,
            player_count=4,
            members=MEMBERS[:4],
            options=GameOptions(decision_timeout_seconds=30),
        ),
        command_id="slow",
        actor=ORGANISER,
    )
    assert await game_service.apply_timeout(session.game_id) is None  # not overdue yet
    assert session.last_event_at is not None
    later = session.last_event_at + dt.timedelta(seconds=31)
    outcome = await game_service.apply_timeout(session.game_id, later)
    assert outcome is not None
    assert type(outcome.events[0]).__name__ == "DecisionTimedOut"
    assert not any(isinstance(e, SeedRevealed) for e in outcome.events[:-1])
