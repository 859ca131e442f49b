"""Decision deadlines: the projection that knows when each game's decision falls due, and the
sweeper that plays the documented default once it has (see docs/game-service.md, "Timeouts").

**The projection** ``game-deadlines`` is a catch-up ``Subscription`` on category ``game``.
Its read model, ``game_deadlines``, has one row per ongoing game that set
``decision_timeout_seconds``: the limit, the version and ``recorded_at`` of the game's latest
event, the decision the engine awaits (NULL while it awaits dice: dice never time out) and
``due_at`` = latest event + limit. The row appears with ``GameStarted``, follows every event
and goes with ``GameEnded`` or ``GameAbandoned``. A seat a bot took over (``SeatReplaced``) is
due at once, whatever the limit (a game with no limit gets a row then): the sweeper's
``apply_timeout`` has the bot answer. It is written in the transaction that moves
the checkpoint, so every event is applied exactly once, and replaying from position 0 gives
the same table (every column comes from the events).

Knowing what the engine awaits takes the fold of the game, not one event. The handler keeps
the folds of recent games in memory (an LRU): the fold of events 1..v of a stream never
changes, so a cached fold is never stale - if it is not exactly one event behind (a batch
rolled back and is handled again, another copy of the consumer handled the previous batch, a
restart), the stream is read up to the event and folded afresh.

**The sweeper** runs beside the subscription in every consumer process
(``ProjectionSpec.companion``). Every ``interval`` it takes the time once - the database's
clock by default, because ``recorded_at`` is the database's clock too - and plays
``GameService.apply_timeout`` for each game whose ``due_at`` has passed.

**Exactly once with any number of sweepers.** The guarantee is the game service's, not the
sweeper's: ``apply_timeout`` decides on version v of the stream and appends at expected
version v with event ids derived from the command id ``timeout/<game>/<v>``. So at most one
default is ever stored per decision: a sweeper that raced another either gets a version
conflict (None) or finds its identical batch stored already (an outcome marked duplicate),
and either way writes nothing; one that loads after the other's append sees a fresh
``last_event_at`` and finds nothing overdue. A lagging read model can therefore cost a wasted
read, never a second default. On top of that, sweepers *share* the work instead of racing
for it: each due game is claimed with ``SELECT … FOR UPDATE SKIP LOCKED`` in a short
transaction of its own that lasts only while its default is played, so a second sweeper skips
it and moves on to the next due game. (The projection updating a claimed row waits for that
transaction; the sweeper's append never waits for the projection, so they cannot deadlock.)
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

import asyncpg

from event_store import PostgresEventStore, RecordedEvent, StoreUnavailable, Subscription
from event_store.postgres_store import CONNECTION_ERRORS
from event_store.wakeups import WakeupSource
from services.game import schema
from services.game.application.codec import GAME_CATEGORY, game_id_of, game_stream
from services.game.application.lifecycle import DecisionTimedOut, GameAbandoned, GameMode, SeatReplaced
from services.game.application.service import GameService, PlayOutcome
from services.game.application.session import GameSession, GameStatus
from services.game.engines import ENDING_TYPES, OPENING_TYPES

log = logging.getLogger(__name__)

PROJECTION_NAME = "game-deadlines"
"""The checkpoint key, and the name in the runtime's projection registry."""

SWEEP_INTERVAL_SECONDS = 0.5
"""How often the sweeper looks for due games: a default lands at most this late (plus the
projection's own lag, milliseconds with wake-ups)."""

_FINISHED = ENDING_TYPES | {GameAbandoned.__name__}

Clock = Callable[[], datetime]


# --- the projection ----------------------------------------------------------------------------


async def prepare_database(pool: asyncpg.Pool) -> None:
    """The table comes with the game service's migrations (``migrations/0003_game_deadlines.sql``)."""
    await schema.prepare_database(pool)


async def reset(connection: asyncpg.Connection) -> None:
    """Empty the read model (a rebuild runs this with the checkpoint's deletion)."""
    await connection.execute("DELETE FROM game_deadlines")


