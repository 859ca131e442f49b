"""Result sheets for the tests: a consistent sheet of any seated card table (the Law wins)."""

from __future__ import annotations

from typing import Any

from services.game.results import Role, roles_for

CHARACTERS = ("willy_the_kid", "paul_regret", "el_gringo", "jourdonnais", "rose_doolan", "lucky_duke",
              "bart_cassidy", "sid_ketchum")  # fmt: skip


def law_win(members: list[str], sheriff: str) -> dict[str, Any]:
    """The Sheriff (the rotation's) shoots every Outlaw and Renegade, one a turn."""
    others = [m for m in members if m != sheriff]
    roles = [r for r in roles_for(len(members)) if r != Role.SHERIFF]
    role_of = {sheriff: Role.SHERIFF, **dict(zip(others, roles, strict=True))}
    seats = [
        {"member_id": m, "role": role_of[m].value, "character": CHARACTERS[i]} for i, m in enumerate(members)
    ]
    enemies = [m for m in members if role_of[m] in (Role.OUTLAW, Role.RENEGADE)]
    return {
        "seats": seats,
        "eliminations": [{"member_id": m, "by": sheriff, "turn": t} for t, m in enumerate(enemies, start=1)],
        "winning_side": "law",
        "winners": [m for m in members if role_of[m] in (Role.SHERIFF, Role.DEPUTY)],
    }
