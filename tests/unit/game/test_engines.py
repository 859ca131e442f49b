"""The engine interface (services/game/engines): one engine per ruleset, with that ruleset's
rules, refusing what this server cannot play; the dice engine behind it."""

from __future__ import annotations

import pytest

from services.game.engines import UnplayableRuleset, engine_for
from services.game.engines.dice import DiceEngine
from services.game.results import FinishKind
from services.game.rules.dice import CharacterId, Decline, Face, Role, RollDice, RuleError, Seat
from services.game.rules.dice import modules as dice_modules
from services.game.rules.dice.commands import PassWindow
from services.game.rules.dice.kinds import BASE, die_kind
from services.game.rules.dice.modules import BASE_GAME_RULES, RulesModule, assemble, rules_of
from services.game.rules.dice.vocabulary import PlayerId
from services.game.rules.ruleset import BASE_DICE, ModuleId, ruleset_of

LOADED = die_kind("loaded", (Face.ARROW, Face.BEER))
"""A test-only die kind: the first die of the test module's hand shows an arrow or a beer."""

LOADED_DICE = RulesModule(
    id=ModuleId.UA5, die_kinds=(LOADED,), hand=lambda state, player: (LOADED, BASE, BASE, BASE, BASE)
)
"""A test-only module (under UA5's id, which no engine plays): a hand with one loaded die."""

SEATS = (
    Seat(player=PlayerId("p1"), role=Role.SHERIFF, character=CharacterId.BART_CASSIDY),
    Seat(player=PlayerId("p2"), role=Role.RENEGADE, character=CharacterId.BLACK_JACK),
    Seat(player=PlayerId("p3"), role=Role.OUTLAW, character=CharacterId.CALAMITY_JANET),
    Seat(player=PlayerId("p4"), role=Role.OUTLAW, character=CharacterId.EL_GRINGO),
)


def test_engine_for_gives_one_engine_per_ruleset_playing_its_rules() -> None:
    base = engine_for(BASE_DICE)
    assert isinstance(base, DiceEngine) and base.rules is BASE_GAME_RULES
    assert engine_for(ruleset_of([])) is base
    game = base.start(SEATS)
    assert game.state.rules is BASE_GAME_RULES


def test_engine_for_refuses_a_module_this_server_does_not_play_naming_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # every module is registered by now: this server lacks one for the test's sake
    monkeypatch.delitem(dice_modules._REGISTERED, ModuleId.UA4)
    with pytest.raises(UnplayableRuleset, match=r"^module UA4 \(Undead or Alive\?\) is not implemented"):
        engine_for(ruleset_of(["UA4"]))


def test_a_game_is_played_and_folded_with_its_rulesets_rules() -> None:
    engine = DiceEngine(ruleset_of(["UA5"]), rules=assemble([LOADED_DICE]))
    game = engine.start(SEATS)
    need = engine.random_need(game)
    assert need is not None and need.player == "p1"
    assert need.dice == ("loaded", "base", "base", "base", "base") and not need.all_base
    question = engine.question(game)
    assert question is not None and question.random and question.decision == "roll"
    with pytest.raises(RuleError, match="loaded"):
        gatling_first = [Face.GATLING, Face.ARROW, Face.BEER, Face.BEER, Face.SHOOT1]
        engine.play(game, engine.supply(game, need, gatling_first))
    faces = [Face.BEER, Face.ARROW, Face.BEER, Face.SHOOT1, Face.SHOOT2]
    engine.play(game, engine.supply(game, need, faces))
    # the fold with the ruleset's rules is the live game; with the base rules it is not
    folded = engine.replay(game.events)
    assert [k.name for k in folded.state.turn.kinds] == ["loaded", "base", "base", "base", "base"]
    assert folded.state.turn.dice == game.state.turn.dice
    base_fold = engine_for(BASE_DICE).replay(game.events)
    assert [k.name for k in base_fold.state.turn.kinds] == ["base"] * 5
    # a session folds event by event: begin + evolve gives the same
    stepwise = engine.begin(game.events[0])
    for event in game.events[1:]:
        engine.evolve(stepwise, event)
    assert stepwise.state.turn.kinds == game.state.turn.kinds and stepwise.events == game.events


