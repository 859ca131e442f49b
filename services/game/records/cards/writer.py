"""Write a card-game record: the setup and the inputs of a game, recovered from its events.

The events are the whole story: each command leaves the event that says what was chosen (the
shuffle's order in ``DeckShuffled``, a card played in ``CardPlayed``, a pass in ``Passed``;
``rules/cards/answers.py`` reads it back, as the engine adapter does). The writer plays the
game again beside its events: at each question it reads the answer off the next events and
checks that playing it gives exactly them. Replaying the inputs gives the
very same events; an audit exports online games this way.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from services.game.records.cards.model import (
    CARDS_FORMAT,
    CARDS_VERSION,
    EIGHT_PLAYERS,
    GAME_TYPE,
    CardOptions,
    CardRecord,
)
from services.game.records.model import RecordMeta
from services.game.records.writer import _dump
from services.game.rules.cards import Game, GameCommand, GameStarted
from services.game.rules.cards import commands as cmd
from services.game.rules.cards import events as ev
from services.game.rules.cards.answers import answer_of
from services.game.rules.cards.decide import awaiting, execute
from services.game.rules.cards.events import Position
from services.game.rules.cards.evolve import evolve, initial_state
from services.game.rules.cards.flow import advance


def card_inputs_from_events(events: Sequence[ev.Event]) -> list[GameCommand]:
    """The commands that produced these events (``GameStarted`` first), in order, the first
    shuffle included. Each command is read off the first events after the game rested, then
    played again on a copy of the game to find where its events end (a state in the middle of
    one command's events may look like a question too)."""
    if not events or not isinstance(events[0], GameStarted):
        raise ValueError("a game's events start with GameStarted")
    state = initial_state(events[0])
    automatic: list[ev.Event] = []

    def emit(event: ev.Event) -> None:
        evolve(state, event)
        automatic.append(event)

    advance(state, emit)
    n = 1 + len(automatic)
    if list(events[1:n]) != automatic:
        raise ValueError("these events do not follow from their GameStarted")
    inputs: list[GameCommand] = []
    while n < len(events):
        question = awaiting(state)
        if question is None:
            raise ValueError(f"event {n} follows the end of the game")
        command = answer_of(question, events, n, state)
        if command is None:
            raise ValueError(f"event {n} answers nothing of {question.describe()}: {events[n]}")
        produced = execute(state, command)
        if list(events[n : n + len(produced)]) != produced:
            raise ValueError(f"events from {n} on are not what {command} gives")
        inputs.append(command)
        n += len(produced)
    return inputs


def card_record_from_events(
    events: Sequence[ev.Event], *, options: CardOptions | None = None, meta: RecordMeta | None = None
) -> CardRecord:
    started = events[0] if events else None
    if not isinstance(started, GameStarted):
        raise ValueError("a game's events start with GameStarted")
    inputs = card_inputs_from_events(events)
    deck = None
    if started.position is None:
        first = inputs.pop(0) if inputs else None
        if not isinstance(first, cmd.ShuffleDeck):
            raise ValueError("a game without a position starts with its first shuffle")
        deck = first.order
    return CardRecord(
        seats=started.seats,
        eight_players=started.eight_players,
        deck=deck,
        position=started.position,
        inputs=tuple(inputs),
        options=options or CardOptions(),
        meta=meta or RecordMeta(),
    )


def write_card_record(
    source: Game | Sequence[ev.Event] | CardRecord,
    *,
    options: CardOptions | None = None,
    meta: RecordMeta | None = None,
    structured: bool = False,
) -> str:
    """The record as JSON text, one seat and one input per line. ``structured``: inputs as
    command objects rather than their text form."""
    if isinstance(source, CardRecord):
        record = source
        if options is not None or meta is not None:
            record = msgspec.structs.replace(
                record, options=options or record.options, meta=meta or record.meta
            )
    else:
        events = source.events if isinstance(source, Game) else source
        record = card_record_from_events(events, options=options, meta=meta)
    return _dump(card_record_to_object(record, structured=structured))


def card_record_to_object(record: CardRecord, *, structured: bool = False) -> dict[str, Any]:
    """The record as plain JSON data (what ``read_card_record`` accepts back)."""
    ruleset: dict[str, Any] = {"modules": []}
    if record.eight_players:
        ruleset["options"] = [EIGHT_PLAYERS]
    ruleset["data"] = dict(record.data)
    obj: dict[str, Any] = {
        "format": CARDS_FORMAT,
        "version": CARDS_VERSION,
        "game_type": GAME_TYPE,
        "ruleset": ruleset,
    }
    meta = msgspec.to_builtins(record.meta)
    if meta:
        obj["meta"] = meta
    options = msgspec.to_builtins(record.options)
    if options:
        obj["options"] = options
    obj["seats"] = msgspec.to_builtins(record.seats)
    if record.deck is not None:
        obj["deck"] = list(record.deck) if record.deck else "unknown"
    if record.position is not None:
        obj["position"] = position_to_object(record.position, record.seats)
    if structured:
        obj["inputs"] = [
            {k: v for k, v in msgspec.to_builtins(c).items() if v is not None} for c in record.inputs
        ]
    else:
        obj["inputs"] = [str(c) for c in record.inputs]
    return obj


def position_to_object(position: Position, seats: Sequence[ev.Seat]) -> dict[str, Any]:
    """A position as the record writes it (``read_card_record`` reads back the same): the
    deck's tail in id order is left implied (the reader puts the cards placed nowhere there),
    or with the rest of the deck in unknown order (``pool``) ``deck_rest: unknown``; an
    eliminated player at 0 life, or at his own (0 or less) with how he went out; a mid-turn
    position's fields only where they say something."""
    deck = list(position.deck)
    if not position.pool:
        cut = len(deck)
        while cut > 0 and (cut == len(deck) or deck[cut - 1] < deck[cut]):
            cut -= 1
        deck = deck[:cut] if cut < len(deck) else deck
    players = []
    for pp in position.players:
        said = (
            pp.eliminated_by is not None or pp.eliminated_cause is not None or pp.eliminated_turn is not None
        )
        row: dict[str, Any] = {"player": pp.player, "life": pp.life if pp.alive or said else 0}
        if pp.hand:
            row["hand"] = list(pp.hand)
        if pp.in_play:
            row["in_play"] = list(pp.in_play)
        if pp.alive != (row["life"] > 0):
            row["alive"] = pp.alive
        if pp.eliminated_cause is not None:
            row["eliminated_by"] = (
                pp.eliminated_by if pp.eliminated_by is not None else str(pp.eliminated_cause)
            )
        if pp.eliminated_turn is not None:
            row["eliminated_turn"] = pp.eliminated_turn
        players.append(row)
    out: dict[str, Any] = {"players": players}
    if position.pool and not deck:
        out["deck"] = "unknown"
    elif deck:
        out["deck"] = deck
        if position.pool:
            out["deck_rest"] = "unknown"
    if position.discard:
        out["discard"] = list(position.discard)
    sheriff = next(s.player for s in seats if s.role.value == "sheriff")
    if position.active != sheriff:
        out["active_player"] = position.active
    if position.turn != 1:
        out["turn"] = position.turn
    if position.phase is not None:
        out.update(_turn_under_way(position))
    return out


def _turn_under_way(position: Position) -> dict[str, Any]:
    """The mid-turn fields that differ from their defaults, in the record's words."""
    out: dict[str, Any] = {"phase": str(position.phase)}
    for field in ("dynamite_checked", "jail_checked", "skip_turn", "draw_step", "draw_from", "bangs_played"):
        value = getattr(position, field)
        if value:
            out[field] = value
    for field, key in (("drawn", "drawn"), ("kit", "kit"), ("store", "general_store")):
        cards = getattr(position, field)
        if cards:
            out[key] = list(cards)
    if position.owed:
        out["owed"] = [msgspec.to_builtins(o) for o in position.owed]
    if position.check is not None:
        out["check"] = {k: v for k, v in msgspec.to_builtins(position.check).items() if v not in (None, [])}
    r = position.resolving
    if r is not None:
        res: dict[str, Any] = {"card": r.card}
        if r.card is not None and r.player != position.active:
            res["player"] = r.player
        data = msgspec.to_builtins(r)
        for key in ("target", "target_card", "responders", "got", "barrels_used", "jourdonnais_used"):
            if data[key]:
                res[key] = data[key]
        for key in ("effect_done", "store_size", "revealed", "resolved"):
            if data[key] not in (None, False):
                res[key] = data[key]
        if r.lost:
            res["lost"] = dict(r.lost)
        for key in ("doomed", "triggered"):
            if data[key]:
                res[key] = data[key]
        out["resolving"] = res
    return out
