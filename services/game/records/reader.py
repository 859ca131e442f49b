"""Read a game record from JSON (or an already-decoded mapping) and check it completely.

The checks follow ``docs/game-records.schema.json`` (shape, types, unknown fields refused),
then read each input (text form or command object), then check the setup against the rules.
Nothing is forgiven: an audit must fail loudly, so every message says where the fault is —
a JSON path (``$.seats[2].role``) or an input (``input 12 ('p2 reroll 0 7')``).
Whether each input is *legal* is only known by playing it: see ``replay_record``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any

import msgspec

from services.game.edge.bounds import (
    Count,
    Date,
    GameId,
    Hex,
    InputList,
    InvalidArgument,
    Name,
    Notes,
    SeatList,
    Turn,
    command_text,
    explain,
)
from services.game.fairness.registry import UnknownDerivation, check_fairness
from services.game.fairness.versions import Fairness
from services.game.records.errors import MalformedRecord
from services.game.records.model import (
    FORMAT,
    READ_VERSIONS,
    DiceSource,
    GameRecord,
    RecordMeta,
    RecordOptions,
)
from services.game.rules.dice import (
    EVENT_TYPES,
    CharacterId,
    Face,
    GameCommand,
    InvalidSetup,
    MalformedCommand,
    PlayerId,
    PlayerPosition,
    Position,
    Role,
    Seat,
    new_game,
    parse_command,
)
from services.game.rules.dice import commands as cmd
from services.game.rules.dice import events as pos
from services.game.rules.dice.modules import rules_of
from services.game.rules.dice.vocabulary import SpecialRole
from services.game.rules.ruleset import BASE_DICE, Ruleset, RulesetError, check_ruleset, ruleset_of

# --- the wire shape: strict mirrors of the schema (unknown fields are an error), every field
# bounded (services/game/edge/bounds.py): an imported game is stored for good ---------------------

PlayerRef = Annotated[str, msgspec.Meta(max_length=64)]
"""A seat's player id; ``PLAYER_ID`` says which, and the rules which of them exist."""


class _Seat(msgspec.Struct, forbid_unknown_fields=True):
    player: PlayerRef
    role: Role
    character: CharacterId
    special: SpecialRole | None = None
    """OS3's special role card."""
    legacy_bonus: Annotated[int, msgspec.Meta(ge=0, le=1)] = 0
    """UA5: a designated Sheriff's extra life (the rules check it is on the Sheriff, with UA5)."""


CardId = Annotated[str, msgspec.Meta(min_length=1, max_length=32, pattern=r"^[A-Za-z0-9_-]+$")]
"""A Rage or Boneyard card id (``r07``, ``b03``): the rules check it is one of the deck's."""
Few = Annotated[list[Face], msgspec.Meta(max_length=8)]


class _PlayerPosition(msgspec.Struct, forbid_unknown_fields=True):
    player: PlayerRef
    life: Count
    arrows: Count = 0
    # the expansions' (docs/game-records.md): the engine's own strict parts, checked by the rules
    eliminated: pos.Eliminated | None = None
    ghost_since: Turn | None = None
    ghost_tokens: Few | None = None
    zombie: pos.ZombiePosition | None = None
    zombie_master: bool | None = None
    wounds: Few | None = None
    rage: Annotated[list[CardId], msgspec.Meta(max_length=32)] | None = None
    special: pos.SpecialPosition | None = None


class _Position(msgspec.Struct, forbid_unknown_fields=True):
    players: SeatList[_PlayerPosition] = []
    active_player: PlayerRef | None = None
    turn: Turn = 1
    dice: SeatList[Face | None] | None = None
    """A null die: not rolled yet (only with ``in_turn``)."""
    rolls_used: Count = 1
    chief_holder: PlayerRef | None = None
    """OS2: the player holding the Chief's Arrow (one of his arrows)."""
    turn_ended: bool | None = None
    in_turn: pos.TurnPosition | None = None
    held_losses: pos.HeldLossesPosition | None = None
    sheriff: PlayerRef | None = None
    special_roles: pos.SpecialRolesPosition | None = None
    wound_tokens: pos.WoundsPosition | None = None
    rage_deck: pos.RagePosition | None = None
    boneyard: pos.BoneyardPosition | None = None


