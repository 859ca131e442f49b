"""GraphQL for leagues: standings, a tournament's rounds and tables, head-to-head records, and
a live standings subscription. Merged into the root schema by services/api/schema.py.

Context keys the resolvers read (``info.context``):

* ``"pool"``: an ``asyncpg.Pool`` on the database holding the league read model (required);
* ``"redis"``: a ``redis.asyncio.Redis`` client (optional): the live subscription listens on
  ``standings_channel(<database>)`` where the projection announces each committed batch;
* ``"league_poll_seconds"``: how often the subscription re-checks the projection's checkpoint
  without a Redis message (optional, default 2 s): a lost message only delays an update.

* ``"clubs"``: the ``ClubService`` that resolves the caller of a members-only league.

Everything here reads the read model; nothing writes. Every field reads a league only as its
one rule says (services/league/visibility.py: anyone for a public league, its club's members
for a members-only one), as the REST routes do.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncGenerator, AsyncIterator, Mapping
from typing import Any

import asyncpg
import strawberry
from redis import asyncio as aioredis
from strawberry.types import Info

from event_store import PostgresEventStore, checkpoint_of
from services.clubs.names import names_of
from services.clubs.readers import reader
from services.game.edge.bounds import Identifier, bounded
from services.game.results import GameType
from services.league import read_model
from services.league.events import LeagueFounded
from services.league.league import league_stream
from services.league.ranking import Standing
from services.league.result_sheet import NOT_REPLAYABLE
from services.league.standings import PROJECTION_NAME, standings_channel
from services.league.visibility import LeagueReaders, readable_league

DEFAULT_POLL_SECONDS = 2.0

NAME = "The member's display name (member ids are for links, not for reading)."


@strawberry.type(description="One member's line in the standings, with every tie-break value.")
class LeagueStandingLine:
    rank: int
    member_id: strawberry.ID
    display_name: str = strawberry.field(description=NAME)
    points: int
    games: int
    wins: int
    renegade_wins: int
    survivals: int
    sheriff_games: int
    byes: int
    forfeits: int = strawberry.field(
        description="Forfeits and no-shows: each is also one game played, lost, with no points."
    )
    buchholz: float = strawberry.field(
        description="Sum over games played of the mean points of the table-mates."
    )
    head_to_head: int = strawberry.field(
        description="Wins minus losses in games shared with the players tied on points and Buchholz."
    )

    @classmethod
    def of(cls, line: Standing, names: Mapping[str, str]) -> LeagueStandingLine:
        return cls(
            rank=line.rank,
            member_id=strawberry.ID(line.member_id),
            display_name=names[line.member_id],
            points=line.points,
            games=line.games,
            wins=line.wins,
            renegade_wins=line.renegade_wins,
            survivals=line.survivals,
            sheriff_games=line.sheriff_games,
            byes=line.byes,
            forfeits=line.forfeits,
            buchholz=line.buchholz,
            head_to_head=line.head_to_head,
        )


@strawberry.type(description="Ranked standings of a league, a season or a tournament.")
class LeagueStandings:
    league_id: strawberry.ID
    club_id: strawberry.ID = strawberry.field(
        description="The league's club: its games are rated in that club's pool "
        '(ratingLeaderboard(pool: "club:<id>")).'
    )
    season_id: strawberry.ID | None
    tournament_id: strawberry.ID | None
    position: int = strawberry.field(
        description="The event store position the standings are up to date with."
    )
    lines: list[LeagueStandingLine]


@strawberry.type(description="A seated member who forfeited the table, or did not show up.")
class LeagueForfeit:
    member_id: strawberry.ID
    display_name: str = strawberry.field(description=NAME)
    kind: str = strawberry.field(description="forfeit or no-show")
    reason: str

    @classmethod
    def of(cls, forfeit: read_model.ForfeitView, names: Mapping[str, str]) -> LeagueForfeit:
        return cls(
            member_id=strawberry.ID(forfeit.member_id),
            display_name=names[forfeit.member_id],
            kind=forfeit.kind,
            reason=forfeit.reason,
        )


@strawberry.type
class LeagueTable:
    table: int
    members: list[strawberry.ID]
    member_names: list[str] = strawberry.field(
        description="The members' display names, in the order of members (scalars: a big tournament "
        "stays cheap to ask for)."
    )
    sheriff: strawberry.ID | None = strawberry.field(description="None at a three-player table (no Sheriff).")
    sheriff_name: str | None = strawberry.field(description="The Sheriff's display name.")
    game_id: strawberry.ID | None
    winning_side: str | None
    mode: str | None = strawberry.field(default=None, description="online or table, once scheduled.")
    forfeits: list[LeagueForfeit] = strawberry.field(default_factory=list)
    voided: bool = strawberry.field(
        default=False, description="The table's game was voided: it does not count in the standings."
    )
    replayable: bool = strawberry.field(
        default=True,
        description="False for a card game played on cardboard, known only from its result sheet: it "
        "counts, and there is no record to replay or audit.",
    )
    shown_as: str | None = strawberry.field(
        default=None, description="`result sheet — not replayable` for such a game; null otherwise."
    )


@strawberry.type
class LeagueRound:
    round: int
    tables: list[LeagueTable]
    byes: list[strawberry.ID]
    bye_names: list[str] = strawberry.field(description="Their display names, in the order of byes.")
    closed: bool = strawberry.field(default=False, description="The round's schedule is final.")


@strawberry.type
class LeagueTournament:
    league_id: strawberry.ID
    tournament_id: strawberry.ID
    season_id: strawberry.ID
    name: str
    rounds: list[LeagueRound]
    game_type: str = strawberry.field(
        default=GameType.DICE.value,
        description="The game the league plays, `dice` or `cards`: every game of the tournament is of it.",
    )


@strawberry.type(description="A member's record against one opponent: games together and the wins of each.")
class LeagueHeadToHead:
    member_id: strawberry.ID
    display_name: str = strawberry.field(description=NAME)
    opponent_id: strawberry.ID
    opponent_name: str = strawberry.field(description="The opponent's display name.")
    games: int
    wins: int
    opponent_wins: int


async def _game_type(pool: asyncpg.Pool, league_id: str) -> str:
    """The league's game type, as its founding event says (the first of its stream)."""
    founded = await PostgresEventStore(pool).read_stream(league_stream(league_id), limit=1)
    if founded and founded[0].type == LeagueFounded.__name__:
        return str(founded[0].data.get("game_type", GameType.DICE.value))
    return GameType.DICE.value


