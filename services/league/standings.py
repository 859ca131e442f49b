"""The standings projection: league and game streams in, standings tables out, exactly once.

Contract (docs/league.md, "Projection"):

* a catch-up ``Subscription`` named ``league-standings`` on categories ``game`` and ``league``;
  every row it writes goes through the connection of the subscription's transaction, which
  also moves its checkpoint, so each event is applied exactly once even across crashes;
* a game claims a league when its ``GameCreated.context.league_id`` is set; ``SeatsDealt``
  (or ``PlayerJoined`` with a seat, for table games) maps seats to members; the engine's end,
  read as a neutral ``GameFinish`` (services/game/results/decoder.py), records its results
  with its season's ``PointsScheme``; ``RoundSeated`` books the byes;
* a finished game *counts* (its results go into the totals and head-to-head) only while its
  league has scheduled it (``GameScheduled``) at the season, tournament, round and table its
  context names, whether that came before or after the game, its seats hold exactly the
  members seated at that table (``RoundSeated``), and the league has not voided it
  (``GameVoided``); ``_settle`` adds or takes away its results whenever one of these changes,
  so the order of the events does not matter. A finished game that does not count stays
  visible for an audit (``league_games.counted`` false; ``read_model.uncounted_games``);
* ``ForfeitRecorded`` is a game lost with no points (and no opponents) for that member;
  ``RoundClosed`` marks the round closed;
* after each committed batch it publishes the new checkpoint on Redis (``standings_channel``)
  so live GraphQL subscriptions wake up; subscribers poll too, so a lost message only delays;
* disposable: ``read_model.reset`` + a replay from position 0 gives the same tables.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections.abc import Sequence

import asyncpg
import msgspec
import redis.asyncio as aioredis

from event_store import PostgresEventStore, RecordedEvent, Subscription
from event_store.wakeups import WakeupSource
from services.game.application.lifecycle import GameCreated, PlayerJoined, SeatsDealt
from services.game.results import GameFinish, GameResult, Role
from services.league.events import (
    ForfeitRecorded,
    GameScheduled,
    GameVoided,
    LeagueEvent,
    PlayerEnrolled,
    ResultSheetRecorded,
    RoundClosed,
    RoundSeated,
    SeasonClosed,
    SeasonOpened,
    TournamentOpened,
)
from services.league.facts import decode_game_event, decode_league_event, game_id_of, member_results, seat_map
from services.league.points import RENEGADE_GAME_SIDES, points_for
from services.league.vocabulary import PointsScheme

log = logging.getLogger(__name__)

PROJECTION_NAME = "league-standings"
CATEGORIES = ("game", "league")
NO_SEASON = ""
"""The season key of a league game created without a season (standings still count it)."""


def standings_channel(database: str) -> str:
    """The Redis channel carrying this database's standings checkpoint after each batch."""
    return f"bang:league:standings:{database}"


class StandingsProjection:
    """Runs the ``league-standings`` subscription; see the module docstring for the contract."""

    def __init__(
        self,
        store: PostgresEventStore,
        *,
        redis_url: str | None = None,
        batch_size: int = 256,
        wakeups: WakeupSource | None = None,
        poll_interval: float = 0.5,
    ) -> None:
        self.store = store
        self._redis = aioredis.from_url(redis_url) if redis_url else None
        self._channel: str | None = None
        self.subscription = Subscription(
            store,
            PROJECTION_NAME,
            apply_event,
            categories=CATEGORIES,
            batch_size=batch_size,
            wakeups=wakeups,
            poll_interval=poll_interval,
            after_commit=self._announce,
        )

    async def run_until_idle(self) -> int:
        return await self.subscription.run_until_idle()

    async def run(self, stop: asyncio.Event) -> None:
        await self.subscription.run(stop)

    async def position(self) -> int:
        return await self.subscription.position()

    async def close(self) -> None:
        if self._redis is not None:
            await self._redis.aclose()

    async def _announce(self, events: Sequence[RecordedEvent]) -> None:
        """Tell live subscribers the checkpoint moved. At most once and best effort: they poll."""
        if self._redis is None:
            return
        if self._channel is None:
            self._channel = standings_channel(await self.store.pool.fetchval("SELECT current_database()"))
        try:
            await self._redis.publish(self._channel, str(events[-1].position))
        except (OSError, aioredis.RedisError) as error:
            log.warning("could not announce standings position on redis: %s", error)


