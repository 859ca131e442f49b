"""`bang-league accounts invite` prints a link that the API accepts once."""

from __future__ import annotations

import asyncio

import httpx
from typer.testing import CliRunner

from bang_cli.main import app as cli
from tests.integration.accounts.conftest import PASSWORD


async def test_the_cli_prints_an_invite_link_with_a_preset_login_that_the_api_accepts_once(
    database_dsn: str, client: httpx.AsyncClient
) -> None:
    runner = CliRunner()
    args = ["accounts", "invite", "--display-name", "Rosa Quick", "--login", "rosa"]
    args += ["--database-url", database_dsn]
    result = await asyncio.to_thread(runner.invoke, cli, [*args, "--base-url", str(client.base_url)])
    assert result.exit_code == 0, result.output
    link = result.stdout.strip().splitlines()[0]
    assert link.startswith(f"{client.base_url}/accounts/invites/") and link.endswith("/accept")
    accepted = await client.post(link, json={"password": PASSWORD})
    assert accepted.status_code == 201, accepted.text
    assert accepted.json()["account"]["login"] == "rosa"
    assert accepted.json()["account"]["display_name"] == "Rosa Quick"
    assert (await client.post(link, json={"password": PASSWORD})).status_code == 409


async def test_the_cli_refuses_a_bad_login_naming_the_option(database_dsn: str) -> None:
    runner = CliRunner()
    args = ["accounts", "invite", "--display-name", "Rosa", "--login", "r o", "--database-url", database_dsn]
    result = await asyncio.to_thread(runner.invoke, cli, args)
    assert result.exit_code == 2
    assert "--login" in result.output and "letters, digits" in result.output
