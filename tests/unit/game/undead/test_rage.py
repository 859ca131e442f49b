"""UA2, Rage cards (RULINGS-expansions §UA2, §2 S4/E4; docs/rulings.md "Rage cards"): who draws
and when, the draw as a random input checked at a table, the reveal at the holder's next turn
with the symbols joining his results, the discards and the reshuffle, the cards of the
eliminated, and the face-down card hidden from everyone but its holder. Five seats:
p1 Sheriff, p2 Renegade, p3 Outlaw, p4 Outlaw, p5 Deputy, clockwise."""

from __future__ import annotations

import pytest

from services.game.engines import engine_for
from services.game.rules.dice import (
    Awaiting,
    Face,
    Game,
    IllegalCommand,
    PlayerId,
    PlayerPosition,
    Position,
    Role,
    Seat,
    fold,
    parse_command,
)
from services.game.rules.dice import events as ev
from services.game.rules.dice.commands import DrawCard
from services.game.rules.dice.modules import ENGINE_MODULES, rules_for
from services.game.rules.dice.undead.rage import (
    RAGE_1,
    RAGE_DECKS,
    RAGE_DRAW,
    UA2,
    RageDrawn,
    RageReturned,
    RageRevealed,
    RageState,
    check_deck,
)
from services.game.rules.dice.vocabulary import ArrowReason, RollingEnd
from services.game.rules.ruleset import ModuleId, ruleset_of

RULESET = ruleset_of(["UA2"])
RULES = rules_for([ModuleId.UA2])
ROLES = (Role.SHERIFF, Role.RENEGADE, Role.OUTLAW, Role.OUTLAW, Role.DEPUTY)
# nobody here asks anything on his own: every question below is the base turn's or a draw
CHARACTERS = ("paul_regret", "jourdonnais", "willy_the_kid", "rose_doolan", "lucky_duke")


def start(active: str = "p1", *players: PlayerPosition) -> Game:
    seats = [
        Seat(player=PlayerId(f"p{i + 1}"), role=role, character=ch)  # type: ignore[arg-type]
        for i, (role, ch) in enumerate(zip(ROLES, CHARACTERS, strict=True))
    ]
    return Game.start(seats, Position(players=players, active_player=PlayerId(active), turn=1), rules=RULES)


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


def p1_shoots_p2_twice() -> Game:
    """Turn 1: the Sheriff's two ``shoot1`` both hit p2 (−2): p2 owes a Rage draw."""
    game = start()
    play(game, "p1 roll shoot1 shoot1 gatling gatling arrow", "p1 stop", "p1 target 0 p2", "p1 target 1 p2")
    return game


def test_the_module_is_registered_with_the_rulings_default_deck() -> None:
    assert ENGINE_MODULES[ModuleId.UA2] is UA2 and RULES.modules == (ModuleId.UA2,)
    deck = RAGE_DECKS[RAGE_1]
    check_deck(deck)
    symbols = [s for _, card in deck for s in card]
    assert len(deck) == 18 and symbols.count(Face.SHOOT1) == 6 and symbols.count(Face.DYNAMITE) == 2
    assert RULESET.data["rage-deck"] == RAGE_1
    with pytest.raises(ValueError, match="18 cards"):
        check_deck(deck[:17])
    with pytest.raises(ValueError, match="base symbols"):
        check_deck([*deck[:17], ("r18", (Face.BULLET,))])


def p1_shoots_p5_twice() -> Game:
    """Turn 1: the Sheriff's two ``shoot1`` both hit p5 (−2): p5 owes a Rage draw, and holds
    the card face down through the turns of p2, p3 and p4."""
    game = start()
    play(game, "p1 roll shoot1 shoot1 gatling gatling arrow", "p1 stop", "p1 target 0 p5", "p1 target 1 p5")
    return game


