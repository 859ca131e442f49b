"""A league to play in: one club, twelve members, a season and a tournament."""

from __future__ import annotations

from services.league.commands import (
    EnrollPlayer,
    FoundClub,
    FoundLeague,
    OpenSeason,
    OpenTournament,
    RegisterPlayer,
)
from services.league.service import LeagueService
from services.league.vocabulary import PUBLIC, PointsScheme, SeatingPolicy

ONLY_FIVES = SeatingPolicy(allowed_sizes=(5,), preferred_size=5)
"""Twelve players at tables of five: two byes a round, so the bye rule is exercised too."""


MEMBERS = tuple(f"m{i:02d}" for i in range(12))
LEAGUE, SEASON, TOURNAMENT = "saloon", "s2025", "nights"


async def found_league(
    league: LeagueService,
    members: tuple[str, ...] = MEMBERS,
    *,
    seating: SeatingPolicy = ONLY_FIVES,
) -> None:
    """Club, players, a league, an open season with bonus points, one tournament."""
    await league.execute(FoundClub(club_id="club", name="Dry Gulch Saloon"), command_id="found-club")
    for member in members:
        await league.execute(
            RegisterPlayer(club_id="club", member_id=member, name=member.upper()), command_id=f"reg/{member}"
        )
    await league.execute(
        # public: the tests read it anonymously (services/league/visibility.py)
        FoundLeague(
            league_id=LEAGUE, club_id="club", name="Saloon League", seating=seating, visibility=PUBLIC
        ),
        command_id="found-league",
    )
    await league.execute(
        OpenSeason(league_id=LEAGUE, season_id=SEASON, name="2025", points=PointsScheme.with_bonuses()),
        command_id="open-season",
    )
    for member in members:
        await league.execute(
            EnrollPlayer(league_id=LEAGUE, season_id=SEASON, member_id=member), command_id=f"enrol/{member}"
        )
    await league.execute(
        OpenTournament(league_id=LEAGUE, season_id=SEASON, tournament_id=TOURNAMENT, name="League nights"),
        command_id="open-tournament",
    )


CARE = {member: 0.5 + 0.04 * i for i, member in enumerate(MEMBERS)}
"""Per-member bot strength: the standings should have some shape."""
