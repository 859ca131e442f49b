"""Layer 2: one test (or a few) per card. Seats (rig.DEFAULT_SEATS): p1 Sheriff (5 life), p2 and
p4 Outlaws beside him, p3 the Renegade two seats away. The deck's first two cards after the deal
are the Sheriff's phase-1 draw."""

from __future__ import annotations

import pytest

from services.game.rules.cards import commands as cmd
from services.game.rules.cards.deck import name_of
from services.game.rules.cards.errors import IllegalCommand, NotAwaited
from services.game.rules.cards.events import CardResolved, CheckResolved, LifeLost, PlayerEliminated
from services.game.rules.cards.vocabulary import TABLE, CardName, Decision, Role

from .rig import DEFAULT_SEATS, P, awaits, do, end_turn, hand, life, pass_, play, respond, rigged

FILL8 = ["bang"] * 8


def test_bang_hits_the_target_for_one_and_is_discarded() -> None:
    game, n = rigged(DEFAULT_SEATS, {0: ["bang", "bang"], 1: ["missed"]})
    play(game, 0, n["bang"], 1)
    q = game.awaiting
    assert q is not None and q.player == P[1] and q.decision is Decision.RESPOND_SHOT and q.count == 1
    events = pass_(game, 1)
    assert LifeLost(player=P[1], amount=1, source=P[0]) in events
    assert life(game, 1) == 3
    assert game.state.discard[-1] == n["bang"]
    assert awaits(game, 0, Decision.PLAY)


def test_only_one_bang_per_turn() -> None:
    game, n = rigged(DEFAULT_SEATS, {0: ["bang", "bang"]})
    play(game, 0, n["bang"], 1)
    pass_(game, 1)
    with pytest.raises(IllegalCommand, match="one BANG!"):
        play(game, 0, n["bang#2"], 3)


def test_bang_needs_the_target_in_range() -> None:
    game, n = rigged(DEFAULT_SEATS, {0: ["bang"]})
    with pytest.raises(IllegalCommand, match="out of range"):
        play(game, 0, n["bang"], 2)
    with pytest.raises(IllegalCommand):
        play(game, 0, n["bang"], 0)
    with pytest.raises(IllegalCommand):
        play(game, 0, n["bang"])


def test_missed_cancels_a_bang_and_cannot_be_played_in_phase_two() -> None:
    game, n = rigged(DEFAULT_SEATS, {0: ["bang", "missed"], 1: ["missed"]})
    with pytest.raises(IllegalCommand, match="Missed!"):
        play(game, 0, n["missed"])
    play(game, 0, n["bang"], 1)
    with pytest.raises(IllegalCommand):
        respond(game, 1, hand(game, 1)[1])  # a filler BANG!: not a Missed!
    respond(game, 1, n["missed#2"])
    assert life(game, 1) == 4
    assert game.state.discard[-2:] == [n["missed#2"], n["bang"]]  # the response first, then the BANG!


def _hurt_the_sheriff(game, n) -> None:  # type: ignore[no-untyped-def]
    """p1 loses his own Duel against p2 (who answers with a BANG!): p1 at 4."""
    play(game, 0, n["duel"], 1)
    respond(game, 1, n["bang#9"])
    pass_(game, 0)


def test_beer_gives_back_one_life_never_above_the_maximum() -> None:
    game, n = rigged(DEFAULT_SEATS, {0: ["beer", "beer", "duel"], 1: ["bang:2C"]})
    n["bang#9"] = n["bang:2C"]
    play(game, 0, n["beer"])
    assert life(game, 0) == 5  # at full life: legal, no effect
    _hurt_the_sheriff(game, n)
    assert life(game, 0) == 4
    play(game, 0, n["beer#2"])
    assert life(game, 0) == 5


