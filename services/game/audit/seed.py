"""What the revealed seed of an online game proves: the commitment, the deal and every roll.

An online game publishes ``sha256(seed)`` in ``GameCreated`` and reveals the seed in
``SeedRevealed`` when it ends. With the seed anyone re-derives the deal (seat order, roles,
characters from the ruleset's pool, and with OS3 each seat's special role) and the face stream,
by the derivation versions the game recorded in ``GameCreated.fairness`` (``deal-1`` and
``dice-1`` when it recorded none; see ``services/game/fairness``): the faces of the game's
``DiceRolled`` events, in stream order, must be exactly a prefix of that stream, each die read
on the face table of its kind. The kind of each rolled die is a fact of the game, not of the
seed: it is the engine's (``state.turn.kinds``) on the stored events folded up to that roll.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from services.game.application.lifecycle import SeatsDealt, SeedRevealed
from services.game.audit.draws import check_draws
from services.game.audit.report import COMMITMENT, DEAL, NOT_CHECKED, ROLLS, AuditCheck, failed, passed
from services.game.audit.shuffles import check_shuffles_counted, rederived_words
from services.game.audit.stream import GameStream, StoredEvent
from services.game.audit.words import (
    character_name,
    die_kind_words,
    faces,
    role_words,
    special_role_words,
)
from services.game.fairness.dice import commitment
from services.game.fairness.registry import UnknownDerivation, deal_seats, dice_derivation
from services.game.fairness.versions import DICE_1, FAIRNESS_V1
from services.game.rules.dice import GameStarted, RuleError, Seat
from services.game.rules.dice.events import DiceRolled, Event
from services.game.rules.dice.evolve import evolve, initial_state
from services.game.rules.dice.modules import Rules, rules_of
from services.game.rules.ruleset import BASE_DICE, Ruleset

RollKinds = Mapping[int, tuple[str, ...]]
"""Stored event number of a ``DiceRolled`` → the kind of each die it rolled."""


@dataclass(frozen=True, slots=True)
class SeedChecks:
    commitment: AuditCheck
    deal: AuditCheck
    rolls: AuditCheck
    rolls_checked: int
    """Rolls whose faces were re-derived from the seed (0 when there is no seed to use)."""
    rederived: str | None = None
    """The card game: what was re-derived from the seed, in words (its decks and random picks)."""


def check_seed(stream: GameStream) -> SeedChecks:
    """The commitment, then, if the seed is good, the deal and the rolls it gives."""
    found, seed = _check_commitment(stream)
    if seed is None:
        return SeedChecks(found, _without_seed(stream, found, DEAL), _without_seed(stream, found, ROLLS), 0)
    fairness = stream.created.derivations if stream.created is not None else None
    ruleset = stream.created.ruleset if stream.created is not None else BASE_DICE
    shuffles = fairness.shuffles_version if fairness is not None else None
    if shuffles is not None:  # the card game: its decks and random picks are its random inputs
        shuffled, decks, picks = check_shuffles_counted(stream.engine, seed, shuffles)
        return SeedChecks(found, check_deal(stream, seed), shuffled, 0, rederived_words(decks, picks))
    dice_version = (fairness or FAIRNESS_V1).dice
    rolls, count = check_rolls(stream.engine, seed, dice_version, ruleset)
    draws = fairness.draws_version if fairness is not None else None
    if draws is not None and rolls.passed:  # the cards drawn at random too (UA2's Rage)
        rolls = check_draws(stream.engine, seed, draws, ruleset, rolls)
    return SeedChecks(found, check_deal(stream, seed), rolls, count)


def _check_commitment(stream: GameStream) -> tuple[AuditCheck, bytes | None]:
    created = stream.created
    if created is None:
        return failed(
            COMMITMENT, "event 1 does not create the game: its mode and commitment are unknown"
        ), None
    if not stream.is_online:
        return passed(COMMITMENT, "no seed to check: the dice of a table game are entered by hand"), None
    if not created.seed_commitment:
        return failed(COMMITMENT, "event 1: this online game published no seed commitment"), None
    revealed = stream.revealed
    if revealed is None:
        return _unrevealed(stream), None
    assert isinstance(revealed.event, SeedRevealed)
    try:
        seed = bytes.fromhex(revealed.event.seed)
    except ValueError:
        return failed(COMMITMENT, f"event {revealed.number}: the revealed seed is not hexadecimal"), None
    if commitment(seed) != created.seed_commitment:
        detail = (
            f"event {revealed.number}: the revealed seed does not match the commitment published in event 1"
        )
        return failed(COMMITMENT, detail), None
    detail = f"the seed revealed in event {revealed.number} matches the commitment published in event 1"
    return passed(COMMITMENT, detail), seed


def _unrevealed(stream: GameStream) -> AuditCheck:
    if stream.is_over:
        return failed(COMMITMENT, "the game ended but its seed was never revealed")
    if stream.abandoned is not None:
        return passed(COMMITMENT, "the game was abandoned before it ended: its seed stays secret")
    detail = (
        "the game is still going: its seed is revealed only when it ends, so nothing can be re-derived yet"
    )
    return passed(COMMITMENT, detail)


def _without_seed(stream: GameStream, found: AuditCheck, name: str) -> AuditCheck:
    if stream.is_table:
        what = "its organiser seated the players" if name == DEAL else "its dice were entered by hand"
        return passed(name, f"nothing to re-derive: a table game has no seed ({what})")
    if found.passed:
        return passed(name, "not yet: the seed is revealed when the game ends")
    return failed(name, f"{NOT_CHECKED} there is no trustworthy seed to re-derive from")


# --- the deal ------------------------------------------------------------------------------------


def check_deal(stream: GameStream, seed: bytes) -> AuditCheck:
    """Seat order (SeatsDealt), then each seat's role, special role and character (GameStarted)."""
    assert stream.created is not None
    members = [j.member_id for j in stream.joined]  # the deal shuffles them in join order
    if stream.dealt is None or stream.started is None:
        return failed(DEAL, "the store has no deal (SeatsDealt and GameStarted) to check")
    created = stream.created
    fairness = created.derivations or FAIRNESS_V1
    versions = " ".join(v for v in (fairness.deal, fairness.special_roles_version) if v is not None)
    series, previous = created.context.series_id, created.context.previous_game_id
    if series is not None and previous is not None:
        # UA5: the seats come from the series' legacy (its own seed and the players' decisions);
        # the series' audit checks them against game {previous}'s result
        return passed(
            DEAL,
            f"the seats of event {stream.started.number} were set by series {series} after game "
            f"{previous} (the series' audit re-derives them)",
        )
    try:
        seated, seats = deal_seats(fairness, seed, members, created.sheriff_member, created.ruleset)
    except UnknownDerivation as error:
        return failed(DEAL, f"event 1: {error}")
    except ValueError as error:
        return failed(DEAL, f"{versions} cannot deal this game ({created.ruleset}): {error}")
    problem = _seat_order_problem(stream.dealt, seated) or _seats_problem(stream.started, seats)
    if problem is not None:
        return failed(DEAL, problem)
    what = "roles, special roles" if fairness.special_roles_version is not None else "roles"
    detail = (
        f"the seat order of event {stream.dealt.number} and the {what} and characters of event "
        f"{stream.started.number} are the ones the seed deals ({versions})"
    )
    return passed(DEAL, detail)


