"""A UA5 legacy series through its service (in-memory store): opened online, game 1 played to its
end, the decisions by the right players (a wrong player refused, nothing stored), the server's
draws from the series seed, game 2 created from the plan and linked (its record names the series
and game 1), the series closed with its seed, and the whole series audited clean; a tampered draw
is named by the audit."""

from __future__ import annotations

import random

import pytest

from event_store import MemoryEventStore
from services.game.application.codec import GAME_MAPPER
from services.game.application.errors import NotAllowed
from services.game.application.lifecycle import GameMode
from services.game.application.series import (
    SEED_DRAW,
    NewSeries,
    SeriesDecisionRecorded,
    SeriesRefused,
    SeriesService,
    SeriesState,
    series_stream,
)
from services.game.application.service import Actor, ActorKind, GameService, Member
from services.game.application.session import GameStatus
from services.game.audit.series import audit_series
from services.game.fairness.memory_vault import MemorySeedVault
from services.game.rules.dice import events as ev
from services.game.rules.dice.undead.legacy import (
    Ask,
    CharacterDrawn,
    ChooseCharacter,
    KeepCharacter,
    LegacyEntry,
    NextSheriff,
)
from services.game.rules.dice.vocabulary import CharacterId, PlayerId, Role
from services.game.rules.ruleset import ruleset_of


async def play_to_end(games: GameService, game_id: str, seed: int) -> None:
    rng = random.Random(seed)
    for n in range(20_000):
        session = await games.load(game_id)
        if session.status is not GameStatus.ONGOING:
            return
        assert session.game is not None
        question = session.engine.question(session.game)
        assert question is not None and not question.table
        command = rng.choice(list(session.engine.legal_commands(session.game)))
        actor = Actor(kind=ActorKind.PLAYER, id=session.seat_members[question.player])
        await games.play(game_id, command, actor=actor, command_id=f"{game_id}-m{n}")
    raise AssertionError("no end")


def answer(ask: Ask, seat: str, among: list[str], rng: random.Random) -> LegacyEntry:
    player = PlayerId(seat)
    if ask is Ask.NEXT_SHERIFF:
        return NextSheriff(player=player, sheriff=PlayerId(rng.choice(among)))
    if ask is Ask.KEEP_CHARACTER:
        return KeepCharacter(player=player, keep=rng.random() < 0.5)
    return ChooseCharacter(player=player, character=CharacterId(rng.choice(among)))


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_an_online_series_links_its_games_by_the_legacy_and_audits_clean(seed: int) -> None:
    store = MemoryEventStore(mapper=GAME_MAPPER)
    vault = MemorySeedVault()
    games = GameService(store, vault)  # type: ignore[arg-type]
    series = SeriesService(store, games, vault)  # type: ignore[arg-type]
    members = tuple(Member(member_id=f"m{i}", name=f"P{i}") for i in range(1, 6))
    spec = NewSeries(
        series_id=f"s{seed}",
        club_id="club-1",
        mode=GameMode.ONLINE,
        ruleset=ruleset_of(["UA5"]),
        members=members,
    )
    state = await series.open(spec, opened_by="organiser-1", command_id="open")
    assert [g.game_id for g in state.games] == [f"s{seed}.g1"]
    first = await games.load(f"s{seed}.g1")
    assert first.created.context.series_id == f"s{seed}" and first.created.context.previous_game_id is None
    assert state.opened.seed_commitment is not None and state.opened.legacy == "legacy-1"

    await play_to_end(games, f"s{seed}.g1", seed)
    rng = random.Random(seed)
    refused_once = False
    while len(state.games) < 2:
        view = await series.view(state)
        asked = view.asked
        assert asked is not None and not asked["draw"]  # online, the server draws
        entry = answer(Ask(asked["ask"]), asked["seat"], asked["among"], rng)
        if not refused_once:  # somebody else's decision is refused, and nothing is stored
            other = next(m.member_id for m in members if m.member_id != asked["member_id"])
            before = await store.stream_version(series_stream(state.series_id))
            with pytest.raises(NotAllowed, match="is the decision of the player seated there"):
                await series.decide(state.series_id, entry, member_id=other, scorekeeper=True, command_id="x")
            assert await store.stream_version(series_stream(state.series_id)) == before
            refused_once = True
        state = await series.decide(
            state.series_id,
            entry,
            member_id=asked["member_id"],
            scorekeeper=False,
            command_id=f"d{len(view.decisions)}",
        )
    second = await games.load(f"s{seed}.g2")
    assert second.created.context.series_id == f"s{seed}"
    assert second.created.context.previous_game_id == f"s{seed}.g1"
    assert second.seat_members == first.seat_members  # the table keeps its seats
    assert second.game is not None
    started = second.game.events[0]
    assert isinstance(started, ev.GameStarted)
    plan_sheriff = next(s for s in started.seats if s.role is Role.SHERIFF)
    first_end = (await games.load(f"s{seed}.g1")).game.events[-1]  # type: ignore[union-attr]
    assert isinstance(first_end, ev.GameEnded)
    old = next(r for r in first_end.results if r.role is Role.SHERIFF)
    if not old.alive and old.eliminated_by is not None:
        assert plan_sheriff.player == old.eliminated_by  # the killer is the next Sheriff
    if old.alive and plan_sheriff.player != old.player:
        assert plan_sheriff.legacy_bonus == 1
    with pytest.raises(SeriesRefused, match="is not over"):
        await series.decide(
            state.series_id,
            KeepCharacter(player=PlayerId("p1"), keep=True),
            member_id="m1",
            scorekeeper=False,
            command_id="early",
        )

    await play_to_end(games, f"s{seed}.g2", seed + 100)
    state = await series.close(
        state.series_id, closed_by="organiser-1", reason="season over", command_id="close"
    )
    assert state.closed is not None and state.closed.seed is not None
    report = await audit_series(store, series, state.series_id)  # type: ignore[arg-type]
    assert report.clean, report.verdict
    assert report.links_checked == 1 and len(report.games) == 2
    view = await series.view(state)
    assert view.status == "closed" and sum(r["games"] for r in view.standing) == 10
    assert all("roles" not in d["kind"] for d in view.decisions)  # no hidden role in the record


