"""UA3's Pixie Pete and Sean Mallory (RULINGS-expansions §UA3; docs/rulings.md, UA3 table), and
what Undead or Alive's UA1–UA3 rules do with a UA4 zombie (a seat with ``zombie_since`` set, built
by hand here: no Rage card, no wound token, no Duel die). Five seats: p1 Sheriff, p2 Renegade,
p3 Outlaw, p4 Outlaw, p5 Deputy, clockwise."""

from __future__ import annotations

import random

import pytest

from event_store import MemoryEventStore
from services.game.application.codec import GAME_MAPPER
from services.game.application.lifecycle import GameMode
from services.game.application.service import GameService, NewGame, TableSeat
from services.game.application.session import GameStatus
from services.game.audit import audit_game
from services.game.bots import HeuristicBot, RandomBot
from services.game.edge.graphql_types import Game as GraphQLGame
from services.game.edge.visibility import PUBLIC, Viewer, redact_event, redact_state
from services.game.engines import engine_for
from services.game.fairness.memory_vault import MemorySeedVault
from services.game.records import inputs_from_events, record_from_events, replay_record
from services.game.rules.dice import Awaiting, Game, IllegalCommand, PlayerId, Role, Seat, parse_command
from services.game.rules.dice.commands import KeepCard, RerollThrow
from services.game.rules.dice.modules import rules_for
from services.game.rules.dice.undead.duels import (
    DUEL_HAND,
    DUEL_TARGET,
    SEAN_REROLL,
    ZOMBIE_HAND,
    DuelThrowHeld,
    WoundOwed,
)
from services.game.rules.dice.undead.rage import PIXIE_KEEP, RAGE_DRAW, RageDrawn, RageKept
from services.game.rules.ruleset import ModuleId, ruleset_of
from tests.unit.game.test_old_saloon_service import SCOREKEEPER, _play_online

ROLES = (Role.SHERIFF, Role.RENEGADE, Role.OUTLAW, Role.OUTLAW, Role.DEPUTY)
BASE_FIVE = ("paul_regret", "jourdonnais", "willy_the_kid", "rose_doolan", "lucky_duke")
UA123 = rules_for([ModuleId.UA1, ModuleId.UA2, ModuleId.UA3])
UA23 = rules_for([ModuleId.UA2, ModuleId.UA3])


def start(rules: object = UA23, **characters: str) -> Game:
    chosen = dict(zip(("p1", "p2", "p3", "p4", "p5"), BASE_FIVE, strict=True)) | characters
    seats = [
        Seat(player=PlayerId(p), role=role, character=ch)  # type: ignore[arg-type]
        for (p, ch), role in zip(chosen.items(), ROLES, strict=True)
    ]
    return Game.start(seats, rules=rules)  # type: ignore[arg-type]


def play(game: Game, *lines: str) -> None:
    for line in lines:
        game.play(parse_command(line))


def asked(game: Game) -> Awaiting:
    q = game.awaiting
    assert q is not None
    return q


SHOOT_P5_TWICE = ("p1 roll shoot1 shoot1 beer beer dynamite", "p1 stop", "p1 target 0 p5", "p1 target 1 p5")
SHOOT_P2_TWICE = ("p1 roll shoot1 shoot1 beer beer dynamite", "p1 stop", "p1 target 0 p2", "p1 target 1 p2")
BEERS_TO_P1 = ("p1 target 2 p1", "p1 target 3 p1")


# --- Pixie Pete ---------------------------------------------------------------------------------


def test_pixie_pete_draws_two_and_the_card_he_returns_can_be_drawn_again() -> None:
    game = start(p5="pixie_pete")
    play(game, *SHOOT_P5_TWICE, *BEERS_TO_P1, "p5 draw r05")
    assert asked(game) == Awaiting(player=PlayerId("p5"), decision=RAGE_DRAW)  # his second card
    play(game, "p5 draw r09")
    assert asked(game) == Awaiting(player=PlayerId("p5"), decision=PIXIE_KEEP)
    assert [str(c) for c in game.legal_commands()] == ["p5 keep 0", "p5 keep 1"]
    play(game, "p5 keep 0")
    rage = game.state.rage
    assert rage is not None and rage.hands[PlayerId("p5")] == ["r05"] and "r09" in rage.pile and not rage.pair
    assert RageKept(player=PlayerId("p5"), card="r05", returned="r09", slot=0) in game.events
    # the turn is over and his draw is done: the next turn starts, nobody else owes a card
    assert asked(game).player == "p2"
    assert len(rage.pile) + len(rage.discard) + sum(len(h) for h in rage.hands.values()) == 18


