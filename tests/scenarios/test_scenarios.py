"""Every rule case in tests/scenarios/**/*.yaml, one test each (see runner.py for the format)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.scenarios.runner import SCENARIOS, run_scenario, scenario_files


@pytest.mark.parametrize(
    "path", scenario_files(), ids=lambda p: str(p.relative_to(SCENARIOS).with_suffix(""))
)
def test_scenario(path: Path) -> None:
    run_scenario(path)


def test_scenarios_exist() -> None:
    assert len(scenario_files()) >= 130  # guards against discovery silently finding nothing
