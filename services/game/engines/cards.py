"""The card game's engine (``services/game/rules/cards``) behind the ``GameEngine`` interface.

One ``CardEngine`` per ruleset (``registry.engine_for``): ``cards``, or ``cards eight_players``
(8 players with two Renegades). A game is the card engine's own ``Game``.

Randomness is asked of ``TABLE`` (a reserved player id): online the server answers from the
game's seed, at a table the scorekeeper does. ``random_need`` names what is asked:

- a new deck (``Decision.SHUFFLE``): ``RandomNeed.shuffle`` holds the cards to put in order (all
  80 at the start, the discard pile at a reshuffle), ``draw`` how many shuffles came before;
- a card taken at random from a hand (``Decision.RANDOM_CARD``: Panic!, Cat Balou, Jesse Jones,
  El Gringo): ``RandomNeed.pick`` holds the hand's cards, sorted by id, ``draw`` how many random
  picks came before;
- the next card of a deck shuffled in an unknown order (a table game only): ``deck`` with
  ``cards`` (the unknown cards, sorted).

Stored event names carry the game type (``cards.GameStarted``): the card game's events share
class names with the dice game's, and a stored game must say which one it is by its types.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any

import msgspec

from services.game.engines.interface import Question, RandomNeed, SeatSpec
from services.game.results import Elimination, FinishKind, GameFinish, GameResult, SeatOutcome
from services.game.results import Role as BaseRole
from services.game.rules.cards import (
    EVENT_TYPES,
    OPTIONAL,
    TABLE,
    Awaiting,
    CharacterId,
    Decision,
    Event,
    Game,
    GameEnded,
    GameStarted,
    LegalCommands,
    Role,
    RuleError,
    Seat,
    initial_state,
    timeout_command,
)
from services.game.rules.cards import commands as cmd
from services.game.rules.cards import events as ev
from services.game.rules.cards.answers import answer_of
from services.game.rules.cards.decide import awaiting
from services.game.rules.cards.deck import card as card_of
from services.game.rules.cards.errors import InvalidSetup
from services.game.rules.cards.evolve import evolve
from services.game.rules.cards.flow import next_move
from services.game.rules.cards.state import GameState, PlayerState
from services.game.rules.cards.summary import role_public
from services.game.rules.cards.vocabulary import CardId, CheckReason, PlayerId
from services.game.rules.ruleset import CardOption, GameType, Ruleset

STORED_PREFIX = "cards."
"""What a card event's stored type name starts with (``cards.GameStarted``)."""

CARD_EVENT_TYPES: Mapping[str, type[Event]] = MappingProxyType(
    {STORED_PREFIX + cls.__name__: cls for cls in EVENT_TYPES}
)
"""The card game's events by stored type name."""

_RANDOM_INPUTS = (cmd.ShuffleDeck, cmd.PickRandomCard, cmd.NameTopCard)


