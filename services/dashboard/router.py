"""The litestar routes of the dashboard: the page, its assets and the operation documents."""

from __future__ import annotations

import html
from pathlib import Path

from litestar import Response, Router, get
from litestar.datastructures import CacheControlHeader
from litestar.static_files import create_static_files_router

STATIC_DIR = Path(__file__).with_name("static")
PAGE = Path(__file__).with_name("index.html")
OPERATIONS_DIR = Path(__file__).resolve().parents[2] / "graphql" / "operations"
"""The repository's named operations; ``graphql/`` is data, never a Python package."""

ASSETS_PATH = "/dashboard/assets"
OPERATIONS_PATH = "/dashboard/operations"

_GRAPHQL_PLACEHOLDER = "{{graphql_path}}"
_OPERATIONS_PLACEHOLDER = "{{operations_path}}"
_ASSETS_PLACEHOLDER = "{{assets_path}}"

# The app is small and served from the same process; revalidating on every load keeps a
# redeployed dashboard from mixing old and new modules.
_NO_STALE_CACHE = CacheControlHeader(no_cache=True)


def render_index(graphql_path: str = "/graphql") -> str:
    """The page with the endpoint and asset paths filled in (the browser reads them from meta tags)."""
    page = PAGE.read_text(encoding="utf-8")
    return (
        page.replace(_GRAPHQL_PLACEHOLDER, html.escape(graphql_path, quote=True))
        .replace(_OPERATIONS_PLACEHOLDER, OPERATIONS_PATH)
        .replace(_ASSETS_PLACEHOLDER, ASSETS_PATH)
    )


def dashboard_router(graphql_path: str = "/graphql", operations_dir: Path = OPERATIONS_DIR) -> Router:
    """``/`` serves the page; ``/dashboard/assets/…`` its CSS and ES modules;
    ``/dashboard/operations/…`` the ``.graphql`` documents as plain text.

    ``graphql_path`` is where the API mounts strawberry, for both HTTP queries and the
    ``graphql-transport-ws`` subscriptions (same path, ``ws://``)."""
    page = render_index(graphql_path)

    @get("/", include_in_schema=False, cache_control=_NO_STALE_CACHE, sync_to_thread=False)
    def index() -> Response[str]:
        return Response(page, media_type="text/html; charset=utf-8")

    assets = create_static_files_router(
        path=ASSETS_PATH,
        directories=[STATIC_DIR],
        name="dashboard-assets",
        cache_control=_NO_STALE_CACHE,
    )
    operations = create_static_files_router(
        path=OPERATIONS_PATH,
        directories=[operations_dir],
        name="dashboard-operations",
        cache_control=_NO_STALE_CACHE,
    )
    return Router(path="/", route_handlers=[index, assets, operations], include_in_schema=False)
