"""Settings of the runtime processes (serve, worker, consumers), read once from the environment.
Where the database and Redis are is `infra.settings`' concern, where the API listens
`services.api.settings`'; this holds only what the runtime adds.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class RuntimeSettings:
    # Log level of every process (env BANG_LOG_LEVEL).
    log_level: str = "INFO"
    # Celery worker threads (env BANG_WORKER_CONCURRENCY).
    worker_concurrency: int = 2
    # Port of a consumer's or worker's /health and /metrics (env BANG_HEALTH_PORT; 0 = none).
    health_port: int = 0
    # How long a stopping child gets between SIGTERM and SIGKILL (env BANG_STOP_TIMEOUT).
    stop_timeout_seconds: float = 10.0

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> RuntimeSettings:
        env = os.environ if env is None else env
        defaults = cls()
        return cls(
            log_level=(env.get("BANG_LOG_LEVEL") or defaults.log_level).upper(),
            worker_concurrency=int(env.get("BANG_WORKER_CONCURRENCY") or defaults.worker_concurrency),
            health_port=int(env.get("BANG_HEALTH_PORT") or defaults.health_port),
            stop_timeout_seconds=float(env.get("BANG_STOP_TIMEOUT") or defaults.stop_timeout_seconds),
        )
