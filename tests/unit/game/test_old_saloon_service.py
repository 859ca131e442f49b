"""Each Old Saloon module played through the game service (on the in-memory store): online to
the end, with the server's dice by die kind, its special-role deal, and OS3's role windows
closed by the server after the same pause at every window; then the same moves entered at a
table by a scorekeeper give the very same game; every online game audits clean.

(tests/integration/game/test_old_saloon_postgres.py plays the whole expansion on PostgreSQL.)
"""

from __future__ import annotations

import random
from datetime import timedelta

import msgspec
import pytest

from event_store import MemoryEventStore
from services.game.application.codec import GAME_MAPPER
from services.game.application.errors import NotAllowed
from services.game.application.lifecycle import (
    DEFAULT_ROLE_WINDOW_SECONDS,
    DecisionTimedOut,
    GameMode,
    GameOptions,
)
from services.game.application.service import (
    Actor,
    ActorKind,
    GameService,
    Member,
    NewGame,
    TableSeat,
)
from services.game.application.session import GameSession, GameStatus
from services.game.audit import audit_game
from services.game.fairness.memory_vault import MemorySeedVault
from services.game.records import inputs_from_events
from services.game.rules.dice import GameEnded, GameStarted, NotAwaited, PlayerId
from services.game.rules.dice.commands import PassWindow, UseRole
from services.game.rules.dice.old_saloon.special_roles import WindowPassed
from services.game.rules.ruleset import Ruleset, ruleset_of

ORGANISER = Actor(kind=ActorKind.ORGANISER, id="club-organiser")
SCOREKEEPER = Actor(kind=ActorKind.ORGANISER, id="scorekeeper")

RULESETS = [
    (["OS1"], 4),
    (["OS2"], 4),
    (["OS3"], 5),
    (["OS4"], 4),
    (["OS5"], 5),
    (["OS1", "OS2", "OS3", "OS4", "OS5"], 6),
]


def _player(session: GameSession, seat: str) -> Actor:
    return Actor(kind=ActorKind.PLAYER, id=session.seat_members[seat])


async def _play_online(
    service: GameService, ruleset: Ruleset, players: int, seed: int, game_id: str
) -> GameSession:
    """An online game of ``ruleset`` played to its end: random legal answers from the seated
    players, a role power now and then at a window, else the server's pass after the pause."""
    members = tuple(Member(member_id=f"m{i}", name=f"P{i}") for i in range(1, players + 1))
    spec = NewGame(
        mode=GameMode.ONLINE, player_count=players, members=members, ruleset=ruleset, game_id=game_id
    )
    session = await service.create_game(spec, command_id=f"create-{game_id}", actor=ORGANISER)
    rng = random.Random(seed)
    for n in range(20_000):
        session = await service.load(game_id)
        if session.status is not GameStatus.ONGOING:
            return session
        assert session.game is not None
        question = session.engine.question(session.game)
        assert question is not None and not question.random  # online, the server rolls
        legal = list(session.engine.legal_commands(session.game))
        if question.table:
            uses = [c for c in legal if isinstance(c, UseRole)]
            if uses and rng.random() < 0.4:
                use = rng.choice(uses)
                await service.play(game_id, use, actor=_player(session, use.player), command_id=f"m-{n}")
            else:
                assert session.last_event_at is not None
                closed = await service.apply_timeout(
                    game_id, now=session.last_event_at + timedelta(seconds=DEFAULT_ROLE_WINDOW_SECONDS)
                )
                assert closed is not None
            continue
        command = rng.choice(legal)
        await service.play(game_id, command, actor=_player(session, question.player), command_id=f"m-{n}")
    raise AssertionError(f"{ruleset.text}: no end in 20,000 moves")


@pytest.mark.parametrize(("modules", "players"), RULESETS, ids=[" ".join(m) for m, _ in RULESETS])
async def test_a_module_is_played_online_audited_and_entered_again_at_a_table(
    modules: list[str], players: int
) -> None:
    store = MemoryEventStore(mapper=GAME_MAPPER)
    service = GameService(store, MemorySeedVault())  # type: ignore[arg-type]
    ruleset = ruleset_of(modules)
    online = await _play_online(service, ruleset, players, seed=len(modules) * 10 + players, game_id="online")
    assert online.status is GameStatus.ENDED and online.game is not None
    assert online.created.ruleset == ruleset
    report = await audit_game(store, "online")  # type: ignore[arg-type]
    assert report.clean, report.verdict
    assert report.ruleset == ruleset.text

    started = online.game.events[0]
    ended = online.game.events[-1]
    assert isinstance(started, GameStarted) and isinstance(ended, GameEnded)
    if "OS3" in modules:  # the special-role deal, and the cards named in the result
        stored = [GAME_MAPPER.to_domain(r) for r in await store.read_stream("game-online")]
        assert any(isinstance(e, DecisionTimedOut) and e.applied.endswith(" pass") for e in stored)
        assert all(s.special is not None for s in started.seats)
        assert [r.special for r in ended.results] == [s.special for s in started.seats]
    else:
        assert all(s.special is None for s in started.seats)

    # the scorekeeper enters the same seats and every input, the dice and the passes included
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
    entered = [msgspec.to_builtins(e) for e in table.game.events]
    assert entered == [msgspec.to_builtins(e) for e in online.game.events]