def test_a_base_hand_asks_for_base_dice_only() -> None:
    engine = engine_for(BASE_DICE)
    need = engine.random_need(engine.start(SEATS))
    assert need is not None and need.dice == ("base",) * 5 and need.all_base


def test_a_character_outside_the_rulesets_pool_is_refused_saying_why() -> None:
    seats = (Seat(player=PlayerId("p1"), role=Role.SHERIFF, character=CharacterId.JOSE_DELGADO), *SEATS[1:])
    without_os1 = engine_for(ruleset_of(["OS4"]))
    with pytest.raises(RuleError) as refused:
        without_os1.start(seats)
    assert str(refused.value) == (
        "p1: jose_delgado is not in the character pool of dice OS4: "
        "it needs the Loudmouth and Coward dice (OS1)"
    )
    with_os1 = engine_for(ruleset_of(["OS1", "OS4"]))
    assert with_os1.start(seats).state.players[0].character.id is CharacterId.JOSE_DELGADO
    with pytest.raises(RuleError, match=r"^p1: jose_delgado is not a character of dice$"):
        engine_for(BASE_DICE).start(seats)


def test_names_from_a_scorekeeper_become_the_engines_seats() -> None:
    class Entered:
        def __init__(self, player: str, role: str, character: str) -> None:
            self.player, self.role, self.character = player, role, character

    engine = engine_for(BASE_DICE)
    game = engine.start([Entered(s.player, s.role.value, s.character.value) for s in SEATS])
    assert game.events[0].seats == SEATS
    with pytest.raises(RuleError, match=r"^p2: 'mystery' is not a character of dice$"):
        engine.start([Entered("p1", "sheriff", "bart_cassidy"), Entered("p2", "renegade", "mystery")])


def test_the_result_and_the_views_are_neutral() -> None:
    engine = engine_for(BASE_DICE)
    game = engine.start(SEATS)
    assert engine.finish(game) is None and engine.result(game, "g", {}) is None
    # the Sheriff's role is public, a living Outlaw's is not
    assert engine.role_public(game, "p1") and not engine.role_public(game, "p3")
    redacted = engine.redact_event(game.events[0], lambda seat: seat != "p1")
    assert [s["role"] for s in redacted["seats"]] == ["sheriff", None, None, None]
    view = engine.view(game, lambda seat: seat == "p2")
    assert [p["role"] for p in view["players"]] == [None, "renegade", None, None]
    assert view["awaiting"]["decision"] == "roll"
    while not game.is_over:
        need = engine.random_need(game)
        if need is not None:
            engine.play(game, engine.supply(game, need, [Face.DYNAMITE] * 3 + [Face.GATLING] * 2))
            continue
        engine.play(game, engine.timeout_default(game) or next(iter(engine.legal_commands(game))))
    finish = engine.finish(game)
    assert finish is not None and finish.finish in (FinishKind.WON, FinishKind.NO_WINNER)
    result = engine.result(game, "g", {f"p{i}": f"m{i}" for i in range(1, 5)})
    assert result is not None and result.ruleset == "dice" and [s.member_id for s in result.seats] == [
        "m1",
        "m2",
        "m3",
        "m4",
    ]
    assert engine.question(game) is None and engine.random_need(game) is None


def test_dice_and_a_window_s_pass_are_the_servers_input() -> None:
    engine = engine_for(BASE_DICE)
    reason = engine.server_only(RollDice(player=PlayerId("p1"), faces=(Face.BEER,) * 5))
    assert reason == "the server rolls the dice in online games"
    assert engine.server_only(PassWindow(player=PlayerId("p1"))) is not None  # OS3's windows
    assert engine.server_only(Decline(player=PlayerId("p1"))) is None
    assert rules_of(BASE_DICE) is BASE_GAME_RULES
