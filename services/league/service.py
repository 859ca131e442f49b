"""The league application service: load a stream, fold it, decide, append at the expected
version. The one path for every change to a club or a league.

* **Optimistic concurrency**: a conflicting append reloads and decides again (the aggregate
  re-checks the command against the new state), a few times, then gives up loudly.
* **Idempotent by command id**: event ids are uuid5(command id, index) and each event's
  metadata names its command; a command id already in the stream answers with the events it
  produced then (``duplicate=True``) instead of deciding again.
* **Refusals change nothing**: ``decide`` raises a ``LeagueError`` before anything is written.
"""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

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
)
from services.league.errors import UnknownEntity, UnknownPlayer
from services.league.events import LEAGUE_MAPPER, LeagueEvent
from services.league.league import LeagueState, league_stream

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


class LeagueService:
    def __init__(self, store: PostgresEventStore) -> None:
        self.store = store

    async def load_club(self, club_id: str) -> ClubState:
        return (await self._load(club_stream(club_id), club_aggregate.fold)).state

    async def load_league(self, league_id: str) -> LeagueState:
        return (await self._load(league_stream(league_id), league_aggregate.fold)).state

    async def applied(self, league_id: str, command_id: str) -> bool:
        """``command_id`` was applied to the league before (a retry will answer as it did)."""
        loaded = await self._load(league_stream(league_id), league_aggregate.fold)
        return command_id in loaded.by_command

    async def execute(
        self,
        command: ClubCommand | LeagueAggregateCommand,
        *,
        command_id: str,
        actor: str | None = None,
    ) -> CommandResult:
        """Decide and record ``command``. Raises a ``LeagueError`` when it is refused."""
        if isinstance(command, FoundClub | RegisterPlayer):
            club_command = command
            return await self._run(
                club_stream(command.club_id),
                club_aggregate.fold,
                lambda state: club_aggregate.decide(state, club_command),
                command_id,
                actor,
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
        precheck: Callable[[S], Awaitable[None]] | None = None,
    ) -> CommandResult:
        for _ in range(_CONFLICT_RETRIES):
            loaded = await self._load(stream, fold)
            if command_id in loaded.by_command:
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
            new_events = [
                LEAGUE_MAPPER.to_new_event(
                    event, event_id=uuid.uuid5(_EVENT_IDS, f"{stream}/{command_id}/{i}"), metadata=metadata
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
        for r, event in zip(recorded, events, strict=True):
            if r.metadata.command_id is not None:
                by_command.setdefault(r.metadata.command_id, []).append(event)
                versions[r.metadata.command_id] = r.version
        return _Loaded(fold(events), recorded[-1].version if recorded else 0, by_command, versions)


def _decode(recorded: RecordedEvent) -> LeagueEvent:
    return LEAGUE_MAPPER.to_domain(recorded)  # type: ignore[return-value]


def derived_command_id(prefix: str, keys: Sequence[object]) -> str:
    """A command id derived from what a command is about, so a re-sent request (a Celery task
    delivered twice, an HTTP retry) carries the same id: ``prefix/k1/k2/…``."""
    return "/".join([prefix, *map(str, keys)])
