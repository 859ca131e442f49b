"""UA5 legacy series over HTTP against the real PostgreSQL: a club's organiser opens an online
series (a foreign club's organiser is refused, and nothing is stored), game 1 is played to its
end, the decisions are posted by the seated players (a wrong player's refused), game 2 is
created from the legacy and linked, the club lists its series, the organiser closes it and the
whole series audits clean."""

from __future__ import annotations

import random

import httpx
from litestar import Litestar

from services.game.rules.dice import events as ev
from services.game.rules.dice.vocabulary import Role
from tests.integration.api.conftest import resources_of
from tests.integration.api.people import found, grant, people
from tests.integration.api.test_errors import problem
from tests.unit.game.undead.test_series_service import play_to_end


async def test_a_series_is_opened_decided_linked_listed_closed_and_audited_over_http(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    admin, organiser, foreign, *players = await people(
        app,
        client,
        "Ada Admin",
        "Olga Organiser",
        "Fred Foreign",
        "Pia One",
        "Pat Two",
        "Pem Three",
        "Pol Four",
    )
    club_a, club_b = await found(client, admin, "Legacy A"), await found(client, foreign, "Legacy B")
    await grant(client, admin, club_a, organiser, "organiser")
    await grant(client, foreign, club_b, foreign, "organiser")
    members = [{"member_id": p.account_id, "name": p.display_name} for p in players]
    body = {
        "command_id": "open-1",
        "series_id": "legacy-1",
        "club_id": club_a,
        "mode": "online",
        "modules": ["UA5"],
    }

    # a foreign club's organiser may not open a series of club A: nothing stored
    refused = await client.post("/series", json={**body, "members": members}, headers=foreign.auth)
    problem(refused, 403, "role-required")
    problem(await client.get("/series/legacy-1"), 404, "game-not-found")
    # bad input names the problem
    bad = await client.post(
        "/series", json={**body, "modules": [], "members": members}, headers=organiser.auth
    )
    assert "UA5" in problem(bad, 422, "invalid-game")["detail"]
    assert (
        await client.post("/series", json={**body, "colour": "red"}, headers=organiser.auth)
    ).status_code == 400
    problem(await client.get("/series/legacy-1"), 404, "game-not-found")

    opened = await client.post("/series", json={**body, "members": members}, headers=organiser.auth)
    assert opened.status_code == 201, opened.text
    view = opened.json()
    assert [g["game_id"] for g in view["games"]] == ["legacy-1.g1"] and view["status"] == "open"
    assert view["seed_commitment"] and view["seed"] is None

    games = resources_of(app).gateway.service
    await play_to_end(games, "legacy-1.g1", 11)
    by_id = {p.account_id: p for p in players}
    rng = random.Random(11)
    wrong_refused = False
    for n in range(40):
        view = (await client.get("/series/legacy-1")).json()
        if len(view["games"]) == 2:
            break
        asked = view["asked"]
        assert asked is not None and not asked["draw"]
        decision: dict[str, object] = {"command_id": f"d{n}", "kind": asked["ask"], "seat": asked["seat"]}
        if asked["ask"] == "next_sheriff":
            decision["sheriff"] = rng.choice(asked["among"])
        elif asked["ask"] == "keep_character":
            decision["keep"] = rng.random() < 0.5
        else:
            decision["character"] = rng.choice(asked["among"])
        if not wrong_refused:
            other = next(p for p in players if p.account_id != asked["member_id"])
            wrong = await client.post("/series/legacy-1/decisions", json=decision, headers=other.auth)
            assert "the player seated there" in problem(wrong, 403, "forbidden")["detail"]
            wrong_refused = True
        done = await client.post(
            "/series/legacy-1/decisions", json=decision, headers=by_id[asked["member_id"]].auth
        )
        assert done.status_code == 201, done.text
    assert [g["game_id"] for g in view["games"]] == ["legacy-1.g1", "legacy-1.g2"]
    # the same command again changes nothing (the last decision, sent twice)
    again = await client.post(
        "/series/legacy-1/decisions", json=decision, headers=by_id[str(asked["member_id"])].auth
    )
    assert again.status_code == 201 and again.json()["games"] == view["games"]
    reopened = await client.post("/series", json={**body, "members": members}, headers=organiser.auth)
    assert reopened.status_code == 201 and len(reopened.json()["games"]) == 2
    assert view["games"][1]["previous_game_id"] == "legacy-1.g1"
    second = await games.load("legacy-1.g2")
    assert second.created.context.series_id == "legacy-1"
    assert second.created.context.previous_game_id == "legacy-1.g1"
    assert second.game is not None and isinstance(second.game.events[0], ev.GameStarted)
    assert sum(s.role is Role.SHERIFF for s in second.game.events[0].seats) == 1
    # a made-up decision names what is wrong
    odd = await client.post(
        "/series/legacy-1/decisions",
        json={"command_id": "x", "kind": "keep_character", "seat": "p1"},
        headers=players[0].auth,
    )
    problem(odd, 422, "invalid-game")

    listed = (await client.get("/series", params={"club": club_a})).json()
    assert [s["series_id"] for s in listed["series"]] == ["legacy-1"] and listed["next_offset"] is None
    paged = (await client.get("/series", params={"club": club_a, "limit": 1, "offset": 1})).json()
    assert paged["series"] == [] and paged["next_offset"] is None
    assert (await client.get("/series", params={"club": club_b})).json()["series"] == []

    await play_to_end(games, "legacy-1.g2", 12)
    problem(
        await client.post("/series/legacy-1/close", json={"command_id": "c"}, headers=foreign.auth),
        403,
        "role-required",
    )
    closed = await client.post(
        "/series/legacy-1/close", json={"command_id": "c", "reason": "done"}, headers=organiser.auth
    )
    assert closed.status_code == 200, closed.text
    assert closed.json()["status"] == "closed" and closed.json()["seed"]
    record = (await client.get("/games/legacy-1.g2/record")).json()
    assert record["meta"]["series_id"] == "legacy-1" and record["meta"]["previous_game_id"] == "legacy-1.g1"
    audit = (await client.get("/series/legacy-1/audit")).json()
    assert audit["clean"], audit["verdict"]
    assert audit["links_checked"] == 1 and len(audit["games"]) == 2


async def test_a_table_series_takes_its_draws_from_the_scorekeeper_over_http(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    from services.game.application.lifecycle import GameMode
    from services.game.application.service import Actor, ActorKind, Member, NewGame
    from services.game.records import inputs_from_events
    from services.game.rules.ruleset import ruleset_of

    admin, organiser, *players = await people(
        app, client, "Tia Admin", "Tom Organiser", "Ann", "Ben", "Cat", "Dan"
    )
    club = await found(client, admin, "Table Legacy")
    await grant(client, admin, club, organiser, "organiser")
    games = resources_of(app).gateway.service
    keeper = Actor(kind=ActorKind.ORGANISER, id=organiser.account_id)
    members = tuple(Member(member_id=p.account_id, name=p.display_name) for p in players)
    await games.create_game(
        NewGame(
            mode=GameMode.ONLINE, player_count=4, members=members, ruleset=ruleset_of(["UA5"]), game_id="tsrc"
        ),
        command_id="tsrc",
        actor=keeper,
    )
    await play_to_end(games, "tsrc", 3)
    source = await games.load("tsrc")
    assert source.game is not None
    started = source.game.events[0]
    assert isinstance(started, ev.GameStarted)
    seats = [
        {
            "member_id": source.seat_members[s.player],
            "name": s.player,
            "role": s.role.value,
            "character": s.character.value,
        }
        for s in started.seats
    ]
    body = {"command_id": "o", "series_id": "tab-1", "club_id": club, "mode": "table", "modules": ["UA5"]}
    opened = await client.post("/series", json={**body, "seats": seats}, headers=organiser.auth)
    assert opened.status_code == 201, opened.text
    for n, command in enumerate(inputs_from_events(source.game.events[1:])):
        await games.play("tab-1.g1", command, actor=keeper, command_id=f"t{n}")
    by_id = {p.account_id: p for p in players}
    rng = random.Random(3)
    refused = False
    for n in range(40):
        view = (await client.get("/series/tab-1")).json()
        if len(view["games"]) == 2:
            break
        asked = view["asked"]
        decision: dict[str, object] = {"command_id": f"d{n}", "kind": asked["ask"], "seat": asked["seat"]}
        among = asked["among"]
        match asked["ask"]:
            case "next_sheriff":
                decision["sheriff"] = rng.choice(among)
            case "keep_character":
                decision["keep"] = rng.random() < 0.5
            case "choose_character" | "character":
                decision["character"] = rng.choice(among)
            case "sheriff":
                decision["seat"] = rng.choice(among)
            case "roles":
                decision["roles"] = rng.sample(among, len(among))
        if asked["draw"]:
            if not refused:  # a player may not enter the table's draws
                wrong = await client.post("/series/tab-1/decisions", json=decision, headers=players[0].auth)
                assert "scorekeeper" in problem(wrong, 403, "forbidden")["detail"]
                refused = True
            who = organiser
        else:
            who = by_id[asked["member_id"]]
        done = await client.post("/series/tab-1/decisions", json=decision, headers=who.auth)
        assert done.status_code == 201, done.text
    assert refused and [g["game_id"] for g in view["games"]] == ["tab-1.g1", "tab-1.g2"]
    second = await games.load("tab-1.g2")
    assert second.mode is GameMode.TABLE and second.created.context.previous_game_id == "tab-1.g1"
    audit = (await client.get("/series/tab-1/audit")).json()
    assert audit["clean"], audit["verdict"]
