"""A UA5 series under concurrent writes and a club's list of series (in-memory store).

- Writes race on the series stream's version: two decisions loaded at the same version are
  both recorded (the later one loaded and checked again), or the later one is refused in words
  when the first made it illegal; when both would complete the next game's setup, one game is
  created, from the recorded entry, and linked: nothing half-written.
- A club's list reads the club's index stream (``seriesclub-<club>``) and the page's series,
  never the whole ``series`` category (except once, to build the indexes of the clubs with
  series opened before indexes existed), page by page in the order the series were opened; a
  club that opened no series is listed without a scan or a write.
- A write that stops between recording a completing answer and linking its game is finished by
  the next decision; an online series does not close while its seed hides a role in play.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from event_store import MemoryEventStore
from services.game.application.codec import GAME_MAPPER
from services.game.application.errors import CommandIdReused
from services.game.application.lifecycle import GameMode
from services.game.application.series import (
    SERIES_MAPPER,
    SERIES_SERVER,
    NewSeries,
    SeriesClosed,
    SeriesDecisionRecorded,
    SeriesGameLinked,
    SeriesOpened,
    SeriesRefused,
    SeriesService,
    SeriesState,
    _draw_public,
    club_index_stream,
    series_stream,
)
from services.game.application.service import GameService, Member
from services.game.audit.series import audit_series
from services.game.fairness.memory_vault import MemorySeedVault
from services.game.rules.dice.undead.legacy import (
    Ask,
    ChooseCharacter,
    KeepCharacter,
    LegacyEntry,
    NextSheriff,
)
from services.game.rules.dice.vocabulary import CharacterId, PlayerId
from services.game.rules.ruleset import ruleset_of
from tests.unit.game.undead.test_series_service import play_to_end

MEMBERS = tuple(Member(member_id=f"m{i}", name=f"P{i}") for i in range(1, 6))


class RacingStore(MemoryEventStore):
    """The in-memory store, with hooks to make two writers meet: ``gate`` holds the next
    ``gate_count`` reads of a series stream until they have all arrived (so they load the same
    version); ``hold_close`` keeps a close's append until a decision has been appended."""

    def __init__(self) -> None:
        super().__init__(mapper=GAME_MAPPER)
        self.gate: asyncio.Barrier | None = None
        self.gate_count = 0
        self.decided = asyncio.Event()
        self.hold_close = False
        self.reads: list[str] = []
        self.category_reads = 0

    async def read_stream(self, stream: str, from_version: int = 1, limit: int | None = None) -> Any:
        self.reads.append(stream)
        events = await super().read_stream(stream, from_version, limit)
        if self.gate is not None and self.gate_count and stream.startswith("series-"):
            self.gate_count -= 1
            await self.gate.wait()
        return events

    async def read_category(self, category: str, after_position: int = 0, limit: int = 500) -> Any:
        if after_position == 0:  # a scan of the category starts
            self.category_reads += 1
        return await super().read_category(category, after_position, limit)

    async def append(self, stream: str, events: Any, **kwargs: Any) -> Any:
        closing = any(getattr(e, "type", None) == "SeriesClosed" for e in events)
        if closing and self.hold_close:
            await self.decided.wait()
        result = await super().append(stream, events, **kwargs)
        if any(getattr(e, "type", None) == "SeriesDecisionRecorded" for e in events):
            self.decided.set()
        return result

    def meet(self, writers: int) -> None:
        """The next ``writers`` loads of a series meet before any goes on."""
        self.gate = asyncio.Barrier(writers)
        self.gate_count = writers


Services = tuple[RacingStore, GameService, SeriesService]


async def _series(series_id: str = "s1", club_id: str = "club-1") -> Services:
    store = RacingStore()
    vault = MemorySeedVault()
    games = GameService(store, vault)  # type: ignore[arg-type]
    series = SeriesService(store, games, vault)  # type: ignore[arg-type]
    await series.open(_online(series_id, club_id), opened_by="organiser-1", command_id=f"open-{series_id}")
    return store, games, series


