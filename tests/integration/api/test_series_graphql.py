"""UA5 legacy series over GraphQL against the real PostgreSQL: a foreign club's organiser and an
anonymous caller are refused `openSeries` with REST's problems and nothing stored; the club's
organiser opens it; game 1 is played to its end; `series` shows what the series asks and of
whom; a wrong player's `decideInSeries` is refused (nothing stored), the right players decide;
game 2 is linked with its Sheriff and how they became Sheriff; `clubSeries` pages; the seed
shows only after `closeSeries` (refused to a foreign organiser, and while game 2, whose roles
the seed drew, is played)."""

from __future__ import annotations

import base64
import json
import random
from typing import Any

import httpx
from litestar import Litestar

from services.api.client import operation
from services.game.application.series import series_stream
from tests.integration.api.conftest import resources_of
from tests.integration.api.people import Person, found, grant, people
from tests.unit.game.undead.test_series_service import play_to_end

SERIES = operation("Series")
"""graphql/operations/Series.graphql: the operations a client runs a series with."""


async def gql(
    client: httpx.AsyncClient, operation: str, variables: dict[str, Any], who: Person | None = None
) -> dict[str, Any]:
    response = await client.post(
        "/graphql",
        json={"query": SERIES, "operationName": operation, "variables": variables},
        headers={} if who is None else who.auth,
    )
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def refused(body: dict[str, Any], status: int, slug: str) -> str:
    assert not any((body.get("data") or {}).values()), body
    [error] = body["errors"]
    problem = error["extensions"]["problem"]
    assert (problem["status"], problem["type"].rsplit("/", 1)[-1]) == (status, slug), problem
    detail: str = problem["detail"]
    return detail


async def stream_version(app: Litestar, series_id: str) -> int:
    return await resources_of(app).gateway.store.stream_version(series_stream(series_id))