async def apply_event(event: RecordedEvent, tx: asyncpg.Connection) -> None:
    """Apply one event to the read model through the subscription's transaction."""
    if event.category == "league":
        league_fact = decode_league_event(event)
        if isinstance(league_fact, ResultSheetRecorded):
            await _record_sheet(league_fact, event.position, tx)
        else:
            await _apply_league(league_fact, tx)
        return
    fact = decode_game_event(event)
    if fact is None:
        return
    game_id = game_id_of(event)
    match fact:
        case GameCreated(context=context) if context.league_id is not None:
            await tx.execute(
                "INSERT INTO league_games (game_id, league_id, season_id, tournament_id, round, table_no)"
                " VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (game_id) DO NOTHING",
                game_id,
                context.league_id,
                context.season_id,
                context.tournament_id,
                context.round,
                context.table,
            )
        case SeatsDealt():
            await tx.executemany(
                "INSERT INTO league_game_seats (game_id, seat, member_id)"
                " SELECT $1, $2, $3 WHERE EXISTS (SELECT 1 FROM league_games WHERE game_id = $1)"
                " ON CONFLICT (game_id, seat) DO UPDATE SET member_id = EXCLUDED.member_id",
                [(game_id, seat, member) for seat, member in seat_map(fact).items()],
            )
        case PlayerJoined(player=player) if player is not None:
            await tx.execute(
                "INSERT INTO league_game_seats (game_id, seat, member_id)"
                " SELECT $1, $2, $3 WHERE EXISTS (SELECT 1 FROM league_games WHERE game_id = $1)"
                " ON CONFLICT (game_id, seat) DO UPDATE SET member_id = EXCLUDED.member_id",
                game_id,
                player,
                fact.member_id,
            )
        case GameFinish():
            await _score_game(game_id, fact, event.position, tx)


async def _record_sheet(sheet: ResultSheetRecorded, position: int, tx: asyncpg.Connection) -> None:
    """A game known from its result sheet: claimed, seated and finished at once, not replayable.
    The league refused a sheet for a game that exists on the server and the server refuses a
    game once its sheet is in, so a row already there means the sheet lost: it is skipped."""
    inserted = await tx.fetchval(
        "INSERT INTO league_games (game_id, league_id, season_id, tournament_id, round, table_no, replayable)"
        " VALUES ($1, $2, $3, $4, $5, $6, false) ON CONFLICT (game_id) DO NOTHING RETURNING game_id",
        sheet.game_id,
        sheet.league_id,
        sheet.season_id,
        sheet.tournament_id,
        sheet.round,
        sheet.table,
    )
    if inserted is None:
        log.warning("result sheet of game %s skipped: the game is known from its own stream", sheet.game_id)
        return
    await tx.executemany(
        "INSERT INTO league_game_seats (game_id, seat, member_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
        [(sheet.game_id, s.seat, s.member_id) for s in sheet.result.seats],
    )
    await _record_results(sheet.game_id, sheet.result, position, tx)