def _seat_order_problem(dealt: StoredEvent, seated: list[str]) -> str | None:
    assert isinstance(dealt.event, SeatsDealt)
    if list(dealt.event.members) == seated:
        return None
    return (
        f"event {dealt.number}: the players were seated as {' '.join(dealt.event.members)}, "
        f"but the seed seats them as {' '.join(seated)}"
    )


def _seats_problem(started: StoredEvent, dealt: list[Seat]) -> str | None:
    # called only with a revealed seed, i.e. after the game: every role is public by then.
    # Read by name: the card game's GameStarted has seats of its own (no special role).
    event = started.event
    assert hasattr(event, "seats") and hasattr(event, "position"), type(event).__name__
    n = started.number
    if event.position is not None:
        return f"event {n}: an online game starts from its first turn, but this one starts from a position"
    if len(event.seats) != len(dealt):
        return f"event {n}: the game started with {len(event.seats)} seats; the seed deals {len(dealt)}"
    for got, wanted in zip(event.seats, dealt, strict=True):
        p = wanted.player
        if got.player != wanted.player:
            return f"event {n}: seat {p} is played by {got.player}"
        if str(got.character) != str(wanted.character):
            return (
                f"event {n}: {p} plays {character_name(got.character)}, but the seed deals "
                f"{p} {character_name(wanted.character)}"
            )
        if str(got.role) != str(wanted.role):
            return (
                f"event {n}: {p} is {role_words(got.role)}, but the seed deals {p} {role_words(wanted.role)}"
            )
        if getattr(got, "special", None) != wanted.special:
            return (
                f"event {n}: {p} holds {special_role_words(got.special)}, but the seed deals "
                f"{p} {special_role_words(wanted.special)}"
            )
    return None


