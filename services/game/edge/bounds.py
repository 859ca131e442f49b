"""The bounds of everything that comes in: REST bodies and parameters, GraphQL arguments, records.

A value the edge lets through is stored for good in an event, and every consumer folds it again
after every restart. A round of 99999999999999999999 overflowed a projection's ``integer``
column, a NUL in a league id cannot be stored in PostgreSQL ``text``, and a time limit of
300000000000 s overflowed a date: each was answered 201 and then stopped the consumers. So every
field is bounded here, once, and refused with a 400 that names the field and the rule:

- **numbers** fit PostgreSQL's ``integer`` and what they count (a version, a round, a table,
  seconds of a time limit);
- **ids** are 1-100 letters, digits and ``_ . : @ -`` (a game id as the store's stream ids:
  no ``@``);
- **names and free text** have a length limit and no control characters: C0 (NUL, ESC which
  starts ANSI escapes, newlines in a one-line name), DEL, C1, the line and paragraph separators,
  the bidi embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069: they make a name
  display as something else), and lone surrogates (not text; not encodable as UTF-8).

The rules' own limits (3 to 8 players, which dice exist) stay with the rules and the services,
which answer 422 naming the rule: a bound here is what no valid request ever exceeds.

Events keep their plain types (``services/game/application/lifecycle.py``): the store must decode every event
it ever stored, and bounds only decide what is let in from now on.

A command is its text or its object, and msgspec 0.22 corrupts memory (a double free when
the type is collected) for a union of a ``pattern``-constrained ``str`` with a list or a dict:
so such a field is typed ``str | dict[str, Any]`` and its text checked with ``bounded`` (see
``command_text``).

Patterns end in ``$(?!\\n)``: msgspec matches with ``re.search``, where ``$`` also matches before a
final newline, and the lookahead refuses it (``\\Z`` would say the same in Python but not in the
ECMA dialect the OpenAPI document is read in).
"""

from __future__ import annotations

import re
from typing import Annotated, Any, TypeVar

import msgspec

T = TypeVar("T")

MAX_INT4 = 2**31 - 1
"""PostgreSQL's ``integer`` (and GraphQL's ``Int``)."""

MAX_ID_LENGTH = 100
MAX_NAME_LENGTH = 100
MAX_COMMAND_ID_LENGTH = 200
MAX_TOKEN_LENGTH = 200
MAX_COMMAND_TEXT_LENGTH = 200
MAX_NOTES_LENGTH = 4_000
MAX_LIST_LENGTH = 100
"""Members or seats of one game: the rules allow 8; more is never a game."""
MAX_ROUNDS = 1_000
MAX_TABLES = 1_000
MAX_DECISION_TIMEOUT_SECONDS = 30 * 24 * 3600
"""A correspondence game's 30 days; the deadline is a date, and dates end."""
MAX_PAGE = 1_000
"""The most events one page asks for (``limit``; the gateway's ``EVENTS_PAGE_LIMIT``)."""
MAX_LEADERBOARD_PAGE = 500
"""A leaderboard page (it used to be clamped silently to this; now more is refused)."""
MAX_OFFSET = 1_000_000
MAX_TURN = 100_000
MAX_COUNT = 1_000
"""Life points, arrows, dice: the rules allow a handful; they say which (422)."""
MAX_RECORD_INPUTS = 100_000
"""Inputs of one record: a long game has a few thousand."""
MAX_HEX_LENGTH = 256
MAX_DATE_LENGTH = 40

_CONTROLS = r"\x00-\x1f\x7f-\x9f\u2028-\u202e\u2066-\u2069\ud800-\udfff"
"""C0 (NUL, ESC, newlines), DEL, C1, line/paragraph separators, bidi embeddings, overrides and
isolates, surrogates."""
_TEXT_CONTROLS = r"\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028-\u202e\u2066-\u2069\ud800-\udfff"
"""As ``_CONTROLS``, but tab and newlines are allowed in free text over several lines."""

ID_PATTERN = r"^[A-Za-z0-9_.:@-]+$(?!\n)"
GAME_ID_PATTERN = r"^[A-Za-z0-9_.:-]+$(?!\n)"
NAME_PATTERN = rf"^[^{_CONTROLS}]*$(?!\n)"
TEXT_PATTERN = rf"^[^{_TEXT_CONTROLS}]*$(?!\n)"

RULES: dict[str, str] = {
    ID_PATTERN: "letters, digits and _ . : @ - only",
    GAME_ID_PATTERN: "letters, digits and _ . : - only",
    NAME_PATTERN: "no control characters (NUL, ESC, newlines, C1, bidi overrides or isolates)",
    TEXT_PATTERN: "no control characters other than tab and newline (NUL, ESC, C1, bidi overrides)",
}
"""Each pattern's rule in words, for the 400 (a regular expression is not an explanation)."""

Identifier = Annotated[
    str,
    msgspec.Meta(min_length=1, max_length=MAX_ID_LENGTH, pattern=ID_PATTERN, description=RULES[ID_PATTERN]),
]
"""A member, league, season or tournament id."""
GameId = Annotated[
    str,
    msgspec.Meta(
        min_length=1, max_length=MAX_ID_LENGTH, pattern=GAME_ID_PATTERN, description=RULES[GAME_ID_PATTERN]
    ),
]
Name = Annotated[
    str,
    msgspec.Meta(
        min_length=1, max_length=MAX_NAME_LENGTH, pattern=NAME_PATTERN, description=RULES[NAME_PATTERN]
    ),
]
"""A person's or a club's display name."""
CommandId = Annotated[
    str,
    msgspec.Meta(
        min_length=1,
        max_length=MAX_COMMAND_ID_LENGTH,
        pattern=NAME_PATTERN,
        description="The caller's id of this request; a retry sends the same. " + RULES[NAME_PATTERN],
    ),
]
CommandText = Annotated[
    str, msgspec.Meta(min_length=1, max_length=MAX_COMMAND_TEXT_LENGTH, pattern=NAME_PATTERN)
]
"""A command's text form (``p1 reroll 0 2``)."""
Token = Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_TOKEN_LENGTH, pattern=NAME_PATTERN)]
Notes = Annotated[str, msgspec.Meta(max_length=MAX_NOTES_LENGTH, pattern=TEXT_PATTERN)]

