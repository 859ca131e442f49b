"""Decision deadlines on a real PostgreSQL: the `game-deadlines` projection and its sweeper.

Most tests drive the sweeper with a clock of their own, so that "due" is decided by the test
and not by how fast the machine is; the last one runs the registered consumer in real time,
twice over, the way compose scales it.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import Counter
from datetime import datetime, timedelta

import asyncpg

from event_store import PostgresEventStore, RecordedEvent
from services.game.application.codec import GAME_MAPPER
from services.game.application.deadlines import PROJECTION_NAME, Sweeper, deadlines_subscription, reset
from services.game.application.lifecycle import DecisionTimedOut, GameMode, GameOptions
from services.game.application.service import Actor, ActorKind, GameService, Member, NewGame, TableSeat
from services.game.application.session import GameSession, GameStatus
from services.game.fairness.vault import SeedVault
from services.game.rules.dice import CharacterId, Decision, PlayerId, Role, RollDice
from services.game.rules.ruleset import ruleset_of
from services.game.timeouts import default_command
from services.runtime.consumers import run_consumers
from services.runtime.context import open_context
from services.runtime.projections import registered, select

ORGANISER = Actor(kind=ActorKind.ORGANISER, id="club-organiser")
MEMBERS = tuple(Member(member_id=f"m{i}", name=f"Player {i}") for i in range(1, 6))
TABLE = "SELECT * FROM game_deadlines ORDER BY game_id"


class FixedClock:
    """The sweeper's idea of now, moved by the test."""

    def __init__(self) -> None:
        self.now = datetime.fromisoformat("2000-01-01T00:00:00+00:00")

    def __call__(self) -> datetime:
        return self.now


async def online_game(
    service: GameService, game_id: str, limit: int | None, players: int = 4, joined: int | None = None
) -> GameSession:
    return await service.create_game(
        NewGame(
            mode=GameMode.ONLINE,
            player_count=players,
            members=MEMBERS[: players if joined is None else joined],
            options=GameOptions(decision_timeout_seconds=limit),
            game_id=game_id,
        ),
        command_id=f"create-{game_id}",
        actor=ORGANISER,
    )


async def table_game(service: GameService, game_id: str, limit: int) -> GameSession:
    seats = (
        TableSeat(member_id="ann", name="Ann", role=Role.SHERIFF, character=CharacterId.PAUL_REGRET),
        TableSeat(member_id="bob", name="Bob", role=Role.OUTLAW, character=CharacterId.EL_GRINGO),
        TableSeat(member_id="cy", name="Cy", role=Role.OUTLAW, character=CharacterId.BLACK_JACK),
        TableSeat(member_id="dee", name="Dee", role=Role.RENEGADE, character=CharacterId.LUCKY_DUKE),
    )
    return await service.create_game(
        NewGame(
            mode=GameMode.TABLE,
            player_count=4,
            seats=seats,
            options=GameOptions(decision_timeout_seconds=limit),
            game_id=game_id,
        ),
        command_id=f"create-{game_id}",
        actor=ORGANISER,
    )


def player(session: GameSession, seat: str) -> Actor:
    return Actor(kind=ActorKind.PLAYER, id=session.seat_members[PlayerId(seat)])


async def play_out(service: GameService, game_id: str, rng: random.Random) -> GameSession:
    for n in range(5_000):
        session = await service.load(game_id)
        if session.status is not GameStatus.ONGOING:
            return session
        assert session.game is not None and session.game.awaiting is not None
        command = rng.choice(list(session.game.legal_commands()))
        await service.play(
            game_id, command, actor=player(session, session.game.awaiting.player), command_id=f"c{n}"
        )
    raise AssertionError("game did not end")


async def deadline(pool: asyncpg.Pool, game_id: str) -> asyncpg.Record | None:
    return await pool.fetchrow("SELECT * FROM game_deadlines WHERE game_id = $1", game_id)


async def table(pool: asyncpg.Pool) -> list[tuple[object, ...]]:
    return [tuple(r) for r in await pool.fetch(TABLE)]


async def timeouts_of(store: PostgresEventStore, game_id: str) -> list[RecordedEvent]:
    return [e for e in await store.read_stream(f"game-{game_id}") if e.type == DecisionTimedOut.__name__]