def test_pixie_pete_with_one_card_left_keeps_it_unasked() -> None:
    game = start(p5="pixie_pete")
    rage = game.state.rage
    assert rage is not None
    rage.hands[PlayerId("p3")] = [c for c in rage.pile if c != "r07"]  # every card held but one
    rage.pile = ["r07"]
    play(game, *SHOOT_P5_TWICE, *BEERS_TO_P1, "p5 draw r07")
    assert not any(isinstance(e, RageKept) for e in game.events)
    assert rage.hands[PlayerId("p5")] == ["r07"] and not rage.pair
    assert asked(game).player == "p2" and asked(game).decision != PIXIE_KEEP


def test_pixies_second_card_comes_from_the_reshuffled_discards_when_the_pile_is_empty() -> None:
    game = start(p5="pixie_pete")
    rage = game.state.rage
    assert rage is not None
    rage.discard = ["r02", "r03"]
    rage.hands[PlayerId("p3")] = [c for c in rage.pile if c not in ("r07", "r02", "r03")]
    rage.pile = ["r07"]
    play(game, *SHOOT_P5_TWICE, *BEERS_TO_P1, "p5 draw r07")
    assert asked(game) == Awaiting(player=PlayerId("p5"), decision=RAGE_DRAW)
    play(game, "p5 draw r03")
    drawn = [e for e in game.events if isinstance(e, RageDrawn)]
    assert [(e.card, e.reshuffled) for e in drawn] == [("r07", False), ("r03", True)]
    play(game, "p5 keep 1")
    assert rage.hands[PlayerId("p5")] == ["r03"] and sorted(rage.pile) == ["r02", "r07"]


def test_the_keep_is_checked_and_is_pixies_alone() -> None:
    game = start(p5="pixie_pete")
    play(game, *SHOOT_P5_TWICE, *BEERS_TO_P1, "p5 draw r05", "p5 draw r09")
    with pytest.raises(IllegalCommand, match=r"keeps card 0 .* or 1"):
        game.play(KeepCard(player=PlayerId("p5"), slot=2))
    with pytest.raises(Exception, match="p3 cannot act now"):
        game.play(KeepCard(player=PlayerId("p3"), slot=0))
    assert parse_command("p5 keep 1") == KeepCard(player=PlayerId("p5"), slot=1)


def test_a_pixie_keep_times_out_to_the_first_card_drawn_and_names_no_card() -> None:
    game = start(p5="pixie_pete")
    play(game, *SHOOT_P5_TWICE, *BEERS_TO_P1, "p5 draw r05", "p5 draw r09")
    default = UA23.decisions[PIXIE_KEEP].timeout(game.state, asked(game))
    assert default == KeepCard(player=PlayerId("p5"), slot=0)
    assert str(default) == "p5 keep 0"  # a DecisionTimedOut records this text for everyone


def test_the_record_writes_the_keep_by_its_place_and_replays_the_same_game() -> None:
    game = start(p5="pixie_pete")
    play(game, *SHOOT_P5_TWICE, *BEERS_TO_P1, "p5 draw r05", "p5 draw r09", "p5 keep 1")
    assert [str(c) for c in inputs_from_events(game.events[1:])][-3:] == [
        "p5 draw r05",
        "p5 draw r09",
        "p5 keep 1",
    ]
    replayed = replay_record(record_from_events(game.events, ruleset=ruleset_of(["UA2", "UA3"])))
    assert replayed.events == game.events


