"""A game the ratings know from its league's result sheet stays the sheet's: a stream under the
same id appearing afterwards (a table game created in the moment between the league's check and
its reservation's mark) neither rates the game a second time nor turns it replayable."""

from __future__ import annotations

import asyncpg

from event_store import ANY, PostgresEventStore
from services.game.application.service import GameService
from services.league.events import LEAGUE_MAPPER, ResultSheetRecorded
from services.league.result_sheet import ResultSheet, SheetElimination, SheetSeat, check_sheet
from services.ratings import store as ratings_store
from services.ratings.consumer import ratings_subscription
from tests.integration.ratings.games import POOL, PlannedGame, enter_games, schedule

CHARACTERS = ("willy_the_kid", "paul_regret", "el_gringo", "jourdonnais")


def law_win(game_id: str, members: list[str]) -> ResultSheetRecorded:
    """Four players: the Sheriff (the first) shoots the Renegade and both Outlaws."""
    roles = ("sheriff", "renegade", "outlaw", "outlaw")
    seats = tuple(
        SheetSeat(member_id=m, role=r, character=c)
        for m, r, c in zip(members, roles, CHARACTERS, strict=True)
    )
    falls = tuple(SheetElimination(member_id=m, by=members[0], turn=t) for t, m in enumerate(members[1:], 1))
    sheet = ResultSheet(seats=seats, eliminations=falls, winning_side="law", winners=(members[0],))
    return ResultSheetRecorded(
        league_id="league-a", season_id="spring", tournament_id="t", round=1, table=1, game_id=game_id,
        result=check_sheet(sheet, game_id), characters=CHARACTERS,
    )  # fmt: skip


async def test_a_stream_after_the_sheet_does_not_rate_the_game_again(
    game_service: GameService,
    game_store: PostgresEventStore,
    pg_pool: asyncpg.Pool,
    planned_games: list[PlannedGame],
) -> None:
    game = next(g for g in planned_games if len(g.seats) >= 4)
    members = [s.member_id for s in game.seats][:4]
    sheet = law_win(game.game_id, members)
    await schedule(game_store, [game])  # its league, founded by the club, scheduled it
    await game_store.append("league-league-a", [LEAGUE_MAPPER.to_new_event(sheet)], expected_version=ANY)
    await enter_games(game_service, [game])  # the same id, played to its end afterwards
    await ratings_subscription(game_store).run_until_idle()

    cards = await ratings_store.leaderboard(pg_pool, pool=POOL, limit=100, game_type="cards")
    assert {row.member_id: row.games for row in cards} == dict.fromkeys(members, 1)
    assert (
        await ratings_store.leaderboard(pg_pool, pool=POOL, limit=100) == []
    )  # no dice rating from its stream
    row = await pg_pool.fetchrow("SELECT replayable, game_type, game_number FROM ratings_games")
    assert (row["replayable"], row["game_type"], row["game_number"]) == (False, "cards", 1)
