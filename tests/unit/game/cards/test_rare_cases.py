"""Rulings that need a position hard to reach by play (2 players left, a short deck, several
eliminations in one resolution), started from a mid-game ``Position``."""

from __future__ import annotations

from collections.abc import Sequence

from services.game.rules.cards import commands as cmd
from services.game.rules.cards.events import DrawsForfeited, PlayerPosition, Position, Seat
from services.game.rules.cards.evolve import fold
from services.game.rules.cards.game import Game
from services.game.rules.cards.vocabulary import CardId, CharacterId, Decision, Role, Side

from .rig import P, Pool, awaits, hand, life, pass_, play, respond

SH, DE, OU, RE = Role.SHERIFF, Role.DEPUTY, Role.OUTLAW, Role.RENEGADE
C = CharacterId


def start(
    seats: Sequence[tuple[Role, CharacterId]],
    players: dict[int, tuple[int, Sequence[str], Sequence[str]]],
    active: int,
    deck: Sequence[str] = (),
    *,
    rest: str = "deck",
    dead: Sequence[int] = (),
) -> tuple[Game, dict[str, CardId]]:
    """A game from a position: ``players`` i → (life, hand, in play); the cards nobody names go
    to the bottom of the deck (``rest="deck"``), the discard pile, or the hand of ``p<n>``."""
    pool = Pool()
    named: dict[str, CardId] = {}

    def take(spec: str) -> CardId:
        cid = pool.take(spec)
        key, k = spec, 1
        while key in named:
            k += 1
            key = f"{spec}#{k}"
        named[key] = cid
        return cid

    placed = {i: ([take(s) for s in h], [take(s) for s in ip]) for i, (_, h, ip) in players.items()}
    top = [take(s) for s in deck]
    leftover = list(pool.left)
    discard: list[CardId] = []
    if rest == "discard":
        discard = leftover
    elif rest.startswith("p"):
        placed[int(rest[1:]) - 1][0].extend(leftover)
    else:
        top += leftover
    positions = [
        PlayerPosition(player=P[i], life=players[i][0], hand=tuple(placed[i][0]), in_play=tuple(placed[i][1]))
        for i in players
    ] + [PlayerPosition(player=P[i], life=0, alive=False) for i in dead]
    seats_ = [Seat(player=P[i], role=r, character=c) for i, (r, c) in enumerate(seats)]
    position = Position(players=tuple(positions), deck=tuple(top), discard=tuple(discard), active=P[active])
    return Game.start(seats_, position=position), named


FIVE = [
    (SH, C.SID_KETCHUM),
    (RE, C.WILLY_THE_KID),
    (OU, C.SLAB_THE_KILLER),
    (OU, C.ROSE_DOOLAN),
    (DE, C.VULTURE_SAM),
]


def test_the_renegades_gatling_kills_sheriff_and_deputy_the_renegade_wins_alone() -> None:
    game, n = start(
        FIVE,
        {0: (1, ["bang"], []), 1: (4, ["gatling"], []), 4: (1, ["bang"], [])},
        active=1,
        dead=[2, 3],
    )
    play(game, 1, n["gatling"])
    pass_(game, 4)  # the Deputy (clockwise from the Renegade's left: p5 then p1)
    pass_(game, 0)
    assert awaits(game, 4, Decision.DYING)  # dying windows from the active player clockwise: p5 first
    pass_(game, 4)
    pass_(game, 0)
    assert game.result is not None and game.result.winner is Side.RENEGADE
    assert [r.player for r in game.result.results if r.won] == [P[1]]
    assert fold(game.events) == game.state


def test_the_sheriff_and_the_last_enemy_eliminated_together_the_outlaws_win() -> None:
    game, n = start(
        FIVE,
        {0: (1, ["bang"], []), 1: (1, ["bang"], []), 4: (4, ["gatling"], [])},
        active=4,
        dead=[2, 3],
    )
    play(game, 4, n["gatling"])
    for i in (0, 1):  # the shots, from the Deputy's left
        pass_(game, i)
    for i in (0, 1):  # the dying windows, from the Deputy clockwise
        pass_(game, i)
    assert game.result is not None and game.result.winner is Side.OUTLAWS
    assert {r.player for r in game.result.results if r.won} == {P[2], P[3]}


