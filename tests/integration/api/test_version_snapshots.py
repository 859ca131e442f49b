"""A version read (``GET /games/{id}/versions/{v}``, time travel) folds from the nearest snapshot
(issue 20, finding 3): at most ``SNAPSHOT_EVERY`` events past it whatever the game's length,
counted here through the fold itself (``GameSession.apply_recorded``), not by timing; every
version answers byte for byte what a full refold answers, for each viewer; and the events a read
folds are charged to its caller's rate limit."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from typing import Any

import httpx
import msgspec
import pytest
from litestar import Litestar

from event_store import PostgresEventStore, RecordedEvent
from services.api import ApiSettings, create_app
from services.api.settings import LimitSettings
from services.game.application.codec import game_stream
from services.game.application.session import GameSession
from services.game.application.snapshots import SNAPSHOT_EVERY
from services.game.edge.gateway import GameGateway
from services.game.edge.tokens import Principal
from services.game.edge.visibility import redact_state
from services.game.records import record_to_object
from services.game.records.dispatch import read_any_record
from tests.integration.api.bots import bearer
from tests.integration.api.conftest import resources_of, uvicorn_serving
from tests.integration.api.long_card_game import long_card_record
from tests.integration.api.long_game import long_record
from tests.integration.api.test_errors import problem

CARD_GAME = "long-cards"
DICE_GAME = "long-dice"


class Folds:
    """Counts the events folded into any session (the one path every fold takes)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        apply = GameSession.apply_recorded

        def counted(session: GameSession, recorded: RecordedEvent) -> None:
            self.count += 1
            apply(session, recorded)

        monkeypatch.setattr(GameSession, "apply_recorded", counted)

    def since(self, before: int) -> int:
        return self.count - before


async def import_whole(app: Litestar, token: str, record: dict[str, Any], game_id: str) -> Principal:
    gateway = resources_of(app).gateway
    principal = await gateway.authenticate(f"Bearer {token}")
    assert principal is not None
    await gateway.import_record(principal, read_any_record(record), None, f"import-{game_id}", game_id)
    return principal


def batch_ends(recorded: list[RecordedEvent]) -> list[int]:
    """For each version (index version - 1), the last version of its command's batch."""
    ends = [0] * len(recorded)
    end = len(recorded)
    for i in range(len(recorded) - 1, -1, -1):
        batch = recorded[i].metadata.command_id
        if i + 1 < len(recorded) and (batch is None or recorded[i + 1].metadata.command_id != batch):
            end = i + 1
        ends[i] = end
    return ends


def full_refolds(game_id: str, recorded: list[RecordedEvent]) -> Iterator[GameSession]:
    """The game folded from its first event, one event at a time, without snapshots: the
    session after each version."""
    session = GameSession.from_recorded(game_id, recorded[:1])
    yield session
    for r in recorded[1:]:
        session.apply_recorded(r)
        yield session


def encoded(state: dict[str, Any]) -> bytes:
    return msgspec.json.encode(state)


async def assert_every_version_is_the_full_refold(
    gateway: GameGateway, game_id: str, viewers: list[Principal | None]
) -> None:
    recorded = await gateway.store.read_stream(game_stream(game_id))
    ends = batch_ends(recorded)
    expected: dict[tuple[int, int], bytes] = {}
    wanted = set(ends)
    for session in full_refolds(game_id, recorded):
        if session.version in wanted:
            for n, principal in enumerate(viewers):
                viewer = await gateway.viewer(principal, session)
                expected[(n, session.version)] = encoded(redact_state(session, viewer))
    versions = list(range(1, len(recorded) + 1))
    random.Random(20).shuffle(versions)  # snapshots made by earlier reads, in no order
    for version in versions:
        for n, principal in enumerate(viewers):
            answer = encoded(await gateway.state_at(principal, game_id, version))
            assert answer == expected[(n, ends[version - 1])], f"version {version}, viewer {n}"


