"""Standings recomputed from scratch: a pure fold of the store's league and game events.

The projection's answer must equal this one; the tests and audits compare the two.
"""

from __future__ import annotations

from event_store import PostgresEventStore
from services.league.facts import LeagueHistory
from services.league.ranking import Standing, compute_standings


async def read_history(store: PostgresEventStore) -> LeagueHistory:
    history = LeagueHistory()
    async for event in store.iter_all(categories=["game", "league"]):
        history.add(event)
    return history


def season_standings(history: LeagueHistory, league_id: str, season_id: str) -> list[Standing]:
    return compute_standings(
        [o for o in history.outcomes if o.league_id == league_id and o.season_id == season_id],
        {season_id: history.scheme(league_id, season_id)},
        byes=[
            (member, season)
            for league, member, season in history.byes
            if (league, season) == (league_id, season_id)
        ],
        entrants=history.entrants.get((league_id, season_id), []),
    )
