"""The audit's comparisons on event lists, no database: what a forger who recomputed the hash
chain changed is still found by the seed and by the rules, and named in a referee's words."""

from __future__ import annotations

import re

import msgspec
import pytest

from event_store import ChainBreak, ChainProblem, VerificationReport
from services.game.application.lifecycle import SeatsDealt, SeedRevealed
from services.game.audit import audit_events, check_chain, explain_chain_problem
from services.game.audit.report import CHECK_ORDER, COMMITMENT, DEAL, RESULT, ROLLS, AuditReport
from services.game.audit.stream import StoredEvent
from services.game.audit.words import Unreadable, referee_words
from services.game.rules.dice import GameEnded, Side
from services.game.rules.dice import events as ev
from services.game.rules.dice.vocabulary import Cause, Face
from tests.unit.audit.games import intact, numbered, online_game, table_game

HIDDEN_ROLE = re.compile(r"outlaw|renegade|deputy", re.IGNORECASE)


def audit(events: list[msgspec.Struct]) -> AuditReport:
    return audit_events("g1", numbered(events), intact(events))


def check(report: AuditReport, name: str) -> str:
    found = next(c for c in report.checks if c.name == name)
    return ("" if found.passed else "FAILED ") + found.detail


def index_of(events: list[msgspec.Struct], wanted: type, **fields: object) -> int:
    for i, e in enumerate(events):
        if isinstance(e, wanted) and all(getattr(e, k) == v for k, v in fields.items()):
            return i
    raise LookupError(f"no {wanted.__name__} with {fields}")


def game_with(wanted: type, players: int = 5, **fields: object) -> tuple[list[msgspec.Struct], int]:
    """The first random online game (by rng seed) holding such an event, and its index."""
    for rng_seed in range(1, 200):
        events = online_game(players, rng_seed=rng_seed)
        try:
            return events, index_of(events, wanted, **fields)
        except LookupError:
            continue
    raise AssertionError(f"no game with a {wanted.__name__} {fields}")


def forged(events: list[msgspec.Struct], i: int, **changes: object) -> list[msgspec.Struct]:
    copy = list(events)
    copy[i] = msgspec.structs.replace(copy[i], **changes)
    return copy


# --- clean games ----------------------------------------------------------------------------------


def test_an_online_game_played_to_the_end_is_clean() -> None:
    events = online_game(5)
    report = audit(events)
    assert report.clean, report.checks
    assert [c.name for c in report.checks] == list(CHECK_ORDER)
    rolls = sum(isinstance(e, ev.DiceRolled) for e in events)
    assert report.rolls_checked == rolls and report.events_checked == len(events)
    assert report.verdict == (
        f"clean: chain intact, {rolls} rolls re-derived from the seed, "
        "every input legal and every outcome matches"
    )
    assert report.first_divergence is None
    assert check(report, RESULT).endswith("as the rules give")


def test_a_table_game_is_clean_and_has_no_seed_to_check() -> None:
    events = table_game(
        ["p1 roll shoot1 beer arrow gatling dynamite", "p1 stop", "p1 target 0 p2", "p1 target 1 p1"]
    )
    report = audit(events)
    assert report.clean, report.checks
    assert check(report, COMMITMENT) == "no seed to check: the dice of a table game are entered by hand"
    assert report.rolls_checked == 0
    assert report.verdict.startswith(
        "clean: chain intact, no seed to check (a table game), every input legal"
    )
    assert (
        check(report, RESULT)
        == "no result yet: the game is still going; the rules await p2 to roll (dice 1, 2, 3, 4, 5)"
    )


# --- a forger who recomputed the chain -------------------------------------------------------------


def test_more_life_lost_than_the_rules_allow_is_named() -> None:
    events, i = game_with(ev.LifeLost, cause=Cause.SHOOT1, amount=1)
    target = events[i].player  # type: ignore[attr-defined]
    report = audit(forged(events, i, amount=2))
    assert not report.clean
    assert report.first_divergence == f"event {i + 1}: {target} lost 2 life to a shoot1; the rules allow 1"
    assert report.verdict == f"not clean: {report.first_divergence}"
    assert check(report, RESULT) == f"FAILED not checked: the replay stopped at event {i + 1}"


def test_a_roll_the_seed_did_not_give_is_named() -> None:
    events = online_game(5)
    i = [n for n, e in enumerate(events) if isinstance(e, ev.DiceRolled)][3]
    roll = events[i]
    assert isinstance(roll, ev.DiceRolled)
    changed = tuple(Face.GATLING if f is not Face.GATLING else Face.BEER for f in roll.faces)
    report = audit(forged(events, i, faces=changed))
    shown, derived = " ".join(changed), " ".join(roll.faces)
    assert check(report, ROLLS) == (
        f"FAILED event {i + 1}: {roll.player}'s roll shows {shown}, but the seed gives {derived}"
    )
    assert report.first_divergence == check(report, ROLLS).removeprefix("FAILED ")


def test_a_shot_out_of_range_is_refused_with_the_engines_reason() -> None:
    events = table_game(["p1 roll shoot1 beer arrow gatling dynamite", "p1 stop", "p1 target 0 p2"])
    i = index_of(events, ev.TargetChosen, target="p2")
    report = audit(forged(events, i, target="p3"))
    assert report.first_divergence == (
        f"event {i + 1}: p1 aimed die 1 at p3, but p3 is at distance 2; a shoot1 reaches distance 1"
    )


