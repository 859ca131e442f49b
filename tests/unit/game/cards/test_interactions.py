"""The "interactions worth a test" of RULINGS-cards.md, played from a rigged shuffle."""

from __future__ import annotations

import pytest

from services.game.rules.cards import commands as cmd
from services.game.rules.cards.errors import IllegalCommand
from services.game.rules.cards.events import CardDrawn, CheckResolved, DrawsOwed, LifeGained
from services.game.rules.cards.vocabulary import TABLE, CardName, CharacterId, Decision, DrawReason, Role

from .rig import P, awaits, do, end_turn, hand, life, names, pass_, play, respond, rigged

SH, DE, OU, RE = Role.SHERIFF, Role.DEPUTY, Role.OUTLAW, Role.RENEGADE
C = CharacterId
FILL = ["bang"] * 8  # phase-1 draws of p2, p3, p4 and the Sheriff's second turn


def _round(game, upto: int = 3) -> None:  # type: ignore[no-untyped-def]
    for i in range(upto + 1):
        end_turn(game, i)


def test_slab_against_jourdonnais_with_a_barrel_two_draws_each_heart_a_missed() -> None:
    seats = [(SH, C.SLAB_THE_KILLER), (OU, C.JOURDONNAIS), (RE, C.WILLY_THE_KID), (OU, C.ROSE_DOOLAN)]
    game, n = rigged(seats, {0: ["bang"], 1: ["barrel"]}, deck=["bang", "bang", *FILL, "beer:6H", "beer:7H"])
    end_turn(game, 0)
    play(game, 1, n["barrel"])
    for i in (1, 2, 3):
        end_turn(game, i)
    play(game, 0, n["bang"], 1)
    do(game, cmd.UseBarrel(player=P[1], card=n["barrel"]))
    assert awaits(game, 1, Decision.RESPOND_SHOT)  # one Missed! effect of the two
    do(game, cmd.UseBarrel(player=P[1]))
    assert life(game, 1) == 4 and awaits(game, 0, Decision.PLAY)


def test_slab_against_lucky_duke_with_a_barrel_one_draw_of_two_flips() -> None:
    seats = [(SH, C.SLAB_THE_KILLER), (OU, C.LUCKY_DUKE), (RE, C.WILLY_THE_KID), (OU, C.ROSE_DOOLAN)]
    game, n = rigged(seats, {0: ["bang"], 1: ["barrel"]}, deck=["bang", "bang", *FILL, "beer:6H", "beer:7H"])
    end_turn(game, 0)
    play(game, 1, n["barrel"])
    for i in (1, 2, 3):
        end_turn(game, i)
    play(game, 0, n["bang"], 1)
    do(game, cmd.UseBarrel(player=P[1], card=n["barrel"]))
    assert awaits(game, 1, Decision.DRAW_RESULT)
    do(game, cmd.ChooseDrawResult(player=P[1], card=n["beer:7H"]))
    assert awaits(game, 1, Decision.RESPOND_SHOT)
    with pytest.raises(IllegalCommand):
        do(game, cmd.UseBarrel(player=P[1], card=n["barrel"]))
    pass_(game, 1)
    assert life(game, 1) == 3


def test_slab_against_calamity_any_two_of_missed_and_bang() -> None:
    seats = [(SH, C.SLAB_THE_KILLER), (OU, C.CALAMITY_JANET), (RE, C.WILLY_THE_KID), (OU, C.ROSE_DOOLAN)]
    game, n = rigged(seats, {0: ["bang"], 1: ["missed", "bang:2C"]})
    play(game, 0, n["bang"], 1)
    respond(game, 1, n["bang:2C"])
    respond(game, 1, n["missed"])
    assert life(game, 1) == 4


def test_dynamite_before_jail() -> None:
    seats = [(SH, C.SID_KETCHUM), (OU, C.VULTURE_SAM), (RE, C.WILLY_THE_KID), (OU, C.SLAB_THE_KILLER)]
    game, n = rigged(
        seats,
        {0: ["dynamite", "jail"]},
        # p1's draw, p2-p4's draws, p1's Dynamite draw!, p1's draw, p2's Dynamite and Jail draw!s
        deck=["bang", "bang", *FILL[:6], "missed:10C", "bang", "bang", "missed:JC", "beer:6H"],
    )
    play(game, 0, n["dynamite"])
    _round(game)
    assert game.state.player(P[1]).in_play == [n["dynamite"]]  # it did not explode on 10♣
    play(game, 0, n["jail"], 1)
    end_turn(game, 0)
    checks = [e.reason for e in game.events if isinstance(e, CheckResolved)]
    assert checks[-2:] == ["dynamite", "jail"]
    assert awaits(game, 1, Decision.PLAY)  # Jail escaped on the 6♥


