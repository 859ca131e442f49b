"""``deal-3`` (``deal-2`` with UA3's characters): recorded by a UA3 game only, ``deal-2``'s deal on
any ruleset without UA3 (so older games deal exactly as before), the §UA3 pool rules, every pool
character dealt, and ``deal_seats`` as the service and the audit call it."""

from __future__ import annotations

from collections import Counter

import pytest

from services.game.fairness.deal_pool import character_pool as pool_2
from services.game.fairness.deal_pool import deal as deal_2
from services.game.fairness.deal_pool_3 import DEAL_3_CHARACTERS, character_pool, deal, deal_names
from services.game.fairness.registry import deal_seats, fairness_for
from services.game.fairness.versions import DEAL_2, DEAL_3
from services.game.rules.dice import CharacterId
from services.game.rules.dice.modules import rules_of
from services.game.rules.ruleset import BASE_DICE, CHARACTER_NEEDS, ModuleId, ruleset_of

EIGHT = ["a", "b", "c", "d", "e", "f", "g", "h"]
UA3_ALWAYS = ["belle_star", "chuck_wengam", "greg_digger", "sam_the_healer"]


def test_a_ua3_game_records_deal_3_and_any_other_module_set_still_deal_2() -> None:
    for modules in (["UA3"], ["UA2", "UA3"], ["OS4", "UA1", "UA2", "UA3"]):
        assert fairness_for(ruleset_of(modules)).deal == DEAL_3
    for modules in (["OS4"], ["UA2"], ["UA1", "UA2"], ["OS1", "OS4", "UA2"]):
        assert fairness_for(ruleset_of(modules)).deal == DEAL_2


@pytest.mark.parametrize("modules", [[], ["OS4"], ["OS1", "OS2", "OS4"], ["UA1", "UA2"], ["OS4", "UA2"]])
def test_deal_3_deals_a_ruleset_without_ua3_exactly_as_deal_2(modules: list[str]) -> None:
    ruleset = ruleset_of(modules) if modules else BASE_DICE
    assert character_pool(ruleset) == pool_2(ruleset)
    for n in range(3, 9):
        for s in range(20):
            seed = bytes([s]) * 32
            assert deal(seed, EIGHT[:n], None, ruleset) == deal_2(seed, EIGHT[:n], None, ruleset)
            assert deal(seed, EIGHT[:n], "a", ruleset) == deal_2(seed, EIGHT[:n], "a", ruleset)


def test_the_ua3_pool_rules() -> None:
    base = list(DEAL_3_CHARACTERS[("characters", "dice-base-1")])
    assert character_pool(ruleset_of(["UA3"])) == base + UA3_ALWAYS
    assert character_pool(ruleset_of(["UA2", "UA3"])) == [
        *base,
        "belle_star",
        "chuck_wengam",
        "greg_digger",
        "pat_brennan",
        "pixie_pete",
        "sam_the_healer",
    ]
    assert character_pool(ruleset_of(["UA1", "UA2", "UA3"])) == base + list(
        DEAL_3_CHARACTERS[("characters-ua3", "ua3-1")]
    )
    os4 = ["bill_noface", "elena_fuente", "vera_custer", "doc_holyday", "molly_stark"]
    assert character_pool(ruleset_of(["OS4", "UA3"])) == base + os4 + UA3_ALWAYS


def test_the_deal_3_pool_is_the_engines_pool_and_its_needs_are_the_rulesets() -> None:
    for modules in (
        ["UA3"],
        ["UA2", "UA3"],
        ["UA1", "UA2", "UA3"],
        ["OS1", "OS2", "OS4", "UA1", "UA2", "UA3"],
    ):
        ruleset = ruleset_of(modules)
        assert {CharacterId(c) for c in character_pool(ruleset)} == set(rules_of(ruleset).characters)
    ua3_needs = {c: str(m) for c, (by, m) in CHARACTER_NEEDS.items() if by is ModuleId.UA3}
    assert ua3_needs == {
        "herb_hunter": "UA1",
        "sean_mallory": "UA1",
        "pat_brennan": "UA2",
        "pixie_pete": "UA2",
    }


def test_every_pool_character_is_dealt_and_each_once_a_game() -> None:
    ruleset = ruleset_of(["UA1", "UA2", "UA3"])
    counts: Counter[str] = Counter()
    for s in range(400):
        _, _, characters = deal_names(s.to_bytes(32, "big"), EIGHT, None, ruleset)
        assert len(set(characters)) == 8
        counts.update(characters)
    assert set(counts) == set(character_pool(ruleset))


def test_deal_seats_by_the_recorded_version_and_deal_2_refuses_the_ua3_table() -> None:
    ruleset = ruleset_of(["UA1", "UA2", "UA3"])
    seed = bytes(range(32))
    fairness = fairness_for(ruleset)
    seated, seats = deal_seats(fairness, seed, EIGHT[:5], None, ruleset)
    assert (seated, seats) == deal(seed, EIGHT[:5], None, ruleset)
    old = fairness_for(ruleset_of(["UA1", "UA2"]))
    with pytest.raises(ValueError, match="deal-2 has no character table 'characters-ua3'"):
        deal_seats(old, seed, EIGHT[:5], None, ruleset)
