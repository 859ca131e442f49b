"""The Celery worker process: the shared app (`services.worker.app:app`), our logs and metrics.

The pool is `threads` by default: tasks are I/O-bound (database, Redis) and Celery's signals
fire in the process that ran the task, so with threads this process's `/metrics` sees every
task outcome (a prefork child's counters would die with the child).
"""

from __future__ import annotations

import socket
from typing import Any

from services.runtime.logging import configure_logging
from services.runtime.metrics import connect_celery_signals

DEFAULT_QUEUE = "celery"


def celery_app() -> Any:
    from services.worker.app import app

    return app


def queue_names(app: Any) -> list[str]:
    """The queues this app's workers consume: its configured ones, else the default queue."""
    queues = app.conf.task_queues
    names = [q.name for q in queues] if queues else []
    default = app.conf.task_default_queue or DEFAULT_QUEUE
    return sorted({*names, default})


def run_worker(*, concurrency: int, pool: str, log_level: str, queues: list[str] | None = None) -> None:
    """Block running a Celery worker until it receives SIGTERM/SIGINT (warm shutdown)."""
    from celery import signals

    app = celery_app()
    connect_celery_signals()

    # Celery configures logging itself unless somebody answers this signal
    @signals.setup_logging.connect(weak=False)
    def _logging(**_: Any) -> None:
        configure_logging("worker", level=log_level)

    argv = [
        "worker",
        f"--concurrency={concurrency}",
        f"--pool={pool}",
        f"--loglevel={log_level}",
        f"--hostname=bang-worker-{socket.gethostname()}-%i@%h",
        "--without-gossip",
        "--without-mingle",
    ]
    if queues:
        argv.append(f"--queues={','.join(queues)}")
    app.worker_main(argv)
