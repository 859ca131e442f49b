"""Commands: what a player (or the dice) asks the engine to do, in the imperative.

Each command has a compact text form used in logs, errors and game records, e.g.
``p1 roll arrow beer shoot1 gatling dynamite``, ``p1 reroll 0 2``, ``p1 target 3 p4``.
``Command.parse(text)`` reads it back; ``str(command)`` prints it.
"""

from __future__ import annotations

import msgspec

from services.game.rules.dice.errors import MalformedCommand
from services.game.rules.dice.vocabulary import DieIndex, Face, PlayerId, SpecialRole


class Command(msgspec.Struct, frozen=True, tag_field="type", tag=True, kw_only=True):
    player: PlayerId

    def __str__(self) -> str:
        return self.text()

    def text(self) -> str:
        raise TypeError(f"{type(self).__name__} has no text form")  # every subclass defines one

    @staticmethod
    def parse(text: str) -> GameCommand:
        return parse_command(text)


class RollDice(Command, frozen=True, kw_only=True):
    """The faces of the dice the engine asked to roll (the server's generator or the table)."""

    faces: tuple[Face, ...]

    def text(self) -> str:
        return f"{self.player} roll {' '.join(self.faces)}"


class Reroll(Command, frozen=True, kw_only=True):
    dice: tuple[DieIndex, ...]

    def text(self) -> str:
        return f"{self.player} reroll {' '.join(map(str, self.dice))}"


class StopRolling(Command, frozen=True, kw_only=True):
    def text(self) -> str:
        return f"{self.player} stop"


class ChooseTarget(Command, frozen=True, kw_only=True):
    """Aim a die at a player; ``die`` None for an ability's target (Sid Ketchum's heal).
    ``as_face`` lets Calamity Janet use a shoot1 as a shoot2 and vice versa."""

    target: PlayerId
    die: DieIndex | None = None
    as_face: Face | None = None

    def text(self) -> str:
        die = "" if self.die is None else f" {self.die}"
        face = "" if self.as_face is None else f" as {self.as_face}"
        return f"{self.player} target{die} {self.target}{face}"


class DoubleShot(Command, frozen=True, kw_only=True):
    """Slab the Killer spends a beer die to double a shoot die."""

    shot_die: DieIndex
    beer_die: DieIndex

    def text(self) -> str:
        return f"{self.player} double {self.shot_die} {self.beer_die}"


class TakeArrowsInstead(Command, frozen=True, kw_only=True, omit_defaults=True):
    """Bart Cassidy takes arrows instead of losing that much life; ``chief``: the first of them
    is the Chief's Arrow (OS2)."""

    count: int
    chief: bool = False

    def text(self) -> str:
        return f"{self.player} arrows-instead {self.count}{' chief' if self.chief else ''}"


class DiscardArrows(Command, frozen=True, kw_only=True):
    """Pedro Ramirez returns arrows, one per life just lost."""

    count: int

    def text(self) -> str:
        return f"{self.player} discard {self.count}"


class RemoveArrows(Command, frozen=True, kw_only=True):
    """Kit Carlson makes players return one arrow per gatling face (a player may be named twice)."""

    from_players: tuple[PlayerId, ...]

    def text(self) -> str:
        return f"{self.player} remove {' '.join(self.from_players)}"


class ChooseSaloonDie(Command, frozen=True, kw_only=True):
    """OS1: roll the ``loudmouth`` or the ``coward`` die this turn instead of a base die, or
    neither (None)."""

    die: str | None = None

    def text(self) -> str:
        return f"{self.player} saloon {self.die or 'none'}"


class TakeArrow(Command, frozen=True, kw_only=True):
    """OS2: which token to take from the pile: the Chief's Arrow (``chief``) or a regular one."""

    chief: bool

    def text(self) -> str:
        return f"{self.player} arrow {'chief' if self.chief else 'regular'}"


class GhostGive(Command, frozen=True, kw_only=True):
    """OS5: the Ghost gives the Ghost token ``face`` (and the x2 token) to ``target``."""

    face: Face
    target: PlayerId
    x2: bool = False

    def text(self) -> str:
        return f"{self.player} ghost-give {self.face} {self.target}{' x2' if self.x2 else ''}"


class UseRole(Command, frozen=True, kw_only=True):
    """Reveal one's special role to use its power at the open window. ``target``/``other``:
    Le Vilain's two players; ``target``: whose gain Le Mauvais cancels, whom Main Gauche saves;
    ``die``/``face``: Le Doc's die and its new face. The others take nothing."""

    role: SpecialRole
    target: PlayerId | None = None
    other: PlayerId | None = None
    die: DieIndex | None = None
    face: Face | None = None

    def text(self) -> str:
        words = [self.player, "use", self.role.value]
        if self.die is not None:
            words.append(str(self.die))
        if self.face is not None:
            words.append(self.face.value)
        words += [p for p in (self.target, self.other) if p is not None]
        return " ".join(words)


