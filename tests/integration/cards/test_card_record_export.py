"""An ongoing online card game's record is exported to nobody (docs/api.md, export policy): a
record names every deck's order, every hand and Kit Carlson's looks, so it would show a player
the cards still to come.

The case the export's check must not miss: two players left, the caller and the Sheriff, the
Sheriff's hand empty. The caller then sees every role (his own, the Sheriff's, the eliminated
players') and no hand is hidden from him (the Sheriff holds none), yet the deck's order is."""

from __future__ import annotations

import random

import httpx
from litestar import Litestar

from tests.integration.api.bots import bearer, play_to_the_end, player_tokens
from tests.integration.cards.test_card_api import create_cards


async def test_an_ongoing_online_card_game_is_not_exported_to_the_last_player_beside_an_empty_handed_sheriff(
    app: Litestar, client: httpx.AsyncClient, organiser_token: str
) -> None:
    exports: list[int] = []
    for g in range(12):
        game_id = f"export-{g}"
        created = await create_cards(client, organiser_token, game_id)
        assert created.status_code == 201, created.text
        tokens = await player_tokens(app, created.json())
        member_of = {p["id"]: p["member_id"] for p in created.json()["state"]["players"]}

        async def look(
            _: int,
            game_id: str = game_id,
            tokens: dict[str, str] = tokens,
            member_of: dict[str, str] = member_of,
        ) -> None:
            state = (await client.get(f"/games/{game_id}")).json()
            living = [p for p in state["players"] if p["alive"]]
            if state["status"] != "ongoing" or len(living) != 2:
                return
            sheriff = next((p for p in living if p["role"] == "sheriff"), None)
            if sheriff is None or sheriff["hand_count"]:
                return
            other = next(p for p in living if p is not sheriff)
            token = tokens[member_of[other["id"]]]
            exports.append((await client.get(f"/games/{game_id}/record", headers=bearer(token))).status_code)

        await play_to_the_end(client, game_id, tokens, random.Random(g), on_command=look)
        if exports:
            break
    assert exports, "no game reached the case"
    assert set(exports) == {409}, exports