def test_pixies_two_cards_and_his_choice_are_redacted_for_everyone_else() -> None:
    engine = engine_for(ruleset_of(["UA2", "UA3"]))
    kept = RageKept(player=PlayerId("p5"), card="r05", returned="r09", slot=0)
    hidden = engine.redact_event(kept, lambda seat: True, own=lambda seat: False)
    assert hidden == {"type": "RageKept", "player": "p5", "card": None, "returned": None, "slot": None}
    assert engine.redact_event(kept, lambda seat: True, own=lambda seat: seat == "p5")["returned"] == "r09"
    game = start(p5="pixie_pete")
    play(game, *SHOOT_P5_TWICE, *BEERS_TO_P1, "p5 draw r05", "p5 draw r09")
    mine = engine.view(game, lambda seat: True, own=lambda seat: seat == "p5")
    theirs = engine.view(game, lambda seat: True, own=lambda seat: False)
    pixie = next(p for p in mine["players"] if p["id"] == "p5")
    assert pixie["rage_choice"] == ["r05", "r09"] and pixie["rage_cards"] == ["r05", "r09"]
    other = next(p for p in theirs["players"] if p["id"] == "p5")
    assert other["rage_choice"] is None and other["rage_cards"] is None and other["rage_count"] == 2
    assert "r05" not in str(theirs) and "r09" not in str(theirs)
    assert "rage_choice" not in next(p for p in mine["players"] if p["id"] == "p1")  # Pixie's only


def test_a_whiskey_without_a_token_makes_pixie_draw_two() -> None:
    game = start(UA123, p1="pixie_pete")
    play(game, "p1 roll beer arrow arrow whiskey gatling", "p1 stop", "p1 draw r17", "p1 draw r01")
    assert asked(game) == Awaiting(player=PlayerId("p1"), decision=PIXIE_KEEP)
    play(game, "p1 keep 1")
    rage = game.state.rage
    assert rage is not None and rage.hands[PlayerId("p1")] == ["r01"] and not rage.owed_now


async def test_online_pixies_draws_come_from_the_seed_the_audit_agrees_and_only_he_sees_them() -> None:
    ruleset = ruleset_of(["UA1", "UA2", "UA3"])
    for attempt in range(40):  # the vault's seed deals Pixie Pete to someone in most 8-seat games
        store = MemoryEventStore(mapper=GAME_MAPPER)
        service = GameService(store, MemorySeedVault())  # type: ignore[arg-type]
        online = await _play_online(service, ruleset, 8, seed=attempt, game_id="pixie")
        assert online.status is GameStatus.ENDED and online.game is not None
        kept = [e for e in online.game.events if isinstance(e, RageKept)]
        if kept:
            break
    assert kept, "Pixie Pete kept no card in 40 online games"
    report = await audit_game(store, "pixie")  # type: ignore[arg-type]
    assert report.clean, report.verdict
    assert "every card matches" in report.checks[3].detail
    # the game is over: every card is shown to everyone now
    seen = redact_event(online, PUBLIC, kept[0])
    assert (seen["card"], seen["returned"]) == (kept[0].card, kept[0].returned)


# --- Sean Mallory -------------------------------------------------------------------------------


def test_sean_mallory_is_asked_only_after_a_losing_throw_of_his_own() -> None:
    game = start(UA123, p1="sean_mallory")
    play(game, "p1 roll dynamite dynamite gatling gatling duel", "p1 stop", "p1 target p2", "p2 draw duel")
    play(game, "p1 draw duel")  # a winning throw: nothing to ask
    assert asked(game).player == "p2"  # back to the target
    play(game, "p2 draw duel", "p1 draw whiskey")
    assert asked(game) == Awaiting(player=PlayerId("p1"), decision=SEAN_REROLL)
    assert [str(c) for c in game.legal_commands()] == ["p1 decline", "p1 reroll-throw"]
    assert UA123.decisions[SEAN_REROLL].timeout(game.state, asked(game)) == parse_command("p1 decline")
    game.play(RerollThrow(player=PlayerId("p1")))
    assert asked(game).player == "p1" and asked(game).decision == "duel_throw"  # a random throw


def test_sean_mallorys_reroll_is_a_random_throw_numbered_like_the_others() -> None:
    game = start(UA123, p1="sean_mallory")
    play(game, "p1 roll dynamite dynamite gatling gatling duel", "p1 stop", "p1 target p2", "p2 draw duel")
    play(game, "p1 draw arrow", "p1 reroll-throw")
    duels = game.state.duels
    assert duels is not None and duels.throws == 2
    need = engine_for(ruleset_of(["UA1", "UA2", "UA3"])).random_need(game)
    assert need is not None and need.deck == "duel-die-ua1-1" and need.draw == 2
    with pytest.raises(IllegalCommand, match="a Duel die shows"):
        play(game, "p1 draw beer")


