"""A card league's round played by bots through the game service: every table an online card
game played to its end by one card bot per seat, counted in the standings and the card
ratings, the dice ratings of the same players untouched; running the round again changes
nothing."""

from __future__ import annotations

from typing import Any

import asyncpg

from event_store import PostgresEventStore
from services.game.application.codec import GAME_MAPPER
from services.game.application.service import GameService
from services.league import read_model
from services.league.bot_league import play_bot_round
from services.league.commands import EnrollPlayer, FoundLeague, OpenSeason, OpenTournament
from services.league.recompute import read_history, season_standings
from services.league.service import LeagueService
from services.league.standings import StandingsProjection
from services.league.vocabulary import SeatingPolicy
from services.ratings.consumer import ratings_subscription
from services.ratings.store import prepare_database as prepare_ratings_tables

from .league_setup import CARE, LEAGUE, MEMBERS, TOURNAMENT, found_league

CARDS, CARD_SEASON, CARD_TOURNAMENT = "cardnight", "c2025", "fridays"
NINE = MEMBERS[:9]
"""Nine players at tables of four or five: one of each, no bye."""


async def found_card_league(league: LeagueService) -> None:
    """A card league in the dice league's club, the same players enrolled."""
    seating = SeatingPolicy(allowed_sizes=(4, 5), preferred_size=5)
    await league.execute(
        FoundLeague(league_id=CARDS, club_id="club", name="Card Night", game_type="cards", seating=seating),
        command_id="found-cards",
    )
    await league.execute(
        OpenSeason(league_id=CARDS, season_id=CARD_SEASON, name="2025"), command_id="c-season"
    )
    for member in NINE:
        await league.execute(
            EnrollPlayer(league_id=CARDS, season_id=CARD_SEASON, member_id=member),
            command_id=f"c-enrol/{member}",
        )
    await league.execute(
        OpenTournament(league_id=CARDS, season_id=CARD_SEASON, tournament_id=CARD_TOURNAMENT, name="Fridays"),
        command_id="c-tournament",
    )


async def rows(pool: asyncpg.Pool, query: str) -> list[tuple[Any, ...]]:
    return sorted(tuple(r.values()) for r in await pool.fetch(query))


async def test_a_card_leagues_bot_round_counts_for_standings_and_card_ratings_only(
    league: LeagueService,
    games: GameService,
    projection: StandingsProjection,
    store: PostgresEventStore,
    pg_pool: asyncpg.Pool,
) -> None:
    await prepare_ratings_tables(pg_pool)
    ratings = ratings_subscription(PostgresEventStore(pg_pool, mapper=GAME_MAPPER))
    # a dice round first, rated: the card round must leave these ratings as they are
    await found_league(league, MEMBERS[:10])
    await play_bot_round(league, games, LEAGUE, TOURNAMENT, 1, seed="dice", care=CARE, projection=projection)
    await ratings.run_until_idle()
    dice_query = "SELECT member_id, rating, games, wins FROM ratings_players WHERE game_type = 'dice'"
    dice_before = await rows(pg_pool, dice_query)
    assert len(dice_before) == 10

    await found_card_league(league)
    report = await play_bot_round(
        league, games, CARDS, CARD_TOURNAMENT, 1, seed="cards", projection=projection
    )
    assert report.moves > 0
    assert sorted(len(t.members) for t in report.seated.tables) == [4, 5] and not report.seated.byes
    assert {r.game_type for r in report.results} == {"cards"}
    for game_id in report.games:  # played to the end on the game server, as the card game
        session = await games.load(game_id)
        assert session.status.value == "ended" and session.created.ruleset.text == "cards"
    # the Sheriff the league asked for is the Sheriff the game server dealt
    for table in report.seated.tables:
        assert table.sheriff is not None
        role = await pg_pool.fetchval(
            "SELECT role FROM league_game_results WHERE game_id = $1 AND member_id = $2",
            f"{CARDS}.{CARD_TOURNAMENT}.r1.t{table.table}",
            table.sheriff,
        )
        assert role == "sheriff"

    # standings: every player one game, the winners' points, as a recomputation says
    standings = await read_model.standings(pg_pool, CARDS, CARD_SEASON)
    assert {s.member_id: s.games for s in standings} == dict.fromkeys(NINE, 1)
    winners = {s.member_id for r in report.results for s in r.seats if s.won}
    assert winners and {s.member_id for s in standings if s.points == 3} == winners
    assert all(s.points == 0 for s in standings if s.member_id not in winners)
    assert standings == season_standings(await read_history(store), CARDS, CARD_SEASON)
    [seated] = await read_model.rounds(pg_pool, CARDS, CARD_TOURNAMENT)
    assert all(t.game_id and t.winning_side for t in seated.tables)

    # ratings: card ratings for the nine, under the card game's rulesets; dice ratings untouched
    await ratings.run_until_idle()
    cards = await rows(
        pg_pool, "SELECT member_id, games, wins FROM ratings_players WHERE game_type = 'cards'"
    )
    assert cards == sorted((m, 1, int(m in winners)) for m in NINE)
    rated = await rows(
        pg_pool, "SELECT game_id, game_type, ruleset FROM ratings_games WHERE game_type = 'cards'"
    )
    assert rated == sorted((g, "cards", "cards") for g in report.games)
    assert await rows(pg_pool, dice_query) == dice_before

    # the round again: nothing to play, nothing new stored, the same standings
    head = await store.head_position()
    again = await play_bot_round(
        league, games, CARDS, CARD_TOURNAMENT, 1, seed="cards", projection=projection
    )
    assert again.moves == 0 and again.games == report.games and again.seated == report.seated
    assert [r.winners for r in again.results] == [r.winners for r in report.results]
    assert await store.head_position() == head
    assert await read_model.standings(pg_pool, CARDS, CARD_SEASON) == standings
