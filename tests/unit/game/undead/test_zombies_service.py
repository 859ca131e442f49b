"""UA4 through the game service (in-memory store): online to the end with the server's Boneyard
reveals from the seed (``draws-1``, deck ``boneyard-1``), audited clean, a forged reveal named by
the audit; the same inputs entered at a table by a scorekeeper give the very same game."""

from __future__ import annotations

import msgspec
import pytest

from event_store import MemoryEventStore
from services.game.application.codec import GAME_MAPPER
from services.game.application.service import GameMode, GameService, NewGame, TableSeat
from services.game.application.session import GameStatus
from services.game.audit import audit_game
from services.game.audit.draws import check_draws
from services.game.audit.report import ROLLS, passed
from services.game.audit.stream import StoredEvent
from services.game.fairness.draws import draw
from services.game.fairness.memory_vault import MemorySeedVault
from services.game.fairness.registry import fairness_for
from services.game.records import inputs_from_events
from services.game.rules.dice import GameStarted
from services.game.rules.dice.undead.zombies import BoneyardRevealed, OutbreakBegan
from services.game.rules.ruleset import ruleset_of
from tests.unit.audit.games import numbered
from tests.unit.game.test_old_saloon_service import SCOREKEEPER, _play_online

RULESETS = [(["UA4"], 6), (["OS5", "UA2", "UA4"], 7), (["OS1", "OS2", "OS3", "UA1", "UA2", "UA3", "UA4"], 8)]


def test_a_game_with_the_boneyard_records_the_draw_derivation() -> None:
    assert fairness_for(ruleset_of(["UA4"])).text == "deal-2 dice-2 draws-1"
    assert fairness_for(ruleset_of(["UA2", "UA4"])).text == "deal-2 dice-2 draws-1"


@pytest.mark.parametrize(("modules", "players"), RULESETS, ids=[f"{' '.join(m)} {n}" for m, n in RULESETS])
async def test_reveals_are_drawn_from_the_seed_audited_and_entered_again_at_a_table(
    modules: list[str], players: int
) -> None:
    store = MemoryEventStore(mapper=GAME_MAPPER)
    service = GameService(store, MemorySeedVault())  # type: ignore[arg-type]
    ruleset = ruleset_of(modules)
    for seed in range(players, players + 30):  # the first seed whose game reaches an outbreak
        online = await _play_online(service, ruleset, players, seed=seed, game_id=f"online-{seed}")
        assert online.status is GameStatus.ENDED and online.game is not None
        if any(isinstance(e, OutbreakBegan) for e in online.game.events):
            break
    else:
        raise AssertionError("no outbreak in 30 online games")
    game_id = f"online-{seed}"
    assert online.created.derivations is not None and online.created.derivations.draws == "draws-1"
    assert any(isinstance(e, BoneyardRevealed) for e in online.game.events)
    report = await audit_game(store, game_id)  # type: ignore[arg-type]
    assert report.clean, report.verdict
    assert "draws re-derived (draws-1): every card matches" in report.checks[3].detail

    started = online.game.events[0]
    assert isinstance(started, GameStarted)
    seats = tuple(
        TableSeat(
            member_id=online.seat_members[s.player],
            name=s.player,
            role=s.role.value,
            character=s.character.value,
            special=None if s.special is None else s.special.value,
        )
        for s in started.seats
    )
    spec = NewGame(mode=GameMode.TABLE, player_count=players, seats=seats, ruleset=ruleset, game_id="table")
    await service.create_game(spec, command_id="create-table", actor=SCOREKEEPER)
    for n, command in enumerate(inputs_from_events(online.game.events[1:])):
        await service.play("table", command, actor=SCOREKEEPER, command_id=f"t-{n}")
    table = await service.load("table")
    assert table.status is GameStatus.ENDED and table.game is not None
    assert [msgspec.to_builtins(e) for e in table.game.events] == [
        msgspec.to_builtins(e) for e in online.game.events
    ]


async def test_a_reveal_that_is_not_the_seeds_is_named_by_the_audit() -> None:
    store = MemoryEventStore(mapper=GAME_MAPPER)
    service = GameService(store, MemorySeedVault())  # type: ignore[arg-type]
    ruleset = ruleset_of(["UA4"])
    for seed in range(40):
        online = await _play_online(service, ruleset, 5, seed=seed, game_id=f"g{seed}")
        assert online.game is not None
        if any(isinstance(e, BoneyardRevealed) for e in online.game.events):
            break
    assert online.game is not None and online.seed_revealed is not None
    key = bytes.fromhex(online.seed_revealed)
    engine = numbered(list(online.game.events))
    number, first = next((s.number, s.event) for s in engine if isinstance(s.event, BoneyardRevealed))
    assert first.card == draw(key, "boneyard-1", 0, tuple(f"b{i:02d}" for i in range(1, 12)))
    rolls = passed(ROLLS, "the rolls")
    assert check_draws(engine, key, "draws-1", ruleset, rolls).passed
    forged_card = next(f"b{i:02d}" for i in range(1, 12) if f"b{i:02d}" != first.card)
    forged = [
        StoredEvent(s.number, msgspec.structs.replace(first, card=forged_card)) if s.number == number else s
        for s in engine
    ]
    check = check_draws(forged, key, "draws-1", ruleset, rolls)
    assert not check.passed
    assert f"event {number}: {first.player} drew {forged_card} from boneyard-1" in check.detail
