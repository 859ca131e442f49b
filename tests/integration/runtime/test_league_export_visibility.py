"""A league export is a file that leaves the server: it shows what an anonymous viewer may see.

Proof by non-interference: two databases hold the same league, identical except that two hidden
roles of an online game in progress are swapped; their exports must be byte-identical. The
operator backup (`with_seeds`) keeps everything, and an export still imports elsewhere.
"""

from __future__ import annotations

import random
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from event_store import EventMetadata, NewEvent
from infra.postgres import ResolvedPostgres, create_database, drop_database
from services.game.application.codec import GAME_MAPPER
from services.game.application.lifecycle import GameContext, GameMode
from services.game.application.service import Actor, ActorKind, GameService, Member, NewGame
from services.game.bots import HeuristicBot
from services.game.edge.visibility import PUBLIC, redact_state
from services.game.fairness.vault import SeedVault
from services.game.rules.dice import Role
from services.league.demo import DEMO_LEAGUE, seed_demo
from services.league.transfer import export_league, import_league, read_lines
from services.runtime.context import RuntimeContext, open_context
from services.runtime.database import prepare_all
from services.runtime.projections import registered, select
from services.runtime.rebuild import rebuild

STANDINGS = "SELECT * FROM league_standings ORDER BY league_id, season_id, member_id"
PLAYERS = ("ann", "bob", "cat", "dan", "eve", "fay")
GAME = "export-in-progress"


@pytest.fixture
async def dsns(resolved_postgres: ResolvedPostgres) -> AsyncIterator[list[str]]:
    """Three empty databases: the source, its role-swapped twin, an import target."""
    made = [await create_database(resolved_postgres.dsn, prefix="test") for _ in range(3)]
    yield made
    for dsn in made:
        await drop_database(resolved_postgres.dsn, dsn)


async def _play_a_league_with_a_game_in_progress(context: RuntimeContext) -> None:
    """The demo league (one finished round) plus an online game of six that is under way."""
    await seed_demo(context, players=8, rounds=1)
    games = GameService(context.store, SeedVault(context.pool))
    await games.create_game(
        NewGame(
            mode=GameMode.ONLINE,
            player_count=len(PLAYERS),
            members=tuple(Member(member_id=m, name=m.upper()) for m in PLAYERS),
            context=GameContext(league_id=DEMO_LEAGUE),
            game_id=GAME,
        ),
        command_id=f"create/{GAME}",
        actor=Actor(kind=ActorKind.ORGANISER, id="operator"),
    )
    await _play(games, moves=4)


async def _play(games: GameService, moves: int) -> int:
    """Let the bots make up to `moves` moves; the number made (fewer when the game ends)."""
    for n in range(moves):
        session = await games.load(GAME)
        assert session.game is not None
        question = session.game.awaiting
        if question is None:
            return n
        command = HeuristicBot(0.8).choose(session.game, question, random.Random(n))
        actor = Actor(kind=ActorKind.PLAYER, id=session.seat_members[question.player])
        await games.play(GAME, command, actor=actor, command_id=f"bot/{session.version}")
    return moves


def _two_hidden_seats(context_session: Any) -> tuple[str, str]:
    """Two living players, neither the Sheriff, with different roles (both hidden from all)."""
    players = [p for p in context_session.game.state.players if p.alive and p.role is not Role.SHERIFF]
    for first in players:
        for second in players:
            if first.role is not second.role:
                return first.id, second.id
    raise AssertionError("a game of six always deals two different hidden roles")


def _swap_roles(data: dict[str, Any], seats: tuple[str, str]) -> dict[str, Any]:
    by_player = {seat["player"]: seat for seat in data["seats"]}
    first, second = by_player[seats[0]], by_player[seats[1]]
    assert first["role"] != second["role"]
    first["role"], second["role"] = second["role"], first["role"]
    return data


async def _copy_with_roles_swapped(
    lines: list[dict[str, Any]], target: RuntimeContext, seats: tuple[str, str]
) -> None:
    """Every event of a full export, in the order it was stored, into `target`; the game in
    progress gets its GameStarted with the two roles swapped (so its hashes differ too)."""
    for line in lines:
        if "stream" not in line:
            continue
        data = line["data"]
        if line["stream"] == f"game-{GAME}" and line["type"] == "GameStarted":
            data = _swap_roles(data, seats)
        event = NewEvent(
            type=line["type"],
            data=data,
            schema_version=line["schema_version"],
            event_id=uuid.UUID(line["event_id"]),
            metadata=EventMetadata(**line["metadata"]),
        )
        await target.store.append(line["stream"], [event], expected_version=line["version"] - 1)


