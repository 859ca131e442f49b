"""Each player's browser at a table card game (issue 14, "Table play"): beside the scorekeeper, a
seated player enters his own decisions with his own account; another seat's decisions, every
table input (the next card, even of his own draw: test_card_table_seat_probe.py says why) and a
foreign club's player are refused with nothing stored. The rule: docs/card-engine.md, "Each
player's browser at a table"."""

from __future__ import annotations

from typing import Any

import httpx
from litestar import Litestar

from tests.integration.api.people import Person, found, grant, people

GAME = "club-cards-seats"
SEATING = (
    ("sheriff", "paul_regret"),
    ("outlaw", "el_gringo"),
    ("outlaw", "black_jack"),
    ("renegade", "lucky_duke"),
)


async def enter(client: httpx.AsyncClient, who: Person, command: object, command_id: str) -> httpx.Response:
    return await client.post(
        f"/games/{GAME}/commands", json={"command": command, "command_id": command_id}, headers=who.auth
    )


async def stored(client: httpx.AsyncClient) -> list[dict[str, Any]]:
    return (await client.get(f"/games/{GAME}/events", params={"limit": 1000})).json()


async def test_a_seated_player_enters_his_own_entries_at_a_card_table_and_nobody_elses(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    keeper, ann, bob, cy, dee, fred = await people(
        app, client, "Kay Keeper", "Ann Seat", "Bob Seat", "Cy Seat", "Dee Seat", "Fred Foreign"
    )
    club, other = await found(client, keeper, "Card Saloon"), await found(client, fred, "Other Saloon")
    for p in (ann, bob, cy, dee):
        await grant(client, keeper, club, p, "player")
    await grant(client, fred, other, fred, "player")
    seated = (ann, bob, cy, dee)
    created = await client.post(
        "/games",
        json={
            "command_id": "create",
            "mode": "table",
            "player_count": 4,
            "seats": [
                {"member_id": p.account_id, "name": p.display_name, "role": role, "character": character}
                for p, (role, character) in zip(seated, SEATING, strict=True)
            ],
            "game_id": GAME,
            "ruleset": {"game_type": "cards"},
        },
        headers=keeper.auth,
    )
    assert created.status_code == 201, created.text
    seat_of = {p["member_id"]: p["id"] for p in created.json()["state"]["players"]}
    by_seat = {seat_of[p.account_id]: p for p in seated}

    # a player never shuffles: that concerns every seat
    shuffle = {"type": "ShuffleDeck", "player": "table", "order": []}
    refused = await enter(client, ann, shuffle, "a-shuffle")
    assert refused.status_code == 403, refused.text
    table_inputs = "the scorekeeper enters the shuffles, the cards drawn or turned up and the random picks"
    assert table_inputs in refused.json()["detail"]
    shuffled = await enter(client, keeper, shuffle, "k-0")
    assert shuffled.status_code == 200, shuffled.text

    # the deal and the draws: each card is named by the scorekeeper, even one a seat draws himself
    # (else a seat could name card after card and tell one in another hand from one in the deck)
    cards = iter(range(1, 81))
    n = 0
    while (state := (await client.get(f"/games/{GAME}")).json())["awaiting"]["decision"] == "top_card":
        to = state["awaiting"]["from_player"]
        card = next(cards)
        n += 1
        if n <= 2 or to == seat_of[ann.account_id]:
            before = await stored(client)
            for who in (by_seat[to], ann, fred):  # his own draw, another's, a foreign club's player
                refused = await enter(client, who, f"table top {card}", f"x-{n}-{who.account_id}")
                assert refused.status_code == 403, refused.text
            assert await stored(client) == before
        answer = await enter(client, keeper, f"table top {card}", f"k-{n}")
        assert answer.status_code == 200, answer.text
    assert state["awaiting"] == {"player": seat_of[ann.account_id], "decision": "play"}

    # Ann's own view: her hand, nobody else's
    mine = (await client.get(f"/games/{GAME}", headers=ann.auth)).json()
    assert [p["id"] for p in mine["players"] if p["hand"] is not None] == [seat_of[ann.account_id]]
    assert mine["legal_commands"] and all(
        c.startswith(seat_of[ann.account_id]) for c in mine["legal_commands"]
    )

    # her decision is hers alone
    before = await stored(client)
    for who in (bob, fred):
        refused = await enter(client, who, f"{seat_of[ann.account_id]} end", f"x-{who.account_id}")
        assert refused.status_code == 403, refused.text
    assert await stored(client) == before
    take_back = await enter(client, ann, "takeback", "a-tb")  # taking back is the scorekeeper's
    assert take_back.status_code == 403, take_back.text
    assert await stored(client) == before
    ended = await enter(client, ann, f"{seat_of[ann.account_id]} end", "a-end")
    assert ended.status_code == 200, ended.text
    assert (await client.get(f"/games/{GAME}/audit")).json()["clean"]
