"""OS5, the Ghost (RULINGS-expansions §OS5, docs/rulings.md "The Ghost"): who becomes the Ghost,
his turn (two base dice, one roll, one gift), the Ghost-preset dice of the recipient, the
tokens' return, and the Ghost out of every other rule. Five seats unless said otherwise:
p1 Sheriff, p2 Renegade, p3 Outlaw, p4 Outlaw, p5 Deputy, clockwise."""

from __future__ import annotations

import msgspec
import pytest

from services.game.rules.dice import (
    Awaiting,
    ChooseTarget,
    Decision,
    Face,
    Game,
    IllegalCommand,
    NotAwaited,
    PlayerId,
    PlayerPosition,
    Position,
    Reroll,
    Role,
    Seat,
    fold,
    parse_command,
)
from services.game.rules.dice import events as ev
from services.game.rules.dice.decisions import timeout_command
from services.game.rules.dice.modules import ENGINE_MODULES, rules_for
from services.game.rules.dice.old_saloon.ghost import (
    GHOST_GIVE,
    OS5,
    BecameGhost,
    GhostDiceSet,
    GhostGive,
    GhostTokenGiven,
    GhostTokensReturned,
)
from services.game.rules.dice.table import distance
from services.game.rules.ruleset import ModuleId

RULES = rules_for([ModuleId.OS5])
ROLES = (Role.SHERIFF, Role.RENEGADE, Role.OUTLAW, Role.OUTLAW, Role.DEPUTY)
# no character here asks anything on its own: every question below is the Ghost's or the base turn's
CHARACTERS = ("paul_regret", "jourdonnais", "jesse_jones", "willy_the_kid", "calamity_janet")


def seats(characters: tuple[str, ...] = CHARACTERS) -> list[Seat]:
    return [
        Seat(player=PlayerId(f"p{i + 1}"), role=role, character=ch)  # type: ignore[arg-type]
        for i, (role, ch) in enumerate(zip(ROLES, characters, strict=True))
    ]


def start(active: str, *players: PlayerPosition, characters: tuple[str, ...] = CHARACTERS) -> Game:
    position = Position(players=players, active_player=PlayerId(active), turn=1)
    return Game.start(seats(characters), position, rules=RULES)


def at(player: str, life: int, arrows: int = 0) -> PlayerPosition:
    return PlayerPosition(player=PlayerId(player), life=life, arrows=arrows)


def play(game: Game, *lines: str) -> None:
    for line in lines:
        game.play(parse_command(line))


def asked(game: Game) -> Awaiting:
    q = game.awaiting
    assert q is not None
    return q


def of(game: Game, kind: type[ev.Event]) -> list[ev.Event]:
    return [e for e in game.events if isinstance(e, kind)]


def p2_becomes_the_ghost() -> Game:
    """Turn 1: the Sheriff shoots p2 (1 life) dead; p2, the first eliminated, is the Ghost."""
    game = start("p1", at("p2", 1))
    play(game, "p1 roll shoot1 beer gatling dynamite dynamite", "p1 stop", "p1 target 0 p2", "p1 target 1 p1")
    return game


# --- who becomes the Ghost --------------------------------------------------------------------


def test_the_module_is_registered_and_plays_through_rules_for() -> None:
    assert ENGINE_MODULES[ModuleId.OS5] is OS5
    assert RULES.modules == (ModuleId.OS5,) and RULES.decisions[GHOST_GIVE].decision == "ghost_give"
    assert rules_for([ModuleId.OS5]) is RULES


def test_the_first_eliminated_becomes_the_ghost_and_keeps_his_turn() -> None:
    game = p2_becomes_the_ghost()
    ghost = game.state.by_id[PlayerId("p2")]
    assert of(game, BecameGhost) == [BecameGhost(player=PlayerId("p2"), turn=1)]
    assert ghost.ghost and not ghost.alive and ghost.life == 0 and ghost.arrows == 0
    # his seat comes next: a Ghost turn, two base dice
    assert asked(game) == Awaiting(player=PlayerId("p2"), decision=Decision.ROLL, dice=(0, 1))
    assert game.state.turn is not None and game.state.turn.number == 2