async def test_an_export_is_the_same_whichever_hidden_roles_a_game_in_progress_has(
    dsns: list[str], redis_url: str, tmp_path: Path
) -> None:
    source_dsn, twin_dsn, target_dsn = dsns
    async with (
        open_context(source_dsn, redis_url, mapper=GAME_MAPPER, listen=False) as source,
        open_context(twin_dsn, redis_url, mapper=GAME_MAPPER, listen=False) as twin,
    ):
        for context in (source, twin):
            await prepare_all(context.pool, registered().values())
        await _play_a_league_with_a_game_in_progress(source)
        source_games = GameService(source.store, SeedVault(source.pool))
        seats = _two_hidden_seats(await source_games.load(GAME))

        backup = tmp_path / "backup.jsonl"
        await export_league(source.pool, DEMO_LEAGUE, backup, with_seeds=True)
        await _copy_with_roles_swapped(list(read_lines(backup)), twin, seats)

        # the twin really differs, and no anonymous viewer can tell
        swapped = await GameService(twin.store, SeedVault(twin.pool)).load(GAME)
        original = await source_games.load(GAME)
        assert original.game is not None and swapped.game is not None
        roles = {p.id: p.role for p in original.game.state.players}
        roles_swapped = {p.id: p.role for p in swapped.game.state.players}
        assert (roles_swapped[seats[0]], roles_swapped[seats[1]]) == (roles[seats[1]], roles[seats[0]])
        assert redact_state(swapped, PUBLIC) == redact_state(original, PUBLIC)

        exports = [tmp_path / "source.jsonl", tmp_path / "twin.jsonl"]
        reports = [
            await export_league(source.pool, DEMO_LEAGUE, exports[0]),
            await export_league(twin.pool, DEMO_LEAGUE, exports[1]),
        ]
        assert exports[0].read_bytes() == exports[1].read_bytes()
        assert reports[0] == reports[1]
        twin_backup = tmp_path / "twin-backup.jsonl"
        await export_league(twin.pool, DEMO_LEAGUE, twin_backup, with_seeds=True)
        assert twin_backup.read_bytes() != backup.read_bytes()  # the backup carries every role

        lines = list(read_lines(exports[0]))
        withheld = [line["withheld"] for line in lines if "withheld" in line]
        assert [(w["stream"], w["status"], w["version"]) for w in withheld] == [
            (f"game-{GAME}", "ongoing", original.version)
        ]
        assert reports[0].withheld == 1
        assert not [line for line in lines if line.get("stream") == f"game-{GAME}"]
        # finished games keep their full records, roles and revealed seed included
        started = [line for line in lines if line.get("type") == "GameStarted"]
        assert len(started) == 2
        assert all(seat["role"] for line in started for seat in line["data"]["seats"])
        assert sum(1 for line in lines if line.get("type") == "SeedRevealed") == 2

        # the export moves the league: finished games and standings come across, the game
        # in progress stays behind
        async with open_context(target_dsn, redis_url, mapper=GAME_MAPPER, listen=False) as target:
            await prepare_all(target.pool, registered().values())
            imported = await import_league(target.store, lines)
            assert (imported.events, imported.appended, imported.withheld) == (reports[0].events,) * 2 + (1,)
            assert await target.store.stream_version(f"game-{GAME}") == 0
            standings = select(registered(), ["league-standings"])[0]
            await rebuild(source, standings)
            await rebuild(target, standings)
            rows = await target.pool.fetch(STANDINGS)
            # the demo's card league stays behind: only the exported league's lines
            here = [tuple(r) for r in await source.pool.fetch(STANDINGS) if r["league_id"] == DEMO_LEAGUE]
            assert rows and [tuple(r) for r in rows] == here

            # once the game has ended, exporting again moves it, and only what is new is written
            assert await _play(source_games, moves=5000) < 5000
            ended = await source_games.load(GAME)
            assert ended.status.value == "ended"
            later = tmp_path / "later.jsonl"
            again = await export_league(source.pool, DEMO_LEAGUE, later)
            assert again.withheld == 0
            second = await import_league(target.store, list(read_lines(later)))
            assert second.appended == ended.version
            assert await target.store.stream_version(f"game-{GAME}") == ended.version
