"""Who may read a league: the one rule every league read applies, on every channel (the REST
league, rounds and audit routes, a club's league list, the GraphQL standings, tournament,
head-to-head and live standings, the directory's league queries).

A league is ``public`` or ``members`` (members-only), as its organiser chose at its founding or
changed since (``LeagueFounded.visibility``, ``LeagueVisibilityChanged``; a league founded before
the setting existed is members-only). Public: anyone may read it, signed in or not. Members-only:
the members of its club, whatever their role, and nobody else; an anonymous caller is refused
as every members-only route refuses one (401 ``unauthenticated``), a signed-in stranger with the
club's 403 ``role-required``, the same on REST and GraphQL. What a reader then sees is still
redacted as before (no hidden role, hand or seed: those rules do not depend on this one).

The setting is read from the league's own stream, not from a projection: a league made
members-only is closed to strangers from the moment the change is stored, with no lag.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import asyncpg

from services.accounts.errors import SessionRefused
from services.clubs.roles import Principal, require
from services.league.errors import LeagueNotFound
from services.league.events import LeagueFounded, LeagueVisibilityChanged
from services.league.league import league_stream
from services.league.vocabulary import MEMBERS_ONLY, PUBLIC

_FACTS = [LeagueFounded.__name__, LeagueVisibilityChanged.__name__]
SIGN_IN = (
    "this league is for its club's members only: sign in as one of them "
    "(Authorization: Bearer <session token>)"
)


@dataclass(frozen=True, slots=True)
class LeagueReaders:
    league_id: str
    club_id: str
    visibility: str
    """``public`` or ``members``."""

    def admits(self, caller: Principal | None) -> bool:
        """The rule itself: may ``caller`` (None: anonymous) read this league?"""
        return self.visibility == PUBLIC or (caller is not None and caller.is_member(self.club_id))

    def check(self, caller: Principal | None) -> None:
        """Refuse a caller the league does not admit: 401 when anonymous, else 403 naming the
        club (``require``'s words), nothing of the league said."""
        if self.admits(caller):
            return
        if caller is None:
            raise SessionRefused(SIGN_IN)
        require(caller, self.club_id)


async def readers_of(
    db: asyncpg.Pool | asyncpg.Connection, league_ids: Iterable[str]
) -> dict[str, LeagueReaders]:
    """Each founded league's club and visibility, from its stream (an unknown id is absent)."""
    streams = {league_stream(league_id): league_id for league_id in league_ids}
    rows = await db.fetch(
        """
        SELECT stream_name, type, data->>'club_id' AS club_id, data->>'visibility' AS visibility
          FROM events WHERE stream_name = ANY($1::text[]) AND type = ANY($2::text[])
         ORDER BY stream_name, version
        """,
        list(streams),
        _FACTS,
    )
    found: dict[str, LeagueReaders] = {}
    for row in rows:
        league_id = streams[row["stream_name"]]
        known = found.get(league_id)
        if row["type"] == LeagueFounded.__name__:
            found[league_id] = LeagueReaders(league_id, row["club_id"], row["visibility"] or MEMBERS_ONLY)
        elif known is not None:
            found[league_id] = LeagueReaders(league_id, known.club_id, row["visibility"] or MEMBERS_ONLY)
    return found


async def readable_league(
    db: asyncpg.Pool | asyncpg.Connection, caller: Principal | None, league_id: str, *, unknown: bool = False
) -> LeagueReaders | None:
    """The league, once ``caller`` may read it: 404 ``league-not-found`` for no such league, else
    refused as ``LeagueReaders.check`` says. ``unknown``: a league id no league's stream holds
    is let through (None) instead, for a filter by league id over data of its own (the ratings
    of games imported with a league id but no league)."""
    readers = (await readers_of(db, [league_id])).get(league_id)
    if readers is None:
        if unknown:
            return None
        raise LeagueNotFound(league_id)
    readers.check(caller)
    return readers