def test_saloon_heals_every_living_player_by_one() -> None:
    game, n = rigged(DEFAULT_SEATS, {0: ["saloon", "bang", "duel"], 1: ["bang:2C"]})
    n["bang#9"] = n["bang:2C"]
    _hurt_the_sheriff(game, n)
    play(game, 0, n["bang"], 3)
    pass_(game, 3)
    assert (life(game, 0), life(game, 3)) == (4, 3)
    play(game, 0, n["saloon"])
    assert [life(game, i) for i in range(4)] == [5, 4, 4, 4]


@pytest.mark.parametrize(("card", "count"), [("stagecoach", 2), ("wells_fargo", 3)])
def test_stagecoach_and_wells_fargo_draw_from_the_deck(card: str, count: int) -> None:
    game, n = rigged(DEFAULT_SEATS, {0: [card]}, deck=["bang", "bang", "barrel", "scope", "mustang"])
    before = len(hand(game, 0))
    play(game, 0, n[card])
    assert len(hand(game, 0)) == before - 1 + count
    assert hand(game, 0)[-count:] == [n["barrel"], n["scope"], n["mustang"]][:count]
    assert game.state.discard[-1] == n[card]  # discarded after its effect


def test_general_store_reveals_one_card_per_living_player_picked_clockwise_from_its_player() -> None:
    game, n = rigged(
        DEFAULT_SEATS, {0: ["general_store"]}, deck=["bang", "bang", "barrel", "scope", "mustang", "jail"]
    )
    play(game, 0, n["general_store"])
    assert sorted(game.state.store) == sorted([n["barrel"], n["scope"], n["mustang"], n["jail"]])
    assert awaits(game, 0, Decision.STORE_PICK)
    with pytest.raises(NotAwaited):
        do(game, cmd.PickStoreCard(player=P[1], card=n["scope"]))
    do(game, cmd.PickStoreCard(player=P[0], card=n["scope"]))
    do(game, cmd.PickStoreCard(player=P[1], card=n["barrel"]))
    with pytest.raises(IllegalCommand):
        do(game, cmd.PickStoreCard(player=P[2], card=n["scope"]))
    do(game, cmd.PickStoreCard(player=P[2], card=n["jail"]))
    # the last player's single card is taken for him
    assert n["mustang"] in hand(game, 3) and game.state.store == []
    assert game.state.discard[-1] == n["general_store"]
    assert awaits(game, 0, Decision.PLAY)


def test_panic_takes_a_random_card_from_a_hand_at_distance_one() -> None:
    game, n = rigged(DEFAULT_SEATS, {0: ["panic", "panic"], 1: ["beer"]})
    with pytest.raises(IllegalCommand, match="distance 1"):
        play(game, 0, n["panic"], 2)
    with pytest.raises(IllegalCommand):
        play(game, 0, n["panic"], 0)  # your own hand
    play(game, 0, n["panic"], 1)
    q = game.awaiting
    assert (
        q is not None and q.player == TABLE and q.decision is Decision.RANDOM_CARD and q.from_player == P[1]
    )
    with pytest.raises(IllegalCommand):
        do(game, cmd.PickRandomCard(player=TABLE, card=n["panic#2"]))
    do(game, cmd.PickRandomCard(player=TABLE, card=n["beer"]))
    assert n["beer"] in hand(game, 0) and n["beer"] not in hand(game, 1)
    assert game.state.discard[-1] == n["panic"]


def test_panic_takes_a_chosen_card_in_play_even_ones_own() -> None:
    game, n = rigged(DEFAULT_SEATS, {0: ["panic", "barrel"]})
    play(game, 0, n["barrel"])
    play(game, 0, n["panic"], 0, n["barrel"])
    assert n["barrel"] in hand(game, 0) and game.state.player(P[0]).in_play == []


