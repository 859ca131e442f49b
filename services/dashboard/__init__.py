"""The dashboard: a static single-page app the API serves at ``/``. See docs/dashboard.md.

Nothing here reads the store or decides anything: the page talks to the GraphQL endpoint only,
posting the named operation documents of ``graphql/operations/`` exactly as they are on disk,
so the operations CI validates against the schema are the ones the browser runs.

Mount it in the API app with ``route_handlers=[..., dashboard_router()]``.
"""

from services.dashboard.router import (
    ASSETS_PATH,
    OPERATIONS_DIR,
    OPERATIONS_PATH,
    STATIC_DIR,
    dashboard_router,
    render_index,
)

__all__ = [
    "ASSETS_PATH",
    "OPERATIONS_DIR",
    "OPERATIONS_PATH",
    "STATIC_DIR",
    "dashboard_router",
    "render_index",
]
