"""Opens the ``AccountService`` on the API's pool and Redis client (after ``open_resources``),
keeps it on ``app.state.accounts``; the handlers get it injected as ``accounts``. While it runs,
the access log has invite secrets cut out of paths (``redaction.py``)."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Callable

from litestar import Litestar

from infra.postgres import database_name
from services.accounts.redaction import ACCESS_LOGGER, InvitePathFilter
from services.accounts.service import AccountService
from services.accounts.settings import AccountSettings


def accounts_lifespan(
    settings: AccountSettings | None = None,
) -> Callable[[Litestar], contextlib.AbstractAsyncContextManager[None]]:
    @contextlib.asynccontextmanager
    async def lifespan(app: Litestar) -> AsyncIterator[None]:
        resources = app.state.resources
        app.state.accounts = AccountService(
            resources.pool,
            settings or AccountSettings.from_env(),
            redis=resources.redis,
            namespace=database_name(resources.database_url),
        )
        await app.state.accounts.callers.start()  # other processes' logouts and role changes
        access_log, redaction = logging.getLogger(ACCESS_LOGGER), InvitePathFilter()
        access_log.addFilter(redaction)
        try:
            yield
        finally:
            access_log.removeFilter(redaction)
            await app.state.accounts.callers.close()
            app.state.accounts = None

    return lifespan
