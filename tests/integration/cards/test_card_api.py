"""The card game online, over the HTTP API: created with ruleset ``cards``, played by its seats
with their own tokens from the options their own state lists, the server shuffling and picking
at random; refusals name why and store nothing; the finished game audits clean and exports its
record. Non-interference through every channel: ``test_card_non_interference.py``."""

from __future__ import annotations

import random
from typing import Any

import httpx
import pytest
from litestar import Litestar

from tests.integration.api.bots import bearer, play_to_the_end, player_tokens
from tests.integration.api.test_errors import problem

MEMBERS = [{"member_id": f"m{i}", "name": f"Player {i}"} for i in range(1, 9)]


async def create_cards(
    client: httpx.AsyncClient, token: str, game_id: str, players: int = 4, options: list[str] | None = None
) -> httpx.Response:
    ruleset: dict[str, Any] = {"game_type": "cards"}
    if options is not None:
        ruleset["options"] = options
    return await client.post(
        "/games",
        json={
            "command_id": f"create-{game_id}",
            "mode": "online",
            "player_count": players,
            "members": MEMBERS[:players],
            "game_id": game_id,
            "ruleset": ruleset,
        },
        headers=bearer(token),
    )


async def test_a_four_player_card_game_played_over_http_to_its_end_audits_clean(
    app: Litestar, client: httpx.AsyncClient, organiser_token: str
) -> None:
    created = await create_cards(client, organiser_token, "cards-1")
    assert created.status_code == 201, created.text
    state = created.json()["state"]
    assert state["game_type"] == "cards" and state["ruleset"]["text"] == "cards"
    assert state["fairness"] == "deal-1 dice-1 shuffles-1"
    assert state["status"] == "ongoing" and state["deck"] == 80 - sum(
        p["hand_count"] for p in state["players"]
    )
    assert all(p["hand"] is None for p in state["players"])  # the organiser sees no hand
    tokens = await player_tokens(app, created.json())
    bodies: list[tuple[str, str]] = []
    end = await play_to_the_end(client, "cards-1", tokens, random.Random(7), bodies)
    assert end["status"] == "ended" and end["result"]["winner"] in ("law", "outlaws", "renegade")
    assert end["seed"] is not None and all(p["role"] is not None for p in end["players"])
    # while it went on, a seat's own state showed its own hand and nobody else's
    seat_of = {p["member_id"]: p["id"] for p in state["players"]}
    for viewer, body in bodies:
        view = httpx.Response(200, text=body).json()
        view = view.get("state", view)
        for p in view["players"]:
            assert (p["hand"] is not None) == (p["id"] == seat_of[viewer]), (viewer, p["id"])
    audit = (await client.get("/games/cards-1/audit")).json()
    assert audit["clean"], audit["verdict"]
    rolls = next(c for c in audit["checks"] if c["name"] == "rolls")["detail"]
    assert "re-derived from the seed (shuffles-1): every card matches" in rolls
    record = await client.get("/games/cards-1/record")
    assert record.status_code == 200, record.text
    assert record.json()["format"] == "bang-cards-record" and len(record.json()["deck"]) == 80
    events = (await client.get("/games/cards-1/events", params={"limit": 1000})).json()
    assert {e["type"] for e in events} >= {
        "GameCreated",
        "cards.GameStarted",
        "cards.GameEnded",
        "SeedRevealed",
    }
    # once it is over everything is public: the first deck's order too
    shuffled = next(e for e in events if e["type"] == "cards.DeckShuffled")
    assert None not in shuffled["data"]["order"]
    chain = await client.get("/games/cards-1/chain")  # the stored bytes, once nothing is hidden
    assert chain.status_code == 200, chain.text