def test_cat_balou_discards_at_any_distance() -> None:
    game, n = rigged(DEFAULT_SEATS, {0: ["cat_balou", "cat_balou", "mustang"], 2: ["beer"]})
    play(game, 0, n["cat_balou"], 2)
    do(game, cmd.PickRandomCard(player=TABLE, card=n["beer"]))
    assert n["beer"] not in hand(game, 2) and game.state.discard[-2:] == [n["beer"], n["cat_balou"]]
    play(game, 0, n["mustang"])
    play(game, 0, n["cat_balou#2"], 0, n["mustang"])
    assert game.state.player(P[0]).in_play == [] and n["mustang"] in game.state.discard


def test_gatling_shoots_every_other_player_from_the_left_and_is_not_a_bang() -> None:
    game, n = rigged(DEFAULT_SEATS, {0: ["gatling", "bang"], 2: ["missed"]})
    play(game, 0, n["gatling"])
    assert awaits(game, 1, Decision.RESPOND_SHOT)
    pass_(game, 1)
    assert awaits(game, 2, Decision.RESPOND_SHOT)
    respond(game, 2, n["missed"])
    assert awaits(game, 3, Decision.RESPOND_SHOT)
    pass_(game, 3)
    assert [life(game, i) for i in range(4)] == [5, 3, 4, 3]
    play(game, 0, n["bang"], 1)  # the Gatling did not use the turn's BANG!
    assert awaits(game, 1, Decision.RESPOND_SHOT)


def test_indians_each_other_player_discards_a_bang_or_loses_one() -> None:
    game, n = rigged(DEFAULT_SEATS, {0: ["indians"], 1: ["bang:2C"], 3: ["missed"]})
    play(game, 0, n["indians"])
    assert awaits(game, 1, Decision.RESPOND_INDIANS)
    respond(game, 1, n["bang:2C"])
    pass_(game, 2)
    with pytest.raises(IllegalCommand):
        respond(game, 3, n["missed"])
    with pytest.raises(NotAwaited):
        do(game, cmd.UseBarrel(player=P[3]))
    pass_(game, 3)
    assert [life(game, i) for i in range(4)] == [5, 4, 3, 3]


def test_duel_alternates_from_the_target_and_the_first_who_does_not_answer_loses_one() -> None:
    game, n = rigged(DEFAULT_SEATS, {0: ["duel", "bang"], 2: ["bang:2C"]})
    play(game, 0, n["duel"], 2)  # any distance
    assert awaits(game, 2, Decision.RESPOND_DUEL)
    respond(game, 2, n["bang:2C"])
    assert awaits(game, 0, Decision.RESPOND_DUEL)
    respond(game, 0, n["bang"])
    assert awaits(game, 2, Decision.RESPOND_DUEL)
    events = pass_(game, 2)
    assert LifeLost(player=P[2], amount=1, source=P[0]) in events
    assert life(game, 2) == 3 and game.state.bangs_played == 0  # BANG!s in a Duel are not played


def _barrel_in_front_of_the_sheriff(flip: str) -> tuple:  # type: ignore[type-arg]
    game, n = rigged(
        DEFAULT_SEATS, {0: ["barrel"], 1: ["bang:2C"]}, deck=["bang", "bang", "bang", "bang", flip]
    )
    play(game, 0, n["barrel"])
    end_turn(game, 0)
    play(game, 1, n["bang:2C"], 0)
    return game, n


def test_barrel_a_heart_is_a_missed() -> None:
    game, n = _barrel_in_front_of_the_sheriff("beer:6H")
    assert awaits(game, 0, Decision.RESPOND_SHOT)
    events = do(game, cmd.UseBarrel(player=P[0], card=n["barrel"]))
    assert CheckResolved(player=P[0], reason="barrel", card=n["beer:6H"], success=True) in events  # type: ignore[arg-type]
    assert life(game, 0) == 5 and awaits(game, 1, Decision.PLAY)


