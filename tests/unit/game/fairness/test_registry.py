"""The derivation registry: every version's tables pinned as written (a reorder or an added
entry is a new version, never an edit), versions resolved by name, unknown ones refused."""

from __future__ import annotations

import hashlib
import hmac
import re

import pytest

from services.game.fairness.deal import DEAL_1_CHARACTERS, DEAL_1_ROLES, deal
from services.game.fairness.deal_pool import DEAL_2_CHARACTERS
from services.game.fairness.dice import DICE_1_FACES, FACES
from services.game.fairness.registry import (
    CURRENT,
    DERIVATIONS,
    DealDerivation,
    DerivationKind,
    DiceDerivation,
    SpecialRolesDerivation,
    UnknownDerivation,
    check_fairness,
    deal_derivation,
    dice_derivation,
    special_roles_derivation,
)
from services.game.fairness.streams import ByteStream, block
from services.game.fairness.versions import FAIRNESS_V1, Fairness
from services.game.rules.dice import CharacterId, Face, Role, roles_for


def test_the_registry_holds_deal_1_and_dice_1_with_their_tables_written_out() -> None:
    assert {v: (d.kind, dict(d.tables)) for v, d in DERIVATIONS.items()} == {
        "deal-1": (
            DerivationKind.DEAL,
            {
                "characters": (
                    "bart_cassidy",
                    "black_jack",
                    "calamity_janet",
                    "el_gringo",
                    "jesse_jones",
                    "jourdonnais",
                    "kit_carlson",
                    "lucky_duke",
                    "paul_regret",
                    "pedro_ramirez",
                    "rose_doolan",
                    "sid_ketchum",
                    "slab_the_killer",
                    "suzy_lafayette",
                    "vulture_sam",
                    "willy_the_kid",
                ),
                "roles-3": ("deputy", "outlaw", "renegade"),
                "roles-4": ("sheriff", "renegade", "outlaw", "outlaw"),
                "roles-5": ("sheriff", "renegade", "outlaw", "outlaw", "deputy"),
                "roles-6": ("sheriff", "renegade", "outlaw", "outlaw", "outlaw", "deputy"),
                "roles-7": ("sheriff", "renegade", "outlaw", "outlaw", "outlaw", "deputy", "deputy"),
                "roles-8": (
                    "sheriff", "renegade", "renegade", "outlaw", "outlaw", "outlaw", "deputy", "deputy",
                ),
            },
        ),
        "dice-1": (
            DerivationKind.DICE,
            {"base": ("arrow", "dynamite", "shoot1", "shoot2", "beer", "gatling")},
        ),
        "deal-2": (
            DerivationKind.DEAL,
            {
                "characters dice-base-1": (
                    "bart_cassidy",
                    "black_jack",
                    "calamity_janet",
                    "el_gringo",
                    "jesse_jones",
                    "jourdonnais",
                    "kit_carlson",
                    "lucky_duke",
                    "paul_regret",
                    "pedro_ramirez",
                    "rose_doolan",
                    "sid_ketchum",
                    "slab_the_killer",
                    "suzy_lafayette",
                    "vulture_sam",
                    "willy_the_kid",
                ),
                "characters-os4 os4-1": (
                    "jose_delgado",
                    "tequila_joe",
                    "apache_kid",
                    "bill_noface",
                    "elena_fuente",
                    "vera_custer",
                    "doc_holyday",
                    "molly_stark",
                ),
                "table-order": ("characters", "characters-os4"),
                "pool-needs": ("jose_delgado OS1", "tequila_joe OS1", "apache_kid OS2"),
                "roles-3": ("deputy", "outlaw", "renegade"),
                "roles-4": ("sheriff", "renegade", "outlaw", "outlaw"),
                "roles-5": ("sheriff", "renegade", "outlaw", "outlaw", "deputy"),
                "roles-6": ("sheriff", "renegade", "outlaw", "outlaw", "outlaw", "deputy"),
                "roles-7": ("sheriff", "renegade", "outlaw", "outlaw", "outlaw", "deputy", "deputy"),
                "roles-8": (
                    "sheriff", "renegade", "renegade", "outlaw", "outlaw", "outlaw", "deputy", "deputy",
                ),
            },
        ),
        "deal-3": (
            DerivationKind.DEAL,
            {
                "characters dice-base-1": (
                    "bart_cassidy",
                    "black_jack",
                    "calamity_janet",
                    "el_gringo",
                    "jesse_jones",
                    "jourdonnais",
                    "kit_carlson",
                    "lucky_duke",
                    "paul_regret",
                    "pedro_ramirez",
                    "rose_doolan",
                    "sid_ketchum",
                    "slab_the_killer",
                    "suzy_lafayette",
                    "vulture_sam",
                    "willy_the_kid",
                ),
                "characters-os4 os4-1": (
                    "jose_delgado",
                    "tequila_joe",
                    "apache_kid",
                    "bill_noface",
                    "elena_fuente",
                    "vera_custer",
                    "doc_holyday",
                    "molly_stark",
                ),
                "characters-ua3 ua3-1": (
                    "belle_star",
                    "chuck_wengam",
                    "greg_digger",
                    "herb_hunter",
                    "pat_brennan",
                    "pixie_pete",
                    "sam_the_healer",
                    "sean_mallory",
                ),
                "characters-ua3 ua3-2": (
                    "belle_star",
                    "chuck_wengam",
                    "greg_digger",
                    "herb_hunter",
                    "pat_brennan",
                    "pixie_pete",
                    "sam_the_healer",
                    "sean_mallory",
                ),
                "table-order": ("characters", "characters-os4", "characters-ua3"),
                "pool-needs": (
                    "jose_delgado OS1",
                    "tequila_joe OS1",
                    "apache_kid OS2",
                    "herb_hunter UA1",
                    "sean_mallory UA1",
                    "pat_brennan UA2",
                    "pixie_pete UA2",
                ),
                "roles-3": ("deputy", "outlaw", "renegade"),
                "roles-4": ("sheriff", "renegade", "outlaw", "outlaw"),
                "roles-5": ("sheriff", "renegade", "outlaw", "outlaw", "deputy"),
                "roles-6": ("sheriff", "renegade", "outlaw", "outlaw", "outlaw", "deputy"),
                "roles-7": ("sheriff", "renegade", "outlaw", "outlaw", "outlaw", "deputy", "deputy"),
                "roles-8": (
                    "sheriff", "renegade", "renegade", "outlaw", "outlaw", "outlaw", "deputy", "deputy",
                ),
            },
        ),
        "dice-2": (
            DerivationKind.DICE,
            {
                "base": ("arrow", "dynamite", "shoot1", "shoot2", "beer", "gatling"),
                "loudmouth": ("arrow", "dynamite", "bullet", "shoot1x2", "shoot2x2", "gatlingx2"),
                "coward": ("arrow", "dynamite", "shoot1", "beer", "beerx2", "broken_arrow"),
                "duel": ("arrow", "dynamite", "gatling", "whiskey", "duel", "duel"),
            },
        ),
        "roles-os3-1": (
            DerivationKind.SPECIAL_ROLES,
            {
                "order": ("sheriff", "deputy", "outlaw", "renegade"),
                "sheriff": ("l_ours",),
                "deputy": ("le_bien", "le_doc", "le_juge"),
                "outlaw": ("le_joueur", "le_mauvais", "le_vilain"),
                "renegade": ("main_droite", "main_gauche"),
            },
        ),
        "draws-1": (
            DerivationKind.DRAWS,
            {
                "rage-1": (
                    "r01 shoot1", "r02 shoot1", "r03 shoot1", "r04 shoot1",
                    "r05 shoot2", "r06 shoot2", "r07 shoot2", "r08 shoot2",
                    "r09 beer", "r10 beer", "r11 gatling", "r12 gatling", "r13 arrow", "r14 arrow",
                    "r15 shoot1 beer dynamite", "r16 shoot1 beer dynamite",
                    "r17 shoot2 gatling", "r18 shoot2 gatling",
                ),
                "boneyard-1": (
                    "b01 0", "b02 0", "b03 1", "b04 1", "b05 1", "b06 1", "b07 1", "b08 1",
                    "b09 2", "b10 2", "b11 2",
                ),
            },
        ),
        "legacy-1": (DerivationKind.LEGACY, {"asks": ("sheriff", "character", "roles")}),
        "shuffles-1": (DerivationKind.SHUFFLES, {"kinds": ("deck", "pick")}),
    }


