"""The API explorers, Swagger UI (``/schema/swagger``), Scalar (``/schema/scalar``) and GraphiQL
(``GET /graphql`` in a browser), served whole by the API: no file from a CDN, so they work on a
club's laptop at a tournament without internet, under the API's Content-Security-Policy
(``'self'`` only: services/api/headers.py).

Their files come from PyPI packages (pyproject.toml): Swagger UI from ``swagger-ui-bundle-v2``
(spec-first's build of ``swagger-ui-dist``), Scalar's standalone bundle from
``flask-openapi3-scalar`` (a Flask plugin by its name; only its two files are read, through
``importlib.resources``: Flask is never imported), GraphiQL with React and the ``graphql-ws``
client from ``graphene-django-graphiql-static`` (a Django app by its name, but without
dependencies: only its built files are used). The few lines that start each explorer are our own
files beside this module (``static/``), since the policy forbids inline scripts; Scalar's
configuration is a plain object in ``scalar-init.js`` (no inline JSON).

Each page names its files with Subresource Integrity (``integrity="sha384-…"``), hashed from the
bytes this process serves, read once when the app is built; a file is answered with an ``ETag``
of that hash and ``Cache-Control: no-cache``, so a browser revalidates (304) and an upgraded
package can never meet a stale copy under the old hash.

Scalar is the one page whose policy is relaxed, on its own answer only
(``SCALAR_CONTENT_SECURITY_POLICY``): its bundle adds its style sheet as a ``<style>`` element and
its components set ``style`` attributes, which need ``style-src 'unsafe-inline'``. Scripts stay
``'self'`` only, with no ``eval``.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import html
import importlib.resources
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from litestar import Request, Response, get
from litestar.constants import OPENAPI_JSON_HANDLER_NAME
from litestar.datastructures import ResponseHeader
from litestar.exceptions import NotFoundException
from litestar.handlers import HTTPRouteHandler
from litestar.openapi.plugins import SwaggerRenderPlugin

from services.api.headers import SCALAR_CONTENT_SECURITY_POLICY

SCHEMA_ASSETS_PATH = "/schema/assets"
SCALAR_ASSETS_PATH = "/schema/scalar/assets"
GRAPHQL_ASSETS_PATH = "/graphql/assets"

_OWN = Path(__file__).with_name("static")
_SWAGGER_PACKAGE = "swagger_ui_bundle"
_SCALAR_PACKAGE = "flask_openapi3_scalar"
_GRAPHIQL_PACKAGE = "graphene_django_graphiql_static"
_JS, _CSS = "text/javascript; charset=utf-8", "text/css; charset=utf-8"
_SVG = "image/svg+xml"


@dataclass(frozen=True, slots=True)
class Asset:
    content: bytes
    media_type: str
    integrity: str
    """``sha384-<base64>`` of ``content``: what a page's ``integrity`` attribute says."""

    @classmethod
    def of(cls, content: bytes, media_type: str) -> Asset:
        digest = base64.b64encode(hashlib.sha384(content).digest()).decode()
        return cls(content, media_type, f"sha384-{digest}")


@dataclass(frozen=True, slots=True)
class Assets:
    """One explorer's files, by the name they are served under at ``path``."""

    path: str
    files: dict[str, Asset]

    def script(self, name: str) -> str:
        asset = self.files[name]
        return (
            f'<script src="{self.path}/{name}" integrity="{asset.integrity}" '
            'crossorigin="anonymous"></script>'
        )

    def stylesheet(self, name: str) -> str:
        asset = self.files[name]
        return (
            f'<link rel="stylesheet" href="{self.path}/{name}" integrity="{asset.integrity}" '
            'crossorigin="anonymous">'
        )

    def icon(self, name: str) -> str:
        return f'<link rel="icon" type="image/svg+xml" href="{self.path}/{name}">'

    def handler(self, name: str) -> HTTPRouteHandler:
        """``GET {path}/{name}``: a file, 304 when the browser has it already, 404 otherwise."""

        @get(f"{self.path}/{{file:str}}", name=name, include_in_schema=False, sync_to_thread=False)
        def serve(file: str, request: Request[Any, Any, Any]) -> Response[bytes]:
            asset = self.files.get(file)
            if asset is None:
                raise NotFoundException(f"no file {file!r} here")
            etag = f'"{asset.integrity}"'
            headers = {"ETag": etag, "Cache-Control": "no-cache"}
            if request.headers.get("if-none-match") == etag:
                return Response(b"", status_code=304, headers=headers)
            return Response(asset.content, media_type=asset.media_type, headers=headers)

        return serve


def _package_files(package: str, folder: str, names: Iterable[tuple[str, str]]) -> dict[str, Asset]:
    root = importlib.resources.files(package).joinpath(folder)
    return {name: Asset.of(root.joinpath(name).read_bytes(), media_type) for name, media_type in names}


def _own_files(names: Iterable[tuple[str, str]]) -> dict[str, Asset]:
    return {name: Asset.of((_OWN / name).read_bytes(), media_type) for name, media_type in names}


