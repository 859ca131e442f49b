"""The password hash slots (passwords.py): at most the configured number of argon2 runs at once
per process; a check that finds none free in time is refused, and a slot stays taken until its
argon2 thread has ended, even when the request that asked for it was cut off."""

from __future__ import annotations

import asyncio
import threading

import pytest
from argon2 import PasswordHasher, Type

from services.accounts.errors import PasswordChecksBusy
from services.accounts.passwords import Passwords
from services.accounts.settings import AccountSettings

SETTINGS = AccountSettings(
    argon2_time_cost=1,
    argon2_memory_kib=8 * 1024,
    argon2_parallelism=1,
    password_hash_slots=1,
    password_hash_wait_ms=100,
)


class GatedHasher(PasswordHasher):
    """argon2id that starts each verification only once the gate opens."""

    def __init__(self, gate: threading.Event) -> None:
        super().__init__(time_cost=1, memory_cost=8 * 1024, parallelism=1, type=Type.ID)
        self.gate = gate
        self.started = threading.Event()

    def verify(self, hash: str | bytes, password: str | bytes) -> bool:
        self.started.set()
        assert self.gate.wait(timeout=30)
        return super().verify(hash, password)


def test_settings_read_the_slots_from_the_environment() -> None:
    env = {"BANG_PASSWORD_HASH_SLOTS": "3", "BANG_PASSWORD_HASH_WAIT_MS": "750"}
    settings = AccountSettings.from_env(env)
    assert (settings.password_hash_slots, settings.password_hash_wait_ms) == (3, 750)
    assert (AccountSettings().password_hash_slots, AccountSettings().password_hash_wait_ms) == (4, 2000)


async def test_a_slot_stays_taken_until_its_thread_ends_even_when_its_request_is_cut_off() -> None:
    gate = threading.Event()
    hasher = GatedHasher(gate)
    passwords = Passwords(SETTINGS, hasher=hasher)
    stored = hasher.hash("correct horse battery")
    cut_off = asyncio.create_task(passwords.verify(stored, "correct horse battery"))
    try:
        assert await asyncio.to_thread(hasher.started.wait, 10)
        cut_off.cancel()
        with pytest.raises(asyncio.CancelledError):
            await cut_off
        # argon2 still runs in its thread: the one slot is still taken
        with pytest.raises(PasswordChecksBusy) as busy:
            await passwords.hash("another password")
        assert busy.value.retry_after == 1 and "busy checking other passwords" in str(busy.value)
    finally:
        gate.set()
    for _ in range(500):  # the slot comes back once the thread has ended
        try:
            assert (await passwords.hash("another password")).startswith("$argon2id$")
            break
        except PasswordChecksBusy:
            await asyncio.sleep(0.01)
    else:
        pytest.fail("the slot never came back")