async def test_refusals_name_why_and_store_nothing(
    app: Litestar, client: httpx.AsyncClient, organiser_token: str
) -> None:
    created = await create_cards(client, organiser_token, "cards-2", players=5)
    assert created.status_code == 201, created.text
    tokens = await player_tokens(app, created.json())
    state = created.json()["state"]
    member_of = {p["id"]: p["member_id"] for p in state["players"]}
    for n in range(20):  # on to a seat's phase 2, its legal commands taken in order
        if state["awaiting"]["decision"] == "play":
            break
        seat = state["awaiting"]["player"]
        token = tokens[member_of[seat]]
        listed = (await client.get("/games/cards-2", headers=bearer(token))).json()["legal_commands"]
        answer = await client.post(
            "/games/cards-2/commands",
            json={"command": listed[0], "command_id": f"on-{n}"},
            headers=bearer(token),
        )
        state = answer.json()["state"]
    assert state["awaiting"]["decision"] == "play"
    version = state["version"]
    awaited = state["awaiting"]["player"]
    other = next(seat for seat in member_of if seat != awaited)
    mine = (await client.get("/games/cards-2", headers=bearer(tokens[member_of[awaited]]))).json()
    assert mine["legal_commands"] and all(c.startswith(f"{awaited} ") for c in mine["legal_commands"])
    hand = next(p for p in mine["players"] if p["id"] == awaited)["hand_ids"]
    missing = next(c for c in range(1, 81) if c not in hand)

    async def refused(command: object, token: str | None, status: int, slug: str) -> dict[str, Any]:
        response = await client.post(
            "/games/cards-2/commands",
            json={"command": command, "command_id": f"x-{len(seen)}"},
            headers=bearer(token) if token else {},
        )
        seen.append(response)
        body = problem(response, status, slug)
        after = (await client.get("/games/cards-2")).json()
        assert after["version"] == version, "a refused command stored something"
        return body

    seen: list[httpx.Response] = []
    # another seat's player cannot act for the awaited seat
    body = await refused(f"{awaited} end", tokens[member_of[other]], 403, "forbidden")
    assert body["detail"] == f"{member_of[other]} plays seat {other} and cannot act for {awaited}"
    # an organiser does not play an online game; nobody without a token does
    await refused(f"{awaited} end", organiser_token, 403, "forbidden")
    problem(
        await client.post(
            "/games/cards-2/commands", json={"command": f"{awaited} end", "command_id": "anon"}
        ),
        401,
        "unauthenticated",
    )
    # the server shuffles; a player may not
    body = await refused("table shuffle unknown", tokens[member_of[awaited]], 403, "forbidden")
    assert body["detail"] == "the server shuffles the deck in online games"
    # a card not in the hand: the rules' words
    body = await refused(f"{awaited} play {missing}", tokens[member_of[awaited]], 422, "illegal-command")
    assert "hand" in body["detail"], body
    # not his decision now
    body = await refused(f"{other} end", tokens[member_of[other]], 409, "not-awaited")
    # unreadable, and a dice command in a card game
    await refused(f"{awaited} fly", tokens[member_of[awaited]], 422, "malformed-command")
    await refused(
        {"type": "Reroll", "player": awaited, "dice": [0]},
        tokens[member_of[awaited]],
        422,
        "malformed-command",
    )


@pytest.mark.parametrize(
    ("players", "options", "why"),
    [
        (
            8,
            None,
            "8 players play the card game with two Renegades: name the option "
            "(ruleset 'cards eight_players')",
        ),
        (7, ["eight_players"], "the option eight_players is for 8 players, not 7"),
        (3, None, "BANG! (the card game) is for 4 to 7 players (8 with eight_players), not 3"),
        (
            5,
            ["two_sheriffs"],
            "the card game has no module or option 'two_sheriffs' (options: eight_players)",
        ),
    ],
)
async def test_a_card_game_the_rules_refuse_is_a_422_naming_why(
    client: httpx.AsyncClient, organiser_token: str, players: int, options: list[str] | None, why: str
) -> None:
    response = await create_cards(client, organiser_token, "refused", players=players, options=options)
    assert problem(response, 422, "invalid-ruleset")["detail"].endswith(why)
    problem(await client.get("/games/refused"), 404, "game-not-found")


async def test_eight_players_with_two_renegades_is_a_recorded_option(
    client: httpx.AsyncClient, organiser_token: str
) -> None:
    response = await create_cards(client, organiser_token, "cards-8", players=8, options=["eight_players"])
    assert response.status_code == 201, response.text
    state = response.json()["state"]
    assert state["ruleset"]["text"] == "cards eight_players" and len(state["players"]) == 8
    first = (await client.get("/games/cards-8/events", params={"limit": 1})).json()[0]
    assert first["data"]["ruleset"]["options"] == ["eight_players"]


