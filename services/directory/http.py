"""The REST edge of the lists and searches: thin handlers, one query each (services/directory/queries.py).

The club-scoped lists (a club's members and leagues, a league, a tournament's rounds) need a
session or API token of one of the club's members (``caller``: 401 without, 403 naming the club
otherwise); the games lists are public (they hold no hidden information), ``/me/games`` is the
caller's. Every page takes ``limit`` (1 to 100) and ``offset`` and answers
``{items, next_offset}``.

These are plain handlers, not a ``Controller``: several share their path with another
service's controller (``GET /games`` beside ``POST /games``, ``GET /clubs/{club_id}/members``
beside the clubs' ``POST``), and litestar 2 refuses a second controller on a path that has
one already (each brings its own ``OPTIONS`` handler). A plain handler registered after the
controller joins its route, so ``DIRECTORY_HANDLERS`` go last in the app's ``route_handlers``.
"""

from __future__ import annotations

from typing import Annotated, Any

import asyncpg
from litestar import get
from litestar.datastructures import State
from litestar.di import Provide
from litestar.params import Parameter

from services.accounts.http import SECURED
from services.clubs.bounds import MAX_OFFSET, MAX_PAGE
from services.clubs.http import provide_reader
from services.clubs.roles import Principal
from services.directory import queries
from services.directory.awaiting import AwaitedGames, awaited_games
from services.directory.queries import (
    GameFilter,
    GamePage,
    LeagueDetail,
    LeaguePage,
    MemberPage,
    MemberProfile,
    RoundPage,
)
from services.game.edge.gateway import GameGateway
from services.game.edge.http import TOKEN_OPTIONAL
from services.game.edge.tokens import Principal as GamePrincipal

DEFAULT_PAGE = 20

Limit = Annotated[int, Parameter(query="limit", ge=1, le=MAX_PAGE, description="1 to 100 items a page")]
Offset = Annotated[int, Parameter(query="offset", ge=0, le=MAX_OFFSET, description="items to skip")]
StateParam = Annotated[
    str | None, Parameter(query="state", description="lobby, ongoing, finished or abandoned")
]


async def provide_directory_db(state: State) -> asyncpg.Pool:
    """The API's pool (``app.state.resources``, opened by the app's lifespan)."""
    resources: Any = state.resources
    pool: asyncpg.Pool = resources.pool
    return pool


_DB = {"db": Provide(provide_directory_db)}
_READ = {**_DB, "reader": Provide(provide_reader)}
"""A league read: ``reader`` is None for an anonymous caller (services/league/visibility.py)."""


@get(
    "/clubs/{club_id:str}/members",
    operation_id="clubMembers",
    summary="A club's members by name (its members only); q: part of a name, any case",
    tags=["directory"],
    security=SECURED,
    dependencies=_DB,
)
async def club_members(
    club_id: str,
    caller: Principal,
    db: asyncpg.Pool,
    q: Annotated[str | None, Parameter(query="q", description="part of a display name, any case")] = None,
    limit: Limit = DEFAULT_PAGE,
    offset: Offset = 0,
) -> MemberPage:
    return await queries.club_members(db, caller, club_id, q, limit, offset)


@get(
    "/clubs/{club_id:str}/leagues",
    operation_id="clubLeagues",
    summary="A club's leagues by name: every one for its members, its public leagues for anybody else",
    tags=["directory"],
    security=TOKEN_OPTIONAL,
    dependencies=_READ,
)
async def club_leagues(
    club_id: str, reader: Principal | None, db: asyncpg.Pool, limit: Limit = DEFAULT_PAGE, offset: Offset = 0
) -> LeaguePage:
    return await queries.club_leagues(db, reader, club_id, limit, offset)


@get(
    "/leagues/{league_id:str}",
    operation_id="league",
    summary="A league: its club, seasons (entrants counted) and tournaments (anyone for a public league, "
    "its club's members for a members-only one)",
    tags=["directory"],
    security=TOKEN_OPTIONAL,
    dependencies=_READ,
)
async def league(league_id: str, reader: Principal | None, db: asyncpg.Pool) -> LeagueDetail:
    return await queries.league(db, reader, league_id)


@get(
    "/leagues/{league_id:str}/tournaments/{tournament_id:str}/rounds",
    operation_id="tournamentRounds",
    summary="A tournament's rounds: tables with named members, the Sheriff, the scheduled game, forfeits",
    tags=["directory"],
    security=TOKEN_OPTIONAL,
    dependencies=_READ,
)
async def tournament_rounds(
    league_id: str,
    tournament_id: str,
    reader: Principal | None,
    db: asyncpg.Pool,
    limit: Limit = DEFAULT_PAGE,
    offset: Offset = 0,
) -> RoundPage:
    return await queries.rounds(db, reader, league_id, tournament_id, limit, offset)


@get(
    "/games",
    operation_id="games",
    summary="Games newest first, by player, league, state and creation time (public: no hidden information)",
    tags=["directory"],
    dependencies=_DB,
)
async def games(
    db: asyncpg.Pool,
    player: Annotated[str | None, Parameter(query="player", description="a member id")] = None,
    league_id: Annotated[str | None, Parameter(query="league", description="a league id")] = None,
    status: StateParam = None,
    since: Annotated[str | None, Parameter(query="from", description="created at or after, ISO 8601")] = None,
    until: Annotated[str | None, Parameter(query="to", description="created before, ISO 8601")] = None,
    limit: Limit = DEFAULT_PAGE,
    offset: Offset = 0,
) -> GamePage:
    wanted = GameFilter(
        player=player,
        league=league_id,
        state=queries.game_state(status),
        since=queries.parse_moment("from", since),
        until=queries.parse_moment("to", until),
    )
    return await queries.games(db, wanted, limit, offset)


@get(
    "/me/games",
    operation_id="myGames",
    summary="Your games, newest first",
    tags=["directory"],
    security=SECURED,
    dependencies=_DB,
)
async def my_games(
    caller: Principal,
    db: asyncpg.Pool,
    status: StateParam = None,
    limit: Limit = DEFAULT_PAGE,
    offset: Offset = 0,
) -> GamePage:
    return await queries.my_games(db, caller, queries.game_state(status), limit, offset)


@get(
    "/me/awaiting",
    operation_id="myAwaitedGames",
    summary="Your move: your online games awaiting your seat (says nothing hidden from you)",
    tags=["directory"],
    security=SECURED,
    dependencies=_DB,
)
async def my_awaited_games(
    caller: Principal, principal: GamePrincipal | None, gateway: GameGateway, db: asyncpg.Pool
) -> AwaitedGames:
    return await awaited_games(db, caller, principal, gateway)


@get(
    "/members/{member_id:str}",
    operation_id="member",
    summary="A person: their display name and latest games (public, as the games lists are)",
    tags=["directory"],
    dependencies=_DB,
)
async def member(member_id: str, db: asyncpg.Pool) -> MemberProfile:
    return await queries.member(db, member_id)


DIRECTORY_HANDLERS = (
    club_members,
    club_leagues,
    league,
    tournament_rounds,
    games,
    my_games,
    my_awaited_games,
    member,
)
"""Register after every controller (see the module docstring)."""