Word = Annotated[str, msgspec.Meta(min_length=1, max_length=32, pattern=r"^[A-Za-z0-9_.-]+$")]
"""A module id, data table name or version: checked against the catalogue after reading."""


class _Fairness(msgspec.Struct, forbid_unknown_fields=True):
    deal: Word
    dice: Word
    special_roles: Word | None = None
    """OS3 games: the special-role deal's version."""


class _Options(msgspec.Struct, forbid_unknown_fields=True):
    dice: DiceSource = DiceSource.TABLE
    seed_commitment: Hex | None = None
    seed: Hex | None = None
    fairness: _Fairness | None = None
    """Version 2 only."""


class _Ruleset(msgspec.Struct, forbid_unknown_fields=True):
    modules: Annotated[list[Word], msgspec.Meta(max_length=16)] = []
    data: Annotated[dict[Word, Word], msgspec.Meta(max_length=32)] | None = None
    """Table → version; None: the current versions of the ruleset's tables."""


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
    seats: SeatList[_Seat]
    inputs: InputList[str | dict[str, Any]] = []
    """Each bounded in ``_input`` (``command_text``: a constrained union would crash msgspec)."""
    position: _Position | None = None
    options: _Options | None = None
    meta: _Meta | None = None
    game_type: Word | None = None
    """Version 2: required (``dice``)."""
    ruleset: _Ruleset | None = None
    """Version 2: required (``{"modules": []}`` for the base game)."""


_COMMAND_TYPES: dict[str, type[cmd.Command]] = {
    c.__name__: c
    for c in GameCommand.__args__  # type: ignore[attr-defined]
}

PLAYER_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
"""A player id is one word of the inputs' text form, so no spaces (schema: ``playerId``)."""

Source = bytes | str | os.PathLike[str] | Mapping[str, Any]


def read_record(source: Source) -> GameRecord:
    """Read a record: JSON as ``bytes`` or ``str``, a file path (``pathlib.Path`` or any
    ``os.PathLike``), or an already-decoded mapping (a scenario file read as YAML).

    Raises ``MalformedRecord`` naming the JSON path or the input at fault.
    """
    if isinstance(source, Mapping):
        return _from_object(source)
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
    return _from_object(decoded)


def _from_object(obj: Mapping[str, Any]) -> GameRecord:
    # format and version first: a reader must not misread a newer or foreign file
    fmt = obj.get("format")
    if fmt != FORMAT:
        raise MalformedRecord(f"record: `$.format` must be {FORMAT!r}, got {fmt!r}")
    version = obj.get("version")
    if isinstance(version, bool) or version not in READ_VERSIONS:
        readable = " and ".join(str(v) for v in READ_VERSIONS)
        raise MalformedRecord(
            f"record: format version {version!r} is not supported (this reader reads {readable})"
        )
    try:
        wire = msgspec.convert(obj, _Record, strict=True)
    except msgspec.ValidationError as e:
        raise MalformedRecord(f"record: {explain(str(e))}") from None
    for n, seat in enumerate(wire.seats):
        if not PLAYER_ID.fullmatch(seat.player):
            raise MalformedRecord(
                f"record: player id {seat.player!r} at `$.seats[{n}].player` must be 1-64 letters, digits, "
                "'_', '.' or '-', starting with a letter or digit"
            )
    seats = tuple(
        Seat(
            player=PlayerId(s.player),
            role=s.role,
            character=s.character,
            special=s.special,
            legacy_bonus=s.legacy_bonus,
        )
        for s in wire.seats
    )
    position = None if wire.position is None else _position(wire.position)
    inputs = tuple(_input(i, raw) for i, raw in enumerate(wire.inputs))
    ruleset = _ruleset(wire, len(seats))
    try:
        rules = rules_of(ruleset)
    except InvalidSetup:
        rules = None  # a module this server does not play: replaying the record says so
    if rules is not None:
        try:
            new_game(seats, position, rules)
        except InvalidSetup as e:
            raise MalformedRecord(f"setup: {e}") from None
    options = wire.options or _Options()
    meta = wire.meta or _Meta()
    _check_options_and_meta(options, meta)
    fairness = _fairness(options)
    return GameRecord(
        seats=seats,
        inputs=inputs,
        position=position,
        options=RecordOptions(
            dice=options.dice, seed_commitment=options.seed_commitment, seed=options.seed, fairness=fairness
        ),
        meta=RecordMeta(
            game_id=meta.game_id,
            played_at=meta.played_at,
            club=meta.club,
            notes=meta.notes,
            series_id=meta.series_id,
            previous_game_id=meta.previous_game_id,
        ),
        ruleset=ruleset,
    )


