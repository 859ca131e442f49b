"""What the revealed seed proves about a card game's random inputs: every deck's order and
every card taken at random from a hand.

The stored card events are folded in order. Wherever the rules, at rest, ask ``TABLE`` for a
new deck or for a card taken at random from a hand, the next stored event is the answer
(``DeckShuffled``; ``CardTaken`` or, for Cat Balou, ``CardDiscarded``) and must be what the
game's shuffle derivation (``GameCreated.fairness.shuffles``, ``shuffles-1``) gives for the
cards the rules name there, after that many card events. The finding is the ``rolls`` check's:
these are the whole of a card game's random inputs.
"""

from __future__ import annotations

from collections.abc import Sequence

from services.game.audit.report import ROLLS, AuditCheck, failed, passed
from services.game.audit.stream import StoredEvent
from services.game.fairness.registry import UnknownDerivation, shuffle_derivation
from services.game.rules.cards import Awaiting, Decision, GameStarted, RuleError
from services.game.rules.cards import events as ev
from services.game.rules.cards.deck import card as card_of
from services.game.rules.cards.evolve import evolve, initial_state
from services.game.rules.cards.flow import next_move
from services.game.rules.cards.vocabulary import TABLE, CardId

_NOT_CHECKED = "not checked:"


def check_shuffles(engine: Sequence[StoredEvent], seed: bytes, version: str) -> AuditCheck:
    """Every deck and random pick of a card game re-derived from ``seed``, or the first one
    that differs, in words."""
    return check_shuffles_counted(engine, seed, version)[0]


def check_shuffles_counted(
    engine: Sequence[StoredEvent], seed: bytes, version: str
) -> tuple[AuditCheck, int, int]:
    """``check_shuffles``, with how many decks and random picks matched the seed before it
    stopped (all of them when it passed)."""
    counts = [0, 0]
    return _check_shuffles(engine, seed, version, counts), counts[0], counts[1]


def _check_shuffles(
    engine: Sequence[StoredEvent], seed: bytes, version: str, counts: list[int]
) -> AuditCheck:
    try:
        derivation = shuffle_derivation(version)
    except UnknownDerivation as error:
        return failed(ROLLS, f"event 1: {error}")
    if not engine or not isinstance(engine[0].event, GameStarted):
        return failed(ROLLS, f"{_NOT_CHECKED} the store has no GameStarted to follow the deck from")
    try:
        state = initial_state(engine[0].event)
    except RuleError as error:
        return failed(ROLLS, f"{_NOT_CHECKED} the deck of this game cannot be followed: {error}")
    decks = picks = 0
    for k, stored in enumerate(engine[1:], start=1):
        event = stored.event
        if not isinstance(event, ev.Event):
            unread = f"{_NOT_CHECKED} event {stored.number} cannot be read, nor the deck after it"
            return failed(ROLLS, unread)
        try:
            question = next_move(state)
        except Exception:  # a tampered stream is named by the replay, never crashes the audit
            return failed(ROLLS, f"{_NOT_CHECKED} the deck cannot be followed at event {stored.number}")
        if isinstance(question, Awaiting) and question.player == TABLE:
            if question.decision is Decision.SHUFFLE:
                order = derivation.shuffle(seed, k, question.cards)
                problem = _deck_problem(stored, question, order, version, k)
                decks += 1
                counts[0] = decks
            elif question.decision is Decision.RANDOM_CARD:
                assert question.from_player is not None
                victim = question.from_player
                hand = state.player(victim).hand
                problem = (
                    f"event {stored.number}: a card is taken at random from {victim}'s empty hand"
                    if not hand
                    else _pick_problem(stored, victim, derivation.pick(seed, k, hand), version, k)
                )
                picks += 1
                counts[1] = picks
            else:
                problem = f"event {stored.number}: an online game names a card of a deck in an unknown order"
            if problem is not None:
                return failed(ROLLS, problem)
        try:
            evolve(state, event)
        except Exception:
            return failed(ROLLS, f"{_NOT_CHECKED} the deck cannot be followed past event {stored.number}")
    return passed(ROLLS, f"{rederived_words(decks, picks)} ({version}): every card matches")


def rederived_words(decks: int, picks: int) -> str:
    """What an audit re-derived of a card game from its seed, in words."""
    return (
        f"{decks} deck{'s' if decks != 1 else ''} and {picks} random pick{'s' if picks != 1 else ''} "
        "re-derived from the seed"
    )


def _deck_problem(
    stored: StoredEvent, question: Awaiting, wanted: Sequence[int], version: str, k: int
) -> str | None:
    event = stored.event
    what = "the first deck" if len(question.cards) == 80 and k == 1 else "the reshuffled discard pile"
    if not isinstance(event, ev.DeckShuffled):
        return f"event {stored.number}: the rules shuffle {what} here, but the store has no shuffle"
    got = tuple(event.order)
    if got == tuple(wanted):
        return None
    if sorted(got) != sorted(wanted):
        return f"event {stored.number}: the shuffle of {what} holds other cards than the ones to shuffle"
    at = next(i for i, (a, b) in enumerate(zip(got, wanted, strict=True)) if a != b)
    # the order is public once the seed is revealed (anyone can re-derive it), so it may be named
    return (
        f"event {stored.number}: the shuffle of {what} puts {card_of(got[at]).text} at place {at + 1} "
        f"from the top, but the seed gives {card_of(CardId(wanted[at])).text} ({version}, after event {k})"
    )


def _pick_problem(stored: StoredEvent, victim: str, wanted: int, version: str, k: int) -> str | None:
    event = stored.event
    if isinstance(event, ev.CardTaken) and event.random:
        got, taker = event.card, event.player
    elif isinstance(event, ev.CardDiscarded) and event.player == victim:
        got, taker = event.card, None
    else:
        return (
            f"event {stored.number}: the rules take a card at random from {victim}'s hand here, "
            "but none is taken"
        )
    if got == wanted:
        return None
    how = f"{taker} took" if taker is not None else "Cat Balou discarded"
    return (
        f"event {stored.number}: {how} {card_of(got).text} at random from {victim}'s hand, but the seed "
        f"gives {card_of(CardId(wanted)).text} ({version}, after event {k})"
    )
