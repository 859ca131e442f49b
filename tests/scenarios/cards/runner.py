"""Run one card-game scenario: a ``bang-cards-record`` (YAML) plus an ``expect`` block.

Each scenario starts with a comment quoting what it tests (a card, a character, a line of
RULINGS-cards.md). ``expect`` keys (all optional, each checked only if present):

- ``status``, ``winning_side``, ``winners``, ``turn``, ``active_player``, ``phase``, ``deck``
  (cards left), ``discard`` (cards in the pile), ``discard_top`` (``bang:AS``),
  ``general_store``: equal to the summary's value (``summarize_cards``).
- ``players``: ``{id: {life, max_life, alive, hand, in_play, role, won, eliminated_by, ...}}``,
  only the fields given are compared (``hand`` is a count, ``in_play`` card texts).
- ``hands``: ``{id: [card ids]}``, a hand's exact cards in any order (a referee's view).
- ``deck_top``: the ids of the deck's first cards, top first.
- ``awaiting``: null, or the fields given of ``{player, decision, from_player, count}``.
- ``events``: trace lines (``card_trace_line``) that must appear in this order (others may come
  between); ``no_events``: lines that must not appear; ``counts``: ``{line: times}``.
- ``error``: the record must be refused with this fragment in the message. For an illegal
  input it must be the last input, the state checks apply to the game just before it, and
  that game must equal a replay of the earlier inputs (a refused input changes nothing).

A scenario that replays is also written back and read again, and must give the same record.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from services.game.records import IllegalInput, RecordError
from services.game.records.cards import (
    CardRecord,
    card_trace_line,
    read_card_record,
    replay_card_record,
    summarize_cards,
    write_card_record,
)
from services.game.rules.cards import Game

CARD_SCENARIOS = Path(__file__).parent

_STATE_KEYS = (
    "status",
    "winning_side",
    "winners",
    "turn",
    "active_player",
    "phase",
    "deck",
    "discard",
    "discard_top",
    "general_store",
)
_EXPECT_KEYS = {
    *_STATE_KEYS,
    "players",
    "hands",
    "deck_top",
    "awaiting",
    "events",
    "no_events",
    "counts",
    "error",
}


def card_scenario_files() -> list[Path]:
    return sorted(CARD_SCENARIOS.rglob("*.yaml"))


def load(path: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    text = path.read_text(encoding="utf-8")
    assert text.startswith("#"), f"{path.name}: a card scenario starts with a comment saying what it tests"
    document = yaml.safe_load(text)
    assert isinstance(document, dict), f"{path.name}: a scenario is a YAML mapping"
    expect = document.pop("expect", None)
    assert isinstance(expect, dict) and expect, f"{path.name}: a scenario needs an `expect` block"
    unknown = set(expect) - _EXPECT_KEYS
    assert not unknown, f"{path.name}: unknown expectation(s) {sorted(unknown)}"
    return document, expect


def run_card_scenario(path: Path) -> Game | None:
    """Run the scenario; the game it ends with (None for a refused setup)."""
    record_data, expect = load(path)
    error = expect.get("error")
    try:
        record = read_card_record(record_data)
        game = replay_card_record(record)
    except IllegalInput as e:
        assert error is not None, f"unexpected refusal: {e}"
        assert error in str(e), f"expected an error containing {error!r}, got {e}"
        assert e.index == len(record.inputs) - 1, f"the illegal input should be the last one: {e}"
        assert isinstance(e.game, Game)
        _assert_unchanged(record, e.game, e.index)
        check_state(e.game, expect)
        return e.game
    except RecordError as e:
        assert error is not None, f"unexpected refusal: {e}"
        assert error in str(e), f"expected an error containing {error!r}, got {e}"
        assert set(expect) == {"error"}, "a refused setup has no state to check"
        return None
    assert error is None, f"expected an error containing {error!r}, but the record replayed"
    check_state(game, expect)
    written = write_card_record(game, options=record.options, meta=record.meta)
    assert read_card_record(written) == record, "writing the replayed game does not give the record back"
    return game


def _assert_unchanged(record: CardRecord, game: Game, index: int) -> None:
    before = replay_card_record(
        CardRecord(
            seats=record.seats,
            eight_players=record.eight_players,
            deck=record.deck,
            position=record.position,
            inputs=record.inputs[:index],
        )
    )
    assert game.events == before.events and game.state == before.state, "a refused input changed the game"


def check_state(game: Game, expect: dict[str, Any]) -> None:
    state = summarize_cards(game)
    for key in _STATE_KEYS:
        if key in expect:
            assert state[key] == expect[key], f"{key}: expected {expect[key]!r}, got {state[key]!r}"
    players = {p["id"]: p for p in state["players"]}
    for pid, fields in (expect.get("players") or {}).items():
        assert pid in players, f"no player {pid}"
        actual = {k: players[pid][k] for k in fields}
        assert actual == fields, f"{pid}: expected {fields}, got {actual}"
    for pid, cards in (expect.get("hands") or {}).items():
        hand = sorted(game.state.player(pid).hand)
        assert hand == sorted(cards), f"{pid}'s hand: expected {sorted(cards)}, got {hand}"
    if "deck_top" in expect:
        top = list(game.state.deck[: len(expect["deck_top"])])
        assert top == expect["deck_top"], f"deck top: expected {expect['deck_top']}, got {top}"
    if "awaiting" in expect:
        wanted, actual = expect["awaiting"], state["awaiting"]
        if wanted is None or actual is None:
            assert actual == wanted, f"awaiting: expected {wanted}, got {actual}"
        else:
            got = {k: actual.get(k) for k in wanted}
            assert got == wanted, f"awaiting: expected {wanted}, got {got}"
    lines = [card_trace_line(e) for e in game.events]
    _check_subsequence(lines, expect.get("events") or [])
    for line, count in (expect.get("counts") or {}).items():
        assert lines.count(line) == count, f"{line!r}: expected {count} time(s), got {lines.count(line)}"
    for line in expect.get("no_events") or []:
        assert line not in lines, f"event {line!r} should not happen; trace:\n" + "\n".join(lines)


def _check_subsequence(lines: list[str], wanted: list[str]) -> None:
    it = iter(lines)
    for n, line in enumerate(wanted):
        if not any(line == actual for actual in it):
            trace = "\n".join(f"  {x}" for x in lines)
            raise AssertionError(f"expected event #{n} {line!r} (in this order) not found; trace:\n{trace}")
