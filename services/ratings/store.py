"""The ratings read model in PostgreSQL: its tables, how the consumer writes them, how queries
read them. Plain SQL on asyncpg; the schema is ``migrations/`` (component ``ratings``).

Every row belongs to a *generation* (see ``migrations/0001_ratings.sql``): the live consumer
writes the current one, a rebuild fills a new one and swaps it in. The book's state is kept
per player (``ratings_players.state``, the ``PlayerRecord`` as msgspec JSON) and per offset
cell (``ratings_offsets``, keyed by ruleset, table size and faction), so rating a game reads
only the rows of the players at its table and the offsets of its ruleset (and of the base
ruleset a new module set starts from) at its table size, and writes back only those players
and its own ruleset's offsets, however large the league grows; ``load_book`` assembles the
whole ``RatingBook`` exactly (floats survive JSON and ``double precision`` bit for bit).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import asyncpg
import msgspec

from event_store import migrate_component
from services.game.results import BASE_RULESET, GameType, Role, Side, base_ruleset_of
from services.ratings.model import ROLES, PlayerRecord, RatingBook, RatingChange, RatingConfig
from services.ratings.offsets import OffsetCell, OffsetTable
from services.ratings.outcome import GameOutcome, LeaguePlayerId
from services.ratings.pools import GLOBAL, GameFacts, Schedule, club_pool

__all__ = ["club_pool"]  # re-exported: the queries' callers name a club's pool with it

MIGRATIONS = Path(__file__).with_name("migrations")
COMPONENT = "ratings"
LEAGUE_CATEGORY = "league"
GAME_VOIDED = "GameVoided"
RESULT_SHEET = "ResultSheetRecorded"
"""The league's event of a card game played on cardboard: rated from its sheet, not replayable."""
"""The league's event that takes a game out of the ratings (read from its stored JSON: the
ratings do not import the league, their neighbour in the layers)."""
LEAGUE_FOUNDED = "LeagueFounded"
"""The league's event naming the club a league belongs to: its games move that club's pool."""
GAME_SCHEDULED = "GameScheduled"
"""The league's event that schedules a game (its mode, its scorekeeper, who scheduled it)."""
OVERALL = "overall"
"""The ``role`` of a history row of the overall rating."""
GLOBAL_POOL = GLOBAL
"""The pool of online games played on this server, every seat by its own account
(docs/ratings.md, "What is rated: pools"); a club's is ``club_pool(club_id)``."""


def game_type_of(ruleset: str) -> str:
    """The game type of a ruleset in ``Ruleset.text`` form (``dice OS1`` → ``dice``, ``cards``):
    its base ruleset, whose first word it is."""
    return base_ruleset_of(ruleset)


class GenerationStatus:
    BUILDING = "building"
    CURRENT = "current"
    RETIRED = "retired"


@dataclass(frozen=True, slots=True)
class Generation:
    generation: int
    status: str
    config: RatingConfig
    rebuild_id: str | None
    games: int
    position: int
    activated_at: datetime | None


def storage_config(config: RatingConfig) -> RatingConfig:
    """The config a generation rates with: the book keeps no history of its own, because the
    history is in ``ratings_history``; kept in the book it would make every player's state
    grow with every game they play."""
    return msgspec.structs.replace(config, keep_history=False)


async def prepare_database(pool: asyncpg.Pool) -> None:
    """The event store's schema, then the ratings tables (component ``ratings``); idempotent."""
    await migrate_component(pool, MIGRATIONS, COMPONENT)


async def reset(connection: asyncpg.Connection) -> None:
    """Empty the read model (every generation; the rows cascade). The runtime runs this in the
    transaction that deletes the ``ratings`` checkpoint, so both go back to 0 together."""
    current = await current_generation(connection)
    await connection.execute("DELETE FROM ratings_generations")
    # a rebuild in progress loses its generation too: its checkpoint must not outlive it
    await connection.execute("DELETE FROM checkpoints WHERE name LIKE 'ratings-rebuild-%'")
    # a replay from 0 starts with every void (create_generation), so it does what they asked
    await connection.execute(
        "UPDATE ratings_rebuild_requests SET done_at = clock_timestamp() WHERE done_at IS NULL"
    )
    if current is not None:
        # an empty generation with the same parameters, so that replaying gives back the same
        # ratings even after a rebuild changed a parameter from the code's default
        await create_generation(connection, GenerationStatus.CURRENT, current.config)


# --- generations -------------------------------------------------------------------------------

_GENERATION_COLUMNS = "generation, status, config::text, rebuild_id, games, position, activated_at"


def _generation(row: asyncpg.Record) -> Generation:
    return Generation(
        generation=row["generation"],
        status=row["status"],
        config=msgspec.json.decode(row["config"], type=RatingConfig),
        rebuild_id=row["rebuild_id"],
        games=row["games"],
        position=row["position"],
        activated_at=row["activated_at"],
    )


