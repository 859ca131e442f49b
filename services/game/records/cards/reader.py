"""Read a card-game record from JSON (or a decoded mapping) and check it completely.

The same discipline as the dice reader (``records/reader.py``): the shape first (strict, every
field bounded, unknown fields refused), then each input, then the setup against the rules. Every
message names where the fault is: a JSON path (``$.position.players[1].hand``) or an input's
index (``input 4 ('p2 respond 99')``). Whether an input is *legal* is only known by playing it
(``replay_card_record``).
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Mapping
from datetime import datetime
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import msgspec

from services.game.edge.bounds import (
    Date,
    GameId,
    Hex,
    InputList,
    Name,
    Notes,
    SeatList,
    Turn,
    explain,
)
from services.game.records.cards.model import (
    CARD_DATA,
    CARDS_FORMAT,
    CARDS_VERSION,
    EIGHT_PLAYERS,
    GAME_TYPE,
    CardOptions,
    CardRecord,
    DeckSource,
)
from services.game.records.errors import MalformedRecord
from services.game.records.model import RecordMeta
from services.game.records.reader import HEX, ISO_DATE, PLAYER_ID, at_position
from services.game.rules.cards import EVENT_TYPES, GameCommand, InvalidSetup, MalformedCommand, Seat, new_game
from services.game.rules.cards import commands as cmd
from services.game.rules.cards.deck import ALL_CARDS, card
from services.game.rules.cards.events import (
    CheckPosition,
    OwedPosition,
    PlayerPosition,
    Position,
    ResolutionPosition,
)
from services.game.rules.cards.setup import MIN_LIFE
from services.game.rules.cards.vocabulary import (
    CardId,
    Cause,
    CharacterId,
    CheckReason,
    DrawReason,
    Phase,
    PlayerId,
    Role,
)
from services.game.rules.ruleset import RulesetError, check_ruleset

PlayerRef = Annotated[str, msgspec.Meta(max_length=64)]
CardRef = Annotated[int, msgspec.Meta(ge=1, le=80)]
"""A card by its id, 1..80 in ``card-deck.md`` row order (``docs/game-records.md`` lists them)."""
Cards = Annotated[list[CardRef], msgspec.Meta(max_length=80)]
Word = Annotated[str, msgspec.Meta(min_length=1, max_length=32, pattern=r"^[A-Za-z0-9_.-]+$")]

MAX_INPUT_TEXT = 400
"""A shuffle names up to 80 cards (``table shuffle 12 7 …``): longer than a dice command."""
MAX_INPUT_FIELDS = 6


class _Seat(msgspec.Struct, forbid_unknown_fields=True):
    player: PlayerRef
    role: Role
    character: CharacterId


Life = Annotated[int, msgspec.Meta(ge=MIN_LIFE, le=99)]
"""Down to -2: a dying player hit by Dynamite's 3 at his last point (mid-turn positions)."""
Players = Annotated[list[PlayerRef], msgspec.Meta(max_length=8)]
LifeLost = Annotated[int, msgspec.Meta(ge=1, le=99)]


class _PlayerPosition(msgspec.Struct, forbid_unknown_fields=True):
    player: PlayerRef
    life: Life
    hand: Cards = []
    in_play: Cards = []
    alive: bool | None = None
    eliminated_by: PlayerRef | None = None
    eliminated_turn: Turn | None = None


class _Owed(msgspec.Struct, forbid_unknown_fields=True):
    player: PlayerRef
    count: Annotated[int, msgspec.Meta(ge=1, le=99)]
    reason: DrawReason


class _Check(msgspec.Struct, forbid_unknown_fields=True):
    player: PlayerRef
    reason: CheckReason
    barrel: CardRef | None = None
    flips: Annotated[list[CardRef], msgspec.Meta(max_length=2)] = []


