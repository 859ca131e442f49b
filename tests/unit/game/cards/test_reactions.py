"""Layer 3: out-of-turn reactions, dying windows, eliminations, penalties and rewards, the end
of the game, automatic passes (only when public information proves there is no other option)."""

from __future__ import annotations

import pytest

from services.game.rules.cards import commands as cmd
from services.game.rules.cards.errors import IllegalCommand
from services.game.rules.cards.events import CardDrawn, Passed, PlayerEliminated, Seat
from services.game.rules.cards.game import Game
from services.game.rules.cards.outcome import winner
from services.game.rules.cards.state import GameState, PlayerState
from services.game.rules.cards.vocabulary import CharacterId, Decision, DrawReason, Role, Side

from .rig import DEFAULT_SEATS, P, awaits, do, hand, life, pass_, play, respond, rigged

SH, DE, OU, RE = Role.SHERIFF, Role.DEPUTY, Role.OUTLAW, Role.RENEGADE
C = CharacterId


def _volcanic(hand: list[str]) -> list[str]:
    return ["volcanic", *hand]


def _shoot(game: Game, n: dict[str, int], target: int, times: int, first: int = 1) -> None:
    for k in range(first, first + times):
        play(game, 0, n["bang" if k == 1 else f"bang#{k}"], target)  # type: ignore[arg-type]
        q = game.awaiting
        if q is not None and q.decision is Decision.RESPOND_SHOT:
            pass_(game, target)


def test_a_player_with_no_card_and_no_barrel_is_passed_for_automatically() -> None:
    seats = [(SH, C.SID_KETCHUM), (OU, C.VULTURE_SAM), (RE, C.WILLY_THE_KID), (OU, C.SUZY_LAFAYETTE)]
    game, n = rigged(seats, {0: ["bang", "panic", "panic", "panic", "panic"], 1: ["missed"]})
    # empty p2's hand with Panic! (4 cards), then shoot him: nothing to decide, an automatic pass
    for k in range(4):
        play(game, 0, n["panic" if k == 0 else f"panic#{k + 1}"], 1)
        do(game, cmd.PickRandomCard(player="table", card=hand(game, 1)[0]))  # type: ignore[arg-type]
    assert hand(game, 1) == []
    events = play(game, 0, n["bang"], 1)
    assert Passed(player=P[1], automatic=True) in events
    assert life(game, 1) == 3


def test_a_player_with_cards_is_asked_even_if_none_could_help() -> None:
    game, n = rigged(DEFAULT_SEATS, {0: ["bang"], 1: ["beer", "beer", "beer", "beer"]})
    play(game, 0, n["bang"], 1)
    assert awaits(game, 1, Decision.RESPOND_SHOT)  # waiting never reveals that he holds no Missed!


def test_the_dying_window_beer_saves() -> None:
    game, n = rigged(DEFAULT_SEATS, {0: _volcanic(["bang"] * 4), 1: ["beer"]})
    play(game, 0, n["volcanic"])
    _shoot(game, n, 1, 4)
    assert life(game, 1) == 0 and awaits(game, 1, Decision.DYING)
    with pytest.raises(IllegalCommand):
        respond(game, 1, hand(game, 1)[1])  # a BANG!: only a Beer saves
    respond(game, 1, n["beer"])
    assert life(game, 1) == 1 and game.state.player(P[1]).alive
    assert awaits(game, 0, Decision.PLAY)


def test_several_beers_when_life_fell_below_zero() -> None:
    # the seed's example: 2 life, Dynamite -3 -> two Beers leave him at 1; one is not enough
    game, n = rigged(
        DEFAULT_SEATS,
        {0: ["dynamite", "duel", "duel", "duel", "beer"], 1: ["bang:2C", "bang:3C", "bang:4C"]},
        deck=["beer", "bang", *["bang"] * 6, "missed:2S"],
    )
    for k in range(3):
        play(game, 0, n["duel" if k == 0 else f"duel#{k + 1}"], 1)
        respond(game, 1, n[["bang:2C", "bang:3C", "bang:4C"][k]])
        pass_(game, 0)
    play(game, 0, n["dynamite"])
    from .rig import end_turn

    for i in range(4):
        end_turn(game, i)
    assert life(game, 0) == -1 and awaits(game, 0, Decision.DYING)
    assert game.awaiting is not None and game.awaiting.count == 2  # two Beers needed
    respond(game, 0, n["beer"])
    assert life(game, 0) == 0 and awaits(game, 0, Decision.DYING)
    respond(game, 0, n["beer#2"])
    assert life(game, 0) == 1 and awaits(game, 0, Decision.PLAY)


