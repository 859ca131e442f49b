"""The game application service: load a game's stream, fold it, let the engine decide,
append the result with the expected version. One path for every change to a game.

Guarantees:
- **Optimistic concurrency.** Events are appended at the version the decision was made on;
  when another writer got there first the service reloads and decides again (the engine
  re-checks the command against the new state), a few times, then gives up loudly.
- **Idempotent commands.** A command carries an id, scoped to its game. Event ids are derived
  from it (uuid5), and the stream remembers which command produced which events and, in its
  first event's metadata, the command's fingerprint (``command_fingerprint``: what was asked
  and by whom). The same command from the same caller sent twice answers with the first answer
  instead of playing twice; another command (or another caller) with a used id is refused with
  ``CommandIdReused`` - but only to a caller who may act in the game: anybody else gets the
  answer a new id would get, so a guessed id confirms nothing. A create's derived game id is
  scoped to its organiser for the same reason.
- **Online dice.** When the engine awaits dice in an online game, the service rolls them from
  the game's seeded generator in the same append, so a player's reroll and its faces land
  together and nobody can see the faces before deciding.
- **Hidden information.** The seed never leaves the vault until the game ends; then
  ``SeedRevealed`` joins the final append.
"""

from __future__ import annotations

import asyncio
import hashlib
import re
import uuid
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from itertools import takewhile
from typing import Any, NamedTuple

import msgspec

from event_store import (
    ConcurrencyError,
    DuplicateEventConflict,
    EventMetadata,
    PostgresEventStore,
    RecordedEvent,
)
from services.game.application.codec import GAME_MAPPER, game_stream, is_valid_game_id, series_of_game_id
from services.game.application.corrections import TakeBack, take_back_event
from services.game.application.errors import (
    AlreadyJoined,
    CommandIdReused,
    GameFinished,
    GameIdTaken,
    GameNotFound,
    GameNotStarted,
    GameServiceError,
    InvalidGameSpec,
    InvalidPosition,
    InvalidRuleset,
    NotAllowed,
    ReservedCommandId,
    StaleVersion,
    VersionOutOfRange,
)
from services.game.application.lifecycle import (
    BOT_NAME,
    DecisionTimedOut,
    EntryTakenBack,
    GameAbandoned,
    GameContext,
    GameCreated,
    GameMode,
    GameOptions,
    PlayerJoined,
    SeatReplaced,
    SeatsDealt,
    SeedRevealed,
    seat_id,
)
from services.game.application.session import CommandTrace, GameSession, GameStatus
from services.game.application.snapshots import SNAPSHOT_EVERY, Snapshot, Snapshots
from services.game.engines import (
    RULE_ERRORS,
    GameEngine,
    PlayedGame,
    RandomNeed,
    engine_for,
    implemented_modules,
    unplayable,
)
from services.game.engines.interface import Command
from services.game.fairness.dice import DiceSource, commitment, new_seed
from services.game.fairness.registry import (
    deal_derivation,
    dice_derivation,
    draw_derivation,
    fairness_for,
    shuffle_derivation,
    with_special_roles,
)
from services.game.fairness.vault import SeedVault
from services.game.fairness.versions import Fairness
from services.game.rules.ruleset import BASE_DICE, GameType, ModuleId, Ruleset, RulesetError, check_ruleset
from services.game.timeouts import bot_command, default_command

GameCommand = Command
"""A command of the game's engine (its msgspec Struct; ``str(command)`` is its text form)."""

_EVENT_IDS = uuid.UUID("5b1e7c52-6d0e-4f59-9a55-0c7f5e0b6a11")
_CONFLICT_RETRIES = 8
_MIN_PLAYERS, _MAX_PLAYERS = 3, 8
_TIMEOUT_COMMANDS = "timeout/"
"""The server's own command ids (``apply_timeout``); a caller's may not start so, or a player
could take the id of a future timeout and keep their decision from ever timing out."""


class ActorKind(StrEnum):
    PLAYER = "player"
    ORGANISER = "organiser"
    SYSTEM = "system"


class Actor(msgspec.Struct, frozen=True, kw_only=True):
    kind: ActorKind
    id: str | None = None
    """The member id of a player, the organiser's id, or None for the system."""

    def __str__(self) -> str:
        return self.kind.value if self.id is None else f"{self.kind.value}:{self.id}"


SYSTEM = Actor(kind=ActorKind.SYSTEM)


class Member(msgspec.Struct, frozen=True, kw_only=True):
    member_id: str
    name: str


class TableSeat(msgspec.Struct, frozen=True, kw_only=True):
    """A seat of a table game, as the scorekeeper enters it (clockwise)."""

    member_id: str
    name: str
    role: str
    """The role card as the engine names it (``sheriff``)."""
    character: str
    """The character as the engine names it (``bart_cassidy``); checked against the ruleset's
    pool when the game starts."""
    special: str | None = None
    """A hidden card dealt beside the role, as the engine names it (OS3: ``le_doc``)."""
    legacy_bonus: int = 0
    """UA5: the life a Sheriff designated by the series' previous Sheriff gets on top (1)."""


class NewGame(msgspec.Struct, frozen=True, kw_only=True):
    mode: GameMode
    player_count: int
    members: tuple[Member, ...] = ()
    """Online: the players known now (the rest join later). Table: leave empty, use ``seats``."""
    seats: tuple[TableSeat, ...] | None = None
    position: object | None = None
    """Table games only: start from a mid-game position (a resumed game, a rule case), in the
    engine's own words (the dice engine's ``Position``)."""
    sheriff_member: str | None = None
    context: GameContext = GameContext()
    options: GameOptions = GameOptions()
    game_id: str | None = None
    """Chosen by the caller, or derived from the command id so that a retry finds its game."""
    ruleset: Ruleset = BASE_DICE
    """The game type and modules; refused (``InvalidRuleset``) unless valid and implemented."""
    dealt_by_server: bool = False
    """Table games only: the server deals the seats (seat order, roles, characters) to
    ``members`` from a fresh seed, by the derivation an online game of the ruleset records
    (``fairness_for``), the rotation's ``sheriff_member`` holding the Sheriff; the scorekeeper
    still enters every die and decision. Each player reads their own role on their own seat."""
    fixed_seats: tuple[Any, ...] | None = None
    """Online games of a UA5 series after the first: the seats in the engine's own words (roles,
    characters, the legacy bonus) as the series' legacy gives them, ``members`` in seat order.
    The game's seed then deals only what they leave (OS3's special cards) and rolls."""