def _fairness(options: _Options) -> Fairness | None:
    given = options.fairness
    if given is None:
        return None
    if options.dice is not DiceSource.SEEDED:
        raise MalformedRecord("record: `$.options.fairness` names seed derivations: only for seeded dice")
    fairness = Fairness(
        deal=given.deal,
        dice=given.dice,
        special_roles=msgspec.UNSET if given.special_roles is None else given.special_roles,
    )
    try:
        check_fairness(fairness)
    except UnknownDerivation as e:
        raise MalformedRecord(f"record: `$.options.fairness`: {e}") from None
    return fairness


def _ruleset(wire: _Record, players: int) -> Ruleset:
    """Version 1: the base dice game, and none of version 2's fields. Version 2: ``game_type``
    and ``ruleset`` as given, refused naming why when the rules do not allow them."""
    if wire.version == 1:
        v2_only = [
            path
            for path, value in (
                ("$.game_type", wire.game_type),
                ("$.ruleset", wire.ruleset),
                ("$.options.fairness", wire.options and wire.options.fairness),
            )
            if value is not None
        ]
        if v2_only:
            raise MalformedRecord(
                f"record: `{v2_only[0]}` is a format version 2 field; this record says version 1"
            )
        return BASE_DICE
    if wire.game_type is None:
        raise MalformedRecord("record: `$.game_type` is required in format version 2 (e.g. 'dice')")
    if wire.game_type == "cards":  # its own format: the inputs and the position are a card game's
        raise MalformedRecord(
            "record: `$.game_type` 'cards' is a card game, recorded as format 'bang-cards-record'"
        )
    if wire.ruleset is None:
        raise MalformedRecord('record: `$.ruleset` is required in format version 2 (e.g. {"modules": []})')
    try:
        ruleset = ruleset_of(wire.ruleset.modules, wire.game_type)
        if wire.ruleset.data is not None:
            ruleset = msgspec.structs.replace(ruleset, data=dict(wire.ruleset.data))
        check_ruleset(ruleset, players)
    except RulesetError as e:
        raise MalformedRecord(f"record: `$.ruleset`: {e}") from None
    return ruleset


HEX = re.compile(r"[0-9a-f]+")
ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?")
"""ISO 8601 date or date-time, as the schema's pattern for ``meta.played_at``."""


def _check_options_and_meta(options: _Options, meta: _Meta) -> None:
    commitment = options.seed_commitment
    if commitment is not None and not (len(commitment) == 64 and HEX.fullmatch(commitment)):
        raise MalformedRecord(
            "record: `$.options.seed_commitment` must be a SHA-256 in lowercase hex (64 digits)"
        )
    if options.seed is not None and not HEX.fullmatch(options.seed):
        raise MalformedRecord("record: `$.options.seed` must be lowercase hex")
    if meta.played_at is not None:
        try:
            if not ISO_DATE.fullmatch(meta.played_at):
                raise ValueError(meta.played_at)
            datetime.fromisoformat(meta.played_at)  # the pattern's shape, and a real date
        except ValueError:
            raise MalformedRecord(
                f"record: `$.meta.played_at` {meta.played_at!r} is not an ISO 8601 date or date-time"
            ) from None


def read_position(obj: object) -> Position:
    """A starting position in a record's words (its ``$.position``), read as a record's is: the
    game service takes a new table game's position in these words (``POST /games``), so a
    position a record may hold is exactly what the API takes. Raises ``MalformedRecord`` naming
    the JSON path (``$.position.players[0].life``); its check against the seats is the rules'
    (``new_game``), when the game starts."""
    try:
        wire = msgspec.convert(obj, _Position, strict=True)
    except msgspec.ValidationError as e:
        raise MalformedRecord(at_position(explain(str(e)))) from None
    return _position(wire)


def at_position(message: str) -> str:
    """msgspec's message about a position, its JSON path rooted at ``$.position``."""
    if "`$" in message:
        return message.replace("`$", "`$.position", 1)
    return f"{message} - at `$.position`"


