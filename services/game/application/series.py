"""UA5 legacy series: a club's run of games with the same players (RULINGS-expansions §UA5).

A series is its own stream, ``series-<id>``, in the event store::

    SeriesOpened (club, members, ruleset, mode; online: the series seed's commitment)
    → SeriesGameLinked (game 1) → SeriesDecisionRecorded × k → SeriesGameLinked (game 2) → …
    → SeriesClosed (online: with the seed, revealed)

Each game is an ordinary game (``GameService.create_game``), rated and recorded on its own; its
``GameContext`` names the series and the previous game. Between two games the legacy plan
(``rules/dice/undead/legacy.py``) asks, in order, the players' decisions and the draws: online
the server draws from the series seed (``fairness/legacy.py``, ``legacy-1``) as soon as a draw is
asked; at a table the scorekeeper enters each draw and the plan checks it. The roles draw is
never written to the series stream: online it is derived when the next game is created, at a
table it is entered as that game's seats, so the series record shows no hidden role. When the
plan is complete the next game is created from it and linked.

Who may do what: a club's organiser or admin opens and closes a series; a decision is the
deciding player's (the member seated there) or, at a table, the scorekeeper's (whoever opened
the series, or the club's scorekeeper); a table draw is the scorekeeper's only. Every refusal
stores nothing.

Writes race on the series stream's version: a decision or a close that finds the stream moved
on since it loaded the series loads it again, checks again and appends again (as the game
service does for a game), so two decisions at once are both recorded, or the later one is
refused in words when the first made it illegal; nothing is half-written. The entries that
complete the next game's setup are recorded before its game is created; a write that stops
between the two is finished by the next decision (a retry of the same command included):
``_finish_pending`` creates and links that game.

A club's series are listed from the club's own index stream, ``seriesclub-<club id>``: a
``SeriesIndexStarted`` (the series the club opened before indexes existed) then one
``SeriesListed`` per series, in the order they were opened. The indexes of the clubs with older
series are built together by one scan of the ``series`` category, the first time any index is
needed, which ``seriesindexes-built`` then records; a club's index is otherwise started by its
first open, never by a read, so listing a club that opened no series (anyone may ask, by any id)
writes and scans nothing. A page of the list reads that stream and the page's series, never
another club's (``list_page``; docs/series.md).
"""

from __future__ import annotations

import contextlib
import hashlib
import re
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import msgspec

from event_store import (
    ANY,
    NO_STREAM,
    ConcurrencyError,
    DuplicateEventConflict,
    EventMetadata,
    Mapper,
    NewEvent,
    PostgresEventStore,
)
from services.game.application.errors import (
    CommandIdReused,
    GameIdTaken,
    GameNotFound,
    InvalidGameSpec,
    NotAllowed,
)
from services.game.application.lifecycle import GameContext, GameMode
from services.game.application.service import (
    Actor,
    ActorKind,
    GameService,
    Member,
    NewGame,
    TableSeat,
    check_new_ruleset,
)
from services.game.application.session import GameSession, GameStatus
from services.game.engines.legacy import (
    DECISIONS,
    ENTRY_KIND,
    GameEnded,
    LegacyEntry,
    LegacyError,
    LegacyPlan,
    RolesDrawn,
    entry_text,
    legacy_plan,
)
from services.game.fairness.dice import commitment, new_seed
from services.game.fairness.legacy import draw, draw_while_asked
from services.game.fairness.registry import CURRENT_LEGACY, legacy_derivation
from services.game.fairness.vault import SeedVault
from services.game.rules.ruleset import ModuleId, Ruleset

SERIES_CATEGORY = "series"
INDEX_CATEGORY = "seriesclub"
"""A club's index of its series: ``seriesclub-<club id>``."""
INDEXES_BUILT = "seriesindexes-built"
"""Written once every club with older series has its index (``SeriesIndexesBuilt``)."""
_SERIES_ID = re.compile(r"^[A-Za-z0-9_-]{1,60}$")
_CLUB_ID = re.compile(r"^[A-Za-z0-9_.:-]{1,80}$")
_CONFLICT_RETRIES = 8
"""How often a write that found the series stream moved on is tried again (the game
service's figure)."""
MAX_PAGE = 100
"""The most series a page of a club's list holds."""


def series_stream(series_id: str) -> str:
    return f"{SERIES_CATEGORY}-{series_id}"


def club_index_stream(club_id: str) -> str:
    return f"{INDEX_CATEGORY}-{club_id}"


def seed_key(series_id: str) -> str:
    """The vault's key of a series seed: never a valid game id (game ids have no ``/``)."""
    return f"series/{series_id}"


def game_id_of(series_id: str, number: int) -> str:
    return f"{series_id}.g{number}"


# --- events ---------------------------------------------------------------------------------------


