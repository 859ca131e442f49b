"""Reading (and resetting) the league read model the standings projection writes.

Standings are ranked here with ``ranking.rank``, the same function the from-scratch
recomputation uses; the tables only keep totals and who met whom.
"""

from __future__ import annotations

from pathlib import Path

import asyncpg
import msgspec

from event_store import migrate_component
from event_store.migrator import load_migrations
from services.league.points import RENEGADE_GAME_SIDES
from services.league.ranking import Meetings, Standing, Totals, add_forfeit, rank
from services.league.standings import PROJECTION_NAME

MIGRATIONS = Path(__file__).with_name("migrations")
COMPONENT = "league"
READ_MODEL_TABLES = (
    "league_seasons",
    "league_tournaments",
    "league_tables",
    "league_byes",
    "league_games",
    "league_game_seats",
    "league_game_results",
    "league_standings",
    "league_head_to_head",
    "league_scheduled_games",
    "league_voided_games",
    "league_forfeits",
    "league_rounds",
)

Executor = asyncpg.Pool | asyncpg.Connection


async def prepare_database(pool: asyncpg.Pool) -> None:
    """The event store's schema, then the league's read model (migrations component ``league``)."""
    await migrate_component(pool, MIGRATIONS, COMPONENT)


async def reset(connection: asyncpg.Connection) -> None:
    """Throw the read model away: drop its tables and its checkpoint, recreate the tables empty.
    Running the projection afterwards replays everything from position 0."""
    async with connection.transaction():
        await connection.execute(f"DROP TABLE IF EXISTS {', '.join(READ_MODEL_TABLES)}")
        await connection.execute("DELETE FROM checkpoints WHERE name = $1", PROJECTION_NAME)
        # The migration files are idempotent (IF NOT EXISTS), so re-running them recreates the
        # tables whatever schema_migrations remembers.
        for migration in load_migrations(MIGRATIONS):
            await connection.execute(migration.sql)


class HeadToHead(msgspec.Struct, frozen=True, kw_only=True):
    member_id: str
    opponent_id: str
    games: int
    wins: int
    opponent_wins: int


class ForfeitView(msgspec.Struct, frozen=True, kw_only=True):
    member_id: str
    kind: str
    """``forfeit`` or ``no-show``."""
    reason: str


class SeatedTableView(msgspec.Struct, frozen=True, kw_only=True):
    table: int
    members: tuple[str, ...]
    """In the seat order of the table's game once it is created; before, the seating's order."""
    sheriff: str | None
    game_id: str | None
    winning_side: str | None
    mode: str | None = None
    """``online`` or ``table`` once scheduled (None: scheduled before the mode was recorded)."""
    replayable: bool = True
    """False for a card game known only from its result sheet: there is no record to replay."""
    forfeits: tuple[ForfeitView, ...] = ()
    counted: bool = False
    """Whether the table's game counts in the standings (finished and not voided)."""
    voided: bool = False


class RoundView(msgspec.Struct, frozen=True, kw_only=True):
    round: int
    tables: tuple[SeatedTableView, ...]
    byes: tuple[str, ...]
    closed: bool = False
    """The organiser closed the round: its schedule is final."""


class UncountedGame(msgspec.Struct, frozen=True, kw_only=True):
    """A finished game claiming the league that is not in its standings, and why."""

    game_id: str
    season_id: str | None
    tournament_id: str | None
    round: int | None
    table: int | None
    reason: str
    """``voided``, ``not-scheduled`` (the league did not schedule it at that table) or
    ``seats-differ`` (scheduled there, but its seats are not the table's members)."""


