"""Layer 1: the 80 cards as data, the roles for 4–8 players, starting life and the deal."""

from __future__ import annotations

from collections import Counter

import pytest

from services.game.rules.cards import commands as cmd
from services.game.rules.cards.deck import DECK, explodes, is_heart
from services.game.rules.cards.errors import InvalidSetup, NotAwaited
from services.game.rules.cards.events import HandsDealt, Seat
from services.game.rules.cards.game import Game
from services.game.rules.cards.setup import EIGHT_PLAYER_ROLES, new_game, roles_for, starting_life
from services.game.rules.cards.vocabulary import TABLE, CardName, CharacterId, Decision, PlayerId, Role, Suit

from .rig import P

SH, DE, OU, RE = Role.SHERIFF, Role.DEPUTY, Role.OUTLAW, Role.RENEGADE


def test_the_deck_has_80_cards_63_brown_and_17_blue() -> None:
    assert len(DECK) == 80
    assert sum(c.is_blue for c in DECK) == 17
    assert sum(c.is_weapon for c in DECK) == 8


def test_each_card_has_its_number_of_copies() -> None:
    counts = Counter(c.name for c in DECK)
    assert counts == {
        CardName.BANG: 25, CardName.MISSED: 12, CardName.BEER: 6, CardName.SALOON: 1,
        CardName.STAGECOACH: 2, CardName.WELLS_FARGO: 1, CardName.GENERAL_STORE: 2, CardName.PANIC: 4,
        CardName.CAT_BALOU: 4, CardName.GATLING: 1, CardName.INDIANS: 2, CardName.DUEL: 3,
        CardName.BARREL: 2, CardName.SCOPE: 1, CardName.MUSTANG: 2, CardName.JAIL: 3, CardName.DYNAMITE: 1,
        CardName.VOLCANIC: 2, CardName.SCHOFIELD: 3, CardName.REMINGTON: 1, CardName.REV_CARABINE: 1,
        CardName.WINCHESTER: 1,
    }  # fmt: skip


def test_the_structural_check_of_card_deck_md_holds() -> None:
    # in each suit 2..7 occur once and 8..A twice: 20 cards a suit
    for suit in Suit:
        ranks = Counter(c.rank for c in DECK if c.suit is suit)
        assert ranks == {**{r: 1 for r in range(2, 8)}, **{r: 2 for r in range(8, 15)}}
    assert sum(explodes(c.id) for c in DECK) == 10
    assert sum(is_heart(c.id) for c in DECK) == 20
    assert DECK[0].text == "bang:AS"


@pytest.mark.parametrize(
    ("n", "roles"),
    [
        (4, {SH: 1, RE: 1, OU: 2}),
        (5, {SH: 1, RE: 1, OU: 2, DE: 1}),
        (6, {SH: 1, RE: 1, OU: 3, DE: 1}),
        (7, {SH: 1, RE: 1, OU: 3, DE: 2}),
    ],
)
def test_roles_by_player_count(n: int, roles: dict[Role, int]) -> None:
    assert Counter(roles_for(n)) == roles


def test_eight_players_only_as_the_recorded_option_with_two_renegades() -> None:
    with pytest.raises(InvalidSetup):
        roles_for(8)
    assert Counter(roles_for(8, eight_players=True)) == {SH: 1, RE: 2, OU: 3, DE: 2}
    chars = list(CharacterId)[:8]
    started = new_game(
        [Seat(player=P[i], role=EIGHT_PLAYER_ROLES[i], character=chars[i]) for i in range(8)],
        eight_players=True,
    )
    assert started.eight_players


@pytest.mark.parametrize("n", [3, 9])
def test_other_player_counts_are_refused(n: int) -> None:
    with pytest.raises(InvalidSetup):
        roles_for(n)


def test_seats_must_match_the_role_table_and_differ() -> None:
    chars = list(CharacterId)
    with pytest.raises(InvalidSetup):
        new_game([Seat(player=P[i], role=r, character=chars[i]) for i, r in enumerate((SH, OU, OU, OU))])
    with pytest.raises(InvalidSetup):
        new_game([Seat(player=P[0], role=r, character=chars[i]) for i, r in enumerate((SH, RE, OU, OU))])
    with pytest.raises(InvalidSetup):
        new_game([Seat(player=P[i], role=r, character=chars[0]) for i, r in enumerate((SH, RE, OU, OU))])


def test_starting_life_is_the_characters_bullets_plus_one_for_the_sheriff() -> None:
    assert starting_life(SH, CharacterId.EL_GRINGO) == 4
    assert starting_life(OU, CharacterId.PAUL_REGRET) == 3
    assert starting_life(SH, CharacterId.BART_CASSIDY) == 5
    assert starting_life(DE, CharacterId.SUZY_LAFAYETTE) == 4


def test_the_game_first_asks_the_table_for_the_shuffle_of_all_80_cards() -> None:
    chars = [
        CharacterId.BART_CASSIDY,
        CharacterId.EL_GRINGO,
        CharacterId.KIT_CARLSON,
        CharacterId.WILLY_THE_KID,
    ]
    game = Game.start([Seat(player=P[i], role=r, character=chars[i]) for i, r in enumerate((OU, SH, RE, OU))])
    q = game.awaiting
    assert q is not None and q.player == TABLE and q.decision is Decision.SHUFFLE
    assert sorted(q.cards) == list(range(1, 81))
    with pytest.raises(NotAwaited):
        game.play(cmd.EndPlay(player=PlayerId("p2")))


def test_the_deal_is_one_card_at_a_time_clockwise_from_the_sheriff_as_many_as_life() -> None:
    chars = [
        CharacterId.BART_CASSIDY,
        CharacterId.EL_GRINGO,
        CharacterId.KIT_CARLSON,
        CharacterId.WILLY_THE_KID,
    ]
    game = Game.start([Seat(player=P[i], role=r, character=chars[i]) for i, r in enumerate((OU, SH, RE, OU))])
    order = tuple(range(80, 0, -1))
    events = game.play(cmd.ShuffleDeck(player=TABLE, order=order))  # type: ignore[arg-type]
    dealt = next(e for e in events if isinstance(e, HandsDealt))
    hands = dict(dealt.hands)
    # p2 is the Sheriff (El Gringo 3+1 = 4 cards), then p3 (4), p4 (4), p1 (4)
    assert [p for p, _ in dealt.hands] == [P[1], P[2], P[3], P[0]]
    assert hands[P[1]] == (80, 76, 72, 68)
    assert hands[P[0]] == (77, 73, 69, 65)
    # the Sheriff plays first: his phase 1 took the next two cards
    assert game.state.active == P[1]
    assert game.state.player(P[1]).hand[4:] == [64, 63]


def test_a_shuffle_must_order_exactly_the_cards() -> None:
    chars = [
        CharacterId.BART_CASSIDY,
        CharacterId.EL_GRINGO,
        CharacterId.KIT_CARLSON,
        CharacterId.WILLY_THE_KID,
    ]
    game = Game.start([Seat(player=P[i], role=r, character=chars[i]) for i, r in enumerate((OU, SH, RE, OU))])
    from services.game.rules.cards.errors import IllegalCommand

    with pytest.raises(IllegalCommand):
        game.play(cmd.ShuffleDeck(player=TABLE, order=tuple(range(1, 80))))  # type: ignore[arg-type]
    with pytest.raises(IllegalCommand):
        game.play(cmd.ShuffleDeck(player=TABLE, order=(1, *range(1, 80))))  # type: ignore[arg-type]
