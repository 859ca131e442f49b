"""The one interface between a game engine and everything around it.

The application service, its sessions and deadlines, records, the audit and the edge's
visibility work with a ``GameEngine``; only ``services/game/engines/`` imports an engine
(``rules/dice`` and ``rules/cards``). An engine is pure, so everything here is too:
no I/O, no clock, no randomness (the random inputs a step needs are named by ``RandomNeed``
and supplied by the caller, the server's seed or a scorekeeper's table).

A game is the engine's own object (``PlayedGame``: its events so far, whether it is over); the
engine does everything to it. Events and commands are the engine's msgspec Structs: the
service stores them through the game codec and never looks inside, except for ``player`` on a
command (who it is for) and the neutral words below.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any, Protocol

import msgspec

from services.game.results import GameFinish, GameResult
from services.game.rules.ruleset import Ruleset

Event = msgspec.Struct
"""One of the engine's events (its msgspec Structs, in its tagged union)."""
Command = Any
"""One of the engine's commands: a msgspec Struct with ``player`` and a text form (``str``)."""


class PlayedGame(Protocol):
    """A game as an engine holds it: the events so far, and whether it is over."""

    @property
    def events(self) -> list[Any]: ...

    @property
    def is_over(self) -> bool: ...


class SeatSpec(Protocol):
    """A seat as a scorekeeper or a deal gives it: the seat id, the role and character names."""

    @property
    def player(self) -> str: ...

    @property
    def role(self) -> str: ...

    @property
    def character(self) -> str: ...


class Question(msgspec.Struct, frozen=True, kw_only=True):
    """Who the game awaits and for what, in words every game type shares."""

    player: str
    """The seat id (``p3``)."""
    decision: str
    """The decision's name (``reroll_or_stop``), as ``DecisionTimedOut`` records it."""
    describe: str
    """A referee's words: ``p3 to reroll or stop (dice 0, 1)``."""
    optional: bool
    """Whether the player may decline."""
    random: bool = False
    """Answered by randomness (dice, a draw): the server's online, a scorekeeper's at a table.
    Never times out."""
    table: bool = False
    """Open to the whole table (OS3's role windows): any seat may act, and an answer nobody
    gives is the server's online after the game's uniform pause (``GameOptions``), so how long
    a window stays open says nothing about who could have acted."""
    detail: Mapping[str, Any] = msgspec.field(default_factory=dict)
    """The engine's own JSON view of the question (the dice concerned, a count): what clients
    show; ``awaiting`` in a state."""


class RandomNeed(msgspec.Struct, frozen=True, kw_only=True):
    """The random inputs the next step needs, and who they are for."""

    player: str
    dice: tuple[str, ...] = ()
    """A die of each of these kinds (``base``, ``loudmouth``, ``coward``, ``duel``), in the
    order the engine numbers them."""
    deck: str | None = None
    """A card from this deck (``rage``; the card game's draw pile)."""
    token: str | None = None
    """A token drawn at random (a Ghost token, a special role)."""
    cards: tuple[str, ...] = ()
    """With ``deck``: the cards the draw is among, in the deck's own order (one is drawn)."""
    draw: int = 0
    """With ``deck``: how many cards of that deck the game drew before this one. With
    ``shuffle`` or ``pick``: how many of the game's engine events precede the answer (the card
    game: a public number no two of its random inputs share)."""
    shuffle: tuple[str, ...] = ()
    """The cards to put in a random order (the card game's new deck: all 80 cards, or the
    discard pile at a reshuffle), sorted; the answer is the whole order, top card first."""
    pick: tuple[str, ...] = ()
    """The cards of a hand one of which is taken at random (the card game's Panic!, Cat Balou,
    Jesse Jones, El Gringo), sorted; the answer is the card taken."""

    @property
    def all_base(self) -> bool:
        """Only base dice: the derivations before die kinds existed apply unchanged."""
        return all(kind == "base" for kind in self.dice)


