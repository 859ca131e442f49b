"""The one Celery app: Redis as broker and result backend, tasks from each service's tasks.py.

Start a worker with ``celery -A services.worker.app worker`` (or ``bang-league worker``).
Importing this module resolves Redis (``BANG_REDIS_URL``, else the embedded server of the
data dir); see config.py. Tasks must be safe to run twice: Redis delivers at least once
(``task_acks_late`` re-queues a task whose worker died), so every task derives its command ids
from its arguments.
"""

from __future__ import annotations

import importlib

from services.worker.config import create_app, resolve_database_url, resolve_redis_url, task_modules

REDIS_URL = resolve_redis_url()
"""This process's Redis, in redis-py's spelling (tasks that publish use it)."""
app = create_app(REDIS_URL)

for _module in task_modules():
    importlib.import_module(_module)  # register the tasks on this app now, for senders too

__all__ = ["REDIS_URL", "app", "resolve_database_url"]