def _online(series_id: str, club_id: str) -> NewSeries:
    online, ruleset = GameMode.ONLINE, ruleset_of(["UA5"])
    return NewSeries(series_id=series_id, club_id=club_id, mode=online, ruleset=ruleset, members=MEMBERS)


def _answers(ask: Ask, seat: str, among: list[str]) -> list[LegacyEntry]:
    """Every answer to the question, in a fixed order."""
    player = PlayerId(seat)
    if ask is Ask.NEXT_SHERIFF:
        return [NextSheriff(player=player, sheriff=PlayerId(p)) for p in among]
    if ask is Ask.KEEP_CHARACTER:
        return [KeepCharacter(player=player, keep=True), KeepCharacter(player=player, keep=False)]
    return [ChooseCharacter(player=player, character=CharacterId(c)) for c in among]


async def _completes(series: SeriesService, state: SeriesState, entry: LegacyEntry) -> bool:
    """Whether ``entry`` completes the next game's setup (online: the roles are the server's)."""
    plan, _ = await series.plan(state)
    assert plan is not None
    after = plan.enter(entry)
    seed = await series.seeds.seed_of(f"series/{state.series_id}")
    after = _draw_public(seed, state.next_number, after)
    return after.asked is None or after.asked.ask is Ask.ROLES_DRAW


async def _stored(store: RacingStore, series_id: str) -> list[Any]:
    records = await MemoryEventStore.read_stream(store, series_stream(series_id))
    return [SERIES_MAPPER.to_domain(r) for r in records]


async def test_a_decision_and_a_close_at_once_are_both_recorded() -> None:
    store, games, series = await _series()
    await play_to_end(games, "s1.g1", 1)
    state = await series.load("s1")
    view = await series.view(state)
    asked = view.asked
    assert asked is not None
    entry = _answers(Ask(asked["ask"]), asked["seat"], asked["among"])[0]
    store.meet(2)
    store.hold_close = True  # the close loaded the same version, and appends after the decision
    _, closed = await asyncio.gather(
        series.decide("s1", entry, member_id=asked["member_id"], scorekeeper=False, command_id="d0"),
        series.close("s1", closed_by="organiser-1", reason="late", command_id="close"),
    )
    stored = await _stored(store, "s1")
    kinds = [type(e) for e in stored]
    assert SeriesDecisionRecorded in kinds and kinds[-1] is SeriesClosed  # the close after the decision
    assert any(isinstance(e, SeriesDecisionRecorded) and e.entry == entry for e in stored)
    assert closed.closed is not None and closed.version == len(stored)
    assert "d0" in closed.commands and "close" in closed.commands


async def test_two_answers_to_one_question_at_once_the_second_is_refused_in_words() -> None:
    store, games, series = await _series()
    await play_to_end(games, "s1.g1", 2)
    state = await series.load("s1")
    asked = (await series.view(state)).asked
    assert asked is not None
    first, second = _answers(Ask(asked["ask"]), asked["seat"], asked["among"])[:2]
    before = len(await _stored(store, "s1"))
    store.meet(2)
    results = await asyncio.gather(
        series.decide("s1", first, member_id=asked["member_id"], scorekeeper=False, command_id="a"),
        series.decide("s1", second, member_id=asked["member_id"], scorekeeper=False, command_id="b"),
        return_exceptions=True,
    )
    refused = [r for r in results if isinstance(r, Exception)]
    assert len(refused) == 1 and isinstance(refused[0], SeriesRefused), results
    # refused for what the first answer changed (the next question), not for the race itself
    assert "meanwhile" not in str(refused[0]) and str(refused[0])
    after = await _stored(store, "s1")
    answered = [e for e in after[before:] if isinstance(e, SeriesDecisionRecorded) and e.by != "series-seed"]
    assert len(answered) == 1 and answered[0].entry in (first, second)  # one of them, once


