"""The module seam: a game's rules table is the base game plus its modules, assembled once per
module set; a module's die kinds, hand of dice, hooks and decisions reach the turn without any
edit to the turn code. The modules here are toys, declared by the test, not expansion rules."""

from __future__ import annotations

import pytest

from services.game.rules.dice import (
    Awaiting,
    Decision,
    Face,
    Game,
    IllegalCommand,
    InvalidSetup,
    RollDice,
    Seat,
    StopRolling,
)
from services.game.rules.dice import modules as dice_modules
from services.game.rules.dice.abilities import Ability
from services.game.rules.dice.decisions import DECISIONS
from services.game.rules.dice.kinds import BASE, die_kind
from services.game.rules.dice.modules import BASE_GAME_RULES, RulesModule, assemble, rules_for, rules_of
from services.game.rules.dice.vocabulary import ARROW, BEER, DYNAMITE, GATLING, PlayerId, Role
from services.game.rules.ruleset import BASE_DICE, ModuleId

TOY = die_kind("toy", (ARROW, DYNAMITE, BEER, BEER, BEER, BEER))


def _seats() -> list[Seat]:
    roles = (Role.SHERIFF, Role.RENEGADE, Role.OUTLAW, Role.OUTLAW)
    characters = ("paul_regret", "willy_the_kid", "lucky_duke", "rose_doolan")
    return [
        Seat(player=PlayerId(f"p{i + 1}"), role=r, character=c)  # type: ignore[arg-type]
        for i, (r, c) in enumerate(zip(roles, characters, strict=True))
    ]


def test_the_base_game_is_the_empty_module_set_and_its_table_is_shared() -> None:
    assert rules_for() is BASE_GAME_RULES is rules_of(BASE_DICE)
    assert BASE_GAME_RULES.is_base and not BASE_GAME_RULES.hooks and BASE_GAME_RULES.hand is None
    assert dict(BASE_GAME_RULES.decisions) == dict(DECISIONS)
    assert dict(BASE_GAME_RULES.die_kinds) == {"base": BASE}
    game = Game.start(_seats())
    assert game.state.rules is BASE_GAME_RULES
    assert game.state.clone().rules is BASE_GAME_RULES


def test_a_module_the_engine_does_not_play_is_refused_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    # every module is registered by now: the engine lacks one for the test's sake (and the
    # assembly is asked past its cache, which may hold the module's table already)
    monkeypatch.delitem(dice_modules._REGISTERED, ModuleId.UA4)
    with pytest.raises(InvalidSetup, match=r"module UA4 \(Undead or Alive\?\) is not played"):
        dice_modules._rules_for.__wrapped__((ModuleId.UA4,))


def test_a_module_hand_of_dice_and_start_of_turn_hook_reach_the_turn() -> None:
    asked: list[int] = []

    def start_of_turn(s: object, t: object, active: object) -> Awaiting | None:
        asked.append(1)
        return None

    toy = RulesModule(
        ModuleId.OS1,
        die_kinds=(TOY,),
        hooks=Ability(start_of_turn=start_of_turn),
        hand=lambda state, player: (BASE, BASE, BASE, BASE, TOY),
    )
    rules = assemble([toy])
    assert rules.modules == (ModuleId.OS1,) and rules.die_kinds["toy"] is TOY
    game = Game.start(_seats(), rules=rules)
    q = game.awaiting
    assert q is not None and q.decision is Decision.ROLL and q.dice == (0, 1, 2, 3, 4)
    assert asked
    assert game.state.turn is not None and game.state.turn.kinds[4] is TOY
    with pytest.raises(IllegalCommand, match="die 5 is a toy die and has no gatling face"):
        game.play(RollDice(player=q.player, faces=(BEER, BEER, BEER, BEER, GATLING)))
    game.play(RollDice(player=q.player, faces=(BEER, BEER, BEER, BEER, Face.BEER)))
    game.play(StopRolling(player=q.player))
    assert game.awaiting is not None and game.awaiting.decision is Decision.BEER_TARGET


def test_two_modules_declaring_the_same_thing_are_refused() -> None:
    a = RulesModule(ModuleId.OS1, die_kinds=(TOY,))
    b = RulesModule(ModuleId.UA1, die_kinds=(TOY,))
    with pytest.raises(InvalidSetup, match="module UA1 declares the die kind toy a second time"):
        assemble([a, b])
    with pytest.raises(InvalidSetup, match="declares the decision shot_target a second time"):
        assemble([RulesModule(ModuleId.OS1, decisions=(DECISIONS[Decision.SHOT_TARGET],))])
