"""The game service on a fresh database per test, as in tests/integration/audit; and the real
API app, as in tests/integration/api."""

from __future__ import annotations

from tests.integration.api import conftest as api
from tests.integration.audit.conftest import game_service, game_store

api_settings = api.api_settings
app = api.app
base_url = api.base_url
client = api.client
organiser_token = api.organiser_token

__all__ = ["api_settings", "app", "base_url", "client", "game_service", "game_store", "organiser_token"]
