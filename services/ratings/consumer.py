"""The ratings consumer: every finished game rated exactly once, from the event stream.

``ratings_subscription(store)`` is a catch-up ``Subscription`` named ``ratings`` on category
``game``. Its handler runs in the transaction that also moves the checkpoint, and it keeps all
of its state in that transaction's tables: ``GameCreated`` records where a game belongs,
``SeatsDealt`` who sits in which seat, and the game's end (the engine's end event, read as a
neutral ``GameFinish`` by services/game/results/decoder.py) is converted with ``from_finish``,
rated only in the pools its recorded facts allow (``pools.py``, docs/ratings.md "What is rated:
pools": ``PlayerJoined``'s actor says who took a seat themselves, an import's first input's
command id that the game was imported, the league's ``LeagueFounded`` and ``GameScheduled``
whose club and schedule a league game is), applied to each pool's book (only the rows of the
players at that table and the offsets of that ruleset, and of the base ruleset a new module set
starts from, at that table size are read; see ``store.load_book``) and written back with its
history points and the refitted offsets of its ruleset. A crash rolls the rows back with the
checkpoint, and a restart redoes the batch from the same rows: nothing is held in memory between
events, so there is no cache to go stale. ``GameAbandoned`` forgets the game; it never ends, so
it is not rated.

It reads the category ``league`` too, for ``ResultSheetRecorded`` (a card game played on
cardboard, rated from its sheet's neutral result and remembered as not replayable; docs/ratings.md,
"Game types") and for ``GameVoided`` (docs/ratings.md, "Voided games"): a
game its own league voided is never rated (a generation starts knowing every void stored,
``store.create_generation``, and adds each one it meets); a void of a game the generation has
rated already records a rebuild request in the same transaction, and after the commit the
consumer runs it (``run_requested_rebuilds``: a ``rebuild`` under the request's id, so a
restart or a second consumer resumes or finds it done). The projection's companion runs the
requests left by a process that died before it could.

``rebuild(pool)`` recomputes every rating from the first event into a new generation while
the current one keeps answering queries, then swaps it in and moves the ``ratings``
checkpoint in one transaction (the Celery task ``ratings.rebuild`` in ``tasks.py`` runs it).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

import asyncpg
import msgspec

from event_store import (
    PostgresEventStore,
    RecordedEvent,
    Subscription,
    checkpoint_of,
    lock_checkpoint,
    move_checkpoint,
)
from event_store.wakeups import WakeupSource
from services.game.application.codec import GAME_CATEGORY, GAME_MAPPER, game_id_of
from services.game.application.lifecycle import (
    GameAbandoned,
    GameCreated,
    PlayerJoined,
    SeatReplaced,
    SeatsDealt,
    seat_id,
)
from services.game.results import GameFinish, GameResult
from services.game.results.decoder import FINISH_TYPES, decode_game_fact, identity_of
from services.ratings import pools, store
from services.ratings.model import RatingConfig
from services.ratings.outcome import GameOutcome, InvalidOutcome, LeaguePlayerId, from_finish, from_result

log = logging.getLogger(__name__)

SUBSCRIPTION_NAME = "ratings"
"""The live consumer's checkpoint key (and its name in the runtime's projection registry)."""

_HANDLED = (
    frozenset(
        {
            GameCreated.__name__,
            PlayerJoined.__name__,
            SeatsDealt.__name__,
            SeatReplaced.__name__,
            GameAbandoned.__name__,
            store.GAME_VOIDED,
            store.RESULT_SHEET,
            store.LEAGUE_FOUNDED,
            store.GAME_SCHEDULED,
        }
    )
    | FINISH_TYPES
)
CATEGORIES = (GAME_CATEGORY, store.LEAGUE_CATEGORY)
REQUEST_POLL_SECONDS = 5.0
"""How often the companion looks for rebuild requests a dead process left behind."""


class _Void(msgspec.Struct, kw_only=True):
    """The fields of the league's ``GameVoided`` the ratings read."""

    league_id: str
    game_id: str