# --- zombies (UA4) in UA1–UA3 -------------------------------------------------------------------


def zombie(game: Game, player: str) -> None:
    """``player`` is a plain zombie from turn 1 on (what UA4's outbreak sets)."""
    game.state.by_id[PlayerId(player)].zombie_since = 1


def test_a_zombie_never_draws_a_rage_card_for_his_losses() -> None:
    game = start()
    zombie(game, "p2")
    play(game, *SHOOT_P2_TWICE, *BEERS_TO_P1)
    assert not any(isinstance(e, RageDrawn) for e in game.events)
    assert asked(game).player == "p2" and asked(game).decision != RAGE_DRAW


def test_a_zombie_pixie_pete_has_no_ability_and_draws_nothing() -> None:
    game = start(p5="pixie_pete")
    zombie(game, "p5")
    play(game, *SHOOT_P5_TWICE, *BEERS_TO_P1)
    assert not any(isinstance(e, RageDrawn) for e in game.events)


def test_a_zombie_rolls_three_base_dice_and_no_duel_die() -> None:
    game = start(UA123)
    zombie(game, "p2")
    hand = UA123.dice_for(game.state, game.state.by_id[PlayerId("p2")])
    assert hand == ZOMBIE_HAND and len(hand) == 3 and all(k.name == "base" for k in hand)
    assert UA123.dice_for(game.state, game.state.by_id[PlayerId("p3")]) == DUEL_HAND


def test_a_zombie_is_never_challenged_so_never_throws_a_duel_die_or_takes_a_wound_token() -> None:
    game = start(UA123)
    zombie(game, "p2")
    play(game, "p1 roll dynamite dynamite gatling gatling duel", "p1 stop")
    assert asked(game) == Awaiting(player=PlayerId("p1"), decision=DUEL_TARGET)
    targets = [str(c) for c in game.legal_commands()]
    assert "p1 target p2" not in targets and "p1 target p3" in targets
    with pytest.raises(IllegalCommand, match="p2 cannot be challenged"):
        play(game, "p1 target p2")


def test_herb_hunter_gives_no_wound_token_to_a_zombie() -> None:
    game = start(UA123, p1="herb_hunter")
    zombie(game, "p2")
    play(game, "p1 roll shoot1 shoot1 arrow gatling gatling", "p1 stop", "p1 target 0 p2", "p1 target 1 p2")
    assert not any(isinstance(e, WoundOwed) for e in game.events)


def test_pat_brennan_never_gives_a_rage_card_to_a_zombie() -> None:
    game = start(p2="pat_brennan")
    play(game, "p1 roll shoot2 shoot2 arrow arrow beer", "p1 stop", "p1 target 0 p3", "p1 target 1 p3")
    play(game, "p1 target 4 p1", "p3 draw r05")
    zombie(game, "p4")
    assert "p2 move-rage p3 p4 0" not in [str(c) for c in game.legal_commands()]
    with pytest.raises(IllegalCommand, match="p4 is a zombie and takes no Rage card"):
        play(game, "p2 move-rage p3 p4 0")


def test_a_zombie_sean_mallory_throws_no_second_time() -> None:
    game = start(UA123, p1="sean_mallory")
    play(game, "p1 roll dynamite dynamite gatling gatling duel", "p1 stop", "p1 target p2", "p2 draw duel")
    zombie(game, "p1")  # (a zombie rolls no Duel die: only the ability's own check is shown here)
    play(game, "p1 draw arrow")
    assert not any(isinstance(e, DuelThrowHeld) for e in game.events)


def test_the_public_state_of_a_pixie_game_names_no_card_drawn() -> None:
    game = start(p5="pixie_pete")
    play(game, *SHOOT_P5_TWICE, *BEERS_TO_P1, "p5 draw r05", "p5 draw r09", "p5 keep 1")
    view = engine_for(ruleset_of(["UA2", "UA3"])).view(game, lambda seat: False, own=lambda seat: False)
    assert "r05" not in str(view) and "r09" not in str(view)


