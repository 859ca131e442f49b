"""``draws-1``: a card drawn at random among the cards left, each draw on its own stream of the
seed (the derivation's docstring is the algorithm; these pin it and check it from scratch)."""

from __future__ import annotations

import hashlib
import hmac
from collections import Counter

import pytest

from services.game.fairness.draws import draw, draw_label
from services.game.fairness.registry import DrawDerivation, UnknownDerivation, check_fairness, draw_derivation
from services.game.fairness.versions import Fairness

SEED = bytes(range(32))
RAGE_1 = tuple(f"r{i:02d}" for i in range(1, 19))


def test_draws_are_pinned() -> None:
    assert [draw(SEED, "rage-1", n, RAGE_1) for n in range(6)] == ["r12", "r06", "r04", "r15", "r04", "r17"]
    assert draw(SEED, "rage-1", 0, RAGE_1[:3]) == "r03"
    assert draw_label("rage-1", 1) == b"draws-1:rage-1:" + (1).to_bytes(8, "big")


def test_a_draw_is_recomputed_from_the_published_algorithm() -> None:
    # HMAC-SHA256(seed, label + counter 0): the first 4 bytes, big-endian, modulo the cards left
    # (no rejection happens for this seed: x is below (2**32 // 18) * 18)
    block = hmac.new(SEED, draw_label("rage-1", 0) + (0).to_bytes(8, "big"), hashlib.sha256).digest()
    x = int.from_bytes(block[:4], "big")
    assert x < (2**32 // 18) * 18
    assert draw(SEED, "rage-1", 0, RAGE_1) == RAGE_1[x % 18]


def test_each_draw_depends_on_its_own_number_not_on_the_draws_before() -> None:
    # the fifth draw among the same cards is the same whatever the earlier draws were among
    assert draw(SEED, "rage-1", 4, RAGE_1) == draw(SEED, "rage-1", 4, RAGE_1)
    other_deck = [draw(SEED, "club-deck-1", n, RAGE_1) for n in range(6)]
    assert other_deck != [draw(SEED, "rage-1", n, RAGE_1) for n in range(6)]


def test_every_card_left_is_about_equally_likely() -> None:
    counts = Counter(draw(SEED, "rage-1", n, RAGE_1) for n in range(18 * 400))
    assert set(counts) == set(RAGE_1)
    assert all(300 <= c <= 500 for c in counts.values()), counts


def test_the_registry_resolves_draws_1_and_refuses_what_it_does_not_have() -> None:
    assert isinstance(draw_derivation("draws-1"), DrawDerivation)
    check_fairness(Fairness(deal="deal-2", dice="dice-2", draws="draws-1"))
    with pytest.raises(UnknownDerivation, match=r"unknown draws derivation 'draws-2' \(known: draws-1\)"):
        check_fairness(Fairness(deal="deal-2", dice="dice-2", draws="draws-2"))
    with pytest.raises(ValueError, match="no card to draw"):
        draw(SEED, "rage-1", 0, ())
