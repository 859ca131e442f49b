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


def _in_front_of(player: PlayerId, *names: CardName) -> Position:
    """``_position()`` with ``player``'s cards in play replaced by one card of each of ``names``
    (taken from the deck; the one given back goes to the deck)."""
    pos = _position()
    taken: list[CardId] = []
    for name in names:
        taken.append(next(c for c in _ids(name) if c in pos.deck and c not in taken))
    players = []
    given_back: list[CardId] = []
    listed = [*pos.players]
    if all(pp.player != player for pp in listed):
        listed.append(PlayerPosition(player=player, life=3))
    for pp in listed:
        if pp.player == player:
            given_back += pp.in_play
            pp = PlayerPosition(player=pp.player, life=pp.life, hand=pp.hand, in_play=tuple(taken))
        players.append(pp)
    deck = tuple(c for c in pos.deck if c not in taken) + tuple(given_back)
    return Position(players=tuple(players), deck=deck, discard=pos.discard, active=pos.active, turn=pos.turn)


@pytest.mark.parametrize(
    ("player", "names", "why"),
    [
        (P[1], (CardName.BANG,), "played and discarded, never kept in play"),
        (P[1], (CardName.MUSTANG, CardName.MUSTANG), "two cards of one name in play"),
        (P[1], (CardName.VOLCANIC, CardName.SCHOFIELD), "one weapon in play at most"),
        (P[0], (CardName.JAIL,), "the Sheriff cannot be in Jail"),
    ],
)
def test_a_position_keeps_in_play_only_what_the_rules_let_a_player_put_there(
    player: PlayerId, names: tuple[CardName, ...], why: str
) -> None:
    with pytest.raises(InvalidSetup, match=why):
        Game.start(SEATS, position=_in_front_of(player, *names))


def test_a_position_may_hold_a_weapon_and_other_blue_cards_and_an_outlaw_in_jail() -> None:
    sheriff = _in_front_of(P[0], CardName.VOLCANIC, CardName.BARREL, CardName.MUSTANG, CardName.SCOPE)
    assert Game.start(SEATS, position=sheriff).state.player(P[0]).in_play
    # p3, whose turn is not the one starting (a Jail and a Dynamite resolve at their owner's)
    jailed = _in_front_of(P[2], CardName.JAIL, CardName.DYNAMITE)
    assert len(Game.start(SEATS, position=jailed).state.player(P[2]).in_play) == 2
