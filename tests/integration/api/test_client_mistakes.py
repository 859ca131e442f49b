"""A client's mistake is a 400 that names it, logged at INFO; a server's fault is still a 500.

Issue 20, finding 7: invalid UTF-8 in a JSON body was a 500 with a traceback (anonymous
``POST /sessions`` and ``POST /graphql`` included); a GraphQL variable of the wrong type, an Int
past 32 bits and a subscription sent over HTTP answered "Unexpected error." (logged at ERROR); an
empty body's detail was ``'data'``; a key given twice was taken (the last one won). Each is tried
on an anonymous route (``/sessions``), an authenticated command (``POST /clubs``) and ``/graphql``.
"""

from __future__ import annotations

import logging
from typing import Any

import httpx
import pytest
from litestar import Litestar

from services.api.client import GraphQLSubscription, SubscriptionError
from tests.integration.api.conftest import resources_of
from tests.integration.api.people import Person, people

JSON = {"content-type": "application/json"}
LEADERBOARD = "query Board($n: Int!) { ratingLeaderboard(limit: $n) { rank } }"
EMPTY = "the body is empty: a JSON object was expected"


def not_utf8_at(body: bytes) -> str:
    offset = body.index(0xFF)
    return f"the body is not valid UTF-8 (byte 0xff at offset {offset})"


# (route, whose, body, the detail said)
BODIES: list[tuple[str, str, bytes, str]] = [
    (route, whose, body, detail)
    for route, whose, bodies in (
        (
            "/sessions",
            "anonymous",
            (
                (b'{"login": "ann", "password": "pass\xffword"}', "utf-8"),
                (b'{"login": "ann", "password": "a", "password": "b"}', "duplicate key 'password'"),
                (b"", EMPTY),
            ),
        ),
        (
            "/clubs",
            "signed in",
            (
                (b'{"name": "Dodge \xff City"}', "utf-8"),
                (b'{"name" : "Dodge City", "name" :"Tombstone"}', "duplicate key 'name'"),
                (b"  ", EMPTY),
            ),
        ),
        (
            "/graphql",
            "anonymous",
            (
                (b'{"query": "{ __typename }", "operationName": "\xff"}', "utf-8"),
                (
                    b'{"query": "query Board($n: Int!) { ratingLeaderboard(limit: $n) { rank } }",'
                    b' "variables": {"n": 5, "n": 600}}',
                    "duplicate key 'n'",
                ),
                (b"", EMPTY),
            ),
        ),
    )
    for body, detail in bodies
]


def said(detail: str, body: bytes) -> str:
    if detail == "utf-8":
        return not_utf8_at(body)
    if detail.startswith("duplicate key"):
        return f"{detail} in the JSON body"
    return detail


def refused(response: httpx.Response, slug: str = "bad-request") -> dict[str, Any]:
    assert response.status_code == 400, response.text
    assert response.headers["content-type"].startswith("application/problem+json"), response.text
    body: dict[str, Any] = response.json()
    assert body["status"] == 400 and body["type"].endswith(f"/{slug}"), body
    return body


def logged_at_info_only(caplog: pytest.LogCaptureFixture) -> None:
    """The refusal is in the log at INFO; nothing at ERROR, no traceback."""
    ours = [r for r in caplog.records if r.name.startswith("services.")]
    assert ours and any(r.levelno == logging.INFO and "refused" in r.getMessage() for r in ours), [
        (r.levelname, r.getMessage()) for r in ours
    ]
    assert not [r for r in ours if r.levelno >= logging.WARNING or r.exc_info], [
        (r.levelname, r.getMessage()) for r in ours
    ]


@pytest.fixture
async def ann(app: Litestar, client: httpx.AsyncClient) -> Person:
    (person,) = await people(app, client, "Ann")
    return person


@pytest.mark.parametrize(("route", "whose", "body", "detail"), BODIES, ids=lambda v: repr(v)[:40])
async def test_an_unreadable_body_is_a_400_naming_the_problem(
    app: Litestar,
    client: httpx.AsyncClient,
    ann: Person,
    caplog: pytest.LogCaptureFixture,
    route: str,
    whose: str,
    body: bytes,
    detail: str,
) -> None:
    headers = {**JSON, **(ann.auth if whose == "signed in" else {})}
    caplog.clear()
    with caplog.at_level(logging.INFO):
        response = await client.post(route, content=body, headers=headers)
    problem = refused(response)
    assert problem["detail"] == said(detail, body), problem
    logged_at_info_only(caplog)
    if route == "/clubs":  # nothing half-written: Ann founded no club
        mine = await client.get("/me/clubs", headers=ann.auth)
        assert mine.status_code == 200 and mine.json() == [], mine.text


async def test_a_body_without_a_repeated_key_is_taken_even_with_quotes_in_its_strings(
    client: httpx.AsyncClient, ann: Person
) -> None:
    # quotes in strings (escaped, or as \u0022) make the cheap key count unsure: read again, accepted
    body = b'{"name": "The \\"Dodge\\": \\u0022City\\u0022:"}'
    response = await client.post("/clubs", content=body, headers={**JSON, **ann.auth})
    assert response.status_code == 201, response.text
    assert response.json()["name"] == 'The "Dodge": "City":'