def test_the_tables_name_engine_values_and_match_the_base_game() -> None:
    # mapped by name: every entry is an engine value, and deal-1 covers the base game exactly
    assert tuple(Face(n) for n in DICE_1_FACES) == FACES
    assert set(DEAL_1_CHARACTERS) <= {c.value for c in CharacterId}
    assert all(CharacterId(n).value == n for t in DEAL_2_CHARACTERS.values() for n in t)
    for n, table in DEAL_1_ROLES.items():
        assert sorted(Role(r) for r in table) == sorted(roles_for(n))


def test_versions_resolve_by_name_and_by_kind() -> None:
    assert isinstance(deal_derivation("deal-1"), DealDerivation)
    assert isinstance(dice_derivation("dice-1"), DiceDerivation)
    assert deal_derivation("deal-1").deal(bytes(32), ["a", "b", "c"]) == deal(bytes(32), ["a", "b", "c"])
    assert dice_derivation("dice-1").dice(bytes(32)).roll(3) == (Face.SHOOT2, Face.SHOOT2, Face.ARROW)
    assert dice_derivation("dice-2").dice(bytes(32)).roll(3) == (Face.SHOOT2, Face.SHOOT2, Face.ARROW)
    assert isinstance(special_roles_derivation("roles-os3-1"), SpecialRolesDerivation)
    def refused(message: str) -> pytest.RaisesExc[UnknownDerivation]:
        return pytest.raises(UnknownDerivation, match=re.escape(message))

    with refused("unknown dice derivation 'deal-1' (known: dice-1, dice-2)"):
        dice_derivation("deal-1")
    with refused("unknown deal derivation 'deal-9' (known: deal-1, deal-2, deal-3)"):
        deal_derivation("deal-9")
    with refused("unknown special_roles derivation 'dice-2' (known: roles-os3-1)"):
        special_roles_derivation("dice-2")
    with pytest.raises(UnknownDerivation):
        check_fairness(Fairness(deal="deal-1", dice="dice-9"))
    with pytest.raises(UnknownDerivation):
        check_fairness(Fairness(deal="deal-2", dice="dice-2", special_roles="roles-os3-0"))
    check_fairness(CURRENT)
    check_fairness(Fairness(deal="deal-2", dice="dice-2", special_roles="roles-os3-1"))