class SeriesEvent(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag=True):
    VERSION: ClassVar[int] = 1


class SeriesMember(msgspec.Struct, frozen=True, kw_only=True):
    member_id: str
    name: str


class SeriesOpened(SeriesEvent, frozen=True, kw_only=True):
    series_id: str
    club_id: str
    opened_by: str
    mode: GameMode
    members: tuple[SeriesMember, ...]
    ruleset: Ruleset
    seed_commitment: str | None = None
    """Online: sha256 of the series seed in hex; the seed is revealed when the series closes."""
    legacy: str | None = None
    """Online: the derivation of the draws between games (``legacy-1``)."""


class SeriesGameLinked(SeriesEvent, frozen=True, kw_only=True):
    number: int
    """1 for the first game of the series."""
    game_id: str
    previous_game_id: str | None = None


class SeriesDecisionRecorded(SeriesEvent, frozen=True, kw_only=True):
    """A decision or a draw before game ``number`` (never the roles: those are the game's)."""

    number: int
    entry: LegacyEntry
    by: str
    """The member who decided, the scorekeeper who entered it, or ``series-seed`` for a draw
    the server made from the series seed."""


class SeriesClosed(SeriesEvent, frozen=True, kw_only=True):
    closed_by: str
    reason: str = ""
    seed: str | None = None
    """Online: the series seed in hex (its sha256 is ``SeriesOpened.seed_commitment``); None
    when the last game, whose roles it drew, was abandoned (``_seed_stays_secret``)."""


class SeriesIndexStarted(SeriesEvent, frozen=True, kw_only=True):
    """The first event of a club's index stream: the ``SeriesListed`` that follow it at once are
    the series the club opened before its index existed (``found`` of them)."""

    club_id: str
    found: int


class SeriesListed(SeriesEvent, frozen=True, kw_only=True):
    """One series of the club, in the order they were opened (written before the series' own
    stream, so a series is never missing from its club's list; an entry whose series was never
    stored is skipped when read)."""

    series_id: str


class SeriesIndexesBuilt(SeriesEvent, frozen=True, kw_only=True):
    """The one event of ``seriesindexes-built``: every club that had opened a series before
    club indexes existed has its index (``clubs`` of them, ``series`` in all), so a club without
    an index has no series, and reading its list writes and scans nothing."""

    clubs: int
    series: int


SERIES_EVENTS: tuple[type[SeriesEvent], ...] = (
    SeriesOpened,
    SeriesGameLinked,
    SeriesDecisionRecorded,
    SeriesClosed,
)
INDEX_EVENTS: tuple[type[SeriesEvent], ...] = (SeriesIndexStarted, SeriesListed, SeriesIndexesBuilt)
SERIES_MAPPER = Mapper()
for _cls in (*SERIES_EVENTS, *INDEX_EVENTS):
    SERIES_MAPPER.register(_cls, schema_version=_cls.VERSION)
SEED_DRAW = "series-seed"
SERIES_SERVER = "series-server"
"""The actor of a series write the server finishes for an earlier, interrupted one (the link of
a game whose setup was recorded): whoever's request happened to find it unfinished (even one
then refused) is not its author."""


# --- errors --------------------------------------------------------------------------------------


class SeriesNotFound(GameNotFound):
    def __init__(self, series_id: str) -> None:
        self.game_id = series_id
        LookupError.__init__(self, f"no series {series_id!r}")


class SeriesRefused(InvalidGameSpec):
    """The series cannot do this now, or the rules refuse the entry; nothing was stored."""


# --- the fold ------------------------------------------------------------------------------------


