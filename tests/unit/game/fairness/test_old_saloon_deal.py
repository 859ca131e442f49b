"""``deal-2`` (the ruleset's character pool) and ``roles-os3-1`` (OS3's special roles): pinned
vectors, an outside re-implementation of the documented special-role deal, each type dealt
without replacement, ``deal-2`` equal to ``deal-1`` without OS4, and ``deal_seats`` as the
service and the audit call it."""

from __future__ import annotations

import hashlib
import hmac
from collections import Counter
from itertools import permutations

import msgspec
import pytest

from services.game.fairness.deal import DEAL_1_CHARACTERS, DEAL_1_ROLES
from services.game.fairness.deal import deal as deal_1
from services.game.fairness.deal_pool import DEAL_2_CHARACTERS, DEAL_2_ROLES, character_pool, deal_names
from services.game.fairness.deal_pool import deal as deal_2
from services.game.fairness.registry import deal_seats, fairness_for
from services.game.fairness.special_roles import ROLES_OS3_1_CARDS, deal_special_roles, special_names
from services.game.fairness.versions import FAIRNESS_V1, Fairness
from services.game.rules.dice import CharacterId, Role
from services.game.rules.dice.vocabulary import BASE_ROLE_OF, SpecialRole
from services.game.rules.ruleset import BASE_DICE, CHARACTER_NEEDS, ModuleId, ruleset_of

SEED = bytes(range(32))
EIGHT = ["a", "b", "c", "d", "e", "f", "g", "h"]