async def test_a_tampered_draw_is_named_by_the_series_audit() -> None:
    store = MemoryEventStore(mapper=GAME_MAPPER)
    vault = MemorySeedVault()
    games = GameService(store, vault)  # type: ignore[arg-type]
    series = SeriesService(store, games, vault)  # type: ignore[arg-type]
    members = tuple(Member(member_id=f"m{i}", name=f"P{i}") for i in range(1, 5))
    rng = random.Random(7)
    for attempt in range(20):  # until a survivor's redraw came from the seed (game seeds are new)
        sid = f"t{attempt}"
        spec = NewSeries(
            series_id=sid, club_id="c", mode=GameMode.ONLINE, ruleset=ruleset_of(["UA5"]), members=members
        )
        state = await series.open(spec, opened_by="o", command_id="open")
        await play_to_end(games, f"{sid}.g1", attempt)
        while len(state.games) < 2:
            asked = (await series.view(state)).asked
            assert asked is not None
            entry = answer(Ask(asked["ask"]), asked["seat"], asked["among"], rng)
            if isinstance(entry, KeepCharacter):
                entry = KeepCharacter(player=entry.player, keep=False)  # every survivor redraws
            state = await series.decide(
                sid, entry, member_id=asked["member_id"], scorekeeper=False, command_id=f"d{rng.random()}"
            )
        drawn = [d for d in state.entries[2] if d.by == SEED_DRAW and isinstance(d.entry, CharacterDrawn)]
        if drawn:
            break
    assert drawn, "a redraw comes from the seed"
    await play_to_end(games, f"{sid}.g2", 0)  # the close reveals the seed that drew game 2's roles
    state = await series.close(sid, closed_by="o", reason="", command_id="close")
    assert (await audit_series(store, series, sid)).clean  # type: ignore[arg-type]
    # tamper: the series' record shows another character for the first redraw
    first = drawn[0]
    assert isinstance(first.entry, CharacterDrawn)
    other = next(
        c for c in ("bart_cassidy", "black_jack", "el_gringo", "kit_carlson") if c != first.entry.character
    )
    forged = SeriesDecisionRecorded(
        number=2, entry=CharacterDrawn(player=first.entry.player, character=CharacterId(other)), by=SEED_DRAW
    )
    real_load = series.load

    async def tampered(series_id: str) -> SeriesState:
        loaded = await real_load(series_id)
        loaded.entries[2] = [forged if d is first or d == first else d for d in loaded.entries[2]]
        return loaded

    series.load = tampered  # type: ignore[method-assign]
    report = await audit_series(store, series, sid)  # type: ignore[arg-type]
    assert not report.clean
    assert report.first_divergence is not None
    assert report.first_divergence.startswith(f"before game 2 ({sid}.g2): the series seed draws ")
    assert f"but the series recorded {first.entry.player} draws {other}" in report.first_divergence


