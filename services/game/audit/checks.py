"""Audit a disputed game by replay: ``await audit_game(store, game_id) -> AuditReport``.

The checks, in order (``docs/audit.md``):

1. **chain** — the stream's hash chain (``verify_stream``): an edited or deleted row is named;
2. **seed commitment**, 3. **deal**, 4. **rolls** — online games: the revealed seed against the
   commitment of ``GameCreated``, then the deal and every roll's faces re-derived from it;
5. **rules replay** — every input (dice faces, decisions) played through the engine from
   ``GameStarted``; each event it produces compared with the stored one;
6. **result** — the end of the game as the rules give it, and nothing stored after it.

Every check runs even after an earlier one failed (a broken chain does not stop the replay
from saying what the edit changed); the verdict names the first problem in this order.
Everything but reading the stream is pure: ``audit_events`` takes the decoded events and the
chain's report, so the comparison is tested without a database.

Hidden information: an audit may run on a game in progress and its text must only say what
any viewer may see. ``referee_words`` never names a role; roles appear only where the rules
have made them public (an eliminated player's, every role once the game has ended).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from cachetools import TTLCache

from event_store import ChainBreak, ChainProblem, PostgresEventStore, VerificationReport
from services.game.application.codec import GAME_MAPPER, game_stream, is_valid_game_id
from services.game.application.errors import GameNotFound
from services.game.application.lifecycle import GameAbandoned
from services.game.audit.corrections import Correction, check_corrections, taken_back_words
from services.game.audit.replay import Replay, replay_events
from services.game.audit.report import (
    CHAIN,
    CHECK_ORDER,
    COMMITMENT,
    DEAL,
    NOT_CHECKED,
    REPLAY,
    RESULT,
    ROLLS,
    AuditCheck,
    AuditReport,
    failed,
    passed,
)
from services.game.audit.seats import check_replacements
from services.game.audit.seed import SeedChecks, check_seed
from services.game.audit.stream import GameStream, StoredEvent, decode_stream, parse_stream
from services.game.audit.words import referee_words, win_words
from services.game.engines import engine_for
from services.game.results import GameFinish
from services.game.rules.ruleset import BASE_DICE, GameType

__all__ = [
    "CHAIN",
    "CHECK_ORDER",
    "COMMITMENT",
    "DEAL",
    "REPLAY",
    "RESULT",
    "ROLLS",
    "AuditCache",
    "AuditCheck",
    "AuditReport",
    "audit_events",
    "audit_game",
    "check_chain",
    "explain_chain_problem",
]


async def audit_game(store: PostgresEventStore, game_id: str) -> AuditReport:
    """Audit one game from the store. Raises ``GameNotFound`` if it has no stream."""
    if not is_valid_game_id(game_id):
        raise GameNotFound(game_id)
    stream = game_stream(game_id)
    recorded = await store.read_stream(stream)
    if not recorded:
        raise GameNotFound(game_id)
    chain = await store.verify_stream(stream)
    return audit_events(game_id, decode_stream(recorded, GAME_MAPPER), chain)


AUDIT_CACHE_SIZE = 512
"""Reports kept per process (a report is a few hundred bytes; the replay behind it ~15 ms)."""
AUDIT_CACHE_SECONDS = 300.0
"""How long a report is answered again without a replay."""


class AuditCache:
    """The API's audits: one replay per (game, last version), its report answered again until
    the game moves on. Callers asking at once for the same game wait for the same replay.

    A stream only grows through appends, so a game whose last version is unchanged holds the
    same events, unless someone edited rows behind the store's back: finding that is what an
    audit is for, so a report is kept at most ``ttl`` seconds (and ``bang-league audit`` /
    ``audit-all`` never use this cache)."""

    def __init__(
        self, store: PostgresEventStore, *, size: int = AUDIT_CACHE_SIZE, ttl: float = AUDIT_CACHE_SECONDS
    ) -> None:
        self.store = store
        self._reports: TTLCache[tuple[str, int], asyncio.Task[AuditReport]] = TTLCache(size, ttl)
        self.replays = 0
        """How many audits replayed a game (the others were answered from the cache)."""

    async def audit(self, game_id: str) -> AuditReport:
        if not is_valid_game_id(game_id):
            raise GameNotFound(game_id)
        version = await self.store.stream_version(game_stream(game_id))
        if version == 0:
            raise GameNotFound(game_id)
        key = (game_id, version)
        replay = self._reports.get(key)
        if replay is None:
            replay = asyncio.ensure_future(self._replay(game_id))
            self._reports[key] = replay
        try:
            # shielded: one caller going away must not cancel the replay the others await
            return await asyncio.shield(replay)
        except BaseException:
            failed = replay.done() and (replay.cancelled() or replay.exception() is not None)
            if failed and self._reports.get(key) is replay:
                del self._reports[key]  # a failure (the store was unavailable) is not kept
            raise

    async def _replay(self, game_id: str) -> AuditReport:
        self.replays += 1
        return await audit_game(self.store, game_id)


def audit_events(game_id: str, events: Sequence[StoredEvent], chain: VerificationReport) -> AuditReport:
    """The whole audit of a game's decoded events, given its chain's verification."""
    stream = parse_stream(events)
    seed = check_seed(stream)
    ruleset = BASE_DICE if stream.created is None else stream.created.ruleset
    replay = replay_events(stream.engine, ruleset)
    corrected = check_corrections(stream.corrections, ruleset)
    replaced, replacements = check_replacements(stream)
    checks = [
        check_chain(chain),
        seed.commitment,
        seed.deal,
        seed.rolls,
        _replay_check(replay, stream.corrections, corrected or replaced, replacements),
        check_result(stream, replay),
    ]
    problems = [c.detail for c in checks if not c.passed]
    first = problems[0] if problems else None
    fairness = None if stream.created is None else stream.created.derivations
    return AuditReport(
        game_id=game_id,
        clean=first is None,
        verdict=_verdict(stream, seed, problems),
        first_divergence=first,
        checks=checks,
        events_checked=len(events),
        rolls_checked=seed.rolls_checked,
        ruleset=BASE_DICE.text if stream.created is None else stream.created.ruleset.text,
        derivations=None if fairness is None else fairness.text,
    )


# --- 1. the chain -------------------------------------------------------------------------------


def check_chain(report: VerificationReport) -> AuditCheck:
    problem = report.first_problem
    if problem is None:
        return passed(CHAIN, f"the hash chain of all {report.events_checked} events is intact")
    return failed(CHAIN, explain_chain_problem(problem))


def explain_chain_problem(problem: ChainProblem) -> str:
    """The store's finding (its ``kind``) in a referee's words, numbered like every other
    finding; a kind the audit has no words for is passed on in the store's own message."""
    version, last = problem.version, problem.last_missing
    match problem.kind:
        case ChainBreak.MISSING if version is not None:
            if last is None or last == version:
                return f"event {version} is missing"
            return f"events {version} to {last} are missing"
        case ChainBreak.EDITED if version is not None:
            return f"event {version} was edited after it was stored"
        case ChainBreak.RELINKED if version is not None:
            return (
                f"event {version} does not follow from event {version - 1}: "
                "the history before it was rewritten"
            )
        case ChainBreak.HEAD if version is not None:
            return f"event {version}, the last one, differs from the stream's head: the end was rewritten"
        case ChainBreak.STREAM_ROW_MISSING:
            return "the stream's head record is missing: the history was tampered with"
    return problem.message