async def current_generation(executor: asyncpg.Connection | asyncpg.Pool) -> Generation | None:
    row = await executor.fetchrow(
        f"SELECT {_GENERATION_COLUMNS} FROM ratings_generations WHERE status = 'current'"
    )
    return None if row is None else _generation(row)


async def generation(executor: asyncpg.Connection | asyncpg.Pool, number: int) -> Generation | None:
    row = await executor.fetchrow(
        f"SELECT {_GENERATION_COLUMNS} FROM ratings_generations WHERE generation = $1", number
    )
    return None if row is None else _generation(row)


async def generation_of_rebuild(connection: asyncpg.Connection, rebuild_id: str) -> Generation | None:
    row = await connection.fetchrow(
        f"SELECT {_GENERATION_COLUMNS} FROM ratings_generations WHERE rebuild_id = $1", rebuild_id
    )
    return None if row is None else _generation(row)


async def create_generation(
    connection: asyncpg.Connection, status: str, config: RatingConfig, rebuild_id: str | None = None
) -> Generation:
    row = await connection.fetchrow(
        "INSERT INTO ratings_generations (status, config, rebuild_id, activated_at) "
        "VALUES ($1, $2::json, $3, CASE WHEN $1 = 'current' THEN clock_timestamp() END) "
        f"RETURNING {_GENERATION_COLUMNS}",
        status,
        msgspec.json.encode(storage_config(config)).decode(),
        rebuild_id,
    )
    assert row is not None
    created = _generation(row)
    # every void stored so far, even past this generation's position: a voided game is never
    # rated, so a generation filled from the first event does not rate it and undo it later
    await connection.execute(
        "INSERT INTO ratings_voided (generation, league_id, game_id) "
        "SELECT DISTINCT $1::integer, data->>'league_id', data->>'game_id' FROM events "
        "WHERE category = $2 AND type = $3 ON CONFLICT DO NOTHING",
        created.generation,
        LEAGUE_CATEGORY,
        GAME_VOIDED,
    )
    return created


async def advance(connection: asyncpg.Connection, number: int, position: int, games: int) -> None:
    await connection.execute(
        "UPDATE ratings_generations SET position = $2, games = $3 WHERE generation = $1",
        number,
        position,
        games,
    )


async def make_current(connection: asyncpg.Connection, number: int) -> None:
    """Retire the current generation and put ``number`` in its place: in the caller's
    transaction, so readers see the old generation or the new one, never neither."""
    await connection.execute("UPDATE ratings_generations SET status = 'retired' WHERE status = 'current'")
    await connection.execute(
        "UPDATE ratings_generations SET status = 'current', activated_at = clock_timestamp() "
        "WHERE generation = $1",
        number,
    )


async def drop_rows(connection: asyncpg.Connection, numbers: Sequence[int]) -> None:
    """Delete the rows of these generations, keeping their ``ratings_generations`` row (it
    remembers which rebuild made them, so a redelivered rebuild finds its work done)."""
    for table in (
        "ratings_history",
        "ratings_roles",
        "ratings_players",
        "ratings_offsets",
        "ratings_games",
        "ratings_voided",
        "ratings_leagues",
        "ratings_scheduled",
    ):
        await connection.execute(f"DELETE FROM {table} WHERE generation = ANY($1::integer[])", list(numbers))


# --- games -------------------------------------------------------------------------------------


async def remember_game(
    connection: asyncpg.Connection,
    number: int,
    game_id: str,
    league_id: str | None,
    season_id: str | None,
    *,
    game_type: str = GameType.DICE,
    ruleset: str = BASE_RULESET,
    replayable: bool = True,
    mode: str | None = None,
    created_by: str | None = None,
    created_command: str | None = None,
) -> None:
    """``replayable`` false: a game known only from its league's result sheet. ``mode``,
    ``created_by`` and ``created_command`` are its ``GameCreated``'s (the command id from its
    metadata), which its pools are decided from (``pools.py``)."""
    await connection.execute(
        "INSERT INTO ratings_games (generation, game_id, league_id, season_id, game_type, ruleset, "
        "replayable, mode, created_by, created_command) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) "
        "ON CONFLICT (generation, game_id) DO UPDATE SET league_id = EXCLUDED.league_id, "
        "season_id = EXCLUDED.season_id, game_type = EXCLUDED.game_type, ruleset = EXCLUDED.ruleset, "
        "replayable = EXCLUDED.replayable, mode = EXCLUDED.mode, created_by = EXCLUDED.created_by, "
        "created_command = EXCLUDED.created_command",
        number,
        game_id,
        league_id,
        season_id,
        game_type,
        ruleset,
        replayable,
        mode,
        created_by,
        created_command,
    )


