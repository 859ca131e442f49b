"""Scheduled game ids: who may create a league game, and what it must look like.

A row of ``league_game_reservations`` is written when an organiser schedules a seated table's
game, before the league records ``GameScheduled``: from then on the id belongs to that table.
The game server reads it when a game is created (services/league/integrity.py says what must
match) and when a table game's scorekeeper acts. A row whose ``GameScheduled`` never followed
(the process died in between) only keeps that id for that table; scheduling again with the same
command finds and finishes it.
"""

from __future__ import annotations

from datetime import datetime

import asyncpg
import msgspec

Executor = asyncpg.Pool | asyncpg.Connection


class Reservation(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str
    league_id: str
    club_id: str
    season_id: str
    tournament_id: str
    round: int
    table: int
    mode: str
    """``online`` or ``table``."""
    members: tuple[str, ...]
    sheriff: str | None
    scorekeeper: str | None
    scheduled_by: str
    game_type: str = "dice"
    """The league's game type: a game of another type is refused for this table."""
    result_sheet: bool = False
    """The table's result sheet is recorded: the game was played on cardboard, none is created."""
    starts_at: datetime | None = None
    """When the table plays (None: not said)."""
    ruleset: str | None = None
    """The scheduled rules as ``Ruleset.text`` (None: the league's base game)."""
    decision_timeout_seconds: int | None = None
    """The scheduled decision timer (None: none)."""

    def where(self) -> str:
        """The table in words, for messages."""
        return (
            f"league {self.league_id!r}, tournament {self.tournament_id!r} "
            f"round {self.round} table {self.table}"
        )


_COLUMNS = (
    "game_id, league_id, club_id, season_id, tournament_id, round, table_no, mode, members, sheriff,"
    " scorekeeper, scheduled_by, game_type, starts_at, ruleset, decision_timeout_seconds"
)


def _reservation(row: asyncpg.Record) -> Reservation:
    return Reservation(
        game_id=row["game_id"],
        league_id=row["league_id"],
        club_id=row["club_id"],
        season_id=row["season_id"],
        tournament_id=row["tournament_id"],
        round=row["round"],
        table=row["table_no"],
        mode=row["mode"],
        members=tuple(row["members"]),
        sheriff=row["sheriff"],
        scorekeeper=row["scorekeeper"],
        scheduled_by=row["scheduled_by"],
        game_type=row["game_type"],
        result_sheet=row["result_sheet"],
        starts_at=row["starts_at"],
        ruleset=row["ruleset"],
        decision_timeout_seconds=row["decision_timeout_seconds"],
    )


async def reservation(executor: Executor, game_id: str) -> Reservation | None:
    row = await executor.fetchrow(
        f"SELECT {_COLUMNS}, result_sheet FROM league_game_reservations WHERE game_id = $1", game_id
    )
    return None if row is None else _reservation(row)


async def reservation_for_table(
    executor: Executor, league_id: str, tournament_id: str, round_number: int, table: int
) -> Reservation | None:
    row = await executor.fetchrow(
        f"""
        SELECT {_COLUMNS}, result_sheet FROM league_game_reservations
         WHERE league_id = $1 AND tournament_id = $2 AND round = $3 AND table_no = $4
        """,
        league_id,
        tournament_id,
        round_number,
        table,
    )
    return None if row is None else _reservation(row)


async def reserve(executor: Executor, wanted: Reservation) -> Reservation:
    """Keep ``wanted.game_id`` for its table; the reservation that holds when it returns (the
    wanted one, or the one made before for the same id or table: compare before relying on it)."""
    await executor.execute(
        f"""
        INSERT INTO league_game_reservations ({_COLUMNS})
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)
        ON CONFLICT DO NOTHING
        """,
        wanted.game_id,
        wanted.league_id,
        wanted.club_id,
        wanted.season_id,
        wanted.tournament_id,
        wanted.round,
        wanted.table,
        wanted.mode,
        list(wanted.members),
        wanted.sheriff,
        wanted.scorekeeper,
        wanted.scheduled_by,
        wanted.game_type,
        wanted.starts_at,
        wanted.ruleset,
        wanted.decision_timeout_seconds,
    )
    held = await reservation(executor, wanted.game_id)
    if held is None:  # the id is free but the table was reserved under another id
        held = await reservation_for_table(
            executor, wanted.league_id, wanted.tournament_id, wanted.round, wanted.table
        )
    assert held is not None
    return held


async def set_scorekeeper(executor: Executor, game_id: str, scorekeeper: str | None) -> None:
    await executor.execute(
        "UPDATE league_game_reservations SET scorekeeper = $2 WHERE game_id = $1", game_id, scorekeeper
    )


async def mark_result_sheet(executor: Executor, game_id: str) -> None:
    """The game was played on cardboard and its sheet recorded: from now on the game server
    refuses to create a game under its id (``integrity.check_new_game``)."""
    await executor.execute(
        "UPDATE league_game_reservations SET result_sheet = true WHERE game_id = $1", game_id
    )