async def standings(
    db: Executor, league_id: str, season_id: str | None = None, tournament_id: str | None = None
) -> list[Standing]:
    """Ranked standings of a tournament, a season, or (neither given) the whole league."""
    if tournament_id is not None:
        totals = await _tournament_totals(db, league_id, tournament_id)
        games = await db.fetch(
            f"SELECT r.game_id, r.member_id, r.won FROM league_game_results r {_COUNTED}"
            " WHERE r.league_id = $1 AND r.tournament_id = $2 ORDER BY r.game_id, r.member_id",
            league_id,
            tournament_id,
        )
    else:
        rows = await db.fetch(
            "SELECT member_id, sum(points)::int AS points, sum(games)::int AS games, sum(wins)::int AS wins,"
            " sum(renegade_wins)::int AS renegade_wins, sum(survivals)::int AS survivals,"
            " sum(sheriff_games)::int AS sheriff_games, sum(byes)::int AS byes,"
            " sum(forfeits)::int AS forfeits"
            " FROM league_standings WHERE league_id = $1 AND ($2::text IS NULL OR season_id = $2)"
            " GROUP BY member_id",
            league_id,
            season_id,
        )
        totals = {r["member_id"]: Totals(**dict(r)) for r in rows}
        games = await db.fetch(
            f"SELECT r.game_id, r.member_id, r.won FROM league_game_results r {_COUNTED}"
            " WHERE r.league_id = $1 AND ($2::text IS NULL OR r.season_id = $2)"
            " ORDER BY r.game_id, r.member_id",
            league_id,
            season_id,
        )
    return rank(totals, _meetings(games))


_COUNTED = "JOIN league_games g ON g.game_id = r.game_id AND g.counted"
"""The results of the games that count (finished, scheduled there by their league, not voided)."""


async def _tournament_totals(db: Executor, league_id: str, tournament_id: str) -> dict[str, Totals]:
    rows = await db.fetch(
        "SELECT r.member_id, sum(r.points)::int AS points, count(*)::int AS games,"
        " count(*) FILTER (WHERE r.won)::int AS wins,"
        " count(*) FILTER (WHERE r.won AND r.role = 'renegade' AND r.side = ANY($3::text[]))::int"
        " AS renegade_wins,"
        " count(*) FILTER (WHERE r.alive)::int AS survivals,"
        " count(*) FILTER (WHERE r.role = 'sheriff')::int AS sheriff_games"
        f" FROM league_game_results r {_COUNTED}"
        " WHERE r.league_id = $1 AND r.tournament_id = $2 GROUP BY r.member_id",
        league_id,
        tournament_id,
        sorted(RENEGADE_GAME_SIDES),
    )
    totals = {r["member_id"]: Totals(**dict(r)) for r in rows}
    for bye in await db.fetch(
        "SELECT member_id, points FROM league_byes WHERE league_id = $1 AND tournament_id = $2",
        league_id,
        tournament_id,
    ):
        line = totals.setdefault(bye["member_id"], Totals(bye["member_id"]))
        line.byes += 1
        line.points += bye["points"]
    for forfeit in await db.fetch(
        "SELECT member_id FROM league_forfeits WHERE league_id = $1 AND tournament_id = $2",
        league_id,
        tournament_id,
    ):
        add_forfeit(totals.setdefault(forfeit["member_id"], Totals(forfeit["member_id"])))
    return totals


def _meetings(rows: list[asyncpg.Record]) -> Meetings:
    meetings = Meetings()
    by_game: dict[str, list[asyncpg.Record]] = {}
    for row in rows:
        by_game.setdefault(row["game_id"], []).append(row)
    for players in by_game.values():
        meetings.add_game([p["member_id"] for p in players], [p["member_id"] for p in players if p["won"]])
    return meetings


async def head_to_head(
    db: Executor,
    league_id: str,
    member_id: str,
    opponent_id: str | None = None,
    season_id: str | None = None,
) -> list[HeadToHead]:
    """``member_id``'s record against each opponent (or one), over a season or the league."""
    rows = await db.fetch(
        "SELECT member_id, opponent_id, sum(games)::int AS games, sum(wins)::int AS wins,"
        " sum(opponent_wins)::int AS opponent_wins FROM league_head_to_head"
        " WHERE league_id = $1 AND member_id = $2 AND ($3::text IS NULL OR opponent_id = $3)"
        " AND ($4::text IS NULL OR season_id = $4)"
        " GROUP BY member_id, opponent_id ORDER BY opponent_id",
        league_id,
        member_id,
        opponent_id,
        season_id,
    )
    return [HeadToHead(**dict(r)) for r in rows]


