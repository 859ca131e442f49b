"""`bang-league league …`: an organiser's league commands, over the REST API with a token.

Each command is one request to the API (docs/league.md, "Running a league through the API"),
signed with `--token` (default `BANG_LEAGUE_TOKEN`: a session token from `POST /sessions`, or
an API token from `POST /me/tokens`) against `--url` (default `BANG_LEAGUE_URL`, else
http://127.0.0.1:8000). The answer is printed as JSON; a refusal prints the problem's detail
on stderr and exits 1 (2 when the API cannot be reached).
"""

from __future__ import annotations

import json
import sys
from typing import Annotated, Any

import httpx
import typer

app = typer.Typer(
    no_args_is_help=True, help="Run a league through the API: found, enrol, seat, schedule, void."
)

Url = Annotated[
    str, typer.Option("--url", envvar="BANG_LEAGUE_URL", help="The API's base URL.", show_default=True)
]
Token = Annotated[
    str,
    typer.Option(
        "--token", envvar="BANG_LEAGUE_TOKEN", help="A session or API token (default: BANG_LEAGUE_TOKEN)."
    ),
]
CommandId = Annotated[
    str | None, typer.Option("--command-id", help="Idempotency key: sending it again changes nothing.")
]
DEFAULT_URL = "http://127.0.0.1:8000"


