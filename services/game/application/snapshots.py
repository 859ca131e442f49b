"""Snapshots of folded games, so a read of a past version folds a bounded number of events.

``GET /games/{id}/versions/{v}`` (and GraphQL ``gameAt``) answers the game as it stood at
version ``v``: a fold of its first ``v`` events. Folded from the start, a read of a long game
(thousands of events) cost what the whole game costs, every time; six such reads a second
slowed every other request. So a fold keeps a copy of the session every ``SNAPSHOT_EVERY``
events as it passes them, and a later read starts from the nearest one at or below the version
it wants: at most ``SNAPSHOT_EVERY`` events plus the rest of a command's batch, whatever the
game's length. The first read of a game folds from the start and leaves its snapshots behind;
such a long fold runs in the service's one folding thread (the event loop answers other
requests meanwhile), and a read queued behind it starts from the snapshots it left.

A snapshot is a cache, never a source: it is kept in this process only (an LRU over every
game, ``SNAPSHOT_CAPACITY`` snapshots), keyed by (game, version), and it remembers the hash of
the event it was folded to: a read that finds another hash at that version (a store restored
under a running API) drops the game's snapshots and folds from the start. Sessions are mutable
(the engine evolves its game in place), so a snapshot is a ``GameSession.copy`` when kept and
copied again when used: nothing folded later reaches it. What a viewer sees is decided after
the fold, as for every read (``services/game/edge/visibility.py``): a snapshot holds the whole
game, unredacted, and never leaves the process.
"""

from __future__ import annotations

import bisect
import threading
from collections import OrderedDict
from dataclasses import dataclass

from services.game.application.session import GameSession

SNAPSHOT_EVERY = 100
"""A snapshot at every version divisible by this: a read folds at most this many events more
than its command's batch."""
SNAPSHOT_CAPACITY = 1_000
"""Snapshots kept in one process, least recently used dropped first (about 30 long games)."""


@dataclass(frozen=True, slots=True)
class Snapshot:
    session: GameSession
    """Folded to ``version``; never folded further (``start`` hands out a copy)."""
    hash: bytes
    """The stored hash of the event at ``version``."""

    @property
    def version(self) -> int:
        return self.session.version

    def start(self) -> GameSession:
        return self.session.copy()


class Snapshots:
    def __init__(self, every: int = SNAPSHOT_EVERY, capacity: int = SNAPSHOT_CAPACITY) -> None:
        self.every = every
        self.capacity = capacity
        self._kept: OrderedDict[tuple[str, int], Snapshot] = OrderedDict()
        self._versions: dict[str, list[int]] = {}
        """Each game's snapshot versions, sorted."""
        self._lock = threading.Lock()
        """Long folds run in a thread of their own (``GameService.load_at``)."""

    def __len__(self) -> int:
        with self._lock:
            return len(self._kept)

    def nearest(self, game_id: str, version: int) -> Snapshot | None:
        """The game's snapshot with the highest version at or below ``version``."""
        with self._lock:
            versions = self._versions.get(game_id)
            if not versions:
                return None
            i = bisect.bisect_right(versions, version)
            if i == 0:
                return None
            key = (game_id, versions[i - 1])
            self._kept.move_to_end(key)
            return self._kept[key]

    def due(self, version: int) -> bool:
        return version % self.every == 0

    def keep(self, session: GameSession, event_hash: bytes) -> None:
        """Keep a copy of ``session`` (folded to the event whose stored hash is ``event_hash``)."""
        key = (session.game_id, session.version)
        with self._lock:
            if key in self._kept:
                self._kept.move_to_end(key)
                return
        snapshot = Snapshot(session.copy(), event_hash)  # the copy outside the lock
        with self._lock:
            if key in self._kept:
                return
            self._kept[key] = snapshot
            bisect.insort(self._versions.setdefault(session.game_id, []), session.version)
            while len(self._kept) > self.capacity:
                (game_id, version), _ = self._kept.popitem(last=False)
                self._forget_version(game_id, version)

    def drop(self, game_id: str) -> None:
        with self._lock:
            for version in self._versions.pop(game_id, []):
                self._kept.pop((game_id, version), None)

    def _forget_version(self, game_id: str, version: int) -> None:
        versions = self._versions.get(game_id)
        if versions is None:
            return
        i = bisect.bisect_left(versions, version)
        if i < len(versions) and versions[i] == version:
            versions.pop(i)
        if not versions:
            del self._versions[game_id]
