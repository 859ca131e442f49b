from __future__ import annotations

import msgspec
import pytest

from services.game.results import Elimination, FinishKind, GameFinish, Role, SeatOutcome, Side
from services.ratings.model import RatingBook
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
    with pytest.raises(InvalidOutcome, match="seat p4 plays for 'vampires', a side not rated"):
        from_finish(_finish(side_of_p4="vampires"), PLAYERS, "g")
    # a zombie side is known, but only after an outbreak: never beside the base sides
    with pytest.raises(InvalidOutcome, match="no outbreak: zombies need UA4"):
        from_finish(_finish(side_of_p4=Side.ZOMBIES), PLAYERS, "g")


def test_a_result_naming_another_winner_is_refused() -> None:
    with pytest.raises(InvalidOutcome, match="names law but outlaws won"):
        from_finish(_finish(winners=(Side.LAW,)), PLAYERS, "g")


def _old_saloon_finish() -> GameFinish:
    """A five-player OS3 + OS5 game: every seat holds a special role, the Outlaw Le Joueur ended
    as the Ghost and shares the Outlaws' win."""

    def seat(
        p: str, role: Role, special: str, side: str, won: bool, alive: bool, ghost: bool = False
    ) -> SeatOutcome:
        return SeatOutcome(
            seat=p, role=role.value, base_role=role, special=special, side=side, won=won, alive=alive,
            ghost=ghost,
        )

    return GameFinish(
        finish=FinishKind.WON,
        winners=(Side.OUTLAWS,),
        seats=(
            seat("p1", SHERIFF, "l_ours", Side.LAW, False, False),
            seat("p2", DEPUTY, "le_doc", Side.LAW, False, True),
            seat("p3", OUTLAW, "le_joueur", Side.OUTLAWS, True, False, ghost=True),
            seat("p4", OUTLAW, "le_vilain", Side.OUTLAWS, True, True),
            seat("p5", RENEGADE, "main_gauche", Side.RENEGADE, False, False),
        ),
        eliminations=(
            Elimination(seat="p3", by="p1", cause="shoot1", turn=2),
            Elimination(seat="p5", by=None, cause="dynamite", turn=6),
            Elimination(seat="p1", by="p4", cause="shoot2", turn=9),
        ),
        turn=9,
    )


def test_special_roles_are_rated_under_their_base_roles() -> None:
    members = {f"p{i}": f"m{i}" for i in range(1, 6)}
    result = _old_saloon_finish().result("os-game", members, ruleset="dice OS3 OS5")
    assert [(s.special, s.ghost) for s in result.seats] == [
        ("l_ours", False), ("le_doc", False), ("le_joueur", True), ("le_vilain", False),
        ("main_gauche", False),
    ]
    outcome = from_result(result)
    assert outcome.ruleset == "dice OS3 OS5" and outcome.table.ruleset == "dice OS3 OS5"
    assert [s.role for s in outcome.seats] == [SHERIFF, DEPUTY, OUTLAW, OUTLAW, RENEGADE]
    book = RatingBook()
    changes = book.apply(outcome)
    assert [c.role for c in changes] == [SHERIFF, DEPUTY, OUTLAW, OUTLAW, RENEGADE]
    # the Ghost shares the Outlaws' win like any eliminated member of the winning side
    assert [c.won for c in changes] == [False, False, True, True, False]
    for player, record in book.players.items():
        assert set(record.roles) <= set(Role), player
        assert all(type(role) is Role for role in record.roles)
    assert book.players[LeaguePlayerId("m2")].roles.keys() == {DEPUTY}
    shown = {r.role: r.games for r in book.rating(LeaguePlayerId("m3")).roles}
    assert shown == {SHERIFF: 0, DEPUTY: 0, OUTLAW: 1, RENEGADE: 0}
    # what a rebuild reads back is the same book: no role key other than the four base roles
    assert RatingBook.from_json(book.to_json()) == book


def test_a_malformed_ruleset_is_refused_by_name() -> None:
    members = {f"p{i}": f"m{i}" for i in range(1, 5)}
    for ruleset in ("", "dice  OS1", " dice"):
        with pytest.raises(InvalidOutcome, match="ruleset"):
            from_result(_finish().result("g", members, ruleset=ruleset))