async def remember_joined_by_self(
    connection: asyncpg.Connection, number: int, game_id: str, member: str
) -> None:
    """``member`` took a seat of the game with their own account (a ``PlayerJoined`` whose
    recorded actor is that member's own player)."""
    await connection.execute(
        "UPDATE ratings_games SET joined_by_self = array_append(joined_by_self, $3) "
        "WHERE generation = $1 AND game_id = $2 AND NOT ($3 = ANY(joined_by_self))",
        number,
        game_id,
        member,
    )


async def mark_imported_if_created_by(
    connection: asyncpg.Connection, number: int, game_id: str, created_command: str
) -> None:
    """The game was imported from a record: its creation's command id is ``created_command``
    (an import enters its inputs under ``<created_command>/input/<n>``)."""
    await connection.execute(
        "UPDATE ratings_games SET imported = true "
        "WHERE generation = $1 AND game_id = $2 AND created_command = $3",
        number,
        game_id,
        created_command,
    )


async def remember_league(connection: asyncpg.Connection, number: int, league_id: str, club_id: str) -> None:
    await connection.execute(
        "INSERT INTO ratings_leagues (generation, league_id, club_id) VALUES ($1, $2, $3) "
        "ON CONFLICT DO NOTHING",
        number,
        league_id,
        club_id,
    )


async def club_of_league(connection: asyncpg.Connection, number: int, league_id: str) -> str | None:
    club: str | None = await connection.fetchval(
        "SELECT club_id FROM ratings_leagues WHERE generation = $1 AND league_id = $2", number, league_id
    )
    return club


async def remember_scheduled(
    connection: asyncpg.Connection,
    number: int,
    league_id: str,
    game_id: str,
    *,
    mode: str | None,
    scorekeeper: str | None,
    scheduled_by: str | None,
) -> None:
    await connection.execute(
        "INSERT INTO ratings_scheduled (generation, league_id, game_id, mode, scorekeeper, scheduled_by) "
        "VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (generation, league_id, game_id) DO UPDATE SET "
        "mode = EXCLUDED.mode, scorekeeper = EXCLUDED.scorekeeper, scheduled_by = EXCLUDED.scheduled_by",
        number,
        league_id,
        game_id,
        mode,
        scorekeeper,
        scheduled_by,
    )


async def game_facts(connection: asyncpg.Connection, number: int, game_id: str) -> GameFacts | None:
    """What the generation knows of a game its pools are decided from (None: never seen)."""
    row = await connection.fetchrow(
        "SELECT g.mode, g.members, g.joined_by_self, g.imported, g.league_id, g.created_by, "
        "l.club_id, s.game_id IS NOT NULL AS scheduled, s.mode AS scheduled_mode, s.scorekeeper, "
        "s.scheduled_by FROM ratings_games g "
        "LEFT JOIN ratings_leagues l ON l.generation = g.generation AND l.league_id = g.league_id "
        "LEFT JOIN ratings_scheduled s ON s.generation = g.generation AND s.league_id = g.league_id "
        "AND s.game_id = g.game_id WHERE g.generation = $1 AND g.game_id = $2",
        number,
        game_id,
    )
    if row is None:
        return None
    schedule = None
    if row["scheduled"]:
        schedule = Schedule(
            mode=row["scheduled_mode"], scorekeeper=row["scorekeeper"], scheduled_by=row["scheduled_by"]
        )
    return GameFacts(
        mode=row["mode"],
        members=tuple(row["members"] or ()),
        joined_by_self=frozenset(row["joined_by_self"] or ()),
        imported=row["imported"],
        league_id=row["league_id"],
        created_by=row["created_by"],
        club_id=row["club_id"],
        schedule=schedule,
    )


async def set_pools(connection: asyncpg.Connection, number: int, game_id: str, pools: Sequence[str]) -> None:
    await connection.execute(
        "UPDATE ratings_games SET pools = $3 WHERE generation = $1 AND game_id = $2",
        number,
        game_id,
        list(pools),
    )


async def known_from_sheet(connection: asyncpg.Connection, number: int, game_id: str) -> bool:
    """Whether the generation knows the game from its league's result sheet (not replayable)."""
    return bool(
        await connection.fetchval(
            "SELECT EXISTS (SELECT 1 FROM ratings_games WHERE generation = $1 AND game_id = $2 "
            "AND NOT replayable)",
            number,
            game_id,
        )
    )


async def known_game(connection: asyncpg.Connection, number: int, game_id: str) -> bool:
    return bool(
        await connection.fetchval(
            "SELECT EXISTS (SELECT 1 FROM ratings_games WHERE generation = $1 AND game_id = $2)",
            number,
            game_id,
        )
    )


async def remember_seats(
    connection: asyncpg.Connection, number: int, game_id: str, members: Sequence[str]
) -> None:
    await connection.execute(
        "INSERT INTO ratings_games (generation, game_id, members) VALUES ($1, $2, $3) "
        "ON CONFLICT (generation, game_id) DO UPDATE SET members = EXCLUDED.members",
        number,
        game_id,
        list(members),
    )