@functools.cache
def swagger_assets() -> Assets:
    import swagger_ui_bundle

    folder = Path(str(swagger_ui_bundle.swagger_ui_path)).name  # vendor/swagger-ui-<version>
    files = _package_files(
        _SWAGGER_PACKAGE, f"vendor/{folder}", [("swagger-ui-bundle.js", _JS), ("swagger-ui.css", _CSS)]
    )
    return Assets(SCHEMA_ASSETS_PATH, files | _own_files([("swagger-init.js", _JS)]))


@functools.cache
def scalar_assets() -> Assets:
    """Scalar's standalone bundle (3.4 MB: read and hashed once, like the others) and its icon."""
    files = _package_files(_SCALAR_PACKAGE, "templates/scalar/js", [("scalar.standalone.js", _JS)])
    icon = _package_files(_SCALAR_PACKAGE, "templates/scalar/images", [("scalar.svg", _SVG)])
    return Assets(SCALAR_ASSETS_PATH, files | icon | _own_files([("scalar-init.js", _JS)]))


@functools.cache
def graphiql_assets() -> Assets:
    files = _package_files(
        _GRAPHIQL_PACKAGE,
        f"static/{_GRAPHIQL_PACKAGE}",
        [
            ("graphiql.min.css", _CSS),
            ("react.production.min.js", _JS),
            ("react-dom.production.min.js", _JS),
            ("graphiql.min.js", _JS),
            ("graphql-ws.min.js", _JS),
        ],
    )
    own = _own_files([("graphiql.css", _CSS), ("graphiql-init.js", _JS)])
    return Assets(GRAPHQL_ASSETS_PATH, files | own)


def explorer_asset_handlers() -> list[HTTPRouteHandler]:
    return [
        swagger_assets().handler("swagger-assets"),
        scalar_assets().handler("scalar-assets"),
        graphiql_assets().handler("graphiql-assets"),
    ]


def graphiql_page() -> str:
    assets = graphiql_assets()
    return "\n".join(
        [
            "<!doctype html>",
            '<html lang="en">',
            "<head>",
            '<meta charset="utf-8">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            "<title>bang-league GraphQL: GraphiQL</title>",
            assets.stylesheet("graphiql.min.css"),
            assets.stylesheet("graphiql.css"),
            "</head>",
            "<body>",
            '<div id="graphiql">Loading GraphiQL…</div>',
            assets.script("react.production.min.js"),
            assets.script("react-dom.production.min.js"),
            assets.script("graphiql.min.js"),
            assets.script("graphql-ws.min.js"),
            assets.script("graphiql-init.js"),
            "</body>",
            "</html>",
        ]
    )


class OfflineSwaggerPlugin(SwaggerRenderPlugin):
    """litestar's Swagger UI page, on the files above and started by ``swagger-init.js``."""

    def render(self, request: Request[Any, Any, Any], openapi_schema: dict[str, Any]) -> bytes:
        assets = swagger_assets()
        title = html.escape(str(openapi_schema["info"]["title"]))
        openapi = html.escape(self.get_openapi_json_route(request), quote=True)
        page = "\n".join(
            [
                "<!doctype html>",
                '<html lang="en">',
                "<head>",
                '<meta charset="utf-8">',
                '<meta name="viewport" content="width=device-width, initial-scale=1">',
                f"<title>{title}: Swagger UI</title>",
                assets.stylesheet("swagger-ui.css"),
                "</head>",
                "<body>",
                f'<div id="swagger-ui" data-openapi="{openapi}"></div>',
                assets.script("swagger-ui-bundle.js"),
                assets.script("swagger-init.js"),
                "</body>",
                "</html>",
            ]
        )
        return page.encode()



def scalar_page(openapi_url: str, title: str) -> str:
    assets = scalar_assets()
    return "\n".join(
        [
            "<!doctype html>",
            '<html lang="en">',
            "<head>",
            '<meta charset="utf-8">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f"<title>{html.escape(title)}: Scalar</title>",
            assets.icon("scalar.svg"),
            "</head>",
            "<body>",
            "<noscript>Scalar needs JavaScript (Swagger UI at /schema/swagger too).</noscript>",
            f'<div id="scalar" data-openapi="{html.escape(openapi_url, quote=True)}"></div>',
            assets.script("scalar.standalone.js"),
            assets.script("scalar-init.js"),
            "</body>",
            "</html>",
        ]
    )


def scalar_page_handler(path: str, title: str) -> HTTPRouteHandler:
    """``GET {path}``: the Scalar page, with its own Content-Security-Policy (a plain handler, not
    a litestar render plugin, whose handler cannot set a header)."""

    @get(
        path,
        name="scalar",
        include_in_schema=False,
        sync_to_thread=False,
        media_type="text/html; charset=utf-8",
        response_headers=[
            ResponseHeader(name="Content-Security-Policy", value=SCALAR_CONTENT_SECURITY_POLICY),
        ],
    )
    def serve(request: Request[Any, Any, Any]) -> str:
        return scalar_page(request.app.route_reverse(OPENAPI_JSON_HANDLER_NAME), title)

    return serve
