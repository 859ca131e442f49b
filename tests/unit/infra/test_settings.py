"""The infrastructure settings follow the environment they are read from."""

from __future__ import annotations

import pytest

from infra.settings import load_settings


def test_settings_are_read_from_the_environment_as_it_is_now(monkeypatch: pytest.MonkeyPatch) -> None:
    # an in-process command (a test's CliRunner, an operator script) sets the URL it means; a
    # copy kept from an earlier call would send it to another database
    monkeypatch.setenv("BANG_DATABASE_URL", "postgresql://first/one")
    assert load_settings().postgres.url == "postgresql://first/one"
    monkeypatch.setenv("BANG_DATABASE_URL", "postgresql://second/two")
    assert load_settings().postgres.url == "postgresql://second/two"
    monkeypatch.delenv("BANG_DATABASE_URL")
    assert load_settings().postgres.url is None
