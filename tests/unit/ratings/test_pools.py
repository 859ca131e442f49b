"""The pool rule alone (services/ratings/pools.py, docs/ratings.md "What is rated: pools"): which
pools a finished game moves, decided from its recorded facts."""

from __future__ import annotations

from dataclasses import replace

from services.ratings.pools import Decision, GameFacts, Schedule, decide, decide_sheet

MEMBERS = ("ann", "bob", "cy", "dee")
ONLINE_OWN = GameFacts(
    mode="online",
    members=MEMBERS,
    joined_by_self=frozenset(MEMBERS),
    imported=False,
    league_id=None,
    created_by="ann",
    club_id=None,
    schedule=None,
)
LEAGUE_TABLE = GameFacts(
    mode="table",
    members=MEMBERS,
    joined_by_self=frozenset(),
    imported=False,
    league_id="tuesday",
    created_by="kim",
    club_id="home",
    schedule=Schedule(mode="table", scorekeeper="kim", scheduled_by="olga"),
)


def test_an_online_game_every_seat_taken_by_its_own_account_is_global() -> None:
    assert decide(ONLINE_OWN) == Decision(("global",), "")


def test_an_online_game_with_a_seat_filled_by_somebody_else_is_not_rated() -> None:
    filled = replace(ONLINE_OWN, joined_by_self=frozenset(MEMBERS[:3]))
    assert decide(filled) == Decision((), "not every seat was taken by its own account")
    twice = replace(ONLINE_OWN, members=("ann", "ann", "bob"), joined_by_self=frozenset({"ann", "bob"}))
    assert decide(twice).pools == ()


def test_an_import_is_never_rated_whatever_else_it_claims() -> None:
    for facts in (ONLINE_OWN, LEAGUE_TABLE):
        assert decide(replace(facts, imported=True)) == Decision(
            (), "an imported record: replayable, never rated"
        )


def test_a_friendly_table_game_is_not_rated() -> None:
    friendly = replace(LEAGUE_TABLE, league_id=None, club_id=None, schedule=None)
    assert decide(friendly) == Decision((), "a friendly table game: not rated")


def test_a_league_table_game_moves_its_clubs_pool_only_as_its_schedule_says() -> None:
    assert decide(LEAGUE_TABLE) == Decision(("club:home",), "")
    assert decide(replace(LEAGUE_TABLE, created_by="olga")).pools == ("club:home",)  # who scheduled it
    assert decide(replace(LEAGUE_TABLE, created_by="mallory")).pools == ()  # nobody the schedule names
    assert decide(replace(LEAGUE_TABLE, schedule=None)).pools == ()  # not scheduled by its league
    assert decide(replace(LEAGUE_TABLE, club_id=None)).pools == ()  # a league no club founded
    online = Schedule(mode="online", scorekeeper=None, scheduled_by="olga")
    assert decide(replace(LEAGUE_TABLE, schedule=online)).pools == ()  # scheduled online, played at a table


def test_an_online_league_game_moves_its_club_and_the_global_pool_when_its_seats_are_its_own() -> None:
    league = replace(
        ONLINE_OWN,
        league_id="tuesday",
        club_id="home",
        schedule=Schedule(mode="online", scorekeeper=None, scheduled_by="olga"),
    )
    assert decide(league).pools == ("global", "club:home")
    assert decide(replace(league, joined_by_self=frozenset())).pools == ("club:home",)


def test_a_result_sheet_moves_its_leagues_club_pool() -> None:
    assert decide_sheet("home", "tuesday") == Decision(("club:home",), "")
    assert decide_sheet(None, "tuesday").pools == ()
