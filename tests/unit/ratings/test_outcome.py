from __future__ import annotations

import msgspec
import pytest

from services.game.results import Elimination, FinishKind, GameFinish, Role, SeatOutcome, Side
from services.ratings.outcome import (
    GameOutcome,
    InvalidOutcome,
    LeaguePlayerId,
    SeatResult,
    from_finish,
    from_result,
)

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


PLAYERS = {f"p{i}": LeaguePlayerId(f"x{i}") for i in range(1, 5)}


def _finish(winners: tuple[str, ...] = (Side.OUTLAWS,), side_of_p4: str = Side.RENEGADE) -> GameFinish:
    def seat(p: str, role: Role, side: str, won: bool, alive: bool) -> SeatOutcome:
        return SeatOutcome(seat=p, role=role.value, base_role=role, side=side, won=won, alive=alive)

    return GameFinish(
        finish=FinishKind.WON,
        winners=winners,
        seats=(
            seat("p1", SHERIFF, Side.LAW, False, False),
            seat("p2", OUTLAW, Side.OUTLAWS, True, False),  # eliminated, still shares the win
            seat("p3", OUTLAW, Side.OUTLAWS, True, True),
            seat("p4", RENEGADE, side_of_p4, False, True),
        ),
        eliminations=(
            Elimination(seat="p2", by="p1", cause="shoot1", turn=5),
            Elimination(seat="p1", by="p3", cause="shoot2", turn=12),
        ),
        turn=12,
    )


def test_from_finish_maps_seats_to_league_players() -> None:
    mapping = {f"p{i}": LeaguePlayerId(f"league-{i}") for i in range(1, 5)}
    outcome = from_finish(_finish(), mapping, game_id="game-7")
    assert outcome.game_id == "game-7"
    assert [(s.player, s.won) for s in outcome.seats] == [
        ("league-1", False), ("league-2", True), ("league-3", True), ("league-4", False),
    ]
    assert outcome.factions()[outcome.winner or 0].kind is Side.OUTLAWS


def test_from_finish_needs_every_seat_mapped() -> None:
    with pytest.raises(InvalidOutcome, match="p4"):
        from_finish(_finish(), {f"p{i}": LeaguePlayerId(f"x{i}") for i in range(1, 4)}, "g")


def test_from_result_rates_a_special_role_as_its_base_role() -> None:
    members = {f"p{i}": f"m{i}" for i in range(1, 5)}
    result = _finish().result("g", members)
    result = msgspec.structs.replace(
        result, seats=(msgspec.structs.replace(result.seats[0], role="l_ours"), *result.seats[1:])
    )
    outcome = from_result(result)
    assert outcome.seats[0].role is SHERIFF
    assert outcome.seats[0].player == "m1"


def test_a_side_the_ratings_do_not_know_is_refused_by_name() -> None:
    with pytest.raises(InvalidOutcome, match="zombies"):
        from_finish(_finish(side_of_p4=Side.ZOMBIES), PLAYERS, "g")


def test_a_result_naming_another_winner_is_refused() -> None:
    with pytest.raises(InvalidOutcome, match="names law but outlaws won"):
        from_finish(_finish(winners=(Side.LAW,)), PLAYERS, "g")
