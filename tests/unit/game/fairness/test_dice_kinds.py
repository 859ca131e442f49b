"""``dice-2``: die kinds read on their own face tables from ``dice-1``'s stream. Pinned vectors,
an outside re-implementation of the documented algorithm, uniformity per kind, and a game of
base dice that rolls exactly as ``dice-1``."""

from __future__ import annotations

import hashlib
import hmac
from collections import Counter

import pytest

from services.game.fairness.dice import SeededDice
from services.game.fairness.dice_kinds import DICE_2_FACES, KIND_FACES, KindedDice
from services.game.rules.dice.kinds import BASE, COWARD, LOUDMOUTH
from services.game.rules.dice.vocabulary import Face

SEED = bytes(range(32))


def documented_faces(seed: bytes, kinds: list[str]) -> list[str]:
    """docs/audit.md's dice-2, written from the text alone: HMAC-SHA256(seed, counter as 8 bytes
    big-endian) blocks, bytes < 252 give b % 6, die i reads its kind's table."""
    indices: list[int] = []
    counter = 0
    while len(indices) < len(kinds):
        data = hmac.new(seed, counter.to_bytes(8, "big"), hashlib.sha256).digest()
        indices += [b % 6 for b in data if b < 252]
        counter += 1
    tables = {
        "base": ("arrow", "dynamite", "shoot1", "shoot2", "beer", "gatling"),
        "loudmouth": ("arrow", "dynamite", "bullet", "shoot1x2", "shoot2x2", "gatlingx2"),
        "coward": ("arrow", "dynamite", "shoot1", "beer", "beerx2", "broken_arrow"),
    }
    return [tables[k][i] for k, i in zip(kinds, indices, strict=False)]


def test_a_fixed_seed_gives_these_faces_per_kind() -> None:
    def twelve(kind: str) -> list[str]:
        return [f.value for f in KindedDice(SEED).roll(12, [kind] * 12)]

    assert KindedDice(SEED).indices(12) == [3, 0, 1, 5, 4, 1, 1, 5, 1, 3, 1, 5]
    assert twelve("base") == [
        "shoot2", "arrow", "dynamite", "gatling", "beer", "dynamite",
        "dynamite", "gatling", "dynamite", "shoot2", "dynamite", "gatling",
    ]  # fmt: skip
    assert twelve("loudmouth") == [
        "shoot1x2", "arrow", "dynamite", "gatlingx2", "shoot2x2", "dynamite",
        "dynamite", "gatlingx2", "dynamite", "shoot1x2", "dynamite", "gatlingx2",
    ]  # fmt: skip
    assert twelve("coward") == [
        "beer", "arrow", "dynamite", "broken_arrow", "beerx2", "dynamite",
        "dynamite", "broken_arrow", "dynamite", "beer", "dynamite", "broken_arrow",
    ]  # fmt: skip
    # one hand of mixed kinds: the i-th index on the i-th die's table
    mixed = KindedDice(SEED).roll(5, ["base", "base", "base", "coward", "loudmouth"])
    assert [f.value for f in mixed] == ["shoot2", "arrow", "dynamite", "broken_arrow", "shoot2x2"]


@pytest.mark.parametrize("seed", [SEED, b"\xff" * 32, hashlib.sha256(b"os1").digest()])
def test_an_outside_implementation_of_the_documented_algorithm_agrees(seed: bytes) -> None:
    kinds = (["base"] * 4 + ["loudmouth"]) * 20 + (["coward"] + ["base"] * 4) * 20
    dice = KindedDice(seed)
    rolled: list[str] = []
    for start in range(0, len(kinds), 5):  # roll hand by hand: nothing is discarded between rolls
        rolled += [f.value for f in dice.roll(5, kinds[start : start + 5])]
    assert rolled == documented_faces(seed, kinds)
    assert dice.faces_dealt == len(kinds) and dice.rolls_made == len(kinds) // 5


def test_a_game_of_base_dice_rolls_exactly_as_dice_1() -> None:
    for seed in (SEED, b"x", hashlib.sha256(b"fingerprint").digest()):
        one, two = SeededDice(seed), KindedDice(seed)
        for count in (5, 3, 0, 1, 5, 2, 4, 60, 5):
            assert two.roll(count) == one.roll(count)
            assert two.roll(count, ["base"] * count) == one.roll(count, ["base"] * count)
        assert two.faces_dealt == one.faces_dealt


@pytest.mark.parametrize("kind", ["base", "loudmouth", "coward"])
def test_each_kind_shows_each_face_about_equally_often(kind: str) -> None:
    n = 60_000
    counts = Counter(KindedDice(f"chi-square {kind}".encode()).roll(n, [kind] * n))
    expected = n / 6
    chi2 = sum((counts[f] - expected) ** 2 / expected for f in set(KIND_FACES[kind]))
    # 5 degrees of freedom: P(chi2 > 25) < 0.0002, so a fair stream essentially never fails
    assert chi2 < 25, counts
    assert set(counts) == set(KIND_FACES[kind])


def test_the_pinned_tables_are_the_engines_die_kinds() -> None:
    # the derivation has its own copy; the engine's kinds hold the same faces (order aside)
    for kind in (BASE, LOUDMOUTH, COWARD):
        assert sorted(KIND_FACES[kind.name]) == sorted(kind.faces)
    assert DICE_2_FACES["duel"] == ("arrow", "dynamite", "gatling", "whiskey", "duel", "duel")


def test_kinds_the_derivation_cannot_roll_are_refused_before_a_byte_is_used() -> None:
    dice = KindedDice(SEED)
    if "duel" in KIND_FACES:  # Undead or Alive has brought whiskey and duel to the engine
        assert KindedDice(SEED).roll(2, ["duel", "duel"]) == (Face("whiskey"), Face("arrow"))
    else:
        with pytest.raises(ValueError, match="dice-2 cannot roll a duel die yet: the engine has no face"):
            dice.roll(1, ["duel"])
    with pytest.raises(ValueError, match=r"dice-2 has no 'ghost' die \(kinds: base, loudmouth, coward, duel"):
        dice.roll(1, ["ghost"])
    with pytest.raises(ValueError, match="dice-2: 2 dice to roll, but 1 die kinds given"):
        dice.roll(2, ["base"])
    assert dice.faces_dealt == 0
    assert dice.roll(1) == (Face.SHOOT2,)


def test_dice_1_refuses_any_kind_but_base() -> None:
    dice = SeededDice(SEED)
    with pytest.raises(ValueError, match="dice-1 rolls base dice only, not a 'loudmouth' die"):
        dice.roll(5, ["base", "base", "base", "base", "loudmouth"])
    assert dice.faces_dealt == 0
    assert dice.roll(2, ["base", "base"]) == (Face.SHOOT2, Face.ARROW)