class _Resolving(msgspec.Struct, forbid_unknown_fields=True):
    card: CardRef | None
    player: PlayerRef | None = None
    target: PlayerRef | None = None
    target_card: CardRef | None = None
    responders: Players = []
    got: Annotated[int, msgspec.Meta(ge=0, le=2)] = 0
    barrels_used: Annotated[list[CardRef], msgspec.Meta(max_length=2)] = []
    jourdonnais_used: bool = False
    effect_done: bool = False
    store_size: Annotated[int, msgspec.Meta(ge=0, le=8)] | None = None
    revealed: Annotated[int, msgspec.Meta(ge=0, le=8)] | None = None
    resolved: bool = False
    lost: Annotated[
        dict[PlayerRef, Annotated[int, msgspec.Meta(ge=1, le=99)]], msgspec.Meta(max_length=8)
    ] = {}
    doomed: Players = []
    triggered: Players = []


class DeckRest(StrEnum):
    """The deck's cards a position does not list: under the listed ones in id order (a rule
    case), or in an order nobody knows (a real table: named as they are taken)."""

    ID_ORDER = "id_order"
    UNKNOWN = "unknown"


class _Position(msgspec.Struct, forbid_unknown_fields=True):
    players: SeatList[_PlayerPosition] = []
    deck: Cards | str = []
    deck_rest: DeckRest | None = None
    discard: Cards = []
    active_player: PlayerRef | None = None
    turn: Turn = 1
    phase: Phase | None = None
    dynamite_checked: bool = False
    jail_checked: bool = False
    skip_turn: bool = False
    draw_step: Annotated[int, msgspec.Meta(ge=0, le=3)] = 0
    draw_from: PlayerRef | None = None
    drawn: Annotated[list[CardRef], msgspec.Meta(max_length=3)] = []
    bangs_played: Annotated[int, msgspec.Meta(ge=0, le=99)] = 0
    kit: Annotated[list[CardRef], msgspec.Meta(max_length=3)] = []
    general_store: Annotated[list[CardRef], msgspec.Meta(max_length=8)] = []
    owed: Annotated[list[_Owed], msgspec.Meta(max_length=16)] = []
    check: _Check | None = None
    resolving: _Resolving | None = None


class _Ruleset(msgspec.Struct, forbid_unknown_fields=True):
    modules: Annotated[list[Word], msgspec.Meta(max_length=16)] = []
    options: Annotated[list[Word], msgspec.Meta(max_length=16)] = []
    data: Annotated[dict[Word, Word], msgspec.Meta(max_length=32)] | None = None


class _Options(msgspec.Struct, forbid_unknown_fields=True):
    deck: DeckSource = DeckSource.TABLE
    seed_commitment: Hex | None = None
    seed: Hex | None = None
    fairness: Annotated[dict[Word, Word], msgspec.Meta(max_length=16)] | None = None


class _Meta(msgspec.Struct, forbid_unknown_fields=True):
    game_id: GameId | None = None
    played_at: Date | None = None
    club: Name | None = None
    notes: Notes | None = None
    series_id: GameId | None = None
    previous_game_id: GameId | None = None


class _Record(msgspec.Struct, forbid_unknown_fields=True):
    format: str
    version: int
    game_type: str
    ruleset: _Ruleset
    seats: SeatList[_Seat]
    deck: Cards | str | None = None
    position: _Position | None = None
    inputs: InputList[str | dict[str, Any]] = []
    options: _Options | None = None
    meta: _Meta | None = None


COMMAND_TYPES: dict[str, type[cmd.Command]] = {c.__name__: c for c in GameCommand.__args__}
_EVENT_NAMES = frozenset(e.__name__ for e in EVENT_TYPES)

Source = bytes | str | os.PathLike[str] | Mapping[str, Any]