def test_dynamite_on_bart_at_three_one_beer_then_he_draws_three() -> None:
    seats = [(SH, C.BART_CASSIDY), (OU, C.VULTURE_SAM), (RE, C.WILLY_THE_KID), (OU, C.SLAB_THE_KILLER)]
    game, n = rigged(
        seats,
        {0: ["dynamite", "duel", "duel", "beer"], 1: ["bang:2C", "bang:3C"]},
        deck=["bang", "bang", "bang", "bang", *["bang"] * 6, "missed:2S", "barrel", "scope", "mustang"],
    )
    for k, answer in enumerate(("bang:2C", "bang:3C")):
        play(game, 0, n["duel" if k == 0 else "duel#2"], 1)
        respond(game, 1, n[answer])
        pass_(game, 0)
    assert life(game, 0) == 3
    play(game, 0, n["dynamite"])
    _round(game)
    assert life(game, 0) == 0 and awaits(game, 0, Decision.DYING)
    events = respond(game, 0, n["beer"])
    assert life(game, 0) == 1
    gained = next(i for i, e in enumerate(events) if isinstance(e, LifeGained))
    owed = next(i for i, e in enumerate(events) if isinstance(e, DrawsOwed))
    assert gained < owed and events[owed] == DrawsOwed(player=P[0], count=3, reason=DrawReason.BART_CASSIDY)
    # then his phase 1 (2 more cards)
    assert hand(game, 0)[-5:-2] == [n["barrel"], n["scope"], n["mustang"]]


def test_pedro_after_a_jail_escape_may_take_the_jail() -> None:
    seats = [(SH, C.SID_KETCHUM), (OU, C.PEDRO_RAMIREZ), (RE, C.WILLY_THE_KID), (OU, C.SLAB_THE_KILLER)]
    game, n = rigged(seats, {0: ["jail"]}, deck=["bang", "bang", "beer:6H"])
    play(game, 0, n["jail"], 1)
    end_turn(game, 0)
    assert awaits(game, 1, Decision.DRAW_SOURCE)
    do(game, cmd.ChooseDrawSource(player=P[1], from_discard=True))
    assert n["jail"] in hand(game, 1)


def test_panic_on_a_volcanic_brings_back_the_limit_the_count_stays() -> None:
    seats = [(SH, C.SID_KETCHUM), (OU, C.VULTURE_SAM), (RE, C.WILLY_THE_KID), (OU, C.SLAB_THE_KILLER)]
    game, n = rigged(seats, {0: ["volcanic", "bang", "bang", "panic"]})
    play(game, 0, n["volcanic"])
    play(game, 0, n["bang"], 1)
    pass_(game, 1)
    play(game, 0, n["panic"], 0, n["volcanic"])
    with pytest.raises(IllegalCommand, match="one BANG!"):
        play(game, 0, n["bang#2"], 1)


def test_vulture_sam_sheriff_kills_a_deputy_takes_the_cards_then_discards_everything() -> None:
    seats = [
        (SH, C.VULTURE_SAM),
        (DE, C.SID_KETCHUM),
        (RE, C.WILLY_THE_KID),
        (OU, C.SLAB_THE_KILLER),
        (OU, C.BART_CASSIDY),
    ]
    game, n = rigged(seats, {0: ["volcanic", "bang", "bang", "bang", "bang"], 1: ["beer", "barrel"]})
    play(game, 0, n["volcanic"])
    for k in range(4):
        play(game, 0, n["bang" if k == 0 else f"bang#{k + 1}"], 1)
        pass_(game, 1)
    deputy_cards = hand(game, 1)
    pass_(game, 1)
    s = game.state
    assert s.player(P[0]).hand == [] and s.player(P[0]).in_play == []
    assert set(deputy_cards) <= set(s.discard)
    taken = [e for e in game.events if type(e).__name__ == "CardTaken"]
    assert {e.card for e in taken} == set(deputy_cards)  # type: ignore[attr-defined]


