from __future__ import annotations

import pytest

from services.game.rules.dice.characters import CharacterId
from services.game.rules.dice.events import GameEnded, PlayerResult
from services.game.rules.dice.vocabulary import PlayerId, Side
from services.ratings.outcome import GameOutcome, InvalidOutcome, LeaguePlayerId, SeatResult, from_game_ended

from .builders import DEPUTY, FIVE, OUTLAW, RENEGADE, SHERIFF, game


def test_factions_of_a_five_player_table() -> None:
    outcome = game(FIVE, Side.LAW)
    kinds = [(f.kind, f.seats) for f in outcome.factions()]
    assert kinds == [(Side.LAW, (0, 1)), (Side.OUTLAWS, (2, 3)), (Side.RENEGADE, (4,))]
    assert outcome.winner == 0


def test_eight_players_have_two_renegade_factions_and_only_one_wins() -> None:
    seats = [
        ("a", SHERIFF), ("b", DEPUTY), ("c", DEPUTY), ("d", OUTLAW),
        ("e", OUTLAW), ("f", OUTLAW), ("g", RENEGADE), ("h", RENEGADE),
    ]
    outcome = game(seats, Side.RENEGADE, renegade_winner="h")
    factions = outcome.factions()
    assert [f.kind for f in factions] == [Side.LAW, Side.OUTLAWS, Side.RENEGADE, Side.RENEGADE]
    assert outcome.winner == 3


def test_three_players_each_play_alone_and_may_all_lose() -> None:
    outcome = game([("a", DEPUTY), ("b", OUTLAW), ("c", RENEGADE)], None)
    assert [f.kind for f in outcome.factions()] == [Side.DEPUTY, Side.OUTLAW, Side.RENEGADE]
    assert outcome.winner is None


def test_an_impossible_table_is_refused() -> None:
    with pytest.raises(InvalidOutcome, match="roles"):
        game([("a", SHERIFF), ("b", SHERIFF), ("c", OUTLAW), ("d", RENEGADE)], Side.LAW)
    with pytest.raises(InvalidOutcome, match="twice"):
        game([("a", SHERIFF), ("a", OUTLAW), ("c", OUTLAW), ("d", RENEGADE)], Side.LAW)


def test_a_faction_cannot_half_win() -> None:
    seats = [
        SeatResult(player=LeaguePlayerId("a"), role=SHERIFF, side=Side.LAW, won=True),
        SeatResult(player=LeaguePlayerId("b"), role=DEPUTY, side=Side.LAW, won=False),
        SeatResult(player=LeaguePlayerId("c"), role=OUTLAW, side=Side.OUTLAWS, won=False),
        SeatResult(player=LeaguePlayerId("d"), role=OUTLAW, side=Side.OUTLAWS, won=False),
        SeatResult(player=LeaguePlayerId("e"), role=RENEGADE, side=Side.RENEGADE, won=False),
    ]
    with pytest.raises(InvalidOutcome, match="both won and lost"):
        GameOutcome(game_id="g", seats=tuple(seats))


def _ended() -> GameEnded:
    def result(p: str, role, side: Side, won: bool, alive: bool) -> PlayerResult:
        return PlayerResult(player=PlayerId(p), role=role, character=CharacterId.BART_CASSIDY, side=side,
                            won=won, alive=alive)

    return GameEnded(
        winning_side=Side.OUTLAWS,
        winners=(PlayerId("p2"), PlayerId("p3")),
        results=(
            result("p1", SHERIFF, Side.LAW, False, False),
            result("p2", OUTLAW, Side.OUTLAWS, True, False),  # eliminated, still shares the win
            result("p3", OUTLAW, Side.OUTLAWS, True, True),
            result("p4", RENEGADE, Side.RENEGADE, False, True),
        ),
        turn=12,
    )


def test_from_game_ended_maps_seats_to_league_players() -> None:
    mapping = {PlayerId(f"p{i}"): LeaguePlayerId(f"league-{i}") for i in range(1, 5)}
    outcome = from_game_ended(_ended(), mapping, game_id="game-7")
    assert outcome.game_id == "game-7"
    assert [(s.player, s.won) for s in outcome.seats] == [
        ("league-1", False), ("league-2", True), ("league-3", True), ("league-4", False),
    ]
    assert outcome.factions()[outcome.winner or 0].kind is Side.OUTLAWS


def test_from_game_ended_needs_every_seat_mapped() -> None:
    with pytest.raises(InvalidOutcome, match="p4"):
        from_game_ended(_ended(), {PlayerId(f"p{i}"): LeaguePlayerId(f"x{i}") for i in range(1, 4)}, "g")