@dataclass(frozen=True, slots=True)
class PlayOutcome:
    game_id: str
    events: list[msgspec.Struct]
    version: int
    duplicate: bool = False


_BATCH_PAGE = 64
"""Events read at a time past a version to find the end of its command's batch."""
INLINE_FOLD_EVENTS = 2 * SNAPSHOT_EVERY
"""A version read folding more events than this folds in the folding thread (``load_at``)."""


class GameService:
    def __init__(self, store: PostgresEventStore, seeds: SeedVault, *, cache_size: int = 2_000) -> None:
        self.store = store
        self.seeds = seeds
        self._sessions: OrderedDict[str, GameSession] = OrderedDict()
        self._cache_size = cache_size
        self.snapshots = Snapshots()
        """Past versions' folds, for ``load_at`` (``services/game/application/snapshots.py``)."""
        self._folder = ThreadPoolExecutor(max_workers=1, thread_name_prefix="bang-fold")
        """Where ``load_at``'s long folds run, one at a time."""

    # -- reading -------------------------------------------------------------------------

    async def load(self, game_id: str) -> GameSession:
        """The game as of its latest event (cached; only new events are read)."""
        session = self._sessions.get(game_id)
        stream = game_stream(game_id) if is_valid_game_id(game_id) else None
        if stream is None:
            raise GameNotFound(game_id)
        if session is None:
            recorded = await self.store.read_stream(stream)
            if not recorded:
                raise GameNotFound(game_id)
            session = GameSession.from_recorded(game_id, recorded)
        else:
            newer = await self.store.read_stream(stream, from_version=session.version + 1)
            for r in newer:
                # another coroutine may have folded some of these while we waited for the read
                if r.version > session.version:
                    session.apply_recorded(r)
        self._remember(session)
        return session

    async def load_at(
        self,
        game_id: str,
        version: int,
        before_fold: Callable[[int], Awaitable[None]] | None = None,
    ) -> GameSession:
        """The game right after event ``version``, or after the last event of the command's
        batch that ``version`` is in (a command's events land together: nobody ever saw the
        state in between). Folded from the nearest snapshot at or below ``version``, leaving a
        snapshot every ``SNAPSHOT_EVERY`` events it passes; ``before_fold`` is told how many
        events are about to be folded (up to ``version``; a batch's tail is not counted), before
        anything is read, and may refuse: the API charges them to the caller."""
        stream = game_stream(game_id) if is_valid_game_id(game_id) else None
        if stream is None:
            raise GameNotFound(game_id)
        if version < 1:
            raise VersionOutOfRange(f"versions start at 1, not {version}")
        snapshot = self.snapshots.nearest(game_id, version)
        start = snapshot.version if snapshot is not None else 1
        if before_fold is not None:  # before the read: a refused read costs no read either
            head = await self.store.stream_version(stream)  # one row: what may be charged
            if head == 0:
                raise GameNotFound(game_id)
            if head < version:
                raise VersionOutOfRange(f"game {game_id} has versions 1 to {head}, not {version}")
            await before_fold(version - start)
        recorded = await self._read_to_batch_end(stream, start, version)
        if snapshot is not None and (not recorded or recorded[0].hash != snapshot.hash):
            self.snapshots.drop(game_id)  # not the stream it was folded from: fold it afresh
            snapshot, start = None, 1
            recorded = await self._read_to_batch_end(stream, start, version)
        if not recorded:
            raise GameNotFound(game_id)
        if recorded[-1].version < version:
            raise VersionOutOfRange(f"game {game_id} has versions 1 to {recorded[-1].version}, not {version}")
        if len(recorded) - 1 <= INLINE_FOLD_EVENTS:
            return self._fold(game_id, recorded, snapshot)
        # a long fold (a game's first read in this process) in the one folding thread: the event
        # loop keeps answering meanwhile, and reads of the same game queued behind it start
        # from the snapshots it leaves
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._folder, self._fold, game_id, recorded, snapshot, True)

    def _fold(
        self, game_id: str, recorded: list[RecordedEvent], snapshot: Snapshot | None, better: bool = False
    ) -> GameSession:
        """``recorded`` folded from ``snapshot`` (at ``recorded[0]``; None: from the first event),
        or, with ``better``, from a later snapshot made meanwhile of the same events."""
        snapshots = self.snapshots
        first = recorded[0].version
        if better:
            later = snapshots.nearest(game_id, recorded[-1].version)
            skip = later.version - first if later is not None else 0
            if later is not None and skip > 0 and recorded[skip].hash == later.hash:
                snapshot, recorded = later, recorded[skip:]
        if snapshot is not None:
            session = snapshot.start()
        else:
            session = GameSession.from_recorded(game_id, recorded[:1])
        for r in recorded[1:]:
            session.apply_recorded(r)
            if snapshots.due(r.version):
                snapshots.keep(session, r.hash)
        return session

    async def _read_to_batch_end(self, stream: str, start: int, version: int) -> list[RecordedEvent]:
        """Events ``start`` to ``version``, then on to the end of ``version``'s command batch."""
        recorded = await self.store.read_stream(stream, from_version=start, limit=version - start + 1)
        if not recorded or recorded[-1].version < version:
            return recorded
        batch = recorded[-1].metadata.command_id
        while batch is not None:
            more = await self.store.read_stream(
                stream, from_version=recorded[-1].version + 1, limit=_BATCH_PAGE
            )
            same = list(takewhile(lambda r: r.metadata.command_id == batch, more))
            recorded += same
            if len(same) < len(more) or len(more) < _BATCH_PAGE:
                break
        return recorded

    def _remember(self, session: GameSession) -> None:
        self._sessions[session.game_id] = session
        self._sessions.move_to_end(session.game_id)
        while len(self._sessions) > self._cache_size:
            self._sessions.popitem(last=False)

    def cached(self, game_id: str) -> GameSession | None:
        """The game as this process last folded it, without asking the store (it may be behind
        other processes' appends; ``load`` catches up)."""
        return self._sessions.get(game_id)

    def forget(self, game_id: str) -> None:
        self._sessions.pop(game_id, None)

    # -- creating and joining ----------------------------------------------------------------

    async def create_game(
        self,
        spec: NewGame,
        *,
        command_id: str,
        actor: Actor,
        inputs: tuple[GameCommand, ...] = (),
    ) -> GameSession:
        """Create the game ``spec`` describes. ``inputs``: what the caller will play next under
        this command id (a record import's inputs, ``<command_id>/input/<n>``): they are part
        of what was asked, so a re-import of a longer record is another command, not a retry.

        A retry (same command id, spec and inputs, same organiser) answers with the game; another
        command under the id is ``CommandIdReused``; a game id held by another create (any
        command id) or by another organiser is ``GameIdTaken``."""
        if actor.kind is ActorKind.PLAYER:
            raise NotAllowed("only an organiser (or the league) creates games")
        _check_command_id(command_id, actor)
        game_id = spec.game_id or derived_game_id(actor, command_id)
        if not is_valid_game_id(game_id):
            raise InvalidGameSpec(f"{game_id!r} is not a valid game id (letters, digits, . _ : -)")
        series = series_of_game_id(game_id)
        if series is not None and spec.context.series_id != series:
            # else an organiser could take <series>.g2 first and block that series' next game
            raise InvalidGameSpec(
                f"{game_id!r} has the form of a UA5 series' game id (<series>.g<n>): only series "
                f"{series} creates its games; choose another game id"
            )
        _check_spec(spec)
        asked = {"spec": _public_spec(spec), "inputs": [msgspec.to_builtins(c) for c in inputs]}
        fingerprint = command_fingerprint("create", asked, actor)
        for _ in range(_CONFLICT_RETRIES):
            stored_fingerprint: str | None = fingerprint
            existing = await self._existing(game_id)
            if existing is not None:
                trace = existing.commands.get(command_id)
                if trace is None or trace.first_version != 1 or trace.actor != str(actor):
                    raise GameIdTaken(game_id)
                if trace.fingerprint is not None and trace.fingerprint != fingerprint:
                    raise CommandIdReused(command_id)
                # The same command again: rebuild its events and let the store compare them
                # with the stored ones (a table game's roles are in the events, not in the
                # fingerprint). Stored before fingerprints were kept: compare without one.
                stored_fingerprint = trace.fingerprint
            session, events = await self._creation(game_id, spec, actor)
            try:
                await self._append(
                    session,
                    events,
                    command_id=command_id,
                    actor=actor,
                    fingerprint=stored_fingerprint,
                    expected_version=0,
                )
            except (ConcurrencyError, DuplicateEventConflict) as error:
                self.forget(game_id)
                if existing is not None and isinstance(error, DuplicateEventConflict):
                    raise CommandIdReused(command_id) from None
                continue  # another create got there first: answer as that one's retry would be
            return await self.load(game_id)
        raise ConcurrencyError(game_stream(game_id), "no stream", -1)

    async def _existing(self, game_id: str) -> GameSession | None:
        try:
            return await self.load(game_id)
        except GameNotFound:
            return None

    async def _creation(
        self, game_id: str, spec: NewGame, actor: Actor
    ) -> tuple[GameSession, list[msgspec.Struct]]:
        """The events that create ``spec`` as ``game_id`` (the same ones again on a retry: an
        online game's seed is kept once)."""
        seed: bytes | None = None
        if spec.mode is GameMode.ONLINE:
            seed = await self.seeds.keep(game_id, new_seed())
        created = GameCreated(
            game_id=game_id,
            mode=spec.mode,
            player_count=spec.player_count,
            seed_commitment=None if seed is None else commitment(seed),
            options=spec.options,
            context=spec.context,
            sheriff_member=spec.sheriff_member,
            created_by=actor.id,
            ruleset=spec.ruleset,
            fairness=fairness_for(spec.ruleset) if spec.mode is GameMode.ONLINE else None,
        )
        events: list[msgspec.Struct] = [created]
        if spec.mode is GameMode.TABLE and spec.dealt_by_server:
            events += await self._server_table_deal(game_id, spec)
        elif spec.mode is GameMode.TABLE:
            assert spec.seats is not None
            joined = [
                PlayerJoined(member_id=s.member_id, name=s.name, player=seat_id(i))
                for i, s in enumerate(spec.seats)
            ]
            seats = [
                _Seat(seat_id(i), s.role, s.character, s.special, s.legacy_bonus)
                for i, s in enumerate(spec.seats)
            ]
            events += joined
            events.append(SeatsDealt(members=tuple(s.member_id for s in spec.seats)))
            try:
                events += _start(engine_for(spec.ruleset), seats, spec.position).events
            except InvalidPosition as refused:
                raise InvalidPosition(_by_name(refused.reason, spec.seats)) from refused
        else:
            joined = [PlayerJoined(member_id=m.member_id, name=m.name) for m in spec.members]
            events += joined
            if spec.fixed_seats is not None:
                assert seed is not None and created.fairness is not None
                events += _start_fixed(
                    engine_for(spec.ruleset),
                    seed,
                    [m.member_id for m in spec.members],
                    spec.fixed_seats,
                    created.fairness,
                )
            elif len(joined) == spec.player_count:
                assert seed is not None and created.fairness is not None
                members = [m.member_id for m in spec.members]
                events += _deal_and_start(
                    engine_for(spec.ruleset), seed, members, spec.sheriff_member, created.fairness
                )
        return GameSession(game_id, created), events

    async def _server_table_deal(self, game_id: str, spec: NewGame) -> list[msgspec.Struct]:
        """A table game the server deals: the deal of an online game of its ruleset, from a
        seed kept in the vault under the game's id (so a retry deals the same seats), without
        the opening roll: the scorekeeper enters the dice rolled at the table."""
        seed = await self.seeds.keep(game_id, new_seed())
        engine = engine_for(spec.ruleset)
        fairness = fairness_for(spec.ruleset)
        members = [m.member_id for m in spec.members]
        derivation = deal_derivation(fairness.deal)
        seated, seats = derivation.deal(seed, members, spec.sheriff_member, engine.ruleset)
        seats = with_special_roles(fairness, seed, seats, engine.ruleset)
        names = {m.member_id: m.name for m in spec.members}
        joined = [PlayerJoined(member_id=m, name=names[m], player=seat_id(i)) for i, m in enumerate(seated)]
        return [*joined, SeatsDealt(members=tuple(seated)), *_start(engine, seats, None).events]

    async def join(self, game_id: str, member: Member, *, command_id: str) -> GameSession:
        actor = Actor(kind=ActorKind.PLAYER, id=member.member_id)
        _check_command_id(command_id, actor)
        fingerprint = command_fingerprint("join", member, actor)
        joined_event = PlayerJoined(member_id=member.member_id, name=member.name)

        async def same_join(events: list[msgspec.Struct]) -> bool:
            return events[:1] == [joined_event]

        for _ in range(_CONFLICT_RETRIES):
            session = await self.load(game_id)
            trace = session.commands.get(command_id)
            # A retry of this member's own join changes nothing and issues no token again.
            if trace is not None and await self._is_retry(session, trace, fingerprint, actor, same_join):
                raise AlreadyJoined(game_id, member.member_id)
            if session.mode is not GameMode.ONLINE:
                raise InvalidGameSpec(f"game {game_id} is a table game: its scorekeeper seats the players")
            if session.status is not GameStatus.LOBBY:
                raise InvalidGameSpec(f"game {game_id} is full and has started")
            if any(j.member_id == member.member_id for j in session.joined):
                raise InvalidGameSpec(f"{member.member_id} has already joined game {game_id}")
            # Only now, when the join could be taken: any other command's id (a move's, the
            # creation's) never seats anybody.
            if trace is not None:
                raise CommandIdReused(command_id)
            events: list[msgspec.Struct] = [joined_event]
            members = [j.member_id for j in session.joined] + [member.member_id]
            if len(members) == session.created.player_count:
                seed = await self.seeds.seed_of(game_id)
                fairness = session.created.derivations
                assert fairness is not None
                events += _deal_and_start(
                    session.engine, seed, members, session.created.sheriff_member, fairness
                )
            try:
                await self._append(
                    session,
                    events,
                    command_id=command_id,
                    actor=actor,
                    fingerprint=fingerprint,
                    expected_version=session.version,
                )
            except (ConcurrencyError, DuplicateEventConflict):
                self.forget(game_id)
                continue
            return await self.load(game_id)
        raise ConcurrencyError(game_stream(game_id), "a stable version", -1)

    # -- playing -------------------------------------------------------------------------------

    async def play(
        self,
        game_id: str,
        command: GameCommand,
        *,
        actor: Actor,
        command_id: str,
        expected_version: int | None = None,
    ) -> PlayOutcome:
        """Apply one rules command. Raises the engine's refusal (a RuleError) for an illegal command,
        NotAllowed for the wrong caller, StaleVersion when ``expected_version`` is behind.

        A game this process has folded is decided on without the catch-up read first: the
        append moves the stream only if its head is still the version (and hash) the cached
        fold ends at, so a success means the decision was made on the current state. Anything
        else (another process appended, the command is refused, a stale ``expected_version``)
        decides again the careful way - catch up from the store, then decide - so the answer is
        the one a fresh read would have given. In one process's games that saves a round trip
        per command.

        ``TakeBack`` takes back the latest entry of a table game instead (``take_back``)."""
        if isinstance(command, TakeBack):
            return await self.take_back(
                game_id, actor=actor, command_id=command_id, expected_version=expected_version
            )
        _check_command_id(command_id, actor)
        fingerprint = command_fingerprint("play", command, actor)
        cached = self._sessions.get(game_id)
        if cached is not None:
            try:
                return await self._play_on(cached, command, actor, command_id, fingerprint, expected_version)
            except (ConcurrencyError, DuplicateEventConflict):
                self.forget(game_id)
            except (GameServiceError, *RULE_ERRORS):
                pass  # maybe refused only because the cache is behind: ask the store
        for _ in range(_CONFLICT_RETRIES):
            session = await self.load(game_id)
            try:
                return await self._play_on(session, command, actor, command_id, fingerprint, expected_version)
            except DuplicateEventConflict:
                self.forget(game_id)  # a racing request used this command id: look at it again
            except ConcurrencyError:
                if expected_version is not None:
                    raise StaleVersion(
                        game_id, expected_version, await self.store.stream_version(game_stream(game_id))
                    ) from None
                self.forget(game_id)
        raise ConcurrencyError(game_stream(game_id), "a stable version", -1)

    async def _play_on(
        self,
        session: GameSession,
        command: GameCommand,
        actor: Actor,
        command_id: str,
        fingerprint: str,
        expected_version: int | None,
    ) -> PlayOutcome:
        """Decide ``command`` on ``session`` and append at its version (ConcurrencyError if the
        stream has moved on).

        A used command id is looked at only for a caller who may act in this game: anybody
        else is refused below exactly as with a new id, so the answer says nothing about which
        ids were used."""
        game_id = session.game_id
        trace = session.commands.get(command_id)
        if trace is not None and _may_act(session, actor):

            async def same_play(events: list[msgspec.Struct]) -> bool:
                return await self._played_same(session, trace.first_version, command, events)

            if await self._is_retry(session, trace, fingerprint, actor, same_play):
                return await self._replayed_outcome(session, trace.first_version, trace.last_version)
            raise CommandIdReused(command_id)
        if expected_version is not None and expected_version != session.version:
            raise StaleVersion(game_id, expected_version, session.version)
        game = _playable(session)
        _authorize(session, command, actor)
        engine = session.engine
        working = engine.copy(game)
        # at a table the next entry closes any role window left open (nobody used it); online
        # only the server closes one, after the same pause at every window
        online = session.mode is GameMode.ONLINE
        events: list[msgspec.Struct] = list(engine.play(working, command, implicit_passes=not online))
        events += await self._server_rolls(session, working, events)
        return await self._append(
            session,
            events,
            command_id=command_id,
            actor=actor,
            fingerprint=fingerprint,
            expected_version=session.version,
        )

    async def take_back(
        self, game_id: str, *, actor: Actor, command_id: str, expected_version: int | None = None
    ) -> PlayOutcome:
        """Take back the latest entry of a table game that the ruling allows (``corrections.py``,
        docs/rulings.md): append ``EntryTakenBack``, so the game is folded again without it.
        ``NotAllowed`` for a caller who does not enter this game's moves, ``TakeBackRefused`` (in
        the ruling's words) when nothing may be taken back, ``StaleVersion`` as ``play``. A retry
        of the same command id answers with its first answer."""
        _check_command_id(command_id, actor)
        fingerprint = command_fingerprint("takeback", {}, actor)

        async def same_take_back(events: list[msgspec.Struct]) -> bool:
            return len(events) == 1 and isinstance(events[0], EntryTakenBack)

        for _ in range(_CONFLICT_RETRIES):
            session = await self.load(game_id)
            trace = session.commands.get(command_id)
            if trace is not None and _may_act(session, actor):
                if await self._is_retry(session, trace, fingerprint, actor, same_take_back):
                    return await self._replayed_outcome(session, trace.first_version, trace.last_version)
                raise CommandIdReused(command_id)
            if expected_version is not None and expected_version != session.version:
                raise StaleVersion(game_id, expected_version, session.version)
            if session.status is GameStatus.LOBBY:
                raise GameNotStarted(game_id, len(session.joined), session.created.player_count)
            _authorize_take_back(session, actor)
            event = take_back_event(session)
            try:
                return await self._append(
                    session,
                    [event],
                    command_id=command_id,
                    actor=actor,
                    fingerprint=fingerprint,
                    expected_version=session.version,
                )
            except DuplicateEventConflict:
                self.forget(game_id)
            except ConcurrencyError:
                if expected_version is not None:
                    raise StaleVersion(
                        game_id, expected_version, await self.store.stream_version(game_stream(game_id))
                    ) from None
                self.forget(game_id)
        raise ConcurrencyError(game_stream(game_id), "a stable version", -1)

    async def apply_timeout(self, game_id: str, now: datetime | None = None) -> PlayOutcome | None:
        """If the awaited decision is overdue, play its documented default (see timeouts.py)
        and record that it timed out. None when nothing is overdue."""
        now = now or datetime.now(UTC)
        session = await self.load(game_id)
        if session.status is not GameStatus.ONGOING or session.last_event_at is None:
            return None
        assert session.game is not None
        engine = session.engine
        question = engine.question(session.game)
        assert question is not None
        # a question open to the table closes after the same pause at every window (online; at a
        # table the scorekeeper closes it), any other after the game's decision limit, if any
        open_to_table = question.table and session.mode is GameMode.ONLINE
        if question.table and not open_to_table:
            return None
        events: list[msgspec.Struct] = []
        if question.player in session.bot_seats and not question.table and not question.random:
            # a bot plays the seat (``SeatReplaced``): it answers at once, with no time limit
            command = bot_command(session.game, question.player, f"{game_id}:{session.version}")
        else:
            limit = session.created.options.limit_for(open_to_table)
            if limit is None or (now - session.last_event_at).total_seconds() < limit:
                return None
            default = default_command(engine, session.game)
            if default is None:
                return None
            command = default
            events.append(
                DecisionTimedOut(
                    player=question.player, decision=question.decision, applied=engine.public_text(command)
                )
            )
        working = engine.copy(session.game)
        events += engine.play(working, command)
        events += await self._server_rolls(session, working, events)
        command_id = f"{_TIMEOUT_COMMANDS}{game_id}/{session.version}"
        asked = {"version": session.version, "applied": engine.public_text(command)}
        try:
            return await self._append(
                session,
                events,
                command_id=command_id,
                actor=SYSTEM,
                fingerprint=command_fingerprint("timeout", asked, SYSTEM),
                expected_version=session.version,
            )
        except ConcurrencyError:
            self.forget(game_id)
            return None  # somebody acted meanwhile: the decision is no longer overdue

    async def replace_seat(
        self,
        game_id: str,
        seat: str,
        substitute: Member | None,
        *,
        actor: Actor,
        command_id: str,
        reason: str = "",
    ) -> PlayOutcome:
        """Give ``seat`` of an ongoing online game to ``substitute`` (None: a bot), as the event
        ``SeatReplaced``. Only an organiser's actor: whoever calls this has checked the caller's
        current role in the game's club (``services/league/organise.py``). Refused: a table game
        (its scorekeeper enters every seat), a game not started or over, an unknown seat, a
        substitute seated already. A retry of the same command id answers with its first answer."""
        if actor.kind is not ActorKind.ORGANISER:
            raise NotAllowed("only the game's organiser or referee replaces a seat")
        _check_command_id(command_id, actor)
        asked = {"seat": seat, "substitute": substitute, "reason": reason}
        fingerprint = command_fingerprint("replace-seat", asked, actor)

        async def same_replacement(events: list[msgspec.Struct]) -> bool:
            return len(events) == 1 and isinstance(events[0], SeatReplaced)

        for _ in range(_CONFLICT_RETRIES):
            session = await self.load(game_id)
            trace = session.commands.get(command_id)
            if trace is not None:
                if await self._is_retry(session, trace, fingerprint, actor, same_replacement):
                    return await self._replayed_outcome(session, trace.first_version, trace.last_version)
                raise CommandIdReused(command_id)
            if session.mode is not GameMode.ONLINE:
                raise InvalidGameSpec(
                    f"game {game_id} is a table game: its scorekeeper enters every seat, nobody replaces one"
                )
            game = _playable(session)
            if seat not in {seat_id(i) for i in range(session.created.player_count)}:
                raise InvalidGameSpec(f"game {game_id} has no seat {seat!r}")
            holder = session.seat_members.get(seat)
            if substitute is not None:
                if substitute.member_id == holder:
                    raise InvalidGameSpec(f"{substitute.name} plays seat {seat} already")
                elsewhere = session.seat_of(substitute.member_id)
                if elsewhere is not None:
                    raise InvalidGameSpec(
                        f"{substitute.name} plays seat {elsewhere} of this game: nobody plays two seats"
                    )
            elif seat in session.bot_seats:
                raise InvalidGameSpec(f"a bot plays seat {seat} already")
            event = SeatReplaced(
                player=seat,
                replaced=holder if holder is not None else "",
                member_id=None if substitute is None else substitute.member_id,
                name=BOT_NAME if substitute is None else substitute.name,
                reason=reason,
                by=actor.id,
                turn=session.engine.turn_number(game),
            )
            try:
                return await self._append(
                    session,
                    [event],
                    command_id=command_id,
                    actor=actor,
                    fingerprint=fingerprint,
                    expected_version=session.version,
                )
            except (ConcurrencyError, DuplicateEventConflict):
                self.forget(game_id)
        raise ConcurrencyError(game_stream(game_id), "a stable version", -1)

    async def abandon(self, game_id: str, reason: str, *, actor: Actor, command_id: str) -> PlayOutcome:
        if actor.kind is ActorKind.PLAYER:
            raise NotAllowed("only an organiser can abandon a game")
        _check_command_id(command_id, actor)
        fingerprint = command_fingerprint("abandon", {"reason": reason}, actor)
        abandoned = GameAbandoned(reason=reason)

        async def same_abandon(events: list[msgspec.Struct]) -> bool:
            return events == [abandoned]

        session = await self.load(game_id)
        trace = session.commands.get(command_id)
        if trace is not None:  # every organiser may abandon any game: the answer is theirs
            if await self._is_retry(session, trace, fingerprint, actor, same_abandon):
                return await self._replayed_outcome(session, trace.first_version, trace.last_version)
            raise CommandIdReused(command_id)
        if session.status in (GameStatus.ENDED, GameStatus.ABANDONED):
            raise GameFinished(game_id)
        return await self._append(
            session,
            [abandoned],
            command_id=command_id,
            actor=actor,
            fingerprint=fingerprint,
            expected_version=session.version,
        )

    # -- internals ---------------------------------------------------------------------------

    async def _server_rolls(
        self, session: GameSession, working: PlayedGame, events: list[msgspec.Struct]
    ) -> list[msgspec.Struct]:
        """What an online game adds to an append after ``events`` (already applied to
        ``working``): the rolls the engine now awaits, from the seed, and ``SeedRevealed`` if
        the game is over. Nothing for a table game, whose scorekeeper enters the faces."""
        if session.mode is not GameMode.ONLINE:
            return []
        seed = await self.seeds.seed_of(session.game_id)
        assert session.created.derivations is not None
        dice = session.created.derivations.dice
        draws = session.created.derivations.draws_version
        shuffles = session.created.derivations.shuffles_version
        engine = session.engine
        faces = session.faces_rolled + _faces_in(engine, events)
        added = _roll_online(engine, working, seed, faces, dice, draws, shuffles)
        if working.is_over:
            added.append(SeedRevealed(seed=seed.hex()))
        return added

    async def _append(
        self,
        session: GameSession,
        events: list[msgspec.Struct],
        *,
        command_id: str,
        actor: Actor,
        fingerprint: str | None,
        expected_version: int,
    ) -> PlayOutcome:
        """Append one command's events. Its ``fingerprint`` goes with the first event only (one
        per command is enough); None only for a retry of a command stored without one."""
        metadata = EventMetadata(command_id=command_id, actor=str(actor), correlation_id=session.game_id)
        first_metadata = msgspec.structs.replace(metadata, command_fingerprint=fingerprint)
        new_events = [
            GAME_MAPPER.to_new_event(
                e,
                event_id=uuid.uuid5(_EVENT_IDS, f"{session.game_id}/{command_id}/{i}"),
                metadata=first_metadata if i == 0 else metadata,
            )
            for i, e in enumerate(events)
        ]
        result = await self.store.append(
            game_stream(session.game_id), new_events, expected_version=expected_version
        )
        if result.duplicate:
            self.forget(session.game_id)
        elif session.version == expected_version and session.game_id in self._sessions:
            first = expected_version + 1
            if first == 1:
                self.forget(session.game_id)
            else:
                now = datetime.now(UTC)
                for i, e in enumerate(events):
                    session.apply(
                        e,
                        first + i,
                        command_id,
                        now,
                        fingerprint=fingerprint if i == 0 else None,
                        actor=str(actor),
                    )
        return PlayOutcome(session.game_id, events, result.version, result.duplicate)

    async def _is_retry(
        self,
        session: GameSession,
        trace: CommandTrace,
        fingerprint: str,
        actor: Actor,
        same_events: Callable[[list[msgspec.Struct]], Awaitable[bool]],
    ) -> bool:
        """Whether the command stored under ``trace`` is this very command from this caller.
        Stored before fingerprints were kept: when its events are the ones this command makes
        (``same_events``), and it was the same caller."""
        if trace.actor != str(actor):
            return False
        if trace.fingerprint is not None:
            return trace.fingerprint == fingerprint
        replayed = await self._replayed_outcome(session, trace.first_version, trace.last_version)
        return await same_events(replayed.events)

    async def _played_same(
        self, session: GameSession, first_version: int, command: GameCommand, events: list[msgspec.Struct]
    ) -> bool:
        """Whether ``command``, decided on the game as it stood before ``first_version``,
        makes the rules events stored from there (a command stored without a fingerprint)."""
        recorded = await self.store.read_stream(game_stream(session.game_id), limit=first_version - 1)
        before = GameSession.from_recorded(session.game_id, recorded)
        if before.game is None:
            return False
        try:
            produced = list(before.engine.play(before.engine.copy(before.game), command))
        except RULE_ERRORS:
            return False
        return bool(produced) and events[: len(produced)] == produced

    async def _replayed_outcome(self, session: GameSession, first: int, last: int) -> PlayOutcome:
        recorded = await self.store.read_stream(
            game_stream(session.game_id), from_version=first, limit=last - first + 1
        )
        events = [GAME_MAPPER.to_domain(r) for r in recorded]
        return PlayOutcome(session.game_id, events, last, duplicate=True)


