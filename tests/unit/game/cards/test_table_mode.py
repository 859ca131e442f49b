"""A table game: the deck is shuffled for real, in an order nobody knows; the table names each
card as it is taken (the drawer's card seen by him alone, a flipped card by everybody)."""

from __future__ import annotations

import pytest

from services.game.rules.cards import commands as cmd
from services.game.rules.cards.deck import DECK
from services.game.rules.cards.errors import IllegalCommand
from services.game.rules.cards.events import Seat, TopCardNamed
from services.game.rules.cards.game import Game
from services.game.rules.cards.visibility import redact
from services.game.rules.cards.vocabulary import TABLE, CardName, Decision

from .rig import DEFAULT_SEATS, P


def _table_game() -> Game:
    game = Game.start([Seat(player=P[i], role=r, character=c) for i, (r, c) in enumerate(DEFAULT_SEATS)])
    game.play(cmd.ShuffleDeck(player=TABLE, order=()))
    return game


def test_each_card_dealt_is_named_for_its_receiver_in_deal_order() -> None:
    game = _table_game()
    receivers = []
    for k in range(17):  # 5 + 4 + 4 + 4
        q = game.awaiting
        assert q is not None and q.player == TABLE and q.decision is Decision.TOP_CARD
        receivers.append(q.from_player)
        game.play(cmd.NameTopCard(player=TABLE, card=DECK[k].id))
    assert receivers[:5] == [P[0], P[1], P[2], P[3], P[0]]
    assert game.state.player(P[0]).hand == [DECK[k].id for k in (0, 4, 8, 12, 16)]
    # then the Sheriff's phase 1: named for him
    q = game.awaiting
    assert q is not None and q.decision is Decision.TOP_CARD and q.from_player == P[0]


def test_a_named_card_must_be_in_the_deck() -> None:
    game = _table_game()
    game.play(cmd.NameTopCard(player=TABLE, card=DECK[0].id))
    with pytest.raises(IllegalCommand):
        game.play(cmd.NameTopCard(player=TABLE, card=DECK[0].id))


def test_a_drawn_card_is_named_for_the_drawer_a_flip_for_everyone() -> None:
    game = _table_game()
    barrel = next(c.id for c in DECK if c.name is CardName.BARREL)
    dynamite = next(c.id for c in DECK if c.name is CardName.DYNAMITE)
    others = [c.id for c in DECK if c.id not in (barrel, dynamite)]
    for k in range(17):
        game.play(cmd.NameTopCard(player=TABLE, card=(dynamite if k == 0 else others[k])))
    game.play(cmd.NameTopCard(player=TABLE, card=barrel))
    named = [e for e in game.events if isinstance(e, TopCardNamed)]
    assert redact(named[-1], P[0])["card"] == barrel and redact(named[-1], P[1])["card"] is None
    game.play(cmd.NameTopCard(player=TABLE, card=others[20]))
    game.play(cmd.PlayCard(player=P[0], card=dynamite))
    game.play(cmd.EndPlay(player=P[0]))
    game.play(cmd.Discard(player=P[0], cards=(game.state.player(P[0]).hand[0],)))
    for i in (1, 2, 3):
        for _ in range(2):
            game.play(cmd.NameTopCard(player=TABLE, card=game.state.pool[0]))
        game.play(cmd.EndPlay(player=P[i]))
        q = game.awaiting
        if q is not None and q.decision is Decision.DISCARD:
            game.play(cmd.Discard(player=P[i], cards=tuple(game.state.player(P[i]).hand[: q.count])))
    q = game.awaiting  # the Sheriff's Dynamite draw!: the flipped card is named for everybody
    assert q is not None and q.decision is Decision.TOP_CARD and q.from_player is None
    flip = game.state.pool[0]
    game.play(cmd.NameTopCard(player=TABLE, card=flip))
    named = [e for e in game.events if isinstance(e, TopCardNamed) and e.card == flip]
    assert redact(named[0], P[3])["card"] == flip


def test_the_text_forms() -> None:
    assert str(cmd.ShuffleDeck(player=TABLE, order=())) == "table shuffle unknown"
    assert cmd.parse_command("table shuffle unknown") == cmd.ShuffleDeck(player=TABLE, order=())
    assert cmd.parse_command("table top 12") == cmd.NameTopCard(player=TABLE, card=12)  # type: ignore[arg-type]
