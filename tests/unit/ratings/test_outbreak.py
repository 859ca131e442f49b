"""Ratings of Undead or Alive games (docs/rulings.md, UA4): after an outbreak a game is survivors
against zombies (the Zombie Master in the zombies' faction), with offsets per (ruleset, table
size, side) of its own, predicted from the overall ratings and leaving the per-role ratings
alone; a UA4 game without an outbreak is rated as usual."""

from __future__ import annotations

import pytest

from services.game.results import Role, Side
from services.game.results.decoder import dice_finish
from services.ratings.model import RatingBook, RatingConfig
from services.ratings.offsets import OffsetTable
from services.ratings.outcome import (
    GameOutcome,
    InvalidOutcome,
    LeaguePlayerId,
    SeatResult,
    from_finish,
)
from tests.unit.game.outbreak_ends import no_outbreak_law_win, survivor_win, zombie_win

from .builders import FIVE, game

UA4 = "dice UA4"
PLAYERS = {f"p{i}": LeaguePlayerId(name) for i, (name, _) in enumerate(FIVE, start=1)}
"""ann Sheriff, bob Deputy... as FIVE; the hand-built ends deal Sheriff, Renegade, Outlaw,
Outlaw, Deputy, so p2 is bob as a Renegade here."""


def _zombie_win(game_id: str = "z") -> GameOutcome:
    return from_finish(dice_finish(zombie_win()), PLAYERS, game_id, ruleset=UA4)


def _survivor_win(game_id: str = "s") -> GameOutcome:
    return from_finish(dice_finish(survivor_win()), PLAYERS, game_id, ruleset=UA4)


def test_an_outbreak_game_is_survivors_against_zombies_with_the_master() -> None:
    outcome = _zombie_win()
    assert outcome.outbreak and not outcome.rates_roles
    assert [(f.kind, f.seats) for f in outcome.factions()] == [
        (Side.SURVIVORS, (0, 3)),
        (Side.ZOMBIES, (1, 2, 4)),  # the Master (seat 2) with the plain zombies
    ]
    assert outcome.winner == 1
    assert outcome.table.factions() == outcome.factions()
    survivors = _survivor_win()
    assert [(f.kind, f.seats) for f in survivors.factions()] == [
        (Side.SURVIVORS, (0, 3, 4)),
        (Side.ZOMBIES, (1, 2)),
    ]
    assert survivors.winner == 0


def test_a_ua4_game_without_an_outbreak_has_the_base_factions() -> None:
    outcome = from_finish(dice_finish(no_outbreak_law_win()), PLAYERS, "n", ruleset=UA4)
    assert not outcome.outbreak and outcome.rates_roles
    assert [f.kind for f in outcome.factions()] == [Side.LAW, Side.OUTLAWS, Side.RENEGADE]


def _seats(*lines: tuple[str, str, Side, bool]) -> tuple[SeatResult, ...]:
    return tuple(
        SeatResult(player=LeaguePlayerId(p), role=Role(role), side=side, won=won)
        for p, role, side, won in lines
    )


FIVE_OUTBREAK = (
    ("a", "sheriff", Side.SURVIVORS, False),
    ("b", "renegade", Side.ZOMBIE_MASTER, True),
    ("c", "outlaw", Side.ZOMBIES, True),
    ("d", "outlaw", Side.SURVIVORS, False),
    ("e", "deputy", Side.ZOMBIES, True),
)