class CardEngine:
    """BANG! the card game (base set), with the options of one ruleset."""

    __slots__ = ("eight_players", "ruleset")

    refusal: type[Exception] = RuleError
    event_types: Mapping[str, type[Event]] = CARD_EVENT_TYPES
    table_questions = False

    def __init__(self, ruleset: Ruleset) -> None:
        if ruleset.game_type is not GameType.CARDS:
            raise InvalidSetup(f"the card engine does not play {ruleset.game_type} games")
        self.ruleset = ruleset
        self.eight_players = ruleset.has_option(CardOption.EIGHT_PLAYERS)

    def __repr__(self) -> str:
        return f"<CardEngine {self.ruleset.text}>"

    # -- setup and fold -------------------------------------------------------------------------

    def start(self, seats: Sequence[SeatSpec], position: Any = None) -> Game:
        if position is not None and not isinstance(position, ev.Position):
            try:
                position = msgspec.convert(position, ev.Position)
            except msgspec.ValidationError as error:
                raise InvalidSetup(f"the position does not fit the card game: {error}") from None
        return Game.start([self._seat(s) for s in seats], eight_players=self.eight_players, position=position)

    def restart(self, opening: Event) -> Game:
        assert isinstance(opening, GameStarted)
        return self.start(opening.seats, opening.position)  # eight_players: from the ruleset

    def opens(self, event: object) -> bool:
        return type(event) is GameStarted

    def ends(self, event: object) -> bool:
        return type(event) is GameEnded

    def owns(self, event: object) -> bool:
        return isinstance(event, Event)

    def begin(self, opening: Event) -> Game:
        assert isinstance(opening, GameStarted)
        return Game(initial_state(opening), [opening])

    def evolve(self, game: Game, event: Event) -> None:
        evolve(game.state, event)
        game.events.append(event)

    def replay(self, events: Sequence[Event]) -> Game:
        return Game.replay(events)

    def turn_number(self, game: Game) -> int:
        return game.state.turn

    def input_at(self, game: Game, events: Sequence[object], index: int) -> cmd.Command | None:
        # at rest the engine asks one question, and the events that answered it say how
        q = awaiting(game.state)
        if q is None or index >= len(events) or not isinstance(events[index], Event):
            return None
        return answer_of(q, events, index, game.state)

    def entry_text(self, events: Sequence[Event]) -> str | None:
        # shown to all in a take-back (``EntryTakenBack.command``): the public words of the entry
        return entry_words(events)

    # -- deciding -------------------------------------------------------------------------------

    def copy(self, game: Game) -> Game:
        return Game(game.state.clone(), list(game.events))

    def play(self, game: Game, command: cmd.Command, *, implicit_passes: bool = True) -> list[Event]:
        return game.play(command)  # the card game asks nothing of the table: nothing to pass

    def question(self, game: Game) -> Question | None:
        # None between the events of one step, as the interface says (the deadlines projection
        # folds an append event by event and asks after each): nothing is asked until the
        # automatic steps are done
        move = next_move(game.state)
        if not isinstance(move, Awaiting):
            return None
        q = move
        return Question(
            player=q.player,
            decision=q.decision.value,
            describe=q.describe(),
            optional=q.decision in OPTIONAL,
            random=q.player == TABLE,
            detail=awaiting_view(q, lambda seat: False),
        )

    def legal_commands(self, game: Game) -> LegalCommands:
        return game.legal_commands()

    def timeout_default(self, game: Game) -> cmd.Command | None:
        return timeout_command(game.state)

    def public_text(self, command: cmd.Command) -> str:
        if isinstance(command, cmd.KitReturn):  # the card put back is his alone
            return f"{command.player} kit-return"
        return str(command)  # every other decision names only cards it shows to all

    def server_only(self, command: cmd.Command) -> str | None:
        if isinstance(command, cmd.ShuffleDeck):
            return "the server shuffles the deck in online games"
        if isinstance(command, cmd.PickRandomCard):
            return "the server takes the card at random in online games"
        if isinstance(command, cmd.NameTopCard) or command.player == TABLE:
            return "the server deals the cards in online games"
        return None

    # -- randomness -----------------------------------------------------------------------------

    def random_need(self, game: Game) -> RandomNeed | None:
        state = game.state
        q = awaiting(state)
        if q is None or q.player != TABLE:
            return None
        # ``draw``: the number of the game's events before the answer, a public count that
        # no two questions of one game share (each answer adds events)
        at = len(game.events)
        if q.decision is Decision.SHUFFLE:
            return RandomNeed(player=TABLE, shuffle=tuple(str(c) for c in sorted(q.cards)), draw=at)
        if q.decision is Decision.RANDOM_CARD:
            assert q.from_player is not None
            hand = sorted(state.player(q.from_player).hand)
            return RandomNeed(player=TABLE, pick=tuple(str(c) for c in hand), draw=at)
        if q.decision is Decision.TOP_CARD:
            return RandomNeed(player=TABLE, deck="deck", cards=tuple(str(c) for c in state.pool), draw=at)
        raise AssertionError(f"TABLE is asked {q.decision}")

    def supply(self, game: Game, need: RandomNeed, values: Sequence[Any]) -> cmd.Command:
        if need.shuffle:
            return cmd.ShuffleDeck(player=TABLE, order=tuple(CardId(int(v)) for v in values))
        if need.pick:
            return cmd.PickRandomCard(player=TABLE, card=CardId(int(values[0])))
        return cmd.NameTopCard(player=TABLE, card=CardId(int(values[0])))

    def random_used(self, event: Event) -> int:
        return 0  # no dice: a shuffle's or a pick's number is counted from the events themselves

    # -- the result and what a viewer sees ------------------------------------------------------

    def finish(self, game: Game) -> GameFinish | None:
        ended = game.state.result
        return None if ended is None else cards_finish(ended)

    def result(self, game: Game, game_id: str, members: Mapping[str, str]) -> GameResult | None:
        finish = self.finish(game)
        if finish is None:
            return None
        return finish.result(game_id, members, game_type=GameType.CARDS.value, ruleset=self.ruleset.text)

    def role_public(self, game: Game, seat: str) -> bool:
        return role_public(game.state, seat)

    def redact_event(
        self, event: Event, hidden: Callable[[str], bool], own: Callable[[str], bool] | None = None
    ) -> dict[str, Any]:
        return redact_card_event(event, hidden, own or (lambda seat: False))

    def view(
        self, game: Game, role_shown: Callable[[str], bool], own: Callable[[str], bool] | None = None
    ) -> dict[str, Any]:
        sees = own or (lambda seat: False)
        state = game.state
        q = awaiting(state)
        return {
            "players": [_player_view(p, role_shown, sees) for p in state.players],
            "active_player": state.active or None,
            "turn": state.turn,
            "phase": state.phase.value,
            "deck": len(state.deck) + len(state.pool),
            "discard": [card_of(c).text for c in state.discard],
            "discard_ids": list(state.discard),  # face up: two cards may share a text (9♠ Stagecoach)
            "general_store": [card_of(c).text for c in state.store],
            "general_store_ids": list(state.store),
            "kit_carlson": _kit_view(state, sees),
            "resolving": _resolving_view(state),
            "arrow_pile": None,
            "awaiting": None if q is None else awaiting_view(q, sees),
            "result": None if state.result is None else msgspec.to_builtins(state.result),
        }

    # -- internals ------------------------------------------------------------------------------

    def _seat(self, seat: SeatSpec) -> Seat:
        if type(seat) is Seat:
            return seat
        try:
            role = Role(str(seat.role))
        except ValueError:
            raise InvalidSetup(f"{seat.player}: {str(seat.role)!r} is not a role of the card game") from None
        try:
            character = CharacterId(str(seat.character))
        except ValueError:
            raise InvalidSetup(
                f"{seat.player}: {str(seat.character)!r} is not a character of the card game"
            ) from None
        special = getattr(seat, "special", None)  # a dice seat's OS3 card: the card game has none
        if special is not None:
            raise InvalidSetup(
                f"{seat.player}: the card game has no special role cards, got {str(special)!r}"
            )
        return Seat(player=PlayerId(seat.player), role=role, character=character)