def read_card_record(source: Source) -> CardRecord:
    """Read a card record: JSON as ``bytes`` or ``str``, a file path, or a decoded mapping.
    Raises ``MalformedRecord`` naming the JSON path or the input at fault."""
    if isinstance(source, Mapping):
        return card_record_from_object(source)
    if isinstance(source, os.PathLike):
        try:
            source = Path(source).read_bytes()
        except OSError as e:
            raise MalformedRecord(f"cannot read {os.fspath(source)!r}: {e.strerror}") from None
    try:
        decoded = msgspec.json.decode(source)
    except msgspec.DecodeError as e:
        raise MalformedRecord(f"record: not valid JSON ({e})") from None
    if not isinstance(decoded, dict):
        raise MalformedRecord("record: expected a JSON object at `$`")
    return card_record_from_object(decoded)


def card_record_from_object(obj: Mapping[str, Any]) -> CardRecord:
    fmt = obj.get("format")
    if fmt != CARDS_FORMAT:
        raise MalformedRecord(f"record: `$.format` must be {CARDS_FORMAT!r}, got {fmt!r}")
    version = obj.get("version")
    if isinstance(version, bool) or version != CARDS_VERSION:
        raise MalformedRecord(
            f"record: format version {version!r} is not supported (this reader reads {CARDS_VERSION})"
        )
    if obj.get("game_type") != GAME_TYPE:
        raise MalformedRecord(
            f"record: `$.game_type` of a {CARDS_FORMAT} is {GAME_TYPE!r}, got {obj.get('game_type')!r}"
        )
    try:
        wire = msgspec.convert(obj, _Record, strict=True)
    except msgspec.ValidationError as e:
        raise MalformedRecord(f"record: {explain(str(e))}") from None
    for n, s in enumerate(wire.seats):
        if not PLAYER_ID.fullmatch(s.player):
            raise MalformedRecord(
                f"record: player id {s.player!r} at `$.seats[{n}].player` must be 1-64 letters, digits, "
                "'_', '.' or '-', starting with a letter or digit"
            )
    seats = tuple(Seat(player=PlayerId(s.player), role=s.role, character=s.character) for s in wire.seats)
    data = _data(wire.ruleset)
    eight_players = _eight_players(wire.ruleset)
    deck = _deck(wire)
    position = None if wire.position is None else _position(wire.position, seats)
    inputs = tuple(_input(i, raw) for i, raw in enumerate(wire.inputs))
    try:
        new_game(seats, eight_players=eight_players, position=position)
    except InvalidSetup as e:
        raise MalformedRecord(f"setup: {e}") from None
    record = CardRecord(
        seats=seats,
        eight_players=eight_players,
        deck=deck,
        position=position,
        inputs=inputs,
        options=_options(wire.options or _Options()),
        meta=_meta(wire.meta or _Meta()),
        data=data,
    )
    try:  # the service's own check of the ruleset, so an import is refused the same way
        check_ruleset(record.ruleset, len(seats))
    except RulesetError as e:
        raise MalformedRecord(f"record: `$.ruleset`: {e}") from None
    return record


def _eight_players(ruleset: _Ruleset) -> bool:
    for option in ruleset.options:
        if option != EIGHT_PLAYERS:
            raise MalformedRecord(
                f"record: `$.ruleset.options`: unknown option {option!r} (known: {EIGHT_PLAYERS})"
            )
    if len(ruleset.options) > 1:
        raise MalformedRecord(f"record: `$.ruleset.options`: {EIGHT_PLAYERS} is named twice")
    return bool(ruleset.options)


def _data(ruleset: _Ruleset) -> dict[str, str]:
    if ruleset.modules:
        raise MalformedRecord(
            f"record: `$.ruleset.modules`: the card game has no modules yet, got {ruleset.modules[0]!r}"
        )
    if ruleset.data is None:
        return dict(CARD_DATA)
    for table, version in sorted(ruleset.data.items()):
        if table not in CARD_DATA:
            raise MalformedRecord(f"record: `$.ruleset.data`: {table!r} is not a table of the card game")
        if version != CARD_DATA[table]:
            raise MalformedRecord(
                f"record: `$.ruleset.data`: {table!r} has no version {version!r} (known: {CARD_DATA[table]})"
            )
    missing = sorted(set(CARD_DATA) - set(ruleset.data))
    if missing:
        raise MalformedRecord(
            f"record: `$.ruleset.data` does not say which version of {', '.join(missing)} it uses"
        )
    return dict(ruleset.data)