@pytest.mark.parametrize("seed", [3, 4, 5])
async def test_two_entries_completing_the_setup_at_once_make_one_game_of_the_recorded_one(seed: int) -> None:
    store, games, series = await _series()
    await play_to_end(games, "s1.g1", seed)
    rng = random.Random(seed)
    state = await series.load("s1")
    for n in range(40):  # answer until the question whose answers each complete the setup
        asked = (await series.view(state)).asked
        assert asked is not None
        answers = _answers(Ask(asked["ask"]), asked["seat"], asked["among"])
        completing = [a for a in answers if await _completes(series, state, a)]
        if len(completing) >= 2:
            break
        entry = rng.choice(answers)
        member = asked["member_id"]
        state = await series.decide("s1", entry, member_id=member, scorekeeper=False, command_id=f"d{n}")
        if len(state.games) == 2:
            pytest.fail(f"seed {seed}: the last question had a single completing answer; pick another seed")
    else:
        raise AssertionError("no last question")
    store.meet(2)
    results = await asyncio.gather(
        series.decide("s1", completing[0], member_id=asked["member_id"], scorekeeper=False, command_id="x"),
        series.decide("s1", completing[1], member_id=asked["member_id"], scorekeeper=False, command_id="y"),
        return_exceptions=True,
    )
    refused = [r for r in results if isinstance(r, Exception)]
    assert len(refused) == 1 and isinstance(refused[0], SeriesRefused), results
    stored = await _stored(store, "s1")
    links = [e for e in stored if isinstance(e, SeriesGameLinked)]
    assert [link.game_id for link in links] == ["s1.g1", "s1.g2"]
    recorded = [e.entry for e in stored if isinstance(e, SeriesDecisionRecorded)]
    winner = completing[0] if completing[0] in recorded else completing[1]
    assert (completing[1] if winner == completing[0] else completing[0]) not in recorded
    # the second game is the recorded entry's: the series audit sets game 2 up again from the
    # stored entries and finds its Sheriff, characters and bonuses (the two answers differ there)
    report = await audit_series(store, series, "s1")  # type: ignore[arg-type]
    assert report.clean, report.verdict
    assert report.links_checked == 1


async def test_a_clubs_list_is_paged_and_reads_only_its_own_series() -> None:
    store, _, series = await _series("a1", "club-a")
    for series_id, club in (("b1", "club-b"), ("a2", "club-a"), ("a3", "club-a")):
        await series.open(_online(series_id, club), opened_by="organiser-1", command_id=f"open-{series_id}")
    scans = store.category_reads
    store.reads.clear()
    page = await series.list_page("club-a", limit=2)
    assert [s.series_id for s in page.items] == ["a1", "a2"] and page.next_offset == 2
    rest = await series.list_page("club-a", limit=2, offset=2)
    assert [s.series_id for s in rest.items] == ["a3"] and rest.next_offset is None
    assert [s.series_id for s in await series.list_for("club-b")] == ["b1"]
    # a club without a series (anyone may ask, by any id): no scan, nothing written
    assert scans == 1  # the indexes of every club were built once, at the first open
    assert await series.list_for("club-c") == [] and await series.list_for("club-c") == []
    assert store.category_reads == scans
    assert await store.stream_version(club_index_stream("club-c")) == 0
    club_a_reads = store.reads[: store.reads.index("seriesclub-club-b")]
    assert set(club_a_reads) == {"seriesclub-club-a", "series-a1", "series-a2", "series-a3"}
    with pytest.raises(SeriesRefused, match="a page holds 1 to 100 series"):
        await series.list_page("club-a", limit=0)


def _opened_before(series_id: str, club_id: str) -> Any:
    """A series' first event as stored before club indexes existed (its stream alone)."""
    opened = SeriesOpened(
        series_id=series_id,
        club_id=club_id,
        opened_by="organiser-1",
        mode=GameMode.TABLE,
        members=(),
        ruleset=ruleset_of(["UA5"]),
    )
    return SERIES_MAPPER.to_new_event(opened)