def test_an_impossible_outbreak_is_refused_by_name() -> None:
    GameOutcome(game_id="g", seats=_seats(*FIVE_OUTBREAK), ruleset=UA4)  # the sound one
    with pytest.raises(InvalidOutcome, match="no outbreak: zombies need UA4"):
        GameOutcome(game_id="g", seats=_seats(*FIVE_OUTBREAK), ruleset="dice UA1")
    mixed = (*FIVE_OUTBREAK[:3], ("d", "outlaw", Side.OUTLAWS, False), FIVE_OUTBREAK[4])
    with pytest.raises(InvalidOutcome, match="seat 4 plays for outlaws, not an outbreak side"):
        GameOutcome(game_id="g", seats=_seats(*mixed), ruleset=UA4)
    deputy_master = (*FIVE_OUTBREAK[:4], ("e", "deputy", Side.ZOMBIE_MASTER, True))
    with pytest.raises(InvalidOutcome, match="one Zombie Master"):
        GameOutcome(game_id="g", seats=_seats(*deputy_master), ruleset=UA4)
    not_renegade = (
        FIVE_OUTBREAK[0],
        ("b", "renegade", Side.ZOMBIES, True),
        ("c", "outlaw", Side.ZOMBIE_MASTER, True),
        *FIVE_OUTBREAK[3:],
    )
    with pytest.raises(InvalidOutcome, match="the Zombie Master is a Renegade, not a outlaw"):
        GameOutcome(game_id="g", seats=_seats(*not_renegade), ruleset=UA4)
    nobody = tuple((p, r, s, False) for p, r, s, _ in FIVE_OUTBREAK)
    with pytest.raises(InvalidOutcome, match="one side always wins"):
        GameOutcome(game_id="g", seats=_seats(*nobody), ruleset=UA4)
    half = (*FIVE_OUTBREAK[:4], ("e", "deputy", Side.ZOMBIES, False))
    with pytest.raises(InvalidOutcome, match="the zombies faction both won and lost"):
        GameOutcome(game_id="g", seats=_seats(*half), ruleset=UA4)
    all_zombies = tuple(
        (p, r, Side.ZOMBIES if s is Side.SURVIVORS else s, True) for p, r, s, _ in FIVE_OUTBREAK
    )
    with pytest.raises(InvalidOutcome, match="leaves no survivors"):
        GameOutcome(game_id="g", seats=_seats(*all_zombies), ruleset=UA4)


def _role_records(book: RatingBook) -> dict[str, dict[Role, tuple[int, int, float, int]]]:
    return {
        p: {r: (rr.games, rr.wins, rr.deviation, len(rr.history)) for r, rr in record.roles.items()}
        for p, record in book.players.items()
    }


def test_an_outbreak_game_is_rated_by_faction_and_leaves_the_roles_alone() -> None:
    book = RatingBook()
    book.apply(game(FIVE, Side.LAW, game_id="before"))  # everyone has a role record already
    roles_before = _role_records(book)
    predicted = book.predict(_zombie_win().table)
    changes = book.apply(_zombie_win())
    # the factions are the outbreak's, the Master with the zombies
    assert [(c.player, c.faction, c.won) for c in changes] == [
        ("ann", Side.SURVIVORS, False), ("bob", Side.ZOMBIES, True), ("cat", Side.ZOMBIES, True),
        ("dan", Side.SURVIVORS, False), ("eve", Side.ZOMBIES, True),
    ]
    assert [c.win_probability for c in changes] == [predicted[0], predicted[1], predicted[1], predicted[0],
                                                    predicted[1]]
    delta: dict[str, float] = {c.player: c.rating_after - c.rating_before for c in changes}
    assert all(delta[p] > 0 for p in ("bob", "cat", "eve")) and all(delta[p] < 0 for p in ("ann", "dan"))
    assert sum(delta.values()) == pytest.approx(0.0, abs=1e-9)
    # a zombie's share: K * (1 - P(zombies)) / 3
    assert delta["cat"] == pytest.approx(RatingConfig().k_provisional * (1 - predicted[1]) / 3)
    # no role record moved or appeared: not the dealt role, not the Master's
    assert _role_records(book) == roles_before
    assert all(not c.role_rated for c in changes)
    # the overall ones did: games, wins and history
    overall = {p: (r.games, r.wins) for p, r in book.players.items()}
    assert (overall[LeaguePlayerId("ann")], overall[LeaguePlayerId("bob")]) == ((2, 1), (2, 2))
    assert book.players[LeaguePlayerId("cat")].history[-1].game_id == "z"


