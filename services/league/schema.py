"""The league's tables, found by the runtime's ``prepare_all`` (services/<svc>/schema.py)."""

from services.league.read_model import prepare_database

__all__ = ["prepare_database"]
