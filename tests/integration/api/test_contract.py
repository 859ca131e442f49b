"""The contracts: the exported SDL matches the code, every named operation is valid against
it, and the OpenAPI document is served with an operation id on every endpoint."""

from __future__ import annotations

import hashlib
from pathlib import Path

import httpx
import pytest
from litestar import Litestar

from bang_cli.api import create_organiser_token
from bang_cli.graphql import SCHEMA_FILE
from graphql import build_schema as parse_sdl
from graphql import parse, validate
from services.api import ApiSettings
from services.api.client import OPERATIONS
from services.api.schema import schema_sdl
from tests.integration.api.bots import bearer
from tests.integration.api.conftest import resources_of

OPERATION_FILES = sorted(OPERATIONS.rglob("*.graphql"))


def test_the_exported_schema_matches_the_code() -> None:
    assert SCHEMA_FILE.read_text() == schema_sdl(), (
        "graphql/schema.graphql has drifted from the code: run `bang-league graphql export`"
    )


@pytest.mark.parametrize("path", OPERATION_FILES, ids=lambda p: str(p.relative_to(OPERATIONS)))
def test_every_named_operation_is_valid_against_the_schema(path: Path) -> None:
    document = parse(path.read_text())
    errors = validate(parse_sdl(SCHEMA_FILE.read_text()), document)
    assert not errors, [e.message for e in errors]
    names = [
        d.name.value
        for d in document.definitions
        if getattr(d, "name", None) and d.kind == "operation_definition"
    ]
    assert names, f"{path.name} holds no named operation"


def test_the_game_operations_are_there() -> None:
    assert {p.stem for p in OPERATIONS.glob("*.graphql")} >= {
        "Game",
        "GameEvents",
        "GameAt",
        "WatchGame",
        "Audit",
    }


async def test_the_openapi_document_is_served(client: httpx.AsyncClient) -> None:
    response = await client.get("/schema/openapi.json")
    assert response.status_code == 200
    document = response.json()
    operations = {
        operation["operationId"]
        for path in document["paths"].values()
        for operation in path.values()
        if isinstance(operation, dict) and "operationId" in operation
    }
    assert operations >= {
        "createGame", "joinGame", "playCommand", "getGame", "getGameEvents", "getGameAt",
        "exportRecord", "importRecord", "auditGame", "health",
    }  # fmt: skip
    health = await client.get("/health")
    assert health.status_code == 200 and health.json()["checks"] == {"database": "ok", "redis": "ok"}


async def test_an_operator_made_organiser_token_works_and_is_kept_hashed(
    app: Litestar, client: httpx.AsyncClient, api_settings: ApiSettings
) -> None:
    token = await create_organiser_token("Sunday Club", api_settings)
    created = await client.post(
        "/games", json={"command_id": "c", "mode": "online", "player_count": 3}, headers=bearer(token)
    )
    assert created.status_code == 201, created.text
    rows = await resources_of(app).pool.fetch("SELECT * FROM access_tokens")
    assert [r["token_hash"] for r in rows] == [hashlib.sha256(token.encode()).digest()]
    assert all(token not in str(value) for r in rows for value in r.values())
