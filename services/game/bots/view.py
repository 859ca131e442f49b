"""What one player may know: the only way bots look at a game.

A player knows their own role, the Sheriff's (public with 4 to 8 players), every role in a
three-player game, the roles of eliminated players, and everything public that happened: who
shot whom, who poured beers for whom, life and arrows. ``PlayerView.role_of`` is the single
place a bot reads a role; it answers None for a role the player cannot know.

``Knowledge`` folds the public events (shots and beers between players) incrementally, so a bot
asked many questions in one game reads each event once. It ignores ``GameStarted`` (whose seats
carry every role) and ``GameEnded``.
"""

from __future__ import annotations

from services.game.rules.dice import Face, GameState, PlayerId, PlayerState, Role
from services.game.rules.dice import events as ev
from services.game.rules.dice.decisions import symbol_of
from services.game.rules.dice.table import reach_among
from services.game.rules.dice.vocabulary import DOUBLE_FACES, Cause, GainCause

_AIMED = (Cause.SHOOT1, Cause.SHOOT2)
# read per event and per seat: constants (an enum member's read is slow on Python 3.11)
_BEER_GAIN, _SHERIFF = GainCause.BEER, Role.SHERIFF
_SHERIFF_CHANGED = ev.EVENT_TYPES.get("SheriffChanged")
"""OS3's event that makes another player the Sheriff (None while OS3 is not registered)."""
_OUTBREAK_BEGAN = ev.EVENT_TYPES.get("OutbreakBegan")
"""UA4's outbreak: the eliminated are in play again as zombies (None while UA4 is not registered)."""

Seating = tuple[list[PlayerState], dict[int, int], PlayerState | None]
"""The living in seat order, seat → position among them, and the Sheriff (None with three)."""


class Knowledge:
    """Public history: life taken by aimed shots and given by beers, per (from, to) pair."""

    __slots__ = (
        "_seating",
        "_suspicion",
        "_wants",
        "eliminations",
        "events",
        "facts",
        "healed",
        "seen",
        "shot",
    )

    def __init__(self, events: list[ev.Event] | None = None) -> None:
        self.events = events
        self.seen = 0
        self.facts = 0
        """How many shots and beers have been counted: derived readings change only with it."""
        self.eliminations = 0
        """How many eliminations have been read: who is alive changes only with it."""
        self.shot: dict[tuple[PlayerId, PlayerId], int] = {}
        self.healed: dict[tuple[PlayerId, PlayerId], int] = {}
        self._seating: tuple[GameState, int, Seating] | None = None
        # (facts, living count, suspicion table): bots' derived reading, valid while both hold
        self._suspicion: tuple[int, int, dict[PlayerId, float]] | None = None
        # player → (state, reading key, wants table): see PlayerView.cached_wants
        self._wants: dict[PlayerId, tuple[GameState, tuple[int, int, int, bool], dict[PlayerId, float]]] = {}

    def catch_up(self) -> Knowledge:
        events = self.events
        if events is None or self.seen == len(events):
            return self
        shot, healed = self.shot, self.healed
        for e in events[self.seen :]:
            kind = type(e)
            if kind is ev.LifeLost:
                if e.source is not None and e.cause in _AIMED:  # type: ignore[attr-defined]
                    key = (e.source, e.player)  # type: ignore[attr-defined]
                    shot[key] = shot.get(key, 0) + e.amount  # type: ignore[attr-defined]
                    self.facts += 1
            elif (
                kind is ev.LifeGained
                and e.cause is _BEER_GAIN  # type: ignore[attr-defined]
                and e.source is not None  # type: ignore[attr-defined]
                and e.source != e.player  # type: ignore[attr-defined]
            ):
                key = (e.source, e.player)  # type: ignore[attr-defined]
                healed[key] = healed.get(key, 0) + e.amount  # type: ignore[attr-defined]
                self.facts += 1
            elif kind is ev.PlayerEliminated:
                self.eliminations += 1
            elif kind is _SHERIFF_CHANGED or kind is _OUTBREAK_BEGAN:
                # OS3's Le Bien: another Sheriff, so every reading made about the old one is stale;
                # UA4's outbreak: who is in play changes without an elimination
                self.eliminations += 1
                self.facts += 1
        self.seen = len(events)
        return self

    def seating(self, state: GameState) -> Seating:
        """``state``'s seating. Every decision builds a view and needs it, and it changes only
        with an elimination: kept while this history is read up to date and has no new one."""
        events = self.events
        if events is None or self.seen != len(events):
            return _seating(state)  # nothing tells when it changes: work it out every time
        cached = self._seating
        if cached is not None and cached[0] is state and cached[1] == self.eliminations:
            return cached[2]
        seating = _seating(state)
        self._seating = (state, self.eliminations, seating)
        return seating


