"""Display names for member ids: the one resolver every view that shows a person uses (the
directory's lists, league and ratings GraphQL, league REST answers, the dashboard).

A member id IS an account id, unreadable to a person; a view shows the name and keeps the id
for links. The name is ``accounts.display_name``, else the name a league club registered the
member under (``directory_club_members``: the club asked about first, else any), else the name a
game was joined with (``directory_game_seats``, old data), else the id itself as a last resort.

It lives here, just above accounts and below the games, leagues, ratings and directory, so each
of them may import it (tests/unit/test_import_boundaries.py); it reads the directory's tables by
name only, importing nothing above it. Names are read once per list: at most one query per
source, only for the ids the sources before it left unnamed, however long the list (no N+1).
A source whose table this database lacks (a service's own test database, migrated for that
service only) names nobody; in a served database every migration has run.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import asyncpg

Executor = asyncpg.Pool | asyncpg.Connection


@dataclass(frozen=True, slots=True)
class NameBook:
    """The names of a set of people, read once for a whole page."""

    accounts: Mapping[str, str]
    registered: Mapping[str, Mapping[str, str]]
    """member id → club id → the name that league club registered them under."""
    seats: Mapping[str, str]
    """member id → the name their latest game was joined with."""

    def name(self, member: str, club_id: str | None = None, fallback: str | None = None) -> str:
        """The account's display name, else ``club_id``'s registered name, else any club's,
        else ``fallback`` (a seat name the caller holds), else a game seat's, else the id."""
        found = self.accounts.get(member)
        if found is not None:
            return found
        clubs = self.registered.get(member, {})
        if club_id is not None and club_id in clubs:
            return clubs[club_id]
        if clubs:
            return clubs[min(clubs)]
        return fallback or self.seats.get(member) or member


async def _rows(db: Executor, query: str, ids: list[str]) -> list[asyncpg.Record]:
    try:
        return await db.fetch(query, ids)
    except asyncpg.UndefinedTableError:
        return []


async def name_book(db: Executor, ids: Iterable[str]) -> NameBook:
    """The names of ``ids``: one query per source, each only for the ids still unnamed."""
    wanted = sorted(set(ids))
    if not wanted:
        return NameBook({}, {}, {})
    accounts = {
        r["account_id"]: r["display_name"]
        for r in await _rows(
            db, "SELECT account_id, display_name FROM accounts WHERE account_id = ANY($1::text[])", wanted
        )
    }
    missing = [m for m in wanted if m not in accounts]
    registered: dict[str, dict[str, str]] = {}
    if missing:
        for r in await _rows(
            db,
            "SELECT member_id, club_id, name FROM directory_club_members WHERE member_id = ANY($1::text[])",
            missing,
        ):
            registered.setdefault(r["member_id"], {})[r["club_id"]] = r["name"]
    missing = [m for m in missing if m not in registered]
    seats: dict[str, str] = {}
    if missing:
        rows = await _rows(
            db,
            """
            SELECT DISTINCT ON (s.member_id) s.member_id, s.name
              FROM directory_game_seats s JOIN directory_games g USING (game_id)
             WHERE s.member_id = ANY($1::text[])
             ORDER BY s.member_id, g.created_at DESC
            """,
            missing,
        )
        seats = {r["member_id"]: r["name"] for r in rows}
    return NameBook(accounts, registered, seats)


async def names_of(
    db: Executor,
    ids: Iterable[str],
    *,
    club_id: str | None = None,
    fallback: Mapping[str, str] | None = None,
) -> dict[str, str]:
    """Member id → display name (``NameBook.name``) for every id asked about."""
    wanted = set(ids)
    book = await name_book(db, wanted)
    return {m: book.name(m, club_id, (fallback or {}).get(m)) for m in wanted}