async def test_a_table_series_takes_draws_from_its_scorekeeper_only_and_checks_them() -> None:
    from services.game.application.service import NewGame, TableSeat
    from services.game.records import inputs_from_events
    from services.game.rules.dice.undead.legacy import RolesDrawn, SheriffDrawn

    store = MemoryEventStore(mapper=GAME_MAPPER)
    vault = MemorySeedVault()
    games = GameService(store, vault)  # type: ignore[arg-type]
    series = SeriesService(store, games, vault)  # type: ignore[arg-type]
    ruleset = ruleset_of(["UA5"])
    keeper = Actor(kind=ActorKind.ORGANISER, id="keeper")
    # a game played online gives the table its seats and every input, entered again by the keeper
    members = tuple(Member(member_id=f"m{i}", name=f"P{i}") for i in range(1, 6))
    await games.create_game(
        NewGame(mode=GameMode.ONLINE, player_count=5, members=members, ruleset=ruleset, game_id="src"),
        command_id="src",
        actor=keeper,
    )
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
    spec = NewSeries(series_id="tab", club_id="c", mode=GameMode.TABLE, ruleset=ruleset, seats=seats)
    state = await series.open(spec, opened_by="keeper", command_id="open")
    assert state.opened.seed_commitment is None and state.opened.legacy is None
    for n, command in enumerate(inputs_from_events(source.game.events[1:])):
        await games.play("tab.g1", command, actor=keeper, command_id=f"t{n}")
    assert (await games.load("tab.g1")).status is GameStatus.ENDED

    rng = random.Random(5)
    refused_draw = False
    for n in range(40):
        if len(state.games) == 2:
            break
        view = await series.view(state)
        asked = view.asked
        assert asked is not None
        ask, seat, among = Ask(asked["ask"]), asked["seat"], asked["among"]
        entry: LegacyEntry
        if ask is Ask.SHERIFF_DRAW:
            entry = SheriffDrawn(player=PlayerId(rng.choice(among)))
        elif ask is Ask.CHARACTER_DRAW:
            used = started.seats[0].character
            with pytest.raises(SeriesRefused, match="was used in the finished game"):
                await series.decide(
                    "tab",
                    CharacterDrawn(player=PlayerId(seat), character=used),
                    member_id="keeper",
                    scorekeeper=True,
                    command_id="bad",
                )
            entry = CharacterDrawn(player=PlayerId(seat), character=CharacterId(rng.choice(among)))
        elif ask is Ask.ROLES_DRAW:
            entry = RolesDrawn(
                player=PlayerId(seat), roles=tuple(Role(r) for r in rng.sample(among, len(among)))
            )
        else:
            entry = answer(ask, seat, among, rng)
        if asked["draw"] and not refused_draw:  # a player may not enter a table draw
            with pytest.raises(NotAllowed, match="entered by the table's scorekeeper"):
                await series.decide("tab", entry, member_id="m1", scorekeeper=False, command_id="p")
            refused_draw = True
        # the scorekeeper enters everything, decisions included, as the table said them
        state = await series.decide("tab", entry, member_id="keeper", scorekeeper=True, command_id=f"d{n}")
    assert refused_draw
    second = await games.load("tab.g2")
    assert second.mode is GameMode.TABLE and second.created.context.previous_game_id == "tab.g1"
    assert second.seat_members == (await games.load("tab.g1")).seat_members
    report = await audit_series(store, series, "tab")  # type: ignore[arg-type]
    assert report.clean, report.verdict
    assert report.links_checked == 1 and report.draws_rederived == 0
    view = await series.view(state)
    assert all(d["kind"] != "roles" for d in view.decisions)  # the roles are the game's, hidden there