def test_a_game_recorded_without_versions_used_deal_1_and_dice_1() -> None:
    assert Fairness(deal="deal-1", dice="dice-1") == FAIRNESS_V1
    assert FAIRNESS_V1.text == "deal-1 dice-1"
    assert CURRENT == FAIRNESS_V1


def test_streams_are_labelled_hmac_blocks_and_below_is_unbiased_by_rejection() -> None:
    seed = b"s" * 32
    expected = hmac.new(seed, b"deal" + (2).to_bytes(8, "big"), hashlib.sha256).digest()
    assert block(seed, 2, b"deal") == expected
    stream = ByteStream(seed, b"deal")
    assert stream.take(40) == block(seed, 0, b"deal") + block(seed, 1, b"deal")[:8]
    # k = 2**31 + 1 rejects almost half of all 4-byte values: the draws still land in range
    draws = [ByteStream(bytes([i]) * 32, b"x").below(2**31 + 1) for i in range(1, 40)]
    assert all(0 <= d <= 2**31 for d in draws)
    with pytest.raises(ValueError, match="below"):
        stream.below(0)


def test_deal_1_deals_a_fixed_seed_as_it_did_before_it_had_a_name() -> None:
    # values from services/game/dealing.py at 60d8b98, before the move into fairness/
    seated, seats = deal(bytes(range(32)), ["a", "b", "c", "d", "e"], None)
    assert seated == ["e", "b", "d", "c", "a"]
    assert [(s.player, s.role.value, s.character.value) for s in seats] == [
        ("p1", "renegade", "black_jack"),
        ("p2", "outlaw", "willy_the_kid"),
        ("p3", "deputy", "rose_doolan"),
        ("p4", "sheriff", "jesse_jones"),
        ("p5", "outlaw", "el_gringo"),
    ]
    _, fixed = deal(bytes(range(32)), ["a", "b", "c", "d", "e"], "c")
    assert [(s.role.value, s.character.value) for s in fixed] == [
        ("renegade", "el_gringo"),
        ("deputy", "jourdonnais"),
        ("outlaw", "suzy_lafayette"),
        ("sheriff", "kit_carlson"),
        ("outlaw", "black_jack"),
    ]
    with pytest.raises(ValueError, match="deal-1 deals 3 to 8 players, not 2"):
        deal(bytes(32), ["a", "b"], None)
