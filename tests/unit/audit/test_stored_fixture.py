"""The game stored before rulesets existed (tests/fixtures/online_game_v1.json), on the
in-memory store: the same hash chain, a clean audit, and its creation decodes as the base
game; a game created now records its ruleset and derivations."""

from __future__ import annotations

import msgspec
import pytest

from event_store import MemoryEventStore
from services.game.application.codec import GAME_MAPPER
from services.game.application.errors import InvalidRuleset
from services.game.application.lifecycle import GameCreated, GameMode
from services.game.application.service import Actor, ActorKind, GameService, Member, NewGame, TableSeat
from services.game.audit import audit_game
from services.game.fairness.memory_vault import MemorySeedVault
from services.game.fairness.versions import Fairness
from services.game.rules.dice import CharacterId, roles_for
from services.game.rules.ruleset import BASE_DICE, GameType, ruleset_of
from tests.fixtures.stored_games import load_fixture, store_fixture


async def test_the_stored_v1_online_game_audits_clean_in_memory() -> None:
    fixture = load_fixture()
    store = MemoryEventStore(mapper=GAME_MAPPER)
    await store_fixture(store, fixture)
    stored = await store.read_stream(fixture["stream"])
    assert [r.hash.hex() for r in stored] == [e["hash"] for e in fixture["events"]]
    report = await audit_game(store, fixture["game_id"])  # type: ignore[arg-type]
    assert report.clean, report.checks
    assert report.rolls_checked == 29


def test_its_creation_decodes_as_the_base_game_with_deal_1_and_dice_1() -> None:
    fixture = load_fixture()
    first = fixture["events"][0]
    assert first["type"] == "GameCreated"
    assert "ruleset" not in first["data"] and "fairness" not in first["data"]  # stored before they existed
    created = msgspec.convert(first["data"], GameCreated)
    assert created.ruleset == BASE_DICE and created.game_type is GameType.DICE
    assert created.derivations == Fairness(deal="deal-1", dice="dice-1")


async def test_a_new_game_records_its_ruleset_and_derivations() -> None:
    store = MemoryEventStore(mapper=GAME_MAPPER)
    service = GameService(store, MemorySeedVault())  # type: ignore[arg-type]
    organiser = Actor(kind=ActorKind.ORGANISER, id="o")
    members = tuple(Member(member_id=f"m{i}", name=f"M{i}") for i in range(4))
    online = NewGame(mode=GameMode.ONLINE, player_count=4, members=members, game_id="g")
    await service.create_game(online, command_id="c", actor=organiser)
    stored = (await store.read_stream("game-g"))[0].data
    assert stored["ruleset"] == {
        "game_type": "dice",
        "modules": [],
        "data": {"characters": "dice-base-1", "dice": "dice-base-1"},
    }
    assert stored["fairness"] == {"deal": "deal-1", "dice": "dice-1"}
    seats = tuple(
        TableSeat(member_id=f"t{i}", name=f"T{i}", role=role, character=character)
        for i, (role, character) in enumerate(
            zip(roles_for(4), (CharacterId.BLACK_JACK, CharacterId.EL_GRINGO, CharacterId.SID_KETCHUM,
                               CharacterId.LUCKY_DUKE), strict=True)
        )
    )
    table_game = NewGame(mode=GameMode.TABLE, player_count=4, seats=seats, game_id="t")
    await service.create_game(table_game, command_id="c", actor=organiser)
    table = (await store.read_stream("game-t"))[0].data
    assert table["fairness"] is None and table["ruleset"]["modules"] == []
    with pytest.raises(InvalidRuleset, match="module UA1 needs UA2"):
        refused = msgspec.structs.replace(online, game_id="u", ruleset=ruleset_of(["UA1"]))
        await service.create_game(refused, command_id="c2", actor=organiser)
    assert await store.read_stream("game-u") == []
