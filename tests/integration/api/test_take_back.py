"""Taking back an entry at a table (docs/rulings.md, "Taking back an entry at a table"): over the
real API, a scorekeeper's TakeBack appends EntryTakenBack, the game is folded without the entry,
and the ruling's limits are refused in its words."""

from __future__ import annotations

from typing import Any

import httpx
import msgspec
from litestar import Litestar

from services.game.application.codec import game_stream
from services.game.results.decoder import GameResults, game_result
from tests.integration.api.bots import bearer, create_online_game, player_tokens
from tests.integration.api.people import people
from tests.integration.api.test_errors import problem
from tests.integration.api.test_records import a_finished_table_game

SEATS = [
    {"member_id": f"club-{i}", "name": f"Player {i}", "role": role, "character": character}
    for i, (role, character) in enumerate(
        [
            ("sheriff", "jourdonnais"),
            ("outlaw", "willy_the_kid"),
            ("outlaw", "paul_regret"),
            ("renegade", "lucky_duke"),
        ]
    )
]
TURN_1 = ["p1 roll shoot1 shoot1 arrow dynamite dynamite", "p1 reroll 0 1", "p1 roll dynamite gatling"]
"""p1's whole turn: its last roll explodes the dynamite and ends the turn (p2's starts)."""
TURN_2 = ["p2 roll shoot1 shoot1 shoot1 beer beer", "p2 stop", "p2 target 0 p3"]

SAME_GAME = ("game_id", "version", "context", "joined", "take_back", "deadline")
"""What differs between two games folded from the same entries (ids, versions, the offer)."""


async def table_game(
    client: httpx.AsyncClient, token: str, game_id: str, entries: list[str]
) -> dict[str, Any]:
    created = await client.post(
        "/games",
        json={"command_id": f"create-{game_id}", "mode": "table", "player_count": 4, "seats": SEATS,
              "game_id": game_id},
        headers=bearer(token),
    )  # fmt: skip
    assert created.status_code == 201, created.text
    state: dict[str, Any] = created.json()["state"]
    for n, entry in enumerate(entries):
        state = await enter(client, token, game_id, entry, f"{game_id}-entry-{n}")
    return state


async def enter(
    client: httpx.AsyncClient, token: str, game_id: str, command: Any, command_id: str
) -> dict[str, Any]:
    response = await client.post(
        f"/games/{game_id}/commands",
        json={"command": command, "command_id": command_id},
        headers=bearer(token),
    )
    assert response.status_code == 200, response.text
    state: dict[str, Any] = response.json()["state"]
    return state


async def take_back(
    client: httpx.AsyncClient, token: str, game_id: str, command_id: str, **extra: Any
) -> httpx.Response:
    return await client.post(
        f"/games/{game_id}/commands",
        json={"command": {"type": "TakeBack"}, "command_id": command_id, **extra},
        headers=bearer(token),
    )


def same_game(state: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in state.items() if k not in SAME_GAME}


