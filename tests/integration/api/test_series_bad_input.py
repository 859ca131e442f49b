"""UA5 series over HTTP against the real PostgreSQL: bad input is refused with a 400 naming the
field, never a 500 and never stored: a page offset past any integer column, a close reason with
a control or bidi character."""

from __future__ import annotations

import httpx
import pytest
from litestar import Litestar

from tests.integration.api.people import found, grant, people
from tests.integration.api.test_errors import problem


async def _open(app: Litestar, client: httpx.AsyncClient) -> tuple[str, dict[str, str]]:
    admin, organiser, *players = await people(
        app, client, "Bea Admin", "Bob Organiser", "Amy One", "Abe Two", "Ava Three", "Art Four"
    )
    club = await found(client, admin, "Bad Input Legacy")
    await grant(client, admin, club, organiser, "organiser")
    body = {
        "command_id": "open",
        "series_id": "bad-1",
        "club_id": club,
        "mode": "online",
        "modules": ["UA5"],
        "members": [{"member_id": p.account_id, "name": p.display_name} for p in players],
    }
    opened = await client.post("/series", json=body, headers=organiser.auth)
    assert opened.status_code == 201, opened.text
    return club, organiser.auth


async def test_a_page_offset_out_of_range_is_a_400(app: Litestar, client: httpx.AsyncClient) -> None:
    club, _ = await _open(app, client)
    for offset in (10**20, 2**31):
        answer = await client.get("/series", params={"club": club, "offset": offset})
        assert answer.status_code == 400, answer.text
        assert "offset" in answer.text
    # the largest offset let in is answered with an empty page
    answer = await client.get("/series", params={"club": club, "offset": 1_000_000})
    assert answer.status_code == 200 and answer.json()["series"] == []


@pytest.mark.parametrize("reason", ["done\x00", "a\u202eb", "\x1b[31mred"])
async def test_a_close_reason_with_a_control_character_is_a_400_and_stores_nothing(
    app: Litestar, client: httpx.AsyncClient, reason: str
) -> None:
    _, auth = await _open(app, client)
    refused = await client.post(
        "/series/bad-1/close", json={"command_id": "c", "reason": reason}, headers=auth
    )
    assert refused.status_code == 400, refused.text
    assert "reason" in refused.text
    assert (await client.get("/series/bad-1")).json()["status"] == "open"
    # free text keeps its lines
    closed = await client.post(
        "/series/bad-1/close", json={"command_id": "c2", "reason": "over\nfor now"}, headers=auth
    )
    assert closed.status_code == 200, closed.text
    problem(
        await client.post("/series/bad-1/close", json={"command_id": "c3"}, headers=auth), 422, "invalid-game"
    )


@pytest.mark.parametrize("club", ["a\x00b", "a\u202eb", "club\n", "a b"])
async def test_a_club_id_out_of_its_alphabet_is_a_400_as_over_graphql(
    client: httpx.AsyncClient, club: str
) -> None:
    answer = await client.get("/series", params={"club": club})
    assert answer.status_code == 400, answer.text
    assert "club" in answer.text
