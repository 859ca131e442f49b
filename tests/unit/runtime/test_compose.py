"""docker-compose.yml against the code: every bang-league command exists in the CLI and every
variable it sets for our containers is one the code reads (asked of the settings loaders)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer
import yaml

from bang_cli.main import app
from services.runtime.environment import env_vars_read

ROOT = Path(__file__).parents[3]


def _compose() -> dict[str, Any]:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def _ours(service: dict[str, Any]) -> bool:
    return "build" in service or str(service.get("image", "")).startswith("bang-league")


def _is_group(command: Any) -> bool:
    return hasattr(command, "commands")  # typer vendors click: duck-type instead of isinstance


def _resolve(command: Any, words: list[str]) -> Any:
    """The (sub)command `words` names; None if it does not exist."""
    for word in words:
        if not _is_group(command):
            return command
        if word.startswith("-"):
            return None
        found = command.commands.get(word)
        if found is None:
            return None
        command = found
    return command


def test_every_container_command_exists_in_the_cli() -> None:
    cli = typer.main.get_command(app)
    services = {name: s for name, s in _compose()["services"].items() if _ours(s)}
    assert {"api", "worker", "migrate"} <= set(services)
    for name, service in services.items():
        words = service["command"]
        command = _resolve(cli, words)
        assert command is not None and not _is_group(command), f"{name}: {words}"
        options = {opt for p in command.params for opt in p.opts if opt.startswith("-")}
        given = {w.split("=")[0] for w in words if w.startswith("-")}
        assert given <= options, f"{name}: unknown options {given - options}"
        health = service.get("healthcheck", {}).get("test", [])
        if health[:2] == ["CMD", "bang-league"]:
            assert _resolve(cli, health[2:3]) is not None, f"{name}: healthcheck {health}"


def test_every_consumer_runs_a_registered_projection_and_each_has_one() -> None:
    from services.runtime.projections import registered

    consumers = [
        s["command"] for s in _compose()["services"].values() if s.get("command", [""])[0] == "consume"
    ]
    names = sorted(words[1] for words in consumers)
    assert names == sorted(registered())


def test_every_variable_set_for_our_containers_is_read_by_the_code() -> None:
    read = env_vars_read()
    for name, service in _compose()["services"].items():
        if _ours(service):
            unknown = set(service.get("environment", {})) - read
            assert not unknown, f"{name} sets variables nothing reads: {sorted(unknown)}"


def test_api_runs_two_replicas_and_everything_waits_for_its_dependencies() -> None:
    services = _compose()["services"]
    assert services["api"]["deploy"]["replicas"] == 2
    assert services["postgres"]["volumes"]
    for name, service in services.items():
        if _ours(service):
            assert service["depends_on"], name
            assert all("condition" in c for c in service["depends_on"].values()), name
            assert name == "migrate" or "healthcheck" in service, name