async def forget_game(connection: asyncpg.Connection, number: int, game_id: str) -> None:
    await connection.execute(
        "DELETE FROM ratings_games WHERE generation = $1 AND game_id = $2", number, game_id
    )


async def seats_of(connection: asyncpg.Connection, number: int, game_id: str) -> list[str] | None:
    members = await connection.fetchval(
        "SELECT members FROM ratings_games WHERE generation = $1 AND game_id = $2", number, game_id
    )
    return None if members is None else list(members)


async def rules_of(connection: asyncpg.Connection, number: int, game_id: str) -> tuple[str, str]:
    """(game type, ruleset text) the game was created with; the base dice game for a game
    remembered before rulesets were stored, or whose creation was not seen."""
    row = await connection.fetchrow(
        "SELECT game_type, ruleset FROM ratings_games WHERE generation = $1 AND game_id = $2", number, game_id
    )
    if row is None or row["game_type"] is None:
        return GameType.DICE, BASE_RULESET
    return row["game_type"], row["ruleset"]


async def mark_unrated(connection: asyncpg.Connection, number: int, game_id: str, reason: str) -> None:
    await connection.execute(
        "INSERT INTO ratings_games (generation, game_id, unrated) VALUES ($1, $2, $3) "
        "ON CONFLICT (generation, game_id) DO UPDATE SET unrated = EXCLUDED.unrated",
        number,
        game_id,
        reason,
    )


# --- voids --------------------------------------------------------------------------------------


async def void_game(connection: asyncpg.Connection, number: int, league_id: str, game_id: str) -> None:
    await connection.execute(
        "INSERT INTO ratings_voided (generation, league_id, game_id) VALUES ($1, $2, $3) "
        "ON CONFLICT DO NOTHING",
        number,
        league_id,
        game_id,
    )


async def voided(connection: asyncpg.Connection, number: int, game_id: str) -> bool:
    """Whether the game's own league (its ``GameCreated`` context) voided it: a league can void
    only its own games, never a friendly game or another league's."""
    return bool(
        await connection.fetchval(
            "SELECT EXISTS (SELECT 1 FROM ratings_voided v JOIN ratings_games g "
            "ON g.generation = v.generation AND g.game_id = v.game_id AND g.league_id = v.league_id "
            "WHERE v.generation = $1 AND v.game_id = $2)",
            number,
            game_id,
        )
    )


async def rated_in(connection: asyncpg.Connection, number: int, game_id: str, league_id: str) -> bool:
    """Whether the generation rated the game, and the game belongs to ``league_id``."""
    return bool(
        await connection.fetchval(
            "SELECT EXISTS (SELECT 1 FROM ratings_games WHERE generation = $1 AND game_id = $2 "
            "AND league_id = $3 AND game_number IS NOT NULL)",
            number,
            game_id,
            league_id,
        )
    )


async def request_rebuild(connection: asyncpg.Connection, request_id: str, reason: str) -> None:
    await connection.execute(
        "INSERT INTO ratings_rebuild_requests (request_id, reason) VALUES ($1, $2) ON CONFLICT DO NOTHING",
        request_id,
        reason,
    )


async def pending_rebuilds(executor: asyncpg.Connection | asyncpg.Pool) -> list[str]:
    rows = await executor.fetch(
        "SELECT request_id FROM ratings_rebuild_requests WHERE done_at IS NULL "
        "ORDER BY requested_at, request_id"
    )
    return [row["request_id"] for row in rows]


async def rebuild_done(executor: asyncpg.Connection | asyncpg.Pool, request_id: str) -> None:
    await executor.execute(
        "UPDATE ratings_rebuild_requests SET done_at = clock_timestamp() "
        "WHERE request_id = $1 AND done_at IS NULL",
        request_id,
    )


# --- the book ----------------------------------------------------------------------------------


def _offset_table(config: RatingConfig, rows: Iterable[asyncpg.Record]) -> OffsetTable:
    table = OffsetTable(prior_games=config.offset_prior_games, memory_games=config.offset_memory_games)
    for row in rows:
        cell = OffsetCell(value=row["value"], information=row["information"], games=row["games"])
        table.cells.setdefault(row["ruleset"], {}).setdefault(row["players"], {})[Side(row["faction"])] = cell
    return table


_OFFSET_COLUMNS = "ruleset, players, faction, value, information, games"