# --- helpers -------------------------------------------------------------------------------------


def command_fingerprint(kind: str, asked: object, actor: Actor) -> str:
    """sha256 of what was asked (``kind`` of command and its content) and by whom, as canonical
    JSON: kept in the metadata of the command's first event, to tell a retry from another
    command sent under the same id after any restart.

    Only what every viewer may see goes in: a digest of a table game's hidden roles could be
    found by trying the few possible deals. Those roles are in the create's events, which the
    store compares on a retry (``create_game``)."""
    canonical = msgspec.json.encode(
        {"kind": kind, "actor": str(actor), "asked": msgspec.to_builtins(asked)}, order="sorted"
    )
    return hashlib.sha256(canonical).hexdigest()


def derived_game_id(actor: Actor, command_id: str) -> str:
    """The game id of a create that names none: from its organiser and command id, so a retry
    finds its game and nobody else's command id (guessed or not) leads to it."""
    return str(uuid.uuid5(_EVENT_IDS, "create/" + msgspec.json.encode([str(actor), command_id]).decode()))


def _public_spec(spec: NewGame) -> dict[str, object]:
    """The spec without what it hides (the seats' roles) and without its game id (command ids
    are per game)."""
    public: dict[str, object] = msgspec.to_builtins(spec)
    public.pop("game_id", None)
    if not spec.dealt_by_server:
        public.pop("dealt_by_server", None)  # as creates were fingerprinted before it existed
    if spec.ruleset == BASE_DICE:
        public.pop("ruleset", None)  # as creates were fingerprinted before rulesets existed
    if spec.fixed_seats is not None:  # roles are hidden: the characters and bonus only
        public["fixed_seats"] = [
            {"character": str(s.character), "legacy_bonus": s.legacy_bonus} for s in spec.fixed_seats
        ]
    else:
        public.pop("fixed_seats", None)
    if spec.seats is not None:
        public["seats"] = [
            {"member_id": s.member_id, "name": s.name, "character": str(s.character)} for s in spec.seats
        ]
    return public


