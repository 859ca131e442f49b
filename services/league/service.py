"""The league application service: load a stream, fold it, decide, append at the expected
version. The one path for every change to a club or a league.

* **Optimistic concurrency**: a conflicting append reloads and decides again (the aggregate
  re-checks the command against the new state), a few times, then gives up loudly.
* **Idempotent by command id**: event ids are uuid5(command id, index) and each event's
  metadata names its command; the first event's metadata keeps the command's fingerprint
  (``services.runtime.idempotency``: what was asked and by whom). The same command from the
  same caller under a command id already in the stream answers with the events it produced
  then (``duplicate=True``) instead of deciding again; another command or another caller under
  that id is ``CommandIdReused`` (409), and nothing is stored.
* **Refusals change nothing**: ``decide`` raises a ``LeagueError`` before anything is written.
"""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

import msgspec

from event_store import ConcurrencyError, EventMetadata, PostgresEventStore, RecordedEvent
from services.league import club as club_aggregate
from services.league import league as league_aggregate
from services.league.club import ClubState, club_stream
from services.league.commands import (
    ClubCommand,
    EnrollPlayer,
    EnrollPlayers,
    FoundClub,
    FoundLeague,
    LeagueAggregateCommand,
    RegisterPlayer,
    ScheduleGame,
    SeatRound,
)
from services.league.errors import UnknownEntity, UnknownPlayer
from services.league.events import LEAGUE_MAPPER, LeagueEvent
from services.league.league import LeagueState, league_stream
from services.runtime.idempotency import command_fingerprint, is_retry

S = TypeVar("S")
_EVENT_IDS = uuid.UUID("0c1e8a53-3f4b-4d8e-9a7c-2b6f1d5e9c40")
_CONFLICT_RETRIES = 8


@dataclass(frozen=True, slots=True)
class CommandResult:
    stream: str
    events: tuple[LeagueEvent, ...]
    version: int
    """The stream's version after the command (unchanged when it caused no event)."""
    duplicate: bool = False
    """The command id was handled before: these are the events it produced then."""


@dataclass(slots=True)
class _Loaded(Generic[S]):
    state: S
    version: int
    by_command: dict[str, list[LeagueEvent]]
    versions_by_command: dict[str, int]
    spent_by: dict[str, tuple[str | None, str | None]]
    """command id → (fingerprint, actor) of its first event."""

    def is_retry(self, stream: str, command_id: str, fingerprint: str, actor: str | None) -> bool:
        """False: ``command_id`` is new here; True: this very command was applied under it;
        ``CommandIdReused`` when another command or another caller spent it."""
        if command_id not in self.by_command:
            return False
        stored, stored_actor = self.spent_by[command_id]
        return is_retry(
            command_id, stream, fingerprint, stored=stored, stored_actor=stored_actor, actor=actor
        )


