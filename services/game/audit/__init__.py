"""Audit a disputed game by replay: ``await audit_game(store, game_id) -> AuditReport``.

``checks.py`` runs the checks in order (docs/audit.md); ``stream.py`` sorts a stored stream
into what they read, ``seed.py`` re-derives an online game's deal and rolls from its revealed
seed, ``replay.py`` plays the inputs through the engine and compares (``differences.py`` says
what differs), ``report.py`` is the answer and ``words.py`` the referee's words for events
(never naming a hidden role).
"""

from services.game.audit.checks import (
    CHAIN,
    CHECK_ORDER,
    COMMITMENT,
    DEAL,
    REPLAY,
    RESULT,
    ROLLS,
    AuditCache,
    AuditCheck,
    AuditReport,
    audit_events,
    audit_game,
    check_chain,
    explain_chain_problem,
)
from services.game.audit.differences import explain_difference
from services.game.audit.replay import replay_events
from services.game.audit.words import referee_words

__all__ = [
    "CHAIN",
    "CHECK_ORDER",
    "COMMITMENT",
    "DEAL",
    "REPLAY",
    "RESULT",
    "ROLLS",
    "AuditCache",
    "AuditCheck",
    "AuditReport",
    "audit_events",
    "audit_game",
    "check_chain",
    "explain_chain_problem",
    "explain_difference",
    "referee_words",
    "replay_events",
]