def _check_command_id(command_id: str, actor: Actor) -> None:
    if actor.kind is not ActorKind.SYSTEM and command_id.startswith(_TIMEOUT_COMMANDS):
        raise ReservedCommandId(
            f"command ids starting with {_TIMEOUT_COMMANDS!r} are the server's own; choose another command_id"
        )


def _check_spec(spec: NewGame) -> None:
    if not _MIN_PLAYERS <= spec.player_count <= _MAX_PLAYERS:
        raise InvalidGameSpec(f"a game has 3 to 8 players, not {spec.player_count}")
    if spec.mode is GameMode.TABLE and spec.dealt_by_server:
        if spec.seats is not None or spec.position is not None:
            raise InvalidGameSpec("a table game the server deals gives its members, not seats or a position")
        if len(spec.members) != spec.player_count:
            raise InvalidGameSpec(f"a table game the server deals lists all {spec.player_count} members")
        ids = [m.member_id for m in spec.members]
    elif spec.dealt_by_server:
        raise InvalidGameSpec("only a table game is dealt on request: the server deals every online game")
    elif spec.mode is GameMode.TABLE:
        if spec.seats is None or len(spec.seats) != spec.player_count:
            raise InvalidGameSpec(f"a table game lists all {spec.player_count} seats with role and character")
        if spec.members:
            raise InvalidGameSpec("a table game lists its players in seats, not members")
        ids = [s.member_id for s in spec.seats]
    else:
        if spec.seats is not None or spec.position is not None:
            raise InvalidGameSpec(
                "an online game is dealt by the server: give members, not seats or a position"
            )
        if len(spec.members) > spec.player_count:
            raise InvalidGameSpec(f"{len(spec.members)} members for {spec.player_count} seats")
        if spec.fixed_seats is not None and (
            len(spec.fixed_seats) != spec.player_count or len(spec.members) != spec.player_count
        ):
            raise InvalidGameSpec("a game of fixed seats lists every member, in seat order, and every seat")
        ids = [m.member_id for m in spec.members]
    if len(set(ids)) != len(ids):
        raise InvalidGameSpec("a player cannot take two seats")
    if spec.sheriff_member is not None:
        if spec.mode is GameMode.TABLE and not spec.dealt_by_server:
            raise InvalidGameSpec("a table game's seats already say who is Sheriff")
        if spec.player_count == 3:
            raise InvalidGameSpec("a 3-player game has no Sheriff")
        if spec.members and len(spec.members) == spec.player_count and spec.sheriff_member not in ids:
            raise InvalidGameSpec(f"the Sheriff {spec.sheriff_member} is not one of the players")
    if spec.options.decision_timeout_seconds is not None and spec.options.decision_timeout_seconds < 1:
        raise InvalidGameSpec("a decision time limit is at least 1 second")
    if spec.options.role_window_seconds is not None and spec.options.role_window_seconds < 1:
        raise InvalidGameSpec("a role window stays open at least 1 second")
    check_new_ruleset(spec.ruleset, spec.player_count)


