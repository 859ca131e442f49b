"""Schema evolution: upcasters registered once per step (reading upcast events is part of the
store contract, tests/event_store_contract.py)."""

from __future__ import annotations

import pytest

from event_store import Upcasters
from tests.event_store_contract import add_reroll, split_faces


def test_one_step_cannot_be_registered_twice() -> None:
    upcasters = Upcasters()
    upcasters.register("DiceRolled", 1, split_faces)
    with pytest.raises(ValueError, match="registered already"):
        upcasters.register("DiceRolled", 1, add_reroll)
