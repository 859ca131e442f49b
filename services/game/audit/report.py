"""What an audit answers: one check per question, and a verdict a referee can read aloud."""

from __future__ import annotations

import msgspec

CHAIN = "chain"
COMMITMENT = "seed commitment"
DEAL = "deal"
ROLLS = "rolls"
REPLAY = "rules replay"
RESULT = "result"

NOT_CHECKED = "not checked:"
"""How the detail of a check that could not run (because of an earlier problem) begins."""

CHECK_ORDER = (CHAIN, COMMITMENT, DEAL, ROLLS, REPLAY, RESULT)
"""The checks in the order they run; a report lists them in this order."""


class AuditCheck(msgspec.Struct, frozen=True, kw_only=True):
    name: str
    """One of ``CHECK_ORDER``."""
    passed: bool
    """False when the check found a problem or could not be made because of an earlier one."""
    detail: str
    """What was found, in words: the finding itself when it failed."""


def passed(name: str, detail: str) -> AuditCheck:
    return AuditCheck(name=name, passed=True, detail=detail)


def failed(name: str, detail: str) -> AuditCheck:
    return AuditCheck(name=name, passed=False, detail=detail)


class AuditReport(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str
    clean: bool
    verdict: str
    """One sentence: "clean: …" or "not clean: <the first problem>"."""
    first_divergence: str | None
    """The first problem found, in the order of the checks; None when clean."""
    checks: list[AuditCheck]
    events_checked: int
    """Events read from the game's stream (every one is covered by the chain check)."""
    rolls_checked: int
    """Rolls whose faces were re-derived from the revealed seed."""
    ruleset: str = "dice"
    """The rules the game was played and replayed with (``Ruleset.text``: ``dice``, ``dice OS1``)."""
    derivations: str | None = None
    """An online game's seed derivations, re-derived with (``deal-1 dice-1``); None for a table
    game or a stream that does not create a game."""

    def to_json(self) -> bytes:
        return msgspec.json.encode(self)