def test_dying_with_no_beer_saved_is_eliminated_and_the_outlaw_reward_is_three_cards() -> None:
    game, n = rigged(
        DEFAULT_SEATS, {0: _volcanic(["bang"] * 4)}, deck=["bang", "bang", "barrel", "scope", "jail"]
    )
    play(game, 0, n["volcanic"])
    _shoot(game, n, 1, 4)
    before = len(hand(game, 0))
    pass_(game, 1)
    out = [e for e in game.events if isinstance(e, PlayerEliminated)]
    assert out == [PlayerEliminated(player=P[1], role=OU, by=P[0], cause="card")]  # type: ignore[arg-type]
    assert hand(game, 0)[before:] == [n["barrel"], n["scope"], n["jail"]]
    rewards = [e for e in game.events if isinstance(e, CardDrawn) and e.reason is DrawReason.REWARD]
    assert len(rewards) == 3
    p2 = game.state.player(P[1])
    assert p2.hand == [] and p2.in_play == [] and not p2.alive
    assert awaits(game, 0, Decision.PLAY) and not game.is_over


def test_vulture_sam_takes_the_eliminated_players_cards() -> None:
    seats = [(SH, C.SID_KETCHUM), (OU, C.BART_CASSIDY), (RE, C.WILLY_THE_KID), (OU, C.VULTURE_SAM)]
    game, n = rigged(seats, {0: _volcanic(["bang"] * 4), 1: ["beer"]})
    play(game, 0, n["volcanic"])
    _shoot(game, n, 1, 4)
    cards = hand(game, 1)
    pass_(game, 1)
    assert set(cards) <= set(hand(game, 3))


def test_the_sheriff_who_kills_a_deputy_discards_all_his_cards() -> None:
    seats = [
        (SH, C.SID_KETCHUM),
        (DE, C.VULTURE_SAM),
        (RE, C.WILLY_THE_KID),
        (OU, C.SLAB_THE_KILLER),
        (OU, C.PAUL_REGRET),
    ]
    game, n = rigged(seats, {0: _volcanic(["bang"] * 4)})
    play(game, 0, n["volcanic"])
    _shoot(game, n, 1, 4)
    pass_(game, 1)
    p1 = game.state.player(P[0])
    assert p1.hand == [] and p1.in_play == []  # the Volcanic too
    assert game.state.player(P[1]).role is DE and not game.state.player(P[1]).alive


def test_beer_in_a_dying_window_is_refused_with_two_players_left() -> None:
    state = GameState(
        players=[
            PlayerState(P[0], 0, SH, C.SID_KETCHUM, 1, 5),
            PlayerState(P[1], 1, RE, C.BART_CASSIDY, 1, 4),
        ]
    )
    from services.game.rules.cards.flow import _dying_has_no_option

    state.player(P[1]).hand.append(40)  # type: ignore[arg-type]
    assert _dying_has_no_option(state, state.player(P[1]))  # 2 living, not Sid: automatic
    state.player(P[0]).hand.extend([41, 42])  # type: ignore[arg-type]
    assert not _dying_has_no_option(state, state.player(P[0]))  # Sid with 2 cards may heal


def _state(roles: list[Role], alive: list[bool]) -> GameState:
    return GameState(
        players=[
            PlayerState(P[i], i, r, list(C)[i], 4, 4, alive=a)
            for i, (r, a) in enumerate(zip(roles, alive, strict=True))
        ]
    )


def test_the_law_wins_when_no_outlaw_and_no_renegade_lives() -> None:
    assert winner(_state([SH, DE, OU, OU, RE], [True, False, False, False, False])) is Side.LAW
    assert winner(_state([SH, DE, OU, OU, RE], [True, True, False, False, True])) is None  # Example 1


