"""Write a card-game record: the setup and the inputs of a game, recovered from its events.

The events are the whole story: each command leaves the event that says what was chosen (the
shuffle's order in ``DeckShuffled``, a card played in ``CardPlayed``, a pass in ``Passed``).
The writer plays the game again beside its events: at each question it reads the answer off
the next events and checks that playing it gives exactly them. Replaying the inputs gives the
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
from services.game.rules.cards import TABLE, Awaiting, Decision, Game, GameCommand, GameStarted
from services.game.rules.cards import commands as cmd
from services.game.rules.cards import events as ev
from services.game.rules.cards.decide import awaiting, execute
from services.game.rules.cards.events import Position
from services.game.rules.cards.evolve import evolve, initial_state
from services.game.rules.cards.flow import advance
from services.game.rules.cards.vocabulary import CheckReason


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
        command = _answer(question, events, n, state)
        produced = execute(state, command)
        if list(events[n : n + len(produced)]) != produced:
            raise ValueError(f"events from {n} on are not what {command} gives")
        inputs.append(command)
        n += len(produced)
    return inputs


def _answer(q: Awaiting, events: Sequence[ev.Event], n: int, state: Any) -> GameCommand:
    """The command that answered ``q`` with the events from ``events[n]`` on."""
    e = events[n]
    who = q.player
    match q.decision:
        case Decision.SHUFFLE:
            assert isinstance(e, ev.DeckShuffled), e
            return cmd.ShuffleDeck(player=TABLE, order=e.order)
        case Decision.TOP_CARD:
            assert isinstance(e, ev.TopCardNamed), e
            return cmd.NameTopCard(player=TABLE, card=e.card)
        case Decision.RANDOM_CARD:
            assert isinstance(e, ev.CardTaken | ev.CardDiscarded), e
            return cmd.PickRandomCard(player=TABLE, card=e.card)
        case Decision.DRAW_SOURCE:
            assert isinstance(e, ev.DrawSourceChosen), e
            return cmd.ChooseDrawSource(player=who, from_player=e.from_player, from_discard=e.from_discard)
        case Decision.KIT_RETURN:
            assert isinstance(e, ev.KitReturned) and e.card is not None, e
            return cmd.KitReturn(player=who, card=e.card)
        case Decision.DRAW_RESULT:
            assert isinstance(e, ev.CheckResolved) and e.card is not None, e
            return cmd.ChooseDrawResult(player=who, card=e.card)
        case Decision.STORE_PICK:
            assert isinstance(e, ev.StoreCardPicked), e
            return cmd.PickStoreCard(player=who, card=e.card)
        case Decision.DISCARD_ORDER:
            count = state.player(who).card_count
            cards = [x.card for x in events[n:] if isinstance(x, ev.CardDiscarded) and x.player == who]
            return cmd.OrderDiscards(player=who, cards=tuple(cards[:count]))
    if isinstance(e, ev.SidKetchumHealed):
        return cmd.UseSidKetchum(player=who, cards=e.cards)
    if q.decision is Decision.DISCARD:
        cards = [x.card for x in events[n : n + q.count] if isinstance(x, ev.CardDiscarded)]
        return cmd.Discard(player=who, cards=tuple(cards))
    if q.decision is Decision.PLAY:
        if isinstance(e, ev.PlayEnded):
            return cmd.EndPlay(player=who)
        # a new weapon first discards the old one: the play is the event after it
        played = events[n + 1] if isinstance(e, ev.CardDiscarded) else e
        assert isinstance(played, ev.CardPlayed), played
        return cmd.PlayCard(
            player=who, card=played.card, target=played.target, target_card=played.target_card
        )
    match e:
        case ev.Responded(card=c):
            return cmd.Respond(player=who, card=c)
        case ev.Passed(timeout=timeout):
            return cmd.Pass(player=who, timeout=timeout)
        case ev.CheckBegan(reason=CheckReason.JOURDONNAIS):
            return cmd.UseBarrel(player=who)
        case ev.CheckBegan(barrel=barrel):
            return cmd.UseBarrel(player=who, card=barrel)
    raise AssertionError(f"no command answers {q.describe()} with {e}")


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
    """A position as the record writes it: the deck's tail in id order is left implied (the
    reader puts the cards placed nowhere there), players at full life with no card unlisted,
    an eliminated player as life 0."""
    deck = list(position.deck)
    cut = len(deck)
    while cut > 0 and (cut == len(deck) or deck[cut - 1] < deck[cut]):
        cut -= 1
    deck = deck[:cut] if cut < len(deck) else deck
    players = []
    for pp in position.players:
        row: dict[str, Any] = {"player": pp.player, "life": pp.life if pp.alive else 0}
        if pp.hand:
            row["hand"] = list(pp.hand)
        if pp.in_play:
            row["in_play"] = list(pp.in_play)
        players.append(row)
    out: dict[str, Any] = {"players": players}
    if deck:
        out["deck"] = deck
    if position.discard:
        out["discard"] = list(position.discard)
    sheriff = next(s.player for s in seats if s.role.value == "sheriff")
    if position.active != sheriff:
        out["active_player"] = position.active
    if position.turn != 1:
        out["turn"] = position.turn
    return out
