"""The API's own documentation: the OpenAPI document and the pages that render it.

- ``/schema`` and ``/schema/openapi.json``: the OpenAPI document (JSON, as before);
- ``/schema/swagger``: Swagger UI, ``/schema/scalar``: Scalar, both reading that document;
- GraphiQL at ``GET /graphql`` (``services/api/app.py``).

The explorers are served whole by the API from PyPI packages, with Subresource Integrity and
under the API's Content-Security-Policy (services/api/explorers.py): they work offline, as the
dashboard does. Scalar's page is a plain handler (``scalar_handler``), not a render plugin, so
that its answer can carry its own, slightly relaxed, policy.

``security``: every route that needs a bearer token declares ``[{BearerAuth: []}]``
(``services.accounts.http.SECURED``); a route that anybody may call but whose answer depends on
the token declares ``[{}, {BearerAuth: []}]`` (the game reads). ``bearer_declared`` makes the
declaration the truth: a request without any ``Authorization`` header to a route declaring the
token required is answered 401 before its body is read, so a client learns that it needs a token
before it learns anything about the body (tests/integration/api/test_openapi_security.py walks every route).
"""

from __future__ import annotations

from typing import Any

from litestar.connection import ASGIConnection
from litestar.handlers import BaseRouteHandler, HTTPRouteHandler
from litestar.openapi import OpenAPIConfig
from litestar.openapi.plugins import JsonRenderPlugin
from litestar.openapi.spec import Components, SecurityScheme

from services.accounts.http import BEARER
from services.api.explorers import OfflineSwaggerPlugin, scalar_page_handler
from services.game.edge.gateway import AuthenticationRequired

SCHEMA_PATH = "/schema"
OPENAPI_JSON_PATH = f"{SCHEMA_PATH}/openapi.json"
SWAGGER_PATH = f"{SCHEMA_PATH}/swagger"
SCALAR_PATH = f"{SCHEMA_PATH}/scalar"
API_TITLE = "bang-league API"


def openapi_config() -> OpenAPIConfig:
    return OpenAPIConfig(
        title=API_TITLE,
        version="0.1.0",
        description=(
            "BANG! The Dice Game league server: clubs, leagues, games, commands, records. "
            "Sign in (`POST /sessions`) and send `Authorization: Bearer <token>`. "
            "GraphQL (with GraphiQL) at /graphql."
        ),
        path=SCHEMA_PATH,
        # the first plugin is served at /schema itself: the JSON document, as it always was
        render_plugins=[
            JsonRenderPlugin(),
            OfflineSwaggerPlugin(path="/swagger"),
        ],
        components=Components(
            security_schemes={
                BEARER: SecurityScheme(
                    type="http",
                    scheme="bearer",
                    description="A session token (`POST /sessions`), an API token (`blt_…`) or an "
                    "operator's organiser token.",
                )
            }
        ),
    )


def scalar_handler() -> HTTPRouteHandler:
    return scalar_page_handler(SCALAR_PATH, API_TITLE)


def _declares_token_required(handler: BaseRouteHandler) -> bool:
    if not isinstance(handler, HTTPRouteHandler):
        return False  # a WebSocket (GraphQL subscriptions) authenticates in its own protocol
    security = handler.resolve_security()
    return bool(security) and {} not in security


async def bearer_declared(connection: ASGIConnection[Any, Any, Any, Any], handler: BaseRouteHandler) -> None:
    """The app's guard: no ``Authorization`` header at all on a route that declares the token
    required is a 401 at once (whether the token is good is each route's own check)."""
    if _declares_token_required(handler) and not connection.headers.get("authorization", "").strip():
        raise AuthenticationRequired("a bearer token is required (Authorization: Bearer <token>)")