async def load_book(
    connection: asyncpg.Connection,
    gen: Generation,
    players: Sequence[LeaguePlayerId] | None = None,
    table_size: int | None = None,
    ruleset: str = BASE_RULESET,
    pool: str = GLOBAL,
) -> RatingBook:
    """The generation's book of ``ruleset``'s game type (a player's dice and card ratings are
    two books); with ``players`` and ``table_size``, only what rating one game of ``ruleset``
    at that table reads and writes (those players; the offsets of that ruleset and of the base
    ruleset its new cells start from, at that table size), which ``RatingBook.apply`` cannot
    tell from the whole book."""
    game_type = game_type_of(ruleset)
    if players is None:
        player_rows = await connection.fetch(
            "SELECT member_id, state::text FROM ratings_players WHERE generation = $1 AND game_type = $2 "
            "AND pool = $3",
            gen.generation,
            game_type,
            pool,
        )
        offset_rows = await connection.fetch(
            f"SELECT {_OFFSET_COLUMNS} FROM ratings_offsets "
            "WHERE generation = $1 AND split_part(ruleset, ' ', 1) = $2 AND pool = $3",
            gen.generation,
            game_type,
            pool,
        )
    else:
        player_rows = await connection.fetch(
            "SELECT member_id, state::text FROM ratings_players "
            "WHERE generation = $1 AND game_type = $3 AND member_id = ANY($2) AND pool = $4",
            gen.generation,
            list(players),
            game_type,
            pool,
        )
        offset_rows = await connection.fetch(
            f"SELECT {_OFFSET_COLUMNS} FROM ratings_offsets "
            "WHERE generation = $1 AND players = $2 AND ruleset = ANY($3::text[]) AND pool = $4",
            gen.generation,
            table_size,
            sorted({ruleset, base_ruleset_of(ruleset)}),
            pool,
        )
    records = {
        LeaguePlayerId(row["member_id"]): msgspec.json.decode(row["state"], type=PlayerRecord)
        for row in player_rows
    }
    return RatingBook(
        config=gen.config, players=records, offsets=_offset_table(gen.config, offset_rows), games=gen.games
    )


async def write_game(
    connection: asyncpg.Connection,
    number: int,
    book: RatingBook,
    outcome: GameOutcome,
    changes: Sequence[RatingChange],
    *,
    ended_at: datetime | None = None,
    pool: str = GLOBAL,
) -> None:
    """What rating ``outcome`` changed in ``book`` (the book of its game type): the seated
    players' rows of that game type (overall, four roles, state), their history points, the
    offsets of the game's ruleset at its table size, the game's number and when its end was
    recorded (``ended_at``, the event's time). The rows are ``pool``'s: a game rated in two
    pools is written once per pool, under the same game number."""
    game_number = book.games
    game_type = game_type_of(outcome.ruleset)
    await connection.execute(
        "INSERT INTO ratings_games (generation, game_id, game_number, ended_at) VALUES ($1, $2, $3, $4) "
        "ON CONFLICT (generation, game_id) DO UPDATE SET game_number = EXCLUDED.game_number, "
        "ended_at = EXCLUDED.ended_at",
        number,
        outcome.game_id,
        game_number,
        ended_at,
    )
    player_rows = []
    role_rows = []
    for seat in outcome.seats:
        rating = book.rating(seat.player)
        state = msgspec.json.encode(book.players[seat.player]).decode()
        player_rows.append(
            (
                number,
                seat.player,
                rating.rating,
                rating.games,
                rating.wins,
                rating.provisional,
                state,
                game_type,
                pool,
            )
        )
        for rr in rating.roles:
            role_rows.append(
                (
                    number,
                    seat.player,
                    rr.role.value,
                    rr.rating,
                    rr.games,
                    rr.wins,
                    rr.provisional,
                    game_type,
                    pool,
                )
            )
    await connection.executemany(
        "INSERT INTO ratings_players (generation, member_id, rating, games, wins, provisional, state, "
        "game_type, pool) VALUES ($1, $2, $3, $4, $5, $6, $7::json, $8, $9) "
        "ON CONFLICT (generation, pool, game_type, member_id) DO UPDATE SET "
        "rating = EXCLUDED.rating, games = EXCLUDED.games, wins = EXCLUDED.wins, "
        "provisional = EXCLUDED.provisional, state = EXCLUDED.state",
        player_rows,
    )
    await connection.executemany(
        "INSERT INTO ratings_roles (generation, member_id, role, rating, games, wins, provisional, "
        "game_type, pool) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) "
        "ON CONFLICT (generation, pool, game_type, member_id, role) DO UPDATE SET "
        "rating = EXCLUDED.rating, games = EXCLUDED.games, wins = EXCLUDED.wins, "
        "provisional = EXCLUDED.provisional",
        role_rows,
    )
    history_rows = []
    for change in changes:
        history_rows.append(
            (
                number,
                change.player,
                OVERALL,
                game_number,
                change.game_id,
                change.rating_after,
                game_type,
                pool,
            )
        )
        if change.role_rated:  # not after an Undead or Alive outbreak: roles were not rated
            role_point = (change.role.value, game_number, change.game_id, change.role_rating_after)
            history_rows.append((number, change.player, *role_point, game_type, pool))
    await connection.executemany(
        "INSERT INTO ratings_history (generation, member_id, role, game_number, game_id, rating, game_type, "
        "pool) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        history_rows,
    )
    players, ruleset = outcome.players, outcome.ruleset
    normalised = book.offsets.normalised().get(ruleset, {}).get(players, {})
    offset_rows = [
        (
            number,
            ruleset,
            players,
            kind.value,
            cell.value,
            cell.information,
            cell.games,
            normalised.get(kind, 0.0),
            pool,
        )
        for kind, cell in book.offsets.cells.get(ruleset, {}).get(players, {}).items()
    ]
    await connection.executemany(
        "INSERT INTO ratings_offsets "
        "(generation, ruleset, players, faction, value, information, games, normalised, pool) "
        "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) "
        "ON CONFLICT (generation, pool, ruleset, players, faction) DO UPDATE SET "
        "value = EXCLUDED.value, information = EXCLUDED.information, games = EXCLUDED.games, "
        "normalised = EXCLUDED.normalised",
        offset_rows,
    )