class SeriesState:
    def __init__(self, opened: SeriesOpened) -> None:
        self.opened = opened
        self.games: list[SeriesGameLinked] = []
        self.entries: dict[int, list[SeriesDecisionRecorded]] = {}
        self.closed: SeriesClosed | None = None
        self.version = 1
        self.commands: set[str] = set()
        """The command ids of the writes so far: the same command again changes nothing."""
        self.by_command: dict[str, list[tuple[str | None, SeriesEvent]]] = {}
        """Each command id's events with their actor: a used id is a retry only of the same
        command by the same caller (``is_retry``)."""

    @classmethod
    def fold(cls, events: Sequence[SeriesEvent]) -> SeriesState:
        first = events[0]
        if not isinstance(first, SeriesOpened):
            raise ValueError("a series stream opens with SeriesOpened")
        state = cls(first)
        for e in events[1:]:
            state.apply(e)
        return state

    def apply(self, e: SeriesEvent) -> None:
        match e:
            case SeriesGameLinked():
                self.games.append(e)
            case SeriesDecisionRecorded():
                self.entries.setdefault(e.number, []).append(e)
            case SeriesClosed():
                self.closed = e
        self.version += 1

    @property
    def series_id(self) -> str:
        return self.opened.series_id

    @property
    def next_number(self) -> int:
        return len(self.games) + 1

    def recorded(self, number: int) -> list[LegacyEntry]:
        return [d.entry for d in self.entries.get(number, [])]

    def is_retry(
        self, command_id: str, actor: str, *, entry: LegacyEntry | None = None, close: str | None = None
    ) -> bool:
        """Whether ``command_id`` was used already, for this very command by this very caller: the
        decision ``entry`` (a table's roles draw is the game's, never recorded: its caller
        suffices), or the close with the reason ``close``. ``CommandIdReused`` when the id was
        used for another command or by another caller (as the game service answers): answering
        it as done would tell the caller a write was stored that never was."""
        done = self.by_command.get(command_id)
        if done is None:
            return False
        events = [e for _, e in done]
        if close is not None:
            same = any(isinstance(e, SeriesClosed) and e.reason == close for e in events)
        elif isinstance(entry, RolesDrawn):
            same = not any(isinstance(e, (SeriesOpened, SeriesClosed)) for e in events)
        else:
            same = any(
                isinstance(e, SeriesDecisionRecorded) and e.by != SEED_DRAW and e.entry == entry
                for e in events
            )
        if not same or any(a != actor for a, _ in done):
            raise CommandIdReused(command_id)
        return True


# --- requests ------------------------------------------------------------------------------------


class NewSeries(msgspec.Struct, frozen=True, kw_only=True):
    series_id: str
    club_id: str
    mode: GameMode
    ruleset: Ruleset
    members: tuple[Member, ...] = ()
    """Online: the players (the first game deals their seats)."""
    seats: tuple[TableSeat, ...] | None = None
    """Table: the first game's seats as dealt at the table, clockwise."""


@dataclass(frozen=True, slots=True)
class SeriesPage:
    """One page of a club's series, in the order they were opened (a series opened later goes at
    the end, so an offset keeps pointing at the same series)."""

    items: list[SeriesState]
    next_offset: int | None
    """The offset of the next page; None on the last."""


class SeriesView(msgspec.Struct, frozen=True, kw_only=True):
    series_id: str
    club_id: str
    mode: str
    ruleset: str
    members: list[SeriesMember]
    status: str
    """``open`` or ``closed``."""
    games: list[dict[str, Any]]
    decisions: list[dict[str, Any]]
    standing: list[dict[str, Any]]
    asked: dict[str, Any] | None
    """The question the series waits for before its next game (None while a game is played or
    once it is closed)."""
    seed_commitment: str | None = None
    seed: str | None = None


# --- the service ---------------------------------------------------------------------------------