async def test_a_table_card_game_is_entered_by_its_scorekeeper_who_alone_sees_every_hand(
    client: httpx.AsyncClient, organiser_token: str
) -> None:
    seats = [
        {"member_id": "ann", "name": "Ann", "role": "sheriff", "character": "paul_regret"},
        {"member_id": "bob", "name": "Bob", "role": "outlaw", "character": "el_gringo"},
        {"member_id": "cy", "name": "Cy", "role": "outlaw", "character": "black_jack"},
        {"member_id": "dee", "name": "Dee", "role": "renegade", "character": "lucky_duke"},
    ]
    created = await client.post(
        "/games",
        json={
            "command_id": "t",
            "mode": "table",
            "player_count": 4,
            "seats": seats,
            "game_id": "club-cards",
            "ruleset": {"game_type": "cards"},
        },
        headers=bearer(organiser_token),
    )
    assert created.status_code == 201, created.text
    keeper = created.json()["state"]
    assert keeper["awaiting"] == {"player": "table", "decision": "shuffle"}
    order = list(range(80, 0, -1))
    shuffled = await client.post(
        "/games/club-cards/commands",
        # the object form: 80 card ids are longer than a command's text may be (200 characters)
        json={"command": {"type": "ShuffleDeck", "player": "table", "order": order}, "command_id": "in-0"},
        headers=bearer(organiser_token),
    )
    assert shuffled.status_code == 200, shuffled.text
    rng = random.Random(3)
    last = ""
    for n in range(1, 30):
        listed = (await client.get("/games/club-cards", headers=bearer(organiser_token))).json()[
            "legal_commands"
        ]
        plays = [c for c in listed if " end" not in c] or listed
        last = rng.choice(plays)
        response = await client.post(
            "/games/club-cards/commands",
            json={"command": last, "command_id": f"in-{n}"},
            headers=bearer(organiser_token),
        )
        assert response.status_code == 200, response.text
    keeper = (await client.get("/games/club-cards", headers=bearer(organiser_token))).json()
    anybody = (await client.get("/games/club-cards")).json()
    assert all(p["hand"] is not None for p in keeper["players"])
    assert all(p["hand"] is None for p in anybody["players"])
    assert [p["role"] for p in anybody["players"]] == ["sheriff", None, None, None] or keeper[
        "status"
    ] != "ongoing"
    feed = (await client.get("/games/club-cards/events", params={"limit": 1000})).json()
    deck = next(e for e in feed if e["type"] == "cards.DeckShuffled")
    assert deck["data"]["order"] == [None] * 80
    keeper_feed = (await client.get("/games/club-cards/events", headers=bearer(organiser_token))).json()
    assert next(e for e in keeper_feed if e["type"] == "cards.DeckShuffled")["data"]["order"] == order
    offer = keeper["take_back"]
    assert offer is not None and offer["command"] == last
    taken = await client.post(
        "/games/club-cards/commands",
        json={"command": "takeback", "command_id": "tb"},
        headers=bearer(organiser_token),
    )
    assert taken.status_code == 200, taken.text
    back = (
        await client.get("/games/club-cards/events", params={"from_version": taken.json()["version"]})
    ).json()
    assert back[-1]["type"] == "EntryTakenBack" and back[-1]["data"]["command"] == last
    audit = (await client.get("/games/club-cards/audit")).json()
    assert audit["clean"], audit["verdict"]
    assert "no seed to check (a table game)" in audit["verdict"] and "1 entry taken back" in audit["verdict"]


