"""No game stalls on an absent table: every awaited decision of every ruleset this server plays
(the dice game, each Old Saloon and Undead or Alive module, the card game) has a documented
default, so an online dice game whose players never come is played to its end by timeouts alone
(a card game keeps moving, but nobody ever plays a card, so it needs bots to end);
and a seat a bot took over (``SeatReplaced``) is played at once, with no time limit at all.
"""

from __future__ import annotations

import logging
from datetime import timedelta

import asyncpg
import pytest

from event_store import EventMetadata, PostgresEventStore
from services.game.application.deadlines import Sweeper, deadlines_subscription
from services.game.application.errors import InvalidGameSpec, NotAllowed
from services.game.application.lifecycle import DecisionTimedOut, GameMode, GameOptions, SeatReplaced
from services.game.application.service import (
    Actor,
    ActorKind,
    GameService,
    Member,
    NewGame,
    TableSeat,
    implemented,
)
from services.game.application.session import GameStatus
from services.game.audit import REPLAY, audit_game
from services.game.rules.ruleset import GameType, Ruleset, refusal, ruleset_of

ORGANISER = Actor(kind=ActorKind.ORGANISER, id="club-organiser")
MEMBERS = tuple(Member(member_id=f"m{i}", name=f"Player {i}") for i in range(1, 9))
LOGGER = "services.game.application.deadlines"
MAX_DEFAULTS = 5_000
CARD_DEFAULTS = 600
"""An absent card table never ends by defaults (nobody plays a card: nobody is ever shot), so
its test only checks the game keeps moving; its organiser replaces the seats by bots."""


def rulesets() -> list[tuple[str, Ruleset, int]]:
    """The base games, each dice module the server plays (with the modules it needs), and all of
    one expansion together: (name, ruleset, players)."""
    found: list[tuple[str, Ruleset, int]] = [
        ("dice", ruleset_of(), 5),
        ("cards", ruleset_of((), GameType.CARDS), 5),
    ]
    modules = sorted(m for m in implemented(GameType.DICE) if m.value != "UA5")  # UA5: a series, below
    for module in modules:
        needs = [module.value]
        if module.value == "UA1":
            needs.append("UA2")
        found.append((module.value, ruleset_of(needs), 5))
    found.append(("Old Saloon", ruleset_of([m.value for m in modules if m.value.startswith("OS")]), 6))
    found.append(("Undead or Alive", ruleset_of([m.value for m in modules if m.value.startswith("UA")]), 6))
    return [(name, r, n) for name, r, n in found if refusal(r, n) is None]


@pytest.mark.parametrize(("name", "ruleset", "players"), rulesets(), ids=[r[0] for r in rulesets()])
async def test_an_absent_table_is_played_to_the_end_by_defaults_alone(
    game_service: GameService, name: str, ruleset: Ruleset, players: int
) -> None:
    game_id = "absent-" + name.replace(" ", "_")
    await game_service.create_game(
        NewGame(
            mode=GameMode.ONLINE,
            player_count=players,
            members=MEMBERS[:players],
            options=GameOptions(decision_timeout_seconds=1),
            ruleset=ruleset,
            game_id=game_id,
        ),
        command_id=f"create-{game_id}",
        actor=ORGANISER,
    )
    decisions: set[str] = set()
    cards = ruleset.game_type is GameType.CARDS
    for _ in range(CARD_DEFAULTS if cards else MAX_DEFAULTS):
        session = await game_service.load(game_id)
        if session.status is not GameStatus.ONGOING:
            break
        assert session.last_event_at is not None
        outcome = await game_service.apply_timeout(game_id, session.last_event_at + timedelta(hours=1))
        assert session.game is not None
        question = session.engine.question(session.game)
        assert outcome is not None, f"{name}: the game stalls at {question}: no default"
        first = outcome.events[0]
        if isinstance(first, DecisionTimedOut):
            decisions.add(first.decision)
    assert cards or session.status is GameStatus.ENDED, f"{name}: not over after {MAX_DEFAULTS} defaults"
    assert decisions


@pytest.mark.parametrize("game_type", [GameType.DICE, GameType.CARDS])
async def test_bots_that_took_every_seat_play_the_game_to_its_end_with_no_time_limit(
    game_store: PostgresEventStore, game_service: GameService, game_type: GameType
) -> None:
    game_id = f"all-bots-{game_type.value}"
    await game_service.create_game(
        NewGame(
            mode=GameMode.ONLINE,
            player_count=4,
            members=MEMBERS[:4],
            game_id=game_id,
            ruleset=ruleset_of((), game_type),
        ),
        command_id="create",
        actor=ORGANISER,
    )
    for seat in ("p1", "p2", "p3", "p4"):
        await game_service.replace_seat(game_id, seat, None, actor=ORGANISER, command_id=f"bot-{seat}")
    session = await game_service.load(game_id)
    assert session.bot_seats == {"p1", "p2", "p3", "p4"} and session.seat_members == {}
    for _ in range(MAX_DEFAULTS):
        session = await game_service.load(game_id)
        if session.status is not GameStatus.ONGOING:
            break
        outcome = await game_service.apply_timeout(game_id)  # now: a bot does not wait
        assert outcome is not None
        assert not isinstance(outcome.events[0], DecisionTimedOut)
    assert session.status is GameStatus.ENDED
    stream = await game_store.read_stream(f"game-{game_id}")
    assert [e.type for e in stream].count(SeatReplaced.__name__) == 4
    assert all(
        e.metadata.actor == "system" for e in stream if (e.metadata.command_id or "").startswith("timeout/")
    )