class SeriesService:
    def __init__(self, store: PostgresEventStore, games: GameService, seeds: SeedVault) -> None:
        self.store = store
        self.games = games
        self.seeds = seeds

    # -- reading ----------------------------------------------------------------------------------

    async def load(self, series_id: str) -> SeriesState:
        if not _SERIES_ID.fullmatch(series_id):
            raise SeriesNotFound(series_id)
        recorded = await self.store.read_stream(series_stream(series_id))
        if not recorded:
            raise SeriesNotFound(series_id)
        events: list[SeriesEvent] = [SERIES_MAPPER.to_domain(r) for r in recorded]  # type: ignore[misc]
        state = SeriesState.fold(events)
        state.commands = {r.metadata.command_id for r in recorded if r.metadata.command_id is not None}
        for r, e in zip(recorded, events, strict=True):
            if r.metadata.command_id is not None:
                state.by_command.setdefault(r.metadata.command_id, []).append((r.metadata.actor, e))
        return state

    async def list_for(self, club_id: str) -> list[SeriesState]:
        """Every series of the club, in the order they were opened (``list_page`` page by page)."""
        found: list[SeriesState] = []
        offset: int | None = 0
        while offset is not None:
            page = await self.list_page(club_id, limit=MAX_PAGE, offset=offset)
            found += page.items
            offset = page.next_offset
        return found

    async def list_page(
        self, club_id: str, *, limit: int = 20, offset: int = 0, after: str | None = None
    ) -> SeriesPage:
        """A page of the club's series, in the order they were opened: read from the club's index
        stream and the page's own series streams, no other. The page starts at ``offset`` (0:
        the first series), or just after the series ``after`` when given (a cursor that stays
        valid: series opened later go at the end). ``SeriesRefused`` for a limit out of 1 to
        ``MAX_PAGE``, a negative offset or an ``after`` that is not one of the club's series."""
        if not 1 <= limit <= MAX_PAGE:
            raise SeriesRefused(f"a page holds 1 to {MAX_PAGE} series, not {limit}")
        if offset < 0:
            raise SeriesRefused(f"an offset counts from 0, not {offset}")
        if not _CLUB_ID.fullmatch(club_id) or not await self._index(club_id, start=False):
            if after is not None:
                raise SeriesRefused(f"{after!r} is not a series of club {club_id}")
            return SeriesPage(items=[], next_offset=None)  # a club that never opened a series
        if after is not None:
            listed = [
                SERIES_MAPPER.to_domain(r)
                for r in await self.store.read_stream(club_index_stream(club_id), 2)
            ]
            ids = [e.series_id for e in listed if isinstance(e, SeriesListed)]
            if after not in ids:
                raise SeriesRefused(f"{after!r} is not a series of club {club_id}")
            offset = ids.index(after) + 1
        # version 1 is SeriesIndexStarted; the entries follow from version 2; one more than the
        # page says whether a next page exists
        entries = await self.store.read_stream(club_index_stream(club_id), 2 + offset, limit + 1)
        items: list[SeriesState] = []
        for r in entries[:limit]:
            entry = SERIES_MAPPER.to_domain(r)
            assert isinstance(entry, SeriesListed)
            try:
                state = await self.load(entry.series_id)
            except SeriesNotFound:
                continue  # listed, then refused or lost before its stream was written
            if state.opened.club_id == club_id and state.series_id not in {s.series_id for s in items}:
                items.append(state)
        return SeriesPage(items=items, next_offset=offset + limit if len(entries) > limit else None)

    async def _index(self, club_id: str, *, start: bool) -> bool:
        """Whether the club has an index stream; ``start``: start one for a club that has none
        (its first series is being opened). The first time any index is needed, every club's
        index is built by one scan of the ``series`` category (``_build_indexes``); after that a
        club without an index opened no series, and a read of its list (anyone may ask, by any
        id) scans nothing and writes nothing."""
        stream = club_index_stream(club_id)
        if await self.store.stream_version(stream) > 0:
            return True
        if await self.store.stream_version(INDEXES_BUILT) == 0:
            await self._build_indexes()
            if await self.store.stream_version(stream) > 0:
                return True
        if start:
            await self._start_index(club_id, [])
        return start

    async def _build_indexes(self) -> None:
        """Index the series opened before club indexes existed: scan the ``series`` category once
        (every series stream's first event), start each of those clubs' index with its series,
        then write ``INDEXES_BUILT``. Racing builders write the same events; the first wins."""
        by_club: dict[str, list[str]] = {}
        after = 0
        while True:
            batch = await self.store.read_category(SERIES_CATEGORY, after_position=after, limit=500)
            if not batch:
                break
            after = batch[-1].position
            for r in batch:
                club_id = str(r.data.get("club_id"))
                if r.type == "SeriesOpened" and _CLUB_ID.fullmatch(club_id):
                    by_club.setdefault(club_id, []).append(str(r.data["series_id"]))
        for club_id, found in by_club.items():
            await self._start_index(club_id, found)
        built = SeriesIndexesBuilt(clubs=len(by_club), series=sum(len(f) for f in by_club.values()))
        event = SERIES_MAPPER.to_new_event(
            built, event_id=uuid.uuid5(_SERIES_EVENT_IDS, INDEXES_BUILT), metadata=_INDEX_METADATA
        )
        with contextlib.suppress(ConcurrencyError, DuplicateEventConflict):  # built meanwhile
            await self.store.append(INDEXES_BUILT, [event], expected_version=NO_STREAM)

    async def _start_index(self, club_id: str, found: list[str]) -> None:
        """Start the club's index with the series it opened before it (``found``, in order)."""
        started: list[SeriesEvent] = [SeriesIndexStarted(club_id=club_id, found=len(found))]
        new = [_index_event(club_id, e) for e in [*started, *(SeriesListed(series_id=s) for s in found)]]
        with contextlib.suppress(ConcurrencyError, DuplicateEventConflict):  # another writer started it
            await self.store.append(club_index_stream(club_id), new, expected_version=NO_STREAM)

    async def _list(self, club_id: str, series_id: str) -> None:
        """Add ``series_id`` to its club's index (once: the same entry again changes nothing)."""
        await self._index(club_id, start=True)
        with contextlib.suppress(DuplicateEventConflict):  # listed already, by the scan that started it
            await self.store.append(
                club_index_stream(club_id),
                [_index_event(club_id, SeriesListed(series_id=series_id))],
                expected_version=ANY,
            )

    async def plan(self, state: SeriesState) -> tuple[LegacyPlan | None, GameSession | None]:
        """The legacy plan toward the next game (None while the last game is not over)."""
        if not state.games:
            return None, None
        last = await self.games.load(state.games[-1].game_id)
        if last.status is not GameStatus.ENDED or last.game is None:
            return None, last
        plan = legacy_plan(last.game.events, state.opened.ruleset, state.recorded(state.next_number))
        if state.opened.mode is GameMode.ONLINE and state.closed is None:
            # the draws the plan asks before the next decision, made from the series seed (the
            # next decision records them); the roles draw waits for the game's creation
            plan = _draw_public(await self.seeds.seed_of(seed_key(state.series_id)), state.next_number, plan)
        return plan, last

    async def view(self, state: SeriesState) -> SeriesView:
        games: list[dict[str, Any]] = []
        wins: dict[str, int] = {m.member_id: 0 for m in state.opened.members}
        played: dict[str, int] = dict.fromkeys(wins, 0)
        for link in state.games:
            session = await self.games.load(link.game_id)
            row: dict[str, Any] = {
                "number": link.number,
                "game_id": link.game_id,
                "previous_game_id": link.previous_game_id,
                "status": session.status.value,
            }
            if session.status is GameStatus.ENDED and session.game is not None:
                ended = session.game.events[-1]
                if isinstance(ended, GameEnded):
                    winners = [session.seat_members.get(p, p) for p in ended.winners]
                    row["winners"] = winners
                    for member in session.seat_members.values():
                        played[member] = played.get(member, 0) + 1
                    for w in winners:
                        wins[w] = wins.get(w, 0) + 1
            games.append(row)
        decisions = [
            {
                "number": d.number,
                "kind": ENTRY_KIND[type(d.entry)].value,
                "entry": entry_text(d.entry),
                "by": d.by,
            }
            for n in sorted(state.entries)
            for d in state.entries[n]
        ]
        names = {m.member_id: m.name for m in state.opened.members}
        ranked = sorted(wins.items(), key=lambda mw: (-mw[1], names.get(mw[0], mw[0])))
        standing: list[dict[str, Any]] = [
            {"member_id": m, "name": names.get(m, m), "games": played.get(m, 0), "wins": w} for m, w in ranked
        ]
        asked: dict[str, Any] | None = None
        if state.closed is None:
            plan, last = await self.plan(state)
            if plan is not None and last is not None and plan.asked is not None:
                q = plan.asked
                asked = {
                    "number": state.next_number,
                    "ask": q.ask.value,
                    "seat": q.player,
                    "member_id": last.seat_members.get(q.player),
                    "draw": q.is_draw,
                    "among": list(q.among),
                }
        opened = state.opened
        return SeriesView(
            series_id=opened.series_id,
            club_id=opened.club_id,
            mode=opened.mode.value,
            ruleset=opened.ruleset.text,
            members=list(opened.members),
            status="open" if state.closed is None else "closed",
            games=games,
            decisions=decisions,
            standing=standing,
            asked=asked,
            seed_commitment=opened.seed_commitment,
            seed=None if state.closed is None else state.closed.seed,
        )

    # -- writing ----------------------------------------------------------------------------------

    async def open(self, spec: NewSeries, *, opened_by: str, command_id: str) -> SeriesState:
        """Open ``spec`` and create its first game; nothing is stored if either is refused."""
        if not _SERIES_ID.fullmatch(spec.series_id):
            raise SeriesRefused(
                f"{spec.series_id!r} is not a valid series id (letters, digits, _ -; 1 to 60)"
            )
        if not spec.ruleset.has(ModuleId.UA5):
            raise SeriesRefused("a legacy series plays UA5: add UA5 to its modules")
        if spec.mode is GameMode.TABLE:
            if not spec.seats:
                raise SeriesRefused("a table series lists its first game's seats")
            members = tuple(SeriesMember(member_id=s.member_id, name=s.name) for s in spec.seats)
        else:
            if spec.seats is not None:
                raise SeriesRefused("an online series is dealt by the server: give members, not seats")
            members = tuple(SeriesMember(member_id=m.member_id, name=m.name) for m in spec.members)
        count = len(members)
        check_new_ruleset(spec.ruleset, count)
        if len({m.member_id for m in members}) != count:
            raise SeriesRefused("a player cannot take two seats")
        if await self.store.stream_version(series_stream(spec.series_id)) > 0:
            existing = await self.load(spec.series_id)
            if command_id in existing.commands and existing.opened.opened_by == opened_by:
                return existing  # the same open again: answered with the series
            raise SeriesRefused(f"series {spec.series_id} exists already")
        seed_commitment = None
        if spec.mode is GameMode.ONLINE:
            seed = await self.seeds.keep(seed_key(spec.series_id), new_seed())
            seed_commitment = commitment(seed)
        opened = SeriesOpened(
            series_id=spec.series_id,
            club_id=spec.club_id,
            opened_by=opened_by,
            mode=spec.mode,
            members=members,
            ruleset=spec.ruleset,
            seed_commitment=seed_commitment,
            legacy=CURRENT_LEGACY if spec.mode is GameMode.ONLINE else None,
        )
        game_id = game_id_of(spec.series_id, 1)
        context = GameContext(series_id=spec.series_id)
        first = NewGame(
            mode=spec.mode,
            player_count=count,
            members=()
            if spec.mode is GameMode.TABLE
            else tuple(Member(member_id=m.member_id, name=m.name) for m in members),
            seats=spec.seats,
            context=context,
            game_id=game_id,
            ruleset=spec.ruleset,
        )
        actor = Actor(kind=ActorKind.ORGANISER, id=opened_by)
        await self.games.create_game(first, command_id=f"{command_id}/game/1", actor=actor)
        link = SeriesGameLinked(number=1, game_id=game_id)
        await self._list(spec.club_id, spec.series_id)
        try:
            await self._append(spec.series_id, [opened, link], 0, command_id, opened_by)
        except ConcurrencyError:
            existing = await self.load(spec.series_id)
            if command_id in existing.commands and existing.opened.opened_by == opened_by:
                return existing  # the same open, stored meanwhile by its first try
            raise SeriesRefused(f"series {spec.series_id} exists already") from None
        return await self.load(spec.series_id)

    async def decide(
        self, series_id: str, entry: LegacyEntry, *, member_id: str, scorekeeper: bool, command_id: str
    ) -> SeriesState:
        """Record ``entry`` before the series' next game; create that game when the plan is
        complete. ``scorekeeper``: the caller keeps the score of this table series. When the
        series moved on meanwhile (another decision, a close) it is loaded and checked again:
        the entry is recorded after the other, or refused in words if it is no longer asked."""
        for _ in range(_CONFLICT_RETRIES):
            try:
                return await self._decide(series_id, entry, member_id, scorekeeper, command_id)
            except _Moved:
                continue
        raise SeriesRefused(f"series {series_id} kept changing meanwhile: ask again")

    async def _decide(
        self, series_id: str, entry: LegacyEntry, member_id: str, scorekeeper: bool, command_id: str
    ) -> SeriesState:
        state = await self._finish_pending(await self.load(series_id))
        if state.is_retry(command_id, member_id, entry=entry):
            return state  # the same command again changes nothing
        if state.closed is not None:
            raise SeriesRefused(f"series {series_id} is closed")
        plan, last = await self.plan(state)
        if plan is None or last is None:
            raise SeriesRefused(
                f"game {state.games[-1].game_id} of series {series_id} is not over: nothing is decided yet"
            )
        q = plan.asked
        kind = ENTRY_KIND[type(entry)]
        if q is None:
            raise SeriesRefused(f"series {series_id} asks nothing now")
        online = state.opened.mode is GameMode.ONLINE
        if kind in DECISIONS:
            seated = last.seat_members.get(entry.player)
            if seated != member_id and not (scorekeeper and not online):
                raise NotAllowed(
                    f"{kind.value} for seat {entry.player} is the decision of the player seated there"
                    + ("" if online else " or of the table's scorekeeper")
                )
            by = member_id
        else:
            if online:
                raise NotAllowed(f"in an online series the server draws {kind.value} from the series seed")
            if not scorekeeper:
                raise NotAllowed(f"a draw ({kind.value}) is entered by the table's scorekeeper")
            by = member_id
        try:
            after = plan.enter(entry)
        except LegacyError as error:
            raise SeriesRefused(str(error)) from None
        number = state.next_number
        new: list[SeriesEvent] = [
            SeriesDecisionRecorded(number=number, entry=e, by=SEED_DRAW)
            for e in plan.entries[len(state.recorded(number)) :]
        ]  # online: the draws made before this decision
        if not isinstance(entry, RolesDrawn):
            new.append(SeriesDecisionRecorded(number=number, entry=entry, by=by))
        if online:
            seed = await self.seeds.seed_of(seed_key(series_id))
            before = len(after.entries)
            after = _draw_public(seed, number, after)
            new += [
                SeriesDecisionRecorded(number=number, entry=e, by=SEED_DRAW) for e in after.entries[before:]
            ]
            if after.asked is not None and after.asked.ask.value == "roles":
                after = after.enter(draw(seed, number, after.asked))
        if after.setup is None:
            await self._append(series_id, new, state.version, command_id, member_id)
            return await self.load(series_id)
        # The entry completes the next game's setup. The entries are recorded first: the stream's
        # version decides between racing entries before any game exists. Then the game (made
        # again the same from the recorded entries by any retry), then its link.
        version = state.version
        if new:
            await self._append(series_id, new, version, command_id, member_id)
            version += len(new)
        try:
            link = await self._create_next(state, last, after)
        except (CommandIdReused, GameIdTaken):
            # a racing roles entry (recorded in no series event) created the game: load again
            raise _Moved from None
        await self._link(series_id, link, version, command_id, member_id, first=len(new))
        return await self.load(series_id)

    async def _finish_pending(self, state: SeriesState) -> SeriesState:
        """Finish a write that stopped after recording the entries that complete the next game's
        setup and before linking its game (a crash or a failed store call between the two):
        online, the game those entries and the seed set up is created (the same game the write
        would have made: same command, same spec) and linked; at a table, where the roles are
        the game's own seats and never recorded, a game already created for the series from
        them is linked. Without this, the series would wait for a roles draw nobody may enter
        (online) or refuse every roles entry as a reused command (table), and a retry of the
        completing command would find itself recorded and answer with no game. The link is the
        server's (``SERIES_SERVER``), made the same whichever request finds it unfinished."""
        if state.closed is not None:
            return state
        plan, last = await self.plan(state)
        if plan is None or last is None or plan.asked is None or plan.asked.ask.value != "roles":
            return state
        number = state.next_number
        if state.opened.mode is GameMode.ONLINE:
            seed = await self.seeds.seed_of(seed_key(state.series_id))
            try:
                link = await self._create_next(state, last, plan.enter(draw(seed, number, plan.asked)))
            except (CommandIdReused, GameIdTaken):
                raise _Moved from None  # being created by the write that recorded the entries
        else:
            game_id = game_id_of(state.series_id, number)
            try:
                created = await self.games.load(game_id)
            except GameNotFound:
                return state  # the roles are still to be entered
            if created.created.context.series_id != state.series_id:
                return state
            link = SeriesGameLinked(number=number, game_id=game_id, previous_game_id=state.games[-1].game_id)
        await self._link(
            state.series_id, link, state.version, f"{state.series_id}/link/{number}", SERIES_SERVER, first=0
        )
        return await self.load(state.series_id)

    async def _link(
        self, series_id: str, link: SeriesGameLinked, version: int, command_id: str, actor: str, *, first: int
    ) -> None:
        """Append ``link`` (its game is created), after whatever was appended meanwhile (a close)."""
        for _ in range(_CONFLICT_RETRIES):
            try:
                await self._append(series_id, [link], version, command_id, actor, first=first)
                return
            except _Moved:
                state = await self.load(series_id)
                if any(g.game_id == link.game_id for g in state.games):
                    return
                version = state.version
        raise SeriesRefused(f"series {series_id} kept changing meanwhile: ask again")

    async def close(self, series_id: str, *, closed_by: str, reason: str, command_id: str) -> SeriesState:
        """Close the series (a decision recorded meanwhile stays: the close follows it)."""
        for _ in range(_CONFLICT_RETRIES):
            state = await self.load(series_id)
            if state.is_retry(command_id, closed_by, close=reason):
                return state
            if state.closed is not None:
                raise SeriesRefused(f"series {series_id} is closed already")
            seed = None
            if state.opened.mode is GameMode.ONLINE:
                await self._check_seed_may_show(state)
                if not await self._seed_stays_secret(state):
                    seed = (await self.seeds.seed_of(seed_key(series_id))).hex()
            closed = SeriesClosed(closed_by=closed_by, reason=reason, seed=seed)
            try:
                await self._append(series_id, [closed], state.version, command_id, closed_by)
            except _Moved:
                continue
            return await self.load(series_id)
        raise SeriesRefused(f"series {series_id} kept changing meanwhile: ask again")

    async def _check_seed_may_show(self, state: SeriesState) -> None:
        """Refuse an online close that would reveal the series seed while it still hides a role:
        the roles of game 2 on are drawn from that seed (``legacy-1``), so with the seed and the
        public plan anyone could work out every role of a game still being played, or of the game
        the recorded entries are setting up (a close that found those entries recorded would
        otherwise reveal the seed just before that game is created and linked)."""
        last = state.games[-1]
        if last.number >= 2 and (await self.games.load(last.game_id)).status is GameStatus.ONGOING:
            raise SeriesRefused(
                f"game {last.game_id} is still being played and its roles were drawn from the series "
                "seed, which closing reveals: close the series once that game is over"
            )
        plan, _ = await self.plan(state)
        if plan is not None and plan.asked is not None and plan.asked.ask.value == "roles":
            raise SeriesRefused(
                f"game {game_id_of(state.series_id, state.next_number)} is being set up with roles drawn "
                "from the series seed, which closing reveals: close the series once that game is over"
            )

    async def _seed_stays_secret(self, state: SeriesState) -> bool:
        """Whether the close keeps the series seed secret for good: the last game, whose roles it
        drew (game 2 on), was abandoned. An abandoned game never reveals its roles nor its own
        seed (``visibility.role_visible``; docs/audit.md), and the series cannot go on past it,
        so revealing the series seed would show every role of that game to anybody."""
        last = state.games[-1]
        return last.number >= 2 and (await self.games.load(last.game_id)).status is GameStatus.ABANDONED

    async def _create_next(self, state: SeriesState, last: GameSession, plan: LegacyPlan) -> SeriesGameLinked:
        """Create the game ``plan`` sets up, under the series' own command for it
        (``<series>/game/<n>``, never the caller's): every write that reaches it, a retry or a
        racing one, asks for the same game, so the store makes one."""
        setup = plan.setup
        assert setup is not None
        number = state.next_number
        previous = state.games[-1].game_id
        members = [last.seat_members[s.player] for s in setup.seats]
        names = last.member_names()
        game_id = game_id_of(state.series_id, number)
        context = GameContext(series_id=state.series_id, previous_game_id=previous)
        ruleset = state.opened.ruleset
        if state.opened.mode is GameMode.ONLINE:
            spec = NewGame(
                mode=GameMode.ONLINE,
                player_count=len(members),
                members=tuple(Member(member_id=m, name=names.get(m, m)) for m in members),
                fixed_seats=setup.seats,
                context=context,
                game_id=game_id,
                ruleset=ruleset,
            )
        else:
            seats = tuple(
                TableSeat(
                    member_id=m,
                    name=names.get(m, m),
                    role=s.role.value,
                    character=s.character.value,
                    legacy_bonus=s.legacy_bonus,
                )
                for m, s in zip(members, setup.seats, strict=True)
            )
            spec = NewGame(
                mode=GameMode.TABLE,
                player_count=len(members),
                seats=seats,
                context=context,
                game_id=game_id,
                ruleset=ruleset,
            )
        actor = Actor(kind=ActorKind.ORGANISER, id=state.opened.opened_by)
        try:
            await self.games.create_game(spec, command_id=f"{state.series_id}/game/{number}", actor=actor)
        except GameIdTaken:
            taken = await self.games.load(game_id)
            if taken.created.context.series_id != state.series_id:
                # a game created outside the series under its next game's id: retrying cannot help
                raise SeriesRefused(
                    f"the id {game_id} of this series' next game is taken by a game outside the series"
                ) from None
            raise
        return SeriesGameLinked(number=number, game_id=game_id, previous_game_id=previous)

    async def _append(
        self,
        series_id: str,
        events: Sequence[SeriesEvent],
        expected: int,
        command_id: str,
        actor: str,
        *,
        first: int = 0,
    ) -> None:
        """Append ``events`` at ``expected``; ``_Moved`` if the stream moved on (``ConcurrencyError``
        for an open). ``first``: the number of this command's events appended before these."""
        metadata = EventMetadata(actor=actor, command_id=command_id)
        new = [
            SERIES_MAPPER.to_new_event(
                e, event_id=uuid.uuid5(_SERIES_EVENT_IDS, f"{series_id}/{command_id}/{i}"), metadata=metadata
            )
            for i, e in enumerate(events, start=first)
        ]
        try:
            await self.store.append(
                series_stream(series_id), new, expected_version=NO_STREAM if expected == 0 else expected
            )
        except ConcurrencyError:
            if expected == 0:
                raise  # an open: ``open`` answers it
            raise _Moved from None