class LeagueService:
    def __init__(self, store: PostgresEventStore) -> None:
        self.store = store

    async def load_club(self, club_id: str) -> ClubState:
        return (await self._load(club_stream(club_id), club_aggregate.fold)).state

    async def load_league(self, league_id: str) -> LeagueState:
        return (await self._load(league_stream(league_id), league_aggregate.fold)).state

    async def applied(
        self,
        command: LeagueAggregateCommand,
        *,
        command_id: str,
        actor: str | None = None,
        asked: object | None = None,
    ) -> bool:
        """This very ``command`` was applied to its league under ``command_id`` before (a retry
        will answer as it did); ``CommandIdReused`` when another command or caller spent the id.
        ``asked`` as for ``execute``."""
        stream = league_stream(command.league_id)
        loaded = await self._load(stream, league_aggregate.fold)
        return loaded.is_retry(stream, command_id, fingerprint(command, actor, asked), actor)

    async def execute(
        self,
        command: ClubCommand | LeagueAggregateCommand,
        *,
        command_id: str,
        actor: str | None = None,
        asked: object | None = None,
    ) -> CommandResult:
        """Decide and record ``command``. Raises a ``LeagueError`` when it is refused, and
        ``CommandIdReused`` when ``command_id`` was spent on another command or by another
        caller. ``asked``: what the caller asked, when the command holds more than that (values
        the server chose for it, e.g. a round's random seed); by default the command itself."""
        digest = fingerprint(command, actor, asked)
        if isinstance(command, FoundClub | RegisterPlayer):
            club_command = command
            return await self._run(
                club_stream(command.club_id),
                club_aggregate.fold,
                lambda state: club_aggregate.decide(state, club_command),
                command_id,
                actor,
                digest,
            )
        league_command = command
        if isinstance(league_command, FoundLeague):
            await self._require_club(league_command.club_id)

        async def precheck(state: LeagueState) -> None:
            # The one rule spanning two aggregates: only the league's club's members enrol.
            if isinstance(league_command, EnrollPlayer | EnrollPlayers) and state.exists:
                club = await self.load_club(state.club_id)
                members = (
                    league_command.member_ids
                    if isinstance(league_command, EnrollPlayers)
                    else (league_command.member_id,)
                )
                for member_id in members:
                    if not club.has_member(member_id):
                        raise UnknownPlayer(member_id, f"club {state.club_id!r}")

        return await self._run(
            league_stream(league_command.league_id),
            league_aggregate.fold,
            lambda state: league_aggregate.decide(state, league_command),
            command_id,
            actor,
            digest,
            precheck=precheck,
        )

    async def _require_club(self, club_id: str) -> None:
        if not (await self.load_club(club_id)).exists:
            raise UnknownEntity("club", club_id)

    async def _run(
        self,
        stream: str,
        fold: Callable[[list[LeagueEvent]], S],
        decide: Callable[[S], list[LeagueEvent]],
        command_id: str,
        actor: str | None,
        digest: str,
        precheck: Callable[[S], Awaitable[None]] | None = None,
    ) -> CommandResult:
        for _ in range(_CONFLICT_RETRIES):
            loaded = await self._load(stream, fold)
            if loaded.is_retry(stream, command_id, digest, actor):
                return CommandResult(
                    stream,
                    tuple(loaded.by_command[command_id]),
                    loaded.versions_by_command[command_id],
                    duplicate=True,
                )
            if precheck is not None:
                await precheck(loaded.state)
            events = decide(loaded.state)
            if not events:
                return CommandResult(stream, (), loaded.version)
            metadata = EventMetadata(command_id=command_id, actor=actor)
            first = EventMetadata(command_id=command_id, actor=actor, command_fingerprint=digest)
            new_events = [
                LEAGUE_MAPPER.to_new_event(
                    event,
                    event_id=uuid.uuid5(_EVENT_IDS, f"{stream}/{command_id}/{i}"),
                    metadata=first if i == 0 else metadata,
                )
                for i, event in enumerate(events)
            ]
            try:
                result = await self.store.append(stream, new_events, expected_version=loaded.version)
            except ConcurrencyError:
                continue
            return CommandResult(stream, tuple(events), result.version, duplicate=result.duplicate)
        raise ConcurrencyError(stream, "a stable version", -1)

    async def _load(self, stream: str, fold: Callable[[list[LeagueEvent]], S]) -> _Loaded[S]:
        recorded = await self.store.read_stream(stream)
        events = [_decode(r) for r in recorded]
        by_command: dict[str, list[LeagueEvent]] = {}
        versions: dict[str, int] = {}
        spent_by: dict[str, tuple[str | None, str | None]] = {}
        for r, event in zip(recorded, events, strict=True):
            if r.metadata.command_id is not None:
                by_command.setdefault(r.metadata.command_id, []).append(event)
                versions[r.metadata.command_id] = r.version
                spent_by.setdefault(r.metadata.command_id, (r.metadata.command_fingerprint, r.metadata.actor))
        return _Loaded(fold(events), recorded[-1].version if recorded else 0, by_command, versions, spent_by)


def fingerprint(
    command: ClubCommand | LeagueAggregateCommand, actor: str | None, asked: object | None
) -> str:
    """The fingerprint a league or club command is kept with: its kind, what was asked (the
    command itself unless ``asked`` says less; a round's Swiss scores are read by the server,
    never asked) and by whom."""
    if asked is None:
        asked = msgspec.to_builtins(command)
        if isinstance(command, SeatRound):
            asked.pop("scores", None)
        if isinstance(command, ScheduleGame):
            # what a schedule says of when and how its table plays, when it says it: a schedule
            # that says none of it keeps the fingerprint it had before it could (a retry of it)
            for said in ("starts_at", "ruleset", "decision_timeout_seconds"):
                if asked.get(said) is None:
                    asked.pop(said, None)
    return command_fingerprint(type(command).__name__, asked, actor)


def _decode(recorded: RecordedEvent) -> LeagueEvent:
    return LEAGUE_MAPPER.to_domain(recorded)  # type: ignore[return-value]


def derived_command_id(prefix: str, keys: Sequence[object]) -> str:
    """A command id derived from what a command is about, so a re-sent request (a Celery task
    delivered twice, an HTTP retry) carries the same id: ``prefix/k1/k2/…``."""
    return "/".join([prefix, *map(str, keys)])
