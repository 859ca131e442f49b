"""OS3's role windows are questions open to the table: the engine lists every holder's uses
of their power there, and whose power acts at a window is hidden. So each player is answered
only their own legal commands (the awaited one their pass and their own uses, a holder their
use), never another seat's, which would tell them who holds what."""

from __future__ import annotations

import random
from typing import Any

import httpx
from litestar import Litestar

from services.game.engines import engine_for
from services.game.rules.dice.old_saloon.special_roles import CARDS_OF
from services.game.rules.dice.vocabulary import Role
from services.game.rules.ruleset import ruleset_of
from tests.integration.api.bots import bearer, player_tokens

ROLES = (Role.SHERIFF, Role.OUTLAW, Role.OUTLAW, Role.RENEGADE, Role.DEPUTY)
FACES = ("arrow", "dynamite", "shoot1", "shoot2", "beer", "gatling")


def os3_seats() -> list[dict[str, Any]]:
    pool = sorted(c.value for c in engine_for(ruleset_of(["OS3"]))._pool)
    used: set[str] = set()
    seats = []
    for i, role in enumerate(ROLES):
        card = next(c for c in CARDS_OF[role] if c not in used)
        used.add(card)
        seats.append({"member_id": f"w{i + 1}", "name": f"Win {i + 1}", "role": role.value,
                      "character": pool[i], "special": card.value})  # fmt: skip
    return seats


async def test_a_role_window_lists_each_player_only_their_own_commands(
    app: Litestar, client: httpx.AsyncClient, organiser_token: str
) -> None:
    seats = os3_seats()
    created = await client.post(
        "/games",
        json={"command_id": "windows", "mode": "table", "player_count": 5, "seats": seats,
              "ruleset": {"modules": ["OS3"]}},
        headers=bearer(organiser_token),
    )  # fmt: skip
    assert created.status_code == 201, created.text
    game_id = created.json()["game_id"]
    vault = app.state.resources.gateway.tokens
    tokens = {s["member_id"]: await vault.issue_player(game_id, s["member_id"]) for s in seats}
    seat_of = {s["member_id"]: f"p{i + 1}" for i, s in enumerate(seats)}
    rng = random.Random(5)
    windows_with_another_holder = 0
    for n in range(400):
        state = (await client.get(f"/games/{game_id}", headers=bearer(organiser_token))).json()
        if state["status"] != "ongoing":
            break
        awaiting = state["awaiting"]
        if awaiting["decision"] == "roll":
            command: Any = {"type": "RollDice", "player": awaiting["player"],
                            "faces": [rng.choice(FACES) for _ in awaiting["dice"]]}  # fmt: skip
        else:
            everyone = state["legal_commands"]  # the scorekeeper's: every seat's
            if awaiting["decision"].startswith("role_window"):
                for member, token in tokens.items():
                    seen = (await client.get(f"/games/{game_id}", headers=bearer(token))).json()
                    seat = seat_of[member]
                    assert all(c.split()[0] == seat for c in seen["legal_commands"]), (seat, seen)
                    assert seen["legal_commands"] == [c for c in everyone if c.split()[0] == seat]
                if any(c.split()[0] != awaiting["player"] for c in everyone):
                    windows_with_another_holder += 1
            command = everyone[0]
        played = await client.post(
            f"/games/{game_id}/commands",
            json={"command": command, "command_id": f"w-{n}"},
            headers=bearer(organiser_token),
        )
        assert played.status_code == 200, played.text
    assert windows_with_another_holder > 0  # the case that would have told the awaited player


async def test_online_a_window_offers_no_pass_the_server_alone_may_send(
    app: Litestar, client: httpx.AsyncClient, organiser_token: str
) -> None:
    """Online the server closes a role window after its pause (a player's pass is refused), so
    no player is offered one; a holder of the power acting there is still offered its use."""
    members = [{"member_id": f"o{i}", "name": f"Online {i}"} for i in range(1, 6)]
    # the seed is the server's: a deal whose first player has a turn-start choice (a heal)
    # opens with that instead, so a few games are dealt until one opens with the window
    for attempt in range(12):
        created = await client.post(
            "/games",
            json={"command_id": f"online-windows-{attempt}", "mode": "online", "player_count": 5,
                  "members": members, "ruleset": {"modules": ["OS3"]}},
            headers=bearer(organiser_token),
        )  # fmt: skip
        assert created.status_code == 201, created.text
        game_id = created.json()["game_id"]
        public = (await client.get(f"/games/{game_id}")).json()
        if public["awaiting"]["decision"].startswith("role_window"):
            break
    assert public["awaiting"]["decision"].startswith("role_window"), public["awaiting"]
    tokens = await player_tokens(app, created.json())
    seat_of = {p["member_id"]: p["id"] for p in public["players"]}
    awaited = next(m for m, seat in seat_of.items() if seat == public["awaiting"]["player"])
    for member, token in tokens.items():
        seen = (await client.get(f"/games/{game_id}", headers=bearer(token))).json()["legal_commands"]
        assert all(c.split()[0] == seat_of[member] and c.split()[1] == "use" for c in seen), seen
    refused = await client.post(
        f"/games/{game_id}/commands",
        json={"command": f"{seat_of[awaited]} pass", "command_id": "pass-1"},
        headers=bearer(tokens[awaited]),
    )
    assert refused.status_code == 403, refused.text