class _Sheet(msgspec.Struct, kw_only=True):
    """The fields of the league's ``ResultSheetRecorded`` the ratings read: a card game played on
    cardboard, its result in the neutral words every engine reports in."""

    league_id: str
    season_id: str
    game_id: str
    result: GameResult


class _Founded(msgspec.Struct, kw_only=True):
    """The fields of the league's ``LeagueFounded`` the ratings read: the club whose pool the
    league's games move."""

    league_id: str
    club_id: str


class _Scheduled(msgspec.Struct, kw_only=True):
    """The fields of the league's ``GameScheduled`` the ratings read."""

    league_id: str
    game_id: str
    mode: str | None = None
    scorekeeper: str | None = None
    scheduled_by: str | None = None


IMPORTED_INPUT = "/input/0"
"""How an import's first input's command id ends: ``<creation command id>/input/0``
(``GameGateway.import_record``, ``GameService.create_game``'s ``inputs``)."""


# 'ratings' in ASCII + 1: rebuilds take turns on this session lock (the migrator's is 'bang' + 1)
REBUILD_LOCK_KEY = 0x72617469 + 1


def rebuild_checkpoint(generation: int) -> str:
    """The checkpoint key of a rebuild filling ``generation``."""
    return f"{SUBSCRIPTION_NAME}-rebuild-{generation}"


class RatingsProjection:
    """The handler: ``await projection(event, connection)`` inside the subscription's transaction.

    ``generation=None`` follows the current generation (the live consumer), creating the first
    one with ``config`` on an empty database; a number fills that generation (a rebuild).
    """

    def __init__(self, generation: int | None = None, config: RatingConfig | None = None) -> None:
        self.generation = generation
        self.config = config or RatingConfig()

    async def _target(self, connection: asyncpg.Connection) -> store.Generation:
        if self.generation is not None:
            found = await store.generation(connection, self.generation)
            if found is None:
                raise LookupError(f"ratings generation {self.generation} is gone (reset meanwhile?)")
            return found
        # the subscription holds its checkpoint row FOR UPDATE, and a rebuild's swap takes the
        # same row, so no swap can happen between this read and the writes that follow
        current = await store.current_generation(connection)
        if current is None:
            current = await store.create_generation(connection, store.GenerationStatus.CURRENT, self.config)
        return current

    async def __call__(self, event: RecordedEvent, connection: asyncpg.Connection) -> None:
        command_id = event.metadata.command_id or ""
        imported_input = event.category == GAME_CATEGORY and command_id.endswith(IMPORTED_INPUT)
        if event.type not in _HANDLED and not imported_input:
            return
        target = await self._target(connection)
        if event.position <= target.position:
            # applied already: the checkpoint went back (a restored backup, a manual reset of
            # the checkpoint alone) but the rows did not; applying again would count twice
            return
        if event.category == store.LEAGUE_CATEGORY:
            games = target.games
            if event.type == store.GAME_VOIDED:
                await _void(connection, target, msgspec.convert(event.data, _Void), event)
            elif event.type == store.RESULT_SHEET:
                sheet = msgspec.convert(event.data, _Sheet)
                games = await _rate_sheet(connection, target, sheet, ended_at=event.recorded_at)
            elif event.type == store.LEAGUE_FOUNDED:
                founded = msgspec.convert(event.data, _Founded)
                await store.remember_league(connection, target.generation, founded.league_id, founded.club_id)
            elif event.type == store.GAME_SCHEDULED:
                scheduled = msgspec.convert(event.data, _Scheduled)
                await store.remember_scheduled(
                    connection,
                    target.generation,
                    scheduled.league_id,
                    scheduled.game_id,
                    mode=scheduled.mode,
                    scorekeeper=scheduled.scorekeeper,
                    scheduled_by=scheduled.scheduled_by,
                )
            await store.advance(connection, target.generation, event.position, games)
            return
        game_id = game_id_of(event.stream)
        number = target.generation
        games = target.games
        if await store.known_from_sheet(connection, number, game_id):
            # the sheet stands, as in the standings: a stream under its id (created in the
            # moment between the league's check and its reservation's mark) is not read, or
            # it would rate the game twice and turn it replayable
            log.warning("game %s: %s skipped, the game is known from its result sheet", game_id, event.type)
            await store.advance(connection, number, event.position, games)
            return
        if imported_input:
            # an import's first input: its game was imported from a record, never rated
            await store.mark_imported_if_created_by(
                connection, number, game_id, command_id.removesuffix(IMPORTED_INPUT)
            )
            if event.type not in _HANDLED:
                await store.advance(connection, number, event.position, games)
                return
        if event.type == SeatReplaced.__name__:
            replaced = GAME_MAPPER.to_domain(event)
            assert isinstance(replaced, SeatReplaced)
            await _replace_seat(connection, number, game_id, replaced)
            await store.advance(connection, number, event.position, games)
            return
        domain = decode_game_fact(event)
        if isinstance(domain, GameCreated):
            game_type, ruleset = identity_of(domain)
            await store.remember_game(
                connection,
                number,
                game_id,
                domain.context.league_id,
                domain.context.season_id,
                game_type=game_type,
                ruleset=ruleset,
                mode=domain.mode.value,
                created_by=domain.created_by,
                created_command=event.metadata.command_id,
            )
        elif isinstance(domain, PlayerJoined):
            if event.metadata.actor == f"player:{domain.member_id}":
                # the member's own account took the seat (``GameService.join``): an organiser's
                # seating (a table, a lobby filled at creation, a bot round) records its own actor
                await store.remember_joined_by_self(connection, number, game_id, domain.member_id)
        elif isinstance(domain, SeatsDealt):
            await store.remember_seats(connection, number, game_id, domain.members)
        elif isinstance(domain, GameAbandoned):
            await store.forget_game(connection, number, game_id)
        elif isinstance(domain, GameFinish):
            games = await _rate(connection, target, game_id, domain, ended_at=event.recorded_at)
        await store.advance(connection, number, event.position, games)