def test_barrel_otherwise_the_player_may_still_respond_and_draws_once_per_shot() -> None:
    game, n = _barrel_in_front_of_the_sheriff("bang:2D")
    do(game, cmd.UseBarrel(player=P[0], card=n["barrel"]))
    assert awaits(game, 0, Decision.RESPOND_SHOT)
    with pytest.raises(IllegalCommand):
        do(game, cmd.UseBarrel(player=P[0], card=n["barrel"]))
    pass_(game, 0)
    assert life(game, 0) == 4


def test_mustang_puts_its_owner_out_of_a_colts_reach() -> None:
    game, n = rigged(DEFAULT_SEATS, {0: ["mustang", "mustang"], 1: ["bang:2C"]})
    play(game, 0, n["mustang"])
    with pytest.raises(IllegalCommand, match="already"):
        play(game, 0, n["mustang#2"])  # no two cards of one name in front of a player
    end_turn(game, 0)
    with pytest.raises(IllegalCommand, match="out of range"):
        play(game, 1, n["bang:2C"], 0)


def test_scope_brings_a_player_two_seats_away_into_reach() -> None:
    game, n = rigged(DEFAULT_SEATS, {0: ["scope", "bang"]})
    with pytest.raises(IllegalCommand):
        play(game, 0, n["bang"], 2)
    play(game, 0, n["scope"])
    play(game, 0, n["bang"], 2)
    assert awaits(game, 2, Decision.RESPOND_SHOT)


def test_a_new_weapon_replaces_the_old_one_a_same_named_one_is_refused() -> None:
    game, n = rigged(DEFAULT_SEATS, {0: ["schofield", "schofield", "remington", "bang"]})
    play(game, 0, n["schofield"])
    with pytest.raises(IllegalCommand):
        play(game, 0, n["schofield#2"])
    play(game, 0, n["remington"])
    assert game.state.player(P[0]).in_play == [n["remington"]]
    assert game.state.discard[-1] == n["schofield"]
    play(game, 0, n["bang"], 2)
    assert awaits(game, 2, Decision.RESPOND_SHOT)


def test_volcanic_allows_any_number_of_bangs() -> None:
    game, n = rigged(DEFAULT_SEATS, {0: ["volcanic", "bang", "bang", "bang"]})
    play(game, 0, n["volcanic"])
    for k, target in ((1, 1), (2, 3), (3, 1)):
        play(game, 0, n["bang" if k == 1 else f"bang#{k}"], target)
        pass_(game, target)
    assert (life(game, 1), life(game, 3)) == (2, 3)


def test_jail_not_on_the_sheriff_nor_twice_on_one_player() -> None:
    game, n = rigged(DEFAULT_SEATS, {0: ["jail", "jail"]})
    with pytest.raises(IllegalCommand, match="Sheriff"):
        play(game, 0, n["jail"], 0)
    play(game, 0, n["jail"], 2)
    assert n["jail"] in game.state.player(P[2]).in_play
    with pytest.raises(IllegalCommand, match="already"):
        play(game, 0, n["jail#2"], 2)


@pytest.mark.parametrize(("flip", "escaped"), [("beer:6H", True), ("bang:2D", False)])
def test_jail_draw_a_heart_escapes_otherwise_the_turn_is_skipped(flip: str, escaped: bool) -> None:
    game, n = rigged(DEFAULT_SEATS, {0: ["jail"]}, deck=["bang", "bang", flip])
    play(game, 0, n["jail"], 1)
    end_turn(game, 0)
    assert game.state.player(P[1]).in_play == []
    assert game.state.discard[-2:] == [n[flip], n["jail"]]  # the draw! card first, then the Jail
    if escaped:
        assert awaits(game, 1, Decision.PLAY) and len(hand(game, 1)) == 6
    else:
        assert awaits(game, 2, Decision.PLAY) and len(hand(game, 1)) == 4