def implemented(game_type: GameType = GameType.DICE) -> frozenset[ModuleId]:
    """The expansion modules this server's engine of ``game_type`` plays, read now: they grow
    as the engine does (``rules/dice/modules.py``'s ``ENGINE_MODULES``)."""
    return implemented_modules(game_type)


def __getattr__(name: str) -> object:
    # ``IMPLEMENTED_MODULES`` as it was a constant, but read at each use: the engine's modules
    # are registered while a server is built, after this module is imported
    if name == "IMPLEMENTED_MODULES":
        return implemented_modules(GameType.DICE)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def check_new_ruleset(ruleset: Ruleset, players: int) -> None:
    """Raise ``InvalidRuleset`` for a combination the rules refuse, then for one this server
    cannot run yet, each saying why."""
    try:
        check_ruleset(ruleset, players)
    except RulesetError as error:
        raise InvalidRuleset(str(error)) from None
    reason = unplayable(ruleset)
    if reason is not None:
        raise InvalidRuleset(reason)


class _Seat(NamedTuple):
    """A seat as the engine's ``start`` takes it (``engines.SeatSpec``)."""

    player: str
    role: str
    character: str
    special: str | None = None
    legacy_bonus: int = 0


def _start(engine: GameEngine, seats: Sequence[Any], position: object | None) -> PlayedGame:
    """A new game at its first question; a setup the rules refuse is an invalid spec, and a
    position they refuse for seats they take an invalid position."""
    if position is not None:
        _start(engine, seats, None)  # the seats' own refusal first, as without a position
        try:
            return engine.start(seats, position)
        except RULE_ERRORS as error:
            raise InvalidPosition(str(error)) from error
    try:
        return engine.start(seats, position)
    except RULE_ERRORS as error:
        raise InvalidGameSpec(str(error)) from error