async def _apply_league(fact: LeagueEvent, tx: asyncpg.Connection) -> None:
    match fact:
        case SeasonOpened():
            await tx.execute(
                "INSERT INTO league_seasons (league_id, season_id, name, points) VALUES ($1, $2, $3, $4)"
                " ON CONFLICT DO NOTHING",
                fact.league_id,
                fact.season_id,
                fact.name,
                msgspec.json.encode(fact.points).decode(),
            )
        case TournamentOpened():
            await tx.execute(
                "INSERT INTO league_tournaments (league_id, tournament_id, season_id, name)"
                " VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
                fact.league_id,
                fact.tournament_id,
                fact.season_id,
                fact.name,
            )
        case PlayerEnrolled():
            # Enrolled players appear in the standings before their first game.
            await tx.execute(
                "INSERT INTO league_standings (league_id, season_id, member_id, enrolled)"
                " VALUES ($1, $2, $3, true)"
                " ON CONFLICT (league_id, season_id, member_id) DO UPDATE SET enrolled = true",
                fact.league_id,
                fact.season_id,
                fact.member_id,
            )
        case RoundSeated():
            await tx.execute(
                "INSERT INTO league_rounds (league_id, tournament_id, round, season_id)"
                " VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
                fact.league_id,
                fact.tournament_id,
                fact.round,
                fact.season_id,
            )
            await tx.executemany(
                "INSERT INTO league_tables (league_id, tournament_id, round, table_no, season_id, members,"
                " sheriff) VALUES ($1, $2, $3, $4, $5, $6, $7)",
                [
                    (
                        fact.league_id,
                        fact.tournament_id,
                        fact.round,
                        t.table,
                        fact.season_id,
                        list(t.members),
                        t.sheriff,
                    )
                    for t in fact.tables
                ],
            )
            bye_points = (await _scheme(tx, fact.league_id, fact.season_id)).bye
            await tx.executemany(
                "INSERT INTO league_byes (league_id, tournament_id, round, member_id, season_id, points)"
                " VALUES ($1, $2, $3, $4, $5, $6)",
                [
                    (fact.league_id, fact.tournament_id, fact.round, m, fact.season_id, bye_points)
                    for m in fact.byes
                ],
            )
            await tx.executemany(
                "INSERT INTO league_standings (league_id, season_id, member_id, points, byes)"
                " VALUES ($1, $2, $3, $4, 1) ON CONFLICT (league_id, season_id, member_id) DO UPDATE"
                " SET points = league_standings.points + EXCLUDED.points, byes = league_standings.byes + 1",
                [(fact.league_id, fact.season_id, m, bye_points) for m in fact.byes],
            )
        case GameScheduled():
            await tx.execute(
                "UPDATE league_tables SET game_id = $5"
                " WHERE league_id = $1 AND tournament_id = $2 AND round = $3 AND table_no = $4",
                fact.league_id,
                fact.tournament_id,
                fact.round,
                fact.table,
                fact.game_id,
            )
            # the first schedule of a game id in a league holds (the league refuses a second)
            await tx.execute(
                "INSERT INTO league_scheduled_games (league_id, game_id, tournament_id, round, table_no,"
                " season_id, mode) SELECT $1, $2, $3, $4, $5,"
                " (SELECT season_id FROM league_tournaments WHERE league_id = $1 AND tournament_id = $3), $6"
                " ON CONFLICT DO NOTHING",
                fact.league_id,
                fact.game_id,
                fact.tournament_id,
                fact.round,
                fact.table,
                fact.mode,
            )
            await _settle(tx, fact.game_id)
        case GameVoided():
            await tx.execute(
                "INSERT INTO league_voided_games (league_id, game_id, reason, voided_by)"
                " VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
                fact.league_id,
                fact.game_id,
                fact.reason,
                fact.voided_by,
            )
            await _settle(tx, fact.game_id)
        case ForfeitRecorded():
            await _forfeit(tx, fact)
        case RoundClosed():
            await tx.execute(
                "UPDATE league_rounds SET closed = true"
                " WHERE league_id = $1 AND tournament_id = $2 AND round = $3",
                fact.league_id,
                fact.tournament_id,
                fact.round,
            )
        case SeasonClosed():
            await tx.execute(
                "UPDATE league_seasons SET closed = true WHERE league_id = $1 AND season_id = $2",
                fact.league_id,
                fact.season_id,
            )


async def _scheme(tx: asyncpg.Connection, league_id: str, season_id: str | None) -> PointsScheme:
    raw = await tx.fetchval(
        "SELECT points FROM league_seasons WHERE league_id = $1 AND season_id = $2", league_id, season_id
    )
    return PointsScheme() if raw is None else msgspec.json.decode(raw, type=PointsScheme)