Version = Annotated[int, msgspec.Meta(ge=1, le=MAX_INT4)]
"""A game's version: event 1 is GameCreated."""
PlayerCount = Annotated[int, msgspec.Meta(ge=1, le=MAX_LIST_LENGTH)]
Round = Annotated[int, msgspec.Meta(ge=1, le=MAX_ROUNDS)]
Table = Annotated[int, msgspec.Meta(ge=1, le=MAX_TABLES)]
DecisionTimeout = Annotated[int, msgspec.Meta(ge=1, le=MAX_DECISION_TIMEOUT_SECONDS)]
RoleWindow = Annotated[int, msgspec.Meta(ge=1, le=60)]
"""Seconds an online role window (OS3) stays open: long enough to decide, short enough to play."""
PageLimit = Annotated[int, msgspec.Meta(ge=1, le=MAX_PAGE)]
PageOffset = Annotated[int, msgspec.Meta(ge=0, le=MAX_OFFSET)]
LeaderboardLimit = Annotated[int, msgspec.Meta(ge=1, le=MAX_LEADERBOARD_PAGE)]
TablePlayers = Annotated[int, msgspec.Meta(ge=3, le=8)]
"""A table size, as the ratings' offsets are kept per size."""
Turn = Annotated[int, msgspec.Meta(ge=1, le=MAX_TURN)]
Count = Annotated[int, msgspec.Meta(ge=0, le=MAX_COUNT)]
SeatList = Annotated[list[T], msgspec.Meta(max_length=MAX_LIST_LENGTH)]
"""Seats, members, a position's players: one per seat."""
InputList = Annotated[list[T], msgspec.Meta(max_length=MAX_RECORD_INPUTS)]
MAX_COMMAND_FIELDS = 10
"""A command object's fields (the largest command has four); their values are checked against
the command's own type when it is read."""
MAX_COMMAND_ITEMS = 80
"""A list in a command object: the card game's longest is a whole deck's order (80 cards)."""
MAX_COMMAND_WORD = MAX_ID_LENGTH
"""A text field in a command object: a seat, a card kind, a die kind, as long as an id may be."""
Hex = Annotated[str, msgspec.Meta(max_length=MAX_HEX_LENGTH)]
"""A seed or a commitment: its digits are checked where it is read."""
Date = Annotated[str, msgspec.Meta(max_length=MAX_DATE_LENGTH)]
"""An ISO 8601 date or date-time: its shape is checked where it is read."""


def command_text(argument: str, command: str | dict[str, Any]) -> None:
    """Refuse a command's text or object outside its bounds (its type is not constrained: see
    the module's docstring)."""
    if isinstance(command, str):
        bounded(argument, command, CommandText)
    elif len(command) > MAX_COMMAND_FIELDS:
        raise InvalidArgument(argument, f"a command object has at most {MAX_COMMAND_FIELDS} fields")
    else:
        # the object's fields are typed by the command (msgspec), not bounded: a list or a text
        # of any length would reach the rules and be repeated in their refusal
        for name, value in command.items():
            if isinstance(value, list) and len(value) > MAX_COMMAND_ITEMS:
                raise InvalidArgument(
                    f"{argument}.{name}", f"a command's list has at most {MAX_COMMAND_ITEMS} items"
                )
            if isinstance(value, str) and len(value) > MAX_COMMAND_WORD:
                raise InvalidArgument(
                    f"{argument}.{name}", f"a command's text field has at most {MAX_COMMAND_WORD} characters"
                )


class InvalidArgument(ValueError):
    """A GraphQL argument (or any other single value) outside its bounds; the REST bodies are
    refused by litestar's own validation of the same types."""

    def __init__(self, argument: str, rule: str) -> None:
        super().__init__(f"`{argument}`: {rule}")
        self.argument = argument
        self.rule = rule
        self.extensions = {"code": "BAD_USER_INPUT", "field": argument, "rule": rule}
        """Shown in a GraphQL error's ``extensions`` (graphql-core copies them)."""


def bounded(argument: str, value: T, kind: Any) -> T:
    """``value`` if it is within ``kind``'s bounds, else ``InvalidArgument`` naming ``argument``
    and the rule. ``None`` passes: an optional argument left out is not out of bounds."""
    if value is None:
        return value
    try:
        checked: T = msgspec.convert(value, kind, strict=True)
    except msgspec.ValidationError as error:
        raise InvalidArgument(argument, explain(str(error))) from None
    return checked


_REGEX = re.compile(r"matching regex '(.*)'", re.DOTALL)


def explain(message: str) -> str:
    """msgspec's message with a pattern replaced by its rule in words."""

    def words(match: re.Match[str]) -> str:
        pattern = match.group(1).encode().decode("unicode_escape")
        rule = RULES.get(pattern) or RULES.get(match.group(1))
        return match.group(0) if rule is None else f"with {rule}"

    return _REGEX.sub(words, message)