async def _void(
    connection: asyncpg.Connection, target: store.Generation, void: _Void, event: RecordedEvent
) -> None:
    """Keep the game out of ``target``; if it is in already, ask for a rebuild without it."""
    await store.void_game(connection, target.generation, void.league_id, void.game_id)
    if await store.rated_in(connection, target.generation, void.game_id, void.league_id):
        # one request per void and generation: the rebuild's own generation starts with this
        # void, so it does not rate the game and never asks again
        request = f"void:{event.event_id}:{target.generation}"
        log.info("game %s was voided after it was rated: ratings rebuild %s requested", void.game_id, request)
        reason = f"game {void.game_id} voided by league {void.league_id}"
        await store.request_rebuild(connection, request, reason)


BOT_SEAT = ""
"""A seat a bot plays, among a game's remembered members: nobody to rate."""


async def _replace_seat(
    connection: asyncpg.Connection, number: int, game_id: str, replaced: SeatReplaced
) -> None:
    """The seat's result goes to whoever holds it at the end (docs/ratings.md, "A replaced
    seat"): the substitute from now on, or nobody for a bot."""
    members = await store.seats_of(connection, number, game_id)
    if members is None:
        return  # no deal seen (a game this generation does not rate)
    index = int(replaced.player.removeprefix("p")) - 1
    if 0 <= index < len(members):
        members[index] = BOT_SEAT if replaced.member_id is None else replaced.member_id
        await store.remember_seats(connection, number, game_id, members)


