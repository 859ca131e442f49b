"""UA4, the Boneyard and the zombie outbreak (``undead/zombies.py``): the rulings of
docs/rulings.md ("Undead or Alive: the zombie outbreak") that the scenarios
(``tests/scenarios/undead/ua4_*.yaml``) do not show through the trace: what a draw is among,
the results of an outbreak game, a zombie's lost ability and role power, the Master's kept ones,
and no reveal once the game is over."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
import pytest
import yaml

from services.game.records import read_record, replay_record
from services.game.rules.dice import Game, PlayerId, Seat, parse_command
from services.game.rules.dice.awaiting import Awaiting
from services.game.rules.dice.characters import CharacterId
from services.game.rules.dice.events import PlayerPosition, Position
from services.game.rules.dice.modules import ENGINE_MODULES, rules_for
from services.game.rules.dice.undead.draws import Draw, draw_need
from services.game.rules.dice.undead.zombies import (
    BONEYARD_1,
    BONEYARD_DECKS,
    BONEYARD_DRAW,
    UA4,
    BoneyardRevealed,
    OutbreakBegan,
    check_deck,
)
from services.game.rules.dice.vocabulary import Role, Side, SpecialRole
from services.game.rules.ruleset import ModuleId

SCENARIOS = Path(__file__).parents[3] / "scenarios" / "undead"
P = PlayerId


def scenario(name: str, *more: str) -> Game:
    """The game of a UA4 scenario (its inputs, plus ``more``)."""
    data: dict[str, Any] = yaml.safe_load((SCENARIOS / f"{name}.yaml").read_text(encoding="utf-8"))
    data.pop("expect")
    data["inputs"] = [*data["inputs"], *more]
    return replay_record(read_record(data))


def play(game: Game, *inputs: str) -> Game:
    for text in inputs:
        game.play(parse_command(text))
    return game


def test_the_module_is_registered_with_the_boneyard_of_the_rulings() -> None:
    assert ENGINE_MODULES[ModuleId.UA4] is UA4
    assert rules_for([ModuleId.UA4]).decisions[BONEYARD_DRAW].decision == "boneyard_draw"
    deck = BONEYARD_DECKS[BONEYARD_1]
    assert [hands for _, hands in deck] == [0, 0, 1, 1, 1, 1, 1, 1, 2, 2, 2]
    assert [card for card, _ in deck] == [f"b{i:02d}" for i in range(1, 12)]
    with pytest.raises(ValueError, match="a Boneyard has 11 cards, not 10"):
        check_deck(deck[:10])
    with pytest.raises(ValueError, match="shows 0, 1 or 2 hands, not 3"):
        check_deck((*deck[:10], ("b11", 3)))


def test_a_reveal_is_a_draw_among_the_cards_face_down_at_that_moment() -> None:
    game = scenario("ua4_no_hands_card_blocks_the_outbreak_for_the_rest_of_the_turn")
    # replay up to p4's reveal: b01 is face up (shown this turn), so not among the cards
    events = game.events
    first = next(i for i, e in enumerate(events) if isinstance(e, BoneyardRevealed))
    before_p4 = Game.replay(events[: first + 1], game.state.rules)
    question = before_p4.awaiting
    assert question is not None and question.decision == BONEYARD_DRAW and question.player == "p4"
    need = draw_need(before_p4.state, question)
    assert need == Draw(BONEYARD_1, tuple(f"b{i:02d}" for i in range(2, 12)), 1)
    # at p3's own turn, after the shuffle back: b01 is there again, b09 and b10 stay face up
    turn3 = next(i for i, e in enumerate(events) if isinstance(e, BoneyardRevealed) and e.turn == 3)
    at_p3 = Game.replay(events[:turn3], game.state.rules)
    question = at_p3.awaiting
    assert question is not None and question.player == "p3"
    need = draw_need(at_p3.state, question)
    assert need is not None and need.number == 3
    assert need.cards == ("b01", "b02", "b03", "b04", "b05", "b06", "b07", "b08", "b11")


def test_an_outbreak_games_results_give_each_seat_its_side_and_the_outbreak_turn() -> None:
    game = scenario("ua4_the_zombies_win_when_every_survivor_falls")
    result = game.result
    assert result is not None and result.outbreak_turn == 3 and result.winning_side is Side.ZOMBIES
    by = {r.player: r for r in result.results}
    assert (by[P("p1")].side, by[P("p1")].zombie, by[P("p1")].won) == (Side.SURVIVORS, False, False)
    assert (by[P("p2")].side, by[P("p2")].zombie, by[P("p2")].won) == (Side.ZOMBIE_MASTER, False, True)
    assert (by[P("p3")].side, by[P("p3")].zombie, by[P("p3")].won) == (Side.ZOMBIES, True, True)
    assert by[P("p3")].role is Role.OUTLAW and by[P("p2")].role is Role.RENEGADE  # roles kept
    assert by[P("p4")].character is CharacterId.ROSE_DOOLAN  # the card he was dealt


def test_a_game_without_an_outbreak_reports_the_base_sides() -> None:
    seats = [
        Seat(player=P("p1"), role=Role.SHERIFF, character=CharacterId.PAUL_REGRET),
        Seat(player=P("p2"), role=Role.RENEGADE, character=CharacterId.JOURDONNAIS),
        Seat(player=P("p3"), role=Role.OUTLAW, character=CharacterId.WILLY_THE_KID),
        Seat(player=P("p4"), role=Role.OUTLAW, character=CharacterId.ROSE_DOOLAN),
    ]
    position = Position(
        players=(
            PlayerPosition(player=P("p2"), life=1),
            PlayerPosition(player=P("p3"), life=0),
            PlayerPosition(player=P("p4"), life=0),
        ),
        active_player=P("p1"),
    )
    game = Game.start(seats, position, rules_for([ModuleId.UA4]))
    play(game, "p1 roll shoot1 dynamite dynamite gatling arrow", "p1 stop", "p1 target 0 p2")
    result = game.result
    assert result is not None and result.winning_side is Side.LAW
    assert all(r.zombie is msgspec.UNSET for r in result.results)
    assert result.outbreak_turn is msgspec.UNSET
    # the game is over: p2, eliminated in that turn, reveals nothing (nothing is asked any more)
    assert game.awaiting is None
    assert not any(isinstance(e, BoneyardRevealed) for e in game.events)


def test_a_plain_zombie_has_no_ability_and_the_master_keeps_his() -> None:
    game = scenario("ua4_two_renegades_the_nearer_clockwise_is_the_master")
    state = game.state
    sid = state.by_id[P("p8")]  # Sid Ketchum, a zombie now
    assert sid.zombie and sid.character.id is CharacterId.SID_KETCHUM
    assert sid.character.ability.start_of_turn is None
    kit = state.by_id[P("p7")]  # Kit Carlson: no arrow removal for a gatling
    assert kit.character.ability.after_gatling is None
    master = state.by_id[P("p2")]
    assert master.zombie_master and not master.zombie
    assert master.character.id is CharacterId.JOURDONNAIS and master.character.max_loss_per_indian_attack == 1
    assert (master.life, master.max_life) == (7, 7)
    other = state.by_id[P("p4")]
    assert not other.zombie_master and not other.zombie and other.alive  # a survivor
    outbreak = next(e for e in game.events if isinstance(e, OutbreakBegan))
    assert outbreak.master == "p2" and outbreak.zombies == ("p5", "p6", "p7", "p8")
    # p8's own turn as a zombie: Sid's heal is never asked, he rolls three base dice
    play(game, "p7 roll dynamite dynamite dynamite")
    question = game.awaiting
    assert question == Awaiting(player=P("p8"), decision=question.decision, dice=(0, 1, 2))
    assert question.decision == "roll"


def test_a_zombie_loses_his_role_power_and_the_master_keeps_his() -> None:
    seats = [
        Seat(player=P(f"p{i}"), role=role, character=character, special=card)
        for i, (role, character, card) in enumerate(
            [
                (Role.SHERIFF, CharacterId.PAUL_REGRET, SpecialRole.L_OURS),
                (Role.RENEGADE, CharacterId.JOURDONNAIS, SpecialRole.MAIN_GAUCHE),
                (Role.OUTLAW, CharacterId.WILLY_THE_KID, SpecialRole.LE_JOUEUR),
                (Role.OUTLAW, CharacterId.ROSE_DOOLAN, SpecialRole.LE_VILAIN),
            ],
            start=1,
        )
    ]
    position = Position(
        players=(
            PlayerPosition(player=P("p2"), life=2),
            PlayerPosition(player=P("p3"), life=0),
            PlayerPosition(player=P("p4"), life=0),
        ),
        active_player=P("p2"),
    )
    game = Game.start(seats, position, rules_for([ModuleId.OS3, ModuleId.UA4]))
    for _ in range(40):  # pass every role window until the outbreak (the Boneyard as in the T2 scenario)
        if any(isinstance(e, OutbreakBegan) for e in game.events):
            break
        question = game.awaiting
        assert question is not None
        if question.decision == "roll":
            play(game, f"{question.player} roll dynamite dynamite dynamite gatling gatling")
        elif question.decision == BONEYARD_DRAW:
            play(game, f"{question.player} draw {'b09' if question.player == 'p3' else 'b10'}")
        else:
            play(game, f"{question.player} pass")
    special = game.state.special
    assert special is not None
    assert {P("p3"), P("p4")} <= special.used  # a zombie's power is lost
    assert P("p2") not in special.used  # the Master keeps his unused one
    assert special.revealed[P("p3")] is SpecialRole.LE_JOUEUR  # shown at his elimination


def test_a_zombie_takes_no_arrow_from_elena_fuente() -> None:
    seats = [
        Seat(player=P("p1"), role=Role.SHERIFF, character=CharacterId.ELENA_FUENTE),
        Seat(player=P("p2"), role=Role.RENEGADE, character=CharacterId.JOURDONNAIS),
        Seat(player=P("p3"), role=Role.OUTLAW, character=CharacterId.WILLY_THE_KID),
        Seat(player=P("p4"), role=Role.OUTLAW, character=CharacterId.ROSE_DOOLAN),
    ]
    position = Position(
        players=(
            PlayerPosition(player=P("p2"), life=2),
            PlayerPosition(player=P("p3"), life=0),
            PlayerPosition(player=P("p4"), life=0),
        ),
        active_player=P("p2"),
    )
    game = Game.start(seats, position, rules_for([ModuleId.OS4, ModuleId.UA4]))
    play(game, "p2 roll dynamite dynamite dynamite gatling gatling", "p3 draw b09", "p4 draw b10")
    play(game, "p4 roll dynamite dynamite dynamite")  # the zombie p4's turn ends at once
    play(game, "p1 roll arrow dynamite dynamite gatling gatling")
    question = game.awaiting
    assert question is not None and question.player == "p1"
    gifts = {c.text() for c in game.legal_commands()}
    assert "p1 give-arrow p2" in gifts and "p1 give-arrow p3" not in gifts
    with pytest.raises(Exception, match="p3 is a zombie and takes no arrows"):
        game.play(parse_command("p1 give-arrow p3"))
