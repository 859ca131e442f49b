"""What is rated (issue 20, docs/ratings.md "What is rated: pools"), through the public API.

A plain club player imported five made-up finished records naming real club members (and one
naming nobody): he climbed the global leaderboard, the members he named lost points, and "p1"…
"p5" appeared on it. Now a rating moves only for a game nobody can fabricate alone: the global
pool for online games whose every seat its own account took and played, a club's pool for its
league's scheduled games. Imports and friendly table games are never rated, a club's league
games move only that club's pool, and a rebuild from the events gives the same pools.
"""

from __future__ import annotations

import json
import random
from typing import Any

import asyncpg
import httpx
from litestar import Litestar

from services.game.application.lifecycle import seat_id
from services.game.records import record_from_events, record_to_object
from services.game.rules.dice import Decision, Game, Role, RollDice, Seat
from services.game.rules.dice.characters import CHARACTERS
from services.game.rules.dice.kinds import BASE
from services.ratings import rebuild as rebuild_book
from services.ratings.consumer import rebuild
from tests.integration.api.bots import play_to_the_end
from tests.integration.api.test_records import ROLES, a_finished_table_game
from tests.integration.clubs.test_clubs import pool_of
from tests.integration.league_api.conftest import (
    LEAGUE,
    SEASON,
    TOURNAMENT,
    Clubs,
    clubs,
    post,
    seated_league,
)
from tests.integration.league_api.test_organiser_flow import enter_table_game
from tests.integration.league_api.test_standings_and_ratings import consume
from tests.integration.ratings.games import recorded_outcomes


def finished_record(seed: int, roles: list[Role]) -> dict[str, Any]:
    """A whole game of ``roles`` played through the engine with random dice and choices, as a record."""
    rng = random.Random(seed)
    characters = rng.sample(list(CHARACTERS), len(roles))
    game = Game.start(
        [
            Seat(player=seat_id(i), role=r, character=ch)
            for i, (r, ch) in enumerate(zip(roles, characters, strict=True))
        ]
    )
    for _ in range(5_000):
        question = game.awaiting
        if question is None:
            break
        if question.decision is Decision.ROLL:
            faces = tuple(rng.choice(BASE.faces) for _ in question.dice)
            game.play(RollDice(player=question.player, faces=faces))
        else:
            game.play(rng.choice(list(game.legal_commands())))
    assert game.is_over
    record: dict[str, Any] = json.loads(json.dumps(record_to_object(record_from_events(game.events))))
    return record


ROUND = f"/leagues/{LEAGUE}/tournaments/{TOURNAMENT}/rounds/1"
BOARD = """
query ($pool: String!) {
  ratingLeaderboard(limit: 100, pool: $pool) { memberId pool rating games }
  ratingOffsets(pool: $pool) { pool ruleset players faction raw games }
}
"""


async def board(client: httpx.AsyncClient, pool: str) -> dict[str, Any]:
    response = await client.post("/graphql", json={"query": BOARD, "variables": {"pool": pool}})
    assert response.status_code == 200, response.text
    body = response.json()
    assert "errors" not in body, body
    data: dict[str, Any] = body["data"]
    assert all(row["pool"] == pool for row in data["ratingLeaderboard"] + data["ratingOffsets"])
    return data


async def rated_rows(app: Litestar) -> list[tuple[Any, ...]]:
    """Every rating, history point and offset the current generation holds, by pool."""
    pg: asyncpg.Pool = pool_of(app)
    current = "(SELECT generation FROM ratings_generations WHERE status = 'current')"
    players = await pg.fetch(
        "SELECT pool, game_type, member_id, rating, games, wins, provisional, state::text "
        f"FROM ratings_players WHERE generation = {current} ORDER BY 1, 2, 3"
    )
    history = await pg.fetch(
        "SELECT pool, game_type, member_id, role, game_number, game_id, rating FROM ratings_history "
        f"WHERE generation = {current} ORDER BY 1, 2, 3, 4, 5"
    )
    offsets = await pg.fetch(
        "SELECT pool, ruleset, players, faction, value, information, games FROM ratings_offsets "
        f"WHERE generation = {current} ORDER BY 1, 2, 3, 4"
    )
    return [tuple(r) for r in [*players, *history, *offsets]]


async def play_league_game(client: httpx.AsyncClient, c: Clubs, table: int) -> str:
    """The organiser schedules an online league game; its signed-in players play it."""
    scheduled = await post(client, f"{ROUND}/tables/{table}/game", c.organiser, {"mode": "online"})
    game_id: str = scheduled["game_id"]
    sessions = {m["member_id"]: c.by_id(m["member_id"]).token for m in scheduled["members"]}
    ended = await play_to_the_end(client, game_id, sessions, random.Random(table))
    assert ended["status"] == "ended"
    return game_id


