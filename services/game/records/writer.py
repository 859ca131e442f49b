"""Write a game record: the setup and the inputs of a game, recovered from its events.

Events are the whole story (``services/game/rules/dice/events.py``): the dice faces are in
``DiceRolled`` and every decision left its own event, so the inputs can be read back off any
game, finished or not, and replaying them gives the very same events.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

import msgspec

from services.game.records.errors import MalformedRecord
from services.game.records.model import FORMAT, VERSION, GameRecord, RecordMeta, RecordOptions
from services.game.records.replay import replay_record
from services.game.rules.dice import (
    ChooseTarget,
    Decline,
    DiscardArrows,
    DoubleShot,
    Event,
    Game,
    GameCommand,
    GameStarted,
    RemoveArrows,
    Reroll,
    RollDice,
    StopRolling,
    TakeArrowsInstead,
)
from services.game.rules.dice import events as ev
from services.game.rules.dice.commands import (
    ChooseSaloonDie,
    DiscardWound,
    DrawCard,
    GhostGive,
    GiveArrow,
    KeepCard,
    MoveRage,
    PassWindow,
    RerollThrow,
    SeizeChiefArrow,
    SetDie,
    TakeArrow,
    TakeLoss,
    UseRole,
)
from services.game.rules.dice.errors import InvalidSetup
from services.game.rules.dice.old_saloon import characters as os4
from services.game.rules.dice.old_saloon import chief_arrow as os2
from services.game.rules.dice.old_saloon import ghost as os5
from services.game.rules.dice.old_saloon import saloon_dice as os1
from services.game.rules.dice.old_saloon import special_roles as os3
from services.game.rules.dice.positions import position_of
from services.game.rules.dice.undead import characters as ua3
from services.game.rules.dice.undead import duels as ua1
from services.game.rules.dice.undead import rage as ua2
from services.game.rules.dice.undead import zombies as ua4
from services.game.rules.dice.vocabulary import ArrowReason, Face, RollingEnd, SpecialRole
from services.game.rules.ruleset import BASE_DICE, GameType, Ruleset


def inputs_from_events(events: Iterable[Event]) -> list[GameCommand]:
    """The commands that produced these events, in order.

    Each input leaves exactly one event that says what was chosen; every other event is a
    consequence the engine recomputes on replay.
    """
    inputs: list[GameCommand] = []
    for e in events:
        match e:
            case ev.DiceRolled(player=p, faces=faces):
                inputs.append(RollDice(player=p, faces=faces))
            case ev.RerollChosen(player=p, dice=dice):
                inputs.append(Reroll(player=p, dice=dice))
            case ev.DiceFinalized(player=p, reason=RollingEnd.STOPPED):
                inputs.append(StopRolling(player=p))
            case ev.TargetChosen(player=p, target=target, die=die, as_face=as_face):
                inputs.append(ChooseTarget(player=p, target=target, die=die, as_face=as_face))
            case ev.ShotDoubled(player=p, shot_die=shot, beer_die=beer):
                inputs.append(DoubleShot(player=p, shot_die=shot, beer_die=beer))
            case ev.AbilityDeclined(player=p):
                inputs.append(Decline(player=p))
            case ev.ArrowsInsteadChosen(player=p, count=count):
                # Bart Cassidy's "no" is recorded as taking 0 arrows
                inputs.append(Decline(player=p) if count == 0 else TakeArrowsInstead(player=p, count=count))
            case ev.ArrowsReturned(player=p, count=count, reason=ArrowReason.DISCARD_ON_LOSS):
                inputs.append(DiscardArrows(player=p, count=count))
            case ev.ArrowsRemoved(player=p, from_players=players):
                inputs.append(RemoveArrows(player=p, from_players=players))
            case ev.ChiefArrowsInsteadChosen(player=p, count=count):
                inputs.append(TakeArrowsInstead(player=p, count=count, chief=True))
            case os1.SaloonDieChosen(player=p, die=die):
                inputs.append(ChooseSaloonDie(player=p, die=die))
            case os1.BrokenArrowUsed(player=p, target=target) if target is not None:
                inputs.append(ChooseTarget(player=p, target=target))
            case os2.ArrowTokenChosen(player=p, chief=chief):
                inputs.append(TakeArrow(player=p, chief=chief))
            case os3.RolePowerUsed(player=p, role=role, target=target, other=other, die=die, face=face):
                inputs.append(UseRole(player=p, role=role, target=target, other=other, die=die, face=face))
            case os3.RoleUseCancelled(player=p):  # Le Juge's use is recorded as the cancellation
                inputs.append(UseRole(player=p, role=SpecialRole.LE_JUGE))
            case os3.WindowPassed(player=p, implicit=False):  # closed by the next input: none
                inputs.append(PassWindow(player=p))
            case os5.GhostTokenGiven(player=p, target=target, face=face, x2=x2):
                inputs.append(GhostGive(player=p, target=target, face=face, x2=x2))
            case os4.ArrowGiven(player=p, target=target, chief=chief):
                inputs.append(GiveArrow(player=p, target=target, chief=chief))
            case os4.ChiefArrowSeized(player=p):
                inputs.append(SeizeChiefArrow(player=p))
            case os4.LossTakenOver(player=p, target=target):
                inputs.append(TakeLoss(player=p, target=target))
            case os4.PowerDeclined(player=p) | os4.LossLeft(player=p):
                inputs.append(Decline(player=p))
            case ua2.RageDrawn(player=p, card=card):
                inputs.append(DrawCard(player=p, card=card))
            case ua4.BoneyardRevealed(player=p, card=card):
                inputs.append(DrawCard(player=p, card=card))
            case ua2.RageKept(player=p, slot=slot):
                inputs.append(KeepCard(player=p, slot=slot))
            case ua1.WoundDrawn(player=p, card=token):
                inputs.append(DrawCard(player=p, card=token.value))
            case ua1.DuelThrown(player=p, face=face):
                inputs.append(DrawCard(player=p, card=face.value))
            case ua1.DuelThrowRerolled(player=p):
                inputs.append(RerollThrow(player=p))
            case ua1.DuelThrowKept(player=p):
                inputs.append(Decline(player=p))
            case ua1.DuelChallenged(player=p, target=target):
                inputs.append(ChooseTarget(player=p, target=target))
            case ua1.WoundDiscarded(player=p, token=token, chosen=True):
                inputs.append(DiscardWound(player=p, token=token.value))
            case ua3.ShotHealed(player=p, target=target):
                inputs.append(ChooseTarget(player=p, target=target))
            case ua3.ShotHealDeclined(player=p) | ua3.ConvertDeclined(player=p) | ua3.DieNotBought(player=p):
                inputs.append(Decline(player=p))
            case ua3.SecondHealGiven(player=p, target=target):
                inputs.append(ChooseTarget(player=p, target=target))
            case ua3.SecondHealDeclined(player=p):
                inputs.append(Decline(player=p))
            case ua3.DynamiteConverted(player=p, die=die):
                inputs.append(SetDie(player=p, die=die, face=Face.BEER))
            case ua3.DieBought(player=p, die=die, face=face):
                inputs.append(SetDie(player=p, die=die, face=face))
            case ua3.RageMoved(player=p, giver=giver, taker=taker, slot=slot):
                inputs.append(MoveRage(player=p, giver=giver, taker=taker, slot=slot))
            case ua3.RageMoveDeclined(player=p):
                inputs.append(Decline(player=p))
    return inputs


def record_from_events(
    events: Sequence[Event],
    *,
    options: RecordOptions | None = None,
    meta: RecordMeta | None = None,
    ruleset: Ruleset = BASE_DICE,
) -> GameRecord:
    if not events or not isinstance(events[0], GameStarted):
        raise ValueError("a game's events start with GameStarted")
    started = events[0]
    return GameRecord(
        seats=started.seats,
        inputs=tuple(inputs_from_events(events[1:])),
        position=started.position,
        options=options or RecordOptions(),
        meta=meta or RecordMeta(),
        ruleset=ruleset,
    )


def position_record(record: GameRecord, at: int) -> GameRecord:
    """The record ``record`` as a position record from input ``at`` on: its first ``at`` inputs
    played (0: none), the game's state written as its ``position`` (``positions.position_of``),
    the inputs after them as its inputs. Replaying it gives the same continuation. A table
    record: the seeded dice, seed and meta of the original are not carried over (its seats
    are). Raises ``MalformedRecord`` when ``at`` is out of range or the game is over by then,
    ``IllegalInput`` when an input before ``at`` is refused."""
    if record.ruleset.game_type is not GameType.DICE:
        raise MalformedRecord("record: only a dice game's record can be written as a position record")
    if not 0 <= at <= len(record.inputs):
        raise MalformedRecord(
            f"record: it has {len(record.inputs)} inputs: a position is from input 0 to {len(record.inputs)}"
        )
    game = replay_record(msgspec.structs.replace(record, inputs=record.inputs[:at]))
    try:
        position = position_of(game.state, record.seats)
    except InvalidSetup as e:
        raise MalformedRecord(f"input {at}: {e}") from None
    return GameRecord(
        seats=record.seats, inputs=record.inputs[at:], position=position, ruleset=record.ruleset
    )


def write_record(
    source: Game | Sequence[Event] | GameRecord,
    *,
    options: RecordOptions | None = None,
    meta: RecordMeta | None = None,
    structured: bool = False,
) -> str:
    """The record as JSON text: one seat and one input per line, so a diff shows moves.

    ``source`` is a live or replayed game, its events, or a record. Inputs are written in
    their text form (``"p1 reroll 0 2"``) unless ``structured``, which writes command objects.
    """
    if isinstance(source, GameRecord):
        record = source
        if options is not None or meta is not None:
            record = msgspec.structs.replace(
                record, options=options or record.options, meta=meta or record.meta
            )
    else:
        events = source.events if isinstance(source, Game) else source
        played = source.state.rules.ruleset if isinstance(source, Game) else BASE_DICE
        record = record_from_events(events, options=options, meta=meta, ruleset=played)
    return _dump(record_to_object(record, structured=structured))


def record_to_object(record: GameRecord, *, structured: bool = False) -> dict[str, Any]:
    """The record as plain JSON data (what ``read_record`` accepts back)."""
    obj: dict[str, Any] = {"format": FORMAT, "version": VERSION, "game_type": record.ruleset.game_type.value}
    obj["ruleset"] = {"modules": list(record.ruleset.modules), "data": dict(record.ruleset.data)}
    meta = msgspec.to_builtins(record.meta)
    if meta:
        obj["meta"] = meta
    options = msgspec.to_builtins(record.options)
    if options:
        obj["options"] = options
    obj["seats"] = msgspec.to_builtins(record.seats)
    if record.position is not None:
        obj["position"] = _position(record.position)
    if structured:
        obj["inputs"] = [_command_object(c) for c in record.inputs]
    else:
        obj["inputs"] = [str(c) for c in record.inputs]
    return obj


def _position(position: Any) -> dict[str, Any]:
    out = {k: v for k, v in msgspec.to_builtins(position).items() if v is not None}
    if position.dice is None and position.rolls_used == 1:
        out.pop("rolls_used")  # only meaningful with dice; the default need not be written
    return out


def _command_object(command: GameCommand) -> dict[str, Any]:
    obj: dict[str, Any] = msgspec.to_builtins(command)
    return {k: v for k, v in obj.items() if v is not None}


def _dump(obj: dict[str, Any]) -> str:
    compact = {"separators": (", ", ": "), "ensure_ascii": False}
    lines = ["{"]
    keys = list(obj)
    for n, key in enumerate(keys):
        comma = "," if n < len(keys) - 1 else ""
        value = obj[key]
        if key in ("seats", "inputs") and value:
            lines.append(f"  {json.dumps(key)}: [")
            items = [f"    {json.dumps(item, **compact)}" for item in value]  # type: ignore[arg-type]
            lines.append(",\n".join(items))
            lines.append(f"  ]{comma}")
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(value, **compact)}{comma}")  # type: ignore[arg-type]
    lines.append("}")
    return "\n".join(lines) + "\n"