class DeadlineProjection:
    """The handler: ``await projection(event, connection)`` inside the subscription's transaction."""

    def __init__(self, store: PostgresEventStore, *, cache_size: int = 1_000) -> None:
        self.store = store
        self._folds: OrderedDict[str, GameSession] = OrderedDict()
        self._cache_size = cache_size

    async def __call__(self, event: RecordedEvent, tx: asyncpg.Connection) -> None:
        game_id = game_id_of(event.stream)
        if event.type in _FINISHED:
            await tx.execute("DELETE FROM game_deadlines WHERE game_id = $1", game_id)
            self._folds.pop(game_id, None)
            return
        known = await tx.fetchval("SELECT version FROM game_deadlines WHERE game_id = $1", game_id)
        if known is None and event.type not in OPENING_TYPES and event.type != SeatReplaced.__name__:
            return  # a game without a limit, still in its lobby, or over: nothing falls due
        if known is not None and event.version <= known:
            # applied already: the checkpoint went back (a restored backup) but the row did not
            return
        session = await self._fold(game_id, event)
        options = session.created.options
        windows = session.mode is GameMode.ONLINE and session.engine.table_questions
        limit = options.decision_timeout_seconds
        if (limit is None or limit < 1) and not windows and not session.bot_seats:
            # Only GameStarted (or a seat a member took over) gets here: asked again when a
            # bot takes over a seat. (The service refuses limits below
            # one second; an imported stream could still carry one, and must not stop the
            # projection for every other game.)
            self._folds.pop(game_id, None)
            return
        if session.status is not GameStatus.ONGOING or session.game is None:
            await tx.execute("DELETE FROM game_deadlines WHERE game_id = $1", game_id)
            return
        # Between the events of one append the engine is between automatic steps and asks
        # nothing; the append's last event says what it awaits (they all share recorded_at).
        question = session.engine.question(session.game)
        decision = None if question is None or question.random else question
        # a question open to the table falls due after the game's uniform pause (online), any
        # other after the decision time limit, if the game has one
        due = None if decision is None else options.limit_for(decision.table and windows)
        if due is not None and due < 1:
            due = None
        if decision is not None and not decision.table and decision.player in session.bot_seats:
            due = 0  # a bot plays the seat: its answer is due at once
        if due is None:
            decision = None
        await tx.execute(
            """
            INSERT INTO game_deadlines (game_id, timeout_seconds, version, latest_event_at,
                                        awaiting_player, awaiting_decision, due_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7)
            ON CONFLICT (game_id) DO UPDATE
               SET timeout_seconds = EXCLUDED.timeout_seconds, version = EXCLUDED.version,
                   latest_event_at = EXCLUDED.latest_event_at,
                   awaiting_player = EXCLUDED.awaiting_player,
                   awaiting_decision = EXCLUDED.awaiting_decision, due_at = EXCLUDED.due_at
            """,
            game_id,
            due or options.limit_for(windows) or limit or 1,  # the column wants a positive limit
            event.version,
            event.recorded_at,
            None if decision is None else decision.player,
            None if decision is None else decision.decision,
            None if due is None else event.recorded_at + timedelta(seconds=due),
        )

    async def _fold(self, game_id: str, event: RecordedEvent) -> GameSession:
        """The game as of ``event`` (its stream's events 1..event.version)."""
        session = self._folds.get(game_id)
        if session is not None and session.version == event.version - 1:
            session.apply_recorded(event)
        elif session is None or session.version != event.version:
            # committed events only: the subscription reads in commit order, so 1..v are stored
            recorded = await self.store.read_stream(game_stream(game_id), limit=event.version)
            session = GameSession.from_recorded(game_id, recorded)
        self._folds[game_id] = session
        self._folds.move_to_end(game_id)
        while len(self._folds) > self._cache_size:
            self._folds.popitem(last=False)
        return session