async def test_a_series_is_run_over_graphql_with_rest_authorisation(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    admin, organiser, foreign, *players = await people(
        app,
        client,
        "Gia Admin",
        "Gus Organiser",
        "Gwen Foreign",
        "Ann Ash",
        "Bob Birch",
        "Cy Cedar",
        "Di Dogwood",
    )
    club, away = await found(client, admin, "GraphQL Legacy"), await found(client, foreign, "Elsewhere")
    await grant(client, admin, club, organiser, "organiser")
    await grant(client, foreign, away, foreign, "organiser")
    opening = {
        "commandId": "open-g",
        "seriesId": "gq-1",
        "clubId": club,
        "mode": "online",
        "modules": ["UA4", "UA5"],
        "members": [{"memberId": p.account_id, "name": p.display_name} for p in players],
    }

    refused(await gql(client, "OpenSeries", {"input": opening}, foreign), 403, "role-required")
    refused(await gql(client, "OpenSeries", {"input": opening}), 401, "unauthenticated")
    assert await stream_version(app, "gq-1") == 0
    refused(await gql(client, "Series", {"id": "gq-1"}), 404, "game-not-found")
    no_ua5 = await gql(client, "OpenSeries", {"input": {**opening, "modules": ["UA4"]}}, organiser)
    assert "UA5" in refused(no_ua5, 422, "invalid-game")
    assert await stream_version(app, "gq-1") == 0

    opened = (await gql(client, "OpenSeries", {"input": opening}, organiser))["data"]["openSeries"]
    assert opened["status"] == "open" and opened["ruleset"] == "dice UA4 UA5" and opened["clubId"] == club
    assert [m["displayName"] for m in opened["members"]] == ["Ann Ash", "Bob Birch", "Cy Cedar", "Di Dogwood"]
    assert opened["seedCommitment"] and opened["seed"] is None
    [first] = opened["games"]
    assert first["gameId"] == "gq-1.g1" and first["sheriffBy"] == "dealt" and first["status"] == "ongoing"
    assert sum(s["sheriff"] for s in first["seats"]) == 1
    sheriff_seat = next(s for s in first["seats"] if s["sheriff"])
    assert first["sheriff"]["memberId"] == sheriff_seat["member"]["memberId"]

    await play_to_end(resources_of(app).gateway.service, "gq-1.g1", 5)
    by_id = {p.account_id: p for p in players}
    rng = random.Random(5)
    wrong_tried = False
    series: dict[str, Any] = {}
    for n in range(20):
        series = (await gql(client, "Series", {"id": "gq-1"}))["data"]["series"]
        if len(series["games"]) == 2:
            break
        asked = series["asked"]
        assert asked is not None and not asked["draw"] and asked["member"]["displayName"]
        decision: dict[str, Any] = {
            "seriesId": "gq-1",
            "commandId": f"gd{n}",
            "kind": asked["ask"],
            "seat": asked["seat"],
        }
        if asked["ask"] == "next_sheriff":
            decision["sheriff"] = rng.choice(asked["among"])
        elif asked["ask"] == "keep_character":
            decision["keep"] = rng.random() < 0.5
        else:
            decision["character"] = rng.choice(asked["among"])
        if not wrong_tried:
            before = await stream_version(app, "gq-1")
            other = next(p for p in players if p.account_id != asked["member"]["memberId"])
            words = refused(await gql(client, "DecideInSeries", {"input": decision}, other), 403, "forbidden")
            assert "the player seated there" in words
            refused(await gql(client, "DecideInSeries", {"input": decision}, organiser), 403, "forbidden")
            assert await stream_version(app, "gq-1") == before
            wrong_tried = True
        answer = await gql(client, "DecideInSeries", {"input": decision}, by_id[asked["member"]["memberId"]])
        assert not answer.get("errors"), answer
    assert wrong_tried and [g["gameId"] for g in series["games"]] == ["gq-1.g1", "gq-1.g2"]
    first, second = series["games"]
    assert first["winners"] and first["status"] == "ended"
    assert second["previousGameId"] == "gq-1.g1" and second["sheriff"] is not None
    by_decision = {d["kind"] for d in series["decisions"] if d["number"] == 2}
    expected_by = (
        "designated" if "next_sheriff" in by_decision else ("drawn" if "sheriff" in by_decision else "killer")
    )
    assert second["sheriffBy"] == expected_by
    assert all(d["byName"] for d in series["decisions"] if d["by"] != "series-seed")
    # game 2 is being played: the series shows its Sheriff, never another role
    shown = json.dumps(series).lower()
    assert not any(role in shown for role in ("deputy", "outlaw", "renegade")), shown
    # seats keep their members: the chain reads the same seat ids in both games
    assert [s["member"] for s in first["seats"]] == [s["member"] for s in second["seats"]]
    # a bad kind names the field, and nothing is stored
    before = await stream_version(app, "gq-1")
    bad = await gql(
        client,
        "DecideInSeries",
        {"input": {"seriesId": "gq-1", "commandId": "x", "kind": "vote", "seat": "p1"}},
        players[0],
    )
    assert "kind" in bad["errors"][0]["message"] and await stream_version(app, "gq-1") == before

    # a club's series, a page at a time
    for extra in ("gq-2", "gq-3"):
        again = await gql(
            client, "OpenSeries", {"input": {**opening, "seriesId": extra, "commandId": extra}}, admin
        )
        assert not again.get("errors"), again
    page = (await gql(client, "ClubSeries", {"club": club, "first": 2}))["data"]["clubSeries"]
    assert [s["id"] for s in page["series"]] == ["gq-1", "gq-2"] and page["hasNextPage"]
    rest = (await gql(client, "ClubSeries", {"club": club, "first": 2, "after": page["endCursor"]}))["data"]
    assert [s["id"] for s in rest["clubSeries"]["series"]] == ["gq-3"] and not rest["clubSeries"][
        "hasNextPage"
    ]
    assert (await gql(client, "ClubSeries", {"club": away, "first": 5}))["data"]["clubSeries"]["series"] == []
    forged = base64.urlsafe_b64encode(b"nonsense").decode()
    assert (await gql(client, "ClubSeries", {"club": club, "first": 2, "after": forged}))["errors"]
    assert (await gql(client, "ClubSeries", {"club": club, "first": 500}))["errors"]

    closing = {"seriesId": "gq-1", "commandId": "close-g", "reason": "evening over"}
    before = await stream_version(app, "gq-1")
    refused(await gql(client, "CloseSeries", {"input": closing}, foreign), 403, "role-required")
    refused(await gql(client, "CloseSeries", {"input": closing}, players[0]), 403, "role-required")
    assert await stream_version(app, "gq-1") == before
    # game 2's roles were drawn from the series seed the close reveals: not while it is played
    words = refused(await gql(client, "CloseSeries", {"input": closing}, organiser), 422, "invalid-game")
    assert "gq-1.g2 is still being played" in words and await stream_version(app, "gq-1") == before
    await play_to_end(resources_of(app).gateway.service, "gq-1.g2", 5)
    closed = (await gql(client, "CloseSeries", {"input": closing}, organiser))["data"]["closeSeries"]
    assert closed["status"] == "closed" and closed["seed"] and closed["asked"] is None
