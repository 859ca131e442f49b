"""What the revealed seed proves about the draws (UA2's Rage cards, UA1's wound tokens and
duel throws).

Each event that records a draw (``undead.draws.drawn_card``) of an online game must be the card
the game's draw derivation (``GameCreated.fairness.draws``, ``draws-1``) gives for that draw:
its deck, its number in the game and the cards it was among are the engine's, asked of the
question open on the stored events folded up to it (as the kind of each rolled die is,
``seed.roll_kinds``). The finding joins the ``rolls`` check: the draws are the rest of the
game's random inputs.
"""

from __future__ import annotations

from collections.abc import Sequence

from services.game.audit.report import ROLLS, AuditCheck, failed, passed
from services.game.audit.stream import StoredEvent
from services.game.fairness.registry import UnknownDerivation, draw_derivation
from services.game.rules.dice import Awaiting, GameStarted, RuleError
from services.game.rules.dice.events import Event
from services.game.rules.dice.evolve import evolve, initial_state
from services.game.rules.dice.flow import next_move
from services.game.rules.dice.modules import rules_of
from services.game.rules.dice.undead.draws import draw_need, drawn_card
from services.game.rules.ruleset import Ruleset


def check_draws(
    engine: Sequence[StoredEvent], seed: bytes, version: str, ruleset: Ruleset, rolls: AuditCheck
) -> AuditCheck:
    """``rolls`` (passed) with every Rage draw re-derived as well, or the first draw that
    differs from what the seed gives."""
    try:
        derive = draw_derivation(version).draw
    except UnknownDerivation as error:
        return failed(ROLLS, f"event 1: {error}")
    if not engine or not isinstance(engine[0].event, GameStarted):
        return failed(ROLLS, "not checked: the store has no GameStarted to follow the draws from")
    try:
        state = initial_state(engine[0].event, rules_of(ruleset))
    except RuleError as error:
        return failed(ROLLS, f"not checked: the draws of this game cannot be followed: {error}")
    count = 0
    for stored in engine[1:]:
        event = stored.event
        if not isinstance(event, Event):
            return failed(ROLLS, f"not checked: event {stored.number} cannot be read, nor the draws after it")
        card = drawn_card(event)
        if card is not None:
            question = next_move(state)  # a draw answers the question open, at rest
            draw = draw_need(state, question) if isinstance(question, Awaiting) else None
            if draw is None or not draw.cards:
                return failed(ROLLS, f"event {stored.number}: a draw where the rules draw nothing")
            wanted = derive(seed, draw.deck, draw.number, draw.cards)
            if card != wanted:
                who = getattr(event, "player", "?")
                detail = (
                    f"event {stored.number}: {who} drew {card} from {draw.deck}, "
                    f"but the seed gives {wanted} ({version}, draw {draw.number} of {draw.deck})"
                )
                return failed(ROLLS, detail)
            count += 1
        try:
            evolve(state, event)
        except Exception:  # a tampered stream is named by the replay, never crashes the audit
            return failed(ROLLS, f"not checked: the draws cannot be followed past event {stored.number}")
    return passed(ROLLS, f"{rolls.detail}; {count} draws re-derived ({version}): every card matches")