def test_a_changed_winner_is_named() -> None:
    events, i = game_with(GameEnded, winning_side=Side.LAW)
    report = audit(forged(events, i, winning_side=Side.OUTLAWS))
    assert report.first_divergence == (
        f"event {i + 1}: the store says the game ended with an Outlaw win; the rules give the Law the win"
    )


def test_events_after_the_end_are_counted() -> None:
    events = online_game(4)
    extra = [
        ev.TurnStarted(player="p1", turn=99),
        ev.TurnEnded(player="p1"),
        ev.TurnStarted(player="p2", turn=100),
    ]
    report = audit(events + extra)  # type: ignore[arg-type]
    assert not report.clean
    assert report.first_divergence == (
        f"the store has 3 events after the game ended (from event {len(events) + 1}: p1 started turn 99)"
    )
    assert [c.name for c in report.checks if not c.passed] == [RESULT]


def test_a_dropped_outcome_is_named() -> None:
    events, i = game_with(ev.LifeLost)
    lost = events[i]
    report = audit(events[:i] + events[i + 1 :])
    assert report.first_divergence is not None
    assert report.first_divergence.startswith(f"event {i + 1}: the store says ")
    assert report.first_divergence.endswith(f"the rules give {referee_words(lost)} here")


def test_an_invented_input_is_named() -> None:
    events, i = game_with(ev.TurnEnded)
    player = events[i].player  # type: ignore[attr-defined]
    report = audit([*events[:i], ev.ShotsFired(player=player), *events[i:]])
    assert report.first_divergence == (
        f"event {i + 1}: the store says {player} fired the shots; the rules give {player} ended the turn here"
    )


def test_an_unreadable_event_is_named() -> None:
    events = online_game(4)
    stored = numbered(events)
    i = index_of(events, ev.LifeLost)
    stored[i] = StoredEvent(i + 1, Unreadable(type="LifeLost", reason="amount: expected int"))
    report = audit_events("g1", stored, intact(events))
    assert (
        report.first_divergence == f"event {i + 1}: the stored LifeLost cannot be read: amount: expected int"
    )


# --- the seed and the deal --------------------------------------------------------------------------


def test_a_revealed_seed_that_does_not_match_its_commitment() -> None:
    events = online_game(4)
    report = audit(forged(events, len(events) - 1, seed=bytes(32).hex()))
    assert check(report, COMMITMENT) == (
        f"FAILED event {len(events)}: the revealed seed does not match the commitment published in event 1"
    )
    assert (
        check(report, DEAL)
        == check(report, ROLLS)
        == ("FAILED not checked: there is no trustworthy seed to re-derive from")
    )


def test_a_reseated_table_is_named() -> None:
    events = online_game(4)
    i = index_of(events, SeatsDealt)
    members = events[i].members  # type: ignore[attr-defined]
    swapped = (members[1], members[0], *members[2:])
    report = audit(forged(events, i, members=swapped))
    assert check(report, DEAL) == (
        f"FAILED event {i + 1}: the players were seated as {' '.join(swapped)}, "
        f"but the seed seats them as {' '.join(members)}"
    )


def test_an_ended_online_game_must_reveal_its_seed() -> None:
    events = online_game(4)
    assert isinstance(events[-1], SeedRevealed)
    report = audit(events[:-1])
    assert check(report, COMMITMENT) == "FAILED the game ended but its seed was never revealed"


# --- hidden roles -------------------------------------------------------------------------------------


@pytest.mark.parametrize("stop_after", [0, 15, 40])
def test_the_audit_of_an_ongoing_game_names_no_hidden_role(stop_after: int) -> None:
    events = online_game(6, rng_seed=4, stop_after=stop_after)
    assert not any(isinstance(e, GameEnded | ev.PlayerEliminated) for e in events)
    reports = [audit(events)]
    lost = [i for i, e in enumerate(events) if isinstance(e, ev.LifeLost)]
    if lost:
        reports.append(audit(forged(events, lost[0], amount=3)))
    for report in reports:
        text = report.to_json().decode()
        assert not HIDDEN_ROLE.search(text), text
        assert "sheriff" not in text.lower()


# --- the chain's findings in words --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "version", "kind", "last_missing", "words"),
    [
        (
            "game-g1 version 57: stored hash does not match its content (edited?)",
            57,
            ChainBreak.EDITED,
            None,
            "event 57 was edited after it was stored",
        ),
        ("game-g1 version 12 missing (deleted?)", 12, ChainBreak.MISSING, 12, "event 12 is missing"),
        ("game-g1 versions 6-7 missing (deleted?)", 6, ChainBreak.MISSING, 7, "events 6 to 7 are missing"),
        (
            "game-g1 version 9: prev_hash does not match the hash of version 8 (history rewritten?)",
            9,
            ChainBreak.RELINKED,
            None,
            "event 9 does not follow from event 8: the history before it was rewritten",
        ),
        ("something new", None, None, None, "something new"),
    ],
)
def test_chain_problems_are_put_in_words(
    message: str, version: int | None, kind: ChainBreak | None, last_missing: int | None, words: str
) -> None:
    problem = ChainProblem("game-g1", version, message, kind, last_missing)
    assert explain_chain_problem(problem) == words


def test_a_broken_chain_fails_the_audit_first() -> None:
    events = online_game(4)
    chain = VerificationReport(
        1,
        len(events),
        [ChainProblem("game-g1", 5, "game-g1 version 5 missing (deleted?)", ChainBreak.MISSING, 5)],
    )
    report = audit_events("g1", numbered(events), chain)
    assert report.verdict == "not clean: event 5 is missing"
    assert check_chain(chain).passed is False