async def test_only_an_organisers_actor_replaces_a_seat_of_an_ongoing_online_game(
    game_service: GameService,
) -> None:
    await game_service.create_game(
        NewGame(mode=GameMode.ONLINE, player_count=4, members=MEMBERS[:4], game_id="g"),
        command_id="create",
        actor=ORGANISER,
    )
    player = Actor(kind=ActorKind.PLAYER, id="m1")
    with pytest.raises(NotAllowed):
        await game_service.replace_seat("g", "p2", MEMBERS[5], actor=player, command_id="r")
    with pytest.raises(InvalidGameSpec, match="no seat"):
        await game_service.replace_seat("g", "p7", MEMBERS[5], actor=ORGANISER, command_id="r")
    seated = (await game_service.load("g")).seat_members["p1"]
    with pytest.raises(InvalidGameSpec, match="nobody plays two seats"):
        member = next(m for m in MEMBERS if m.member_id == seated)
        await game_service.replace_seat("g", "p2", member, actor=ORGANISER, command_id="r")
    seats = (
        TableSeat(member_id="ann", name="Ann", role="sheriff", character="paul_regret"),
        TableSeat(member_id="bob", name="Bob", role="outlaw", character="el_gringo"),
        TableSeat(member_id="cy", name="Cy", role="outlaw", character="black_jack"),
        TableSeat(member_id="dee", name="Dee", role="renegade", character="lucky_duke"),
    )
    await game_service.create_game(
        NewGame(mode=GameMode.TABLE, player_count=4, seats=seats, game_id="t"),
        command_id="create",
        actor=ORGANISER,
    )
    with pytest.raises(InvalidGameSpec, match="table game"):
        await game_service.replace_seat("t", "p2", MEMBERS[5], actor=ORGANISER, command_id="r")
    assert (await game_service.load("g")).replacements == []


async def test_the_audit_accepts_an_organisers_replacement_and_refuses_anybody_elses(
    game_store: PostgresEventStore, game_service: GameService
) -> None:
    for game_id in ("fair", "forged"):
        await game_service.create_game(
            NewGame(mode=GameMode.ONLINE, player_count=4, members=MEMBERS[:4], game_id=game_id),
            command_id="create",
            actor=ORGANISER,
        )
    holder = (await game_service.load("fair")).seat_members["p2"]
    await game_service.replace_seat("fair", "p2", MEMBERS[6], actor=ORGANISER, command_id="r", reason="left")
    fair = await audit_game(game_store, "fair")
    assert fair.clean, fair.verdict
    turn = (await game_service.load("fair")).replacements[0][1].turn  # the deal decides who starts
    assert f"1 seat replaced by an organiser (p2 to Player 7 in turn {turn})" in next(
        c.detail for c in fair.checks if c.name == REPLAY
    )

    # the same fact, written by a player's command around the service: not accepted
    session = await game_service.load("forged")
    forged = SeatReplaced(
        player="p2", replaced=session.seat_members["p2"], member_id="m7", name="Player 7", turn=1
    )
    await game_store.append(
        "game-forged",
        [forged],
        expected_version=session.version,
        metadata=EventMetadata(actor=f"player:{holder}", command_id="sneaky"),
    )
    report = await audit_game(game_store, "forged")
    assert not report.clean
    assert f"seat p2 was replaced by player:{holder}, who may not replace a seat" in report.verdict


async def test_the_sweeper_logs_a_bots_move_without_its_events(
    game_store: PostgresEventStore,
    game_service: GameService,
    pg_pool: asyncpg.Pool,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A bot's move may draw cards into its seat's hand: the log line names the game alone."""
    game_id = "logged-bots"
    await game_service.create_game(
        NewGame(
            mode=GameMode.ONLINE,
            player_count=4,
            members=MEMBERS[:4],
            game_id=game_id,
            ruleset=ruleset_of((), GameType.CARDS),
        ),
        command_id="create",
        actor=ORGANISER,
    )
    for seat in ("p1", "p2", "p3", "p4"):
        await game_service.replace_seat(game_id, seat, None, actor=ORGANISER, command_id=f"bot-{seat}")
    projection = deadlines_subscription(game_store)
    sweeper = Sweeper(pg_pool, game_service)
    with caplog.at_level(logging.INFO, logger=LOGGER):
        for _ in range(10):
            await projection.run_until_idle()
            await sweeper.sweep()
    lines = [r.getMessage() for r in caplog.records if r.name == LOGGER]
    assert len(lines) >= 10
    assert all(
        line.startswith(f"a bot played a replaced seat in game {game_id}, now at version") for line in lines
    )


async def test_a_timed_card_game_gets_its_deadlines_and_its_defaults(
    game_store: PostgresEventStore, game_service: GameService, pg_pool: asyncpg.Pool
) -> None:
    """A league's card games have a limit by default now: the projection folds their appends
    event by event, between the automatic steps of one too, and asks what the game awaits."""
    game_id = "timed-cards"
    await game_service.create_game(
        NewGame(
            mode=GameMode.ONLINE,
            player_count=4,
            members=MEMBERS[:4],
            game_id=game_id,
            options=GameOptions(decision_timeout_seconds=60),
            ruleset=ruleset_of((), GameType.CARDS),
        ),
        command_id="create",
        actor=ORGANISER,
    )
    projection = deadlines_subscription(game_store)
    await projection.run_until_idle()
    row = await pg_pool.fetchrow("SELECT * FROM game_deadlines WHERE game_id = $1", game_id)
    session = await game_service.load(game_id)
    assert session.game is not None
    question = session.engine.question(session.game)
    assert row is not None and question is not None
    assert (row["awaiting_player"], row["awaiting_decision"]) == (question.player, question.decision)
    report = await Sweeper(pg_pool, game_service, clock=lambda: row["due_at"]).sweep()
    assert [type(o.events[0]) for o in report.applied] == [DecisionTimedOut]
