"""The directory projection: game, league and club streams in, the lists' tables out.

Contract:

* a catch-up ``Subscription`` named ``directory`` on the categories ``game``, ``league`` and
  ``club``; every row goes through the subscription's transaction, which also moves its
  checkpoint, so each event is applied exactly once even across crashes;
* a game is read in the neutral words of ``services.game.results.decoder`` (its lifecycle
  facts and the engine's end as a ``GameFinish``): the directory never imports an engine,
  and never decodes an event that carries a role (``GameStarted`` and the engine's turns are
  skipped undecoded). Only the winning side and who won are kept, once the game has ended;
* a league's structure (leagues, seasons with their entrants, tournaments, seated rounds,
  scheduled games, forfeits, closed rounds, voids) comes from the ``league`` streams, the
  registered names of the league clubs' members from the ``club`` streams;
* disposable: ``reset`` + a replay from position 0 gives the same tables.
"""

from __future__ import annotations

from pathlib import Path

import asyncpg

from event_store import PostgresEventStore, RecordedEvent, Subscription, migrate_component
from event_store.migrator import load_migrations
from event_store.wakeups import WakeupSource
from services.game.application.codec import game_id_of
from services.game.application.lifecycle import GameAbandoned, GameCreated, PlayerJoined, SeatsDealt
from services.game.results import GameFinish
from services.game.results.decoder import decode_game_fact, identity_of, seat_members
from services.league.events import (
    LEAGUE_MAPPER,
    ClubFounded,
    ForfeitRecorded,
    GameScheduled,
    GameVoided,
    LeagueEvent,
    LeagueFounded,
    PlayerEnrolled,
    PlayerRegistered,
    ResultSheetRecorded,
    RoundClosed,
    RoundSeated,
    SeasonClosed,
    SeasonOpened,
    TournamentOpened,
)

PROJECTION_NAME = "directory"
CATEGORIES = ("game", "league", "club")
MIGRATIONS = Path(__file__).with_name("migrations")
COMPONENT = "directory"
READ_MODEL_TABLES = (
    "directory_game_seats",
    "directory_games",
    "directory_clubs",
    "directory_club_members",
    "directory_leagues",
    "directory_seasons",
    "directory_tournaments",
    "directory_rounds",
    "directory_tables",
    "directory_forfeits",
)

_LEAGUE_TYPES = frozenset(
    cls.__name__
    for cls in (
        LeagueFounded,
        SeasonOpened,
        SeasonClosed,
        PlayerEnrolled,
        TournamentOpened,
        RoundSeated,
        GameScheduled,
        ForfeitRecorded,
        RoundClosed,
        GameVoided,
        ResultSheetRecorded,
        ClubFounded,
        PlayerRegistered,
    )
)
"""The league and club facts the directory reads; any other type is skipped undecoded."""


async def prepare_database(pool: asyncpg.Pool) -> None:
    """The event store's schema, then the directory's tables (migrations component ``directory``)."""
    await migrate_component(pool, MIGRATIONS, COMPONENT)


async def reset(connection: asyncpg.Connection) -> None:
    """Drop the tables and the checkpoint, recreate the tables empty: the next run replays all."""
    async with connection.transaction():
        await connection.execute(f"DROP TABLE IF EXISTS {', '.join(READ_MODEL_TABLES)}")
        await connection.execute("DELETE FROM checkpoints WHERE name = $1", PROJECTION_NAME)
        for migration in load_migrations(MIGRATIONS):
            await connection.execute(migration.sql)


def directory_subscription(
    store: PostgresEventStore, *, wakeups: WakeupSource | None = None, batch_size: int = 256
) -> Subscription:
    return Subscription(
        store,
        PROJECTION_NAME,
        apply_event,
        categories=CATEGORIES,
        batch_size=batch_size,
        wakeups=wakeups,
        poll_interval=0.5,
    )


async def apply_event(event: RecordedEvent, tx: asyncpg.Connection) -> None:
    """Apply one event through the subscription's transaction."""
    if event.category == "game":
        await _apply_game(event, tx)
    elif event.type in _LEAGUE_TYPES:
        fact = LEAGUE_MAPPER.to_domain(event)
        assert isinstance(fact, LeagueEvent)
        await _apply_league(fact, event, tx)


async def _apply_game(event: RecordedEvent, tx: asyncpg.Connection) -> None:
    fact = decode_game_fact(event)
    if fact is None:
        return
    game_id = game_id_of(event.stream)
    match fact:
        case GameCreated(context=context):
            game_type, _ = identity_of(fact)
            ruleset = fact.ruleset  # its modules (OS1…) and its options (eight_players) apart
            await tx.execute(
                """
                INSERT INTO directory_games (game_id, mode, status, game_type, modules, options,
                    player_count, created_at, league_id, season_id, tournament_id, round, table_no)
                VALUES ($1, $2, 'lobby', $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
                ON CONFLICT (game_id) DO NOTHING
                """,
                game_id, fact.mode.value, game_type, [str(m) for m in ruleset.modules],
                [str(o) for o in ruleset.option_ids], fact.player_count,
                event.recorded_at, context.league_id, context.season_id, context.tournament_id,
                context.round, context.table,
            )  # fmt: skip
        case PlayerJoined():
            await tx.execute(
                """
                INSERT INTO directory_game_seats (game_id, member_id, joined, seat, name)
                SELECT $1, $2, (SELECT count(*) FROM directory_game_seats WHERE game_id = $1), $3, $4
                 WHERE EXISTS (SELECT 1 FROM directory_games WHERE game_id = $1)
                ON CONFLICT (game_id, member_id) DO UPDATE SET seat = coalesce(EXCLUDED.seat,
                    directory_game_seats.seat), name = EXCLUDED.name
                """,
                game_id, fact.member_id, fact.player, fact.name,
            )  # fmt: skip
        case SeatsDealt():
            # dealing the seats is the start of the game, online or at a table
            await tx.executemany(
                "UPDATE directory_game_seats SET seat = $2 WHERE game_id = $1 AND member_id = $3",
                [(game_id, seat, member) for seat, member in seat_members(fact).items()],
            )
            await tx.execute(
                "UPDATE directory_games SET status = 'ongoing', started_at = $2"
                " WHERE game_id = $1 AND status = 'lobby'",
                game_id,
                event.recorded_at,
            )
        case GameAbandoned():
            await tx.execute(
                "UPDATE directory_games SET status = 'abandoned', ended_at = $2 WHERE game_id = $1",
                game_id,
                event.recorded_at,
            )
        case GameFinish():
            await tx.execute(
                "UPDATE directory_games SET status = 'finished', ended_at = $2, winning_side = $3"
                " WHERE game_id = $1",
                game_id,
                event.recorded_at,
                fact.winning_side,
            )
            await tx.executemany(
                "UPDATE directory_game_seats SET won = $3 WHERE game_id = $1 AND seat = $2",
                [(game_id, s.seat, s.won) for s in fact.seats],
            )


