"""A table game started from a position ("we are already playing: here is where we are"):
``POST /games`` takes the record format's ``position`` of its game type (docs/game-records.md),
read by the records' own readers, so a position a record may hold is exactly what the API takes.
A position that cannot be read, or that the rules refuse for the seats, is a 422
``invalid-position`` in the reader's or the engine's words, players by name; nothing is stored.
An online game is refused one, and so is a caller not signed in."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from litestar import Litestar

from tests.integration.api.people import people
from tests.integration.api.test_errors import problem

DICE_SEATS = (
    ("sheriff", "paul_regret"),
    ("outlaw", "el_gringo"),
    ("outlaw", "black_jack"),
    ("renegade", "lucky_duke"),
)


def table_game(names: list[Any], game_id: str, position: object, **more: Any) -> dict[str, Any]:
    return {
        "command_id": f"create-{game_id}",
        "mode": "table",
        "player_count": len(names),
        "seats": [
            {"member_id": p.account_id, "name": p.display_name, "role": role, "character": character}
            for p, (role, character) in zip(names, DICE_SEATS, strict=True)
        ],
        "game_id": game_id,
        "position": position,
        **more,
    }


@pytest.fixture
async def keeper(app: Litestar, client: httpx.AsyncClient) -> Any:
    """Who creates the table games and so keeps their score (never seated at one)."""
    return (await people(app, client, "Kay Keeper"))[0]


@pytest.fixture
async def four(app: Litestar, client: httpx.AsyncClient) -> list[Any]:
    return await people(app, client, "Ann Seat", "Bob Seat", "Cy Seat", "Dee Seat")


async def test_a_dice_position_is_where_the_game_starts(
    client: httpx.AsyncClient, four: list[Any], keeper: Any
) -> None:
    position = {
        "players": [{"player": "p1", "life": 6, "arrows": 2}, {"player": "p3", "life": 0}],
        "active_player": "p2",
        "turn": 7,
        "dice": ["arrow", "beer", "shoot1", "gatling", "dynamite"],
        "rolls_used": 2,
    }
    created = await client.post("/games", json=table_game(four, "at-turn-7", position), headers=keeper.auth)
    assert created.status_code == 201, created.text
    state = (await client.get("/games/at-turn-7", headers=keeper.auth)).json()
    by_seat = {p["id"]: p for p in state["players"]}
    assert (by_seat["p1"]["life"], by_seat["p1"]["arrows"]) == (6, 2)
    assert by_seat["p3"]["alive"] is False
    assert by_seat["p4"]["life"] == 8  # not listed: full life
    assert (state["active_player"], state["turn"], state["arrow_pile"]) == ("p2", 7, 7)
    assert state["dice"] == ["arrow", "beer", "shoot1", "gatling", "dynamite"]
    assert state["awaiting"]["decision"] == "reroll_or_stop" and state["awaiting"]["rolls_left"] == 1


async def test_a_card_position_is_where_the_game_starts(
    client: httpx.AsyncClient, four: list[Any], keeper: Any
) -> None:
    position = {
        "players": [{"player": "p2", "life": 2, "hand": [1, 38], "in_play": [64]}],
        "discard": [26],
        "active_player": "p2",
        "turn": 5,
    }
    asked = table_game(four, "cards-at-5", position, ruleset={"game_type": "cards"})
    created = await client.post("/games", json=asked, headers=keeper.auth)
    assert created.status_code == 201, created.text
    state = (await client.get("/games/cards-at-5", headers=keeper.auth)).json()
    bob = next(p for p in state["players"] if p["id"] == "p2")
    assert bob["life"] == 2 and bob["in_play_ids"] == [64], bob
    assert bob["hand_ids"][:2] == [1, 38]  # then his turn's two draws
    assert state["discard_ids"] == [26]
    assert (state["active_player"], state["turn"], state["phase"]) == ("p2", 5, "play"), state


async def test_a_card_position_with_its_deck_in_no_known_order_asks_for_each_card_turned_up(
    client: httpx.AsyncClient, four: list[Any], keeper: Any
) -> None:
    """What the new-game page sends (a real table does not know its deck's order): the turn's
    first draw waits for the scorekeeper to name the card, and a card seen already is refused."""
    position = {
        "players": [{"player": "p2", "life": 2, "hand": [1, 38], "in_play": [64]}],
        "discard": [26],
        "active_player": "p2",
        "turn": 5,
        "deck": "unknown",
    }
    asked = table_game(four, "cards-unknown-deck", position, ruleset={"game_type": "cards"})
    created = await client.post("/games", json=asked, headers=keeper.auth)
    assert created.status_code == 201, created.text
    state = (await client.get("/games/cards-unknown-deck", headers=keeper.auth)).json()
    bob = next(p for p in state["players"] if p["id"] == "p2")
    assert bob["hand_ids"] == [1, 38], bob  # nothing drawn yet: the deck's top card is not known
    seen = {"command": "table top 26", "command_id": "top-seen"}
    refused = await client.post("/games/cards-unknown-deck/commands", json=seen, headers=keeper.auth)
    assert refused.status_code == 422 and "26" in refused.text, refused.text
    named = {"command": "table top 40", "command_id": "top-40"}
    played = await client.post("/games/cards-unknown-deck/commands", json=named, headers=keeper.auth)
    assert played.status_code in (200, 201), played.text
    state = (await client.get("/games/cards-unknown-deck", headers=keeper.auth)).json()
    assert 40 in next(p for p in state["players"] if p["id"] == "p2")["hand_ids"]


@pytest.mark.parametrize(
    ("position", "words"),
    [
        (
            {"players": [{"player": "p1", "life": "six"}]},
            "Expected `int`, got `str` - at `$.position.players[0].life`",
        ),
        ({"dice": ["arrow", "six"]}, "at `$.position.dice[1]`"),
        ({"players": [], "colour": "red"}, "unknown field `colour`"),
        ({"players": [{"player": "p2", "life": 9}]}, "Bob Seat cannot have 9 life (0 to 7)"),
        (
            {"players": [{"player": "p1", "life": 0}]},
            "the position is a finished game: the Sheriff is eliminated",
        ),
        (
            {"active_player": "p3", "players": [{"player": "p3", "life": 0}]},
            "the active player Cy Seat is eliminated",
        ),
        ({"dice": ["arrow", "beer", "beer", "beer", "beer"]}, "a position with dice needs an active player"),
    ],
)
async def test_a_bad_position_is_a_422_in_words_and_nothing_is_stored(
    client: httpx.AsyncClient, four: list[Any], keeper: Any, position: dict[str, Any], words: str
) -> None:
    refused = await client.post("/games", json=table_game(four, "refused", position), headers=keeper.auth)
    body = problem(refused, 422, "invalid-position")
    assert body["field"] == "position"
    assert body["detail"].startswith("this position cannot be played: ")
    assert words in body["detail"], body["detail"]
    assert "p2" not in body["detail"].replace("$.position", "")
    problem(await client.get("/games/refused"), 404, "game-not-found")


async def test_a_card_position_placing_a_card_twice_is_refused_by_name(
    client: httpx.AsyncClient, four: list[Any], keeper: Any
) -> None:
    position = {"players": [{"player": "p2", "life": 2, "hand": [1]}], "discard": [1]}
    asked = table_game(four, "twice", position, ruleset={"game_type": "cards"})
    body = problem(await client.post("/games", json=asked, headers=keeper.auth), 422, "invalid-position")
    assert "places card 1 (" in body["detail"] and "twice" in body["detail"], body["detail"]


async def test_a_position_on_a_bad_seating_is_refused_for_the_seats(
    client: httpx.AsyncClient, four: list[Any], keeper: Any
) -> None:
    asked = table_game(four, "no-sheriff", {"turn": 3})
    asked["seats"][0]["role"] = "deputy"
    body = problem(await client.post("/games", json=asked, headers=keeper.auth), 422, "invalid-game")
    assert "4 players take exactly these roles" in body["detail"], body["detail"]


async def test_an_online_game_is_refused_a_position(
    client: httpx.AsyncClient, four: list[Any], keeper: Any
) -> None:
    asked = {
        "command_id": "online-at-3",
        "mode": "online",
        "player_count": 4,
        "members": [{"member_id": four[0].account_id, "name": four[0].display_name}],
        "position": {"turn": 3},
        "game_id": "online-at-3",
    }
    body = problem(await client.post("/games", json=asked, headers=keeper.auth), 422, "invalid-game")
    assert body["detail"] == "an online game is dealt by the server: give members, not seats or a position"
    problem(await client.get("/games/online-at-3"), 404, "game-not-found")


async def test_a_caller_not_signed_in_cannot_start_a_game_from_a_position(
    client: httpx.AsyncClient, four: list[Any], keeper: Any
) -> None:
    refused = await client.post("/games", json=table_game(four, "anonymous", {"turn": 3}))
    assert refused.status_code == 401, refused.text
    problem(await client.get("/games/anonymous"), 404, "game-not-found")


async def test_the_rulesets_list_each_game_types_modules_options_and_roles(client: httpx.AsyncClient) -> None:
    answer = await client.get("/rulesets")  # nobody signed in: the published rules
    assert answer.status_code == 200, answer.text
    dice, cards = answer.json()["game_types"]
    assert (dice["game_type"], dice["min_players"], dice["max_players"]) == ("dice", 3, 8)
    modules = {m["id"]: m for m in dice["modules"]}
    assert list(modules) == ["OS1", "OS2", "OS3", "OS4", "OS5", "UA1", "UA2", "UA3", "UA4", "UA5"]
    assert modules["UA1"]["requires"] == ["UA2"] and modules["OS5"]["min_players"] == 5
    assert modules["OS1"]["expansion"] == "Old Saloon" and modules["OS1"]["played"] is True
    assert dice["roles"]["4"] == ["sheriff", "renegade", "outlaw", "outlaw"]
    assert (cards["game_type"], cards["min_players"], cards["max_players"], cards["modules"]) == (
        "cards",
        4,
        8,
        [],
    )
    assert cards["options"] == [
        {"id": "eight_players", "name": "8 players, with two Renegades", "players": 8}
    ]
    assert cards["roles"]["8"].count("renegade") == 2


async def test_a_rulesets_seats_name_roles_characters_and_special_roles(client: httpx.AsyncClient) -> None:
    answer = await client.get("/rulesets/seats", params={"ruleset": "dice OS1 OS3", "players": 5})
    assert answer.status_code == 200, answer.text
    seats = answer.json()
    assert seats["ruleset"] == "dice OS1 OS3" and seats["seat_ids"] == ["p1", "p2", "p3", "p4", "p5"]
    assert sorted(seats["roles"]) == ["deputy", "outlaw", "outlaw", "renegade", "sheriff"]
    names = {c["id"]: c["name"] for c in seats["characters"]}
    assert names["bart_cassidy"] == "Bart Cassidy"
    assert {"id": "l_ours", "role": "sheriff"} in seats["special_roles"]
    cards = (
        await client.get("/rulesets/seats", params={"ruleset": "cards eight_players", "players": 8})
    ).json()
    assert cards["roles"].count("renegade") == 2 and cards["special_roles"] == []
    assert {"id": "el_gringo", "name": "El Gringo", "life": 3} in cards["characters"]


@pytest.mark.parametrize(
    ("ruleset", "players", "why"),
    [
        ("dice UA1", 5, "module UA1 needs UA2"),
        ("dice OS5", 4, "the Ghost (OS5) needs 5 or more players"),
        ("cards", 8, "8 players play the card game with two Renegades"),
        ("dice OS9", 5, "unknown module 'OS9'"),
    ],
)
async def test_a_ruleset_refused_at_a_table_size_is_a_422_naming_why(
    client: httpx.AsyncClient, ruleset: str, players: int, why: str
) -> None:
    answer = await client.get("/rulesets/seats", params={"ruleset": ruleset, "players": players})
    body = problem(answer, 422, "invalid-ruleset")
    assert why in body["detail"], body["detail"]


async def test_a_seats_query_that_cannot_be_read_is_a_400(client: httpx.AsyncClient) -> None:
    answer = await client.get("/rulesets/seats", params={"ruleset": "dice", "players": "five"})
    assert answer.status_code == 400, answer.text
    assert "players" in answer.text


async def test_graphql_creates_a_table_game_from_a_position_and_refuses_a_bad_one_in_the_same_words(
    client: httpx.AsyncClient, four: list[Any], keeper: Any
) -> None:
    mutation = """
    mutation Create($input: CreateGameInput!) { createGame(input: $input) { gameId game { turn } } }
    """
    seats = [
        {"memberId": p.account_id, "name": p.display_name, "role": role, "character": character}
        for p, (role, character) in zip(four, DICE_SEATS, strict=True)
    ]
    given = {"commandId": "gql-pos", "mode": "table", "playerCount": 4, "seats": seats, "gameId": "gql-pos"}
    refused = await client.post(
        "/graphql",
        json={
            "query": mutation,
            "variables": {"input": {**given, "position": {"players": [{"player": "p2", "life": 9}]}}},
        },
        headers=keeper.auth,
    )
    [error] = refused.json()["errors"]
    assert error["extensions"]["problem"]["type"].endswith("/invalid-position")
    assert error["message"] == "this position cannot be played: Bob Seat cannot have 9 life (0 to 7)"
    created = await client.post(
        "/graphql",
        json={
            "query": mutation,
            "variables": {"input": {**given, "position": {"turn": 4, "active_player": "p3"}}},
        },
        headers=keeper.auth,
    )
    assert created.json()["data"]["createGame"] == {"gameId": "gql-pos", "game": {"turn": 4}}, created.text


async def test_a_card_position_with_no_table_to_place_it_on_is_refused_for_what_comes_first(
    client: httpx.AsyncClient, four: list[Any], keeper: Any
) -> None:
    online = {
        "command_id": "online-cards-at-3",
        "mode": "online",
        "player_count": 4,
        "ruleset": {"game_type": "cards"},
        "position": {"turn": 3},
    }
    body = problem(await client.post("/games", json=online, headers=keeper.auth), 422, "invalid-game")
    assert body["detail"] == "an online game is dealt by the server: give members, not seats or a position"
    no_sheriff = table_game(four, "cards-no-sheriff", {"turn": 3}, ruleset={"game_type": "cards"})
    no_sheriff["seats"][0]["role"] = "deputy"
    refused = await client.post("/games", json=no_sheriff, headers=keeper.auth)
    body = problem(refused, 422, "invalid-game")
    assert "sheriff" in body["detail"].lower(), body["detail"]