def test_later_eliminated_players_are_simply_out() -> None:
    game = start("p1", at("p2", 1), at("p5", 1))
    # p1's two shoot1 hit both neighbours at once: p2 is clockwise nearer, so p2 is the Ghost
    play(game, "p1 roll shoot1 shoot1 beer dynamite dynamite", "p1 stop")
    play(game, "p1 target 0 p5", "p1 target 1 p2", "p1 target 2 p1")
    assert of(game, BecameGhost) == [BecameGhost(player=PlayerId("p2"), turn=1)]
    assert not game.state.by_id[PlayerId("p5")].ghost
    play(game, "p2 roll arrow dynamite")
    seen = len(game.events)
    play(game, "p2 ghost-give arrow p3")
    play(game, "p3 roll dynamite dynamite beer beer")  # with the Ghost's arrow: D = 2
    play(game, "p3 reroll 3 4", "p3 roll dynamite arrow")  # D = 3: rolling stops
    for player in ("p4", "p1"):
        play(game, f"{player} roll dynamite dynamite dynamite arrow arrow")
    order = [e.player for e in game.events[seen:] if isinstance(e, ev.TurnStarted)]
    assert asked(game) == Awaiting(player=PlayerId("p2"), decision=Decision.ROLL, dice=(0, 1))
    assert order == ["p3", "p4", "p1", "p2"], "p5 is out for good; the Ghost p2 still plays"


def test_several_at_once_the_nearest_clockwise_from_the_active_player_himself_first() -> None:
    # p3 takes the last arrow: the Indians kill p3 (active) and p4 together; p3 is the Ghost
    game = start("p3", at("p3", 1, arrows=3), at("p4", 1, arrows=3), at("p5", 8, arrows=2))
    play(game, "p3 roll arrow beer beer beer beer")
    assert [e.player for e in of(game, ev.PlayerEliminated)] == ["p3", "p4"]  # type: ignore[attr-defined]
    assert of(game, BecameGhost) == [BecameGhost(player=PlayerId("p3"), turn=1)]
    # his own turn, in which he fell, is over: it does not become a Ghost turn
    assert asked(game).player == "p5" and asked(game).decision is Decision.ROLL
    for player in ("p5", "p1", "p2"):
        play(game, f"{player} roll dynamite dynamite dynamite arrow arrow")
    assert asked(game) == Awaiting(player=PlayerId("p3"), decision=Decision.ROLL, dice=(0, 1))


def test_never_the_sheriff_even_when_he_is_nearest() -> None:
    # p3's arrow sets off the Indians: the Sheriff (p1) and the Renegade (p2) fall together;
    # clockwise from p3 the Sheriff comes first, yet p2 is the Ghost (and the game is over)
    game = start("p3", at("p1", 1, arrows=3), at("p2", 1, arrows=3), at("p3", 9, arrows=2))
    play(game, "p3 roll arrow beer beer beer beer")
    assert of(game, BecameGhost) == [BecameGhost(player=PlayerId("p2"), turn=1)]
    result = game.result
    assert result is not None and result.winning_side == "outlaws"
    by_player = {r.player: r for r in result.results}
    assert by_player[PlayerId("p2")].ghost is True and by_player[PlayerId("p2")].won is False
    assert by_player[PlayerId("p1")].ghost is msgspec.UNSET


def test_a_seat_out_before_the_record_is_never_the_ghost_and_the_ghost_has_no_ability() -> None:
    with_sid = ("paul_regret", "jourdonnais", "sid_ketchum", "willy_the_kid", "calamity_janet")
    game = start("p4", at("p2", 0), at("p3", 1), characters=with_sid)
    play(game, "p4 roll shoot1 beer beer dynamite dynamite", "p4 stop", "p4 target 0 p3")
    play(game, "p4 target 1 p4", "p4 target 2 p4")
    assert of(game, BecameGhost) == [BecameGhost(player=PlayerId("p3"), turn=1)]
    for player in ("p5", "p1"):  # p2 is out for good: skipped
        play(game, f"{player} roll dynamite dynamite dynamite arrow arrow")
    # Sid Ketchum's start-of-turn heal is not asked of him as the Ghost
    assert asked(game) == Awaiting(player=PlayerId("p3"), decision=Decision.ROLL, dice=(0, 1))


