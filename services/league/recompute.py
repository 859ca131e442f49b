"""Standings recomputed from scratch: a pure fold of the store's league and game events.

The projection's answer must equal this one; the tests and audits compare the two. Only the
games that count are in it (``LeagueHistory.outcomes``: scheduled by their league at that
table, not voided); forfeits and no-shows are lost games with no points.
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
        forfeits=[
            f.member_id for f in history.forfeits if (f.league_id, f.season_id) == (league_id, season_id)
        ],
    )


def tournament_standings(history: LeagueHistory, league_id: str, tournament_id: str) -> list[Standing]:
    """A tournament's standings from scratch: its games, byes and forfeits only."""
    outcomes = [o for o in history.outcomes if o.league_id == league_id and o.tournament_id == tournament_id]
    byes = [
        (member, season)
        for league, tournament, member, season in history.tournament_byes
        if (league, tournament) == (league_id, tournament_id)
    ]
    seasons = {o.season_id for o in outcomes} | {season for _, season in byes}
    return compute_standings(
        outcomes,
        {season: history.scheme(league_id, season) for season in seasons},
        byes=byes,
        forfeits=[
            f.member_id
            for f in history.forfeits
            if (f.league_id, f.tournament_id) == (league_id, tournament_id)
        ],
    )
