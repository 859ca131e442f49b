"""The ratings tables, found by the runtime's ``prepare_all`` (services/<svc>/schema.py)."""

from services.ratings.store import prepare_database

__all__ = ["prepare_database"]
