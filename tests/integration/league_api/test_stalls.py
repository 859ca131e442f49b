"""No game stalls (issue 22, item 2), through the public API alone.

A league's online games get the league's decision time (24 hours unless the league says
otherwise); seating a member who has no login warns the organiser, who sends that member a link
with which he sets his login up (single use, expiring, its secret in no log line); and the
organiser or the league's referee replaces a seat of an ongoing game by another member or a bot:
``SeatReplaced`` in the game's stream, which the audit accepts and names, the record says, the
ratings apply (the member who held the seat at the end; nobody when a bot did) and the hidden
information follows (the replaced player then reads the seat as a stranger does).
"""

from __future__ import annotations

import asyncio
import logging
import random
from typing import Any

import httpx
import pytest
from litestar import Litestar

from event_store import PostgresEventStore
from services.game.application.codec import GAME_MAPPER
from services.game.application.deadlines import Sweeper, deadlines_subscription
from services.game.application.lifecycle import GameCreated, SeatReplaced
from services.game.application.service import GameService
from services.game.fairness.vault import SeedVault
from tests.integration.accounts.conftest import PASSWORD
from tests.integration.clubs.conftest import Person, grant
from tests.integration.clubs.test_clubs import pool_of
from tests.integration.league_api.conftest import (
    LEAGUE,
    SEASON,
    TOURNAMENT,
    Clubs,
    clubs,
    post,
    writes,
)
from tests.integration.league_api.test_standings_and_ratings import consume, view

ROUND = f"/leagues/{LEAGUE}/tournaments/{TOURNAMENT}/rounds/1"
MAX_COMMANDS = 3_000


async def registered(client: httpx.AsyncClient, c: Clubs, name: str) -> str:
    """A member registered by name: no login until he sets one up."""
    answer = await post(client, f"/clubs/{c.home}/members", c.organiser, {"display_name": name})
    member_id: str = answer["member_id"]
    return member_id


async def league_with_tables(
    client: httpx.AsyncClient, c: Clubs, tables: list[list[str]], founding: dict[str, Any] | None = None
) -> dict[str, Any]:
    """A league (founded with ``founding``), its season with every member of ``tables``
    enrolled, and round 1 seated as ``tables``."""
    body = {"league_id": LEAGUE, "name": "Tuesday League", **(founding or {})}
    league = await post(client, f"/clubs/{c.home}/leagues", c.organiser, body)
    await post(client, f"/leagues/{LEAGUE}/seasons", c.organiser, {"season_id": SEASON, "name": "Spring"})
    members = [m for table in tables for m in table]
    await post(client, f"/leagues/{LEAGUE}/seasons/{SEASON}/entrants", c.organiser, {"member_ids": members})
    await post(
        client,
        f"/leagues/{LEAGUE}/seasons/{SEASON}/tournaments",
        c.organiser,
        {"tournament_id": TOURNAMENT, "name": "Tuesday Nights"},
    )
    rounds = f"/leagues/{LEAGUE}/tournaments/{TOURNAMENT}/rounds"
    await post(client, rounds, c.organiser, {"tables": tables})
    return league


async def created_event(app: Litestar, game_id: str) -> GameCreated:
    store = PostgresEventStore(pool_of(app), mapper=GAME_MAPPER)
    first = GAME_MAPPER.to_domain((await store.read_stream(f"game-{game_id}"))[0])
    assert isinstance(first, GameCreated)
    return first