async def test_a_roll_and_a_reroll_are_taken_back_newest_first(
    client: httpx.AsyncClient, organiser_token: str
) -> None:
    token = organiser_token
    await table_game(client, token, "tb-roll", [])
    start = (await client.get("/games/tb-roll", headers=bearer(token))).json()
    assert start["take_back"] is None  # nothing entered yet
    after_roll = await enter(client, token, "tb-roll", TURN_1[0], "roll")
    assert after_roll["take_back"] == {"command": TURN_1[0], "from_version": start["version"] + 1}
    after_reroll = await enter(client, token, "tb-roll", TURN_1[1], "reroll")
    reroll_offer = {"command": "p1 reroll 0 1", "from_version": after_roll["version"] + 1}
    assert after_reroll["take_back"] == reroll_offer

    response = await take_back(client, token, "tb-roll", "undo-1", expected_version=after_reroll["version"])
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["version"] == after_reroll["version"] + 1
    assert [e["type"] for e in body["events"]] == ["EntryTakenBack"]
    assert body["events"][0]["data"] == {
        "type": "EntryTakenBack",
        "from_version": after_roll["version"] + 1,
        "to_version": after_reroll["version"],
        "command": "p1 reroll 0 1",
    }
    assert same_game(body["state"]) == same_game(after_roll)  # as if the reroll had not been entered
    assert body["state"]["take_back"]["command"] == TURN_1[0]

    # again, in its text form: the roll goes too, and the game is as it started
    again = await take_back(client, token, "tb-roll", "undo-2")
    assert again.status_code == 200, again.text
    assert same_game(again.json()["state"]) == same_game(start)
    assert again.json()["state"]["take_back"] is None
    text = await client.post(
        "/games/tb-roll/commands", json={"command": "takeback", "command_id": "undo-3"}, headers=bearer(token)
    )
    body = problem(text, 422, "illegal-command")
    assert body["detail"].startswith("nothing to take back in this turn"), body

    # the corrected game goes on from there, entry by entry
    for n, entry in enumerate(TURN_1):
        state = await enter(client, token, "tb-roll", entry, f"again-{n}")
    assert state["awaiting"]["player"] == "p2"


async def test_a_target_choice_is_taken_back_and_the_fold_is_the_game_without_it(
    client: httpx.AsyncClient, organiser_token: str
) -> None:
    token = organiser_token
    corrected = await table_game(client, token, "tb-target", TURN_1 + TURN_2)
    assert corrected["take_back"]["command"] == "p2 target 0 p3"
    response = await take_back(client, token, "tb-target", "undo-target")
    assert response.status_code == 200, response.text
    state = response.json()["state"]
    assert state["awaiting"]["decision"] == "shot_target" and state["awaiting"]["player"] == "p2"
    assert state["awaiting"]["dice"] == [0, 1, 2]  # all three shots await their target again

    # the fold of the stream equals the fold of the same entries without the one taken back
    never = await table_game(client, token, "tb-target-never", TURN_1 + TURN_2[:-1])
    assert same_game(state) == same_game(never)
    fetched = (await client.get("/games/tb-target", headers=bearer(token))).json()
    assert same_game(fetched) == same_game(never)
    assert fetched["take_back"] == {"command": "p2 stop", "from_version": never["version"]}
    public = (await client.get("/games/tb-target")).json()
    assert public["take_back"] is None  # only whoever enters is offered the button
    assert all(p["role"] in (None, "sheriff") for p in public["players"])

    # time travel: before the take-back the target stood, from it on it does not
    taken = response.json()["version"]
    before = (await client.get(f"/games/tb-target/versions/{taken - 1}", headers=bearer(token))).json()
    at = (await client.get(f"/games/tb-target/versions/{taken}", headers=bearer(token))).json()
    assert before["awaiting"]["dice"] == [1, 2] and at["awaiting"]["dice"] == [0, 1, 2]
    events = (await client.get("/games/tb-target/events", params={"from_version": taken})).json()
    assert [(e["type"], e["data"]["command"]) for e in events] == [("EntryTakenBack", "p2 target 0 p3")]

    # the audit: the taken-back entry is legal history, and the report says so
    audit = (await client.get("/games/tb-target/audit")).json()
    assert audit["clean"], audit["verdict"]
    replay = next(c for c in audit["checks"] if c["name"] == "rules replay")
    entry = corrected["take_back"]["from_version"]
    assert replay["detail"].endswith(f"; event {taken}: entry {entry} taken back (p2 target 0 p3)"), replay
    assert audit["verdict"].endswith("; 1 entry taken back at the table"), audit["verdict"]

    # a record carries the game as it stands: imported again, it is the corrected game
    record = (await client.get("/games/tb-target/record", headers=bearer(token))).json()
    assert record["inputs"] == TURN_1 + TURN_2[:-1]
    imported = await client.post(
        "/records",
        json={"command_id": "import-corrected", "record": record, "game_id": "tb-target-imported",
              "members": [{"member_id": s["member_id"], "name": s["name"]} for s in SEATS]},
        headers=bearer(token),
    )  # fmt: skip
    assert imported.status_code == 201, imported.text
    reimported = (await client.get("/games/tb-target-imported", headers=bearer(token))).json()
    assert same_game(reimported) == same_game(never)


