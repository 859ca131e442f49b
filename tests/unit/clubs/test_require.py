"""``require``: a role counts only in its own club, a scorekeeper only at their game, and the
refusal names the roles and the club asked about."""

from __future__ import annotations

import pytest

from services.clubs.errors import RoleRequired
from services.clubs.roles import Grant, Principal, Role, require

ALICE = Principal(
    account_id="a1",
    display_name="Alice",
    roles={
        "home": (Grant(role=Role.ORGANISER), Grant(role=Role.SCOREKEEPER, game_id="table-1")),
        "away": (Grant(role=Role.PLAYER),),
    },
)


def test_a_role_held_in_the_club_passes() -> None:
    require(ALICE, "home", Role.ADMIN, Role.ORGANISER)
    require(ALICE, "away", Role.PLAYER)
    require(ALICE, "away")  # any role: a member


def test_a_role_in_another_club_gives_nothing_there() -> None:
    with pytest.raises(RoleRequired) as refused:
        require(ALICE, "away", Role.ORGANISER)
    assert "organiser" in str(refused.value) and "'away'" in str(refused.value)
    assert "home" not in str(refused.value)
    with pytest.raises(RoleRequired):
        require(ALICE, "elsewhere")


def test_a_scorekeeper_scoped_to_a_game_holds_it_for_that_game_only() -> None:
    require(ALICE, "home", Role.SCOREKEEPER, game_id="table-1")
    with pytest.raises(RoleRequired):
        require(ALICE, "home", Role.SCOREKEEPER, game_id="table-2")
    with pytest.raises(RoleRequired):
        require(ALICE, "home", Role.SCOREKEEPER)
    unscoped = Principal(account_id="k", display_name="K", roles={"home": (Grant(role=Role.SCOREKEEPER),)})
    require(unscoped, "home", Role.SCOREKEEPER, game_id="table-9")
