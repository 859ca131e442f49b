"""Mid-game starting positions (rule cases, resumed table games): every card placed once."""

from __future__ import annotations

import pytest

from services.game.rules.cards import commands as cmd
from services.game.rules.cards.deck import DECK
from services.game.rules.cards.errors import InvalidSetup
from services.game.rules.cards.events import Passed, PlayerPosition, Position, Seat
from services.game.rules.cards.evolve import fold
from services.game.rules.cards.game import Game
from services.game.rules.cards.vocabulary import CardId, CardName, CharacterId, Decision, PlayerId, Role

from .rig import P

SEATS = [
    Seat(player=P[0], role=Role.SHERIFF, character=CharacterId.SID_KETCHUM),
    Seat(player=P[1], role=Role.OUTLAW, character=CharacterId.VULTURE_SAM),
    Seat(player=P[2], role=Role.RENEGADE, character=CharacterId.WILLY_THE_KID),
    Seat(player=P[3], role=Role.OUTLAW, character=CharacterId.SLAB_THE_KILLER),
]


def _ids(name: CardName) -> list[CardId]:
    return [c.id for c in DECK if c.name is name]


def _position(**change: object) -> Position:
    bang, barrel, beer = _ids(CardName.BANG), _ids(CardName.BARREL), _ids(CardName.BEER)
    used = {bang[0], bang[1], barrel[0], beer[0]}
    rest = [c.id for c in DECK if c.id not in used]
    fields: dict[str, object] = {
        "players": (
            PlayerPosition(player=P[0], life=2, hand=(beer[0],), in_play=(barrel[0],)),
            PlayerPosition(player=P[1], life=3, hand=(bang[0], bang[1])),
            PlayerPosition(player=P[3], life=0, alive=False),
        ),
        "deck": tuple(rest[:-5]),
        "discard": tuple(rest[-5:]),
        "active": P[1],
        "turn": 7,
    }
    fields.update(change)
    return Position(**fields)  # type: ignore[arg-type]


def test_a_game_starts_from_a_position_at_the_active_players_turn() -> None:
    game = Game.start(SEATS, position=_position())
    s = game.state
    assert s.active == P[1] and s.turn == 7 and s.phase.value == "play"
    assert s.player(P[0]).life == 2 and s.player(P[0]).in_play == [_ids(CardName.BARREL)[0]]
    assert not s.player(P[3]).alive
    assert len(s.player(P[1]).hand) == 4  # 2 + phase 1
    # p4 is out: p2 reaches p3 (2 seats among 4, 1 among the 3 living)
    events = game.play(cmd.PlayCard(player=P[1], card=_ids(CardName.BANG)[0], target=P[2]))
    # p3 holds no card and no Barrel: passed for automatically
    assert Passed(player=P[2], automatic=True) in events and s.player(P[2]).life == 3
    assert game.awaiting is not None and game.awaiting.decision is Decision.PLAY
    assert fold(game.events) == game.state


@pytest.mark.parametrize(
    "change",
    [
        {"deck": ()},  # cards missing
        {"active": P[3]},  # an eliminated active player
        {
            "players": (PlayerPosition(player=P[0], life=6),)
        },  # above the Sheriff's maximum (and cards missing)
        {"players": (PlayerPosition(player=P[0], life=0, alive=False),)},  # the Sheriff dead
        {"turn": 0},
    ],
)
def test_a_position_is_checked(change: dict[str, object]) -> None:
    with pytest.raises(InvalidSetup):
        Game.start(SEATS, position=_position(**change))


def test_a_position_with_every_enemy_dead_is_refused() -> None:
    pos = _position()
    dead = (
        PlayerPosition(player=P[1], life=0, alive=False),
        PlayerPosition(player=P[2], life=0, alive=False),
        PlayerPosition(player=P[3], life=0, alive=False),
    )
    everything = [*pos.deck, *pos.discard, *(c for pp in pos.players for c in (*pp.hand, *pp.in_play))]
    with pytest.raises(InvalidSetup, match="finished"):
        Game.start(SEATS, position=Position(players=dead, deck=tuple(everything), active=PlayerId("p1")))
