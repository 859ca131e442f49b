"""Which environment variables the code reads is asked of the settings loaders themselves."""

from __future__ import annotations

from services.runtime.environment import RecordingEnv, env_vars_read


def test_recording_env_remembers_every_key_asked_for() -> None:
    env = RecordingEnv()
    assert env.get("A", "x") == "x"
    assert "B" not in env
    assert env.asked == {"A", "B"}


def test_the_settings_loaders_report_what_they_read() -> None:
    names = env_vars_read()
    # a sample from each loader: infra, runtime, api
    assert {"BANG_DATABASE_URL", "BANG_REDIS_URL", "BANG_DATA_DIR"} <= names
    assert {"BANG_LOG_LEVEL", "BANG_HEALTH_PORT"} <= names
    assert "BANG_API_PORT" in names


def test_a_loader_whose_module_is_missing_is_skipped() -> None:
    assert env_vars_read(("services.nonexistent.settings:Settings.from_env",)) == set()
