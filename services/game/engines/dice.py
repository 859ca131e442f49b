"""The dice engine (``services/game/rules/dice``) behind the ``GameEngine`` interface.

One ``DiceEngine`` per ruleset (``registry.engine_for`` caches them), holding that ruleset's
``Rules`` table: every game it starts, folds or replays is played with the ruleset's modules,
never the base game by default. A game is the engine's ``Game`` (state and events).

The methods are thin on purpose: the service calls them per command and the sessions per
event, so each does what the engine's own call does and nothing more.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import msgspec

from event_store import PayloadDecodeError
from services.game.engines.interface import Question, RandomNeed, SeatSpec
from services.game.results import (
    ZOMBIE_WINNERS,
    Elimination,
    FinishKind,
    GameFinish,
    GameResult,
    SeatOutcome,
    Side,
)
from services.game.results import Role as BaseRole
from services.game.rules.dice import (
    EVENT_TYPES,
    Awaiting,
    CharacterId,
    Decision,
    Game,
    GameCommand,
    GameEnded,
    GameStarted,
    InvalidSetup,
    LegalCommands,
    PlayerResult,
    Position,
    Role,
    RollDice,
    RuleError,
    Seat,
    initial_state,
    timeout_command,
)
from services.game.rules.dice.commands import DrawCard, PassWindow
from services.game.rules.dice.decisions import Who
from services.game.rules.dice.events import DiceRolled, Event
from services.game.rules.dice.evolve import evolve, fold
from services.game.rules.dice.flow import next_move
from services.game.rules.dice.kinds import BASE_HAND
from services.game.rules.dice.modules import Rules, rules_of
from services.game.rules.dice.state import GameState, PlayerState
from services.game.rules.dice.undead.draws import Draw, draw_need
from services.game.rules.dice.undead.rage import HIDDEN_FIELDS, PIXIE_PETE, hidden_card, pixie_pair
from services.game.rules.dice.vocabulary import SpecialRole
from services.game.rules.ruleset import CHARACTER_NEEDS, MODULES, Ruleset


class DiceEngine:
    """BANG! The Dice Game with the modules of one ruleset."""

    __slots__ = ("_pool", "rules", "ruleset")

    refusal: type[Exception] = RuleError
    event_types: Mapping[str, type[Event]] = EVENT_TYPES

    def __init__(self, ruleset: Ruleset, rules: Rules | None = None) -> None:
        """``rules``: the table to play (``rules_of(ruleset)`` unless given, e.g. a test's own
        ``assemble``d modules)."""
        self.ruleset = ruleset
        self.rules = rules_of(ruleset) if rules is None else rules
        excluded = set(ruleset.excluded_characters())
        self._pool = frozenset(c for c in self.rules.characters if c.value not in excluded)

    def __repr__(self) -> str:
        return f"<DiceEngine {self.ruleset.text}>"

    # -- setup and fold -------------------------------------------------------------------------

    def start(self, seats: Sequence[SeatSpec], position: Any = None) -> Game:
        engine_seats = [self._seat(s) for s in seats]
        self._check_pool(engine_seats)
        return Game.start(engine_seats, position, self.rules)

    def restart(self, opening: Event) -> Game:
        assert isinstance(opening, GameStarted)
        return self.start(opening.seats, opening.position)

    def opens(self, event: object) -> bool:
        return type(event) is GameStarted

    def ends(self, event: object) -> bool:
        return type(event) is GameEnded

    def owns(self, event: object) -> bool:
        return isinstance(event, Event)

    def begin(self, opening: Event) -> Game:
        assert isinstance(opening, GameStarted)
        return Game(initial_state(opening, self.rules), [opening])

    def evolve(self, game: Game, event: Event) -> None:
        evolve(game.state, event)
        game.events.append(event)

    def replay(self, events: Sequence[Event]) -> Game:
        events = list(events)
        return Game(fold(events, self.rules), events)

    def turn_number(self, game: Game) -> int:
        state = game.state
        return state.turn.number if state.turn is not None else state.last_turn_number

    def input_at(self, game: Game, events: Sequence[object], index: int) -> GameCommand | None:
        # a dice input is one event of its own (a roll, a decision): the records read it so. A
        # role window closed by the next input (OS3, implicit) is that input's first event: the
        # input is the first one stored after it (what lies between, its consequences)
        from services.game.records.writer import inputs_from_events
        from services.game.rules.dice.old_saloon.special_roles import WindowPassed

        lapsed = events[index]
        ahead = (
            events[index:]
            if isinstance(lapsed, WindowPassed) and lapsed.implicit
            else events[index : index + 1]
        )
        for event in ahead:
            commands = inputs_from_events([event])  # type: ignore[list-item]
            if commands:
                return commands[0]
        return None

    def entry_text(self, events: Sequence[Event]) -> str | None:
        # the records' own reading of inputs off events (imported here: records import the engines)
        from services.game.records.writer import inputs_from_events

        inputs = inputs_from_events(events)
        return "; ".join(str(c) for c in inputs) if inputs else None

    # -- deciding -------------------------------------------------------------------------------

    def copy(self, game: Game) -> Game:
        return Game(game.state.clone(), list(game.events))

    def play(self, game: Game, command: GameCommand, *, implicit_passes: bool = True) -> list[Event]:
        return game.play(command, implicit_passes=implicit_passes)

    def question(self, game: Game) -> Question | None:
        awaited = _awaited(game)
        if awaited is None:
            return None
        return Question(
            player=awaited.player,
            decision=awaited.decision.value,
            describe=awaited.describe(),
            optional=awaited.optional,
            random=awaited.decision is Decision.ROLL or _draws(game, awaited) is not None,
            table=game.state.rules.decisions[awaited.decision].who is Who.TABLE,
            detail=awaiting_detail(awaited),
        )

    def legal_commands(self, game: Game) -> LegalCommands:
        return game.legal_commands()

    def timeout_default(self, game: Game) -> GameCommand | None:
        awaited = game.awaiting
        return None if awaited is None else timeout_command(game.state, awaited)

    @property
    def table_questions(self) -> bool:
        return any(spec.who is Who.TABLE for spec in self.rules.decisions.values())

    def public_text(self, command: GameCommand) -> str:
        return str(command)  # a dice decision shows nothing hidden

    def server_only(self, command: GameCommand) -> str | None:
        if isinstance(command, RollDice):
            return "the server rolls the dice in online games"
        if isinstance(command, DrawCard):
            return "the server draws the cards in online games"
        if isinstance(command, PassWindow):
            return (
                "in an online game the server closes a role window after its pause; "
                "a player only uses his role there"
            )
        return None

    # -- randomness -----------------------------------------------------------------------------

    def random_need(self, game: Game) -> RandomNeed | None:
        awaited = game.awaiting
        if awaited is None:
            return None
        if awaited.decision is not Decision.ROLL:
            draw = _draws(game, awaited)  # a card drawn at random (UA2's Rage cards)
            if draw is None:
                return None
            return RandomNeed(player=awaited.player, deck=draw.deck, cards=draw.cards, draw=draw.number)
        turn = game.state.turn
        kinds = turn.kinds if turn is not None else BASE_HAND
        if kinds is BASE_HAND:  # the base game's every roll: no per-die lookup
            return RandomNeed(player=awaited.player, dice=_BASE_DICE[len(awaited.dice)])
        return RandomNeed(player=awaited.player, dice=tuple(kinds[i].name for i in awaited.dice))

    def supply(self, game: Game, need: RandomNeed, values: Sequence[Any]) -> GameCommand:
        if need.deck is not None:
            return DrawCard(player=need.player, card=str(values[0]))  # type: ignore[arg-type]
        return RollDice(player=need.player, faces=tuple(values))  # type: ignore[arg-type]

    def random_used(self, event: Event) -> int:
        return len(event.faces) if type(event) is DiceRolled else 0

    # -- the result and what a viewer sees ------------------------------------------------------

    def finish(self, game: Game) -> GameFinish | None:
        ended = game.state.result
        return None if ended is None else dice_finish(ended)

    def result(self, game: Game, game_id: str, members: Mapping[str, str]) -> GameResult | None:
        finish = self.finish(game)
        if finish is None:
            return None
        ruleset = self.ruleset
        return finish.result(game_id, members, game_type=ruleset.game_type.value, ruleset=ruleset.text)

    def role_public(self, game: Game, seat: str) -> bool:
        state = game.state
        if state.is_over or state.three_player:
            return True
        player = state.by_id[seat]  # type: ignore[index]
        # UA4: a zombie's role was shown at his elimination; the Zombie Master shows his (ruling)
        return player.role is Role.SHERIFF or not player.alive or player.zombie or player.zombie_master

    def redact_event(
        self, event: Event, hidden: Callable[[str], bool], own: Callable[[str], bool] | None = None
    ) -> dict[str, Any]:
        data: dict[str, Any] = msgspec.to_builtins(event)
        holder = hidden_card(event)
        if holder is not None and (own is None or not own(holder)):
            for name in HIDDEN_FIELDS:  # face-down Rage cards: their holder's alone (UA2, UA3)
                if name in data:
                    data[name] = None
            return data
        if type(event) is GameStarted:
            for seat in data["seats"]:
                if hidden(seat["player"]):
                    seat["role"] = None
                    if "special" in seat:
                        seat["special"] = None
            if data.get("position"):
                _redact_position(data["position"], own or (lambda seat: False))
        return data

    def view(
        self, game: Game, role_shown: Callable[[str], bool], own: Callable[[str], bool] | None = None
    ) -> dict[str, Any]:
        state = game.state
        turn = state.turn
        return {
            "players": [
                {
                    "id": p.id,
                    "role": p.role.value if role_shown(p.id) else None,
                    "character": p.character.id.value,
                    "life": p.life,
                    "max_life": p.max_life,
                    "arrows": p.arrows,
                    "alive": p.alive,
                    **_old_saloon_seat(state, p, role_shown),
                    **_undead_seat(state, p, own),
                }
                for p in state.players
            ],
            **_undead_table(state),
            "arrow_pile": state.arrow_pile,
            "chief_holder": state.chief_holder,
            "chief_in_pile": state.chief_in_pile,
            "active_player": turn.player if turn else None,
            "turn": turn.number if turn else state.last_turn_number,
            "dice": [None if f is None else f.value for f in turn.dice] if turn else [],
            "dice_kinds": [k.name for k in turn.kinds] if turn else [],
            "dice_preset": list(turn.preset) if turn else [],
            "awaiting": awaiting_detail(game.awaiting),
            "result": None if state.result is None else msgspec.to_builtins(state.result),
        }

    # -- internals ------------------------------------------------------------------------------

    def _seat(self, seat: SeatSpec) -> Seat:
        if type(seat) is Seat:
            return seat
        try:
            role = Role(seat.role)
        except ValueError:
            raise InvalidSetup(f"{seat.player}: {seat.role!r} is not a role of this game") from None
        try:
            character = CharacterId(seat.character)
        except ValueError:
            raise InvalidSetup(
                f"{seat.player}: {seat.character!r} is not a character of {self.ruleset.text}"
            ) from None
        given = getattr(seat, "special", None)  # a hidden card beside the role (OS3), if any
        try:
            special = None if given is None else SpecialRole(given)
        except ValueError:
            raise InvalidSetup(f"{seat.player}: {given!r} is not a special role") from None
        bonus = getattr(seat, "legacy_bonus", 0)  # UA5: a designated Sheriff's extra life
        return Seat(player=seat.player, role=role, character=character, special=special, legacy_bonus=bonus)  # type: ignore[arg-type]

    def _check_pool(self, seats: Sequence[Seat]) -> None:
        """Every seat's character is in the ruleset's pool: the characters of its modules,
        less those a missing module leaves out (§OS4, §UA3)."""
        for seat in seats:
            if seat.character in self._pool:
                continue
            name = seat.character.value
            needs = CHARACTER_NEEDS.get(name)
            if needs is not None and needs[0] in self.ruleset.modules:
                raise InvalidSetup(
                    f"{seat.player}: {name} is not in the character pool of {self.ruleset.text}: "
                    f"it needs {MODULES[needs[1]].short}"
                )
            raise InvalidSetup(f"{seat.player}: {name} is not a character of {self.ruleset.text}")


def _old_saloon_seat(state: GameState, p: PlayerState, role_shown: Callable[[str], bool]) -> dict[str, Any]:
    """A seat's Old Saloon facts a viewer may see: its special role (OS3) once revealed to all
    (used, L'Ours) or when the viewer may see the seat's role (the eliminated's included), and
    whether it is the Ghost (OS5) with the Ghost tokens it holds (given in the open). A game
    without those modules has no card, no Ghost and no token."""
    special = state.special
    card = None
    if special is not None:
        held = special.cards.get(p.id)
        if held is not None and (p.id in special.revealed or role_shown(p.id)):
            card = held.value
    return {"special_role": card, "ghost": p.ghost, "ghost_tokens": [f.value for f in p.ghost_gift]}


def _draws(game: Game, awaited: Awaiting) -> Draw | None:
    """The random draw ``awaited`` asks for (Undead or Alive's cards, tokens, duel throws)."""
    if awaited.decision is Decision.ROLL:
        return None
    return draw_need(game.state, awaited)


def _undead_seat(state: GameState, p: PlayerState, own: Callable[[str], bool] | None) -> dict[str, Any]:
    """A seat's Undead or Alive facts: how many face-down Rage cards it holds (public) and which
    (its holder's alone: ``own``, the viewer is that seat or may see everything). Nothing
    without UA2, so other games' views are unchanged."""
    seat: dict[str, Any] = {}
    if state.boneyard is not None:  # UA4: a zombie, the Zombie Master (public since the outbreak)
        seat["zombie"], seat["zombie_master"] = p.zombie, p.zombie_master
    rage = state.rage
    if rage is None:
        return seat
    cards = rage.hands.get(p.id, [])
    mine = own is not None and own(p.id)
    seat |= {"rage_count": len(cards), "rage_cards": list(cards) if mine else None}
    if p.character.id is PIXIE_PETE:  # the two cards he must choose between now, his alone (UA3)
        pair = pixie_pair(state, p.id)
        seat["rage_choice"] = list(pair) if mine and pair else None
    return seat


def _undead_table(state: GameState) -> dict[str, Any]:
    """The Rage deck's public side: its version, the pile's size and the discards (face up); the
    Boneyard's (UA4)."""
    table: dict[str, Any] = {}
    b = state.boneyard
    if b is not None:  # UA4: the Boneyard is public (face up, how many face down), and the outbreak
        table["boneyard"] = {"deck": b.deck, "pile": len(b.pile), "face_up": list(b.shown)}
        table["outbreak_turn"] = b.outbreak_turn
    rage = state.rage
    if rage is not None:
        table["rage"] = {"deck": rage.deck, "pile": len(rage.pile), "discard": list(rage.discard)}
    return table


_BASE_DICE = tuple(("base",) * n for n in range(len(BASE_HAND) + 1))
"""The kinds of n base dice, made once."""


def _awaited(game: Game) -> Awaiting | None:
    """The open question, also between the events of one step (then None: nothing is asked
    until the automatic steps are done)."""
    state = game.state
    resting = state.resting
    if resting is not None and resting[0] == state.version:
        return resting[1]
    move = next_move(state)
    return move if isinstance(move, Awaiting) else None


def awaiting_detail(question: Awaiting | None) -> dict[str, Any] | None:
    """The open question as plain JSON data (the shape of ``records.summary``'s)."""
    if question is None:
        return None
    return {
        "player": question.player,
        "decision": question.decision.value,
        "dice": list(question.dice),
        "max_count": question.max_count,
        "rolls_left": question.rolls_left,
    }


def _expansion_fields(line: Mapping[str, Any]) -> tuple[str | None, bool, bool | None]:
    """(special role, ended as the Ghost, plain zombie) of one player's line of
    ``GameEnded.results``, read by name: all are absent from a base game's line (the zombie
    flag is None without an outbreak)."""
    special = line.get("special")
    ghost = line.get("ghost", False)
    zombie = line.get("zombie")
    if special is not None and not isinstance(special, str):
        raise PayloadDecodeError(f"GameEnded: a player's special role is {special!r}, not a name")
    if not isinstance(ghost, bool):
        raise PayloadDecodeError(f"GameEnded: a player's ghost flag is {ghost!r}, not true or false")
    if zombie is not None and not isinstance(zombie, bool):
        raise PayloadDecodeError(f"GameEnded: a player's zombie flag is {zombie!r}, not true or false")
    return special, ghost, zombie


def _in_play(r: PlayerResult, zombie: bool | None, outbreak_turn: int | None) -> bool:
    """Whether a seat was in play at the end (the neutral result's ``alive``). A plain zombie
    is in play unless he was eliminated again after the outbreak (out for good): he was first
    eliminated before the turn the outbreak began, so an elimination on or after that turn is
    the one that put him out for good."""
    if r.alive or not zombie:
        return r.alive
    if outbreak_turn is None:
        raise PayloadDecodeError(f"GameEnded: {r.player} is a zombie but the game records no outbreak")
    return r.eliminated_turn is None or r.eliminated_turn < outbreak_turn


def dice_finish(ended: GameEnded, payload: Mapping[str, Any] | None = None) -> GameFinish:
    """The dice engine's end in neutral words. Eliminations are ordered by turn, then seat.

    ``payload`` is the recorded event's data (the ended event's own fields when not given).
    Old Saloon's fields of a player's line (``special``, ``ghost``), Undead or Alive's
    ``zombie`` flag and the game's ``outbreak_turn`` are read from it by name, so the result
    carries them whichever engine version wrote or reads the record.

    After an outbreak (docs/rulings.md, UA4) each seat's side is its side at the end
    (``zombies``, ``zombie_master``, ``survivors``), a zombie win's ``winners`` are
    ``ZOMBIE_WINNERS``, and a plain zombie still in play counts as alive (in play)."""
    data = msgspec.to_builtins(ended) if payload is None else payload
    outbreak_turn = data.get("outbreak_turn")
    if outbreak_turn is not None and (isinstance(outbreak_turn, bool) or not isinstance(outbreak_turn, int)):
        raise PayloadDecodeError(f"GameEnded: the outbreak turn is {outbreak_turn!r}, not a turn number")
    extras = [_expansion_fields(line) for line in data["results"]]
    seats = tuple(
        SeatOutcome(
            seat=r.player,
            role=r.role.value,
            base_role=BaseRole(r.role.value),
            side=r.side.value,
            alive=_in_play(r, zombie, outbreak_turn),
            won=r.won,
            special=special,
            ghost=ghost,
        )
        for r, (special, ghost, zombie) in zip(ended.results, extras, strict=True)
    )
    # every seat that was eliminated, a zombie back in play included (he was, before the outbreak)
    out = sorted(
        (
            (r.eliminated_turn, i, r)
            for i, (r, seat, (_, _, zombie)) in enumerate(zip(ended.results, seats, extras, strict=True))
            if not seat.alive or (zombie and r.eliminated_turn is not None)
        ),
        key=lambda t: (t[0] if t[0] is not None else 0, t[1]),
    )
    eliminations = tuple(
        Elimination(
            seat=r.player,
            by=r.eliminated_by,
            # a player out before a recorded position starts has no cause on record
            cause=None if r.eliminated_cause is None else r.eliminated_cause.value,
            turn=turn if turn is not None else 0,
        )
        for turn, _, r in out
    )
    if ended.winning_side is None:
        winners: tuple[str, ...] = ()
    elif ended.winning_side.value == Side.ZOMBIES.value:
        winners = ZOMBIE_WINNERS
    else:
        winners = (ended.winning_side.value,)
    return GameFinish(
        finish=FinishKind.NO_WINNER if ended.winning_side is None else FinishKind.WON,
        winners=winners,
        seats=seats,
        eliminations=eliminations,
        turn=ended.turn,
    )


__all__ = ["DiceEngine", "Position", "awaiting_detail", "dice_finish"]


def _redact_position(position: dict[str, Any], own: Callable[[str], bool]) -> None:
    """A starting position's face-down Rage cards (UA2: a player's ``rage``, Pixie Pete's
    ``pair``) are their holder's alone: everyone else sees how many, not which (null each)."""
    holders: dict[str, str] = {}
    for entry in position.get("players", ()):
        cards = entry.get("rage")
        if cards:
            holders.update(dict.fromkeys(cards, entry["player"]))
            if not own(entry["player"]):
                entry["rage"] = [None] * len(cards)
    deck = position.get("rage_deck")
    pair = deck.get("pair") if deck else None
    if pair and not own(holders.get(pair[0], "")):
        deck["pair"] = [None] * len(pair)  # type: ignore[index]
