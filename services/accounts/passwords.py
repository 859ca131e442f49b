"""Passwords: the policy, and argon2id hashing (argon2-cffi).

Policy: 10 to 200 characters, no control characters; nothing else (no composition rules: length
is what makes a password hard to guess, NIST SP 800-63B). The upper bound keeps one hash's input
bounded. Hashing runs in a thread: argon2 takes tens of milliseconds of CPU and must not stall
the event loop.

The hash is a PHC string (``$argon2id$v=19$m=…,t=…,p=…$salt$hash``) that carries its own
parameters, so a hash made with older ones still verifies, and ``needs_rehash`` tells a login to
store a new one.
"""

from __future__ import annotations

import asyncio

from argon2 import PasswordHasher, Type
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from services.accounts.errors import InvalidAccountInput
from services.accounts.names import NO_CONTROLS, has_control
from services.accounts.settings import AccountSettings

PASSWORD_MIN = 10
PASSWORD_MAX = 200


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
    """Hashes and verifies with argon2id at the configured parameters."""

    def __init__(self, settings: AccountSettings) -> None:
        self._hasher = PasswordHasher(
            time_cost=settings.argon2_time_cost,
            memory_cost=settings.argon2_memory_kib,
            parallelism=settings.argon2_parallelism,
            type=Type.ID,
        )
        self._decoy: str | None = None

    async def hash(self, password: str) -> str:
        return await asyncio.to_thread(self._hasher.hash, password)

    async def verify(self, stored_hash: str, password: str) -> bool:
        return await asyncio.to_thread(self._verify, stored_hash, password)

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
