"""The lists and searches, read from the directory's tables and the clubs' and accounts' own.

Every person is a ``Person``: the member id (the account id, for links) and a display name,
from ``accounts.display_name``, else the name the league club registered them under, else the
name the game was joined with (old data). Every list is a page: ``items`` and ``next_offset``
(None on the last page), ``limit`` 1 to ``MAX_PAGE``.

Who may read what: a club's members are the club's (its members only: ``RoleRequired``, 403
naming the club and nothing of it); a league and its rounds are read as the league's one rule
says (services/league/visibility.py: anyone for a public league, its club's members for a
members-only one), and a club's league list shows a stranger its public leagues only; games are public (a
game list holds no hidden information: no role, no seed; the winning side only once the game
has ended), ``my_games`` is the caller's.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum

import asyncpg
import msgspec

from services.clubs.bounds import MAX_NAME_LENGTH, MAX_OFFSET, MAX_PAGE, NAME_PATTERN, check_id
from services.clubs.errors import ClubInputOutOfBounds, ClubNotFound
from services.clubs.names import name_book, names_of
from services.clubs.roles import Principal, require
from services.directory.errors import MemberNotFound, TournamentNotFound
from services.league.errors import LeagueNotFound
from services.league.result_sheet import NOT_REPLAYABLE
from services.league.visibility import readable_league, readers_of

Executor = asyncpg.Pool | asyncpg.Connection

_NAME = re.compile(NAME_PATTERN)


class GameState(StrEnum):
    LOBBY = "lobby"
    ONGOING = "ongoing"
    FINISHED = "finished"
    ABANDONED = "abandoned"


class Person(msgspec.Struct, frozen=True, kw_only=True):
    member_id: str
    """The account id: the link to the person."""
    display_name: str


class ClubRef(msgspec.Struct, frozen=True, kw_only=True):
    club_id: str
    name: str


class ClubMember(msgspec.Struct, frozen=True, kw_only=True):
    member_id: str
    display_name: str
    roles: list[str]
    """The roles held in the club (a scorekeeper once, however many games)."""


class MemberPage(msgspec.Struct, frozen=True, kw_only=True):
    items: list[ClubMember]
    next_offset: int | None


class LeagueSummary(msgspec.Struct, frozen=True, kw_only=True):
    league_id: str
    name: str
    club: ClubRef
    seasons: int
    founded_at: datetime
    game_type: str = "dice"
    """What the league plays: ``dice`` or ``cards``."""


class LeaguePage(msgspec.Struct, frozen=True, kw_only=True):
    items: list[LeagueSummary]
    next_offset: int | None


class SeasonSummary(msgspec.Struct, frozen=True, kw_only=True):
    season_id: str
    name: str
    entrants: int
    closed: bool
    opened_at: datetime


class TournamentSummary(msgspec.Struct, frozen=True, kw_only=True):
    tournament_id: str
    season_id: str
    name: str
    rounds: int
    opened_at: datetime


class LeagueDetail(msgspec.Struct, frozen=True, kw_only=True):
    league_id: str
    name: str
    club: ClubRef
    founded_at: datetime
    seasons: list[SeasonSummary]
    tournaments: list[TournamentSummary]
    game_type: str = "dice"
    """What the league plays: ``dice`` or ``cards``."""
    visibility: str = "members"
    """Who may read it: ``public`` (anyone) or ``members`` (its club's members only)."""


class ScheduledGame(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str
    mode: str | None
    """``online`` or ``table``; None for a game scheduled before the mode was recorded."""
    status: str | None
    """The game's state once it exists (None: scheduled, not created yet)."""
    winning_side: str | None
    """Once the game has ended."""
    voided: bool
    replayable: bool = True
    """False for a card game played on cardboard, known only from its result sheet."""
    shown_as: str | None = None
    """``result sheet — not replayable`` for such a game."""
    starts_at: datetime | None = None
    """When the table plays, as scheduled (None: not said)."""
    ruleset: str | None = None
    """The scheduled rules (``dice OS1``); None: the league's base game."""
    decision_timeout_seconds: int | None = None
    """The scheduled decision timer in seconds (None: none)."""


class Forfeit(msgspec.Struct, frozen=True, kw_only=True):
    member: Person
    kind: str
    reason: str


class RoundTable(msgspec.Struct, frozen=True, kw_only=True):
    table: int
    members: list[Person]
    """In the seat order of the table's game once it is created; before, the seating's order."""
    sheriff: Person | None
    """The rotation's Sheriff (a public role); None at a three-player table."""
    game: ScheduledGame | None
    forfeits: list[Forfeit]


class RoundView(msgspec.Struct, frozen=True, kw_only=True):
    round: int
    season_id: str
    seated_at: datetime
    closed: bool
    tables: list[RoundTable]
    byes: list[Person]


class RoundPage(msgspec.Struct, frozen=True, kw_only=True):
    items: list[RoundView]
    next_offset: int | None


class GameLeague(msgspec.Struct, frozen=True, kw_only=True):
    """The league table a game was scheduled for (a game's own claim is not enough)."""

    league_id: str
    name: str
    club_id: str
    season_id: str | None
    tournament_id: str
    round: int
    table: int


class GamePlayer(msgspec.Struct, frozen=True, kw_only=True):
    member_id: str
    display_name: str
    seat: str | None
    """p1…, once the seats are dealt."""
    won: bool | None
    """Once the game has ended."""


class GameSummary(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str
    mode: str
    status: GameState
    game_type: str
    modules: list[str]
    """Expansion modules (OS1…, UA5), sorted."""
    options: list[str]
    """The ruleset's recorded options (the card game's ``eight_players``)."""
    player_count: int
    created_at: datetime
    started_at: datetime | None
    ended_at: datetime | None
    league: GameLeague | None
    winning_side: str | None
    voided: bool
    players: list[GamePlayer]


class GamePage(msgspec.Struct, frozen=True, kw_only=True):
    items: list[GameSummary]
    next_offset: int | None


class MemberProfile(msgspec.Struct, frozen=True, kw_only=True):
    member_id: str
    display_name: str
    games: GamePage
    """Their latest games, newest first (``/games?player=`` pages on)."""


@dataclass(frozen=True, slots=True)
class GameFilter:
    player: str | None = None
    league: str | None = None
    state: GameState | None = None
    since: datetime | None = None
    """Created at or after (``from``)."""
    until: datetime | None = None
    """Created before (``to``)."""


# -- bounds -------------------------------------------------------------------------------------


def check_page(limit: int, offset: int) -> None:
    if not 1 <= limit <= MAX_PAGE:
        raise ClubInputOutOfBounds("limit", f"a page has 1 to {MAX_PAGE} items")
    if not 0 <= offset <= MAX_OFFSET:
        raise ClubInputOutOfBounds("offset", f"an offset is 0 to {MAX_OFFSET}")


def check_search(q: str | None) -> str | None:
    """A name search: at most a name's length, no control characters; blank searches nothing."""
    if q is None:
        return None
    if len(q) > MAX_NAME_LENGTH:
        raise ClubInputOutOfBounds("q", f"a search has at most {MAX_NAME_LENGTH} characters")
    if _NAME.search(q) is None:
        raise ClubInputOutOfBounds("q", "a search has no control characters")
    return q.strip() or None


def game_state(text: str | None) -> GameState | None:
    if text is None:
        return None
    try:
        return GameState(text)
    except ValueError:
        states = ", ".join(s.value for s in GameState)
        raise ClubInputOutOfBounds("state", f"a state is one of {states}") from None


def moment(value: datetime | None) -> datetime | None:
    """A date bound; one without a time zone is UTC."""
    if value is None or value.tzinfo is not None:
        return value
    return value.replace(tzinfo=UTC)


def parse_moment(field: str, text: str | None) -> datetime | None:
    """A query parameter's ISO 8601 date or date and time (400 naming ``field`` otherwise)."""
    if text is None:
        return None
    try:
        return moment(datetime.fromisoformat(text))
    except ValueError:
        raise ClubInputOutOfBounds(field, "a date is ISO 8601: 2026-11-23 or 2026-11-23T18:00:00Z") from None


def _next(rows: Sequence[object], limit: int, offset: int) -> int | None:
    return offset + limit if len(rows) > limit else None


# -- names (services/clubs/names.py) ---------------------------------------------------------


def _person(member: str, names: Mapping[str, str]) -> Person:
    return Person(member_id=member, display_name=names[member])


# -- a club's lists -----------------------------------------------------------------------------


async def _club(db: Executor, caller: Principal, club_id: str) -> ClubRef:
    """The club, if the caller is its member (404 for no such club, else 403 naming only its id)."""
    check_id("club_id", club_id)
    name = await db.fetchval("SELECT name FROM clubs WHERE club_id = $1", club_id)
    if name is None:
        raise ClubNotFound(club_id)
    require(caller, club_id)
    return ClubRef(club_id=club_id, name=name)


async def club_members(
    db: Executor, caller: Principal, club_id: str, q: str | None, limit: int, offset: int
) -> MemberPage:
    """The club's members by name (``q``: a case-insensitive part of the display name)."""
    check_page(limit, offset)
    search = check_search(q)
    await _club(db, caller, club_id)
    # an accepted club invite is a player already, though its role is granted only at the
    # invitee's next request: listed here before that too
    rows = await db.fetch(
        """
        SELECT r.account_id, a.display_name, array_agg(DISTINCT r.role ORDER BY r.role) AS roles
          FROM (SELECT account_id, role FROM club_roles WHERE club_id = $1
                UNION ALL
                SELECT ai.account_id, 'player' FROM club_invites ci JOIN account_invites ai USING (invite_id)
                 WHERE ci.club_id = $1 AND ci.settled_at IS NULL AND ai.account_id IS NOT NULL) r
          JOIN accounts a USING (account_id)
         WHERE $2::text IS NULL OR strpos(lower(a.display_name), lower($2)) > 0
         GROUP BY r.account_id, a.display_name
         ORDER BY lower(a.display_name), r.account_id LIMIT $3 OFFSET $4
        """,
        club_id, search, limit + 1, offset,
    )  # fmt: skip
    items = [
        ClubMember(member_id=r["account_id"], display_name=r["display_name"], roles=list(r["roles"]))
        for r in rows[:limit]
    ]
    return MemberPage(items=items, next_offset=_next(rows, limit, offset))


async def club_leagues(
    db: Executor, caller: Principal | None, club_id: str, limit: int, offset: int
) -> LeaguePage:
    """The club's leagues its members may read: every one for a member, the public ones for
    anybody else (the leagues' one rule, services/league/visibility.py)."""
    check_page(limit, offset)
    check_id("club_id", club_id)
    name = await db.fetchval("SELECT name FROM clubs WHERE club_id = $1", club_id)
    if name is None:
        raise ClubNotFound(club_id)
    club = ClubRef(club_id=club_id, name=name)
    listed = await db.fetch("SELECT league_id FROM directory_leagues WHERE club_id = $1", club_id)
    readers = await readers_of(db, [r["league_id"] for r in listed])
    readable = [league_id for league_id, read in readers.items() if read.admits(caller)]
    rows = await db.fetch(
        """
        SELECT l.league_id, l.name, l.founded_at, l.game_type,
               (SELECT count(*) FROM directory_seasons s WHERE s.league_id = l.league_id)::int AS seasons
          FROM directory_leagues l WHERE l.club_id = $1 AND l.league_id = ANY($4::text[])
         ORDER BY lower(l.name), l.league_id LIMIT $2 OFFSET $3
        """,
        club_id, limit + 1, offset, readable,
    )  # fmt: skip
    items = [
        LeagueSummary(
            league_id=r["league_id"],
            name=r["name"],
            club=club,
            seasons=r["seasons"],
            founded_at=r["founded_at"],
            game_type=r["game_type"],
        )
        for r in rows[:limit]
    ]
    return LeaguePage(items=items, next_offset=_next(rows, limit, offset))


async def readable_leagues(db: Executor, caller: Principal | None, limit: int, offset: int) -> LeaguePage:
    """Every league ``caller`` may read, by club name then league name: the public leagues of
    every club, and every league of the caller's own clubs (the leagues' one rule,
    services/league/visibility.py). What a page that picks a league by name lists, so nobody
    has to know a league's id."""
    check_page(limit, offset)
    listed = await db.fetch("SELECT league_id FROM directory_leagues")
    readers = await readers_of(db, [r["league_id"] for r in listed])
    readable = [league_id for league_id, read in readers.items() if read.admits(caller)]
    rows = await db.fetch(
        """
        SELECT l.league_id, l.name, l.club_id, l.founded_at, l.game_type,
               coalesce(c.name, dc.name, l.club_id) AS club_name,
               (SELECT count(*) FROM directory_seasons s WHERE s.league_id = l.league_id)::int AS seasons
          FROM directory_leagues l
          LEFT JOIN clubs c ON c.club_id = l.club_id
          LEFT JOIN directory_clubs dc ON dc.club_id = l.club_id
         WHERE l.league_id = ANY($3::text[])
         ORDER BY lower(coalesce(c.name, dc.name, l.club_id)), l.club_id, lower(l.name), l.league_id
         LIMIT $1 OFFSET $2
        """,
        limit + 1, offset, readable,
    )  # fmt: skip
    items = [
        LeagueSummary(
            league_id=r["league_id"],
            name=r["name"],
            club=ClubRef(club_id=r["club_id"], name=r["club_name"]),
            seasons=r["seasons"],
            founded_at=r["founded_at"],
            game_type=r["game_type"],
        )
        for r in rows[:limit]
    ]
    return LeaguePage(items=items, next_offset=_next(rows, limit, offset))


async def _league(
    db: Executor, caller: Principal | None, league_id: str
) -> tuple[asyncpg.Record, ClubRef, str]:
    """The league's row, its club and its visibility, once the caller may read it."""
    check_id("league_id", league_id)
    row = await db.fetchrow(
        """
        SELECT l.league_id, l.name, l.club_id, l.founded_at, l.game_type,
               coalesce(c.name, dc.name, l.club_id) AS club_name
          FROM directory_leagues l
          LEFT JOIN clubs c ON c.club_id = l.club_id
          LEFT JOIN directory_clubs dc ON dc.club_id = l.club_id
         WHERE l.league_id = $1
        """,
        league_id,
    )
    if row is None:
        raise LeagueNotFound(league_id)
    readers = await readable_league(db, caller, league_id)
    visibility = "members" if readers is None else readers.visibility
    return row, ClubRef(club_id=row["club_id"], name=row["club_name"]), visibility


async def league(db: Executor, caller: Principal | None, league_id: str) -> LeagueDetail:
    """A league with its seasons (entrants counted) and tournaments (rounds counted)."""
    row, club, visibility = await _league(db, caller, league_id)
    seasons = await db.fetch(
        "SELECT season_id, name, entrants, closed, opened_at FROM directory_seasons WHERE league_id = $1"
        " ORDER BY opened_at, season_id",
        league_id,
    )
    tournaments = await db.fetch(
        """
        SELECT t.tournament_id, t.season_id, t.name, t.opened_at,
               (SELECT count(*) FROM directory_rounds r
                 WHERE r.league_id = t.league_id AND r.tournament_id = t.tournament_id)::int AS rounds
          FROM directory_tournaments t WHERE t.league_id = $1 ORDER BY t.opened_at, t.tournament_id
        """,
        league_id,
    )
    return LeagueDetail(
        league_id=league_id,
        name=row["name"],
        club=club,
        founded_at=row["founded_at"],
        game_type=row["game_type"],
        visibility=visibility,
        seasons=[SeasonSummary(**dict(s)) for s in seasons],
        tournaments=[TournamentSummary(**dict(t)) for t in tournaments],
    )


async def rounds(
    db: Executor, caller: Principal | None, league_id: str, tournament_id: str, limit: int, offset: int
) -> RoundPage:
    """A tournament's seated rounds, first round first: tables with named members, the Sheriff,
    the scheduled game (its mode and state), forfeits, byes, and whether the round is closed."""
    check_page(limit, offset)
    _, club, _ = await _league(db, caller, league_id)
    check_id("tournament_id", tournament_id)
    found = await db.fetchval(
        "SELECT 1 FROM directory_tournaments WHERE league_id = $1 AND tournament_id = $2",
        league_id,
        tournament_id,
    )
    if found is None:
        raise TournamentNotFound(league_id, tournament_id)
    round_rows = await db.fetch(
        "SELECT round, season_id, seated_at, closed, byes FROM directory_rounds"
        " WHERE league_id = $1 AND tournament_id = $2 ORDER BY round LIMIT $3 OFFSET $4",
        league_id,
        tournament_id,
        limit + 1,
        offset,
    )
    page = round_rows[:limit]
    numbers = [r["round"] for r in page]
    tables = await db.fetch(
        """
        SELECT t.round, t.table_no, t.members, t.sheriff, t.game_id, t.mode,
               coalesce(g.status, CASE WHEN t.sheet_winning_side IS NOT NULL THEN 'finished' END) AS status,
               coalesce(g.winning_side, t.sheet_winning_side) AS winning_side,
               coalesce(g.voided, t.sheet_voided) AS voided,
               g.game_id IS NULL AND t.sheet_winning_side IS NOT NULL AS from_sheet,
               (SELECT array_agg(s.member_id ORDER BY substr(s.seat, 2)::int) FROM directory_game_seats s
                 WHERE s.game_id = t.game_id AND s.seat IS NOT NULL) AS seated,
               t.starts_at, t.ruleset, t.decision_timeout_seconds
          FROM directory_tables t LEFT JOIN directory_games g ON g.game_id = t.game_id
         WHERE t.league_id = $1 AND t.tournament_id = $2 AND t.round = ANY($3::int[])
         ORDER BY t.round, t.table_no
        """,
        league_id, tournament_id, numbers,
    )  # fmt: skip
    forfeits = await db.fetch(
        "SELECT round, table_no, member_id, kind, reason FROM directory_forfeits"
        " WHERE league_id = $1 AND tournament_id = $2 AND round = ANY($3::int[])"
        " ORDER BY round, table_no, member_id",
        league_id,
        tournament_id,
        numbers,
    )
    people = {m for t in tables for m in t["members"]} | {m for r in page for m in r["byes"]}
    people |= {f["member_id"] for f in forfeits}
    names = await names_of(db, people, club_id=club.club_id)
    items = []
    for r in page:
        here = [t for t in tables if t["round"] == r["round"]]
        items.append(
            RoundView(
                round=r["round"],
                season_id=r["season_id"],
                seated_at=r["seated_at"],
                closed=r["closed"],
                byes=[_person(m, names) for m in r["byes"]],
                tables=[
                    RoundTable(
                        table=t["table_no"],
                        members=[_person(m, names) for m in _in_seat_order(t["members"], t["seated"])],
                        sheriff=None if t["sheriff"] is None else _person(t["sheriff"], names),
                        game=None
                        if t["game_id"] is None
                        else ScheduledGame(
                            game_id=t["game_id"],
                            mode=t["mode"],
                            status=t["status"],
                            winning_side=t["winning_side"],
                            voided=t["voided"],
                            replayable=not t["from_sheet"],
                            shown_as=NOT_REPLAYABLE if t["from_sheet"] else None,
                            starts_at=t["starts_at"],
                            ruleset=t["ruleset"],
                            decision_timeout_seconds=t["decision_timeout_seconds"],
                        ),
                        forfeits=[
                            Forfeit(member=_person(f["member_id"], names), kind=f["kind"], reason=f["reason"])
                            for f in forfeits
                            if f["round"] == r["round"] and f["table_no"] == t["table_no"]
                        ],
                    )
                    for t in here
                ],
            )
        )
    return RoundPage(items=items, next_offset=_next(round_rows, limit, offset))


def _in_seat_order(members: list[str], seated: list[str] | None) -> list[str]:
    """A table's members in its game's seat order once the game has seated them (the order the
    game, its keep-score page and its replay show), else in the seating's order."""
    if seated and sorted(seated) == sorted(members):
        return list(seated)
    return list(members)


# -- games --------------------------------------------------------------------------------------

_GAMES = """
SELECT g.game_id, g.mode, g.status, g.game_type, g.modules, g.options, g.player_count, g.created_at,
       g.started_at, g.ended_at, g.winning_side, g.voided, t.league_id, l.name AS league_name, l.club_id,
       g.season_id, t.tournament_id, t.round, t.table_no
  FROM directory_games g
  LEFT JOIN directory_tables t ON t.game_id = g.game_id AND t.league_id = g.league_id
       AND t.tournament_id = g.tournament_id AND t.round = g.round AND t.table_no = g.table_no
  LEFT JOIN directory_leagues l ON l.league_id = t.league_id
 WHERE ($1::text IS NULL OR EXISTS (
           SELECT 1 FROM directory_game_seats s WHERE s.game_id = g.game_id AND s.member_id = $1))
   AND ($2::text IS NULL OR t.league_id = $2)
   AND ($3::text IS NULL OR g.status = $3)
   AND ($4::timestamptz IS NULL OR g.created_at >= $4)
   AND ($5::timestamptz IS NULL OR g.created_at < $5)
 ORDER BY g.created_at DESC, g.game_id DESC
 LIMIT $6 OFFSET $7
"""


async def games(db: Executor, wanted: GameFilter, limit: int, offset: int) -> GamePage:
    """Games newest first, by player, league (games its organisers scheduled), state and the
    time they were created (``since`` inclusive, ``until`` exclusive)."""
    check_page(limit, offset)
    if wanted.player is not None:
        check_id("player", wanted.player)
    if wanted.league is not None:
        check_id("league", wanted.league)
    since, until = moment(wanted.since), moment(wanted.until)
    if since is not None and until is not None and until <= since:
        raise ClubInputOutOfBounds("to", "`to` is later than `from`")
    state = None if wanted.state is None else wanted.state.value
    rows = await db.fetch(_GAMES, wanted.player, wanted.league, state, since, until, limit + 1, offset)
    page = rows[:limit]
    seats = await db.fetch(
        """
        SELECT game_id, member_id, seat, name, won FROM directory_game_seats WHERE game_id = ANY($1::text[])
         ORDER BY game_id, substring(seat FROM 2)::int NULLS LAST, joined
        """,
        [r["game_id"] for r in page],
    )
    by_game: dict[str, list[asyncpg.Record]] = {}
    for s in seats:
        by_game.setdefault(s["game_id"], []).append(s)
    book = await name_book(db, {s["member_id"] for s in seats})
    items = []
    for r in page:
        players = by_game.get(r["game_id"], [])
        finished = r["status"] == GameState.FINISHED
        items.append(
            GameSummary(
                game_id=r["game_id"],
                mode=r["mode"],
                status=GameState(r["status"]),
                game_type=r["game_type"],
                modules=list(r["modules"]),
                options=list(r["options"]),
                player_count=r["player_count"],
                created_at=r["created_at"],
                started_at=r["started_at"],
                ended_at=r["ended_at"],
                league=None
                if r["league_id"] is None
                else GameLeague(
                    league_id=r["league_id"],
                    name=r["league_name"],
                    club_id=r["club_id"],
                    season_id=r["season_id"],
                    tournament_id=r["tournament_id"],
                    round=r["round"],
                    table=r["table_no"],
                ),
                winning_side=r["winning_side"] if finished else None,
                voided=r["voided"],
                players=[
                    GamePlayer(
                        member_id=p["member_id"],
                        display_name=book.name(p["member_id"], r["club_id"], p["name"]),
                        seat=p["seat"],
                        won=p["won"] if finished else None,
                    )
                    for p in players
                ],
            )
        )
    return GamePage(items=items, next_offset=_next(rows, limit, offset))


async def my_games(
    db: Executor, caller: Principal, state: GameState | None, limit: int, offset: int
) -> GamePage:
    return await games(db, GameFilter(player=caller.account_id, state=state), limit, offset)


async def member(db: Executor, member_id: str, limit: int = 10) -> MemberProfile:
    """A person's name and latest games: public, like the games lists that show them."""
    check_id("member_id", member_id)
    known = await db.fetchval(
        "SELECT 1 FROM accounts WHERE account_id = $1"
        " UNION ALL SELECT 1 FROM directory_game_seats WHERE member_id = $1"
        " UNION ALL SELECT 1 FROM directory_club_members WHERE member_id = $1 LIMIT 1",
        member_id,
    )
    if known is None:
        raise MemberNotFound(member_id)
    names = await names_of(db, [member_id])
    page = await games(db, GameFilter(player=member_id), limit, 0)
    return MemberProfile(member_id=member_id, display_name=names[member_id], games=page)
