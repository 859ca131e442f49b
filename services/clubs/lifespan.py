"""Opens the ``ClubService`` beside the accounts' (after ``accounts_lifespan``), keeps it on
``app.state.clubs``; handlers get it injected as ``clubs`` and the session's principal as
``caller``."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable

from litestar import Litestar

from services.clubs.service import ClubService


def clubs_lifespan() -> Callable[[Litestar], contextlib.AbstractAsyncContextManager[None]]:
    @contextlib.asynccontextmanager
    async def lifespan(app: Litestar) -> AsyncIterator[None]:
        app.state.clubs = ClubService(app.state.resources.pool, app.state.accounts)
        try:
            yield
        finally:
            app.state.clubs = None

    return lifespan