def test_the_sheriff_dead_the_outlaws_win_unless_the_renegade_is_alone() -> None:
    assert winner(_state([SH, DE, OU, OU, RE], [False, True, False, False, True])) is Side.OUTLAWS
    assert winner(_state([SH, DE, OU, OU, RE], [False, False, False, False, True])) is Side.RENEGADE
    # the Renegade's Gatling kills the Sheriff and the last Deputy in one step: the Renegade alone
    assert winner(_state([SH, DE, RE, OU], [False, False, True, False])) is Side.RENEGADE
    # 8 players: both Renegades living at the Sheriff's death -> Outlaws
    roles8 = [SH, RE, RE, OU, OU, OU, DE, DE]
    assert winner(_state(roles8, [False, True, True, False, False, False, False, False])) is Side.OUTLAWS


def test_the_sheriff_killed_ends_the_game_for_the_outlaws() -> None:
    seats = [(SH, C.SID_KETCHUM), (OU, C.VULTURE_SAM), (RE, C.WILLY_THE_KID), (OU, C.SLAB_THE_KILLER)]
    game, n = rigged(
        seats,
        {0: ["duel"] * 3, 1: ["bang:2C", "bang:3C", "bang:4C", "volcanic"]},
        deck=["bang", "bang", "bang:5C", "bang:6C"],
    )
    for k in range(3):
        play(game, 0, n["duel" if k == 0 else f"duel#{k + 1}"], 1)
        respond(game, 1, n[["bang:2C", "bang:3C", "bang:4C"][k]])
        pass_(game, 0)
    from .rig import end_turn

    end_turn(game, 0)
    assert life(game, 0) == 2 and game.state.active == P[1]
    play(game, 1, n["volcanic"])
    for card in ("bang:5C", "bang:6C"):
        do(game, cmd.PlayCard(player=P[1], card=n[card], target=P[0]))
        pass_(game, 0)
    assert awaits(game, 0, Decision.DYING)
    pass_(game, 0)
    assert game.is_over and game.result is not None and game.result.winner is Side.OUTLAWS
    won = {r.player: r.won for r in game.result.results}
    assert won == {P[0]: False, P[1]: True, P[2]: False, P[3]: True}
    sheriff = next(r for r in game.result.results if r.player == P[0])
    assert sheriff.eliminated_by == P[1] and sheriff.eliminated_turn == 2
    assert Game.replay(game.events).state == game.state
    with pytest.raises(Exception, match="over"):
        pass_(game, 2)
    assert isinstance(game.events[0].seats[0], Seat)  # type: ignore[attr-defined]


def test_the_eliminated_player_orders_his_discards_only_when_pedro_ramirez_lives() -> None:
    seats = [(SH, C.WILLY_THE_KID), (OU, C.PEDRO_RAMIREZ), (RE, C.SID_KETCHUM), (OU, C.SLAB_THE_KILLER)]
    game, n = rigged(seats, {0: ["bang"] * 4, 3: ["beer", "missed", "barrel", "jail"]})
    for k in range(4):
        play(game, 0, n["bang" if k == 0 else f"bang#{k + 1}"], 3)
        if awaits(game, 3, Decision.RESPOND_SHOT):
            pass_(game, 3)
    assert awaits(game, 3, Decision.DYING)
    pass_(game, 3)
    assert awaits(game, 3, Decision.DISCARD_ORDER)
    cards = hand(game, 3)
    with pytest.raises(IllegalCommand):
        do(game, cmd.OrderDiscards(player=P[3], cards=tuple(cards[:-1])))
    order = (n["missed"], n["barrel"], n["jail"], n["beer"])
    do(game, cmd.OrderDiscards(player=P[3], cards=order))
    assert game.state.discard[-4:] == list(order)
    assert not game.state.player(P[3]).alive


def test_without_pedro_ramirez_the_cards_go_in_the_default_order() -> None:
    game, n = rigged(DEFAULT_SEATS, {0: _volcanic(["bang"] * 4), 1: ["beer", "missed"]})
    play(game, 0, n["volcanic"])
    _shoot(game, n, 1, 4)
    cards = hand(game, 1)
    pass_(game, 1)
    assert game.state.discard[-len(cards) :] == cards