async def rounds(db: Executor, league_id: str, tournament_id: str) -> list[RoundView]:
    tables = await db.fetch(
        "SELECT t.round, t.table_no, t.members, t.sheriff, t.game_id, g.winning_side, s.mode,"
        " coalesce(g.counted, false) AS counted, coalesce(g.voided, v.game_id IS NOT NULL) AS voided,"
        " coalesce(g.replayable, true) AS replayable,"
        " (SELECT array_agg(gs.member_id ORDER BY substr(gs.seat, 2)::int) FROM league_game_seats gs"
        "   WHERE gs.game_id = t.game_id) AS seated"
        " FROM league_tables t LEFT JOIN league_games g ON g.game_id = t.game_id"
        " LEFT JOIN league_scheduled_games s ON s.league_id = t.league_id AND s.game_id = t.game_id"
        " LEFT JOIN league_voided_games v ON v.league_id = t.league_id AND v.game_id = t.game_id"
        " WHERE t.league_id = $1 AND t.tournament_id = $2 ORDER BY t.round, t.table_no",
        league_id,
        tournament_id,
    )
    byes = await db.fetch(
        "SELECT round, member_id FROM league_byes WHERE league_id = $1 AND tournament_id = $2"
        " ORDER BY round, member_id",
        league_id,
        tournament_id,
    )
    forfeits = await db.fetch(
        "SELECT round, table_no, member_id, kind, reason FROM league_forfeits"
        " WHERE league_id = $1 AND tournament_id = $2 ORDER BY round, table_no, member_id",
        league_id,
        tournament_id,
    )
    closed = {
        r["round"]
        for r in await db.fetch(
            "SELECT round FROM league_rounds WHERE league_id = $1 AND tournament_id = $2 AND closed",
            league_id,
            tournament_id,
        )
    }
    numbers = sorted({r["round"] for r in tables} | {b["round"] for b in byes})
    return [
        RoundView(
            round=n,
            tables=tuple(
                SeatedTableView(
                    table=t["table_no"],
                    members=_in_seat_order(t["members"], t["seated"]),
                    sheriff=t["sheriff"],
                    game_id=t["game_id"],
                    winning_side=t["winning_side"],
                    mode=t["mode"],
                    forfeits=tuple(
                        ForfeitView(member_id=f["member_id"], kind=f["kind"], reason=f["reason"])
                        for f in forfeits
                        if (f["round"], f["table_no"]) == (n, t["table_no"])
                    ),
                    counted=t["counted"],
                    voided=t["voided"],
                    replayable=t["replayable"],
                )
                for t in tables
                if t["round"] == n
            ),
            byes=tuple(b["member_id"] for b in byes if b["round"] == n),
            closed=n in closed,
        )
        for n in numbers
    ]


def _in_seat_order(members: list[str], seated: list[str] | None) -> tuple[str, ...]:
    """The table's members as its game seats them once it is created (a table game's scorekeeper
    enters them as they sat, a deal shuffles them), so a table lists its seats in the game's
    order; the seating's order before that, or when the game seats other members (it does not
    count then: "Only what the league scheduled")."""
    if seated and sorted(seated) == sorted(members):
        return tuple(seated)
    return tuple(members)


async def uncounted_games(db: Executor, league_id: str) -> list[UncountedGame]:
    """The finished games claiming ``league_id`` that its standings leave out, for an audit:
    voided ones, and ones the league never scheduled at the table their context names (a
    forged or mistaken context), or with other members than the table's. Ids only; nothing
    hidden."""
    rows = await db.fetch(
        "SELECT game_id, season_id, tournament_id, round, table_no, voided, scheduled FROM league_games"
        " WHERE league_id = $1 AND ended_at IS NOT NULL AND NOT counted ORDER BY game_id",
        league_id,
    )
    return [
        UncountedGame(
            game_id=r["game_id"],
            season_id=r["season_id"],
            tournament_id=r["tournament_id"],
            round=r["round"],
            table=r["table_no"],
            reason="voided" if r["voided"] else "seats-differ" if r["scheduled"] else "not-scheduled",
        )
        for r in rows
    ]


async def season_scores(db: Executor, league_id: str, season_id: str) -> dict[str, float]:
    """Each member's points so far this season: the Swiss grouping's input."""
    rows = await db.fetch(
        "SELECT member_id, points FROM league_standings WHERE league_id = $1 AND season_id = $2",
        league_id,
        season_id,
    )
    return {r["member_id"]: float(r["points"]) for r in rows}
