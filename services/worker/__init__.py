"""The Celery app every service's background work runs on (see app.py), and the worker process
that runs it (process.py)."""