def _seating(state: GameState) -> Seating:
    living: list[PlayerState] = []
    index: dict[int, int] = {}
    # the Sheriff's identity is public (three-player games have none)
    sheriff: PlayerState | None = None
    for p in state.players:
        if p.alive:
            index[p.seat] = len(living)
            living.append(p)
        if p.role is _SHERIFF:
            sheriff = p
    return living, index, sheriff


class PlayerView:
    """One player's view of a game at rest. Cheap to build: one per decision."""

    __slots__ = ("_index", "_others", "knowledge", "living", "me", "sheriff", "state")

    def __init__(self, state: GameState, me: PlayerId, knowledge: Knowledge) -> None:
        self.state = state
        self.me: PlayerState = state.by_id[me]
        self.knowledge = knowledge
        # shared with other views of the same seating: read, never modify.
        # _index: seat → position among the living (distances count living players only)
        self.living, self._index, self.sheriff = knowledge.seating(state)
        player = self.me
        self._others = [p for p in self.living if p is not player]

    @property
    def three_player(self) -> bool:
        return self.state.three_player

    def role_of(self, player: PlayerState) -> Role | None:
        """The player's role if this player may know it, else None."""
        if player is self.me or not player.alive or self.state.three_player or player is self.sheriff:
            return player.role
        return None

    def known_dead(self, role: Role) -> int:
        """How many players of ``role`` have been eliminated (their roles are revealed)."""
        return sum(1 for p in self.state.players if not p.alive and p.role is role)

    def others(self) -> list[PlayerState]:
        """The other living players in seat order (the view's own list: do not modify it)."""
        return self._others

    def distance_to(self, other: PlayerState) -> int:
        index = self._index
        d = abs(index[self.me.seat] - index[other.seat])
        return min(d, len(self.living) - d)

    def reach(self, face: Face) -> frozenset[int]:
        """Distances the active player's die reaches when used as ``face``."""
        return reach_among(len(self.living), self.me, face)

    def cached_suspicion(self) -> dict[PlayerId, float] | None:
        cached = self.knowledge._suspicion
        if cached is not None and cached[0] == self.knowledge.facts and cached[1] == len(self.living):
            return cached[2]
        return None

    def cache_suspicion(self, table: dict[PlayerId, float]) -> None:
        self.knowledge._suspicion = (self.knowledge.facts, len(self.living), table)

    def cached_wants(self) -> dict[PlayerId, float] | None:
        """This player's ``wants`` table if worked out since nothing it reads has changed.

        It reads the public history (``facts``), who is alive, the Sheriff's life and whether a
        zombie outbreak has begun (UA4). Within one state eliminations only add up between two
        outbreak readings, so the living count says who is alive.
        """
        cached = self.knowledge._wants.get(self.me.id)
        if cached is not None and cached[0] is self.state and cached[1] == self._wants_key():
            return cached[2]
        return None

    def cache_wants(self, table: dict[PlayerId, float]) -> None:
        self.knowledge._wants[self.me.id] = (self.state, self._wants_key(), table)

    def _wants_key(self) -> tuple[int, int, int, bool]:
        sheriff_life = 0 if self.sheriff is None else self.sheriff.life
        b = self.state.boneyard  # UA4: whether the outbreak has begun
        return (
            self.knowledge.facts,
            len(self.living),
            sheriff_life,
            b is not None and b.outbreak_turn is not None,
        )


def shot_options(view: PlayerView, die: int) -> list[tuple[PlayerState, Face | None]]:
    """Who the active player's ``die`` can hit, with the ``as_face`` to name (Calamity Janet may
    use a shoot1 as a shoot2 and back; None when the die's own face reaches)."""
    t = view.state.turn
    assert t is not None
    face = t.dice[die]
    assert face is not None
    if face in DOUBLE_FACES:  # OS1: a double die aims its symbols, shoot1 or shoot2
        face = symbol_of(t, die)
    me = view.me
    living = view.living
    n = len(living)
    mine = view._index[me.seat]
    natural = view.reach(face)
    swapped: frozenset[int] = frozenset()
    other_face: Face | None = None
    if me.character.swaps_shoot_faces:
        other_face = Face.SHOOT2 if face is Face.SHOOT1 else Face.SHOOT1
        swapped = view.reach(other_face)
    options: list[tuple[PlayerState, Face | None]] = []
    for j, p in enumerate(living):
        if j == mine:
            continue
        d = abs(j - mine)
        d = min(d, n - d)
        if d in natural:
            options.append((p, None))
        elif d in swapped:
            options.append((p, other_face))
    return options
