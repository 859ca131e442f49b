"""The interactive API docs: GraphiQL at ``GET /graphql``, Swagger UI and Scalar under
``/schema``, the OpenAPI document where it always was; GraphiQL's own introspection query passes
the query cost limit, and a costly ordinary query is still refused."""

from __future__ import annotations

import json
import re

import httpx
import pytest

from graphql import get_introspection_query
from services.api.docs import OPENAPI_JSON_PATH, SCALAR_PATH, SWAGGER_PATH
from services.api.settings import LimitSettings

LIMITS = LimitSettings()
GRAPHIQL_INTROSPECTION = get_introspection_query(
    descriptions=True,
    specified_by_url=True,
    directive_is_repeatable=True,
    schema_description=True,
    input_value_deprecation=True,
)
"""What GraphiQL sends on opening (graphql-js' ``getIntrospectionQuery`` with its options)."""


@pytest.mark.parametrize(
    ("path", "names"),
    [
        ("/graphql", ("graphiql",)),
        (SWAGGER_PATH, ("swagger-ui",)),
        (SCALAR_PATH, ("scalar.standalone.js", "scalar-init.js")),
    ],
)
async def test_each_docs_page_is_served(client: httpx.AsyncClient, path: str, names: tuple[str, ...]) -> None:
    response = await client.get(path, headers={"Accept": "text/html"})
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/html")
    page = response.text.lower()
    for name in names:
        assert name.lower() in page, f"{path} does not name {name}"
    found = re.search(r'data-openapi="([^"]+)"', response.text)
    if found is not None:  # the page reads the document from the API itself (/schema or its JSON path)
        document = await client.get(found[1])
        assert document.status_code == 200 and document.json()["openapi"].startswith("3.")


async def test_the_openapi_document_stays_where_it_was(client: httpx.AsyncClient) -> None:
    for path in ("/schema", OPENAPI_JSON_PATH):
        response = await client.get(path)
        assert response.status_code == 200
        assert response.json()["openapi"].startswith("3.")


async def test_graphiqls_introspection_query_succeeds_without_a_token(client: httpx.AsyncClient) -> None:
    response = await client.post(
        "/graphql", json={"query": GRAPHIQL_INTROSPECTION, "operationName": "IntrospectionQuery"}
    )
    body = response.json()
    assert response.status_code == 200 and "errors" not in body, body.get("errors")
    schema = body["data"]["__schema"]
    names = {t["name"] for t in schema["types"]}
    assert schema["queryType"]["name"] == "Query"
    assert {"Game", "Query"} <= names


async def test_a_costly_ordinary_query_is_still_refused(client: httpx.AsyncClient) -> None:
    """Three audits (4,000 each) are over the limit whatever introspection is allowed."""
    audits = " ".join(f"a{n}: audit(id: {json.dumps(f'g{n}')}) {{ clean }}" for n in range(3))
    response = await client.post("/graphql", json={"query": "{ " + audits + " }"})
    body = response.json()
    assert body["data"] is None
    assert any(f"exceeds {LIMITS.graphql_max_cost:,}" in e["message"] for e in body["errors"]), body


async def test_introspection_beside_a_costly_field_is_refused(client: httpx.AsyncClient) -> None:
    """Introspection's allowance is its real (small) cost, not a pass for what comes with it."""
    audits = " ".join(f'a{n}: audit(id: "g{n}") {{ clean }}' for n in range(2))
    head = "query IntrospectionQuery {"
    assert head in GRAPHIQL_INTROSPECTION
    query = GRAPHIQL_INTROSPECTION.replace(head, f"{head} {audits}", 1)
    response = await client.post("/graphql", json={"query": query})
    body = response.json()
    assert body["data"] is None
    assert any("exceeds" in e["message"] for e in body["errors"]), body
