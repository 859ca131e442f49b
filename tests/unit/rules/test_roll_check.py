"""A base-game roll is checked in one pass over the whole roll (``decisions._check_roll``'s
fast path, for ``bench engine``): what that pass cannot tell apart is still refused as before."""

from __future__ import annotations

import pytest

from services.game.rules.dice import Decision, Face, Game, IllegalCommand, MalformedCommand, RollDice, Seat
from services.game.rules.dice.vocabulary import CharacterId, PlayerId, Role


def _rolling() -> tuple[Game, PlayerId]:
    roles = (Role.SHERIFF, Role.RENEGADE, Role.OUTLAW, Role.OUTLAW)
    characters = (
        CharacterId.BART_CASSIDY,
        CharacterId.EL_GRINGO,
        CharacterId.SUZY_LAFAYETTE,
        CharacterId.KIT_CARLSON,
    )
    seats = [
        Seat(player=PlayerId(f"p{i + 1}"), role=r, character=c)
        for i, (r, c) in enumerate(zip(roles, characters, strict=True))
    ]
    game = Game.start(seats)
    q = game.awaiting
    assert q is not None and q.decision is Decision.ROLL
    return game, q.player


def test_a_plain_string_equal_to_a_face_is_not_a_face() -> None:
    # "beer" == Face.BEER and hashes alike, so a set test alone would let it through
    game, player = _rolling()
    faces = (Face.BEER, "beer", Face.BEER, Face.BEER, Face.BEER)
    with pytest.raises(MalformedCommand, match="'beer' is not a die face"):
        game.play(RollDice(player=player, faces=faces))  # type: ignore[arg-type]
    assert len(game.events) == 2  # nothing was played


def test_an_unhashable_value_is_named() -> None:
    game, player = _rolling()
    faces = (Face.BEER, ["beer"], Face.BEER, Face.BEER, Face.BEER)
    with pytest.raises(MalformedCommand, match=r"\['beer'\] is not a die face"):
        game.play(RollDice(player=player, faces=faces))  # type: ignore[arg-type]


def test_a_saloon_face_on_a_base_die_is_refused() -> None:
    game, player = _rolling()
    faces = (Face.BEER, Face.BEER, Face.BULLET, Face.BEER, Face.BEER)
    with pytest.raises(IllegalCommand, match="die 3 is a base die and has no bullet face"):
        game.play(RollDice(player=player, faces=faces))


def test_a_base_roll_is_played() -> None:
    game, player = _rolling()
    faces = (Face.BEER, Face.ARROW, Face.DYNAMITE, Face.SHOOT1, Face.GATLING)
    game.play(RollDice(player=player, faces=faces))
    assert game.state.turn is not None and game.state.turn.rolls_used == 1
