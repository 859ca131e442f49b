"""Rulesets: the module catalogue and its constraints (RULINGS-expansions §1), each refusal in
words, the compact text form, the pool rules, and the base game as every old game's ruleset."""

from __future__ import annotations

import msgspec
import pytest

from services.game.rules.ruleset import (
    BASE_DICE,
    MODULES,
    GameType,
    ModuleId,
    Ruleset,
    RulesetError,
    check_ruleset,
    parse_ruleset,
    refusal,
    ruleset_of,
    unimplemented,
)


def test_the_catalogue_has_the_ten_modules_with_their_official_names() -> None:
    assert [(m.id.value, m.name, m.expansion) for m in MODULES.values()] == [
        ("OS1", "The Loudmouth and the Coward", "Old Saloon"),
        ("OS2", "The Arrow of the Indian Chief", "Old Saloon"),
        ("OS3", "Special Roles", "Old Saloon"),
        ("OS4", "A Posse of New Characters", "Old Saloon"),
        ("OS5", "The Ghost", "Old Saloon"),
        ("UA1", "Look Me in the Eyes", "Undead or Alive"),
        ("UA2", "Two Bullets Are Enough", "Undead or Alive"),
        ("UA3", "A New Posse in Town", "Undead or Alive"),
        ("UA4", "Undead or Alive?", "Undead or Alive"),
        ("UA5", "Legacy", "Undead or Alive"),
    ]


def test_the_base_game_is_the_default_and_reads_as_dice() -> None:
    assert Ruleset() == BASE_DICE == ruleset_of([])
    assert BASE_DICE.text == str(BASE_DICE) == "dice"
    assert BASE_DICE.is_base and BASE_DICE.game_type is GameType.DICE
    assert BASE_DICE.data == {"characters": "dice-base-1", "dice": "dice-base-1"}
    assert refusal(BASE_DICE, 3) is None


def test_modules_are_sorted_and_their_tables_join_the_data_versions() -> None:
    ruleset = ruleset_of(["UA2", "OS4", "OS1"])
    assert ruleset.modules == (ModuleId.OS1, ModuleId.OS4, ModuleId.UA2)
    assert ruleset.text == "dice OS1 OS4 UA2"
    assert ruleset.data == {
        "characters": "dice-base-1",
        "dice": "dice-base-1",
        "saloon-dice": "os1-1",
        "characters-os4": "os4-1",
        "rage-deck": "rage-1",
    }
    assert parse_ruleset(ruleset.text) == ruleset
    assert msgspec.json.decode(msgspec.json.encode(ruleset), type=Ruleset) == ruleset


@pytest.mark.parametrize(
    ("modules", "players", "reason"),
    [
        (["UA1"], 5, "module UA1 needs UA2"),
        (["OS1", "UA1"], 8, "module UA1 needs UA2"),
        (["OS5"], 4, "the Ghost (OS5) needs 5 or more players"),
        (["OS5"], 3, "the Ghost (OS5) needs 5 or more players"),
        (["UA4"], 3, "the zombie outbreak (UA4) needs 4 or more players"),
        (["OS3"], 3, "the special roles (OS3) need 4 or more players"),
        (["UA5"], 3, "the legacy series (UA5) needs 4 or more players"),
        (["OS1"], 9, "BANG! The Dice Game is for 3 to 8 players, not 9"),
        ([], 2, "BANG! The Dice Game is for 3 to 8 players, not 2"),
    ],
)
def test_each_constraint_refuses_naming_why(modules: list[str], players: int, reason: str) -> None:
    ruleset = ruleset_of(modules)
    assert refusal(ruleset, players) == reason
    with pytest.raises(RulesetError) as refused:
        check_ruleset(ruleset, players)
    assert str(refused.value) == reason


@pytest.mark.parametrize(
    ("modules", "players"),
    [
        (["OS5"], 5),
        (["UA4"], 4),
        (["OS3"], 4),
        (["UA5"], 4),
        (["UA1", "UA2"], 3),
        ([m.value for m in ModuleId], 8),
        (["OS1", "OS2", "OS4"], 3),
    ],
)
def test_allowed_combinations_pass(modules: list[str], players: int) -> None:
    assert refusal(ruleset_of(modules), players) is None


def test_unknown_or_repeated_module_and_unknown_game_type_are_refused_when_read() -> None:
    with pytest.raises(RulesetError, match=r"unknown module 'OS9' \(known: OS1, OS2, OS3, OS4, OS5, UA1"):
        ruleset_of(["OS9"])
    with pytest.raises(RulesetError, match="module OS1 is named twice"):
        ruleset_of(["OS1", "OS1"])
    with pytest.raises(RulesetError, match=r"unknown game type 'chess' \(known: dice, cards\)"):
        parse_ruleset("chess")
    with pytest.raises(RulesetError, match="names its game type first"):
        parse_ruleset("  ")


def test_a_decoded_ruleset_with_wrong_order_or_data_versions_is_refused() -> None:
    base = {"characters": "dice-base-1", "dice": "dice-base-1"}
    unsorted = Ruleset(modules=(ModuleId.OS2, ModuleId.OS1), data=base)
    assert refusal(unsorted, 4) == "the modules must be listed once each, in order"
    rage = ruleset_of(["UA2"])
    old_deck = msgspec.structs.replace(rage, data={**rage.data, "rage-deck": "rage-0"})
    assert refusal(old_deck, 4) == "data table 'rage-deck' has no version 'rage-0' (known: rage-1)"
    stray = Ruleset(data={**base, "boneyard": "boneyard-1"})
    assert refusal(stray, 4) == "data table 'boneyard' is not part of the ruleset dice"
    missing = Ruleset(data={"characters": "dice-base-1"})
    assert refusal(missing, 4) == "the ruleset does not say which version of dice it uses"


def test_pool_rules_leave_out_characters_whose_module_is_absent() -> None:
    assert ruleset_of(["OS4"]).excluded_characters() == ("apache_kid", "jose_delgado", "tequila_joe")
    assert ruleset_of(["OS1", "OS4"]).excluded_characters() == ("apache_kid",)
    assert ruleset_of(["OS1", "OS2", "OS4"]).excluded_characters() == ()
    assert ruleset_of(["UA2", "UA3"]).excluded_characters() == ("herb_hunter", "sean_mallory")
    assert ruleset_of(["OS1", "OS2"]).excluded_characters() == ()  # they bring no characters


def test_a_server_names_the_first_module_it_does_not_implement() -> None:
    assert unimplemented(BASE_DICE, ()) is None
    assert (
        unimplemented(ruleset_of(["OS2", "OS1"]), {ModuleId.OS1})
        == "module OS2 (The Arrow of the Indian Chief) is not implemented by this server yet"
    )