async def test_the_entry_that_ended_a_turn_until_the_next_turn_has_an_entry(
    client: httpx.AsyncClient, organiser_token: str
) -> None:
    token = organiser_token
    state = await table_game(client, token, "tb-turn", TURN_1)
    assert state["awaiting"]["player"] == "p2"
    assert state["take_back"]["command"] == "p1 roll dynamite gatling"  # nothing entered in p2's turn yet
    back = await take_back(client, token, "tb-turn", "undo-end")
    assert back.status_code == 200, back.text
    assert back.json()["state"]["awaiting"]["player"] == "p1"
    assert back.json()["state"]["turn"] == 1

    # entered again, then p2 rolls: p2's turn has started, p1's entries stand
    await enter(client, token, "tb-turn", TURN_1[-1], "end-again")
    rolled = await enter(client, token, "tb-turn", TURN_2[0], "p2-roll")
    assert rolled["take_back"]["command"] == TURN_2[0]
    undone = await take_back(client, token, "tb-turn", "undo-p2-roll")
    assert undone.status_code == 200, undone.text
    assert undone.json()["state"]["take_back"] is None  # p2's turn had started: p1's turn is closed
    refused = await take_back(client, token, "tb-turn", "undo-across")
    body = problem(refused, 422, "illegal-command")
    assert body["detail"].startswith("nothing to take back in this turn"), body
    assert "turn 2 has started" in body["detail"]


async def test_refused_after_the_end_to_strangers_online_and_on_a_stale_version(
    app: Litestar, client: httpx.AsyncClient, organiser_token: str
) -> None:
    token = organiser_token
    record = a_finished_table_game(seed=5)
    imported = await client.post(
        "/records", json={"command_id": "import-over", "record": record, "game_id": "tb-over"},
        headers=bearer(token),
    )  # fmt: skip
    assert imported.status_code == 201, imported.text
    over = await take_back(client, token, "tb-over", "undo-over")
    assert problem(over, 422, "illegal-command")["detail"] == "the game is over: a referee voids it instead"
    assert (await client.get("/games/tb-over", headers=bearer(token))).json()["take_back"] is None

    state = await table_game(client, token, "tb-who", TURN_1[:2])
    (stranger,) = await people(app, client, "Tb Stranger")
    # the state tells each caller whether they enter this table (a page offers its forms by it)
    assert state["may_enter"] is True
    assert (await client.get("/games/tb-who", headers=bearer(stranger.token))).json()["may_enter"] is False
    assert (await client.get("/games/tb-who")).json()["may_enter"] is False
    problem(await take_back(client, stranger.token, "tb-who", "undo-stranger"), 403, "forbidden")
    problem(await take_back(client, await stranger_player_token(app), "tb-who", "undo-t"), 403, "forbidden")
    stale = await take_back(client, token, "tb-who", "undo-stale", expected_version=state["version"] - 1)
    assert problem(stale, 409, "stale-version")["current_version"] == state["version"]
    assert (await client.get("/games/tb-who", headers=bearer(token))).json()["version"] == state["version"]

    created = await create_online_game(client, token, players=4, command_id="tb-online")
    game_id = created["game_id"]
    tokens = await player_tokens(app, created)
    online = (await client.get(f"/games/{game_id}", headers=bearer(tokens["m1"]))).json()
    awaited = next(p["member_id"] for p in online["players"] if p["id"] == online["awaiting"]["player"])
    view = (await client.get(f"/games/{game_id}", headers=bearer(tokens[awaited]))).json()
    command = view["legal_commands"][0]
    played = await client.post(
        f"/games/{game_id}/commands", json={"command": command, "command_id": "online-1"},
        headers=bearer(tokens[awaited]),
    )  # fmt: skip
    assert played.status_code == 200, played.text
    seated = await take_back(client, tokens[awaited], game_id, "undo-online")
    assert "online game" in problem(seated, 422, "illegal-command")["detail"]
    problem(await take_back(client, token, game_id, "undo-online-organiser"), 403, "forbidden")
    assert played.json()["state"].get("take_back") is None