def test_with_two_players_left_beer_does_nothing_and_cannot_save() -> None:
    seats = [(SH, C.SID_KETCHUM), (RE, C.WILLY_THE_KID), (OU, C.SLAB_THE_KILLER), (OU, C.ROSE_DOOLAN)]
    game, n = start(seats, {0: (3, ["beer", "saloon"], []), 1: (1, ["beer"], [])}, active=0, dead=[2, 3])
    # (the Sheriff drew 2 from the deck: the rest of the cards)
    play(game, 0, n["beer"])
    assert life(game, 0) == 3  # legal, no effect
    play(game, 0, n["saloon"])
    assert (life(game, 0), life(game, 1)) == (4, 2)  # the Saloon is not a Beer


def test_a_dying_player_with_two_left_is_passed_for_unless_sid_ketchum_can_heal() -> None:
    seats = [(SH, C.WILLY_THE_KID), (RE, C.SID_KETCHUM), (OU, C.SLAB_THE_KILLER), (OU, C.ROSE_DOOLAN)]
    game, n = start(seats, {0: (3, ["bang"], []), 1: (1, ["beer", "missed:2S"], [])}, active=0, dead=[2, 3])
    play(game, 0, n["bang"], 1)
    pass_(game, 1)
    assert awaits(game, 1, Decision.DYING)  # Sid with 2 cards may discard them for a life
    game.play(cmd.UseSidKetchum(player=P[1], cards=(n["beer"], n["missed:2S"])))
    assert life(game, 1) == 1 and awaits(game, 0, Decision.PLAY)


def test_general_store_with_a_short_deck_later_players_get_nothing() -> None:
    seats = [(SH, C.SID_KETCHUM), (RE, C.WILLY_THE_KID), (OU, C.SLAB_THE_KILLER), (OU, C.ROSE_DOOLAN)]
    game, n = start(
        seats,
        {0: (5, ["general_store"], []), 1: (4, [], [])},
        active=0,
        deck=["bang", "bang", "barrel", "scope"],
        rest="p2",
    )
    play(game, 0, n["general_store"])
    assert sorted(game.state.store) == sorted([n["barrel"], n["scope"]])
    game.play(cmd.PickStoreCard(player=P[0], card=n["barrel"]))
    assert n["scope"] in hand(game, 1)  # the last card, automatically
    assert n["barrel"] in hand(game, 0) and awaits(game, 0, Decision.PLAY)


def test_with_deck_and_discard_pile_empty_nothing_is_drawn() -> None:
    seats = [(SH, C.SID_KETCHUM), (RE, C.WILLY_THE_KID), (OU, C.SLAB_THE_KILLER), (OU, C.ROSE_DOOLAN)]
    game, n = start(seats, {0: (5, ["stagecoach"], []), 1: (4, [], [])}, active=0, deck=["bang"], rest="p2")
    assert len(hand(game, 0)) == 2  # drew the one card there was
    assert DrawsForfeited(player=P[0]) in game.events
    play(game, 0, n["stagecoach"])
    # the Stagecoach is still set aside while it resolves: nothing to draw
    assert hand(game, 0) == [n["bang"]] and game.state.discard == [n["stagecoach"]]


def test_el_gringo_losing_his_own_duel_takes_nothing() -> None:
    seats = [(SH, C.EL_GRINGO), (RE, C.WILLY_THE_KID), (OU, C.SLAB_THE_KILLER), (OU, C.ROSE_DOOLAN)]
    game, n = start(seats, {0: (3, ["duel"], []), 1: (4, ["bang", "beer"], [])}, active=0)
    play(game, 0, n["duel"], 1)
    respond(game, 1, n["bang"])
    pass_(game, 0)
    assert life(game, 0) == 2 and awaits(game, 0, Decision.PLAY)  # no random pick asked


def test_dynamite_passes_to_the_next_living_player_skipping_the_dead() -> None:
    seats = [(SH, C.SID_KETCHUM), (OU, C.WILLY_THE_KID), (RE, C.SLAB_THE_KILLER), (OU, C.ROSE_DOOLAN)]
    game, n = start(
        seats, {0: (5, [], ["dynamite"]), 2: (4, [], [])}, active=0, deck=["missed:10C"], dead=[1]
    )
    assert game.state.player(P[2]).in_play == [n["dynamite"]]
    assert life(game, 0) == 5
