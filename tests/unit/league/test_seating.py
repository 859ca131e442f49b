"""Seating properties: everyone placed once, allowed sizes, byes rotate, repeats minimised,
the Sheriff rotates fairly, and the same inputs give the same seating."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from services.league.errors import InvalidCommand, PlayerSeatedTwice
from services.league.seating import Seating, SeatingHistory, has_sheriff, plan_tables, seat_round
from services.league.vocabulary import SeatingPolicy

DEFAULT = SeatingPolicy()
ONLY_FIVES = SeatingPolicy(allowed_sizes=(5,), preferred_size=5)
ANY_SIZE = SeatingPolicy(allowed_sizes=(3, 4, 5, 6, 7, 8), preferred_size=5)

policies = st.sampled_from(
    [DEFAULT, ONLY_FIVES, ANY_SIZE, SeatingPolicy(allowed_sizes=(4, 8), preferred_size=4)]
)


def members(n: int) -> list[str]:
    return [f"m{i:03d}" for i in range(n)]


def record(history: SeatingHistory, seating: Seating) -> None:
    history.record([(t.members, t.sheriff) for t in seating.tables], seating.byes)


def play_season(
    n: int, rounds: int, policy: SeatingPolicy, seed: int
) -> tuple[SeatingHistory, list[Seating]]:
    """Seat ``rounds`` rounds, with random results moving the Swiss scores between rounds."""
    history, scores, seatings = SeatingHistory(), dict.fromkeys(members(n), 0.0), []
    results = random.Random(seed)
    for r in range(rounds):
        seating = seat_round(list(scores), scores=scores, history=history, policy=policy, seed=f"{seed}:{r}")
        record(history, seating)
        seatings.append(seating)
        for member in seating.seated:
            scores[member] += 3.0 if results.random() < 0.4 else 0.0
    return history, seatings


@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 45), policy=policies, seed=st.text(max_size=8))
def test_every_entrant_is_seated_once_or_has_a_bye_and_sizes_are_allowed(
    n: int, policy: SeatingPolicy, seed: str
) -> None:
    scores = {m: float(i % 4) for i, m in enumerate(members(n))}
    seating = seat_round(members(n), scores=scores, history=SeatingHistory(), policy=policy, seed=seed)
    placed = seating.seated + list(seating.byes)
    assert sorted(placed) == members(n)
    assert all(len(t.members) in policy.allowed_sizes for t in seating.tables)
    assert [t.number for t in seating.tables] == list(range(1, len(seating.tables) + 1))
    assert len(seating.byes) == plan_tables(n, policy)[1]


@pytest.mark.parametrize(
    ("players", "policy", "sizes", "byes"),
    [
        (12, DEFAULT, [6, 6], 0),
        (13, DEFAULT, [5, 4, 4], 0),
        (10, DEFAULT, [5, 5], 0),
        (12, ONLY_FIVES, [5, 5], 2),
        (2, DEFAULT, [], 2),
        (3, DEFAULT, [], 3),
        (3, ANY_SIZE, [3], 0),
        (9, SeatingPolicy(allowed_sizes=(4, 8), preferred_size=4), [4, 4], 1),
    ],
)
def test_table_plan_has_fewest_byes_then_sizes_nearest_the_preferred(
    players: int, policy: SeatingPolicy, sizes: list[int], byes: int
) -> None:
    assert plan_tables(players, policy) == (sizes, byes)


def test_same_inputs_same_seating_and_the_seed_matters() -> None:
    scores = dict.fromkeys(members(17), 0.0)

    def seat(seed: str) -> Seating:
        return seat_round(members(17), scores=scores, history=SeatingHistory(), policy=DEFAULT, seed=seed)

    assert seat("a") == seat("a")
    assert any(seat("a") != seat(str(s)) for s in range(5))


def test_byes_rotate_nobody_gets_a_second_before_everyone_had_one() -> None:
    history, seatings = play_season(12, 6, ONLY_FIVES, seed=3)  # 2 tables of 5, 2 byes a round
    assert all(len(s.byes) == 2 for s in seatings)
    counts = [history.byes.get(m, 0) for m in members(12)]
    assert counts == [1] * 12
    seen: dict[str, int] = {}
    for seating in seatings:
        for member in seating.byes:
            seen[member] = seen.get(member, 0) + 1
        assert max(seen.values()) - min(seen.get(m, 0) for m in members(12)) <= 1


def test_swiss_groups_similar_scores_together() -> None:
    scores = {m: float(i) for i, m in enumerate(members(20))}
    seating = seat_round(members(20), scores=scores, history=SeatingHistory(), policy=DEFAULT, seed="s")
    means = [sum(scores[m] for m in t.members) / len(t.members) for t in seating.tables]
    assert means == sorted(means, reverse=True)
    assert min(scores[m] for m in seating.tables[0].members) > max(
        scores[m] for m in seating.tables[-1].members
    )


def naive_repeats(n: int, rounds: int, policy: SeatingPolicy, seed: int) -> int:
    """Repeat table-mates when tables are filled from a plain shuffle (same sizes, same byes)."""
    history, rng = SeatingHistory(), random.Random(seed)
    repeats = 0
    for _ in range(rounds):
        sizes, byes = plan_tables(n, policy)
        order = members(n)
        rng.shuffle(order)
        tables, start = [], byes
        for size in sizes:
            tables.append(order[start : start + size])
            start += size
        repeats += history.repeat_pairs(tables)
        history.record([(t, None) for t in tables], order[:byes])
    return repeats


@pytest.mark.parametrize(("n", "rounds"), [(12, 3), (20, 4), (25, 5), (40, 6)])
def test_repeat_table_mates_are_fewer_than_with_a_naive_seating(n: int, rounds: int) -> None:
    for seed in range(3):
        history, repeats = SeatingHistory(), 0
        for seating in play_season(n, rounds, DEFAULT, seed)[1]:
            repeats += history.repeat_pairs([t.members for t in seating.tables])
            record(history, seating)
        naive = naive_repeats(n, rounds, DEFAULT, seed)
        assert repeats <= naive
        if n >= 20:  # room to spread out: at most two thirds of the naive repeats
            assert repeats * 3 <= naive * 2, (repeats, naive)


@pytest.mark.parametrize(
    ("n", "policy"), [(12, DEFAULT), (17, DEFAULT), (17, ONLY_FIVES), (23, DEFAULT), (11, ANY_SIZE)]
)
def test_sheriff_counts_stay_within_one_of_each_players_fair_share_over_a_season(
    n: int, policy: SeatingPolicy
) -> None:
    for seed in range(3):
        history, _ = play_season(n, 10, policy, seed)
        for member in members(n):
            fair = history.sheriff_share.get(member, 0.0)
            assert abs(history.sheriffs.get(member, 0) - fair) <= 1.0 + 1e-9, (member, fair)
        assert sum(history.sheriffs.values()) == pytest.approx(sum(history.sheriff_share.values()))


def test_every_table_with_a_sheriff_role_gets_one_of_its_players_and_three_player_tables_none() -> None:
    _, seatings = play_season(11, 4, ANY_SIZE, seed=1)
    tables = [t for s in seatings for t in s.tables]
    for table in tables:
        if has_sheriff(len(table.members)):
            assert table.sheriff in table.members
        else:
            assert table.sheriff is None
    three = seat_round(members(3), scores={}, history=SeatingHistory(), policy=ANY_SIZE, seed="x")
    assert three.tables[0].sheriff is None


def test_an_entrant_listed_twice_or_no_entrants_is_refused() -> None:
    with pytest.raises(PlayerSeatedTwice):
        seat_round(["a", "b", "c", "a"], scores={}, history=SeatingHistory(), policy=ANY_SIZE, seed="x")
    with pytest.raises(InvalidCommand):
        seat_round([], scores={}, history=SeatingHistory(), policy=ANY_SIZE, seed="x")


@pytest.mark.parametrize(
    "policy",
    [
        SeatingPolicy(allowed_sizes=(2, 5), preferred_size=5),
        SeatingPolicy(allowed_sizes=(5, 4), preferred_size=5),
        SeatingPolicy(allowed_sizes=(4, 5), preferred_size=6),
        SeatingPolicy(allowed_sizes=(), preferred_size=5),
    ],
)
def test_impossible_policies_are_refused(policy: SeatingPolicy) -> None:
    with pytest.raises(InvalidCommand):
        policy.validate()