async def test_online_only_the_server_closes_a_role_window_after_the_same_pause() -> None:
    store = MemoryEventStore(mapper=GAME_MAPPER)
    service = GameService(store, MemorySeedVault())  # type: ignore[arg-type]
    members = tuple(Member(member_id=f"m{i}", name=f"P{i}") for i in range(1, 6))
    spec = NewGame(
        mode=GameMode.ONLINE,
        player_count=5,
        members=members,
        ruleset=ruleset_of(["OS3"]),
        options=GameOptions(role_window_seconds=5),
        game_id="g",
    )
    session = await service.create_game(spec, command_id="c", actor=ORGANISER)
    rng = random.Random(3)
    for n in range(200):  # play on until a window is open to the table
        assert session.game is not None
        question = session.engine.question(session.game)
        assert question is not None
        if question.table:
            break
        command = rng.choice(list(session.engine.legal_commands(session.game)))
        await service.play("g", command, actor=_player(session, question.player), command_id=f"m-{n}")
        session = await service.load("g")
    else:
        raise AssertionError("no role window in 200 moves")
    # the addressed player's own pass is the server's to send
    with pytest.raises(NotAllowed, match="the server closes a role window after its pause"):
        own_pass = PassWindow(player=PlayerId(question.player))
        await service.play("g", own_pass, actor=_player(session, question.player), command_id="x")
    assert session.last_event_at is not None
    # 4.9 s in, nothing; at 5 s (the game's pause, whoever holds what) the server passes
    assert await service.apply_timeout("g", now=session.last_event_at + timedelta(seconds=4.9)) is None
    closed = await service.apply_timeout("g", now=session.last_event_at + timedelta(seconds=5))
    assert closed is not None
    timed_out = closed.events[0]
    assert isinstance(timed_out, DecisionTimedOut) and timed_out.decision == question.decision
    assert timed_out.applied == f"{question.player} pass"


async def test_a_table_game_is_entered_without_a_single_pass_and_audits_clean() -> None:
    """RULINGS-expansions §0 "May", §OS3: at a table the next entry closes every role window
    still open. The inputs of an online OS3 game, its passes left out (but those the game ends
    on: no entry follows them), entered by the scorekeeper, make the same game; the audit replays
    it clean, and the entries' text names no pass."""
    store = MemoryEventStore(mapper=GAME_MAPPER)
    service = GameService(store, MemorySeedVault())  # type: ignore[arg-type]
    online = await _play_online(service, ruleset_of(["OS3"]), 5, seed=7, game_id="online")
    assert online.game is not None
    started = online.game.events[0]
    assert isinstance(started, GameStarted)
    inputs = inputs_from_events(online.game.events[1:])
    last = max(i for i, c in enumerate(inputs) if not isinstance(c, PassWindow))
    kept = [c for i, c in enumerate(inputs) if i > last or not isinstance(c, PassWindow)]
    assert len(kept) < len(inputs) - 5, "the game had windows to close"
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
    spec = NewGame(
        mode=GameMode.TABLE, player_count=5, seats=seats, ruleset=ruleset_of(["OS3"]), game_id="table"
    )
    await service.create_game(spec, command_id="create-table", actor=SCOREKEEPER)
    for n, command in enumerate(kept):
        await service.play("table", command, actor=SCOREKEEPER, command_id=f"t-{n}")
    table = await service.load("table")
    assert table.status is GameStatus.ENDED and table.game is not None

    def explicit(e: object) -> object:
        return WindowPassed(window=e.window, player=e.player) if isinstance(e, WindowPassed) else e

    assert [msgspec.to_builtins(explicit(e)) for e in table.game.events] == [
        msgspec.to_builtins(e) for e in online.game.events
    ]
    assert sum(isinstance(e, WindowPassed) and e.implicit for e in table.game.events) == len(inputs) - len(
        kept
    )
    report = await audit_game(store, "table")  # type: ignore[arg-type]
    assert report.clean, report.verdict
    assert inputs_from_events(table.game.events[1:]) == kept


async def test_online_a_players_input_waits_for_the_windows_pause() -> None:
    """Online the server alone closes a role window, after the same pause at every window: the
    input that would come next is refused while the window is open (at a table it closes it)."""
    store = MemoryEventStore(mapper=GAME_MAPPER)
    service = GameService(store, MemorySeedVault())  # type: ignore[arg-type]
    members = tuple(Member(member_id=f"m{i}", name=f"P{i}") for i in range(1, 6))
    spec = NewGame(
        mode=GameMode.ONLINE, player_count=5, members=members, ruleset=ruleset_of(["OS3"]), game_id="g"
    )
    await service.create_game(spec, command_id="c", actor=ORGANISER)
    rng = random.Random(5)
    for n in range(500):
        session = await service.load("g")
        assert session.game is not None and session.status is GameStatus.ONGOING
        question = session.engine.question(session.game)
        assert question is not None
        if not question.table:
            command = rng.choice(list(session.engine.legal_commands(session.game)))
            await service.play("g", command, actor=_player(session, question.player), command_id=f"m-{n}")
            continue
        after = session.engine.copy(session.game)  # what the window's pass would leave
        session.engine.play(after, PassWindow(player=PlayerId(question.player)))
        follow = session.engine.question(after)
        assert follow is not None
        if not follow.table and not follow.random:
            break
        assert session.last_event_at is not None
        await service.apply_timeout(
            "g", now=session.last_event_at + timedelta(seconds=DEFAULT_ROLE_WINDOW_SECONDS)
        )
    else:
        raise AssertionError("no window followed by a player's decision in 500 moves")
    command = next(iter(session.engine.legal_commands(after)))
    with pytest.raises(NotAwaited, match=r"does not answer the open question: p\d to see whether"):
        await service.play("g", command, actor=_player(session, command.player), command_id="early")
    assert (await service.load("g")).version == session.version