async def _rate(
    connection: asyncpg.Connection,
    target: store.Generation,
    game_id: str,
    finish: GameFinish,
    *,
    ended_at: datetime | None = None,
) -> int:
    """Rate one finished game into ``target``; returns the book's game count afterwards.
    ``ended_at`` is when its end was recorded (the event's time, the same in every rebuild)."""
    if await store.voided(connection, target.generation, game_id):
        await store.mark_unrated(connection, target.generation, game_id, "voided by its league")
        return target.games
    members = await store.seats_of(connection, target.generation, game_id)
    try:
        if members is None:
            raise InvalidOutcome("no SeatsDealt before GameEnded: nobody to rate")
        if BOT_SEAT in members:
            bot = seat_id(members.index(BOT_SEAT))
            raise InvalidOutcome(
                f"a bot played seat {bot} at the end: a game a bot finished is rated for nobody"
            )
        seats: dict[str, LeaguePlayerId] = {seat_id(i): LeaguePlayerId(m) for i, m in enumerate(members)}
        game_type, ruleset = await store.rules_of(connection, target.generation, game_id)
        outcome = from_finish(finish, seats, game_id, game_type=game_type, ruleset=ruleset)
    except InvalidOutcome as error:
        # a poison game must not stop every later game from being rated; it is recorded with
        # its reason, and a rebuild decides the same way, so the ratings stay reproducible
        log.warning("game %s is not rated: %s", game_id, error)
        await store.mark_unrated(connection, target.generation, game_id, str(error))
        return target.games
    facts = await store.game_facts(connection, target.generation, game_id)
    decision = pools.decide(facts) if facts is not None else pools.Decision((), "its creation was not seen")
    if not decision.pools:
        # an imported record, a friendly table game, a seat another account played: its
        # result could be made up by one person, so it moves no rating in any pool
        log.info("game %s is not rated: %s", game_id, decision.reason)
        await store.mark_unrated(connection, target.generation, game_id, decision.reason)
        return target.games
    return await _apply(connection, target, outcome, decision.pools, ended_at=ended_at)


async def _rate_sheet(
    connection: asyncpg.Connection, target: store.Generation, sheet: _Sheet, *, ended_at: datetime | None
) -> int:
    """Rate a game known from its league's result sheet, as a finished game and marked not
    replayable. A game the ratings know from its own stream keeps that (the league refuses a
    sheet for a game on the server, and the server a game once its sheet is in)."""
    if await store.known_game(connection, target.generation, sheet.game_id):
        log.warning("result sheet of game %s skipped: the game is known from its own stream", sheet.game_id)
        return target.games
    result = sheet.result
    await store.remember_game(
        connection,
        target.generation,
        sheet.game_id,
        sheet.league_id,
        sheet.season_id,
        game_type=result.game_type,
        ruleset=result.ruleset,
        replayable=False,
    )
    if await store.voided(connection, target.generation, sheet.game_id):
        await store.mark_unrated(connection, target.generation, sheet.game_id, "voided by its league")
        return target.games
    try:
        outcome = from_result(result)
    except InvalidOutcome as error:
        log.warning("result sheet of game %s is not rated: %s", sheet.game_id, error)
        await store.mark_unrated(connection, target.generation, sheet.game_id, str(error))
        return target.games
    club = await store.club_of_league(connection, target.generation, sheet.league_id)
    decision = pools.decide_sheet(club, sheet.league_id)
    if not decision.pools:
        log.warning("result sheet of game %s is not rated: %s", sheet.game_id, decision.reason)
        await store.mark_unrated(connection, target.generation, sheet.game_id, decision.reason)
        return target.games
    return await _apply(connection, target, outcome, decision.pools, ended_at=ended_at)


async def _apply(
    connection: asyncpg.Connection,
    target: store.Generation,
    outcome: GameOutcome,
    in_pools: Sequence[str],
    *,
    ended_at: datetime | None,
) -> int:
    """Rate ``outcome`` in each of ``in_pools`` (each its own book), under one game number."""
    games = target.games
    for pool in in_pools:
        # a ruleset never rated before has no offset rows: its cells start from the base game's
        # (OffsetTable), so loading its own rows and the base ruleset's is all it takes; the
        # players' rows are those of the game's type, so a card game never moves a dice rating
        book = await store.load_book(
            connection,
            target,
            [s.player for s in outcome.seats],
            table_size=outcome.players,
            ruleset=outcome.ruleset,
            pool=pool,
        )
        changes = book.apply(outcome)
        await store.write_game(
            connection, target.generation, book, outcome, changes, ended_at=ended_at, pool=pool
        )
        games = book.games
    await store.set_pools(connection, target.generation, outcome.game_id, in_pools)
    return games


