"""Each decision is declared once (``decisions.DecisionSpec``): the spec is complete, and what
it declares holds in play — its generator yields only legal answers, its timeout default is
legal, a bot with no rule of its own finds a legal answer; dice are checked against their kind."""

from __future__ import annotations

import pytest

from services.game.rules.dice import (
    DECISIONS,
    Decision,
    Face,
    Game,
    IllegalCommand,
    RollDice,
    Seat,
    TurnPoint,
    timeout_command,
)
from services.game.rules.dice.decisions import first_legal
from services.game.rules.dice.kinds import BASE, die_kind
from services.game.rules.dice.state import FinalDice
from services.game.rules.dice.vocabulary import DYNAMITE, GATLING, PlayerId, Role
from tests.unit.rules.play import random_game


def test_every_decision_has_exactly_one_spec() -> None:
    assert set(DECISIONS) == set(Decision)
    for decision, spec in DECISIONS.items():
        assert spec.decision is decision
        assert isinstance(spec.point, TurnPoint)
        assert spec.accepts
        assert spec.what


@pytest.mark.parametrize("players", [3, 5, 8])
def test_generated_answers_and_defaults_are_legal(players: int) -> None:
    seen: set[Decision] = set()
    for seed in range(6):
        for game, _command in random_game(players, 100 * players + seed):
            q = game.awaiting
            assert q is not None
            seen.add(q.decision)
            legal = game.legal_commands()
            spec = DECISIONS[q.decision]
            if q.decision is Decision.ROLL:
                assert timeout_command(game.state, q) is None
                continue
            for command in list(legal)[:40]:
                assert command in legal, command
                assert isinstance(command, spec.accepts)
            default = timeout_command(game.state, q)
            if q.decision is not Decision.SHOT_TARGET:  # a shot's default may find no one in reach
                assert default is not None
            if default is not None:
                assert default in legal, (q, default)
            assert first_legal(game.state, q) in legal
    assert {Decision.ROLL, Decision.REROLL_OR_STOP, Decision.SHOT_TARGET, Decision.BEER_TARGET} <= seen


def test_optional_decisions_are_the_declinable_ones() -> None:
    optional = {d for d, spec in DECISIONS.items() if spec.optional}
    assert optional == {
        Decision.DOUBLE_SHOT,
        Decision.ARROWS_INSTEAD,
        Decision.DISCARD_ARROWS,
        Decision.REMOVE_ARROWS,
    }


def _four_players() -> Game:
    roles = (Role.SHERIFF, Role.RENEGADE, Role.OUTLAW, Role.OUTLAW)
    characters = ("bart_cassidy", "black_jack", "el_gringo", "paul_regret")
    return Game.start(
        [
            Seat(player=PlayerId(f"p{i + 1}"), role=r, character=c)  # type: ignore[arg-type]
            for i, (r, c) in enumerate(zip(roles, characters, strict=True))
        ]
    )


def test_a_roll_is_checked_against_each_die_kind() -> None:
    game = _four_players()
    q = game.awaiting
    assert q is not None and q.decision is Decision.ROLL
    no_gatling = die_kind("test", tuple(f for f in BASE.faces if f is not GATLING))
    assert game.state.turn is not None
    game.state.turn.kinds = (BASE, BASE, no_gatling, BASE, BASE)
    legal = game.legal_commands()
    faces = (Face.BEER, Face.BEER, GATLING, Face.BEER, Face.BEER)
    with pytest.raises(IllegalCommand, match="die 3 is a test die and has no gatling face"):
        game.play(RollDice(player=q.player, faces=faces))
    assert RollDice(player=q.player, faces=faces) not in legal
    ok = RollDice(player=q.player, faces=(Face.BEER, Face.BEER, DYNAMITE, Face.BEER, Face.BEER))
    assert ok in legal
    rolls = list(legal)
    assert len(rolls) == 6**4 * 5 and all(r.faces[2] is not GATLING for r in rolls)  # type: ignore[attr-defined]


def test_a_double_face_counts_two_symbols() -> None:
    # a kind whose gatling face stands for a double (the module brings its own face name)
    doubled = die_kind("double", BASE.faces, {GATLING: (GATLING, GATLING)})
    dice: list[Face | None] = [GATLING, Face.BEER, Face.ARROW, GATLING, Face.BEER]
    assert FinalDice.of(dice).gatling == 2
    assert FinalDice.of(dice, (doubled, BASE, BASE, BASE, BASE)).gatling == 3
