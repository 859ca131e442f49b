"""`bang-league league …` against a running API: the organiser's script founds a league and
seats a round with their token; a foreign organiser's token is refused, naming the club."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import httpx
from litestar import Litestar
from typer.testing import CliRunner

from bang_cli.main import app as cli
from tests.integration.league_api.conftest import clubs, league_version
from tests.integration.league_api.sheets import law_win


async def test_the_cli_runs_league_commands_over_the_api(app: Litestar, client: httpx.AsyncClient) -> None:
    c = await clubs(app, client)
    runner = CliRunner()
    url = str(client.base_url)

    async def run(*args: str, token: str) -> tuple[int, str, str]:
        env = {"BANG_LEAGUE_TOKEN": token, "BANG_LEAGUE_URL": url}
        result = await asyncio.to_thread(runner.invoke, cli, ["league", *args], env=env)
        return result.exit_code, result.stdout, result.stderr

    code, out, _ = await run("found-league", c.home, "--name", "Script League", "--league-id", "cli",
                             token=c.organiser.token)  # fmt: skip
    assert code == 0 and json.loads(out)["league_id"] == "cli"
    assert json.loads(out)["visibility"] == "members"
    code, out, _ = await run("set-visibility", "cli", "public", token=c.organiser.token)
    assert code == 0 and json.loads(out) == {"league_id": "cli", "visibility": "public"}
    season = ("open-season", "cli", "--name", "S", "--season-id", "s")
    assert (await run(*season, token=c.organiser.token))[0] == 0
    members = [p.account_id for p in c.players[:5]]
    assert (await run("enrol", "cli", "s", *members, token=c.organiser.token))[0] == 0
    tournament = ("open-tournament", "cli", "s", "--name", "T", "--tournament-id", "t")
    assert (await run(*tournament, token=c.organiser.token))[0] == 0
    code, out, _ = await run("seat-round", "cli", "t", "--seed", "x", token=c.organiser.token)
    assert code == 0
    seated = json.loads(out)
    assert sorted(m["member_id"] for t in seated["tables"] for m in t["members"]) == sorted(members)

    version = await league_version(app, "cli")
    code, _, err = await run("close-round", "cli", "t", "1", token=c.foreign_organiser.token)
    assert code == 1 and err.startswith("403") and c.home in err
    assert await league_version(app, "cli") == version


async def test_the_cli_founds_a_card_league_and_records_a_result_sheet(
    app: Litestar, client: httpx.AsyncClient, tmp_path: Path
) -> None:
    c = await clubs(app, client)
    runner = CliRunner()
    url = str(client.base_url)

    async def run(*args: str) -> tuple[int, str, str]:
        env = {"BANG_LEAGUE_TOKEN": c.organiser.token, "BANG_LEAGUE_URL": url}
        result = await asyncio.to_thread(runner.invoke, cli, ["league", *args], env=env)
        return result.exit_code, result.stdout, result.stderr

    code, out, _ = await run(
        "found-league", c.home, "--name", "Cards", "--league-id", "cl", "--game-type", "cards"
    )
    assert code == 0 and json.loads(out)["game_type"] == "cards"
    assert (await run("open-season", "cl", "--name", "S", "--season-id", "s"))[0] == 0
    assert (await run("enrol", "cl", "s", *[p.account_id for p in c.players[:4]]))[0] == 0
    assert (await run("open-tournament", "cl", "s", "--name", "T", "--tournament-id", "t"))[0] == 0
    code, out, _ = await run("seat-round", "cl", "t", "--seed", "x")
    table = json.loads(out)["tables"][0]
    assert (await run("schedule", "cl", "t", "1", "1", "--mode", "table"))[0] == 0
    sheet = law_win([m["member_id"] for m in table["members"]], table["sheriff"]["member_id"])
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps(sheet | {"winners": sheet["winners"][:0]}))
    code, _, err = await run("result-sheet", "cl", "t", "1", "1", "--sheet", str(wrong))
    assert code == 1 and err.startswith("422") and "the winners are law's seats" in err
    good = tmp_path / "sheet.json"
    good.write_text(json.dumps(sheet))
    code, out, _ = await run("result-sheet", "cl", "t", "1", "1", "--sheet", str(good))
    assert code == 0 and json.loads(out)["shown_as"] == "result sheet — not replayable"
