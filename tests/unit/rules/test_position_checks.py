"""A position's expansion fields are checked against the rules: what no game of the ruleset can
reach is refused in words naming the player and the rule (``positions.check_expansions`` and
``setup._check_position``); what one can reach starts a game standing there."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest

from services.game.rules.dice import Game, InvalidSetup, PlayerId, Role, Seat, new_game, parse_command
from services.game.rules.dice import events as ev
from services.game.rules.dice.abilities import Ability
from services.game.rules.dice.modules import rules_for
from services.game.rules.dice.positions import position_of
from services.game.rules.dice.vocabulary import Face, SpecialRole
from services.game.rules.ruleset import ModuleId

OS1, OS2, OS3, OS4, OS5 = ModuleId.OS1, ModuleId.OS2, ModuleId.OS3, ModuleId.OS4, ModuleId.OS5
UA1, UA2, UA3, UA4 = ModuleId.UA1, ModuleId.UA2, ModuleId.UA3, ModuleId.UA4

_TABLE = (
    ("p1", Role.SHERIFF, "paul_regret", SpecialRole.L_OURS),
    ("p2", Role.RENEGADE, "jourdonnais", SpecialRole.MAIN_GAUCHE),
    ("p3", Role.OUTLAW, "willy_the_kid", SpecialRole.LE_JOUEUR),
    ("p4", Role.OUTLAW, "rose_doolan", SpecialRole.LE_VILAIN),
    ("p5", Role.DEPUTY, "lucky_duke", SpecialRole.LE_BIEN),
)


def seats(modules: tuple[ModuleId, ...]) -> list[Seat]:
    return [
        Seat(
            player=PlayerId(p),
            role=role,
            character=character,  # type: ignore[arg-type]
            special=special if OS3 in modules else None,
        )
        for p, role, character, special in _TABLE
    ]


def position(**fields: Any) -> ev.Position:
    return msgspec.convert(fields, ev.Position)


def start(modules: tuple[ModuleId, ...], **fields: Any) -> Game:
    return Game.start(seats(modules), position(**fields), rules_for(modules))


REFUSED: list[tuple[str, tuple[ModuleId, ...], dict[str, Any], str]] = [
    (
        "wounds without UA1",
        (UA2,),
        {"players": [{"player": "p2", "life": 6, "wounds": ["shoot1"]}]},
        "p2 holds wound tokens, but UA1",
    ),
    (
        "two wound tokens of one symbol",
        (UA1, UA2),
        {"players": [{"player": "p2", "life": 6, "wounds": ["beer", "beer"]}]},
        "p2 holds two wound tokens of one symbol",
    ),
    (
        "more dynamite wound tokens than exist",
        (UA1, UA2),
        {"players": [{"player": p, "life": 5, "wounds": ["dynamite"]} for p in ("p2", "p3", "p4")]},
        "players hold 3 dynamite wound tokens; there are 2",
    ),
    (
        "a wound token of no symbol",
        (UA1, UA2),
        {"players": [{"player": "p3", "life": 5, "wounds": ["gatling"]}]},
        "p3: there is no gatling wound token",
    ),
    (
        "an eliminated player's wound tokens",
        (UA1, UA2),
        {"players": [{"player": "p3", "life": 0, "wounds": ["beer"]}]},
        "p3 is eliminated: his wound tokens went back into the pile",
    ),
    (
        "a Ghost without OS5",
        (),
        {"players": [{"player": "p3", "life": 0, "ghost_since": 4}]},
        "p3 is the Ghost, but OS5",
    ),
    (
        "a living Ghost",
        (OS5,),
        {"players": [{"player": "p3", "life": 2, "ghost_since": 4}]},
        "p3 is the Ghost, so he is eliminated",
    ),
    (
        "two Ghosts",
        (OS5,),
        {"players": [{"player": p, "life": 0, "ghost_since": 4} for p in ("p3", "p4")]},
        "p3 and p4 cannot both be the Ghost",
    ),
    (
        "a Ghost token with no Ghost",
        (OS5,),
        {"players": [{"player": "p2", "life": 5, "ghost_tokens": ["beer"]}]},
        "p2 holds a Ghost token, but no player is the Ghost",
    ),
    (
        "two Ghost tokens of two faces",
        (OS5,),
        {
            "players": [
                {"player": "p3", "life": 0, "ghost_since": 2},
                {"player": "p2", "life": 5, "ghost_tokens": ["beer", "shoot1"]},
            ]
        },
        "p2 holds one Ghost token (two of one face with the x2 token), not beer, shoot1",
    ),
    (
        "a zombie before any outbreak",
        (UA4,),
        {"players": [{"player": "p3", "life": 3, "zombie": {"since": 5, "max_life": 3}}]},
        "p3 is a zombie, but no outbreak has happened",
    ),
    (
        "a zombie above his life",
        (UA4,),
        {
            "players": [{"player": "p3", "life": 4, "zombie": {"since": 5, "max_life": 3}}],
            "boneyard": {"outbreak_turn": 5},
            "turn": 6,
        },
        "p3 is a zombie of 3 life: he cannot have 4",
    ),
    (
        "a Zombie Master who is no Renegade",
        (UA4,),
        {
            "players": [
                {"player": "p3", "life": 3, "zombie": {"since": 5, "max_life": 3}},
                {"player": "p4", "life": 5, "zombie_master": True},
            ],
            "boneyard": {"outbreak_turn": 5},
            "turn": 6,
        },
        "p4 cannot be the Zombie Master: only a living Renegade becomes him",
    ),
    (
        "an outbreak with no survivor left",
        (UA4,),
        {
            "players": [
                {"player": "p1", "life": 0},
                {"player": "p3", "life": 0},
                {"player": "p4", "life": 0},
                {"player": "p5", "life": 3, "zombie": {"since": 5, "max_life": 3}},
                {"player": "p2", "life": 5, "zombie_master": True},
            ],
            "boneyard": {"outbreak_turn": 5},
            "turn": 6,
        },
        "the position is a finished game: no survivor of the outbreak is alive",
    ),
    (
        "a Boneyard card face up after the outbreak",
        (UA4,),
        {"boneyard": {"outbreak_turn": 2, "shown": ["b04"]}, "turn": 3},
        "after the outbreak the Boneyard is out of the game",
    ),
    (
        "a card that is not the Boneyard's",
        (UA4,),
        {"boneyard": {"shown": ["b44"]}},
        "b44 is not a Boneyard card",
    ),
    (
        "a Rage card held twice",
        (UA2,),
        {
            "players": [
                {"player": "p2", "life": 6, "rage": ["r05"]},
                {"player": "p3", "life": 6, "rage": ["r05"]},
            ]
        },
        "the Rage card r05 is held twice (p2 and p3)",
    ),
    (
        "a Rage card held and discarded",
        (UA2,),
        {"players": [{"player": "p2", "life": 6, "rage": ["r05"]}], "rage_deck": {"discard": ["r05"]}},
        "the Rage card r05 is both held by p2 and discarded",
    ),
    (
        "a card that is not a Rage card",
        (UA2,),
        {"players": [{"player": "p2", "life": 6, "rage": ["r99"]}]},
        "p2 holds 'r99', which is not a Rage card",
    ),
    (
        "Rage cards without UA2",
        (),
        {"players": [{"player": "p2", "life": 6, "rage": ["r05"]}]},
        "p2 holds Rage cards, but UA2",
    ),
    (
        "a revealed role without OS3",
        (),
        {"players": [{"player": "p2", "life": 6, "special": {"revealed": True}}]},
        "p2's special role is revealed or used, but OS3",
    ),
    (
        "a role used face down",
        (OS3,),
        {"players": [{"player": "p2", "life": 6, "special": {"used": True}}]},
        "p2 used his special role, so it is revealed",
    ),
    (
        "L'Ours face down",
        (OS3,),
        {"players": [{"player": "p1", "life": 6, "special": {"revealed": False}}]},
        "p1 holds L'Ours, which is always face up",
    ),
    (
        "a Sheriff by Le Bien who does not hold it",
        (OS3,),
        {"sheriff": "p3"},
        "p3 became the Sheriff: only Le Bien's holder does",
    ),
    (
        "losses held without OS4",
        (),
        {"held_losses": {"step": "shots", "hits": [{"player": "p2", "amount": 1, "cause": "shoot1"}]}},
        "the position holds a step's losses back, but OS4",
    ),
    (
        "an elimination of a living player",
        (),
        {"players": [{"player": "p2", "life": 3, "eliminated": {"turn": 2, "by": "p1", "cause": "shoot1"}}]},
        "p2 has 3 life: only a player at 0 life can have been eliminated",
    ),
    (
        "a turn both over and in progress",
        (),
        {"active_player": "p2", "turn": 2, "turn_ended": True, "in_turn": {}},
        "a turn is either over (turn_ended) or in progress (in_turn), not both",
    ),
    (
        "dice aimed before they are final",
        (),
        {
            "active_player": "p2",
            "turn": 2,
            "dice": ["shoot1", "beer", "beer", "arrow", "gatling"],
            "in_turn": {"targets": [{"die": 0, "target": "p1", "face": "shoot1"}]},
        },
        "dice are aimed or resolved only once they are final",
    ),
    (
        "a die the hand does not have",
        (),
        {
            "active_player": "p2",
            "turn": 2,
            "dice": ["shoot1", "beer", "beer", "arrow", "gatling"],
            "in_turn": {"dice_final": True, "targets": [{"die": 7, "target": "p1", "face": "shoot1"}]},
        },
        "p2 has dice 0 to 4: there is no die 7",
    ),
    (
        "a hand and dice of two sizes",
        (OS1,),
        {
            "active_player": "p2",
            "turn": 2,
            "dice": ["shoot1", "beer", "beer", "arrow"],
            "in_turn": {"hand": ["base", "base", "base", "base", "loudmouth"]},
        },
        "p2 rolls 5 dice, so the position shows 5 dice, not 4",
    ),
    (
        "a die not rolled without the turn in progress",
        (),
        {"active_player": "p2", "turn": 2, "dice": ["shoot1", None, "beer", "arrow", "gatling"]},
        "a die not rolled yet (null) needs the turn in progress (in_turn)",
    ),
    (
        "a player with no seat named by a field",
        (UA1, UA2),
        {"wound_tokens": {"owed": ["p9"]}},
        "p9 owes a wound token, but has no seat",
    ),
    (
        "a window that is no turn's",
        (OS3,),
        {"special_roles": {"windows_closed": ["yesterday"]}},
        "'yesterday' is not a window of a turn",
    ),
    (
        "Pixie Pete's pair not among his last cards",
        (UA2, UA3),
        {
            "players": [{"player": "p2", "life": 6, "rage": ["r01", "r02"]}],
            "rage_deck": {"pair": ["r02", "r07"]},
        },
        "Pixie Pete's pair of Rage cards are the last cards he drew",
    ),
    (
        "a face the die does not have",
        (OS1,),
        {
            "active_player": "p2",
            "turn": 2,
            "dice": ["shoot1", "beer", "beer", "arrow", "whiskey"],
            "in_turn": {"hand": ["base", "base", "base", "base", "loudmouth"], "to_roll": []},
        },
        "die 4 is a loudmouth die: it cannot show whiskey",
    ),
    (
        "a loss step that deals none",
        (),
        {
            "active_player": "p2",
            "turn": 2,
            "dice": ["shoot1", "beer", "beer", "arrow", "gatling"],
            "in_turn": {"dice_final": True, "batch": {"step": "picnic"}},
        },
        "'picnic' is not a step that deals losses",
    ),
    (
        "a die of another module",
        (),
        {"active_player": "p2", "turn": 2, "in_turn": {"hand": ["base", "base", "base", "base", "duel"]}},
        "'duel' is not a die of this game",
    ),
]


@pytest.mark.parametrize(
    ("modules", "fields", "fragment"), [c[1:] for c in REFUSED], ids=[c[0] for c in REFUSED]
)
def test_a_position_no_game_reaches_is_refused_in_words(
    modules: tuple[ModuleId, ...], fields: dict[str, Any], fragment: str
) -> None:
    with pytest.raises(InvalidSetup) as refused:
        new_game(seats(modules), position(**fields), rules_for(modules))
    assert fragment in str(refused.value)


def test_wound_tokens_held_leave_the_pile() -> None:
    game = start(
        (UA1, UA2),
        players=[{"player": "p2", "life": 6, "wounds": ["shoot1", "dynamite"]}],
        active_player="p2",
        turn=3,
    )
    duels = game.state.duels
    assert duels is not None
    assert duels.held == {"p2": [Face.SHOOT1, Face.DYNAMITE]}
    assert duels.pile[Face.DYNAMITE] == 1 and duels.pile[Face.SHOOT1] == 4


def test_rage_cards_held_and_discarded_leave_the_pile() -> None:
    game = start(
        (UA2,),
        players=[{"player": "p3", "life": 6, "rage": ["r01", "r09"]}],
        rage_deck={"discard": ["r02"]},
    )
    rage = game.state.rage
    assert rage is not None
    assert rage.hands == {"p3": ["r01", "r09"]} and rage.discard == ["r02"]
    assert sorted(rage.pile + rage.discard + rage.hands["p3"]) == sorted(rage.order)


def test_a_zombie_after_the_outbreak_plays_as_one() -> None:
    game = start(
        (UA4,),
        players=[
            {"player": "p3", "life": 2, "zombie": {"since": 5, "max_life": 3}},
            {"player": "p2", "life": 6, "zombie_master": True},
        ],
        boneyard={"outbreak_turn": 5},
        active_player="p3",
        turn=7,
    )
    p3 = game.state.by_id["p3"]
    assert p3.alive and p3.zombie and p3.max_life == 3 and p3.character.ability == Ability()
    assert game.state.outbreak and game.state.by_id["p2"].zombie_master
    assert game.awaiting is not None and game.awaiting.dice == (0, 1, 2)  # a zombie's three dice


def test_the_ghost_keeps_his_turn_and_his_token_holder_his_token() -> None:
    game = start(
        (OS5,),
        players=[
            {
                "player": "p3",
                "life": 0,
                "ghost_since": 2,
                "eliminated": {"turn": 2, "by": "p2", "cause": "shoot1"},
            },
            {"player": "p4", "life": 5, "ghost_tokens": ["beer"]},
        ],
        active_player="p3",
        turn=8,
    )
    p3 = game.state.by_id["p3"]
    assert p3.ghost and not p3.alive and (p3.eliminated_by, p3.eliminated_turn) == ("p2", 2)
    assert game.state.by_id["p4"].ghost_gift == (Face.BEER,)
    assert game.awaiting is not None and game.awaiting.player == "p3"  # the Ghost's roll


def test_the_documented_example_is_a_position_the_rules_accept() -> None:
    docs = (Path(__file__).parents[3] / "docs" / "game-records.md").read_text()
    example = docs.split("An example, a UA1+UA2+UA4 game", 1)[1].split("```json", 1)[1].split("```", 1)[0]
    written = json.loads("{" + example + "}")["position"]
    game = start((UA1, UA2, UA4), **written)
    state = game.state
    assert state.turn is None and state.last_turn_number == 7
    assert state.duels is not None and state.duels.held == {"p2": [Face.SHOOT1]}
    assert state.rage is not None and state.rage.hands == {"p2": ["r07"]}
    assert state.boneyard is not None and state.boneyard.shown == ["b04", "b09"]
    assert game.awaiting is not None and (game.awaiting.player, game.awaiting.decision) == ("p4", "rage_draw")
    assert position_of(state, seats((UA1, UA2, UA4))) == position(**written)


def test_l_ours_may_be_listed_at_his_full_life() -> None:
    """L'Ours gives the Sheriff +3 life instead of +2: paul_regret's 9 + 3 = 12."""
    game = start((OS3,), players=[{"player": "p1", "life": 12, "arrows": 1}])
    assert (game.state.by_id["p1"].life, game.state.by_id["p1"].max_life) == (12, 12)
    with pytest.raises(InvalidSetup, match="p1 cannot have 13 life"):
        start((OS3,), players=[{"player": "p1", "life": 13}])


_DISAGREEING_SEATS = [
    ("p1", "renegade", "calamity_janet", "main_droite"),
    ("p2", "deputy", "molly_stark", "le_bien"),
    ("p3", "outlaw", "vera_custer", "le_vilain"),
    ("p4", "sheriff", "bill_noface", "l_ours"),
    ("p5", "deputy", "jose_delgado", "le_doc"),
    ("p6", "renegade", "jourdonnais", "main_gauche"),
    ("p7", "outlaw", "elena_fuente", "le_joueur"),
    ("p8", "outlaw", "suzy_lafayette", "le_mauvais"),
]


def test_fields_that_disagree_when_played_on_are_refused_and_change_nothing() -> None:
    """A beer already aimed in a turn whose closed role windows were left out: each field is one
    a game reaches, together they are not. When playing on shows it, the input is refused in
    words (``game._position_cannot_be_played``) and changes nothing."""
    modules = (OS1, OS2, OS3, OS4, ModuleId.OS5, UA1, UA2, UA3, UA4, ModuleId.UA5)
    table = [
        Seat(player=PlayerId(p), role=Role(r), character=c, special=SpecialRole(s))  # type: ignore[arg-type]
        for p, r, c, s in _DISAGREEING_SEATS
    ]
    disagreeing = position(
        players=[{"player": "p4", "life": 12, "rage": ["r17"]}],
        active_player="p4",
        dice=["dynamite", "beer", "beer", "duel", "whiskey"],
        rolls_used=3,
        in_turn={
            "hand": ["base", "base", "base", "duel", "duel"],
            "dice_final": True,
            "rolled": [3, 4],
            "targets": [{"die": 1, "target": "p4", "face": "beer"}],
            "answered": ["saloon_die"],
        },
        wound_tokens={"whiskeys": 1},
        rage_deck={"draws": 1},
    )
    game = Game.start(table, disagreeing, rules_for(modules))
    # Le Joueur's window, closed in the original, opens again: p4 rerolls with a beer aimed
    for text in ("p7 use le_joueur", "p4 pass", "p4 roll dynamite shoot2 arrow duel duel", "p4 pass"):
        game.play(parse_command(text))
    standing, events = position_of(game.state, table), list(game.events)
    with pytest.raises(InvalidSetup, match="cannot be played from this position: its fields disagree"):
        game.play(parse_command("p4 arrow chief"))
    assert position_of(game.state, table) == standing and game.events == events


def test_a_position_s_numbers_and_names_are_bounded() -> None:
    """A negative die or count would index from the end: refused where the record is read."""
    for fields, path in [
        (
            {"in_turn": {"targets": [{"die": -1, "target": "p1", "face": "shoot1"}]}},
            "$.in_turn.targets[0].die",
        ),
        ({"wound_tokens": {"draws": 100_001}}, "$.wound_tokens.draws"),
        ({"in_turn": {"answered": ["x" * 161]}}, "$.in_turn.answered[0]"),
    ]:
        with pytest.raises(msgspec.ValidationError) as refused:
            position(**fields)
        assert path in str(refused.value)