# --- the Ghost's turn and his gift ------------------------------------------------------------


def test_x9_two_beers_give_beer_x2_and_the_recipient_rolls_the_other_three() -> None:
    game = p2_becomes_the_ghost()
    play(game, "p2 roll beer beer")
    assert asked(game) == Awaiting(player=PlayerId("p2"), decision=GHOST_GIVE, dice=(0, 1))
    play(game, "p2 ghost-give beer p4 x2")
    given = GhostTokenGiven(player=PlayerId("p2"), target=PlayerId("p4"), face=Face.BEER, x2=True)
    assert of(game, GhostTokenGiven) == [given]
    assert game.state.by_id[PlayerId("p4")].ghost_gift == (Face.BEER, Face.BEER)
    play(game, "p3 roll dynamite dynamite dynamite arrow arrow")  # p3's turn ends on his dynamite
    # p4's turn: two base dice set to beer before the first roll, which rolls the other three
    assert of(game, GhostDiceSet) == [GhostDiceSet(player=PlayerId("p4"), dice=(0, 1), face=Face.BEER)]
    t = game.state.turn
    assert t is not None and t.dice == [Face.BEER, Face.BEER, None, None, None] and t.preset == (0, 1)
    assert asked(game) == Awaiting(player=PlayerId("p4"), decision=Decision.ROLL, dice=(2, 3, 4))
    play(game, "p4 roll shoot1 gatling beer")
    q = asked(game)
    assert q.decision is Decision.REROLL_OR_STOP and q.dice == (2, 3, 4)
    with pytest.raises(IllegalCommand, match="die 1 was set by a Ghost token and cannot be rerolled"):
        game.play(Reroll(player=PlayerId("p4"), dice=(0, 2)))
    play(game, "p4 stop")
    final = next(e for e in game.events if isinstance(e, ev.DiceFinalized) and e.player == "p4")
    assert final.faces == (Face.BEER, Face.BEER, Face.SHOOT1, Face.GATLING, Face.BEER)  # type: ignore[attr-defined]
    # the preset beers are aimed and poured like any beer
    play(game, "p4 target 2 p5", "p4 target 0 p4", "p4 target 1 p4", "p4 target 4 p4")
    assert of(game, GhostTokensReturned) == [GhostTokensReturned(player=PlayerId("p4"))]
    assert game.state.by_id[PlayerId("p4")].ghost_gift == ()
    assert asked(game).player == "p5"
    assert fold(game.events, RULES) == game.state


def test_the_ghost_rolls_once_and_gives_only_a_face_he_shows() -> None:
    game = p2_becomes_the_ghost()
    pile = game.state.arrow_pile
    play(game, "p2 roll arrow dynamite")
    assert game.state.arrow_pile == pile and not of(game, ev.ArrowTaken), "his faces do nothing"
    ghost = PlayerId("p2")
    refusals = {
        "p2 ghost-give beer p3": "the Ghost's dice show arrow and dynamite; he cannot give a beer token",
        "p2 ghost-give arrow p3 x2": "the x2 token needs both Ghost dice to show arrow",
        "p2 ghost-give arrow p2": "the Ghost cannot give a Ghost token to himself",
        "p2 ghost-give arrow p9": "p9 is not a player in this game",
    }
    for line, message in refusals.items():
        with pytest.raises(IllegalCommand, match=message):
            play(game, line)
    with pytest.raises(NotAwaited):
        game.play(Reroll(player=ghost, dice=(0,)))  # no rerolls for the Ghost
    legal = set(game.legal_commands())
    assert legal == {
        GhostGive(player=ghost, face=face, target=PlayerId(p))
        for face in (Face.ARROW, Face.DYNAMITE)
        for p in ("p1", "p3", "p4", "p5")
    }
    play(game, "p2 ghost-give dynamite p1")
    assert asked(game).player == "p3"


