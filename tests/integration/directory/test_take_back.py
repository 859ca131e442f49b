"""The directory projection reads a game corrected at the table (``EntryTakenBack``) without
stumbling: listed finished, with the winners of the game as it stands."""

from __future__ import annotations

import httpx
from litestar import Litestar

from services.game.application.session import GameStatus
from tests.integration.directory.conftest import catch_up, games_of
from tests.integration.ratings.games import plan_games
from tests.integration.ratings.test_take_back import enter_with_corrections


async def test_a_corrected_game_is_listed_finished_with_its_winners(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    [game] = plan_games(1, 21, prefix="corrected")
    service = games_of(app)
    assert await enter_with_corrections(service, game) > 0
    session = await service.load(game.game_id)
    assert session.status is GameStatus.ENDED and session.game is not None
    await catch_up(app)
    [listed] = (await client.get("/games")).json()["items"]
    assert listed["game_id"] == game.game_id and listed["status"] == "finished"
    result = session.engine.finish(session.game)
    assert result is not None
    assert listed["winning_side"] == result.winning_side
    won = {s.seat: s.won for s in result.seats}
    assert {p["seat"]: p["won"] for p in listed["players"]} == won