async def test_forged_records_move_no_rating_in_any_pool(app: Litestar, client: httpx.AsyncClient) -> None:
    c = await clubs(app, client)
    seated = await seated_league(client, c)
    await play_league_game(client, c, 1)
    await consume(app)
    club_pool = f"club:{c.home}"
    before = {pool: await board(client, pool) for pool in ("global", club_pool)}
    assert before[club_pool]["ratingLeaderboard"]  # the league game is rated in the club's pool
    rows_before = await rated_rows(app)

    # the attack: a plain player imports made-up finished games naming real members, and one
    # naming nobody; the server takes the records (they are replayable), the ratings do not
    forger = c.players[0]
    victims = [p.account_id for p in c.players[1 : len(ROLES)]]
    for n in range(5):
        members = [{"member_id": m, "name": m} for m in [forger.account_id, *victims]]
        record = a_finished_table_game(seed=100 + n)
        imported = await client.post(
            "/records",
            json={
                "command_id": f"forged-{n}",
                "record": record,
                "members": members,
                "game_id": f"forged-{n}",
            },
            headers=forger.auth,
        )
        assert imported.status_code == 201, imported.text
    nobody = await client.post(
        "/records",
        json={"command_id": "forged-p", "record": a_finished_table_game(seed=200), "game_id": "forged-p"},
        headers=forger.auth,
    )
    assert nobody.status_code == 201, nobody.text
    # the scheduled scorekeeper of a league table imports a record of it: still never rated
    at_table = seated["tables"][1]
    members = [m["member_id"] for m in at_table["members"]]
    roles = [Role.RENEGADE, Role.OUTLAW, Role.OUTLAW]
    roles.insert(members.index(at_table["sheriff"]["member_id"]), Role.SHERIFF)
    table = at_table["table"]
    scheduled = await post(
        client,
        f"{ROUND}/tables/{table}/game",
        c.organiser,
        {"mode": "table", "scorekeeper": c.keeper.account_id},
    )
    league_import = await client.post(
        "/records",
        json={
            "command_id": "keeper-import",
            "record": finished_record(400, roles),
            "members": [{"member_id": m, "name": m} for m in members],
            "game_id": scheduled["game_id"],
            "context": {"league_id": LEAGUE, "season_id": SEASON, "tournament_id": TOURNAMENT, "round": 1,
                        "table": table},
        },
        headers=c.keeper.auth,
    )  # fmt: skip
    assert league_import.status_code == 201, league_import.text
    await consume(app)

    after = {pool: await board(client, pool) for pool in ("global", club_pool)}
    assert after == before
    assert await rated_rows(app) == rows_before
    assert after["global"]["ratingLeaderboard"] == []
    pg: asyncpg.Pool = pool_of(app)
    assert not await pg.fetchval("SELECT count(*) FROM ratings_players WHERE member_id LIKE 'p_'")
    unrated = await pg.fetch(
        "SELECT game_id, unrated FROM ratings_games WHERE game_id LIKE 'forged-%' ORDER BY game_id"
    )
    assert [r["game_id"] for r in unrated] == [*(f"forged-{n}" for n in range(5)), "forged-p"]
    assert all(r["unrated"] == "an imported record: replayable, never rated" for r in unrated)
    keeper_import = await pg.fetchrow(
        "SELECT unrated, pools FROM ratings_games WHERE game_id = $1", scheduled["game_id"]
    )
    assert tuple(keeper_import) == ("an imported record: replayable, never rated", None)
    # the records stay replayable and auditable
    audit = await client.get("/games/forged-0/audit")
    assert audit.status_code == 200 and audit.json()["clean"], audit.text