def test_a_token_that_is_out_cannot_be_given_and_with_none_left_nothing_happens() -> None:
    # Tokens are back by the Ghost's next turn in every seat order the rules make (the recipient
    # plays before him, or falls and returns them): the holders here are set by hand.
    game = p2_becomes_the_ghost()
    p3, p5 = game.state.by_id[PlayerId("p3")], game.state.by_id[PlayerId("p5")]
    play(game, "p2 roll beer beer")
    p3.ghost_gift = (Face.SHOOT1, Face.SHOOT1)  # the x2 token is out
    with pytest.raises(IllegalCommand, match=r"the x2 Ghost token is out \(with p3\)"):
        play(game, "p2 ghost-give beer p4 x2")
    p5.ghost_gift = (Face.BEER,)
    with pytest.raises(IllegalCommand, match=r"the beer Ghost token is out \(with p5\)"):
        play(game, "p2 ghost-give beer p4")
    # with no token for any face shown, the Ghost turn is over without a question
    game = p2_becomes_the_ghost()
    game.state.by_id[PlayerId("p5")].ghost_gift = (Face.GATLING,)
    play(game, "p2 roll gatling gatling")
    assert asked(game).player == "p3" and not of(game, GhostTokenGiven)


def test_the_timeout_gives_the_mildest_face_shown_once_to_the_next_living_player() -> None:
    game = p2_becomes_the_ghost()
    play(game, "p2 roll dynamite dynamite")
    assert timeout_command(game.state, asked(game)) == GhostGive(
        player=PlayerId("p2"), face=Face.DYNAMITE, target=PlayerId("p3")
    )
    game = p2_becomes_the_ghost()
    play(game, "p2 roll gatling beer")
    assert timeout_command(game.state, asked(game)) == GhostGive(
        player=PlayerId("p2"), face=Face.BEER, target=PlayerId("p3")
    )


def test_a_ghost_give_survives_its_text_form_and_json() -> None:
    for command in (
        GhostGive(player=PlayerId("p2"), face=Face.BEER, target=PlayerId("p4"), x2=True),
        GhostGive(player=PlayerId("p2"), face=Face.SHOOT2, target=PlayerId("p5")),
    ):
        assert parse_command(str(command)) == command
        assert msgspec.json.decode(msgspec.json.encode(command), type=GhostGive) == command
    assert str(GhostGive(player=PlayerId("p2"), face=Face.BEER, target=PlayerId("p4"), x2=True)) == (
        "p2 ghost-give beer p4 x2"
    )


# --- the Ghost-preset dice ------------------------------------------------------------------------


def test_preset_arrows_are_taken_with_the_first_roll_and_preset_dynamite_counts() -> None:
    game = p2_becomes_the_ghost()
    pile = game.state.arrow_pile
    play(game, "p2 roll arrow arrow", "p2 ghost-give arrow p3 x2")
    play(game, "p3 roll beer beer arrow")  # dice 2-4: three arrows with the first roll in all
    p3 = game.state.by_id[PlayerId("p3")]
    assert p3.arrows == 3 and game.state.arrow_pile == pile - 3
    assert asked(game).decision is Decision.REROLL_OR_STOP and asked(game).dice == (2, 3, 4)
    # the arrows of a reroll are its own: the preset ones are not taken again
    play(game, "p3 reroll 4")
    play(game, "p3 roll beer")
    assert game.state.by_id[PlayerId("p3")].arrows == 3

    game = p2_becomes_the_ghost()
    play(game, "p2 roll dynamite dynamite", "p2 ghost-give dynamite p3 x2")
    play(game, "p3 roll dynamite beer beer")  # D = 3 with the two preset dynamite: rolling stops
    assert [e for e in game.events if isinstance(e, ev.DiceFinalized)][-1].reason == "three_dynamite"  # type: ignore[attr-defined]
    assert of(game, ev.DynamiteExploded)[-1] == ev.DynamiteExploded(player=PlayerId("p3"))


def test_black_jack_never_rerolls_a_preset_dynamite() -> None:
    with_black_jack = ("paul_regret", "jourdonnais", "black_jack", "willy_the_kid", "calamity_janet")
    game = start("p1", at("p2", 1), characters=with_black_jack)
    play(game, "p1 roll shoot1 beer gatling dynamite dynamite", "p1 stop", "p1 target 0 p2", "p1 target 1 p1")
    play(game, "p2 roll dynamite shoot1", "p2 ghost-give dynamite p3")
    play(game, "p3 roll dynamite beer beer beer")
    q = asked(game)
    # Black Jack may reroll his own dynamite (die 1), never the Ghost's (die 0)
    assert q.decision is Decision.REROLL_OR_STOP and q.dice == (1, 2, 3, 4)
    with pytest.raises(IllegalCommand, match="die 1 was set by a Ghost token"):
        game.play(Reroll(player=PlayerId("p3"), dice=(0,)))


