"""A seated player at a table card game may not name the next card of his own draws from his own
browser (docs/card-engine.md, "Each player's browser at a table"): the engine refuses a card that
is not in the deck, and a refusal stores nothing, so the answer must not let him test where a
card lies: naming a card in another seat's hand must be answered as naming a card still in the
deck would be. Otherwise he may name card after card and learn which ones the others hold."""

from __future__ import annotations

from typing import Any

import httpx
from litestar import Litestar

from tests.integration.api.people import found, grant, people
from tests.integration.cards.test_card_table_seats import GAME, SEATING, enter


async def test_a_seat_naming_his_draw_cannot_tell_a_card_in_another_hand_from_one_in_the_deck(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    keeper, ann, bob, cy, dee = await people(
        app, client, "Kay Keeper", "Ann Seat", "Bob Seat", "Cy Seat", "Dee Seat"
    )
    club = await found(client, keeper, "Card Saloon")
    seated = (ann, bob, cy, dee)
    for p in seated:
        await grant(client, keeper, club, p, "player")
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
    assert (
        await enter(client, keeper, {"type": "ShuffleDeck", "player": "table", "order": []}, "k-0")
    ).status_code == 200
    cards = iter(range(1, 81))
    ann_seat = seat_of[ann.account_id]

    async def table() -> dict[str, Any]:
        return (await client.get(f"/games/{GAME}", headers=keeper.auth)).json()  # type: ignore[no-any-return]

    n = 0
    while (state := await table())["awaiting"]["decision"] == "top_card" and state[
        "active_player"
    ] != ann_seat:
        n += 1
        assert (await enter(client, keeper, f"table top {next(cards)}", f"k-{n}")).status_code == 200
    # the Sheriff's (Ann's) first draw of her turn: she names it herself
    assert state["awaiting"] == {
        "player": "table",
        "decision": "top_card",
        "from_player": seat_of[ann.account_id],
    }
    bobs = next(p for p in state["players"] if p["id"] == seat_of[bob.account_id])["hand_ids"]
    in_bobs_hand = await enter(client, ann, f"table top {bobs[0]}", "probe-1")
    in_the_deck = await enter(client, ann, f"table top {next(cards)}", "probe-2")
    assert in_bobs_hand.status_code == in_the_deck.status_code, (in_bobs_hand.text, in_the_deck.text)
