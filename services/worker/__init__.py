"""The Celery app every service's background work runs on (see app.py)."""