# --- queries -----------------------------------------------------------------------------------


class LeaderboardRow(msgspec.Struct, frozen=True, kw_only=True):
    rank: int
    member_id: str
    pool: str
    """The pool the rating is of (``global``, ``club:<club_id>``): a player has one in each."""
    game_type: str
    """The game type the rating is of (``dice``, ``cards``): a player has one of each."""
    role: Role | None
    """None: the overall leaderboard."""
    rating: float
    games: int
    wins: int
    provisional: bool
    overall_rating: float


class RoleRow(msgspec.Struct, frozen=True, kw_only=True):
    role: Role
    rating: float
    games: int
    wins: int
    provisional: bool


class HistoryRow(msgspec.Struct, frozen=True, kw_only=True):
    role: str
    """``overall`` or a role."""
    game_number: int
    game_id: str
    rating: float
    ended_at: datetime | None = None
    """When the game's end was recorded; None for a game rated before that was kept."""


class ProfileRow(msgspec.Struct, frozen=True, kw_only=True):
    member_id: str
    pool: str
    game_type: str
    rating: float
    games: int
    wins: int
    provisional: bool
    roles: tuple[RoleRow, ...]
    history: tuple[HistoryRow, ...]
    """Ordered by role (overall first, then ROLES' order) and game number."""


class OffsetRow(msgspec.Struct, frozen=True, kw_only=True):
    pool: str
    ruleset: str
    """The module set the offset is fitted for (``Ruleset.text``: ``dice``, ``dice OS1 OS3``)."""
    players: int
    faction: Side
    offset: float
    """Centred per ruleset and table size (the mean over the table's factions is 0): how to
    read it."""
    raw: float
    games: int


def _played_in(ruleset: str, role: str = f"'{OVERALL}'") -> str:
    """The filter of a board: a member is "in" a league (or season) when one of their rated
    games belongs to it, and "in" a ruleset when one of them was played under it; their rating
    stays the one rating they have across leagues and rulesets. ``$3``/``$4`` are the league and
    season, ``ruleset`` the parameter of the ruleset (a game stored before rulesets were is a
    base game). ``role`` is what the game must have been rated as: the overall rating (any game),
    or on a role's board that role (a role's history has a point only for a game rated in it),
    so a role's board filtered to a league lists only who played the role there."""
    return f"""
    AND (($3::text IS NULL AND {ruleset}::text IS NULL) OR EXISTS (
        SELECT 1 FROM ratings_history h
          JOIN ratings_games gm ON gm.generation = h.generation AND gm.game_id = h.game_id
         WHERE h.generation = p.generation AND h.pool = p.pool AND h.game_type = p.game_type
           AND h.member_id = p.member_id
           AND h.role = {role}
           AND ($3::text IS NULL OR (gm.league_id = $3 AND ($4::text IS NULL OR gm.season_id = $4)))
           AND ({ruleset}::text IS NULL OR coalesce(gm.ruleset, '{BASE_RULESET}') = {ruleset})))
    """