def call(url: str, token: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    """POST ``body`` (None values left out) to ``path``; the answer, or exit naming the refusal."""
    sent = {k: v for k, v in body.items() if v is not None}
    try:
        response = httpx.post(
            url.rstrip("/") + path, json=sent, headers={"Authorization": f"Bearer {token}"}, timeout=60
        )
    except httpx.HTTPError as error:
        typer.echo(f"cannot reach {url}: {type(error).__name__}", err=True)
        raise typer.Exit(2) from None
    answer: dict[str, Any] = response.json() if response.content else {}
    if response.status_code >= 400:
        where = f" ({answer['field']})" if answer.get("field") else ""
        title, detail = answer.get("title", ""), answer.get("detail", "")
        typer.echo(f"{response.status_code} {title}{where}: {detail}", err=True)
        raise typer.Exit(1)
    json.dump(answer, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return answer


@app.command("found-league")
def found_league(
    club_id: Annotated[str, typer.Argument(help="The club (you are its admin or organiser).")],
    name: Annotated[str, typer.Option("--name", help="The league's name.")],
    token: Token,
    league_id: Annotated[str | None, typer.Option("--league-id", help="Default: derived.")] = None,
    game_type: Annotated[
        str, typer.Option("--game-type", help="dice (BANG! The Dice Game) or cards (the card game).")
    ] = "dice",
    visibility: Annotated[
        str, typer.Option("--visibility", help="members (its club's members only) or public (anyone).")
    ] = "members",
    command_id: CommandId = None,
    url: Url = DEFAULT_URL,
) -> None:
    """Found a league of a club, playing one game type, readable by its club's members or by anyone."""
    body = {
        "name": name, "league_id": league_id, "game_type": game_type, "visibility": visibility,
        "command_id": command_id,
    }  # fmt: skip
    call(url, token, f"/clubs/{club_id}/leagues", body)


@app.command("set-visibility")
def set_visibility(
    league_id: str,
    visibility: Annotated[str, typer.Argument(help="members (its club's members only) or public (anyone).")],
    token: Token,
    command_id: CommandId = None,
    url: Url = DEFAULT_URL,
) -> None:
    """Make a league readable by its club's members only, or by anyone."""
    call(url, token, f"/leagues/{league_id}/visibility", {"visibility": visibility, "command_id": command_id})


@app.command("open-season")
def open_season(
    league_id: str,
    name: Annotated[str, typer.Option("--name")],
    token: Token,
    season_id: Annotated[str | None, typer.Option("--season-id")] = None,
    command_id: CommandId = None,
    url: Url = DEFAULT_URL,
) -> None:
    """Open a season of a league."""
    body = {"name": name, "season_id": season_id, "command_id": command_id}
    call(url, token, f"/leagues/{league_id}/seasons", body)


@app.command("enrol")
def enrol(
    league_id: str,
    season_id: str,
    member_ids: Annotated[list[str], typer.Argument(help="Club members' account ids.")],
    token: Token,
    command_id: CommandId = None,
    url: Url = DEFAULT_URL,
) -> None:
    """Enrol club members in a season: all of them, or (refused) none."""
    body = {"member_ids": member_ids, "command_id": command_id}
    call(url, token, f"/leagues/{league_id}/seasons/{season_id}/entrants", body)


@app.command("open-tournament")
def open_tournament(
    league_id: str,
    season_id: str,
    name: Annotated[str, typer.Option("--name")],
    token: Token,
    tournament_id: Annotated[str | None, typer.Option("--tournament-id")] = None,
    command_id: CommandId = None,
    url: Url = DEFAULT_URL,
) -> None:
    """Open a tournament in a season."""
    body = {"name": name, "tournament_id": tournament_id, "command_id": command_id}
    call(url, token, f"/leagues/{league_id}/seasons/{season_id}/tournaments", body)


@app.command("seat-round")
def seat_round(
    league_id: str,
    tournament_id: str,
    token: Token,
    round_number: Annotated[int | None, typer.Option("--round", help="Default: the next round.")] = None,
    seed: Annotated[str | None, typer.Option("--seed", help="Default: a random one.")] = None,
    command_id: CommandId = None,
    url: Url = DEFAULT_URL,
) -> None:
    """Seat the next round: Swiss on the standings, the Sheriff by the rotation."""
    body = {"round": round_number, "seed": seed, "command_id": command_id}
    call(url, token, f"/leagues/{league_id}/tournaments/{tournament_id}/rounds", body)


@app.command("schedule")
def schedule(
    league_id: str,
    tournament_id: str,
    round_number: Annotated[int, typer.Argument(metavar="ROUND")],
    table: int,
    mode: Annotated[str, typer.Option("--mode", help="online (created now) or table.")],
    token: Token,
    game_id: Annotated[str | None, typer.Option("--game-id", help="Default: g-<hex>.")] = None,
    scorekeeper: Annotated[
        str | None, typer.Option("--scorekeeper", help="A table game's scorekeeper (account id).")
    ] = None,
    command_id: CommandId = None,
    url: Url = DEFAULT_URL,
) -> None:
    """Schedule a seated table's game."""
    body = {"mode": mode, "game_id": game_id, "scorekeeper": scorekeeper, "command_id": command_id}
    path = f"/leagues/{league_id}/tournaments/{tournament_id}/rounds/{round_number}/tables/{table}/game"
    call(url, token, path, body)


@app.command("result-sheet")
def result_sheet(
    league_id: str,
    tournament_id: str,
    round_number: Annotated[int, typer.Argument(metavar="ROUND")],
    table: int,
    sheet: Annotated[
        typer.FileText,
        typer.Option(
            "--sheet",
            help="The sheet as JSON (- for stdin): seats [{member_id, role, character}] in seating order, "
            "eliminations [{member_id, by, turn}] in order (by left out: nobody), winning_side, winners.",
        ),
    ],
    token: Token,
    command_id: CommandId = None,
    url: Url = DEFAULT_URL,
) -> None:
    """Record the result sheet of a card game played entirely on cardboard (not replayable)."""
    try:
        body: dict[str, Any] = json.load(sheet)
    except json.JSONDecodeError as error:
        typer.echo(f"the sheet is not JSON: {error}", err=True)
        raise typer.Exit(1) from None
    if not isinstance(body, dict):
        typer.echo("the sheet is a JSON object: seats, eliminations, winning_side, winners", err=True)
        raise typer.Exit(1)
    body["command_id"] = command_id
    path = (
        f"/leagues/{league_id}/tournaments/{tournament_id}/rounds/{round_number}/tables/{table}/result-sheet"
    )
    call(url, token, path, body)


@app.command("forfeit")
def forfeit(
    league_id: str,
    tournament_id: str,
    round_number: Annotated[int, typer.Argument(metavar="ROUND")],
    table: Annotated[int, typer.Option("--table")],
    member_id: Annotated[str, typer.Option("--member", help="The member's account id.")],
    token: Token,
    kind: Annotated[str, typer.Option("--kind", help="forfeit or no-show.")] = "forfeit",
    reason: Annotated[str | None, typer.Option("--reason")] = None,
    command_id: CommandId = None,
    url: Url = DEFAULT_URL,
) -> None:
    """Record a seated member's forfeit or no-show."""
    body = {"table": table, "member_id": member_id, "kind": kind, "reason": reason, "command_id": command_id}
    call(url, token, f"/leagues/{league_id}/tournaments/{tournament_id}/rounds/{round_number}/forfeits", body)


@app.command("close-round")
def close_round(
    league_id: str,
    tournament_id: str,
    round_number: Annotated[int, typer.Argument(metavar="ROUND")],
    token: Token,
    command_id: CommandId = None,
    url: Url = DEFAULT_URL,
) -> None:
    """Close a round: nothing more is scheduled or forfeited in it."""
    path = f"/leagues/{league_id}/tournaments/{tournament_id}/rounds/{round_number}/close"
    call(url, token, path, {"command_id": command_id})


@app.command("close-season")
def close_season(
    league_id: str, season_id: str, token: Token, command_id: CommandId = None, url: Url = DEFAULT_URL
) -> None:
    """Close a season."""
    call(url, token, f"/leagues/{league_id}/seasons/{season_id}/close", {"command_id": command_id})


@app.command("void")
def void(
    league_id: str,
    game_id: str,
    reason: Annotated[str, typer.Option("--reason", help="Why, in a few words (kept with the void).")],
    token: Token,
    command_id: CommandId = None,
    url: Url = DEFAULT_URL,
) -> None:
    """Void one of the league's games (a referee, organiser or admin)."""
    body = {"reason": reason, "command_id": command_id}
    call(url, token, f"/leagues/{league_id}/games/{game_id}/void", body)