# --- bots ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("first", "second", "kept"), [("r13", "r05", 1), ("r05", "r13", 0), ("r15", "r01", 1)]
)
def test_the_heuristic_bot_keeps_pixies_better_card(first: str, second: str, kept: int) -> None:
    game = start(p5="pixie_pete")
    play(game, *SHOOT_P5_TWICE, *BEERS_TO_P1, f"p5 draw {first}", f"p5 draw {second}")
    choice = HeuristicBot(0.8).choose(game, asked(game), random.Random(1))
    assert choice == KeepCard(player=PlayerId("p5"), slot=kept)  # a shot over an arrow or a dynamite
    assert RandomBot().choose(game, asked(game), random.Random(1)) in list(game.legal_commands())


def test_the_heuristic_bot_throws_seans_losing_die_again() -> None:
    game = start(UA123, p1="sean_mallory")
    play(game, "p1 roll dynamite dynamite gatling gatling duel", "p1 stop", "p1 target p2", "p2 draw duel")
    play(game, "p1 draw arrow")
    assert HeuristicBot(0.8).choose(game, asked(game), random.Random(1)) == RerollThrow(player=PlayerId("p1"))
    assert RandomBot().choose(game, asked(game), random.Random(1)) in list(game.legal_commands())


def test_random_and_heuristic_play_with_pixie_and_sean_seated_always_ends() -> None:
    asked_of: set[str] = set()
    for seed in range(12):
        _play_to_the_end(seed, asked_of)
    assert {"pixie_keep", "sean_reroll"} <= asked_of  # both abilities were played by the bots


def _play_to_the_end(seed: int, asked_of: set[str]) -> None:
    rng = random.Random(seed)
    heuristic, anyone = HeuristicBot(0.8), RandomBot()
    game = start(UA123, p2="pixie_pete", p4="sean_mallory")
    for _ in range(5000):
        if game.is_over:
            break
        q = asked(game)
        asked_of.add(str(q.decision))
        if q.decision in ("roll", RAGE_DRAW, "wound_draw", "duel_throw"):
            command = rng.choice(list(game.legal_commands())) if q.decision != "roll" else None
            if command is None:
                kinds = game.state.turn.kinds if game.state.turn is not None else ()
                faces = " ".join(rng.choice(kinds[i].faces).value for i in q.dice)
                command = parse_command(f"{q.player} roll {faces}")
        else:
            bot = heuristic if seed % 2 else anyone
            command = bot.choose(game, q, rng)
        game.play(command)
    assert game.is_over
    rage = game.state.rage
    assert rage is not None and not rage.pair


async def test_a_table_game_waiting_for_pixies_choice_reads_over_graphql_with_his_two_cards() -> None:
    store = MemoryEventStore(mapper=GAME_MAPPER)
    service = GameService(store, MemorySeedVault())  # type: ignore[arg-type]
    characters = ("paul_regret", "jourdonnais", "willy_the_kid", "rose_doolan", "pixie_pete")
    seats = tuple(
        TableSeat(member_id=f"m{i + 1}", name=f"P{i + 1}", role=role.value, character=character)
        for i, (role, character) in enumerate(zip(ROLES, characters, strict=True))
    )
    spec = NewGame(
        mode=GameMode.TABLE, player_count=5, seats=seats, ruleset=ruleset_of(["UA2", "UA3"]), game_id="t"
    )
    await service.create_game(spec, command_id="create-t", actor=SCOREKEEPER)
    for n, line in enumerate((*SHOOT_P5_TWICE, *BEERS_TO_P1, "p5 draw r05", "p5 draw r09")):
        await service.play("t", parse_command(line), actor=SCOREKEEPER, command_id=f"t-{n}")
    session = await service.load("t")
    seen = {
        "scorekeeper": Viewer(scorekeeper=True),
        "pixie": Viewer(member_id="m5"),
        "p1": Viewer(member_id="m1"),
        "anybody": PUBLIC,
    }
    choice: dict[str, list[str] | None] = {}
    for who, viewer in seen.items():
        game = GraphQLGame.from_view(redact_state(session, viewer))
        choice[who] = next(p for p in game.players if p.id == "p5").rage_choice
    assert choice == {"scorekeeper": ["r05", "r09"], "pixie": ["r05", "r09"], "p1": None, "anybody": None}