class _Moved(Exception):
    """The series stream moved on since the series was loaded: load, check and write again."""


_SERIES_EVENT_IDS = uuid.UUID(hashlib.sha256(b"bang-league series events").hexdigest()[:32])
_INDEX_METADATA = EventMetadata(actor="series-index")


def _index_event(club_id: str, event: SeriesEvent) -> NewEvent:
    """An index event with an id of its own content (the same entry again is the same event)."""
    key = event.series_id if isinstance(event, SeriesListed) else "started"
    metadata = msgspec.structs.replace(_INDEX_METADATA, command_id=f"index/{key}")
    event_id = uuid.uuid5(_SERIES_EVENT_IDS, f"index/{club_id}/{key}")
    return SERIES_MAPPER.to_new_event(event, event_id=event_id, metadata=metadata)


def _draw_public(seed: bytes, number: int, plan: LegacyPlan) -> LegacyPlan:
    """The plan with the draws it asks entered from the seed, up to a decision or the roles."""
    while (q := plan.asked) is not None and q.is_draw and q.ask.value != "roles":
        plan = plan.enter(draw(seed, number, q))
    return plan


__all__ = [
    "INDEX_EVENTS",
    "SERIES_EVENTS",
    "SERIES_MAPPER",
    "NewSeries",
    "SeriesClosed",
    "SeriesDecisionRecorded",
    "SeriesGameLinked",
    "SeriesIndexStarted",
    "SeriesIndexesBuilt",
    "SeriesListed",
    "SeriesNotFound",
    "SeriesOpened",
    "SeriesPage",
    "SeriesRefused",
    "SeriesService",
    "SeriesState",
    "SeriesView",
    "club_index_stream",
    "draw_while_asked",
    "legacy_derivation",
    "series_stream",
]