# --- 5. the replay, 6. the result ---------------------------------------------------------------


def _replay_check(
    replay: Replay, corrections: list[Correction], corrected: str | None, replacements: str = ""
) -> AuditCheck:
    """The replay of the entries that stand; ``corrected``: the first take-back the ruling does
    not allow (``audit/corrections.py``) or replacement of a seat it does not accept
    (``audit/seats.py``), named before what the replay finds after it."""
    if corrected is not None:
        return failed(REPLAY, corrected)
    if replay.divergence is not None:
        return failed(REPLAY, replay.divergence)
    if replay.game is None:
        return passed(REPLAY, "nothing to replay: the game has not started")
    return passed(
        REPLAY,
        f"{replay.inputs} inputs replayed, all legal; all {replay.compared} game events match the rules"
        + taken_back_words(corrections)
        + replacements,
    )


def check_result(stream: GameStream, replay: Replay) -> AuditCheck:
    if replay.divergence is not None:
        return failed(RESULT, f"{NOT_CHECKED} the replay stopped at event {replay.stopped_at}")
    if stream.ended is not None:
        return _ended_result(stream, replay, stream.ended, stream.after_end)
    if stream.abandoned is not None:
        return _abandoned_result(stream, stream.abandoned)
    if replay.game is None:
        return passed(RESULT, "no result yet: the game has not started")
    question = replay.question
    waiting = "" if question is None else f"; the rules await {question}"
    return passed(RESULT, f"no result yet: the game is still going{waiting}")


