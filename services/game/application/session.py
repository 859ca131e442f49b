"""A game as the service sees it: the fold of its whole stream, lifecycle and rules together."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum

import msgspec

from event_store import RecordedEvent
from services.game.application.codec import GAME_MAPPER
from services.game.application.corrections import Entries
from services.game.application.lifecycle import (
    DecisionTimedOut,
    EntryTakenBack,
    GameAbandoned,
    GameCreated,
    GameMode,
    PlayerJoined,
    SeatReplaced,
    SeatsDealt,
    SeedRevealed,
    seat_id,
)
from services.game.engines import GameEngine, PlayedGame, engine_for


class GameStatus(StrEnum):
    LOBBY = "lobby"
    ONGOING = "ongoing"
    ENDED = "ended"
    ABANDONED = "abandoned"


@dataclass(slots=True)
class CommandTrace:
    """Where a command's events landed, and what the command was (for idempotent retries)."""

    first_version: int
    last_version: int
    fingerprint: str | None = None
    """``services.game.application.service.command_fingerprint`` of the command, from its first event's
    metadata; None for events stored before fingerprints were kept."""
    actor: str | None = None
    """Who sent it (``str(Actor)``), from the same metadata."""


@dataclass(slots=True)
class GameSession:
    game_id: str
    created: GameCreated
    joined: list[PlayerJoined] = field(default_factory=list)
    seat_members: dict[str, str] = field(default_factory=dict)
    game: PlayedGame | None = None
    """The engine's game (``engine``), from its opening event on."""
    version: int = 0
    commands: dict[str, CommandTrace] = field(default_factory=dict)
    seed_revealed: str | None = None
    abandoned: bool = False
    last_event_at: datetime | None = None
    faces_rolled: int = 0
    """Random values the game has consumed so far (an online game's dice faces)."""
    entries: Entries = field(default_factory=Entries)
    """The commands' entries since the start, and which were taken back (``corrections.py``)."""
    replacements: list[tuple[int, SeatReplaced]] = field(default_factory=list)
    """Every seat that changed hands (``SeatReplaced``), with its version, in order."""
    bot_seats: set[str] = field(default_factory=set)
    """Seats a bot plays now (the server answers their questions)."""
    timeouts: dict[str, int] = field(default_factory=dict)
    """Seat → its decisions that ran out of time since its holder took it (``DecisionTimedOut``)."""
    _engine: GameEngine | None = None

    @property
    def engine(self) -> GameEngine:
        """The engine of the game's recorded ruleset (``UnplayableRuleset`` if this server has
        none): the game is folded with that ruleset's rules, never the base game's by default."""
        engine = self._engine
        if engine is None:
            engine = self._engine = engine_for(self.created.ruleset)
        return engine

    @property
    def mode(self) -> GameMode:
        return self.created.mode

    @property
    def status(self) -> GameStatus:
        if self.abandoned:
            return GameStatus.ABANDONED
        if self.game is None:
            return GameStatus.LOBBY
        return GameStatus.ENDED if self.game.is_over else GameStatus.ONGOING

    def copy(self) -> GameSession:
        """A copy sharing nothing that folding more events changes: the engine's game by the
        engine's own ``copy``, every list and dict anew; the events, the command traces (replaced
        when they change, never changed) and the entries before the latest (``Entries.copy``)
        are shared (``services/game/application/snapshots.py`` keeps these copies)."""
        return GameSession(
            game_id=self.game_id,
            created=self.created,
            joined=list(self.joined),
            seat_members=dict(self.seat_members),
            game=None if self.game is None else self.engine.copy(self.game),
            version=self.version,
            commands=dict(self.commands),  # traces are replaced, never changed (``apply``)
            seed_revealed=self.seed_revealed,
            abandoned=self.abandoned,
            last_event_at=self.last_event_at,
            faces_rolled=self.faces_rolled,
            entries=self.entries.copy(),
            replacements=list(self.replacements),
            bot_seats=set(self.bot_seats),
            timeouts=dict(self.timeouts),
            _engine=self._engine,
        )

    def seat_of(self, member_id: str) -> str | None:
        for seat, member in self.seat_members.items():
            if member == member_id:
                return seat
        return None

    def member_names(self) -> dict[str, str]:
        names = {j.member_id: j.name for j in self.joined}
        for _, replaced in self.replacements:
            if replaced.member_id is not None:
                names.setdefault(replaced.member_id, replaced.name)
        return names

    def holders(self, seat: str) -> list[tuple[str | None, str, int]]:
        """Who held ``seat``, in order: (member id or None for a bot, name, from turn)."""
        names = {j.member_id: j.name for j in self.joined}
        first = self.seat_members.get(seat)
        held: list[tuple[str | None, str, int]] = []
        for _, r in self.replacements:
            if r.player == seat:
                if not held:
                    held.append((r.replaced, names.get(r.replaced, r.replaced), 1))
                held.append((r.member_id, r.name, r.turn))
        if not held and first is not None:
            held.append((first, names.get(first, first), 1))
        return held

    def apply(
        self,
        event: msgspec.Struct,
        version: int,
        command_id: str | None,
        at: datetime | None,
        *,
        fingerprint: str | None = None,
        actor: str | None = None,
    ) -> None:
        """Fold one event of the stream (stored at ``version``) into the session; ``fingerprint``
        and ``actor`` come with a command's first event."""
        engine = self.engine
        if engine.owns(event):
            if engine.opens(event):
                self.game = engine.begin(event)
                self.entries = Entries()
                turn = 0
            else:
                assert self.game is not None, f"{type(event).__name__} before the game started"
                turn = engine.turn_number(self.game)
                engine.evolve(self.game, event)
                self.faces_rolled += engine.random_used(event)
            trace = self.commands.get(command_id) if command_id is not None else None
            first = trace.first_version if trace is not None else version
            self.entries.note(event, version, first, command_id, turn)
        else:
            match event:
                case GameCreated():
                    raise ValueError("GameCreated can only open a game's stream")
                case PlayerJoined():
                    self.joined.append(event)
                case SeatsDealt(members=members):
                    self.seat_members = {seat_id(i): m for i, m in enumerate(members)}
                case SeedRevealed(seed=seed):
                    self.seed_revealed = seed
                case GameAbandoned():
                    self.abandoned = True
                case SeatReplaced(player=seat, member_id=member):
                    # the seat is the substitute's from now on; a bot's is nobody's
                    self.replacements.append((version, event))
                    self.timeouts.pop(seat, None)
                    if member is None:
                        self.seat_members.pop(seat, None)
                        self.bot_seats.add(seat)
                    else:
                        self.seat_members[seat] = member
                        self.bot_seats.discard(seat)
                case EntryTakenBack():
                    # the game is the fold of the entries that stand: folded again without this one
                    if self.entries.take_back(event):
                        self.game, self.faces_rolled = self.entries.refold(engine)
                case DecisionTimedOut(player=seat):
                    self.timeouts[seat] = self.timeouts.get(seat, 0) + 1
                case _:
                    pass  # lifecycle facts that change nothing here
        self.version = version
        if at is not None:
            self.last_event_at = at
        if command_id is not None:
            trace = self.commands.get(command_id)
            if trace is None:
                self.commands[command_id] = CommandTrace(version, version, fingerprint, actor)
            else:  # a new trace, not a changed one: a copy (``copy``) shares the old
                self.commands[command_id] = CommandTrace(
                    trace.first_version, version, trace.fingerprint, trace.actor
                )

    def apply_recorded(self, recorded: RecordedEvent) -> None:
        event = GAME_MAPPER.to_domain(recorded)
        metadata = recorded.metadata
        self.apply(
            event,
            recorded.version,
            metadata.command_id,
            recorded.recorded_at,
            fingerprint=metadata.command_fingerprint,
            actor=metadata.actor,
        )

    @classmethod
    def from_recorded(cls, game_id: str, recorded: list[RecordedEvent]) -> GameSession:
        first = GAME_MAPPER.to_domain(recorded[0])
        if not isinstance(first, GameCreated):
            raise ValueError(f"game {game_id}: the stream does not open with GameCreated")
        session = cls(game_id, first, version=recorded[0].version, last_event_at=recorded[0].recorded_at)
        metadata = recorded[0].metadata
        if metadata.command_id:
            session.commands[metadata.command_id] = CommandTrace(
                1, 1, metadata.command_fingerprint, metadata.actor
            )
        for r in recorded[1:]:
            session.apply_recorded(r)
        return session