async def stranger_player_token(app: Litestar) -> str:
    """A player token for another game: it acts in its one game only."""
    vault = app.state.resources.gateway.tokens
    return str(await vault.issue_player("some-other-game", "club-9"))


async def test_a_take_back_sent_twice_takes_back_once(
    client: httpx.AsyncClient, organiser_token: str
) -> None:
    token = organiser_token
    state = await table_game(client, token, "tb-twice", TURN_1[:2])
    first = await take_back(client, token, "tb-twice", "undo-once", expected_version=state["version"])
    again = await take_back(client, token, "tb-twice", "undo-once", expected_version=state["version"])
    assert first.status_code == again.status_code == 200, again.text
    assert again.json()["duplicate"] and not first.json()["duplicate"]
    assert again.json()["version"] == first.json()["version"]
    assert again.json()["events"] == first.json()["events"]
    now = (await client.get("/games/tb-twice", headers=bearer(token))).json()
    assert now["version"] == state["version"] + 1
    assert now["take_back"]["command"] == TURN_1[0]  # only the reroll went
    # the id of a take-back is no other command's
    reused = await client.post(
        "/games/tb-twice/commands",
        json={"command": "p1 stop", "command_id": "undo-once"},
        headers=bearer(token),
    )
    problem(reused, 409, "command-id-reused")
    # an object with fields a take-back does not have is not read as one
    odd = await client.post(
        "/games/tb-twice/commands",
        json={"command": {"type": "TakeBack", "player": "p1"}, "command_id": "undo-odd"},
        headers=bearer(token),
    )
    problem(odd, 422, "malformed-command")


async def test_a_results_consumer_reads_a_corrected_game_to_its_result(
    app: Litestar, client: httpx.AsyncClient, organiser_token: str
) -> None:
    """A game with a taken-back entry, finished: the results decoder (league facts, standings,
    ratings and the directory read games through it) skips the correction and finds the result."""
    token = organiser_token
    record = a_finished_table_game(seed=7)
    inputs = record["inputs"]
    created = await client.post(
        "/records", json={"command_id": "import-head", "record": {**record, "inputs": inputs[:-2]},
                          "game_id": "tb-consumer"},
        headers=bearer(token),
    )  # fmt: skip
    assert created.status_code == 201, created.text
    await enter(client, token, "tb-consumer", inputs[-2], "late")
    assert (await take_back(client, token, "tb-consumer", "undo-late")).status_code == 200
    await enter(client, token, "tb-consumer", inputs[-2], "late-again")
    ended = await enter(client, token, "tb-consumer", inputs[-1], "last")
    assert ended["status"] == "ended"
    assert problem(await take_back(client, token, "tb-consumer", "undo-end"), 422, "illegal-command")

    store = app.state.resources.gateway.store
    recorded = await store.read_stream(game_stream("tb-consumer"))
    assert "EntryTakenBack" in [r.type for r in recorded]
    results = GameResults()
    assert all(results.add(r) is None for r in recorded[:-1])
    result = game_result(recorded)
    assert result is not None
    plain = await client.post(
        "/records", json={"command_id": "import-plain", "record": record, "game_id": "tb-consumer-plain"},
        headers=bearer(token),
    )  # fmt: skip
    assert plain.status_code == 201, plain.text
    uncorrected = game_result(await store.read_stream(game_stream("tb-consumer-plain")))
    assert uncorrected is not None
    assert msgspec.structs.replace(result, game_id="x") == msgspec.structs.replace(uncorrected, game_id="x")
    audit = (await client.get("/games/tb-consumer/audit")).json()
    assert audit["clean"], audit["verdict"]
