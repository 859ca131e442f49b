"""`bang-league audit GAME [--json]` against a real database named by BANG_DATABASE_URL."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator

import pytest
import typer
from typer.testing import CliRunner, Result

from bang_cli.audit import audit
from event_store import PostgresEventStore
from services.game.application.lifecycle import GameMode
from services.game.application.service import Actor, ActorKind, GameService, NewGame, TableSeat
from services.game.audit.report import CHECK_ORDER
from services.game.rules.dice import CharacterId, Role, parse_command

ORGANISER = Actor(kind=ActorKind.ORGANISER, id="club-organiser")
SEATS = (
    TableSeat(member_id="ann", name="Ann", role=Role.SHERIFF, character=CharacterId.PAUL_REGRET),
    TableSeat(member_id="bob", name="Bob", role=Role.OUTLAW, character=CharacterId.EL_GRINGO),
    TableSeat(member_id="cy", name="Cy", role=Role.OUTLAW, character=CharacterId.BLACK_JACK),
    TableSeat(member_id="dee", name="Dee", role=Role.RENEGADE, character=CharacterId.LUCKY_DUKE),
)
OPENING = ["p1 roll shoot1 beer arrow gatling dynamite", "p1 stop", "p1 target 0 p2", "p1 target 1 p1"]

app = typer.Typer()
app.command("audit")(audit)  # as bang_cli/main.py mounts it
app.command("unused")(lambda: None)  # two commands keep `audit` a sub-command, as in the real app


@pytest.fixture
def database_url(database_dsn: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    monkeypatch.setenv("BANG_DATABASE_URL", database_dsn)
    yield database_dsn


async def invoke(*args: str) -> Result:
    # the command runs its own event loop (asyncio.run), so it gets a thread of its own
    return await asyncio.to_thread(CliRunner().invoke, app, ["audit", *args])


async def stored_table_game(service: GameService) -> str:
    await service.create_game(
        NewGame(mode=GameMode.TABLE, player_count=4, seats=SEATS, game_id="club-cli"),
        command_id="t",
        actor=ORGANISER,
    )
    for n, text in enumerate(OPENING):
        await service.play("club-cli", parse_command(text), actor=ORGANISER, command_id=f"in{n}")
    return "club-cli"


async def test_a_clean_game_exits_0_and_prints_its_verdict(
    game_service: GameService, database_url: str
) -> None:
    game_id = await stored_table_game(game_service)
    result = await invoke(game_id)
    assert result.exit_code == 0, result.output
    assert "clean: chain intact, no seed to check (a table game)" in result.output
    assert "rules replay" in result.output

    as_json = await invoke(game_id, "--json")
    assert as_json.exit_code == 0
    report = json.loads(as_json.output)
    assert report["clean"] is True and report["game_id"] == game_id
    assert [c["name"] for c in report["checks"]] == list(CHECK_ORDER)


async def test_a_tampered_game_exits_1(
    game_service: GameService, game_store: PostgresEventStore, database_url: str
) -> None:
    game_id = await stored_table_game(game_service)
    async with game_store.pool.acquire() as connection, connection.transaction():
        await connection.execute("ALTER TABLE events DISABLE TRIGGER USER")
        await connection.execute("DELETE FROM events WHERE stream_name = 'game-club-cli' AND version = 9")
        await connection.execute("ALTER TABLE events ENABLE TRIGGER USER")
    result = await invoke(game_id, "--json")
    assert result.exit_code == 1
    assert json.loads(result.output)["first_divergence"] == "event 9 is missing"


async def test_an_unknown_game_exits_2(game_store: PostgresEventStore, database_url: str) -> None:
    result = await invoke("no-such-game")
    assert result.exit_code == 2
    assert "no game 'no-such-game'" in result.output