def documented_special_roles(seed: bytes, roles: list[str]) -> list[str]:
    """docs/audit.md's roles-os3-1, written from the text alone."""
    buffer, counter = b"", 0

    def below(k: int) -> int:
        nonlocal buffer, counter
        while True:
            while len(buffer) < 4:
                message = b"special-roles" + counter.to_bytes(8, "big")
                buffer += hmac.new(seed, message, hashlib.sha256).digest()
                counter += 1
            x, buffer = int.from_bytes(buffer[:4], "big"), buffer[4:]
            if x < (2**32 // k) * k:
                return x % k

    cards = {
        "sheriff": ["l_ours"],
        "deputy": ["le_bien", "le_doc", "le_juge"],
        "outlaw": ["le_joueur", "le_mauvais", "le_vilain"],
        "renegade": ["main_droite", "main_gauche"],
    }
    out = [""] * len(roles)
    for role in ("sheriff", "deputy", "outlaw", "renegade"):
        table = list(cards[role])
        for i in range(len(table) - 1, 0, -1):
            j = below(i + 1)
            table[i], table[j] = table[j], table[i]
        for seat, card in zip([i for i, r in enumerate(roles) if r == role], table, strict=False):
            out[seat] = card
    return out


# --- roles-os3-1 --------------------------------------------------------------------------------


def test_a_fixed_seed_deals_these_special_roles() -> None:
    eight = ["sheriff", "renegade", "outlaw", "outlaw", "outlaw", "deputy", "deputy", "renegade"]
    assert special_names(SEED, eight) == [
        "l_ours", "main_droite", "le_vilain", "le_mauvais", "le_joueur", "le_juge", "le_bien", "main_gauche",
    ]  # fmt: skip
    five = ["renegade", "outlaw", "deputy", "sheriff", "outlaw"]
    assert special_names(SEED, five) == ["main_droite", "le_vilain", "le_juge", "l_ours", "le_mauvais"]


@pytest.mark.parametrize("players", [4, 5, 6, 7, 8])
def test_an_outside_implementation_of_the_documented_special_role_deal_agrees(players: int) -> None:
    for n in range(30):
        seed = hashlib.sha256(f"os3 {players} {n}".encode()).digest()
        _, roles, _ = deal_names(seed, EIGHT[:players], None, ruleset_of(["OS3"]))
        assert special_names(seed, roles) == documented_special_roles(seed, roles)


@pytest.mark.parametrize("players", [4, 5, 6, 7, 8])
def test_each_seat_gets_a_card_of_its_own_type_drawn_without_replacement(players: int) -> None:
    for n in range(200):
        seed = hashlib.sha256(f"types {players} {n}".encode()).digest()
        os3 = ruleset_of(["OS3"])
        _, seats = deal_seats(fairness_for(os3), seed, EIGHT[:players], None, os3)
        for seat in seats:
            assert seat.special is not None and BASE_ROLE_OF[seat.special] is seat.role
        specials = [s.special for s in seats]
        assert len(set(specials)) == len(specials)  # no card twice


def test_every_assignment_of_a_types_cards_is_about_equally_likely() -> None:
    # two deputies over three cards: 6 ordered draws; two renegades over two cards: 2
    roles = ["sheriff", "renegade", "outlaw", "outlaw", "outlaw", "deputy", "deputy", "renegade"]
    n = 12_000
    deputies: Counter[tuple[str, str]] = Counter()
    renegades: Counter[tuple[str, str]] = Counter()
    for i in range(n):
        dealt = special_names(i.to_bytes(4, "big") * 8, roles)
        deputies[(dealt[5], dealt[6])] += 1
        renegades[(dealt[1], dealt[7])] += 1
    assert set(deputies) == set(permutations(ROLES_OS3_1_CARDS["deputy"], 2))
    assert set(renegades) == set(permutations(ROLES_OS3_1_CARDS["renegade"], 2))
    for counts, cells in ((deputies, 6), (renegades, 2)):
        expected = n / cells
        chi2 = sum((c - expected) ** 2 / expected for c in counts.values())
        assert chi2 < 25, counts  # at most 5 degrees of freedom: P(chi2 > 25) < 0.0002


def test_the_special_role_tables_are_the_engines_cards_by_base_role() -> None:
    assert {r: sorted(cards) for r, cards in ROLES_OS3_1_CARDS.items()} == {
        role.value: sorted(s.value for s, base in BASE_ROLE_OF.items() if base is role) for role in Role
    }
    with pytest.raises(ValueError, match="roles-os3-1 has 2 renegade cards for 3 renegade seats"):
        special_names(SEED, ["sheriff", "renegade", "renegade", "renegade"])
    with pytest.raises(ValueError, match="roles-os3-1 has no cards for the role ghost"):
        special_names(SEED, ["sheriff", "ghost"])


# --- deal-2 -------------------------------------------------------------------------------------


def test_deal_2_without_os4_deals_exactly_as_deal_1() -> None:
    assert DEAL_2_CHARACTERS[("characters", "dice-base-1")] == DEAL_1_CHARACTERS
    assert dict(DEAL_2_ROLES) == DEAL_1_ROLES
    for players in range(3, 9):
        for n in range(40):
            seed = hashlib.sha256(f"same {players} {n}".encode()).digest()
            members = EIGHT[:players]
            sheriff = members[n % players] if n % 2 and players > 3 else None
            for modules in ([], ["OS1"], ["OS1", "OS2", "OS3", "OS5"] if players >= 5 else ["OS2"]):
                assert deal_2(seed, members, sheriff, ruleset_of(modules)) == deal_1(seed, members, sheriff)


def test_the_pool_is_the_base_table_then_os4s_written_order_without_what_a_module_lacks() -> None:
    os4 = ["bill_noface", "elena_fuente", "vera_custer", "doc_holyday", "molly_stark"]
    assert character_pool(BASE_DICE) == list(DEAL_1_CHARACTERS)
    assert character_pool(ruleset_of(["OS4"])) == [*DEAL_1_CHARACTERS, *os4]
    assert character_pool(ruleset_of(["OS1", "OS4"])) == [
        *DEAL_1_CHARACTERS, "jose_delgado", "tequila_joe", *os4,
    ]  # fmt: skip
    assert character_pool(ruleset_of(["OS1", "OS2", "OS4"])) == [
        *DEAL_1_CHARACTERS, "jose_delgado", "tequila_joe", "apache_kid", *os4,
    ]  # fmt: skip
    # the pinned pool rules are the ruleset's (RULINGS-expansions §OS4)
    for name, (brought_by, needs) in CHARACTER_NEEDS.items():
        if brought_by is ModuleId.OS4:
            assert name in DEAL_2_CHARACTERS[("characters-os4", "os4-1")]
            assert name not in character_pool(ruleset_of(["OS4"]))
            assert name in character_pool(ruleset_of(["OS4", needs]))


def test_a_fixed_seed_deals_these_seats_roles_and_characters_with_os4() -> None:
    seated, roles, characters = deal_names(SEED, EIGHT, None, ruleset_of(["OS1", "OS2", "OS4"]))
    assert seated == ["e", "d", "c", "b", "g", "h", "a", "f"]
    assert roles == ["outlaw", "outlaw", "deputy", "outlaw", "deputy", "renegade", "sheriff", "renegade"]
    assert characters == [
        "slab_the_killer", "apache_kid", "bill_noface", "doc_holyday",
        "jesse_jones", "vulture_sam", "kit_carlson", "suzy_lafayette",
    ]  # fmt: skip
    _, _, without_os2 = deal_names(SEED, EIGHT, None, ruleset_of(["OS4"]))
    assert without_os2 == [
        "lucky_duke", "willy_the_kid", "jourdonnais", "jesse_jones",
        "pedro_ramirez", "slab_the_killer", "black_jack", "rose_doolan",
    ]  # fmt: skip


def test_os4_characters_are_dealt_about_as_often_as_base_ones() -> None:
    ruleset = ruleset_of(["OS1", "OS2", "OS4"])
    counts: Counter[str] = Counter()
    n = 3_000
    for i in range(n):
        counts.update(deal_names(i.to_bytes(4, "big") * 8, EIGHT[:5], None, ruleset)[2])
    pool = character_pool(ruleset)
    expected = n * 5 / len(pool)
    chi2 = sum((counts[c] - expected) ** 2 / expected for c in pool)
    assert set(counts) == set(pool)
    assert chi2 < 60, counts  # 23 degrees of freedom: P(chi2 > 60) < 0.0001


def test_deal_1_refuses_a_pool_it_does_not_hold_and_deal_2_a_table_it_does_not_know() -> None:
    with pytest.raises(ValueError, match="deal-1 deals the 16 base characters only, not the pool of dice OS"):
        deal_seats(FAIRNESS_V1, SEED, EIGHT[:5], None, ruleset_of(["OS4"]))
    ua3 = ruleset_of(["UA3"])
    with pytest.raises(ValueError, match="deal-2 has no character table 'characters-ua3'"):
        deal_names(SEED, EIGHT[:5], None, ua3)
    tables = {"characters": "dice-base-1", "characters-os4": "os4-0"}
    old = msgspec.structs.replace(ruleset_of(["OS4"]), data=tables)
    with pytest.raises(ValueError, match="deal-2 has no version 'os4-0' of the character table"):
        deal_names(SEED, EIGHT[:5], None, old)


# --- what a game records, and the whole deal ---------------------------------------------------


def test_a_base_game_records_deal_1_and_dice_1_and_stores_them_as_before() -> None:
    assert fairness_for(BASE_DICE) == FAIRNESS_V1
    assert msgspec.json.encode(fairness_for(BASE_DICE)) == b'{"deal":"deal-1","dice":"dice-1"}'
    assert fairness_for(ruleset_of(["OS1", "OS4"])) == Fairness(deal="deal-2", dice="dice-2")
    os3 = fairness_for(ruleset_of(["OS3"]))
    assert os3 == Fairness(deal="deal-2", dice="dice-2", special_roles="roles-os3-1")
    assert os3.text == "deal-2 dice-2 roles-os3-1"
    assert msgspec.json.decode(msgspec.json.encode(os3), type=Fairness) == os3
    stored = msgspec.json.decode(b'{"deal":"deal-1","dice":"dice-1"}', type=Fairness)
    assert stored == FAIRNESS_V1 and stored.special_roles_version is None


def test_deal_seats_sets_special_roles_only_with_os3() -> None:
    os3 = ruleset_of(["OS3"])
    seated, seats = deal_seats(fairness_for(os3), SEED, EIGHT[:5], None, os3)
    plain_seated, plain = deal_2(SEED, EIGHT[:5], None, os3)
    assert seated == plain_seated
    assert seats == deal_special_roles(SEED, plain)
    assert [(s.role.value, s.special) for s in seats] == [
        ("renegade", SpecialRole.MAIN_DROITE),
        ("outlaw", SpecialRole.LE_VILAIN),
        ("deputy", SpecialRole.LE_JUGE),
        ("sheriff", SpecialRole.L_OURS),
        ("outlaw", SpecialRole.LE_MAUVAIS),
    ]
    base = ruleset_of(["OS1"])
    assert all(s.special is None for s in deal_seats(fairness_for(base), SEED, EIGHT[:5], None, base)[1])
    with pytest.raises(ValueError, match=r"dice OS3 has special roles \(OS3\), but the game records no"):
        deal_seats(Fairness(deal="deal-2", dice="dice-2"), SEED, EIGHT[:5], None, os3)
    with pytest.raises(ValueError, match="records the special-role deal roles-os3-1, but dice OS1 has no"):
        deal_seats(fairness_for(os3), SEED, EIGHT[:5], None, base)


def test_deal_2_seats_the_engines_old_saloon_characters_by_name() -> None:
    ruleset = ruleset_of(["OS1", "OS2", "OS4"])
    _, seats = deal_2(SEED, EIGHT, None, ruleset)
    _, _, names = deal_names(SEED, EIGHT, None, ruleset)
    assert [s.character.value for s in seats] == names
    assert seats[1].character is CharacterId.APACHE_KID and seats[1].player == "p2"