async def test_a_version_read_folds_at_most_one_snapshot_span(
    app: Litestar, client: httpx.AsyncClient, organiser_token: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    await import_whole(app, organiser_token, long_card_record(), CARD_GAME)
    gateway = resources_of(app).gateway
    recorded = await gateway.store.read_stream(game_stream(CARD_GAME))
    last = len(recorded)
    assert last > 3_000
    ends = batch_ends(recorded)
    folds = Folds(monkeypatch)

    first = await client.get(f"/games/{CARD_GAME}/versions/{last}")  # the first read folds it all
    assert first.status_code == 200 and first.json()["version"] == last
    assert folds.count == last - 1
    for version in (last, last - 1, 2_950, 1_234, 777, 401, 150, 99, 2):
        before = folds.count
        answer = await client.get(f"/games/{CARD_GAME}/versions/{version}")
        assert answer.status_code == 200 and answer.json()["version"] == ends[version - 1]
        floor = max(1, version // SNAPSHOT_EVERY * SNAPSHOT_EVERY)
        assert folds.since(before) == ends[version - 1] - floor, version
        assert folds.since(before) <= SNAPSHOT_EVERY + max(e - v for v, e in enumerate(ends, 1))
    problem(await client.get(f"/games/{CARD_GAME}/versions/{last + 1}"), 422, "version-out-of-range")


async def test_every_version_of_a_long_card_game_equals_its_full_refold(
    app: Litestar, organiser_token: str
) -> None:
    """Anonymous (hands and roles hidden as they were) and the importer (who sees the table)."""
    organiser = await import_whole(app, organiser_token, long_card_record(), CARD_GAME)
    await assert_every_version_is_the_full_refold(resources_of(app).gateway, CARD_GAME, [None, organiser])


async def test_every_version_of_a_long_dice_game_equals_its_full_refold(
    app: Litestar, organiser_token: str
) -> None:
    record = msgspec.json.decode(msgspec.json.encode(record_to_object(long_record())))
    organiser = await import_whole(app, organiser_token, record, DICE_GAME)
    await assert_every_version_is_the_full_refold(resources_of(app).gateway, DICE_GAME, [None, organiser])


async def test_a_version_read_is_charged_by_the_events_it_folds(api_settings: ApiSettings) -> None:
    """An anonymous budget of 40 per 30 s: the first read of the last version folds the whole
    game (3,000+ events, 60+ requests), which takes the whole budget; a token's read of a
    version near a snapshot costs one or two."""
    limits = LimitSettings(rate_limit="400 per 30 seconds", anonymous_rate_limit="40 per 30 seconds")
    app = create_app(dataclasses.replace(api_settings, limits=limits))
    async with (
        uvicorn_serving(app) as address,
        httpx.AsyncClient(base_url=f"http://{address}", timeout=60) as client,
    ):
        token = await resources_of(app).gateway.tokens.issue_organiser("reader")
        await import_whole(app, token, long_card_record(), CARD_GAME)
        last = len(await resources_of(app).gateway.store.read_stream(game_stream(CARD_GAME)))
        assert (await client.get(f"/games/{CARD_GAME}/versions/{last}")).status_code == 200
        refused = problem(await client.get(f"/games/{CARD_GAME}/versions/{last}"), 429, "rate-limited")
        assert "this address may make 40 requests per 30 seconds" in refused["detail"]
        for _ in range(20):  # 400 requests' budget: twenty near-snapshot reads cost far less
            assert (
                await client.get(f"/games/{CARD_GAME}/versions/{last}", headers=bearer(token))
            ).status_code == 200
        assert (await client.get(f"/games/{CARD_GAME}", headers=bearer(token))).status_code == 200


async def test_a_version_past_the_end_is_refused_by_name_not_charged_as_a_fold(
    api_settings: ApiSettings,
) -> None:
    """A read is charged before anything is read, by the versions it would fold: a version past
    the game's end is refused as out of range first (a budget that could never pay such a fold
    still gets the plain answer), and a version under 1 too."""
    limits = LimitSettings(anonymous_rate_limit="10 per 30 seconds")
    app = create_app(dataclasses.replace(api_settings, limits=limits))
    async with (
        uvicorn_serving(app) as address,
        httpx.AsyncClient(base_url=f"http://{address}", timeout=60) as client,
    ):
        token = await resources_of(app).gateway.tokens.issue_organiser("reader")
        await import_whole(app, token, long_card_record(), CARD_GAME)
        last = len(await resources_of(app).gateway.store.read_stream(game_stream(CARD_GAME)))
        for _ in range(3):
            past = await client.get(f"/games/{CARD_GAME}/versions/{last + 1_000_000}")
            refused = problem(past, 422, "version-out-of-range")
            assert f"has versions 1 to {last}, not {last + 1_000_000}" in refused["detail"]
        problem(await client.get("/games/no-such-game/versions/5"), 404, "game-not-found")


async def test_a_read_refused_for_its_cost_reads_no_events(
    api_settings: ApiSettings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The charge comes before the store is read: a version read its caller's budget cannot pay
    is refused having read, decoded and folded no event (events counted where the store decodes
    them, folds where every fold goes). A budget of 10: 5 spent on reads of no game (nothing
    decoded), then reads each charged 1 and refused for their fold (at least 6 more)."""
    limits = LimitSettings(anonymous_rate_limit="10 per 30 seconds")
    app = create_app(dataclasses.replace(api_settings, limits=limits))
    async with (
        uvicorn_serving(app) as address,
        httpx.AsyncClient(base_url=f"http://{address}", timeout=60) as client,
    ):
        token = await resources_of(app).gateway.tokens.issue_organiser("reader")
        await import_whole(app, token, long_card_record(), CARD_GAME)
        for _ in range(5):
            problem(await client.get("/games/no-such-game"), 404, "game-not-found")
        decoded = 0
        to_recorded = PostgresEventStore.to_recorded

        def counted(store: PostgresEventStore, row: Any) -> RecordedEvent:
            nonlocal decoded
            decoded += 1
            return to_recorded(store, row)

        monkeypatch.setattr(PostgresEventStore, "to_recorded", counted)
        folds = Folds(monkeypatch)
        for version in (2000, 2950, 150):
            refused = problem(await client.get(f"/games/{CARD_GAME}/versions/{version}"), 429, "rate-limited")
            assert "this read folds" in refused["detail"]
        assert decoded == 0 and folds.count == 0