def test_an_outbreak_game_is_predicted_from_the_overall_ratings() -> None:
    book = RatingBook()
    for i in range(10):  # ann wins as the Sheriff: her Sheriff deviation grows
        book.apply(game(FIVE, Side.LAW, game_id=f"g{i}"))
    ann = book.players[LeaguePlayerId("ann")]
    assert book.rating(LeaguePlayerId("ann")).roles[0].rating != ann.rating  # a Sheriff rating of her own
    table = _zombie_win().table
    survivors = book.strengths(table)[0]
    dan = book.players[LeaguePlayerId("dan")].rating
    offset = book.offsets.offset(UA4, 5, Side.SURVIVORS)
    assert survivors == pytest.approx((ann.rating + dan) / 2 + offset)


def test_outbreak_offsets_are_their_own_cells_per_ruleset_size_and_side() -> None:
    book = RatingBook()
    book.apply(game(FIVE, Side.LAW, game_id="base"))
    base = {k: c.value for k, c in book.offsets.cells["dice"][5].items()}
    book.apply(_zombie_win("z1"))
    book.apply(_survivor_win("s1"))
    book.apply(_zombie_win("z2"))
    cells = book.offsets.cells[UA4][5]
    assert {k: c.games for k, c in cells.items()} == {Side.SURVIVORS: 3, Side.ZOMBIES: 3}
    assert cells[Side.ZOMBIES].value > 0 > cells[Side.SURVIVORS].value  # two zombie wins of three
    assert {k: c.value for k, c in book.offsets.cells["dice"][5].items()} == base  # the base game's stay
    normalised = book.offsets.normalised()[UA4][5]
    # survivors and zombies are centred on their own mean, the base factions on theirs
    assert normalised[Side.SURVIVORS] + normalised[Side.ZOMBIES] == pytest.approx(0.0, abs=1e-9)
    assert sum(normalised[k] for k in (Side.LAW, Side.OUTLAWS, Side.RENEGADE)) == pytest.approx(0.0, abs=1e-9)
    # the book round-trips with the new kinds
    assert RatingBook.from_json(book.to_json()).offsets == book.offsets


def test_outbreak_kinds_only_at_the_sizes_that_saw_an_outbreak() -> None:
    table = OffsetTable()
    table.update(UA4, 4, [Side.LAW, Side.OUTLAWS, Side.RENEGADE], [1 / 3] * 3, [1.0, 0.0, 0.0])
    table.update(UA4, 5, [Side.SURVIVORS, Side.ZOMBIES], [0.5, 0.5], [0.0, 1.0])
    normalised = table.normalised()[UA4]
    assert set(normalised[4]) == {Side.LAW, Side.OUTLAWS, Side.RENEGADE}
    assert set(normalised[5]) == {Side.LAW, Side.OUTLAWS, Side.RENEGADE, Side.SURVIVORS, Side.ZOMBIES}


def test_a_ua4_game_without_an_outbreak_is_rated_as_usual() -> None:
    ua4 = from_finish(dice_finish(no_outbreak_law_win()), PLAYERS, "n", ruleset=UA4)
    base = from_finish(dice_finish(no_outbreak_law_win()), PLAYERS, "n")
    ua4_book, base_book = RatingBook(), RatingBook()
    ua4_changes, base_changes = ua4_book.apply(ua4), base_book.apply(base)
    # the same changes as the base game's (its ruleset's offsets start from the base game's)
    assert ua4_changes == base_changes
    assert all(c.role_rated for c in ua4_changes)
    assert ua4_book.players == base_book.players
    assert {k: c.games for k, c in ua4_book.offsets.cells[UA4][5].items()} == {
        Side.LAW: 1, Side.OUTLAWS: 1, Side.RENEGADE: 1,
    }
    bob = ua4_book.players[LeaguePlayerId("bob")].roles
    assert {r.value: (rr.games, rr.wins) for r, rr in bob.items()} == {"renegade": (1, 0)}