def _deck(wire: _Record) -> tuple[CardId, ...] | None:
    """The first shuffle: all 80 cards once each, or ``"unknown"`` (a table's real shuffle)."""
    if wire.position is not None:
        if wire.deck is not None:
            raise MalformedRecord(
                "record: `$.deck` and `$.position` exclude each other: a position places every card itself"
            )
        return None
    if wire.deck is None:
        raise MalformedRecord(
            "record: `$.deck` (the first shuffle) is required unless the record starts from a `position`"
        )
    if isinstance(wire.deck, str):
        if wire.deck != "unknown":
            raise MalformedRecord(
                f"record: `$.deck` is the 80 card ids top first, or 'unknown', got {wire.deck!r}"
            )
        return ()
    _each_card_once("`$.deck`", wire.deck)
    return tuple(CardId(c) for c in wire.deck)


def _each_card_once(where: str, cards: list[int]) -> None:
    counts = Counter(cards)
    twice = sorted(c for c, n in counts.items() if n > 1)
    if twice:
        raise MalformedRecord(f"record: {where} names card {twice[0]} ({card(CardId(twice[0])).text}) twice")
    missing = sorted(set(ALL_CARDS) - set(counts))
    if missing:
        shown = ", ".join(str(c) for c in missing[:5]) + (", …" if len(missing) > 5 else "")
        raise MalformedRecord(f"record: {where} must hold each of the 80 cards once; missing {shown}")


def read_card_position(obj: object, seats: tuple[Seat, ...]) -> Position:
    """A card game's starting position in a record's words (its ``$.position``), read as a
    record's is (the dice reader's ``read_position`` says why): the game service takes a new
    table game's position so. Raises ``MalformedRecord`` naming the JSON path."""
    try:
        wire = msgspec.convert(obj, _Position, strict=True)
    except msgspec.ValidationError as e:
        raise MalformedRecord(at_position(explain(str(e)))) from None
    return _position(wire, seats)


def _position(p: _Position, seats: tuple[Seat, ...]) -> Position:
    """Cards placed nowhere are the rest of the deck, under the listed ones: in id order (so a
    rule case lists only the cards it is about), or in an order nobody knows (``deck_rest:
    unknown``, or ``deck: "unknown"``). Life 0 or less is a player out before the record,
    unless ``alive`` says he is dying (a mid-turn position while a card resolves)."""
    if isinstance(p.deck, str):
        if p.deck != "unknown":
            raise MalformedRecord(
                "record: `$.position.deck` is the deck's top card ids, top first, or 'unknown', "
                f"got {p.deck!r}"
            )
        if p.deck_rest is DeckRest.ID_ORDER:
            raise MalformedRecord(
                "record: `$.position.deck` 'unknown' leaves the whole deck's order unknown: "
                "`deck_rest` cannot say id_order"
            )
        top: list[int] = []
        unknown = True
    else:
        top, unknown = p.deck, p.deck_rest is DeckRest.UNKNOWN
    placed = [*top, *p.discard, *p.kit, *p.general_store]
    for pp in p.players:
        placed += [*pp.hand, *pp.in_play]
    if p.resolving is not None and p.resolving.card is not None and not p.resolving.resolved:
        placed.append(p.resolving.card)
    twice = sorted(c for c, n in Counter(placed).items() if n > 1)
    if twice:
        raise MalformedRecord(
            f"record: `$.position` places card {twice[0]} ({card(CardId(twice[0])).text}) twice"
        )
    rest = tuple(CardId(c) for c in sorted(set(ALL_CARDS) - set(placed)))
    if p.active_player is None:
        active = next(s.player for s in seats if s.role is Role.SHERIFF)
    else:
        active = PlayerId(p.active_player)
    seated = {s.player for s in seats}
    return Position(
        players=tuple(_player_position(n, pp, seated) for n, pp in enumerate(p.players)),
        deck=(*(CardId(c) for c in top), *(() if unknown else rest)),
        pool=rest if unknown else (),
        discard=_ids(p.discard),
        active=active,
        turn=p.turn,
        phase=p.phase,
        dynamite_checked=p.dynamite_checked,
        jail_checked=p.jail_checked,
        skip_turn=p.skip_turn,
        draw_step=p.draw_step,
        draw_from=None if p.draw_from is None else PlayerId(p.draw_from),
        drawn=_ids(p.drawn),
        bangs_played=p.bangs_played,
        kit=_ids(p.kit),
        store=_ids(p.general_store),
        owed=tuple(OwedPosition(player=PlayerId(o.player), count=o.count, reason=o.reason) for o in p.owed),
        check=None if p.check is None else _check(p.check),
        resolving=None if p.resolving is None else _resolving(p.resolving, active),
    )