async def leaderboard(
    connections: asyncpg.Pool,
    *,
    role: Role | None = None,
    league_id: str | None = None,
    season_id: str | None = None,
    ruleset: str | None = None,
    include_provisional: bool = True,
    limit: int = 50,
    offset: int = 0,
    game_type: str = GameType.DICE,
    pool: str = GLOBAL,
) -> list[LeaderboardRow]:
    """Best first (ties by member id), ranked after filtering: the ratings of ``game_type``
    (a ``ruleset`` names its own) in ``pool``. A role's board lists those who played the role at least
    once. ``season_id`` narrows ``league_id``'s filter; ``ruleset`` keeps those with a rated
    game under that ruleset (``dice OS1 OS3``); on a role's board the game must have been rated
    in that role (a member of the league who never played the role there is not listed)."""
    if ruleset is not None:
        game_type = game_type_of(ruleset)
    if role is None:
        sql = f"""
            SELECT row_number() OVER (ORDER BY p.rating DESC, p.member_id) AS rank, p.member_id,
                   p.rating, p.games, p.wins, p.provisional, p.rating AS overall_rating
              FROM ratings_players p
              JOIN ratings_generations g ON g.generation = p.generation AND g.status = 'current'
             WHERE p.game_type = $7 AND p.pool = $8 AND ($5 OR NOT p.provisional) {_played_in("$6")}
             ORDER BY rank LIMIT $1 OFFSET $2
        """
        rows = await connections.fetch(
            sql, limit, offset, league_id, season_id, include_provisional, ruleset, str(game_type), pool
        )
    else:
        sql = f"""
            SELECT row_number() OVER (ORDER BY r.rating DESC, r.member_id) AS rank, r.member_id,
                   r.rating, r.games, r.wins, r.provisional, p.rating AS overall_rating
              FROM ratings_roles r
              JOIN ratings_players p ON p.generation = r.generation AND p.pool = r.pool
                   AND p.game_type = r.game_type AND p.member_id = r.member_id
              JOIN ratings_generations g ON g.generation = r.generation AND g.status = 'current'
             WHERE r.game_type = $8 AND r.pool = $9 AND r.role = $6 AND r.games > 0
                   AND ($5 OR NOT r.provisional) {_played_in("$7", role="$6")}
             ORDER BY rank LIMIT $1 OFFSET $2
        """
        rows = await connections.fetch(
            sql,
            limit,
            offset,
            league_id,
            season_id,
            include_provisional,
            role.value,
            ruleset,
            str(game_type),
            pool,
        )
    return [
        LeaderboardRow(
            rank=row["rank"],
            member_id=row["member_id"],
            pool=pool,
            game_type=str(game_type),
            role=role,
            rating=row["rating"],
            games=row["games"],
            wins=row["wins"],
            provisional=row["provisional"],
            overall_rating=row["overall_rating"],
        )
        for row in rows
    ]


class RulesetRow(msgspec.Struct, frozen=True, kw_only=True):
    ruleset: str
    """As games record it: ``dice``, ``dice OS1 OS3``, ``cards``."""
    games: int
    """Rated games under it in the pool."""
    players: int
    """Members with a rated game under it in the pool."""


async def rulesets(
    connections: asyncpg.Pool, *, game_type: str = GameType.DICE, pool: str = GLOBAL
) -> list[RulesetRow]:
    """The rulesets ``pool`` has rated games of (of ``game_type``), most played first: the
    values a board's ``ruleset`` filter can answer for (a rating is one across rulesets; the
    filter keeps the members with a rated game under one). Read from the same rows as the
    filter, so a ruleset listed here never filters a board down to nobody."""
    rows = await connections.fetch(
        f"""
        SELECT coalesce(gm.ruleset, '{BASE_RULESET}') AS ruleset, count(DISTINCT h.game_id)::int AS games,
               count(DISTINCT h.member_id)::int AS players
          FROM ratings_history h
          JOIN ratings_generations g ON g.generation = h.generation AND g.status = 'current'
          JOIN ratings_games gm ON gm.generation = h.generation AND gm.game_id = h.game_id
         WHERE h.pool = $1 AND h.game_type = $2 AND h.role = '{OVERALL}'
         GROUP BY 1 ORDER BY games DESC, ruleset
        """,
        pool,
        str(game_type),
    )
    return [RulesetRow(ruleset=r["ruleset"], games=r["games"], players=r["players"]) for r in rows]


_HISTORY_ORDER = {OVERALL: 0} | {role.value: i + 1 for i, role in enumerate(ROLES)}


class GameChangeRow(msgspec.Struct, frozen=True, kw_only=True):
    """One player's overall rating in one pool, before and right after one game."""

    member_id: str
    pool: str
    game_type: str
    before: float
    """The rating after the member's previous rated game in that pool (the initial rating for
    a first game)."""
    after: float