class PassWindow(Command, frozen=True, kw_only=True):
    """Close the open role window unused (the server, the scorekeeper or the simulation)."""

    def text(self) -> str:
        return f"{self.player} pass"


class GiveArrow(Command, frozen=True, kw_only=True, omit_defaults=True):
    """OS4, Elena Fuente: one token of this roll's arrows goes to ``target`` instead of her;
    ``chief``: the Chief's Arrow (OS2)."""

    target: PlayerId
    chief: bool = False

    def text(self) -> str:
        return f"{self.player} give-arrow {self.target}{' chief' if self.chief else ''}"


class SeizeChiefArrow(Command, frozen=True, kw_only=True):
    """OS4, Apache Kid: for this arrow face, take the Chief's Arrow from its holder instead of a
    token from the pile."""

    def text(self) -> str:
        return f"{self.player} seize-chief"


class TakeLoss(Command, frozen=True, kw_only=True):
    """OS4, Molly Stark: lose the life ``target`` must lose in this step, in his place."""

    target: PlayerId

    def text(self) -> str:
        return f"{self.player} take-loss {self.target}"


class DrawCard(Command, frozen=True, kw_only=True):
    """A card or token drawn at random for ``player`` (UA2's Rage cards): the server's draw
    online, the scorekeeper's entry at a table; the engine checks it is there to be drawn."""

    card: str

    def text(self) -> str:
        return f"{self.player} draw {self.card}"


class DiscardWound(Command, frozen=True, kw_only=True):
    """UA1: after a whiskey, put this wound token (its symbol) back into the pile."""

    token: str

    def text(self) -> str:
        return f"{self.player} discard-wound {self.token}"


class SetDie(Command, frozen=True, kw_only=True):
    """UA3: turn one of the active player's dice to ``face`` (Belle Star: a ``dynamite`` to
    ``beer``)."""

    die: DieIndex
    face: Face

    def text(self) -> str:
        return f"{self.player} set {self.die} {self.face}"


class MoveRage(Command, frozen=True, kw_only=True):
    """UA3, Pat Brennan: move the face-down Rage card ``slot`` (0 = the first ``giver`` drew)
    from ``giver`` to ``taker``."""

    giver: PlayerId
    taker: PlayerId
    slot: int = 0

    def text(self) -> str:
        return f"{self.player} move-rage {self.giver} {self.taker} {self.slot}"


class KeepCard(Command, frozen=True, kw_only=True):
    """UA3, Pixie Pete: of the two Rage cards he just drew, keep card ``slot`` (0 the first
    drawn, 1 the second); the other is shuffled back. By its place, never its id: the text of
    an answer (a timeout's recorded default included) names no face-down card."""

    slot: int

    def text(self) -> str:
        return f"{self.player} keep {self.slot}"


class RerollThrow(Command, frozen=True, kw_only=True):
    """UA3, Sean Mallory: throw his roll-off throw of a duel again; the new result stands."""

    def text(self) -> str:
        return f"{self.player} reroll-throw"


class Decline(Command, frozen=True, kw_only=True):
    """Answer "no" to the optional decision awaited."""

    def text(self) -> str:
        return f"{self.player} decline"


GameCommand = (
    RollDice
    | Reroll
    | StopRolling
    | ChooseTarget
    | DoubleShot
    | TakeArrowsInstead
    | DiscardArrows
    | RemoveArrows
    | ChooseSaloonDie
    | TakeArrow
    | GhostGive
    | UseRole
    | PassWindow
    | GiveArrow
    | SeizeChiefArrow
    | TakeLoss
    | DrawCard
    | DiscardWound
    | SetDie
    | MoveRage
    | KeepCard
    | RerollThrow
    | Decline
)


def _int(word: str, text: str) -> int:
    if not word.isdigit():
        raise MalformedCommand(f"{text!r}: expected a number, got {word!r}")
    return int(word)


def _face(word: str, text: str) -> Face:
    try:
        return Face(word)
    except ValueError:
        faces = ", ".join(f.value for f in Face)
        raise MalformedCommand(f"{text!r}: {word!r} is not a die face ({faces})") from None