async def test_an_absent_players_decisions_get_their_defaults_one_after_another(
    game_store: PostgresEventStore, game_service: GameService, pg_pool: asyncpg.Pool
) -> None:
    await online_game(game_service, "absent", limit=1)
    projection = deadlines_subscription(game_store)
    clock = FixedClock()
    sweeper = Sweeper(pg_pool, game_service, clock=clock)
    versions = []
    for _ in range(4):
        await projection.run_until_idle()
        row = await deadline(pg_pool, "absent")
        assert row is not None and row["due_at"] == row["latest_event_at"] + timedelta(seconds=1)
        session = await game_service.load("absent")
        assert row["version"] == session.version and session.game is not None
        question = session.game.awaiting
        assert question is not None
        assert row["awaiting_player"] == question.player
        assert row["awaiting_decision"] == question.decision.value
        expected = default_command(session.engine, session.game)

        clock.now = row["due_at"] - timedelta(milliseconds=1)
        assert (await sweeper.sweep()).applied == []  # not yet

        clock.now = row["due_at"]
        report = await sweeper.sweep()
        assert len(report.applied) == 1
        timed_out = report.applied[0].events[0]
        assert timed_out == DecisionTimedOut(
            player=question.player, decision=question.decision.value, applied=str(expected)
        )
        versions.append(row["version"])

    stored = await timeouts_of(game_store, "absent")
    assert [e.version - 1 for e in stored] == versions  # each right after the decision it ended
    assert [e.metadata.command_id for e in stored] == [f"timeout/absent/{v}" for v in versions]


async def test_games_without_a_limit_and_dice_are_never_timed_out(
    game_store: PostgresEventStore, game_service: GameService, pg_pool: asyncpg.Pool
) -> None:
    await online_game(game_service, "unlimited", limit=None)
    await table_game(game_service, "club-table", limit=1)
    await online_game(game_service, "lobby", limit=1, joined=2)  # not started: nothing awaited
    projection = deadlines_subscription(game_store)
    await projection.run_until_idle()
    assert await deadline(pg_pool, "unlimited") is None
    assert await deadline(pg_pool, "lobby") is None
    dice = await deadline(pg_pool, "club-table")
    assert dice is not None and dice["awaiting_decision"] is None and dice["due_at"] is None

    clock = FixedClock()
    clock.now = datetime.now().astimezone() + timedelta(days=1)
    sweeper = Sweeper(pg_pool, game_service, clock=clock)
    versions = {g: (await game_service.load(g)).version for g in ("unlimited", "club-table", "lobby")}
    assert (await sweeper.sweep()).applied == []

    # the scorekeeper enters the dice; the decision that follows does time out
    faces = RollDice.parse("p1 roll beer beer beer beer beer")
    await game_service.play("club-table", faces, actor=ORGANISER, command_id="roll")
    await projection.run_until_idle()
    due = await deadline(pg_pool, "club-table")
    assert due is not None and due["awaiting_decision"] == Decision.REROLL_OR_STOP.value
    report = await sweeper.sweep()
    assert [o.game_id for o in report.applied] == ["club-table"]
    for game_id in ("unlimited", "lobby"):
        assert (await game_service.load(game_id)).version == versions[game_id]
        assert await timeouts_of(game_store, game_id) == []


async def test_a_player_who_acts_in_time_restarts_the_clock(
    game_store: PostgresEventStore, game_service: GameService, pg_pool: asyncpg.Pool
) -> None:
    session = await online_game(game_service, "prompt", limit=30)
    projection = deadlines_subscription(game_store)
    await projection.run_until_idle()
    before = await deadline(pg_pool, "prompt")
    assert before is not None and session.game is not None and session.game.awaiting is not None

    command = next(iter(session.game.legal_commands()))
    await game_service.play(
        "prompt", command, actor=player(session, session.game.awaiting.player), command_id="in-time"
    )
    # The read model has not seen the move: it still says due, the stream says otherwise.
    clock = FixedClock()
    clock.now = before["due_at"]
    report = await Sweeper(pg_pool, game_service, clock=clock).sweep()
    assert report.applied == [] and report.skipped == 1

    await projection.run_until_idle()
    after = await deadline(pg_pool, "prompt")
    assert after is not None and after["version"] > before["version"]
    assert after["latest_event_at"] > before["latest_event_at"]
    assert after["due_at"] == after["latest_event_at"] + timedelta(seconds=30)
    assert await timeouts_of(game_store, "prompt") == []