async def test_a_clubs_league_games_move_only_that_clubs_pool(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    c = await clubs(app, client)
    await seated_league(client, c)
    game = await play_league_game(client, c, 1)
    await consume(app)
    home, away = f"club:{c.home}", f"club:{c.away}"
    rated = await board(client, home)
    seated = {m["member_id"] for m in (await client.get(f"/games/{game}")).json()["players"]}
    assert {row["memberId"] for row in rated["ratingLeaderboard"]} == seated
    assert all(row["games"] == 1 for row in rated["ratingLeaderboard"])
    # the league's games move neither the global pool nor another club's
    assert (await board(client, "global")) == {"ratingLeaderboard": [], "ratingOffsets": []}
    assert (await board(client, away)) == {"ratingLeaderboard": [], "ratingOffsets": []}
    pg: asyncpg.Pool = pool_of(app)
    assert await pg.fetchval("SELECT pools FROM ratings_games WHERE game_id = $1", game) == [home]
    # a pool that is no pool is refused by name, never a 500
    for wrong in ("club:", "everyone", "club:home saloon"):
        refused_pool = await client.post(
            "/graphql", json={"query": f'{{ ratingLeaderboard(pool: "{wrong}") {{ rank }} }}'}
        )
        errors = refused_pool.json()["errors"]
        assert errors[0]["extensions"]["field"] == "pool", errors
        assert "'global' or 'club:<club id>'" in errors[0]["message"]

    # the other club's organiser can neither schedule nor create a game of this league
    before = await rated_rows(app)
    refused = await client.post(
        f"{ROUND}/tables/2/game", json={"mode": "online"}, headers=c.foreign_organiser.auth
    )
    assert refused.status_code == 403, refused.text
    sneaked = await client.post(
        "/games",
        json={
            "command_id": "sneak",
            "mode": "table",
            "player_count": 4,
            "game_id": "sneaked",
            "seats": [
                {"member_id": p.account_id, "name": p.display_name, "role": r, "character": ch}
                for p, r, ch in zip(
                    c.players[:4],
                    ("sheriff", "renegade", "outlaw", "outlaw"),
                    ("bart_cassidy", "black_jack", "calamity_janet", "el_gringo"),
                    strict=True,
                )
            ],
            "context": {"league_id": LEAGUE, "season_id": SEASON, "tournament_id": TOURNAMENT, "round": 1,
                        "table": 2},
        },
        headers=c.foreign_organiser.auth,
    )  # fmt: skip
    assert sneaked.status_code in (403, 409), sneaked.text
    # a friendly table game he keeps the score of himself, naming the home club's players: rated nowhere
    friendly = await client.post(
        "/games",
        json={
            "command_id": "friendly",
            "mode": "table",
            "player_count": 4,
            "game_id": "friendly",
            "seats": [
                {"member_id": p.account_id, "name": p.display_name, "role": r, "character": ch}
                for p, r, ch in zip(
                    c.players[:4],
                    ("sheriff", "renegade", "outlaw", "outlaw"),
                    ("bart_cassidy", "black_jack", "calamity_janet", "el_gringo"),
                    strict=True,
                )
            ],
        },
        headers=c.foreign_organiser.auth,
    )
    assert friendly.status_code == 201, friendly.text
    ended = await enter_table_game(client, "friendly", c.foreign_organiser, random.Random(3))
    assert ended["status"] == "ended"
    await consume(app)
    assert await rated_rows(app) == before
    assert await pg.fetchval("SELECT unrated FROM ratings_games WHERE game_id = 'friendly'") == (
        "a friendly table game: not rated"
    )


async def online_game(
    client: httpx.AsyncClient, host: Any, joiners: list[Any], game_id: str
) -> dict[str, Any]:
    """A friendly online game ``host`` opens; each of ``joiners`` takes a seat as themselves."""
    created = await client.post(
        "/games",
        json={"command_id": f"open-{game_id}", "mode": "online", "player_count": len(joiners),
              "game_id": game_id},
        headers=host.auth,
    )  # fmt: skip
    assert created.status_code == 201, created.text
    for person in joiners:
        joined = await client.post(
            f"/games/{game_id}/players",
            json={"command_id": f"join-{game_id}-{person.account_id}"},
            headers=person.auth,
        )
        assert joined.status_code == 201, joined.text
    return await play_to_the_end(
        client, game_id, {p.account_id: p.token for p in joiners}, random.Random(game_id)
    )


async def test_an_online_game_of_own_accounts_moves_the_global_pool_and_a_rebuild_gives_the_same(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    c = await clubs(app, client)
    await seated_league(client, c)
    league_game = await play_league_game(client, c, 1)
    players = list(c.players[:5])
    ended = await online_game(client, c.organiser, players, "saloon-night")
    assert ended["status"] == "ended"
    # an online game whose seats the organiser filled at creation: he is handed no token, but
    # nobody took a seat as himself, so it is not the global pool's
    prefilled = await client.post(
        "/games",
        json={"command_id": "prefilled", "mode": "online", "player_count": 3, "game_id": "prefilled",
              "members": [{"member_id": p.account_id, "name": p.display_name} for p in c.players[5:8]]},
        headers=c.organiser.auth,
    )  # fmt: skip
    assert prefilled.status_code == 201, prefilled.text
    ended = await play_to_the_end(
        client, "prefilled", {p.account_id: p.token for p in c.players[5:8]}, random.Random(5)
    )
    assert ended["status"] == "ended"
    store = await consume(app)

    everywhere = await board(client, "global")
    assert {row["memberId"] for row in everywhere["ratingLeaderboard"]} == {p.account_id for p in players}
    assert all(row["games"] == 1 for row in everywhere["ratingLeaderboard"])
    outcomes = {o.game_id: o for o in await recorded_outcomes(store)}
    expected = rebuild_book([outcomes["saloon-night"]])
    for row in everywhere["ratingLeaderboard"]:
        assert row["rating"] == expected.rating(row["memberId"]).rating
    pg: asyncpg.Pool = pool_of(app)
    assert await pg.fetchval("SELECT pools FROM ratings_games WHERE game_id = 'saloon-night'") == ["global"]
    assert await pg.fetchval("SELECT unrated FROM ratings_games WHERE game_id = 'prefilled'") == (
        "not every seat was taken by its own account"
    )
    club = await board(client, f"club:{c.home}")
    league_members = {m["member_id"] for m in (await client.get(f"/games/{league_game}")).json()["players"]}
    assert {row["memberId"] for row in club["ratingLeaderboard"]} == league_members

    # a rebuild from the first event gives exactly the same pools and ratings
    before = await rated_rows(app)
    report = await rebuild(pg)
    assert report.replaced is not None
    assert await rated_rows(app) == before
    assert await board(client, "global") == everywhere
