"""The game service plays every game with its recorded ruleset's rules (services/game/engines),
on the in-memory store: a reload folds the stream with the ruleset's engine, never the base
game by default; modules this server does not play and characters outside the pool are refused,
and nothing is stored."""

from __future__ import annotations

import random

import pytest

from event_store import MemoryEventStore
from services.game.application.codec import GAME_MAPPER
from services.game.application.errors import InvalidGameSpec, InvalidRuleset
from services.game.application.lifecycle import GameMode
from services.game.application.service import Actor, ActorKind, GameService, Member, NewGame, TableSeat
from services.game.application.session import GameStatus
from services.game.audit import audit_game
from services.game.engines import engine_for, implemented_modules
from services.game.fairness.memory_vault import MemorySeedVault
from services.game.rules.dice import modules as dice_modules
from services.game.rules.dice.modules import ENGINE_MODULES, rules_of
from services.game.rules.ruleset import BASE_DICE, MODULES, ModuleId, ruleset_of

UA4 = ruleset_of(["UA4"])
"""Undead or Alive's zombie outbreak: no engine of this server plays it (yet)."""
ORGANISER = Actor(kind=ActorKind.ORGANISER, id="club-organiser")
SEATS = (
    TableSeat(member_id="m1", name="Ann", role="sheriff", character="bart_cassidy"),
    TableSeat(member_id="m2", name="Bob", role="renegade", character="black_jack"),
    TableSeat(member_id="m3", name="Cid", role="outlaw", character="calamity_janet"),
    TableSeat(member_id="m4", name="Dee", role="outlaw", character="el_gringo"),
)


@pytest.fixture
def store() -> MemoryEventStore:
    return MemoryEventStore(mapper=GAME_MAPPER)


@pytest.fixture
def seeds() -> MemorySeedVault:
    return MemorySeedVault()


def table(ruleset=BASE_DICE, seats=SEATS) -> NewGame:  # type: ignore[no-untyped-def]
    return NewGame(mode=GameMode.TABLE, player_count=len(seats), seats=seats, ruleset=ruleset)


def test_the_servers_modules_are_the_engines_read_at_call_time() -> None:
    assert implemented_modules() == frozenset(ENGINE_MODULES)
    from services.game.application import service

    assert frozenset(ENGINE_MODULES) == service.IMPLEMENTED_MODULES


async def test_a_game_is_folded_with_its_rulesets_rules_after_a_reload(
    store: MemoryEventStore, seeds: MemorySeedVault
) -> None:
    # a module the engine plays that a four-player table may take alone
    alone = [m for m in sorted(ENGINE_MODULES) if MODULES[m].min_players <= 4 and not MODULES[m].requires]
    module = alone[0]
    ruleset = ruleset_of([module])
    first = GameService(store, seeds)  # type: ignore[arg-type]
    session = await first.create_game(table(ruleset), command_id="c1", actor=ORGANISER)
    reloaded = await GameService(store, seeds).load(session.game_id)  # type: ignore[arg-type]
    assert reloaded.created.ruleset == ruleset
    assert reloaded.engine is engine_for(ruleset)
    assert reloaded.game is not None and reloaded.game.state.rules is rules_of(ruleset)
    assert reloaded.game.state.rules.modules == (module,)
    base = await first.create_game(table(), command_id="c2", actor=ORGANISER)
    assert base.game is not None and base.game.state.rules.modules == ()


@pytest.mark.parametrize("mode", [GameMode.TABLE, GameMode.ONLINE])
async def test_a_module_this_server_does_not_play_is_refused_naming_it(
    store: MemoryEventStore, seeds: MemorySeedVault, mode: GameMode, monkeypatch: pytest.MonkeyPatch
) -> None:
    # every module is registered by now: this server lacks one for the test's sake
    monkeypatch.delitem(dice_modules._REGISTERED, ModuleId.UA4)
    service = GameService(store, seeds)  # type: ignore[arg-type]
    spec = (
        table(UA4)
        if mode is GameMode.TABLE
        else NewGame(mode=mode, player_count=4, members=(Member(member_id="m1", name="Ann"),), ruleset=UA4)
    )
    with pytest.raises(InvalidRuleset) as refused:
        await service.create_game(spec, command_id="c1", actor=ORGANISER)
    reason = "module UA4 (Undead or Alive?) is not implemented by this server yet"
    assert str(refused.value).endswith(f": {reason}")
    assert not await store.read_all()


async def test_a_table_seat_with_a_character_outside_the_pool_is_refused_and_nothing_stored(
    store: MemoryEventStore, seeds: MemorySeedVault
) -> None:
    service = GameService(store, seeds)  # type: ignore[arg-type]
    seats = (TableSeat(member_id="m1", name="Ann", role="sheriff", character="jose_delgado"), *SEATS[1:])
    with pytest.raises(InvalidGameSpec) as refused:
        await service.create_game(table(seats=seats), command_id="c1", actor=ORGANISER)
    assert "p1: jose_delgado is not a character of dice" in str(refused.value)
    assert not await store.read_all()


async def test_an_online_game_rolls_each_die_by_its_kind_and_audits_clean(
    store: MemoryEventStore, seeds: MemorySeedVault
) -> None:
    # OS1's Saloon dice: the server rolls a Loudmouth or Coward die from that kind's face table
    # (dice-2); the audit re-derives every face per kind, so a die rolled as a base die fails it
    service = GameService(store, seeds)  # type: ignore[arg-type]
    members = tuple(Member(member_id=f"m{i}", name=f"P{i}") for i in range(1, 5))
    spec = NewGame(mode=GameMode.ONLINE, player_count=4, members=members, ruleset=ruleset_of(["OS1"]))
    session = await service.create_game(spec, command_id="c1", actor=ORGANISER)
    assert session.created.fairness is not None and session.created.fairness.dice == "dice-2"
    rng = random.Random(1)
    kinds_rolled: set[str] = set()
    for n in range(5_000):
        session = await service.load(session.game_id)
        if session.status is not GameStatus.ONGOING:
            break
        assert session.game is not None
        turn = session.game.state.turn
        kinds_rolled |= {k.name for k in turn.kinds} if turn is not None else set()
        question = session.engine.question(session.game)
        assert question is not None and not question.random  # the server rolls
        command = rng.choice(list(session.engine.legal_commands(session.game)))
        actor = Actor(kind=ActorKind.PLAYER, id=session.seat_members[question.player])
        await service.play(session.game_id, command, actor=actor, command_id=f"move-{n}")
    assert session.status is GameStatus.ENDED
    assert kinds_rolled - {"base"}, "no Saloon die was rolled: pick another seed"
    report = await audit_game(store, session.game_id)  # type: ignore[arg-type]
    assert report.clean, report.verdict