def test_losing_two_in_a_turn_draws_one_card_face_down_at_its_end() -> None:
    game = p1_shoots_p5_twice()
    q = asked(game)
    assert (q.player, q.decision) == ("p5", RAGE_DRAW)  # between turns, before p2 plays
    engine = engine_for(RULESET)
    question = engine.question(game)
    assert question is not None and question.random and question.describe == "p5 to draw a Rage card"
    need = engine.random_need(game)
    assert need is not None and (need.deck, need.draw) == (RAGE_1, 0)
    assert need.cards == tuple(f"r{i:02d}" for i in range(1, 19))
    assert engine.timeout_default(game) is None  # random: never a default
    game.play(engine.supply(game, need, ("r15",)))
    assert of(game, RageDrawn) == [RageDrawn(player=PlayerId("p5"), card="r15")]
    rage = game.state.rage
    assert rage is not None and rage.hands == {"p5": ["r15"]} and "r15" not in rage.pile
    assert asked(game).decision == "roll" and asked(game).player == "p2"  # then p2's turn
    assert not of(game, RageRevealed)


def test_losses_count_per_turn_gross_and_heals_do_not_undo_them() -> None:
    # p1 hits p2 once (turn 1), p2's own dynamite costs him 1 (turn 2): 1 a turn, no draw
    game = start()
    play(game, "p1 roll shoot1 gatling gatling arrow arrow", "p1 stop", "p1 target 0 p2")
    assert asked(game).player == "p2" and asked(game).decision == "roll"
    play(game, "p2 roll dynamite dynamite dynamite beer shoot2", "p2 target 4 p4", "p2 target 3 p2")
    assert asked(game).player == "p3" and asked(game).decision == "roll"
    # p3 hits p2 twice and heals him once in the same turn: gross −2, so p2 draws
    game = start("p3", at("p2", 6))
    play(game, "p3 roll shoot1 shoot1 beer arrow arrow", "p3 stop", "p3 target 0 p2", "p3 target 1 p2")
    play(game, "p3 target 2 p2")
    q = asked(game)
    assert (q.player, q.decision) == ("p2", RAGE_DRAW)
    assert game.state.player(PlayerId("p2")).life == 5


def test_everyone_who_lost_two_draws_clockwise_from_the_active_player() -> None:
    game = start("p3")
    # Willy the Kid (p3) fires on two gatling (all others −1, Paul Regret p1 immune) and shoots
    # p4 and p2 once each: p4 and p2 lost 2, p5 lost 1
    play(game, "p3 roll gatling gatling shoot1 shoot1 arrow", "p3 stop", "p3 target 2 p4", "p3 target 3 p2")
    q = asked(game)
    assert (q.player, q.decision) == ("p4", RAGE_DRAW)
    play(game, "p4 draw r01")
    q = asked(game)
    assert (q.player, q.decision) == ("p2", RAGE_DRAW)
    play(game, "p2 draw r02")
    assert asked(game).player == "p4" and asked(game).decision == "roll"  # the next turn, p4's


def test_at_a_table_the_draw_is_checked_against_the_cards_there_to_be_drawn() -> None:
    game = p1_shoots_p2_twice()
    with pytest.raises(IllegalCommand, match=r"r19 is not a card of the Rage deck rage-1 \(r01 to r18\)"):
        play(game, "p2 draw r19")
    play(game, "p2 draw r03")
    assert parse_command("p2 draw r03") == DrawCard(player=PlayerId("p2"), card="r03")
    assert str(DrawCard(player=PlayerId("p2"), card="r03")) == "p2 draw r03"


