"""What one seat of a card game may know: the only way card bots look at a game.

A player knows his own role, hand and (as Kit Carlson) the cards he is looking at; of the others
what the rules make public (RULINGS-cards "Visibility"): life, hand sizes, cards in play, the
discard pile, the General Store, the Sheriff's role and the roles revealed by eliminations, and
who played which card at whom. ``SeatView`` holds the state privately and exposes only that;
``legal`` asks the engine whether one of the seat's own commands is legal, which depends only
on his own hand and public information (the engine's non-interference tests hold it to that).

``Knowledge`` folds the public events incrementally (who aimed a hostile card at whom), so a bot
asked many questions in one game reads each event once. It reads only ``CardPlayed`` (public)
and ``PlayerEliminated`` (a public role), never ``GameStarted`` (whose seats carry every role)
nor a drawn card.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from services.game.rules.cards import commands as cmd
from services.game.rules.cards import events as ev
from services.game.rules.cards.awaiting import Awaiting
from services.game.rules.cards.decide import can_bang
from services.game.rules.cards.deck import name_of
from services.game.rules.cards.distance import distance, weapon_range
from services.game.rules.cards.legal import LegalCommands
from services.game.rules.cards.setup import EIGHT_PLAYER_ROLES, ROLES_BY_PLAYER_COUNT
from services.game.rules.cards.state import GameState, PlayerState
from services.game.rules.cards.vocabulary import (
    CardId,
    CardName,
    CharacterId,
    CheckReason,
    PlayerId,
    Role,
)

HOSTILE: frozenset[CardName] = frozenset(
    {CardName.BANG, CardName.DUEL, CardName.PANIC, CardName.CAT_BALOU, CardName.JAIL}
)
"""Cards aimed at one player that harm him: who plays them at whom is the public evidence of
sides (Gatling and Indians! hit everybody and say nothing)."""


class Knowledge:
    """Public history of one game: hostile cards aimed from one player at another."""

    __slots__ = ("events", "facts", "hostile", "memo", "seen")

    def __init__(self) -> None:
        self.events: list[ev.Event] | None = None
        self.seen = 0
        self.hostile: Counter[tuple[PlayerId, PlayerId]] = Counter()
        self.facts = 0
        """How many hostile acts have been counted: readings derived from them change only with it."""
        self.memo: dict[tuple[object, ...], object] = {}
        """Derived readings (``sides.enemy_scores``) by what they depend on."""

    def update(self, events: list[ev.Event] | None) -> None:
        if events is None:
            return
        if events is not self.events or len(events) < self.seen:
            # another game (one bot may play several in turn): start over
            self.events, self.seen, self.hostile, self.facts, self.memo = events, 0, Counter(), 0, {}
        for event in events[self.seen :]:
            if (
                isinstance(event, ev.CardPlayed)
                and event.target is not None
                and event.target != event.player
                and (event.as_bang or name_of(event.card) in HOSTILE)
            ):
                self.note(event.player, event.target)
        self.seen = len(events)

    def note(self, source: PlayerId, target: PlayerId) -> None:
        """``source`` aimed a hostile card at ``target``."""
        self.hostile[(source, target)] += 1
        self.facts += 1


@dataclass(frozen=True, slots=True)
class Seen:
    """Another player as everybody sees him."""

    id: PlayerId
    seat: int
    character: CharacterId
    life: int
    max_life: int
    alive: bool
    hand_size: int
    in_play: tuple[CardId, ...]
    role: Role | None
    """None while hidden."""


class SeatView:
    """One seat's knowledge of a game at rest, for one question."""

    __slots__ = ("_legal", "_players", "_state", "cache", "knowledge", "me", "question")

    def __init__(self, state: GameState, question: Awaiting, knowledge: Knowledge) -> None:
        self._state = state
        self.question = question
        self.knowledge = knowledge
        self._legal: LegalCommands | None = None
        self._players: list[Seen] | None = None
        self.cache: dict[str, object] = {}
        """Readings derived from this view (``sides.enemy_scores``), computed once per question."""
        self.me: PlayerState = state.player(question.player)

    # -- who is where ---------------------------------------------------------------------------

    @property
    def players(self) -> list[Seen]:
        if self._players is None:
            me, over = self.me.id, self._state.is_over
            self._players = [
                Seen(
                    id=p.id,
                    seat=p.seat,
                    character=p.character,
                    life=p.life,
                    max_life=p.max_life,
                    alive=p.alive,
                    hand_size=len(p.hand),
                    in_play=tuple(p.in_play),
                    role=p.role if (p.id == me or p.role is Role.SHERIFF or not p.alive or over) else None,
                )
                for p in self._state.players
            ]
        return self._players

    def others(self) -> list[Seen]:
        """The other living players."""
        cached = self.cache.get("others")
        if isinstance(cached, list):
            return cached
        others = self.cache["others"] = [p for p in self.players if p.alive and p.id != self.me.id]
        return others

    def sheriff(self) -> Seen:
        return next(p for p in self.players if p.role is Role.SHERIFF)

    def _sheriff_state(self) -> PlayerState:
        # the Sheriff's role is public: reading his seat here tells nothing hidden
        return next(p for p in self._state.players if p.role is Role.SHERIFF)

    @property
    def sheriff_id(self) -> PlayerId:
        return self._sheriff_state().id

    @property
    def sheriff_life(self) -> int:
        return self._sheriff_state().life

    def alive_key(self) -> tuple[bool, ...]:
        return tuple(p.alive for p in self._state.players)

    def living_count(self) -> int:
        return sum(p.alive for p in self._state.players)

    def distance_to(self, pid: PlayerId) -> int:
        return distance(self._state, self.me.id, pid)

    def reach(self) -> int:
        return weapon_range(self.me)

    def may_bang(self) -> bool:
        return can_bang(self._state, self.me)

    def roles_left(self) -> Counter[Role]:
        """Roles still living among the players whose role I do not know (all but me, the
        Sheriff and the revealed dead)."""
        cached = self.cache.get("roles_left")
        if isinstance(cached, Counter):
            return cached
        n = len(self._state.players)
        left = Counter(EIGHT_PLAYER_ROLES if self._state.eight_players else ROLES_BY_PLAYER_COUNT[n])
        me, over = self.me.id, self._state.is_over
        for p in self._state.players:
            # the same roles ``players`` shows: one's own, the Sheriff's, the revealed ones
            if p.id == me or p.role is Role.SHERIFF or not p.alive or over:
                left[p.role] -= 1
        left = +left
        self.cache["roles_left"] = left
        return left

    # -- public table ---------------------------------------------------------------------------

    @property
    def discard_top(self) -> CardId | None:
        return self._state.discard[-1] if self._state.discard else None

    @property
    def store(self) -> tuple[CardId, ...]:
        return tuple(self._state.store)

    @property
    def kit(self) -> tuple[CardId, ...]:
        """The cards Kit Carlson looks at: his alone, so only when he is the one asked."""
        if self.me.character is CharacterId.KIT_CARLSON and self._state.active == self.me.id:
            return tuple(self._state.kit)
        return ()

    @property
    def check_reason(self) -> CheckReason | None:
        check = self._state.check
        return check.reason if check is not None and check.player == self.me.id else None

    @property
    def unused_barrels(self) -> list[CardId]:
        res = self._state.res
        used = res.barrels_used if res is not None else []
        return [c for c in self.me.in_play if name_of(c) is CardName.BARREL and c not in used]

    @property
    def jourdonnais_ready(self) -> bool:
        res = self._state.res
        return self.me.character is CharacterId.JOURDONNAIS and res is not None and not res.jourdonnais_used

    # -- the engine's word ------------------------------------------------------------------------

    def _commands(self) -> LegalCommands:
        if self._legal is None:
            self._legal = LegalCommands(self._state)
        return self._legal

    def legal(self, command: cmd.Command) -> bool:
        return command in self._commands()

    def options(self) -> list[cmd.Command]:
        """Every legal command (never ask in phase 3: listing k of n discards is combinatorial)."""
        return list(self._commands())