def _given(value: Any) -> Any:
    """A field the record leaves out is UNSET in the engine's position (never written back)."""
    if value is None:
        return msgspec.UNSET
    return tuple(value) if isinstance(value, list) else value


def _position(p: _Position) -> Position:
    return Position(
        players=tuple(
            PlayerPosition(
                player=PlayerId(pp.player),
                life=pp.life,
                arrows=pp.arrows,
                eliminated=_given(pp.eliminated),
                ghost_since=_given(pp.ghost_since),
                ghost_tokens=_given(pp.ghost_tokens),
                zombie=_given(pp.zombie),
                zombie_master=_given(pp.zombie_master),
                wounds=_given(pp.wounds),
                rage=_given(pp.rage),
                special=_given(pp.special),
            )
            for pp in p.players
        ),
        active_player=None if p.active_player is None else PlayerId(p.active_player),
        turn=p.turn,
        dice=None if p.dice is None else tuple(p.dice),
        rolls_used=p.rolls_used,
        chief_holder=None if p.chief_holder is None else PlayerId(p.chief_holder),
        turn_ended=_given(p.turn_ended),
        in_turn=_given(p.in_turn),
        held_losses=_given(p.held_losses),
        sheriff=msgspec.UNSET if p.sheriff is None else PlayerId(p.sheriff),
        special_roles=_given(p.special_roles),
        wound_tokens=_given(p.wound_tokens),
        rage_deck=_given(p.rage_deck),
        boneyard=_given(p.boneyard),
    )


def _input(index: int, raw: str | dict[str, Any]) -> GameCommand:
    try:
        command_text(f"$.inputs[{index}]", raw)
    except InvalidArgument as e:
        raise MalformedRecord(f"input {index}: {e}") from None
    if isinstance(raw, str):
        if " ".join(raw.split()) != raw:
            # the canonical text form, as the schema's pattern says: one space between words
            raise MalformedRecord(f"input {index} ({raw!r}): words must be separated by single spaces")
        try:
            return parse_command(raw)
        except MalformedCommand as e:
            # the engine's message starts with the text itself; say it once, after the index
            message = str(e).removeprefix(f"{raw!r}: ")
            raise MalformedRecord(f"input {index} ({raw!r}): {message}") from None
    kind = raw.get("type")
    cls = _COMMAND_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        if isinstance(kind, str) and kind in EVENT_TYPES:
            hint = f"{kind!r} is an event; a record holds inputs (commands), not events"
        else:
            hint = f"`type` must be one of {', '.join(_COMMAND_TYPES)}, got {kind!r}"
        raise MalformedRecord(f"input {index}: {hint}")
    fields = {f.name for f in msgspec.structs.fields(cls)} | {"type"}
    unknown = sorted(set(raw) - fields)
    if unknown:
        raise MalformedRecord(f"input {index} ({kind}): unknown field(s) {', '.join(unknown)}")
    try:
        command = msgspec.convert(raw, cls, strict=True)
    except msgspec.ValidationError as e:
        where = str(e).replace("`$", f"`$.inputs[{index}]")  # the path within the whole record
        raise MalformedRecord(f"input {index} ({kind}): {where}") from None
    _check_counts(index, command)
    return command  # type: ignore[return-value]


def _check_counts(index: int, command: cmd.Command) -> None:
    """What the text form's grammar guarantees, checked for the object form too."""
    empty = (
        (isinstance(command, cmd.RollDice) and not command.faces)
        or (isinstance(command, cmd.Reroll) and not command.dice)
        or (isinstance(command, cmd.RemoveArrows) and not command.from_players)
    )
    if empty:
        raise MalformedRecord(f"input {index} ({str(command)!r}): names no die, face or player")
    numbers: list[int] = []
    match command:
        case cmd.Reroll(dice=dice):
            numbers = list(dice)
        case cmd.ChooseTarget(die=die) if die is not None:
            numbers = [die]
        case cmd.DoubleShot(shot_die=a, beer_die=b):
            numbers = [a, b]
        case cmd.TakeArrowsInstead(count=n) | cmd.DiscardArrows(count=n):
            numbers = [n]
    if any(n < 0 for n in numbers):
        raise MalformedRecord(f"input {index} ({str(command)!r}): numbers cannot be negative")
