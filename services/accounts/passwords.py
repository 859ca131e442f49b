"""Passwords: the policy, and argon2id hashing (argon2-cffi).

Policy: 10 to 200 characters, no control characters; nothing else (no composition rules: length
is what makes a password hard to guess, NIST SP 800-63B). The upper bound keeps one hash's input
bounded. Hashing runs in a thread: argon2 takes tens of milliseconds of CPU and must not stall
the event loop.

The hash is a PHC string (``$argon2id$v=19$m=…,t=…,p=…$salt$hash``) that carries its own
parameters, so a hash made with older ones still verifies, and ``needs_rehash`` tells a login to
store a new one.

Every hash and verification takes one of a fixed number of *hash slots* per process
(``BANG_PASSWORD_HASH_SLOTS``): argon2 costs its memory (64 MiB by default) and a core's time
for each, so a burst of logins must not run them all at once (the API's memory and every other
request's latency went with them). A password check that finds no free slot within
``BANG_PASSWORD_HASH_WAIT_MS`` is refused (``PasswordChecksBusy``, 503) rather than queued
without bound. A slot is held until argon2's thread has finished, even when the request that
asked is cut off meanwhile (the thread cannot be stopped, and its memory is still in use).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TypeVar

from argon2 import PasswordHasher, Type
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from services.accounts.errors import InvalidAccountInput, PasswordChecksBusy
from services.accounts.names import NO_CONTROLS, has_control
from services.accounts.settings import AccountSettings

PASSWORD_MIN = 10
PASSWORD_MAX = 200

T = TypeVar("T")


def check_password(password: str, field: str = "password") -> str:
    """``password`` if the policy allows it, else ``InvalidAccountInput`` naming the rule."""
    if len(password) < PASSWORD_MIN:
        raise InvalidAccountInput(field, f"a password has at least {PASSWORD_MIN} characters")
    if len(password) > PASSWORD_MAX:
        raise InvalidAccountInput(field, f"a password has at most {PASSWORD_MAX} characters")
    if has_control(password):
        raise InvalidAccountInput(field, f"a password has {NO_CONTROLS}")
    return password


class Passwords:
    """Hashes and verifies with argon2id at the configured parameters, in at most the
    configured number of threads at once."""

    def __init__(self, settings: AccountSettings, *, hasher: PasswordHasher | None = None) -> None:
        self._hasher = hasher or PasswordHasher(
            time_cost=settings.argon2_time_cost,
            memory_cost=settings.argon2_memory_kib,
            parallelism=settings.argon2_parallelism,
            type=Type.ID,
        )
        self._slots = asyncio.Semaphore(max(1, settings.password_hash_slots))
        self._wait = settings.password_hash_wait_ms / 1000
        self._decoy: str | None = None

    async def hash(self, password: str) -> str:
        return await self._in_slot(self._hasher.hash, password)

    async def verify(self, stored_hash: str, password: str) -> bool:
        return await self._in_slot(self._verify, stored_hash, password)

    async def _in_slot(self, work: Callable[..., T], *args: str) -> T:
        try:
            async with asyncio.timeout(self._wait):
                await self._slots.acquire()
        except TimeoutError:
            raise PasswordChecksBusy(max(1, round(self._wait))) from None
        done = asyncio.ensure_future(asyncio.to_thread(work, *args))
        done.add_done_callback(lambda _: self._slots.release())  # when the thread ends, not before
        return await asyncio.shield(done)

    def _verify(self, stored_hash: str, password: str) -> bool:
        try:
            return self._hasher.verify(stored_hash, password)
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False

    def needs_rehash(self, stored_hash: str) -> bool:
        return self._hasher.check_needs_rehash(stored_hash)

    async def verify_nobody(self, password: str) -> None:
        """Spend what verifying a real account's hash costs, for a login name nobody has: the
        answer's timing then does not tell whether the account exists."""
        if self._decoy is None:
            self._decoy = await self.hash("decoy password of no account")
        await self.verify(self._decoy, password)
