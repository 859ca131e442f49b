"""Suzy Lafayette draws at every stable point, automatic passes included (RULINGS-cards: "her
first Missed! against Slab -> she draws and may use it"; "her own dying window included").

An automatic pass answers a question the engine would otherwise ask her; before the fix it was
taken with her hand empty, so she lost the life (or died) before drawing."""

from __future__ import annotations

from services.game.rules.cards import commands as cmd
from services.game.rules.cards.deck import ALL_CARDS
from services.game.rules.cards.events import CardDrawn, Passed, PlayerPosition, Position, Seat
from services.game.rules.cards.game import Game
from services.game.rules.cards.vocabulary import CardId, CharacterId, Decision, DrawReason, PlayerId, Role

from .rig import P

C = CharacterId
BANG_2D, MISSED_2S, MISSED_3S, BEER_6H, BEER_7H = CardId(3), CardId(26), CardId(27), CardId(38), CardId(39)


def _game(p1: CharacterId, players: tuple[PlayerPosition, ...], deck: tuple[int, ...]) -> Game:
    seats = [
        Seat(player=P[0], role=Role.SHERIFF, character=p1),
        Seat(player=P[1], role=Role.OUTLAW, character=C.SUZY_LAFAYETTE),
        Seat(player=P[2], role=Role.RENEGADE, character=C.WILLY_THE_KID),
        Seat(player=P[3], role=Role.OUTLAW, character=C.LUCKY_DUKE),
    ]
    placed = {c for pp in players for c in (*pp.hand, *pp.in_play)} | set(deck)
    rest = tuple(c for c in ALL_CARDS if c not in placed)
    position = Position(players=players, deck=tuple(CardId(c) for c in deck) + rest, active=P[0])
    return Game.start(seats, position=position)


def _suzy_draws(game: Game) -> list[CardId]:
    return [e.card for e in game.events if isinstance(e, CardDrawn) and e.reason is DrawReason.SUZY_LAFAYETTE]


def test_her_first_missed_against_slab_is_followed_by_a_draw_she_may_use() -> None:
    game = _game(
        C.SLAB_THE_KILLER,
        (
            PlayerPosition(player=P[0], life=5, hand=(BANG_2D,)),
            PlayerPosition(player=P[1], life=4, hand=(MISSED_2S,)),
        ),
        deck=(1, 2, MISSED_3S),
    )
    game.play(cmd.PlayCard(player=P[0], card=BANG_2D, target=P[1]))
    game.play(cmd.Respond(player=P[1], card=MISSED_2S))
    assert _suzy_draws(game) == [MISSED_3S]
    assert Passed(player=P[1], automatic=True) not in game.events
    q = game.awaiting
    assert q is not None and (q.player, q.decision, q.count) == (P[1], Decision.RESPOND_SHOT, 1)
    game.play(cmd.Respond(player=P[1], card=MISSED_3S))
    assert game.state.player(P[1]).life == 4


def test_her_dynamite_then_her_last_beer_then_the_drawn_beer() -> None:
    """Dynamite explodes on her at 2 life (-1): one Beer (her last card) leaves her at 0; she
    draws at once and the drawn Beer saves her."""
    seats = [
        Seat(player=P[0], role=Role.SHERIFF, character=C.SID_KETCHUM),
        Seat(player=P[1], role=Role.OUTLAW, character=C.SUZY_LAFAYETTE),
        Seat(player=P[2], role=Role.RENEGADE, character=C.WILLY_THE_KID),
        Seat(player=P[3], role=Role.OUTLAW, character=C.LUCKY_DUKE),
    ]
    placed = {BEER_6H, CardId(72), MISSED_2S, BEER_7H}
    rest = tuple(c for c in ALL_CARDS if c not in placed)
    position = Position(
        players=(PlayerPosition(player=P[1], life=2, hand=(BEER_6H,), in_play=(CardId(72),)),),
        deck=(MISSED_2S, BEER_7H, *rest),
        active=PlayerId(P[1]),
    )
    game = Game.start(seats, position=position)
    assert game.state.player(P[1]).life == -1
    game.play(cmd.Respond(player=P[1], card=BEER_6H))
    assert _suzy_draws(game) == [BEER_7H]
    q = game.awaiting
    assert q is not None and (q.player, q.decision) == (P[1], Decision.DYING)
    game.play(cmd.Respond(player=P[1], card=BEER_7H))
    assert game.state.player(P[1]).alive and game.state.player(P[1]).life == 1