def _pool(info: Info) -> asyncpg.Pool:
    pool: asyncpg.Pool = info.context["pool"]
    return pool


def _ids(**ids: str | None) -> None:
    """Refuse an id argument outside its bounds (a NUL cannot even be sent to PostgreSQL)."""
    for name, value in ids.items():
        bounded(name, value, Identifier)


async def load_standings(
    pool: asyncpg.Pool, readers: LeagueReaders, season_id: str | None, tournament_id: str | None
) -> LeagueStandings:
    league_id = readers.league_id
    # The checkpoint first: the standings read after it are at least that fresh.
    position = await checkpoint_of(pool, PROJECTION_NAME)
    lines = await read_model.standings(pool, league_id, season_id, tournament_id)
    names = await names_of(pool, (line.member_id for line in lines))
    return LeagueStandings(
        league_id=strawberry.ID(league_id),
        club_id=strawberry.ID(readers.club_id),
        season_id=None if season_id is None else strawberry.ID(season_id),
        tournament_id=None if tournament_id is None else strawberry.ID(tournament_id),
        position=position,
        lines=[LeagueStandingLine.of(line, names) for line in lines],
    )


@strawberry.type
class LeagueQuery:
    @strawberry.field(
        description="LeagueStandings of a tournament, a season, or (neither given) the whole league."
    )
    async def league_standings(
        self,
        info: Info,
        league_id: strawberry.ID,
        season_id: strawberry.ID | None = None,
        tournament_id: strawberry.ID | None = None,
    ) -> LeagueStandings:
        _ids(leagueId=league_id, seasonId=season_id, tournamentId=tournament_id)
        readers = await readable_league(_pool(info), await reader(info), league_id)
        assert readers is not None  # an unknown league is refused (unknown=False)
        return await load_standings(_pool(info), readers, season_id, tournament_id)

    @strawberry.field(description="A tournament with its seated rounds, tables, Sheriffs, games and byes.")
    async def league_tournament(
        self, info: Info, league_id: strawberry.ID, tournament_id: strawberry.ID
    ) -> LeagueTournament | None:
        _ids(leagueId=league_id, tournamentId=tournament_id)
        pool = _pool(info)
        await readable_league(pool, await reader(info), league_id)
        row = await pool.fetchrow(
            "SELECT season_id, name FROM league_tournaments WHERE league_id = $1 AND tournament_id = $2",
            league_id,
            tournament_id,
        )
        if row is None:
            return None
        rounds = await read_model.rounds(pool, league_id, tournament_id)
        people = {m for r in rounds for m in r.byes}
        people |= {m for r in rounds for t in r.tables for m in t.members}
        people |= {f.member_id for r in rounds for t in r.tables for f in t.forfeits}
        names = await names_of(pool, people)
        return LeagueTournament(
            league_id=league_id,
            tournament_id=tournament_id,
            season_id=strawberry.ID(row["season_id"]),
            name=row["name"],
            game_type=await _game_type(pool, league_id),
            rounds=[
                LeagueRound(
                    round=r.round,
                    tables=[
                        LeagueTable(
                            table=t.table,
                            members=[strawberry.ID(m) for m in t.members],
                            member_names=[names[m] for m in t.members],
                            sheriff=None if t.sheriff is None else strawberry.ID(t.sheriff),
                            sheriff_name=None if t.sheriff is None else names.get(t.sheriff, t.sheriff),
                            game_id=None if t.game_id is None else strawberry.ID(t.game_id),
                            winning_side=t.winning_side,
                            mode=t.mode,
                            forfeits=[LeagueForfeit.of(f, names) for f in t.forfeits],
                            voided=t.voided,
                            replayable=t.replayable,
                            shown_as=None if t.replayable else NOT_REPLAYABLE,
                        )
                        for t in r.tables
                    ],
                    byes=[strawberry.ID(m) for m in r.byes],
                    bye_names=[names[m] for m in r.byes],
                    closed=r.closed,
                )
                for r in rounds
            ],
        )

    @strawberry.field(description="A member's head-to-head records (against one opponent, or all).")
    async def league_head_to_head(
        self,
        info: Info,
        league_id: strawberry.ID,
        member_id: strawberry.ID,
        opponent_id: strawberry.ID | None = None,
        season_id: strawberry.ID | None = None,
    ) -> list[LeagueHeadToHead]:
        _ids(leagueId=league_id, memberId=member_id, opponentId=opponent_id, seasonId=season_id)
        pool = _pool(info)
        await readable_league(pool, await reader(info), league_id)
        records = await read_model.head_to_head(pool, league_id, member_id, opponent_id, season_id)
        names = await names_of(pool, {member_id} | {r.opponent_id for r in records})
        return [
            LeagueHeadToHead(
                member_id=strawberry.ID(r.member_id),
                display_name=names.get(r.member_id, r.member_id),
                opponent_id=strawberry.ID(r.opponent_id),
                opponent_name=names[r.opponent_id],
                games=r.games,
                wins=r.wins,
                opponent_wins=r.opponent_wins,
            )
            for r in records
        ]


