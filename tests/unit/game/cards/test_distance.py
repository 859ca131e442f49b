"""Layer 1: distance (seats, Mustang, Scope, Paul Regret, Rose Doolan) and weapon range."""

from __future__ import annotations

from services.game.rules.cards.deck import DECK
from services.game.rules.cards.distance import distance, in_range, seats_between, weapon_range
from services.game.rules.cards.state import GameState, PlayerState
from services.game.rules.cards.vocabulary import CardId, CardName, CharacterId, Role

from .rig import P


def _card(name: CardName, copy: int = 0) -> CardId:
    return [c.id for c in DECK if c.name is name][copy]


def _table(n: int, chars: dict[int, CharacterId] | None = None) -> GameState:
    chars = chars or {}
    players = [
        PlayerState(P[i], i, Role.OUTLAW, chars.get(i, CharacterId.BART_CASSIDY), 4, 4) for i in range(n)
    ]
    return GameState(players=players)


def test_seats_are_the_shorter_way_round() -> None:
    s = _table(6)
    assert seats_between(s, P[0], P[1]) == 1
    assert seats_between(s, P[0], P[3]) == 3
    assert seats_between(s, P[0], P[5]) == 1
    assert distance(s, P[0], P[4]) == 2


def test_eliminated_players_do_not_count() -> None:
    s = _table(5)
    s.player(P[1]).alive = False
    assert distance(s, P[0], P[2]) == 1


def test_the_seed_example_scope_and_mustang() -> None:
    # Anne (p1) with Scope sees Christophe (2 seats) at 1; his Mustang cancels it;
    # David (3 seats) with Mustang: 4
    s = _table(7)
    s.player(P[0]).in_play.append(_card(CardName.SCOPE))
    assert distance(s, P[0], P[2]) == 1
    s.player(P[2]).in_play.append(_card(CardName.MUSTANG))
    assert distance(s, P[0], P[2]) == 2
    s.player(P[3]).in_play.append(_card(CardName.MUSTANG, 1))
    assert distance(s, P[3], P[0]) == 3  # not symmetric: David sees Anne at 3
    assert distance(s, P[0], P[3]) == 3  # 3 + 1 - 1


def test_no_distance_is_less_than_one() -> None:
    s = _table(4, {0: CharacterId.ROSE_DOOLAN})
    s.player(P[0]).in_play.append(_card(CardName.SCOPE))
    assert distance(s, P[0], P[1]) == 1
    assert distance(s, P[0], P[2]) == 1


def test_paul_regret_is_a_built_in_mustang_and_adds_to_a_real_one() -> None:
    s = _table(5, {1: CharacterId.PAUL_REGRET})
    assert distance(s, P[0], P[1]) == 2
    s.player(P[1]).in_play.append(_card(CardName.MUSTANG))
    assert distance(s, P[0], P[1]) == 3
    assert distance(s, P[1], P[0]) == 1  # his own view is unchanged


def test_rose_doolan_is_a_built_in_scope_and_adds_to_a_real_one() -> None:
    s = _table(7, {0: CharacterId.ROSE_DOOLAN})
    assert distance(s, P[0], P[3]) == 2
    s.player(P[0]).in_play.append(_card(CardName.SCOPE))
    assert distance(s, P[0], P[3]) == 1


def test_paul_with_mustang_against_rose_with_scope_nets_zero() -> None:
    s = _table(7, {0: CharacterId.ROSE_DOOLAN, 2: CharacterId.PAUL_REGRET})
    s.player(P[0]).in_play.append(_card(CardName.SCOPE))
    s.player(P[2]).in_play.append(_card(CardName.MUSTANG))
    assert distance(s, P[0], P[2]) == 2


def test_weapon_ranges_and_the_colt() -> None:
    s = _table(7)
    me = s.player(P[0])
    assert weapon_range(me) == 1
    for name, reach in [
        (CardName.VOLCANIC, 1),
        (CardName.SCHOFIELD, 2),
        (CardName.REMINGTON, 3),
        (CardName.REV_CARABINE, 4),
        (CardName.WINCHESTER, 5),
    ]:
        me.in_play[:] = [_card(name)]
        assert weapon_range(me) == reach
    me.in_play[:] = [_card(CardName.SCHOFIELD)]
    assert in_range(s, P[0], P[2]) and not in_range(s, P[0], P[3])
    assert not in_range(s, P[0], P[0])


def test_weapons_never_change_distance() -> None:
    s = _table(6)
    s.player(P[0]).in_play.append(_card(CardName.WINCHESTER))
    assert distance(s, P[0], P[3]) == 3
