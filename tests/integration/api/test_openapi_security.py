"""The OpenAPI document tells the truth about the bearer token: every route that answers 401
without one declares ``security: [{BearerAuth: []}]``, every route that declares it (as required,
not optional) really answers 401 without one, and no route the app serves outside the document
wants a token.

The walk covers whatever routes exist, so a route added later is held to the same rule. Each
operation is called without a token with a harmless request: dummy ids in the path, the
required query parameters at their examples or a dummy, and ``{}`` as the body of a write (a
missing token must be answered before the body is validated, else a client learns about the
body before it learns that it needs a token).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import httpx
from litestar import Litestar
from litestar.handlers import HTTPRouteHandler
from litestar.routes import HTTPRoute

from services.accounts.http import BEARER

DUMMY_ID = "0123456789abcdef0123456789abcdef"
WRITES = {"POST", "PUT", "PATCH"}
REQUIRED = [{BEARER: []}]
OPTIONAL = [{}, {BEARER: []}]
NONE = "none"
BOGUS = {"Authorization": "Bearer not-a-token-anybody-was-given"}
UNDOCUMENTED_ALLOWED = {"/graphql"}
"""Served outside the OpenAPI document on purpose: GraphQL describes itself (introspection)."""


@dataclass(frozen=True, slots=True)
class Operation:
    method: str
    path: str
    operation: dict[str, Any]

    @property
    def name(self) -> str:
        return f"{self.method} {self.path} ({self.operation.get('operationId')})"


def _operations(document: dict[str, Any]) -> list[Operation]:
    return [
        Operation(method.upper(), path, operation)
        for path, item in document["paths"].items()
        for method, operation in item.items()
        if method in {"get", "post", "put", "patch", "delete"}
    ]


def _kind(security: list[dict[str, Any]] | None) -> str:
    """How an operation declares the token: none, required, optional (either order), or
    something else (malformed)."""
    if security is None:
        return NONE
    for kind, declared in (("required", REQUIRED), ("optional", OPTIONAL)):
        if len(security) == len(declared) and all(s in security for s in declared):
            return kind
    return f"malformed: {security}"


def _dummy(schema: dict[str, Any] | None) -> str:
    kind = (schema or {}).get("type")
    if kind == "integer":
        return "1"
    if kind == "boolean":
        return "true"
    return DUMMY_ID


def _request(op: Operation) -> tuple[str, dict[str, str], Any]:
    path = op.path
    query: dict[str, str] = {}
    for parameter in op.operation.get("parameters", []):
        value = _dummy(parameter.get("schema"))
        if parameter["in"] == "path":
            path = path.replace("{" + parameter["name"] + "}", value)
        elif parameter["in"] == "query" and parameter.get("required"):
            query[parameter["name"]] = value
    path = re.sub(r"\{[^}]+\}", DUMMY_ID, path)  # a path parameter the document forgot
    return path, query, {} if op.method in WRITES else None


async def _anonymous(
    client: httpx.AsyncClient, method: str, path: str, query: dict[str, str], body: Any
) -> int:
    response = await client.request(method, path, params=query, json=body)
    return response.status_code


async def test_every_route_that_wants_a_token_declares_it_and_every_declaration_is_true(
    client: httpx.AsyncClient,
) -> None:
    document = (await client.get("/schema/openapi.json")).json()
    assert BEARER in document["components"]["securitySchemes"]
    operations = _operations(document)
    assert len(operations) >= 10
    undeclared: list[str] = []
    untrue: list[str] = []
    malformed: list[str] = []
    for op in operations:
        kind = _kind(op.operation.get("security"))
        path, query, body = _request(op)
        status = await _anonymous(client, op.method, path, query, body)
        if kind.startswith("malformed"):
            malformed.append(f"{op.name}: {kind}")
        if status == 401 and kind != "required":
            undeclared.append(f"{op.name}: 401 without a token, declares {kind}")
        if kind == "required" and status != 401:
            untrue.append(f"{op.name}: declares the token required, answered {status} without one")
        if kind == NONE:
            # a route that looks at a token at all must say so (required or optional)
            bogus = await client.request(method=op.method, url=path, params=query, json=body, headers=BOGUS)
            if bogus.status_code == 401:
                undeclared.append(f"{op.name}: refuses a bad token with 401, declares no security")
    assert not malformed, malformed
    assert not undeclared, undeclared
    assert not untrue, untrue


async def test_a_route_with_an_optional_token_says_so(client: httpx.AsyncClient) -> None:
    """The game routes may be read without a token, and the token changes what is seen."""
    document = (await client.get("/schema/openapi.json")).json()
    by_id = {op.operation.get("operationId"): op for op in _operations(document)}
    for name in ("getGame", "getGameEvents", "getGameAt", "exportRecord"):
        assert _kind(by_id[name].operation.get("security")) == "optional", name
    for name in ("createGame", "playCommand", "importRecord", "revokePlayerTokens"):
        assert _kind(by_id[name].operation.get("security")) == "required", name


def _served_routes(app: Litestar) -> list[tuple[str, str]]:
    routes: list[tuple[str, str]] = []
    for route in app.routes:
        if not isinstance(route, HTTPRoute):
            continue
        for handler in route.route_handlers:
            assert isinstance(handler, HTTPRouteHandler)
            for method in handler.http_methods:
                if method not in {"HEAD", "OPTIONS"}:
                    routes.append((method, route.path_format))
    return routes


async def test_no_route_outside_the_document_wants_a_token(app: Litestar, client: httpx.AsyncClient) -> None:
    document = (await client.get("/schema/openapi.json")).json()
    documented = {(op.method, op.path) for op in _operations(document)}
    outside = [(m, p) for m, p in _served_routes(app) if (m, p) not in documented]
    assert outside, "the docs pages and the dashboard are served outside the document"
    wanting: list[str] = []
    for method, path in outside:
        if path in UNDOCUMENTED_ALLOWED or path.startswith("/schema"):
            continue
        filled = re.sub(r"\{[^}]+\}", DUMMY_ID, path)
        status = await _anonymous(client, method, filled, {}, {} if method in WRITES else None)
        if status == 401:
            wanting.append(f"{method} {path}")
    assert not wanting, f"served outside the OpenAPI document yet wants a token: {wanting}"