def _by_name(reason: str, seats: Sequence[TableSeat]) -> str:
    """The engine's words about a position with each seat id (``p2``) as its player's name: the
    people who read the refusal never saw the ids."""
    names = {seat_id(i): s.name for i, s in enumerate(seats)}
    return re.sub(r"\bp[1-8]\b", lambda m: names.get(m.group(0), m.group(0)), reason)


def _deal_and_start(
    engine: GameEngine, seed: bytes, members: list[str], sheriff_member: str | None, fairness: Fairness
) -> list[msgspec.Struct]:
    """An online game whose last seat is taken: the deal, the start and the opening roll, by
    the derivations the game recorded, with the rules of its ruleset."""
    seated, seats = deal_derivation(fairness.deal).deal(seed, members, sheriff_member, engine.ruleset)
    seats = with_special_roles(fairness, seed, seats, engine.ruleset)
    game = _start(engine, seats, None)
    started = list(game.events)
    opening = _roll_online(
        engine, game, seed, 0, fairness.dice, fairness.draws_version, fairness.shuffles_version
    )
    return [SeatsDealt(members=tuple(seated)), *started, *opening]


def _start_fixed(
    engine: GameEngine, seed: bytes, members: list[str], seats: Sequence[Any], fairness: Fairness
) -> list[msgspec.Struct]:
    """An online game whose seats were fixed before it (a UA5 series' next game): the members
    sit in the order given, the game's seed deals only OS3's special cards, then the start and
    the opening roll."""
    dealt = with_special_roles(fairness, seed, seats, engine.ruleset)
    game = _start(engine, dealt, None)
    started = list(game.events)  # before the opening roll adds its own
    opening = _roll_online(
        engine, game, seed, 0, fairness.dice, fairness.draws_version, fairness.shuffles_version
    )
    return [SeatsDealt(members=tuple(members)), *started, *opening]