class GameEngine(Protocol):
    """What everything around an engine may ask of it. One instance per ruleset (cached), so
    holding one costs nothing; ``engine_for(ruleset)`` (``registry.py``) gives it."""

    @property
    def ruleset(self) -> Ruleset: ...

    @property
    def refusal(self) -> type[Exception]:
        """The root of the engine's refusals: a setup, a command or an input it will not take
        (always raised before anything changes)."""
        ...

    @property
    def event_types(self) -> Mapping[str, type[Event]]:
        """The engine's events by stored type name."""
        ...

    # -- setup and fold -------------------------------------------------------------------------

    def start(self, seats: Sequence[SeatSpec], position: Any = None) -> PlayedGame:
        """A new game of these seats (clockwise) at its first question; ``position``: the
        engine's own mid-game position, if any. Raises ``refusal`` for a setup the ruleset does
        not allow (a role missing, a character outside its pool)."""
        ...

    def restart(self, opening: Event) -> PlayedGame:
        """The game a stored opening event describes, set up again by the rules (an audit
        compares what they give with what is stored)."""
        ...

    def opens(self, event: object) -> bool:
        """Whether ``event`` is this engine's opening event (``GameStarted``)."""
        ...

    def ends(self, event: object) -> bool:
        """Whether ``event`` is this engine's end of a game (``GameEnded``)."""
        ...

    def owns(self, event: object) -> bool:
        """Whether ``event`` is one of this engine's (as opposed to a lifecycle fact)."""
        ...

    def begin(self, opening: Event) -> PlayedGame:
        """A game folded from its opening event alone (``evolve`` adds the rest)."""
        ...

    def evolve(self, game: PlayedGame, event: Event) -> None:
        """Fold one more event into ``game``."""
        ...

    def replay(self, events: Sequence[Event]) -> PlayedGame:
        """The fold of a whole game's events."""
        ...

    def turn_number(self, game: PlayedGame) -> int:
        """How many turns have started so far (the turn in progress, or the last one once the
        game is over): a scorekeeper's correction may not reach back across a started turn
        (``services/game/application/corrections.py``)."""
        ...

    def input_at(self, game: PlayedGame, events: Sequence[object], index: int) -> Command | None:
        """The command that ``events[index:]`` record as the answer to the question ``game`` asks
        now (at rest), read off the events; None when they record no input there (an output,
        or an answer to nothing asked). The audit's replay plays it and compares what it
        produces with the events."""
        ...

    def entry_text(self, events: Sequence[Event]) -> str | None:
        """The text form of the input that one command's events record (``p2 reroll 0 2``), as a
        scorekeeper entered it; None when they record none (the game's opening)."""
        ...

    # -- deciding -------------------------------------------------------------------------------

    def copy(self, game: PlayedGame) -> PlayedGame:
        """A working copy to decide on, sharing nothing that changes."""
        ...

    def play(self, game: PlayedGame, command: Command, *, implicit_passes: bool = True) -> list[Event]:
        """Check ``command`` and apply it to ``game``; its events. Raises ``refusal`` (and changes
        nothing) for a command the rules refuse. ``implicit_passes``: an input closes, unused,
        any question still open to the table (``Question.table``) before it is played, as a table
        game's next entry does; online (False) only the server closes them, after its pause."""
        ...

    def question(self, game: PlayedGame) -> Question | None:
        """Who is awaited and for what; None once the game is over, and between the events of
        one step (the engine asks nothing until its automatic steps are done)."""
        ...

    def legal_commands(self, game: PlayedGame) -> Collection[Command]:
        """The awaited player's legal options (lazy: ``command in legal`` checks one)."""
        ...

    def timeout_default(self, game: PlayedGame) -> Command | None:
        """The command played for the awaited player when their time is up (None: no default,
        e.g. dice)."""
        ...

    @property
    def table_questions(self) -> bool:
        """Whether this ruleset may ask a question open to the table (``Question.table``)."""
        ...

    def public_text(self, command: Command) -> str:
        """``command``'s text form as anybody may read it (``DecisionTimedOut.applied``, a
        lifecycle fact shown to all): the card game leaves out the card Kit Carlson puts back."""
        ...

    def server_only(self, command: Command) -> str | None:
        """Why, online, only the server may send ``command`` (it supplies randomness, or closes a
        question open to the table), in words for the player who tried; None: players may."""
        ...

    # -- randomness -----------------------------------------------------------------------------

    def random_need(self, game: PlayedGame) -> RandomNeed | None:
        """The random inputs the awaited step needs, or None when it awaits a decision."""
        ...

    def supply(self, game: PlayedGame, need: RandomNeed, values: Sequence[Any]) -> Command:
        """The command that answers ``need`` with ``values`` (one per die, or the card or
        token drawn)."""
        ...

    def random_used(self, event: Event) -> int:
        """How many random values ``event`` consumed (a roll's faces): where an online game's
        stream of randomness stands."""
        ...

    # -- the result and what a viewer sees ------------------------------------------------------

    def finish(self, game: PlayedGame) -> GameFinish | None:
        """The end of the game in neutral words, None while it goes on."""
        ...

    def result(self, game: PlayedGame, game_id: str, members: Mapping[str, str]) -> GameResult | None:
        """The neutral result with who sat where (seat → member id), None while it goes on."""
        ...

    def role_public(self, game: PlayedGame, seat: str) -> bool:
        """Whether the rules have shown ``seat``'s role to everybody (the Sheriff's, an
        eliminated player's, every role at three players or once the game is over)."""
        ...

    def redact_event(
        self, event: Event, hidden: Callable[[str], bool], own: Callable[[str], bool] | None = None
    ) -> dict[str, Any]:
        """``event`` as JSON-ready data, with the role of every seat ``hidden`` says set to
        null, and a face-down card (UA2's Rage, the card game's hands) set to null unless ``own``
        says the viewer may see that seat's own cards (the redaction policy, who may see what, is
        the edge's). The card game also asks ``own("table")``: whether the viewer may see every
        card, the deck's order included (a table game's scorekeeper, anybody once it is over)."""
        ...

    def view(
        self, game: PlayedGame, role_shown: Callable[[str], bool], own: Callable[[str], bool] | None = None
    ) -> dict[str, Any]:
        """The state of the table as JSON-ready data (players, dice, the open question, the
        result), with a seat's role only where ``role_shown`` says and its face-down cards only
        where ``own`` says."""
        ...