@pytest.mark.parametrize(
    ("variables", "detail"),
    [
        ({"n": 4294967296}, "variable $n: 4294967296 is not a 32-bit Int"),
        ({"n": "ten"}, "variable $n: 'ten' is not an Int"),
        ({}, "variable $n: a value of type Int! is required"),
    ],
    ids=["past 32 bits", "wrong type", "missing"],
)
async def test_a_graphql_variable_that_does_not_fit_its_type_is_a_400_naming_it(
    client: httpx.AsyncClient, caplog: pytest.LogCaptureFixture, variables: dict[str, Any], detail: str
) -> None:
    with caplog.at_level(logging.INFO):
        response = await client.post("/graphql", json={"query": LEADERBOARD, "variables": variables})
    problem = refused(response, "invalid-variables")
    assert problem["detail"] == detail
    # a GraphQL client reads the same words where it looks for them
    [error] = problem["errors"]
    assert error["message"] == detail and error["extensions"]["code"] == "BAD_VARIABLE_INPUT"
    assert "Unexpected error" not in response.text
    logged_at_info_only(caplog)


async def test_a_variable_of_its_type_out_of_the_arguments_bounds_is_still_the_resolvers_refusal(
    client: httpx.AsyncClient,
) -> None:
    """An Int the bounds refuse (services/game/edge/bounds.py) is a GraphQL error in a 200, as ever."""
    response = await client.post("/graphql", json={"query": LEADERBOARD, "variables": {"n": 600}})
    assert response.status_code == 200, response.text
    [error] = response.json()["errors"]
    assert error["extensions"]["code"] == "BAD_USER_INPUT" and error["message"].startswith("`limit`")


async def test_a_subscription_over_http_is_a_400_pointing_at_the_websocket(
    client: httpx.AsyncClient, caplog: pytest.LogCaptureFixture
) -> None:
    document = 'subscription { gameEvents(id: "no-such-game") { version } }'
    with caplog.at_level(logging.INFO):
        response = await client.post("/graphql", json={"query": document})
    problem = refused(response)
    assert problem["detail"] == "subscriptions are served over the WebSocket at /graphql, not HTTP"
    logged_at_info_only(caplog)


async def test_a_subscriptions_variable_that_does_not_fit_is_named_not_masked_over_the_websocket(
    base_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    document = 'subscription Live($v: Int) { gameUpdates(id: "no-such-game", fromVersion: $v) { version } }'
    with caplog.at_level(logging.INFO), pytest.raises(SubscriptionError) as refused:
        async with GraphQLSubscription(f"ws://{base_url}/graphql", document, {"v": 4294967296}) as live:
            async for _ in live:
                pytest.fail("a refused subscription sent a result")
    # graphql-core's own words over the socket (the plain ones are the HTTP answer's), not masked
    said = str(refused.value)
    assert "'$v'" in said and "non 32-bit signed integer value: 4294967296" in said, said
    assert "Unexpected error" not in said
    logged_at_info_only(caplog)


async def test_a_document_the_schema_refuses_is_shown_and_logged_at_info(
    client: httpx.AsyncClient, caplog: pytest.LogCaptureFixture
) -> None:
    """Syntax and validation errors stay GraphQL errors (a 200, the document's own words)."""
    refused_documents = (("{ ratingLeaderboard(", "Syntax Error"), ("{ nope }", "Cannot query field 'nope'"))
    for document, words in refused_documents:
        caplog.clear()
        with caplog.at_level(logging.INFO):
            response = await client.post("/graphql", json={"query": document})
        assert response.status_code == 200, response.text
        [error] = response.json()["errors"]
        assert words in error["message"]
        logged_at_info_only(caplog)


async def test_a_server_fault_is_still_a_500_logged_at_error_with_its_traceback(
    app: Litestar, client: httpx.AsyncClient, ann: Person, caplog: pytest.LogCaptureFixture
) -> None:
    """A real fault: the tables the login and the leaderboard read are gone."""
    pool = resources_of(app).pool
    await pool.execute("ALTER TABLE accounts RENAME TO accounts_gone")
    await pool.execute("ALTER TABLE ratings_players RENAME TO ratings_players_gone")
    with caplog.at_level(logging.INFO):
        response = await client.post("/sessions", json={"login": "ann", "password": "whatever-it-is"})
    assert response.status_code == 500, response.text
    body = response.json()
    assert body["type"].endswith("/internal") and "accounts" not in body["detail"]
    faults = [r for r in caplog.records if r.levelno == logging.ERROR and r.exc_info]
    assert faults and "POST /sessions" in faults[0].getMessage()

    caplog.clear()
    with caplog.at_level(logging.INFO):
        response = await client.post("/graphql", json={"query": LEADERBOARD, "variables": {"n": 5}})
    assert response.status_code == 200, response.text
    assert [e["message"] for e in response.json()["errors"]] == ["Unexpected error."]
    faults = [r for r in caplog.records if r.levelno == logging.ERROR and r.exc_info]
    assert faults and "ratingLeaderboard" in faults[0].getMessage()