def _ids(cards: list[int]) -> tuple[CardId, ...]:
    return tuple(CardId(c) for c in cards)


def _player_position(n: int, pp: _PlayerPosition, seated: set[PlayerId]) -> PlayerPosition:
    alive = pp.life > 0 if pp.alive is None else pp.alive
    by: PlayerId | None = None
    cause: Cause | None = None
    if pp.eliminated_by is not None:
        if pp.eliminated_by in (Cause.DYNAMITE, Cause.SELF):
            cause = Cause(pp.eliminated_by)
        elif pp.eliminated_by in seated:
            by, cause = PlayerId(pp.eliminated_by), Cause.CARD
        else:
            raise MalformedRecord(
                f"record: `$.position.players[{n}].eliminated_by` is a seated player, 'dynamite' or 'self', "
                f"got {pp.eliminated_by!r}"
            )
    return PlayerPosition(
        player=PlayerId(pp.player),
        life=pp.life,
        hand=_ids(pp.hand),
        in_play=_ids(pp.in_play),
        alive=alive,
        eliminated_by=by,
        eliminated_cause=cause,
        eliminated_turn=pp.eliminated_turn,
    )


def _check(c: _Check) -> CheckPosition:
    return CheckPosition(
        player=PlayerId(c.player),
        reason=c.reason,
        barrel=None if c.barrel is None else CardId(c.barrel),
        flips=_ids(c.flips),
    )


def _resolving(r: _Resolving, active: PlayerId) -> ResolutionPosition:
    """The card's player is the active player unless the record says otherwise; Dynamite's
    explosion (``card: null``) is nobody's."""
    player = PlayerId(r.player) if r.player is not None else (None if r.card is None else active)
    return ResolutionPosition(
        player=player,
        card=None if r.card is None else CardId(r.card),
        target=None if r.target is None else PlayerId(r.target),
        target_card=None if r.target_card is None else CardId(r.target_card),
        responders=tuple(PlayerId(x) for x in r.responders),
        got=r.got,
        barrels_used=_ids(r.barrels_used),
        jourdonnais_used=r.jourdonnais_used,
        effect_done=r.effect_done,
        store_size=r.store_size,
        revealed=r.revealed,
        resolved=r.resolved,
        lost=tuple((PlayerId(k), v) for k, v in r.lost.items()),
        doomed=tuple(PlayerId(x) for x in r.doomed),
        triggered=tuple(PlayerId(x) for x in r.triggered),
    )


