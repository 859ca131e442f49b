"""Non-interference through the API: two online card games that differ only in one card of
one seat's hand (the first deck's order has that card and the deck's bottom card swapped) look
byte-identical to every other seat and to anybody, through the REST state, the REST event feed
and GraphQL (the game and its events), at every step until a command could show the card; and
then through the live subscription (the websocket) too."""

from __future__ import annotations

import asyncio
import json
import random
import re
from typing import Any

import httpx
import pytest
from litestar import Litestar
from websockets.asyncio.client import connect

from services.api.client import PROTOCOL
from services.game.application import service as service_module
from services.game.fairness.registry import shuffle_derivation
from services.game.rules.cards import commands as cmd
from services.game.rules.cards import parse_command
from services.game.rules.cards.deck import name_of
from services.game.rules.cards.vocabulary import CardName
from tests.integration.api.bots import bearer, player_tokens
from tests.integration.api.conftest import resources_of
from tests.integration.cards.test_card_api import create_cards

GAME_QUERY = """query($id: ID!, $from: Int!) { game(id: $id) { id status version turn phase deck discard
  generalStore kitCarlson resolving activePlayer legalCommands
  awaiting { player decision fromPlayer count cards }
  players { id memberId role character life maxLife alive handCount hand handIds inPlay inPlayIds } }
  gameEvents(id: $id, fromVersion: $from) { version type data } }"""


class Twins:
    """Two online games, ``ni-a`` and ``ni-b``, that differ only in one card: in B the first
    deck has ``hidden`` (a card of ``seat``'s starting hand in A) and ``bottom`` (A's bottom card)
    swapped, so ``seat`` holds ``bottom`` in B and nobody else can know it."""

    seat = ""
    hidden = 0
    bottom = 0
    swap: tuple[int, int] | None = None


def _swapping_shuffles(twins: Twins) -> Any:
    real = shuffle_derivation("shuffles-1")

    class Swapped:
        pick = staticmethod(real.pick)

        @staticmethod
        def shuffle(seed: bytes, at: int, cards: Any) -> tuple[int, ...]:
            order = list(real.shuffle(seed, at, cards))
            if twins.swap is not None and at == 1:
                i, j = order.index(twins.swap[0]), order.index(twins.swap[1])
                order[i], order[j] = order[j], order[i]
            return tuple(order)

    return lambda version: Swapped


def _normal(text: str, game_id: str) -> str:
    text = text.replace(game_id, "GAME")
    return re.sub(r'"(recorded_at|recordedAt|deadline)":\s*"[^"]*"', r'"\1":null', text)


async def _look(client: httpx.AsyncClient, game_id: str, token: str | None, since: int = 1) -> list[str]:
    """The state (REST, GraphQL) and the events from ``since`` on (REST feed, GraphQL)."""
    headers = bearer(token) if token else {}
    state = await client.get(f"/games/{game_id}", headers=headers)
    feed = await client.get(
        f"/games/{game_id}/events", params={"from_version": since, "limit": 1000}, headers=headers
    )
    graphql = await client.post(
        "/graphql", json={"query": GAME_QUERY, "variables": {"id": game_id, "from": since}}, headers=headers
    )
    assert state.status_code == feed.status_code == graphql.status_code == 200
    assert "errors" not in graphql.json(), graphql.text
    return [_normal(r.text, game_id) for r in (state, feed, graphql)]


SUBSCRIPTION = """subscription($id: ID!) { gameUpdates(id: $id, fromVersion: 1) {
  version events { version type data } } }"""


async def _subscribed(base_url: str, game_id: str, token: str | None) -> str:
    """The first batch the live subscription sends (every event so far), as sent."""
    async with connect(f"ws://{base_url}/graphql", subprotocols=[PROTOCOL], open_timeout=10) as socket:  # type: ignore[list-item]
        params = {} if token is None else {"Authorization": f"Bearer {token}"}
        await socket.send(json.dumps({"type": "connection_init", "payload": params}))
        assert json.loads(await socket.recv())["type"] == "connection_ack"
        payload = {"query": SUBSCRIPTION, "variables": {"id": game_id}}
        await socket.send(json.dumps({"id": "1", "type": "subscribe", "payload": payload}))
        while True:
            raw = str(await asyncio.wait_for(socket.recv(), 10))
            if json.loads(raw)["type"] == "next":
                return _normal(raw, game_id)


def _touches(command: cmd.Command, cards: set[int], seat: str) -> bool:
    """Whether playing ``command`` may show either twin's differing card to others: it names
    one, or takes a card at random from ``seat``'s hand (Panic!, Cat Balou, Jesse Jones)."""
    named = {
        getattr(command, "card", None),
        getattr(command, "target_card", None),
        *getattr(command, "cards", ()),
    }
    if named & cards:
        return True
    if isinstance(command, cmd.PlayCard) and command.target == seat and command.target_card is None:
        return name_of(command.card) in (CardName.PANIC, CardName.CAT_BALOU)
    return isinstance(command, cmd.ChooseDrawSource) and command.from_player == seat