async def test_series_opened_before_the_index_are_found_once_and_listed_first() -> None:
    store = RacingStore()
    vault = MemorySeedVault()
    games = GameService(store, vault)  # type: ignore[arg-type]
    series = SeriesService(store, games, vault)  # type: ignore[arg-type]
    for series_id, club in (("old0", "club-a"), ("oldb", "club-b"), ("old1", "club-a")):
        await store.append(series_stream(series_id), [_opened_before(series_id, club)], expected_version=0)
    # the first open builds every club's index: one scan finds the two club-a had, then the new one
    await series.open(_online("new2", "club-a"), opened_by="organiser-1", command_id="open-new2")
    assert store.category_reads == 1
    assert [s.series_id for s in await series.list_for("club-a")] == ["old0", "old1", "new2"]
    # a club with old series only: indexed by that same scan, read from its index
    assert [s.series_id for s in await series.list_for("club-b")] == ["oldb"]
    assert [s.series_id for s in await series.list_for("club-b")] == ["oldb"]
    assert store.category_reads == 1
    index = await MemoryEventStore.read_stream(store, club_index_stream("club-b"))
    assert [r.type for r in index] == ["SeriesIndexStarted", "SeriesListed"]
    assert index[0].data["found"] == 1


async def test_a_completing_answer_whose_game_creation_failed_is_finished_by_its_retry() -> None:
    """The entries that complete the next game's setup are recorded before its game is created;
    when the creation fails after that (a crash, a store error), the series must not be left
    with its setup complete and no game: the same command again creates and links the game."""
    store, games, series = await _series()
    await play_to_end(games, "s1.g1", 3)
    rng = random.Random(3)
    state = await series.load("s1")
    real_create = games.create_game
    failing = {"on": True}

    async def create_game(spec: Any, **kwargs: Any) -> Any:
        if failing["on"] and spec.game_id == "s1.g2":
            raise RuntimeError("the store went away")
        return await real_create(spec, **kwargs)

    games.create_game = create_game  # type: ignore[method-assign]
    for n in range(40):
        asked = (await series.view(state)).asked
        assert asked is not None
        entry = rng.choice(_answers(Ask(asked["ask"]), asked["seat"], asked["among"]))
        completes = await _completes(series, state, entry)
        member = asked["member_id"]
        if not completes:
            state = await series.decide("s1", entry, member_id=member, scorekeeper=False, command_id=f"d{n}")
            continue
        with pytest.raises(RuntimeError):
            await series.decide("s1", entry, member_id=member, scorekeeper=False, command_id="last")
        # nor may the series be closed now: the seed it reveals draws the roles of that game
        with pytest.raises(
            SeriesRefused, match=r"game s1\.g2 is being set up with roles drawn from the series seed"
        ):
            await series.close("s1", closed_by="organiser-1", reason="late", command_id="close")
        failing["on"] = False
        # a stranger's request finds the write unfinished: the server finishes it, in its own
        # name, and the stranger is refused all the same
        with pytest.raises(SeriesRefused, match=r"game s1\.g2 of series s1 is not over"):
            await series.decide("s1", entry, member_id="stranger", scorekeeper=False, command_id="x")
        state = await series.decide("s1", entry, member_id=member, scorekeeper=False, command_id="last")
        break
    else:
        raise AssertionError("no last question")
    assert [g.game_id for g in state.games] == ["s1.g1", "s1.g2"]
    assert (await games.load("s1.g2")).game is not None
    stored = await _stored(store, "s1")
    assert [e.game_id for e in stored if isinstance(e, SeriesGameLinked)] == ["s1.g1", "s1.g2"]
    assert [e.entry for e in stored if isinstance(e, SeriesDecisionRecorded)].count(entry) == 1
    records = await MemoryEventStore.read_stream(store, series_stream("s1"))
    actors = {r.metadata.actor for r in records if r.type == "SeriesGameLinked" and "g2" in str(r.data)}
    assert actors == {SERIES_SERVER}