def ratings_subscription(
    event_store: PostgresEventStore,
    *,
    config: RatingConfig | None = None,
    wakeups: WakeupSource | None = None,
    batch_size: int = 256,
    poll_interval: float = 1.0,
) -> Subscription:
    """The live consumer. ``config`` only seeds the first generation of an empty database;
    afterwards the current generation's stored config rules (a rebuild changes it). After each
    committed batch it runs the rebuilds a void asked for (``run_requested_rebuilds``)."""

    async def after_commit(_events: Sequence[RecordedEvent]) -> None:
        try:
            await run_requested_rebuilds(event_store.pool)
        except Exception:
            # the request stays pending: the next batch or the companion runs it again
            log.exception("a requested ratings rebuild failed; it will be retried")

    return Subscription(
        event_store,
        SUBSCRIPTION_NAME,
        RatingsProjection(config=config),
        categories=CATEGORIES,
        batch_size=batch_size,
        wakeups=wakeups,
        poll_interval=poll_interval,
        after_commit=after_commit,
    )


async def run_requested_rebuilds(pool: asyncpg.Pool) -> list[RebuildReport]:
    """Run every pending rebuild request (a void of a rated game), oldest first, each as a
    ``rebuild`` under the request's id with the current generation's config; then mark it done.
    Safe to run in several processes at once and after a crash: rebuilds take turns on a lock,
    and a second run of the same id finds the generation done (or resumes it)."""
    reports = []
    for request in await store.pending_rebuilds(pool):
        current = await store.current_generation(pool)
        report = await rebuild(pool, config=None if current is None else current.config, rebuild_id=request)
        await store.rebuild_done(pool, request)
        log.info("ratings rebuild %s done: generation %d, %d games", request, report.generation, report.games)
        reports.append(report)
    return reports


async def follow_rebuild_requests(pool: asyncpg.Pool, stop: asyncio.Event) -> None:
    """Run pending rebuild requests every ``REQUEST_POLL_SECONDS`` until ``stop`` (the ratings
    projection's companion: the requests of a process that died before running them)."""
    while not stop.is_set():
        try:
            await run_requested_rebuilds(pool)
        except (OSError, asyncpg.PostgresError) as error:
            log.warning("ratings rebuild requests: %s; retrying", error)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), REQUEST_POLL_SECONDS)


# --- rebuild -----------------------------------------------------------------------------------


class RebuildReport(msgspec.Struct, frozen=True, kw_only=True):
    rebuild_id: str
    generation: int
    games: int
    """Games rated in the new generation."""
    position: int
    """The ``ratings`` checkpoint after the swap."""
    replaced: int | None
    """The generation it replaced (None: there was none, or the work was done already)."""
    already_done: bool = False
    """A second delivery: this rebuild had swapped its generation in before."""


@dataclass(frozen=True, slots=True)
class _Attempt:
    generation: store.Generation
    resumed: bool


async def _start(pool: asyncpg.Pool, config: RatingConfig, rebuild_id: str) -> _Attempt | store.Generation:
    """This rebuild's generation: a finished one (returned as is), the unfinished one of an
    earlier delivery (resumed from its checkpoint), or a new one."""
    async with pool.acquire() as connection, connection.transaction():
        mine = await store.generation_of_rebuild(connection, rebuild_id)
        if mine is not None and mine.status != store.GenerationStatus.BUILDING:
            return mine
        # unfinished generations of other rebuilds will never be finished (we hold the lock
        # rebuilds take turns on, so their process is gone): drop them and their checkpoints
        abandoned = [
            row["generation"]
            for row in await connection.fetch(
                "SELECT generation FROM ratings_generations "
                "WHERE status = 'building' AND rebuild_id IS DISTINCT FROM $1",
                rebuild_id,
            )
        ]
        if abandoned:
            await connection.execute(
                "DELETE FROM ratings_generations WHERE generation = ANY($1::integer[])", abandoned
            )
            await connection.execute(
                "DELETE FROM checkpoints WHERE name = ANY($1::text[])",
                [rebuild_checkpoint(g) for g in abandoned],
            )
        if mine is not None:
            return _Attempt(mine, resumed=True)
        created = await store.create_generation(
            connection, store.GenerationStatus.BUILDING, config, rebuild_id
        )
        return _Attempt(created, resumed=False)


