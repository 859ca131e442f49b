"""The dashboard's JavaScript derivations (services/dashboard/static/js/fairness.js) against the
server's (services/game/fairness), seed for seed: the same commitment, faces, seat order, roles,
characters and special roles for every derivation version, so "verify a game yourself" in the
browser re-derives exactly what the audit does. The JavaScript runs under node (Debian's nodejs,
on every machine of the project's kind), once per test with all its cases."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

import msgspec
import pytest

from services.game.fairness.dice import commitment
from services.game.fairness.registry import deal_seats, dice_derivation, fairness_for
from services.game.fairness.versions import DEAL_1, DEAL_2, DICE_1, DICE_2, ROLES_OS3_1, Fairness
from services.game.rules.ruleset import BASE_DICE, Ruleset, ruleset_of

HARNESS = Path(__file__).with_name("derive.mjs")
SEEDS = 120
RULESETS = [
    BASE_DICE,
    *(ruleset_of(m) for m in (["OS1"], ["OS2"], ["OS3"], ["OS4"], ["OS1", "OS4"], ["OS2", "OS4"])),
    *(ruleset_of(m) for m in (["OS3", "OS4"], ["OS1", "OS2", "OS3", "OS4"])),
    ruleset_of(["OS1", "OS2", "OS3", "OS4", "OS5"]),
    # deal-3: the UA3 characters, with and without the modules their pool rules need
    *(ruleset_of(m) for m in (["UA3"], ["UA2", "UA3"], ["UA1", "UA2", "UA3"], ["OS1", "OS4", "UA2", "UA3"])),
]


def run_js(cases: list[dict[str, Any]]) -> list[Any]:
    node = shutil.which("node") or shutil.which("nodejs")
    assert node, "node is missing: `make setup` installs nodejs (apt-get install nodejs)"
    done = subprocess.run(
        [node, str(HARNESS)],
        input=json.dumps(cases),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    answers: list[Any] = json.loads(done.stdout)
    assert len(answers) == len(cases)
    return answers


def seeds(count: int, rng: random.Random) -> list[bytes]:
    # short and long seeds too: HMAC keys of any length must agree
    fixed = [bytes(range(32)), b"\x00", bytes(64), bytes([255]) * 100]
    return fixed + [rng.randbytes(rng.choice((1, 16, 32, 32, 32, 65))) for _ in range(count)]


def test_the_commitment_is_sha256_of_the_seed_in_both() -> None:
    all_seeds = seeds(SEEDS, random.Random(1))
    answers = run_js([{"kind": "commitment", "seed": s.hex()} for s in all_seeds])
    assert answers == [commitment(s) for s in all_seeds]


def _python_rolls(version: str, seed: bytes, rolls: list[list[str]]) -> list[list[str]]:
    dice = dice_derivation(version).dice(seed)
    return [[f.value for f in dice.roll(len(kinds), kinds)] for kinds in rolls]


@pytest.mark.parametrize("version", [DICE_1, DICE_2])
def test_every_face_of_every_roll_is_the_same_in_both(version: str) -> None:
    rng = random.Random(version)
    kinds = ["base"] if version == DICE_1 else ["base", "loudmouth", "coward"]
    cases, wanted = [], []
    for seed in seeds(SEEDS, rng):
        # a game's worth of rolls: enough faces to read many blocks and skip bytes 252..255
        rolls = [[rng.choice(kinds) for _ in range(rng.randint(1, 6))] for _ in range(rng.randint(1, 60))]
        cases.append({"kind": "dice", "version": version, "seed": seed.hex(), "rolls": rolls})
        wanted.append(_python_rolls(version, seed, rolls))
    answers = run_js(cases)
    assert answers == wanted
    assert sum(len(r) for game in wanted for r in game) > 10_000  # the test compared real games


def test_the_base_game_dice_2_faces_are_dice_1_faces_and_a_kind_dice_1_lacks_is_refused() -> None:
    seed = bytes(range(32))
    rolls = [["base"] * 5, ["base"] * 3, ["base"] * 2]
    base_1, base_2, refused = run_js(
        [
            {"kind": "dice", "version": DICE_1, "seed": seed.hex(), "rolls": rolls},
            {"kind": "dice", "version": DICE_2, "seed": seed.hex(), "rolls": rolls},
            {"kind": "dice", "version": DICE_1, "seed": seed.hex(), "rolls": [["base", "loudmouth"]]},
        ]
    )
    assert base_1 == base_2 == _python_rolls(DICE_1, seed, rolls)
    assert refused == {"error": "dice-1 rolls base dice only, not a loudmouth die"}
    [unknown] = run_js([{"kind": "dice", "version": "dice-9", "seed": seed.hex(), "rolls": [["base"]]}])
    assert unknown == {"error": "unknown dice derivation 'dice-9' (known: dice-1, dice-2)"}


def _deal_case(
    fairness: Fairness, seed: bytes, members: list[str], sheriff: str | None, ruleset: Ruleset
) -> dict[str, Any]:
    return {
        "kind": "deal",
        "fairness": msgspec.to_builtins(fairness),
        "seed": seed.hex(),
        "members": members,
        "sheriff": sheriff,
        "ruleset": msgspec.to_builtins(ruleset),
    }


def _python_deal(
    fairness: Fairness, seed: bytes, members: list[str], sheriff: str | None, ruleset: Ruleset
) -> dict[str, Any]:
    try:
        seated, seats = deal_seats(fairness, seed, members, sheriff, ruleset)
    except ValueError:
        return {"error": True}
    os3 = fairness.special_roles_version is not None
    return {
        "seated": seated,
        "roles": [s.role.value for s in seats],
        "characters": [s.character.value for s in seats],
        "specials": [s.special.value if s.special else None for s in seats] if os3 else None,
    }


def test_every_deal_is_the_same_in_both_for_every_version_ruleset_and_table_size() -> None:
    rng = random.Random("deal")
    cases, wanted = [], []
    for seed in seeds(SEEDS, rng):
        ruleset = rng.choice(RULESETS)
        n = rng.randint(3, 8)
        members = [f"m{rng.randrange(10_000)}-{i}" for i in range(n)]
        sheriff = rng.choice([None, None, rng.choice(members)])
        # what a new game records, and the other deal version as well (deal-2 on the base game
        # deals as deal-1; deal-1 refuses the pool of OS4)
        recorded = fairness_for(ruleset)
        other = DEAL_1 if recorded.deal == DEAL_2 else DEAL_2
        for fairness in (recorded, msgspec.structs.replace(recorded, deal=other)):
            cases.append(_deal_case(fairness, seed, members, sheriff, ruleset))
            wanted.append(_python_deal(fairness, seed, members, sheriff, ruleset))
    answers = run_js(cases)
    for case, answer, python in zip(cases, answers, wanted, strict=True):
        if "error" in python:
            assert "error" in answer, (case, answer)
        else:
            assert answer == python, case
    dealt = [w for w in wanted if "error" not in w]
    assert len(dealt) > SEEDS  # most cases deal; the refusals are deal-1 on an OS4 pool
    assert any(w["specials"] for w in dealt) and any(
        c in {"jose_delgado", "apache_kid", "molly_stark"} for w in dealt for c in w["characters"]
    )
    assert any(c in {"pat_brennan", "herb_hunter", "belle_star"} for w in dealt for c in w["characters"])


def test_special_roles_follow_the_game_s_versions_and_refuse_a_mismatch() -> None:
    seed, members = bytes(range(32)), ["a", "b", "c", "d", "e"]
    os3 = ruleset_of(["OS3"])
    with_cards = Fairness(deal=DEAL_2, dice=DICE_2, special_roles=ROLES_OS3_1)
    good, missing, extra, unknown = run_js(
        [
            _deal_case(with_cards, seed, members, None, os3),
            _deal_case(Fairness(deal=DEAL_2, dice=DICE_2), seed, members, None, os3),
            _deal_case(with_cards, seed, members, None, BASE_DICE),
            _deal_case(
                msgspec.structs.replace(with_cards, special_roles="roles-os3-9"), seed, members, None, os3
            ),
        ]
    )
    assert good == _python_deal(with_cards, seed, members, None, os3)
    assert missing == {"error": "dice OS3 has special roles (OS3), but the game records no special-role deal"}
    assert extra == {"error": "the game records the special-role deal roles-os3-1, but dice has no OS3"}
    assert unknown == {"error": "unknown special_roles derivation 'roles-os3-9' (known: roles-os3-1)"}