class GameChangesRow(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str
    rated: bool
    reason: str | None
    """Why the game moved no rating (``ratings_games.unrated``, plain words), when it did not."""
    changes: tuple[GameChangeRow, ...]


NOT_RATED_YET = "not rated yet: the ratings have not taken this game in (it is not over, or is on its way)"


async def game_changes(connections: asyncpg.Pool, game_id: str) -> GameChangesRow:
    """How ``game_id`` moved its players' overall ratings in every pool it was rated in, or why
    it moved none. Public like a player's rating history, which has the same numbers."""
    async with (
        connections.acquire() as connection,
        connection.transaction(isolation="repeatable_read", readonly=True),
    ):
        current = await current_generation(connection)
        game = None
        if current is not None:
            game = await connection.fetchrow(
                "SELECT game_number, unrated FROM ratings_games WHERE generation = $1 AND game_id = $2",
                current.generation,
                game_id,
            )
        if current is None or game is None or game["game_number"] is None:
            reason = None if game is None else game["unrated"]
            return GameChangesRow(game_id=game_id, rated=False, reason=reason or NOT_RATED_YET, changes=())
        rows = await connection.fetch(
            "SELECT h.pool, h.game_type, h.member_id, h.rating AS after, "
            "(SELECT b.rating FROM ratings_history b WHERE b.generation = h.generation "
            " AND b.pool = h.pool AND b.game_type = h.game_type AND b.member_id = h.member_id "
            " AND b.role = h.role AND b.game_number < h.game_number "
            " ORDER BY b.game_number DESC LIMIT 1) AS before "
            "FROM ratings_history h WHERE h.generation = $1 AND h.game_id = $2 AND h.role = $3 "
            "ORDER BY h.pool, h.member_id",
            current.generation,
            game_id,
            OVERALL,
        )
    initial = current.config.initial
    return GameChangesRow(
        game_id=game_id,
        rated=True,
        reason=None,
        changes=tuple(
            GameChangeRow(
                member_id=r["member_id"],
                pool=r["pool"],
                game_type=r["game_type"],
                before=initial if r["before"] is None else r["before"],
                after=r["after"],
            )
            for r in rows
        ),
    )


async def profile(
    connections: asyncpg.Pool, member_id: str, game_type: str = GameType.DICE, pool: str = GLOBAL
) -> ProfileRow | None:
    """A member's ratings and history in ``game_type`` and ``pool``, or None if they have no
    rated game of it there."""
    async with (
        connections.acquire() as connection,
        connection.transaction(isolation="repeatable_read", readonly=True),
    ):
        # one snapshot for the three reads, so a rebuild's swap cannot fall between them
        player = await connection.fetchrow(
            "SELECT p.generation, p.rating, p.games, p.wins, p.provisional FROM ratings_players p "
            "JOIN ratings_generations g ON g.generation = p.generation AND g.status = 'current' "
            "WHERE p.member_id = $1 AND p.game_type = $2 AND p.pool = $3",
            member_id,
            str(game_type),
            pool,
        )
        if player is None:
            return None
        roles = await connection.fetch(
            "SELECT role, rating, games, wins, provisional FROM ratings_roles "
            "WHERE generation = $1 AND member_id = $2 AND game_type = $3 AND pool = $4",
            player["generation"],
            member_id,
            str(game_type),
            pool,
        )
        history = await connection.fetch(
            "SELECT h.role, h.game_number, h.game_id, h.rating, gm.ended_at FROM ratings_history h "
            "LEFT JOIN ratings_games gm ON gm.generation = h.generation AND gm.game_id = h.game_id "
            "WHERE h.generation = $1 AND h.member_id = $2 AND h.game_type = $3 AND h.pool = $4 "
            "ORDER BY h.game_number",
            player["generation"],
            member_id,
            str(game_type),
            pool,
        )
    by_role = {Role(r["role"]): r for r in roles}
    points = sorted(
        (
            HistoryRow(
                role=h["role"],
                game_number=h["game_number"],
                game_id=h["game_id"],
                rating=h["rating"],
                ended_at=h["ended_at"],
            )
            for h in history
        ),
        key=lambda h: (_HISTORY_ORDER[h.role], h.game_number),
    )
    return ProfileRow(
        member_id=member_id,
        pool=pool,
        game_type=str(game_type),
        rating=player["rating"],
        games=player["games"],
        wins=player["wins"],
        provisional=player["provisional"],
        roles=tuple(
            RoleRow(
                role=role,
                rating=by_role[role]["rating"],
                games=by_role[role]["games"],
                wins=by_role[role]["wins"],
                provisional=by_role[role]["provisional"],
            )
            for role in ROLES
        ),
        history=tuple(points),
    )


async def offsets(
    connections: asyncpg.Pool,
    players: int | None = None,
    ruleset: str | None = None,
    game_type: str | None = None,
    pool: str = GLOBAL,
) -> list[OffsetRow]:
    """The offsets fitted in ``pool``, by ruleset, table size and faction; optionally of one
    size, one ruleset or the rulesets of one game type only."""
    rows = await connections.fetch(
        "SELECT o.ruleset, o.players, o.faction, o.normalised, o.value, o.games FROM ratings_offsets o "
        "JOIN ratings_generations g ON g.generation = o.generation AND g.status = 'current' "
        "WHERE ($1::smallint IS NULL OR o.players = $1) AND ($2::text IS NULL OR o.ruleset = $2) "
        "AND ($3::text IS NULL OR split_part(o.ruleset, ' ', 1) = $3) AND o.pool = $4 "
        "ORDER BY o.ruleset, o.players, o.faction",
        players,
        ruleset,
        game_type,
        pool,
    )
    return [
        OffsetRow(
            pool=pool,
            ruleset=row["ruleset"],
            players=row["players"],
            faction=Side(row["faction"]),
            offset=row["normalised"],
            raw=row["value"],
            games=row["games"],
        )
        for row in rows
    ]
