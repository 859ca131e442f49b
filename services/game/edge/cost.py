"""What a REST request costs beyond itself: an import by its inputs, a time-travel read by the
events it folds.

Every request counts one against its caller's rate limit (``services/api/rate_limit.py``), and
a GraphQL operation counts its cost (``services/api/graphql_cost.py``: one request is 400 cost
units, about 2 ms of the API's CPU on the development machine). Two REST routes do work that
grows with a game, so each is charged what it costs, in the same requests:

- ``POST /records`` appends one batch per input (a 762-input record took ~1.1 s of the
  service's CPU in memory, more with the store's appends): ``REQUESTS_PER_INPUT`` requests per
  input. The first ``IMPORT_CHUNK_INPUTS`` inputs are charged before anything is stored (over
  budget: 429, nothing stored); each further chunk is charged before it is entered and, when
  the budget is spent, waits for it (``Charge.pace``): an import is never stopped half-way, it
  goes on at the caller's rate limit, however many inputs it has. And imports take turns:
  ``IMPORTS_AT_ONCE`` replays and enters its inputs in a process at a time, the others wait up
  to ``IMPORT_WAIT_SECONDS`` (then 503, nothing stored), so several callers' imports together
  cost one process no more than one does;
- ``GET /games/{id}/versions/{v}`` folds the game's events up to ``v`` from the nearest snapshot
  (``services/game/application/snapshots.py``: at most ``SNAPSHOT_EVERY`` events once the
  game's snapshots are made, the whole game the first time; ~0.09 ms an event):
  ``READ_REQUESTS`` plus one request per ``FOLD_EVENTS_PER_REQUEST`` events folded, charged
  before anything is read. A count above the whole budget is charged the whole budget (such a
  read passes only on an untouched budget).

The edge does not know the rate limiter (the API sits above it): the controllers get a
``Charge`` from the API (``services/api/app.py``) and the gateway calls it with the cost.
"""

from __future__ import annotations

import math

CPU_MS_PER_REQUEST = 0.8
"""What one request of a budget buys of an API process's CPU, at most, on the expensive routes:
a token's whole default budget (300 a second) is then 240 ms of CPU a second, under a quarter
of a core (docs/benchmarks.md, "health-under-load", has the measurement and the arithmetic)."""
REQUESTS_PER_INPUT = 4
"""An imported input costs the API ~3 ms of CPU (the replay's share, the command's decision,
its append and fold; measured: the bench's ``import_cpu_ms_per_input``): 3 / 0.8 ≈ 4."""
IMPORT_CHUNK_INPUTS = 50
READ_REQUESTS = 9
"""A version read's own work, whatever it folds: the events read and decoded, the snapshot's
copy, the redacted answer. Measured (the bench's ``read_cpu_ms``): ~11 ms a read, of which its
fold of ~50 events ~4 ms, so ~7 ms: 7 / 0.8 ≈ 9."""
FOLD_EVENTS_PER_REQUEST = 10
"""Events folded per request on top (~0.08 ms an event: 10 events ≈ 0.8 ms)."""
IMPORTS_AT_ONCE = 1
"""Imports entering their inputs at the same time in one API process; the others wait."""
IMPORT_WAIT_SECONDS = 10.0
"""How long an import waits for its turn before it is refused (503, ``Retry-After``), nothing
stored: about two long imports' time at a token's budget."""


class Charge:
    """Debits a cost (in requests) from the caller's budget. This one charges nothing: the
    command line, and a gateway called without the API."""

    async def __call__(self, requests: int, what: str) -> None:
        """Charge now, or refuse (the API's 429) when the budget cannot pay."""
        return None

    async def pace(self, requests: int, what: str) -> None:
        """Charge, waiting for the budget to refill when it cannot pay now."""
        return None


FREE = Charge()


def import_requests(inputs: int) -> int:
    return max(1, inputs * REQUESTS_PER_INPUT)


def fold_requests(events: int) -> int:
    return READ_REQUESTS + math.ceil(max(0, events) / FOLD_EVENTS_PER_REQUEST)