def _ended_result(
    stream: GameStream, replay: Replay, ended: StoredEvent, after: list[StoredEvent]
) -> AuditCheck:
    if after:
        n = len(after)
        events = "event" if n == 1 else "events"
        return failed(
            RESULT,
            f"the store has {n} {events} after the game ended "
            f"(from event {after[0].number}: {referee_words(after[0].event)})",
        )
    finish = _finish(stream, replay)
    winners = " ".join(s.seat for s in finish.seats if s.won) or "all eliminated"
    return passed(
        RESULT,
        f"event {ended.number}: the game ended on turn {finish.turn} with {win_words(finish.winning_side)} "
        f"({winners}), as the rules give",
    )


def _finish(stream: GameStream, replay: Replay) -> GameFinish:
    """The end in neutral words, as the game's engine gives it where the replay stopped: the
    replay has checked it is the stored one, event for event."""
    assert replay.game is not None
    ruleset = BASE_DICE if stream.created is None else stream.created.ruleset
    finish = engine_for(ruleset).finish(replay.game)
    assert finish is not None
    return finish


def _abandoned_result(stream: GameStream, abandoned: StoredEvent) -> AuditCheck:
    later = [e for e in stream.engine if e.number > abandoned.number]
    if later:
        return failed(
            RESULT,
            f"the store has {len(later)} game events after the abandonment in event {abandoned.number}",
        )
    assert isinstance(abandoned.event, GameAbandoned)
    return passed(
        RESULT, f"no result: the game was abandoned in event {abandoned.number} ({abandoned.event.reason})"
    )


# --- the verdict --------------------------------------------------------------------------------


def _verdict(stream: GameStream, seed: SeedChecks, problems: list[str]) -> str:
    if problems:
        # checks that could not run because of the first problem add nothing to it
        more = sum(1 for p in problems[1:] if not p.startswith(NOT_CHECKED))
        also = "" if not more else f" ({more} more check{'s' if more > 1 else ''} failed)"
        return f"not clean: {problems[0]}{also}"
    if stream.started is None:
        return "clean: chain intact; the game has not started, so there is nothing to replay"
    if stream.is_table:
        dice = "no seed to check (a table game)"
    elif stream.revealed is not None:
        dice = seed.rederived or f"{seed.rolls_checked} rolls re-derived from the seed"
    elif stream.created is not None and stream.created.ruleset.game_type is GameType.CARDS:
        dice = "no seed revealed yet to re-derive the decks and random picks from"
    else:
        dice = "no seed revealed yet to re-derive the rolls from"
    so_far = "" if stream.is_over else " so far"
    n = len(stream.corrections)
    taken = "" if not n else f"; {n} {'entry' if n == 1 else 'entries'} taken back at the table"
    return f"clean: chain intact, {dice}, every input legal and every outcome matches{so_far}{taken}"
