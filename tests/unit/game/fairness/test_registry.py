"""The derivation registry: every version's tables pinned as written (a reorder or an added
entry is a new version, never an edit), versions resolved by name, unknown ones refused."""

from __future__ import annotations

import hashlib
import hmac

import pytest

from services.game.fairness.deal import DEAL_1_CHARACTERS, DEAL_1_ROLES, deal
from services.game.fairness.dice import DICE_1_FACES, FACES
from services.game.fairness.registry import (
    CURRENT,
    DERIVATIONS,
    DealDerivation,
    DerivationKind,
    DiceDerivation,
    UnknownDerivation,
    check_fairness,
    deal_derivation,
    dice_derivation,
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
    }


def test_the_tables_name_engine_values_and_match_the_base_game() -> None:
    # mapped by name: every entry is an engine value, and deal-1 covers the base game exactly
    assert tuple(Face(n) for n in DICE_1_FACES) == FACES
    assert sorted(DEAL_1_CHARACTERS) == sorted(c.value for c in CharacterId)
    for n, table in DEAL_1_ROLES.items():
        assert sorted(Role(r) for r in table) == sorted(roles_for(n))


def test_versions_resolve_by_name_and_by_kind() -> None:
    assert isinstance(deal_derivation("deal-1"), DealDerivation)
    assert isinstance(dice_derivation("dice-1"), DiceDerivation)
    assert deal_derivation("deal-1").deal is deal
    assert dice_derivation("dice-1").dice(bytes(32)).roll(3) == (Face.SHOOT2, Face.SHOOT2, Face.ARROW)
    with pytest.raises(UnknownDerivation, match=r"unknown dice derivation 'deal-1' \(known: dice-1\)"):
        dice_derivation("deal-1")
    with pytest.raises(UnknownDerivation, match=r"unknown deal derivation 'deal-9' \(known: deal-1\)"):
        deal_derivation("deal-9")
    with pytest.raises(UnknownDerivation):
        check_fairness(Fairness(deal="deal-1", dice="dice-2"))
    check_fairness(CURRENT)


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