async def _apply_league(fact: LeagueEvent, event: RecordedEvent, tx: asyncpg.Connection) -> None:
    at = event.recorded_at
    match fact:
        case ClubFounded():
            await tx.execute(
                "INSERT INTO directory_clubs (club_id, name) VALUES ($1, $2) ON CONFLICT DO NOTHING",
                fact.club_id,
                fact.name,
            )
        case PlayerRegistered():
            await tx.execute(
                "INSERT INTO directory_club_members (club_id, member_id, name) VALUES ($1, $2, $3)"
                " ON CONFLICT (club_id, member_id) DO UPDATE SET name = EXCLUDED.name",
                fact.club_id, fact.member_id, fact.name,
            )  # fmt: skip
        case LeagueFounded():
            await tx.execute(
                "INSERT INTO directory_leagues (league_id, club_id, name, founded_at, game_type)"
                " VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING",
                fact.league_id, fact.club_id, fact.name, at, fact.game_type,
            )  # fmt: skip
        case SeasonOpened():
            await tx.execute(
                "INSERT INTO directory_seasons (league_id, season_id, name, opened_at)"
                " VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
                fact.league_id, fact.season_id, fact.name, at,
            )  # fmt: skip
        case SeasonClosed():
            await tx.execute(
                "UPDATE directory_seasons SET closed = true WHERE league_id = $1 AND season_id = $2",
                fact.league_id,
                fact.season_id,
            )
        case PlayerEnrolled():
            await tx.execute(
                "UPDATE directory_seasons SET entrants = entrants + 1"
                " WHERE league_id = $1 AND season_id = $2",
                fact.league_id,
                fact.season_id,
            )
        case TournamentOpened():
            await tx.execute(
                "INSERT INTO directory_tournaments (league_id, tournament_id, season_id, name, opened_at)"
                " VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING",
                fact.league_id, fact.tournament_id, fact.season_id, fact.name, at,
            )  # fmt: skip
        case RoundSeated():
            await tx.execute(
                "INSERT INTO directory_rounds (league_id, tournament_id, round, season_id, seated_at, byes)"
                " VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING",
                fact.league_id, fact.tournament_id, fact.round, fact.season_id, at, list(fact.byes),
            )  # fmt: skip
            await tx.executemany(
                "INSERT INTO directory_tables (league_id, tournament_id, round, table_no, members, sheriff)"
                " VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING",
                [
                    (fact.league_id, fact.tournament_id, fact.round, t.table, list(t.members), t.sheriff)
                    for t in fact.tables
                ],
            )
        case GameScheduled():
            await tx.execute(
                "UPDATE directory_tables SET game_id = $5, mode = $6, starts_at = $7::text::timestamptz,"
                " ruleset = $8, decision_timeout_seconds = $9"
                " WHERE league_id = $1 AND tournament_id = $2 AND round = $3 AND table_no = $4",
                fact.league_id, fact.tournament_id, fact.round, fact.table, fact.game_id, fact.mode,
                fact.starts_at, fact.ruleset, fact.decision_timeout_seconds,
            )  # fmt: skip
        case ForfeitRecorded():
            await tx.execute(
                "INSERT INTO directory_forfeits (league_id, tournament_id, round, table_no, member_id, kind,"
                " reason) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING",
                fact.league_id, fact.tournament_id, fact.round, fact.table, fact.member_id, fact.kind,
                fact.reason,
            )  # fmt: skip
        case RoundClosed():
            await tx.execute(
                "UPDATE directory_rounds SET closed = true"
                " WHERE league_id = $1 AND tournament_id = $2 AND round = $3",
                fact.league_id,
                fact.tournament_id,
                fact.round,
            )
        case GameVoided():
            await tx.execute(
                "UPDATE directory_games SET voided = true WHERE game_id = $1 AND league_id = $2",
                fact.game_id,
                fact.league_id,
            )
            await tx.execute(
                "UPDATE directory_tables SET sheet_voided = true WHERE game_id = $1 AND league_id = $2",
                fact.game_id,
                fact.league_id,
            )
        case ResultSheetRecorded():
            await tx.execute(
                "UPDATE directory_tables SET sheet_winning_side = $5"
                " WHERE league_id = $1 AND tournament_id = $2 AND round = $3 AND table_no = $4",
                fact.league_id, fact.tournament_id, fact.round, fact.table, fact.result.winning_side,
            )  # fmt: skip