async def test_a_league_online_game_gets_the_league_decision_time_by_default(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    c = await clubs(app, client)
    ids = [p.account_id for p in c.players]
    league = await league_with_tables(client, c, [ids[:4], ids[4:]])
    assert league["decision_seconds"] == 24 * 60 * 60
    scheduled = await post(client, f"{ROUND}/tables/1/game", c.organiser, {"mode": "online"})
    assert scheduled["decision_timeout_seconds"] == 86_400
    created = await created_event(app, scheduled["game_id"])
    assert created.options.decision_timeout_seconds == 86_400
    # a schedule may give one game another time; the league's stays the default of the others
    own = {"mode": "online", "options": {"decision_timeout_seconds": 90}}
    other = await post(client, f"{ROUND}/tables/2/game", c.organiser, own)
    assert (await created_event(app, other["game_id"])).options.decision_timeout_seconds == 90


async def test_a_league_sets_its_own_decision_time_and_a_bad_one_is_refused_in_words(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    c = await clubs(app, client)
    before = await writes(app)
    refused = await client.post(
        f"/clubs/{c.home}/leagues", json={"name": "Nope", "decision_seconds": 0}, headers=c.organiser.auth
    )
    assert refused.status_code == 400, refused.text
    assert "decision_seconds" in refused.text
    assert await writes(app) == before
    ids = [p.account_id for p in c.players]
    league = await league_with_tables(client, c, [ids[:4]], {"decision_seconds": 3_600})
    assert league["decision_seconds"] == 3_600
    scheduled = await post(client, f"{ROUND}/tables/1/game", c.organiser, {"mode": "online"})
    assert (await created_event(app, scheduled["game_id"])).options.decision_timeout_seconds == 3_600


async def test_seating_a_member_without_a_login_warns_and_his_link_sets_his_login_up(
    app: Litestar, client: httpx.AsyncClient, caplog: pytest.LogCaptureFixture
) -> None:
    c = await clubs(app, client)
    tuco = await registered(client, c, "Tuco Ramírez")
    ids = [p.account_id for p in c.players]
    await league_with_tables(client, c, [[tuco, *ids[:3]]])
    scheduled = await post(client, f"{ROUND}/tables/1/game", c.organiser, {"mode": "online"})
    assert scheduled["without_login"] == [{"member_id": tuco, "display_name": "Tuco Ramírez"}]
    seats_path = f"/leagues/{LEAGUE}/games/{scheduled['game_id']}/seats"
    seats = (await client.get(seats_path, headers=c.organiser.auth)).json()
    tuco_line = next(s for s in seats["seats"] if s["member"]["member_id"] == tuco)
    assert tuco_line["has_login"] is False
    assert any("Tuco Ramírez" in w and "no login" in w for w in seats["warnings"])

    with caplog.at_level(logging.DEBUG):
        sent = await post(client, f"/clubs/{c.home}/members/{tuco}/login-link", c.organiser)
        secret = sent["invite"]["token"]
        assert sent["member_id"] == tuco and sent["invite"]["accept_path"].endswith(f"/{secret}/accept")
        accepted = await client.post(
            sent["invite"]["accept_path"], json={"login": "tuco", "password": PASSWORD}
        )
        assert accepted.status_code == 201, accepted.text
        assert accepted.json()["account"]["account_id"] == tuco  # his own account, the same member
        again = await client.post(
            sent["invite"]["accept_path"], json={"login": "tuco2", "password": PASSWORD}
        )
    assert again.status_code == 409 and "used" in again.json()["detail"]
    # the link's secret is in no line the server logs (the test's own HTTP client logs its URLs)
    server = [r.getMessage() for r in caplog.records if not r.name.startswith(("httpx", "httpcore"))]
    assert server and not [line for line in server if secret in line]
    signed_in = await client.post("/sessions", json={"login": "tuco", "password": PASSWORD})
    assert signed_in.status_code == 201 and signed_in.json()["account"]["account_id"] == tuco
    seats = (await client.get(seats_path, headers=c.organiser.auth)).json()
    assert all(s["has_login"] for s in seats["seats"]) and not seats["warnings"]
    # a member who has a login gets no link: he signs in
    has_one = await client.post(f"/clubs/{c.home}/members/{tuco}/login-link", headers=c.organiser.auth)
    assert has_one.status_code == 409 and "has a login already" in has_one.json()["detail"]


async def test_an_expired_login_link_is_refused_in_words(app: Litestar, client: httpx.AsyncClient) -> None:
    c = await clubs(app, client)
    zed = await registered(client, c, "Zed")
    sent = await post(client, f"/clubs/{c.home}/members/{zed}/login-link", c.organiser)
    await pool_of(app).execute(
        "UPDATE account_invites SET expires_at = now() - interval '1 second' WHERE invite_id = $1",
        sent["invite"]["invite_id"],
    )
    expired = await client.post(sent["invite"]["accept_path"], json={"login": "zed", "password": PASSWORD})
    assert expired.status_code == 410 and "expired" in expired.json()["detail"]


async def test_only_the_clubs_current_organisers_send_a_login_link(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    c = await clubs(app, client)
    zed = await registered(client, c, "Zed")
    path = f"/clubs/{c.home}/members/{zed}/login-link"
    await grant(client, c.admin, c.home, c.players[1], "organiser")
    revoked = await client.delete(
        f"/clubs/{c.home}/roles/{c.players[1].account_id}/organiser", headers=c.admin.auth
    )
    assert revoked.status_code == 204, revoked.text
    before = await writes(app)
    for who in (c.foreign_organiser, c.foreign_admin, c.players[0], c.referee, c.players[1]):
        refused = await client.post(path, headers=who.auth)
        assert refused.status_code == 403, (who.display_name, refused.text)
    assert (await client.post(path)).status_code == 401
    # somebody who is not a member of the club gets no link from it
    stranger = await client.post(
        f"/clubs/{c.home}/members/{c.foreign_admin.account_id}/login-link", headers=c.organiser.auth
    )
    assert stranger.status_code == 404
    assert await writes(app) == before
    assert (await client.post(path, headers=c.admin.auth)).status_code == 201


# --- replacing a seat ---------------------------------------------------------------------------


def hidden_parts(state: dict[str, Any]) -> list[dict[str, Any]]:
    """What the rules hide of each seat: its role, its hand and face-down cards."""
    keys = ("role", "special", "hand", "rage_cards")
    return [{k: p.get(k) for k in keys} for p in state["players"]]


async def run_bots(app: Litestar) -> int:
    """What the deployment's deadlines consumer does in the background: the bot seats' moves."""
    pool = pool_of(app)
    store = PostgresEventStore(pool, mapper=GAME_MAPPER)
    projection = deadlines_subscription(store)
    sweeper = Sweeper(pool, GameService(store, SeedVault(pool)))
    moved = 0
    for _ in range(200):
        await projection.run_until_idle()
        report = await sweeper.sweep()
        if not report.applied:
            break
        moved += len(report.applied)
    return moved


async def play_out(
    app: Litestar, client: httpx.AsyncClient, game_id: str, people: dict[str, Person], rng: random.Random
) -> dict[str, Any]:
    """Each seat's holder of the moment plays (a bot seat: the server's bot), to the end."""
    for n in range(MAX_COMMANDS):
        state = (await client.get(f"/games/{game_id}")).json()
        if state["status"] != "ongoing":
            return state
        seat = next(p for p in state["players"] if p["id"] == state["awaiting"]["player"])
        if seat["bot"]:
            assert await run_bots(app) > 0
            continue
        holder = people[seat["member_id"]]
        mine = (await client.get(f"/games/{game_id}", headers=holder.auth)).json()
        command = rng.choice(mine["legal_commands"])
        response = await client.post(
            f"/games/{game_id}/commands",
            json={"command": command, "command_id": f"m{n}", "expected_version": mine["version"]},
            headers=holder.auth,
        )
        assert response.status_code == 200, response.text
    raise AssertionError(f"game {game_id} did not end")


async def test_a_replaced_seat_is_the_substitutes_and_the_replaced_player_reads_it_as_a_stranger(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    c = await clubs(app, client)
    ids = [p.account_id for p in c.players]
    await league_with_tables(client, c, [ids[:4], ids[4:]])
    scheduled = await post(client, f"{ROUND}/tables/1/game", c.organiser, {"mode": "online"})
    game_id = scheduled["game_id"]
    public = (await client.get(f"/games/{game_id}")).json()
    # a seat whose role the rules keep hidden (not the Sheriff's)
    seat = next(p for p in public["players"] if p["role"] is None)
    replaced = c.by_id(seat["member_id"])
    own = (await client.get(f"/games/{game_id}", headers=replaced.auth)).json()
    assert hidden_parts(own) != hidden_parts(public)  # his own role, while the seat is his

    path = f"/leagues/{LEAGUE}/games/{game_id}/seats/{seat['id']}/replace"
    asked = {"member_id": c.keeper.account_id, "reason": "no-show", "command_id": "r1"}
    answer = await post(client, path, c.organiser, asked)
    assert answer["replaced"] == {"member_id": replaced.account_id, "display_name": replaced.display_name}
    assert answer["substitute"] == {"member_id": c.keeper.account_id, "display_name": c.keeper.display_name}
    assert answer["bot"] is False
    assert await post(client, path, c.organiser, asked, status=200) == answer  # a retry: the same answer
    again = await client.post(path, json={**asked, "command_id": "r2"}, headers=c.organiser.auth)
    assert again.status_code == 422 and "plays seat" in again.json()["detail"]  # Kim holds it already

    public = (await client.get(f"/games/{game_id}")).json()
    after = (await client.get(f"/games/{game_id}", headers=replaced.auth)).json()
    assert hidden_parts(after) == hidden_parts(public)  # what a stranger reads, no more
    assert after["legal_commands"] == public["legal_commands"] == []
    keeper = (await client.get(f"/games/{game_id}", headers=c.keeper.auth)).json()
    mine = next(p for p in keeper["players"] if p["id"] == seat["id"])
    assert mine["role"] is not None and mine["member_id"] == c.keeper.account_id
    assert mine["name"] == c.keeper.display_name
    assert public["replacements"][0]["seat"] == seat["id"]
    feed = await client.get(f"/games/{game_id}/events", headers=replaced.auth)
    assert feed.text == (await client.get(f"/games/{game_id}/events")).text

    people = {p.account_id: p for p in (*c.players, c.keeper)}
    ended = await play_out(app, client, game_id, people, random.Random(7))
    assert ended["status"] == "ended"
    audit = (await client.get(f"/games/{game_id}/audit")).json()
    assert audit["clean"], audit
    replay = next(check for check in audit["checks"] if check["name"] == "rules replay")
    assert f"{seat['id']} to {c.keeper.display_name}" in replay["detail"]
    record = (await client.get(f"/games/{game_id}/record")).json()
    assert (
        f"seat {seat['id']}: {replaced.display_name} from turn 1, then {c.keeper.display_name}"
        in record["meta"]["notes"]
    )

    await consume(app)
    _standings, ratings = await view(client, c.home, c.players[0])
    assert ratings[c.keeper.account_id]["games"] == 1  # the seat's result is its holder's at the end
    assert replaced.account_id not in ratings


async def test_a_bot_takes_a_seat_over_and_plays_it_and_the_game_is_rated_for_nobody(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    c = await clubs(app, client)
    ids = [p.account_id for p in c.players]
    await league_with_tables(client, c, [ids[:4], ids[4:]])
    scheduled = await post(client, f"{ROUND}/tables/1/game", c.organiser, {"mode": "online"})
    game_id = scheduled["game_id"]
    public = (await client.get(f"/games/{game_id}")).json()
    seat = public["players"][1]
    answer = await post(
        client, f"/leagues/{LEAGUE}/games/{game_id}/seats/{seat['id']}/replace", c.referee, {"bot": True}
    )
    assert answer["bot"] is True and answer["substitute"] is None
    state = (await client.get(f"/games/{game_id}")).json()
    bot_seat = next(p for p in state["players"] if p["id"] == seat["id"])
    assert (bot_seat["bot"], bot_seat["member_id"], bot_seat["name"]) == (True, None, "Bot")
    query = {"query": "query ($id: ID!) { game(id: $id) { players { id bot memberId name } } }"}
    read = (await client.post("/graphql", json={**query, "variables": {"id": game_id}})).json()
    assert not read.get("errors"), read
    shown = next(p for p in read["data"]["game"]["players"] if p["id"] == seat["id"])
    assert shown == {"id": seat["id"], "bot": True, "memberId": None, "name": "Bot"}
    people = {p.account_id: p for p in c.players}
    ended = await play_out(app, client, game_id, people, random.Random(3))
    assert ended["status"] == "ended"
    store = PostgresEventStore(pool_of(app), mapper=GAME_MAPPER)
    stream = await store.read_stream(f"game-{game_id}")
    assert [e.type for e in stream].count(SeatReplaced.__name__) == 1
    assert any(e.metadata.actor == "system" for e in stream)  # the bot's moves are the server's
    assert (await client.get(f"/games/{game_id}/audit")).json()["clean"]
    await consume(app)
    _standings, ratings = await view(client, c.home, c.players[0])
    assert not set(ids[:4]) & set(ratings)  # a game a bot finished moves nobody's rating


async def test_only_the_leagues_current_organisers_and_referees_replace_a_seat(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    c = await clubs(app, client)
    ids = [p.account_id for p in c.players]
    await league_with_tables(client, c, [ids[:4], ids[4:]])
    scheduled = await post(client, f"{ROUND}/tables/1/game", c.organiser, {"mode": "online"})
    game_id = scheduled["game_id"]
    path = f"/leagues/{LEAGUE}/games/{game_id}/seats/p2/replace"
    await grant(client, c.admin, c.home, c.players[5], "referee")
    revoked = await client.delete(
        f"/clubs/{c.home}/roles/{c.players[5].account_id}/referee", headers=c.admin.auth
    )
    assert revoked.status_code == 204, revoked.text
    before = await writes(app)
    body = {"member_id": c.keeper.account_id}
    for who in (c.players[0], c.players[1], c.foreign_organiser, c.foreign_admin, c.players[5]):
        refused = await client.post(path, json=body, headers=who.auth)
        assert refused.status_code == 403, (who.display_name, refused.text)
    assert (await client.post(path, json=body)).status_code == 401
    assert (
        await client.get(f"/leagues/{LEAGUE}/games/{game_id}/seats", headers=c.players[0].auth)
    ).status_code == 403
    # bad input: a clear 4xx naming what is wrong, nothing stored
    first_seat = (await client.get(f"/games/{game_id}")).json()["players"][0]["member_id"]  # p1's, not p2's
    cases = [
        ({"member_id": c.keeper.account_id, "bot": True}, 422, "one of the two"),
        ({}, 422, "one of the two"),
        ({"member_id": c.foreign_admin.account_id}, 422, "not a member"),
        ({"member_id": first_seat}, 422, "nobody plays two seats"),
    ]
    for given, status, words in cases:
        refused = await client.post(path, json=given, headers=c.organiser.auth)
        assert refused.status_code == status and words in refused.json()["detail"], refused.text
    unknown_seat = await client.post(path.replace("/p2/", "/p9/"), json=body, headers=c.organiser.auth)
    assert unknown_seat.status_code == 400 and "seat" in unknown_seat.text
    other_game = await client.post(
        f"/leagues/{LEAGUE}/games/nope/seats/p2/replace", json=body, headers=c.organiser.auth
    )
    assert other_game.status_code == 404
    assert await writes(app) == before
    assert (await client.post(path, json=body, headers=c.referee.auth)).status_code == 201


async def test_a_seat_that_ran_out_of_time_warns_the_organiser(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    c = await clubs(app, client)
    ids = [p.account_id for p in c.players]
    await league_with_tables(client, c, [ids[:4]], {"decision_seconds": 1})
    scheduled = await post(client, f"{ROUND}/tables/1/game", c.organiser, {"mode": "online"})
    game_id = scheduled["game_id"]
    seats_path = f"/leagues/{LEAGUE}/games/{game_id}/seats"
    seats = (await client.get(seats_path, headers=c.organiser.auth)).json()
    assert seats["decision_timeout_seconds"] == 1 and seats["waiting_on"] is not None
    waiting = seats["waiting_on"]
    await asyncio.sleep(1.2)
    seats = (await client.get(seats_path, headers=c.organiser.auth)).json()
    assert seats["overdue"] is True
    assert any("past the time for a decision" in w for w in seats["warnings"]), seats["warnings"]
    assert await run_bots(app) >= 1  # the server plays the documented default for him
    seats = (await client.get(seats_path, headers=c.organiser.auth)).json()
    line = next(s for s in seats["seats"] if s["seat"] == waiting)
    assert line["timeouts"] >= 1
    assert any(f"(seat {waiting}) ran out of time" in w for w in seats["warnings"]), seats["warnings"]


REPLACE = """
mutation ($input: ReplaceSeatInput!) {
  replaceSeat(input: $input) { seat bot turn replaced { displayName } substitute { memberId displayName } }
}
"""
LINK = """
mutation ($input: SendLoginLinkInput!) { sendLoginLink(input: $input) { memberId invite { acceptPath } } }
"""


async def test_graphql_replaces_a_seat_and_sends_a_login_link_with_rests_rules(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    c = await clubs(app, client)
    zed = await registered(client, c, "Zed")
    ids = [p.account_id for p in c.players]
    await league_with_tables(client, c, [[zed, *ids[:3]]])
    scheduled = await post(client, f"{ROUND}/tables/1/game", c.organiser, {"mode": "online"})
    zed_seat = next(
        p["id"]
        for p in (await client.get(f"/games/{scheduled['game_id']}")).json()["players"]
        if p["member_id"] == zed
    )
    given = {
        "leagueId": LEAGUE,
        "gameId": scheduled["game_id"],
        "seat": zed_seat,
        "memberId": c.keeper.account_id,
    }

    async def ask(who: Person, query: str, variables: dict[str, Any]) -> dict[str, Any]:
        response = await client.post(
            "/graphql", json={"query": query, "variables": variables}, headers=who.auth
        )
        assert response.status_code == 200, response.text
        body: dict[str, Any] = response.json()
        return body

    refused = await ask(c.players[0], REPLACE, {"input": given})
    assert refused["data"] is None and "organiser" in refused["errors"][0]["message"]
    link = await ask(c.organiser, LINK, {"input": {"clubId": c.home, "memberId": zed}})
    assert link["data"]["sendLoginLink"]["memberId"] == zed
    assert link["data"]["sendLoginLink"]["invite"]["acceptPath"].startswith("/accounts/invites/")
    replaced = await ask(c.organiser, REPLACE, {"input": given})
    answer = replaced["data"]["replaceSeat"]
    assert (answer["seat"], answer["bot"], answer["replaced"]["displayName"]) == (zed_seat, False, "Zed")
    assert answer["substitute"]["memberId"] == c.keeper.account_id


async def test_a_member_takes_a_seat_back_from_a_bot(app: Litestar, client: httpx.AsyncClient) -> None:
    c = await clubs(app, client)
    ids = [p.account_id for p in c.players]
    await league_with_tables(client, c, [ids[:4]])
    scheduled = await post(client, f"{ROUND}/tables/1/game", c.organiser, {"mode": "online"})
    game_id = scheduled["game_id"]
    path = f"/leagues/{LEAGUE}/games/{game_id}/seats/p3/replace"
    to_bot = await post(client, path, c.organiser, {"bot": True, "reason": "gone"})
    assert to_bot["replaced"]["member_id"] in ids[:4] and to_bot["substitute"] is None
    back = await post(client, path, c.organiser, {"member_id": c.keeper.account_id})
    assert back["replaced"] is None and back["substitute"]["display_name"] == c.keeper.display_name
    seats = (await client.get(f"/leagues/{LEAGUE}/games/{game_id}/seats", headers=c.organiser.auth)).json()
    line = next(s for s in seats["seats"] if s["seat"] == "p3")
    assert (line["bot"], line["member"]["member_id"]) == (False, c.keeper.account_id)
    assert [r["member_id"] for r in seats["replacements"]] == [None, c.keeper.account_id]
    audit = (await client.get(f"/games/{game_id}/audit")).json()
    assert audit["clean"], audit
    replay = next(check["detail"] for check in audit["checks"] if check["name"] == "rules replay")
    assert "2 seats replaced by an organiser (p3 to a bot in turn 1, p3 to Kim Keeper in turn 1)" in replay