async def test_a_table_game_created_from_a_roles_entry_but_not_linked_is_linked_by_the_next_entry() -> None:
    """At a table the roles entry is the game's seats, never a series event: when its game is
    created and the link then fails, the next entry links that game (another roles entry would
    otherwise be a reused command for ever) and is refused for what is asked now."""
    from services.game.application.service import Actor, ActorKind, NewGame, TableSeat
    from services.game.records import inputs_from_events
    from services.game.rules.dice import events as ev
    from services.game.rules.dice.undead.legacy import CharacterDrawn, RolesDrawn, SheriffDrawn
    from services.game.rules.dice.vocabulary import Role
    from tests.unit.game.undead.test_series_service import answer

    store = RacingStore()
    vault = MemorySeedVault()
    games = GameService(store, vault)  # type: ignore[arg-type]
    series = SeriesService(store, games, vault)  # type: ignore[arg-type]
    keeper = Actor(kind=ActorKind.ORGANISER, id="keeper")
    online = NewGame(
        mode=GameMode.ONLINE, player_count=5, members=MEMBERS, ruleset=ruleset_of(["UA5"]), game_id="src"
    )
    await games.create_game(online, command_id="src", actor=keeper)
    await play_to_end(games, "src", 5)
    source = await games.load("src")
    assert source.game is not None
    started = source.game.events[0]
    assert isinstance(started, ev.GameStarted)
    seats = tuple(
        TableSeat(
            member_id=source.seat_members[s.player],
            name=s.player,
            role=s.role.value,
            character=s.character.value,
        )
        for s in started.seats
    )
    spec = NewSeries(
        series_id="tab", club_id="c", mode=GameMode.TABLE, ruleset=ruleset_of(["UA5"]), seats=seats
    )
    state = await series.open(spec, opened_by="keeper", command_id="open")
    for n, command in enumerate(inputs_from_events(source.game.events[1:])):
        await games.play("tab.g1", command, actor=keeper, command_id=f"t{n}")
    real_link = series._link
    failing = {"on": True}

    async def link(*args: Any, **kwargs: Any) -> None:
        if failing["on"]:
            failing["on"] = False
            raise RuntimeError("the store went away")
        await real_link(*args, **kwargs)

    series._link = link  # type: ignore[method-assign]
    rng = random.Random(5)
    for n in range(40):
        asked = (await series.view(state)).asked
        assert asked is not None
        ask, seat, among = Ask(asked["ask"]), asked["seat"], asked["among"]
        entry: LegacyEntry
        if ask is Ask.SHERIFF_DRAW:
            entry = SheriffDrawn(player=PlayerId(rng.choice(among)))
        elif ask is Ask.CHARACTER_DRAW:
            entry = CharacterDrawn(player=PlayerId(seat), character=CharacterId(rng.choice(among)))
        elif ask is not Ask.ROLES_DRAW:
            entry = answer(ask, seat, among, rng)
        else:
            break
        state = await series.decide("tab", entry, member_id="keeper", scorekeeper=True, command_id=f"d{n}")
    else:
        raise AssertionError("no roles question")
    first = RolesDrawn(player=PlayerId(seat), roles=tuple(Role(r) for r in among))
    with pytest.raises(RuntimeError):
        await series.decide("tab", first, member_id="keeper", scorekeeper=True, command_id="roles-1")
    assert await store.stream_version("game-tab.g2") > 0 and len((await series.load("tab")).games) == 1
    other = RolesDrawn(player=PlayerId(seat), roles=tuple(Role(r) for r in reversed(among)))
    with pytest.raises(SeriesRefused, match="is not over"):
        await series.decide("tab", other, member_id="keeper", scorekeeper=True, command_id="roles-2")
    state = await series.load("tab")
    assert [g.game_id for g in state.games] == ["tab.g1", "tab.g2"]
    assert state.games[1].previous_game_id == "tab.g1"