def _roll_online(
    engine: GameEngine,
    game: PlayedGame,
    seed: bytes,
    faces_rolled: int,
    version: str,
    draws: str | None = None,
    shuffles: str | None = None,
) -> list[msgspec.Struct]:
    """Roll from the game's face stream (derivation ``version``) for as long as the engine
    awaits dice. Each die is rolled over its own kind's faces; a game whose dice are all base
    dice asks the source as ``dice-1`` games always have (``roll(count)``). A card drawn at
    random (UA2's Rage cards) comes from the game's draw derivation ``draws``; the card game's
    decks and the cards it takes at random from hands from its ``shuffles`` derivation."""
    produced: list[msgspec.Struct] = []
    dice: DiceSource | None = None
    while True:
        need = engine.random_need(game)
        if need is None:
            return produced
        if need.shuffle or need.pick:
            if shuffles is None:
                raise ValueError("the game shuffles cards but records no shuffle derivation")
            derivation = shuffle_derivation(shuffles)
            values: tuple[int, ...] = (
                derivation.shuffle(seed, need.draw, [int(c) for c in need.shuffle])
                if need.shuffle
                else (derivation.pick(seed, need.draw, [int(c) for c in need.pick]),)
            )
            produced += engine.play(game, engine.supply(game, need, values))
            continue
        if need.deck is not None:
            if draws is None:
                raise ValueError(f"the game draws from {need.deck} but records no draw derivation")
            card = draw_derivation(draws).draw(seed, need.deck, need.draw, need.cards)
            produced += engine.play(game, engine.supply(game, need, (card,)))
            continue
        if dice is None:
            dice = dice_derivation(version).dice(seed)
            if faces_rolled:
                dice.roll(faces_rolled)  # the faces already dealt in earlier appends
        produced += engine.play(game, engine.supply(game, need, _roll(dice, need)))