async def _forfeit(tx: asyncpg.Connection, fact: ForfeitRecorded) -> None:
    """A game lost with no points for that member, once per member and round."""
    season_id = await tx.fetchval(
        "INSERT INTO league_forfeits (league_id, tournament_id, round, member_id, table_no, season_id, kind,"
        " reason) SELECT $1, $2, $3, $4, $5,"
        " coalesce((SELECT season_id FROM league_tournaments"
        " WHERE league_id = $1 AND tournament_id = $2), $8),"
        " $6, $7 ON CONFLICT DO NOTHING RETURNING season_id",
        fact.league_id,
        fact.tournament_id,
        fact.round,
        fact.member_id,
        fact.table,
        fact.kind,
        fact.reason,
        NO_SEASON,
    )
    if season_id is None:
        return  # recorded before
    await tx.execute(
        "INSERT INTO league_standings AS s (league_id, season_id, member_id, games, forfeits)"
        " VALUES ($1, $2, $3, 1, 1) ON CONFLICT (league_id, season_id, member_id) DO UPDATE SET"
        " games = s.games + 1, forfeits = s.forfeits + 1",
        fact.league_id,
        season_id,
        fact.member_id,
    )


async def _score_game(game_id: str, finish: GameFinish, position: int, tx: asyncpg.Connection) -> None:
    """Record the finished game's results (every game claiming a league: an audit reads the
    uncounted ones too), then count it if it counts."""
    game = await tx.fetchrow("SELECT replayable FROM league_games WHERE game_id = $1", game_id)
    if game is None:
        return  # not a league game
    if not game["replayable"]:
        log.warning("game %s finished on the server after its result sheet: the sheet stands", game_id)
        return
    seats = {
        row["seat"]: row["member_id"]
        for row in await tx.fetch("SELECT seat, member_id FROM league_game_seats WHERE game_id = $1", game_id)
    }
    await _record_results(game_id, finish.result(game_id, seats), position, tx)


async def _record_results(game_id: str, result: GameResult, position: int, tx: asyncpg.Connection) -> None:
    game = await tx.fetchrow(
        "SELECT league_id, season_id, tournament_id FROM league_games WHERE game_id = $1", game_id
    )
    assert game is not None
    league_id, season_id, tournament_id = game["league_id"], game["season_id"], game["tournament_id"]
    scheme = await _scheme(tx, league_id, season_id)
    results = member_results(result)
    await tx.executemany(
        "INSERT INTO league_game_results (game_id, member_id, league_id, season_id, tournament_id, role,"
        " side, won, alive, points) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
        [
            (
                game_id,
                r.member_id,
                league_id,
                season_id,
                tournament_id,
                r.role.value,
                r.side,
                r.won,
                r.alive,
                points_for(r, scheme),
            )
            for r in results
        ],
    )
    await tx.execute(
        "UPDATE league_games SET winning_side = $2, ended_at = $3 WHERE game_id = $1",
        game_id,
        result.winning_side,
        position,
    )
    await _settle(tx, game_id)


async def _settle(tx: asyncpg.Connection, game_id: str) -> None:
    """Bring the game's ``counted`` in line with its facts so far (finished, scheduled by its
    league at its context's table, seated with that table's members, not voided), adding or
    taking away its results."""
    game = await tx.fetchrow(
        """
        SELECT g.league_id, g.season_id, g.round, g.table_no, g.counted, g.ended_at IS NOT NULL AS finished,
               EXISTS (SELECT 1 FROM league_scheduled_games s
                        WHERE s.league_id = g.league_id AND s.game_id = g.game_id
                          AND s.tournament_id = g.tournament_id AND s.round = g.round
                          AND s.table_no = g.table_no AND s.season_id = g.season_id) AS scheduled,
               coalesce((SELECT array_agg(m ORDER BY m) FROM league_tables t, unnest(t.members) m
                          WHERE t.league_id = g.league_id AND t.tournament_id = g.tournament_id
                            AND t.round = g.round AND t.table_no = g.table_no)
                        = (SELECT array_agg(member_id ORDER BY member_id) FROM league_game_seats
                            WHERE game_id = g.game_id), false) AS seats_match,
               EXISTS (SELECT 1 FROM league_voided_games v
                        WHERE v.league_id = g.league_id AND v.game_id = g.game_id) AS voided
          FROM league_games g WHERE g.game_id = $1
        """,
        game_id,
    )
    if game is None:
        return  # a schedule or void of a game not created yet: settled when it finishes
    as_scheduled = game["scheduled"] and game["seats_match"]
    counts = game["finished"] and as_scheduled and not game["voided"]
    await tx.execute(
        "UPDATE league_games SET scheduled = $2, seats_match = $3, voided = $4, counted = $5"
        " WHERE game_id = $1",
        game_id,
        game["scheduled"],
        game["seats_match"],
        game["voided"],
        counts,
    )
    if game["finished"] and not as_scheduled and not game["voided"]:
        # ids only: a forged or unscheduled context is worth an operator's look, hidden nothing
        log.warning(
            "league game %s claims league %s round %s table %s, which did not schedule it there%s:"
            " not counted",
            game_id,
            game["league_id"],
            game["round"],
            game["table_no"],
            " with those members" if game["scheduled"] else "",
        )
    if counts != game["counted"]:
        await _count(tx, game_id, game["league_id"], game["season_id"] or NO_SEASON, 1 if counts else -1)