# --- the rolls -----------------------------------------------------------------------------------


def check_rolls(
    engine: Sequence[StoredEvent],
    seed: bytes,
    version: str = FAIRNESS_V1.dice,
    ruleset: Ruleset | Rules = BASE_DICE,
) -> tuple[AuditCheck, int]:
    """Every roll's faces against the seed's face stream (derivation ``version``), in the order
    of the DiceRolled events, each die read on its kind's table. The kinds come from the
    engine's rules for ``ruleset`` (or the ``Rules`` table given) on the stored events folded up
    to each roll; ``dice-1`` has base dice only and needs no fold."""
    try:
        dice = dice_derivation(version).dice(seed)
    except UnknownDerivation as error:
        return failed(ROLLS, f"event 1: {error}"), 0
    kinds: RollKinds = {}
    unfollowed: str | None = None
    if version != DICE_1:
        kinds, unfollowed = roll_kinds(engine, ruleset)
    count = 0
    for stored in engine:
        if not isinstance(stored.event, DiceRolled):
            continue
        shown = stored.event.faces
        if version == DICE_1:
            derived = dice.roll(len(shown))
            rolled: tuple[str, ...] = ("base",) * len(shown)
        elif stored.number in kinds:
            rolled = kinds[stored.number]
            try:
                derived = dice.roll(len(shown), rolled)
            except ValueError as error:
                detail = f"event {stored.number}: {version} cannot roll these dice: {error}"
                return failed(ROLLS, detail), count
        else:
            detail = unfollowed or f"event {stored.number}: the kind of each die rolled cannot be followed"
            return failed(ROLLS, f"{NOT_CHECKED} {detail}"), count
        if shown != derived:
            return failed(ROLLS, _roll_problem(stored, rolled, derived)), count
        count += 1
    faces_dealt = dice.faces_dealt
    detail = f"{count} rolls ({faces_dealt} faces) re-derived from the seed ({version}): every face matches"
    return passed(ROLLS, detail), count


def _roll_problem(stored: StoredEvent, kinds: tuple[str, ...], derived: Sequence[object]) -> str:
    event = stored.event
    assert isinstance(event, DiceRolled)
    detail = (
        f"event {stored.number}: {event.player}'s roll shows {faces(event.faces)}, "
        f"but the seed gives {faces(derived)}"  # type: ignore[arg-type]
    )
    if all(k == "base" for k in kinds):
        return detail
    first = next(i for i, (a, b) in enumerate(zip(event.faces, derived, strict=True)) if a != b)
    return (
        f"{detail} (die {event.dice[first]}, {die_kind_words(kinds[first])}, shows "
        f"{event.faces[first]}; the seed gives {derived[first]})"
    )


def roll_kinds(
    engine: Sequence[StoredEvent], ruleset: Ruleset | Rules = BASE_DICE
) -> tuple[RollKinds, str | None]:
    """The kind of each die of each stored ``DiceRolled``, folding the stored engine events
    with the rules of ``ruleset``: (kinds by event number, why the fold stopped early or None).

    The fold trusts the stored events (the rules replay judges them): a stream the engine
    cannot fold stops it, and the rolls after that point cannot be checked."""
    if not engine or not isinstance(engine[0].event, GameStarted):
        return {}, "the store has no GameStarted to follow the dice from"
    first = engine[0]
    try:
        rules = ruleset if isinstance(ruleset, Rules) else rules_of(ruleset)
        state = initial_state(first.event, rules)  # type: ignore[arg-type]
    except RuleError as error:
        return {}, f"event {first.number}: the dice of this game cannot be followed: {error}"
    found: dict[int, tuple[str, ...]] = {}
    for stored in engine[1:]:
        event = stored.event
        if not isinstance(event, Event):
            return found, f"event {stored.number} cannot be read, so the dice after it cannot be followed"
        if isinstance(event, DiceRolled):
            turn = state.turn
            if turn is None or any(not 0 <= i < len(turn.kinds) for i in event.dice):
                return found, f"event {stored.number} rolls dice the rules do not have at that point"
            found[stored.number] = tuple(turn.kinds[i].name for i in event.dice)
        try:
            evolve(state, event)
        except Exception:  # a tampered stream must be named by the replay, never crash the audit
            return found, f"the dice cannot be followed past event {stored.number} (the replay says why)"
    return found, None