async def test_two_sweepers_at_once_never_play_one_timeout_twice(
    game_store: PostgresEventStore, game_service: GameService, pg_pool: asyncpg.Pool
) -> None:
    games = [f"race-{i}" for i in range(6)]
    for game_id in games:
        await online_game(game_service, game_id, limit=60, players=3)
    projection = deadlines_subscription(game_store)
    clock = FixedClock()
    # two services: two processes' caches, each deciding on what it last read
    sweepers = [Sweeper(pg_pool, GameService(game_store, SeedVault(pg_pool)), clock=clock) for _ in range(2)]
    applied = 0
    for _ in range(3):
        await projection.run_until_idle()
        clock.now = max(r["due_at"] for r in await pg_pool.fetch(TABLE))
        reports = await asyncio.gather(*(s.sweep() for s in sweepers))
        done = [o.game_id for r in reports for o in r.applied]
        assert sorted(done) == games  # every game once per round, shared between the two
        applied += len(done)

    # Without the claim (a read model that lags, a sweeper of an older release), the service's
    # optimistic concurrency alone still stores one default per decision.
    # (Due now, but not the decision after: with a clock far ahead, one attempt could
    # rightly time out the next decision too, a different version.)
    services = [s.service for s in sweepers]
    await projection.run_until_idle()
    clock.now = max(r["due_at"] for r in await pg_pool.fetch(TABLE))
    for game_id in games:
        outcomes = await asyncio.gather(*(s.apply_timeout(game_id, clock.now) for s in services))
        applied += sum(1 for o in outcomes if o is not None and not o.duplicate)

    timed_out = [e for g in games for e in await timeouts_of(game_store, g)]
    assert len(timed_out) == applied == 6 * 4
    per_decision = Counter((e.stream, e.metadata.command_id) for e in timed_out)
    assert set(per_decision.values()) == {1}


async def test_ended_and_abandoned_games_leave_the_table(
    game_store: PostgresEventStore, game_service: GameService, pg_pool: asyncpg.Pool
) -> None:
    await online_game(game_service, "finished", limit=60, players=3)
    await online_game(game_service, "dropped", limit=60, players=3)
    projection = deadlines_subscription(game_store)
    await projection.run_until_idle()
    assert await deadline(pg_pool, "finished") is not None
    assert await deadline(pg_pool, "dropped") is not None

    assert (await play_out(game_service, "finished", random.Random(7))).status is GameStatus.ENDED
    await game_service.abandon("dropped", "venue closed", actor=ORGANISER, command_id="abandon")
    await projection.run_until_idle()
    assert await table(pg_pool) == []


async def test_the_table_rebuilt_from_position_zero_is_the_same(
    game_store: PostgresEventStore, game_service: GameService, pg_pool: asyncpg.Pool
) -> None:
    clock = FixedClock()
    sweeper = Sweeper(pg_pool, game_service, clock=clock)
    projection = deadlines_subscription(game_store)
    for i in range(3):
        await online_game(game_service, f"slow-{i}", limit=1 + i, players=3 + i)
    await table_game(game_service, "club-table", limit=5)
    await online_game(game_service, "over", limit=60, players=3)
    await online_game(game_service, "gone", limit=60, players=3)
    await online_game(game_service, "free", limit=None)
    await play_out(game_service, "over", random.Random(11))
    await game_service.abandon("gone", "no show", actor=ORGANISER, command_id="abandon")
    for _ in range(2):
        await projection.run_until_idle()
        clock.now = max(r["due_at"] for r in await pg_pool.fetch(TABLE) if r["due_at"] is not None)
        assert (await sweeper.sweep()).applied
    await projection.run_until_idle()
    expected = await table(pg_pool)
    assert [r[0] for r in expected] == ["club-table", "slow-0", "slow-1", "slow-2"]

    for batch_size in (1, 256):  # one event a transaction, and many: the same rows
        async with pg_pool.acquire() as connection, connection.transaction():
            await reset(connection)
            await connection.execute("DELETE FROM checkpoints WHERE name = $1", PROJECTION_NAME)
        assert await table(pg_pool) == []
        await deadlines_subscription(game_store, batch_size=batch_size).run_until_idle()
        assert await table(pg_pool) == expected