def test_the_cards_are_revealed_at_the_next_turn_and_their_symbols_join_the_results() -> None:
    game = p1_shoots_p2_twice()
    play(game, "p2 draw r15")  # shoot1 beer dynamite
    revealed = of(game, RageRevealed)
    assert revealed == [RageRevealed(player=PlayerId("p2"), cards=("r15",))]
    t = game.state.turn
    assert t is not None and [k.name for k in t.kinds] == ["base"] * 5 + ["rage"] * 3
    assert t.dice[5:] == [Face.SHOOT1, Face.BEER, Face.DYNAMITE] and t.preset == (5, 6, 7)
    assert asked(game).dice == (0, 1, 2, 3, 4)  # the Rage symbols are never rolled
    # two dynamite rolled + the Rage dynamite = 3: rolling stops at once, p2 loses 1
    play(game, "p2 roll dynamite dynamite gatling gatling arrow")
    finalized = of(game, ev.DiceFinalized)[-1]
    assert isinstance(finalized, ev.DiceFinalized) and finalized.reason is RollingEnd.THREE_DYNAMITE
    q = asked(game)
    assert q.decision == "shot_target" and q.dice == (5,)  # the Rage shoot1 is aimed like a die
    play(game, "p2 target 5 p3", "p2 target 6 p2")
    p2, p3 = game.state.player(PlayerId("p2")), game.state.player(PlayerId("p3"))
    assert (p2.life, p3.life) == (7 - 2 - 1 + 1, 8 - 1)  # Jourdonnais 7: −2 shots, −1 dynamite, +1 beer
    rage = game.state.rage
    assert rage is not None and rage.discard == ["r15"] and rage.hands == {}


def test_rage_symbols_are_never_rerolled() -> None:
    game = p1_shoots_p2_twice()
    play(game, "p2 draw r11", "p2 roll shoot1 shoot1 beer beer arrow")  # r11: gatling
    q = asked(game)
    assert q.decision == "reroll_or_stop" and 5 not in q.dice
    with pytest.raises(IllegalCommand):
        play(game, "p2 reroll 5")


def test_rage_arrows_take_tokens_at_the_reveal_before_any_roll() -> None:
    game = p1_shoots_p2_twice()
    play(game, "p2 draw r13")  # arrow
    taken = [e for e in of(game, ev.ArrowTaken) if isinstance(e, ev.ArrowTaken) and e.player == "p2"]
    assert [e.reason for e in taken] == [ArrowReason.RAGE]
    assert game.state.player(PlayerId("p2")).arrows == 1 and asked(game).decision == "roll"
    t = game.state.turn
    assert t is not None and len(t.dice) == 5  # an arrow symbol is spent at once, no die for it


def test_an_eliminated_players_face_down_cards_go_to_the_discards_unseen() -> None:
    game = start("p1", at("p5", 3))
    play(game, "p1 roll shoot1 shoot1 gatling gatling arrow", "p1 stop", "p1 target 0 p5", "p1 target 1 p5")
    play(game, "p5 draw r07")  # p5 at 1 life, holding r07 face down
    play(game, "p2 roll shoot2 gatling beer arrow arrow", "p2 stop", "p2 target 0 p5", "p2 target 2 p2")
    assert of(game, RageReturned) == [RageReturned(player=PlayerId("p5"), count=1)]
    rage = game.state.rage
    assert rage is not None and rage.discard == ["r07"] and rage.hands == {}
    assert not of(game, RageRevealed)
    assert len(rage.pile) + len(rage.discard) + sum(map(len, rage.hands.values())) == 18


def test_an_empty_pile_is_reshuffled_from_the_discards_when_a_draw_comes() -> None:
    rage = RageState.new(RAGE_1)
    rage.discard, rage.pile = rage.pile[:3], []
    rage.hands = {PlayerId("p3"): list(rage.order[3:])}
    assert rage.drawable() == ("r01", "r02", "r03")
    game = p1_shoots_p5_twice()
    state = game.state
    assert state.rage is not None
    state.rage.pile, state.rage.discard = [], ["r04", "r09"]  # as 16 cards in hands would leave it
    state.rage.hands = {PlayerId("p4"): [c for c in state.rage.order if c not in ("r04", "r09")]}
    with pytest.raises(IllegalCommand, match="r05 is in someone's hand"):
        play(game, "p5 draw r05")
    play(game, "p5 draw r09")
    drawn = of(game, RageDrawn)[-1]
    assert drawn == RageDrawn(player=PlayerId("p5"), card="r09", reshuffled=True)
    assert state.rage.pile == ["r04"] and state.rage.discard == []


