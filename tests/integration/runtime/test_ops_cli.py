"""The operator CLI against a real database: a game's record out and back in (twice), then
every game audited."""

from __future__ import annotations

import asyncio
from pathlib import Path

from typer.testing import CliRunner

from bang_cli.ops import app
from services.game.application.codec import GAME_MAPPER
from services.runtime.context import open_context
from services.runtime.database import prepare_all
from services.runtime.projections import registered


async def _seed(dsn: str, redis_url: str) -> None:
    from services.league.demo import seed_demo

    async with open_context(dsn, redis_url, mapper=GAME_MAPPER, listen=False) as context:
        await prepare_all(context.pool, registered().values())
        await seed_demo(context, players=8, rounds=1)


async def _games(dsn: str, redis_url: str) -> list[str]:
    async with open_context(dsn, redis_url, mapper=GAME_MAPPER, listen=False) as context:
        rows = await context.pool.fetch("SELECT name FROM streams WHERE category = 'game' ORDER BY 1")
    return [r[0] for r in rows]


def test_export_import_twice_and_audit_all(database_dsn: str, redis_url: str, tmp_path: Path) -> None:
    # a plain test: the CLI runs its own event loop, as it does from a shell
    asyncio.run(_seed(database_dsn, redis_url))
    env = {"BANG_DATABASE_URL": database_dsn, "BANG_REDIS_URL": redis_url}
    runner = CliRunner()
    record = tmp_path / "game.json"

    exported = runner.invoke(app, ["export", "demo.opening_cup.r1.t1", "-o", str(record)], env=env)
    assert exported.exit_code == 0, exported.output
    for _ in range(2):
        imported = runner.invoke(app, ["import", str(record), "--game-id", "copy.1"], env=env)
        assert imported.exit_code == 0, imported.output
    assert sorted(asyncio.run(_games(database_dsn, redis_url))) == [
        "game-copy.1",
        "game-demo-saloon-night",  # the online game the demo players sit at (too few for a table game)
        "game-demo.opening_cup.r1.t1",
        "game-demo.opening_cup.r1.t2",
        "game-demo_cards.card_night.r1.t1",  # the card league's round: two tables of four
        "game-demo_cards.card_night.r1.t2",
    ]

    audited = runner.invoke(app, ["audit-all", "--json"], env=env)
    assert audited.exit_code == 0, audited.output
    assert audited.output.count('"clean":true') == 6

    missing = runner.invoke(app, ["rebuild", "no-such-projection"], env=env)
    assert missing.exit_code == 1
