"""The accounts' settings: one frozen dataclass, read once from the environment.

The argon2id parameters default to argon2-cffi's own (RFC 9106's second recommended option, low
memory: t=3, m=64 MiB, p=4), which take ~50-100 ms per hash on one core: slow enough that a
stolen table is costly to guess through, fast enough for a login. Raising them later is safe:
every login checks ``check_needs_rehash`` and rehashes with the current ones.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta

from argon2 import DEFAULT_MEMORY_COST, DEFAULT_PARALLELISM, DEFAULT_TIME_COST


@dataclass(frozen=True, slots=True)
class AccountSettings:
    session_lifetime: timedelta = timedelta(days=30)
    """env ``BANG_SESSION_DAYS``: how long a login's session token is good for."""
    invite_lifetime: timedelta = timedelta(days=7)
    """env ``BANG_INVITE_DAYS``: how long an invite link may be accepted."""
    failed_logins_per_name: str = "5 per 15 minutes"
    """env ``BANG_LOGIN_FAILURES_PER_NAME``: failed logins one login name may have (``limits``)."""
    failed_logins_per_address: str = "20 per 15 minutes"
    """env ``BANG_LOGIN_FAILURES_PER_ADDRESS``: failed logins one client address may make."""
    password_hash_slots: int = 4
    """env ``BANG_PASSWORD_HASH_SLOTS``: password hashes (and checks) one API process runs at once."""
    password_hash_wait_ms: int = 2_000
    """env ``BANG_PASSWORD_HASH_WAIT_MS``: how long a password check waits for a free slot
    before it is refused (503)."""
    argon2_time_cost: int = DEFAULT_TIME_COST
    """env ``BANG_ARGON2_TIME_COST``: passes over the memory."""
    argon2_memory_kib: int = DEFAULT_MEMORY_COST
    """env ``BANG_ARGON2_MEMORY_KIB``: memory per hash, KiB."""
    argon2_parallelism: int = DEFAULT_PARALLELISM
    """env ``BANG_ARGON2_PARALLELISM``: lanes."""

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> AccountSettings:
        env = os.environ if env is None else env
        default = cls()

        def number(name: str, value: int) -> int:
            return int(env.get(name) or value)

        return cls(
            session_lifetime=timedelta(days=number("BANG_SESSION_DAYS", default.session_lifetime.days)),
            invite_lifetime=timedelta(days=number("BANG_INVITE_DAYS", default.invite_lifetime.days)),
            failed_logins_per_name=env.get("BANG_LOGIN_FAILURES_PER_NAME") or default.failed_logins_per_name,
            failed_logins_per_address=env.get("BANG_LOGIN_FAILURES_PER_ADDRESS")
            or default.failed_logins_per_address,
            password_hash_slots=number("BANG_PASSWORD_HASH_SLOTS", default.password_hash_slots),
            password_hash_wait_ms=number("BANG_PASSWORD_HASH_WAIT_MS", default.password_hash_wait_ms),
            argon2_time_cost=number("BANG_ARGON2_TIME_COST", default.argon2_time_cost),
            argon2_memory_kib=number("BANG_ARGON2_MEMORY_KIB", default.argon2_memory_kib),
            argon2_parallelism=number("BANG_ARGON2_PARALLELISM", default.argon2_parallelism),
        )