async def test_an_online_series_is_not_closed_while_a_game_whose_roles_its_seed_drew_is_played() -> None:
    """The roles of game 2 are drawn from the series seed, and the plan that asks for them is
    public: a close revealing the seed while game 2 is played would show every role of it."""
    from services.game.fairness.legacy import draw
    from services.game.rules.dice import events as ev

    store, games, series = await _series()
    await play_to_end(games, "s1.g1", 4)
    state = await series.load("s1")
    rng = random.Random(4)
    for n in range(40):
        if len(state.games) == 2:
            break
        asked = (await series.view(state)).asked
        assert asked is not None
        entry = rng.choice(_answers(Ask(asked["ask"]), asked["seat"], asked["among"]))
        plan, _ = await series.plan(state)
        assert plan is not None
        roles_plan = _draw_public(await series.seeds.seed_of("series/s1"), 2, plan.enter(entry))
        state = await series.decide(
            "s1", entry, member_id=asked["member_id"], scorekeeper=False, command_id=f"d{n}"
        )
    else:
        raise AssertionError("no game 2")
    # what the seed would give away: game 2's roles, from the seed and the public plan
    assert roles_plan.asked is not None and roles_plan.asked.ask is Ask.ROLES_DRAW
    derived = roles_plan.enter(draw(await series.seeds.seed_of("series/s1"), 2, roles_plan.asked)).setup
    second = await games.load("s1.g2")
    assert second.game is not None and derived is not None
    started = second.game.events[0]
    assert isinstance(started, ev.GameStarted)
    assert [s.role for s in started.seats] == [s.role for s in derived.seats]
    before = len(await _stored(store, "s1"))
    with pytest.raises(SeriesRefused, match=r"game s1\.g2 is still being played and its roles were drawn"):
        await series.close("s1", closed_by="organiser-1", reason="late", command_id="close")
    assert len(await _stored(store, "s1")) == before
    await play_to_end(games, "s1.g2", 4)
    closed = await series.close("s1", closed_by="organiser-1", reason="done", command_id="close")
    assert closed.closed is not None and closed.closed.seed is not None


async def test_a_game_id_of_a_series_form_is_refused_to_anybody_but_the_series() -> None:
    """An organiser who took ``<series>.g2`` first would leave the series no game 2 to make:
    ``create_game`` refuses an id of that form, in words, unless the series creates it (its
    context names the series); nothing is stored."""
    from services.game.application.errors import GameNotFound, InvalidGameSpec
    from services.game.application.lifecycle import GameContext
    from services.game.application.service import Actor, ActorKind, NewGame

    _, games, _ = await _series()
    elsewhere = Actor(kind=ActorKind.ORGANISER, id="elsewhere")
    for game_id, context in (
        ("s1.g2", GameContext()),
        ("s1.g7", GameContext()),
        ("s1.g2", GameContext(series_id="other")),
        ("new-series.g1", GameContext()),
    ):
        squat = NewGame(
            mode=GameMode.ONLINE, player_count=5, members=MEMBERS, ruleset=ruleset_of([]), game_id=game_id,
            context=context,
        )  # fmt: skip
        series_id = game_id.partition(".g")[0]
        with pytest.raises(InvalidGameSpec, match=rf"only series {series_id} creates its games"):
            await games.create_game(squat, command_id=f"squat-{game_id}", actor=elsewhere)
        with pytest.raises(GameNotFound):
            await games.load(game_id)
    # an id that only looks alike is anybody's: no `.g<digits>` at its end
    for game_id in ("s1.g2x", "s1.r1.t2", "s1.game2"):
        free = NewGame(
            mode=GameMode.ONLINE, player_count=5, members=MEMBERS, ruleset=ruleset_of([]), game_id=game_id
        )
        created = await games.create_game(free, command_id=f"free-{game_id}", actor=elsewhere)
        assert created.game_id == game_id