@strawberry.type
class LeagueSubscription:
    @strawberry.subscription(
        description="The standings now, then again each time they change (the projection announces each "
        "batch on Redis; without a message the checkpoint is polled)."
    )
    async def league_standings_updated(
        self,
        info: Info,
        league_id: strawberry.ID,
        season_id: strawberry.ID | None = None,
        tournament_id: strawberry.ID | None = None,
    ) -> AsyncGenerator[LeagueStandings, None]:
        _ids(leagueId=league_id, seasonId=season_id, tournamentId=tournament_id)
        pool = _pool(info)
        await readable_league(pool, await reader(info), league_id)
        poll = float(info.context.get("league_poll_seconds", DEFAULT_POLL_SECONDS))
        last_position: int | None = None
        last_lines: list[LeagueStandingLine] | None = None
        async with _announcements(info.context.get("redis"), pool) as announced:
            while True:
                position = await checkpoint_of(pool, PROJECTION_NAME)
                if position != last_position:
                    last_position = position
                    # made members-only since, or the caller's roles revoked?
                    readers = await readable_league(pool, await reader(info), league_id)
                    assert readers is not None  # an unknown league is refused (unknown=False)
                    standings = await load_standings(pool, readers, season_id, tournament_id)
                    if standings.lines != last_lines:
                        last_lines = standings.lines
                        yield standings
                await announced(poll)


@contextlib.asynccontextmanager
async def _announcements(redis: Any, pool: asyncpg.Pool) -> AsyncIterator[Any]:
    """A ``wait(timeout)`` that returns early when the projection announces a batch."""
    if not isinstance(redis, aioredis.Redis):

        async def sleep_only(timeout: float) -> None:
            await asyncio.sleep(timeout)

        yield sleep_only
        return
    pubsub = redis.pubsub()
    await pubsub.subscribe(standings_channel(await pool.fetchval("SELECT current_database()")))

    async def wait(timeout: float) -> None:
        try:
            await pubsub.get_message(ignore_subscribe_messages=True, timeout=timeout)
        except (OSError, aioredis.RedisError):
            await asyncio.sleep(timeout)  # Redis away: fall back to polling

    try:
        yield wait
    finally:
        with contextlib.suppress(OSError, aioredis.RedisError):
            await pubsub.aclose()