def _roll(dice: DiceSource, need: RandomNeed) -> tuple[Any, ...]:
    if need.all_base:
        return tuple(dice.roll(len(need.dice)))
    return tuple(dice.roll(len(need.dice), kinds=need.dice))  # type: ignore[call-arg]


def _faces_in(engine: GameEngine, events: list[msgspec.Struct]) -> int:
    return sum(engine.random_used(e) for e in events)


def _playable(session: GameSession) -> PlayedGame:
    if session.status is GameStatus.LOBBY:
        raise GameNotStarted(session.game_id, len(session.joined), session.created.player_count)
    if session.status in (GameStatus.ENDED, GameStatus.ABANDONED):
        raise GameFinished(session.game_id)
    assert session.game is not None
    return session.game


def _may_act(session: GameSession, actor: Actor) -> bool:
    """Whether ``actor`` makes decisions in this game at all (the game-wide part of
    ``_authorize``): the scorekeeping organisers of a table game, the seated players online."""
    if actor.kind is ActorKind.SYSTEM:
        return True
    if session.mode is GameMode.TABLE:
        return actor.kind is ActorKind.ORGANISER or _seated_at_a_card_table(session, actor)
    return actor.kind is ActorKind.PLAYER and session.seat_of(actor.id or "") is not None


def _seated_at_a_card_table(session: GameSession, actor: Actor) -> bool:
    """Whether ``actor`` is a seated player of a table card game: he enters his own entries from
    his browser (``_authorize_at_the_table``), beside the scorekeeper."""
    return (
        actor.kind is ActorKind.PLAYER
        and session.created.ruleset.game_type is GameType.CARDS
        and session.seat_of(actor.id or "") is not None
    )


def _authorize_take_back(session: GameSession, actor: Actor) -> None:
    """Who may take an entry back: whoever enters a table game's moves. Online, a seated player
    hears the ruling's refusal (``take_back_event``), anybody else is not allowed."""
    if session.mode is GameMode.TABLE:
        if actor.kind is not ActorKind.ORGANISER:
            raise NotAllowed(
                f"game {session.game_id} is a table game: only its scorekeeper takes entries back"
            )
    elif actor.kind is not ActorKind.PLAYER or session.seat_of(actor.id or "") is None:
        raise NotAllowed(f"game {session.game_id} is played online: only its players make decisions")


def _authorize(session: GameSession, command: GameCommand, actor: Actor) -> None:
    if actor.kind is ActorKind.SYSTEM:
        return
    if session.mode is GameMode.TABLE:
        if actor.kind is ActorKind.ORGANISER:
            return
        if not _seated_at_a_card_table(session, actor):
            raise NotAllowed(f"game {session.game_id} is a table game: only its scorekeeper enters moves")
        _authorize_at_the_table(session, command, actor)
        return
    if actor.kind is not ActorKind.PLAYER:
        raise NotAllowed(f"game {session.game_id} is played online: only its players make decisions")
    reason = session.engine.server_only(command)
    if reason is not None:
        raise NotAllowed(reason)
    seat = session.seat_of(actor.id or "")
    if seat is None:
        raise NotAllowed(f"{actor.id} does not play in game {session.game_id}")
    if command.player != seat:
        raise NotAllowed(f"{actor.id} plays seat {seat} and cannot act for {command.player}")


def _authorize_at_the_table(session: GameSession, command: GameCommand, actor: Actor) -> None:
    """A seated player of a table card game enters, from his own browser, his own decisions
    (docs/card-engine.md "Each player's browser at a table"). Every table input (a shuffle, the
    next card, even of his own draw, a card taken at random) and every other seat's decision is
    the scorekeeper's: the engine refuses a card that is not in the deck, so a seat naming his own
    draw could tell a card in another hand from one in the deck, card after card."""
    seat = session.seat_of(actor.id or "")
    assert seat is not None
    game = session.game
    question = None if game is None else session.engine.question(game)
    if question is not None and question.random and command.player == question.player:
        raise NotAllowed(
            f"{actor.id} plays seat {seat}: at the table the scorekeeper enters the shuffles, the cards "
            "drawn or turned up and the random picks; a seat enters his own decisions"
        )
    if command.player != seat:
        raise NotAllowed(f"{actor.id} plays seat {seat} and cannot act for {command.player}")