def _player_view(
    p: PlayerState, role_shown: Callable[[str], bool], sees: Callable[[str], bool]
) -> dict[str, Any]:
    return {
        "id": p.id,
        "role": p.role.value if role_shown(p.id) else None,
        "character": p.character.value,
        "life": p.life,
        "max_life": p.max_life,
        "alive": p.alive,
        "hand_count": len(p.hand),
        "hand": [card_of(c).text for c in p.hand] if sees(p.id) else None,
        "hand_ids": list(p.hand) if sees(p.id) else None,
        "in_play": [card_of(c).text for c in p.in_play],
        "in_play_ids": list(p.in_play),
        "arrows": 0,
    }


def _kit_view(state: GameState, sees: Callable[[str], bool]) -> dict[str, Any] | None:
    """Kit Carlson's look: how many cards (public), which ones (his alone)."""
    if not state.kit:
        return None
    kit = next((p.id for p in state.players if p.character is CharacterId.KIT_CARLSON), None)
    mine = kit is not None and sees(kit)
    return {"player": kit, "count": len(state.kit), "cards": list(state.kit) if mine else None}


def _resolving_view(state: GameState) -> dict[str, Any] | None:
    """The card resolving now (played face up) and its target: public."""
    res = state.res
    if res is None:
        return None
    return {
        "source": res.source,
        "card": None if res.card is None else res.card,
        "name": None if res.name is None else res.name.value,
        "target": res.target,
    }


def awaiting_view(q: Awaiting, sees: Callable[[str], bool]) -> dict[str, Any]:
    """The open question as JSON data. The only cards it names are a draw!'s flips (face up);
    Kit Carlson's look is not named here (``kit_carlson`` in the view, to him alone)."""
    out: dict[str, Any] = {"player": q.player, "decision": q.decision.value}
    if q.from_player is not None:
        out["from_player"] = q.from_player
    if q.count:
        out["count"] = q.count
    if q.decision is Decision.DRAW_RESULT:
        out["cards"] = list(q.cards)
    return out


def redact_card_event(
    event: Event, hidden: Callable[[str], bool], sees: Callable[[str], bool]
) -> dict[str, Any]:
    """``event`` as JSON data for a viewer: ``hidden(seat)`` — that seat's role is hidden from
    him; ``sees(seat)`` — he may see that seat's own hand. ``sees(TABLE)``: he may see every
    card (a table game's scorekeeper, anybody once the game is over), a shuffle's order too.
    Otherwise a card the rules show only to some (``visibility.audience``) is null unless he
    sees one of them, as is a shuffle's order (its length stays)."""
    data: dict[str, Any] = msgspec.to_builtins(event)
    everything = sees(TABLE)
    if type(event) is GameStarted:
        for seat in data["seats"]:
            if hidden(seat["player"]):
                seat["role"] = None
        position = data.get("position")
        if position and not everything:
            for pp in position["players"]:
                if not sees(pp["player"]):
                    pp["hand"] = [None] * len(pp["hand"])
            position["deck"] = [None] * len(position["deck"])
        return data
    if everything:
        return data
    if type(event) is ev.HandsDealt:
        data["hands"] = [[p, cards if sees(p) else [None] * len(cards)] for p, cards in data["hands"]]
        return data
    if type(event) is ev.DeckShuffled:
        data["order"] = [None] * len(event.order)
        return data
    seen = _audience(event)
    if seen is not None and not any(sees(p) for p in seen):
        data["card"] = None
    return data


