"""What a REST request costs beyond itself: an import by its inputs, a time-travel read by the
events it folds.

Every request counts one against its caller's rate limit (``services/api/rate_limit.py``), and
a GraphQL operation counts its cost (``services/api/graphql_cost.py``). Two REST routes do work
that grows with a game: ``POST /records`` appends one batch per input (a 2,000-input record
is 2,000 commands' work), and ``GET /games/{id}/versions/{v}`` folds the game's events up to
``v`` (from the nearest snapshot, ``services/game/application/snapshots.py``: at most
``SNAPSHOT_EVERY`` events once the game's snapshots are made, the whole game the first time).
So each is charged what it costs, in requests, before the work is done:

- an import: one request per input (``IMPORT_INPUTS_PER_REQUEST``), what entering its inputs
  one by one would cost;
- a version read: one request per ``FOLD_EVENTS_PER_REQUEST`` events folded (~1 ms of CPU on
  the development machine, as one request or 400 GraphQL cost units are), at least one.

The edge does not know the rate limiter (the API sits above it): the controllers get a
``Charge`` from the API (``services/api/app.py``) and the gateway calls it with the cost.
"""

from __future__ import annotations

import math

IMPORT_INPUTS_PER_REQUEST = 1
FOLD_EVENTS_PER_REQUEST = 50


class Charge:
    """Debits a cost (in requests) from the caller's budget, or raises the API's 429. This one
    charges nothing: the command line, and a gateway called without the API."""

    async def __call__(self, requests: int, what: str) -> None:
        return None


FREE = Charge()


def import_requests(inputs: int) -> int:
    return max(1, math.ceil(inputs / IMPORT_INPUTS_PER_REQUEST))


def fold_requests(events: int) -> int:
    return max(1, math.ceil(events / FOLD_EVENTS_PER_REQUEST))
