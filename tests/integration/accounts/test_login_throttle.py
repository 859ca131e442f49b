"""Logins arriving at once (issue 20, finding 2): each attempt is counted in Redis before its
password is hashed, so a burst for one login name gets no more hashes than the window's budget,
and no burst runs more argon2 hashes at a time than the process's hash slots.

The hashes are counted by the hasher itself: a real argon2 ``PasswordHasher`` that notes how
many verifications ran and how many ran at the same moment, handed to the service as its
hasher (what a deployment would configure), on the real app, PostgreSQL and Redis."""

from __future__ import annotations

import asyncio
import dataclasses
import threading
from collections.abc import Callable
from typing import Any, TypeVar

import httpx
import pytest
from argon2 import PasswordHasher, Type
from litestar import Litestar

from services.accounts.passwords import Passwords
from services.accounts.settings import AccountSettings
from tests.integration.accounts.conftest import PASSWORD, accounts_of, register

WRONG = "not the password at all"

T = TypeVar("T")


class CountingHasher(PasswordHasher):
    """argon2id as configured, counting its verifications, and the most hashes and verifications
    running at once. Each may be held at its start (``gate``) to keep its hash slot taken."""

    def __init__(self, settings: AccountSettings, gate: threading.Event | None = None) -> None:
        super().__init__(
            time_cost=settings.argon2_time_cost,
            memory_cost=settings.argon2_memory_kib,
            parallelism=settings.argon2_parallelism,
            type=Type.ID,
        )
        self.gate = gate
        self.verified = 0
        self.running = 0
        self.peak = 0
        self._lock = threading.Lock()

    def verify(self, hash: str | bytes, password: str | bytes) -> bool:
        with self._lock:
            self.verified += 1
        return self._counted(lambda: super(CountingHasher, self).verify(hash, password))

    def hash(self, password: str | bytes, *, salt: bytes | None = None) -> str:
        return self._counted(lambda: super(CountingHasher, self).hash(password, salt=salt))

    def _counted(self, work: Callable[[], T]) -> T:
        with self._lock:
            self.running += 1
            self.peak = max(self.peak, self.running)
        try:
            if self.gate is not None:
                assert self.gate.wait(timeout=30), "the test never opened the gate"
            return work()
        finally:
            with self._lock:
                self.running -= 1


def counting(app: Litestar, settings: AccountSettings, gate: threading.Event | None = None) -> CountingHasher:
    hasher = CountingHasher(settings, gate)
    accounts_of(app).passwords = Passwords(settings, hasher=hasher)
    return hasher


async def login(client: httpx.AsyncClient, name: str, password: str) -> httpx.Response:
    return await client.post("/sessions", json={"login": name, "password": password})


async def test_a_burst_for_one_login_name_gets_at_most_the_windows_five_hashes(
    app: Litestar, client: httpx.AsyncClient, account_settings: AccountSettings
) -> None:
    assert account_settings.failed_logins_per_name == "5 per 15 minutes"  # the default budget
    await register(app, client)
    hasher = counting(app, account_settings)

    answers = await asyncio.gather(
        *[login(client, "alice", WRONG) for _ in range(15)], login(client, "alice", PASSWORD)
    )

    statuses = [answer.status_code for answer in answers]
    assert set(statuses) <= {201, 401, 429}, [a.text for a in answers]
    # at most 5 wrong passwords evaluated; the right one, if hashed, gave its place back at once,
    # so one more wrong guess may have taken it (5 wrong + 1 right hashed)
    assert statuses.count(401) <= 5
    assert statuses.count(401) + statuses.count(201) == hasher.verified  # every hashed one, answered
    assert statuses.count(429) >= 10
    throttled = next(a for a in answers if a.status_code == 429)
    assert "this login name" in throttled.json()["detail"] and int(throttled.headers["Retry-After"]) >= 1
    # a success gives its place back; the wrong ones keep theirs until the window has 5
    for _ in range(5 - statuses.count(401)):
        assert (await login(client, "alice", WRONG)).status_code == 401
    refused = await login(client, "alice", PASSWORD)
    assert refused.status_code == 429, refused.text
    assert hasher.verified == 5 + statuses.count(201)


async def test_a_success_gives_its_place_back(
    app: Litestar, client: httpx.AsyncClient, account_settings: AccountSettings
) -> None:
    await register(app, client)
    for _ in range(4):
        assert (await login(client, "alice", WRONG)).status_code == 401
    for _ in range(3):  # each success is counted and given back: the fifth place stays free
        assert (await login(client, "alice", PASSWORD)).status_code == 201
    assert (await login(client, "alice", WRONG)).status_code == 401
    assert (await login(client, "alice", PASSWORD)).status_code == 429


class TestHashSlots:
    @pytest.fixture
    def account_settings(self, account_settings: AccountSettings) -> AccountSettings:
        return dataclasses.replace(account_settings, password_hash_slots=2)

    async def test_forty_failed_logins_at_once_never_hash_more_than_the_slots_at_a_time(
        self, app: Litestar, client: httpx.AsyncClient, account_settings: AccountSettings
    ) -> None:
        await register(app, client)
        hasher = counting(app, account_settings)

        answers = await asyncio.gather(
            *[login(client, f"user{n}", WRONG) for n in range(39)], login(client, "alice", WRONG)
        )

        statuses = [answer.status_code for answer in answers]
        assert set(statuses) <= {401, 429, 503}, [a.text for a in answers]
        assert 1 <= hasher.peak <= 2, hasher.peak
        # the address's budget (20 per window) is all that was ever hashed (the decoy's own
        # verification of its hash counts for an unknown name)
        assert statuses.count(401) <= 20
        assert statuses.count(429) >= 20
        assert hasher.verified <= 20

    async def test_a_check_that_finds_no_free_slot_soon_is_refused_with_503_naming_why(
        self, app: Litestar, client: httpx.AsyncClient, account_settings: AccountSettings
    ) -> None:
        await register(app, client)
        gate = threading.Event()
        settings = dataclasses.replace(account_settings, password_hash_slots=1, password_hash_wait_ms=200)
        hasher = counting(app, settings, gate)
        first = asyncio.create_task(login(client, "alice", PASSWORD))
        try:
            for _ in range(500):
                if hasher.running:
                    break
                await asyncio.sleep(0.01)
            assert hasher.running == 1
            busy = await login(client, "alice", PASSWORD)
        finally:
            gate.set()
        problem: dict[str, Any] = busy.json()
        assert busy.status_code == 503 and problem["type"].endswith("password-checks-busy"), busy.text
        assert "busy checking other passwords" in problem["detail"] and busy.headers["Retry-After"] == "1"
        assert (await first).status_code == 201
        assert hasher.verified == 1
        assert (await login(client, "alice", PASSWORD)).status_code == 201  # the slot is free again