def deadlines_subscription(
    store: PostgresEventStore,
    *,
    wakeups: WakeupSource | None = None,
    batch_size: int = 256,
    poll_interval: float = 1.0,
) -> Subscription:
    return Subscription(
        store,
        PROJECTION_NAME,
        DeadlineProjection(store),
        categories=[GAME_CATEGORY],
        batch_size=batch_size,
        wakeups=wakeups,
        poll_interval=poll_interval,
    )


# --- the sweeper -------------------------------------------------------------------------------

# The next due game nobody else is playing a default for. The sweep's own earlier picks are
# excluded so that a game whose default did not apply (the read model lags behind a move) is
# not picked again and again within one sweep; the next sweep looks at it afresh.
_CLAIM = """
SELECT game_id, version FROM game_deadlines
 WHERE due_at <= $1 AND NOT (game_id = ANY ($2::text[]))
 ORDER BY due_at
 LIMIT 1
 FOR UPDATE SKIP LOCKED
"""


@dataclass(slots=True)
class SweepReport:
    applied: list[PlayOutcome] = field(default_factory=list)
    """Defaults this sweep stored."""
    skipped: int = 0
    """Due in the read model, but not on the stream (somebody acted, another sweeper played it)."""
    failed: int = 0


class Sweeper:
    """Plays the default of every overdue decision, every ``interval`` seconds.

    ``clock`` (tests) replaces the database's clock; ``limit`` caps the games one sweep plays,
    so that a backlog is worked off in slices and a stop request is heard in between."""

    def __init__(
        self,
        pool: asyncpg.Pool,
        service: GameService,
        *,
        clock: Clock | None = None,
        interval: float = SWEEP_INTERVAL_SECONDS,
        limit: int = 200,
    ) -> None:
        self.pool = pool
        self.service = service
        self.clock = clock
        self.interval = interval
        self.limit = limit

    async def sweep(self) -> SweepReport:
        report = SweepReport()
        tried: list[str] = []
        async with self.pool.acquire() as connection:
            now = self.clock() if self.clock else await connection.fetchval("SELECT clock_timestamp()")
            while len(tried) < self.limit:
                async with connection.transaction():
                    row = await connection.fetchrow(_CLAIM, now, tried)
                    if row is None:
                        break
                    game_id: str = row["game_id"]
                    tried.append(game_id)
                    # the row stays locked until the default is stored (or found unneeded)
                    await self._play_default(game_id, now, report)
        return report

    async def _play_default(self, game_id: str, now: datetime, report: SweepReport) -> None:
        try:
            outcome = await self.service.apply_timeout(game_id, now)
        except (StoreUnavailable, *CONNECTION_ERRORS):
            raise  # the database is gone: end this sweep, the loop waits it out
        except Exception:
            # One broken game must not keep every other game's defaults from being played;
            # it is logged with its id and looked at again by the next sweep.
            log.exception("could not play the default decision of game %s", game_id)
            report.failed += 1
            return
        if outcome is None or outcome.duplicate:
            report.skipped += 1
            return
        # The service folds its own append into its cached session with this host's clock,
        # not the stored recorded_at the read model's due_at comes from; deciding the next
        # deadline on that would see it a little late (a whole sweep late, or the clock skew
        # between this host and the database). Reading the stream again next time is exact.
        self.service.forget(game_id)
        timed_out = outcome.events[0]
        if isinstance(timed_out, DecisionTimedOut):
            log.info("decision timed out in game %s at version %d: %s", game_id, outcome.version, timed_out)
        else:
            # a bot's move for a seat it took over: its events may show what only that seat sees
            # (a card drawn into the hand), so the line names the game and version alone
            log.info("a bot played a replaced seat in game %s, now at version %d", game_id, outcome.version)
        report.applied.append(outcome)

    async def run(self, stop: asyncio.Event) -> None:
        """Sweep until ``stop`` is set; a lost database connection is waited out."""
        while not stop.is_set():
            try:
                await self.sweep()
            except (StoreUnavailable, asyncpg.PostgresError, *CONNECTION_ERRORS) as error:
                log.warning("deadline sweep failed (%s); retrying in %.1fs", error, self.interval)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), self.interval)