async def test_two_games_differing_only_in_a_hidden_card_look_identical_to_everybody_else(
    app: Litestar,
    base_url: str,
    client: httpx.AsyncClient,
    organiser_token: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seed = bytes(range(32))
    monkeypatch.setattr(service_module, "new_seed", lambda: seed)
    twins = Twins()
    monkeypatch.setattr(service_module, "shuffle_derivation", _swapping_shuffles(twins))
    a = await create_cards(client, organiser_token, "ni-a")
    assert a.status_code == 201, a.text
    service = resources_of(app).gateway.service
    truth = (await service.load("ni-a")).game.state  # type: ignore[union-attr]
    sheriff = truth.active
    twins.seat = next(p.id for p in truth.players if p.id != sheriff)
    twins.hidden = truth.player(twins.seat).hand[0]
    twins.bottom = truth.deck[-1]
    twins.swap = (twins.hidden, twins.bottom)
    b = await create_cards(client, organiser_token, "ni-b")
    assert b.status_code == 201, b.text
    twins.swap = None
    truth_b = (await service.load("ni-b")).game.state  # type: ignore[union-attr]
    assert (
        twins.bottom in truth_b.player(twins.seat).hand
        and twins.hidden not in truth_b.player(twins.seat).hand
    )

    tokens_a = await player_tokens(app, a.json())
    tokens_b = await player_tokens(app, b.json())
    member_of = {p["id"]: p["member_id"] for p in a.json()["state"]["players"]}
    others = [m for seat, m in member_of.items() if seat != twins.seat]
    differing = {twins.hidden, twins.bottom}
    rng = random.Random(11)
    compared = 0
    since = 1  # each look reads the events new since the last one; the whole feed at the end
    for n in range(25):
        for viewer in [*others, None]:
            seen_a = await _look(client, "ni-a", tokens_a[viewer] if viewer else None, since)
            seen_b = await _look(client, "ni-b", tokens_b[viewer] if viewer else None, since)
            assert seen_a == seen_b, f"{viewer or 'anybody'} tells the twins apart after {n} commands"
        compared += 1
        since = (await client.get("/games/ni-a")).json()["version"] + 1
        # the seat itself sees its own card: the twins differ for it, as they must
        own_a = await _look(client, "ni-a", tokens_a[member_of[twins.seat]])
        own_b = await _look(client, "ni-b", tokens_b[member_of[twins.seat]])
        assert own_a[0] != own_b[0]
        session = await service.load("ni-a")
        game = session.game
        assert game is not None
        if session.status.value != "ongoing" or len(game.state.deck) < 6:  # type: ignore[attr-defined]
            break
        awaited = session.engine.question(game).player  # type: ignore[union-attr]
        mine = (await client.get("/games/ni-a", headers=bearer(tokens_a[member_of[awaited]]))).json()
        choices = [parse_command(c) for c in mine["legal_commands"]]
        safe = [c for c in choices if not _touches(c, differing, twins.seat)]
        if not safe:
            break
        ends = [c for c in safe if isinstance(c, cmd.EndPlay)]
        command = ends[0] if ends and rng.random() < 0.3 else rng.choice(safe)
        for game_id, tokens in (("ni-a", tokens_a), ("ni-b", tokens_b)):
            response = await client.post(
                f"/games/{game_id}/commands",
                json={"command": str(command), "command_id": f"c{n}"},
                headers=bearer(tokens[member_of[awaited]]),
            )
            assert response.status_code == 200, (game_id, response.text)
        events = (await client.get("/games/ni-a/events", params={"from_version": since})).json()
        if any(e["type"] == "cards.CardTaken" and e["data"]["from_player"] == twins.seat for e in events):
            break  # El Gringo took one of the seat's cards at random: the taker may now know
    assert compared >= 15, f"only {compared} positions compared"
    for viewer in [*others, None]:  # the whole story, redacted as of now, and as a subscriber gets it
        seen_a = await _look(client, "ni-a", tokens_a[viewer] if viewer else None)
        assert seen_a == await _look(client, "ni-b", tokens_b[viewer] if viewer else None), viewer
        live_a = await _subscribed(base_url, "ni-a", tokens_a[viewer] if viewer else None)
        assert live_a == await _subscribed(base_url, "ni-b", tokens_b[viewer] if viewer else None), viewer
    own = member_of[twins.seat]
    assert await _subscribed(base_url, "ni-a", tokens_a[own]) != await _subscribed(
        base_url, "ni-b", tokens_b[own]
    )