def test_tokens_come_back_at_once_when_their_holder_is_eliminated() -> None:
    game = start("p1", at("p2", 1), at("p4", 1))
    play(game, "p1 roll shoot1 beer gatling dynamite dynamite", "p1 stop", "p1 target 0 p2", "p1 target 1 p1")
    play(game, "p2 roll shoot2 shoot2", "p2 ghost-give shoot2 p4 x2")
    # p3 shoots p4 (1 life) before p4's turn: the tokens go back with his elimination
    play(game, "p3 roll shoot1 beer beer dynamite dynamite", "p3 stop", "p3 target 0 p4")
    names = [type(e).__name__ for e in game.events]
    eliminated = names.index("PlayerEliminated", names.index("GhostTokenGiven"))
    assert names[eliminated + 1] == "GhostTokensReturned"
    assert game.state.by_id[PlayerId("p4")].ghost_gift == ()
    assert not of(game, BecameGhost)[1:], "one Ghost per game"
    play(game, "p3 target 1 p3", "p3 target 2 p3")
    # p4 is out: p5 plays next, with all five dice
    assert asked(game) == Awaiting(player=PlayerId("p5"), decision=Decision.ROLL, dice=(0, 1, 2, 3, 4))


# --- the Ghost is out of every other rule ---------------------------------------------------------


def test_the_ghost_is_skipped_in_distances_and_is_no_target() -> None:
    game = p2_becomes_the_ghost()
    s = game.state
    p1, p3, p4 = s.by_id[PlayerId("p1")], s.by_id[PlayerId("p3")], s.by_id[PlayerId("p4")]
    assert distance(s, p1, p3) == 1 and distance(s, p1, p4) == 2
    play(game, "p2 roll beer beer", "p2 ghost-give beer p5")
    play(game, "p3 roll shoot1 shoot1 beer gatling gatling", "p3 stop")
    with pytest.raises(IllegalCommand, match="p2 has been eliminated and cannot be targeted"):
        game.play(ChooseTarget(player=PlayerId("p3"), die=0, target=PlayerId("p2")))
    targets = {c.target for c in game.legal_commands() if isinstance(c, ChooseTarget)}
    assert targets == {"p1", "p4"}, "across the Ghost's seat the Sheriff is p3's neighbour"


def test_the_ghost_wins_with_his_side_and_the_result_encodes_as_before_for_the_others() -> None:
    # p3 (Outlaw) is the Ghost; then p4 (Outlaw) kills the Sheriff: the Outlaws win, p3 with them
    game = start("p2", at("p3", 1), at("p1", 2))
    play(game, "p2 roll shoot1 beer beer dynamite dynamite", "p2 stop", "p2 target 0 p3")
    play(game, "p2 target 1 p2", "p2 target 2 p2")
    assert of(game, BecameGhost) == [BecameGhost(player=PlayerId("p3"), turn=1)]
    play(game, "p3 roll shoot2 beer", "p3 ghost-give shoot2 p4")
    play(game, "p4 roll shoot2 beer beer beer", "p4 stop")  # die 0 is the Ghost's shoot2
    play(game, "p4 target 0 p1", "p4 target 1 p1")
    result = game.result
    assert result is not None and result.winning_side == "outlaws"
    by_player = {r.player: r for r in result.results}
    assert by_player[PlayerId("p3")].won is True and by_player[PlayerId("p3")].ghost is True
    encoded = msgspec.json.decode(msgspec.json.encode(result))
    assert [r.get("ghost") for r in encoded["results"]] == [None, None, True, None, None]
    assert msgspec.json.decode(msgspec.json.encode(result), type=ev.GameEnded) == result
    base = msgspec.structs.replace(by_player[PlayerId("p1")])
    assert base.ghost is msgspec.UNSET and b"ghost" not in msgspec.json.encode(base)