def _input(index: int, raw: str | dict[str, Any]) -> GameCommand:
    if isinstance(raw, str):
        if len(raw) > MAX_INPUT_TEXT:
            raise MalformedRecord(f"input {index}: a command's text has at most {MAX_INPUT_TEXT} characters")
        if " ".join(raw.split()) != raw:
            raise MalformedRecord(f"input {index} ({raw!r}): words must be separated by single spaces")
        try:
            return parse_input(raw)
        except MalformedCommand as e:
            message = str(e).removeprefix(f"{raw!r}: ")
            raise MalformedRecord(f"input {index} ({raw!r}): {message}") from None
    if len(raw) > MAX_INPUT_FIELDS:
        raise MalformedRecord(f"input {index}: a command object has at most {MAX_INPUT_FIELDS} fields")
    kind = raw.get("type")
    cls = COMMAND_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        if isinstance(kind, str) and kind in _EVENT_NAMES:
            hint = f"{kind!r} is an event; a record holds inputs (commands), not events"
        else:
            hint = f"`type` must be one of {', '.join(COMMAND_TYPES)}, got {kind!r}"
        raise MalformedRecord(f"input {index}: {hint}")
    fields = {f.name for f in msgspec.structs.fields(cls)} | {"type"}
    unknown = sorted(set(raw) - fields)
    if unknown:
        raise MalformedRecord(f"input {index} ({kind}): unknown field(s) {', '.join(unknown)}")
    try:
        command = msgspec.convert(raw, cls, strict=True)
    except msgspec.ValidationError as e:
        where = str(e).replace("`$", f"`$.inputs[{index}]")
        raise MalformedRecord(f"input {index} ({kind}): {where}") from None
    _check_cards(index, command)
    return command  # type: ignore[return-value]


def parse_input(text: str) -> GameCommand:
    """A command's text form, read by the engine; its player must be a word of the text form."""
    command = cmd.parse_command(text)
    if not PLAYER_ID.fullmatch(command.player):
        raise MalformedCommand(f"{text!r}: {command.player!r} is not a player id")
    return command


def _check_cards(index: int, command: cmd.Command) -> None:
    """What the text form's grammar guarantees (card ids 1..80), checked for objects too."""
    named: list[int] = []
    for field in ("card", "target_card"):
        value = getattr(command, field, None)
        if isinstance(value, int):
            named.append(value)
    for field in ("cards", "order"):
        named += list(getattr(command, field, ()))
    bad = [c for c in named if not 1 <= c <= 80]
    if bad:
        raise MalformedRecord(f"input {index} ({str(command)!r}): {bad[0]} is not a card id (1..80)")


def _options(o: _Options) -> CardOptions:
    commitment = o.seed_commitment
    if commitment is not None and not (len(commitment) == 64 and HEX.fullmatch(commitment)):
        raise MalformedRecord(
            "record: `$.options.seed_commitment` must be a SHA-256 in lowercase hex (64 digits)"
        )
    if o.seed is not None and not HEX.fullmatch(o.seed):
        raise MalformedRecord("record: `$.options.seed` must be lowercase hex")
    if o.fairness is not None and o.deck is not DeckSource.SEEDED:
        raise MalformedRecord("record: `$.options.fairness` names seed derivations: only for a seeded deck")
    return CardOptions(
        deck=o.deck,
        seed_commitment=commitment,
        seed=o.seed,
        fairness=None if o.fairness is None else dict(sorted(o.fairness.items())),
    )


def _meta(m: _Meta) -> RecordMeta:
    if m.played_at is not None:
        try:
            if not ISO_DATE.fullmatch(m.played_at):
                raise ValueError(m.played_at)
            datetime.fromisoformat(m.played_at)
        except ValueError:
            raise MalformedRecord(
                f"record: `$.meta.played_at` {m.played_at!r} is not an ISO 8601 date or date-time"
            ) from None
    return RecordMeta(
        game_id=m.game_id,
        played_at=m.played_at,
        club=m.club,
        notes=m.notes,
        series_id=m.series_id,
        previous_game_id=m.previous_game_id,
    )