async def test_running_consumers_apply_overdue_defaults_within_seconds(
    database_dsn: str, redis_url: str
) -> None:
    spec = select(registered(), [PROJECTION_NAME])[0]
    async with open_context(database_dsn, redis_url, mapper=GAME_MAPPER, max_connections=10) as context:
        assert spec.prepare is not None
        await spec.prepare(context.pool)
        service = GameService(context.store, SeedVault(context.pool))
        await online_game(service, "live", limit=1)
        await online_game(service, "live-free", limit=None)
        stop = asyncio.Event()
        # two copies, as when compose scales the consumer: two subscriptions, two sweepers
        copies = [asyncio.create_task(run_consumers(context, [spec], stop)) for _ in range(2)]
        try:
            deadline_at = time.monotonic() + 15
            while len(await timeouts_of(context.store, "live")) < 3:
                assert time.monotonic() < deadline_at, "the defaults were not applied in time"
                assert not any(c.done() for c in copies)
                await asyncio.sleep(0.1)
        finally:
            stop.set()
            await asyncio.gather(*copies)

        events = await context.store.read_stream("game-live")
        by_version = {e.version: e for e in events}
        timed_out = [e for e in events if e.type == DecisionTimedOut.__name__]
        for event in timed_out:
            waited = (event.recorded_at - by_version[event.version - 1].recorded_at).total_seconds()
            assert 1.0 <= waited < 3.0, waited  # never early, and promptly once due
        assert len({e.metadata.command_id for e in timed_out}) == len(timed_out)
        assert await timeouts_of(context.store, "live-free") == []


async def test_an_online_role_window_closes_after_the_same_pause_without_a_decision_limit(
    game_store: PostgresEventStore, game_service: GameService, pg_pool: asyncpg.Pool
) -> None:
    """OS3: a game with no decision limit still gets its role windows closed by the sweeper, each
    after the game's one pause, while its players' own decisions never fall due."""
    session = await game_service.create_game(
        NewGame(
            mode=GameMode.ONLINE,
            player_count=5,
            members=MEMBERS,
            options=GameOptions(role_window_seconds=2),
            ruleset=ruleset_of(["OS3"]),
            game_id="windows",
        ),
        command_id="create-windows",
        actor=ORGANISER,
    )
    projection = deadlines_subscription(game_store)
    clock = FixedClock()
    sweeper = Sweeper(pg_pool, game_service, clock=clock)
    rng = random.Random(5)
    windows = 0
    for n in range(400):
        await projection.run_until_idle()
        session = await game_service.load("windows")
        if session.status is not GameStatus.ONGOING or windows == 3:
            break
        assert session.game is not None
        question = session.engine.question(session.game)
        assert question is not None
        row = await deadline(pg_pool, "windows")
        assert row is not None and row["version"] == session.version
        if not question.table:  # a player's decision: no limit, nothing falls due
            assert row["due_at"] is None and row["awaiting_decision"] is None
            command = rng.choice(list(session.engine.legal_commands(session.game)))
            actor = player(session, question.player)
            await game_service.play("windows", command, actor=actor, command_id=f"c{n}")
            game_service.forget("windows")  # the sweeper reads the stored clock, as in its own process
            continue
        windows += 1
        assert row["awaiting_decision"] == question.decision
        assert row["due_at"] == row["latest_event_at"] + timedelta(seconds=2)
        clock.now = row["due_at"] - timedelta(milliseconds=1)
        assert (await sweeper.sweep()).applied == []
        clock.now = row["due_at"]
        report = await sweeper.sweep()
        seat = question.player
        passed = DecisionTimedOut(player=seat, decision=question.decision, applied=f"{seat} pass")
        assert [o.events[0] for o in report.applied] == [passed]
    assert windows == 3