async def _swap(
    event_store: PostgresEventStore, number: int, batch_size: int, categories: Sequence[str]
) -> tuple[int, int | None]:
    """Catch the new generation up to the head and swap it in, with the checkpoint, in one
    transaction; returns the checkpoint position and the generation replaced."""
    handler = RatingsProjection(generation=number)
    async with event_store.pool.acquire() as connection, connection.transaction():
        # the live consumer's checkpoint row, FOR UPDATE: a live batch in flight finishes
        # first, and the next one waits for this swap, then reads the moved checkpoint
        await lock_checkpoint(connection, SUBSCRIPTION_NAME)
        position = await lock_checkpoint(connection, rebuild_checkpoint(number))
        while events := await event_store.fetch_all_after(connection, position, batch_size, categories):
            for event in events:
                await handler(event, connection)
            position = events[-1].position
        replaced = await store.current_generation(connection)
        await store.make_current(connection, number)
        await move_checkpoint(connection, SUBSCRIPTION_NAME, position)
        await connection.execute("DELETE FROM checkpoints WHERE name = $1", rebuild_checkpoint(number))
    return position, None if replaced is None else replaced.generation


async def rebuild(
    pool: asyncpg.Pool,
    *,
    config: RatingConfig | None = None,
    rebuild_id: str | None = None,
    batch_size: int = 512,
) -> RebuildReport:
    """Recompute every rating from the first event into a fresh generation and swap it in.

    Queries keep reading the current generation until the swap. Safe to run twice: the same
    ``rebuild_id`` finds its work done (or resumes it after a crash); another id redoes it
    into a new generation with the same rows. Rebuilds take turns on a session lock.
    """
    config = store.storage_config(config or RatingConfig())
    rebuild_id = rebuild_id or str(uuid.uuid4())
    event_store = PostgresEventStore(pool, mapper=GAME_MAPPER)
    async with pool.acquire() as lock:
        await lock.execute("SELECT pg_advisory_lock($1)", REBUILD_LOCK_KEY)
        try:
            started = await _start(pool, config, rebuild_id)
            if isinstance(started, store.Generation):
                return RebuildReport(
                    rebuild_id=rebuild_id,
                    generation=started.generation,
                    games=started.games,
                    position=await checkpoint_of(lock, SUBSCRIPTION_NAME),
                    replaced=None,
                    already_done=True,
                )
            number = started.generation.generation
            log.info(
                "ratings rebuild %s: %s generation %d",
                rebuild_id,
                "resuming" if started.resumed else "filling",
                number,
            )
            # the bulk of the work, in batches that each commit rows and progress together, so a
            # crash here loses at most one batch; the current generation keeps answering
            bulk = Subscription(
                event_store,
                rebuild_checkpoint(number),
                RatingsProjection(generation=number),
                categories=CATEGORIES,
                batch_size=batch_size,
            )
            await bulk.run_until_idle()
            position, replaced = await _swap(event_store, number, batch_size, CATEGORIES)
            async with lock.transaction():
                retired = [
                    row["generation"]
                    for row in await lock.fetch(
                        "SELECT generation FROM ratings_generations WHERE status = 'retired'"
                    )
                ]
                # after the swap, in a transaction of its own: the swap stays short, and a
                # query that started before it still reads the old rows from its snapshot
                await store.drop_rows(lock, retired)
            done = await store.generation(lock, number)
            assert done is not None
            return RebuildReport(
                rebuild_id=rebuild_id,
                generation=number,
                games=done.games,
                position=position,
                replaced=replaced,
            )
        finally:
            await lock.execute("SELECT pg_advisory_unlock($1)", REBUILD_LOCK_KEY)
