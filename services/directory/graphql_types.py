"""GraphQL for the lists and searches: the same pages as REST (services/directory/http.py),
``limit``/``offset`` arguments and ``nextOffset``. Merged into the root schema by
services/api/schema.py.

Context keys the resolvers read (``info.context``): ``"pool"`` (the database), and for the
club-scoped lists ``"clubs"`` (the clubs' service: ``principal(authorization)`` is the
signed-in caller, from the request's ``Authorization`` header or the WebSocket's connection
params). Everything here reads; nothing writes.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

import asyncpg
import strawberry
from strawberry.types import Info

from services.clubs.readers import authorization, reader
from services.clubs.roles import Principal
from services.directory import queries

DEFAULT_PAGE = 20
ROUNDS_PAGE = 5
"""A round holds up to 40 tables of up to 8 named members: five rounds stay within the query
cost limit (services/api/graphql_cost.py) whatever is selected; ask for more in several pages."""

Since = Annotated[datetime | None, strawberry.argument(name="from", description="Created at or after.")]
Until = Annotated[datetime | None, strawberry.argument(name="to", description="Created before.")]


@strawberry.type(name="DirectoryPerson", description="A person: their display name, and their id for links.")
class Person:
    member_id: strawberry.ID
    display_name: str

    @classmethod
    def of(cls, person: queries.Person) -> Person:
        return cls(member_id=strawberry.ID(person.member_id), display_name=person.display_name)


@strawberry.type(name="DirectoryClubMember")
class ClubMember:
    member_id: strawberry.ID
    display_name: str
    roles: list[str]


@strawberry.type(name="DirectoryMemberPage")
class MemberPage:
    items: list[ClubMember]
    next_offset: int | None = strawberry.field(description="The next page's offset; null on the last page.")


@strawberry.type(name="DirectoryClub")
class ClubRef:
    club_id: strawberry.ID
    name: str


@strawberry.type(name="DirectoryLeagueSummary")
class LeagueSummary:
    league_id: strawberry.ID
    name: str
    club: ClubRef
    seasons: int
    founded_at: datetime
    game_type: str = strawberry.field(default="dice", description="What the league plays: `dice` or `cards`.")


@strawberry.type(name="DirectoryLeaguePage")
class LeaguePage:
    items: list[LeagueSummary]
    next_offset: int | None


@strawberry.type(name="DirectorySeason")
class Season:
    season_id: strawberry.ID
    name: str
    entrants: int
    closed: bool
    opened_at: datetime


@strawberry.type(name="DirectoryTournament")
class Tournament:
    tournament_id: strawberry.ID
    season_id: strawberry.ID
    name: str
    rounds: int
    opened_at: datetime


@strawberry.type(name="DirectoryLeague", description="A league with its seasons and tournaments.")
class League:
    league_id: strawberry.ID
    name: str
    club: ClubRef
    founded_at: datetime
    seasons: list[Season]
    tournaments: list[Tournament]
    game_type: str = strawberry.field(default="dice", description="What the league plays: `dice` or `cards`.")
    visibility: str = strawberry.field(
        default="members",
        description="Who may read it: `public` (anyone) or `members` (its club's members only).",
    )


@strawberry.type(name="DirectoryScheduledGame")
class ScheduledGame:
    game_id: strawberry.ID
    mode: str | None
    status: str | None = strawberry.field(description="The game's state once it exists.")
    winning_side: str | None = strawberry.field(description="Once the game has ended.")
    voided: bool
    replayable: bool = strawberry.field(
        default=True, description="False for a card game played on cardboard, known from its result sheet."
    )
    shown_as: str | None = strawberry.field(
        default=None, description="`result sheet — not replayable` for such a game."
    )
    starts_at: datetime | None = strawberry.field(
        default=None, description="When the table plays, as scheduled."
    )
    ruleset: str | None = strawberry.field(
        default=None, description="The scheduled rules (`dice OS1`); null: the league's base game."
    )
    decision_timeout_seconds: int | None = strawberry.field(
        default=None, description="The scheduled decision timer in seconds; null: none."
    )


@strawberry.type(name="DirectoryForfeit")
class Forfeit:
    member: Person
    kind: str
    reason: str


@strawberry.type(name="DirectoryRoundTable")
class RoundTable:
    table: int
    members: list[Person]
    sheriff: Person | None = strawberry.field(description="The rotation's Sheriff; null at three players.")
    game: ScheduledGame | None
    forfeits: list[Forfeit]


@strawberry.type(name="DirectoryRound")
class Round:
    round: int
    season_id: strawberry.ID
    seated_at: datetime
    closed: bool
    tables: list[RoundTable]
    byes: list[Person]


@strawberry.type(name="DirectoryRoundPage")
class RoundPage:
    items: list[Round]
    next_offset: int | None


@strawberry.type(name="DirectoryGameLeague", description="The league table a game was scheduled for.")
class GameLeague:
    league_id: strawberry.ID
    name: str
    club_id: strawberry.ID
    season_id: strawberry.ID | None
    tournament_id: strawberry.ID
    round: int
    table: int


@strawberry.type(name="DirectoryGamePlayer")
class GamePlayer:
    member_id: strawberry.ID
    display_name: str
    seat: str | None = strawberry.field(description="p1…, once the seats are dealt.")
    won: bool | None = strawberry.field(description="Once the game has ended.")


@strawberry.type(name="DirectoryGame", description="A game as the lists show it: no hidden information.")
class Game:
    game_id: strawberry.ID
    mode: str
    status: str
    game_type: str
    modules: list[str]
    options: list[str] = strawberry.field(
        description="The ruleset's options (the card game's `eight_players`)."
    )
    player_count: int
    created_at: datetime
    started_at: datetime | None
    ended_at: datetime | None
    league: GameLeague | None
    winning_side: str | None
    voided: bool
    players: list[GamePlayer]

    @classmethod
    def of(cls, game: queries.GameSummary) -> Game:
        league = game.league
        return cls(
            game_id=strawberry.ID(game.game_id),
            mode=game.mode,
            status=game.status.value,
            game_type=game.game_type,
            modules=game.modules,
            options=game.options,
            player_count=game.player_count,
            created_at=game.created_at,
            started_at=game.started_at,
            ended_at=game.ended_at,
            league=None
            if league is None
            else GameLeague(
                league_id=strawberry.ID(league.league_id),
                name=league.name,
                club_id=strawberry.ID(league.club_id),
                season_id=None if league.season_id is None else strawberry.ID(league.season_id),
                tournament_id=strawberry.ID(league.tournament_id),
                round=league.round,
                table=league.table,
            ),
            winning_side=game.winning_side,
            voided=game.voided,
            players=[
                GamePlayer(
                    member_id=strawberry.ID(p.member_id), display_name=p.display_name, seat=p.seat, won=p.won
                )
                for p in game.players
            ],
        )


@strawberry.type(name="DirectoryGamePage")
class GamePage:
    items: list[Game]
    next_offset: int | None

    @classmethod
    def of(cls, page: queries.GamePage) -> GamePage:
        return cls(items=[Game.of(g) for g in page.items], next_offset=page.next_offset)


@strawberry.type(name="DirectoryMember", description="A person and their latest games.")
class Member:
    member_id: strawberry.ID
    display_name: str
    games: list[Game] = strawberry.field(description="The latest ten, newest first (`games` pages on).")


def _pool(info: Info) -> asyncpg.Pool:
    pool: asyncpg.Pool = info.context["pool"]
    return pool


async def _caller(info: Info) -> Principal:
    """The signed-in caller (refused when anonymous)."""
    clubs: Any = info.context["clubs"]
    caller: Principal = await clubs.principal(authorization(info))
    return caller


def _table(table: queries.RoundTable) -> RoundTable:
    game = table.game
    return RoundTable(
        table=table.table,
        members=[Person.of(m) for m in table.members],
        sheriff=None if table.sheriff is None else Person.of(table.sheriff),
        game=None
        if game is None
        else ScheduledGame(
            game_id=strawberry.ID(game.game_id),
            mode=game.mode,
            status=game.status,
            winning_side=game.winning_side,
            voided=game.voided,
            replayable=game.replayable,
            shown_as=game.shown_as,
            starts_at=game.starts_at,
            ruleset=game.ruleset,
            decision_timeout_seconds=game.decision_timeout_seconds,
        ),
        forfeits=[Forfeit(member=Person.of(f.member), kind=f.kind, reason=f.reason) for f in table.forfeits],
    )


def _club(club: queries.ClubRef) -> ClubRef:
    return ClubRef(club_id=strawberry.ID(club.club_id), name=club.name)


def _league_page(page: queries.LeaguePage) -> LeaguePage:
    return LeaguePage(
        items=[
            LeagueSummary(
                league_id=strawberry.ID(item.league_id),
                name=item.name,
                club=_club(item.club),
                seasons=item.seasons,
                founded_at=item.founded_at,
                game_type=item.game_type,
            )
            for item in page.items
        ],
        next_offset=page.next_offset,
    )


@strawberry.type
class DirectoryQuery:
    @strawberry.field(description="A club's members by name (its members only); q: part of a name, any case.")
    async def club_members(
        self,
        info: Info,
        club_id: strawberry.ID,
        q: str | None = None,
        limit: int = DEFAULT_PAGE,
        offset: int = 0,
    ) -> MemberPage:
        page = await queries.club_members(_pool(info), await _caller(info), club_id, q, limit, offset)
        return MemberPage(
            items=[
                ClubMember(member_id=strawberry.ID(m.member_id), display_name=m.display_name, roles=m.roles)
                for m in page.items
            ],
            next_offset=page.next_offset,
        )

    @strawberry.field(
        description="A club's leagues by name: every one for its members, the public ones for anybody else."
    )
    async def club_leagues(
        self, info: Info, club_id: strawberry.ID, limit: int = DEFAULT_PAGE, offset: int = 0
    ) -> LeaguePage:
        page = await queries.club_leagues(_pool(info), await reader(info), club_id, limit, offset)
        return _league_page(page)

    @strawberry.field(
        description="Every league the caller may read, by club then name: the public leagues of every "
        "club, and every league of the caller's own clubs (members-only ones included)."
    )
    async def leagues(self, info: Info, limit: int = DEFAULT_PAGE, offset: int = 0) -> LeaguePage:
        page = await queries.readable_leagues(_pool(info), await reader(info), limit, offset)
        return _league_page(page)

    @strawberry.field(
        description="A league: its club, seasons and tournaments (anyone for a public league, its club's "
        "members for a members-only one)."
    )
    async def league(self, info: Info, league_id: strawberry.ID) -> League:
        found = await queries.league(_pool(info), await reader(info), league_id)
        return League(
            league_id=strawberry.ID(found.league_id),
            name=found.name,
            club=_club(found.club),
            founded_at=found.founded_at,
            game_type=found.game_type,
            visibility=found.visibility,
            seasons=[
                Season(
                    season_id=strawberry.ID(s.season_id),
                    name=s.name,
                    entrants=s.entrants,
                    closed=s.closed,
                    opened_at=s.opened_at,
                )
                for s in found.seasons
            ],
            tournaments=[
                Tournament(
                    tournament_id=strawberry.ID(t.tournament_id),
                    season_id=strawberry.ID(t.season_id),
                    name=t.name,
                    rounds=t.rounds,
                    opened_at=t.opened_at,
                )
                for t in found.tournaments
            ],
        )

    @strawberry.field(description="A tournament's rounds: named tables, Sheriffs, scheduled games, forfeits.")
    async def tournament_rounds(
        self,
        info: Info,
        league_id: strawberry.ID,
        tournament_id: strawberry.ID,
        limit: int = ROUNDS_PAGE,
        offset: int = 0,
    ) -> RoundPage:
        page = await queries.rounds(_pool(info), await reader(info), league_id, tournament_id, limit, offset)
        return RoundPage(
            items=[
                Round(
                    round=r.round,
                    season_id=strawberry.ID(r.season_id),
                    seated_at=r.seated_at,
                    closed=r.closed,
                    tables=[_table(t) for t in r.tables],
                    byes=[Person.of(p) for p in r.byes],
                )
                for r in page.items
            ],
            next_offset=page.next_offset,
        )

    @strawberry.field(description="Games newest first, by player, league, state and creation time (public).")
    async def games(
        self,
        info: Info,
        player: strawberry.ID | None = None,
        league: strawberry.ID | None = None,
        state: str | None = None,
        since: Since = None,
        until: Until = None,
        limit: int = DEFAULT_PAGE,
        offset: int = 0,
    ) -> GamePage:
        wanted = queries.GameFilter(
            player=player, league=league, state=queries.game_state(state), since=since, until=until
        )
        return GamePage.of(await queries.games(_pool(info), wanted, limit, offset))

    @strawberry.field(description="Your games, newest first.")
    async def my_games(
        self, info: Info, state: str | None = None, limit: int = DEFAULT_PAGE, offset: int = 0
    ) -> GamePage:
        caller = await _caller(info)
        page = await queries.my_games(_pool(info), caller, queries.game_state(state), limit, offset)
        return GamePage.of(page)

    @strawberry.field(description="A person: their display name and latest games.")
    async def member(self, info: Info, member_id: strawberry.ID) -> Member:
        found = await queries.member(_pool(info), member_id)
        return Member(
            member_id=strawberry.ID(found.member_id),
            display_name=found.display_name,
            games=[Game.of(g) for g in found.games.items],
        )
