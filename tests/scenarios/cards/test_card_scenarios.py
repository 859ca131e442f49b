"""Every card-game rule case in tests/scenarios/cards/**/*.yaml, one test each (runner.py), and
the coverage the issue asks for: a scenario for every card and every character."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from services.game.rules.cards import CardName, CharacterId
from tests.scenarios.cards.runner import CARD_SCENARIOS, card_scenario_files, run_card_scenario


@pytest.mark.parametrize(
    "path", card_scenario_files(), ids=lambda p: str(p.relative_to(CARD_SCENARIOS).with_suffix(""))
)
def test_card_scenario(path: Path) -> None:
    run_card_scenario(path)


CARD_NAMES = (
    "bang", "missed", "beer", "saloon", "stagecoach", "wells_fargo", "general_store", "panic",
    "cat_balou", "gatling", "indians", "duel", "barrel", "scope", "mustang", "jail", "dynamite",
    "volcanic", "schofield", "remington", "rev_carabine", "winchester",
)  # fmt: skip
CHARACTERS = (
    "bart_cassidy", "black_jack", "calamity_janet", "el_gringo", "jesse_jones", "jourdonnais",
    "kit_carlson", "lucky_duke", "paul_regret", "pedro_ramirez", "rose_doolan", "sid_ketchum",
    "slab_the_killer", "suzy_lafayette", "vulture_sam", "willy_the_kid",
)  # fmt: skip


def test_the_lists_are_the_engines() -> None:
    assert set(CARD_NAMES) == {n.value for n in CardName} and len(CARD_NAMES) == 22
    assert set(CHARACTERS) == {c.value for c in CharacterId} and len(CHARACTERS) == 16


@pytest.mark.parametrize(("folder", "names"), [("cards", CARD_NAMES), ("characters", CHARACTERS)])
def test_every_card_and_character_has_a_scenario(folder: str, names: tuple[str, ...]) -> None:
    stems = [p.stem for p in (CARD_SCENARIOS / folder).glob("*.yaml")]
    missing = [n for n in names if not any(s == n or s.startswith(f"{n}_") for s in stems)]
    assert not missing, f"no scenario in {folder}/ for {missing}"


def test_every_ruling_scenario_quotes_its_ruling() -> None:
    for path in (CARD_SCENARIOS / "rulings").glob("*.yaml"):
        first = path.read_text(encoding="utf-8").splitlines()[0]
        assert first.startswith("# RULINGS-cards"), f"{path.name}: the first line quotes its ruling"


def test_the_scenarios_docs_rulings_names_exist() -> None:
    """docs/rulings.md, Card game: every scenario it names is a file (a glob names a family)."""
    text = (CARD_SCENARIOS.parents[2] / "docs" / "rulings.md").read_text(encoding="utf-8")
    section = text[text.index("## Card game") :]
    section = section[: section.index("\n## ", 10)]
    table = section[section.index("### RULINGS-cards.md") :]
    paths = set(re.findall(r"`(cards/(?:cards|characters|rulings|records)/[a-z_]+)`", section))
    names = set(re.findall(r"`([a-z][a-z_]+[a-z])`", table))
    missing = [p for p in paths if not (CARD_SCENARIOS.parent / f"{p}.yaml").exists()]
    missing += [n for n in names if not (CARD_SCENARIOS / "rulings" / f"{n}.yaml").exists()]
    assert paths and names and not missing, missing
