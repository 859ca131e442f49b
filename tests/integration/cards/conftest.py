"""The game service on a fresh database per test, as in tests/integration/audit; and the real
API app, as in tests/integration/api. Every online game of a test gets the same seed, made
from the test's name, so a game (and any failure) comes back the same on every run."""

from __future__ import annotations

import hashlib

import pytest

from services.game.application import service as service_module
from tests.integration.api import conftest as api
from tests.integration.audit.conftest import game_service, game_store

api_settings = api.api_settings
app = api.app
base_url = api.base_url
client = api.client
organiser_token = api.organiser_token


@pytest.fixture(autouse=True)
def fixed_seed(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> bytes:
    seed = hashlib.sha256(request.node.name.encode()).digest()
    monkeypatch.setattr(service_module, "new_seed", lambda: seed)
    return seed


__all__ = ["api_settings", "app", "base_url", "client", "game_service", "game_store", "organiser_token"]
