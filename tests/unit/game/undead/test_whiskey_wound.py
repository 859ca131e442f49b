"""UA1's whiskey (RULINGS-expansions §UA1, §7 ``whiskey_discard``): its roller puts back one Duel
Wound token of his choice; a lone token goes back without a decision, and no input is recorded
for it (docs/game-records.md, "What needs no input")."""

from __future__ import annotations

from services.game.records import inputs_from_events, read_record, replay_record, write_record
from services.game.rules.dice import Game, PlayerId, parse_command
from services.game.rules.dice.modules import rules_for
from services.game.rules.dice.undead.duels import WHISKEY_DISCARD, WoundDiscarded
from services.game.rules.dice.vocabulary import Face
from services.game.rules.ruleset import ModuleId

SEATS = [
    {"player": "p1", "role": "sheriff", "character": "paul_regret"},
    {"player": "p2", "role": "renegade", "character": "jourdonnais"},
    {"player": "p3", "role": "outlaw", "character": "willy_the_kid"},
    {"player": "p4", "role": "outlaw", "character": "rose_doolan"},
    {"player": "p5", "role": "deputy", "character": "lucky_duke"},
]
P1_DUELS_P3 = ["p1 roll dynamite dynamite beer duel arrow", "p1 stop", "p1 target 2 p1", "p1 target p3"]
P2_DUELS_P3 = ["p2 roll dynamite dynamite beer duel arrow", "p2 stop", "p2 target 2 p2", "p2 target p3"]
P3_DRINKS = ["p3 roll beer arrow arrow whiskey gatling", "p3 stop"]


def played(inputs: list[str]) -> tuple[Game, list[str | None]]:
    """The game after ``inputs`` and the decision awaited before each input and at the end."""
    game = Game.start(read_record(_record(inputs)).seats, rules=rules_for([ModuleId.UA1, ModuleId.UA2]))
    asked: list[str | None] = []
    for text in inputs:
        asked.append(None if game.awaiting is None else game.awaiting.decision)
        game.play(parse_command(text))
    asked.append(None if game.awaiting is None else game.awaiting.decision)
    return game, asked


def _record(inputs: list[str]) -> dict[str, object]:
    return {
        "format": "bang-dice-record",
        "version": 2,
        "game_type": "dice",
        "ruleset": {"modules": ["UA1", "UA2"]},
        "seats": SEATS,
        "inputs": inputs,
    }


def test_a_lone_wound_token_goes_back_without_a_decision_or_an_input() -> None:
    inputs = [
        *P1_DUELS_P3,
        "p3 draw gatling",
        "p3 draw beer",
        *P2_DUELS_P3,
        "p3 draw duel",
        "p2 draw gatling",
    ]
    inputs += ["p2 draw shoot2"]  # p3 won that duel: he still holds the beer token alone
    inputs += [*P3_DRINKS, "p3 target 0 p4"]
    game, asked = played(inputs)
    assert WHISKEY_DISCARD not in asked, "nobody is asked to choose a lone token"
    discarded = [e for e in game.events if isinstance(e, WoundDiscarded)]
    assert discarded == [WoundDiscarded(player=PlayerId("p3"), token=Face.BEER, chosen=False)]
    assert [str(c) for c in inputs_from_events(game.events)] == inputs  # no input for the token
    record = read_record(_record(inputs))
    assert read_record(write_record(replay_record(record))) == record


def test_two_tokens_ask_which_one_goes_back_and_the_choice_is_an_input() -> None:
    inputs = [
        *P1_DUELS_P3,
        "p3 draw gatling",
        "p3 draw beer",
        *P2_DUELS_P3,
        "p3 draw gatling",
        "p3 draw shoot1",
    ]
    inputs += P3_DRINKS
    game, asked = played(inputs)
    assert asked[-1] == WHISKEY_DISCARD
    game.play(parse_command("p3 discard-wound shoot1"))
    discarded = [e for e in game.events if isinstance(e, WoundDiscarded)]
    assert discarded == [WoundDiscarded(player=PlayerId("p3"), token=Face.SHOOT1, chosen=True)]
    assert [str(c) for c in inputs_from_events(game.events)] == [*inputs, "p3 discard-wound shoot1"]