def test_the_fold_of_the_events_is_the_live_game() -> None:
    game = p1_shoots_p2_twice()
    play(game, "p2 draw r15", "p2 roll dynamite shoot2 gatling gatling arrow", "p2 stop")
    folded = fold(game.events, RULES)
    assert folded.rage == game.state.rage
    assert folded.turn is not None and game.state.turn is not None
    assert folded.turn.dice == game.state.turn.dice and folded.turn.preset == game.state.turn.preset


def test_a_face_down_card_is_its_holders_alone_in_every_event_and_view() -> None:
    game = p1_shoots_p2_twice()
    play(game, "p2 draw r15")
    engine = engine_for(RULESET)
    drawn = of(game, RageDrawn)[0]
    nobody = engine.redact_event(drawn, lambda seat: True)  # no ``own``: hidden from everyone
    assert nobody["card"] is None and nobody["player"] == "p2"
    sheriff = engine.redact_event(drawn, lambda seat: seat != "p1", own=lambda seat: seat == "p1")
    assert sheriff["card"] is None
    holder = engine.redact_event(drawn, lambda seat: seat != "p2", own=lambda seat: seat == "p2")
    assert holder["card"] == "r15"
    revealed = engine.redact_event(of(game, RageRevealed)[0], lambda seat: True)
    assert list(revealed["cards"]) == ["r15"]  # revealed: public


def test_the_view_counts_everyones_cards_and_names_only_the_viewers_own() -> None:
    game = p1_shoots_p5_twice()
    play(game, "p5 draw r02")
    engine = engine_for(RULESET)
    public = engine.view(game, lambda seat: seat == "p1")
    sheriff = engine.view(game, lambda seat: seat == "p1", own=lambda seat: seat == "p1")
    mine = engine.view(game, lambda seat: seat in ("p1", "p5"), own=lambda seat: seat == "p5")
    seen = [next(p for p in view["players"] if p["id"] == "p5") for view in (public, sheriff, mine)]
    assert [(p["rage_count"], p["rage_cards"]) for p in seen] == [(1, None), (1, None), (1, ["r02"])]
    assert public["rage"] == {"deck": RAGE_1, "pile": 17, "discard": []}
    base = engine_for(ruleset_of([]))
    seats = [
        Seat(player=PlayerId(f"p{i + 1}"), role=r, character=c)  # type: ignore[arg-type]
        for i, (r, c) in enumerate(zip(ROLES, CHARACTERS, strict=True))
    ]
    plain = base.view(base.start(seats), lambda seat: True)
    assert "rage" not in plain and "rage_count" not in plain["players"][0]


def test_suzy_lafayette_ignores_the_rage_shots() -> None:
    # p2 is Suzy here: her Rage shoot1 is no die, so with no shot on her dice she gains 2
    seats = [
        Seat(player=PlayerId(f"p{i + 1}"), role=role, character=ch)  # type: ignore[arg-type]
        for i, (role, ch) in enumerate(
            zip(
                ROLES,
                ("paul_regret", "suzy_lafayette", "willy_the_kid", "rose_doolan", "lucky_duke"),
                strict=True,
            )
        )
    ]
    game = Game.start(seats, Position(active_player=PlayerId("p1"), turn=1), rules=RULES)
    play(game, "p1 roll shoot1 shoot1 gatling gatling arrow", "p1 stop", "p1 target 0 p2", "p1 target 1 p2")
    play(game, "p2 draw r01", "p2 roll gatling gatling beer arrow arrow", "p2 stop")
    play(game, "p2 target 5 p3", "p2 target 2 p3")  # the Rage shoot1, then her beer (on p3)
    gains = [
        e for e in of(game, ev.LifeGained) if isinstance(e, ev.LifeGained) and e.cause == "end_of_turn_heal"
    ]
    assert gains and gains[0].player == "p2" and gains[0].amount == 2
