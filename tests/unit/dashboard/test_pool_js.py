"""The ratings pool picker of the leaderboard and player pages (services/dashboard/static/js/pool.js)
under node: a page asks for the pool its address names (the global pool unless ``club=``), says
in plain words which ratings it shows, and offers the global pool and the reader's own clubs by
name (docs/ratings.md, "What is rated: pools")."""

from __future__ import annotations

from pathlib import Path

from tests.unit.dashboard.node import run_harness

HARNESS = Path(__file__).with_name("pool.mjs")


def test_the_page_asks_for_the_pool_its_address_names_and_says_which() -> None:
    answers = run_harness(HARNESS)
    assert answers["pools"] == ["global", "club:home"]
    # a league's board with no club named asks for the league's club's pool (null: the API's choice)
    assert answers["boards"] == ["global", None, "club:home"]
    assert "league's club" in answers["leagueWords"]
    everyone, club, named = answers["words"]
    assert everyone.startswith("Global ratings: online games")
    # a club's id is not a name: until the name is known the page says "one club", never the id
    assert club == "Ratings of one club: its league games only."
    assert named == "Ratings of the club Home Saloon: its league games only."


def test_the_picker_offers_the_global_pool_and_the_readers_clubs_by_name() -> None:
    answers = run_harness(HARNESS)
    signed_out = answers["signedOut"]
    # signed out: the global pool and the club the address names (not by its id), which stays picked
    assert signed_out["after"] == [
        ["", "Global (online games)", False],
        ["away", "the club in the address", True],
    ]
    assert signed_out["names"] == []
    assert signed_out["picked"] == "#/leaderboard?league=tuesday&club=home"
    assert signed_out["global"] == "#/leaderboard?league=tuesday"
    signed_in = answers["signedIn"]
    assert signed_in["after"] == [
        ["", "Global (online games)", False],
        ["home", "Club Home Saloon", True],
        ["gulch", "Club Dry Gulch", False],
    ]
    assert signed_in["names"] == ["Home Saloon"]