@pytest.mark.parametrize(
    ("flip", "explodes"), [("missed:2S", True), ("winchester", True), ("missed:10C", False)]
)
def test_dynamite_explodes_on_two_to_nine_of_spades_otherwise_passes_left(flip: str, explodes: bool) -> None:
    game, n = rigged(DEFAULT_SEATS, {0: ["dynamite"]}, deck=["bang", "bang", *["bang"] * 6, flip])
    play(game, 0, n["dynamite"])
    for i in range(4):
        end_turn(game, i)
    if explodes:
        assert life(game, 0) == 2
        assert LifeLost(player=P[0], amount=3, source=None) in game.events
        assert n["dynamite"] in game.state.discard
        assert awaits(game, 0, Decision.PLAY)
    else:
        assert life(game, 0) == 5
        assert game.state.player(P[1]).in_play == [n["dynamite"]]
    assert name_of(n["dynamite"]) is CardName.DYNAMITE


def test_dynamite_can_kill_its_holder_whose_turn_ends() -> None:
    seats = list(DEFAULT_SEATS)
    game, n = rigged(
        seats, {0: ["dynamite", "duel", "duel"], 1: ["bang:2C", "bang:3C"]}, deck=[*FILL8, "missed:2S"]
    )
    n["bang#9"] = n["bang:2C"]
    _hurt_the_sheriff(game, n)
    play(game, 0, n["duel#2"], 1)
    respond(game, 1, n["bang:3C"])
    pass_(game, 0)
    assert life(game, 0) == 3
    play(game, 0, n["dynamite"])
    for i in range(4):
        end_turn(game, i)
    # -3: at 0 the Sheriff's dying window (he holds cards, 4 living: he is asked)
    assert awaits(game, 0, Decision.DYING)
    pass_(game, 0)
    eliminated = [e for e in game.events if isinstance(e, PlayerEliminated)]
    assert eliminated[0].player == P[0] and eliminated[0].role is Role.SHERIFF and eliminated[0].by is None
    assert game.is_over and game.result is not None and game.result.winner == "outlaws"


def test_brown_cards_go_to_the_discard_pile_after_their_effect() -> None:
    game, n = rigged(DEFAULT_SEATS, {0: ["bang"]})
    events = play(game, 0, n["bang"], 1)
    assert not any(isinstance(e, CardResolved) for e in events)  # still set aside: p2 answers
    assert n["bang"] not in game.state.discard
    events = pass_(game, 1)
    assert CardResolved(card=n["bang"]) in events


def test_panic_counts_scope_but_not_weapons() -> None:
    game, n = rigged(DEFAULT_SEATS, {0: ["panic", "winchester", "scope"], 2: ["beer"]})
    play(game, 0, n["winchester"])
    with pytest.raises(IllegalCommand, match="distance 1"):
        play(game, 0, n["panic"], 2)
    play(game, 0, n["scope"])
    play(game, 0, n["panic"], 2)
    assert awaits(game, None, Decision.RANDOM_CARD)


def test_jail_may_be_put_in_front_of_oneself_unless_sheriff() -> None:
    seats = [(Role.SHERIFF, DEFAULT_SEATS[0][1]), *DEFAULT_SEATS[1:]]
    game, n = rigged(seats, {1: ["jail"]})
    end_turn(game, 0)
    play(game, 1, n["jail"], 1)
    assert n["jail"] in game.state.player(P[1]).in_play


def test_barrel_works_against_gatling() -> None:
    game, n = rigged(
        DEFAULT_SEATS, {0: ["barrel"], 1: ["gatling"]}, deck=["bang", "bang", "bang", "bang", "beer:6H"]
    )
    play(game, 0, n["barrel"])
    end_turn(game, 0)
    play(game, 1, n["gatling"])
    pass_(game, 2)
    pass_(game, 3)
    assert awaits(game, 0, Decision.RESPOND_SHOT)
    do(game, cmd.UseBarrel(player=P[0], card=n["barrel"]))
    assert life(game, 0) == 5 and awaits(game, 1, Decision.PLAY)