def test_calamity_missed_as_bang_then_volcanic_allows_more() -> None:
    seats = [(SH, C.CALAMITY_JANET), (OU, C.VULTURE_SAM), (RE, C.WILLY_THE_KID), (OU, C.SLAB_THE_KILLER)]
    game, n = rigged(seats, {0: ["missed", "volcanic", "bang"]})
    play(game, 0, n["missed"], 1)
    pass_(game, 1)
    play(game, 0, n["volcanic"])
    play(game, 0, n["bang"], 3)
    assert awaits(game, 3, Decision.RESPOND_SHOT)


def test_el_gringo_takes_suzys_last_card_and_suzy_draws_after() -> None:
    seats = [(SH, C.SUZY_LAFAYETTE), (OU, C.EL_GRINGO), (RE, C.WILLY_THE_KID), (OU, C.SLAB_THE_KILLER)]
    game, n = rigged(
        seats,
        {0: ["bang", "beer", "beer", "beer", "beer"]},
        deck=["beer", "saloon", "barrel", "scope"],
    )
    for k in range(5):
        play(game, 0, n["beer" if k == 0 else f"beer#{k + 1}"])
    play(game, 0, n["saloon"])
    assert hand(game, 0) == [n["bang"]]
    play(game, 0, n["bang"], 1)
    assert hand(game, 0) == [n["barrel"]]  # her last card played: she drew before El Gringo answers
    pass_(game, 1)
    do(game, cmd.PickRandomCard(player=TABLE, card=n["barrel"]))
    assert hand(game, 1)[-1] == n["barrel"]
    assert hand(game, 0) == [n["scope"]]  # and again, after El Gringo's take
    suzy = [e for e in game.events if isinstance(e, CardDrawn) and e.reason is DrawReason.SUZY_LAFAYETTE]
    assert len(suzy) == 2


def test_kit_carlsons_put_back_card_is_the_next_one_drawn() -> None:
    seats = [(SH, C.KIT_CARLSON), (OU, C.VULTURE_SAM), (RE, C.WILLY_THE_KID), (OU, C.SLAB_THE_KILLER)]
    game, n = rigged(seats, deck=["barrel", "scope", "jail"])
    do(game, cmd.KitReturn(player=P[0], card=n["scope"]))
    assert names(hand(game, 0)[-2:]) == [CardName.BARREL, CardName.JAIL]
    end_turn(game, 0)
    assert n["scope"] in hand(game, 1)


def test_sheriffs_gatling_kills_an_outlaw_then_a_deputy_draws_three_then_discards_everything() -> None:
    seats = [
        (SH, C.SID_KETCHUM),
        (OU, C.WILLY_THE_KID),
        (DE, C.SLAB_THE_KILLER),
        (RE, C.ROSE_DOOLAN),
        (OU, C.PAUL_REGRET),
    ]
    game, n = rigged(
        seats,
        {0: ["volcanic", "bang", "bang", "bang", "duel"]},
        deck=["duel", "duel", *["bang"] * 8, "gatling", "bang", "barrel", "scope", "mustang"],
    )
    play(game, 0, n["volcanic"])
    for k in range(3):
        play(game, 0, n["bang" if k == 0 else f"bang#{k + 1}"], 1)
        pass_(game, 1)
        play(game, 0, n["duel" if k == 0 else f"duel#{k + 1}"], 2)
        pass_(game, 2)
    assert (life(game, 1), life(game, 2)) == (1, 1)
    for i in range(5):
        end_turn(game, i)
    play(game, 0, n["gatling"])
    for i in (1, 2, 3, 4):
        pass_(game, i)
    assert awaits(game, 1, Decision.DYING)
    pass_(game, 1)
    assert awaits(game, 2, Decision.DYING)
    events = pass_(game, 2)
    kinds = [type(e).__name__ for e in events]
    # the Outlaw first: his elimination, the Sheriff's 3 cards; then the Deputy's, the penalty
    first, second = (i for i, k in enumerate(kinds) if k == "PlayerEliminated")
    drawn = [i for i, e in enumerate(events) if isinstance(e, CardDrawn) and e.reason is DrawReason.REWARD]
    assert first < drawn[0] and drawn[-1] < second and len(drawn) == 3
    p1 = game.state.player(P[0])
    assert p1.hand == [] and p1.in_play == []
    assert {n["barrel"], n["scope"], n["mustang"]} <= set(game.state.discard)
    assert not game.is_over and awaits(game, 0, Decision.PLAY)
