"""The clubs' lookups other components use (issue 11, "names wherever a person is shown"):
display names by account id, and whether an account is a member of a club."""

from __future__ import annotations

import httpx
from litestar import Litestar

from services.clubs.service import display_names, is_member
from tests.integration.clubs.conftest import found, grant, join_by_invite, person
from tests.integration.clubs.test_clubs import pool_of


async def test_display_names_answers_accounts_and_leaves_unknown_ids_out(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    rosa = await person(app, client, "rosa", "Rosa Quick")
    sam = await person(app, client, "sam", "Sam Slow")
    pool = pool_of(app)
    names = await display_names(pool, [rosa.account_id, sam.account_id, "nobody", rosa.account_id])
    assert names == {rosa.account_id: "Rosa Quick", sam.account_id: "Sam Slow"}
    assert await display_names(pool, []) == {}
    assert await display_names(pool, iter([sam.account_id])) == {sam.account_id: "Sam Slow"}


async def test_is_member_is_any_role_in_that_club_only(app: Litestar, client: httpx.AsyncClient) -> None:
    rosa = await person(app, client, "rosa", "Rosa Quick")
    una = await person(app, client, "una", "Una Other")
    keeper = await person(app, client, "kim", "Kim Keeper")
    club_id = await found(client, rosa, "Dodge City Dicers")
    other_club = await found(client, una, "Other Club")
    sam = await join_by_invite(client, rosa, club_id, "sam", "Sam Slow")
    await grant(client, rosa, club_id, keeper, "scorekeeper", game_id="table-1")
    pool = pool_of(app)
    assert await is_member(pool, club_id, rosa.account_id)
    assert await is_member(pool, club_id, sam.account_id)
    assert await is_member(pool, club_id, keeper.account_id)
    assert not await is_member(pool, club_id, una.account_id)
    assert not await is_member(pool, other_club, sam.account_id)
    assert not await is_member(pool, "no-such-club", rosa.account_id)