def _parse_role_command(text: str) -> UseRole | PassWindow | None:
    """OS3's commands in their text form (``p3 use le_doc 2 beer``, ``p1 pass``); None when
    ``text`` is not one of them."""
    words = text.split()
    if len(words) == 2 and words[1] == "pass":
        return PassWindow(player=PlayerId(words[0]))
    if len(words) < 3 or words[1] != "use":
        return None
    try:
        role = SpecialRole(words[2])
    except ValueError:
        cards = ", ".join(r.value for r in SpecialRole)
        raise MalformedCommand(f"{text!r}: {words[2]!r} is not a special role ({cards})") from None
    args = words[3:]
    if args and args[0].isdigit():
        if len(args) != 2:
            raise MalformedCommand(f"{text!r}: Le Doc names a die and a face")
        try:
            face = Face(args[1])
        except ValueError:
            raise MalformedCommand(f"{text!r}: {args[1]!r} is not a die face") from None
        return UseRole(player=PlayerId(words[0]), role=role, die=int(args[0]), face=face)
    if len(args) > 2:
        raise MalformedCommand(f"{text!r}: a power names at most two players")
    players = [PlayerId(w) for w in args] + [None, None]
    return UseRole(player=PlayerId(words[0]), role=role, target=players[0], other=players[1])


def parse_command(text: str) -> GameCommand:
    """Read a command's text form (the inverse of ``str(command)``)."""
    words = text.split()
    if len(words) < 2:
        raise MalformedCommand(f"{text!r}: expected '<player> <verb> …'")
    player, verb, args = PlayerId(words[0]), words[1], words[2:]
    if verb in ("use", "pass"):
        role_command = _parse_role_command(text)
        if role_command is not None:
            return role_command
    match verb:
        case "roll" if args:
            return RollDice(player=player, faces=tuple(_face(w, text) for w in args))
        case "reroll" if args:
            return Reroll(player=player, dice=tuple(_int(w, text) for w in args))
        case "stop" if not args:
            return StopRolling(player=player)
        case "target" if args:
            as_face = None
            if len(args) >= 2 and args[-2] == "as":
                as_face = _face(args[-1], text)
                args = args[:-2]
            if len(args) == 1:
                return ChooseTarget(player=player, target=PlayerId(args[0]), as_face=as_face)
            if len(args) == 2:
                die = _int(args[0], text)
                return ChooseTarget(player=player, die=die, target=PlayerId(args[1]), as_face=as_face)
        case "double" if len(args) == 2:
            return DoubleShot(player=player, shot_die=_int(args[0], text), beer_die=_int(args[1], text))
        case "arrows-instead" if len(args) == 1:
            return TakeArrowsInstead(player=player, count=_int(args[0], text))
        case "arrows-instead" if len(args) == 2 and args[1] == "chief":
            return TakeArrowsInstead(player=player, count=_int(args[0], text), chief=True)
        case "discard" if len(args) == 1:
            return DiscardArrows(player=player, count=_int(args[0], text))
        case "remove" if args:
            return RemoveArrows(player=player, from_players=tuple(PlayerId(w) for w in args))
        case "decline" if not args:
            return Decline(player=player)
        case "move-rage" if len(args) == 3:
            return MoveRage(
                player=player, giver=PlayerId(args[0]), taker=PlayerId(args[1]), slot=_int(args[2], text)
            )
        case "set" if len(args) == 2:
            return SetDie(player=player, die=_int(args[0], text), face=_face(args[1], text))
        case "saloon" if len(args) == 1:
            return ChooseSaloonDie(player=player, die=None if args[0] == "none" else args[0])
        case "arrow" if len(args) == 1 and args[0] in ("chief", "regular"):
            return TakeArrow(player=player, chief=args[0] == "chief")
        case "ghost-give" if len(args) == 2 or (len(args) == 3 and args[2] == "x2"):
            face = _face(args[0], text)
            return GhostGive(player=player, face=face, target=PlayerId(args[1]), x2=len(args) == 3)
        case "give-arrow" if len(args) == 1 or (len(args) == 2 and args[1] == "chief"):
            return GiveArrow(player=player, target=PlayerId(args[0]), chief=len(args) == 2)
        case "seize-chief" if not args:
            return SeizeChiefArrow(player=player)
        case "take-loss" if len(args) == 1:
            return TakeLoss(player=player, target=PlayerId(args[0]))
        case "draw" if len(args) == 1:
            return DrawCard(player=player, card=args[0])
        case "discard-wound" if len(args) == 1:
            return DiscardWound(player=player, token=args[0])
        case "keep" if len(args) == 1:
            return KeepCard(player=player, slot=_int(args[0], text))
        case "reroll-throw" if not args:
            return RerollThrow(player=player)
    raise MalformedCommand(
        f"{text!r}: unknown or incomplete command; expected one of roll, reroll, stop, target, "
        "double, arrows-instead, discard, remove, decline, saloon, arrow, ghost-give, use, pass, "
        "give-arrow, seize-chief, take-loss, draw, discard-wound, set, move-rage, keep, reroll-throw"
    )
