"""``legacy-1``: the draws between two games of a UA5 series, from the series' seed
(services/game/fairness/legacy.py)."""

from __future__ import annotations

import hashlib
import hmac
from collections import Counter

import pytest

from services.game.fairness.legacy import draw, draw_label, draw_while_asked
from services.game.fairness.registry import DerivationKind, UnknownDerivation, legacy_derivation
from services.game.rules.dice import PlayerId, Role
from services.game.rules.dice.modules import rules_for
from services.game.rules.dice.undead.legacy import (
    Ask,
    CharacterDrawn,
    ChooseCharacter,
    KeepCharacter,
    LegacyPlan,
    Question,
    RolesDrawn,
    SheriffDrawn,
)
from services.game.rules.dice.vocabulary import Cause, CharacterId
from services.game.rules.ruleset import ModuleId
from tests.unit.game.undead.test_legacy import finished, result

SEED = bytes(range(32))
UA5_RULES = rules_for([ModuleId.UA5])
SHERIFF_Q = Question(Ask.SHERIFF_DRAW, PlayerId("p1"), ("p2", "p3", "p4", "p5"))


def by_hand(seed: bytes, label: bytes, k: int) -> int:
    """``below(k)`` on the first 4 bytes of block 0, written out from the docstring."""
    x = int.from_bytes(hmac.new(seed, label + (0).to_bytes(8, "big"), hashlib.sha256).digest()[:4], "big")
    assert x < (2**32 // k) * k  # no rejection for these seeds
    return x % k


def test_the_label_names_the_version_the_game_the_draw_and_the_player() -> None:
    assert draw_label(2, "sheriff", "p1") == b"legacy-1:\x00\x00\x00\x00\x00\x00\x00\x02:sheriff:p1"
    with pytest.raises(ValueError, match="game 1 follows no game"):
        draw_label(1, "sheriff", "p1")


def test_a_draw_is_the_documented_hmac_stream_and_nothing_else() -> None:
    for seed in (SEED, bytes(32), b"\xff" * 32):
        drawn = draw(seed, 2, SHERIFF_Q)
        assert isinstance(drawn, SheriffDrawn)
        i = by_hand(seed, draw_label(2, "sheriff", "p1"), 4)
        assert drawn.player == SHERIFF_Q.among[i]
        # the same inputs give the same draw; another game number reads another stream
        assert draw(seed, 2, SHERIFF_Q) == drawn
    assert len({draw(SEED, n, SHERIFF_Q).player for n in range(2, 40)}) == 4


def test_draws_spread_over_every_option() -> None:
    q = Question(Ask.CHARACTER_DRAW, PlayerId("p3"), ("bart_cassidy", "black_jack", "el_gringo"))
    counts = Counter(draw(bytes([s]) * 32, 2, q).character for s in range(240))  # type: ignore[union-attr]
    assert set(counts) == set(q.among) and min(counts.values()) > 50


def test_the_roles_draw_is_a_shuffle_of_the_table_less_the_sheriff() -> None:
    q = Question(Ask.ROLES_DRAW, PlayerId("p3"), ("renegade", "outlaw", "outlaw", "deputy"))
    seen = set()
    for s in range(60):
        drawn = draw(bytes([s]) * 32, 3, q)
        assert isinstance(drawn, RolesDrawn) and drawn.player == "p3"
        assert Counter(drawn.roles) == Counter([Role.RENEGADE, Role.OUTLAW, Role.OUTLAW, Role.DEPUTY])
        seen.add(drawn.roles)
    assert len(seen) == 12  # every arrangement of the multiset turns up


def test_a_decision_never_comes_from_the_seed() -> None:
    with pytest.raises(ValueError, match="is a player's decision, not a draw"):
        draw(SEED, 2, Question(Ask.KEEP_CHARACTER, PlayerId("p2"), ("no", "yes")))


def test_draw_while_asked_enters_draws_up_to_the_next_decision_and_rederives_the_same() -> None:
    game = finished(
        result(1, Role.SHERIFF, alive=False, by=None, turn=7, cause=Cause.DYNAMITE),
        result(2, Role.RENEGADE, alive=True),
        result(3, Role.OUTLAW, alive=True),
        result(4, Role.OUTLAW, alive=False, by="p5", turn=2),
        result(5, Role.DEPUTY, alive=False, by="p3", turn=4),
    )
    plan = draw_while_asked(SEED, 2, LegacyPlan(game, UA5_RULES))
    assert isinstance(plan.entries[0], SheriffDrawn) and len(plan.entries) == 1
    q = plan.asked
    assert q is not None and q.ask is Ask.KEEP_CHARACTER
    survivors = plan.survivors()
    plan = plan.enter(KeepCharacter(player=survivors[0], keep=False))
    plan = plan.enter(KeepCharacter(player=survivors[1], keep=True))
    for dead, name in zip(plan.eliminated(), ("bart_cassidy", "black_jack", "el_gringo"), strict=True):
        plan = plan.enter(ChooseCharacter(player=dead, character=CharacterId(name)))
    plan = draw_while_asked(SEED, 2, plan)
    assert plan.asked is None and plan.setup is not None
    kinds = [type(e) for e in plan.entries]
    assert kinds[-2:] == [CharacterDrawn, RolesDrawn]
    # an audit entering the decisions again with the same seed reaches the same setup
    again = LegacyPlan(game, UA5_RULES)
    for e in plan.entries:
        q = again.asked
        assert q is not None
        again = again.enter(draw(SEED, 2, q) if q.is_draw else e)
    assert again.setup == plan.setup


def test_the_registry_knows_legacy_1_by_name_and_kind() -> None:
    derivation = legacy_derivation("legacy-1")
    assert derivation.kind is DerivationKind.LEGACY
    assert derivation.draw(SEED, 2, SHERIFF_Q) == draw(SEED, 2, SHERIFF_Q)
    with pytest.raises(UnknownDerivation, match="unknown legacy derivation 'draws-1' \\(known: legacy-1\\)"):
        legacy_derivation("draws-1")