async def _count(tx: asyncpg.Connection, game_id: str, league_id: str, season_key: str, sign: int) -> None:
    """Add (``sign`` 1) or take away (-1) a finished game's results in the totals and the
    head-to-head records; lines left with nothing in them go (an enrolled member's stays)."""
    results = await tx.fetch(
        "SELECT member_id, role, side, won, alive, points FROM league_game_results WHERE game_id = $1"
        " ORDER BY member_id",
        game_id,
    )
    members = [r["member_id"] for r in results]
    await tx.executemany(
        """
        INSERT INTO league_standings AS s (league_id, season_id, member_id, points, games, wins,
            renegade_wins, survivals, sheriff_games)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
        ON CONFLICT (league_id, season_id, member_id) DO UPDATE SET
            points = s.points + EXCLUDED.points, games = s.games + EXCLUDED.games,
            wins = s.wins + EXCLUDED.wins, renegade_wins = s.renegade_wins + EXCLUDED.renegade_wins,
            survivals = s.survivals + EXCLUDED.survivals,
            sheriff_games = s.sheriff_games + EXCLUDED.sheriff_games
        """,
        [
            (
                league_id,
                season_key,
                r["member_id"],
                sign * r["points"],
                sign,
                sign * int(r["won"]),
                # a Renegade's own win only (points.renegade_win: the side is checked too)
                sign
                * int(r["won"] and r["role"] == Role.RENEGADE.value and r["side"] in RENEGADE_GAME_SIDES),
                sign * int(r["alive"]),
                sign * int(r["role"] == Role.SHERIFF.value),
            )
            for r in results
        ],
    )
    await tx.executemany(
        """
        INSERT INTO league_head_to_head AS h (league_id, season_id, member_id, opponent_id, games, wins,
            opponent_wins)
        VALUES ($1, $2, $3, $4, $5, $6, $7)
        ON CONFLICT (league_id, season_id, member_id, opponent_id) DO UPDATE SET
            games = h.games + EXCLUDED.games, wins = h.wins + EXCLUDED.wins,
            opponent_wins = h.opponent_wins + EXCLUDED.opponent_wins
        """,
        [
            (
                league_id,
                season_key,
                a["member_id"],
                b["member_id"],
                sign,
                sign * int(a["won"]),
                sign * int(b["won"]),
            )
            for a, b in itertools.permutations(results, 2)
        ],
    )
    if sign < 0:
        await tx.execute(
            "DELETE FROM league_standings WHERE league_id = $1 AND season_id = $2"
            " AND member_id = ANY($3::text[]) AND NOT enrolled AND games = 0 AND byes = 0 AND forfeits = 0",
            league_id,
            season_key,
            members,
        )
        await tx.execute(
            "DELETE FROM league_head_to_head WHERE league_id = $1 AND season_id = $2"
            " AND member_id = ANY($3::text[]) AND games = 0",
            league_id,
            season_key,
            members,
        )
