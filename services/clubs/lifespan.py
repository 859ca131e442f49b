"""Opens the ``ClubService`` beside the accounts' (after ``accounts_lifespan``), keeps it on
``app.state.clubs``; handlers get it injected as ``clubs`` and the session's principal as
``caller``. ``tables`` (wired from above: the league's ``ScheduleGuard``) tells the service who
sits at a game's table, so a scorekeeper is never granted a table he plays at."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable

import asyncpg
from litestar import Litestar

from services.clubs.service import ClubService, TableSeats


def clubs_lifespan(
    tables: Callable[[asyncpg.Pool], TableSeats] | None = None,
) -> Callable[[Litestar], contextlib.AbstractAsyncContextManager[None]]:
    @contextlib.asynccontextmanager
    async def lifespan(app: Litestar) -> AsyncIterator[None]:
        pool = app.state.resources.pool
        seats = None if tables is None else tables(pool)
        app.state.clubs = ClubService(pool, app.state.accounts, tables=seats)
        try:
            yield
        finally:
            app.state.clubs = None

    return lifespan
