"""SeededDice (``dice-1``): re-derivable from the published algorithm, unbiased, committed by
sha256."""

from __future__ import annotations

import hashlib
import hmac
from collections import Counter

from services.game.fairness.dice import FACES, SeededDice, commitment, faces_of, new_seed
from services.game.rules.dice import Face
from services.game.rules.dice.kinds import BASE


def _reference_faces(seed: bytes, count: int) -> list[Face]:
    """The module docstring's algorithm, written out independently as an auditor would."""
    faces: list[Face] = []
    counter = 0
    while len(faces) < count:
        block = hmac.new(seed, counter.to_bytes(8, "big"), hashlib.sha256).digest()
        counter += 1
        for byte in block:
            if byte < 252 and len(faces) < count:
                faces.append(Face(("arrow", "dynamite", "shoot1", "shoot2", "beer", "gatling")[byte % 6]))
    return faces


def test_the_dice_1_faces_are_its_written_table_mapped_by_name() -> None:
    assert FACES == (Face.ARROW, Face.DYNAMITE, Face.SHOOT1, Face.SHOOT2, Face.BEER, Face.GATLING)


def test_same_seed_same_faces_whatever_the_roll_sizes() -> None:
    seed = b"table-7"
    a = SeededDice(seed)
    b = SeededDice(seed)
    rolled_a = [f for n in (5, 3, 5, 1, 2, 5) * 20 for f in a.roll(n)]
    rolled_b = [f for n in (1, 5, 5, 4) * 30 for f in b.roll(n)]
    assert rolled_a == rolled_b[: len(rolled_a)]
    assert rolled_a == _reference_faces(seed, len(rolled_a))


def test_position_counts_rolls_and_faces() -> None:
    dice = SeededDice(b"x")
    dice.roll(5)
    dice.roll(2)
    assert (dice.rolls_made, dice.faces_dealt, dice.position) == (2, 7, 7)
    assert faces_of(b"x", 7) == SeededDice(b"x").roll(7)


def test_different_seeds_differ() -> None:
    assert SeededDice(b"a").roll(30) != SeededDice(b"b").roll(30)


def test_distribution_is_roughly_uniform() -> None:
    n = 60_000
    counts = Counter(SeededDice(b"chi-square").roll(n))
    expected = n / 6
    chi2 = sum((counts[f] - expected) ** 2 / expected for f in BASE.faces)
    # 5 degrees of freedom: P(chi2 > 25) < 0.0002, so a fair stream essentially never fails
    assert chi2 < 25, counts


def test_commitment_is_sha256_of_the_seed() -> None:
    seed = new_seed()
    assert len(seed) == 32
    assert commitment(seed) == hashlib.sha256(seed).hexdigest()
    assert SeededDice(seed).commitment == commitment(seed)
    assert new_seed() != seed