async def test_a_next_game_id_taken_outside_the_series_is_refused_in_words(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A game stored under ``<series>.g2`` outside the series (before ``create_game`` refused
    such ids) leaves it no game 2 to make: said at once, not after the retries meant for racing
    writers."""
    from services.game.application import service as service_module
    from services.game.application.service import Actor, ActorKind, NewGame

    _, games, series = await _series()
    squat = NewGame(
        mode=GameMode.ONLINE, player_count=5, members=MEMBERS, ruleset=ruleset_of([]), game_id="s1.g2"
    )
    with monkeypatch.context() as before_the_rule:
        before_the_rule.setattr(service_module, "series_of_game_id", lambda game_id: None)
        await games.create_game(
            squat, command_id="squat", actor=Actor(kind=ActorKind.ORGANISER, id="elsewhere")
        )
    await play_to_end(games, "s1.g1", 3)
    state = await series.load("s1")
    rng = random.Random(3)
    with pytest.raises(
        SeriesRefused, match=r"the id s1\.g2 of this series' next game is taken by a game outside"
    ):
        for n in range(40):
            asked = (await series.view(state)).asked
            assert asked is not None
            entry = rng.choice(_answers(Ask(asked["ask"]), asked["seat"], asked["among"]))
            member = asked["member_id"]
            state = await series.decide("s1", entry, member_id=member, scorekeeper=False, command_id=f"d{n}")


async def test_a_used_command_id_is_a_retry_only_of_the_same_command_by_the_same_caller() -> None:
    """Another player's decision, another answer or a close under a used command id is refused
    (409), not answered as done while nothing was stored; the same command again still is."""
    store, games, series = await _series()
    await play_to_end(games, "s1.g1", 7)
    state = await series.load("s1")
    asked = (await series.view(state)).asked
    assert asked is not None
    first = _answers(Ask(asked["ask"]), asked["seat"], asked["among"])
    decided = await series.decide(
        "s1", first[0], member_id=asked["member_id"], scorekeeper=False, command_id="d0"
    )
    again = await series.decide(
        "s1", first[0], member_id=asked["member_id"], scorekeeper=False, command_id="d0"
    )
    assert again.version == decided.version  # the same command again changes nothing
    before = len(await _stored(store, "s1"))
    with pytest.raises(CommandIdReused):  # the same player, another answer
        await series.decide("s1", first[1], member_id=asked["member_id"], scorekeeper=False, command_id="d0")
    nxt = (await series.view(decided)).asked
    assert nxt is not None
    entry = _answers(Ask(nxt["ask"]), nxt["seat"], nxt["among"])[0]
    with pytest.raises(CommandIdReused):  # the next player's decision under the first one's id
        await series.decide("s1", entry, member_id=nxt["member_id"], scorekeeper=False, command_id="d0")
    with pytest.raises(CommandIdReused):  # a close under a decision's id
        await series.close("s1", closed_by="organiser-1", reason="x", command_id="d0")
    assert len(await _stored(store, "s1")) == before
    closed = await series.close("s1", closed_by="organiser-1", reason="x", command_id="c")
    assert (
        await series.close("s1", closed_by="organiser-1", reason="x", command_id="c")
    ).version == closed.version
    with pytest.raises(CommandIdReused):  # another organiser's close under that id
        await series.close("s1", closed_by="organiser-2", reason="x", command_id="c")


async def test_an_online_series_closed_after_an_abandoned_game_keeps_its_seed_secret() -> None:
    """An abandoned game keeps its roles hidden for good (its own seed is never revealed), and
    a series cannot go on past it: the close that ends the series must not reveal the series
    seed, from which, with the public plan, anyone would work out every role of that game."""
    from services.game.application.service import Actor, ActorKind
    from services.game.application.session import GameStatus

    store, games, series = await _series()
    await play_to_end(games, "s1.g1", 4)
    state = await series.load("s1")
    rng = random.Random(4)
    for n in range(40):
        if len(state.games) == 2:
            break
        asked = (await series.view(state)).asked
        assert asked is not None
        entry = rng.choice(_answers(Ask(asked["ask"]), asked["seat"], asked["among"]))
        state = await series.decide(
            "s1", entry, member_id=asked["member_id"], scorekeeper=False, command_id=f"d{n}"
        )
    else:
        raise AssertionError("no game 2")
    organiser = Actor(kind=ActorKind.ORGANISER, id="organiser-1")
    await games.abandon("s1.g2", "the table broke up", actor=organiser, command_id="abandon")
    assert (await games.load("s1.g2")).status is GameStatus.ABANDONED
    closed = await series.close("s1", closed_by="organiser-1", reason="abandoned", command_id="close")
    assert closed.closed is not None and closed.closed.seed is None
    view = await series.view(closed)
    assert view.status == "closed" and view.seed is None
    audit = await audit_series(store, series, "s1")  # type: ignore[arg-type]
    assert audit.draws_rederived == 0
