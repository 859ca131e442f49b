"""A draw!'s flipped cards lie face up until it resolves: a reshuffle between Lucky Duke's two
flips takes the rest of the discard pile, not his first flip (which could otherwise be flipped
again). RULINGS-cards: "Lucky Duke flips two, chooses one as the result, both discarded in flip
order"; a club referee does not shuffle a card lying face up in front of a player."""

from __future__ import annotations

from services.game.rules.cards import commands as cmd
from services.game.rules.cards.deck import ALL_CARDS
from services.game.rules.cards.events import CardFlipped, PlayerPosition, Position, Seat
from services.game.rules.cards.evolve import fold
from services.game.rules.cards.game import Game
from services.game.rules.cards.vocabulary import TABLE, CardId, CharacterId, Decision, Role

from .rig import P

C = CharacterId
BANG_AS, BANG_AD, BANG_2D = CardId(1), CardId(2), CardId(3)
BEER_6H, BEER_7H, BEER_8H, BARREL = CardId(38), CardId(39), CardId(40), CardId(64)


def _lucky_duke_shot_with_one_card_left() -> Game:
    """p1 shoots Lucky Duke (p4, a Barrel); after p1's draws the deck holds one card; the pile
    two; every other card is in p3's hand."""
    seats = [
        Seat(player=P[0], role=Role.SHERIFF, character=C.SID_KETCHUM),
        Seat(player=P[1], role=Role.OUTLAW, character=C.BLACK_JACK),
        Seat(player=P[2], role=Role.RENEGADE, character=C.WILLY_THE_KID),
        Seat(player=P[3], role=Role.OUTLAW, character=C.LUCKY_DUKE),
    ]
    placed = {BANG_2D, BARREL, BANG_AS, BANG_AD, BEER_6H, BEER_7H, BEER_8H}
    position = Position(
        players=(
            PlayerPosition(player=P[0], life=5, hand=(BANG_2D,)),
            PlayerPosition(player=P[2], life=4, hand=tuple(c for c in ALL_CARDS if c not in placed)),
            PlayerPosition(player=P[3], life=4, in_play=(BARREL,)),
        ),
        deck=(BANG_AS, BANG_AD, BEER_6H),
        discard=(BEER_7H, BEER_8H),
        active=P[0],
    )
    game = Game.start(seats, position=position)
    game.play(cmd.PlayCard(player=P[0], card=BANG_2D, target=P[3]))
    game.play(cmd.UseBarrel(player=P[3], card=BARREL))
    return game


def test_a_reshuffle_between_lucky_dukes_flips_leaves_his_first_flip_out() -> None:
    game = _lucky_duke_shot_with_one_card_left()
    q = game.awaiting
    assert q is not None and q.player == TABLE and q.decision is Decision.SHUFFLE
    assert q.cards == (BEER_7H, BEER_8H)  # not his face-up beer:6H
    game.play(cmd.ShuffleDeck(player=TABLE, order=(BEER_8H, BEER_7H)))
    flips = [e.card for e in game.events if isinstance(e, CardFlipped)]
    assert flips == [BEER_6H, BEER_8H]
    assert game.state.discard == [BEER_6H, BEER_8H] and game.state.deck == [BEER_7H]
    game.play(cmd.ChooseDrawResult(player=P[3], card=BEER_6H))
    assert game.state.discard == [BEER_6H, BEER_8H, BANG_2D]  # the flips in order, then the BANG!
    assert fold(game.events) == game.state


def test_the_first_flip_cannot_be_shuffled_back() -> None:
    game = _lucky_duke_shot_with_one_card_left()
    before = list(game.events)
    try:
        game.play(cmd.ShuffleDeck(player=TABLE, order=(BEER_6H, BEER_7H, BEER_8H)))
    except ValueError as refused:
        assert "exactly the cards to shuffle" in str(refused)
    else:
        raise AssertionError("a shuffle of the face-up flip was accepted")
    assert game.events == before