def _audience(event: Event) -> frozenset[str] | None:
    from services.game.rules.cards.visibility import audience

    return audience(event)


def entry_words(events: Sequence[Event]) -> str | None:
    """The input one entry's events record, in words anybody may read: a decision's text form
    (naming only cards it shows to all), a random input without its card. None for the opening
    or events that record no input."""
    if not events or type(events[0]) is GameStarted:
        return None
    e = events[0]
    match e:
        case ev.DeckShuffled(order=order):
            return f"table shuffle ({len(order)} cards)" if order else "table shuffle unknown"
        case ev.TopCardNamed(seen_by=seen_by):
            return "table top (a card)" if seen_by is not None else f"table top {e.card}"
        case ev.CardTaken(random=True, from_player=victim):
            return f"table random (a card of {victim}'s hand)"
        case ev.DrawSourceChosen(player=p, from_player=other, from_discard=from_discard):
            return str(cmd.ChooseDrawSource(player=p, from_player=other, from_discard=from_discard))
        case ev.KitReturned(player=p):
            return f"{p} kit-return"
        case ev.CheckResolved(player=p, card=c) if c is not None:
            return str(cmd.ChooseDrawResult(player=p, card=c))
        case ev.StoreCardPicked(player=p, card=c):
            return str(cmd.PickStoreCard(player=p, card=c))
        case ev.SidKetchumHealed(player=p, cards=cards):
            return str(cmd.UseSidKetchum(player=p, cards=cards))
        case ev.PlayEnded(player=p):
            return str(cmd.EndPlay(player=p))
        case ev.CardPlayed(player=p, card=c, target=t, target_card=tc):
            return str(cmd.PlayCard(player=p, card=c, target=t, target_card=tc))
        case ev.Responded(player=p, card=c):
            return str(cmd.Respond(player=p, card=c))
        case ev.Passed(player=p, automatic=False, timeout=timeout):
            return str(cmd.Pass(player=p, timeout=timeout))
        case ev.CheckBegan(player=p, reason=CheckReason.BARREL | CheckReason.JOURDONNAIS, barrel=b):
            return str(cmd.UseBarrel(player=p, card=b))
        case ev.PlayerEliminated(player=p):
            pile = [x.card for x in events if isinstance(x, ev.CardDiscarded) and x.player == p]
            return str(cmd.OrderDiscards(player=p, cards=tuple(pile)))
        case ev.CardDiscarded(player=p):
            run: list[ev.CardDiscarded] = []
            for x in events:
                if not (isinstance(x, ev.CardDiscarded) and x.player == p):
                    break
                run.append(x)
            after = events[len(run)] if len(run) < len(events) else None
            if isinstance(after, ev.CardPlayed) and after.player == p:  # a new weapon replaces the old
                return str(
                    cmd.PlayCard(
                        player=p, card=after.card, target=after.target, target_card=after.target_card
                    )
                )
            if isinstance(after, ev.CardResolved):  # Cat Balou's card taken at random, face up
                return f"table random {e.card}"
            return str(cmd.Discard(player=p, cards=tuple(x.card for x in run)))
    return None


def cards_finish(ended: GameEnded) -> GameFinish:
    """The card game's end in neutral words: sides ``law``, ``outlaws``, ``renegade``; each
    seat's role (its own base role); eliminations ordered by turn, then seat, each with who
    eliminated whom (None for Dynamite or one's own Duel, whose cause says so)."""
    seats = tuple(
        SeatOutcome(
            seat=r.player,
            role=r.role.value,
            base_role=BaseRole(r.role.value),
            side=r.side.value,
            alive=r.alive,
            won=r.won,
        )
        for r in ended.results
    )
    out = sorted(
        ((r.eliminated_turn or 0, i, r) for i, r in enumerate(ended.results) if not r.alive),
        key=lambda t: (t[0], t[1]),
    )
    eliminations = tuple(
        Elimination(
            seat=r.player,
            by=None if r.eliminated_by in (None, "dynamite", "self") else r.eliminated_by,
            cause=_cause(r.eliminated_by),
            turn=turn,
        )
        for turn, _, r in out
    )
    return GameFinish(
        finish=FinishKind.WON,
        winners=(ended.winner.value,),
        seats=seats,
        eliminations=eliminations,
        turn=ended.turn,
    )


def _cause(eliminated_by: str | None) -> str | None:
    if eliminated_by is None:
        return None  # out before a recorded position starts
    if eliminated_by in ("dynamite", "self"):
        return eliminated_by
    return "card"


__all__ = [
    "CARD_EVENT_TYPES",
    "STORED_PREFIX",
    "CardEngine",
    "awaiting_view",
    "cards_finish",
    "redact_card_event",
]