async def test_the_view_names_the_discard_piles_and_the_general_stores_cards_by_id(
    client: httpx.AsyncClient, organiser_token: str
) -> None:
    """The two Stagecoach 9♠ share one text: the public piles carry their ids too, in order."""
    from services.game.rules.cards.deck import CARDS, DECK
    from services.game.rules.cards.vocabulary import CardName

    coaches = [c.id for c in DECK if c.name is CardName.STAGECOACH]
    store = next(c.id for c in DECK if c.name is CardName.GENERAL_STORE)
    assert len(coaches) == 2 and CARDS[coaches[0]].text == CARDS[coaches[1]].text
    seats = [
        {"member_id": "ann", "name": "Ann", "role": "sheriff", "character": "paul_regret"},
        {"member_id": "bob", "name": "Bob", "role": "outlaw", "character": "el_gringo"},
        {"member_id": "cy", "name": "Cy", "role": "outlaw", "character": "black_jack"},
        {"member_id": "dee", "name": "Dee", "role": "renegade", "character": "lucky_duke"},
    ]
    # the deck top first: Ann is dealt the General Store, draws 2 (phase 1 is automatic), and
    # her General Store lays out 4 cards, the two Stagecoaches 1st and 3rd
    special = {0: store, 17: coaches[1], 19: coaches[0]}
    rest = iter(c for c in range(1, 81) if c not in special.values())
    order = [special[i] if i in special else next(rest) for i in range(80)]
    created = await client.post(
        "/games",
        json={
            "command_id": "t-ids",
            "mode": "table",
            "player_count": 4,
            "seats": seats,
            "game_id": "club-ids",
            "ruleset": {"game_type": "cards"},
        },
        headers=bearer(organiser_token),
    )
    assert created.status_code == 201, created.text
    shuffle = {"type": "ShuffleDeck", "player": "table", "order": order}
    for n, command in enumerate([shuffle, f"p1 play {store}"]):
        answer = await client.post(
            "/games/club-ids/commands",
            json={"command": command, "command_id": f"ids-{n}"},
            headers=bearer(organiser_token),
        )
        assert answer.status_code == 200, answer.text
    laid = [coaches[1], order[18], coaches[0], order[20]]
    view = (await client.get("/games/club-ids")).json()  # anybody's: both piles are face up
    assert view["general_store_ids"] == laid and view["general_store"][0] == view["general_store"][2]
    assert view["discard_ids"] == view["discard"] == [] and view["resolving"]["card"] == store
    query = '{ game(id: "club-ids") { discard discardIds generalStore generalStoreIds } }'
    data = (await client.post("/graphql", json={"query": query})).json()["data"]["game"]
    assert data["discardIds"] == [] and data["generalStoreIds"] == laid
    picked = await client.post(
        "/games/club-ids/commands",
        json={"command": f"p1 pick {coaches[0]}", "command_id": "ids-pick"},
        headers=bearer(organiser_token),
    )
    assert picked.status_code == 200, picked.text
    view = (await client.get("/games/club-ids")).json()
    assert view["general_store_ids"] == [coaches[1], order[18], order[20]]


@pytest.mark.parametrize(
    ("seat", "why"),
    [
        ({"special": "le_doc"}, "p1: the card game has no special role cards, got 'le_doc'"),
        ({"character": "apache_kid"}, "p1: 'apache_kid' is not a character of the card game"),
    ],
)
async def test_a_table_card_seat_the_card_game_cannot_hold_is_refused_naming_it(
    client: httpx.AsyncClient, organiser_token: str, seat: dict[str, str], why: str
) -> None:
    """A dice seat's OS3 special role card was silently dropped (201), and a dice character was
    named by its enum's repr; both are a 422 naming the seat and the value, nothing stored."""
    seats = [
        {"member_id": "ann", "name": "Ann", "role": "sheriff", "character": "paul_regret", **seat},
        {"member_id": "bob", "name": "Bob", "role": "outlaw", "character": "el_gringo"},
        {"member_id": "cy", "name": "Cy", "role": "outlaw", "character": "black_jack"},
        {"member_id": "dee", "name": "Dee", "role": "renegade", "character": "lucky_duke"},
    ]
    response = await client.post(
        "/games",
        json={
            "command_id": "t-seat",
            "mode": "table",
            "player_count": 4,
            "seats": seats,
            "game_id": "club-seat",
            "ruleset": {"game_type": "cards"},
        },
        headers=bearer(organiser_token),
    )
    assert problem(response, 422, "invalid-game")["detail"] == why
    problem(await client.get("/games/club-seat"), 404, "game-not-found")
