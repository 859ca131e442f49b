"""A demo season played by bots, so a fresh `bang-league serve --demo` has something to show.

Everything goes through the league and game services (`services/league/bot_league.py` plays a
round), with command ids derived from fixed names: seeding twice changes nothing, and a seeding
that died half-way finishes what is missing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from services.game.application.service import GameService
from services.game.fairness.vault import SeedVault
from services.league.bot_league import play_bot_round
from services.league.commands import (
    EnrollPlayer,
    FoundClub,
    FoundLeague,
    OpenSeason,
    OpenTournament,
    RegisterPlayer,
)
from services.league.service import LeagueService
from services.league.standings import StandingsProjection
from services.runtime.context import RuntimeContext

DEMO_CLUB = "demo_saloon"
DEMO_LEAGUE = "demo"
DEMO_SEASON = "season_1"
DEMO_TOURNAMENT = "opening_cup"
_NAMES = (
    "Ada",
    "Bart",
    "Calamity",
    "Doc",
    "El Gringo",
    "Jesse",
    "Kit",
    "Lucky",
    "Rose",
    "Sid",
    "Slab",
    "Suzy",
)

Progress = Callable[[str], None]


@dataclass(frozen=True, slots=True)
class DemoReport:
    seeded: bool
    rounds: int
    games: int


async def demo_exists(context: RuntimeContext) -> bool:
    return (await LeagueService(context.store).load_league(DEMO_LEAGUE)).exists


async def seed_demo(
    context: RuntimeContext, *, players: int = 10, rounds: int = 3, progress: Progress | None = None
) -> DemoReport:
    say = progress or (lambda _message: None)
    league = LeagueService(context.store)
    games = GameService(context.store, SeedVault(context.pool))
    members = [(f"bot_{n + 1:02d}", _NAMES[n % len(_NAMES)]) for n in range(players)]

    async def run(command: object, key: str) -> None:
        await league.execute(command, command_id=f"demo/{key}", actor="demo")  # type: ignore[arg-type]

    await run(FoundClub(club_id=DEMO_CLUB, name="Demo Saloon"), "club")
    for member_id, name in members:
        await run(RegisterPlayer(club_id=DEMO_CLUB, member_id=member_id, name=name), f"register/{member_id}")
    await run(FoundLeague(league_id=DEMO_LEAGUE, club_id=DEMO_CLUB, name="Demo League"), "league")
    await run(OpenSeason(league_id=DEMO_LEAGUE, season_id=DEMO_SEASON, name="Season 1"), "season")
    for member_id, _ in members:
        await run(
            EnrollPlayer(league_id=DEMO_LEAGUE, season_id=DEMO_SEASON, member_id=member_id),
            f"enrol/{member_id}",
        )
    await run(
        OpenTournament(
            league_id=DEMO_LEAGUE, season_id=DEMO_SEASON, tournament_id=DEMO_TOURNAMENT, name="Opening Cup"
        ),
        "tournament",
    )
    say(f"league {DEMO_LEAGUE!r}: {players} bots enrolled")
    projection = StandingsProjection(context.store)
    played = 0
    try:
        for number in range(1, rounds + 1):
            report = await play_bot_round(
                league, games, DEMO_LEAGUE, DEMO_TOURNAMENT, number, seed="demo", projection=projection
            )
            played += len(report.games)
            say(f"round {number}: {len(report.games)} games played")
    finally:
        await projection.close()
    return DemoReport(True, rounds, played)
